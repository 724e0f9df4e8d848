"""The rulesets, one per edition."""

from __future__ import annotations

from ..ruleset import Ruleset
from .sfr2012 import SFR_2012

RULESETS: dict[str, Ruleset] = {SFR_2012.edition: SFR_2012}


def ruleset(edition: str) -> Ruleset:
    return RULESETS[edition]
