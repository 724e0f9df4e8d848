"""Defects found by the independent examination of 002's magic, spells, dragons and turn sequence (issue 20)."""

import json
import subprocess
import sys
from pathlib import Path

from ddref.scenario.run import _check

SCEN = Path(__file__).parent.parent / "scenarios"


def test_an_expectation_of_null_holds_for_a_key_absent_from_an_existing_mapping():
    # a slain dragon is back in its pool: `dragons.r1: null` states "no longer in play" (before: always FAILED,
    # printed as "expected null, actual null")
    state = {"dragons": {"iv": {"at": "t2"}}, "armies": {}}
    checks = _check({"dragons.r1": None, "dragons.iv": None, "dragon.r1": None, "dragons.iv.at": None},
                    state, None, lambda: state)
    assert [c["ok"] for c in checks] == [True, False, False, False]


def test_a_step_state_expectation_of_null_reads_the_state_after_the_step():
    state = {"dragons": {}}
    [check] = _check({"state.dragons.b3": None}, {"kind": "dragon_attack"}, 0, lambda: state)
    assert check["ok"]


def test_a_dragonslayers_army_refused_promotion_is_told_why():
    # 002 Step 7: "If an army kills one or more dragons and the army does not contain a Dragonslayer ... it may
    # now simultaneously promote": the refusal names the Dragonslayer, not only "may not promote"
    out = subprocess.run([sys.executable, "-m", "ddref", "resolve", str(SCEN / "sfr2012-exam-magic-dragons.yaml"),
                          "--json"], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stdout[-2000:] + out.stderr[-2000:]
    steps = json.loads(out.stdout)["steps"]
    refused = [s["rejected"] for s in steps if "rejected" in s and "promote" in s["rejected"]]
    assert refused and "Dragonslayer" in refused[0]


def test_dua_doubling_at_a_standing_stones_without_black_is_traced_as_a_reading():
    # 002 Standing Stones ("no unit can double its ID icons for magic unless both the unit and the terrain contain
    # that color") read with 002 Dead Unit Area Advantage: the reading is said in the trace with both citations
    out = subprocess.run([sys.executable, "-m", "ddref", "resolve",
                          str(SCEN / "sfr2012-exam-magic-eighth-negation.yaml"), "--json"],
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stdout[-2000:] + out.stderr[-2000:]
    last = json.loads(out.stdout)["steps"][-1]
    assert last["magic"]["points"] == {"black": 5}
    readings = [t for t in last["trace"] if t.get("kind") == "reading"]
    assert any("Standing Stones" in t["what"] and t["cite"].endswith("dead-unit-area-advantage")
               and t.get("also", "").endswith("standing-stones") for t in readings), readings


def _resolve(name):
    out = subprocess.run([sys.executable, "-m", "ddref", "resolve", str(SCEN / name), "--json"],
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stdout[-2000:] + out.stderr[-2000:]
    return json.loads(out.stdout)


def test_summon_elemental_dragon_sends_an_untamed_dragon_already_at_a_terrain_but_never_an_ivory():
    # 002 Summon Elemental Dragon: "send any elemental dragon with the same color" (not "in a summoning pool", as
    # Summon Ivory Dragon says); 002 Ivory Dragons: "No other effect can move an ivory dragon"
    steps = _resolve("sfr2012-exam-magic-summoning.yaml")["steps"]
    assert "ivory" in steps[3]["rejected"]
    five = steps[4]
    assert "rejected" not in five and "bob-red-drake" in five["moved"]
    assert any(t.get("kind") == "reading" and "bob-red-drake" in t["what"] and t.get("also", "").endswith(
        "dragon-taming") for t in five["trace"])


def test_the_books_singular_claw_and_plural_wings_name_the_dragon_faces(tmp_path):
    # 002's own examples: "The dragon rolls a tail then a claw doing nine points of damage" (Dice Modifiers) and
    # "Any surviving dragons that rolled Wings" (Step 8): a judge copying those words is understood
    text = (SCEN / "sfr2012-exam-magic-dragons.yaml").read_text()
    text = text.replace("gd5: [tail, claws]}\n      roll: {melee: 6, missile: 6, save: 9}\n    expect:",
                        "gd5: [tail, claw]}\n      roll: {melee: 6, missile: 6, save: 9}\n    expect:")
    text = text.replace("g2: [wing]", "g2: [Wings]")
    assert "[tail, claw]" in text and "[Wings]" in text
    path = tmp_path / "claw.yaml"
    path.write_text(text)
    out = subprocess.run([sys.executable, "-m", "ddref", "resolve", str(path), "--json"], capture_output=True,
                         text=True, timeout=300)
    assert out.returncode == 0, out.stdout[-2000:] + out.stderr[-2000:]
    steps = json.loads(out.stdout)["steps"]
    assert steps[6]["damage"]["a5"] == 0 and steps[2]["damage"]["a2"] == 0


def test_a_dotted_path_reaches_a_unit_whose_default_id_holds_a_dot():
    # a unit's default id is <army>.<n>: `kept.OG.6` (Open Grave kept it) and `results.BB.6.save` (its own roll,
    # beside its army's `results.BB`) must be reachable (before: always "actual null")
    step = {"kept": {"OG.6": "alice-reserve"}, "results": {"BB": {"save": 0}, "BB.6": {"save": 1}}}
    checks = _check({"kept.OG.6": "alice-reserve", "results.BB.6.save": 1, "results.BB.save": 0,
                     "results.BB.7.save": None}, step, 0, lambda: {})
    assert [c["ok"] for c in checks] == [True, True, True, False]


def test_an_eliminated_players_spells_end_when_their_skipped_turn_would_have_come_under_sfr2012():
    # 002 Duration: "Any spells the eliminated player had previously cast on another player's units or armies, or on
    # terrains, have their normal duration (that is to say, they expire when the eliminated player would have had
    # his or her next turn)": passing from bob to alice over eliminated carol ends carol's Ash Storm and Palsy (before:
    # only sfr-v4's 003 rule did, and they lasted on)
    data = _resolve("sfr2012-exam-magic-moves-elimination.yaml")
    after = data["steps"][5]
    gone = [t["what"] for t in after["trace"] if "would have taken their next turn" in t["what"]]
    assert len(gone) == 2 and any("ash-storm" in g for g in gone) and any("palsy" in g for g in gone)
    assert data["state"]["effects"] == []


def test_an_all_amazon_reserve_army_rolled_per_unit_is_refused_with_the_amazon_rule():
    # 002 Reserve Magic: "Amazon units cannot cast magic in the reserve area; instead they fire missiles": the
    # per-unit roll got "2 blue is not a split this roll allows; the largest are: no points" before
    steps = _resolve("sfr2012-exam-magic-amazon-frostwing.yaml")["steps"]
    assert "cannot use magic" in steps[4]["rejected"] and "missile" in steps[4]["rejected"]
