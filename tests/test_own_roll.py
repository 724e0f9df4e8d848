"""A unit's own roll (engine.actions.own_roll): its SAIs' specials, where a scenario cannot reach the case, and the
refusals (002 SAI General Information, Application: "SAIs have their same effect whether the unit containing the
SAI is rolled individually or as part of an army"; "no SAI works in the DUA")."""

from __future__ import annotations

import pytest

from ddref.scenario.run import load_ruleset, parse, replay
from ddref.scenario.source import UserError
from engine.actions.own_roll import unit_roll
from engine.roll import Face, Roll
from engine.sais import SaiUse, unit_use
from engine.state import Army, GameState, Terrain, Unit
from engine.steps import SaiChoices, StepResult
from engine.trace import StepError

RULES = load_ruleset("sfr-2012")
GOLD, SILVER = "sfr-tsr-logo-gold-medallion", "sfr-tsr-logo-silver-medallion"


def _state() -> GameState:
    medal = Unit(id="medal", race=None, health=4, name="Gold Medallion", item=True, sai_points=4)
    goblins = Army(id="goblins", player="bob", at="plain", units=(Unit(id="w1", race="goblin", health=2), medal))
    plain = Terrain(id="plain", type="flatland", colors=("gold", "blue"), face=3)
    state = GameState(edition="sfr-2012", players=("alice", "bob"), turn_player="alice", terrains=(plain,),
                      armies=(goblins,))
    return state.add_to("dua", "bob", (Unit(id="g2", race="goblin", health=2),))


@pytest.mark.parametrize("icon", [GOLD, SILVER])
def test_a_medallion_never_rolls_by_itself(icon):
    """The Gold and Silver Medallions cannot make a roll of their own: "Magic items are not units" (no
    individual-targeting effect on units reaches them) and "A magical item can be rolled only if a unit capable
    of carrying that item is rolled" (002 Magical Items): refused with that rule."""
    state, out = _state(), StepResult(kind="magic")
    dice = Roll(units=(("medal", (Face(icon),)),))
    with pytest.raises(StepError, match="a magical item is rolled only if a unit capable of carrying"):
        unit_roll(state, RULES, state.army("goblins"), "medal", "avoid-save", ("save",), dice, out,
                  SaiChoices(targets=((icon, (("g2", None),)),)))


def test_a_dead_units_special_is_refused_when_chosen_and_traced_otherwise():
    """002 Avoidance Rolls: "no special SAI results (unless the SAI description states otherwise) works in the
    DUA": Regenerate chosen in a burial roll is refused; Vanish's saves count there, its move does not."""
    state, out = _state(), StepResult(kind="melee")
    dead = Army(id="g2", player="bob", at="plain", units=(state.area("dua", "bob").units[0],))
    regenerate = Roll(units=(("g2", (Face("regenerate"),)),))
    with pytest.raises(StepError, match="no special SAI result works"):
        unit_roll(state, RULES, dead, "g2", "avoid-save", ("save",), regenerate, out,
                  SaiChoices(targets=(("regenerate", (("w1", None),)),)))
    vanish = Roll(units=(("g2", (Face("vanish"),)),))
    after, rolled = unit_roll(state, RULES, dead, "g2", "avoid-save", ("save",), vanish, out)
    assert rolled.results["save"] == 1 and after == state
    assert "no effect in the DUA" in out.trace[-1].what


def test_combination_rolls_by_a_unit_give_cloak_any_result_and_keep_vanish_s_move():
    """Cloak: "During a roll against an individual-targeting effect, Cloak generates magic, maneuver, melee,
    missile or save results" -- in any roll a unit makes by itself, a killed unit's "save or maneuver" too; Vanish
    there: its save part's use (002 Avoidance Rolls: "just at least one")."""
    kind = "combination:save,maneuver"
    assert "maneuver" in unit_use("cloak", kind, True, {}).gives
    assert unit_use("cloak", "avoid-maneuver", True, {}).gives == ("magic", "maneuver", "melee", "missile", "save")
    assert unit_use("cloak", "avoid-maneuver", False, {}) == SaiUse(("magic",))
    assert unit_use("vanish", kind, True, {}) == SaiUse(("save",), special="move")
    assert unit_use("regenerate", kind, True, {}) == SaiUse(("save",))
    # Net: "When saving against an individual targeting effect, generates four saves" -- the roll's save part
    assert unit_use("net", kind, True, {}) == SaiUse(("save",)) and unit_use("net", kind, False, {}) is None


def test_tsr_1996_ferry_in_a_units_own_roll():
    """tsr-1996 Ferry A: "effective during any action--including melee, magic, missiles, and saves": the monster's
    own save against a spell aimed at it fetches too (engine.actions.own_roll), in every kind it fetches in; its
    units join the army unrolled, traced in 004's words (scenarios/tsr1996-faq-monster-sais-other-rolls.yaml)."""
    tsr = load_ruleset("tsr-1996")
    kinds = [k for k, u in tsr.sai_uses["ferry"].items() if u.special == "fetch"]
    assert kinds and all(unit_use("ferry", k, True, {}, tsr.sai_uses) == SaiUse(special="fetch") for k in kinds)
    assert tsr.sai_words["ferry:own-roll"][1] == "tsr-1996:faq.monster-special-action-icons.ferry"


_JOINED = """
ddref: 1
title: t
edition: sfr-2012
players: [alice, bob]
turn: {player: alice}
terrains: {plain: {type: flatland, face: 3, frontier: true}, hill: {type: highland, face: 3, home_of: bob}}
armies:
  elves: {player: alice, at: plain, units: [{race: coral-elf, health: 2, count: 6}]}
  goblins: {player: bob, at: plain, units: [{id: troll, race: goblin, health: 4}, {id: w1, race: goblin, health: 2}]}
dua: {bob: [{id: g2, race: goblin, health: 2}]}
steps:
  - magic: {army: elves, roll: {magic: 2}, colors: {blue: 2}, cast: [{spell: hailstorm, target: goblins}],
            avoidance: {goblins: {troll: regenerate}},
            save_sais: {goblins: {targets: {regenerate: [g2]}, move_to: {vanish: hill}, unit_saves: {g2: vanish}}}}
"""


def test_a_unit_brought_back_during_an_army_roll_uses_its_specials():
    """A unit joining its army during the army's roll rolls with it (002 Resolution), and its SAIs act as in the
    army's roll (002 Application): g2's Vanish gives its save, which stays in the total ("unless explicitly stated
    otherwise (e.g. Vanish)"), and g2 moves to the hill."""
    replayed = replay(parse(_JOINED, "t.yaml"))
    out = replayed["steps"][0]
    assert out["moved"] == ["g2", "g2"]     # back from the DUA, then away by Vanish
    assert out["damage"]["goblins"] == 0 and out["killed"] == []
    assert replayed["state"]["armies"]["bob-hill"]["units"] == ["g2"]


def test_save_sais_names_an_army_or_a_unit():
    """A unit's own choices are keyed by the unit; an unknown name is an error with a did-you-mean."""
    bad = _JOINED.replace("save_sais: {goblins: {targets: {regenerate: [g2]}, move_to: {vanish: hill}, "
                          "unit_saves: {g2: vanish}}}", "save_sais: {trol: {move_to: {vanish: hill}}}")
    with pytest.raises(UserError, match="unknown army or unit 'trol'.*did you mean: troll"):
        replay(parse(bad, "t.yaml"))


_BREATH = """
ddref: 1
title: t
edition: sfr-2012
players: [me, them]
turn: {player: me}
terrains: {shore: {type: coastland, face: 5, home_of: me}}
armies:
  elves: {player: me, at: shore, units: [{id: rare, race: coral-elf, health: 3}, {id: uncommon, race: coral-elf,
          health: 2}, {race: coral-elf, health: 1, count: 8}]}
dragons: [{id: g1, color: green, owner: them, at: shore, form: drake}]
steps:
  - dragon_attack: {army: elves, dragons: {g1: [breath]}, breath_targets: {green: [rare, uncommon]},
                    breath_saves: {rare: vanish, uncommon: save}, roll: {save: 2}}
"""


def test_a_breath_save_is_the_units_own_roll():
    """A breath's "must save individually or be killed" roll (engine.actions.breath) is the unit's own roll: Vanish
    gives its save there, and without move_to nobody moves (a "may", defaulted)."""
    out = replay(parse(_BREATH, "t.yaml"))["steps"][0]
    assert out["killed"] == [] and out["moved"] == [] and out["results"]["rare"]["save"] == 1
    assert any(e.get("defaulted") and e["what"] == "vanish: nobody moves" for e in out["trace"])


def test_breath_sais_for_a_unit_that_made_no_breath_save_is_refused():
    """The choices of a unit's breath save are used by that save; a unit the breath did not call on is an error."""
    bad = _BREATH.replace("roll: {save: 2}}", "roll: {save: 2}, breath_sais: {elves.3: {move_to: {vanish: reserve}}}}")
    with pytest.raises(UserError, match="breath_sais given for elves.3, which no breath called on to roll"):
        replay(parse(bad, "t.yaml"))
