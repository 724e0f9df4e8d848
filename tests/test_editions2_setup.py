"""The tsr-1996 and sfr-v4 set-up rules (000 Decide Battle Size; 001 Setting Up the Game) as data."""

import pytest

from engine.editions import ruleset
from engine.setup import required_dragons


@pytest.mark.parametrize("force, tsr, sfr", [(23, 1, 1), (24, 1, 1), (25, 2, 2), (35, 2, 2), (49, 2, 3), (73, 3, 4)])
def test_dragons_required_diverge_between_editions(force, tsr, sfr):
    # 000: "one dragon ... for every 25 health points ... another"; 002: "divide by 24 (round up)"
    assert required_dragons(ruleset("tsr-1996").setup, force) == tsr
    assert required_dragons(ruleset("sfr-2012").setup, force) == sfr


def test_v4_fixes_two_dragons_and_thirty_health():
    rules = ruleset("sfr-v4").setup
    assert (rules.fixed_force, required_dragons(rules, 30), rules.seven_to_six) == (30, 2, True)
    assert ruleset("tsr-1996").setup.seven_to_six is False
