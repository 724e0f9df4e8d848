"""Extract the special action icon (SAI) records of the three editions.

Where each edition defines its SAIs:

* sfr-2012 (002): the "Special Action Icon (SAI) List" chapter, one entry per
  SAI: a heading ``Name: Timing (rolls); Timing (rolls)`` and its definition.
  The races come from the "Icons of Each Race" tables of the same document.
* sfr-v4 (001): the "SPECIAL ACTION ICONS (SAIs)" table, one ``Name: text``
  row per SAI; v4 prints no resolution types.
* tsr-1996 (000): the rare units' SAIs in "Special Action Icons", one
  ``Name: text`` paragraph each; (004): the FAQ part "MONSTER SPECIAL ACTION
  ICONS", one topic per monster SAI whose first line is its definition
  (the lettered rulings under it are rulings, not part of the SAI).
"""

from __future__ import annotations

import re
from typing import get_args

from engine.records import Sai, SaiResolution
from engine.records.sai import Timing

from .normalize import FAQ_TOPICS
from .text import RACE_IDS, slug, spans, squash

_TIMINGS = frozenset(get_args(Timing))


def extract(ctx) -> list[Sai]:
    records = [*_sfr_2012(ctx), *_sfr_v4(ctx), *_tsr_rules(ctx), *_tsr_faq(ctx)]
    return sorted(records, key=lambda r: (r.edition, r.id))


def _region(ctx, doc: str, start: str, end: str) -> tuple[int, int]:
    """The span from ``start`` (inclusive) to the next ``end`` (exclusive)."""
    i = ctx.find(doc, start)
    return i, ctx.find(doc, end, i + len(start))


# --- sfr-2012 (002) -------------------------------------------------------

# An entry heading: "Charm: Special (melee attack)". The heading always ends
# with a closing parenthesis, except Hypnotic Glare's, which carries a stray
# ";" ("Delayed Special (melee attack);"). Some entries (Cloak .. Entangle)
# have no blank line between heading and definition: matching by line
# rather than by paragraph handles both layouts.
_HEADING = re.compile(
    r"^(?P<name>[A-Z][^:\n]*?): "
    r"(?P<res>(?:Instant|Delayed|Late|Conditional|Normal|Special|Unique)\b[^\n]*\))[;,]?[ \t]*$",
    re.M,
)
# One resolution clause: timing words, then the rolls in parentheses.
_CLAUSE = re.compile(r"(?P<timing>[A-Za-z/ ]+?)\s*\((?P<rolls>[^()]*)\)")
# Between clauses: "; " as a rule, ", " in Net's heading.
_CLAUSE_GAP = re.compile(r"[;,]?\s*")


def _sfr_2012(ctx) -> list[Sai]:
    doc = "002"
    text = ctx.text(doc)
    start, end = _region(ctx, doc, "Special Action Icon (SAI) List\n", "\nAdvanced Rules\n")
    races = _race_lists(ctx, {_printed_name(m) for m in _HEADING.finditer(text, start, end)})
    return [_sfr_2012_record(ctx, m, text[m.end():body_end], races)
            for m, body_end in spans(_HEADING, text, start, end)]


def _printed_name(m: re.Match[str]) -> str:
    return m["name"].strip()


def _sfr_2012_record(ctx, m: re.Match[str], body: str, races: dict[str, list[str]]) -> Sai:
    # the "TSR" logo caption 002 glues to the medallion names is dropped by the normalizer
    name = _printed_name(m)
    body = squash(body)
    if not body:
        raise ValueError(f"002: SAI {name!r} has no definition")
    # A heading glued to the end of the previous definition would hide an
    # entry: fail rather than lose it.
    glued = re.search(r"[a-z)]: (?:Instant|Delayed|Late|Conditional|Normal|Special|Unique) [^\n]*?\(", body)
    if glued:
        raise ValueError(f"002: a heading seems glued into {name!r}: {glued.group()!r}")
    return Sai(
        id=slug(name),
        name=name,
        edition="sfr-2012",
        resolution=_resolution(m["res"], name),
        races=tuple(races.get(name, ())),
        text=body,
        source=ctx.cite("002", m.start()),
        heading=m.group().strip(),
    )


def _resolution(res: str, name: str) -> tuple[SaiResolution, ...]:
    """Split "Normal (maneuver); Special (any non-maneuver)" into its clauses."""
    clauses, pos = [], 0
    for m in _CLAUSE.finditer(res):
        gap = res[pos:m.start()]
        if _CLAUSE_GAP.fullmatch(gap) is None:
            raise ValueError(f"002: {name}: unparsed {gap!r} in {res!r}")
        clauses.append(_clause(m["timing"].strip(), m["rolls"].strip(), name))
        pos = m.end()
    if not clauses or res[pos:].strip(" ;,"):
        raise ValueError(f"002: {name}: unparsed resolution {res!r}")
    return tuple(clauses)


def _clause(printed: str, rolls: str, name: str) -> SaiResolution:
    words = [w for w in re.split(r"[\s/]+", printed) if w not in ("and", "or")]
    unknown = [w for w in words if w not in _TIMINGS]
    if unknown:
        raise ValueError(f"002: {name}: unknown timing {unknown} in {printed!r}")
    either = " or " in printed or "/" in printed
    return SaiResolution(timing=tuple(words), rolls=rolls, printed=printed, either=either)


# --- sfr-2012 races (002 "Icons of Each Race") ------------------------------

# Each race's table opens with "<Race> icons"; the tables end where the
# abbreviation list begins. (The TOC names the chapter "Icons of Each Race",
# but the text carries no such heading.)
_RACE_TABLE = re.compile(r"^(?P<race>[A-Z][A-Za-z ]+) icons$", re.M)
# The Dwarf list prints "Smit" for Smite.
_TYPOS = {"Smit": "Smite"}
# The Goblin table came out of the PDF with its columns interleaved: each
# normal action icon is followed by three SAI names and a row of the ID
# table, and the "Special Action Icons" caption sits in the middle. The SAI
# names are still printed whole inside the Goblin table, so they are taken
# as the lines of that table that are SAI names.
_INTERLEAVED = ("goblin",)


def _race_lists(ctx, names: set[str]) -> dict[str, list[str]]:
    """SAI printed name -> race ids whose icon table lists it (002)."""
    text = ctx.text("002")
    start, end = _region(ctx, "002", "Coral Elf icons\n", "\nCommonly Used Abbreviations\n")
    tables = list(_RACE_TABLE.finditer(text, start, end))
    out: dict[str, list[str]] = {}
    for i, m in enumerate(tables):
        race = _race_id(m["race"])
        table = text[m.end():tables[i + 1].start() if i + 1 < len(tables) else end]
        for sai in _table_sais(race, table, names):
            out.setdefault(sai, []).append(race)
    missing = set(RACE_IDS) - {r for rs in out.values() for r in rs}
    # Dragonkin have no table in this chapter (theirs is in "Expansions").
    if missing != {"dragonkin"}:
        raise ValueError(f"002: icon tables missing for {sorted(missing)}")
    return out


def _race_id(heading: str) -> str:
    """'Coral Elf' -> 'coral-elf'; 'Amazons' -> 'amazon'."""
    rid = slug(heading)
    if rid not in RACE_IDS:
        rid = rid.removesuffix("s")
    if rid not in RACE_IDS:
        raise ValueError(f"002: unknown race in icon table {heading!r}")
    return rid


def _table_sais(race: str, table: str, names: set[str]) -> list[str]:
    lines = [line.strip() for line in table.split("\n")]
    if race in _INTERLEAVED:
        return [line for line in lines if line in names]
    caption = lines.index("Special Action Icons")
    sais = []
    for line in lines[caption + 1:]:
        if line.startswith("See "):  # Eldarim: "See Eldarim Champions for the icons ..."
            break
        for cell in filter(None, (c.strip() for c in line.split("\t"))):
            cell = _TYPOS.get(cell, cell)
            if cell not in names:
                raise ValueError(f"002: {race} icon table lists unknown SAI {cell!r}")
            sais.append(cell)
    return sais


# --- sfr-v4 (001) ----------------------------------------------------------

# The table rows: "\tName: text"; the table is printed in two halves, each
# under an "Icon\tEffect" caption.
_V4_ROW = re.compile(r"^\t(?P<name>[A-Z][A-Za-z ]+): (?P<text>[^\n]+)$")


def _sfr_v4(ctx) -> list[Sai]:
    doc = "001"
    text = ctx.text(doc)
    start, end = _region(ctx, doc, "SPECIAL ACTION ICONS (SAIs)\n", "\nSPELLS\n")
    intro = ctx.find(doc, "\nIcon\tEffect\n", start)  # the lines before are the chapter's prose
    records, pos = [], intro + 1
    for line in text[intro + 1:end].split("\n"):
        m = _V4_ROW.match(line)
        if m:
            records.append(Sai(
                id=slug(m["name"]), name=m["name"], edition="sfr-v4", resolution=(),
                text=m["text"].strip(), source=ctx.cite(doc, pos),
            ))
        elif line.strip() not in ("", "Icon\tEffect"):
            raise ValueError(f"001: unexpected line in the SAI table: {line!r}")
        pos += len(line) + 1
    return records


# --- tsr-1996 (000 rules, 004 FAQ) -----------------------------------------

# 000 "Special Action Icons": after the general notes, one paragraph per rare
# unit SAI, "Name: text" (Counter's paragraph runs over two lines).
_TSR_ENTRY = re.compile(r"(?P<name>[A-Z][a-z]+(?: [A-Z][a-z]+)*): (?P<text>.+)", re.S)


def _tsr_rules(ctx) -> list[Sai]:
    doc = "000"
    text = ctx.text(doc)
    intro = "Effects of rare units' special action icons are explained below."
    start, end = _region(ctx, doc, intro, "\nSpecial Abilities\n")
    start = text.index("\n", start)  # the intro sentence's paragraph is not an entry
    records = []
    for para in _paragraphs(text, start, end):
        m = _TSR_ENTRY.fullmatch(para.group())
        if not m:
            raise ValueError(f"000: unexpected paragraph among the SAIs: {para.group()[:60]!r}")
        records.append(_tsr_record(ctx, doc, m["name"], m["text"], para.start()))
    return records


def _tsr_faq(ctx) -> list[Sai]:
    """004: each topic of "MONSTER SPECIAL ACTION ICONS" but its General Rules.

    The topics are the normalizer's list (the one place that knows them); the
    SAI's text is the definition line that follows its topic line.
    """
    doc = "004"
    part = "MONSTER SPECIAL ACTION ICONS"
    pos = ctx.find(doc, f"*** {part}\n")
    records = []
    for topic_part, name in FAQ_TOPICS:
        if topic_part != part or name == "General Rules":
            continue
        at = ctx.find(doc, f"\n{name}\n\n", pos) + 1
        pos = at + len(name) + 2
        definition = ctx.text(doc)[pos:].split("\n", 1)[0]
        if re.match(r"[A-Z]\) ", definition):
            raise ValueError(f"004: topic {name!r} has no definition line")
        records.append(_tsr_record(ctx, doc, name, definition, at))
    return records


def _tsr_record(ctx, doc: str, name: str, text: str, offset: int) -> Sai:
    return Sai(
        id=slug(name), name=name, edition="tsr-1996", resolution=(),
        text=text.strip(), source=ctx.cite(doc, offset),
    )


def _paragraphs(text: str, start: int, end: int):
    """The blank-line separated paragraphs of text[start:end], as matches."""
    return re.compile(r"[^\n]+(?:\n[^\n]+)*").finditer(text, start, end)
