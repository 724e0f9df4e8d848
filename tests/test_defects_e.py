"""Defects of issue 20 fixed on branch defects-e: each test states the rule it pins and fails without its fix."""

from __future__ import annotations

import pytest

from ddref.scenario.run import StepRefused, parse, replay

SAVE_ROLL = """
ddref: 1
title: t
players: [me, them]
terrains:
  field: {{type: flatland, face: 3, action: melee}}
armies:
  blades: {{player: me, at: field, units: [{{id: sword, race: undead, health: 3}}, {{race: undead, health: 2, count: 3}}]}}
  wall:
    player: them
    at: field
    units: [{{id: fw, race: firewalker, health: 3}}, {{id: d1, race: firewalker, health: 2}},
            {{id: d2, race: firewalker, health: 2}}]
steps:
  - melee:
      army: blades
      target: wall
      roll: {roll}
      {field}: {{{army}: {{fw: save 3, d1: id, d2: [melee 2, flashfire, save 2]}}}}
{more}
"""


@pytest.mark.parametrize("roll,field,army,more", [
    ("{sword: melee 3, blades.2: melee 2, blades.3: melee 2, blades.4: melee 2}", "saves", "wall",
     "      counter: false"),
    ("{sword: decapitate 3, blades.2: melee 2, blades.3: melee 2, blades.4: melee 2}", "saves", "wall",
     "      counter: false"),
])
def test_an_unallowed_flashfire_reroll_in_a_save_roll_names_the_saves_field(roll, field, army, more):
    """002 Flashfire: only "any one unit in the target army" of a Flashfire may be rolled again; with none in play
    d2's reroll, written in ``saves``, is refused naming ``saves`` (before: ``roll``, the attacker's field), with
    or without a Delayed SAI (Decapitate) acting on the save roll first."""
    with pytest.raises(StepRefused) as info:
        replay(parse(SAVE_ROLL.format(roll=roll, field=field, army=army, more=more), "s.yaml"))
    error = info.value.errors[0]
    assert "d2's roll marks a Flashfire reroll, but no Flashfire lets wall reroll" in error.message
    assert error.path == f"steps[0].melee.{field}"


def test_an_unallowed_flashfire_reroll_in_a_counter_attack_save_roll_names_counter_saves():
    """The same refusal in the attacking army's saves against the counter-attack names ``counter_saves``."""
    text = SAVE_ROLL.format(roll="{sword: melee 3, blades.2: melee 2, blades.3: melee 2, blades.4: melee 2}",
                            field="saves", army="wall", more="")
    text = text.replace("{fw: save 3, d1: id, d2: [melee 2, flashfire, save 2]}", "{fw: save 3, d1: id, d2: save 2}")
    text += ("      counter: {fw: melee 3, d2: melee 2}\n"
             "      counter_saves: {blades: {sword: [melee 2, flashfire, save 2], blades.2: save 2, "
             "blades.3: save 2, blades.4: save 2}}\n")
    with pytest.raises(StepRefused) as info:
        replay(parse(text, "s.yaml"))
    error = info.value.errors[0]
    assert "sword's roll marks a Flashfire reroll, but no Flashfire lets blades reroll" in error.message
    assert error.path == "steps[0].melee.counter_saves"
