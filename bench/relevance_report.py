"""Search relevance figures on both halves of the relevance set and the fresh set (issue 23).

    python bench/relevance_report.py               # P@1, P@3, P@10, MRR@10 per set
    python bench/relevance_report.py --failures    # and the tuning half's misses, one by one
    python bench/relevance_report.py --file new.yaml --failures   # a set being written, and its misses

The tuning half is ``corpus/questions/tuning.yaml``; the index searches its questions
(the ``asked`` field), so its figures here are of questions the index holds, and
``bench/asked_cv.py`` measures them as new ones. The held-out half is
``tests/relevance/heldout.yaml``, which the ranking is never tuned on and the index
never holds: this script prints only aggregate figures for it, never its questions' hits, and
the same for the fresh set (``tests/relevance/fresh.yaml``, a second blind set, not pooled).
A set being written (``--file``) is measured as new questions only until it joins the
tuning half. Each half is measured twice: on its writers' answers only (``expect``), and with the
answers a judge later found among the ranking's unlisted hits (``also``, tools/pool_judgments.py).

It builds into a temporary cache directory of its own, never the user's.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

DEPTH = 10


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--failures", action="store_true", help="list the tuning half's questions not answered first")
    parser.add_argument("--tuning", action="store_true", help="the tuning half only (while tuning the ranking)")
    parser.add_argument("--file", type=Path, help="a relevance set file being written (not the held-out half)")
    args = parser.parse_args()
    os.environ["DDREF_CACHE_DIR"] = tempfile.mkdtemp(prefix="ddref-relevance-")
    from index.corpus import read_yaml
    from relevance_metrics import SETS, evaluate, load
    from tools.check_relevance_set import UNSEEN_FILES

    if args.file and args.file.resolve() in {p.resolve() for p in UNSEEN_FILES}:
        parser.error("the held-out and fresh sets' misses are never listed; run without --file for their figures")
    sets = {args.file.stem: read_yaml(args.file)} if args.file else \
        {half: load(half) for half in (SETS[:1] if args.tuning else SETS)}
    for half, questions in sets.items():
        for judged in (False, True) if any("also" in q for q in questions) else (False,):  # the fresh set: no pool
            figures, misses = evaluate(questions, DEPTH, judged)
            print(f"{half:8} {figures['n']:4} questions  P@1 {figures['p1']:.3f}  P@3 {figures['p3']:.3f}  "
                  f"P@10 {figures['p10']:.3f}  MRR@10 {figures['mrr']:.3f}  "
                  f"{'with the judged answers' if judged else 'its writers answers only'}")
        if args.failures and (half == "tuning" or args.file):
            for line in misses:
                print("   ", line)


if __name__ == "__main__":
    main()
