"""tsr-1996's charge (000 First March, Charge) with SAIs, where a scenario cannot reach the case.

Bullseye: its 000 entry gives it no use in a charge roll (no effect, the entry quoted; Dispel Magic has no effect
there too, scenarios/tsr1996-charge-plain-sais.yaml); a
Confuse in the charged army's answer that rerolls a charging unit whose special SAI has acted (a reading).
The SAIs that do act are the scenarios ``scenarios/tsr1996-charge-*.yaml``.
"""

from pathlib import Path

import pytest
import yaml

from ddref.scenario.run import load, replay
from ddref.scenario.source import ScenarioErrors

ARMIES = {
    "A": {"player": "a", "at": "field", "units": [{"id": "beast", "race": "goblin", "health": 4, "monster": True},
                                                  {"id": "a1", "race": "goblin", "health": 1}]},
    "B": {"player": "b", "at": "field", "units": [{"id": "fiend", "race": "dwarf", "health": 4, "monster": True},
                                                  {"id": "b1", "race": "dwarf", "health": 1},
                                                  {"id": "b2", "race": "dwarf", "health": 1}]},
}


def _charge(tmp_path: Path, roll: dict, saves: dict, **choices) -> dict:
    """One charge of A on B; returns the replayed step (a refused step raises ScenarioErrors)."""
    data = {"ddref": 1, "title": "charge", "edition": "tsr-1996", "players": ["a", "b"], "turn": {"player": "a"},
            "terrains": {"field": {"type": "flatland", "face": 5, "action": "melee", "home_of": "a"}},
            "armies": ARMIES, "steps": [{"melee": {"army": "A", "target": "B", "charge": True, "roll": roll,
                                                   "saves": {"B": saves}, **choices}}]}
    path = tmp_path / "charge.yaml"
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    return replay(load(path))["steps"][0]


def test_a_bullseye_in_a_charge_has_no_effect_its_entry_quoted(tmp_path):
    """000 Bullseye acts "During a missile action" and "During a dragon attack": a charge is neither."""
    step = _charge(tmp_path, {"beast": "bullseye", "a1": "melee"}, {"b1": "save"})
    event = next(e for e in step["trace"] if "bullseye has no effect" in e["what"])
    assert event["rule"].startswith("During a missile action, the bullseye targets one unit")
    assert event["cite"] == "tsr-1996:special-rules.special-action-icons.bullseye"
    assert step["damage"].get("B", 0) == 0      # a1's 1 melee against b1's 1 save


def test_a_confuse_in_the_answer_rerolling_a_unit_whose_kick_has_acted_counts_only_its_new_face(tmp_path):
    """004 Confuse A: "This is a special case that DOES violate the principle that dice once rolled cannot be
    voided", read with General Rules D ("Resolved first"): the Kick already struck b2 and stands; beast's new face
    (a monster's melee, four) is counted in the charging roll: 4 + a1's 1 = 5 damage, less b1's save = 4."""
    step = _charge(tmp_path, {"beast": "kick", "a1": "melee"}, {"fiend": "confuse", "b1": "save"},
                   targets={"kick": ["b2"], "confuse": ["beast"]}, unit_saves={"b2": "save", "beast": "melee"})
    assert step["killed"] == ["b2", "fiend"] and step["damage"]["B"] == 4 and step["results"]["A"]["melee"] == 5
    said = next(e for e in step["trace"] if e["what"].startswith("reading: beast rolls again: kick"))
    assert said["cite"] == "tsr-1996:faq.monster-special-action-icons.confuse"
    assert said["rule"].endswith("tsr-1996:faq.monster-special-action-icons.general-rules")


def test_a_charm_in_the_answer_needs_the_charging_roll_per_unit(tmp_path):
    with pytest.raises(ScenarioErrors, match=r"give its roll per unit \(roll\)"):
        _charge(tmp_path, {"melee": 1}, {"fiend": "charm", "b1": "save"})


def test_the_same_sais_act_when_the_charged_army_rolls_them_as_a_skirmish_attack_would(tmp_path):
    """The refusals above are not a blanket: a Kick in the answer strikes the charging army (004 General Rules A)."""
    step = _charge(tmp_path, {"a1": "melee"}, {"fiend": "kick", "b1": "save"}, targets={"kick": ["a1"]},
                   unit_saves={"a1": "melee"})
    assert any(e["what"] == "kick of fiend: 4 damage on a1" for e in step["trace"]), step["trace"]
    assert step["killed"] == ["a1"]


def test_a_choice_for_an_sai_neither_charge_roll_made_is_a_mistake(tmp_path):
    """As in a skirmish (engine.actions.specials.leftover_choices): ``targets`` naming an SAI no roll made."""
    with pytest.raises(ScenarioErrors, match="targets name kick, which no roll of this step made as a special SAI"):
        _charge(tmp_path, {"a1": "melee"}, {"b1": "save"}, targets={"kick": ["a1"]})


def test_a_charged_unit_charmed_by_the_charging_army_adds_its_maneuver_to_the_charge_damage(tmp_path):
    """004 Charm D: "they change sides"; on the charging side "Each point of melee and each point of maneuver rolled
    count as a point of damage" (000 Charge): b1's maneuver leaves B and hits it, b2's save no longer saves it."""
    step = _charge(tmp_path, {"beast": "charm", "a1": "melee"}, {"b1": "maneuver", "b2": "save"},
                   targets={"charm": ["b1", "b2"]})
    assert step["damage"] == {"B": 2, "A": 0}


def test_a_counter_in_the_answer_hits_the_charging_army_and_says_so(tmp_path):
    """000 Counter "counts as both a save and an immediate hit upon the attacking army": the trace names A, the
    charging army, as the one hit (not B, whose unit rolled it); without magic saves on A it is no reading."""
    step = _charge(tmp_path, {"a1": "melee"}, {"b1": "counter", "b2": "save"})
    event = next(e for e in step["trace"] if "counter" in e["what"] and "hits" in e["what"])
    assert event["what"].endswith("also hits A") and not event["what"].startswith("reading: ")
    assert event["after"] == 1
