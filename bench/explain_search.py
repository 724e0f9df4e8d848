"""Why a query ranks what it ranks: each query word's BM25F share in the top documents (issue 23).

    python bench/explain_search.py "where do my dead units go"
    python bench/explain_search.py "where do my dead units go" basic-terms.dead glossary/sfr-2012/dead
    python bench/explain_search.py --as-new "a tuning question" KEY

Prints how the query was read (question or lookup, the kinds and editions it prefers, the
records it names), each word's spellings with their weights, then the best documents (before
they are grouped into hits) with their rank, body length in terms and each word's score; the
documents whose key holds one of the further arguments are shown too, wherever they rank.
For studying the tuning half's misses (``relevance_report.py --tuning --failures``); never
for the held-out half's questions or the fresh set's.

A tuning question is in the index's asked field, which then explains most of its rank; with
``--as-new`` the index is asked only the other folds' questions (``bench/asked_cv.py``'s five folds),
so the question is ranked as the cross-validated figures rank it.

It builds into a temporary cache directory of its own, never the user's.
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

TOP = 10


def main(query: str, wanted: list[str], as_new: bool = False) -> None:
    os.environ["DDREF_CACHE_DIR"] = tempfile.mkdtemp(prefix="ddref-explain-")
    if as_new:
        _ask_other_folds(query)
    from index.analysis import terms
    from index.query import parse
    import index.search
    from index.search import _distinct, searcher

    s = searcher()
    plan = s._plan(parse(query))
    print("question" if plan.question else "lookup", "| kinds", sorted(plan.kinds), "| editions",
          sorted(plan.editions), "| named", plan.named, "| exact", sorted(plan.exact))
    groups = _distinct(plan.groups)
    for g in groups:
        print(f"  {g.word}: " + ", ".join(f"{t} x{w:.2f}" for t, w in g.stems.items()) +
              "".join(f", \"{' '.join(p)}\" x{w:.2f}" for p, w in g.phrases) + ("" if g.scope == "all" else f" ({g.scope})"))
    per_word = [s._group_scores(g, None, False) for g in groups]
    ranked = s._ranked(plan, None)
    passage_share, index.search.PASSAGE_SHARE = index.search.PASSAGE_SHARE, 0.0
    lift = {n: r for n, (r, _) in s._ranked(plan, None).items()}  # the ranks without the passages' lift
    index.search.PASSAGE_SHARE = passage_share
    rows = {r["docnum"]: r for r in s._docs(ranked, "key, body")}
    shown = sorted(ranked, key=lambda n: (-ranked[n][0], n))[:TOP]
    shown += [n for n in ranked if n not in shown and any(w in rows[n]["key"] for w in wanted)]
    for n in shown:
        words = " ".join(f"{g.word}={p.get(n, 0.0):.2f}" for g, p in zip(groups, per_word))
        lifted = f" (passage lift +{ranked[n][0] - lift[n]:.2f})" if lift.get(n, ranked[n][0]) != ranked[n][0] else ""
        print(f"{ranked[n][0]:9.2f}  {rows[n]['key']:72.72} {len(terms(rows[n]['body'] or '')):4} terms  {words}{lifted}")


def _ask_other_folds(query: str, folds: int = 5) -> None:
    """Build the index asked only the questions outside ``query``'s fold, as ``asked_cv`` does."""
    sys.path.insert(0, str(ROOT / "tests"))
    import index.documents as documents
    from relevance_metrics import load

    questions = [q["q"] for q in load("tuning")]
    if query not in questions:
        sys.exit(f"--as-new: not a question of the tuning half: {query!r}")
    fold = questions.index(query) % folds
    mine = {q for i, q in enumerate(questions) if i % folds == fold}
    whole = documents.asked_questions
    documents.asked_questions = lambda: {k: [q for q in qs if q not in mine] for k, qs in whole().items()}


if __name__ == "__main__":
    args = [a for a in sys.argv[1:] if a != "--as-new"]
    if not args:
        sys.exit(__doc__)
    main(args[0], args[1:], as_new="--as-new" in sys.argv[1:])
