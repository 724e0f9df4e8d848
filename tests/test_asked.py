"""The players' questions a record answers, searched as its ``asked`` field (issue 23, fourteenth pass):
the relevance set's tuning half (corpus/questions/, ``index.documents.asked_questions``). The held-out
half measures the ranking, so it must never be searched."""

from __future__ import annotations

from index.analysis import stem, terms, words
from index.documents import asked_questions, documents
from index.search import search, searcher
from index.synonyms import synonyms_of
from fast_yaml import load_yaml
from tools.check_relevance_set import TUNING_FILE, nearly_repeating, unseen_questions

TUNING = load_yaml(TUNING_FILE.read_text(encoding="utf-8"))


def test_every_record_answering_a_tuning_question_is_asked_it():
    """In every edition of the record: a lookup of Wall of Fog shows its 2012 text first, whichever
    edition a question about it named."""
    docs = list(documents())
    for q in TUNING:
        for ref in q["expect"]:
            kind, rest = ref.split(":", 1)
            rid = rest.rsplit("@", 1)[0]
            editions = [d for d in docs if d["type"] == kind and d["id"] == rid]
            assert editions and all(q["q"] in d["asked"] for d in editions), (q["q"], ref)


def test_no_unseen_question_is_asked_nor_nearly_repeated():
    """A held-out question in the asked field, or one nearly repeating it, would answer itself, and the
    held-out figures would stop measuring anything. Nearly: the same words, as sets, with a Jaccard
    similarity of 0.6 or more, stricter than the checker's 0.8 between questions (13 tuning questions
    were that close to held-out ones, one a misspelling of it, and left the tuning half for this).
    tests/test_players_words.py holds the players' phrases to the same. So for the fresh set."""
    near = nearly_repeating((t for ts in asked_questions().values() for t in ts), unseen_questions())
    assert not near, near[:10]


def test_a_question_worded_like_a_tuning_question_finds_its_answer():
    """"two damage got through, may the defender lose one rare die rather than two commons" is answered by
    the damage rules (sfr-2012:damage: the damage must be covered in full whenever possible; sfr-v4 says
    the same), which the books' words alone do not find: without the asked field Open Grave, a ruling on
    Stone and the Rare Dragonkin's breath led, and neither section was in the first four. A tuning
    question asks it in other words ("2 points of damage got through, can my oponent just drop his rare
    instead of two commons")."""
    hits = search("two damage got through, may the defender lose one rare die rather than two commons").hits[:3]
    assert {"sfr-2012:damage", "sfr-v4:marches.health-resolving-damage"} & {h.id for h in hits}, [h.id for h in hits]


def test_the_typos_of_the_asked_questions_are_still_corrected():
    """The questions keep their players' typos ("missles", "manuever"); in the index such a word would
    be a known word, never corrected again (index.build._spelled leaves them out). No typo whose stem no
    word of the books or English shares is known to the index, and those of the issue's kind are corrected."""
    db = searcher().db
    vocab = {w for (w,) in db.query("SELECT word FROM vocab")}
    typed = {w for q in TUNING for w in words(q["q"]) if w.isalpha() and len(w) >= 4}
    english = db.english(sorted(typed))
    stems = {stem(w) for w in vocab | english}  # "somebodys" is "somebody", kept as English
    typos = sorted(w for w in typed if w not in vocab | english and stem(w) not in stems and not synonyms_of(w))
    assert len(typos) >= 20, typos
    assert not [w for w in typos if db.known([w], terms(w))]
    assert [search(w).understood for w in ("missles", "manuever", "alowed")] == ["missiles", "maneuver", "allowed"]
