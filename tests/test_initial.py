"""The Initial Effects phase (engine.actions.initial) where a scenario cannot reach it: the Grove is a special
terrain, which the scenario loader does not take yet."""

from __future__ import annotations

from ddref.scenario.run import load_ruleset
from engine.actions.initial import initial_effects
from engine.state import Area, Army, GameState, Terrain, Unit
from engine.steps import InitialEffects, StepResult

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
