"""A terrain as spells change it: its elements (Deadlands, Call Water, Part Water) and its types (Create
Mountain)."""

from __future__ import annotations

from .ruleset import Ruleset
from .state import Army, GameState, Terrain


def elements(state: GameState, terrain: Terrain | None, who: Army, ruleset: Ruleset) -> set[str]:
    """The terrain's colors, with those spells give or take (Deadlands, Call Water, Part Water)."""
    if terrain is None:
        return set()
    colors = set(terrain.colors)
    for effect in state.effects:
        change = ruleset.terrain_elements.get(effect.spell)
        if effect.target != terrain.id or change is None:
            continue
        op, color = change
        if op == "add":
            colors.add(color)
        elif effect.by != who.player:        # Part Water: "for all but the caster's components"
            colors.discard(color)
    return colors


def terrain_types(state: GameState, terrain: Terrain, ruleset: Ruleset) -> set[str]:
    """The terrain's type and any a spell adds (002 Create Mountain: "also considered to be a highland")."""
    return {terrain.type, *(ruleset.terrain_types[e.spell] for e in state.effects_on(terrain.id)
                            if e.spell in ruleset.terrain_types)}
