"""Special action icons (SAIs), one record per edition."""

from __future__ import annotations

from typing import Literal

from .common import Edition, Record, Source

Timing = Literal["Instant", "Special", "Unique", "Normal", "Delayed", "Late", "Conditional"]


class SaiResolution(Record):
    """One clause of an SAI's heading: e.g. 'Delayed Special (melee attack)'.

    sfr-2012 prints the resolution type after each SAI name, one clause per
    kind of roll. ``timing`` holds the clause's timing words in printed order;
    how they combine is what ``printed`` shows and ``either`` flags:

    * "Instant Normal", "Delayed Special": a timing and the kind of result
      (002 SAI List preamble: a "Normal"/"Special" listed after another type
      "merely notes that the results are normal/special");
    * "Normal and Special", "Special and Normal": both apply (``either`` False);
    * "Normal or Special", "Special or Normal", "Instant or Normal": one of
      them applies (``either`` True);
    * "Delayed/Late Special" (Charge): special results resolved Delayed or
      Late, as printed (``either`` True; the document does not say which).
    """

    timing: tuple[Timing, ...]      # ("Delayed", "Special"); ("Normal",)
    rolls: str                      # the kind of roll as printed: "melee attack", "any non-maneuver"
    printed: str = ""               # the timing words as printed: "Delayed/Late Special"
    either: bool = False            # the printed words join timings with "or" or "/"


class Sai(Record):
    id: str
    name: str
    edition: Edition
    resolution: tuple[SaiResolution, ...]   # empty where the edition states none (tsr-1996, sfr-v4)
    races: tuple[str, ...] = ()             # race ids whose dice show it, where the document says
    text: str                               # the definition as printed, without the name or heading
    source: Source
    heading: str = ""                       # sfr-2012: the entry's heading line as printed
    aliases: tuple[str, ...] = ()           # other names the document prints for this SAI
