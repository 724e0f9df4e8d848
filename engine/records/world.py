"""Terrains, eighth-face icons, dragons: the board and what flies over it."""

from __future__ import annotations

from typing import Literal

from .common import Color, Edition, Record, Source


class Terrain(Record):
    id: str                         # "coastland"
    name: str
    edition: Edition
    kind: Literal["major", "minor", "special"]
    colors: tuple[Color, ...]
    text: str
    source: Source


class EighthFace(Record):
    id: str                         # "standing-stones"
    name: str
    edition: Edition
    text: str
    source: Source


class DragonFace(Record):
    face: str                       # "jaws", "claw", "tail", "wing", "belly", "breath", "treasure"
    count: int                      # faces of this kind on the die, where stated (0 = unstated)
    damage: int | None              # damage dealt, where the edition states a number
    text: str


class Breath(Record):
    color: str                      # a color, or "ivory", "white", ...
    text: str


class Dragon(Record):
    id: str                         # "sfr-2012" edition-wide dragon rules record per kind: "drake", "wyrm", "ivory", ...
    name: str
    edition: Edition
    kind: str
    health: int | None
    saves: int | None
    faces: tuple[DragonFace, ...]
    breaths: tuple[Breath, ...]
    text: str
    source: Source
