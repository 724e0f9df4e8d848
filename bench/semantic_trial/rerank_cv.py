"""The sentence-embedding reranking on top of the asked field, cross-validated (issue 23, seventeenth
pass, docs/search.md); not part of ddref. Run as rerank.py says (numpy, tokenizers, $MINILM_DIR):

    MINILM_DIR=/tmp/minilm /tmp/trial/bin/python bench/semantic_trial/rerank_cv.py

The tuning half is ranked as new questions (bench/asked_cv.py: each fold on an index asked only the
other folds' questions), and the first 20 hits of a question (a lookup keeps its order) are reordered
by 1/(k + rank) plus w_doc times the cosine of the question with the hit's best document (its title
and first 128 tokens) plus w_near times its best cosine with an other-fold question the hit answers.
Only aggregate figures are printed.
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT), str(ROOT / "tests"), str(ROOT / "bench"), str(Path(__file__).parent)]
os.environ.setdefault("DDREF_CACHE_DIR", tempfile.mkdtemp(prefix="ddref-trial-"))
KEEP = Path(os.environ.get("TRIAL_DIR", "/tmp"))
FOLDS, DEPTH = 5, 20
CONFIGS = ((5, 0.0, 0.0), (5, 0.1, 0.05), (5, 0.2, 0.05), (5, 0.2, 0.1), (2, 0.2, 0.2))  # (k, w_doc, w_near)

import numpy as np  # noqa: E402

import asked_cv  # noqa: E402
import minilm  # noqa: E402
from index.query import parse  # noqa: E402
from index.search import searcher  # noqa: E402
from relevance_metrics import figures, first_rank, load  # noqa: E402
from tools.check_relevance_set import answers_to  # noqa: E402


def main() -> None:
    ranked = asked_cv.cross_validated(FOLDS, 2, depth=DEPTH)
    s = searcher()
    rows = s.db.query("SELECT key, title, body FROM search_docs ORDER BY docnum")
    kept = KEEP / "minilm-docs-transformer.npy"
    docs = np.load(kept) if kept.exists() else minilm.encode([f"{t}. {b}" for _, t, b in rows])
    np.save(kept, docs)
    where = {f"{k.split('/')[0]}:{k.split('/', 2)[2]}@{k.split('/')[1]}": n for n, (k, _, _) in enumerate(rows)}
    questions = load("tuning")
    vectors = minilm.encode([q["q"] for q in questions])
    answering = [answers_to(q) for q in questions]
    for k, w_doc, w_near in CONFIGS:
        ranks = []
        for i, q in enumerate(questions):
            hits = ranked[q["q"]]
            order = list(range(len(hits)))
            if s._plan(parse(q["q"])).question:
                near = vectors @ vectors[i]
                others = [j for j in range(len(questions)) if j % FOLDS != i % FOLDS]

                def score(n):
                    refs = set(hits[n][1])
                    doc = max((float(docs[where[r]] @ vectors[i]) for r in refs if r in where), default=0.0)
                    known = max((float(near[j]) for j in others if refs & answering[j]), default=0.0)
                    return 1 / (k + n) + w_doc * doc + w_near * known
                order.sort(key=lambda n: -score(n))
            ranks.append(first_rank(q, (hits[n][1] for n in order[:10])))
        found = figures(ranks)
        print(f"k={k} w_doc={w_doc} w_near={w_near}: P@1 {found['p1']:.3f} P@3 {found['p3']:.3f} "
              f"P@10 {found['p10']:.3f} MRR@10 {found['mrr']:.3f}", flush=True)


if __name__ == "__main__":
    main()
