"""The turn's phases, carrying magical items, and winning: the cases the bundled scenarios do not reach."""

from __future__ import annotations

import pytest

from ddref.scenario.run import load_ruleset
from engine.carrying import can_carry, pairing
from engine.marches import march
from engine.resolve import resolve
from engine.roll import Roll
from engine.state import RESERVE, Army, GameState, Marches, Terrain, Unit
from engine.steps import MagicStep, ManeuverStep, MeleeStep, MissileStep, ReservesStep
from engine.trace import StepError

RULES = load_ruleset("sfr-2012")


def unit(uid, race=None, health=1, **kw):
    return Unit(id=uid, race=race, health=health, **kw)


def item(uid, color=None, name="Trueflyer"):
    return Unit(id=uid, race=None, health=1, name=name, color=color, item=True)


def game(*armies, marches=Marches(), terrains=None):
    terrains = terrains or (Terrain(id="home", type="flatland", colors=("gold", "blue"), face=3, home_of="a"),
                            Terrain(id="front", type="coastland", colors=("blue", "green"), face=4, frontier=True))
    return GameState(edition="sfr-2012", players=("a", "b"), turn_player="a", terrains=terrains, armies=armies,
                     marches=marches)


def test_a_reserve_army_takes_magic_and_missile_in_one_march_but_not_twice_the_same():
    """002 Amazons, Reserve Attack: the magic action of the non-Amazons and the Amazons' missile action, "whatever
    action is chosen first, it must be completed before the second"; each once."""
    reserve = Army(id="r", player="a", at=RESERVE, units=(unit("a1", "amazon"), unit("d1", "dwarf")))
    state, events = march(game(reserve), MagicStep(army="r", roll=Roll()), RULES)
    assert events[0].what == "a's first march: r (the reserve army: no maneuver roll is made)"
    state, events = march(state, MissileStep(army="r", target="x", roll=Roll()), RULES)
    assert events == [] and state.marches.acted == ("magic", "missile")
    with pytest.raises(StepError, match="took the first march this turn and cannot march again"):
        march(state, MagicStep(army="r", roll=Roll()), RULES)


def test_an_army_at_a_terrain_takes_one_action_per_march():
    """002 Glossary, March: "an optional maneuver followed by an optional action for a single army"."""
    field = Army(id="f", player="a", at="home", units=(unit("d1", "dwarf"),))
    state, _ = march(game(field), MeleeStep(army="f", target="x", roll=Roll()), RULES)
    with pytest.raises(StepError, match="cannot march again"):
        march(state, ManeuverStep(army="f", direction="up"), RULES)


def test_steps_stand_alone_when_the_scenario_does_not_follow_the_turn():
    field = Army(id="f", player=game(marches=None).turn_player, at="home", units=(unit("d1", "dwarf"),))
    state = game(field, marches=None)
    assert march(state, MeleeStep(army="f", target="x", roll=Roll()), RULES) == (state, [])   # no march recorded


def test_only_the_marching_players_armies_act_even_when_steps_stand_alone():
    """002 Glossary, March: "Only an army belonging to the marching player can take a march" (issue 19 §5)."""
    state = game(marches=None)
    other = next(p for p in state.players if p != state.turn_player)
    field = Army(id="f", player=other, at="home", units=(unit("d1", "dwarf"),))
    state = game(field, marches=None)
    for step in (MeleeStep(army="f", target="x", roll=Roll()), ManeuverStep(army="f", direction="up")):
        with pytest.raises(StepError, match="only an army belonging to the marching player") as exc:
            march(state, step, RULES)
        assert exc.value.cite == RULES.cite("march-term")


@pytest.mark.parametrize("carrier, thing, ok", [
    (unit("c", "coral-elf"), item("i", "green"), True),
    (unit("c", "coral-elf"), item("i", "red"), False),
    (unit("u", "undead"), item("i", "black"), True),
    (unit("u", "undead"), item("i", "gold"), False),           # "Undead units can only carry black magical items"
    (unit("a", "amazon"), item("i", "red"), True),             # "Amazon units may carry magical items of any color"
    (unit("k", "dragonkin", color="red"), item("i", "red"), False),   # "Dragonkin cannot carry magical items"
    (unit("e", "eldarim", color="red", name="Dragonmaster"), item("i", "red"), True),
    (unit("e", "eldarim", color="red", name="Dragonmaster"), item("i", "blue"), False),
    (unit("l", "eldarim", name="Dragonlord"), item("i", "blue"), True),   # "any color (including medallions)"
    (unit("g", "goblin"), item("m", None, name="Bronze Medallion"), True),   # medallions are "colorless"
])
def test_who_carries_what(carrier, thing, ok):
    """002 Magical Items, Medallions, Dragonkin, Dragonlord, Dragonmaster."""
    assert can_carry(carrier, thing, RULES) is ok


def test_each_unit_carries_one_item_and_the_pairing_finds_the_most():
    """002 Magical Items: "Each unit can only carry one magical item"; an Amazon can carry the red item only
    the Amazon can, so the elf takes the blue one."""
    units = [unit("e", "coral-elf"), unit("a", "amazon")]
    assert pairing(units, [item("blue", "blue"), item("red", "red")], RULES) == {"blue": "e", "red": "a"}
    assert len(pairing(units[:1], [item("b1", "blue"), item("b2", "green")], RULES)) == 1


def test_units_in_the_reserve_area_keep_a_player_in_the_game():
    """002 In Play: "All dice located at any terrain or in the reserve"; the last surviving units win."""
    mine = Army(id="m", player="a", at="home", units=(unit("d1", "dwarf", 3), unit("d2", "dwarf", 3)))
    theirs = Army(id="t", player="b", at="home", units=(unit("g1", "goblin"),))
    spare = Army(id="s", player="b", at=RESERVE, units=(unit("g2", "goblin"),))
    step = MeleeStep(army="m", target="t", roll=Roll(counts=(("melee", 3),)), saves=Roll(counts=(("save", 0),)))
    state, _ = resolve(game(mine, theirs, spare, marches=None), step, RULES)
    assert state.winner is None
    state, out = resolve(game(mine, theirs, marches=None), step, RULES)
    assert state.winner == "a" and "last surviving" in out.trace[-1].rule


@pytest.mark.parametrize(("edition", "winner"), [("sfr-v4", "a"), ("tsr-1996", None)])
def test_the_last_surviving_units_win_only_where_the_edition_says_so(edition, winner):
    """001 Object of the Game: "A player also wins if they have the last surviving unit(s) in play"; 000 names only
    "The first player to capture two terrains immediately wins the game": under tsr-1996 the game goes on (a reading,
    traced with 000's section and 002's)."""
    mine = Army(id="m", player="a", at="home", units=(unit("d1", "dwarf", 3), unit("d2", "dwarf", 3)))
    theirs = Army(id="t", player="b", at="home", units=(unit("g1", "goblin"),))
    step = MeleeStep(army="m", target="t", roll=Roll(counts=(("melee", 3),)), saves=Roll(counts=(("save", 0),)))
    rules = load_ruleset(edition)
    state, out = resolve(game(mine, theirs, marches=None), step, rules)
    assert state.winner == winner and out.killed == ["g1"]
    last = out.trace[-1]
    if winner is None:
        assert last.what == ("reading: b has no units left in play, but the tsr-1996 rules name only one way to win, "
                             "capturing two terrains: the game goes on")
        assert last.cite == "tsr-1996:the-object-of-the-game"
    else:
        assert last.cite == "sfr-v4:object-of-the-game"


def test_a_reserve_movement_without_the_turn_followed_moves_the_turn_players_units():
    reserve = Army(id="r", player="a", at=RESERVE, units=(unit("d1", "dwarf"),))
    theirs = Army(id="t", player="b", at=RESERVE, units=(unit("g1", "goblin"),))
    state, _ = resolve(game(reserve, theirs, marches=None), ReservesStep(reinforce=(("d1", "front"),)), RULES)
    assert state.army("a-front").units[0].id == "d1"
    with pytest.raises(StepError, match="not one of a's units in the reserve area.*those are: none"):
        resolve(state, ReservesStep(reinforce=(("g1", "front"),)), RULES)


def test_a_special_terrain_is_a_frontier_and_a_castle_at_8_says_what_it_was_declared():
    """002 Special Terrains: "special terrains can only be placed at the frontier"; Castle: "It stays that type as
    long as it stays at 8"."""
    from ddref.scenario.run import parse
    from ddref.scenario.source import ScenarioErrors

    text = ("ddref: 1\ntitle: t\nplayers: [a, b]\nterrains:\n"
            "  c: {type: coastland, special: castle, face: 8, controlled_by: x, home_of: b}\n"
            "armies:\n  x: {player: a, at: c, units: [{race: dwarf, health: 1}]}\n")
    with pytest.raises(ScenarioErrors) as caught:
        parse(text, "s.yaml")
    messages = " ".join(str(e) for e in caught.value.errors)
    assert "give eighth" in messages
    # where the special terrain is placed is the game's legality, refused when the first step resolves
    # (engine.special.check_placed), so a scenario step's expect_error can pin it
    from engine.special import check_placed
    from engine.state import Terrain
    keep = Terrain(id="c", type="coastland", colors=("blue", "green"), face=3, special="castle")
    for terrains, words in (((keep,), "can only be placed at the frontier"),
                            ((keep.evolve(frontier=True, home_of="b"),), "can never be home terrains"),
                            ((keep.evolve(frontier=True), keep.evolve(id="d", frontier=True)), "only one special")):
        with pytest.raises(StepError, match=words):
            check_placed(terrains, RULES, game=True)


def test_an_item_rolls_only_with_a_unit_that_can_carry_it():
    """002 Magical Items: "A magical item can be rolled only if a unit capable of carrying that item is rolled"."""
    from engine.carrying import check_rolled

    elves = Army(id="e", player="a", at="home", units=(unit("e1", "coral-elf"), item("bow", "red"),
                                                        item("ring", "blue")))
    check_rolled(elves, ["ring"], RULES)
    with pytest.raises(StepError, match="bow rolled, but a magical item is rolled only if a unit capable"):
        check_rolled(elves, ["bow", "ring"], RULES)


def test_the_phases_before_the_marches_are_refused_once_a_march_is_taken():
    """002 The Turn Sequence: "Initial Effects, Dragon Attacks, a First March, a Second March, and a Reserve
    Movement", in this order (engine.marches.before_marches, for the Dragon Attack and Initial Effects steps)."""
    from engine.marches import before_marches

    before_marches(game(), "Dragon Attack", RULES)
    with pytest.raises(StepError, match="the Dragon Attack phase comes before a's marches, and f took place"):
        before_marches(game(marches=Marches(marched=("f",))), "Dragon Attack", RULES)


def test_the_kings_die_never_leaves_the_reserves_and_holds_any_item():
    """002 Kings' Die: "The Kings' Die can never leave the reserves"; "can hold a magical item of any color
    (including medallions) until another unit carries it to a terrain"."""
    king = Unit(id="k", race=None, health=4, name="Kings' Die")
    assert can_carry(king, item("i", "red"), RULES)
    reserve = Army(id="r", player="a", at=RESERVE, units=(king, unit("d1", "dwarf")))
    with pytest.raises(StepError, match="the Kings' Die can never leave the reserves"):
        resolve(game(reserve, marches=None), ReservesStep(reinforce=(("k", "front"),)), RULES)


def test_nothing_of_a_turn_happens_during_the_set_up_and_the_first_turn_ends_no_turn():
    """002 Starting the Game: "the following six steps for set-up take place before the game begins"; Step 4:
    the player who rolls the most "may choose to play first" (``turn: {player, phase: setup}``)."""
    from engine.actions.turn import turn
    from engine.marches import before_marches, reserve_movement
    from engine.steps import TurnStep

    field = Army(id="f", player="a", at="home", units=(unit("d1", "dwarf"),))
    state = game(field, marches=Marches(setup=True))
    for refused in (lambda: march(state, ManeuverStep(army="f", direction="up"), RULES),
                    lambda: before_marches(state, "Dragon Attack", RULES),
                    lambda: reserve_movement(state, RULES)):
        with pytest.raises(StepError, match="the game has not begun"):
            refused()
    with pytest.raises(StepError, match="a plays first .* so the first turn is a's, not b's"):
        turn(state, TurnStep(player="b"), RULES)
    begun, out = turn(state, TurnStep(player="a"), RULES)
    assert [e.what for e in out.trace][:1] == ["the set-up is over: a's first turn begins"]
    assert not any("turn ends" in e.what for e in out.trace)
    assert begun.turn_player == "a" and begun.marches == Marches()
    assert march(begun, ManeuverStep(army="f", direction="up"), RULES)[1][0].what == "a's first march: f"


def test_a_dragon_a_named_summons_sends_may_be_named_by_a_later_dragon_attack():
    """A Summon Dragon cast naming the pool dragon (``dragon: a:gold-drake``) puts it in play as ``a-gold-drake``
    for the steps that follow (002 Summon Elemental Dragon: "immediately send ... to the target terrain"; Dragon
    Attack Phase: "when dragons are summoned to a terrain, they attack armies at that terrain")."""
    from ddref.scenario.run import parse

    text = """
ddref: 1
title: t
edition: sfr-2012
players: [a, b]
turn: {player: a}
terrains:
  hill: {type: highland, face: 3, home_of: a}
  field: {type: flatland, face: 3, frontier: true}
armies:
  mages: {player: a, at: hill, units: [{race: dwarf, health: 3, count: 3}]}
  foes: {player: b, at: field, units: [{race: goblin, health: 2, count: 3}]}
summoning_pool:
  a: [{dragon: gold-drake}]
steps:
  - magic: {army: mages, roll: {magic: 7}, colors: {gold: 7},
            cast: [{spell: summon elemental dragon, target: field, color: gold, dragon: "a:gold-drake"}]}
  - turn: {player: b}
  - dragon_attack: {army: foes, dragons: {a-gold-drake: [claws]}, roll: {save: 6}}
"""
    scenario = parse(text, "t.yaml")
    assert [d for d, _ in scenario.steps[2].step.dragons] == ["a-gold-drake"]


def test_no_march_before_the_dragons_at_an_armys_terrain_have_done_combat():
    """002 The Turn Sequence: "If dragons are present at any terrain where the marching player has an army, then
    the dragons must do combat", in the Dragon Attacks phase, which comes before the First March. A dragon the
    army's own Dragonlord has tamed does not attack it; once the attack is resolved, the march may begin."""
    from engine.marches import dragon_attacked
    from engine.state import Dragon

    field = Army(id="f", player="a", at="front", units=(unit("d1", "dwarf"), unit("dl", "eldarim", 3)))
    state = game(field).evolve(dragons=(Dragon(id="red", color="red", at="front"),))
    with pytest.raises(StepError, match=r"dragons \(red\) are at front.*a dragon_attack step for f comes first"):
        march(state, MeleeStep(army="f", target="x", roll=Roll()), RULES)
    assert march(dragon_attacked(state, "f"), MeleeStep(army="f", target="x", roll=Roll()), RULES)[1]
    tamed = state.evolve(dragons=(Dragon(id="red", color="red", at="front", tamed_by="dl"),))
    assert march(tamed, MeleeStep(army="f", target="x", roll=Roll()), RULES)[1]
