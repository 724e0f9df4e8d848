"""The rulesets, one per edition."""

from __future__ import annotations

from ..ruleset import Ruleset
from .sfr2012 import SFR_2012
from .sfrv4 import SFR_V4
from .tsr1996_faq import TSR_1996      # 000's rules (tsr1996), then the FAQ's (004)

RULESETS: dict[str, Ruleset] = {r.edition: r for r in (SFR_2012, SFR_V4, TSR_1996)}


def ruleset(edition: str) -> Ruleset:
    return RULESETS[edition]
