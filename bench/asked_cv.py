"""Cross-validated relevance of the asked field (issue 23): what the tuning half says about new questions.

    python bench/asked_cv.py            # 5 folds, with and without the asked field
    python bench/asked_cv.py --folds 10 --jobs 4

The index searches the tuning half's questions as the ``asked`` field of the records answering them
(``index.documents.asked_questions``), so the tuning half's own figures (bench/relevance_report.py)
measure questions the index holds. This script measures it as new questions: the tuning half is cut
into folds (question i in fold i mod K); each fold is searched on an index built with the other folds'
questions only, and the figures are summed over the folds. "without" builds with no asked questions:
the same ranking otherwise, for the difference. Each fold builds into a temporary cache directory of
its own, never the user's. (Near-repeats across folds make it a little kind; tests/test_asked.py keeps
the held-out half, the real measure, out of the index.)
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]
DEPTH = 10


def _fold(folds: int, fold: int, asked: bool, depth: int) -> dict[str, list[tuple[str, list[str]]]]:
    """Fold ``fold``'s questions -> their first ``depth`` hits (each its lead ref and every ref it stands
    for) on an index asked the other folds' questions (or none)."""
    sys.path[:0] = [str(ROOT), str(ROOT / "tests")]  # a spawned process starts with its own path
    os.environ["DDREF_CACHE_DIR"] = tempfile.mkdtemp(prefix="ddref-asked-cv-")
    import index.documents as documents
    from relevance_metrics import load, ranked_refs

    questions = load("tuning")
    mine = {q["q"] for i, q in enumerate(questions) if i % folds == fold}
    whole = documents.asked_questions
    documents.asked_questions = lambda: {k: [q for q in qs if q not in mine] for k, qs in whole().items()} \
        if asked else {}
    return ranked_refs([q for q in questions if q["q"] in mine], depth)  # searched after the patch


def cross_validated(folds: int, jobs: int, asked: bool = True,
                    depth: int = DEPTH) -> dict[str, list[tuple[str, list[str]]]]:
    """Every tuning question -> its hits as a new question (``_fold``), one process per fold (the
    index and its searcher are built once per process)."""
    with ProcessPoolExecutor(jobs, mp_context=get_context("spawn"), max_tasks_per_child=1) as pool:
        return {q: hits for part in pool.map(_fold, [folds] * folds, range(folds), [asked] * folds, [depth] * folds)
                for q, hits in part.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--folds", type=int, default=5)
    parser.add_argument("--jobs", type=int, default=min(4, os.cpu_count() or 1))
    args = parser.parse_args()
    from relevance_metrics import figures, first_rank, load

    questions = load("tuning")
    for asked in (False, True):
        hits = cross_validated(args.folds, args.jobs, asked)
        found = figures([first_rank(q, (refs for _lead, refs in hits[q["q"]])) for q in questions], DEPTH)
        print(f"{'with' if asked else 'without':8} {found['n']:4} questions, {args.folds} folds  "
              f"P@1 {found['p1']:.3f}  P@3 {found['p3']:.3f}  P@10 {found['p10']:.3f}  "
              f"MRR@{DEPTH} {found['mrr']:.3f}", flush=True)


if __name__ == "__main__":
    main()
