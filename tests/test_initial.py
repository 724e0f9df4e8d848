"""The Initial Effects phase (engine.actions.initial) where a scenario cannot reach it: the Grove and the
Dragon's Lair are special terrains, which the scenario loader does not take yet."""

from __future__ import annotations

import pytest

from ddref.scenario.run import load_ruleset
from engine.actions.initial import initial_effects
from engine.state import Area, Army, GameState, Pool, Terrain, Unit
from engine.steps import Exchanges, InitialEffects, StepResult
from engine.trace import StepError

RULES = load_ruleset("sfr-2012")


def grove_game(controlled_by="a"):
    grove = Terrain(id="g", type="grove", colors=("gold", "green"), face=8, controlled_by=controlled_by)
    return GameState(edition="sfr-2012", players=("p", "q"), turn_player="p", terrains=(grove,),
                     armies=(Army(id="a", player="p", at="g", units=(Unit(id="u", race="feral", health=1),)),
                             Army(id="b", player="q", at="g", units=(Unit(id="v", race="goblin", health=1),))),
                     bua=(Area(player="q", units=(Unit(id="k", race="dragonkin", health=1),
                                                  Unit(id="z", race="goblin", health=2))),))


def test_grove_must_return_one_buried_non_dragonkin_unit():
    """002 Grove: "any one non-dragonkin unit in a BUA must be placed in the corresponding DUA" (even of an
    enemy): the buried dragonkin stays; the goblin goes to its owner's DUA, unasked (defaulted)."""
    out = StepResult(kind="turn")
    after = initial_effects(grove_game(), "p", InitialEffects(), RULES, out)
    assert [u.id for u in after.area("dua", "q").units] == ["z"]
    assert [u.id for u in after.area("bua", "q").units] == ["k"]
    assert any(e.what.startswith("Grove:") and e.defaulted for e in out.trace)


def test_grove_of_another_player_does_nothing():
    out = StepResult(kind="turn")
    after = initial_effects(grove_game("b"), "p", InitialEffects(), RULES, out)
    assert after.area("dua", "q").units == ()


def lair_game():
    lair = Terrain(id="lair", type="dragons-lair", colors=("red", "gold"), face=8, controlled_by="a")
    hill = Terrain(id="hill", type="highland", colors=("red", "gold"), face=3)
    return GameState(edition="sfr-2012", players=("p", "q"), turn_player="p", terrains=(lair, hill),
                     armies=(Army(id="a", player="p", at="lair", units=(Unit(id="u", race="feral", health=1),)),),
                     summoning_pool=(Pool(player="q", items=("dragon:red-drake",)),
                                     Pool(player="p", items=("dragon:white", "dragon:blue-wyrm", "dragon:gold-wyrm"))))


def test_dragons_lair_summons_a_dragon_of_its_colors():
    """002 Dragon's Lair: "summon any Dragon with at least one color matching either of the terrain's colors, to
    any terrain"; White Dragons: "Dragon's Lairs have no effect on white dragons"."""
    out = StepResult(kind="turn")
    after = initial_effects(lair_game(), "p", InitialEffects(dragons_lair=("q:red-drake", "hill")), RULES, out)
    assert [(d.id, d.at, d.color) for d in after.dragons] == [("q-red-drake", "hill", "red")]
    assert after.pool("q").items == ()
    out = StepResult(kind="turn")
    after = initial_effects(lair_game(), "p", InitialEffects(), RULES, out)     # the player's own pool first
    assert [(d.id, d.at) for d in after.dragons] == [("p-gold-wyrm", "lair")]
    with pytest.raises(StepError, match="those that fit: p:gold-wyrm, q:red-drake"):
        initial_effects(lair_game(), "p", InitialEffects(dragons_lair=("p:white", None)), RULES, StepResult(kind="t"))


def test_the_player_orders_the_effects_within_a_step():
    """002 Initial Effects Phase: "The effects within a step can occur in any order the acting player chooses":
    a Grove first returns the player's buried common to the DUA, and a City then recruits it; in the list's
    order (City first) the City finds no such dead unit."""
    state = grove_game()
    city = Terrain(id="c", type="flatland", colors=("gold",), face=8, eighth="city", controlled_by="a2")
    state = state.evolve(terrains=(*state.terrains, city),
                         armies=(*state.armies, Army(id="a2", player="p", at="c", units=(Unit(id="w", race="dwarf",
                                                                                                 health=1),))),
                         bua=(Area(player="p", units=(Unit(id="back", race="dwarf", health=1),)),))
    wanted = InitialEffects(city=(("a2", Exchanges(recruit=("back",))),), grove="back")
    after = initial_effects(state, "p", wanted.evolve(order=("grove", "city")), RULES, StepResult(kind="turn"))
    assert [u.id for u in after.army("a2").units] == ["w", "back"]
    with pytest.raises(StepError, match="back is not a common"):
        initial_effects(state, "p", wanted, RULES, StepResult(kind="turn"))
