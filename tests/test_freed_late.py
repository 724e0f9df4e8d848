"""tsr-1996: a unit freed from an Entangle (004 Entangle D) rolling an SAI its army's roll already resolved continues
it (002 Targeting: identical SAIs' "effects are combined"): a pick of units takes the step's targets past the first's
(engine.actions.freed_sais); scenarios/tsr1996-sai-joined-freed-late.yaml's situation with other steps."""

from __future__ import annotations

from pathlib import Path

import pytest

from ddref.scenario.run import parse, replay
from ddref.scenario.source import UserError

_SCENARIO = Path(__file__).parents[1] / "scenarios" / "tsr1996-sai-joined-freed-late.yaml"


def _play(steps: str, replace: dict[str, str] | None = None) -> list[dict]:
    """The bundled scenario's situation (to ``steps:``, edited by ``replace``) with ``steps``: its last step's result
    and the rest."""
    text = _SCENARIO.read_text()
    text = text[:text.index("\nsteps:") + 1]
    for old, new in (replace or {}).items():
        assert old in text
        text = text.replace(old, new)
    return replay(parse(text + "steps:\n" + steps, "t.yaml"))["steps"]


def _readings(out: dict) -> list[str]:
    return [e["what"] for e in out["trace"] if e["what"].startswith("reading: ")]


_ENTANGLE1 = """  - melee: {army: A1, target: B1, roll: {vines1: entangle}, targets: {entangle: [venom1]}, counter: false}
  - turn: {player: b}
"""
_POISON = _ENTANGLE1 + """  - melee: {army: B1, target: A1, roll: {s1: smite, p1: poison}, casualties: {A1: [vines1]},
            targets: {poison: [x1, x2, x3, x4]}, unit_saves: {venom1: poison, x1: save, x2: melee, x3: save, x4: melee},
            burial: {x2: save, x4: melee}, counter: false}
"""


def test_a_freed_unit_s_poison_takes_the_targets_the_army_s_poison_left():
    """p1's Poison (4 health-worth) takes x1 and x2; Venom1's, freed by s1's Smite, x3 and x4: x2 and x4 fail."""
    out = _play(_POISON)[-1]
    assert out["killed"] == ["vines1", "x2", "x4"] and out["buried"] == ["x4"]
    assert any("poison of venom1, freed into B1's roll, picks" in r for r in _readings(out))


def test_the_targets_a_poison_left_that_no_freed_unit_takes_are_the_army_s_error():
    """Venom1, freed, rolls a save (nothing in a melee roll): x3 and x4, past p1's four health-worth, are taken by no
    Poison."""
    with pytest.raises(UserError, match="x3, x4 past that is left to the same SAI rolled by a unit freed into B1's"):
        _play(_POISON.replace("venom1: poison", "venom1: save"))


def test_a_poison_naming_past_its_health_worth_with_no_unit_to_free_is_an_error_at_once():
    """No unit of B1 is entangled: naming 8 health-worth for one Poison is the error it always was."""
    with pytest.raises(UserError, match="poison targets up to 4 health-worth; \\[x1, x2, x3, x4\\] are 8"):
        _play(_POISON.replace(_ENTANGLE1, "  - turn: {player: b}\n").replace("venom1: poison, ", ""))


def test_a_freed_unit_s_poison_with_no_targets_left_takes_the_default_not_the_first_s():
    """targets.poison names x1 and x2 only: Venom1's Poison takes the default, as much health-worth as possible of
    the units p1's did not take, the smallest first (x3 and x4; x1 escaped p1's, but is not poisoned twice)."""
    out = _play(_POISON.replace("[x1, x2, x3, x4]", "[x1, x2]"))[-1]
    assert out["killed"] == ["vines1", "x2", "x4"]
    assert any(e["what"] == "poison: targets x3, x4" and e.get("defaulted") for e in out["trace"])


_BULLSEYE = """  - melee: {army: A2, target: B2, roll: {vines2: entangle}, targets: {entangle: [eye2]}, counter: false}
  - turn: {player: b}
  - missile: {army: B2, target: A2, roll: {e2: bullseye}, targets: {bullseye: {vines2: 4, y1: 4}},
              unit_saves: {vines2: melee, eye2: bullseye, y1: save}}
"""


def test_a_freed_unit_s_bullseye_puts_its_points_on_the_next_target():
    """e2's Bullseye kills Vines2 (no save); Eye2's, freed, puts its 4 on y1 (3 health), which saves 1: killed."""
    out = _play(_BULLSEYE)[-1]
    assert out["killed"] == ["vines2", "y1"]
    # only y1 left in the list for e2's own face: the 4 points past Vines2's are the freed unit's, no other's
    with pytest.raises(UserError, match="y1 past that is left to the same SAI rolled by a unit freed into B2's"):
        _play(_BULLSEYE.replace("eye2: bullseye", "eye2: save"))


def test_a_freed_unit_s_bullseye_with_no_target_left_adds_to_the_first_s():
    """A Stone (4, no saves) kills Vines2; e2's Bullseye puts 4 on y1, which saves 2: 2 damage, it survives; Eye2's
    Bullseye, freed, has no entry left: its 4 are added to e2's on y1, which saves against the 8 with its one roll
    (2): 6, killed."""
    steps = _BULLSEYE.replace("roll: {e2: bullseye}", "roll: {e2: bullseye, b2s: stone}, casualties: {A2: [vines2]}") \
        .replace("{vines2: 4, y1: 4}", "{y1: 4}").replace("vines2: melee, ", "").replace("y1: save}", "y1: save 2}")
    out = _play(steps, {"{id: eye2, race: dwarf, health: 4, monster: true}]}":
                        "{id: eye2, race: dwarf, health: 4, monster: true}, "
                        "{id: b2s, race: dwarf, health: 4, monster: true}]}"})[-1]
    assert out["killed"] == ["vines2", "y1"] and out["damage"]["A2"] == 4
    assert any(e["what"] == "bullseye of eye2: 4 damage added to the first bullseye's 4 on y1" for e in out["trace"])
    assert any(e["what"] == "bullseye: 8 damage - 2 saves on y1: killed" and e["after"] == 6 for e in out["trace"])


def test_a_freed_unit_s_flame_takes_the_next_unit_named():
    """f3's Flame (one unit of two health or less per face) takes z1; Burner3's, freed, z2; naming z3 (3 health) for
    it instead is the Flame's error listing the legal units."""
    steps = """  - melee: {army: A3, target: B3, roll: {vines3: entangle}, targets: {entangle: [burner3]}, counter: false}
  - turn: {player: b}
  - melee: {army: B3, target: A3, roll: {s3: smite, f3: flame}, casualties: {A3: [vines3]},
            targets: {flame: [z1, z2]}, unit_saves: {burner3: flame}, counter: false}
"""
    out = _play(steps)[-1]
    assert out["buried"] == ["z1", "z2"]
    with pytest.raises(UserError, match="flame targets a unit of 2 health or less: choose from z2"):
        _play(steps.replace("[z1, z2]", "[z1, z3]"))


@pytest.mark.parametrize(("sai", "rolls", "fate"), [
    ("smother", "x1: maneuver, x2: save, x3: maneuver, x4: melee", {"killed": ["vines1", "x2", "x4"]}),
    ("roar", "", {"killed": ["vines1"], "fled": ["x1", "x2", "x3", "x4"]}),
])
def test_a_freed_unit_s_smother_or_roar_takes_the_targets_the_army_s_left(sai, rolls, fate):
    """Smother (a maneuver or killed) and Roar (flee, no save): p1's takes x1 and x2, Venom1's, freed, x3 and x4."""
    steps = _ENTANGLE1 + f"""  - melee: {{army: B1, target: A1, roll: {{s1: smite, p1: {sai}}}, casualties: {{A1: [vines1]}},
            targets: {{{sai}: [x1, x2, x3, x4]}}, unit_saves: {{venom1: {sai}{', ' + rolls if rolls else ''}}},
            counter: false}}
"""
    out = _play(steps)[-1]
    assert {k: out[k] for k in fate} == fate
    with pytest.raises(UserError, match="x3, x4 past that is left to the same SAI"):
        _play(steps.replace(f"venom1: {sai}", "venom1: save"))


def _bundled_step(army: str) -> str:
    """The bundled scenario's steps up to b's turn, then its step in which ``army`` acts, as YAML text."""
    text = _SCENARIO.read_text()
    steps = ["  - " + s.rstrip() for s in text[text.index("\nsteps:\n") + 8:].split("  - ") if s.strip()]
    turn = next(i for i, s in enumerate(steps) if s.startswith("  - turn:"))
    return "\n".join([*steps[:turn + 1], next(s for s in steps if f"army: {army}," in s)]) + "\n"


@pytest.mark.parametrize(("step", "freed", "sai"), [("B4", "con4", "confuse"), ("B5", "ill5", "illusion"),
                                                    ("B6", "charm6", "charm"), ("B7", "ent7", "entangle")])
def test_without_the_freed_unit_s_identical_sai_the_army_s_cannot_take_eight_health_worth(step, freed, sai):
    """The bundled steps name eight health-worth for the army's SAI and the freed unit's together: the freed unit
    rolling a save instead, the four past the army's SAI's are its error."""
    text = _bundled_step(step)
    assert f"{freed}: {sai}" in text
    _play(text)
    with pytest.raises(UserError, match=f"{sai} targets up to 4 health-worth.*past that is left to the same SAI"):
        _play(text.replace(f"{freed}: {sai}", f"{freed}: save"))


def test_a_freed_unit_s_confuse_is_one_reroll_with_the_army_s():
    """c4's and Con4's Confuse are one pick of eight health-worth, each unit rolled again once: 2 saves (w3, w5)
    against h4's 4 melee: 2 damage, 6 with the Smite's; unconfused (the army's alone, w1 and w2), 6 saves: none."""
    out = _play(_bundled_step("B4"))[-1]
    assert out["results"]["A4"]["save"] == 2 and out["damage"]["A4"] == 6
    assert any("rolling again once, not twice" in r for r in _readings(out))
    alone = _play(_bundled_step("B4").replace("con4: confuse", "con4: save").replace("[w1, w2, w3, w4]", "[w1, w2]")
                  .replace(", w3: save, w4: maneuver", "").replace("vines4, w1]", "vines4]"))[-1]
    assert alone["results"]["A4"]["save"] == 5 and alone["damage"]["A4"] == 4


def test_a_freed_unit_s_web_webs_the_units_the_army_s_left():
    """en7's Web takes q1 and q2 (q1 saves: escapes), Ent7's, freed, q3 and q4 (q4 saves): q2 and q3 webbed."""
    steps = _bundled_step("B7").replace("en7: entangle", "en7: web").replace("{entangle: [q1", "{web: [q1") \
        .replace("{ent7: entangle}", "{ent7: web, q1: save, q2: melee, q3: melee, q4: save}")
    for unit, webbed in (("q2", True), ("q3", True), ("q4", False)):
        roll = f"  - roll: {{army: A7, for: maneuver, roll: {{{unit}: maneuver}}}}\n"
        if webbed:
            with pytest.raises(UserError, match=f"{unit} makes no rolls while web is on it"):
                _play(steps + roll)
        else:
            assert _play(steps + roll)[-1]["results"]["A7"]["maneuver"] == 1


def test_a_freed_unit_s_entangle_with_no_targets_left_takes_units_not_yet_entangled():
    """targets.entangle names q1, q2 (the army's four health-worth): Ent7's Entangle takes the default among the units
    not under it, q3 and q4 (defaulted), not q1 or q2 again."""
    out = _play(_bundled_step("B7").replace("[q1, q2, q3, q4]", "[q1, q2]"))[-1]
    assert any(e["what"] == "entangle of ent7: q3, q4 chosen" and e.get("defaulted") for e in out["trace"])
    assert [e["what"] for e in out["trace"] if e["what"].endswith("cannot be rolled until beginning of next turn")] \
        == [f"entangle: {q} cannot be rolled until beginning of next turn" for q in ("q1", "q2", "q3", "q4")]


_B2S = {"{id: eye2, race: dwarf, health: 4, monster: true}]}":
        "{id: eye2, race: dwarf, health: 4, monster: true}, {id: b2s, race: dwarf, health: 4, monster: true}]}"}


@pytest.mark.parametrize("named", ["[y2, y1]", "[y2]"])
def test_a_freed_unit_s_swoop_whose_first_target_died_picks_its_own(named):
    """b2s's Stone kills Vines2; e2's Swoop (4, no saves) kills y2 (1 health); Eye2's Swoop, freed, takes the next
    entry of targets.swoop, or none left, having no first target to add to, the default (the first unit, y1): 4 on y1
    (3 health), killed either way, the default marked."""
    out = _play(_BULLSEYE.replace("roll: {e2: bullseye}", "roll: {b2s: stone, e2: swoop}, casualties: {A2: [vines2]}")
                .replace("{bullseye: {vines2: 4, y1: 4}}", f"{{swoop: {named}}}")
                .replace("unit_saves: {vines2: melee, eye2: bullseye, y1: save}", "unit_saves: {eye2: swoop}"),
                _B2S)[-1]
    assert out["killed"] == ["vines2", "y2", "y1"]
    assert any(e["what"].startswith("reading: swoop of eye2, freed into B2's roll, combines with the army's swoop, "
                                    "whose target y2 no longer stands") for e in out["trace"]) == (named == "[y2]")
    assert any(e.get("defaulted") and e["what"] == "swoop: every roller strikes y1" for e in out["trace"]) == \
        (named == "[y2]")


def test_a_freed_kick_takes_the_next_target_named_while_the_first_s_stands():
    """brute8 named first: k8's Kick on brute8 (3 health), which saves 3, survives; Kick8's, freed, takes the next unit
    targets.kick names (002 Kick: "for each unit that generates Kick results choose one unit"): 4 on a8 (1 health),
    which rolls a melee: killed, brute8 stands. brute8 named alone: Kick8's adds its 4 to the first's on brute8 (8 - 3:
    killed)."""
    steps = _bundled_step("B8").replace("[a8, brute8]", "[brute8, a8]").replace("brute8: save}", "brute8: save 3}")
    out = _play(steps)[-1]
    assert out["killed"] == ["vines8", "a8"]
    assert any(e["what"] == "kick of kick8: 4 damage on a8" for e in out["trace"])
    out = _play(steps.replace("[brute8, a8]", "[brute8]").replace("a8: melee, ", ""))[-1]
    assert out["killed"] == ["vines8", "brute8"]
    assert any(e["what"] == "kick of kick8: 4 damage added to the first kick's 4 on brute8" for e in out["trace"])


def test_no_freed_unit_can_roll_a_hug_or_coil():
    """Hug and Coil strike back at their roller (engine.sai_attacks ``answer``): a freed unit's, combined with the
    army's on one target, would need the target's answer split among the rollers. No scenario can reach it: units are
    freed into a roll only under tsr-1996 (004 Entangle D), which has neither SAI (000's SAIs and 004's monster SAIs),
    so a freed unit given one is an unknown icon. Should either change, this test says where to look
    (engine.actions.freed_sais ``_added``)."""
    from engine.editions import RULESETS

    assert [ed for ed, r in RULESETS.items() if any(s.freed_roll for s in r.sai_states.values())] == ["tsr-1996"]
    assert not {"hug", "coil"} & set(RULESETS["tsr-1996"].sai_uses)
    for sai in ("hug", "coil"):
        with pytest.raises(UserError, match=f"unknown icon or unit '{sai}'"):
            _play(_bundled_step("B8").replace("kick8: kick", f"kick8: {sai}"))


def test_a_freed_unit_s_kick_adds_to_the_army_s_default_target():
    """No targets.kick: k8's Kick strikes the first unit (brute8, defaulted), which saves 3 of 4: survives; Kick8's,
    freed, adds its 4 to them on brute8, saved against with its one roll: 8 - 3 = 5, killed (3 health)."""
    steps = _bundled_step("B8").replace("targets: {kick: [a8, brute8]}, ", "").replace("a8: melee, brute8: save",
                                                                                     "brute8: save 3")
    assert "kick: [" not in steps
    out = _play(steps, {"{id: a8, race: goblin, health: 1}, {id: brute8, race: goblin, health: 3}":
                        "{id: brute8, race: goblin, health: 3}, {id: a8, race: goblin, health: 1}"})[-1]
    assert out["killed"] == ["vines8", "brute8"]
    assert any(e["what"] == "kick of kick8: 4 damage added to the first kick's 4 on brute8" for e in out["trace"])
    assert any(e["what"] == "kick: 8 damage - 3 saves on brute8: killed" for e in out["trace"])


def test_a_freed_unit_s_screech_cuts_the_opponent_s_saves_for_routing():
    """Routing in play (the scenario's routing: true): p1's 4 melee against A1, whose saves show x1's 2 save icons and x3's and x4's ID icons (6
    saves: no damage): 2 ID icons, 2 save icons, A1 holds; Venom1, freed by s1's Smite, rolls a Screech: its four
    come off A1's saves for routing (0): routed, so B1 may pursue (the hill turns down to face 4). Without it,
    pursuing is an error."""
    steps = _ENTANGLE1 + """  - melee: {army: B1, target: A1, roll: {s1: smite, p1: melee}, casualties: {A1: [vines1]},
            saves: {A1: {x1: save 2, x2: melee, x3: id, x4: id}}, unit_saves: {venom1: screech}, pursue: true}
"""
    out = _play(steps)[-1]
    assert out["terrains"]["hill"]["face"] == 4
    assert any(e["what"] == "1 Screech: A1's saves count 0 for routing" for e in out["trace"])
    assert any(e["what"].startswith("reading: the Screech of a unit freed into B1's roll") for e in out["trace"])
    with pytest.raises(UserError, match="A1 was not routed, so B1 cannot pursue it"):
        _play(steps.replace("venom1: screech", "venom1: save"))


def test_a_freed_unit_s_web_with_no_targets_left_skips_the_units_the_army_s_picked():
    """targets.web names q1 and q2 (en7's four health-worth): q1 escapes with a save, q2 is webbed; Ent7's Web takes
    the default among the units en7's did not pick, q3 and q4 (not q1, which escaped: one pick of both)."""
    steps = _bundled_step("B7").replace("en7: entangle", "en7: web").replace("{entangle: [q1, q2, q3, q4]}",
                                                                             "{web: [q1, q2]}") \
        .replace("{ent7: entangle}", "{ent7: web, q1: save, q2: melee, q3: melee, q4: save}")
    out = _play(steps)[-1]
    assert any(e["what"] == "web of ent7: q3, q4 chosen" and e.get("defaulted") for e in out["trace"])
    assert [e["what"].split(":")[1].split()[0] for e in out["trace"]
            if e["what"].startswith("web: ") and "cannot be rolled" in e["what"]] == ["q2", "q3"]


def _cantrip_steps(army: str) -> str:
    """The bundled steps up to b's turn, with a's Entangle on B10's or B11's unit, then ``army``'s step."""
    return _bundled_step(army)


def test_a_freed_unit_s_cantrip_buys_the_army_s_purchase_and_the_roll_is_counted_again():
    """B10's roll shows no Cantrip: s10's Smite kills Vines10, Cast10, freed, rolls a Cantrip (4 red): it buys the
    step's cantrip.B10, a Burning Hands on m10, before A10 saves: B10's roll counted again, 4 melee doubled to 8; 2
    saves: 6 damage, 10 with the Smite's."""
    out = _play(_cantrip_steps("B10"))[-1]
    assert out["results"]["B10"]["melee"] == 8 and out["damage"]["A10"] == 10
    assert any(e["what"] == "B10: melee counted again" and (e["before"], e["after"]) == (4, 8) for e in out["trace"])
    assert any("cast10, brought into B10's melee roll, rolled a Cantrip" in r for r in _readings(out))
    bought = "cantrip: {B10: {colors: {red: 4}, cast: [{spell: burning-hands, target: m10}]}},"
    assert bought in _cantrip_steps("B10")
    alone = _play(_cantrip_steps("B10").replace(bought, "").replace("[vines10, n1, n2, n3]", "[vines10, n1]"))[-1]
    assert alone["results"]["B10"]["melee"] == 4 and alone["damage"]["A10"] == 6
    assert any(e["what"] == "B10: 4 Cantrip point(s) buy nothing" and e.get("defaulted") for e in alone["trace"])


@pytest.mark.parametrize(("old", "edit", "said"), [
    ("cast10: cantrip", "cast10: save", "B10 rolled no Cantrip in this roll, so"),
    ("s10: smite", "s10: melee", "B10 rolled no Cantrip in this roll \\(nor did a unit brought into it\\)")])
def test_the_army_s_purchase_with_no_cantrip_freed_into_its_roll_is_an_error(old, edit, said):
    """Cast10 rolling a save, nothing pays for cantrip.B10 (the error at once); Cast10 rolling a Cantrip, the check
    waits for the freed units: Cast10 not freed (no Smite kills Vines10), the error once they would have rolled."""
    steps = _cantrip_steps("B10")
    assert old in steps
    with pytest.raises(UserError, match=said):
        _play(steps.replace(old, edit))


def test_a_purchase_named_for_the_freed_unit_when_the_army_rolled_no_cantrip_is_an_error():
    with pytest.raises(UserError, match="cantrip.cast10 is given, but B10's roll shows no Cantrip of its own"):
        _play(_cantrip_steps("B10").replace("cantrip: {B10:", "cantrip: {cast10:"))


def test_a_freed_unit_s_cantrip_spell_on_another_freed_unit_counts_that_unit_s_roll_again():
    """Vines10 entangles Cast10 and W10 (2 health each): both freed by s10's Smite, Cast10's Cantrip buys a Burning
    Hands on W10, whose own 2 melee are counted again, doubled: 4 + 4 = 8 melee."""
    steps = _cantrip_steps("B10").replace("{entangle: [cast10]}", "{entangle: [cast10, w10]}") \
        .replace("{cast10: cantrip}", "{cast10: cantrip 4, w10: melee 2}").replace("target: m10", "target: w10")
    out = _play(steps, {"{id: cast10, race: dwarf, health: 4, monster: true}":
                        "{id: cast10, race: dwarf, health: 2}, {id: w10, race: dwarf, health: 2}"})[-1]
    assert out["results"]["B10"]["melee"] == 8 and out["damage"]["A10"] == 10
    assert any(e["what"] == "w10: melee counted again" and (e["before"], e["after"]) == (2, 4) for e in out["trace"])
    assert any(r.startswith("reading: the Cantrip's spell on w10, which joined B10's melee roll") for r in _readings(out))


def test_a_freed_unit_s_cantrip_after_the_army_s_own_is_a_purchase_of_its_own():
    """mage11's and page11's Cantrips (cantrip.B11) kill Vines11 with a Lightning Strike; Seer11 and Aide11, freed,
    roll a Cantrip (4 + 1, a die's face being worth at most four): their own purchase, cantrip.seer11, a Lightning
    Strike that kills k1 before A11 saves. Not given: it buys nothing (marked defaulted), k1 lives and rolls with
    A11's saves."""
    out = _play(_cantrip_steps("B11"))[-1]
    assert out["killed"] == ["vines11", "k1", "k2"] and out["damage"]["A11"] == 2
    assert any("the Cantrip of seer11, aide11, freed into B11's roll after the army's own Cantrip was resolved" in r
               and "the step's cantrip.seer11" in r for r in _readings(out))
    steps = _cantrip_steps("B11")
    start = steps.index("                      seer11: {")
    unbought = steps[:start].rstrip().rstrip(",") + "},\n" + steps[steps.index("            saves: {A11"):]
    alone = _play(unbought.replace("{k2: save, k3: save}", "{k1: maneuver, k2: save, k3: save}"))[-1]
    assert alone["killed"] == ["vines11", "k2"] and alone["damage"]["A11"] == 2
    assert any(e["what"] == "seer11: 5 Cantrip point(s) buy nothing" and e.get("defaulted") for e in alone["trace"])


_COUNTERED = """  - melee: {army: A1, target: B1, roll: {vines1: entangle, x1: melee 2, x2: melee 2, x3: melee 2, x4: melee 2},
            targets: {entangle: [venom1]}, saves: {B1: {s1: counter, p1: melee}}, casualties: {A1: [vines1]},
            unit_saves: {venom1: cantrip}, counter: false}
"""


def test_a_unit_freed_into_the_defender_s_save_roll_buys_the_army_s_cantrip_purchase():
    """Vines1 entangles Venom1 in A1's attack roll (8 melee); in B1's save roll s1's Counter (4 saves, and 4 hits back,
    no saves) kills Vines1 (A1's choice); Venom1, freed, rolls at once in the save roll: its Cantrip (4 gold), B1's
    roll showing none, buys the step's cantrip.B1: two Stoneskins on B1, B1's save roll counted again, 4 -> 6: 2
    damage, none killed (4-health units). No purchase: 4 damage, p1 killed."""
    bought = _COUNTERED.replace("counter: false}", "cantrip: {B1: {colors: {gold: 4}, cast: [{spell: stoneskin, "
                                "target: B1, count: 2}]}}, counter: false}")
    out = _play(bought)[-1]
    assert out["results"]["B1"]["save"] == 6 and out["damage"]["B1"] == 2 and out["killed"] == ["vines1"]
    assert any(e["what"] == "B1: save counted again" and (e["before"], e["after"]) == (4, 6) for e in out["trace"])
    assert any("venom1, brought into B1's save roll, rolled a Cantrip" in r for r in _readings(out))
    alone = _play(_COUNTERED.replace("casualties: {A1: [vines1]}", "casualties: {A1: [vines1], B1: [p1]}"))[-1]
    assert alone["damage"]["B1"] == 4 and alone["killed"] == ["vines1", "p1"]
    assert any(e["what"] == "B1: 4 Cantrip point(s) buy nothing" and e.get("defaulted") for e in alone["trace"])


def test_a_unit_freed_into_the_defender_s_save_roll_counts_its_icons_for_routing():
    """Routing in play: B1's save roll shows p1's ID icon and s1's Counter, a save icon for routing (000 Routing: "saves
    provided by a special action icon ... do count as normal saves for determining routs"); Venom1, freed by the Counter
    killing Vines1, rolls a save icon counted in that roll (004 Entangle D: "counted in the current roll"): 1 ID against
    2 save icons. Not rolled (no unit_saves.venom1): freed but not rolled, marked defaulted, 1 ID against 1 save icon.
    B1 holds either way, so pursuing is an error."""
    steps = _COUNTERED.replace("p1: melee", "p1: id").replace("venom1: cantrip}, counter: false",
                                                              "venom1: save}, pursue: true")
    with pytest.raises(UserError, match="B1 was not routed, so A1 cannot pursue it"):
        _play(steps)
    out = _play(steps.replace(", pursue: true", ", counter: false"))[-1]
    assert any(e["what"] == "B1 rolled 1 ID icon(s) and 2 save icon(s): holds" for e in out["trace"])
    alone = _play(steps.replace("unit_saves: {venom1: save}, ", "").replace("pursue: true", "counter: false"))[-1]
    assert any(e["what"] == "B1 rolled 1 ID icon(s) and 1 save icon(s): holds" for e in alone["trace"])
    assert any(e["what"] == "venom1 is freed but not rolled" and e.get("defaulted") for e in alone["trace"])


def test_a_unit_freed_into_the_defender_s_save_roll_adds_its_saves():
    """Venom1, freed into B1's save roll, rolls a save (a monster's icon: 4): 8 saves against A1's 8 melee, none."""
    out = _play(_COUNTERED.replace("venom1: cantrip", "venom1: save"))[-1]
    assert out["results"]["B1"]["save"] == 8 and out["damage"]["B1"] == 0
    assert any(e["what"] == "the returned units add 4 save result(s) to B1" for e in out["trace"])
    assert any(r.startswith("reading: venom1, freed by B1's save roll, rolls in it") for r in _readings(out))


def test_a_counter_of_a_unit_freed_into_the_defender_s_save_roll_saves_and_hits_the_attacker():
    """Venom1, freed into B1's save roll by s1's Counter, rolls a Counter: 4 saves (8 in all against A1's 8 melee: no
    damage) and its own immediate hit, 4 damage to A1 taken apart from s1's (x1, x2 killed); not freed (no roll), B1
    saves 4 and takes 4 (p1)."""
    out = _play(_COUNTERED.replace("venom1: cantrip", "venom1: counter")
                .replace("casualties: {A1: [vines1]}", "casualties: {A1: [vines1, x1, x2]}"))[-1]
    assert out["results"]["B1"]["save"] == 8 and out["damage"] == {"A1": 8, "B1": 0}
    assert out["killed"] == ["vines1", "x1", "x2"]
    # tsr-1996's Counter damage back is a reading with 002's "Only magical saves protect" (issue 21)
    assert [e["after"] for e in out["trace"] if "counter: 4 damage back at A1" in e["what"]] == [4, 4]
    assert any("the counter of venom1, freed into B1's save roll" in r for r in _readings(out))
    alone = _play(_COUNTERED.replace("unit_saves: {venom1: cantrip}, ", "")
                  .replace("casualties: {A1: [vines1]}", "casualties: {A1: [vines1], B1: [p1]}"))[-1]
    assert alone["damage"] == {"A1": 4, "B1": 4} and alone["killed"] == ["vines1", "p1"]


@pytest.mark.parametrize("sai", ["kick", "poison", "smite", "screech", "bullseye"])
def test_a_monster_sai_of_a_unit_freed_into_the_save_roll_has_no_effect_there(sai):
    """004 General Rules A: "Unless otherwise noted, the effect does NOT occur during a save roll": traced as the
    army's own would be, its unit's roll counting nothing."""
    out = _play(_COUNTERED.replace("venom1: cantrip", f"venom1: {sai}"))[-1]
    assert out["results"]["B1"]["save"] == 4 and out["damage"]["B1"] == 4
    assert any(e["what"].endswith(f"venom1: {sai} has no effect in a save-melee roll") for e in out["trace"])


def test_a_freed_unit_s_own_purchase_in_the_save_roll_counts_the_army_s_roll_again():
    """Bundled step 12: Ward12's Wall of Ice (cantrip.ward12, after mage12's cantrip.B12 killed Vines12) makes B12's
    1 save 4: no damage; not bought (defaulted), 3 damage, Ward12 killed."""
    text = _SCENARIO.read_text()
    step = text[text.index("  - melee:\n      army: A12"):text.index("  - turn: {player: b}")]
    out = _play(step)[-1]
    assert out["results"]["B12"]["save"] == 4 and out["damage"]["B12"] == 0
    wall = "                ward12: {colors: {green: 3}, cast: [{spell: wall-of-ice, target: B12}]}}\n"
    assert wall in step
    alone = _play(step.replace("avoidance: {vines12: melee}},\n" + wall, "avoidance: {vines12: melee}}}\n")
                  .replace("counter: false", "counter: false\n      casualties: {B12: [ward12]}"))[-1]
    assert alone["damage"]["B12"] == 3 and alone["killed"] == ["vines12", "ward12"]
    assert any(e["what"] == "ward12: 3 Cantrip point(s) buy nothing" and e.get("defaulted") for e in alone["trace"])


def test_the_cantrips_of_units_freed_together_after_the_army_s_are_one_purchase():
    """Vines11 entangles Seer11 (3 health) and Aide11 (1) (the bundled step): both freed by the army's Lightning
    Strike, their Cantrips (4 + 1) rolled at one time are combined (002 Targeting): one purchase of 5 points, named
    for either; named for both, an error."""
    steps = _bundled_step("B11")
    assert "{entangle: [seer11, aide11]}" in steps and "{seer11: cantrip 4, aide11: cantrip 1}" in steps
    out = _play(steps.replace("seer11: {colors: {blue: 5}", "aide11: {colors: {blue: 5}"))[-1]
    assert out["killed"] == ["vines11", "k1", "k2"]
    assert any(e["what"] == "B11's roll is suspended: 5 Cantrip point(s) buy spells" for e in out["trace"])
    assert any("the Cantrip of seer11, aide11, freed into B11's roll" in r and "cantrip.aide11" in r
               for r in _readings(out))
    both = steps.replace("avoidance: {k1: maneuver}}}", "avoidance: {k1: maneuver}},\n"
                         "                      aide11: {colors: {blue: 1}, cast: []}}")
    with pytest.raises(UserError, match="seer11, aide11 were freed into B11's roll together: their Cantrips are one "
                                        "purchase"):
        _play(both)


def test_a_cantrip_purchase_named_for_no_army_or_unit_is_an_error_with_a_did_you_mean():
    with pytest.raises(UserError, match="unknown army or unit 'seer1' .*did you mean: seer11"):
        _play(_bundled_step("B11").replace("                      seer11: {", "                      seer1: {"))


def test_a_unit_freed_into_a_counter_attack_roll_buys_the_counter_attacker_s_cantrip_purchase():
    """A1's Vines1 entangles Venom1; B1 counter-attacks: s1's Smite kills Vines1, Venom1, freed into B1's counter-attack
    roll, rolls a Cantrip that buys cantrip.B1 (a Burning Hands on p1): B1's counter-attack counted again, 4 melee ->
    8, against A1's 2 saves: 6 damage, 10 with the Smite's."""
    out = _play("""  - melee: {army: A1, target: B1, roll: {vines1: entangle}, targets: {entangle: [venom1]},
            counter: {s1: smite, p1: melee}, counter_saves: {A1: {x1: save, x2: save, x3: melee, x4: melee}},
            casualties: {A1: [vines1, x3, x4, x1]}, unit_saves: {venom1: cantrip},
            cantrip: {B1: {colors: {red: 4}, cast: [{spell: burning-hands, target: p1}]}}}
""")[-1]
    assert out["counter"]["results"]["B1"]["melee"] == 8 and out["damage"]["A1"] == 10
    assert any(e["what"] == "B1: melee counted again" and (e["before"], e["after"]) == (4, 8) for e in out["trace"])


def test_a_unit_an_entangle_holds_is_traced_as_kept_from_rolling_not_as_rolling_nothing():
    """Venom1, entangled, is left out of B1's roll: 004 Entangle, "cannot make any further rolls", says why it made no
    roll; "units with nothing relevant" is for units that rolled."""
    out = _play(_ENTANGLE1 + """  - melee: {army: B1, target: A1, roll: {s1: melee, p1: melee}, saves: {A1: {save: 2}},
            counter: false}
""")[-1]
    whats = [e["what"] for e in out["trace"]]
    assert "venom1 cannot roll: entangle is on it" in whats
    assert not any(w.startswith("units with nothing relevant") and "venom1" in w for w in whats)
