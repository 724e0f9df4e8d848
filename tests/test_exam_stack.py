"""Defects found by the examination of modifier stacking (002 Applying Dice Modifiers; 000's and 001's orders)."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from engine.modifiers import apply_op
from engine.rolled import Part

SCEN = Path(__file__).parent.parent / "scenarios"


def _resolve(path):
    out = subprocess.run([sys.executable, "-m", "ddref", "resolve", str(path), "--json"],
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stdout[-2000:] + out.stderr[-2000:]
    return json.loads(out.stdout)


_SAVE_ROLL = """ddref: 1
title: a save roll under penalties and bonuses
edition: {edition}
players: [red, blue]
terrains:
  marsh: {{type: swampland, face: 3, action: missile, frontier: true}}
  home: {{type: flatland, face: 2, home_of: red}}
armies:
  elves: {{player: blue, at: marsh, units: [{{race: coral-elf, health: 1, count: 10}}]}}
effects:
  - {{spell: ash-storm, target: marsh, by: red, count: {ash}}}
  - {{spell: stoneskin, target: elves, by: blue, count: {skin}}}
steps:
  - roll: {{army: elves, for: save, roll: {{save: {save}}}}}
"""


@pytest.mark.parametrize("save,ash,skin", [(1, 3, 3), (0, 2, 1), (2, 5, 4), (3, 1, 2), (1, 4, 2)])
def test_tsr_floors_results_only_at_the_end_and_sfr_2012_at_the_subtract_step(tmp_path, save, ash, skin):
    # 000 Applying Dice Modifiers: "Results can never be negative at the end; zero is as low as a result can go";
    # 002: "Modifiers that subtract: results can never be negative; 0 is as low as a result can go"
    for edition, expected in (("tsr-1996", max(0, save - ash + skin)), ("sfr-2012", max(0, save - ash) + skin)):
        path = tmp_path / f"{edition}.yaml"
        path.write_text(_SAVE_ROLL.format(edition=edition, ash=ash, skin=skin, save=save))
        [step] = _resolve(path)["steps"]
        assert step["results"]["elves"]["save"] == expected, (edition, step["trace"])


def test_a_result_below_zero_is_divided_rounded_down_multiplied_and_repaid_by_the_adds():
    part = Part(normal=1)
    apply_op("subtract", part, 4, floor_at_end=True)     # 1 - 4 = -3
    assert (part.total, part.debt) == (0, 3)
    apply_op("divide", part, 2, floor_at_end=True)       # -3 / 2 rounded down = -2
    assert part.debt == 2
    apply_op("multiply", part, 2, floor_at_end=True)     # -4
    assert part.debt == 4
    apply_op("add", part, 3, floor_at_end=True)          # -1: still nothing
    assert (part.total, part.debt) == (0, 1)
    apply_op("add", part, 3, floor_at_end=True)          # 2
    assert (part.total, part.debt) == (2, 0)
    floored = Part(normal=1)
    apply_op("subtract", floored, 4)
    apply_op("add", floored, 3)
    assert (floored.total, floored.debt) == (3, 0)


def test_amazon_maneuvers_counted_as_missile_after_a_wall_of_fog_are_traced_as_a_reading():
    steps = _resolve(SCEN / "sfr2012-exam-stack-sais.yaml")["steps"]
    missile = steps[1]
    assert missile["results"]["riders"]["missile"] == 11
    readings = [t for t in missile["trace"] if t.get("kind") == "reading" and "counts as missile" in t["what"]
                or t.get("kind") == "reading" and "count as missile" in t["what"]]
    assert any(t["cite"].endswith("wall-of-fog") and t.get("also", "").endswith("applying-dice-modifiers")
               for t in readings), [t["what"] for t in missile["trace"]]


def test_the_attackers_save_in_a_melee_step_is_its_save_against_the_counter_attack():
    # the attack roll's Stoneskin echo (1 save in a melee roll) no longer hides the save roll against the
    # counter-attack (4): results keep the attack's result types only where the attack rolled for them
    [step] = _resolve(SCEN / "sfr2012-exam-stack-counter-attack.yaml")["steps"]
    assert step["results"]["vanguard"] == {"melee": 6, "save": 4}
    assert step["results"]["line"]["save"] == 3 and step["results"]["line"]["melee"] == 4
    assert step["counter"]["results"]["vanguard"]["save"] == 4


def test_a_result_below_zero_is_not_counted_as_another_by_a_racial_ability_and_the_reading_is_traced():
    # tsr-1996: Coral Elves' maneuvers at -8 (Transmute, then the eighth face) take nothing from their saves
    steps = _resolve(SCEN / "tsr1996-exam-stack-racial-floor.yaml")["steps"]
    assert steps[1]["results"]["guard"]["save"] == 5
    readings = [t for t in steps[1]["trace"] if t.get("kind") == "reading" and "below zero" in t["what"]]
    assert readings and readings[0]["also"].endswith("applying-dice-modifiers"), steps[1]["trace"]
