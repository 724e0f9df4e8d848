"""Defects of issue 20 fixed on branch defects-e: each test states the rule it pins and fails without its fix."""

from __future__ import annotations

import pytest

from ddref.scenario.run import StepRefused, parse, replay
from ddref.scenario.source import ScenarioErrors

# the attacking Undead both fixtures share: a 3-health unit rolling the SAI, three 2-health units rolling melee
BLADES = """
ddref: 1
title: t
players: [me, them]
terrains:
  field: {{type: flatland, face: 3, action: melee}}
armies:
  blades: {{player: me, at: field, units: [{{id: sword, race: undead, health: 3}}, {{race: undead, health: 2, count: 3}}]}}
"""

SAVE_ROLL = BLADES + """  wall:
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


# --- trace wording (found by branch exam-sais-a) ----------------------------------------------------------------

DRAGONS = """
ddref: 1
title: t
edition: {edition}
players: [me, them]
turn: {{player: me}}
terrains:
  bay: {{type: coastland, face: 4, home_of: me}}
armies:
  knights: {{player: me, at: bay, units: [{{race: {race}, health: 2, count: 10}}]}}
dragons:
{dragons}
steps:
  - dragon_attack:
      army: knights
      dragons: {{{rolled}}}
      roll: {{save: 12}}
"""


@pytest.mark.parametrize("edition,race", [("sfr-2012", "dwarf"), ("tsr-1996", "dwarf")])
def test_a_lone_dragon_attacking_the_army_is_not_traced_as_dragons_of_different_colors(edition, race):
    """002 The Turn Sequence: "If dragons are present at any terrain where the marching player has an army, then
    the dragons must do combat" (000 Dragon Rules: "whenever a single dragon and an army are at the same terrain, a
    dragon attack occurs"): one dragon's line quotes that, not Dragon vs. Dragon ("dragons of different colors
    attack each other"), which it quoted under sfr-2012. Two dragons of different colors still quote Step 5."""
    one = DRAGONS.format(edition=edition, race=race, dragons="  - {id: d1, color: green, owner: them, at: bay}",
                         rolled="d1: [claws]")
    step = replay(parse(one, "s.yaml"))["steps"][0]
    line = next(e for e in step["trace"] if e["what"].startswith("d1 (green) attacks knights"))
    assert "different colors" not in line["rule"]
    assert "dragon-vs-dragon" not in line["cite"]
    two = DRAGONS.format(edition=edition, race=race, rolled="d1: [claws], d2: [claws]",
                         dragons="  - {id: d1, color: green, owner: them, at: bay}\n"
                                 "  - {id: d2, color: red, owner: them, at: bay}")
    two = two.replace("      roll: {save: 12}\n", "")
    lines = replay(parse(two, "s.yaml"))["steps"][0]["trace"]
    fights = next(e for e in lines if e["what"].startswith("d1 (green) fights d2"))
    assert "different colors" in fights["rule"]


DELAYED = BLADES + """  wall: {{player: them, at: field, units: [{{id: d1, race: firewalker, health: 2}}, {{id: d2, race: firewalker, health: 2}}]}}
steps:
  - melee:
      army: blades
      target: wall
      roll: {{sword: {sai} 3, blades.2: melee 2, blades.3: melee 2, blades.4: melee 2}}
      saves: {{wall: {{d1: save 2, d2: save 2}}}}
      counter: false
{more}
"""


@pytest.mark.parametrize("sai,more", [("decapitate", ""), ("choke", ""),
                                      ("confuse", "      targets: {confuse: [d1]}\n      unit_saves: {d1: save 2}")])
def test_a_delayed_sai_is_not_said_to_resolve_before_the_target_rolls_saves(sai, more):
    """002 SAI Resolution: "Delayed: ... must wait until after a target rolls but before they finalize any results
    or ... before they apply any Unique or Special resolution SAIs": the attack roll's line for a Delayed SAI says
    it acts after the target rolls saves (before: "special SAI results resolve before the target rolls saves")."""
    step = replay(parse(DELAYED.format(sai=sai, more=more), "s.yaml"))["steps"][0]
    line = next(e for e in step["trace"] if e["what"] == f"sword: 3-point {sai} (special result)")
    assert "before the target rolls saves" not in line["rule"]
    assert line["rule"].startswith("delayed: it acts after the target rolls saves")


def test_an_empty_save_roll_says_how_to_write_no_results():
    """A save roll in which every unit rolled a blank: ``{}`` is refused (as every roll of the format is), and the
    message says how to write it (``{save: 0}``), not only "a roll is a mapping"; ``{save: 0}`` is accepted."""
    text = DELAYED.format(sai="melee", more="").replace("saves: {wall: {d1: save 2, d2: save 2}}",
                                                        "saves: {wall: {}}")
    with pytest.raises(ScenarioErrors) as info:
        parse(text, "s.yaml")
    message = str(info.value.errors[0])
    assert "{save: 0}" in message and "steps[0].melee.saves.wall" in message
    ok = parse(text.replace("saves: {wall: {}}", "saves: {wall: {save: 0}}"), "s.yaml")
    assert replay(ok)["steps"][0]["results"]["wall"]["save"] == 0
