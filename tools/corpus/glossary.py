"""Extract glossary terms and abbreviations (document 002, sfr-2012).

002 "Glossary of Dragon Dice Terms" prints one "Term: definition" paragraph
per entry, in alphabetical order. Some entries head a group of sub-entries
(Army: "The types of armies referenced in the rules are:" then "Acting
Army: ...", "Any Army: ..."); some definitions run on over further
paragraphs that open without a "Term:" label (Health's list of health
values, Stoneskin Rule's condition and exception). 002 "Commonly Used
Abbreviations" is a table, one "ABBR<tab>Expansion (kind)" line each.

001 (sfr-v4) prints no glossary and no abbreviation table (it expands DUA
and BUA in running text only), so every record here is sfr-2012.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from engine.records import GlossaryTerm

from .text import slug

DOC = "002"
EDITION = "sfr-2012"

_GLOSSARY = "\nGlossary of Dragon Dice Terms\n"   # the heading line (the contents line ends in a page number)
_GLOSSARY_END = "\nCoral Elf icons\n"             # "Icons of Each Race" follows the glossary
_ABBREVIATIONS = "\nCommonly Used Abbreviations\n"
_ABBREVIATIONS_END = "\nOutline of Play\n"

_PARAGRAPH = re.compile(r"[^\n]+(?:\n[^\n]+)*")
# An entry's label: a short capitalized name (or a quoted phrase) before ": ".
# Longer labels are sentences that open a continuation paragraph
# ("This rule has one condition in its application: ..." under Stoneskin Rule).
_LABEL = re.compile(r'(?P<label>[A-Z"][^:\n]{0,39}): (?P<text>.+)', re.S)
_MAX_LABEL_WORDS = 6
_ABBREVIATION = re.compile(r"(?P<abbr>\S+)\t(?P<expansion>.+?) \((?P<category>[^()]+)\)")

# Entries that 002 prints as sub-entries of the entry before them, as printed
# (read from the glossary; the extractor fails if one is not found in place).
# Their labels are matched exactly, so sentence-long labels such as the
# multiple-castings explanations are entries here.
_GROUPS: dict[str, tuple[str, ...]] = {
    "Army": (
        "Acting Army", "Any Army", "Army at a Terrain", "Attacking Army", "Campaign Army",
        "Controlling Army", "Counter-Maneuvering Army", "Defending Army", "Enemy Army", "Home Army",
        "Horde Army", "Maneuvering Army", "Marching Army", "Opposing Army", "Owning Army",
        "Reserve Army", "Target Army",
    ),
    # "Other dice have the following icons:" (ID Icon, next, is an entry of its own)
    "Icon": ("Disaster Face Icons", "Dragon Icons", "Special Location Icon"),
    "Major Terrain": ('"Capture a Terrain"',),
    "March": ('"Full and Complete March"',),
    "Multiple Castings": (  # "The explanations of spell multiplicity are:"
        "Multiple castings target multiple units/armies/terrains/items/dead unit areas",
        "Multiple castings increase the effect",
        "Multiple castings increase the number of health/units affected",
        "This spell can be cast only once per magic action",
    ),
    "Player": ("Acting Player", "Marching Player"),
    "Result": ("Finalized Results",),
    "Special Action Icon (SAI)": (  # "The SAI resolution types are:"
        "Conditional Resolution", "Delayed Resolution", "Late Resolution", "Instant Resolution",
        "Normal Resolution", "Special Resolution", "Unique Resolution",
    ),
    "Targeting Effect": ("Army-Targeting Effect", "Individual-Targeting Effect", "Terrain-Targeting Effect"),
    "Unit": ("Any unit in play", "Enemy Unit", "Opposing Unit"),
}


@dataclass
class _Entry:
    label: str
    paragraphs: list[str]
    offset: int
    parent: _Entry | None = None
    children: list[str] = field(default_factory=list)   # labels still expected under this entry
    rid: str = ""                                        # the record id, once given


def extract(ctx) -> list[GlossaryTerm]:
    terms = _terms(ctx)
    taken = {t.id for t in terms}
    records = terms + _abbreviations(ctx, taken)
    return sorted(records, key=lambda r: (r.edition, r.id))


# --- glossary terms -----------------------------------------------------


def _terms(ctx) -> list[GlossaryTerm]:
    records: list[GlossaryTerm] = []
    for entry in _entries(ctx):
        term, aliases = _name(entry.label)
        entry.rid = _unique(slug(term), {r.id for r in records})
        records.append(GlossaryTerm(
            id=entry.rid, term=term, edition=EDITION, kind="term",
            text=_join(entry.paragraphs), source=ctx.cite(DOC, entry.offset),
            parent=entry.parent.rid if entry.parent else None,
            aliases=aliases + _synonyms(entry.paragraphs),
        ))
    return records


def _entries(ctx) -> Iterator[_Entry]:
    """The glossary's entries in document order, each with its continuation paragraphs."""
    text = ctx.text(DOC)
    start = ctx.find(DOC, _GLOSSARY) + len(_GLOSSARY)
    end = ctx.find(DOC, _GLOSSARY_END, start)
    current: _Entry | None = None
    group: _Entry | None = None              # the entry whose sub-entries are being read
    for m in _PARAGRAPH.finditer(text, start, end):
        para = m.group()
        label = _label(para, group)
        if label is None:
            if current is None:
                raise ValueError(f"{DOC}: glossary opens without a term: {para[:60]!r}")
            current.paragraphs.append(para)
            continue
        if current is not None:
            yield current
        group = _group_after(group, label)
        current = _Entry(label, [para[len(label) + 2:]], m.start(), parent=group)
        if group is not None:
            group.children.pop(0)
        elif label in _GROUPS:
            group = current
            group.children = list(_GROUPS[label])
    if current is not None:
        yield current
    _check_groups_done(group)


def _label(para: str, group: _Entry | None) -> str | None:
    """The entry label that opens ``para``, or None for a continuation paragraph."""
    if group is not None and group.children and para.startswith(group.children[0] + ": "):
        return group.children[0]
    m = _LABEL.match(para)
    if not m or len(m["label"].split()) > _MAX_LABEL_WORDS:
        return None
    return m["label"]


def _group_after(group: _Entry | None, label: str) -> _Entry | None:
    """The group a new entry belongs to: a group ends once all its sub-entries are read."""
    if group is None:
        return None
    if group.children and label == group.children[0]:
        return group
    _check_groups_done(group)
    return None


def _check_groups_done(group: _Entry | None) -> None:
    if group is not None and group.children:
        raise ValueError(f"{DOC}: glossary entry {group.label!r}: sub-entry {group.children[0]!r} not found in place")


def _name(label: str) -> tuple[str, tuple[str, ...]]:
    """The term and its printed abbreviation: 'Buried Unit Area (BUA)' -> ('Buried Unit Area', ('BUA',))."""
    label = label.strip('"')
    # 'Terrain – See Major Terrain.': the label carries a cross-reference; the term is "Terrain"
    label = re.sub(r" – See [^:]+\.$", "", label)
    if m := re.fullmatch(r"(.+?) \(([A-Z]{2,})\)", label):
        return m[1], (m[2],)
    return label, ()


def _synonyms(paragraphs: list[str]) -> tuple[str, ...]:
    # "Out of the Game: ... Syn. Removed from the Game."
    return tuple(m[1] for p in paragraphs for m in re.finditer(r"\bSyn\. ([^.]+)\.", p))


def _join(paragraphs: list[str]) -> str:
    """Join a definition's paragraphs; one that opens in lower case continues the sentence before.

    (002 Save Roll: "... or (3) a unit or "x" health-worth of" / "units in an army ...";
    Out of Play: "... can only target them:" / "either by bringing them ...")
    """
    text = paragraphs[0]
    for para in paragraphs[1:]:
        text += (" " if para[0].islower() else "\n\n") + para
    return text


def _unique(rid: str, taken: set[str]) -> str:
    """002 prints "Enemy unit" as an entry and again as a sub-entry of Unit: the second gets "-2"."""
    base, n = rid, 2
    while rid in taken:
        rid, n = f"{base}-{n}", n + 1
    return rid


# --- abbreviations -------------------------------------------------------


def _abbreviations(ctx, taken: set[str]) -> list[GlossaryTerm]:
    text = ctx.text(DOC)
    start = ctx.find(DOC, _ABBREVIATIONS) + len(_ABBREVIATIONS)
    end = ctx.find(DOC, _ABBREVIATIONS_END, start)
    records = []
    for line in re.finditer(r"[^\n]+", text[start:end]):
        m = _ABBREVIATION.fullmatch(line.group())
        if not m:
            raise ValueError(f"{DOC}: unexpected line in the abbreviation table: {line.group()!r}")
        rid = slug(m["abbr"])
        # an abbreviation whose id is a term's id is told apart by "-abbr"
        rid = f"{rid}-abbr" if rid in taken else rid
        records.append(GlossaryTerm(
            id=rid, term=m["abbr"], edition=EDITION, kind="abbreviation",
            expansion=m["expansion"], category=m["category"],
            text=line.group().replace("\t", " "), source=ctx.cite(DOC, start + line.start()),
        ))
    return records
