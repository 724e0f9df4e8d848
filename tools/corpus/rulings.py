"""Extract the lettered rulings of the TSR FAQ, Part Four (document 004, tsr-1996).

The normalizer (``normalize_faq``) lays 004 out as::

    *** PART
    <blank>
    Topic
    <blank>
    [a quoted definition or an SAI definition, one line]
    A) ruling
    B) ruling

Every lettered line becomes one ``Ruling``. What a ruling concerns is read
from its place (the part's race, the topic's SAI) and from the names it
prints: spells and SAIs of the tsr-1996 rules (000), races, and a few rule
sections of 000 that a ruling plainly addresses.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from engine.records import Ruling

from .text import RACE_IDS, slug

DOC = "004"
RULES = "000"           # the tsr-1996 rules booklet, where FAQ names are defined
EDITION = "tsr-1996"

_PARAGRAPH = re.compile(r"[^\n]+(?:\n[^\n]+)*")
_PART = re.compile(r"\*\*\* (?P<name>[A-Z][A-Z ]+)")
_RULING = re.compile(r"(?P<letter>[A-Z])\) (?P<text>.+)")
_END = "\nQuestions? Comments?"       # 004 closes with a contact line, no more rulings

# The part whose topics are SAIs (004: "*** MONSTER SPECIAL ACTION ICONS").
_SAI_PART = "MONSTER SPECIAL ACTION ICONS"
_GENERAL = "General Rules"

# 004 runs the part's intro sentence into ruling D of its General Rules
# ("... 3) Resolved first Notes on individual monster special action icons
# follow."); the normalizer gives it a paragraph of its own. It is no ruling.
_PART_INTRO = "Notes on individual monster special action icons follow."

# Rule sections of 000 a ruling plainly addresses when it uses these words
# (pattern -> the 000 section heading; the section id is looked up).
_RULE_TOPICS = (
    (r"\bdragon attack\b", "Dragon Rules"),
    (r"\bTerrain Advantage\b", "Terrain Advantage"),
    (r"\bmagic from reserves?\b", "Reserve Magic"),
    (r"\b[Rr]out(?:e|ed|ing)?\b", "Option: Routing"),
    (r"\bEighth Face\b", "The Eighth Face"),
    (r"\bStanding Stones\b", "Standing Stones"),
    (r"\bspecial racial (?:bonus|abilit)", "Special Abilities"),
    (r"\bspecial action", "Special Action Icons"),
    (r"\bworth \d+ health\b", "Health"),
    (r"\bID icons?\b", "Icons"),
    (r'"during melee"', "Melee"),
    (r'"during missile"', "Missile"),
    (r"\bcharge\b", "Charge"),
    (r"\bskirmish", "Skirmish"),
    (r"\b[Rr]eserves?\b", "Reserves"),
    (r"\bfrom the dead\b|\bdead area\b", "Dead"),
    (r"\bbur(?:y|ied)\b", "Buried"),
)

# Words that contain an SAI name but are not one: the Standing Stones
# eighth-face icon (000 "Special Icons") is not the Stone SAI.
_NOT_SAI = ("Standing Stones",)


@dataclass(frozen=True)
class _Line:
    text: str
    start: int


def extract(ctx) -> list[Ruling]:
    names = _Names.read(ctx)
    records = [_record(ctx, names, *entry) for entry in _entries(ctx)]
    return sorted(records, key=lambda r: (r.edition, r.id))


# --- reading the layout -------------------------------------------------


def _paragraphs(text: str, start: int, end: int) -> list[list[_Line]]:
    """Blank-line separated paragraphs of text[start:end], as lists of lines with offsets."""
    paras = []
    for m in _PARAGRAPH.finditer(text, start, end):
        lines, pos = [], m.start()
        for line in m.group().split("\n"):
            lines.append(_Line(line, pos))
            pos += len(line) + 1
        paras.append(lines)
    return paras


def _entries(ctx) -> Iterator[tuple[str, str, str, str, str, int]]:
    """(part, topic, id letter, printed letter, text, offset) for every lettered ruling."""
    text = ctx.text(DOC)
    start = ctx.find(DOC, "\n*** ") + 1
    end = ctx.find(DOC, _END, start)
    part = topic = None
    paras = _paragraphs(text, start, end)
    for i, para in enumerate(paras):
        first = para[0].text
        if m := _PART.fullmatch(first):
            part, topic = m["name"], None
        elif first == _PART_INTRO:
            continue
        elif len(para) == 1 and not _RULING.fullmatch(first) and _has_rulings(paras, i + 1):
            topic = first
        elif _has_rulings(paras, i) and part and topic:
            yield from _topic_rulings(part, topic, para)
        else:
            raise ValueError(f"{DOC}: unexpected paragraph at offset {para[0].start}: {first[:60]!r}")


def _has_rulings(paras: list[list[_Line]], i: int) -> bool:
    return i < len(paras) and any(_RULING.fullmatch(line.text) for line in paras[i])


def _topic_rulings(part: str, topic: str, para: list[_Line]) -> Iterator[tuple[str, str, str, str, str, int]]:
    """The rulings of one topic; a definition line may only come before them."""
    seen: list[str] = []
    for line in para:
        m = _RULING.fullmatch(line.text)
        if not m:
            if seen:
                raise ValueError(f"{DOC}: unlettered line among the rulings of {topic!r}: {line.text[:60]!r}")
            continue  # the topic's definition
        letter = m["letter"]
        _check_letter(topic, seen, letter)
        seen.append(letter)
        # 004 prints some letters twice under one topic; keep both, the second with "-2"
        key = letter.lower() + (f"-{seen.count(letter)}" if seen.count(letter) > 1 else "")
        yield part, topic, key, letter, m["text"].strip(), line.start


def _check_letter(topic: str, seen: list[str], letter: str) -> None:
    """Letters run A, B, C ...; a repeat of the previous letter is a printing slip, anything else a mis-split."""
    expected = chr(ord(seen[-1]) + 1) if seen else "A"
    if letter != expected and not (seen and letter == seen[-1]):
        raise ValueError(f"{DOC}: {topic!r}: ruling {letter!r} after {seen!r}")



# --- what a ruling concerns ---------------------------------------------


@dataclass(frozen=True)
class _Names:
    """Names a ruling may print, each with the ref it stands for."""

    spells: tuple[tuple[re.Pattern[str], str], ...]
    sais: tuple[tuple[re.Pattern[str], str], ...]
    races: tuple[tuple[re.Pattern[str], str], ...]
    rules: tuple[tuple[re.Pattern[str], str], ...]

    @classmethod
    def read(cls, ctx) -> _Names:
        return cls(
            spells=tuple((_name_pattern(n, "s"), f"spell:{slug(n)}") for n in _spell_names(ctx)),
            sais=tuple((_sai_pattern(n), f"sai:{slug(n)}") for n in _sai_names(ctx)),
            races=tuple((_race_pattern(r), f"race:{r}") for r in RACE_IDS),
            rules=tuple((re.compile(p), f"rule:{_rule_section(ctx, h)}") for p, h in _RULE_TOPICS),
        )


def _spell_names(ctx) -> list[str]:
    """000 "Spell List": one spell a line, "<cost> <Name>: <effect>"."""
    sections = [s for s in ctx.sections[RULES] if s.id.startswith(f"{EDITION}:spell-list.")]
    names = [m[1] for s in sections for m in re.finditer(r"^\d+ ([A-Z][^:\n]+):", s.text, re.M)]
    if len(names) != 25:  # 000 lists five spells for each of five colors
        raise ValueError(f"{RULES}: expected 25 spells, found {len(names)}")
    return names


def _sai_names(ctx) -> list[str]:
    """The rare-unit SAIs of 000 ("Special Action Icons") and the monster SAIs of 004 (its topics)."""
    parent = _section_by_heading(ctx, RULES, "Special Action Icons").id
    rare = [s.heading for s in ctx.sections[RULES] if s.parent == parent]
    monster = sorted({t for p, t, *_ in _entries(ctx) if p == _SAI_PART and t != _GENERAL})
    return rare + monster


def _name_pattern(name: str, endings: str) -> re.Pattern[str]:
    """A capitalized name as a whole word, optionally inflected ("Lightning Strikes")."""
    return re.compile(rf"\b{re.escape(name)}(?:{endings})?\b")


def _sai_pattern(name: str) -> re.Pattern[str]:
    # SAI names are printed as nouns and verbs: "Rends", "Flies", "Charmed", "Ferried", "Roar's"
    if name.endswith("y"):
        return re.compile(rf"\b{re.escape(name[:-1])}(?:y|ies|ied)\b")
    stem = name[:-1] if name.endswith("e") else name
    return re.compile(rf"\b(?:{re.escape(name)}(?:s|'s)?|{re.escape(stem)}(?:ed|ing))\b")


def _race_pattern(race_id: str) -> re.Pattern[str]:
    # "Amazon(s)", "Coral Elf"/"Coral Elves", "Dwarf"/"Dwarves"/"Dwarven"
    name = race_id.replace("-", " ").title()
    if name.endswith("f"):
        return re.compile(rf"\b{re.escape(name[:-1])}(?:f|ves|ven)\b")
    return re.compile(rf"\b{re.escape(name)}s?\b")


def _section_by_heading(ctx, doc: str, heading: str):
    for section in ctx.sections[doc]:
        if section.heading == heading:
            return section
    raise LookupError(f"{doc}: no section headed {heading!r}")


def _rule_section(ctx, heading: str) -> str:
    return _section_by_heading(ctx, RULES, heading).id


def _concerns(names: _Names, part: str, topic: str, text: str) -> tuple[str, ...]:
    refs = []
    if part == _SAI_PART and topic != _GENERAL:
        refs.append(f"sai:{slug(topic)}")
    refs += [ref for pattern, ref in names.races if pattern.search(part.title())]
    sai_text = text
    for phrase in _NOT_SAI:
        sai_text = sai_text.replace(phrase, " " * len(phrase))
    found = [(m.start(), ref) for pattern, ref in names.spells + names.races if (m := pattern.search(text))]
    found += [(m.start(), ref) for pattern, ref in names.sais if (m := pattern.search(sai_text))]
    refs += [ref for _, ref in sorted(found)]
    refs += [ref for pattern, ref in names.rules if pattern.search(text)]
    return tuple(dict.fromkeys(refs))


def _record(ctx, names: _Names, part: str, topic: str, key: str, letter: str, text: str, offset: int) -> Ruling:
    return Ruling(
        id=f"{EDITION}:faq.{slug(part)}.{slug(topic)}.{key}",
        edition=EDITION,
        part=part,
        topic=topic,
        letter=letter,
        text=text,
        concerns=_concerns(names, part, topic, text),
        source=ctx.cite(DOC, offset),
    )
