"""The three editions in one engine: what differs is policy in the ruleset, and each refuses what it lacks."""

from __future__ import annotations

import pytest

from ddref.scenario.run import load_ruleset, parse, replay
from ddref.scenario.source import ScenarioErrors
from engine.trace import StepError

BASE = """\
ddref: 1
title: t
edition: {edition}
players: [a, b]
terrains:
  hill: {{type: highland, face: 8, eighth: city, controlled_by: x, home_of: a}}
armies:
  x: {{player: a, at: hill, units: [{{race: dwarf, health: 1, count: 6}}]}}
steps:
  - roll: {{army: x, for: maneuver, roll: {{maneuver: 3, id: 2}}}}
"""


def test_an_edition_refuses_a_rule_it_does_not_have():
    """000 has no dragonkin: a step needing that rule is refused by tsr-1996, not resolved by 002's."""
    with pytest.raises(StepError, match="tsr-1996 rules have no rule for this"):
        load_ruleset("tsr-1996").cite("dragonkin")
    assert load_ruleset("sfr-v4").cite("dragonkin") == "sfr-2012:dragonkin"     # v4 falls back


@pytest.mark.parametrize("edition, maneuvers", [
    # 000: eighth face (x2) then the Dwarves' highland doubling (x2): (3 + 2) x 4
    ("tsr-1996", 20),
    # 002: the same, in its own racial step
    ("sfr-2012", 20),
    # 001: only the 2 ID results double (3 + 4 = 7), then 002's Dwarf ability (x2), marked as the fallback
    ("sfr-v4", 14),
])
def test_the_same_roll_under_each_edition(edition, maneuvers):
    result = replay(parse(BASE.format(edition=edition), "t.yaml"))
    step = result["steps"][0]
    assert step["results"]["x"]["maneuver"] == maneuvers
    fallbacks = [e for e in step["trace"] if not e["cite"].startswith(edition)]
    assert all(e["rule"].endswith("(sfr-v4 is silent here: the sfr-2012 rule applies)") for e in fallbacks)
    assert bool(fallbacks) == (edition == "sfr-v4")


def test_death_magic_is_tsr_1996s_only():
    body = BASE.format(edition="sfr-2012").replace("steps:\n  - roll: {army: x, for: maneuver, roll: {maneuver: 3, id: 2}}\n", """\
dua:
  b: [{id: d1, race: goblin, health: 1}]
steps:
  - magic: {army: x, roll: {x.1: id}, colors: {red: 1}, death_magic: [d1]}
""").replace("face: 8, eighth: city, controlled_by: x,", "face: 3, action: magic,")
    with pytest.raises(ScenarioErrors, match="death_magic .* is not a rule of sfr-2012"):
        replay(parse(body, "t.yaml"))
