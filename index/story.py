"""Story text: the rulebooks' fiction (lore, battle scenes, dialogue), told apart from rules text.

The sfr-2012 book opens many sections with a scene ("The great black wyrm
thrashed ... The beast was dead.") and the race sections with their legends.
Such a paragraph answers no rules question, so the search keeps it out of the
text it ranks and snippets by default (``index.documents`` puts it in a field
of its own, searched with ``story:yes``); ``ddref rule`` still prints it.

A paragraph is story when it has almost none of the rules' own vocabulary
(army, roll, result, damage, you, must ...) and reads as narrative: past-tense
storytelling words (was, said, laughed ...) or dialogue ('," Zephras told').
An "Example:" or "Note:" paragraph is always rules text. The measure was set
on the corpus: tests/test_index_story.py checks the story paragraphs it finds
and that no rules paragraph the relevance set quotes is among them.
"""

from __future__ import annotations

import re

RULES_WORDS = frozenset(
    "you your may must can cannot unit units army armies roll rolls rolled result results terrain terrains "
    "damage save saves spell spells turn health player players icon icons sai sais step phase action actions "
    "melee missile maneuver magic die dice target effect".split()
)
STORY_WORDS = frozenset(
    "was were had he she him himself herself said cried laughed snarled thought knew told asked replied".split()
)
WORD = re.compile(r"[a-z]+")
DIALOGUE = re.compile(r"[.!?,]\"(?:\s|$)")  # a quotation closed after its punctuation: '," Zephras told'
RULES_START = re.compile(r"\s*(example|note)\b", re.IGNORECASE)


def is_story(paragraph: str) -> bool:
    """Whether ``paragraph`` is fiction rather than rules text."""
    if RULES_START.match(paragraph):
        return False
    words = WORD.findall(paragraph.lower())
    if len(words) < 6:
        return False
    density = sum(w in RULES_WORDS for w in words) / len(words)
    story = sum(w in STORY_WORDS for w in words)
    return (density <= 0.03 and story >= 1) or (density < 0.05 and story >= 2) or \
        (density < 0.08 and bool(DIALOGUE.search(paragraph)))


def split(text: str) -> tuple[str, str]:
    """``text`` as (its rules paragraphs, its story paragraphs), each joined by blank lines."""
    rules, story = [], []
    for paragraph in text.split("\n\n"):
        (story if is_story(paragraph) else rules).append(paragraph)
    return "\n\n".join(rules), "\n\n".join(story)
