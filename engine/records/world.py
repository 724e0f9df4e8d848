"""Terrains, eighth-face icons, dragons: the board and what flies over it.

Every record is per edition: the three rule books disagree on colors, damage
numbers and breath effects, so nothing here is shared across editions.
"""

from __future__ import annotations

from typing import Literal

from .common import Color, Edition, Record, Source

TerrainKind = Literal["major", "minor", "special"]


class Terrain(Record):
    """A terrain type (major), a minor terrain die, or a special (gold ink) terrain."""

    id: str                         # "coastland", "bridge", "dragons-lair"
    name: str                       # "Coastland", "Bridge", "Dragon's Lair"
    edition: Edition
    kind: TerrainKind               # "major" = the basic terrain types; sfr-2012 adds "minor" and "special"
    colors: tuple[Color, ...]       # its two elements as the edition states them; () where unstated
    #                                 sfr-2012 minor terrains: never stated per die;
    #                                 sfr-2012 special terrains: "They come in all six color combinations"
    text: str                       # verbatim statement of the terrain's colors or effect
    source: Source
    disaster: str | None = None     # minor terrains: the Disaster Face icon on that die ("Flood" on the Bridge)
    frontier_only: bool = False     # True where the edition allows the terrain only at the frontier (special terrains)


class EighthFace(Record):
    """A special location icon on a terrain's eighth face (City, Standing Stones, Temple, Tower)."""

    id: str                         # "standing-stones"
    name: str                       # "Standing Stones"
    edition: Edition
    text: str                       # the icon's rule, verbatim (examples left out)
    source: Source


FaceName = Literal["belly", "breath", "claws", "jaws", "tail", "treasure", "wing"]


class DragonFace(Record):
    """One icon of a dragon die and what it does in an attack, as one edition states it."""

    face: FaceName
    text: str                       # verbatim rule for the icon
    count: int | None = None        # how many faces bear the icon; no edition states it, so None
    damage: int | None = None       # damage dealt to the army; None where no number is stated (tsr-1996 Wing)
    roll_again: bool = False        # Tail: the dragon is rolled again and the new result applies too
    flies_away: bool = False        # Wing: the surviving dragon leaves after the attack
    promotes: int | None = None     # Treasure: how many units the attacked army may promote
    source: Source | None = None    # where the icon's rule is stated


class Breath(Record):
    """A dragon breath effect against an army."""

    color: str | None               # "black", "blue", "gold", "green", "red", "ivory", "white";
    #                                 None where the rule is not tied to one color (sfr-v4 starter, hybrids)
    text: str                       # verbatim effect
    name: str | None = None         # the printed name: "Turn to Stone", "Poisonous Cloud"; None where unnamed
    source: Source | None = None


DragonKind = Literal[
    "dragon",        # the edition states one set of dragon rules with no color classes (sfr-v4 starter)
    "elemental",     # single-element dragons: black, blue, gold, green, red
    "ivory",
    "hybrid",        # two elemental colors (sfr-2012 advanced rules)
    "ivory-hybrid",  # one elemental color plus ivory (sfr-2012 advanced rules)
    "white",         # all elements, double health and damage (sfr-2012 advanced rules)
]
DragonForm = Literal["drake", "wyrm"]


class Dragon(Record):
    """The rules for one kind of dragon in one edition: its faces and its breaths."""

    id: str                         # unique per edition: "drake", "wyrm" (tsr-1996), "dragon" (sfr-v4), "white" ...
    name: str                       # "Drake", "White Dragon"
    edition: Edition
    kind: DragonKind
    health: int | None              # None where the edition states no number
    saves: int | None               # automatic saves (armored skin)
    faces: tuple[DragonFace, ...]   # the icons this record's dragons bear, in a fixed order
    breaths: tuple[Breath, ...]     # breath effects against armies, per color where the edition splits them
    text: str                       # verbatim statement that defines this kind of dragon
    source: Source
    forms: tuple[DragonForm, ...] = ()  # drake (winged) / wyrm (wingless) forms the record covers; () if unstated
