"""Immediate spells (002 spell descriptions, Spell Attributes): damage, dead units, negation, targets."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

HEAD = """\
ddref: 1
title: spells
players: [a, b]
terrains:
  here: {type: highland, face: 3, action: magic, home_of: a}
  there: {type: coastland, face: 3, action: magic, home_of: b}
armies:
  mages: {player: a, at: here, units: [{id: fw, race: firewalker, health: 3}, {id: sw, race: swamp-stalker, health: 3},
                                       {id: sc, race: scalder, health: 3}, {id: fw2, race: firewalker, health: 3},
                                       {id: sw2, race: swamp-stalker, health: 3}]}
  spare: {player: a, at: reserve, units: [{id: r1, race: firewalker, health: 2}]}
  them: {player: b, at: there, units: [{id: t1, race: dwarf, health: 1}, {id: t2, race: dwarf, health: 1},
                                       {id: t3, race: dwarf, health: 2}, {id: t4, race: dwarf, health: 3}]}
dua:
  b: [{id: dead-b, race: dwarf, health: 1}]
effects:
  - {spell: wind-walk, target: them, by: b}
  - {spell: deadlands, target: there, by: b}
steps:
"""


def resolve(run, tmp_path: Path, step: str) -> dict:
    path = tmp_path / "s.yaml"
    path.write_text(HEAD + step, encoding="utf-8")
    result = run("resolve", str(path), "--json")
    assert result.exit_code in (0, 1), result.stderr
    return json.loads(result.stdout)["steps"][0]


def test_foul_water_damages_only_commons_and_only_they_save(run, tmp_path):
    """Foul Water x3: 3 damage, 1 save from the commons' roll: both commons die, never the 2- or 3-health."""
    step = resolve(run, tmp_path, """\
  - magic: {army: mages, roll: {sw: magic 4, sw2: magic 2}, colors: {green: 6},
            cast: [{spell: foul water, target: them, count: 3}], avoidance: {them: {t1: save, t2: melee}}}
""")
    assert step["killed"] == ["t1", "t2"] and step["damage"] == {"them": 2}
    assert step["results"]["them"]["save"] == 1


def test_terrain_damage_needs_an_enemy_army_there(run, tmp_path):
    step = resolve(run, tmp_path, """\
  - magic: {army: mages, roll: {sc: magic 3}, colors: {red: 3}, cast: [{spell: firestorm, target: here}]}
    expect_error: "no enemy army is present there"
""")
    assert "firestorm cannot target here" in step["rejected"].lower()


@pytest.mark.parametrize("avoidance, words", [
    ("", "give avoidance.t4"),
    ("avoidance: {t4: save, t3: save}, ", "no spell called for"),
])
def test_every_save_roll_is_given_and_used(run, tmp_path, avoidance, words):
    step = resolve(run, tmp_path, f"""\
  - magic: {{army: mages, roll: {{fw: magic 3}}, colors: {{red: 3}}, {avoidance}cast: [{{spell: firebolt, target: t4}}]}}
    expect_error: "x"
""")
    assert words in step["rejected"]


def test_a_firebolt_kills_a_common_that_fails_to_save(run, tmp_path):
    step = resolve(run, tmp_path, """\
  - magic: {army: mages, roll: {fw: magic 3}, colors: {red: 3}, cast: [{spell: firebolt, target: t1}],
            avoidance: {t1: maneuver}}
""")
    assert step["killed"] == ["t1"]


def test_an_elemental_blast_cannot_negate_its_own_color(run, tmp_path):
    """Blue Elemental Blast: "Target up to two points of non-blue spells in play"."""
    step = resolve(run, tmp_path, """\
  - magic: {army: mages, roll: {fw: magic 4, fw2: magic 2}, colors: {blue: 6},
            cast: [{spell: blue elemental blast, target: wind-walk@them, count: 2}]}
    expect_error: "x"
""")
    assert "negates only non-blue spells, and wind-walk is blue" in step["rejected"]
    step = resolve(run, tmp_path, """\
  - magic: {army: mages, roll: {fw: magic 3}, colors: {red: 3},
            cast: [{spell: red elemental blast, target: deadlands@there}]}
    expect_error: "x"
""")
    assert "only 2 points" in step["rejected"] and "costs 4" in step["rejected"]


def test_spells_in_play_are_named_spell_at_target(run, tmp_path):
    step = resolve(run, tmp_path, """\
  - magic: {army: mages, roll: {fw: magic 3}, colors: {blue: 3},
            cast: [{spell: blue elemental blast, target: palsy@them}]}
    expect_error: "x"
""")
    assert "wind-walk@them, deadlands@there" in step["rejected"]


def test_a_reserve_army_cannot_bury_an_enemys_dead(run, tmp_path):
    step = resolve(run, tmp_path, """\
  - magic: {army: spare, roll: {r1: magic 3}, colors: {blue: 3}, cast: [{spell: breath of life, target: dead-b}]}
    expect_error: "x"
""")
    assert "is not a target for Breath of Life" in step["rejected"]


def test_flash_flood_on_an_eighth_face_costs_its_control(run, tmp_path):
    """An army that makes no avoidance roll rolls nothing (marked defaulted); face 8 -> 7 loses control."""
    path = tmp_path / "s.yaml"
    path.write_text(HEAD.replace("there: {type: coastland, face: 3, action: magic, home_of: b}",
                                 "there: {type: coastland, face: 8, controlled_by: them, home_of: b}") + """\
  - magic: {army: mages, roll: {sw: magic 4, sw2: magic 1}, colors: {green: 5}, cast: [{spell: flash flood, target: there}]}
""", encoding="utf-8")
    step = json.loads(run("resolve", str(path), "--json").stdout)["steps"][0]
    assert step["terrains"]["there"] == {"face": 7, "controlled_by": None}
    assert any(e.get("defaulted") and "no avoidance roll" in e["what"] for e in step["trace"])


@pytest.mark.parametrize("step, words", [
    # a Cantrip purchase for an army whose roll shows no Cantrip
    ("""  - magic: {army: mages, roll: {sc: magic 3}, colors: {red: 3}, cast: [{spell: firestorm, target: there}],
            avoidance: {them: {save: 1}}, cantrip: {them: {colors: {gold: 2}, cast: [{spell: stoneskin, target: them}]}}}
""", "them rolled no Cantrip in this roll"),
    # a Cantrip purchase for an army that makes no roll in the step
    ("""  - magic: {army: mages, roll: {sc: magic 3}, colors: {red: 3}, cast: [{spell: firestorm, target: there}],
            avoidance: {them: {save: 1}}, cantrip: {spare: {colors: {red: 2}, cast: []}}}
""", "cantrip is given for spare"),
    # Dispel Magic by a unit no spell is aimed at
    ("""  - magic: {army: mages, roll: {fw: magic 3}, colors: {red: 3}, cast: [{spell: firebolt, target: t1}],
            avoidance: {t1: save}, dispel: {r1: dispel magic}}
""", "no spell targets r1"),
    # magic negation by the caster's own army, and by an army without Frostwings
    ("""  - magic: {army: mages, roll: {fw: magic 3}, colors: {red: 3}, negation: {spare: {magic: 2}}}
""", "only an opposing army with Frostwing units can"),
    ("""  - magic: {army: mages, roll: {fw: magic 3}, colors: {red: 3}, negation: {them: {magic: 2}}}
""", "only an opposing army with Frostwing units can"),
    # a turn that begins for the player whose turn it is
    ("""  - turn: {player: a}
""", "it is a's turn already"),
    # Fearful Flames on more health-worth than its castings
    ("""  - magic: {army: mages, roll: {fw: magic 3}, colors: {red: 3}, cast: [{spell: fearful flames, target: t3}]}
""", "is a lava-elf spell"),
])
def test_illegal_uses_are_refused_with_the_reason(run, tmp_path, step, words):
    assert words in resolve(run, tmp_path, step + '    expect_error: "x"\n')["rejected"]


def test_a_units_spells_follow_it_when_it_flees(run, tmp_path):
    """Mirage sends a common that fails its save to its player's reserve army, formed for it."""
    step = resolve(run, tmp_path, """\
  - magic: {army: mages, roll: {fw: magic 4, fw2: magic 1}, colors: {blue: 5}, cast: [{spell: mirage, target: there}],
            avoidance: {t1: melee, t2: save}}
""")
    assert step["fled"] == ["t1"] and step["killed"] == []
    assert any("b's reserve area forms the army b-reserve" in e["what"] for e in step["trace"])
