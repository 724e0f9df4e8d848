"""Special terrains: frontier-only terrains whose eighth face is their own (002 Special Terrains).

002: "There are four special terrains: Castle, Dragon's Lair, Grove, and Vortex".
Castle: "When you turn the terrain up to 8, you declare the terrain to be one of
the four basic types (City, Standing Stones, Temple, or Tower). It stays that type
as long as it stays at 8". Grove: "No army can double magic at this terrain by any
means (including when it's not at an eighth face)". Vortex: in ``engine.roll``.
Dragon's Lair and the Grove's burial are Initial Effects (not here).
"""

from __future__ import annotations

from .names import typed
from .ruleset import Ruleset
from .state import Terrain
from .steps import StepResult
from .trace import StepError, TraceEvent

CASTLE_TYPES = ("city", "standing-stones", "temple", "tower")


def captured(terrain: Terrain, declared: str | None, ruleset: Ruleset, out: StepResult) -> Terrain:
    """A Castle turned up to 8 becomes the basic type its captor declares (default: City, marked)."""
    if terrain.special != "castle":
        # an edition without Castles (tsr-1996) has no such citation: look it up only where a Castle is in play
        if declared is not None:
            raise StepError(f"{terrain.id} is not a Castle: only a Castle's captor declares its type",
                            cite=ruleset.cite("castle"), field="castle")
        return terrain
    cite = ruleset.cite("castle")
    if declared is not None and declared not in CASTLE_TYPES:
        raise StepError(f"a Castle is declared one of: {', '.join(CASTLE_TYPES)}; not {typed(declared)}", cite=cite,
                        field="castle")
    out.trace.append(TraceEvent(what=f"{terrain.id} (a Castle) is declared a {declared or 'city'}",
                                after=declared or "city", rule="when you turn the terrain up to 8, you declare it "
                                "one of the four basic types" + ("" if declared else "; none given, so City"),
                                cite=cite, defaulted=declared is None))
    return terrain.evolve(eighth=declared or "city")


def left_eighth(terrain: Terrain) -> Terrain:
    """A Castle's declared type lasts "as long as it stays at 8"."""
    return terrain.evolve(eighth=None) if terrain.special == "castle" else terrain


def no_doubling(terrain: Terrain | None) -> bool:
    """Nothing doubles magic at a Grove."""
    return terrain is not None and terrain.special == "grove"


def check_placed(terrains: tuple[Terrain, ...], ruleset: Ruleset, game: bool = False) -> None:
    """002 Special Terrains: "special terrains can only be placed at the frontier. They can never be home terrains.
    So there will only be one special terrain playable in a game": a special terrain that is a home or not a
    frontier is refused when the scenario's first step resolves (where expect_error can pin it), naming the
    terrain; ``game``: the set-up of a whole game (engine.setup), where one special terrain at most is playable (a
    scenario starting mid-game may set several frontier terrains side by side, as a way to replay each)."""
    special = [t for t in terrains if t.special]
    if not special:
        return
    cite = ruleset.cite("special-terrains")
    for t in special:
        if t.home_of:
            raise StepError(f"{t.id} is a special terrain ({t.special}): special terrains can never be home terrains "
                            f"(it is {t.home_of}'s home)", cite=cite, field="terrains")
        if not t.frontier:
            raise StepError(f"{t.id} is a special terrain ({t.special}): special terrains can only be placed at the "
                            "frontier (frontier: true)", cite=cite, field="terrains")
    if game and len(special) > 1:
        raise StepError(f"{', '.join(t.id for t in special)} are special terrains: only one special terrain is "
                        "playable in a game (the frontier's)", cite=cite, field="terrains")
