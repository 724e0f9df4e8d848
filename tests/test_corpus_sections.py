"""Section trees: stable ids, a sound tree, every outline heading found."""

from __future__ import annotations

import pytest

from tools.corpus.documents import BY_ID
from tools.corpus.sections import split_sections

CITED_IDS = [
    # the id form the issue fixes, and ids the engine and records will cite
    "sfr-2012:dice-modifiers.applying-dice-modifiers",
    "sfr-2012:the-eighth-face.standing-stones",
    "sfr-2012:racial-abilities.coral-elves.terrain-advantage",
    "sfr-2012:green-water-spells.wall-of-fog",
    "sfr-2012:special-action-icon-sai-list.trample",
    "sfr-2012:the-turn-sequence.first-march.maneuver",
    "sfr-2012:damage.the-stoneskin-rule",
    "sfr-v4:turns.die-roll-resolution",
    "sfr-v4:spells.green-water-spells.wall-of-fog",
    "sfr-v4:multiplayer.multiplayer-games",
    "tsr-1996:dice-modifiers.applying-dice-modifiers",
    "tsr-1996:turn-sequence.first-march.charge",
    "tsr-1996:faq.monster-special-action-icons.dispel-magic",
    "tsr-1996:faq.amazons.maneuvers-as-missiles",
]


@pytest.mark.parametrize("sid", CITED_IDS)
def test_cited_sections_exist(all_sections, sid):
    assert sid in all_sections


def test_tree_is_sound(all_sections, texts):
    for sid, s in all_sections.items():
        assert sid.startswith(s.edition + ":")
        if s.parent is not None:
            parent = all_sections[s.parent]
            assert parent.level == s.level - 1 and parent.order < s.order, sid
            assert sid.startswith(s.parent + ".")
        assert s.text in texts[s.document], f"{sid}: text is not from its document"


def test_section_counts_per_document(all_sections):
    per_doc = {}
    for s in all_sections.values():
        per_doc[s.document] = per_doc.get(s.document, 0) + 1
    # 002: 84 spells and 85 SAI entries are sections of their own, among the rest
    spells_002 = [s for s in all_sections.values()
                  if s.document == "002" and s.parent and s.parent.endswith("-spells")]
    assert len(spells_002) == 84
    assert per_doc["004"] == 1 + 3 + 3 + 2 + 18
    assert per_doc["003"] == 3


def test_ids_do_not_move_when_unrelated_text_changes(texts):
    """Rewording a paragraph and adding one must leave every id where it was."""
    doc = BY_ID["002"]
    before = [s.id for s, _ in split_sections(doc, texts["002"])]
    edited = texts["002"].replace(
        "When more than one modifier is in effect",
        "A new paragraph written in a later printing.\n\nWhen several modifiers are in effect",
    )
    assert edited != texts["002"]
    after = [s.id for s, _ in split_sections(doc, edited)]
    assert after == before


def test_missing_heading_is_a_build_error(texts):
    doc = BY_ID["002"]
    with pytest.raises(LookupError, match="Applying Dice Modifiers"):
        split_sections(doc, texts["002"].replace("\nApplying Dice Modifiers\n", "\n"))
