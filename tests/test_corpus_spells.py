"""corpus/records/spells.json: the spell records of the three editions, checked
against the normalized documents they come from (parsed here independently of
the extractor)."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import pytest

from engine.records import Spell

RECORDS = Path(__file__).resolve().parents[1] / "corpus" / "records" / "spells.json"
DOC = {"tsr-1996": "000", "sfr-v4": "001", "sfr-2012": "002"}


@pytest.fixture(scope="module")
def texts(ctx) -> dict[str, str]:
    return {edition: ctx.text(doc) for edition, doc in DOC.items()}


@pytest.fixture(scope="module")
def spells() -> list[Spell]:
    return [Spell.model_validate(row) for row in json.loads(RECORDS.read_text(encoding="utf-8"))]


@pytest.fixture(scope="module")
def by_key(spells) -> dict[tuple[str, str], Spell]:
    return {(s.edition, s.id): s for s in spells}


def spell(by_key, edition: str, sid: str) -> Spell:
    assert (edition, sid) in by_key, f"missing {edition} {sid}"
    return by_key[(edition, sid)]


def squash(text: str) -> str:
    return " ".join(text.split())


# ---------------------------------------------------------------- independent parses


def sfr_2012_headings(text: str) -> dict[str, int]:
    """002: every "Name" line followed by "Casting Cost: N" -> N."""
    return {m.group(1): int(m.group(2)) for m in re.finditer(r"^([^\n]+)\nCasting Cost: (\d+)$", text, re.M)}


def sfr_v4_rows(text: str) -> dict[str, tuple[int, bool, bool]]:
    """001 spell table rows "cost<TAB>R<TAB>C<TAB>Name (Race): ..." -> (cost, R, C)."""
    rows = re.finditer(r"^(\d+)\t(X?)\t(X?)\t([^(\n]+?) \(", text, re.M)
    return {m.group(4): (int(m.group(1)), m.group(2) == "X", m.group(3) == "X") for m in rows}


def tsr_1996_lines(text: str) -> dict[str, int]:
    """000 "Spell List": "cost Name: effect" lines -> cost."""
    part = text[text.index("\nSpell List\n"):text.index("\nOutline of Play\n")]
    return {m.group(2): int(m.group(1)) for m in re.finditer(r"^(\d+) ([A-Z][^:\n]*): ", part, re.M)}


# ---------------------------------------------------------------- counts and coverage


def test_counts_per_edition(spells):
    assert Counter(s.edition for s in spells) == {"sfr-2012": 84, "tsr-1996": 25, "sfr-v4": 18}


def test_sorted_by_edition_then_id(spells):
    keys = [(s.edition, s.id) for s in spells]
    assert keys == sorted(keys)
    assert len(set(keys)) == len(keys)


def test_every_sfr_2012_heading_present_with_its_cost(spells, texts):
    headings = sfr_2012_headings(texts["sfr-2012"])
    assert len(headings) == 84
    assert {s.name: s.cost for s in spells if s.edition == "sfr-2012"} == headings


def test_every_sfr_v4_row_present_with_cost_and_flags(spells, texts):
    rows = sfr_v4_rows(texts["sfr-v4"])
    assert len(rows) == 18
    got = {s.name: (s.cost, s.reserve, s.cantrip) for s in spells if s.edition == "sfr-v4"}
    assert got == rows


def test_every_tsr_1996_line_present_with_its_cost(spells, texts):
    lines = tsr_1996_lines(texts["tsr-1996"])
    assert len(lines) == 25
    assert {s.name: s.cost for s in spells if s.edition == "tsr-1996"} == lines


def test_text_is_verbatim_modulo_whitespace(spells, texts):
    flat = {edition: squash(t) for edition, t in texts.items()}
    for s in spells:
        assert s.text, s.id
        assert squash(s.text) in flat[s.edition], (s.edition, s.id)


def test_source_cites_the_document_of_the_edition(spells):
    for s in spells:
        assert s.source.edition == s.edition
        assert s.source.document == DOC[s.edition]


# ---------------------------------------------------------------- spot values


@pytest.mark.parametrize("edition, sid, cost", [
    # 000 Water: Green: "4 Wall of Fog: Halve (rounding down) all maneuver results ..."
    ("tsr-1996", "wall-of-fog", 4),
    # 001 GREEN (WATER) SPELLS: "6\t\t\tWall of Fog (Any): Target any terrain. ..."
    ("sfr-v4", "wall-of-fog", 6),
    # 002 Green (Water) Spells: "Wall of Fog" / "Casting Cost: 6"
    ("sfr-2012", "wall-of-fog", 6),
    # 000 Air: Blue: "5 Lightning Strike: Instantly kills a target unit ..."
    ("tsr-1996", "lightning-strike", 5),
    # 001 BLUE (AIR) SPELLS: "6\t\t\tLightning Strike (Any): Target any opposing unit. ..."
    ("sfr-v4", "lightning-strike", 6),
    # 002 Blue (Air) Spells: "Lightning Strike" / "Casting Cost: 6"
    ("sfr-2012", "lightning-strike", 6),
    # 000 Earth: Gold: "5 Transmute Rock to Mud: Subtract 6 from the maneuver results ..."
    ("tsr-1996", "transmute-rock-to-mud", 5),
    # 001 YELLOW (EARTH) SPELLS: "6\t\t\tTransmute Rock to Mud (Any): Target any opposing army. ..."
    ("sfr-v4", "transmute-rock-to-mud", 6),
    # 002 Gold (Earth) Spells: "Transmute Rock to Mud" / "Casting Cost: 5"
    ("sfr-2012", "transmute-rock-to-mud", 5),
    # 000 Air: Blue: "4 Wind Walk: Target army gains 6 automatic maneuver results ..."
    ("tsr-1996", "wind-walk", 4),
    # 001 BLUE (AIR) SPELLS: "4\tX\t\tWind Walk (Any): Target any army. ..."
    ("sfr-v4", "wind-walk", 4),
    # 002 Blue (Air) Spells: "Wind Walk" / "Casting Cost: 4"
    ("sfr-2012", "wind-walk", 4),
    # 002 Elemental Spells: "Summon White Dragon" / "Casting Cost: 14"
    ("sfr-2012", "summon-white-dragon", 14),
])
def test_costs(by_key, edition, sid, cost):
    assert spell(by_key, edition, sid).cost == cost


@pytest.mark.parametrize("edition, duration", [
    # 000: "Add 1 automatic save result to the target army until the end of your next turn."
    ("tsr-1996", "until-end-of-next-turn"),
    # 001: "Add one save result to the target's rolls until the beginning of your next turn."
    ("sfr-v4", "until-beginning-of-next-turn"),
    # 002: "Until the end of your next turn, add one save result to the target army."
    ("sfr-2012", "until-end-of-next-turn"),
])
def test_watery_double_duration(by_key, edition, duration):
    assert spell(by_key, edition, "watery-double").duration == duration


@pytest.mark.parametrize("edition, sid, duration", [
    ("sfr-2012", "earthen-armor", "until-used"),        # "until it is used to generate a save result"
    ("sfr-2012", "deadlands", "until-terrain-face-changes"),  # "Until the terrain face is changed"
    ("sfr-2012", "reform-land", "permanent"),           # "for the duration of the game"
    ("sfr-2012", "open-grave", "until-beginning-of-next-turn"),  # not "immediately go to the reserve"
    ("sfr-2012", "hailstorm", "immediate"),             # "Immediately inflict one point of damage"
    ("tsr-1996", "lightning-strike", "immediate"),      # "Instantly kills a target unit"
])
def test_durations(by_key, edition, sid, duration):
    assert spell(by_key, edition, sid).duration == duration


@pytest.mark.parametrize("sid, reserve, cantrip", [
    ("hailstorm", False, True),             # "2\t\tX\tHailstorm (Any)"
    ("wind-walk", True, False),             # "4\tX\t\tWind Walk (Any)"
    ("watery-double", True, True),          # "2\tX\tX\tWatery Double (Any)"
    ("lightning-strike", False, False),     # "6\t\t\tLightning Strike (Any)"
    ("resurrect-dead", True, False),        # "3\tX\t\tResurrect Dead (Any)"
    ("accelerated-growth", True, True),     # "3\tX\tX\tAccelerated Growth (Treefolk)"
])
def test_v4_reserve_and_cantrip_columns(by_key, sid, reserve, cantrip):
    s = spell(by_key, "sfr-v4", sid)
    assert (s.reserve, s.cantrip) == (reserve, cantrip)


def test_sfr_2012_reserve_list(spells):
    # 002 Reserve Magic lists 31 spells "that can be cast from the reserve area, no other spells"
    castable = {s.name for s in spells if s.edition == "sfr-2012" and s.reserve}
    assert len(castable) == 31
    assert {"Reanimate Dead", "Night Moves", "Wind Walk", "Leaving", "Water Walking",
            "Flaming Spears", "Rise of the Eldarim"} <= castable
    assert not castable & {"Hailstorm", "Haunt", "Summon Dragonkin", "Ash Storm", "Blue Elemental Blast"}
    assert all(s.reserve is not None for s in spells if s.edition == "sfr-2012")


@pytest.mark.parametrize("edition, sid, kinds", [
    # 002: "Multiple castings increase the effect or target another army."
    ("sfr-2012", "palsy", ("increase-effect", "target-another")),
    # 002: "Multiple castings target multiple units."
    ("sfr-2012", "lightning-strike", ("target-another",)),
    # 002: "Multiple castings increase the number of health affected."
    ("sfr-2012", "breath-of-life", ("increase-number-affected",)),
    # 002: "Multiple castings increase the number of health affected or target another DUA."
    ("sfr-2012", "ashes-to-ashes", ("target-another", "increase-number-affected")),
    # 002: "Multiple castings increase the number of health affected and the damage inflicted."
    ("sfr-2012", "fearful-flames", ("increase-effect", "increase-number-affected")),
    # 002: "This spell can be cast only once per magic action."
    ("sfr-2012", "haunt", ("once-per-action",)),
    # 000: "Multiple castings increase the negative modifier."
    ("tsr-1996", "ash-storm", ("increase-effect",)),
    # 000: summons carry no multiple-casting sentence
    ("tsr-1996", "summon-red-dragon", ()),
    # 001: "A terrain may never be reduced by more than one step during a players turn ..."
    ("sfr-v4", "flash-flood", ("no-additional-effect",)),
])
def test_multiplicity(by_key, edition, sid, kinds):
    assert spell(by_key, edition, sid).multiplicity == kinds


@pytest.mark.parametrize("edition, sid, color", [
    ("sfr-v4", "stone-skin", "gold"),           # 001 "YELLOW (EARTH) SPELLS": yellow is gold
    ("sfr-v4", "summon-dragon", "elemental"),   # 001 "ELEMENTAL SPELLS"
    ("sfr-2012", "summon-ivory-dragon", "elemental"),
    ("sfr-2012", "open-grave", "black"),
    ("sfr-2012", "ash-storm", "red"),
    ("tsr-1996", "path", "gold"),               # 000 "Earth: Gold"
    ("tsr-1996", "finger-of-death", "black"),   # 000 "Death: Black"
])
def test_colors(by_key, edition, sid, color):
    assert spell(by_key, edition, sid).color == color


@pytest.mark.parametrize("edition, sid, target", [
    ("sfr-2012", "hailstorm", "enemy-army"),        # "Target any enemy army."
    ("sfr-2012", "reanimate-dead", "own-dua"),      # "Target one health-worth of units in your DUA."
    ("sfr-2012", "wall-of-fog", "terrain"),         # "Target any terrain."
    ("sfr-2012", "burning-hands", "own-unit"),      # "Target one of your units ..."
    ("sfr-v4", "lightning-strike", "enemy-unit"),   # "Target any opposing unit."
    ("tsr-1996", "wind-walk", "army"),              # "Target army gains 6 automatic maneuver results"
])
def test_targets(by_key, edition, sid, target):
    assert spell(by_key, edition, sid).target == target


def test_scalder_misprints_map_to_scalder(by_key, texts):
    # 002 prints "Spell List: Scaldier" (Water Walking, Tidal Wave) and "Spell List: Scalded"
    # (Firestorm, Volcanic Eruption) for the Scalder race.
    assert "Water Walking\nCasting Cost: 4\nSpell List: Scaldier" in texts["sfr-2012"]
    for sid in ("water-walking", "tidal-wave", "firestorm", "volcanic-eruption"):
        assert spell(by_key, "sfr-2012", sid).lists == ("scalder",)


def test_lists(by_key, spells):
    assert spell(by_key, "sfr-2012", "lightning-strike").lists == ("basic",)
    assert spell(by_key, "sfr-2012", "evil-eye").lists == ("undead",)
    assert spell(by_key, "sfr-2012", "blizzard").lists == ("coral-elf",)
    assert spell(by_key, "sfr-v4", "mirage").lists == ("firewalker",)      # "(Firewalkers)"
    assert spell(by_key, "sfr-v4", "wall-of-thorns").lists == ("treefolk",)
    assert all(s.lists == ("basic",) for s in spells if s.edition == "tsr-1996")
    # 002 Spell List lines: 28 "Basic"
    assert sum(s.lists == ("basic",) for s in spells if s.edition == "sfr-2012") == 28


def test_wall_of_thorns_crosses_the_page_break(by_key):
    # 002 splits the sentence over a blank line: "causes damage to itself" / "equal to the total"
    assert "causes damage to itself equal to the total health-worth" in spell(by_key, "sfr-2012", "wall-of-thorns").text
