"""002: "Target one of your units not already under the effects of a[n] Burning Hands (Earthen Armor, Flaming Armor,
Flaming Spears) spell" -- every unit spell whose target rule says ``alone`` refuses a unit already under it, and
takes one that is not (engine.actions.targets)."""

from __future__ import annotations

import json

import pytest

from ddref.scenario.run import load_ruleset

RULES = load_ruleset("sfr-2012")
ALONE_ON_UNITS = sorted(s for s, r in RULES.spell_targets.items() if r.alone and s not in ("mire", "wall-of-thorns"))
# the unit of the casting army whose race may pay each racial spell (002 Spell Attributes > Racial Limitation)
PAYER = {"earthen-armor": "dw", "flaming-armor": "lv", "flaming-spears": "am", "burning-hands": "lv"}


def _scenario(spell: str, already: bool) -> str:
    color, cost = RULES.spell_costs[spell]
    roll = f"{PAYER[spell]}: magic {cost}"
    effects = f"effects:\n  - {{spell: {spell}, target: dw, by: a}}\n" if already else ""
    return (
        "ddref: 1\ntitle: t\nplayers: [a, b]\n"
        "terrains:\n  hill: {type: highland, face: 3, action: magic, home_of: a}\n"
        "  bay: {type: coastland, face: 3, home_of: b}\n"
        "armies:\n  mine: {player: a, at: hill, units: [{id: dw, race: dwarf, health: 3}, {id: lv, race: lava-elf, "
        "health: 3}, {id: am, race: amazon, health: 3}, {id: x, race: dwarf, health: 3}]}\n"
        "  them: {player: b, at: bay, units: [{race: goblin, health: 1}]}\n" + effects +
        f"steps:\n  - magic: {{army: mine, roll: {{{roll}}}, colors: {{{color}: {cost}}}, "
        f"cast: [{{spell: {spell}, target: dw}}]}}\n")


def test_the_class_is_the_four_spells():
    assert ALONE_ON_UNITS == ["burning-hands", "earthen-armor", "flaming-armor", "flaming-spears"]


@pytest.mark.parametrize("spell", ALONE_ON_UNITS)
def test_a_unit_already_under_the_spell_is_refused(run, tmp_path, spell):
    path = tmp_path / "s.yaml"
    path.write_text(_scenario(spell, already=True), encoding="utf-8")
    result = run("resolve", str(path), "--json")
    assert result.exit_code == 2
    assert "not already under the effects of" in result.stdout + result.stderr
    path.write_text(_scenario(spell, already=False), encoding="utf-8")
    result = run("resolve", str(path), "--json")
    assert result.exit_code == 0, result.stdout + result.stderr
    assert json.loads(result.stdout)["state"]["effects"][0]["target"] == "dw"
