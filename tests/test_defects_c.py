"""Defects of issue 20 fixed on branch defects-c: each test states the rule it pins and fails without its fix."""

from __future__ import annotations

from pathlib import Path

import pytest

from ddref.scenario.run import StepRefused, load, parse, replay

ROOT = Path(__file__).resolve().parents[1]


def _readings(path: str) -> list[list[dict]]:
    return [[e for e in step.get("trace", ()) if e["what"].startswith("reading: ")]
            for step in replay(load(ROOT / "scenarios" / path))["steps"]]


@pytest.mark.parametrize("path,step,spell,grave", [
    ("sfr2012-defects-c-open-grave-terrain-reading.yaml", 1, "wall-of-thorns", "open-grave"),
    ("sfr2012-defects-c-open-grave-terrain-reading.yaml", 3, "Firestorm", "leaving"),
    ("sfr2012-exam-old-spells-open-grave-terrain.yaml", 1, "Firestorm", "open-grave"),
    ("sfr2012-exam-old-spells-open-grave-terrain.yaml", 2, "backlash", "open-grave"),
])
def test_open_grave_against_terrain_targeting_damage_is_a_traced_reading(path, step, spell, grave):
    """002 Open Grave and Leaving act "for any army-targeting effect that causes damage to the target army"; a
    terrain-targeting effect's casualties (Firestorm, Tidal Wave, Volcanic Eruption, Backlash, Wall of Thorns) go
    to the DUA, a reading read with 002 Glossary, Terrain-Targeting Effect (The Stoneskin Rule could be read the
    other way): every such damage says so, citing both (before: applied, not traced)."""
    found = [e for e in _readings(path)[step - 1] if spell in e["what"] and grave in e["what"]]
    assert found, f"no reading traced for {spell} under {grave}"
    assert found[0]["cite"].endswith(f".{grave}")
    assert found[0]["also"] == "sfr-2012:glossary-of-dragon-dice-terms.terrain-targeting-effect"


def test_an_army_targeting_spell_under_open_grave_traces_no_terrain_reading():
    """The contrast: Hailstorm targets an army, so its casualty goes to the reserve and no reading is said."""
    steps = _readings("sfr2012-defects-c-open-grave-terrain-reading.yaml")
    assert not [e for e in steps[3] if "terrain-targeting" in e["what"]]


def test_missiles_fired_out_of_a_fogged_terrain_are_a_traced_reading():
    """002 Wall of Fog halves "missile damage into or at the target terrain", Dust Devil "into or out of": a missile
    fired out of the fog is not halved (6, not 3), said as a reading citing both spells."""
    steps = _readings("sfr2012-defects-c-wall-of-fog-out.yaml")
    fog = [e for e in steps[0] if "wall-of-fog" in e["what"]]
    assert fog and fog[0]["cite"] == "sfr-2012:green-water-spells.wall-of-fog"
    assert fog[0]["also"] == "sfr-2012:blue-air-spells.dust-devil"


CHAMPION = """\
ddref: 1
title: champion in step 1
edition: {edition}
players: [me, them]
turn: {{player: me}}
terrains:
  e1: {{type: highland, face: 3, home_of: me}}
  e2: {{type: flatland, face: 3, home_of: them}}
  e3: {{type: coastland, face: 3, frontier: true}}
armies:
  a1: {{player: me, at: e1, units: [{{id: c1, name: {name}, color: {color}}}, {{race: goblin, health: 1, count: 4}}]}}
  b1: {{player: them, at: e2, units: [{{race: goblin, health: 1, count: 4}}]}}
dragons:
  - {{id: d1, color: {dragon}, owner: them, at: e1, form: wyrm}}
steps:
  - dragon_attack: {{army: a1, eldarim: {{c1: {logo}}}{rest}}}
"""
ROLL = ", dragons: {d1: [claws]}, roll: {a1.2: save, a1.3: save, a1.4: save, a1.5: save, c1: save 2}"


@pytest.mark.parametrize("name,logo", [("Dragonmaster", "sfr-tsr-logo-dragonmaster"),
                                       ("Dragonhunter", "sfr-logo-dragonhunter")])
@pytest.mark.parametrize("color,dragon", [("blue", "red"), ("red", "white"), ("green", "ivory"), ("red", "ivory-blue")])
def test_a_one_color_champion_matching_no_attacking_dragon_may_not_roll(name, logo, color, dragon):
    """002 Step 1: "a Dragonmaster whose color matches a color of a dragon attacking your army, or a Dragonhunter
    whose color matches ... then you may roll those dice now": any of them whose color no attacking dragon has is
    refused (before: accepted, traced as affecting no dragon)."""
    text = CHAMPION.format(edition="sfr-2012", name=name, color=color, dragon=dragon, logo=logo, rest=ROLL)
    with pytest.raises(StepRefused, match="may not roll before the attack"):
        replay(parse(text, "s.yaml"))


@pytest.mark.parametrize("name,logo", [("Dragonmaster", "sfr-tsr-logo-dragonmaster"),
                                       ("Dragonhunter", "sfr-logo-dragonhunter")])
def test_a_one_color_champion_matching_an_attacking_dragon_rolls(name, logo):
    """The contrast: a blue champion against an ivory/blue hybrid rolls, and its logo tames or kills it."""
    text = CHAMPION.format(edition="sfr-2012", name=name, color="blue", dragon="ivory-blue", logo=logo, rest="")
    dragon = replay(parse(text, "s.yaml"))["steps"][0]["dragon"]
    assert dragon["tamed"] + dragon["slain"] == ["d1"]


SHIELDED = """\
ddref: 1
title: shielded casualty
edition: sfr-2012
players: [a, b]
turn: {{player: a}}
terrains:
  f: {{type: flatland, face: 3, action: {action}, home_of: a}}
  g: {{type: highland, face: 3, home_of: b}}
armies:
  x: {{player: a, at: f, units: [{{race: dwarf, health: 1, count: 4}}]}}
  y: {{player: b, at: f, units: [{{id: u3, race: undead, health: 3}}, {{id: u1, race: undead, health: 1}}]}}
  z: {{player: b, at: g, units: [{{race: goblin, health: 1, count: 2}}]}}
effects:
  - {{spell: fade, target: u3, by: b}}
steps:
  - {action}: {{army: x, target: y, roll: {{{action}: 3}}, saves: {{y: {{u1: melee}}}}, casualties: {{y: [u3]}}{counter}}}
"""


@pytest.mark.parametrize("action,counter", [("missile", ""), ("melee", ", counter: false")])
def test_a_faded_unit_named_as_a_casualty_is_refused_naming_fade(action, counter):
    """002 Fade: the unit "cannot ... be taken as a casualty for this damage": naming it is refused with Fade's rule
    (before: "casualties [u3] are not units of army y", as if the army had no such unit)."""
    with pytest.raises(StepRefused, match=f"fade is on it, and it cannot be taken as a casualty for {action} damage"):
        replay(parse(SHIELDED.format(action=action, counter=counter), "s.yaml"))


def test_dragonkin_left_alone_by_a_ferry_are_not_killed():
    """002 Dragonkin: "If all other units are killed or leave the terrain (by any means) the Dragonkin dissipate":
    at once, in the save roll whose Ferry took the others away, so the damage does not take (kill) them."""
    out = replay(load(ROOT / "scenarios" / "sfr2012-defects-c-dragonkin-ferry-dissipate.yaml"))
    assert out["steps"][0]["killed"] == []
    assert any("dissipate to the summoning pool at once" in e["what"] for e in out["steps"][0]["trace"])
