"""Defects found by the independent examination of 002's races and their racial abilities (exam-races): each test
states the rule's class of situations, not the one scenario that found it (scenarios/sfr2012-exam-races-*.yaml)."""

from __future__ import annotations

import pytest

from ddref.scenario.run import parse, replay

HEAD = """\
ddref: 1
title: exam races
edition: sfr-2012
players: [a, b]
turn: {player: a}
terrains:
  dune: {type: highland, face: 3, action: missile, home_of: a}
  coast: {type: coastland, face: 4, action: magic, home_of: b}
  plain: {type: flatland, face: 2, action: magic, frontier: true}
  ash: {type: highland, face: 5, action: melee}
  vale: {type: flatland, face: 2, action: magic}
armies:
  bows: {player: a, at: dune, units: [{race: lava-elf, health: 1, count: 6}]}
  mixed: {player: b, at: dune, units: [{id: s1, race: scalder, health: 1}, {id: s2, race: scalder, health: 2},
                                       {id: d1, race: dwarf, health: 1}, {id: d2, race: dwarf, health: 1}]}
  elves: {player: a, at: coast, units: [{race: coral-elf, health: 1, count: 8}]}
  wings: {player: b, at: coast, units: [{race: frostwing, health: 1, count: 6}]}
  far: {player: b, at: plain, units: [{race: frostwing, health: 1, count: 6}]}
  a-reserve: {player: a, at: reserve, units: [{race: coral-elf, health: 1, count: 4}]}
  b-reserve: {player: b, at: reserve, units: [{race: frostwing, health: 1, count: 4}]}
  fire: {player: a, at: ash, units: [{race: firewalker, health: 1, count: 10}]}
  dwarves: {player: b, at: vale, units: [{race: dwarf, health: 1, count: 4}]}
dragons:
  - {id: red, color: red, owner: b, at: ash}
"""


def _run(steps: str, effects: str = "") -> list[dict]:
    return replay(parse(HEAD + effects + "steps:\n" + steps, "s.yaml"))["steps"]


@pytest.mark.parametrize("saves, rolled", [
    ("{d1: save}", 1),              # only a Dwarf rolled a save: the Scalders rolled nothing that counts
    ("{d1: save, d2: save}", 2),
    ("{s1: melee, d1: save}", 1),   # a Scalder rolled, but nothing that counts in a save roll
])
def test_intangibility_gives_a_save_for_each_scalders_unit_whatever_they_rolled(saves, rolled):
    # 002 Scalders, Intangibility: "each Scalders unit in the defending army provides one automatic save result to
    # this army against any non-SAI missile damage" (before: none when no Scalder's roll counted, as their race's
    # sum was missing from the army's)
    [step] = _run(f"  - missile: {{army: bows, target: mixed, roll: {{missile: 6}}, saves: {{mixed: {saves}}}}}\n")
    assert step["results"]["mixed"]["save"] == rolled + 2
    assert step["damage"]["mixed"] == 6 - rolled - 2


@pytest.mark.parametrize("caster, negator", [
    ("elves", "far"),               # Frostwings at another terrain
    ("a-reserve", "b-reserve"),     # a reserve army has no opposing army: a reserve area is no terrain
    ("a-reserve", "wings"),
])
def test_only_an_opposing_army_at_the_casters_terrain_negates_magic(caster, negator):
    # 002 Frostwings: "when an opposing army conducts a magic action"; 002 Glossary, Opposing Army: "An enemy army
    # located at the same terrain as your own army"
    [step] = _run(f"  - magic: {{army: {caster}, roll: {{magic: 4}}, colors: {{blue: 4}}, "
                  f"negation: {{{negator}: {{magic: 3}}}}}}\n    expect_error: x\n")
    assert "opposing army" in step["rejected"] and "same terrain" in step["rejected"]


@pytest.mark.parametrize("effects, left", [
    ("", 6 - 3),
    # Magic Drain at the terrain lowers the negation roll too (3 - 2 = 1 negates), then the caster's (6 - 1 - 2)
    ("effects:\n  - {spell: magic-drain, target: coast, by: b}\n", 6 - 1 - 2),
    # Palsy on the Frostwing army: its negation roll is 3 - 1 = 2
    ("effects:\n  - {spell: palsy, target: wings, by: a}\n", 6 - 2),
])
def test_a_negation_roll_negates_its_finalized_results(effects, left):
    # 002 Frostwings: "Each non-ID magic result subtracts one point": the roll's own modifiers count (before: the
    # non-ID results as rolled, while the trace showed the roll's modified total)
    [step] = _run("  - magic: {army: elves, roll: {magic: 6}, negation: {wings: {magic: 3}}}\n", effects)
    assert step["results"]["elves"]["magic"] == left


@pytest.mark.parametrize("step", [
    # Firewalkers' Flaming Shields works "during a melee attack", not in the army's roll against a dragon
    "  - dragon_attack: {army: fire, dragons: {red: [claws]}, roll: {melee: 6, save: 4}, counts_as: {melee: 4}}\n",
    # Dwarves count nothing as another result: they double maneuvers
    "  - roll: {army: dwarves, for: [save, maneuver], roll: {maneuver: 3, save: 2}, counts_as: {save: 2}}\n",
    # Coral Elves count maneuvers as saves at a Coastland only
    "  - roll: {army: a-reserve, for: [save, maneuver], roll: {maneuver: 3, save: 2}, counts_as: {save: 2}}\n",
])
def test_a_conversion_no_racial_ability_makes_is_refused(step):
    # 002 Racial Abilities: results are counted as another only by an ability "that count[s] one result as another"
    # (before: a counts_as no ability used was silently ignored)
    [done] = _run(step + "    expect_error: x\n")
    assert "counts_as names" in done["rejected"]


def test_a_conversion_the_army_may_make_is_kept():
    [done] = _run("  - roll: {army: elves, for: [save, maneuver], roll: {maneuver: 3, save: 2}, "
                  "counts_as: {save: 1}}\n")
    # the elves are at the Coastland: 1 of the 3 maneuvers counted as a save
    assert done["results"]["elves"]["save"] == 3 and done["results"]["elves"]["maneuver"] == 2


HEAD2 = """\
ddref: 1
title: burial rolls in the DUA
edition: sfr-2012
players: [a, b]
turn: {player: a}
terrains:
  coast: {type: coastland, face: 4, action: melee, home_of: a}
  swamp: {type: swampland, face: 4, action: melee, home_of: b}
armies:
  elves: {player: a, at: coast, units: [{id: e1, race: coral-elf, health: 1}, {race: coral-elf, health: 1, count: 4}]}
  nagas: {player: b, at: coast, units: [{id: naga, race: goblin, health: 4}]}
  raiders: {player: a, at: swamp, units: [{race: goblin, health: 1, count: 6}]}
  snakes: {player: b, at: swamp, units: [{id: s1, race: swamp-stalker, health: 1}, {race: swamp-stalker, health: 1}]}
dragons:
  - {id: wyrm, color: green, owner: b, at: coast}
effects:
  - {spell: soiled-ground, target: swamp, by: a}
steps:
"""


@pytest.mark.parametrize("step, unit", [
    # a green breath's killed unit "must save again or be buried"
    ("  - dragon_attack: {army: elves, dragons: {wyrm: [breath]}, breath_targets: {green: [e1, elves.2, elves.3, "
     "elves.4, elves.5]}, breath_saves: {e1: melee, elves.2: save, elves.3: save, elves.4: save, elves.5: save}, "
     "breath_burial: {e1: maneuver}, roll: {save: 0}}\n", "e1"),
    # Poison: "Any units that are killed must roll a save or be buried" (b attacks in its own turn)
    ("  - turn: {player: b}\n  - melee: {army: nagas, target: elves, roll: {naga: poison}, targets: {poison: [e1]}, "
     "unit_saves: {e1: melee}, burial: {e1: maneuver}, counter: false}\n", "e1"),
    # Soiled Ground: "any unit killed at the target terrain that goes into the DUA must roll a save or be buried"
    ("  - melee: {army: raiders, target: snakes, roll: {melee: 1}, saves: {snakes: {save: 0}}, casualties: "
     "{snakes: [s1]}, burial: {s1: maneuver}, counter: false}\n", "s1"),
])
def test_a_killed_units_burial_roll_is_made_in_the_dua_without_its_terrain_advantage(step, unit):
    # 002 Glossary, Killed and Buried: "killing a unit (putting it in the DUA) and then burying the unit"; the Coral
    # Elves' and Swamp Stalkers' Terrain Advantage works "when at a Coastland (swampland) terrain" (before: the roll
    # was made at the army's terrain, so a maneuver counted as a save)
    done = replay(parse(HEAD2 + step, "s.yaml"))["steps"][-1]
    assert unit in done["buried"]


def test_a_targets_conversion_in_a_magic_step_no_racial_ability_makes_is_refused():
    # the magic step's choices.<army>.counts_as (a target's combination roll, Tidal Wave): Dwarves at a Coastland
    # count nothing as saves; Lava Elves at a highland would (sfr2012-spell-tidal-wave-volcanic-eruption.yaml)
    text = """\
ddref: 1
title: tidal wave
edition: sfr-2012
players: [a, b]
turn: {player: a}
terrains:
  coast: {type: coastland, face: 4, action: magic, home_of: a}
armies:
  boil: {player: a, at: coast, units: [{race: scalder, health: 1, count: 6}]}
  dw: {player: b, at: coast, units: [{race: dwarf, health: 1, count: 4}]}
steps:
  - magic: {army: boil, roll: {magic: 6}, colors: {green: 6}, cast: [{spell: tidal wave, target: coast}],
            avoidance: {dw: {maneuver: 3, save: 2}, boil: {save: 8}}, choices: {dw: {counts_as: {save: 2}}}}
    expect_error: x
"""
    [done] = replay(parse(text, "s.yaml"))["steps"]
    assert "counts_as names dw.save" in done["rejected"]


@pytest.mark.parametrize("saves, kept", [
    ("{ce: ferry 2, d1: save}", 1),             # the Scalders taken along rolled nothing that counts
    ("{ce: ferry 2, d1: save, s1: save}", 1),   # one of them rolled a save, which leaves with it
])
def test_scalders_moved_away_during_the_save_roll_give_no_automatic_save(saves, kept):
    # 002 Intangibility: "each Scalders unit in the defending army"; 002 Resolution: a component removed from the
    # army by a Special SAI "does not have its results counted in the army total" (before: the three Scalders
    # counted, the two ferried away included)
    text = """\
ddref: 1
title: ferry
edition: sfr-2012
players: [a, b]
turn: {player: a}
terrains:
  dune: {type: flatland, face: 4, action: missile, home_of: a}
  hill: {type: highland, face: 3, home_of: b}
armies:
  archers: {player: a, at: dune, units: [{race: lava-elf, health: 1, count: 6}]}
  mix: {player: b, at: dune, units: [{id: ce, race: coral-elf, health: 2}, {id: s1, race: scalder, health: 1},
                                     {id: s2, race: scalder, health: 1}, {id: s3, race: scalder, health: 1},
                                     {id: d1, race: dwarf, health: 1}]}
steps:
"""
    step = (f"  - missile: {{army: archers, target: mix, roll: {{missile: 6}}, saves: {{mix: {saves}}}, "
            "targets: {ferry: [s1, s2]}, move_to: {ferry: hill}}\n")
    [done] = replay(parse(text + step, "s.yaml"))["steps"]
    assert done["results"]["mix"]["save"] == 1 + kept


def test_scalders_brought_back_during_the_save_roll_give_their_automatic_saves():
    # 002 Resolution: units brought into an army during a roll "are rolled immediately and the results applied with
    # the results of their army": two dead Scalders a Regenerate returns are then "Scalders unit[s] in the defending
    # army" (before: only the Scalders there when the roll was made counted)
    text = """\
ddref: 1
title: regenerate
edition: sfr-2012
players: [a, b]
turn: {player: a}
terrains:
  dune: {type: flatland, face: 4, action: missile, home_of: a}
armies:
  archers: {player: a, at: dune, units: [{race: lava-elf, health: 1, count: 8}]}
  mix: {player: b, at: dune, units: [{id: troll, race: goblin, health: 4}, {id: s1, race: scalder, health: 1},
                                     {id: d1, race: dwarf, health: 1}]}
dua:
  b: [{id: ds1, race: scalder, health: 1}, {id: ds2, race: scalder, health: 1}]
steps:
  - missile: {army: archers, target: mix, roll: {missile: 8}, saves: {mix: {troll: regenerate, d1: save}},
              targets: {regenerate: [ds1, ds2]}, unit_saves: {ds1: melee, ds2: save}}
"""
    [done] = replay(parse(text, "s.yaml"))["steps"]
    # d1's and ds2's saves, and one automatic save for each of s1, ds1, ds2
    assert done["results"]["mix"]["save"] == 2 + 3
    assert done["damage"]["mix"] == 8 - 5


@pytest.mark.parametrize("saves, choices, back", [
    # a Regenerate brings a dead Scalder into the save roll: its non-ID save strikes back too
    ("{troll: regenerate, s1: save}", "targets: {regenerate: [ds1]}, unit_saves: {ds1: save}", 2),
    # a Ferry takes Scalder s2 away: its save leaves the army's total, and its Scorching Touch with it
    ("{ce: ferry 2, s1: save, s2: save}", "targets: {ferry: [s2]}, move_to: {ferry: hill}", 1),
])
def test_scorching_touch_counts_the_scalders_of_the_save_roll_as_it_finalizes(saves, choices, back):
    # 002 Scorching Touch: "Scalders, when rolling for saves during the attack phase of a melee action, generate one
    # point of damage for each non-ID save result"; 002 Resolution (units brought in / removed during a roll)
    text = """\
ddref: 1
title: scorching
edition: sfr-2012
players: [a, b]
turn: {player: a}
terrains:
  wood: {type: feyland, face: 4, action: melee, home_of: a}
  hill: {type: highland, face: 3, home_of: b}
armies:
  raiders: {player: a, at: wood, units: [{race: goblin, health: 1, count: 10}]}
  mix: {player: b, at: wood, units: [{id: troll, race: goblin, health: 4}, {id: ce, race: coral-elf, health: 2},
                                     {id: s1, race: scalder, health: 1}, {id: s2, race: scalder, health: 1},
                                     {race: dwarf, health: 1, count: 6}]}
dua:
  b: [{id: ds1, race: scalder, health: 1}]
steps:
"""
    step = ("  - melee: {army: raiders, target: mix, roll: {melee: 3}, saves: {mix: " + saves + "}, " + choices
            + ", counter: false}\n")
    [done] = replay(parse(text + step, "s.yaml"))["steps"]
    assert done["damage"]["raiders"] == back
