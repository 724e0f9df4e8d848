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


def test_a_word_and_its_inflections_share_a_stem():
    """Porter's step 1b (whoosh 2.7's never applied it): a doubled consonant is undoubled and a
    lost "e" comes back, so "stop" finds "stopped" and "eliminate" finds "eliminated"."""
    for family in ("stop stopped stopping stops", "web webbed webs", "begin beginning begins",
                   "eliminate eliminated eliminates", "win winning wins", "set setting sets",
                   "generate generated", "drop dropped", "hit hitting hits", "swap swapped swapping"):
        stems = {terms(word) for word in family.split()}
        assert len(stems) == 1, (family, stems)


def test_words_of_two_letters_are_not_stemmed():
    assert terms("LS DS vs") == ("ls", "ds", "vs")
