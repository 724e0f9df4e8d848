"""A turn ends and the next player's begins (002 The Turn Sequence; Spell Attributes > Duration).

What this step does now: the expiry of spells at the end of the current turn
and at the beginning of the next one (or, after the set-up, the first turn's
beginning), a fresh record of marches for the player
whose turn begins (engine.marches), then the Initial Effects phase
(engine.actions.initial), or, under tsr-1996, which has none, the City and
Temple that act "at the beginning of your turn" (engine.actions.initial).
"""

from __future__ import annotations

from .. import multiplayer
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
    multiplayer.refuse_turn(state, ruleset, player)
    _in_order(state, ending, player, ruleset)
    out.trace.append(TraceEvent(what=f"{ending}'s turn ends", rule=ruleset.quote("turn-ends", "durational effects "
                                "from the previous turn that expire at the end of your next turn immediately expire"),
                                cite=ruleset.cite("turn-ends")))
    state = turn_ends(state, ending, ruleset, out)
    state = multiplayer.skip_eliminated(state, ending, player, ruleset, out)
    out.trace.append(TraceEvent(what=f"{player}'s turn begins", rule=ruleset.quote("turn-begins", "before the Initial "
                                "Effects phase, the spells you cast that expire at the beginning of your next turn "
                                "immediately expire"), cite=ruleset.cite("turn-begins")))
    return turn_begins(next_turn(state).evolve(turn_player=player), player, ruleset, out)


def _in_order(state: GameState, ending: str, player: str, ruleset: Ruleset) -> None:
    """The turn passes to the next player in the order of ``players`` (the order of play), skipping only those
    eliminated (003): 001 Turns, "Each player completes all phases of the turn sequence and then the next player
    becomes the marching player"; 000 Determine Order of Play, "the one with the second highest total becomes the
    second player, and so on"; 002 Step 4, "The remaining players will take their turn in decreasing order"."""
    order = state.players
    if state.marches is None or ending not in order or player not in order:
        return      # checked where the scenario follows the turn's phases (a turn: {phase: ...}); else steps stand alone
    at = order.index(ending)
    after = [order[(at + i) % len(order)] for i in range(1, len(order))]
    due = next((p for p in after[:after.index(player)] if not multiplayer.eliminated(state, ruleset, p)), None)
    if due is not None:
        rule = ruleset.quote("turn-order", "the remaining players will take their turn in decreasing order")
        raise StepError(f"after {ending}'s turn comes {due}'s, not {player}'s: {rule} (the scenario's players are "
                        f"in the order of play: {', '.join(order)})",
                        cite=ruleset.cites.get("turn-order", ruleset.cite("turn-sequence")), field="player")


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
