"""Minor terrains with an army: bringing one in, what its face allows, when it leaves the game
(002 Minor Terrains). Rolling one is ``actions.minor``.

002: "Each time an acting army successfully maneuvers ... the army's owner may bring
a minor terrain into play instead of turning the major terrain a step. An army
that has captured an eighth face may not bring in a minor terrain. Minor terrain
must match the major terrain the army is located. An army may only have one minor
terrain in play at a time at the same major terrain. Immediately upon adding the
minor terrain to an army it is rolled"; "The result stays in effect until another
march is spent on the army"; "If the army containing a minor terrain captures the
major terrain ... or leaves the terrain (all the units in the army move or are
killed) then the minor terrain is placed out of the game".
"""

from __future__ import annotations

from .lands import terrain_types
from .pool import MINOR
from .ruleset import Ruleset
from .state import Army, GameState, MinorTerrain, Terrain
from .steps import MinorStep, Step, StepResult
from .trace import StepError, TraceEvent


def bring(state: GameState, army: Army, terrain: Terrain, kind: str, ruleset: Ruleset,
          out: StepResult) -> GameState:
    """The successful maneuver brings the pool's minor terrain of ``kind`` to the army."""
    cite = ruleset.cite("minor-terrains")
    pool = state.pool(army.player)
    item = f"{MINOR}:{kind}"
    if terrain.face == 8 and terrain.controlled_by == army.id:
        raise StepError(f"{army.id} has captured {terrain.id}'s eighth face: it may not bring in a minor terrain",
                        cite=cite, field="minor_terrain")
    if state.minor_terrain(army.id) is not None:
        raise StepError(f"{army.id} has a minor terrain in play already: only one at a time at a major terrain",
                        cite=cite, field="minor_terrain")
    if kind not in terrain_types(state, terrain, ruleset):
        raise StepError(f"a minor terrain must match the major terrain where the army is: {terrain.id} is a "
                        f"{terrain.type}, not a {kind}", cite=cite, field="minor_terrain")
    if item not in pool.items:
        held = [i.partition(":")[2] for i in pool.items if i.startswith(f"{MINOR}:")]
        raise StepError(f"{army.player}'s summoning pool holds no {kind} minor terrain (it holds: "
                        f"{', '.join(held) or 'none'})", cite=cite, field="minor_terrain")
    items = list(pool.items)
    items.remove(item)
    state = state.with_pool(pool.evolve(items=tuple(items)))
    out.trace.append(TraceEvent(what=f"{army.id} brings a {kind} minor terrain into play instead of turning "
                                     f"{terrain.id}; it must be rolled at once", rule="a successful maneuver may "
                                "bring in a minor terrain matching the major terrain instead of turning it",
                                cite=cite))
    return state.evolve(minor_terrains=(*state.minor_terrains, MinorTerrain(type=kind, army=army.id)))


def check_unrolled(state: GameState, step: Step, ruleset: Ruleset) -> None:
    """A minor terrain just brought in is rolled before anything else happens."""
    for m in state.minor_terrains:
        if m.face is None and not (isinstance(step, MinorStep) and step.army == m.army):
            raise StepError(f"{m.army}'s {m.type} minor terrain was just brought in: it is rolled immediately (a "
                            f"minor step for {m.army} comes next)", cite=ruleset.cite("minor-terrains"))


def allows(state: GameState, army: Army, action: str, ruleset: Ruleset) -> MinorTerrain | None:
    """The army's minor terrain, if its face lets the army take ``action`` whatever the terrain shows."""
    m = state.minor_terrain(army.id)
    return m if m is not None and action in ruleset.minor_actions.get(m.face or "", ()) else None


def allowed_event(m: MinorTerrain, action: str, ruleset: Ruleset) -> TraceEvent:
    return TraceEvent(what=f"{m.army}'s {m.type} minor terrain shows {m.face}: it may take a {action} action",
                      rule="the minor terrain allows the owning army this action even when the major terrain is "
                           "set on another", cite=ruleset.cite("minor-terrains"))


def out_of_game(state: GameState, ruleset: Ruleset, out: StepResult) -> GameState:
    """Minor terrains whose army captured its terrain or left it are placed out of the game."""
    kept = []
    for m in state.minor_terrains:
        army = state.army(m.army) if state.has_army(m.army) else None
        terrain = state.terrain(army.at) if army is not None and army.units and army.at in \
            {t.id for t in state.terrains} else None
        if terrain is not None and not (terrain.face == 8 and terrain.controlled_by == m.army):
            kept.append(m)
            continue
        why = "captured its major terrain" if terrain is not None else "left the terrain"
        out.trace.append(TraceEvent(what=f"{m.army} {why}: its {m.type} minor terrain is placed out of the game",
                                    rule="if the army containing a minor terrain captures the major terrain or leaves "
                                         "the terrain, the minor terrain is placed out of the game",
                                    cite=ruleset.cite("minor-terrains")))
    return state.evolve(minor_terrains=tuple(kept)) if len(kept) != len(state.minor_terrains) else state
