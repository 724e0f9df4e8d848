"""Players' words (issue 23): an authored field of the ways players ask for each record, searched
with the books' text (corpus/words/, ``index.documents.players_words``)."""

from __future__ import annotations

import pytest
import yaml

from index.corpus import ROOT
from index.documents import TYPES, WORDS_DIR, documents, players_words
from index.search import search
from fast_yaml import load_yaml

FILES = sorted((ROOT / WORDS_DIR).glob("*.yaml"))


def _found(hits, key: str) -> bool:
    """Whether one of ``hits`` is the record ``type/id`` (any edition it stands for)."""
    kind, _, rid = key.partition("/")
    return any(h.kind == kind and any(r == rid for _, r in h.members) for h in hits)


def test_the_words_files_are_one_per_kind_of_search_record():
    assert FILES and {f.stem for f in FILES} <= set(TYPES), [f.name for f in FILES]


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_every_key_names_an_existing_record_once_with_phrases(path):
    """A key names a record of the file's kind (``spell/wall-of-fog``, ``rule/sfr-2012:promotion``),
    once (a repeated key would silently drop the first entry's phrases), with a list of phrases."""
    ids = {d["id"] for d in documents() if d["type"] == path.stem}
    node = yaml.compose(path.read_text(encoding="utf-8"))
    keys = [k.value for k, _ in node.value]
    assert len(keys) == len(set(keys)), sorted(k for k in keys if keys.count(k) > 1)
    assert not [k for k in keys if k not in ids], [k for k in keys if k not in ids]
    for rid, phrases in load_yaml(path.read_text(encoding="utf-8")).items():
        assert isinstance(phrases, list) and phrases and all(isinstance(p, str) and p.strip() for p in phrases), rid


def test_every_document_of_a_record_carries_its_words_in_every_edition():
    said = players_words()
    for d in documents():
        phrases = said.get(f"{d['type']}/{d['id']}")
        assert (d["words"] != "") == bool(phrases), d["key"]
        assert all(p in d["words"] for p in phrases or ()), d["key"]


def test_every_record_with_players_words_is_found_by_them():
    """For every record given players' words, at least one of its phrases finds it in the first ten:
    the field is searched for all of them, not only for the few a test names."""
    missed = [key for key, phrases in players_words().items()
              if key.split("/")[0] != "rule" and not any(_found(search(p, limit=10).hits, key) for p in phrases)]
    assert not missed, missed


@pytest.mark.parametrize("query, lacking, key", [
    # both Promotions hold the phrase; the glossary's line leads the section since the asked field
    ("grow into a bigger unit", "bigger", "glossary/promotion"),
    ("mind control enemy units", "mind", "sai/charm"),
    ("make my undead untouchable", "untouchable", "spell/fade"),
    ("dead units get up and fight", "fight", "spell/haunt"),
    ("can amazons shooting from reserves split hits between armies", "split",
     "ruling/tsr-1996:faq.amazons.amazons-in-reserves.d"),
])
def test_players_words_the_books_do_not_use_find_the_record(query, lacking, key):
    """Words the record's own text does not hold ("bigger", "mind control"): only its players' words
    say them, and they bring it into the first three."""
    kind, _, rid = key.partition("/")
    text = " ".join(d["title"] + " " + d["body"] for d in documents() if d["type"] == kind and d["id"] == rid).lower()
    assert lacking not in text, f"the record's text says {lacking!r}: not a players' word"
    assert _found(search(query, limit=3).hits, key), [(h.kind, h.id) for h in search(query, limit=3).hits]


def test_no_phrase_nearly_repeats_an_unseen_question():
    """The held-out half measures the ranking on questions it never saw: a players' phrase that repeats
    one (two did, word for word, and 22 more nearly) answers it from the index. Nearly: the same words,
    as sets, with a Jaccard similarity of 0.6 or more (the set checker's 0.8 between questions, made
    stricter). So for the fresh set, measured the same way."""
    from tools.check_relevance_set import nearly_repeating, unseen_questions

    near = nearly_repeating((p for ps in players_words().values() for p in ps), unseen_questions())
    assert not near, near[:10]
