"""The SFR logo that "counts as a two point ID icon" (002 SAI List: Dragonmaster, Dragonhunter, Dragonzealot) keeps
its points apart as ID points in every roll, as an ID icon's are: in a magic action they double for the unit's own
color at a terrain of that color ("as such may be doubled to produce magic of its own color"; 002 Terrain
Advantage: "Only the magic points generated through ID icons are doubled"), and against a dragon they are not
among the 10 non-ID melee that force a slaying (002 Dragon Attack Phase, Step 6)."""

from __future__ import annotations

import pytest

from ddref.scenario.run import parse, replay

LOGOS = [("Dragonhunter", "sfr-logo-dragonhunter"), ("Dragonmaster", "sfr-tsr-logo-dragonmaster"),
         ("Dragonzealot", "sfr-logo-dragonzealot")]


def _scenario(name: str, logo: str, step: str) -> str:
    return f"""
ddref: 1
title: logo
edition: sfr-2012
players: [alice, bob]
turn: {{player: alice}}
terrains:
  bay: {{type: coastland, face: 4, frontier: true}}
armies:
  mages: {{player: alice, at: bay, units: [{{id: e, name: {name}, race: eldarim, color: green}}, {{id: m1, race: coral-elf, health: 2}}]}}
dragons:
  - {{id: g1, color: red, owner: bob, at: bay, form: wyrm}}
steps:
  - {step.replace('LOGO', logo)}
"""


@pytest.mark.parametrize("name,logo", LOGOS)
def test_logo_magic_doubles_as_an_id_for_its_own_color(name, logo):
    """At a coastland (blue, green) a green champion's logo is 2 ID points, doubled to 4 green; m1's 2 magic icons
    do not double: 6 in all, 4 of them green from the logo."""
    text = _scenario(name, logo, "magic: {army: mages, roll: {e: LOGO, m1: magic 2}, colors: {green: 4, blue: 2}}")
    out = replay(parse(text, "logo.yaml"))
    assert out["steps"][0]["magic"]["points"] == {"green": 4, "blue": 2}


@pytest.mark.parametrize("name,logo", LOGOS)
def test_logo_is_no_non_id_melee_against_a_dragon(name, logo):
    """8 melee icons and the logo's 2 put on melee: 10 melee, 8 of them not from IDs: the dragon need not die (its Claws do 6 damage, taken by default)."""
    more = ("{id: m1, race: coral-elf, health: 2}, {id: m2, race: coral-elf, health: 2}, "
            "{id: m3, race: coral-elf, health: 2}, {id: m4, race: coral-elf, health: 2}]")
    text = _scenario(name, logo, "dragon_attack: {army: mages, dragons: {g1: [claws]}, roll: {e: LOGO, m1: melee 2, "
                                 "m2: melee 2, m3: melee 2, m4: melee 2}, ids: {melee: 2}, slay: {}}")
    text = text.replace("{id: m1, race: coral-elf, health: 2}]", more)
    out = replay(parse(text, "logo.yaml"))
    step = out["steps"][0]
    assert step["results"]["mages"]["melee"] == 10
    assert out["state"]["dragons"]["g1"]["at"] == "bay"
