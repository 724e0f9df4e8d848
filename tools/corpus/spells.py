"""Spell records for the three editions, read from the normalized rule documents.

* 000 (tsr-1996) "Spell List": a line "<cost> <Name>: <effect>" under headings
  such as "Earth: Gold".
* 001 (sfr-v4) "SPELLS": table rows "<cost>\\t<R>\\t<C>\\t<Name> (<Race>): <effect>"
  under headings such as "BLUE (AIR) SPELLS".
* 002 (sfr-2012) spell list: "<Name>" / "Casting Cost: N" / "Spell List: X" /
  effect text, under headings such as "Black (Death) Spells".

Duration, multiplicity and target are read off the effect text by small
phrase classifiers. Where a text states no such phrase, an override table
gives the human reading, with the reason beside it; a spell that neither a
classifier nor a table covers is a build error, never a silent default.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import get_args

from engine.records.spell import Duration, Multiplicity, Spell, TargetKind

from .text import RACE_IDS, slug, spans

EXPECTED = {"tsr-1996": 25, "sfr-v4": 18, "sfr-2012": 84}


@dataclass(frozen=True)
class Entry:
    """One spell as parsed from a document, before classification."""

    doc: str
    edition: str
    name: str
    color: str
    cost: int
    lists: tuple[str, ...]
    text: str          # effect text, white space squashed to single spaces
    offset: int        # where the spell's heading starts in the normalized text
    reserve: bool | None
    cantrip: bool | None

    @property
    def id(self) -> str:
        return slug(self.name)


def extract(ctx) -> list[Spell]:
    entries = _tsr_1996(ctx) + _sfr_v4(ctx) + _sfr_2012(ctx)
    spells = [_spell(ctx, e) for e in entries]
    _check_counts(spells)
    _check_overrides_used(spells)
    return sorted(spells, key=lambda s: (s.edition, s.id))


def _one_line(text: str) -> str:
    """Squash white space only. Spell effects are one paragraph each; 002 Wall of
    Thorns is split by a page break mid-sentence ("damage to itself" / "equal to")."""
    return " ".join(text.split())


def _check_counts(spells: list[Spell]) -> None:
    for edition, n in EXPECTED.items():
        got = sum(s.edition == edition for s in spells)
        if got != n:
            raise ValueError(f"spells: {edition} has {got} spells, the document lists {n}")


# ---------------------------------------------------------------- 000 tsr-1996

# 000 "Spell List" color headings: "Earth: Gold", "Air: Blue", ...
_TSR_COLOR = re.compile(r"^(?:Earth|Air|Fire|Water|Death): (Gold|Blue|Red|Green|Black)$", re.M)
# "2 Stoneskin: Add 1 automatic save ..." up to the next entry or blank line
# (Watery Double's line wraps: "... in your\nnext turn. Multiple castings ...").
_TSR_ENTRY = re.compile(r"^(\d+) ([A-Z][^:\n]*): (.+?)(?=\n\d+ [A-Z][^:\n]*: |\n\n|\Z)", re.M | re.S)


def _table_rows(ctx, doc: str, first: str, last: str, heading, row):
    """(color heading, row match) for each row of a spell table between two lines of a document."""
    text = ctx.text(doc)
    start = ctx.find(doc, f"\n{first}\n")
    end = ctx.find(doc, f"\n{last}\n", start)
    for head, stop in spans(heading, text, start, end):
        for m in row.finditer(text, head.end(), stop):
            yield head, m


def _tsr_1996(ctx) -> list[Entry]:
    doc = "000"
    entries = []
    for head, m in _table_rows(ctx, doc, "Spell List", "Outline of Play", _TSR_COLOR, _TSR_ENTRY):
        entries.append(Entry(
            doc=doc, edition="tsr-1996", name=m.group(2), color=head.group(1).lower(),
            cost=int(m.group(1)),
            # 000 has no racial spells: each color's list is open to any race casting that color
            # (000 Magic: "refer to the spell lists ... Each spell is preceded by a magic point cost").
            lists=("basic",), text=_one_line(m.group(3)), offset=m.start(2),
            reserve=_tsr_reserve(m.group(2)),
            # 000 Cantrip: "During any other action ... the cantrip can be used to purchase
            # immediate spells" names no spell, and its own Note lets a defender "buy spells such
            # as Stoneskin", which lasts a turn: which spells qualify is unstated.
            cantrip=None,
        ))
    return entries


# 000 Reserve Magic: "Spells can only be cast on friendly units and armies ... Terrain dice and
# other players units and armies can't be targeted by a reserve army's magic. Spells that inflict
# damage on friendly units or armies cannot be cast." The rule restricts targets, not spells, so
# each spell is read against it (human reading):
_TSR_RESERVE: dict[str, bool | None] = {
    # it helps a friendly unit or army, which a reserve army may target
    "stoneskin": True, "path": True, "breath-of-life": True, "wind-walk": True,
    "spark-of-life": True, "burning-hands": True, "watery-double": True, "wall-of-ice": True,
    "reanimate-dead": True,
    "open-grave": True,        # its text even covers "If this spell is cast on the reserve"
    # it targets a terrain: "Terrain dice ... can't be targeted by a reserve army's magic"
    "ash-storm": False, "wall-of-fog": False, "flash-flood": False,
    # it inflicts damage or kills, yet may only target friendly units or armies, and
    # "Spells that inflict damage on friendly units or armies cannot be cast"
    "hailstorm": False, "lightning-strike": False, "finger-of-death": False,
    # a penalty or burial that would only land on the caster's own armies or dead: the text
    # neither forbids nor allows it ("this army can only cast friendly magic") -> unstated
    "transmute-rock-to-mud": None, "dancing-lights": None, "palsy": None, "dust-to-dust": None,
    # a dragon is neither a unit, an army nor a terrain die, but is sent to a terrain -> unstated
    "summon-gold-dragon": None, "summon-blue-dragon": None, "summon-red-dragon": None,
    "summon-green-dragon": None, "summon-black-dragon": None,
}


def _tsr_reserve(name: str) -> bool | None:
    if slug(name) not in _TSR_RESERVE:
        raise LookupError(f"000: no reserve reading for {name!r}; add it to _TSR_RESERVE")
    return _TSR_RESERVE[slug(name)]


# ---------------------------------------------------------------- 001 sfr-v4

# 001 SPELLS headings; "yellow" is gold (earth) magic.
_V4_COLOR = re.compile(r"^(BLUE|GREEN|RED|YELLOW|ELEMENTAL)(?: \([A-Z]+\))? SPELLS$", re.M)
_V4_COLORS = {"BLUE": "blue", "GREEN": "green", "RED": "red", "YELLOW": "gold", "ELEMENTAL": "elemental"}
# Table row: "Cost\tR\tC\tName, Race and Effect"; an X marks the R or C column.
_V4_ROW = re.compile(r"^(\d+)\t(X?)\t(X?)\t([^(\n]+?) \(([^)\n]+)\): ([^\n]+)$", re.M)


def _sfr_v4(ctx) -> list[Entry]:
    doc = "001"
    entries = []
    for head, m in _table_rows(ctx, doc, "SPELLS", "RACIAL ICONS", _V4_COLOR, _V4_ROW):
        entries.append(Entry(
            doc=doc, edition="sfr-v4", name=m.group(4), color=_V4_COLORS[head.group(1)],
            cost=int(m.group(1)), lists=(_v4_list(m.group(5)),), text=_one_line(m.group(6)),
            offset=m.start(4),
            # 001 SPELLS: "Spells marked in the 'R' column may be cast from reserves. Spells
            # marked in the 'C' column may be cast using the Cantrip SAI."
            reserve=m.group(2) == "X", cantrip=m.group(3) == "X",
        ))
    return entries


def _v4_list(race: str) -> str:
    """"Any" is a basic spell (001 Magic Resolution: "Basic spells ... racial spells"); a race name
    may be plural ("Firewalkers")."""
    if race == "Any":
        return "basic"
    return _race_id(race.removesuffix("s") if slug(race) not in RACE_IDS else race)


# ---------------------------------------------------------------- 002 sfr-2012

_SFR_SECTIONS = (  # heading, color; each section ends where the next heading starts
    ("Black (Death) Spells", "black"),
    ("Blue (Air) Spells", "blue"),
    ("Gold (Earth) Spells", "gold"),
    ("Green (Water) Spells", "green"),
    ("Red (Fire) Spells", "red"),
    ("Elemental Spells", "elemental"),
)
_SFR_END = "Special Action Icons – General Information"
_SFR_ENTRY = re.compile(r"^([^\n]+)\nCasting Cost: (\d+)\nSpell List: ([^\n]+)\n", re.M)

# 002 misprints in "Spell List:" lines; the Scalder race is meant (Racial Abilities "Scalders").
_LIST_MISPRINTS = {"Scaldier": "scalder", "Scalded": "scalder"}


def _sfr_2012(ctx) -> list[Entry]:
    doc = "002"
    text = ctx.text(doc)
    reserve = _sfr_reserve_list(ctx)
    at = ctx.find(doc, "\nSpell Attributes\n")
    bounds = []
    for heading, color in _SFR_SECTIONS:
        at = ctx.find(doc, f"\n{heading}\n", at)
        bounds.append((at, color))
        at += 1
    bounds.append((ctx.find(doc, f"\n{_SFR_END}\n", at), None))
    entries = []
    for (start, color), (end, _) in zip(bounds, bounds[1:]):
        entries += _sfr_section(text, start, end, color, reserve)
    _check_reserve_list(entries, reserve)
    return entries


def _sfr_section(text: str, start: int, end: int, color: str, reserve: dict[str, str]) -> list[Entry]:
    """Entries of one color section; each effect runs to the next entry's name line."""
    matches = list(_SFR_ENTRY.finditer(text, start, end))
    entries = []
    for i, m in enumerate(matches):
        stop = matches[i + 1].start() if i + 1 < len(matches) else end
        name = m.group(1).strip()
        entries.append(Entry(
            doc="002", edition="sfr-2012", name=name, color=color, cost=int(m.group(2)),
            lists=(_sfr_list(m.group(3).strip()),), text=_one_line(text[m.end():stop]),
            offset=m.start(1),
            # 002 Reserve Magic: "The following is a list of those spells that can be cast from
            # the reserve area, no other spells can be cast from reserves"
            reserve=name in reserve,
            # 002 Cantrip SAI: "Cantrip can be used to purchase spells that are immediately
            # resolved"; the spell list marks no spell for it -> unstated per spell.
            cantrip=None,
        ))
    return entries


def _sfr_list(value: str) -> str:
    if value == "Basic":  # 002 Racial Limitation: "basic – meaning any race can cast this spell"
        return "basic"
    return _LIST_MISPRINTS.get(value) or _race_id(value)


def _sfr_reserve_list(ctx) -> dict[str, str]:
    """002 Reserve Magic list: spell name -> the color line it is listed under."""
    doc = "002"
    text = ctx.text(doc)
    start = ctx.find(doc, "The following is a list of those spells that can be cast from the reserve area")
    end = ctx.find(doc, "\nAfter the acting army's magic action has been made", start)
    names = {}
    for line in text[start:end].splitlines()[1:]:
        m = re.match(r"^(Black|Blue|Gold|Green|Red|Elemental) \([^)]*\): (.+)$", line)
        if m:
            for name in m.group(2).split(","):
                names[name.strip()] = m.group(1).lower()
    return names


def _check_reserve_list(entries: list[Entry], reserve: dict[str, str]) -> None:
    """Every name of the reserve list is a spell of the color it is listed under."""
    colors = {e.name: e.color for e in entries}
    for name, color in reserve.items():
        if colors.get(name) != color:
            raise LookupError(f"002 reserve list: {name!r} ({color}) is not a {color} spell")


def _race_id(name: str) -> str:
    rid = slug(name)
    if rid not in RACE_IDS:
        raise LookupError(f"spells: unknown race {name!r}")
    return rid


# ---------------------------------------------------------------- classification


def _spell(ctx, e: Entry) -> Spell:
    key = (e.edition, e.id)
    return Spell(
        id=e.id, name=e.name, edition=e.edition, color=e.color, cost=e.cost, lists=e.lists,
        reserve=e.reserve, cantrip=e.cantrip,
        duration=_pick(key, DURATION_OVERRIDES, _duration(e.text), "duration"),
        multiplicity=MULTIPLICITY_OVERRIDES.get(key, _multiplicity(e.text)),
        target=_pick(key, TARGET_OVERRIDES, _target(e.text), "target"),
        text=e.text, source=ctx.cite(e.doc, e.offset),
    )


def _pick(key, overrides: dict, found, what: str):
    if key in overrides:
        return overrides[key]
    if found is None:
        raise ValueError(f"spells: {key} states no {what} the classifier knows; add an override")
    return found


# 002 Spell Attributes, Duration: instantaneous spells are "noted by the words "immediate" or
# "immediately""; the others name when they end. A spell with a duration may still act
# "immediately" inside it (Open Grave), so the "until" phrases are looked for first.
_DURATIONS: tuple[tuple[str, Duration], ...] = (
    (r"until the end of your next turn", "until-end-of-next-turn"),
    (r"until the beginning of your next turn", "until-beginning-of-next-turn"),
    (r"until the (?:target )?terrain(?:'s)? face is changed", "until-terrain-face-changes"),
    (r"until it is used", "until-used"),
    (r"for the duration of the game", "permanent"),
)
_IMMEDIATE = r"\b(?:immediately|instantly)\b"


def _duration(text: str) -> Duration | None:
    found = {d for pattern, d in _DURATIONS if re.search(pattern, text, re.I)}
    if len(found) == 1:
        return found.pop()
    if not found and re.search(_IMMEDIATE, text, re.I):
        return "immediate"
    return None  # none or several: needs a human reading


# Texts that state no duration: each is a one-time effect (inflict, kill, restore, bury, move,
# send a dragon), which 002 Spell Attributes calls instantaneous: "cause damage or generate an
# effect and then expire". 001 Cantrip says the same of spells cast with it: "These spells are
# resolved immediately."
DURATION_OVERRIDES: dict[tuple[str, str], Duration] = {
    ("tsr-1996", sid): "immediate" for sid in (
        "dust-to-dust", "hailstorm", "breath-of-life", "spark-of-life", "reanimate-dead",
        "finger-of-death", "summon-gold-dragon", "summon-blue-dragon", "summon-red-dragon",
        "summon-green-dragon", "summon-black-dragon",
    )
} | {
    ("sfr-v4", sid): "immediate" for sid in (
        "hailstorm", "mirage", "lightning-strike", "flash-flood", "path", "resurrect-dead",
        "summon-dragon",
    )
}


# 002 Spell Attributes, Multiplicity (and the tsr-1996 wordings of the same ideas).
_MULTIPLICITY: tuple[tuple[str, Multiplicity], ...] = (
    # "Multiple castings increase the effect"; 002 "or damage inflicted" adds damage too;
    # 000 "increase the damage inflicted", "increase the negative modifier"
    (r"increase the (?:effect|damage|negative modifier)|and the damage inflicted", "increase-effect"),
    # "Multiple castings increase the number of health/units affected"; 000 "can revive
    # multiple units, larger units, or both", "reanimate multiple 1-health units"
    (r"increase the number of|multiple units, larger units|reanimate multiple", "increase-number-affected"),
    # "... or target another <X>", "Multiple castings target multiple <X>"; 000 "affect multiple
    # <X>", "can target more than one player's units"
    (r"target another|target multiple|affect multiple|target more than one", "target-another"),
    (r"can be cast only once per magic action", "once-per-action"),
)


def _multiplicity(text: str) -> tuple[Multiplicity, ...]:
    """Kinds named by the text, in the order of the Literal; () when it says nothing."""
    found = {kind for pattern, kind in _MULTIPLICITY if re.search(pattern, text, re.I)}
    return tuple(k for k in get_args(Multiplicity) if k in found)


_SUMMON_SAME_OR_MULTIPLE: tuple[Multiplicity, ...] = ("increase-effect", "target-another")

MULTIPLICITY_OVERRIDES: dict[tuple[str, str], tuple[Multiplicity, ...]] = {
    # 002 summons: "Multiple castings target the same or multiple terrains." Not one of the four
    # kinds: unlike "target multiple" (no second casting at a given target) a further casting may
    # go to the same terrain (another dragon arrives there) or to another terrain.
    **{("sfr-2012", sid): _SUMMON_SAME_OR_MULTIPLE for sid in (
        "summon-ivory-dragon", "summon-elemental-dragon", "summon-hybrid-dragon",
        "summon-ivory-hybrid-dragon", "summon-white-dragon",
    )},
    # 002 Promote Dragonkin: "Multiple castings target multiple units or increase the health.
    # This spell allows you to promote to a unit of greater health" -- the health-worth affected
    # grows, as Rise of the Eldarim says with "increase the number of health affected".
    ("sfr-2012", "promote-dragonkin"): ("target-another", "increase-number-affected"),
    # 001 SPELLS: "Multiple castings of a spell against the same target increase the value
    # highlighted in red" -- the highlighting is lost in the text, so most v4 spells stay
    # unstated (); these three say more in words:
    # "casting Fiery Weapon twice against a target would add four melee or missile results"
    ("sfr-v4", "fiery-weapon"): ("increase-effect",),
    # "A unit may not be targeted by more than one Lightning Strike per magic action."
    ("sfr-v4", "lightning-strike"): ("target-another",),
    # "A terrain may never be reduced by more than one step during a players turn from the
    # effects of Flash Flood."
    ("sfr-v4", "flash-flood"): ("no-additional-effect",),
}


def _target(text: str) -> TargetKind | None:
    """The kind of the "Target ..." sentence (001, 002); 000 names "the target army/terrain/unit"."""
    m = re.match(r"Target ([^.]+)\.", text)
    if m:
        return _target_phrase(m.group(1))
    m = re.search(r"\btarget (army|terrain|unit)\b", text, re.I)
    return m.group(1).lower() if m else None


def _target_phrase(phrase: str) -> TargetKind | None:
    # where the targets lie decides first: "one health-worth of units in your DUA" is a DUA target
    for pattern, kind in ((r"\bspells\b", "spell"), (r"minor terrain", "minor-terrain"),
                          (r"\bBUA\b", "bua"), (r"summoning pool", "summoning-pool"),
                          (r"all of your armies", "own-armies")):
        if re.search(pattern, phrase):
            return kind
    if "DUA" in phrase:
        return _owned(phrase[: phrase.index("DUA")], "dua")
    m = re.search(r"\b(arm(?:y|ies)|units?|dragonkin|terrain|(?:magical )?items?)\b", phrase, re.I)
    if not m:
        return None
    noun = m.group(1).lower()
    if noun == "terrain":
        return "terrain"
    head = {"a": "army", "u": "unit", "d": "unit", "m": "item", "i": "item"}[noun[0]]
    return _owned(phrase[: m.start()], head)


def _owned(before: str, head: str) -> TargetKind | None:
    """Owner qualifier in the words before the noun: "enemy"/"opposing" or "your"."""
    if re.search(r"\b(?:enemy|enemy's|opposing)\b", before):
        return f"enemy-{head}"
    if re.search(r"\byour\b", before):
        return f"own-{head}"
    return None if head == "item" else head  # an item of no stated owner: needs a reading


# 000 texts without "target army/terrain/unit" (human reading of the object acted on).
TARGET_OVERRIDES: dict[tuple[str, str], TargetKind] = {
    # "Choose 1 health-worth of any player's dead units to be buried"
    ("tsr-1996", "dust-to-dust"): "dua",
    # "Immediately move one of your units (any size) from one terrain to another"
    ("tsr-1996", "path"): "own-unit",
    # "Restore 1 health-worth of units from the dead unit area to the casting army" /
    # "Return a dead 1-health unit to the casting army": whose dead unit area is not said
    ("tsr-1996", "breath-of-life"): "dua",
    ("tsr-1996", "spark-of-life"): "dua",
    ("tsr-1996", "reanimate-dead"): "dua",
    # "Send any gold dragon to any terrain, regardless of ownership or location."
    **{("tsr-1996", f"summon-{c}-dragon"): "dragon" for c in ("gold", "blue", "red", "green", "black")},
}


def _check_overrides_used(spells: list[Spell]) -> None:
    """An override naming no spell is a typo that would hide a classifier gap."""
    keys = {(s.edition, s.id) for s in spells}
    for table in (DURATION_OVERRIDES, MULTIPLICITY_OVERRIDES, TARGET_OVERRIDES):
        for key in table:
            if key not in keys:
                raise LookupError(f"spells: override for unknown spell {key}")
    for sid in _TSR_RESERVE:
        if ("tsr-1996", sid) not in keys:
            raise LookupError(f"spells: reserve reading for unknown tsr-1996 spell {sid!r}")
