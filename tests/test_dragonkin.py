"""Dragonkin in the army's roll against a dragon attack (engine.dragonkin). 002 Dragonkin: "During a dragon attack, the Dragonkin of the same color as the attacking
dragon(s) are not rolled; therefore their automatic saves do not apply"; Eldarim, Resist Fear."""

from __future__ import annotations

import pytest

from ddref.scenario.run import load_ruleset
from engine.moves import flee
from engine.roll import Face, Roll, RollContext, resolve_roll
from engine.state import Army, Dragon, GameState, Terrain, Unit
from engine.steps import StepResult
from engine.trace import StepError

RULES = load_ruleset("sfr-2012")
ARMY = Army(id="a", player="p", at="t", units=(
    Unit(id="el", race="eldarim", health=1, color="red"), Unit(id="r1", race="dragonkin", health=1, color="red"),
    Unit(id="r2", race="dragonkin", health=2, color="red"), Unit(id="b3", race="dragonkin", health=3, color="blue")))


def saves(dice: Roll, dragon: str = "red", facing: tuple[str, ...] = ("d",)) -> int:
    state = GameState(edition="sfr-2012", players=("p",), turn_player="p", armies=(ARMY,),
                      terrains=(Terrain(id="t", type="flatland", colors=("gold",), face=3),),
                      dragons=(Dragon(id="d", color=dragon, at="t"),))
    ctx = RollContext(state=state, army=ARMY, kind="dragon", wanted=("save",), ruleset=RULES, facing=facing)
    return resolve_roll(ctx, dice).results["save"]


def per_unit(**faces: str) -> Roll:
    return Roll(units=tuple((uid, (Face(icon),)) for uid, icon in faces.items()))


def test_same_color_dragonkin_do_not_roll_unless_resist_fear_picks_them():
    # the red Eldarim (1 health) brings the red common in; the blue rare rolls against a red dragon
    assert saves(per_unit(el="melee", r1="melee", b3="melee")) == 1 + 3
    with pytest.raises(StepError, match="no more than 1 health of red dragonkin"):
        saves(per_unit(el="melee", r2="melee"))
    # an aggregate roll: the red common is picked, the red uncommon stays out
    assert saves(Roll(counts=(("melee", 1),))) == 1 + 3


def test_a_dragon_at_the_terrain_that_does_not_attack_the_army_bars_no_dragonkin():
    """ "the Dragonkin of the same color as the attacking dragon(s) are not rolled": a red dragon that fights
    another dragon (or is tamed) leaves the red dragonkin free to roll, with their automatic saves."""
    assert saves(per_unit(r1="melee", r2="melee", b3="melee"), facing=()) == 1 + 2 + 3


def test_no_dragonkin_rolls_against_a_white_dragon_but_those_eldarim_pick():
    assert saves(per_unit(el="melee", r1="melee"), dragon="white") == 1
    with pytest.raises(StepError, match="no more than 0 health of blue"):
        saves(per_unit(b3="melee"), dragon="white")



def test_a_dragonkin_made_to_flee_stays_at_its_terrain():
    """002 Dragonkin: "Dragonkin cannot leave the terrain where they are summoned": an effect that sends units
    to the reserve area (Mirage, Fearful Flames, an SAI) leaves a dragonkin where it is."""
    rules = RULES
    army = Army(id="a", player="me", at="t", units=(Unit(id="k", race="dragonkin", health=1, color="red"),
                                                    Unit(id="g", race="goblin", health=1)))
    state = GameState(edition="sfr-2012", players=("me",), turn_player="me",
                      terrains=(Terrain(id="t", type="flatland", colors=("gold", "blue"), face=3),), armies=(army,))
    out = StepResult(kind="magic")
    after = flee(state, "k", "Mirage", "sfr-2012:dragonkin", rules, out)
    assert after == state and out.fled == []
    assert out.trace[-1].what.startswith("reading: ") and "does not move it off its terrain" in out.trace[-1].what
    after = flee(state, "g", "Mirage", "sfr-2012:dragonkin", rules, out)
    assert out.fled == ["g"] and after.army("a").unit("g") is None
