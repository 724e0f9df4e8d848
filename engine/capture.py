"""After every step: an abandoned eighth face turns back, and the game may be won.

002 The Eighth Face: "A terrain at its eighth face immediately turns back to its
seventh face ... whenever the controlling army: abandons the terrain, loses
control (is out-maneuvered) by an enemy army, or all of the units in the
controlling army are killed" (out-maneuvering is the maneuver's own business).
002 Object of the Game: "The first player to capture two terrains immediately
wins the game. The game can also be won if a player has the last surviving
unit(s) in play" (In Play: "All dice located at any terrain or in the reserve").
"""

from __future__ import annotations

from .expiry import face_changed
from .special import left_eighth
from .ruleset import Ruleset
from .state import GameState
from .steps import StepResult
from .trace import StepError, TraceEvent, reading


def check_over(state: GameState, ruleset: Ruleset) -> None:
    """No step follows the end of the game."""
    if state.winner is not None:
        raise StepError(f"the game is over: {state.winner} has won", cite=ruleset.cite("winning"))


def abandoned(state: GameState, ruleset: Ruleset, out: StepResult) -> GameState:
    """Eighth faces whose controlling army has no unit left there turn back to the seventh face."""
    for t in state.terrains:
        if t.face != 8 or t.controlled_by is None or not state.has_army(t.controlled_by):
            continue
        holder = state.army(t.controlled_by)
        if holder.at == t.id and any(not u.item for u in holder.units):
            continue
        state = state.with_terrain(left_eighth(t).evolve(face=7, controlled_by=None))
        out.trace.append(TraceEvent(what=f"{t.id}: {holder.id} has no units left there: the terrain turns back to "
                                         "its seventh face", before=8, after=7, rule="a terrain at its eighth face "
                                    "turns back to its seventh face whenever the controlling army abandons the "
                                    "terrain or all of its units are killed", cite=ruleset.cite("eighth-face")))
        state = face_changed(state, t.id, ruleset, out)
    return state


def winner(before: GameState, state: GameState, ruleset: Ruleset, out: StepResult) -> GameState:
    """Set ``state.winner`` when a player holds two captured terrains, or has the last surviving units."""
    if state.winner is not None:
        return state
    if state.terrains != before.terrains:      # a capture happens only when a terrain changes
        owners = {a.id: a.player for a in state.armies}
        held: dict[str, list[str]] = {}
        for t in state.terrains:
            if t.face == 8 and t.controlled_by in owners:
                held.setdefault(owners[t.controlled_by], []).append(t.id)
        for player, ids in held.items():
            if len(ids) >= 2:
                out.trace.append(TraceEvent(what=f"{player} has captured two terrains ({', '.join(ids)}) and wins "
                                                 "the game", after=len(ids), rule="the first player to capture two "
                                            "terrains immediately wins the game", cite=ruleset.cite("winning")))
                return state.evolve(winner=player)
    if not (out.killed or out.buried):           # units leave play only when killed or buried
        return state
    was, now = before.units_in_play(), state.units_in_play()
    alive = [p for p, n in now.items() if n]
    fallen = [p for p, n in now.items() if not n and was.get(p)]
    if len(alive) == 1 and fallen and "last-units-win" not in ruleset.cites:
        # reading, traced: 000 names the capture of two terrains as the only win; 002's "The game can also be won if
        # a player has the last surviving unit(s) in play" is not its rule
        out.trace.append(reading(f"{', '.join(fallen)} has no units left in play, but the {ruleset.edition} rules name "
                                 "only one way to win, capturing two terrains: the game goes on",
                                 ruleset.cite("winning"), "sfr-2012:object-of-the-game"))
        return state
    if len(alive) == 1 and fallen:
        out.trace.append(TraceEvent(what=f"{', '.join(fallen)} has no units left in play: {alive[0]} has the last "
                                         "surviving units and wins the game", after=now[alive[0]],
                                    rule=ruleset.quote("last-units-win", "the game can also be won if a player has "
                                                       "the last surviving unit(s) in play (at a terrain or in the "
                                                       "reserve area; magical items are not units)"),
                                    cite=ruleset.cite("last-units-win")))
        return state.evolve(winner=alive[0])
    return state
