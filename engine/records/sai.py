"""Special action icons (SAIs), one record per edition."""

from __future__ import annotations

from typing import Literal

from .common import Edition, Record, Source

Timing = Literal["Instant", "Special", "Unique", "Normal", "Delayed", "Late", "Conditional"]


class SaiResolution(Record):
    """One clause of an SAI's heading: e.g. 'Delayed Special (melee attack)'."""

    timing: tuple[Timing, ...]      # ("Delayed", "Special"); ("Normal",)
    rolls: str                      # the kind of roll as printed: "melee attack", "any non-maneuver"


class Sai(Record):
    id: str
    name: str
    edition: Edition
    resolution: tuple[SaiResolution, ...]   # empty where the edition states none (tsr-1996, sfr-v4)
    races: tuple[str, ...] = ()             # race ids whose dice show it, where the document says
    text: str
    source: Source
