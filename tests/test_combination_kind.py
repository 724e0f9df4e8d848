"""A combination roll's kind names its results in one order (engine.sais.combination_kind): the order a step writes
them in is no part of the roll (002 Avoidance Rolls; Glossary, Combination Roll: "the army is making a save roll and
a maneuver avoidance roll"), so the SAI table's save and maneuver entries (Tidal Wave's) match either order."""

from __future__ import annotations

import pytest

from ddref.scenario.run import parse, replay
from ddref.scenario.source import UserError
from engine.sais import SAVE_AND_MANEUVER, combination_kind, sai_use, unit_use


def test_either_order_is_the_save_and_maneuver_roll():
    assert combination_kind(("maneuver", "save")) == combination_kind(("save", "maneuver")) == SAVE_AND_MANEUVER
    assert combination_kind(("melee", "save")) == combination_kind(("save", "melee"))
    assert combination_kind(("missile", "melee", "save")) == "combination:save,melee,missile"


@pytest.mark.parametrize("sai", ["vanish", "ferry", "teleport", "firewalking", "cloak",
                                 "sfr-tsr-logo-dragonkin-champion"])
def test_the_moving_sais_entry_is_found_in_either_order(sai):
    """Written maneuver first, the kind used to miss the entry and the SAI was refused as not modelled."""
    for order in (("maneuver", "save"), ("save", "maneuver")):
        kind = combination_kind(order)
        assert sai_use(sai, kind) == sai_use(sai, SAVE_AND_MANEUVER)
        assert unit_use(sai, kind, False, {}).modelled


_ROLL = """
{ddref: 1, title: t, edition: sfr-2012, players: [alice, bob], turn: {player: alice},
 terrains: {plain: {type: flatland, face: 3, frontier: true}, hill: {type: highland, face: 3, home_of: bob}},
 armies: {goblins: {player: bob, at: plain, units: [{id: ghost, race: goblin, health: 1},
                                                    {id: w1, race: goblin, health: 2}]}},
 steps: [{roll: {army: goblins, for: ORDER, avoidance: true, roll: ROLL}}]}
"""


@pytest.mark.parametrize("order", ["[maneuver, save]", "[save, maneuver]"])
def test_a_roll_step_refuses_a_moving_special_alike_in_either_order(order):
    """A roll step only counts results: Vanish's move in a save and maneuver roll is described in the step of the
    spell the roll answers (a magic step's save_sais), whichever order the step writes -- the same refusal."""
    body = _ROLL.replace("ORDER", order).replace("ROLL", "{ghost: vanish, w1: save 2}")
    with pytest.raises(UserError, match="vanish in a combination \\(save and maneuver\\) roll is a special result that acts "
                                        "beyond the roll"):
        replay(parse(body, "t.yaml"))


def test_a_roll_steps_results_do_not_depend_on_the_order():
    """Fly ("each Fly result generates one maneuver or one save result") split the same way: the same results
    whichever order is written."""
    got = []
    for order in ("[maneuver, save]", "[save, maneuver]"):
        body = _ROLL.replace("ORDER", order).replace(
            "ROLL", "{save: 2, maneuver: 1, fly: 2}, splits: {fly: {save: 1, maneuver: 1}}")
        got.append(replay(parse(body, "t.yaml"))["steps"][0]["results"]["goblins"])
    assert got[0] == got[1] == {"save": 3, "maneuver": 2}
