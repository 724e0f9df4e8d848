"""tsr-1996: units freed from an Entangle (004 Entangle D: they "may immediately be rolled and are counted in the current
roll") into either roll of a charge (000 First March, Charge; 004 General Rules A: "a charge roll by attacker or
defender"), engine.actions.charge_freed; scenarios/tsr1996-sai-joined-freed-charge.yaml's situation with other
steps."""

from __future__ import annotations

from pathlib import Path

import pytest

from ddref.scenario.run import parse, replay
from ddref.scenario.source import UserError

_SCENARIO = Path(__file__).parents[1] / "scenarios" / "tsr1996-sai-joined-freed-charge.yaml"
# b's turn: Vines2 entangles Climber2, Vines4 Cast4; then a's turn
_ENTANGLED = """  - turn: {player: b}
  - melee: {army: B2, target: A2, roll: {vines2: entangle}, targets: {entangle: [climber2]}, counter: false}
  - melee: {army: B4, target: A4, roll: {vines4: entangle}, targets: {entangle: [cast4]}, counter: false}
  - turn: {player: a}
"""
_CHARGE2 = """  - melee: {army: A2, target: B2, charge: true, roll: {k2: kick, m2: melee 2}, targets: {kick: [vines2]},
            unit_saves: {vines2: melee, climber2: maneuver 2}, saves: {B2: {g1: save, g2: melee}},
            casualties: {B2: [g1]}}
"""
_CHARGE3 = """  - melee: {army: A3, target: B3, roll: {vines3: entangle}, targets: {entangle: [hold3]}, counter: false}
  - melee: {army: A3, target: B3, charge: true, roll: {h1: melee 2, h2: melee}, saves: {B3: {k3: kick, d1: save}},
            targets: {kick: [vines3]}, unit_saves: {vines3: melee, hold3: save}}
"""


def _play(steps: str, replace: dict[str, str] | None = None) -> dict:
    """The bundled scenario's situation (edited by ``replace``) with ``steps``: the last step's result."""
    text = _SCENARIO.read_text()
    text = text[:text.index("\nsteps:") + 1]
    for old, new in (replace or {}).items():
        assert old in text
        text = text.replace(old, new)
    return replay(parse(text + "steps:\n" + steps, "t.yaml"))["steps"][-1]


def _readings(out: dict) -> list[str]:
    return [e["what"] for e in out["trace"] if e["what"].startswith("reading: ")]


def test_a_unit_freed_into_the_charging_roll_adds_its_maneuver_as_damage():
    """k2's Kick kills Vines2; Climber2, freed, rolls 2 maneuver: 2 melee + 2 maneuver = 4 damage, 3 past g1's save
    (g1 killed). Not rolled (no unit_saves.climber2): freed but not rolled, 2 damage, 1 past the save, nobody killed."""
    out = _play(_ENTANGLED + _CHARGE2)
    assert out["damage"] == {"B2": 3, "A2": 1} and out["killed"] == ["vines2", "g1"]
    assert any(e["what"] == "A2: 2 melee + 2 maneuver = 4 damage" for e in out["trace"])
    assert any(r.startswith("reading: climber2, freed by an SAI of A2's charge roll, rolls in it at once: the current "
                            "roll is the charging roll") for r in _readings(out))
    alone = _play(_ENTANGLED + _CHARGE2.replace(", climber2: maneuver 2", "").replace(
        "\n            casualties: {B2: [g1]}", ""))
    assert alone["damage"]["B2"] == 1 and alone["killed"] == ["vines2"]
    assert any(e["what"] == "climber2 is freed but not rolled" and e.get("defaulted") for e in alone["trace"])


def test_a_freed_unit_s_poison_in_the_charging_roll_is_resolved_before_the_answer():
    """Climber2 (a monster here), freed, rolls Poison: resolved at once, as the army's own would be, before B2 answers:
    g2 rolls a melee, killed and buried (its burial roll a melee); g1's save alone answers: 2 - 1 = 1 damage."""
    steps = _CHARGE2.replace("climber2: maneuver 2", "climber2: poison, g1: save, g2: melee") \
        .replace("targets: {kick: [vines2]}", "targets: {kick: [vines2], poison: [g1, g2]}") \
        .replace("saves: {B2: {g1: save, g2: melee}}", "saves: {B2: {g1: save}}, burial: {g2: melee}") \
        .replace("\n            casualties: {B2: [g1]}", "")
    out = _play(_ENTANGLED + steps, {"{id: climber2, race: dwarf, health: 2}":
                                     "{id: climber2, race: dwarf, health: 4, monster: true}"})
    assert out["killed"] == ["vines2", "g2"] and out["buried"] == ["g2"] and out["damage"]["B2"] == 1


def test_a_freed_unit_s_kick_after_the_army_s_kick_whose_target_died_takes_the_next_target():
    """k2's Kick killed Vines2 before Climber2 was freed; Climber2's Kick continues it (002 Targeting, as in a
    skirmish): it picks its own, the next entry of targets.kick, g2 (a melee, no save): killed before
    B2 answers; g1's save against m2's 2 melee: 1 damage. With no next entry, the default (the first unit of B2,
    marked defaulted), which must roll by itself."""
    steps = _CHARGE2.replace("climber2: maneuver 2", "climber2: kick, g2: melee") \
        .replace("targets: {kick: [vines2]}", "targets: {kick: [vines2, g2]}") \
        .replace("saves: {B2: {g1: save, g2: melee}}", "saves: {B2: {g1: save}}") \
        .replace("\n            casualties: {B2: [g1]}", "")
    monster = {"{id: climber2, race: dwarf, health: 2}": "{id: climber2, race: dwarf, health: 4, monster: true}"}
    out = _play(_ENTANGLED + steps, monster)
    assert out["killed"] == ["vines2", "g2"] and out["damage"]["B2"] == 1
    assert any(r.startswith("reading: kick rolled by climber2, brought into A2's roll after the army's own identical "
                            "SAI was resolved, combines with it: it continues the first: its own effect with the step's "
                            "choices the first left (a Kick's next target") for r in _readings(out))
    assert any(e["what"] == "kick of climber2: 4 damage on g2" for e in out["trace"])
    with pytest.raises(UserError, match="g1 must roll by itself against 4 kick damage"):
        _play(_ENTANGLED + steps.replace("[vines2, g2]", "[vines2]"), monster)


_CHARGE4 = """  - melee: {army: A4, target: B4, charge: true, roll: {k4: kick, m4: melee 2}, targets: {kick: [vines4]},
            unit_saves: {vines4: melee, cast4: cantrip}, saves: {B4: {f1: save, f2: save}},
            cantrip: {A4: {colors: {red: 4}, cast: [{spell: burning-hands, target: m4}]}}, casualties: {B4: [f1]}}
"""


def test_a_freed_unit_s_cantrip_buys_the_charging_army_s_purchase_and_its_roll_counts_again():
    """Cast4's Cantrip, A4's roll showing none, buys cantrip.A4: a Burning Hands on m4, A4 counted again, 2 melee -> 4,
    2 past B4's saves; no purchase: it buys nothing (defaulted), 2 damage all saved."""
    out = _play(_ENTANGLED + _CHARGE4)
    assert out["damage"]["B4"] == 2 and out["killed"] == ["vines4", "f1"]
    assert any(e["what"] == "A4: melee counted again" and (e["before"], e["after"]) == (2, 4) for e in out["trace"])
    unbought = _CHARGE4.replace("\n            cantrip: {A4: {colors: {red: 4}, cast: [{spell: burning-hands, "
                                "target: m4}]}}, casualties: {B4: [f1]}", "")
    alone = _play(_ENTANGLED + unbought)
    assert alone["damage"]["B4"] == 0 and alone["killed"] == ["vines4"]
    assert any(e["what"] == "A4: 4 Cantrip point(s) buy nothing" and e.get("defaulted") for e in alone["trace"])


def test_a_unit_freed_into_the_answer_adds_its_saves():
    """k3's Kick in B3's answer kills Vines3; Hold3, freed, saves 4 in the answer: 5 saves, no damage; not rolled,
    3 - 1 = 2 damage."""
    out = _play(_CHARGE3)
    assert out["damage"] == {"B3": 0, "A3": 0} and out["killed"] == ["vines3"]
    assert any(e["what"] == "hold3 add 4 save, 0 melee to B3's roll" for e in out["trace"])
    assert any("the current roll is the answer" in r for r in _readings(out))
    alone = _play(_CHARGE3.replace(", hold3: save", ""))
    assert alone["damage"]["B3"] == 2


def test_a_counter_of_a_unit_freed_into_the_answer_saves_and_hits_the_charging_army():
    """Hold3, freed into the answer, rolls a Counter: 4 saves, and 4 hits on A3, which no saves stop: h1, h2 killed."""
    out = _play(_CHARGE3.replace("hold3: save", "hold3: counter"))
    assert out["damage"] == {"B3": 0, "A3": 4} and sorted(out["killed"]) == ["h1", "h2", "vines3"]
    assert any(e["what"] == "hold3: 4-point counter also hits A3" for e in out["trace"])


def test_a_unit_freed_into_the_charging_roll_counts_its_icons_for_routing():
    """Routing in play: A2's charging roll shows m2's ID and no save icon (routed); Climber2, freed into it, rolls a
    save icon counted in that roll (004 Entangle D: "counted in the current roll"): 1 ID against 1 save, A2 holds."""
    steps = _ENTANGLED + _CHARGE2.replace("m2: melee 2", "m2: id").replace("climber2: maneuver 2", "climber2: save") \
        .replace("\n            casualties: {B2: [g1]}", "")
    routing = {"players: [a, b]": "routing: true\nplayers: [a, b]"}
    out = _play(steps, routing)
    assert any(e["what"] == "A2 rolled 1 ID icon(s) and 1 save icon(s): holds" for e in out["trace"])
    alone = _play(steps.replace(", climber2: save", ""), routing)
    assert any(e["what"] == "A2 rolled 1 ID icon(s) and 0 save icon(s): routed" for e in alone["trace"])


def test_a_freed_unit_s_cantrip_after_the_charging_army_s_own_is_a_purchase_of_its_own():
    """m4's own Cantrip (cantrip.A4) is bought before A4's roll goes on; Cast4, freed by k4's Kick, rolls a Cantrip
    after it: its own purchase, cantrip.cast4 (a reading, as in a skirmish); not given, it buys nothing (defaulted)."""
    steps = _CHARGE4.replace("m4: melee 2", "m4: cantrip 2").replace(
        "cantrip: {A4: {colors: {red: 4}, cast: [{spell: burning-hands, target: m4}]}}, casualties: {B4: [f1]}",
        "cantrip: {A4: {colors: {red: 2}, cast: []}, cast4: {colors: {red: 4}, cast: [{spell: burning-hands, "
        "target: k4}]}}")
    out = _play(_ENTANGLED + steps)
    assert any("the Cantrip of cast4, freed into A4's roll after the army's own Cantrip was resolved" in r
               for r in _readings(out))
    assert any(e["what"] == "Burning Hands x1 takes effect on k4" for e in out["trace"])
    alone = _play(_ENTANGLED + steps.replace(", cast4: {colors: {red: 4}, cast: [{spell: burning-hands, "
                                             "target: k4}]}}", "}"))
    assert any(e["what"] == "cast4: 4 Cantrip point(s) buy nothing" and e.get("defaulted") for e in alone["trace"])


# b's turn: Vines5 entangles a's Cast5; then a's turn
_ENTANGLED5 = """  - turn: {player: b}
  - melee: {army: B5, target: A5, roll: {vines5: entangle}, targets: {entangle: [cast5]}, counter: false}
  - turn: {player: a}
"""
_CHARGE5 = """  - melee: {army: A5, target: B5, charge: true, roll: {k5: kick, trolls5: regenerate},
            targets: {kick: [vines5], regenerate: [sparker5, brute5]},
            unit_saves: {vines5: melee, cast5: cantrip, sparker5: cantrip 2, brute5: melee 2},
            cantrip: {A5: {colors: {red: 4, gold: 2}, cast: [{spell: burning-hands, target: brute5},
                                                             {spell: stoneskin, target: A5}]}},
            saves: {B5: {e1: save, e2: melee}}, casualties: {B5: [e1]}}
"""


def test_a_returned_unit_s_cantrip_and_a_freed_unit_s_are_one_purchase():
    """A5's roll shows no Cantrip; Sparker5, brought back by the Trolls' Regenerate, rolls 2 Cantrip points, Cast5,
    freed by k5's Kick, 4: one purchase of 6 (cantrip.A5), a Burning Hands on Brute5 (returned too: its 2 melee
    counted again, 4) and a Stoneskin on A5 (stops e2's melee): 4 - 1 = 3 damage, none back. Neither alone pays
    for both spells."""
    out = _play(_ENTANGLED5 + _CHARGE5)
    assert out["damage"] == {"B5": 3, "A5": 0} and out["killed"] == ["vines5", "e1"]
    assert any(e["what"] == "A5's roll is suspended: 6 Cantrip point(s) buy spells" for e in out["trace"])
    assert any(e["what"] == "brute5: melee counted again" and (e["before"], e["after"]) == (2, 4)
               for e in out["trace"])
    assert any(r.startswith("reading: the Cantrip of sparker5, brought into A5's roll, whose own roll shows none, "
                            "waits for that of cast5, freed into it") for r in _readings(out))
    assert not any(e.get("defaulted") and "Cantrip" in e["what"] for e in out["trace"])


def test_a_returned_unit_s_cantrip_and_a_freed_unit_s_buy_nothing_together_when_no_purchase_is_given():
    """No cantrip.A5: the 6 points of Sparker5's and Cast5's Cantrips buy nothing, once (defaulted); Brute5's 2 melee,
    less e1's save, 1 damage, e2's melee hits A5 (no Stoneskin), which removes no unit."""
    steps = _CHARGE5.replace("\n            cantrip: {A5: {colors: {red: 4, gold: 2}, cast: [{spell: burning-hands, "
                             "target: brute5},\n                                                             "
                             "{spell: stoneskin, target: A5}]}},", "").replace(
        ", casualties: {B5: [e1]}", "")
    out = _play(_ENTANGLED5 + steps)
    unbought = [e["what"] for e in out["trace"] if e.get("defaulted") and "Cantrip point(s)" in e["what"]]
    assert unbought == ["A5: 6 Cantrip point(s) buy nothing"]
    assert out["damage"] == {"B5": 1, "A5": 1} and out["killed"] == ["vines5"]


# b's turn: Vines6 entangles a's Climber6; then a's turn
_ENTANGLED6 = """  - turn: {player: b}
  - melee: {army: B6, target: A6, roll: {vines6: entangle}, targets: {entangle: [climber6]}, counter: false}
  - turn: {player: a}
"""
_CHARGE6 = """  - melee: {army: A6, target: B6, charge: true, roll: {k6: kick, m6: melee 2},
            targets: {kick: [vines6], confuse: [climber6]},
            unit_saves: {vines6: melee, climber6: maneuver 2}, rerolls: {climber6: melee},
            saves: {B6: {conf6: confuse, g6: save}}, casualties: {B6: [g6]}}
"""


def test_the_answer_s_confuse_rerolls_a_unit_freed_into_the_charging_roll():
    """k6's Kick kills Vines6; Climber6, freed, rolls 2 maneuver: 4 damage. B6's answer: conf6's Confuse picks
    Climber6, whose new roll (rerolls.climber6) is 1 melee in place of its 2 maneuver: 3 damage, less g6's save: 2,
    g6 killed (the first roll counted once, not twice)."""
    out = _play(_ENTANGLED6 + _CHARGE6)
    assert out["damage"] == {"B6": 2, "A6": 0} and out["killed"] == ["vines6", "g6"]
    assert any(e["what"] == "A6 counted again: 2 melee + 0 maneuver + 1 from the units that joined it = 3 damage"
               for e in out["trace"])
    assert any(r.startswith("reading: climber6, freed into A6's roll and counted in it, is one of its units the "
                            "answer's Confuse may pick") for r in _readings(out))


def test_a_confused_freed_unit_without_its_reroll_is_an_error():
    with pytest.raises(UserError, match="its unit_saves is the roll it joined A6's roll with; give its new "
                                        "roll as rerolls.climber6"):
        _play(_ENTANGLED6 + _CHARGE6.replace(" rerolls: {climber6: melee},", ""))


def test_a_reroll_for_a_unit_the_confuse_did_not_pick_is_an_error():
    """The Confuse picks m6 (its new roll its unit_saves entry): rerolls.climber6 is read by nobody."""
    steps = _CHARGE6.replace("confuse: [climber6]", "confuse: [m6]").replace("climber6: maneuver 2}",
                                                                            "climber6: maneuver 2, m6: melee}")
    with pytest.raises(UserError, match=r"rerolls.climber6 is given, but climber6 is no unit freed or brought into "
                                        r"A6's roll that the answer's Confuse picked \(those: none\)"):
        _play(_ENTANGLED6 + steps)
    with pytest.raises(UserError, match="only a charge"):
        _play(_ENTANGLED6 + _CHARGE6.replace("charge: true, ", ""))


_CHARGE7 = """  - melee: {army: A7, target: B7, roll: {vines7: entangle}, targets: {entangle: [hold7]}, counter: false}
  - melee: {army: A7, target: B7, charge: true, roll: {h7: melee 2}, saves: {B7: {k7: counter, d7: save}},
            casualties: {A7: [vines7]}}
"""


def test_a_monster_the_answer_s_counter_kills_frees_nobody_into_the_charge():
    """k7's Counter hits A7 for 4, killing Vines7 (a's choice), but as the charge's damage is taken, after both rolls:
    Hold7 rolls in neither (a reading); given a roll (unit_saves.hold7), an error saying why, with both sections."""
    out = _play(_CHARGE7)
    assert out["killed"] == ["vines7"] and out["damage"] == {"B7": 0, "A7": 4}
    assert any(r.startswith("reading: hold7, under vines7's entangle, is freed only as vines7 is killed once both "
                            "rolls are counted (by the charge's damage from B7's answer (its melee and Counter hits)")
               for r in _readings(out))
    with pytest.raises(UserError, match=r"unit_saves.hold7 is given, but hold7, under vines7's entangle, is freed "
                                        r"only as vines7 is killed once both rolls are counted \(by the charge's damage "
                                        r".*turn-sequence.first-march.charge\]\): remove "
                                        r"unit_saves.hold7 \[tsr-1996:faq.monster-special-action-icons.entangle\]"):
        _play(_CHARGE7.replace("casualties: {A7: [vines7]}", "casualties: {A7: [vines7]}, unit_saves: {hold7: save}"))


_CHARGE8 = """  - turn: {player: b}
  - melee: {army: B8, target: A8, roll: {vines8: entangle}, targets: {entangle: [climber8]}, counter: false}
  - turn: {player: a}
  - melee: {army: A8, target: B8, charge: true, roll: {r8: roar, m8: melee 2}, targets: {roar: [vines8]},
            saves: {B8: {g8: save}}}
"""


def test_a_roar_on_the_entangling_monster_in_a_charge_frees_nobody():
    """r8's Roar makes Vines8 flee, not die: its Entangle on Climber8 stands (a reading); a roll given for Climber8 is
    an error saying why."""
    out = _play(_CHARGE8)
    assert out["fled"] == ["vines8"] and out["damage"]["B8"] == 1
    assert any(r.startswith("reading: vines8 fled by a Roar, which kills nobody: its entangle on climber8 stands")
               for r in _readings(out))
    with pytest.raises(UserError, match=r"unit_saves.climber8 is given, but vines8 fled by a Roar.*roar\]\): remove "
                                        r"unit_saves.climber8"):
        _play(_CHARGE8.replace("targets: {roar: [vines8]},",
                               "targets: {roar: [vines8]}, unit_saves: {climber8: melee},"))


def test_in_the_answer_a_returned_unit_s_cantrip_and_a_freed_unit_s_are_one_purchase():
    """B3's answer: its Trolls3' Regenerate brings back Sparker3 (2 Cantrip points), k3's Kick kills Vines3 and Hold3,
    freed, rolls a Cantrip (4): one purchase of 6 gold, cantrip.B3, three Stoneskins on B3, counted in the answer:
    d1's save + 3 = 4 saves against A3's 3 melee, no damage (1 save, 2 damage without it); neither alone pays 6."""
    situation = {"{id: hold3, race: dwarf, health: 4, monster: true}]}":
                 "{id: hold3, race: dwarf, health: 4, monster: true},\n"
                 "                                    {id: trolls3, race: goblin, health: 4, monster: true}]}",
                 "dua:\n": "dua:\n  b: [{id: sparker3, race: dwarf, health: 2}]\n"}
    steps = _CHARGE3.replace("k3: kick, d1: save", "k3: kick, d1: save, trolls3: regenerate").replace(
        "targets: {kick: [vines3]}", "targets: {kick: [vines3], regenerate: [sparker3]}").replace(
        "hold3: save}", "hold3: cantrip, sparker3: cantrip 2},\n            cantrip: {B3: {colors: {gold: 6}, cast: "
        "[{spell: stoneskin, target: B3}, {spell: stoneskin, target: B3}, {spell: stoneskin, target: B3}]}}")
    out = _play(steps, situation)
    assert out["damage"] == {"B3": 0, "A3": 0}
    assert any(e["what"] == "B3's roll is suspended: 6 Cantrip point(s) buy spells" for e in out["trace"])
    assert any(r.startswith("reading: the Cantrip of sparker3, brought into B3's roll, whose own roll shows none, "
                            "waits for that of hold3, freed into it") for r in _readings(out))
    unbought = _play(steps.replace(",\n            cantrip: {B3: {colors: {gold: 6}, cast: [{spell: stoneskin, target: "
                                   "B3}, {spell: stoneskin, target: B3}, {spell: stoneskin, target: B3}]}}", ""),
                     situation)
    assert unbought["damage"]["B3"] == 2


_CHARGE9 = """  - melee: {army: A9, target: B9, charge: true, roll: {trolls9: regenerate, m9: melee 2},
            targets: {regenerate: [brute9], confuse: [brute9]}, unit_saves: {brute9: maneuver 2},
            rerolls: {brute9: melee}, saves: {B9: {conf9: confuse, g9: save}}, casualties: {B9: [g9]}}
"""


def test_the_answer_s_confuse_rerolls_a_unit_a_regenerate_brought_into_the_charging_roll():
    """The Trolls' Regenerate brings back Brute9, 2 maneuver: with m9's 2 melee, 4 damage. B9's answer: conf9's
    Confuse picks Brute9, whose new roll (rerolls.brute9) is 1 melee in place of its 2 maneuver: 3 damage, less g9's
    save: 2, g9 killed (counting its first roll twice gave 6 - 1 = 5 damage)."""
    out = _play(_CHARGE9)
    assert out["moved"] == ["brute9"] and out["damage"] == {"B9": 2, "A9": 0} and out["killed"] == ["g9"]
    assert any(e["what"] == "A9 counted again: 2 melee + 0 maneuver + 1 from the units that joined it = 3 damage"
               for e in out["trace"])
    read = [e for e in out["trace"] if e["what"].startswith("reading: brute9, brought by regenerate into A9's roll "
                                                            "and counted in it, is one of its units the answer's "
                                                            "Confuse may pick")]
    assert [(e["before"], e["after"]) for e in read] == [(2, 1)]
    assert read[0]["cite"].endswith("confuse") and read[0]["rule"].endswith("regenerate")


def test_a_confused_returned_unit_without_its_reroll_is_an_error():
    with pytest.raises(UserError, match="brute9 must roll again, forced by confuse: its unit_saves is the roll it "
                                        "joined A9's roll with; give its new roll as rerolls.brute9"):
        _play(_CHARGE9.replace("\n            rerolls: {brute9: melee},", ""))


def test_a_reroll_for_a_returned_unit_the_confuse_did_not_pick_is_an_error():
    """The Confuse picks m9 (its new roll its unit_saves entry): rerolls.brute9 is read by nobody."""
    steps = _CHARGE9.replace("confuse: [brute9]", "confuse: [m9]").replace("{brute9: maneuver 2}",
                                                                          "{brute9: maneuver 2, m9: melee}")
    with pytest.raises(UserError, match=r"rerolls.brute9 is given, but brute9 is no unit freed or brought into A9's "
                                        r"roll that the answer's Confuse picked \(those: none\)"):
        _play(steps)


# a skirmish: the attack's Confuse acts on the defender's faces once rolled, before its save roll is resolved
_SKIRMISH9 = """  - turn: {player: b}
  - melee: {army: B9, target: A9, roll: {conf9: confuse, h9: melee 2}, targets: {confuse: [m9], regenerate: [rat9]},
            unit_saves: {m9: melee, rat9: save 2}, saves: {A9: {trolls9: regenerate, m9: save}},
            counter: false}
"""


def test_in_a_skirmish_a_unit_a_regenerate_brings_into_the_save_roll_joins_it_after_the_confuse():
    """conf9's Confuse rerolls m9 (1 melee for its save); the Trolls' Regenerate brings Rat9 back into A9's save roll,
    2 saves, after the Confuse acted (a reading): 2 saves stop h9's 2 melee; m9's first save is not counted."""
    out = _play(_SKIRMISH9)
    assert out["moved"] == ["rat9"] and out["results"]["A9"]["save"] == 2 and out["damage"] == {"A9": 0}
    read = [e for e in out["trace"] if e["what"].startswith("reading: rat9 joined A9's save roll as it was resolved, "
                                                            "after B9's confuse acted on the faces rolled")]
    assert len(read) == 1 and read[0]["cite"].endswith("confuse") and read[0]["rule"].endswith("regenerate")


def test_in_a_skirmish_the_confuse_cannot_pick_a_unit_the_save_roll_s_regenerate_brings():
    with pytest.raises(UserError, match=r"confuse cannot pick rat9: it is brought by a Regenerate or Ferry into A9's "
                                        r"save roll only as that roll is resolved, after confuse acted on the faces "
                                        r"rolled \(a reading, .*confuse with .*regenerate\)"):
        _play(_SKIRMISH9.replace("confuse: [m9]", "confuse: [rat9]"))


def test_in_a_skirmish_the_confuse_cannot_pick_a_unit_freed_into_the_save_roll():
    """A1's x4 rolls a Confuse with Vines1's Entangle on Venom1, which s1's Counter frees into B1's save roll: it
    joins that roll after the Confuse acted; picking p1 instead (its new roll a save), Venom1's joining is traced as the
    reading."""
    steps = """  - melee: {army: A1, target: B1, roll: {vines1: entangle, x1: melee 2, x2: melee 2, x3: melee 2,
                                          x4: confuse},
            targets: {entangle: [venom1], confuse: [venom1]}, saves: {B1: {s1: counter, p1: melee}},
            casualties: {A1: [vines1, x1, x2]}, unit_saves: {venom1: counter, p1: save}, counter: false}
"""
    monster = {"{id: x4, race: goblin, health: 2}": "{id: x4, race: goblin, health: 4, monster: true}"}
    with pytest.raises(UserError, match=r"confuse cannot pick venom1: it is freed from an Entangle into B1's save "
                                        r"roll only as that roll is resolved"):
        _play(steps, monster)
    out = _play(steps.replace("confuse: [venom1]", "confuse: [p1]"), monster)
    # s1's Counter 4 saves, p1's new roll a save (a monster's icon, 4) in place of its melee, Venom1's Counter 4
    assert out["results"]["B1"]["save"] == 12 and out["killed"] == ["vines1", "x1", "x2"]
    assert any(r.startswith("reading: venom1 joined B1's save roll as it was resolved, after A1's confuse acted")
               for r in _readings(out))


# b's turn: Vines10 entangles a's Cast10; then a's turn: A10 melees B10 (a skirmish)
_SKIRMISH10 = """  - turn: {player: b}
  - melee: {army: B10, target: A10, roll: {vines10: entangle}, targets: {entangle: [cast10]}, counter: false}
  - turn: {player: a}
  - melee: {army: A10, target: B10, roll: {k10: kick, trolls10: regenerate},
            targets: {kick: [vines10], regenerate: [sparker10, brute10]},
            unit_saves: {vines10: melee, cast10: cantrip, sparker10: cantrip 2, brute10: melee 2},
            cantrip: {A10: {colors: {red: 4, gold: 2}, cast: [{spell: burning-hands, target: brute10},
                                                               {spell: stoneskin, target: A10}]}},
            saves: {B10: {o1: save, o2: melee}}, casualties: {B10: [o1]}, counter: false}
"""
_PURCHASE10 = """
            cantrip: {A10: {colors: {red: 4, gold: 2}, cast: [{spell: burning-hands, target: brute10},
                                                               {spell: stoneskin, target: A10}]}},"""


def test_in_a_skirmish_a_returned_unit_s_cantrip_and_a_freed_unit_s_are_one_purchase():
    """A10's roll shows no Cantrip; Sparker10, brought back by the Trolls' Regenerate, rolls 2 Cantrip points,
    Cast10, freed by k10's Kick, 4: one purchase of 6 (cantrip.A10), a Burning Hands on Brute10 (returned too: its 2
    melee counted again, 4): 4 melee, less o1's save, 3 damage. Neither alone pays for both spells."""
    out = _play(_SKIRMISH10)
    assert out["damage"] == {"B10": 3} and out["killed"] == ["vines10", "o1"] and out["results"]["A10"]["melee"] == 4
    assert [e["what"] for e in out["trace"] if "Cantrip point(s)" in e["what"]] == \
        ["A10's roll is suspended: 6 Cantrip point(s) buy spells"]
    assert any(e["what"] == "brute10: melee counted again" and (e["before"], e["after"]) == (2, 4)
               for e in out["trace"])
    assert any(r.startswith("reading: the Cantrip of sparker10, brought into A10's roll, whose own roll shows none, "
                            "waits for that of cast10, freed into it") for r in _readings(out))


def test_in_a_skirmish_a_returned_and_a_freed_cantrip_buy_nothing_together_when_no_purchase_is_given():
    """No cantrip.A10: their 6 points buy nothing, once (defaulted); Brute10's 2 melee less o1's save: 1 damage."""
    out = _play(_SKIRMISH10.replace(_PURCHASE10, "").replace(", casualties: {B10: [o1]}", ""))
    assert [e["what"] for e in out["trace"] if e.get("defaulted") and "Cantrip point(s)" in e["what"]] == \
        ["A10: 6 Cantrip point(s) buy nothing"]
    assert out["damage"] == {"B10": 1}


def test_in_a_skirmish_a_returned_unit_s_cantrip_with_no_freed_cantrip_buys_the_army_s_purchase():
    """Cast10, freed, rolls a melee (4, a monster's icon), not a Cantrip: Sparker10's 4 Cantrip points, brought back by
    the Trolls' Regenerate, buy cantrip.A10 alone, a Burning Hands on Brute10 (returned too: its 2 melee counted again,
    4): 4 + 4 = 8 melee, less o1's save, 7 damage. It was refused as not modelled before."""
    burning = _PURCHASE10.replace("{colors: {red: 4, gold: 2}", "{colors: {red: 4}").replace(
        ",\n                                                               {spell: stoneskin, target: A10}", "")
    steps = _SKIRMISH10.replace(_PURCHASE10, burning).replace("cast10: cantrip,", "cast10: melee,").replace(
        "sparker10: cantrip 2", "sparker10: cantrip 4").replace("casualties: {B10: [o1]}",
                                                                "casualties: {B10: [o1, o2]}")
    assert burning != _PURCHASE10 and "stoneskin" not in burning
    out = _play(steps)
    assert out["results"]["A10"]["melee"] == 8 and out["damage"] == {"B10": 7}
    assert [e["what"] for e in out["trace"] if "Cantrip point(s)" in e["what"]] == \
        ["A10's roll is suspended: 4 Cantrip point(s) buy spells"]
    assert any(e["what"] == "brute10: melee counted again" and (e["before"], e["after"]) == (2, 4)
               for e in out["trace"])
    assert any(r.startswith("reading: sparker10, brought into A10's melee roll, rolled a Cantrip: it suspends the roll")
               for r in _readings(out))
    # no purchase given: its 4 points buy nothing (defaulted), Brute10's 2 melee and Cast10's 4, less o1's save: 5
    alone = _play(steps.replace(burning, ""))
    assert [e["what"] for e in alone["trace"] if e.get("defaulted") and "Cantrip point(s)" in e["what"]] == \
        ["A10: 4 Cantrip point(s) buy nothing"]
    assert alone["damage"] == {"B10": 5}


def test_in_a_skirmish_a_returned_unit_s_cantrip_buys_in_the_save_roll():
    """Conf9's Confuse rerolls m9 (1 melee); the Trolls' Regenerate brings Rat9 back into A9's save roll, a 2-point
    Cantrip (no save): it buys cantrip.A9, a Stoneskin on A9 (+1 save), which acts before the roll's results count:
    1 save against h9's 2 melee, 1 damage. It was refused as not modelled before."""
    steps = _SKIRMISH9.replace("rat9: save 2}", "rat9: cantrip 2},\n            cantrip: {A9: {colors: {gold: 2}, "
                                                "cast: [{spell: stoneskin, target: A9}]}}")
    out = _play(steps)
    assert out["moved"] == ["rat9"] and out["results"]["A9"]["save"] == 1 and out["damage"] == {"A9": 1}
    assert any(e["what"] == "A9's roll is suspended: 2 Cantrip point(s) buy spells" for e in out["trace"])
    with pytest.raises(UserError, match="A9 rolled no Cantrip in this roll"):
        _play(steps.replace("rat9: cantrip 2", "rat9: save 2"))


def test_in_the_save_roll_a_returned_unit_s_cantrip_and_a_freed_unit_s_are_one_purchase():
    """B1's save roll shows no Cantrip; p1's Regenerate (a monster's, 4) brings Spark1 back, 1 Cantrip point; s1's
    Counter (4) kills Vines1 and Venom1, freed, rolls a Cantrip (4): one purchase of 5 (cantrip.B1), two Stoneskins on
    B1, counted before the saves apply: 4 + 2 = 6 saves against 8 melee, 2 damage."""
    steps = """  - melee: {army: A1, target: B1, roll: {vines1: entangle, x1: melee 2, x2: melee 2, x3: melee 2, x4: melee 2},
            targets: {entangle: [venom1], regenerate: [spark1]}, saves: {B1: {s1: counter, p1: regenerate}},
            cantrip: {B1: {colors: {gold: 5}, cast: [{spell: stoneskin, target: B1}, {spell: stoneskin, target: B1}]}},
            casualties: {A1: [vines1]}, unit_saves: {venom1: cantrip, spark1: cantrip}, counter: false}
"""
    out = _play(steps, {"dua:\n": "dua:\n  b: [{id: spark1, race: dwarf, health: 1}]\n"})
    assert [e["what"] for e in out["trace"] if "Cantrip point(s)" in e["what"]] == \
        ["B1's roll is suspended: 5 Cantrip point(s) buy spells"]
    assert out["moved"] == ["spark1"] and out["results"]["B1"]["save"] == 6 and out["damage"]["B1"] == 2
    assert any(r.startswith("reading: the Cantrip of spark1, brought into B1's roll, whose own roll shows none, "
                            "waits for that of venom1, freed into it") for r in _readings(out))
