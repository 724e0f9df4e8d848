"""Unit forms (issue 20, defects ec-6 and exam-old): a unit's own face bounded by its die in every edition, the
tsr-1996 monsters 004 names, and a counted unit entry's errors reported once."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from ddref.cli import app
from ddref.scenario.run import parse, replay
from ddref.scenario.source import ScenarioErrors
from engine.roll_bounds import LARGEST_FACE

HEAD = """\
ddref: 1
title: unit forms
edition: {edition}
players: [a, b]
terrains:
  t: {{type: flatland, face: 3, action: melee}}
armies:
  band: {{player: a, at: t, units: [{{id: c1, race: dwarf, health: 1}}, {{id: u2, race: dwarf, health: 2}},
                                   {{id: r3, race: dwarf, health: 3}}, {{id: m4, race: dwarf, health: 4, monster: true}},
                                   {{id: ch, race: dwarf, health: 4, monster: false}}]}}
  foe: {{player: b, at: t, units: [{{race: goblin, health: 1, count: 20}}]}}
steps:
"""

EDITIONS = ("sfr-2012", "tsr-1996", "sfr-v4")
# each unit and the points one of its icons is worth (a monster's icon counts four: 002 Monsters, 000/004 General
# Rules C, 001 Counting Results)
UNITS = {"c1": 1, "u2": 1, "r3": 1, "ch": 1, "m4": 4}


def first(edition: str, body: str) -> dict:
    return replay(parse(HEAD.format(edition=edition) + body, "s.yaml"))["steps"][0]


@pytest.mark.parametrize("edition", EDITIONS)
@pytest.mark.parametrize("unit, per", UNITS.items())
@pytest.mark.parametrize("icon, kind", [("melee", "melee"), ("save", "save"), ("magic", "magic")])
def test_a_face_beyond_the_die_is_refused_with_unit_number_and_most(edition, unit, per, icon, kind):
    """ec-6: a unit's own face is worth at most LARGEST_FACE results (the aggregate form's bound, engine.roll_bounds):
    one icon more is refused at resolve time, naming the unit, the face asked and the most, with the rule's section;
    ``melee 9`` on a 1-health common was counted 9."""
    count = LARGEST_FACE // per + 1
    out = first(edition, f"  - roll: {{army: band, for: {kind}, roll: {{{unit}: {icon} {count}}}}}\n"
                         "    expect_error: cannot show\n")
    words = out.get("rejected", "")
    assert words.startswith(f"{unit} ") and f"'{icon} {count}'" in words, out
    if per > 1 and edition == "sfr-2012":
        # 002 Monsters' own words: "each face of a monster die bears only one icon"
        assert "bears only one icon (which counts 4)" in words and out["cite"] == "sfr-2012:monsters", out
    else:
        assert f"{count * per} results" in words and f"at most {LARGEST_FACE}" in words, words
        assert out["cite"], out


@pytest.mark.parametrize("edition", EDITIONS)
@pytest.mark.parametrize("unit, per", UNITS.items())
def test_a_face_at_the_bound_counts_in_full(edition, unit, per):
    count = LARGEST_FACE // per
    out = first(edition, f"  - roll: {{army: band, for: melee, roll: {{{unit}: melee {count}}}}}\n")
    assert out["results"]["band"]["melee"] == count * per == LARGEST_FACE


@pytest.mark.parametrize("edition", EDITIONS)
def test_an_sai_face_is_bounded_by_its_points(edition):
    """An SAI's icons count toward the face (002 SAI General Information: "Each SAI on a unit counts as one point of
    effect ... a die face with four Cantrip icons"), and in a reroll chain each face is bounded, not the total."""
    refused = first(edition, "  - roll: {army: band, for: melee, roll: {r3: trample 5}}\n    expect_error: x\n")
    assert "cannot show 'trample 5'" in refused.get("rejected", ""), refused


@pytest.mark.parametrize("edition", ["sfr-2012", "tsr-1996"])     # sfr-v4's Double Strike targets a unit
def test_each_face_of_a_reroll_chain_is_bounded_not_its_total(edition):
    chain = first(edition, "  - roll: {army: band, for: melee, roll: {r3: [double-strike 2, melee 4]}}\n")
    assert chain["results"]["band"]["melee"] == 6
    over = first(edition, "  - roll: {army: band, for: melee, roll: {r3: [double-strike 2, melee 5]}}\n"
                          "    expect_error: x\n")
    assert "cannot show 'melee 5'" in over.get("rejected", ""), over


@pytest.mark.parametrize("where", [
    "  - melee: {army: band, target: foe, roll: {r3: melee 1}, saves: {foe: {foe.1: save 5}}, counter: false}\n",
    "  - melee: {army: band, target: foe, roll: {r3: melee 1}, saves: {foe: {save: 1}}, counter: {foe.2: melee 5}}\n",
])
def test_the_bound_holds_in_the_defenders_rolls(where):
    out = first("sfr-2012", where + "    expect_error: x\n")
    assert "cannot show" in out.get("rejected", "") and "(six-sided unit, 1 health)" in out["rejected"], out


# --- tsr-1996's Sprite Swarm and Gargoyle ---------------------------------------------------------------------

@pytest.mark.parametrize("name, section", [("sprite swarm", "tsr-1996:faq.monsters.sprite-swarm"),
                                           ("Gargoyle", "tsr-1996:faq.monster-special-action-icons.dispel-magic")])
def test_ddref_unit_knows_the_monsters_004_names(name, section):
    result = CliRunner().invoke(app, ["unit", name, "--edition", "tsr-1996", "--json"])
    assert result.exit_code == 0, result.output
    record = json.loads(result.output)
    # 004 Monsters, General Rules A: "Monsters are worth 4 health each"
    assert (record["edition"], record["size"], record["health"]) == ("tsr-1996", "monster", 4)
    assert record["source"] == {"edition": "tsr-1996", "document": "004", "section": section}


TSR = """\
ddref: 1
title: tsr monsters by name
edition: tsr-1996
players: [a, b]
terrains:
  t: {{type: highland, face: 3, action: magic}}
armies:
  elves: {{player: a, at: t, units: [{{race: coral-elf, health: 1, count: 6}}]}}
  guards: {{player: b, at: t, units: [{units}]}}
steps:
"""


def test_a_scenario_names_the_gargoyle_and_the_swarm():
    """004 Dispel Magic B: "A Gargoyle is targeted by a Lightning Strike. First, the Gargoyle may roll a dispel
    attempt"; Sprite Swarm A: its ID counts four and the die is rerolled. Both resolve by name under tsr-1996."""
    text = TSR.format(units="{id: g, name: Gargoyle}, {id: s, name: Sprite Swarm}")
    scenario = parse(text + "  - magic: {army: elves, roll: {magic: 5}, colors: {blue: 5}, cast: [{spell: "
                            "lightning-strike, target: g}], dispel: {g: dispel magic}}\n"
                            "  - roll: {army: guards, for: save, roll: {s: [id, save]}}\n", "s.yaml")
    guards = next(a for a in scenario.state.armies if a.id == "guards")
    gargoyle, swarm = guards.unit("g"), guards.unit("s")
    # the reading: 002's races (Dwarf icons; "Coral Elf Sprite Swarm"), 004 giving none
    assert (gargoyle.race, gargoyle.health, gargoyle.monster) == ("dwarf", 4, True)
    assert (swarm.race, swarm.health, swarm.group_monster) == ("coral-elf", 4, True)
    out = replay(scenario)
    assert out["steps"][0]["killed"] == []
    assert out["steps"][1]["results"]["guards"]["save"] == 8


def test_a_gargoyle_of_another_race_is_refused():
    with pytest.raises(ScenarioErrors, match="unknown unit named 'Gargoyle' of the goblin race"):
        parse(TSR.format(units="{id: g, name: Gargoyle, race: goblin}").replace("steps:", "steps: []"), "s.yaml")


# --- a counted entry's errors, once -----------------------------------------------------------------------------

COUNTED = """\
ddref: 1
title: counted
players: [a, b]
terrains:
  t: {type: flatland, face: 3, action: melee}
armies:
  x: {player: a, at: t, units: [{id: c1, race: dwarf, health: 1, count: 4}]}
  y: {player: b, at: t, units: [{race: dwarff, health: 1, count: 3}, {id: z, race: dwarf, health: 1, count: 2,
                                                                      color: purple}]}
steps:
  - roll: {army: x, for: melee, roll: {melee: 1}}
"""


def test_a_counted_entry_reports_each_error_once(tmp_path):
    path = tmp_path / "counted.yaml"
    path.write_text(COUNTED, encoding="utf-8")
    result = CliRunner().invoke(app, ["check", str(path), "--json"])
    assert result.exit_code == 2
    errors = json.loads(result.stdout)[0]["errors"]
    got = [(e["line"], e["path"], e["message"].split(":")[0]) for e in errors]
    assert got == [
        (7, "armies.x.units[0].id", "a unit with an id stands for one unit"),
        (8, "armies.y.units[0].race", "unknown race named 'dwarff' in sfr-2012; did you mean"),
        (8, "armies.y.units[1].id", "a unit with an id stands for one unit"),
        (9, "armies.y.units[1].color", "unknown color 'purple'; expected one of"),
    ], got
    assert all(e["file"] == str(path) and e["column"] for e in errors)


def test_a_counted_entry_still_makes_its_units():
    """Read once, a counted entry still stands for ``count`` units under the default ids ``<army>.<n>``."""
    text = COUNTED.split("armies:")[0] + """armies:
  x: {player: a, at: t, units: [{race: dwarf, health: 1, count: 4}]}
  y: {player: b, at: t, units: [{race: dwarf, health: 2, count: 3}, {id: z, race: dwarf, health: 1}]}
steps: []
"""
    scenario = parse(text, "s.yaml")
    units = {a.id: [(u.id, u.health) for u in a.units] for a in scenario.state.armies}
    assert units == {"x": [("x.1", 1), ("x.2", 1), ("x.3", 1), ("x.4", 1)],
                     "y": [("y.1", 2), ("y.2", 2), ("y.3", 2), ("z", 1)]}


@pytest.mark.parametrize("edition", EDITIONS)
@pytest.mark.parametrize("unit", ["c1", "r3", "m4"])
def test_a_face_bears_one_id_icon_worth_its_units_health(edition, unit):
    """An ID face is one icon worth the unit's health ("1 point per health of the die"): ``id 2`` was counted as the
    health, the count silently dropped; it is refused, and ``id`` counts the health."""
    out = first(edition, f"  - roll: {{army: band, for: melee, roll: {{{unit}: id 2}}}}\n    expect_error: x\n")
    assert "cannot show 'id 2' on one face: a die's ID face bears one ID icon" in out.get("rejected", ""), out
    health = {"c1": 1, "r3": 3, "m4": 4}[unit]
    assert first(edition, f"  - roll: {{army: band, for: melee, roll: {{{unit}: id}}}}\n")["results"]["band"]["melee"] \
        == health
