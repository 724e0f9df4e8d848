"""index/analysis.py: the query side reads words exactly as whoosh indexed them."""

from __future__ import annotations

from index.analysis import analyzer, terms
from index.documents import documents


def test_query_terms_match_the_indexed_terms_on_the_whole_corpus():
    whoosh = analyzer()
    for doc in documents():
        for field in ("title", "names", "context", "body"):
            text = doc[field]
            assert terms(text) == tuple(t.text for t in whoosh(text)), (doc["key"], field)


def test_stems_stop_words_and_question_words():
    assert terms("What does a dragon's belly do?") == ("dragon", "belli")
    assert terms("halve halved halves") == ("halv", "halv", "halv")
    assert terms("Buried bury") == ("buri", "buri")
