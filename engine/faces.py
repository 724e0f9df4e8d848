"""The one place a terrain's face changes during play, and what a change of face ends.

000 The Eighth Face: "An army loses control of a terrain if that terrain is ever moved from its eighth face"; 002
The Eighth Face: "A terrain at its eighth face immediately turns back to its seventh face ... whenever the
controlling army ... loses control" ("all advantages of the eighth face cease"). That holds however the face
changes -- a maneuver, a pursuit after routing, both armies routed in a charge, Flash Flood or another spell --
so every face change goes through ``turn_to``: control leaves with the eighth face, a Castle's declared type with
it, and the spells lasting "until the target terrain's face is changed" end (engine.expiry.face_changed).
"""

from __future__ import annotations

from .expiry import face_changed
from .ruleset import Ruleset
from .special import left_eighth
from .state import GameState
from .steps import StepResult
from .trace import TraceEvent

# 002's words; each edition its own (Ruleset.quotes "eighth-face-left")
LEFT = "all advantages of the eighth face cease"


def turn_to(state: GameState, terrain_id: str, face: int, ruleset: Ruleset, out: StepResult,
            captor: str | None = None, shows: str | None = None) -> GameState:
    """``terrain_id`` shows ``face`` now. Leaving the eighth face, its controlling army loses control (traced);
    reaching it, ``captor`` (the maneuvering army, if any) controls it. The action icon of the old face no longer
    shows (002 First March, Actions: "the face showing on that terrain dictates its action"): the new face's is
    ``shows`` where the scenario gives it, else unknown (the next action there is assumed, traced defaulted)."""
    terrain = state.terrain(terrain_id)
    if face == terrain.face:
        return state
    control = terrain.controlled_by
    if terrain.face == 8:
        terrain = left_eighth(terrain)
        out.trace.append(TraceEvent(what=f"{terrain_id} leaves its eighth face: "
                                         + (f"{control} loses control" if control else "control lost"),
                                    before=8, after=face, rule=ruleset.quote("eighth-face-left", LEFT),
                                    cite=ruleset.cite("eighth-face")))
        control = None
    if face == 8 and captor is not None:
        control = captor
    action = None if face == 8 else shows
    if terrain.action is not None and action is None and face != 8:
        out.trace.append(TraceEvent(what=f"{terrain_id} shows face {face}: the {terrain.action} icon of face "
                                         f"{terrain.face} no longer shows, and face {face}'s icon is not given",
                                    rule="a terrain's action icon is its showing face's",
                                    cite=ruleset.cite("actions"), defaulted=True))
    elif action is not None:
        out.trace.append(TraceEvent(what=f"{terrain_id} shows face {face}, its {action} icon",
                                    rule="a terrain's action icon is its showing face's",
                                    cite=ruleset.cite("actions")))
    state = state.with_terrain(terrain.evolve(face=face, controlled_by=control, action=action))
    return face_changed(state, terrain_id, ruleset, out)
