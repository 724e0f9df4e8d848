"""Targeted and army-damaging SAIs in melee and missile actions (002 SAI List; SAI Targeting; SAI Resolution):
the table per roll kind, the defaults and errors a scenario cannot show while its expectations hold."""

from __future__ import annotations

from pathlib import Path

import pytest

from ddref.scenario.run import load, replay
from engine.actions.specials import EFFECTS
from engine.editions import ruleset
from engine.actions.strikes import _by_points, rolled_id
from engine.roll import Face, Roll
from engine.sai_attacks import ATTACK_SAIS
from engine.sais import RESOLVED, SAI_USES, sai_use
from engine.trace import StepError

HEAD = """\
ddref: 1
title: sai attacks
players: [a, b, c]
terrains:
  field: {type: flatland, face: 3, home_of: a}
  hill: {type: highland, face: 3, home_of: b}
  dale: {type: flatland, face: 3, home_of: c}
armies:
  beasts: {player: a, at: field, units: [{id: m1, race: feral, health: 4}, {id: m2, race: feral, health: 4},
                                         {id: f1, race: feral, health: 1}]}
  wall: {player: b, at: field, units: [{id: w1, race: dwarf, health: 1}, {id: w2, race: dwarf, health: 2},
                                       {id: w3, race: dwarf, health: 3}]}
  camp: {player: c, at: field, units: [{id: c1, race: goblin, health: 2}]}
  far: {player: b, at: hill, units: [{id: h1, race: goblin, health: 2}]}
steps:
"""


def resolve(tmp_path: Path, step: str) -> dict:
    """The first step of HEAD + ``step``, replayed as ``ddref resolve --json`` reports it."""
    (tmp_path / "s.yaml").write_text(HEAD + step, encoding="utf-8")
    return replay(load(tmp_path / "s.yaml"))["steps"][0]


@pytest.mark.parametrize("sai, kind, gives", [
    # "During a dragon attack or melee avoidance roll, Kick generates melee results"
    ("kick", "dragon", ("melee",)), ("kick", "avoid-melee", ("melee",)),
    # "During a dragon attack or melee avoidance roll, Gore generates two melee results": melee, two for the face
    # (test_fixed_results_per_face)
    ("gore", "dragon", ("melee",)),
    # "During a dragon attack or missile avoidance roll, Crush generates missile results"
    ("crush", "dragon", ("missile",)), ("flaming-arrow", "avoid-missile", ("missile",)),
    # "During a melee attack or a dragon attack, Sneak Attack generates melee results"
    ("sneak-attack", "melee", ("melee",)), ("sneak-attack", "dragon", ("melee",)),
    # "During a maneuver roll, Elevate generates maneuver results"; "During a non-melee save roll, Bash
    # generates saves results"; "During a save roll against a melee attack, Flurry generates save results"
    ("elevate", "maneuver", ("maneuver",)), ("bash", "save-missile", ("save",)), ("flurry", "save-melee", ("save",)),
])
def test_normal_uses_per_roll_kind(sai, kind, gives):
    assert sai_use(sai, kind).gives == gives and sai_use(sai, kind).special is None


@pytest.mark.parametrize("edition, sai, kind, n", [
    # 002 Gore: "During a dragon attack or melee avoidance roll, Gore generates two melee results" (the face's two,
    # as its melee attack's two points of damage for each rolling unit; a monster's did 8 before)
    ("sfr-2012", "gore", "dragon", 2), ("sfr-2012", "gore", "avoid-melee", 2),
    # 001: "Firewalking generates four maneuver results", "Create Fireminions generates four ... results", "Rise
    # from the Ashes generates four save results" (a 3-health unit's one icon gave 1 before)
    ("sfr-v4", "firewalking", "maneuver", 4), ("sfr-v4", "teleport", "counter-maneuver", 4),
    ("sfr-v4", "create-fireminions", "save", 4), ("sfr-v4", "rise-from-the-ashes", "save", 4),
    # what the text does not fix stays the icons' points
    ("sfr-2012", "firewalking", "maneuver", None), ("sfr-2012", "kick", "avoid-melee", None),
])
def test_fixed_results_per_face(edition, sai, kind, n):
    assert sai_use(sai, kind, ruleset(edition).sai_uses).per_face == n


@pytest.mark.parametrize("sai, kind", [("slay", "dragon"), ("flame", "missile"), ("seize", "melee"),
                                       ("charge", "save-melee"), ("roar", "avoid-melee")])
def test_no_use_outside_the_rolls_named(sai, kind):
    assert sai_use(sai, kind) is None


def test_every_special_kind_has_a_phase_and_every_targeted_sai_a_record():
    kinds = {u.special for table in SAI_USES.values() for u in table.values() if u.special}
    # the state, returning and moving SAIs' specials: engine.actions.sai_states (RESOLVED); Attune's optional
    # second use is refused as not modelled when chosen
    assert sorted(kinds - set(EFFECTS) - set(RESOLVED) - {"cut-counter-maneuvers", "dragon-effect", "attune"}) == []
    picked = {s for s, table in SAI_USES.items() for u in table.values()
              if u.special in ("unit-strike", "unit-test", "unit-kill", "plague", "rolled-id-kill", "reroll-saves",
                               "charm", "sneak-attack")}
    assert sorted(picked - set(ATTACK_SAIS)) == []


def test_hug_points_go_by_whole_rollers():
    """002 SAI Targeting: two Hugs may combine on one unit, but cannot be divided among more than two units."""
    rollers = {"m1": 4, "m2": 4}
    assert _by_points("hug", {"w3": 8}, rollers, "c") == {"w3": ["m1", "m2"]}
    assert _by_points("hug", {"w3": 4, "w2": 4}, rollers, "c") == {"w3": ["m1"], "w2": ["m2"]}
    with pytest.raises(StepError, match="not the damage of whole rolling units"):
        _by_points("hug", {"w3": 5, "w2": 3}, rollers, "c")
    with pytest.raises(StepError, match="is not assigned"):
        _by_points("hug", {"w3": 4}, rollers, "c")


def test_rolled_id_reads_the_last_face():
    assert rolled_id(Roll(units=(("u", (Face("id"),)),)))
    assert not rolled_id(Roll(units=(("u", (Face("id"), Face("flashfire"), Face("save"))),)))
    assert rolled_id(Roll(counts=(("id", 2),))) and not rolled_id(Roll(counts=(("save", 2),)))


def test_targets_default_to_the_smallest_units_and_are_marked(tmp_path):
    step = resolve(tmp_path, "  - melee: {army: beasts, target: wall, roll: {m1: smother}, "
                                  "unit_saves: {w1: save, w3: save}}\n")
    chose = [e for e in step["trace"] if e["what"].startswith("smother: targets")]
    assert chose[0]["defaulted"] and chose[0]["what"] == "smother: targets w1, w3"
    assert step["killed"] == ["w1", "w3"]


def test_a_targeted_unit_without_its_roll_is_asked_for(tmp_path):
    step = resolve(tmp_path, """\
  - melee: {army: beasts, target: wall, roll: {m1: slay}, targets: {slay: [w3]}}
    expect_error: "give unit_saves.w3"
""")
    assert "must roll by itself for its id icon against slay" in step["rejected"].lower()


def test_one_unit_per_face_for_slay(tmp_path):
    step = resolve(tmp_path, """\
  - melee: {army: beasts, target: wall, roll: {m1: slay}, targets: {slay: [w3, w2]}, unit_saves: {w3: id, w2: id}}
    expect_error: "one unit per face rolled"
""")
    assert "choose from w1, w2, w3" in step["rejected"]


def test_owner_chooses_as_much_as_possible_for_a_rare_dragonkin_breath(tmp_path):
    """002 SAI Targeting: where the opponent selects, "as many health as possible must be selected"."""
    step = resolve(tmp_path, """\
  - melee: {army: beasts, target: wall, roll: {f1: breath-rare-dragonkin 3}, casualties: {wall: [w1]}}
    expect_error: "less than the 3 health-worth"
""")
    assert "legal choices include" in step["rejected"]


def test_two_elevates_never_double_one_unit_twice(tmp_path):
    step = resolve(tmp_path, """\
  - melee: {army: beasts, target: wall, roll: {m1: melee}, saves: {wall: {w1: elevate, w2: elevate, w3: save}},
            targets: {elevate: [w3, w3]}}
    expect_error: "each unit once"
""")
    assert "elevate doubles one unit per elevate rolled (2)" in step["rejected"].lower()


def test_sneak_attack_defaults_to_the_first_opposing_army_in_a_magic_action(tmp_path):
    """002 Sneak Attack: "The owner of the unit with this SAI selects the target army"; none given."""
    step = resolve(tmp_path, "  - magic: {army: beasts, roll: {m1: sneak-attack}, colors: {}}\n")
    chose = [e for e in step["trace"] if e["what"].startswith("sneak-attack: targets")]
    assert chose[0]["defaulted"] and chose[0]["what"] == "sneak-attack: targets wall"
    assert step["killed"] == ["w1", "w3"]


@pytest.mark.parametrize("choices, words", [
    ("targets: {kick: [w3], slay: [w2]}, unit_saves: {w3: save}", "targets name slay, which no roll of this step made"),
    ("targets: {kick: [w3]}, order: [smite, kick], unit_saves: {w3: save}", "order name smite, which no roll"),
    ("targets: {kick: [w3]}, unit_saves: {w3: save, w2: save}", "unit_saves or unit_ids are given for w2, which no"),
    ("targets: {kick: [w3]}, unit_saves: {w3: save}, unit_ids: {w2: {save: 1}}", "given for w2, which no sai"),
    ("targets: {kick: [w3]}, unit_saves: {w3: save}, counter: {w1: smite}, counter_order: [kick]",
     "counter_order name kick, which no roll of this step made"),
])
def test_choices_nothing_used_are_refused(tmp_path, choices, words):
    step = resolve(tmp_path, f"""\
  - melee: {{army: beasts, target: wall, roll: {{m1: kick}}, {choices}}}
    expect_error: "{words}"
""")
    assert words in step["rejected"].lower()


def test_one_unit_per_roller_needs_the_roll_per_unit(tmp_path):
    """002 Kick: "for each unit that generates Kick results choose one unit": an aggregate roll cannot say."""
    step = resolve(tmp_path, """\
  - melee: {army: beasts, target: wall, roll: {kick: 8}, targets: {kick: [w3]}, unit_saves: {w3: save}}
    expect_error: "give beasts's roll per unit"
""")
    assert "for each unit that generates it" in step["rejected"]


def test_magic_targets_without_the_sai_are_refused(tmp_path):
    step = resolve(tmp_path, """\
  - magic: {army: beasts, roll: {m1: magic}, colors: {}, targets: {sneak-attack: wall}}
    expect_error: "which the magic roll did not make"
""")
    assert "targets name sneak-attack" in step["rejected"]


def test_charm_picks_in_any_one_opposing_army(tmp_path):
    """002 Charm: "choose up to four health-worth of units in an opposing army to add their results"."""
    step = resolve(tmp_path, """\
  - melee: {army: beasts, target: wall, roll: {m1: charm, f1: melee}, targets: {charm: [c1]},
            unit_saves: {c1: melee 2}, saves: {wall: {w1: save}}, casualties: {wall: [w2]}}
""")
    assert step["results"]["beasts"]["melee"] == 3 and step["killed"] == ["w2"]
    step = resolve(tmp_path, """\
  - melee: {army: beasts, target: wall, roll: {m1: charm}, targets: {charm: [w1, c1]}}
    expect_error: "in one opposing army"
""")
    assert "are in camp, wall" in step["rejected"]


def test_charm_cannot_pick_in_an_army_at_another_terrain(tmp_path):
    """002 Glossary: "Opposing Army: An enemy army located at the same terrain as your own army"."""
    step = resolve(tmp_path, """\
  - melee: {army: beasts, target: wall, roll: {m1: charm}, targets: {charm: [h1]}}
    expect_error: "an enemy army at field"
""")
    assert "(wall, camp); h1 are in far" in step["rejected"]


@pytest.mark.parametrize("roll, words", [
    # "During a melee attack, ... Kick immediately inflicts four points of damage on the target unit"
    ("{for: melee, roll: {m1: kick}}", "kick in a melee roll is a special result"),
    ("{for: melee, roll: {m1: kick}}", "describe it in a melee step"),
    # "During a missile action, each Bullseye result immediately inflicts one point of damage"
    ("{for: missile, roll: {m1: bullseye}}", "describe it in a missile step"),
    # "During a missile or magic action, immediately kill up to four health-worth of opposing units"
    ("{for: magic, roll: {m1: sneak-attack}}", "describe it in a magic step"),
])
def test_a_roll_step_refuses_special_results_and_names_the_step_that_resolves_them(tmp_path, roll, words):
    """A roll step only counts results; a special SAI result that acts on others is refused, never ignored."""
    step = resolve(tmp_path, f"  - roll: {{army: beasts, {roll[1:-1]}}}\n    expect_error: \"special result\"\n")
    assert words in step["rejected"].lower()


def test_a_roll_step_still_resolves_doubling_and_normal_results(tmp_path):
    """Elevate doubles one unit's missile results inside the roll (002 Elevate); Kick in a melee avoidance roll
    generates melee results: neither is refused."""
    step = resolve(tmp_path, "  - roll: {army: beasts, for: missile, roll: {m1: elevate, f1: missile 3}}\n")
    assert step["results"]["beasts"]["missile"] == 6
    (tmp_path / "s.yaml").write_text(HEAD + "  - roll: {army: beasts, for: melee, avoidance: true, "
                                            "roll: {f1: kick 2}}\n", encoding="utf-8")
    assert replay(load(tmp_path / "s.yaml"))["steps"][0]["results"]["beasts"]["melee"] == 2
