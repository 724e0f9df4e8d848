"""index/compare.py: one spell, SAI or rule section across the editions, and word diffs of its text."""

from __future__ import annotations

import re

import pytest

from index.compare import Token, compare, differing_fields, matching_sections, word_diff
from index.corpus import records
from index.lookup import NotFound


def _squash(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def test_wall_of_fog_costs_4_in_tsr_and_6_in_both_sfr_editions():
    """000 Water (Green) spells: Wall of Fog costs 4; 001 and 002 print 6."""
    comparison = compare("spell", "wall of fog")
    assert comparison.editions == ("sfr-2012", "sfr-v4", "tsr-1996")
    assert {r.edition: r.cost for r in comparison.records} == {"sfr-2012": 6, "sfr-v4": 6, "tsr-1996": 4}
    assert "cost" in comparison.differing and "text" in comparison.differing
    assert "color" not in comparison.differing and "duration" not in comparison.differing


def test_v4_wall_of_fog_subtracts_six_where_2012_halves():
    """001 Wall of Fog subtracts six missile results; 002 halves maneuver results and missile damage."""
    diffs = dict(compare("spell", "wall of fog").diffs)
    inserted = " ".join(t.text for t in diffs["sfr-v4"] if t.op == "insert")
    deleted = " ".join(t.text for t in diffs["sfr-v4"] if t.op == "delete")
    assert "Subtract six missile results" in inserted
    assert "halve all maneuver results" in deleted
    assert any(t.op == "equal" and "Target any terrain." in t.text for t in diffs["sfr-v4"])


def test_lightning_strike_cost_and_stoneskin_spelling():
    """000 prints Lightning Strike at 5 (6 in 001 and 002); 001 spells Stoneskin as Stone Skin."""
    strike = compare("spell", "lightning strike")
    assert [r.cost for r in strike.records] == [6, 6, 5] and "cost" in strike.differing
    skin = compare("spell", "stoneskin")
    assert [r.name for r in skin.records] == ["Stoneskin", "Stone Skin", "Stoneskin"]
    assert "name" in skin.differing and "cost" not in skin.differing


def test_charm_is_lava_elf_in_2012_and_a_monster_icon_in_the_tsr_faq():
    comparison = compare("sai", "charm")
    assert comparison.editions == ("sfr-2012", "tsr-1996")
    assert [r.races for r in comparison.records] == [("lava-elf",), ()]
    assert {"races", "text"} <= set(comparison.differing)
    assert comparison.records[1].source.document == "004"


def test_a_spell_of_one_edition_has_nothing_to_differ_in():
    comparison = compare("spell", "accelerated growth")
    assert comparison.editions == ("sfr-v4",) and comparison.differing == () and comparison.diffs == ()


def test_rule_sections_by_heading_and_by_any_editions_id():
    """002 Dice Modifiers is a heading over its subsections; 000 has a section of the same name."""
    comparison = compare("rule", "dice modifiers")
    assert [r.id for r in comparison.records] == ["sfr-2012:dice-modifiers", "tsr-1996:dice-modifiers"]
    assert "Applying Dice Modifiers" in comparison.records[0].text  # its subsections' text is compared too
    assert "sfr-2012:dice-modifiers.applying-dice-modifiers" in comparison.records[0].subsections
    by_id = matching_sections("sfr-v4:spells.green-water-spells.wall-of-fog")
    assert [s.id for s in by_id] == ["sfr-2012:green-water-spells.wall-of-fog",
                                     "sfr-v4:spells.green-water-spells.wall-of-fog"]


def test_unknown_names_raise_not_found_with_suggestions():
    with pytest.raises(NotFound) as spell:
        compare("spell", "wall of fgo")
    assert "Wall of Fog" in spell.value.suggestions
    with pytest.raises(NotFound) as rule:
        compare("rule", "dice modifers")
    assert "Dice Modifiers" in rule.value.suggestions
    with pytest.raises(ValueError):
        compare("race", "amazons")


def test_json_gives_records_per_edition_and_the_differing_fields():
    data = compare("spell", "wall of fog").as_json()
    assert data["records"]["tsr-1996"]["cost"] == 4 and data["base"] == "sfr-2012"
    assert "cost" in data["differing"] and set(data["text_diff"]) == {"sfr-v4", "tsr-1996"}
    assert {t["op"] for t in data["text_diff"]["tsr-1996"]} == {"equal", "insert", "delete"}


def test_differing_fields_counts_a_missing_value():
    first, second = records("spell")[:2]
    assert differing_fields([first, first], ("cost", "text", "no-such-field")) == ()
    assert "name" in differing_fields([first, second], ("name", "no-such-field"))


def test_word_diff_of_equal_texts_is_one_equal_run():
    assert word_diff("Halve all maneuver results.", "Halve all maneuver results.") == (
        Token("equal", "Halve all maneuver results."),)
    assert word_diff("", "") == ()


def test_word_diff_gives_both_texts_back_for_every_spell_and_sai_in_two_editions():
    """Equal + insert runs spell the newer text, equal + delete the older, for the whole corpus."""
    for kind in ("spell", "sai"):
        by_id: dict[str, list] = {}
        for r in records(kind):
            by_id.setdefault(r.id, []).append(r)
        pairs = [(rs[0].text, r.text) for rs in by_id.values() for r in rs[1:]]
        assert len(pairs) > 20
        for old, new in pairs:
            tokens = word_diff(old, new)
            assert {t.op for t in tokens} <= {"equal", "insert", "delete"}
            assert _squash("".join(t.text for t in tokens if t.op != "delete")) == _squash(new)
            assert _squash("".join(t.text for t in tokens if t.op != "insert")) == _squash(old)


_WORDS = ["Halve", "all", "maneuver", "results", "at", "the", "target", "terrain", ",", ".", "(", ")",
          "re-rolled", "don't", "6", "\n\n"]


def test_word_diff_gives_both_texts_back_for_any_texts():
    from hypothesis import given, settings
    from hypothesis import strategies as st

    texts = st.lists(st.tuples(st.sampled_from(["", " ", "  ", "\n"]), st.sampled_from(_WORDS)), max_size=30) \
        .map(lambda parts: "".join(space + word for space, word in parts))

    @settings(max_examples=300, deadline=None)
    @given(texts, texts)
    def check(old: str, new: str) -> None:
        tokens = word_diff(old, new)
        assert _squash("".join(t.text for t in tokens if t.op != "delete")) == _squash(new)
        assert _squash("".join(t.text for t in tokens if t.op != "insert")) == _squash(old)

    check()
