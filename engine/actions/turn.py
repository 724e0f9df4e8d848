"""A turn ends and the next player's begins (002 The Turn Sequence; Spell Attributes > Duration).

What this step does now: the expiry of spells at the end of the current turn
and at the beginning of the next one, a fresh record of marches for the player
whose turn begins (engine.marches), then the Initial Effects phase
(engine.actions.initial).
"""

from __future__ import annotations

from ..expiry import turn_begins, turn_ends
from ..marches import next_turn
from ..ruleset import Ruleset
from ..state import GameState
from ..steps import StepResult, TurnStep
from ..trace import StepError, TraceEvent
from .common import terrains
from .initial import initial_effects


def turn(state: GameState, step: TurnStep, ruleset: Ruleset) -> tuple[GameState, StepResult]:
    out = StepResult(kind="turn")
    cite = ruleset.cite("turn-sequence")
    ending, player = state.turn_player, step.player
    if player == ending:
        raise StepError(f"it is {player}'s turn already: name the player whose turn begins", cite=cite,
                        field="player")
    out.trace.append(TraceEvent(what=f"{ending}'s turn ends", rule="durational effects from the previous turn "
                                "that expire at the end of your next turn immediately expire",
                                cite=ruleset.cite("turn-ends")))
    state = turn_ends(state, ending, ruleset, out)
    out.trace.append(TraceEvent(what=f"{player}'s turn begins", rule="before the Initial Effects phase, the spells "
                                "you cast that expire at the beginning of your next turn immediately expire",
                                cite=ruleset.cite("turn-begins")))
    state = turn_begins(next_turn(state).evolve(turn_player=player), player, ruleset, out)
    if ruleset.initial_effects:
        state = initial_effects(state, player, step.initial, ruleset, out)
    else:
        out.trace.append(TraceEvent(what=f"what {player}'s turn begins with is not replayed by this version",
                                    rule="at the beginning of the turn, dragons attack and the City and Temple act; "
                                         "give what they changed as later steps", cite=ruleset.cite("initial-effects"),
                                    defaulted=True))
    terrains(state, out)
    return state, out
