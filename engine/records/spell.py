"""Spells as the rule documents define them, one record per edition."""

from __future__ import annotations

from typing import Literal

from .common import Color, Edition, Record, Source

Duration = Literal[
    "immediate",                    # resolves at once, nothing stays in play ("immediately", "instantly",
                                    # or a one-time effect whose text states no duration)
    "until-beginning-of-next-turn",  # "until the beginning of your next turn"
    "until-end-of-next-turn",        # "until the end of your next turn" (tsr-1996 Watery Double)
    "until-used",                    # "until it is used ..." (sfr-2012 Earthen Armor, Burning Hands)
    "until-terrain-face-changes",    # "until the (target) terrain('s) face is changed" (sfr-2012 Deadlands)
    "permanent",                     # "for the duration of the game" (sfr-2012 Reform Land)
    "special",                       # the text states a duration of its own
]

# sfr-2012 Spell Attributes > Multiplicity defines four kinds of multiple casting.
# A spell can carry several ("increase the effect or target another army").
# An empty tuple means the text has no multiple-casting sentence (unstated).
Multiplicity = Literal[
    "increase-effect",     # "Multiple castings increase the effect" (also "... and the damage inflicted",
                           # tsr-1996 "increase the damage inflicted" / "increase the negative modifier")
    "target-another",      # "... or target another <X>" and the kind "Multiple castings target multiple <X>"
                           # (tsr-1996 "affect multiple <X>"): further castings may go to other targets
    "increase-number-affected",  # "Multiple castings increase the number of health/units affected"
                                 # (tsr-1996 "multiple units, larger units, or both")
    "once-per-action",     # "This spell can be cast only once per magic action"
    "no-additional-effect",  # the text says a further casting at the same target adds nothing
                             # (sfr-v4 Flash Flood: "never be reduced by more than one step")
]

TargetKind = Literal[
    "army",            # any army, friend or foe ("Target any army", tsr-1996 "the target army")
    "enemy-army",      # "Target any enemy army" / sfr-v4 "any opposing army"
    "own-army",        # "Target any of your armies"
    "own-armies",      # "Target all of your armies" (sfr-2012 Leaving)
    "unit",            # units whose owner the text leaves open (tsr-1996 "a target unit")
    "enemy-unit",      # "Target any enemy unit" / "one health-worth of enemy units" / "any opposing unit"
    "own-unit",        # "Target one of your units" / "one health-worth of your units"
    "terrain",         # "Target any terrain" (all armies there are affected)
    "minor-terrain",   # "Target a minor terrain in your summoning pool" (sfr-2012 Reform Land)
    "dua",             # a dead unit area whose owner the text leaves open ("Target any DUA")
    "enemy-dua",       # "units in any enemy's DUA" / "any enemy DUA"
    "own-dua",         # "units in your DUA" / "Target your DUA"
    "bua",             # the caster's buried unit area ("in your BUA", sfr-2012 Reforge Item)
    "summoning-pool",  # "your Dragonkin in the summoning pool" (sfr-2012 Summon Dragonkin)
    "reserve",         # a reserve area
    "dragon",          # a dragon ("Send any gold dragon to any terrain", tsr-1996 summons)
    "own-item",        # "one of your magical items, artifacts, or medallions" (sfr-2012 Airy Acquisition)
    "enemy-item",      # "any enemy ... magical item" (sfr-2012 Explode Stone)
    "spell",           # "points of non-blue spells in play" (sfr-2012 Elemental Blasts)
    "other",
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
    multiplicity: tuple[Multiplicity, ...]  # () where the text has no multiple-casting sentence
    target: TargetKind
    text: str                   # verbatim effect text from the normalized source
    source: Source
