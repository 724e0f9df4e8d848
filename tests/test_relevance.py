"""Search quality against a rules expert's answers (issues 4 and 23).

The relevance set has two halves. ``corpus/questions/tuning.yaml`` (the tuning
half) holds the questions the ranking was tuned on: issue 4's set and issue 23's
own examples, the first held-out half, moved there once it had been measured many
times, and the fresh blind sets of each pass. It is corpus data: the index searches
its questions as the ``asked`` field of the records answering them
(``index.documents.asked_questions``), so its own figures measure questions the index
holds (``bench/asked_cv.py`` measures it as new questions, by cross-validation).
``tests/relevance/heldout.yaml`` (the held-out half) holds 299 questions written
afterwards, their answers checked in the rule text with the quote written down, without
ever seeing the ranking, which is never tuned on them, and never in the index
(tests/test_asked.py). ``tests/relevance/fresh.yaml`` (the fresh set) holds 1,301 more blind
questions, never tuned on and never in the index either, measured on their writers' answers. Each question
names the records that answer it. The first tests check that ground truth against
the corpus (no index needed); the last ones run every question through
``index.search.search``: the held-out half is measured against issue 23's targets
(precision@3 >= 0.95, precision@1 >= 0.80, MRR@10 >= 0.85, with the pooled judgments: asserted,
and at what it reaches now, ``REACHED``), and issue 4's set in the tuning half keeps its
precision@3 >= 0.9.

A hit stands for a record in every edition it shows (``Hit.members``). A record's
own rule section (the section it cites, headed with the record's name: a spell's
entry, a race's section, a glossary entry, a ruling's FAQ topic) is the same
passage of the book, so it answers whatever the record answers; ``answers_to``
adds it.
"""

from __future__ import annotations

from collections import Counter

import pytest

from index.corpus import records, sections
# the relevance set's own vocabulary, one definition for this test and the set's checker
from tools.check_relevance_set import (EDITIONS, FRESH_FILE, HELDOUT_FILE, KEYS, KINDS, RECORD_KINDS, TUNING_FILE,
                                       answers_to,
                                       corpus_refs, flat, judged_problems, own_sections, parse_ref,
                                       quoted_pieces)
from relevance_metrics import figures as rank_figures, first_rank, hit_refs
from fast_yaml import load_yaml

TOP = 3
THRESHOLD = 0.9  # the tuning half's precision@3 (issue 4)
DEPTH = 10
TARGETS = {"p3": 0.95, "p1": 0.80, "mrr": 0.85}  # issue 23's targets for the held-out half
# What the held-out half reaches now, asserted so that no change slips below it, with the answers a judge
# found later among the ranking's unlisted hits (``also``, tools/pool_judgments.py; docs/search.md, the
# seventeenth to twentieth passes): P@1 0.900, P@3 0.957 (286 of 299), P@10 0.983, MRR 0.931: issue 23's
# targets are met. On its writers' answers alone (``expect``): P@1 0.870, P@3 0.950 (284 of 299 is 0.9498),
# P@10 0.977, MRR 0.912.
REACHED = {"p3": 0.956, "p1": 0.899, "mrr": 0.930}  # P@3: 286 of 299 is 0.9565; P@1: 269 of 299 is 0.8997
WRITERS_REACHED = {"p3": 0.949, "p1": 0.869, "mrr": 0.912}  # P@3: 284 of 299 is 0.9498; P@1: 260 of 299 is 0.8696
# What the whole tuning half (issue 4's set, issue 23's examples, the players' questions added with
# it, the first held-out half's 81 questions, and the fresh blind sets of the eighth to fifteenth and the
# eighteenth passes) reaches now, its questions in the index, with its judged answers: P@1 0.973, P@3 0.995,
# P@10 0.999, MRR 0.984 over 1,963 questions (floors, rounded down; as new questions, cross-validated in
# 5 folds: 0.849 / 0.956 / 0.991 / 0.903).
TUNING_REACHED = {"p3": 0.994, "p1": 0.972, "mrr": 0.983}
# What the fresh set (1,301 blind questions, never tuned on, not pooled: its writers' answers alone) reaches
# now: P@1 0.795, P@3 0.944 (1,228 of 1,301), P@10 0.986, MRR 0.872 (before the nineteenth and twentieth
# passes: 0.770 / 0.934 / 0.980 / 0.856).
FRESH_REACHED = {"p3": 0.943, "p1": 0.794, "mrr": 0.871}
# The issue names these; they must stay in the ground truth.
ISSUE_QUESTIONS = (
    "maneuver results count as saves in coastland",
    "halve missile damage",
    "bury dead units",
    "what does a dragon's belly do",
    "spell that moves a unit to another terrain",
)

TUNING: list[dict] = load_yaml(TUNING_FILE.read_text(encoding="utf-8"))
HELDOUT: list[dict] = load_yaml(HELDOUT_FILE.read_text(encoding="utf-8"))
FRESH: list[dict] = load_yaml(FRESH_FILE.read_text(encoding="utf-8"))
QUESTIONS: list[dict] = TUNING + HELDOUT + FRESH  # the ground-truth checks cover every set


def _text(question: dict) -> str:
    return " ".join(question["q"].lower().split())


def label(question: dict) -> str:
    filters = [f"{k}={question[k]}" for k in ("edition", "type") if k in question]
    return repr(question["q"]) + (f" [{', '.join(filters)}]" if filters else "")


# --- the ground truth itself (fast, no index) ---------------------------------


def test_questions_are_well_formed():
    assert len(QUESTIONS) >= 150 and len(HELDOUT) >= 150 and len(TUNING) >= 195
    for question in QUESTIONS:
        assert set(question) <= KEYS, f"{label(question)}: unknown keys {set(question) - KEYS}"
        assert question["q"].strip() and question["why"].strip() and question["expect"], label(question)
        assert question.get("edition", EDITIONS[0]) in EDITIONS, label(question)
        assert question.get("type", KINDS[0]) in KINDS, label(question)
    for half in (TUNING, HELDOUT, FRESH):  # across the sets: test_the_halves_do_not_share_a_question
        texts = Counter(_text(q) for q in half)
        assert not [t for t, n in texts.items() if n > 1], "duplicate questions"


def test_every_new_answer_is_quoted_from_the_rule_text():
    """Issue 23's questions (the held-out half, and the tuning half's issue examples) each carry the
    words of the book that answer them: every stretch of the quote stands in the cited section or in
    an expected record's text."""
    texts = {f"{kind}:{r.id}@{r.edition}": getattr(r, "text", "") or "" for kind in RECORD_KINDS for r in records(kind)}
    quoted = [q for q in QUESTIONS if "quote" in q]
    assert len(quoted) >= len(HELDOUT) and all("quote" in q for q in HELDOUT)
    bad = []
    for q in quoted:
        pool = flat(sections()[q["why"].split(": ", 1)[0]].text) + " | " + \
            " | ".join(flat(texts.get(ref, "")) for ref in q["expect"])
        bad += [f"{label(q)}: {p!r}" for p in quoted_pieces(q["quote"]) if p not in pool]
    assert not bad, "quotes not in the rule text:\n" + "\n".join(bad)


def test_every_judged_answer_is_quoted_from_its_record():
    """The answers a judge found later among the ranking's unlisted hits (tools/pool_judgments.py)
    and the hits judged not to answer: real refs, within the question's filters, listed once, each
    answer with the words of its own record that settle the question."""
    known = corpus_refs()
    bad = [f"{label(q)}: {p}" for q in QUESTIONS for p in judged_problems(q, known)]
    assert not bad, "\n".join(bad)


def test_the_halves_do_not_share_a_question():
    tuning, held = {_text(q) for q in TUNING}, {_text(q) for q in HELDOUT}
    assert not [q["q"] for q in HELDOUT if _text(q) in tuning]
    assert not [q["q"] for q in FRESH if _text(q) in tuning | held]


def test_issue_questions_are_kept():
    texts = {q["q"] for q in QUESTIONS}
    assert not [q for q in ISSUE_QUESTIONS if q not in texts]


def test_every_expected_ref_exists_in_the_corpus():
    known = corpus_refs()
    missing = [
        f"{label(q)}: {ref}" for q in QUESTIONS for ref in q["expect"] if parse_ref(ref) not in known
    ]
    assert not missing, "refs not in the corpus:\n" + "\n".join(missing)


def test_every_why_cites_an_existing_section():
    # why: "<section id>: reason" -- the section a rules expert would open
    known = sections()
    bad = [label(q) for q in QUESTIONS if q["why"].split(": ", 1)[0] not in known]
    assert not bad, "why does not start with an existing section id:\n" + "\n".join(bad)


def test_own_sections_are_not_listed_again():
    # they are implied (see the module docstring); listing them would only hide that rule
    bad = [
        f"{label(q)}: {ref}"
        for q in QUESTIONS
        for ref in q["expect"]
        if ref in {own_sections().get(r) for r in q["expect"]}
    ]
    assert not bad, "own sections listed next to their records:\n" + "\n".join(bad)


def test_own_sections_are_the_records_passages():
    # the equivalence holds for the entries of spells, SAIs, glossary terms and rulings ...
    own = own_sections()
    assert own["spell:wall-of-fog@sfr-2012"] == "rule:sfr-2012:green-water-spells.wall-of-fog@sfr-2012"
    assert own["glossary:dead-unit-area@sfr-2012"] == "rule:sfr-2012:glossary-of-dragon-dice-terms.dead-unit-area-dua@sfr-2012"
    assert own["ruling:tsr-1996:faq.monster-special-action-icons.charm.e-2@tsr-1996"] == (
        "rule:tsr-1996:faq.monster-special-action-icons.charm@tsr-1996"
    )
    # ... but not for a section that lists many records (the 1996 spell lists, the unit tables)
    assert "spell:path@tsr-1996" not in own
    assert "unit:coral-elf-trooper@sfr-2012" not in own
    assert "glossary:trtm@sfr-2012" not in own


def test_expected_refs_obey_the_question_filters():
    # an edition/type filter that excludes every expected ref makes a question unanswerable
    bad = []
    for question in QUESTIONS:
        for ref in question["expect"]:
            kind, _, edition = parse_ref(ref)
            if question.get("edition", edition) != edition or question.get("type", kind) != kind:
                bad.append(f"{label(question)}: {ref}")
    assert not bad, "expected refs outside the question's own filters:\n" + "\n".join(bad)


def test_questions_cover_every_kind_and_edition():
    # every kind and edition is the answer to at least one question
    kinds = Counter(k for q in QUESTIONS for k in {parse_ref(r)[0] for r in q["expect"]})
    editions = Counter(e for q in QUESTIONS for e in {parse_ref(r)[2] for r in q["expect"]})
    assert set(kinds) == set(KINDS), f"kinds never expected: {set(KINDS) - set(kinds)}"
    assert set(editions) == set(EDITIONS), f"editions never expected: {set(EDITIONS) - set(editions)}"
    assert sum("edition" in q for q in QUESTIONS) >= 10
    assert sum("type" in q for q in QUESTIONS) >= 5


# --- the search backend ---------------------------------------------------------


@pytest.fixture(scope="module")
def cache_dir(tmp_path_factory):
    """An index cache of this module's own: these tests never touch the user's cache."""
    path = tmp_path_factory.mktemp("ddref-cache")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("DDREF_CACHE_DIR", str(path))
        yield path


@pytest.fixture(scope="module")
def answers(cache_dir):
    """Every question of both halves with the top hits search() returns, run once for the module."""
    # imported here, not skipped: a missing backend must fail these tests loudly
    from index.search import search

    return {id(q): search(q["q"], edition=q.get("edition"), kind=q.get("type"), limit=DEPTH).hits for q in QUESTIONS}


def figures(questions: list[dict], answers, judged: bool = True) -> dict[str, float]:
    return rank_figures([first_rank(q, map(hit_refs, answers[id(q)]), judged) for q in questions], DEPTH)


def _measured(label: str, questions: list[dict], answers, judged: bool = True) -> dict[str, float]:
    """The figures of ``questions``, printed under ``label``."""
    found = figures(questions, answers, judged)
    print(f"{label}: P@1 {found['p1']:.3f} P@3 {found['p3']:.3f} P@10 {found['p10']:.3f} MRR {found['mrr']:.3f}")
    return found


def _below(found: dict[str, float], floors: dict[str, float], label: str) -> dict[str, str]:
    return {f"{k} ({label})": f"{found[k]:.3f} < {v}" for k, v in floors.items() if found[k] < v}


def test_held_out_half(answers):
    """On questions the ranking was never tuned on (only the figures are shown, never the hits):
    issue 23's targets, with the pooled judgments, and at least what is reached now on both readings."""
    judged = _measured("held-out", HELDOUT, answers)
    writers = _measured("held-out, its writers answers only", HELDOUT, answers, judged=False)
    fell = _below(judged, TARGETS, "issue 23's targets") | _below(judged, REACHED, "judged") | \
        _below(writers, WRITERS_REACHED, "writers")
    assert not fell, f"the held-out half fell below what it reached: {fell}"


def test_fresh_set(answers):
    """A second blind set the ranking never saw (only its figures are shown): at least what it reaches
    now, on its writers' answers."""
    fell = _below(_measured("fresh", FRESH, answers, judged=False), FRESH_REACHED, "fresh")
    assert not fell, f"the fresh set fell below what it reached: {fell}"


def test_tuning_half(answers):
    """The whole tuning half keeps what it reaches (a ranking change is measured on it first)."""
    fell = _below(_measured("tuning", TUNING, answers), TUNING_REACHED, "tuning")
    assert not fell, f"the tuning half fell below what it reached: {fell}"


def test_precision_at_3(answers):
    """Issue 4's set (the tuning half's questions without a quote) keeps its precision@3."""
    issue4 = [q for q in TUNING if "quote" not in q]
    assert len(issue4) == 87
    failed = [q for q in issue4 if (first_rank(q, map(hit_refs, answers[id(q)])) or DEPTH + 1) > TOP]
    precision = 1 - len(failed) / len(issue4)
    report = "\n".join(
        f"- {label(q)}\n    expected any of: {', '.join(sorted(answers_to(q)))}\n"
        f"    got: {', '.join(sorted(hit_refs(h).pop() for h in answers[id(q)][:TOP])) or '(nothing)'}"
        for q in failed
    )
    print(f"issue 4's set: precision@{TOP} = {precision:.3f} over {len(issue4)} questions")
    assert precision >= THRESHOLD, (
        f"precision@{TOP} {precision:.3f} < {THRESHOLD} ({len(failed)} of {len(issue4)} failed):\n{report}"
    )


def test_hits_obey_limit_and_filters(answers):
    bad = [
        f"{label(q)}: {h.kind}:{h.id}@{h.edition}"
        for q in QUESTIONS
        for h in answers[id(q)]
        if h.edition != q.get("edition", h.edition) or h.kind != q.get("type", h.kind)
        or {e for e, _ in h.members} - {q.get("edition", e) for e, _ in h.members}
    ]
    assert not bad, "hits outside the requested edition/type:\n" + "\n".join(bad)
    assert all(len(answers[id(q)]) <= DEPTH for q in QUESTIONS)


def test_index_was_built_in_the_isolated_cache(answers, cache_dir):
    assert any(p.is_file() for p in cache_dir.rglob("*")), f"nothing was written under {cache_dir}"
