"""Units brought into a roll are counted with their army through the one roll pipeline, in every roll they can join.

002 SAI General Information, Resolution: components brought into an army during a roll "are rolled immediately and
the results applied with the results of their army"; 002 Army Modifiers: "if new units join the army that is under
the influence of a effect with a duration, the new units are also affected by the effect"; 002 Applying Dice
Modifiers: subtract, divide, multiply, racial abilities, add, "All unit modifiers are applied before any army
modifiers are applied"; 002 The Eighth Face: "When rolling an army, all save results rolled are doubled" (000 The
Eighth Face: "When rolling for saves, all save results are doubled"; 004 Regenerate B: the units brought back "are
rolled immediately and their results are counted toward the current roll"; Ferry C: "counted toward the totals of
the current roll").

Two tests: a sweep over every kind of roll a unit can join (returned by Regenerate, ferried in, freed from an
Entangle), each at a held eighth face or under an army penalty, with the numbers worked out by hand; and a check over
every bundled scenario that each roll units joined had its number counted through the pipeline
(engine.actions.joined_rolls ``through_pipeline``), so a late-unit path that adds results beside it fails.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from ddref.scenario.run import load, load_ruleset, parse, replay
from engine.resolve import resolve
from engine.trace import StepError

_SFR = """ddref: 1
title: a unit joins a roll at a held eighth face
edition: sfr-2012
players: [alice, bob]
turn: {{player: {player}}}
terrains:
  coast: {{type: coastland, face: 8, eighth: city, controlled_by: goblins, frontier: true}}
  hill: {{type: highland, face: 3, action: missile, home_of: alice}}
  marsh: {{type: swampland, face: 3, action: magic, home_of: bob}}
  dale: {{type: flatland, face: 3, action: magic}}
armies:
  elves: {{player: alice, at: coast, units: [{{race: lava-elf, health: 2, count: 6}}]}}
  archers: {{player: alice, at: hill, units: [{{race: lava-elf, health: 2, count: 3}}]}}
  scalders: {{player: alice, at: marsh, units: [{{race: scalder, health: 3, count: 3}}]}}
  mages: {{player: alice, at: dale, units: [{{race: coral-elf, health: 3, count: 3}}]}}
  goblins: {{player: bob, at: coast, units: [{{id: troll, race: goblin, health: 4}}, {{id: gob, race: goblin, health: 1}},
                                           {{id: lift, race: goblin, health: 1}}, {{race: goblin, health: 3, count: 3}}]}}
dragons: [{{id: d1, color: red, form: drake, owner: alice, at: coast}}]
dua:
  bob: [{{id: g2, race: goblin, health: 2}}, {{id: g1, race: goblin, health: 1}}]
effects: [{effects}]
steps:
  - {step}
"""
# the Troll's Regenerate brings back g2 and g1, who roll at once: 1 + 2 of what the roll is for (the goblins' own
# unit ``gob`` rolls 1): 4 in all, which the army's modifiers then act on
_JOINS = "targets: {regenerate: [g2, g1]}, unit_saves: {g2: RESULT, g1: RESULT 2}"
_SAVES = "{troll: regenerate, gob: save}"

# kind of roll -> (whose turn, the effects in play, the step, the result checked, the number by hand)
_SFR_CASES = {
    # 4 saves doubled by the eighth face: 8 (the old way, 1 x 2 + 3 = 5)
    "melee save roll": ("alice", "", f"melee: {{army: elves, target: goblins, roll: {{melee: 9}}, saves: {{goblins: "
                                     f"{_SAVES}}}, counter: false, {_JOINS}}}", "results.goblins.save", 8),
    "missile save roll": ("alice", "", f"missile: {{army: archers, target: goblins, roll: {{missile: 9}}, saves: "
                                       f"{{goblins: {_SAVES}}}, {_JOINS}}}", "results.goblins.save", 8),
    "save roll step": ("bob", "", f"roll: {{army: goblins, for: [save], roll: {_SAVES}, {_JOINS}}}",
                       "results.goblins.save", 8),
    "save roll against spells": ("alice", "", "magic: {army: mages, roll: {magic: 6}, colors: {blue: 6}, "
                                              "cast: [{spell: hailstorm, target: goblins, count: 3}], "
                                              f"avoidance: {{goblins: {_SAVES}}}, save_sais: {{goblins: {{{_JOINS}}}}}}}",
                                 "results.goblins.save", 8),
    # the combination roll: 4 saves and no maneuver; the saves doubled: 8
    "Tidal Wave combination roll": ("alice", "", "magic: {army: scalders, roll: {magic: 6}, colors: {green: 6}, "
                                                 "cast: [{spell: tidal wave, target: coast}], "
                                                 f"avoidance: {{goblins: {_SAVES}, elves: {{save: 8, maneuver: 8}}}}, "
                                                 f"save_sais: {{goblins: {{{_JOINS}}}}}}}", "results.goblins.save", 8),
    "roll against a dragon attack": ("bob", "", f"dragon_attack: {{army: goblins, dragons: {{d1: [claws]}}, roll: "
                                                f"{_SAVES}, {_JOINS}}}", "results.goblins.save", 8),
    # 002 Elevate ("During a dragon attack, Elevate doubles one unit's missile or save results"), a unit modifier,
    # on g2: 1 + 1 x 2 + 2 = 5 saves, then the army's eighth face: 10 (the old way, 1 x 2 + 3 + 1 = 6)
    "a joined unit elevated in a dragon attack": ("bob", "", f"dragon_attack: {{army: goblins, dragons: {{d1: [claws]}}, "
                                                         "roll: {troll: regenerate, gob: save, lift: elevate}, "
                                                         f"{_JOINS}, elevate: {{g2: save}}}}", "results.goblins.save",
                                                  10),
    # Higher Ground: "subtract five melee results from the target army": 1 + 3 = 4 melee, less five: 0 (the old
    # way, 0 + 3 = 3)
    "melee attack roll": ("bob", "{spell: higher-ground, target: goblins, by: alice}",
                          f"melee: {{army: goblins, target: elves, roll: {{troll: regenerate, gob: melee}}, "
                          f"counter: false, {_JOINS}}}", "results.goblins.melee", 0),   # no damage: no saves
    # Magic Drain on the terrain: "subtract two magic results": 1 + 3 = 4 magic, less two: 2 points (the old way,
    # 0 + 3 = 3)
    "magic action": ("bob", "{spell: magic-drain, target: coast, by: alice}",
                     f"magic: {{army: goblins, roll: {{troll: regenerate, gob: magic}}, {_JOINS}, cast: []}}",
                     "results.goblins.magic", 2),
}

_TSR = """ddref: 1
title: a unit joins a roll at a held eighth face (tsr-1996)
edition: tsr-1996
players: [a, b]
turn: {{player: b}}
terrains:
  swamp: {{type: swampland, face: 3, home_of: a}}
  hill: {{type: highland, face: 8, eighth: city, controlled_by: keep, home_of: b}}
armies:
  trolls: {{player: a, at: swamp, units: [{{id: g5, race: goblin, health: 1}}, {{id: g6, race: goblin, health: 3}}]}}
  keep: {{player: a, at: hill, units: [{{id: troll2, race: goblin, health: 4, monster: true}},
                                      {{id: ferry, race: coral-elf, health: 4, monster: true}},
                                      {{id: gob, race: goblin, health: 1}}]}}
  raiders: {{player: b, at: hill, units: [{{race: dwarf, health: 2, count: 6}}]}}
dua:
  a: [{{id: g2, race: goblin, health: 2}}, {{id: g1, race: goblin, health: 1}}]
steps:
  - {step}
"""
_TSR_CASES = {
    # 004 Regenerate B: 1 + 1 + 2 = 4 saves, doubled (000: "When rolling for saves, all save results are doubled"): 8
    "melee save roll": (f"melee: {{army: raiders, target: keep, roll: {{melee: 12}}, saves: {{keep: {{troll2: "
                        f"regenerate, gob: save}}}}, counter: false, {_JOINS.replace('RESULT', 'save')}}}",
                        "results.keep.save", 8),
    # 004 Ferry C: g5 and g6 come from the swamp and roll 1 save and 2 saves: 1 + 3 = 4 saves, doubled: 8
    "Ferry into a save roll": ("melee: {army: raiders, target: keep, roll: {melee: 12}, saves: {keep: {ferry: ferry, "
                               "gob: save}}, counter: false, targets: {ferry: [g5, g6]}, "
                               "unit_saves: {g5: save, g6: save 2}}", "results.keep.save", 8),
    # 000 Charge: the charged army answers with one roll, its saves doubled at its eighth face: 4 saves, 8, against
    # 12 damage: 4 (the old way, 1 x 2 + 3 = 5 saves: 7 damage)
    "charged army's answer": (f"melee: {{army: raiders, target: keep, charge: true, roll: {{melee: 12}}, saves: "
                              f"{{keep: {{troll2: regenerate, gob: save}}}}, {_JOINS.replace('RESULT', 'save')}}}",
                              "damage.keep", 4),
}


_FREED = """ddref: 1
title: a unit freed from an Entangle joins the attack roll of an army under Palsy (tsr-1996)
edition: tsr-1996
players: [a, b]
turn: {player: a}
terrains:
  hill: {type: highland, face: 5, action: melee, home_of: a}
  moor: {type: highland, face: 3, home_of: b}
armies:
  A1: {player: a, at: hill, units: [{id: vines1, race: goblin, health: 4, monster: true},
                                    {id: x1, race: goblin, health: 2}, {id: x2, race: goblin, health: 2}]}
  B1: {player: b, at: hill, units: [{id: s1, race: dwarf, health: 4}, {id: p1, race: dwarf, health: 4, monster: true},
                                    {id: venom1, race: dwarf, health: 4, monster: true}]}
effects: [{spell: palsy, target: B1, by: a}]
steps:
  - melee: {army: A1, target: B1, roll: {vines1: entangle}, targets: {entangle: [venom1]}, counter: false}
  - turn: {player: b}
  - melee: {army: B1, target: A1, roll: {s1: smite}, casualties: {A1: [vines1]}, unit_saves: {venom1: melee},
            saves: {A1: {x1: id, x2: id}}, counter: false}
"""


def test_a_unit_freed_into_the_attack_roll_gets_the_army_modifiers_tsr1996():
    """004 Entangle D: the freed units "may immediately be rolled and are counted in the current roll"; Palsy on B1
    (000: subtract one from every roll of the army): B1's own roll makes no melee (its Smite kills the Entangling
    monster), venom1, freed, rolls a monster's melee icon, 4 melee: the roll's 4 melee, less one: 3 (the old way,
    0 less one is 0, then + 4 = 4)."""
    result = replay(parse(_FREED, "t.yaml"))
    assert result["steps"][2]["results"]["B1"]["melee"] == 3


def _case(text: str, key: str) -> object:
    result = replay(parse(text, "t.yaml"))
    step = result["steps"][0]
    assert "rejected" not in step, step
    value: object = step
    for part in key.split("."):
        value = value.get(part, 0) if isinstance(value, dict) else 0
    return value


@pytest.mark.parametrize("kind", list(_SFR_CASES))
def test_a_returned_unit_gets_the_army_modifiers_sfr2012(kind):
    player, effects, step, key, wanted = _SFR_CASES[kind]
    result = "magic" if "magic" in key else "melee" if "melee" in key else "save"
    text = _SFR.format(player=player, effects=effects, step=step.replace("RESULT", result))
    assert _case(text, key) == wanted


@pytest.mark.parametrize("kind", list(_TSR_CASES))
def test_a_joined_unit_gets_the_army_modifiers_tsr1996(kind):
    step, key, wanted = _TSR_CASES[kind]
    assert _case(_TSR.format(step=step), key) == wanted


def test_every_roll_units_join_is_counted_through_the_pipeline():
    """Every bundled scenario, step by step: each army roll that units joined (``StepResult.rolls``) had its number
    counted through the pipeline with them (engine.roll ``grown``, by ``through_pipeline``): a path that adds a
    joined unit's results after the army's modifiers, beside the pipeline, leaves it uncounted and fails here."""
    joined, beside = 0, []
    for path in sorted((Path(__file__).parents[1] / "scenarios").glob("*.yaml")):
        scenario = load(path)
        state, rules = scenario.state, load_ruleset(scenario.state.edition)
        for planned in scenario.steps:
            try:
                state, result = resolve(state, planned.step, rules)
            except StepError:
                continue
            for army_id, rolling in result.rolls.items():
                if rolling.joined:
                    joined += 1
                    if not rolling.through:
                        beside.append(f"{path.name} step {planned.index}: {', '.join(rolling.joined)} joined "
                                      f"{army_id}'s {rolling.ctx.kind} roll, counted beside the pipeline")
    assert joined >= 60, joined     # the bundled scenarios bring units into rolls of every kind
    assert not beside, "\n".join(beside)


def test_every_roll_units_left_is_counted_through_the_pipeline():
    """Every bundled scenario, step by step: each army roll that units left before its results were finalized (moved
    away by Ferry, Teleport, Firewalking, Wayfare; hypnotized by a Hypnotic Glare: 002 Resolution, "Any component
    removed from the army by a Special or Unique resolution type SAI ... does not have its results counted in the army
    total") had its number counted again without them through the pipeline (engine.roll ``grown``, by
    ``through_pipeline``): a path that takes their results away after the army's modifiers fails here."""
    left, beside = 0, []
    for path in sorted((Path(__file__).parents[1] / "scenarios").glob("*.yaml")):
        scenario = load(path)
        state, rules = scenario.state, load_ruleset(scenario.state.edition)
        for planned in scenario.steps:
            try:
                state, result = resolve(state, planned.step, rules)
            except StepError:
                continue
            for army_id, rolling in result.rolls.items():
                gone = [u for u, r in rolling.left.items() if any(r.values())]
                if gone:
                    left += 1
                    if not rolling.through:
                        beside.append(f"{path.name} step {planned.index}: {', '.join(gone)} left {army_id}'s "
                                      f"{rolling.ctx.kind} roll, their results taken away beside the pipeline")
    assert left >= 10, left     # the bundled scenarios move units out of rolls of every kind
    assert not beside, "\n".join(beside)
