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


MONSTERS = """\
ddref: 1
title: monster faces
edition: {edition}
players: [a, b]
terrains:
  field: {{type: flatland, face: 3, action: melee, home_of: a}}
armies:
  beasts: {{player: a, at: field, units: [{{id: m1, race: dwarf, health: 4}}, {{id: c1, race: dwarf, health: 2}}]}}
  wall: {{player: b, at: field, units: [{{race: dwarf, health: 1, count: 20}}]}}
steps:
  - roll: {{army: beasts, for: {kind}, roll: {{m1: {face}}}}}
    expect_error: "only one icon"
"""


@pytest.mark.parametrize("edition", ["sfr-2012"])
@pytest.mark.parametrize("kind, face", [("melee", "melee 2"), ("save", "save 3"), ("maneuver", "fly 2"),
                                        ("melee", "[melee, melee 2]")])
def test_a_monster_face_bears_one_icon_in_a_per_unit_roll(tmp_path, edition, kind, face):
    """002 Monsters: "Unlike six-sided units, each face of a monster die bears only one icon", which "counts as 4
    points of effect": a per-unit face of two icons on a monster (counted 2 x 4 before) is impossible input, refused
    as the aggregate form's bound refuses more than the dice can show (engine.roll_bounds). The words are 002's
    only: 000/004 and 001 say each monster icon counts four, not how many a face bears."""
    (tmp_path / "s.yaml").write_text(MONSTERS.format(edition=edition, kind=kind, face=face), encoding="utf-8")
    out = replay(load(tmp_path / "s.yaml"))
    assert out["expectations"] and all(e["ok"] for e in out["expectations"])


def test_a_monster_face_of_one_icon_still_counts_four(tmp_path):
    (tmp_path / "s.yaml").write_text(MONSTERS.format(edition="sfr-2012", kind="melee", face="melee")
                                     .replace('    expect_error: "only one icon"\n',
                                              "    expect: {results.beasts.melee: 4}\n"), encoding="utf-8")
    out = replay(load(tmp_path / "s.yaml"))
    assert out["steps"][0]["results"]["beasts"]["melee"] == 4


CHARGE = """\
ddref: 1
title: charge and adds
players: [a, b]
turn: {{player: b}}
terrains:
  field: {{type: {terrain}, face: 3, action: melee, home_of: a}}
armies:
  walkers: {{player: b, at: field, units: [{{race: goblin, health: 1, count: 10}}]}}
  foes: {{player: a, at: field, units: [{{race: dwarf, health: 1, count: 20}}]}}
effects:
  - {{spell: {spell}, target: walkers, by: b, count: {count}}}
steps:
  - melee: {{army: walkers, target: foes, roll: {{charge: 1, melee: 2, maneuver: 3}}, saves: {{foes: {{save: 0, melee: 0}}}}}}
"""


@pytest.mark.parametrize("spell, terrain, count", [("wind-walk", "flatland", 1), ("restless-dead", "flatland", 2),
                                                   ("water-walking", "coastland", 1)])
def test_charge_counts_maneuvers_before_the_modifiers_that_add(tmp_path, spell, terrain, count):
    """002 Charge: "Maneuver becomes Melee during the Racial Abilities step of the dice modifiers", which comes
    before "Modifiers that add" (002 Applying Dice Modifiers): the maneuvers an add gives (Wind Walk, Restless
    Dead, Water Walking: "add four maneuver results") stay maneuvers, 2 melee + 3 maneuvers = 5 melee."""
    (tmp_path / "s.yaml").write_text(CHARGE.format(spell=spell, terrain=terrain, count=count), encoding="utf-8")
    out = replay(load(tmp_path / "s.yaml"))["steps"][0]
    assert out["results"]["walkers"]["melee"] == 5
    assert out["damage"]["foes"] == 5


WIPED = """\
ddref: 1
title: attacker wiped by the save roll
players: [a, b]
turn: {{player: b}}
terrains:
  field: {{type: highland, face: 3, action: melee, home_of: a}}
armies:
  attackers: {{player: b, at: field, units: [{{race: goblin, health: 1, count: 2}}]}}
  defenders: {{player: a, at: field, units: [{{race: {race}, health: 1, count: 6}}]}}
steps:
  - melee: {{army: attackers, target: defenders, roll: {{melee: 2}}, saves: {{defenders: {saves}}}, counter: {{melee: 3}}}}
    expect_error: "no army to counter-attack"
"""


@pytest.mark.parametrize("race, saves", [("scalder", "{save: 2}"), ("dwarf", "{counter: 2}")])
def test_no_counter_attack_on_an_attacker_the_save_roll_wiped_out(tmp_path, race, saves):
    """002 Melee: the defending army "may attack back": with every attacking unit killed by the save roll's back
    damage (Scorching Touch, Counter), there is no army to attack; a counter-attack roll given is refused, as one
    from a defender with no units is."""
    (tmp_path / "s.yaml").write_text(WIPED.format(race=race, saves=saves), encoding="utf-8")
    out = replay(load(tmp_path / "s.yaml"))
    assert out["expectations"] and all(e["ok"] for e in out["expectations"])


HELD = """\
ddref: 1
title: enemy at a held eighth face
players: [a, b]
turn: {{player: b}}
terrains:
  hill: {{type: {terrain}, face: 8, eighth: {eighth}, controlled_by: holders, home_of: a}}
armies:
  holders: {{player: a, at: hill, units: [{{race: dwarf, health: 1, count: 4}}]}}
  intruders: {{player: b, at: hill, units: [{{race: goblin, health: 1, count: 4}}]}}
steps:
  - magic: {{army: intruders, roll: {{magic: 2}}, colors: {{black: 2}}, cast: []}}
    expect_error: "only melee"
"""


@pytest.mark.parametrize("terrain, eighth", [("highland", "city"), ("swampland", "standing-stones"),
                                             ("coastland", "temple"), ("flatland", "tower")])
def test_an_enemy_army_at_a_held_eighth_face_takes_no_magic_action(tmp_path, terrain, eighth):
    """002 The Eighth Face, 3): "enemy armies at the terrain are restricted to only melee attacks": a magic action
    there is refused, whatever the eighth face's icon, as a missile action is."""
    (tmp_path / "s.yaml").write_text(HELD.format(terrain=terrain, eighth=eighth), encoding="utf-8")
    out = replay(load(tmp_path / "s.yaml"))
    assert out["expectations"] and all(e["ok"] for e in out["expectations"])
