"""Defects of issue 20 fixed on branch defects-b: each test states the rule it pins and fails without its fix."""

from __future__ import annotations

from pathlib import Path

import pytest

from ddref.scenario.run import StepRefused, load, replay

EDITIONS = ("sfr-2012", "tsr-1996", "sfr-v4")

TURNS = """\
ddref: 1
title: turn order with an eliminated player
edition: {edition}
players: [alice, bob, cal]
turn: {{player: alice, phase: first-march}}
terrains:
  hill: {{type: highland, face: 3, home_of: alice}}
  bay: {{type: coastland, face: 3, home_of: bob}}
  vale: {{type: flatland, face: 3, home_of: cal}}
armies:
  alices: {{player: alice, at: hill, units: [{{race: dwarf, health: 2, count: 3}}]}}
  bobs: {{player: bob, at: bay, units: [{{race: goblin, health: 2, count: 3}}]}}
steps:
  - turn: {{player: bob}}
  - turn: {{player: {next}}}
"""


def _steps(tmp_path: Path, text: str) -> dict:
    (tmp_path / "s.yaml").write_text(text, encoding="utf-8")
    return replay(load(tmp_path / "s.yaml"))


@pytest.mark.parametrize("edition", EDITIONS)
def test_every_editions_turn_order_passes_over_an_eliminated_player(tmp_path, edition):
    """An eliminated player (three or more players, "no units are remaining at terrains or in the reserve area",
    002 Duration) has no turn: 003 "Simply skip their turn from then on"; 002 Duration, their spells "expire when the
    eliminated player would have had his or her next turn"; 000 Magic, "if you have no units left ... any spells you
    cast are immediately negated" (a reading). Cal has no unit: after bob's turn comes alice's, and cal's is refused,
    in every edition (before, only sfr-v4's turn order skipped cal: engine.multiplayer ``eliminated``)."""
    out = _steps(tmp_path, TURNS.format(edition=edition, next="alice"))
    assert [s["kind"] for s in out["steps"]] == ["turn", "turn"]
    assert any("cal's turn is skipped" in e["what"] for e in out["steps"][1]["trace"])
    with pytest.raises(StepRefused, match="cal is eliminated"):
        _steps(tmp_path, TURNS.format(edition=edition, next="cal"))


STEPPED = """\
ddref: 1
title: a traded unit went to the DUA
edition: {edition}
players: [a, b]
turn: {{player: b}}
terrains:
  field: {{type: flatland, face: 3, action: melee, home_of: a}}
armies:
  hitters: {{player: b, at: field, units: [{{race: dwarf, health: 2, count: 4}}]}}
  dead: {{player: a, at: field, units: [{{id: big, race: {race}, health: 3}}, {{id: small, race: {race}, health: 1}}]}}
dua:
  a: [{{id: d1, race: {race}, health: 1}}]
effects: {effects}
steps:
  - melee: {{army: hitters, target: dead, roll: {{melee: 4}}, saves: {{dead: {{save: 0}}}}, counter: false,
            stepped: {{big: d1}}}}
"""


@pytest.mark.parametrize("edition, race, effects", [
    ("sfr-2012", "undead", "[]"),                                                   # 002 Undead Stepped Damage
    ("sfr-v4", "treefolk", "[{spell: accelerated growth, target: a, by: a}]"),      # 001 Accelerated Growth
])
def test_a_unit_traded_for_a_dead_one_is_killed_as_it_went_to_the_dua(tmp_path, edition, race, effects):
    """002 Stepped Damage: Undead "when killed by any means, may instead be traded in for an Undead unit of lesser
    health from the DUA" (001 Accelerated Growth: "exchange it with a one health-worth Treefolk unit from your DUA").
    The traded unit is in the DUA; ``killed`` lists "the units that went to the DUA" (docs/scenario-format.md), so it
    lists the traded unit too, and the unit taking its place is ``moved`` (before, ``killed`` left it out)."""
    out = _steps(tmp_path, STEPPED.format(edition=edition, race=race, effects=effects))
    step = out["steps"][0]
    in_dua = set(out["state"]["dua"]["a"]["units"])
    assert sorted(step["killed"]) == ["big", "small"]
    assert set(step["killed"]) <= in_dua and "d1" not in in_dua
    assert step["moved"] == ["d1"]


ROOT = Path(__file__).resolve().parents[1]


def test_a_spell_cast_after_a_roll_is_finalized_is_said_not_to_change_it():
    """002 Glossary, Finalized Results: "Note: finalized results cannot be changed by any effect." The defender's
    Cantrip casts a Blizzard ("halve all melee results at the target terrain") after the attacker's 6 melee were
    finalized: they stay 6 (5 damage against 1 save), the trace says why once, citing the glossary, and the
    defender's counter-attack, rolled after the Blizzard, is halved (4 -> 2)."""
    step = replay(load(ROOT / "scenarios" / "sfr2012-defects-b-finalized-results.yaml"))["steps"][0]
    assert step["results"]["goblins"]["melee"] == 6 and step["damage"]["elves"] == 5
    said = [e for e in step["trace"] if e.get("kind") == "not-applied" and "finalized" in e["what"]]
    assert [(e["what"], e["cite"]) for e in said] == [
        ("blizzard on lagoon does not change goblins' melee results of this step: they were finalized before it was "
         "cast", "sfr-2012:glossary-of-dragon-dice-terms.finalized-results")]
