"""Relevance figures over the two halves of the relevance set (issue 23), for the test and the bench.

A hit answers a question when any edition it stands for (``Hit.editions``, one hit per
record across editions) is an expected ref, or that ref's own rule section.
"""

from __future__ import annotations

from fast_yaml import load_yaml
from tools.check_relevance_set import SET_FILES as FILES, answers_to

SETS = tuple(FILES)  # the two halves, then the fresh set


def load(half: str) -> list[dict]:
    return load_yaml(FILES[half].read_text(encoding="utf-8"))


def hit_refs(hit) -> set[str]:
    """Every ref a hit stands for: itself, and the same record in the other editions it shows."""
    members = getattr(hit, "members", None) or ((hit.edition, hit.id),)
    return {f"{hit.kind}:{rid}@{edition}" for edition, rid in members}


def first_rank(question: dict, ref_sets, judged: bool = True) -> int | None:
    """1-based rank of the first hit answering the question, None when none does; ``ref_sets`` holds
    each hit's refs (``hit_refs``, or the refs ``ranked_refs`` keeps), with the judged answers
    (``also``) counted unless ``judged`` is false."""
    expected = answers_to(question, judged)
    return next((i for i, refs in enumerate(ref_sets, 1) if expected & set(refs)), None)


def ranked_refs(questions: list[dict], depth: int) -> dict[str, list[tuple[str, list[str]]]]:
    """Question text -> its first ``depth`` hits, each as its lead ref and every ref it stands for."""
    from index.search import search

    return {q["q"]: [(f"{h.kind}:{h.id}@{h.edition}", sorted(hit_refs(h)))
                     for h in search(q["q"], edition=q.get("edition"), kind=q.get("type"), limit=depth).hits]
            for q in questions}


def evaluate(questions: list[dict], depth: int = 10, judged: bool = True) -> tuple[dict, list[str]]:
    """P@1, P@3, P@depth and MRR@depth (and the misses at 1, as lines) over ``questions``; with the
    answers judged later (``also``) unless ``judged`` is false: its writers' answers only."""
    found = ranked_refs(questions, depth)
    ranks, misses = [], []
    for q in questions:
        hits = found[q["q"]]
        rank = first_rank(q, (refs for _lead, refs in hits), judged)
        ranks.append(rank)
        if rank is None or rank > 1:
            misses.append(f"{q['q']!r} rank {rank}: got {', '.join(lead for lead, _refs in hits[:5])}")
    return figures(ranks, depth), misses


def figures(ranks: list[int | None], depth: int = 10) -> dict:
    """P@1, P@3, P@depth and MRR@depth of the first answering ranks (None: none in the first ``depth``)."""
    n = len(ranks)
    at = lambda k: sum(1 for r in ranks if r is not None and r <= k) / n  # noqa: E731
    mrr = sum(1 / r for r in ranks if r is not None) / n
    return {"n": n, "p1": at(1), "p3": at(3), "p10": at(depth), "mrr": mrr}
