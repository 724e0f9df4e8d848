"""Every record, whatever its kind: valid, unique, and citing a real section of its own edition."""

from __future__ import annotations

from collections import Counter

import pytest

from engine.records import Section
from index.corpus import KINDS, record_model, records, rows, section_rows

CITING_KINDS = [k for k in KINDS if k != "document"]


@pytest.mark.parametrize("kind", list(KINDS))
def test_every_shipped_row_validates_against_its_model(kind):
    """ddref reads the rows without pydantic at run time; the models stay the contract."""
    model = record_model(kind)
    for row in rows(kind):
        assert model.model_validate(row).model_dump(mode="json") == row


def test_every_section_validates():
    for row in section_rows():
        assert Section.model_validate(row).model_dump(mode="json") == row


@pytest.mark.parametrize("kind", CITING_KINDS)
def test_every_source_section_exists(kind, all_sections):
    rows = records(kind)
    assert rows, f"no {kind} records"
    for r in rows:
        section = all_sections.get(r.source.section)
        assert section is not None, f"{kind} {r.edition}/{r.id}: no section {r.source.section}"
        assert section.document == r.source.document and section.edition == r.edition == r.source.edition


@pytest.mark.parametrize("kind", CITING_KINDS)
def test_ids_unique_per_edition(kind):
    counts = Counter((r.edition, r.id) for r in records(kind))
    assert not [key for key, n in counts.items() if n > 1]


def test_record_counts_per_edition():
    """The counts the rule documents give (issue 2), kind by kind."""
    def per_edition(kind):
        return dict(Counter(r.edition for r in records(kind)))

    assert per_edition("spell") == {"sfr-2012": 84, "tsr-1996": 25, "sfr-v4": 18}
    assert per_edition("eighth-face") == {"sfr-2012": 4, "sfr-v4": 4, "tsr-1996": 4}
    assert per_edition("ruling") == {"tsr-1996": 91}
    assert len(records("document")) == 5


@pytest.mark.parametrize("name, costs", [
    # 000 Spell List, 001 spell tables, 002 spell headings ("Casting Cost: N")
    ("wall-of-fog", {"tsr-1996": 4, "sfr-v4": 6, "sfr-2012": 6}),
    ("lightning-strike", {"tsr-1996": 5, "sfr-v4": 6, "sfr-2012": 6}),
    ("transmute-rock-to-mud", {"tsr-1996": 5, "sfr-v4": 6, "sfr-2012": 5}),
    ("wind-walk", {"tsr-1996": 4, "sfr-v4": 4, "sfr-2012": 4}),
])
def test_spell_costs_per_edition(name, costs):
    assert {s.edition: s.cost for s in records("spell") if s.id == name} == costs


def test_watery_double_duration_per_edition():
    durations = {s.edition: s.duration for s in records("spell") if s.id == "watery-double"}
    assert durations == {"tsr-1996": "until-end-of-next-turn", "sfr-v4": "until-beginning-of-next-turn",
                         "sfr-2012": "until-end-of-next-turn"}


def test_trample_resolution_in_sfr_2012():
    """002 SAI list: "Trample: Normal (any)"."""
    trample = next(s for s in records("sai") if s.id == "trample" and s.edition == "sfr-2012")
    assert [(c.timing, c.rolls) for c in trample.resolution] == [(("Normal",), "any")]
