"""Wrong answers from impossible input (issue 19 §5, issue 20 §0): each is refused, naming its rule and section."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

from ddref.scenario.run import parse, replay
from ddref.scenario.source import ScenarioErrors
from fast_yaml import load_yaml

HEAD = """\
ddref: 1
title: impossible input
players: [a, b]
terrains:
  t: {type: flatland, face: 3, action: melee}
  u: {type: flatland, face: 3, action: melee}
  v: {type: flatland, face: 3, action: melee}
armies:
  five: {player: a, at: t, units: [{race: goblin, health: 1, count: 5}]}
  pair: {player: a, at: u, units: [{id: u2, race: dwarf, health: 2}]}
  hunters: {player: a, at: v, units: [{id: dh, name: Dragonhunter, race: eldarim, color: green},
                                      {id: e1, race: eldarim, health: 1}]}
  foe: {player: b, at: t, units: [{id: f1, race: dwarf, health: 2}, {id: f2, race: dwarf, health: 2}]}
  prey: {player: b, at: v, units: [{id: p1, race: dwarf, health: 2}]}
"""


def step(body: str, head: str = HEAD) -> dict:
    """The first step's entry, replayed (a refused step with expect_error reports ``rejected``)."""
    return replay(parse(head + "steps:\n" + body, "s.yaml"))["steps"][0]


def load_errors(text: str) -> str:
    with pytest.raises(ScenarioErrors) as exc:
        replay(parse(text, "s.yaml"))
    return str(exc.value)


# --- aggregate rolls bounded by the units' dice --------------------------------------------------------------

@pytest.mark.parametrize("army, roll, words", [
    ("five", "{melee: 1000000}", "cannot roll 1000000 results"),
    ("five", "{id: 50}", "ID icons are worth 5 in all"),
    ("pair", "{melee: 11}", "cannot roll 11 results"),            # a single 2-health unit (issue 20 §0)
    ("pair", "{melee: 2, save: 2, cantrip: 1}", "cannot roll 5 results"),
    ("pair", "{id: 3}", "ID icons are worth 2 in all"),
])
def test_an_aggregate_roll_beyond_its_dice_is_refused(army, roll, words):
    out = step(f"  - roll: {{army: {army}, for: melee, roll: {roll}}}\n    expect_error: x\n")
    assert words in out["rejected"] and out["cite"]
    # 002 SAI General Information (a rare's face of four Cantrip icons) or ID Icons: the sections the bound reads
    assert out["cite"] in ("sfr-2012:special-action-icons-general-information", "sfr-2012:basic-terms")


@pytest.mark.parametrize("army, roll", [
    ("five", "{melee: 20}"), ("five", "{id: 5}"), ("pair", "{melee: 2, save: 1, id: 0}"),
    # a unit rolled again (Rend, Double Strike) has no bound the rules set
    ("pair", "{melee: 6, double-strike: 8}"),
])
def test_an_aggregate_roll_the_dice_can_show_is_counted(army, roll):
    out = step(f"  - roll: {{army: {army}, for: melee, roll: {roll}}}\n")
    assert "rejected" not in out


# --- a face the unit's known die does not bear -------------------------------------------------------------

def test_a_face_a_known_die_does_not_bear_is_refused():
    out = step("  - melee: {army: hunters, target: prey, roll: {dh: trample}, saves: {prey: {save: 0}}}\n"
               "    expect_error: x\n")
    assert "dh (Dragonhunter) rolled trample, which its die does not bear" in out["rejected"]
    assert out["cite"] == "sfr-2012:the-eldarim-champions.dragonhunter"


@pytest.mark.parametrize("face", ["smite", "counter", "melee 2", "id", "sfr-logo-dragonhunter"])
def test_the_faces_a_known_die_bears_are_counted(face):
    # a Smite's damage is no normal damage: no save roll is made (002 Melee, "If and only if normal damage ...")
    saves = "" if face == "smite" else ", saves: {prey: {save: 0}}"
    out = step(f"  - melee: {{army: hunters, target: prey, roll: {{dh: {face}}}{saves}}}\n")
    assert "rejected" not in out


# --- negative splits ---------------------------------------------------------------------------------------

NEGATIVE = "  - roll: {army: five, for: [save, maneuver], roll: {fly: 4}, splits: {fly: {save: 100, maneuver: -96}}}\n"


def test_a_negative_split_is_refused_by_the_loader_and_the_schema(run, tmp_path):
    text = HEAD + "steps:\n" + NEGATIVE
    assert "steps[0].roll.splits.fly.maneuver: expected greater than or equal to 0, got -96" in load_errors(text)
    schema = json.loads(run("schema").stdout)
    validator = jsonschema.Draft202012Validator(schema)
    assert list(validator.iter_errors(load_yaml(text)))
    # the same split without the negative number is valid: the minimum of 0 is what the schema refuses
    assert not list(validator.iter_errors(load_yaml(text.replace("save: 100, maneuver: -96",
                                                                      "save: 0, maneuver: 4"))))


@pytest.mark.parametrize("field", ["penalties: {save: -1}", "ids: {save: -2}", "counts_as: {save: -1}"])
def test_every_owner_split_is_never_negative(field):
    text = HEAD + "steps:\n" + f"  - roll: {{army: five, for: [save, maneuver], roll: {{save: 1}}, {field}}}\n"
    assert "expected greater than or equal to 0" in load_errors(text)


def test_the_engine_refuses_a_negative_split_given_directly():
    from engine.modifiers import split_points
    from engine.trace import StepError

    class Ctx:
        wanted = ("save", "maneuver")
        choices = {"fly": {"save": 100, "maneuver": -96}}

    with pytest.raises(StepError, match="negative"):
        split_points(4, Ctx(), "fly", [], "fly", "sfr-2012:avoidance-rolls")


# --- whose turn it is --------------------------------------------------------------------------------------

@pytest.mark.parametrize("body", [
    "  - melee: {army: foe, target: five, roll: {melee: 1}, saves: {five: {save: 0}}}\n",
    "  - maneuver: {army: foe, direction: up}\n",
])
def test_an_army_of_the_player_whose_turn_it_is_not_cannot_act(body):
    out = step(body + "    expect_error: x\n")
    assert "it is a's turn: foe is b's army" in out["rejected"]
    assert out["cite"] == "sfr-2012:glossary-of-dragon-dice-terms.march"


def test_a_turn_step_lets_the_next_player_act():
    out = replay(parse(HEAD + "steps:\n  - turn: {player: b}\n"
                              "  - melee: {army: foe, target: five, roll: {melee: 1}, saves: {five: {save: 0}}}\n",
                       "s.yaml"))
    assert out["steps"][1]["killed"] == ["five.1"]


# --- a spell in play on the wrong kind of target; one id in two places ----------------------------------------

@pytest.mark.parametrize("effect, words", [
    ("{spell: ash-storm, target: f1, by: a}", "Ash Storm targets terrain, and 'f1' is not one"),
    ("{spell: palsy, target: five, by: a}", "Palsy targets enemy army, and 'five' is not one for a spell cast by a"),
    ("{spell: earthen-armor, target: t, by: a}", "Earthen Armor targets own unit, and 't' is not one"),
])
def test_a_spell_in_play_must_be_on_its_kind_of_target(effect, words):
    errors = load_errors(HEAD + f"effects:\n  - {effect}\n")
    assert words in errors and "[sfr-2012:spell-attributes.target]" in errors


def test_a_spell_in_play_on_its_kind_of_target_is_accepted():
    out = replay(parse(HEAD + "effects:\n  - {spell: ash-storm, target: t, by: b}\n"
                              "  - {spell: palsy, target: foe, by: a}\n", "s.yaml"))
    assert len(out["state"]["effects"]) == 2


@pytest.mark.parametrize("area", ["dua", "bua"])
def test_one_id_cannot_name_an_army_unit_and_a_dead_or_buried_unit(area):
    errors = load_errors(HEAD + f"{area}:\n  a: [{{id: u2, race: dwarf, health: 1}}]\n")
    assert f"{area}.a: id 'u2' is used twice" in errors
