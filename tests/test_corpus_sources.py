"""The normalized documents: damage repaired, markup gone, copyright kept, FAQ split."""

from __future__ import annotations

import re

import pytest

from tools.corpus.build import CORPUS, render

DAMAGE = {
    "\u00d5": "Mac-Roman apostrophe",
    "\u00a0": "no-break space debris",
    "**": "Markdown bold",
    "<i>": "HTML italics",
    "</i>": "HTML italics",
    "rep-resents": "line-break hyphen",
    "terrain-the land": "em dash read as hyphen",
    "\u2019": "typographic apostrophe (normalized to ASCII)",
    "\u201c": "typographic quote (normalized to ASCII)",
}


@pytest.mark.parametrize("doc", ["000", "001", "002", "003", "004"])
def test_no_damaged_character_left(texts, doc):
    # the FAQ's own part divider "*** AMAZONS" is the document's, not markup
    text = re.sub(r"^\*\*\* [A-Z ]+$", "", texts[doc], flags=re.M) if doc == "004" else texts[doc]
    for bad, what in DAMAGE.items():
        assert bad not in text, f"{doc}: {what} {bad!r} survived normalization"
    assert not re.search(r"^[\s-]*---[\s-]*$", texts[doc], re.M), "dash-only table rule left"


def test_tsr_damage_repaired_in_place(texts):
    """000: "arenÕt units and canÕt be" and "terrain-the land" read as written."""
    assert "dice aren't units and can't be part of an army" in texts["000"]
    assert "represent terrain\u2014the land that armies battle" in texts["000"]
    assert "Each six-sided and ten-sided die represents a single soldier" in texts["000"]


@pytest.mark.parametrize("doc, line", [
    ("001", "\u00a9 2000-2018 SFR, Inc. All rights reserved."),
    ("002", "\u00a9 2000-2012 SFR, Inc. All rights reserved."),
    ("004", "Official Dragon Dice FAQ and Rules Clarifications (C)1996 TSR, Inc. All Rights Reserved."),
])
def test_copyright_lines_kept(texts, doc, line):
    assert line in texts[doc]


def test_sfr_spell_headings_unified(texts):
    """002 prints spell headings three ways; all become Name / Casting Cost / Spell List."""
    heads = re.findall(r"^(.+)\nCasting Cost: (\d+)\nSpell List: (.+)$", texts["002"], re.M)
    assert len(heads) == 84
    assert ("Ashes to Ashes", "2", "Basic") in heads           # was "- Ashes to Ashes** Casting Cost: ..."
    assert ("Stoneskin", "2", "Basic") in heads                # was glued to "Gold (Earth) Spells**"
    assert ("Lightning Strike", "6", "Basic") in heads         # was spread over blank lines


def test_faq_split_into_parts_topics_and_rulings(texts):
    faq = texts["004"]
    assert re.findall(r"^\*\*\* (.+)$", faq, re.M) == ["AMAZONS", "MONSTERS", "MONSTER SPECIAL ACTION ICONS"]
    rulings = re.findall(r"^([A-G])\) ", faq, re.M)
    # in the raw one-line text a ruling letter follows a space, never "(" as in "(A) a skirmish"
    raw = (CORPUS / "raw" / "004_8860188c7af3c8f3.txt").read_text(encoding="utf-8")
    assert len(rulings) == len(re.findall(r"(?<![(\w])[A-G]\) ", raw)) == 91
    assert "\nCharm\n\nDuring melee, this effect forces four health" in faq
    assert "\nD) During a dragon attack, Web has no effect." in faq


def test_committed_corpus_matches_a_fresh_build(ctx):
    """Every corpus file is what the build makes from corpus/raw (no hand edits, no stale data)."""
    stale = [p.relative_to(CORPUS) for p, text in render(ctx).items()
             if not p.exists() or p.read_text(encoding="utf-8") != text]
    assert not stale, f"run: python -m tools.corpus.build  (stale: {stale})"
