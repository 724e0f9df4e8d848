"""002 Multiplicity: "multiple castings of another instance of this spell at the same target during separate magic
actions will have no added effect ... except to possibly increase the duration of the spell" -- for every spell
whose castings "target multiple ..." (a modifier that does not stack), a second instance at the same target, from
another magic action or another player, changes no roll (engine.modifiers.active_modifiers)."""

from __future__ import annotations

import pytest

from ddref.scenario.run import load_ruleset, parse
from engine.modifiers import active_modifiers
from engine.rolled import RollContext

RULES = load_ruleset("sfr-2012")
ONCE = sorted(s for s, mods in RULES.spell_modifiers.items() if s in RULES.spell_costs
              if mods and all(m.scope in ("army", "terrain") and not m.stacks for m in mods))
STACKS = sorted(s for s, mods in RULES.spell_modifiers.items() if s in RULES.spell_costs
                if mods and all(m.scope in ("army", "terrain") and m.stacks for m in mods))


def _actives(spell: str, instances: int):
    scope = RULES.spell_modifiers[spell][0].scope
    target = "coast" if scope == "terrain" else "bobs"
    effects = [f"  - {{spell: {spell}, target: {target}, by: {by}}}" for by in ("alice", "carol")[:instances]]
    text = "\n".join([
        "ddref: 1", "title: t", "players: [alice, bob, carol]",
        "terrains:", "  coast: {type: coastland, face: 3, home_of: bob}",
        "armies:", "  bobs: {player: bob, at: coast, units: [{race: coral-elf, health: 2}]}",
        "effects:", *effects, "steps: []", ""])
    state = parse(text, "t.yaml").state
    mods = RULES.spell_modifiers[spell]
    wanted = tuple(sorted({t for m in mods for t in (("save",) if m.results == "any" else m.results)}))
    ctx = RollContext(state=state, army=state.army("bobs"), kind="save", wanted=wanted, ruleset=RULES)
    return active_modifiers(ctx, {u.id for u in state.army("bobs").units}, [])


def test_both_classes_are_found():
    assert "blizzard" in ONCE and "ash-storm" in STACKS


@pytest.mark.parametrize("spell", ONCE)
def test_a_second_instance_of_a_target_multiple_spell_adds_nothing(spell):
    assert len(_actives(spell, 2)) == len(_actives(spell, 1)) > 0


@pytest.mark.parametrize("spell", STACKS)
def test_a_second_instance_of_an_increasing_spell_adds_its_effect(spell):
    assert len(_actives(spell, 2)) == 2 * len(_actives(spell, 1)) > 0
