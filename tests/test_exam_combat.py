"""Defects the sfr-2012 combat examination found (issue 20): each test states the rule it pins."""

from __future__ import annotations

from pathlib import Path

import pytest

from ddref.scenario.run import load, replay

HEAD = """\
ddref: 1
title: exam combat
players: [a, b]
turn: {player: b}
terrains:
  field: {type: flatland, face: 3, action: melee, home_of: a}
armies:
  defenders: {player: a, at: field, units: [{id: basher, race: dwarf, health: 1}, {id: d2, race: dwarf, health: 1},
                                           {id: d3, race: dwarf, health: 1}, {id: d4, race: dwarf, health: 1}]}
  attackers: {player: b, at: field, units: [{id: a2, race: goblin, health: 2}, {id: a1, race: goblin, health: 1},
                                           {id: a3, race: goblin, health: 1}]}
steps:
"""


def first_step(tmp_path: Path, step: str) -> dict:
    (tmp_path / "s.yaml").write_text(HEAD + step, encoding="utf-8")
    return replay(load(tmp_path / "s.yaml"))["steps"][0]


@pytest.mark.parametrize("rolled, total", [({}, 2), ({"d2": "save"}, 3), ({"d2": "save", "d3": "save"}, 4)])
def test_bash_saves_are_the_defenders_finalized_save_results(tmp_path, rolled, total):
    """002 Bash: "The defending army gets saves equal to the amount of damage that the target unit generated."
    The step's ``results.<defender>.save`` is the roll as finalized (docs/scenario-format.md): it counts them,
    and agrees with the damage (4 melee - saves)."""
    saves = ", ".join(f"{u}: {f}" for u, f in {"basher": "bash", **rolled}.items())
    out = first_step(tmp_path, f"""\
  - melee:
      army: attackers
      target: defenders
      roll: {{a2: melee 2, a1: melee, a3: melee}}
      saves:
        defenders: {{{saves}}}
      targets: {{bash: [a2]}}
      unit_saves: {{a2: maneuver}}
      counter: false
""")
    assert out["results"]["defenders"]["save"] == total
    assert out["damage"]["defenders"] == 4 - total
