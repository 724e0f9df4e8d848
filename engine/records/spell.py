"""Spells as the rule documents define them, one record per edition."""

from __future__ import annotations

from typing import Literal

from .common import Color, Edition, Record, Source

Duration = Literal[
    "immediate",                    # resolves at once, nothing stays in play
    "until-beginning-of-next-turn",  # "until the beginning of your next turn"
    "until-end-of-next-turn",        # "until the end of your next turn" (tsr-1996 Watery Double)
    "until-used",                    # "until ... is used" / "until expended"
    "until-terrain-face-changes",
    "permanent",                     # changes the game state for good (e.g. terrain element)
    "special",                       # the text states a duration of its own
]

# sfr-2012 Spell Attributes defines four kinds of multiple casting.
Multiplicity = Literal[
    "increase-effect",     # "Multiple castings increase the effect"
    "target-another",      # "... or target another <X>"
    "once-per-action",     # "This spell can be cast only once per magic action"
    "no-additional-effect",  # multiple castings have no added effect / not stated
]

TargetKind = Literal[
    "army", "enemy-army", "own-army", "unit", "enemy-unit", "own-unit",
    "terrain", "dua", "enemy-dua", "own-dua", "bua", "summoning-pool", "reserve", "dragon", "other",
]


class Spell(Record):
    id: str                     # kebab case: "wall-of-fog"
    name: str                   # as printed: "Wall of Fog"
    edition: Edition
    color: Color | Literal["elemental"]
    cost: int
    lists: tuple[str, ...]      # ("basic",) or race ids: ("coral-elf",)
    reserve: bool | None        # castable from the reserve area; None where the edition says nothing
    cantrip: bool | None        # castable with Cantrip (sfr-v4 C column); None where unstated
    duration: Duration
    multiplicity: tuple[Multiplicity, ...]
    target: TargetKind
    text: str                   # verbatim effect text from the normalized source
    source: Source
