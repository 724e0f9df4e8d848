"""FAQ rulings (004) and glossary records (002): counts, spot checks, provenance.

Every number below was counted by reading the normalized documents
(corpus/sources/004.txt and 002.txt).
"""

from __future__ import annotations

import json
import re
from collections import Counter

import pytest

from engine.records import GlossaryTerm, Ruling
from tools.corpus import glossary, rulings
from tools.corpus.build import CORPUS, _dump

FAQ = "tsr-1996:faq"
MSAI = f"{FAQ}.monster-special-action-icons"


@pytest.fixture(scope="module")
def all_rulings(ctx) -> list[Ruling]:
    return rulings.extract(ctx)


@pytest.fixture(scope="module")
def by_id(all_rulings) -> dict[str, Ruling]:
    return {r.id: r for r in all_rulings}


@pytest.fixture(scope="module")
def terms(ctx) -> list[GlossaryTerm]:
    return glossary.extract(ctx)


@pytest.fixture(scope="module")
def term_by_id(terms) -> dict[str, GlossaryTerm]:
    return {t.id: t for t in terms}


def _flat(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


# --- committed data ------------------------------------------------------


@pytest.mark.parametrize("name, module", [("rulings", rulings), ("glossary", glossary)])
def test_committed_records_are_current(ctx, name, module):
    path = CORPUS / "records" / f"{name}.json"
    assert path.read_text(encoding="utf-8") == _dump(module.extract(ctx))


def test_committed_records_validate():
    for row in json.loads((CORPUS / "records" / "rulings.json").read_text(encoding="utf-8")):
        Ruling.model_validate(row)
    for row in json.loads((CORPUS / "records" / "glossary.json").read_text(encoding="utf-8")):
        GlossaryTerm.model_validate(row)


def test_concerns_resolve_to_tsr_records(corpus_records):
    """Every sai/spell/race a ruling concerns is a tsr-1996 record of the shipped corpus."""
    known = {
        f"{kind}:{r.id}" for kind in ("sai", "spell", "race")
        for r in corpus_records(kind) if r.edition == "tsr-1996"
    }
    for r in corpus_records("ruling"):
        for ref in r.concerns:
            if not ref.startswith("rule:"):
                assert ref in known, (r.id, ref)


# --- rulings -------------------------------------------------------------

# (part, topic) -> letters as printed, in order (004: Charm prints "E)" twice,
# Regenerate "C)" twice, Swoop "B)" twice).
LETTERS = {
    ("AMAZONS", "Maneuvers as Missiles"): "ABCD",
    ("AMAZONS", "Amazonian Magic"): "ABCD",
    ("AMAZONS", "Amazons in Reserves"): "ABCDE",
    ("MONSTERS", "General Rules"): "ABCD",
    ("MONSTERS", "Sprite Swarm"): "ABC",
    ("MONSTER SPECIAL ACTION ICONS", "General Rules"): "ABCD",
    ("MONSTER SPECIAL ACTION ICONS", "Charm"): "ABCDEE",
    ("MONSTER SPECIAL ACTION ICONS", "Confuse"): "AB",
    ("MONSTER SPECIAL ACTION ICONS", "Dispel Magic"): "ABCDEFG",
    ("MONSTER SPECIAL ACTION ICONS", "Double Strike"): "ABC",
    ("MONSTER SPECIAL ACTION ICONS", "Entangle"): "ABCDE",
    ("MONSTER SPECIAL ACTION ICONS", "Ferry"): "ABCD",
    ("MONSTER SPECIAL ACTION ICONS", "Flame"): "ABCD",
    ("MONSTER SPECIAL ACTION ICONS", "Illusion"): "ABC",
    ("MONSTER SPECIAL ACTION ICONS", "Kick"): "ABCD",
    ("MONSTER SPECIAL ACTION ICONS", "Poison"): "ABC",
    ("MONSTER SPECIAL ACTION ICONS", "Regenerate"): "ABCC",
    ("MONSTER SPECIAL ACTION ICONS", "Roar"): "ABCD",
    ("MONSTER SPECIAL ACTION ICONS", "Screech"): "ABC",
    ("MONSTER SPECIAL ACTION ICONS", "Smother"): "AB",
    ("MONSTER SPECIAL ACTION ICONS", "Stone"): "ABCDE",
    ("MONSTER SPECIAL ACTION ICONS", "Swoop"): "ABBC",
    ("MONSTER SPECIAL ACTION ICONS", "Web"): "ABCD",
}


def test_ruling_counts(all_rulings):
    assert len(all_rulings) == 91
    per_topic = Counter((r.part, r.topic) for r in all_rulings)
    assert per_topic == {key: len(letters) for key, letters in LETTERS.items()}
    assert Counter(r.part for r in all_rulings) == {
        "AMAZONS": 13, "MONSTERS": 7, "MONSTER SPECIAL ACTION ICONS": 71,
    }


def test_letters_as_printed_in_document_order(all_rulings):
    by_topic: dict[tuple[str, str], list[Ruling]] = {}
    for r in all_rulings:
        by_topic.setdefault((r.part, r.topic), []).append(r)
    for key, letters in LETTERS.items():
        got = sorted(by_topic[key], key=lambda r: r.id)  # "a" < "b" < "c" < "c-2" < "d": print order
        assert "".join(r.letter for r in got) == letters, key


def test_duplicate_letters_keep_both(by_id):
    assert by_id[f"{MSAI}.charm.e"].text.startswith("Charmed units can be cbosen as casualties")
    assert by_id[f"{MSAI}.charm.e-2"].text == "During a dragon attack, Charm has no effect."
    assert by_id[f"{MSAI}.charm.e-2"].letter == "E"
    assert by_id[f"{MSAI}.regenerate.c"].text == "Regenerate never doubles it effect. It does not count as magic."
    assert by_id[f"{MSAI}.regenerate.c-2"].text == "During a dragon attack, Regenerate performs normally."
    assert by_id[f"{MSAI}.swoop.b"].text == "The monster's owner selects the target unit."
    assert by_id[f"{MSAI}.swoop.b-2"].text == "Swoop does not count as maneuvers."
    assert by_id[f"{MSAI}.swoop.b-2"].letter == "B"


def test_ids_follow_part_topic_letter(all_rulings):
    for r in all_rulings:
        assert r.edition == "tsr-1996"
        assert re.fullmatch(r"tsr-1996:faq\.[a-z-]+\.[a-z-]+\.[a-h](?:-2)?", r.id), r.id
    assert len({r.id for r in all_rulings}) == len(all_rulings)


def test_sorted_by_edition_and_id(all_rulings, terms):
    assert all_rulings == sorted(all_rulings, key=lambda r: (r.edition, r.id))
    assert terms == sorted(terms, key=lambda t: (t.edition, t.id))


def test_amazon_maneuvers_as_missiles(by_id):
    c = by_id[f"{FAQ}.amazons.maneuvers-as-missiles.c"]
    assert c.text == "The effect of Wind Walk does NOT add additional missile results."
    assert c.concerns == ("race:amazon", "spell:wind-walk")
    b = by_id[f"{FAQ}.amazons.maneuvers-as-missiles.b"]
    assert b.concerns == ("race:amazon", "spell:transmute-rock-to-mud", "spell:wall-of-fog")
    assert by_id[f"{FAQ}.amazons.maneuvers-as-missiles.a"].part == "AMAZONS"
    assert by_id[f"{FAQ}.amazons.maneuvers-as-missiles.a"].topic == "Maneuvers as Missiles"


def test_dispel_magic_rulings(all_rulings, by_id):
    dispel = [r for r in all_rulings if r.topic == "Dispel Magic"]
    assert [r.letter for r in dispel] == list("ABCDEFG")
    assert all(r.concerns[0] == "sai:dispel-magic" for r in dispel)
    assert by_id[f"{MSAI}.dispel-magic.b"].concerns[:2] == ("sai:dispel-magic", "spell:lightning-strike")
    c = by_id[f"{MSAI}.dispel-magic.c"].concerns
    assert {"spell:hailstorm", "spell:ash-storm", "spell:lightning-strike"} <= set(c)
    assert by_id[f"{MSAI}.dispel-magic.g"].text.startswith("During a dragon attack, Dispel Magic has no effect.")


def test_screech_b(by_id):
    b = by_id[f"{MSAI}.screech.b"]
    assert b.text == (
        "The effect of the Screech is counted on the roll--i.e., before saves are doubled "
        "due to the effect of an Eighth Face."
    )
    assert b.concerns[0] == "sai:screech"
    assert "rule:tsr-1996:the-eighth-face" in b.concerns


def test_sai_names_in_text(by_id):
    assert by_id[f"{MSAI}.entangle.d"].concerns[:4] == ("sai:entangle", "sai:cantrip", "sai:bullseye", "sai:smite")
    assert by_id[f"{MSAI}.general-rules.d"].concerns[:4] == ("sai:rend", "sai:trample", "sai:fly", "sai:regenerate")
    # "Standing Stones" is the eighth-face icon, not the Stone SAI
    assert not any(c.startswith("sai:") for c in by_id[f"{FAQ}.amazons.amazonian-magic.d"].concerns)
    assert by_id[f"{MSAI}.flame.c"].concerns[:2] == ("sai:flame", "spell:open-grave")


def test_races_named(by_id):
    d = by_id[f"{FAQ}.monsters.general-rules.d"]
    assert d.concerns[:3] == ("race:dwarf", "race:coral-elf", "race:amazon")
    assert all("race:amazon" in r.concerns for r in by_id.values() if r.part == "AMAZONS")


def test_part_intro_is_not_in_ruling_d(by_id):
    # 004 runs "Notes on individual monster special action icons follow." into ruling D
    d = by_id[f"{MSAI}.general-rules.d"]
    assert d.text.endswith("3) Resolved first")
    assert "Notes on individual" not in d.text


def test_concerns_refer_to_known_things(ctx, all_rulings):
    sections = {s.id for s in ctx.sections["000"]}
    spells = set(re.findall(r"^\d+ ([A-Z][^:\n]+):", ctx.text("000"), re.M))
    assert len(spells) == 25
    spell_ids = {"spell:" + re.sub(r"[^a-z0-9]+", "-", n.lower()) for n in spells}
    for r in all_rulings:
        assert len(set(r.concerns)) == len(r.concerns), r.id
        for ref in r.concerns:
            kind, _, name = ref.partition(":")
            assert kind in {"sai", "spell", "race", "rule"}, ref
            if kind == "rule":
                assert name in sections, ref
            if kind == "spell":
                assert ref in spell_ids, ref
        if r.part == "MONSTER SPECIAL ACTION ICONS" and r.topic != "General Rules":
            assert r.concerns[0] == "sai:" + r.topic.lower().replace(" ", "-")


def test_ruling_text_and_source(ctx, all_rulings):
    flat = _flat(ctx.text("004"))
    for r in all_rulings:
        assert f"{r.letter}) {_flat(r.text)}" in flat, r.id
        assert r.source.document == "004" and r.source.edition == "tsr-1996"
        assert r.source.section == r.id.rsplit(".", 1)[0]  # the topic's section


def test_letter_check_rejects_a_mis_split():
    rulings._check_letter("Charm", ["A", "B"], "C")
    rulings._check_letter("Charm", ["A", "B"], "B")  # a printed repeat
    with pytest.raises(ValueError):
        rulings._check_letter("Charm", ["A", "B"], "D")
    with pytest.raises(ValueError):
        rulings._check_letter("Charm", [], "B")


# --- glossary ------------------------------------------------------------


def test_glossary_counts(terms):
    assert len(terms) == 157
    assert Counter(t.kind for t in terms) == {"term": 127, "abbreviation": 30}
    # 001 (sfr-v4) has no glossary or abbreviation table
    assert {t.edition for t in terms} == {"sfr-2012"}
    assert len({t.id for t in terms}) == len(terms)


def test_reserve_army(term_by_id):
    t = term_by_id["reserve-army"]
    assert (t.term, t.kind, t.text, t.parent) == ("Reserve Army", "term", "The army located in the reserve area.", "army")
    assert t.source.section == "sfr-2012:glossary-of-dragon-dice-terms.reserve-army"


def test_groups(terms):
    children = Counter(t.parent for t in terms if t.parent)
    assert children == {
        "army": 17, "icon": 3, "major-terrain": 1, "march": 1, "multiple-castings": 4,
        "player": 2, "result": 1, "special-action-icon": 7, "targeting-effect": 3, "unit": 3,
    }


def test_enemy_unit_printed_twice(term_by_id):
    assert term_by_id["enemy-unit"].text == "A unit belonging to one of your opponents."
    assert term_by_id["enemy-unit"].parent is None
    assert term_by_id["enemy-unit-2"].text == "Any unit belonging to one of your opponents."
    assert term_by_id["enemy-unit-2"].parent == "unit"


def test_multi_paragraph_terms(term_by_id):
    assert term_by_id["health"].text.endswith("\n\n4-Health: monsters, champions, medallions and artifacts\n\n5-Health: dragons")
    assert "health-worth of units in an army targeted" in term_by_id["save-roll"].text
    stoneskin = term_by_id["stoneskin-rule"].text.split("\n\n")
    assert len(stoneskin) == 3 and stoneskin[2].startswith("The exception to this rule is SAIs")
    assert term_by_id["result"].text.split("\n\n")[1].startswith("However, for eighth face")


def test_term_names(term_by_id):
    assert term_by_id["buried-unit-area"].term == "Buried Unit Area"
    assert term_by_id["buried-unit-area"].aliases == ("BUA",)
    assert term_by_id["special-action-icon"].aliases == ("SAI",)
    assert term_by_id["capture-a-terrain"].term == "Capture a Terrain"
    assert term_by_id["terrain"].text.startswith('Unless otherwise noted in the rules, the term "terrain"')
    assert term_by_id["out-of-the-game"].aliases == ("Removed from the Game",)
    assert term_by_id["this-spell-can-be-cast-only-once-per-magic-action"].parent == "multiple-castings"


def test_abbreviations(terms, term_by_id):
    abbr = {t.term: t for t in terms if t.kind == "abbreviation"}
    assert sorted(abbr) == sorted([
        "AM", "BUA", "BYO", "CE", "DK", "DKC", "DH", "DL", "DM", "DS", "DUA", "DW", "EA", "FoD", "FE",
        "FW", "FR", "GB", "LE", "LS", "MI", "MIAM", "OG", "RftA", "SAI", "SC", "SS", "TF", "TRtM", "UD",
    ])
    trtm = term_by_id["trtm"]
    assert (trtm.term, trtm.expansion, trtm.category) == ("TRtM", "Transmute Rock to Mud", "spell")
    assert (abbr["DUA"].expansion, abbr["DUA"].category) == ("Dead Unit Area", "term")
    assert (abbr["RftA"].expansion, abbr["RftA"].category) == ("Rise from the Ashes", "SAI")
    assert (abbr["DKC"].expansion, abbr["DKC"].category) == ("Dragonkin Champion", "promotional die")
    assert abbr["MIAM"].expansion == "Magical Item, Artifact and Medallion"
    assert all(t.id == t.term.lower() for t in abbr.values())


def test_abbreviation_id_clash_gets_suffix(ctx):
    records = glossary._abbreviations(ctx, taken={"sai"})
    assert {r.id for r in records if r.term == "SAI"} == {"sai-abbr"}


def test_glossary_text_and_source(ctx, terms):
    flat = _flat(ctx.text("002"))
    for t in terms:
        assert _flat(t.text) in flat, t.id
        assert t.source.document == "002" and t.source.edition == "sfr-2012"
        if t.kind == "term":
            assert t.expansion is None and t.category is None
        else:
            assert t.text == f"{t.term} {t.expansion} ({t.category})"
