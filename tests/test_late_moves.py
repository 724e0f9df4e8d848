"""Which units each unit rolling a move SAI takes along (002 SAI List: Ferry, Teleport, Firewalking, Vanish, Wayfare;
002 SAI General Information, Targeting and Resolution): the per-mover ``targets`` form, for the army's own movers and
for a unit brought into the roll after the army's identical SAI was resolved; the list form's defaults."""

from __future__ import annotations

import pytest

from ddref.scenario.run import parse, replay
from ddref.scenario.source import UserError
from engine.actions.companions import per_mover
from engine.steps import MagicStep

_HEAD = """
ddref: 1
title: units moving with their own companions
edition: {edition}
players: [alice, bob]
terrains:
  plain: {{type: flatland, face: 3, frontier: true}}
  hill: {{type: highland, face: 3, home_of: bob}}
  vale: {{type: flatland, face: 4}}
turn: {{player: bob}}
armies:
  elves: {{player: alice, at: plain, units: [{{race: lava-elf, health: 2, count: 3}}]}}
  goblins: {{player: bob, at: plain, units: [{{id: troll, race: goblin, health: 4}}, {{id: t1, race: goblin, health: 1}},
                                          {{id: t2, race: goblin, health: 1}}, {{id: a, race: goblin, health: 2}},
                                          {{id: b, race: goblin, health: 1}}, {{id: c, race: goblin, health: 3}}]}}
  walkers: {{player: bob, at: vale, units: [{{id: boots, name: Seven-league Boots, color: blue}},
                                         {{id: f1, race: firewalker, health: 2}}, {{id: f2, race: firewalker, health: 1}}]}}
dua: {{bob: [{{id: r1, race: goblin, health: 1}}, {{id: r2, race: goblin, health: 1}}]}}
dragons: [{{id: d1, color: red, form: drake, owner: alice, at: vale}}]
steps:
"""


def _run(step: str, edition: str = "sfr-2012") -> dict:
    return replay(parse(_HEAD.format(edition=edition) + step, "t.yaml"))


def _trace(out: dict) -> list[dict]:
    return out["trace"]


def test_per_mover_reads_only_the_per_mover_form():
    step = MagicStep(army="goblins", roll=None, targets=(("teleport", (("t1", ("a",)), ("t2", ()))),
                                                         ("ferry", (("a", None),))))
    assert per_mover(step, "teleport") == {"t1": ("a",), "t2": ()}
    assert per_mover(step, "ferry") is None and per_mover(step, "vanish") is None and per_mover(None, "ferry") is None


def test_two_units_rolling_teleport_each_take_their_own_units():
    """t1 takes a (2 health), t2 takes c (3 health): 5 health-worth together, more than one Teleport's three (the
    list form's one limit, an error), each within its own three; b's 2 magic stay in the action."""
    out = _run("""  - magic: {army: goblins, roll: {t1: teleport, t2: teleport, b: magic 2},
            targets: {teleport: {t1: [a], t2: [c]}}, move_to: {teleport: hill}}
""")["steps"][0]
    assert out["moved"] == ["t1", "t2", "a", "c"] and out["results"]["goblins"]["magic"] == 2
    said = [e for e in _trace(out) if e["what"].startswith("reading: teleport: t")]
    assert [(e["before"], e["after"]) for e in said] == [(3, 2), (3, 3)]
    with pytest.raises(UserError, match=r"up to 3 health-worth of other units of goblins: \[a, c\]"):
        _run("""  - magic: {army: goblins, roll: {t1: teleport, t2: teleport, b: magic 2},
            targets: {teleport: [a, c]}, move_to: {teleport: hill}}
""")


def test_a_mover_over_its_own_limit_is_an_error_listing_what_it_may_take():
    with pytest.raises(UserError, match=r"teleport rolled by t2 takes the rolling unit and up to 3 health-worth .*"
                                        r"\[a, b, c\] is not such a choice; the units it may take: troll \(4\), "
                                        r"a \(2\), b \(1\), c \(3\)"):
        _run("""  - magic: {army: goblins, roll: {t1: teleport, t2: teleport}, targets: {teleport: {t2: [a, b, c]}},
            move_to: {teleport: hill}}
""")


def test_a_unit_two_movers_name_goes_with_the_first_and_the_second_may_not_take_it():
    with pytest.raises(UserError, match=r"teleport rolled by t2 .*\[a\] is not such a choice; the units it may "
                                        r"take: troll \(4\), b \(1\), c \(3\)"):
        _run("""  - magic: {army: goblins, roll: {t1: teleport, t2: teleport}, targets: {teleport: {t1: [a], t2: [a]}},
            move_to: {teleport: hill}}
""")


def test_a_mover_left_out_of_the_per_mover_form_takes_nobody_defaulted():
    out = _run("""  - magic: {army: goblins, roll: {t1: teleport, t2: teleport}, targets: {teleport: {t1: [a]}},
            move_to: {teleport: hill}}
""")["steps"][0]
    assert out["moved"] == ["t1", "t2", "a"]
    left = [e for e in _trace(out) if e["what"] == "teleport: t2 takes nobody along"]
    assert left and left[0]["defaulted"]


def test_the_list_form_with_two_movers_is_marked_defaulted():
    out = _run("""  - magic: {army: goblins, roll: {t1: teleport, t2: teleport}, targets: {teleport: [a, b]},
            move_to: {teleport: hill}}
""")["steps"][0]
    assert out["moved"] == ["t1", "t2", "a", "b"]
    assert [e.get("defaulted") for e in _trace(out) if e["what"] == "teleport: a, b along with t1, t2 together"] \
        == [True]


def test_an_entry_for_a_unit_that_rolled_no_such_sai_is_an_error_naming_those_that_did():
    with pytest.raises(UserError, match="names troll as moving with its own units, but it rolled no teleport here; "
                                        "the units that rolled it: t1"):
        _run("""  - magic: {army: goblins, roll: {t1: teleport, troll: magic}, targets: {teleport: {troll: [a]}},
            move_to: {teleport: hill}}
""")


def test_a_late_mover_takes_its_own_units_to_the_army_s_destination():
    """t1's Teleport is resolved with the army's magic roll; troll's Regenerate then brings r1 back, rolled at once: a
    Teleport too, combined with the first (002 Targeting), taking c (3 health) of its own; t1 takes a."""
    out = _run("""  - magic: {army: goblins, roll: {troll: regenerate, t1: teleport, t2: magic}, unit_saves: {r1: teleport},
            targets: {regenerate: [r1], teleport: {t1: [a], r1: [c]}}, move_to: {teleport: hill}}
""")["steps"][0]
    assert out["moved"] == ["t1", "a", "r1", "r1", "c"] and out["results"]["goblins"]["magic"] == 1
    assert any(e["what"].startswith("reading: teleport: r1 takes c along") and e["after"] == 3 for e in _trace(out))


def test_a_late_mover_after_a_first_that_took_the_whole_list_moves_alone_defaulted():
    """The reverse: the army's Teleport takes every unit of the list; the late one takes what it left, nobody."""
    replayed = _run("""  - magic: {army: goblins, roll: {troll: regenerate, t1: teleport}, unit_saves: {r1: teleport},
            targets: {regenerate: [r1], teleport: [a]}, move_to: {teleport: hill}}
""")
    out = replayed["steps"][0]
    assert out["moved"] == ["t1", "a", "r1", "r1"]
    late = [e for e in _trace(out) if e["what"].startswith("teleport rolled by r1: takes nobody along")]
    assert late and late[0]["defaulted"]
    assert replayed["state"]["armies"]["bob-hill"]["units"] == ["t1", "a", "r1"]
    # per mover, the first's entry naming the units and none given for the late one: it moves alone too, defaulted
    out = _run("""  - magic: {army: goblins, roll: {troll: regenerate, t1: teleport}, unit_saves: {r1: teleport},
            targets: {regenerate: [r1], teleport: {t1: [a]}}, move_to: {teleport: hill}}
""")["steps"][0]
    assert out["moved"] == ["t1", "a", "r1", "r1"]
    assert [e.get("defaulted") for e in _trace(out) if e["what"] == "teleport: r1 takes nobody along"] == [True]


def test_a_late_mover_s_entry_naming_a_unit_the_first_took_is_an_error():
    with pytest.raises(UserError, match=r"teleport rolled by r1 .*\[a\] is not such a choice; the units it may "
                                        r"take: troll \(4\), t2 \(1\), b \(1\), c \(3\)"):
        _run("""  - magic: {army: goblins, roll: {troll: regenerate, t1: teleport}, unit_saves: {r1: teleport},
            targets: {regenerate: [r1], teleport: {t1: [a], r1: [a]}}, move_to: {teleport: hill}}
""")


def test_an_entry_nothing_used_is_an_error():
    """r1 comes back and rolls magic, not Teleport; and a per-mover form without move_to moves nobody."""
    with pytest.raises(UserError, match="names r1 as moving with its own units, but it made no teleport move"):
        _run("""  - magic: {army: goblins, roll: {troll: regenerate, t1: teleport}, unit_saves: {r1: magic},
            targets: {regenerate: [r1], teleport: {t1: [], r1: [a]}}, move_to: {teleport: hill}}
""")
    with pytest.raises(UserError, match="names t1 as moving with its own units, but it made no teleport move"):
        _run("""  - magic: {army: goblins, roll: {t1: teleport}, targets: {teleport: {t1: [a]}}}
""")


def test_ferry_in_a_save_roll_each_mover_up_to_four():
    """Two Ferries in the army's save roll (002 Ferry: "During any non-maneuver roll ... up to four health-worth"):
    t1 takes troll (4), t2 takes a, b (3); the moved units' saves (a's 2) leave the total: 1 save (c)."""
    out = _run("""  - roll: {army: goblins, for: save, avoidance: true, roll: {t1: ferry, t2: ferry, a: save 2, c: save},
           targets: {ferry: {t1: [troll], t2: [a, b]}}, move_to: {ferry: hill}}
""")["steps"][0]
    assert out["moved"] == ["t1", "t2", "troll", "a", "b"] and out["results"]["goblins"]["save"] == 1


def test_vanish_moves_the_unit_alone_even_per_mover():
    out = _run("""  - roll: {army: goblins, for: save, avoidance: true, roll: {t1: vanish, a: save 2},
           targets: {vanish: {t1: []}}, move_to: {vanish: hill}}
""")["steps"][0]
    assert out["moved"] == ["t1"] and out["results"]["goblins"]["save"] == 3
    assert not [e for e in out["trace"] if e.get("defaulted") and "vanish" in e["what"]]     # nothing to choose
    with pytest.raises(UserError, match=r"vanish rolled by t1 takes the rolling unit and up to 0 health-worth"):
        _run("""  - roll: {army: goblins, for: save, avoidance: true, roll: {t1: vanish}, targets: {vanish: {t1: [a]}},
           move_to: {vanish: hill}}
""")


def test_wayfare_per_mover_names_the_item_s_carrier():
    """002 Wayfare: "During a dragon attack, Wayfare allows the magical item and a unit able to carry it to be moved"."""
    out = _run("""  - dragon_attack: {army: walkers, dragons: {d1: [claws]}, roll: {boots: wayfare, f1: save 2, f2: save 3},
                   targets: {wayfare: {boots: [f1]}}, move_to: {wayfare: reserve}, casualties: {walkers: [f2]}}
""")["steps"][0]
    assert out["moved"] == ["boots", "f1"] and out["damage"]["walkers"] == 6 - 3    # 6 Claws; f1's 2 saves left
    with pytest.raises(UserError, match=r"wayfare rolled by boots moves the magical item with one unit able to carry "
                                        r"it: name it in targets \(legal: f1, f2\)"):
        _run("""  - dragon_attack: {army: walkers, dragons: {d1: [claws]}, roll: {boots: wayfare, f1: save 2},
                   targets: {wayfare: {boots: [f1, f2]}}, move_to: {wayfare: reserve}}
""")
    # an item the per-mover form leaves out cannot move without its carrier either
    with pytest.raises(UserError, match=r"wayfare rolled by boots moves the magical item with one unit able"):
        _run("""  - dragon_attack: {army: walkers, dragons: {d1: [claws]}, roll: {boots: wayfare, f1: save 2},
                   targets: {wayfare: {r1: []}}, move_to: {wayfare: reserve}}
""")


def test_the_per_mover_form_is_for_moving_sais_only_and_checks_its_names():
    with pytest.raises(UserError, match=r"regenerate moves no units in sfr-2012: the per-mover form"):
        _run("""  - magic: {army: goblins, roll: {troll: regenerate}, targets: {regenerate: {troll: [r1]}}}
""")
    with pytest.raises(UserError, match=r"unknown unit 'aa'.*did you mean"):
        _run("""  - magic: {army: goblins, roll: {t1: teleport}, targets: {teleport: {t1: [aa]}}, move_to: {teleport: hill}}
""")
    # tsr-1996 Ferry brings units in (004 Ferry): a list, not the per-mover form
    with pytest.raises(UserError, match=r"ferry moves no units in tsr-1996"):
        _run("""  - magic: {army: goblins, roll: {t1: ferry}, targets: {ferry: {t1: [a]}}}
""", edition="tsr-1996")


_WAVE = """
ddref: 1
title: two Ferries in a save and maneuver roll against Tidal Wave
edition: sfr-2012
players: [alice, bob]
turn: {player: alice}
terrains:
  marsh: {type: swampland, face: 3, action: magic, home_of: alice}
  coast: {type: coastland, face: 6, frontier: true}
  hill: {type: highland, face: 3, home_of: bob}
armies:
  scalders: {player: alice, at: marsh, units: [{race: scalder, health: 3, count: 3}]}
  goblins: {player: bob, at: coast, units: [{id: f1, race: goblin, health: 1}, {id: f2, race: goblin, health: 1},
                                           {id: w1, race: goblin, health: 2}, {id: b1, race: goblin, health: 3},
                                           {id: b2, race: goblin, health: 3}, {id: c1, race: goblin, health: 1}]}
dua: {bob: [{id: r1, race: goblin, health: 1}]}
steps:
  - magic: {army: scalders, roll: {magic: 6}, colors: {green: 6}, cast: [{spell: tidal wave, target: coast}],
            avoidance: {goblins: {f1: ferry, f2: ferry, w1: save 2, b1: save 3, b2: maneuver 3, c1: save}},
            save_sais: {goblins: {move_to: {ferry: hill}, targets: {ferry: %s}}}}
"""


def test_the_per_mover_form_in_a_save_roll_against_a_spell():
    """Two Ferries (each "up to four health-worth"): f1 takes w1 (2), f2 takes b1 (3), 5 together; their saves
    (2 + 3) leave the army's total, c1's 1 stays."""
    out = replay(parse(_WAVE % "{f1: [w1], f2: [b1]}", "t.yaml"))["steps"][0]
    assert out["moved"] == ["f1", "f2", "w1", "b1"] and out["results"]["goblins"]["save"] == 1
    with pytest.raises(UserError, match="names r1 as moving with its own units, but it made no ferry move"):
        replay(parse(_WAVE % "{f1: [w1], r1: []}", "t.yaml"))


def test_a_returned_unit_s_teleport_against_a_dragon_takes_its_own_units():
    """Against the drake (6 Claws damage at the vale: the goblins fight it there), troll's Regenerate brings r1 back,
    rolled at once: a Teleport, resolved with t1's (002 Resolution: "applied with the results of their army"); t1
    takes a (2), r1 takes c (3); b's 1 save stays and troll's Regenerate gives none: 5 damage."""
    # the walkers step aside to the plain: all of bob's units at the vale are one army (002 Glossary, Army)
    head = _HEAD.replace("at: plain, units: [{{id: troll", "at: vale, units: [{{id: troll").replace(
        "walkers: {{player: bob, at: vale", "walkers: {{player: bob, at: plain")
    out = replay(parse(head.format(edition="sfr-2012") + """  - dragon_attack: {army: goblins, dragons: {d1: [claws]},
                   roll: {troll: regenerate, t1: teleport, b: save}, targets: {regenerate: [r1],
                   teleport: {t1: [a], r1: [c]}}, unit_saves: {r1: teleport}, move_to: {teleport: hill},
                   casualties: {goblins: [troll, b]}}
""", "t.yaml"))["steps"][0]
    assert out["moved"] == ["r1", "t1", "r1", "a", "c"] and out["damage"]["goblins"] == 5
