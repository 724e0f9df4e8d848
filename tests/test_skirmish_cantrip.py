"""A unit a Regenerate (sfr-2012) or a tsr-1996 Ferry brings into a skirmish roll (the defender's save roll, the attack
roll of a melee or its counter-attack) rolls a Cantrip: 002 Resolution, brought-in components "are rolled immediately
and the results applied with the results of their army"; 002 Targeting, identical SAIs rolled at the same time "are
resolved simultaneously (i.e. their effects are combined)", its example: "does not spend one Cantrip, then the other
separately" (engine.actions.cantrip ``with_brought``); scenarios/sfr2012-sai-joined-units-chain.yaml's situation and
scenarios/tsr1996-faq-ferry.yaml's."""

from __future__ import annotations

from pathlib import Path

import pytest

from ddref.scenario.run import parse, replay
from ddref.scenario.source import UserError

_SCENARIO = Path(__file__).parents[1] / "scenarios" / "sfr2012-sai-joined-units-chain.yaml"
_STONESKIN = "cantrip: {goblins: {colors: {gold: 2}, cast: [{spell: stoneskin, target: goblins}]}}"


def _play(step: str) -> dict:
    """The bundled scenario's situation with one step: its result."""
    text = _SCENARIO.read_text()
    return replay(parse(text[:text.index("\nsteps:") + 1] + "steps:\n" + step, "t.yaml"))["steps"][-1]


def _bought(out: dict) -> list[str]:
    return [e["what"] for e in out["trace"] if "Cantrip point(s)" in e["what"]]


_SAVES = """  - melee: {army: elves, target: goblins, roll: {melee: 5},
            saves: {goblins: {troll: regenerate, w1: cantrip, w2: save 2}},
            targets: {regenerate: [g11]}, unit_saves: {g11: cantrip}, %s,
            counter: false, casualties: {goblins: [w1]}}
""" % _STONESKIN


def test_the_army_s_cantrip_waits_for_the_returned_unit_s_in_the_save_roll():
    """w1's 1 Cantrip point waits for g11's (brought back by the Troll's Regenerate): one purchase of 2, a Stoneskin,
    counted before the saves apply: w2's 2 + 1 = 3 saves against 5 melee, 2 damage. Neither point alone buys it."""
    out = _play(_SAVES)
    assert _bought(out) == ["goblins's roll is suspended: 2 Cantrip point(s) buy spells"]
    assert out["moved"] == ["g11"] and out["results"]["goblins"]["save"] == 3 and out["damage"] == {"goblins": 2}
    assert any(e["what"].startswith("reading: goblins's own Cantrip (w1) waits for the units joining its roll")
               for e in out["trace"])
    with pytest.raises(UserError, match="2 gold is not a split this roll allows; the largest are: 1 black; "
                                        "1 gold"):
        _play(_SAVES.replace("unit_saves: {g11: cantrip}", "unit_saves: {g11: save}"))


def test_the_army_s_cantrip_waits_for_the_returned_unit_s_in_the_counter_attack_roll():
    """The Goblins counter-attack: w1's Cantrip point and g11's buy one Stoneskin in that attack roll; w2's 2 melee
    against the Elves' 1 save: 1 damage."""
    out = _play("""  - melee: {army: elves, target: goblins, roll: {melee: 0},
            counter: {troll: regenerate, w1: cantrip, w2: melee 2}, counter_saves: {elves: {save: 1}},
            targets: {regenerate: [g11]}, unit_saves: {g11: cantrip}, %s}
""" % _STONESKIN)
    assert _bought(out) == ["goblins's roll is suspended: 2 Cantrip point(s) buy spells"]
    assert out["moved"] == ["g11"] and out["damage"]["elves"] == 1
    assert any(e["what"] == "Stoneskin x1 takes effect on goblins" for e in out["trace"])


_FERRY = Path(__file__).parents[1] / "scenarios" / "tsr1996-faq-ferry.yaml"


def test_a_unit_a_tsr_ferry_brings_into_the_save_roll_buys_with_its_cantrip():
    """tsr-1996: the Gulls' Ferry (004 Ferry: a monster's, 4 health-worth) brings e3 from the camp into the Boats'
    save roll, rolled at once: 2 Cantrip points, the Boats' roll none of its own; they buy cantrip.boats, a Watery
    Double on the Boats (000: "Add 1 automatic save result"), counted before the saves apply: 1 save against 5
    melee, 4 damage (5 with no purchase: its points buy nothing, defaulted)."""
    text = _FERRY.read_text()
    step = """  - turn: {player: b}
  - melee: {army: dwarves, target: boats, roll: {melee: 5}, saves: {boats: {gulls: ferry}}, counter: false,
            targets: {ferry: [e3]}, unit_saves: {e3: cantrip 2},
            cantrip: {boats: {colors: {green: 2}, cast: [{spell: watery double, target: boats}]}}}
"""
    out = replay(parse(text[:text.index("\nsteps:") + 1] + "steps:\n" + step, "t.yaml"))["steps"][-1]
    assert _bought(out) == ["boats's roll is suspended: 2 Cantrip point(s) buy spells"]
    assert out["moved"] == ["e3"] and out["results"]["boats"]["save"] == 1 and out["damage"] == {"boats": 4}
    plain = step[:step.index("\n            cantrip:")] + "}\n"
    out = replay(parse(text[:text.index("\nsteps:") + 1] + "steps:\n" + plain, "t.yaml"))["steps"][-1]
    assert out["damage"] == {"boats": 5} and any(e.get("defaulted") and "buy nothing" in e["what"]
                                                  for e in out["trace"])
