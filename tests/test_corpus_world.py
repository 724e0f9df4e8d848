"""corpus/records/{terrains,eighth_faces,dragons}.json: the board and the dragons of
the three editions, checked against the normalized documents they come from.

Every number below was read in the documents by hand:
000 (tsr-1996) "Basic Terms", "The Eighth Face", "Dragon Rules", "Dragon Slaying";
001 (sfr-v4 starter) "TERRAIN - EIGHTH FACE", "DRAGONS";
002 (sfr-2012) "Basic Terms", "Dragons", "The Eighth Face", "Minor Terrains",
"Special Terrains", "Hybrid Dragons", "Ivory Hybrid Dragons", "White Dragons".
"""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import pytest

from engine.records import Dragon, EighthFace, Terrain
from tools.corpus import dragons as dragons_extractor
from tools.corpus import terrains as terrains_extractor

RECORDS = Path(__file__).resolve().parents[1] / "corpus" / "records"
DOCUMENT = {"tsr-1996": "000", "sfr-v4": "001", "sfr-2012": "002"}
ICONS = {"city", "standing-stones", "temple", "tower"}


def _flat(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def _load(name: str) -> list[dict]:
    return json.loads((RECORDS / f"{name}.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def terrains() -> list[Terrain]:
    return [Terrain.model_validate(row) for row in _load("terrains")]


@pytest.fixture(scope="module")
def faces() -> list[EighthFace]:
    return [EighthFace.model_validate(row) for row in _load("eighth_faces")]


@pytest.fixture(scope="module")
def dragons() -> list[Dragon]:
    return [Dragon.model_validate(row) for row in _load("dragons")]


def _one(records, edition: str, id_: str):
    found = [r for r in records if r.edition == edition and r.id == id_]
    assert len(found) == 1, (edition, id_)
    return found[0]


def _face(dragon: Dragon, name: str):
    found = [f for f in dragon.faces if f.face == name]
    assert len(found) == 1, (dragon.edition, dragon.id, name)
    return found[0]


def _breath(dragon: Dragon, color: str | None):
    found = [b for b in dragon.breaths if b.color == color]
    assert len(found) == 1, (dragon.edition, dragon.id, color)
    return found[0]


# --- shape --------------------------------------------------------------------


@pytest.mark.parametrize("name, model", [("terrains", Terrain), ("eighth_faces", EighthFace), ("dragons", Dragon)])
def test_rows_round_trip_through_the_model(name, model):
    rows = _load(name)
    assert [model.model_validate(r).model_dump(mode="json") for r in rows] == rows


@pytest.mark.parametrize("name, extract", [
    ("terrains", terrains_extractor.extract),
    ("eighth_faces", terrains_extractor.extract_eighth_faces),
    ("dragons", dragons_extractor.extract),
])
def test_committed_records_are_current(ctx, name, extract):
    assert [r.model_dump(mode="json") for r in extract(ctx)] == _load(name)


@pytest.mark.parametrize("name", ["terrains", "eighth_faces", "dragons"])
def test_sorted_unique_and_sourced_from_their_edition(name):
    rows = _load(name)
    keys = [(r["edition"], r["id"]) for r in rows]
    assert keys == sorted(keys)
    assert len(set(keys)) == len(keys)
    for r in rows:
        assert r["source"]["edition"] == r["edition"]
        assert r["source"]["document"] == DOCUMENT[r["edition"]]


# --- counts -------------------------------------------------------------------


def test_terrain_counts(terrains):
    # The sfr-v4 starter never names a terrain type: no records.
    assert Counter(t.edition for t in terrains) == {"tsr-1996": 4, "sfr-2012": 14}
    kinds = Counter((t.edition, t.kind) for t in terrains)
    assert kinds == {("tsr-1996", "major"): 4, ("sfr-2012", "major"): 6,
                     ("sfr-2012", "minor"): 4, ("sfr-2012", "special"): 4}


def test_eighth_face_counts(faces):
    assert Counter(f.edition for f in faces) == {"tsr-1996": 4, "sfr-v4": 4, "sfr-2012": 4}
    for edition in DOCUMENT:
        assert {f.id for f in faces if f.edition == edition} == ICONS


def test_dragon_counts(dragons):
    assert {(d.edition, d.id) for d in dragons} == {
        ("tsr-1996", "drake"), ("tsr-1996", "wyrm"), ("sfr-v4", "dragon"),
        ("sfr-2012", "elemental"), ("sfr-2012", "ivory"), ("sfr-2012", "hybrid"),
        ("sfr-2012", "ivory-hybrid"), ("sfr-2012", "white"),
    }
    faces = {(d.edition, d.id): len(d.faces) for d in dragons}
    assert faces == {("tsr-1996", "drake"): 6, ("tsr-1996", "wyrm"): 6, ("sfr-v4", "dragon"): 7,
                     ("sfr-2012", "elemental"): 7, ("sfr-2012", "ivory"): 7, ("sfr-2012", "hybrid"): 7,
                     ("sfr-2012", "ivory-hybrid"): 7, ("sfr-2012", "white"): 7}
    breaths = {(d.edition, d.id): len(d.breaths) for d in dragons}
    assert breaths == {("tsr-1996", "drake"): 5, ("tsr-1996", "wyrm"): 5, ("sfr-v4", "dragon"): 1,
                       ("sfr-2012", "elemental"): 5, ("sfr-2012", "ivory"): 1, ("sfr-2012", "hybrid"): 1,
                       ("sfr-2012", "ivory-hybrid"): 1, ("sfr-2012", "white"): 1}


# --- texts are the documents' own ---------------------------------------------


def _texts(terrains, faces, dragons):
    """(document, cited section, text) for every text in the three files."""
    for r in [*terrains, *faces, *dragons]:
        yield r.source.document, r.source.section, r.text
    for d in dragons:
        for part in [*d.faces, *d.breaths]:
            assert part.source is not None, (d.edition, d.id, part)
            yield part.source.document, part.source.section, part.text


def test_every_text_occurs_in_its_source(ctx, terrains, faces, dragons):
    flat = {doc: _flat(ctx.text(doc)) for doc in DOCUMENT.values()}
    for doc, _, text in _texts(terrains, faces, dragons):
        assert text.strip(), doc
        assert _flat(text) in flat[doc], (doc, text[:80])


def test_every_text_starts_in_its_cited_section(ctx, terrains, faces, dragons):
    sections = {s.id: _flat(s.text) for doc in DOCUMENT.values() for s in ctx.sections[doc]}
    for _, section, text in _texts(terrains, faces, dragons):
        assert section in sections, section
        assert _flat(text)[:60] in sections[section], (section, text[:60])


# --- terrains -----------------------------------------------------------------


@pytest.mark.parametrize("edition", ["tsr-1996", "sfr-2012"])
def test_coastland_is_blue_and_green(terrains, edition):
    assert set(_one(terrains, edition, "coastland").colors) == {"blue", "green"}


def test_terrain_colors(terrains):
    tsr = {t.id: set(t.colors) for t in terrains if t.edition == "tsr-1996"}
    assert tsr == {"coastland": {"blue", "green"}, "flatland": {"blue", "gold"},
                   "highland": {"gold", "red"}, "swampland": {"gold", "green"}}
    sfr = {t.id: set(t.colors) for t in terrains if t.edition == "sfr-2012" and t.kind == "major"}
    assert sfr == {"coastland": {"blue", "green"}, "flatland": {"gold", "blue"}, "highland": {"gold", "red"},
                   "swampland": {"gold", "green"}, "feyland": {"green", "red"}, "wasteland": {"blue", "red"}}


def test_minor_terrains_and_their_disasters(terrains):
    minor = {t.id: t.disaster for t in terrains if t.kind == "minor"}
    assert minor == {"bridge": "Flood", "knoll": "Landslide", "village": "Revolt", "woods": "Lost"}
    assert "halved" in _one(terrains, "sfr-2012", "village").text        # Revolt halves melee and saves
    assert "loses the remainder of its current march" in _one(terrains, "sfr-2012", "woods").text


def test_special_terrains_are_frontier_only(terrains):
    special = [t for t in terrains if t.kind == "special"]
    assert {t.id for t in special} == {"castle", "dragons-lair", "grove", "vortex"}
    assert all(t.frontier_only and t.edition == "sfr-2012" for t in special)
    assert _one(terrains, "sfr-2012", "dragons-lair").name == "Dragon's Lair"
    assert not any(t.frontier_only for t in terrains if t.kind != "special")


# --- eighth faces ---------------------------------------------------------------


def test_eighth_face_rules_per_edition(faces):
    assert "Missile fire from this army can reach any terrain in play" in _one(faces, "tsr-1996", "tower").text
    assert "recruit a 1-health (small) unit" in _one(faces, "sfr-v4", "city").text
    temple = _one(faces, "sfr-2012", "temple").text
    assert temple.startswith("If your army controls a terrain with this icon, death (black) magic")
    # 002 breaks the Temple paragraph across a page: both halves belong to it.
    assert "from being targeted by black magic" in temple
    assert "Example" not in _one(faces, "sfr-2012", "standing-stones").text


# --- dragons --------------------------------------------------------------------


@pytest.mark.parametrize("edition, dragon, claws, jaws, tail, wing", [
    ("tsr-1996", "drake", 5, 10, 3, None),    # tsr Wing deals no damage: it only flies away
    ("tsr-1996", "wyrm", 5, 10, 3, None),
    ("sfr-v4", "dragon", 6, 12, 3, 5),
    ("sfr-2012", "elemental", 6, 12, 3, 5),
    ("sfr-2012", "ivory", 6, 12, 3, 5),
    ("sfr-2012", "white", 12, 24, 6, 10),     # "twice as much damage"
])
def test_face_damage(dragons, edition, dragon, claws, jaws, tail, wing):
    d = _one(dragons, edition, dragon)
    assert _face(d, "claws").damage == claws
    assert _face(d, "jaws").damage == jaws
    if tail is not None:
        assert _face(d, "tail").damage == tail and _face(d, "tail").roll_again
    if wing is not None or d.id == "drake":
        w = _face(d, "wing")
        assert w.damage == wing and w.flies_away


def test_tsr_forms_split_wing_and_treasure(dragons):
    drake, wyrm = _one(dragons, "tsr-1996", "drake"), _one(dragons, "tsr-1996", "wyrm")
    assert {f.face for f in drake.faces} == {"belly", "breath", "claws", "jaws", "tail", "wing"}
    assert {f.face for f in wyrm.faces} == {"belly", "breath", "claws", "jaws", "tail", "treasure"}
    assert drake.forms == ("drake",) and wyrm.forms == ("wyrm",)
    assert _face(wyrm, "treasure").promotes == 1


def test_health_and_saves(dragons):
    for d in dragons:
        assert d.saves == 5, d.id
        assert d.health == (10 if d.id == "white" else 5), d.id
    assert _face(_one(dragons, "sfr-2012", "white"), "treasure").promotes == 2
    assert _face(_one(dragons, "sfr-v4", "dragon"), "treasure").promotes == 1


def test_breaths_per_edition(dragons):
    tsr = _one(dragons, "tsr-1996", "drake")
    assert {b.color: b.name for b in tsr.breaths} == {
        "gold": "Turn to Stone", "blue": "Paralysis", "red": "Flame", "green": "Frost", "black": "Disease"}
    assert "killed and buried" in _breath(tsr, "red").text
    assert "halved" in _breath(tsr, "green").text
    assert "ID icons are killed and buried" in _breath(tsr, "black").text

    v4 = _breath(_one(dragons, "sfr-v4", "dragon"), None)
    assert v4.text == "Five health worth of units in the attacked army are immediately killed with no save possible."

    sfr = _one(dragons, "sfr-2012", "elemental")
    assert {b.color: b.name for b in sfr.breaths} == {
        "black": "Disease", "blue": "Lightning", "gold": "Turn to Stone", "green": "Poisonous Cloud", "red": "Flame"}
    assert "ignores all its ID results" in _breath(sfr, "black").text
    assert "missile results are halved" in _breath(sfr, "green").text
    assert _breath(_one(dragons, "sfr-2012", "ivory"), "ivory").name == "Life Drain"
    assert _breath(_one(dragons, "sfr-2012", "white"), "white").name == "Terrain Empathy"
    assert "both colors of army breath effects" in _breath(_one(dragons, "sfr-2012", "hybrid"), None).text


def test_sfr_2012_forms(dragons):
    for d in dragons:
        if d.edition == "sfr-2012":
            assert d.forms == ("drake", "wyrm")
    assert _one(dragons, "sfr-v4", "dragon").forms == ()   # the starter never names drakes or wyrms
