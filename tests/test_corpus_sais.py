"""corpus/records/sais.json: the SAI records of the three editions, checked
against the normalized documents they come from."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import pytest

from engine.records import Sai, SaiResolution

RECORDS = Path(__file__).resolve().parents[1] / "corpus" / "records" / "sais.json"

# 002 "Special Action Icon (SAI) List": every entry, counted by hand.
SFR_2012_COUNT = 82
V4_NAMES = {
    "Bullseye", "Cantrip", "Choke", "Confuse", "Counter", "Create Fireminions", "Dispel Magic",
    "Double Strike", "Firecloud", "Firewalking", "Flame", "Fly", "Galeforce", "Hoof", "Rend",
    "Rise from the Ashes", "Seize", "Sleep", "Smite", "Smother", "Surprise", "Teleport",
    "Trample", "Volley", "Wild Growth",
}
TSR_RULES_NAMES = {"Bullseye", "Cantrip", "Counter", "Fly", "Rend", "Smite", "Trample"}
TSR_FAQ_NAMES = {
    "Charm", "Confuse", "Dispel Magic", "Double Strike", "Entangle", "Ferry", "Flame",
    "Illusion", "Kick", "Poison", "Regenerate", "Roar", "Screech", "Smother", "Stone",
    "Swoop", "Web",
}
# 002 "Icons of Each Race": the length of each race's Special Action Icons list.
RACE_LIST_LENGTHS = {
    "coral-elf": 13, "dwarf": 14, "goblin": 15, "lava-elf": 13, "amazon": 12, "firewalker": 12,
    "undead": 13, "feral": 14, "swamp-stalker": 11, "frostwing": 11, "scalder": 10,
    "treefolk": 15, "eldarim": 4,
}


@pytest.fixture(scope="module")
def rows() -> list[dict]:
    return json.loads(RECORDS.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def sais(rows) -> list[Sai]:
    return [Sai.model_validate(row) for row in rows]


def _get(sais: list[Sai], edition: str, sai_id: str) -> Sai:
    found = [s for s in sais if s.edition == edition and s.id == sai_id]
    assert len(found) == 1, (edition, sai_id)
    return found[0]


def _flat(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def _clauses(sai: Sai) -> list[tuple[tuple[str, ...], str, str, bool]]:
    return [(c.timing, c.rolls, c.printed, c.either) for c in sai.resolution]


# --- shape --------------------------------------------------------------------


def test_rows_round_trip_through_the_model(rows, sais):
    assert [s.model_dump(mode="json") for s in sais] == rows


def test_counts_per_edition(sais):
    assert Counter(s.edition for s in sais) == {"sfr-2012": 82, "sfr-v4": 25, "tsr-1996": 24}
    tsr = Counter(s.source.document for s in sais if s.edition == "tsr-1996")
    assert tsr == {"000": 7, "004": 17}


def test_sorted_and_unique(sais):
    keys = [(s.edition, s.id) for s in sais]
    assert keys == sorted(keys)
    assert len(set(keys)) == len(keys)


def test_sources_match_editions(sais):
    documents = {"sfr-2012": {"002"}, "sfr-v4": {"001"}, "tsr-1996": {"000", "004"}}
    for s in sais:
        assert s.source.edition == s.edition
        assert s.source.document in documents[s.edition], s.id


# --- every entry of the documents' lists --------------------------------------


def _sfr_2012_headings(text: str) -> list[str]:
    """Parse 002's SAI list independently: a heading is a 'Name: ...' line that
    ends with a closing parenthesis (Hypnotic Glare's adds a stray ';')."""
    start = text.index("Special Action Icon (SAI) List\n")
    end = text.index("\nAdvanced Rules\n", start)
    names = []
    for line in text[start:end].split("\n"):
        line = line.strip()
        name, sep, rest = line.partition(": ")
        if sep and "." not in name and rest.rstrip(";").endswith(")"):
            names.append(name)
    return names


def test_every_2012_list_entry_is_a_record(ctx, sais):
    headings = _sfr_2012_headings(ctx.text("002"))
    assert len(headings) == SFR_2012_COUNT
    printed = [s.heading.split(": ", 1)[0] for s in sais if s.edition == "sfr-2012"]
    assert sorted(printed) == sorted(headings)


def test_every_v4_table_row_is_a_record(ctx, sais):
    text = ctx.text("001")
    start = text.index("SPECIAL ACTION ICONS (SAIs)")
    rows = re.findall(r"^\t([A-Z][A-Za-z ]+): ", text[start:text.index("\nSPELLS\n", start)], re.M)
    assert set(rows) == V4_NAMES
    assert {s.name for s in sais if s.edition == "sfr-v4"} == V4_NAMES


def test_tsr_1996_records(sais):
    by_doc = {"000": set(), "004": set()}
    for s in sais:
        if s.edition == "tsr-1996":
            by_doc[s.source.document].add(s.name)
    assert by_doc == {"000": TSR_RULES_NAMES, "004": TSR_FAQ_NAMES}


# --- texts are the documents' own ---------------------------------------------


def test_texts_are_found_in_their_sources(ctx, sais):
    for s in sais:
        source = ctx.text(s.source.document)
        assert s.text and _flat(s.text) in _flat(source), (s.edition, s.id)
        if s.heading:
            assert s.heading in source, s.id


def test_citations_cover_the_text(ctx, sais):
    """The cited section is one that holds the record's text (some SAIs share
    a definition's opening words, so every occurrence is a candidate)."""
    for s in sais:
        text = ctx.text(s.source.document)
        spots = [m.start() for m in re.finditer(re.escape(s.text), text)]
        assert spots, (s.edition, s.id)
        assert s.source in [ctx.cite(s.source.document, pos) for pos in spots], (s.edition, s.id)


def test_texts_exclude_headings_and_rulings(sais):
    for s in sais:
        assert not s.text.startswith(s.name + ":"), s.id
        assert not re.search(r"^[A-H]\) ", s.text, re.M), s.id


# --- spot checks: sfr-2012 resolutions ------------------------------------------


def test_trample_resolution(sais):
    assert _get(sais, "sfr-2012", "trample").resolution == (
        SaiResolution(timing=("Normal",), rolls="any", printed="Normal", either=False),
    )


def test_double_strike_resolution(sais):
    assert _clauses(_get(sais, "sfr-2012", "double-strike")) == [
        (("Instant", "Normal"), "melee", "Instant Normal", False),
    ]


def test_firewalking_has_two_clauses(sais):
    assert _clauses(_get(sais, "sfr-2012", "firewalking")) == [
        (("Normal",), "maneuver", "Normal", False),
        (("Special",), "any non-maneuver", "Special", False),
    ]


def test_charge_is_delayed_or_late(sais):
    assert _clauses(_get(sais, "sfr-2012", "charge")) == [
        (("Delayed", "Late", "Special"), "Acting Player Melee Attack", "Delayed/Late Special", True),
    ]


def test_smite_has_two_clauses(sais):
    assert _clauses(_get(sais, "sfr-2012", "smite")) == [
        (("Special",), "melee attack", "Special", False),
        (("Normal",), "dragon attack or melee avoidance", "Normal", False),
    ]


def test_or_and_and_joined_timings(sais):
    assert _clauses(_get(sais, "sfr-2012", "regenerate")) == [
        (("Normal", "Special"), "any non-maneuver", "Normal or Special", True),
    ]
    assert _clauses(_get(sais, "sfr-2012", "counter"))[1] == (
        ("Special", "Normal"), "save against melee attack", "Special and Normal", False,
    )
    assert _clauses(_get(sais, "sfr-2012", "flurry"))[2] == (
        ("Instant", "Normal"), "dragon attack", "Instant or Normal", True,
    )


def test_irregular_headings(sais):
    # Net separates its clauses with a comma, not a semicolon.
    assert _clauses(_get(sais, "sfr-2012", "net")) == [
        (("Special",), "melee and missile attack", "Special", False),
        (("Normal",), "individual save", "Normal", False),
    ]
    # Hypnotic Glare's heading ends with a stray semicolon.
    glare = _get(sais, "sfr-2012", "hypnotic-glare")
    assert glare.heading == "Hypnotic Glare: Delayed Special (melee attack);"
    assert _clauses(glare) == [(("Delayed", "Special"), "melee attack", "Delayed Special", False)]
    # Cloak .. Entangle have no blank line between heading and definition.
    cloak = _get(sais, "sfr-2012", "cloak")
    assert cloak.text.startswith("During any non-save roll, Cloak generates magic results.")
    assert cloak.text.endswith("Cloak generates magic, maneuver, melee, missile or save results.")
    assert _clauses(cloak)[0][1] == "any non-save roll, Individual Roll"


def test_every_2012_record_has_a_resolution(sais):
    for s in sais:
        assert bool(s.resolution) == (s.edition == "sfr-2012"), (s.edition, s.id)


# --- spot checks: logos and medallions ----------------------------------------------


def test_logo_and_medallion_entries(sais):
    ids = {s.id for s in sais if s.edition == "sfr-2012"}
    assert {
        "sfr-logo-dragoncrusader", "sfr-logo-dragonhunter", "sfr-logo-dragonzealot",
        "sfr-tsr-logo-dragonkin-champion", "sfr-tsr-logo-dragonlord", "sfr-tsr-logo-dragonmaster",
        "sfr-tsr-logo-dragonslayer", "sfr-tsr-logo-bronze-medallion", "sfr-tsr-logo-gold-medallion",
        "sfr-tsr-logo-silver-medallion", "breath-dragonkin-champion", "breath-rare-dragonkin",
    } <= ids
    gold = _get(sais, "sfr-2012", "sfr-tsr-logo-gold-medallion")
    assert gold.name == "SFR/TSR Logo (Gold Medallion)"
    assert _clauses(gold) == [(("Special",), "any non-maneuver", "Special", False)]
    # 002 prints a stray "TSR" logo caption before the bronze medallion's name;
    # the normalizer drops it as it does for the gold and silver medallions.
    bronze = _get(sais, "sfr-2012", "sfr-tsr-logo-bronze-medallion")
    assert bronze.name == "SFR/TSR Logo (Bronze Medallion)"
    assert [c.timing for c in bronze.resolution] == [("Normal",), ("Unique",)]


# --- spot checks: races -------------------------------------------------------------


def test_race_lists(sais):
    lengths = Counter(race for s in sais if s.edition == "sfr-2012" for race in s.races)
    assert lengths == RACE_LIST_LENGTHS  # dragonkin: no table in "Icons of Each Race"
    assert "dwarf" in _get(sais, "sfr-2012", "smite").races  # printed "Smit"
    assert _get(sais, "sfr-2012", "regenerate").races == ("goblin",)  # interleaved table
    assert {s.name for s in sais if "eldarim" in s.races} == {"Cantrip", "Counter", "Fly", "Smite"}
    assert _get(sais, "sfr-2012", "belly").races == ()
    assert all(not s.races for s in sais if s.edition != "sfr-2012")


# --- spot checks: sfr-v4 and tsr-1996 texts -------------------------------------------


def test_v4_texts(sais):
    assert _get(sais, "sfr-v4", "hoof").text == (
        "During a maneuver roll, Hoof generates maneuver results. "
        "During a save roll or dragon attack, Hoof generates save results."
    )
    assert _get(sais, "sfr-v4", "double-strike").text.startswith(
        "During a melee attack, Double Strike targets four health worth of units"
    )


def test_tsr_texts(sais):
    swoop = _get(sais, "tsr-1996", "swoop")
    assert swoop.text == "During missile, inflict four damage on a single unit in the enemy army, with no saves possible."
    assert swoop.source.document == "004"
    assert _get(sais, "tsr-1996", "regenerate").text == (
        "Count as four saves, or bring back four health of units from your dead to this location."
    )
    counter = _get(sais, "tsr-1996", "counter")
    assert counter.source.document == "000"
    # Counter's paragraph runs over two lines; both belong to it.
    assert counter.text.startswith("During a skirmish attack, or a skirmish counter-attack")
    assert counter.text.endswith("the counter functions as both a save and a normal hit against a dragon.")
