"""The rulesets, one per edition."""

from __future__ import annotations

from ..ruleset import Ruleset
from .sfr2012 import SFR_2012
from .sfrv4 import SFR_V4
from .tsr1996 import TSR_1996

RULESETS: dict[str, Ruleset] = {r.edition: r for r in (SFR_2012, SFR_V4, TSR_1996)}


def ruleset(edition: str) -> Ruleset:
    return RULESETS[edition]
