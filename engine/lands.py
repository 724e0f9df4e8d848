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


def negated_by_element_loss(state: GameState, effect, ruleset: Ruleset) -> object | None:
    """The effect (a Part Water) that negates ``effect`` while it is in play, or None.

    002 Part Water: "As long as this spell is in effect, the effects of all terrain-targeting spells that
    require the terrain to have the green (water) element are negated and the effects of all army-targeting
    spells that require the terrain to have the green (water) element are negated except for the caster's
    spells." A spell requires the element where its target rule says so (``Ruleset.spell_targets``: Black
    Rain's ``element``, Water Walking's ``army_at_element``); the mechanism holds for any spell that removes
    an element (``terrain_elements`` "remove")."""
    rule = ruleset.spell_targets.get(effect.spell)
    if rule is None or not (rule.element or rule.army_at_element):
        return None
    if rule.element:
        where, needed = effect.target, rule.element
    else:
        army = next((a for a in state.armies if a.id == effect.target), None)
        if army is None:
            return None
        where, needed = army.at, rule.army_at_element
    for other in state.effects:
        change = ruleset.terrain_elements.get(other.spell)
        if other.target != where or change != ("remove", needed):
            continue
        if rule.army_at_element and other.by == effect.by:
            continue            # army-targeting: "negated except for the caster's spells"
        return other
    return None


def terrain_types(state: GameState, terrain: Terrain, ruleset: Ruleset) -> set[str]:
    """The terrain's type and any a spell adds (002 Create Mountain: "also considered to be a highland")."""
    return {terrain.type, *(ruleset.terrain_types[e.spell] for e in state.effects_on(terrain.id)
                            if e.spell in ruleset.terrain_types)}
