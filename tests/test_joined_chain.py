"""Units brought into an army during its roll use their own SAIs as in the army's roll (002 SAI General Information,
Application and Resolution): a chain of returns, their moves and Cloak with the army's, their specials in a charge,
a magic action, a dragon attack's Cantrip and for freed units; the rest refused."""

from __future__ import annotations

from pathlib import Path

import pytest

from ddref.scenario.run import parse, replay
from ddref.scenario.source import UserError
from engine.actions.joined_rolls import fitting
from engine.state import Unit

_HEAD = """
ddref: 1
title: a chain of units brought back during a roll
edition: sfr-2012
players: [alice, bob]
terrains:
  plain: {type: flatland, face: 3, frontier: true}
  hill: {type: highland, face: 3, home_of: bob}
turn: {player: bob}
armies:
  elves: {player: alice, at: plain, units: [{race: lava-elf, health: 2, count: 3}]}
  goblins: {player: bob, at: plain, units: [{id: troll, race: goblin, health: 4}, {id: w1, race: goblin, health: 1}]}
dua: {bob: [{id: t4, race: goblin, health: 4}, {id: g1, race: goblin, health: 1}, {id: g2, race: goblin, health: 2}]}
dragons: [{id: d1, color: red, form: drake, owner: alice, at: plain}]
steps:
"""


def _run(step: str) -> dict:
    return replay(parse(_HEAD + step, "t.yaml"))


def test_fitting_takes_the_first_units_that_fit_and_leaves_the_rest():
    dead = {i: Unit(id=i, race="goblin", health=h) for i, h in (("a", 3), ("b", 1), ("c", 2))}
    assert fitting(("a", "b", "c"), dead, 4) == (("a", "b"), ("c",))
    assert fitting(("c", "a"), dead, 4) == (("c",), ("a",))
    assert fitting(("x", "a"), dead, 4) == ((), ("x", "a"))
    assert fitting(("a",), dead, 4) == (("a",), ())


def test_a_returned_regenerate_with_no_units_left_to_it_gives_its_saves():
    """Regenerate "generates four save results or you may immediately bring back ...": the step's targets for
    Regenerate are all taken by the army's Regenerate, so the returned monster's own Regenerate gives four saves."""
    out = _run("""  - turn: {player: alice}
  - melee: {army: elves, target: goblins, roll: {melee: 6}, saves: {goblins: {troll: regenerate}},
            counter: false, targets: {regenerate: [t4]}, unit_saves: {t4: regenerate}, casualties: {goblins: [w1]}}
""")["steps"][1]
    assert out["moved"] == ["t4"] and out["results"]["goblins"]["save"] == 4 and out["damage"]["goblins"] == 2


def test_a_chain_in_the_army_roll_against_a_dragon_attack():
    """The troll's Regenerate brings back t4 (four health), whose own Regenerate brings back g1 and g2; g2's melee
    and g1's save join the army's combination roll against the drake's 6 Claws damage."""
    out = _run("""  - dragon_attack: {army: goblins, dragons: {d1: [claws]}, roll: {troll: regenerate, w1: save},
                   targets: {regenerate: [t4, g1, g2]}, unit_saves: {t4: regenerate, g1: save, g2: melee 2},
                   casualties: {goblins: [t4]}}
""")["steps"][0]
    assert out["moved"] == ["t4", "g1", "g2"]
    assert out["dragon"]["damage"] == 6 and out["damage"]["goblins"] == 4


def test_a_returned_unit_vanishes_from_the_army_roll_against_a_dragon_attack():
    """g1 comes back and rolls Vanish: its save stays in the total and it moves to the hill, escaping the damage."""
    replayed = _run("""  - dragon_attack: {army: goblins, dragons: {d1: [claws]}, roll: {troll: regenerate, w1: save},
                   targets: {regenerate: [g1]}, unit_saves: {g1: vanish}, move_to: {vanish: hill},
                   casualties: {goblins: [troll]}}
""")
    out = replayed["steps"][0]
    assert out["moved"] == ["g1", "g1"] and out["damage"]["goblins"] == 4
    assert replayed["state"]["armies"]["bob-hill"]["units"] == ["g1"]


def test_a_returned_unit_teleporting_in_a_magic_action_leaves_it_with_its_magic():
    """g1 comes back and rolls Teleport: it moves to the hill as the army's own Teleport would, its magic leaving
    the action; w1's 1 and g2's 2 magic are cast."""
    replayed = _run("""  - magic: {army: goblins, roll: {troll: regenerate, w1: magic}, targets: {regenerate: [g1, g2]},
            unit_saves: {g1: teleport, g2: magic 2}, move_to: {teleport: hill}}
""")
    out = replayed["steps"][0]
    assert out["moved"] == ["g1", "g2", "g1"] and out["results"]["goblins"]["magic"] == 3
    assert replayed["state"]["armies"]["bob-hill"]["units"] == ["g1"]


def test_a_returned_unit_s_attune_attunes_another_unit_of_the_army():
    """g1, brought back by the troll's Regenerate during the magic roll, rolls Attune: its 1 point is of any color and
    it attunes w1's 2 magic icons (002 Attune), both red (attune_color): 3 red buy an Ash Storm (2), 1 unspent. Named
    for an Attune with no Attune rolled, w1 is refused (g1 rolling magic instead)."""
    step = """  - magic: {army: goblins, roll: {troll: regenerate, w1: magic 2},
            targets: {regenerate: [g1], attune: [w1]}, unit_saves: {g1: attune}, attune_color: red,
            colors: {red: 3}, cast: [{spell: ash storm, target: plain}]}
"""
    out = _run(step)["steps"][0]
    assert out["magic"]["points"] == {"red": 3} and out["magic"]["unspent"] == 1
    with pytest.raises(UserError, match="each Attune counts the magic icons of one other unit"):
        _run(step.replace("{g1: attune}", "{g1: magic}"))


def test_a_returned_unit_rolling_a_move_its_army_already_resolved_moves_with_it():
    """w1's Teleport has moved with the step's move_to before the troll's Regenerate brought g1 back; g1's own
    Teleport combines with it (002 Targeting, a reading traced with both sections): g1 goes to the same terrain, and
    neither one's magic is cast. A Galeforce of g1's after the army's own is the army's one Galeforce on the army it
    chose (no second effect); an Illusion of g1's, not identical, has its own effect."""
    replayed = _run("""  - magic: {army: goblins, roll: {troll: regenerate, w1: teleport}, targets: {regenerate: [g1]},
            unit_saves: {g1: teleport}, move_to: {teleport: hill}}
""")
    out = replayed["steps"][0]
    assert out["moved"] == ["w1", "g1", "g1"] and out["results"]["goblins"]["magic"] == 0
    assert replayed["state"]["armies"]["bob-hill"]["units"] == ["w1", "g1"]
    said = [e for e in out["trace"] if "combines with it: it moves to its own entry of a per-mover move_to, else the "
            "SAI's one move_to" in e["what"]]
    assert [e["cite"] for e in said] == ["sfr-2012:special-action-icons-general-information.targeting"]
    for late, effects in (("galeforce", ["galeforce"]), ("illusion", ["galeforce", "illusion"])):
        replayed = _run(f"""  - magic: {{army: goblins, roll: {{troll: regenerate, w1: galeforce}}, targets: {{regenerate: [g1]}},
            unit_saves: {{g1: {late}}}}}
""")
        assert [e["spell"] for e in replayed["state"]["effects"]] == effects
        said = [e for e in replayed["steps"][0]["trace"] if "one effect with the army's galeforce on elves" in e["what"]]
        assert len(said) == (late == "galeforce")


def test_a_cantrip_of_a_returned_unit_against_a_dragon_attack_buying_for_its_own_army_counts_it_again():
    """g1's Cantrip, rolled once the troll's Regenerate brought it back, buys a Stoneskin on the rolling army: the
    roll is suspended before its results are applied (002 Resolution, Unique), so the army's own roll is counted
    again with it (w1's 1 save + 1), the joined g2's 2 saves kept: 4 saves against 6 Claws damage, 2 damage."""
    out = _run("""  - dragon_attack: {army: goblins, dragons: {d1: [claws]}, roll: {troll: regenerate, w1: save},
                   targets: {regenerate: [g1, g2]}, unit_saves: {g1: cantrip 2, g2: save 2},
                   cantrip: {goblins: {colors: {gold: 2}, cast: [{spell: stoneskin, target: goblins}]}},
                   casualties: {goblins: [g2]}}
""")["steps"][0]
    assert out["results"]["goblins"]["save"] == 4 and out["results"]["g2"]["save"] == 2
    assert out["damage"]["goblins"] == 2 and out["killed"] == ["g2"]
    assert any(e["what"].startswith("reading: the Cantrip applied once units joined goblins's roll") for e in out["trace"])


def test_a_cantrip_of_a_returned_unit_combines_with_the_army_s_own():
    """w1's 1-point Cantrip waits for g1's (1 point), brought back by the troll's Regenerate: identical SAIs of one
    roll combine (002 Targeting), so the two buy a 2-point Stoneskin on the goblins together, which counts in their
    roll: 1 save against 6 Claws damage, 5 damage. w1's point alone buys no Stoneskin."""
    step = """  - dragon_attack: {army: goblins, dragons: {d1: [claws]}, roll: {troll: regenerate, w1: cantrip},
                   targets: {regenerate: [g1]}, unit_saves: {g1: cantrip},
                   cantrip: {goblins: {colors: {gold: 2}, cast: [{spell: stoneskin, target: goblins}]}},
                   casualties: {goblins: [troll, w1]}}
"""
    out = _run(step)["steps"][0]
    assert out["results"]["goblins"]["save"] == 1 and out["damage"]["goblins"] == 5
    assert any(e["what"].startswith("reading: goblins's own Cantrip (w1) waits") for e in out["trace"])
    with pytest.raises(UserError, match="gold"):
        _run(step.replace("unit_saves: {g1: cantrip}", "unit_saves: {g1: save}"))


def test_a_chain_in_a_magic_action_casts_with_every_returned_unit():
    """t4's Regenerate, rolled when the troll's brought it back, brings back g1 and g2, whose magic joins the army's."""
    out = _run("""  - magic: {army: goblins, roll: {troll: regenerate, w1: magic}, targets: {regenerate: [t4, g1, g2]},
            unit_saves: {t4: regenerate, g1: magic, g2: magic 2}}
""")["steps"][0]
    assert out["moved"] == ["t4", "g1", "g2"] and out["results"]["goblins"]["magic"] == 4


def _scenario(name: str, replace: dict[str, str], steps: str) -> dict:
    """A bundled scenario's situation (its text up to ``steps:``, edited by ``replace``) with other steps."""
    text = (Path(__file__).parents[1] / "scenarios" / name).read_text()
    text = text[:text.index("\nsteps:") + 1]
    for old, new in replace.items():
        assert old in text
        text = text.replace(old, new)
    return replay(parse(text + "steps:\n" + steps, "t.yaml"))


# tsr1996-faq-ferry.yaml's situation, the Trolls (with Regenerate) in the boats and dead units for them
_FERRY = {"{id: e5, race: coral-elf, health: 1}]}": "{id: troll, race: goblin, health: 4, monster: true}]}",
          "\narmies:": "\ndua: {a: [{id: g3, race: goblin, health: 3}, {id: g1, race: goblin, health: 1}]}\narmies:"}


def test_a_ferried_unit_rolling_regenerate_sees_only_the_dead_left_to_it():
    """The troll's Regenerate takes g3; e2, ferried in, rolls Regenerate: the step's targets.regenerate has nothing
    left for it (not the "not such a choice" error of seeing g3 again), so it gives its normal result; g3's 3 melee
    and e1's 1 count: 4 damage."""
    out = _scenario("tsr1996-faq-ferry.yaml", _FERRY, """  - melee: {army: boats, target: dwarves,
            roll: {gulls: ferry, troll: regenerate}, targets: {ferry: [e2, e1], regenerate: [g3]},
            unit_saves: {e2: regenerate, e1: melee 1, g3: melee 3}, saves: {dwarves: {save: 0}}, counter: false}
""")["steps"][0]
    assert out["moved"] == ["g3", "e2", "e1"]
    assert out["results"]["boats"]["melee"] == 4 and out["damage"]["dwarves"] == 4



def test_a_cantrip_of_a_unit_joining_a_charge_buys_the_army_s_spells():
    """The Kicker, brought back by the Trolls' Regenerate in A's charging roll, rolls a Cantrip (4 points: a
    monster's icon) that buys the step's two Stoneskins on A: a1's 1 melee against B's 1 save leaves no damage, and
    B's 3 melee less the two Stoneskins' saves hit A for 1 (a1 dies). Without the Kicker's Cantrip, A rolled none."""
    step = """  - melee: {army: A, target: B, charge: true, roll: {trolls: regenerate, a1: melee},
            targets: {regenerate: [kicker]}, unit_saves: {kicker: cantrip},
            saves: {B: {b1: melee, b2: save, b3: melee, b4: melee}}, casualties: {A: [a1]},
            cantrip: {A: {colors: {gold: 4}, cast: [{spell: stoneskin, target: A}, {spell: stoneskin, target: A}]}}}
"""
    out = _scenario("tsr1996-sai-joined-charge.yaml", {}, step)["steps"][0]
    assert out["moved"] == ["kicker"] and out["damage"] == {"B": 0, "A": 1} and out["killed"] == ["a1"]
    with pytest.raises(UserError, match="A rolled no Cantrip in this roll"):
        _scenario("tsr1996-sai-joined-charge.yaml", {}, step.replace("{kicker: cantrip}", "{kicker: melee}"))


def test_a_freed_unit_rolling_an_sai_its_army_already_resolved_continues_it():
    """The Kicker, freed by s2's Smite, rolls a Smite too: its 4 damage follow the army's 4 (no saves), taking the
    casualties the step names after the first's: 8 in all, 4 had it not been freed."""
    steps = """  - melee: {army: A2, target: B2, roll: {briars: entangle}, targets: {entangle: [kicker]}, counter: false}
  - turn: {player: b}
  - melee: {army: B2, target: A2, roll: {s2: smite}, casualties: {A2: [briars, A2.2, A2.3, A2.4, A2.5]},
            unit_saves: {kicker: smite}, counter: false}
"""
    out = _scenario("tsr1996-sai-joined-freed.yaml", {}, steps)["steps"][-1]
    assert out["damage"]["A2"] == 8 and out["killed"] == ["briars", "A2.2", "A2.3", "A2.4", "A2.5"]
    out = _scenario("tsr1996-sai-joined-freed.yaml", {}, steps.replace("kicker: smite", "kicker: save")
                    .replace(", A2.2, A2.3, A2.4, A2.5", ""))["steps"][-1]
    assert out["damage"]["A2"] == 4


def test_a_freed_unit_s_kick_whose_first_target_was_killed_picks_its_own():
    """k5's Kick kills a5 (1 health); Kicker5's Kick, freed after it, picks its own: the next entry of targets.kick
    (brute5: 4 - 2 saves, survives), or none left, having no first target to add to, the default (the first unit,
    brute5)."""
    steps = """  - melee: {army: A5, target: B5, roll: {briars5: entangle},
            targets: {entangle: [kicker5]}, counter: false}
  - turn: {player: b}
  - melee: {army: B5, target: A5, roll: {s5: smite, k5: kick}, casualties: {A5: [briars5]},
            targets: {kick: [a5, brute5]}, unit_saves: {kicker5: kick, a5: save 0, brute5: save 2},
            counter: false}
"""
    for named in ("[a5, brute5]", "[a5]"):
        out = _scenario("tsr1996-sai-joined-freed.yaml", {}, steps.replace("[a5, brute5]", named))["steps"][-1]
        assert out["killed"] == ["briars5", "a5"]
        assert any(e["what"] == "kick: 4 damage - 2 saves on brute5: survives" for e in out["trace"])
        assert any(e["what"].startswith("reading: kick of kicker5, freed into B5's roll, combines with the army's kick, "
                                        "whose target a5 no longer stands") for e in out["trace"]) == (named == "[a5]")
        assert any(e.get("defaulted") and e["what"] == "kick: every roller strikes brute5"
                   for e in out["trace"]) == (named == "[a5]")


def test_a_cantrip_bought_for_a_dragon_attack_roll_without_one_is_an_error():
    """Neither the army nor the unit its Regenerate brought back rolled a Cantrip: the step's cantrip buys nothing."""
    with pytest.raises(UserError, match="goblins rolled no Cantrip in this roll \\(nor did a unit brought into it\\)"):
        _run("""  - dragon_attack: {army: goblins, dragons: {d1: [claws]}, roll: {troll: regenerate, w1: save},
                   targets: {regenerate: [g1]}, unit_saves: {g1: save},
                   cantrip: {goblins: {colors: {gold: 2}, cast: [{spell: stoneskin, target: goblins}]}}}
""")


def test_the_rest_an_army_s_regenerate_leaves_to_a_freed_unit_that_takes_none_is_an_error():
    """The Trolls' Regenerate leaves g2 (past its four health) to the freed units' Regenerate: Trolls2, freed, rolls
    melee, so g2 is still not taken once it has rolled: the army's Regenerate's error, given after the freed roll."""
    with pytest.raises(UserError, match="g2 past that is left to the same SAI"):
        _scenario("tsr1996-sai-joined-freed.yaml", {}, """  - melee: {army: A, target: B, roll: {vines: entangle},
            targets: {entangle: [trolls2]}, counter: false}
  - turn: {player: b}
  - melee: {army: B, target: A, roll: {s1: smite, trolls: regenerate}, casualties: {A: [vines, A.2, A.3]},
            targets: {regenerate: [g3, g1, g2]}, unit_saves: {g3: melee 3, g1: melee 1, trolls2: melee 1},
            saves: {A: {save: 1}}, counter: false}
""")


def test_the_rest_an_army_s_regenerate_leaves_without_freed_units_is_an_error_at_once():
    """No unit is freed in the roll: the Trolls' Regenerate refuses g2, past its four health, itself."""
    with pytest.raises(UserError, match="g2 past that is left to the same SAI"):
        _scenario("tsr1996-sai-joined-freed.yaml", {}, """  - turn: {player: b}
  - melee: {army: B, target: A, roll: {s1: smite, trolls: regenerate}, casualties: {A: [vines, A.2, A.3]},
            targets: {regenerate: [g3, g1, g2]}, unit_saves: {g3: melee 3, g1: melee 1}, saves: {A: {save: 1}},
            counter: false}
""")


# sfr2012-dragon-attack-elevate.yaml's situation, a fourth dwarf to regenerate and a dead one to bring back
_ELEVATE = {"{id: m1, race: dwarf, health: 2}]}": "{id: m1, race: dwarf, health: 2}, {id: r1, race: dwarf, health: 2}]}",
            "\ndragons:": "\ndua: {me: [{id: e9, race: dwarf, health: 1}]}\ndragons:"}


def test_an_elevate_of_a_returned_unit_doubles_another_unit_with_the_army_s_own():
    """e1's Elevate waits for e9's, rolled once r1's Regenerate brought it back: the two double two units of the
    army's roll (s1's saves, m1's missile): 4 saves and 4 missile; 6 Claws damage - 4 saves = 2. Without e9's
    Elevate, naming two units for one Elevate is the error it always was."""
    step = """  - dragon_attack: {army: home, dragons: {d1: [claws]}, roll: {e1: elevate, s1: save 2, m1: missile 2,
                    r1: regenerate}, targets: {regenerate: [e9]}, unit_saves: {e9: elevate},
                    elevate: {s1: save, m1: missile}, casualties: {home: [s1]}}
"""
    out = _scenario("sfr2012-dragon-attack-elevate.yaml", _ELEVATE, step)["steps"][0]
    assert out["moved"] == ["e9"] and out["damage"]["home"] == 2
    assert out["results"]["home"]["save"] == 4 and out["results"]["home"]["missile"] == 4
    with pytest.raises(UserError, match="one unit per Elevate rolled \\(1\\)"):
        _scenario("sfr2012-dragon-attack-elevate.yaml", _ELEVATE, step.replace("{e9: elevate}", "{e9: save}"))


def test_a_returned_unit_given_summon_dragon_is_an_error_saying_no_unit_has_it():
    """Summon Dragon is on no unit's die: the corpus's only die with it is the Dragon Staff, an artifact (002
    Artifacts: "artifacts are magic items and therefore are not units"), and Regenerate brings back units, so g1
    cannot roll it; the error says why rather than calling it unmodelled."""
    from index.corpus import rows

    having = [r for r in rows("unit") if "summon-dragon" in (r.get("icons") or ())]
    assert having and all(r["unit_class"] == "artifact" for r in having)
    with pytest.raises(UserError, match="only the Dragon Staff, an artifact, has it: artifacts are magic items, not"):
        _run("""  - magic: {army: goblins, roll: {troll: regenerate, w1: magic}, targets: {regenerate: [g1]},
            unit_saves: {g1: summon dragon}}
""")


def test_an_elevate_may_double_a_unit_that_joined_the_roll():
    """e1's Elevate doubles e9, brought back by r1's Regenerate and rolled at once (2 saves): s1 2 + e9 2 x 2 = 6 saves
    against 6 Claws damage, none through. e9's own Elevate may name e9 too (no saves of its own to double: 0 more);
    naming e9 and s1 for one Elevate is an error."""
    step = """  - dragon_attack: {army: home, dragons: {d1: [claws]}, roll: {e1: elevate, s1: save 2, m1: missile 2,
                    r1: regenerate}, targets: {regenerate: [e9]}, unit_saves: {e9: save 2}, elevate: {e9: save}}
"""
    out = _scenario("sfr2012-dragon-attack-elevate.yaml", _ELEVATE, step)["steps"][0]
    assert out["results"]["home"]["save"] == 6 and out["damage"]["home"] == 0
    own = step.replace("e1: elevate", "e1: save").replace("{e9: save 2}", "{e9: elevate}")
    out = _scenario("sfr2012-dragon-attack-elevate.yaml", _ELEVATE, own.replace("}}\n", "}, casualties: {home: [e1, s1]}}\n"))
    assert out["steps"][0]["results"]["home"]["save"] == 3 and out["steps"][0]["damage"]["home"] == 3
    with pytest.raises(UserError, match="one unit per Elevate rolled \\(1\\), each unit once; named \\[e9, s1\\]"):
        _scenario("sfr2012-dragon-attack-elevate.yaml", _ELEVATE, step.replace("{e9: save}", "{e9: save, s1: save}"))


def test_a_cantrip_spell_on_a_unit_that_joined_the_roll_counts_its_own_roll_again():
    """r1's Regenerate brings e9 and e8 back; e9's 2-point Cantrip buys an Earthen Armor (one automatic save) on e8,
    which rolled 1 save: e8's own roll is counted again with it (2 saves), so e1 1 + s1 2 + e8 2 = 5 saves against 6
    Claws damage, 1 through. On e9 itself (no saves rolled) it adds the same one save."""
    elevated = {**_ELEVATE, "\ndragons:": "\ndua: {me: [{id: e9, race: dwarf, health: 1}, {id: e8, race: dwarf, "
                                          "health: 1}]}\ndragons:"}
    step = """  - dragon_attack: {army: home, dragons: {d1: [claws]}, roll: {e1: save, s1: save 2, m1: missile 2,
                    r1: regenerate 2}, targets: {regenerate: [e9, e8]}, unit_saves: {e9: cantrip 2, e8: save},
                    cantrip: {home: {colors: {gold: 2}, cast: [{spell: earthen armor, target: e8}]}},
                    casualties: {home: [e1]}}
"""
    for target in ("e8", "e9"):
        out = _scenario("sfr2012-dragon-attack-elevate.yaml", elevated, step.replace("target: e8", f"target: {target}"))
        assert out["steps"][0]["results"]["home"]["save"] == 5 and out["steps"][0]["damage"]["home"] == 1
        assert out["steps"][0]["killed"] == ["e1"]


def test_a_cantrip_spell_on_a_unit_that_joined_a_charge_counts_its_own_roll_again():
    """Sparker's 4-point Cantrip, in A's charging roll, buys a Burning Hands on Brute, brought back with it: Brute's
    own roll is counted again with it (2 melee doubled: 4 damage, 2 through B's 2 saves). On Sparker (no melee) it
    doubles nothing: the charge's 2 damage are all saved."""
    step = """  - melee: {army: A, target: B, charge: true, roll: {trolls: regenerate}, targets: {regenerate: [sparker, brute]},
            unit_saves: {sparker: cantrip 4, brute: melee 2}, saves: {B: {b2: save, b3: save, b4: melee}},
            cantrip: {A: {colors: {red: 4}, cast: [{spell: burning hands, target: brute}]}}}
"""
    for target, damage in (("brute", 2), ("sparker", 0)):
        out = _scenario("tsr1996-sai-joined-charge.yaml", {}, step.replace("target: brute", f"target: {target}"))
        assert out["steps"][0]["damage"]["B"] == damage
        assert out["steps"][0]["results"]["brute"]["melee"] == 2 + damage
