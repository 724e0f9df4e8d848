"""A turn ends and the next player's begins (002 The Turn Sequence; Spell Attributes > Duration).

What this step does now: the expiry of spells at the end of the current turn
and at the beginning of the next one (or, after the set-up, the first turn's
beginning), a fresh record of marches for the player
whose turn begins (engine.marches), then the Initial Effects phase
(engine.actions.initial), or, under tsr-1996, which has none, the City and
Temple that act "at the beginning of your turn" (engine.actions.initial).
"""

from __future__ import annotations

from ..expiry import turn_begins, turn_ends
from ..marches import next_turn, setup_cite
from ..ruleset import Ruleset
from ..state import GameState
from ..steps import StepResult, TurnStep
from ..trace import StepError, TraceEvent
from .common import terrains
from .initial import beginning_of_turn, initial_effects


def turn(state: GameState, step: TurnStep, ruleset: Ruleset) -> tuple[GameState, StepResult]:
    out = StepResult(kind="turn")
    player = step.player
    if state.marches is not None and state.marches.setup:
        state = _first_turn(state, player, ruleset, out)
    else:
        state = _next_turn(state, player, ruleset, out)
    if ruleset.initial_effects:
        state = initial_effects(state, player, step.initial, ruleset, out)
    else:
        state = beginning_of_turn(state, player, step.initial, ruleset, out)
    terrains(state, out)
    return state, out


def _next_turn(state: GameState, player: str, ruleset: Ruleset, out: StepResult) -> GameState:
    """The current turn ends, then ``player``'s begins, each with its expiry of spells."""
    ending = state.turn_player
    if player == ending:
        raise StepError(f"it is {player}'s turn already: name the player whose turn begins",
                        cite=ruleset.cite("turn-sequence"), field="player")
    out.trace.append(TraceEvent(what=f"{ending}'s turn ends", rule=ruleset.quote("turn-ends", "durational effects "
                                "from the previous turn that expire at the end of your next turn immediately expire"),
                                cite=ruleset.cite("turn-ends")))
    state = turn_ends(state, ending, ruleset, out)
    out.trace.append(TraceEvent(what=f"{player}'s turn begins", rule=ruleset.quote("turn-begins", "before the Initial "
                                "Effects phase, the spells you cast that expire at the beginning of your next turn "
                                "immediately expire"), cite=ruleset.cite("turn-begins")))
    return turn_begins(next_turn(state).evolve(turn_player=player), player, ruleset, out)


def _first_turn(state: GameState, player: str, ruleset: Ruleset, out: StepResult) -> GameState:
    """The set-up is over and the first player's first turn begins (``turn: {phase: setup}``): no turn ends, so
    nothing expires. 002 Starting the Game: "the following six steps for set-up take place before the game
    begins"; Step 4: the player who rolls the most "may choose to play first"."""
    first = state.turn_player
    cite = setup_cite(ruleset)
    if player != first:
        raise StepError(f"{first} plays first (the scenario's turn: {{player: {first}, phase: setup}}), so the "
                        f"first turn is {first}'s, not {player}'s", cite=cite, field="player")
    out.trace.append(TraceEvent(what=f"the set-up is over: {first}'s first turn begins", rule="the following six "
                                "steps for set-up take place before the game begins", cite=cite))
    return turn_begins(next_turn(state), first, ruleset, out)
