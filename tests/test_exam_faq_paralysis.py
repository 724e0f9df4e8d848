"""tsr-1996 FAQ (004) exam fixes: a paralysing SAI's effect in play is on units, never silently on an army (004 Entangle
A, "four health of your choice of units in the opposing army are paralyzed"); an army whose every unit is paralysed
makes no roll, even one written as the army's total (004 Entangle B: "If an entire army is paralyzed, the army cannot
make any rolls (maneuvers, actions, saves)"); a Flamed unit Open Grave saves is reported in ``kept`` (004 Flame C)."""

from __future__ import annotations

import pytest

from ddref.scenario.run import parse, replay
from ddref.scenario.source import UserError

_HEAD = """ddref: 1
title: t
edition: {edition}
players: [a, b]
turn: {{player: b}}
terrains:
  t: {{type: flatland, face: 6, action: melee, home_of: a}}
armies:
  A: {{player: a, at: t, units: [{{id: m, race: goblin, health: 4}}, {{id: a1, race: goblin, health: 2}}]}}
  B: {{player: b, at: t, units: [{{id: b1, race: dwarf, health: 1}}, {{id: b2, race: dwarf, health: 1}}]}}
"""


def _play(effects: str, steps: str, edition: str = "tsr-1996") -> list[dict]:
    return replay(parse(_HEAD.format(edition=edition) + effects + "steps:\n" + steps, "t.yaml"))["steps"]


_ATTACK = "  - melee: {army: B, target: A, roll: {melee: 2}, saves: {A: {save: 0}}, counter: false}\n"


@pytest.mark.parametrize("sai", ["entangle", "web"])
def test_a_paralysing_sai_on_an_army_is_refused_naming_its_units(sai):
    with pytest.raises(UserError, match=r"its target is a unit id: one effect per unit of B \(b1, b2\)"):
        _play(f"effects:\n  - {{sai: {sai}, target: B, by: a, source: m}}\n", _ATTACK)


@pytest.mark.parametrize("sai", ["entangle", "web"])
def test_an_army_whose_every_unit_is_paralysed_rolls_no_total(sai):
    effects = "".join(f"  - {{sai: {sai}, target: {u}, by: a, source: m}}\n" for u in ("b1", "b2"))
    with pytest.raises(UserError, match=f"every unit of B makes no rolls while {sai} is on it"):
        _play("effects:\n" + effects, _ATTACK)
    # one unit free: the total may be its roll
    out = _play(f"effects:\n  - {{sai: {sai}, target: b1, by: a, source: m}}\n", _ATTACK)[-1]
    assert out["damage"]["A"] == 2
    # all paralysed, an empty roll (nothing rolled) still stands: the unopposed action rolls nothing
    # (no normal damage: no save roll either, 002/000 "If damage is inflicted, the target army rolls for saves")
    empty = _ATTACK.replace("{melee: 2}", "{melee: 0}").replace(" saves: {A: {save: 0}},", "")
    assert _play("effects:\n" + effects, empty)[-1]["damage"].get("A", 0) == 0


def test_a_flamed_unit_open_grave_keeps_is_reported_as_kept():
    steps = ("  - turn: {player: a}\n"
             "  - melee: {army: A, target: B, roll: {m: flame}, targets: {flame: [b1]}, counter: false}\n")
    out = _play("effects:\n  - {spell: open-grave, target: B, by: b}\n", steps)[-1]
    assert out["kept"] == {"b1": "b-reserve"} and out["buried"] == [] and out["moved"] == ["b1"]
