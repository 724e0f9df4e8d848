"""002 Part Water: "the effects of all terrain-targeting spells that require the terrain to have the green
(water) element are negated and the effects of all army-targeting spells that require the terrain to have the
green (water) element are negated except for the caster's spells" (engine.lands.negated_by_element_loss)."""

from __future__ import annotations

import pytest

from ddref.scenario.run import load_ruleset, parse
from engine.lands import negated_by_element_loss

RULES = load_ruleset("sfr-2012")
NEEDS_GREEN = sorted(s for s, r in RULES.spell_targets.items()
                     if "green" in (r.element, r.army_at_element) and RULES.spell_modifiers.get(s))


def _state(spell: str, by: str, parted: bool):
    rule = RULES.spell_targets[spell]
    target = "coast" if rule.element else "bobs"
    effects = [f"  - {{spell: {spell}, target: {target}, by: {by}}}"]
    if parted:
        effects.append("  - {spell: part-water, target: coast, by: alice}")
    text = "\n".join([
        "ddref: 1", "title: t", "players: [alice, bob]",
        "terrains:", "  coast: {type: coastland, face: 3, home_of: bob}",
        "armies:", "  bobs: {player: bob, at: coast, units: [{race: coral-elf, health: 2}]}",
        "effects:", *effects, "steps: []", ""])
    state = parse(text, "t.yaml").state
    return state, next(e for e in state.effects if e.spell == spell)


def test_the_class_is_not_empty():
    assert {"black-rain", "water-walking"} <= set(NEEDS_GREEN)


@pytest.mark.parametrize("spell", NEEDS_GREEN)
def test_a_spell_needing_water_is_negated_under_part_water(spell):
    state, effect = _state(spell, "bob", parted=True)
    assert negated_by_element_loss(state, effect, RULES) is not None
    state, effect = _state(spell, "bob", parted=False)
    assert negated_by_element_loss(state, effect, RULES) is None


@pytest.mark.parametrize("spell", NEEDS_GREEN)
def test_only_the_casters_army_spells_escape(spell):
    state, effect = _state(spell, "alice", parted=True)
    terrain_targeting = RULES.spell_targets[spell].element is not None
    assert (negated_by_element_loss(state, effect, RULES) is not None) == terrain_targeting
