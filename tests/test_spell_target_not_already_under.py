"""002 spells whose target is "one of your units not already under the effects of a <this> spell" (Burning Hands,
Flaming Armor, Flaming Spears, Earthen Armor): a second such spell on a unit already under one is refused, for
every spell whose text says so (found in the corpus, not listed here)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

SPELLS = json.loads(Path(__file__).resolve().parents[1].joinpath("corpus/records/spells.json").read_text("utf-8"))
ALONE = [s for s in SPELLS if s["edition"] == "sfr-2012" and "not already under the effects of" in s.get("text", "")
         and s["target"].endswith("unit")]
# a race on the spell's list that casts its color at a highland (red and gold)
CASTER = {"basic": {"red": "lava-elf", "gold": "dwarf"}, "lava-elf": "lava-elf", "amazon": "amazon", "dwarf": "dwarf"}

HEAD = """\
ddref: 1
title: not already under
edition: sfr-2012
players: [a, b]
turn: {{player: a}}
terrains:
  here: {{type: highland, face: 3, action: magic, home_of: a}}
  there: {{type: flatland, face: 3, home_of: b}}
armies:
  mages: {{player: a, at: here, units: [{{id: u1, race: {race}, health: 3}}, {{id: u2, race: {race}, health: 3}},
                                       {{race: {race}, health: 3, count: 2}}]}}
  them: {{player: b, at: there, units: [{{race: dwarf, health: 2, count: 2}}]}}
effects:
  - {{spell: {spell}, target: u1, by: a}}
steps:
  - magic: {{army: mages, roll: {{magic: {cost}}}, colors: {{{color}: {cost}}}, cast: [{{spell: {spell}, target: {unit}}}]}}
"""


def test_the_class_is_found():
    assert {s["id"] for s in ALONE} >= {"burning-hands", "flaming-armor", "flaming-spears", "earthen-armor"}


@pytest.mark.parametrize("spell", ALONE, ids=lambda s: s["id"])
def test_a_unit_already_under_the_spell_cannot_be_its_target(run, tmp_path, spell):
    lst = spell["lists"][0]
    race = CASTER[lst][spell["color"]] if lst == "basic" else CASTER[lst]
    steps = []
    for unit in ("u1", "u2"):
        path = tmp_path / f"{unit}.yaml"
        path.write_text(HEAD.format(race=race, spell=spell["id"], cost=spell["cost"], color=spell["color"],
                                    unit=unit), encoding="utf-8")
        result = run("resolve", str(path), "--json")
        assert result.exit_code in (0, 1, 2), result.stderr
        steps.append(json.loads(result.stdout)["steps"][0])
    refused, allowed = steps
    art = "an" if spell["name"][0] in "AEIOU" else "a"
    said = refused.get("rejected", "")
    assert f"not already under the effects of {art} {spell['name']} spell; u1 (" in said and "already is" in said
    assert not allowed.get("rejected"), allowed.get("rejected")
