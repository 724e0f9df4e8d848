"""Where each unit rolling a move SAI goes (002 SAI List: Ferry and Firewalking "to any other terrain", Teleport "to any
terrain", Vanish and Wayfare "to any other terrain or its reserve area"; 002 SAI General Information, Targeting (b):
of a non-offensive SAI "no health may be selected"): the per-mover ``move_to`` form in every step and sub-choice that
has ``move_to``, its checks, and a unit brought into the roll late."""

from __future__ import annotations

from pathlib import Path

import pytest

from ddref.scenario.run import parse, replay
from ddref.scenario.source import UserError
from engine.actions.destinations import goes, per_mover
from engine.steps import MagicStep

ROOT = Path(__file__).resolve().parents[1]

_LATE = (ROOT / "tests" / "test_late_moves.py").read_text(encoding="utf-8")


def _quoted(name: str) -> str:
    """The scenario text test_late_moves.py keeps in ``name`` (its situations, extended here)."""
    return _LATE.split(f'{name} = """', 1)[1].split('"""', 1)[0]


# test_late_moves' situation with a fourth terrain, a second pair of Seven-league Boots with a third Firewalker, and
# an army of Alice's at the vale to oppose the Walkers' maneuver
_HEAD = _quoted("_HEAD").replace("  vale: {{type: flatland, face: 4}}\n", """  vale: {{type: flatland, face: 4}}
  field: {{type: flatland, face: 2}}
""").replace("{{id: f2, race: firewalker, health: 1}}]}}\n", """{{id: f2, race: firewalker, health: 1}},
                                         {{id: boots2, name: Seven-league Boots, color: blue}},
                                         {{id: f3, race: firewalker, health: 1}}]}}
  scouts: {{player: alice, at: vale, units: [{{race: lava-elf, health: 1}}]}}
""")


def _replay(step: str, edition: str = "sfr-2012") -> dict:
    return replay(parse(_HEAD.format(edition=edition) + step, "t.yaml"))


def _run(step: str, edition: str = "sfr-2012") -> dict:
    return _replay(step, edition)["steps"][0]


def _units(replayed: dict, army: str) -> list[str]:
    return replayed["state"]["armies"][army]["units"]


def test_per_mover_and_goes_read_the_two_forms():
    step = MagicStep(army="goblins", roll=None, move_to=(("teleport", (("t1", "hill"), ("t2", "vale"))),
                                                         ("ferry", "hill")))
    assert per_mover(step, "teleport") == {"t1": "hill", "t2": "vale"}
    assert per_mover(step, "ferry") is None and per_mover(step, "vanish") is None and per_mover(None, "ferry") is None
    assert goes(step, "teleport", "t1") and not goes(step, "teleport", "r1")
    assert goes(step, "ferry", "anyone") and not goes(step, "vanish", "t1")


def test_two_teleports_in_a_magic_action_go_to_different_terrains():
    """t1 takes a (2) to the hill, t2 takes c (3) to the field; b's 2 magic stay in the action. The reading names each
    mover's place and cites Teleport with 002 Targeting."""
    replayed = _replay("""  - magic: {army: goblins, roll: {t1: teleport, t2: teleport, b: magic 2},
            targets: {teleport: {t1: [a], t2: [c]}}, move_to: {teleport: {t1: hill, t2: field}}}
""")
    out = replayed["steps"][0]
    assert out["moved"] == ["t1", "a", "t2", "c"] and out["results"]["goblins"]["magic"] == 2
    assert _units(replayed, "bob-hill") == ["t1", "a"] and _units(replayed, "bob-field") == ["t2", "c"]
    said = [e for e in out["trace"] if e["what"].startswith("reading: teleport: t1 to hill; t2 to field")]
    assert [(e["cite"], e["after"]) for e in said] == [("sfr-2012:special-action-icon-sai-list.teleport", 2)]
    assert "special-action-icons-general-information.targeting" in said[0]["rule"]


def test_a_mover_left_out_does_not_move_and_its_companions_results_stay():
    """Ferry in a save roll: t1 takes troll (4) to the hill; t2, left out, stays (defaulted) and so does a, whose 2
    saves count: 2 + c's 1 = 3 saves."""
    replayed = _replay("""  - roll: {army: goblins, for: save, avoidance: true, roll: {t1: ferry, t2: ferry, a: save 2, c: save},
           targets: {ferry: {t1: [troll]}}, move_to: {ferry: {t1: hill}}}
""")
    out = replayed["steps"][0]
    assert out["moved"] == ["t1", "troll"] and out["results"]["goblins"]["save"] == 3
    assert _units(replayed, "goblins") == ["t2", "a", "b", "c"]
    stays = [e for e in out["trace"] if e["what"] == "ferry: t2 does not move, its results staying in its army's"]
    assert [e.get("defaulted") for e in stays] == [True]


def test_ferry_in_a_roll_step_each_to_its_own_terrain_results_leave():
    out = _run("""  - roll: {army: goblins, for: save, avoidance: true, roll: {t1: ferry, t2: ferry, a: save 2, c: save},
           targets: {ferry: {t1: [troll], t2: [a]}}, move_to: {ferry: {t1: hill, t2: field}}}
""")
    assert out["moved"] == ["t1", "troll", "t2", "a"] and out["results"]["goblins"]["save"] == 1


def test_teleport_in_a_missile_attack_each_to_its_own_terrain():
    """The attack's Teleports move before the attack is resolved: a's 2 missiles stay, the movers had none."""
    replayed = _replay("""  - missile: {army: goblins, target: elves, roll: {t1: teleport, t2: teleport, a: missile 2},
            move_to: {teleport: {t1: hill, t2: field}}, saves: {elves: {save: 0}}}
""")
    out = replayed["steps"][0]
    assert out["moved"] == ["t1", "t2"] and out["results"]["goblins"]["missile"] == 2
    assert _units(replayed, "bob-hill") == ["t1"] and _units(replayed, "bob-field") == ["t2"]


def test_each_destination_is_checked_against_its_own_sai():
    # Ferry: "to any other terrain" -- not the reserve area, which Vanish may reach
    with pytest.raises(UserError, match=r"ferry rolled by t2 moves units to any other terrain: 'reserve' is not one "
                                        r"\(legal: hill, vale, field\)"):
        _run("""  - roll: {army: goblins, for: save, avoidance: true, roll: {t1: ferry, t2: ferry},
           move_to: {ferry: {t1: hill, t2: reserve}}}
""")
    # Teleport's "any terrain": the one its army is at is no move
    with pytest.raises(UserError, match=r"teleport rolled by t1 moves units to any other terrain \(its army is at "
                                        r"plain, where going is no move\): 'plain' is not one"):
        _run("""  - magic: {army: goblins, roll: {t1: teleport}, move_to: {teleport: {t1: plain}}}
""")
    # the reading is said wherever Teleport moves, the one-place form too, with Teleport's section and Ferry's
    said = [(e["cite"], e["rule"]) for e in _run("""  - magic: {army: goblins, roll: {t1: teleport}, move_to: {teleport: hill}}
""")["trace"] if e["what"].startswith('reading: teleport\'s "to any terrain" is any but plain')]
    assert said == [("sfr-2012:special-action-icon-sai-list.teleport",
                     "this rule read with sfr-2012:special-action-icon-sai-list.ferry")]
    out = _run("""  - roll: {army: goblins, for: save, avoidance: true, roll: {t1: vanish, t2: vanish, a: save 2},
           move_to: {vanish: {t1: reserve, t2: hill}}}
""")
    assert out["moved"] == ["t1", "t2"] and out["results"]["goblins"]["save"] == 4     # Vanish's saves stay


def test_a_list_of_companions_for_movers_going_apart_is_an_error():
    with pytest.raises(UserError, match=r"targets.teleport lists the units going along with all its movers together, "
                                        r"but they go to different places \(move_to.teleport\): name each mover's own "
                                        r"units \(targets.teleport: \{t1: \[units\]\}\)"):
        _run("""  - magic: {army: goblins, roll: {t1: teleport, t2: teleport}, targets: {teleport: [a]},
            move_to: {teleport: {t1: hill, t2: field}}}
""")
    # going to the same place, a list still goes with them together
    out = _run("""  - magic: {army: goblins, roll: {t1: teleport, t2: teleport}, targets: {teleport: [a]},
            move_to: {teleport: {t1: hill, t2: hill}}}
""")
    assert out["moved"] == ["t1", "t2", "a"]


def test_an_entry_for_a_unit_that_rolled_no_such_sai_is_an_error():
    with pytest.raises(UserError, match="move_to.teleport names a place for troll, but it rolled no teleport here; "
                                        "the units that rolled it: t1"):
        _run("""  - magic: {army: goblins, roll: {t1: teleport, troll: magic}, move_to: {teleport: {t1: hill, troll: vale}}}
""")
    # a unit of no army in the roll: nothing used it
    with pytest.raises(UserError, match="move_to.teleport names a place for r1, but it made no teleport move in this step"):
        _run("""  - magic: {army: goblins, roll: {t1: teleport}, move_to: {teleport: {t1: hill, r1: vale}}}
""")
    # 002 Teleport: "During a maneuver ... roll, Teleport generates maneuver results": no move to send anywhere
    with pytest.raises(UserError, match=r"move_to.teleport names a place for t1, but it made no teleport move in this "
                                        r"step \(rolled none, or not as a move\)"):
        _run("""  - maneuver: {army: goblins, direction: up, roll: {t1: teleport, a: maneuver}, counter: {elves: {maneuver: 1}},
               move_to: {teleport: {t1: hill}}}
""")


def test_a_late_mover_goes_to_its_own_place():
    """t1's Teleport is resolved with the army's magic roll; troll's Regenerate then brings r1 back, rolled at once: a
    Teleport too, combined with the first (002 Targeting), going with c (3) to the field while t1 takes a to the hill."""
    replayed = _replay("""  - magic: {army: goblins, roll: {troll: regenerate, t1: teleport, t2: magic}, unit_saves: {r1: teleport},
            targets: {regenerate: [r1], teleport: {t1: [a], r1: [c]}}, move_to: {teleport: {t1: hill, r1: field}}}
""")
    out = replayed["steps"][0]
    assert out["moved"] == ["t1", "a", "r1", "r1", "c"] and out["results"]["goblins"]["magic"] == 1
    assert _units(replayed, "bob-hill") == ["t1", "a"] and _units(replayed, "bob-field") == ["r1", "c"]
    said = [e for e in out["trace"] if "it moves to its own entry of a per-mover move_to" in e["what"]]
    assert [e["cite"] for e in said] == ["sfr-2012:special-action-icons-general-information.targeting"]


def test_a_late_mover_with_the_list_form_takes_what_the_first_left_to_its_own_place():
    replayed = _replay("""  - magic: {army: goblins, roll: {troll: regenerate, t1: teleport}, unit_saves: {r1: teleport},
            targets: {regenerate: [r1], teleport: [a]}, move_to: {teleport: {t1: hill, r1: field}}}
""")
    out = replayed["steps"][0]
    assert out["moved"] == ["t1", "a", "r1", "r1"] and _units(replayed, "bob-field") == ["r1"]
    late = [e for e in out["trace"] if e["what"].startswith("teleport rolled by r1: takes nobody along")]
    assert [e.get("defaulted") for e in late] == [True]
    # left out, it does not move, and takes nothing of the list
    replayed = _replay("""  - magic: {army: goblins, roll: {troll: regenerate, t1: teleport}, unit_saves: {r1: teleport},
            targets: {regenerate: [r1], teleport: [a]}, move_to: {teleport: {t1: hill}}}
""")
    out = replayed["steps"][0]
    assert out["moved"] == ["t1", "a", "r1"] and "r1" in _units(replayed, "goblins")
    assert not [e for e in out["trace"] if e["what"].startswith("teleport rolled by r1: takes")]
    assert [e.get("defaulted") for e in out["trace"]
            if e["what"] == "teleport: r1 does not move, its results staying in its army's"] == [True]


def test_wayfare_in_a_maneuver_each_item_to_its_own_place_none_left_out():
    """002 Wayfare: "During a maneuver roll, Wayfare generates maneuver results or allows the magical item and a unit
    able to carry it to be moved": the move is chosen for the SAI, so an item left out would lose its maneuvers."""
    replayed = _replay("""  - maneuver: {army: walkers, direction: up, roll: {boots: wayfare, boots2: wayfare, f1: maneuver, f2: maneuver,
               f3: maneuver 2}, counter: {scouts: {maneuver: 1}}, targets: {wayfare: {boots: [f1], boots2: [f2]}}, move_to: {wayfare: {boots: reserve, boots2: hill}}}
""")
    assert replayed["steps"][0]["moved"] == ["boots", "f1", "boots2", "f2"]
    assert _units(replayed, "bob-reserve") == ["boots", "f1"] and _units(replayed, "bob-hill") == ["boots2", "f2"]
    with pytest.raises(UserError, match=r"wayfare rolled by boots2 is left out of move_to.wayfare: in a maneuver roll"):
        _run("""  - maneuver: {army: walkers, direction: up, roll: {boots: wayfare, boots2: wayfare, f1: maneuver},
               counter: {scouts: {maneuver: 1}}, targets: {wayfare: {boots: [f1]}}, move_to: {wayfare: {boots: reserve}}}
""")


def test_wayfare_against_a_dragon_an_item_left_out_stays():
    """6 Claws; boots goes with f1 to the reserve area (f1's 2 saves leave); boots2, left out, stays: f2's 3 saves
    count, 3 damage."""
    out = _run("""  - dragon_attack: {army: walkers, dragons: {d1: [claws]}, roll: {boots: wayfare, boots2: wayfare, f1: save 2,
                   f2: save 3}, targets: {wayfare: {boots: [f1]}}, move_to: {wayfare: {boots: reserve}},
                   casualties: {walkers: [f2, f3]}}
""")
    assert out["moved"] == ["boots", "f1"] and out["damage"]["walkers"] == 3


def _wave(save_sais: str) -> dict:
    """Two Ferries in the goblins' save and maneuver roll against Tidal Wave (tests/test_late_moves.py's situation)."""
    text = _quoted("_WAVE").replace("save_sais: {goblins: {move_to: {ferry: hill}, targets: {ferry: %s}}}", save_sais)
    return replay(parse(text, "t.yaml"))


def test_the_per_mover_form_in_a_save_roll_against_a_spell():
    """f1 takes w1 (2) to the hill, f2 takes b1 (3) to the marsh: their saves (2 + 3) leave, c1's 1 stays."""
    replayed = _wave("save_sais: {goblins: {move_to: {ferry: {f1: hill, f2: marsh}}, targets: {ferry: {f1: [w1], "
                     "f2: [b1]}}}}")
    out = replayed["steps"][0]
    assert out["moved"] == ["f1", "w1", "f2", "b1"] and out["results"]["goblins"]["save"] == 1
    assert _units(replayed, "bob-hill") == ["f1", "w1"] and _units(replayed, "bob-marsh") == ["f2", "b1"]
    with pytest.raises(UserError, match="move_to.ferry names a place for r1, but it made no ferry move in this step"):
        _wave("save_sais: {goblins: {move_to: {ferry: {f1: hill, r1: hill}}}}")


def test_the_per_mover_form_in_a_unit_s_save_against_a_breath():
    """tests the breath_sais sub-choice on the bundled scenario: tele's own save shows Teleport; per mover it goes
    to the coast with w1, as the one-place form sends it; to the hill, where it is, is an error."""
    text = (ROOT / "scenarios" / "sfr2012-sai-individual-breath-saves.yaml").read_text(encoding="utf-8")
    assert "move_to: {teleport: coast}" in text
    out = replay(parse(text.replace("move_to: {teleport: coast}", "move_to: {teleport: {tele: coast}}"), "t.yaml"))
    assert out["steps"][1]["moved"] == ["tele", "w1", "ghost"] and out["state"]["armies"]["goblins"]["units"][-1] == "w1"
    with pytest.raises(UserError, match=r"teleport rolled by tele moves units to any other terrain \(its army is at "
                                        r"hill"):
        replay(parse(text.replace("move_to: {teleport: coast}", "move_to: {teleport: {tele: hill}}"), "t.yaml"))


def test_the_loader_checks_the_per_mover_form():
    with pytest.raises(UserError, match=r"unknown unit 'tt1' \(a unit rolling teleport\).*did you mean"):
        _run("""  - magic: {army: goblins, roll: {t1: teleport}, move_to: {teleport: {tt1: hill}}}
""")
    with pytest.raises(UserError, match=r"unknown terrain 'hil'.*did you mean"):
        _run("""  - magic: {army: goblins, roll: {t1: teleport}, move_to: {teleport: {t1: hil}}}
""")
    with pytest.raises(UserError, match=r"regenerate moves no units in sfr-2012: the per-mover form \{unit: place\}"):
        _run("""  - magic: {army: goblins, roll: {troll: regenerate}, move_to: {regenerate: {troll: hill}}}
""")
    # tsr-1996 Ferry brings units in or stays at one terrain (004 Ferry): one place, not the per-mover form
    with pytest.raises(UserError, match=r"ferry moves no units in tsr-1996"):
        _run("""  - magic: {army: goblins, roll: {t1: ferry}, move_to: {ferry: {t1: hill}}}
""", edition="tsr-1996")


def test_a_unit_returned_in_a_save_roll_goes_to_its_own_place():
    """The save roll's Regenerate brings r1 back, rolled at once: a Ferry, resolved with t1's (002 Resolution: "applied
    with the results of their army"); t1 takes a to the hill, r1 takes b to the field; c's 1 save stays."""
    replayed = _replay("""  - roll: {army: goblins, for: save, avoidance: true, roll: {troll: regenerate, t1: ferry, c: save},
           targets: {regenerate: [r1], ferry: {t1: [a], r1: [b]}}, unit_saves: {r1: ferry},
           move_to: {ferry: {t1: hill, r1: field}}}
""")
    out = replayed["steps"][0]
    assert out["moved"] == ["r1", "t1", "a", "r1", "b"] and out["results"]["goblins"]["save"] == 1
    assert _units(replayed, "bob-hill") == ["t1", "a"] and _units(replayed, "bob-field") == ["r1", "b"]
