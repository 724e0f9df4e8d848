"""Races, their abilities, and the named units of their icon tables."""

from __future__ import annotations

from typing import Literal

from .common import Color, Edition, Record, Source


class Ability(Record):
    name: str
    text: str


class Race(Record):
    id: str                         # "coral-elf"
    name: str                       # "Coral Elves"
    edition: Edition
    aliases: tuple[str, ...]        # "Selumari", "Vagha", ...
    colors: tuple[Color, ...]       # the elements the race's units are made of
    abilities: tuple[Ability, ...]
    spells: tuple[str, ...]         # spell ids on this race's list in this edition
    text: str
    source: Source


# Row labels of the icon tables, plus the kinds of die that have no row. sfr-2012 adds
# "shieldbearer" for the Eldarim (002 Eldarim icons); "mount" is the Dragonkin Mount row.
# Monsters are "monster": their table column is alphabetical, not sorted by class.
UnitClass = Literal[
    "heavy-melee", "light-melee", "cavalry", "missile", "magic",
    "light-missile", "heavy-missile", "light-magic", "heavy-magic", "skirmisher", "shieldbearer",
    "mount", "monster", "champion", "dragonkin", "item", "artifact", "medallion", "other",
]
Size = Literal["common", "uncommon", "rare", "monster", "champion", "artifact", "medallion"]


class Unit(Record):
    id: str                         # "coral-elf-trooper" style: race id + name
    name: str                       # "Trooper"
    edition: Edition
    race: str | None                # race id; None for items
    unit_class: UnitClass
    size: Size
    health: int
    icons: tuple[str, ...] = ()     # SAI ids on the die, where the document lists them
    source: Source
