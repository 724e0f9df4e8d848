"""Defects the second sfr-2012 combat examination found: each test states the rule it pins."""

from __future__ import annotations

from pathlib import Path

import pytest

from ddref.scenario.run import load, replay

HEAD = """\
ddref: 1
title: exam combat, second pass
players: [a, b]
turn: {player: b}
terrains:
  field: {type: flatland, face: 3, action: missile, home_of: a}
armies:
  defenders: {player: a, at: field, units: [{id: basher, race: dwarf, health: HEALTH},
                                           {race: dwarf, health: 1, count: 8}]}
  attackers: {player: b, at: field, units: [{race: goblin, health: 1, count: 8}]}
steps:
  - missile:
      army: attackers
      target: defenders
      roll: {missile: 6}
      saves:
        defenders: {basher: FACE}
"""


@pytest.mark.parametrize("health, face", [(1, "bash"), (2, "bash"), (3, "bash"), (3, "bash 2"), (4, "bash")])
def test_bash_in_a_non_melee_save_counts_the_dies_health(tmp_path: Path, health: int, face: str):
    """002 Bash: "During a non-melee save roll, Bash generates saves results equal to the die's health": a
    unit of any health rolling it against missiles saves its health, whatever icon count the face names."""
    (tmp_path / "s.yaml").write_text(HEAD.replace("HEALTH", str(health)).replace("FACE", face), encoding="utf-8")
    step = replay(load(tmp_path / "s.yaml"))["steps"][0]
    assert step["results"]["defenders"]["save"] == health
    assert step["damage"]["defenders"] == 6 - health
