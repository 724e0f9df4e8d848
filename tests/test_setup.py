"""Starting the game (002 Starting the Game): the set-up rules as the setup step applies them."""

from __future__ import annotations

import json

import pytest

from ddref.scenario.run import load_ruleset
from engine.setup import required_dragons


@pytest.mark.parametrize(("force", "dragons"), [(18, 1), (24, 1), (25, 2), (36, 2), (48, 2), (49, 3), (60, 3)])
def test_sfr2012_dragons_are_the_force_over_24_rounded_up(force, dragons):
    """002 Step 1: "take the total force size and divide by 24 (round up any fractions)": 24 -> 1,
    36 -> 2, 60 -> 3 (the worked example), and 49 -> 3 where TSR's formula gives 2."""
    assert required_dragons(load_ruleset("sfr-2012").setup, force) == dragons


def _scenario(tmp_path, armies: str, step: str) -> str:
    path = tmp_path / "s.yaml"
    path.write_text(f"""ddref: 1
title: t
players: [alice, bob]
terrains:
  ah: {{type: highland, face: 3, home_of: alice}}
  bh: {{type: flatland, face: 3, home_of: bob}}
  fr: {{type: coastland, face: 3, frontier: true}}
armies:
{armies}
steps:
  - {step}
""", encoding="utf-8")
    return str(path)


ARMIES = """  a1: {player: alice, at: ah, units: [{race: dwarf, health: 1, count: 13}]}
  a2: {player: alice, at: fr, units: [{race: dwarf, health: 1, count: 10}]}
  b1: {player: bob, at: bh, units: [{race: goblin, health: 1, count: 8}]}
  b2: {player: bob, at: ah, units: [{race: goblin, health: 1, count: 8}]}
  b3: {player: bob, at: fr, units: [{race: goblin, health: 1, count: 8}]}"""


def test_every_problem_of_a_set_up_is_reported_at_once(tmp_path, run):
    """Alice: 23 health for a 24 force, no dragon, two armies, one of 13."""
    result = run("resolve", _scenario(tmp_path, ARMIES, "setup: {force: 24, player: alice}"))
    assert result.exit_code == 2
    text = " ".join(result.output.split())
    for words in ("alice brings 0 dragon(s) where the rules require exactly 1",
                  "alice brings 23 health of components for a force of 24",
                  "alice starts with 2 armies at terrains",
                  "a1 has 13 health at the start, more than half the force (12)"):
        assert words in text


def test_order_of_play_tie_rerolls_and_lowest_goes_last(tmp_path, run):
    result = run("resolve", "--json", _scenario(
        tmp_path, ARMIES, "setup: {force: 24, player: bob, dragons: {bob: 1}, "
                          "order: {alice: {maneuver: 3, id: 1}, bob: {maneuver: 2, fly: 2}}}"))
    order = json.loads(result.output)["steps"][0]["setup"]["order"]
    assert order == {"totals": {"alice": 4, "bob": 4}, "first": None, "tied": ["alice", "bob"], "last": None}


@pytest.mark.parametrize(("field", "words"), [
    ("player: carol", "unknown player 'carol'"),
    ("terrain_rolls: {fr: [9]}", "a terrain die rolls faces 1 to 8"),
    ("terrain_rolls: {fr: [7, 3]}", "only an 8 is rolled again"),
    ("order: {alice: {manuever: 3}}", "did you mean: maneuver"),
    ("magic_faces: {a9: {magic: 1}}", "unknown unit 'a9'"),
])
def test_bad_setup_input_is_located(tmp_path, run, field, words):
    result = run("resolve", _scenario(tmp_path, ARMIES, f"setup: {{force: 24, {field}}}"))
    assert result.exit_code == 2
    assert words in " ".join(result.output.split())
    assert "Traceback" not in result.output
