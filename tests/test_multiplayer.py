"""003 Multiplayer Games: an eliminated player's spells and turn, the cases the bundled scenarios do not reach."""

from __future__ import annotations

from pathlib import Path

import pytest

from ddref.scenario.run import load, load_ruleset, replay
from engine.resolve import resolve
from engine.state import RESERVE, Army, Effect, GameState, Terrain, Unit
from engine.steps import TurnStep
from engine.trace import StepError

V4 = load_ruleset("sfr-v4")
FRONT = Terrain(id="front", type="flatland", colors=("gold", "green"), face=4, frontier=True)


def army(aid, player, *units, at="front"):
    return Army(id=aid, player=player, at=at, units=tuple(Unit(id=u, race="dwarf", health=1) for u in units))


def game(*armies, players=("ann", "ben", "cal"), turn="ben", edition="sfr-v4"):
    return GameState(edition=edition, players=players, turn_player=turn, terrains=(FRONT,), armies=armies,
                     effects=(Effect(spell="ash-storm", target="front", by="cal"),))


def test_an_eliminated_players_turn_cannot_begin_and_the_refusal_names_who_still_plays():
    """003: "Simply skip their turn from then on"."""
    state = game(army("a", "ann", "a1"), army("b", "ben", "b1"), army("c", "cal"))
    with pytest.raises(StepError, match=r"cal is eliminated .*still in the game are ann, ben"):
        resolve(state, TurnStep(player="cal"), V4)


def test_units_in_the_reserve_area_keep_a_player_in_the_game():
    """002 Duration: eliminated means "no units are remaining at terrains or in the reserve area"."""
    state = game(army("a", "ann", "a1"), army("b", "ben", "b1"), army("c", "cal", "c1", at=RESERVE))
    after, _ = resolve(state, TurnStep(player="ann"), V4)
    assert [e.spell for e in after.effects] == ["ash-storm"]
    after, _ = resolve(state, TurnStep(player="cal"), V4)
    assert after.turn_player == "cal"


def test_spells_expire_only_when_the_turn_passes_the_eliminated_players_seat():
    """003: the spells "expire when they would otherwise take their next turn": not when the turn passes from
    ann to ben (cal sits after ben), but when it passes from ben to ann."""
    state = game(army("a", "ann", "a1"), army("b", "ben", "b1"), army("c", "cal"), turn="ann")
    after, _ = resolve(state, TurnStep(player="ben"), V4)
    assert [e.spell for e in after.effects] == ["ash-storm"]
    after, out = resolve(after, TurnStep(player="ann"), V4)
    assert after.effects == ()
    assert "cal's turn is skipped" in [e.what for e in out.trace]


def test_two_player_games_keep_the_usual_turn():
    """003's rule is for games of more than two players (in every edition: tests/test_defects_b.py)."""
    two = game(army("a", "ann", "a1"), army("c", "cal"), players=("ann", "cal"), turn="ann")
    after, _ = resolve(two, TurnStep(player="cal"), V4)
    assert after.turn_player == "cal"


def test_an_opposing_spell_on_a_second_opponent_says_which_rule_allows_it():
    """003: "Any effect that targets an 'opposing' unit or army may target the unit or army of any opponent":
    Ann's Hailstorm ("Target any opposing army", 001) on Cal's army, in a game where Ben is the other opponent."""
    path = Path(__file__).resolve().parents[1] / "scenarios" / "sfrv4-multiplayer-hordes-targets-counter-maneuvers.yaml"
    magic = [s for s in replay(load(path))["steps"] if s["kind"] == "magic"][0]
    notes = [e for e in magic["trace"] if "one of ann's 2 opponents" in e["what"]]
    assert [(e["what"], e["cite"]) for e in notes] == [
        ("Hailstorm targets cal-front (cal's), one of ann's 2 opponents", "sfr-v4:multiplayer.multiplayer-games")]
