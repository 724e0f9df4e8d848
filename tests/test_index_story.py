"""index/story.py: the books' fiction told apart from their rules text (issue 23)."""

from __future__ import annotations

from index.corpus import records, sections
from index.story import is_story, split
from fast_yaml import load_yaml
from tools.check_relevance_set import HELDOUT_FILE, TUNING_FILE


def test_the_scenes_the_issue_names_are_story():
    step7 = sections()["sfr-2012:the-turn-sequence.dragon-attack-phase.step-7-dragon-slaying"].text
    rules, story = split(step7)
    assert story.startswith("The great black wyrm thrashed") and "The beast was dead." in story
    assert rules.startswith("When dragons are killed, they are placed back in their summoning pool.")


def test_every_race_legend_of_2012_is_story_and_its_abilities_are_rules():
    table = sections()
    legends = [s for sid, s in table.items() if sid.count(".") == 1 and sid.startswith("sfr-2012:racial-abilities.")
               and s.text]  # (the Eldarim champions' heading has no text of its own)
    assert len(legends) >= 13
    for legend in legends:
        children = [s for sid, s in table.items() if sid.startswith(legend.id + ".")]
        assert split(legend.text)[1], legend.id  # each race opens with its legend
        for child in children:  # Terrain Advantage, Mutation, ...: rules
            assert not split(child.text)[1], child.id


def test_no_record_text_is_story():
    for kind in ("spell", "sai", "glossary", "ruling"):
        for r in records(kind):
            text = getattr(r, "text", "") or ""
            assert not [p for p in text.split("\n\n") if is_story(p)], f"{kind}:{r.id}@{r.edition}"


def test_no_quoted_answer_of_the_relevance_set_is_story():
    """The rule text the relevance set quotes as answers (tests/relevance/) is rules text."""
    table = sections()
    for path in (TUNING_FILE, HELDOUT_FILE):
        for q in load_yaml(path.read_text(encoding="utf-8")):
            section = table[q["why"].split(": ", 1)[0]]
            rules, _story = split(section.text)
            quote = (q.get("quote") or "").split("...")[0].strip()
            if quote and quote in section.text:
                assert quote in rules, (q["q"], section.id)


def test_examples_and_notes_are_rules_whatever_their_words():
    assert not is_story('Example: He laughed and said, "Roll again," so she did and was told to wait.')
    assert is_story('"We hold the stones," Merod said. He snarled and gripped his poniard as the army was '
                    'told to wait.')
