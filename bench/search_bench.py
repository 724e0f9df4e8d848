"""Search benchmarks (issue 4): medians and percentiles, not timed tests.

    python bench/search_bench.py            # every figure
    python bench/search_bench.py --quick    # fewer repetitions

Figures and their targets:
- in-process search latency over bench/search-queries.txt (200 queries), the
  index open: p50 <= 2 ms, p99 <= 10 ms;
- the index build from scratch into an empty cache: <= 5 s;
- the no-op freshness check (index fresh, nothing to do) in a new process,
  the corpus hash included, its imports not (a command has them anyway):
  <= 50 ms;
- cold `ddref spell "wall of fog"` and cold `ddref search "maneuver as saves"`
  against cold `python -c "import typer"`: at most 2x and 3x.

It builds into a temporary cache directory of its own, never the user's.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
QUERIES = ROOT / "bench" / "search-queries.txt"
sys.path.insert(0, str(ROOT))

from bench import median_seconds as cold  # noqa: E402 - bench/bench.py, beside this script


def queries() -> list[str]:
    lines = QUERIES.read_text(encoding="utf-8").splitlines()
    return [q.strip() for q in lines if q.strip() and not q.lstrip().startswith("#")]


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def latency(rounds: int) -> tuple[list[float], int]:
    """Milliseconds per search, every query ``rounds`` times, after one warm-up round."""
    from index.search import search

    asked = queries()
    for q in asked:
        search(q)
    times = []
    for _ in range(rounds):
        for q in asked:
            start = time.perf_counter()
            search(q)
            times.append((time.perf_counter() - start) * 1000)
    return times, len(asked)


def build_seconds(runs: int) -> float:
    """Median wall time of a build from scratch, each into an empty cache."""
    from index.cache import ensure

    times = []
    for _ in range(runs):
        with tempfile.TemporaryDirectory() as empty:
            os.environ["DDREF_CACHE_DIR"] = empty
            start = time.perf_counter()
            ensure()
            times.append(time.perf_counter() - start)
    return statistics.median(times)


FRESHNESS = ("import time; from index.cache import current; t = time.perf_counter(); "
             "assert current() is not None; print(time.perf_counter() - t)")


def freshness_ms(runs: int) -> float:
    """The no-op check in a new process each time, after its imports: the corpus hash and the manifest."""
    times = [float(subprocess.run([sys.executable, "-c", FRESHNESS], cwd=ROOT, capture_output=True,
                                  text=True, check=True).stdout) for _ in range(runs)]
    return statistics.median(times) * 1000


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true")
    quick = ap.parse_args().quick
    runs = 3 if quick else 9
    with tempfile.TemporaryDirectory() as cache:
        os.environ["DDREF_CACHE_DIR"] = cache
        build = build_seconds(1 if quick else 3)
        os.environ["DDREF_CACHE_DIR"] = cache
        from index.cache import ensure

        ensure()
        times, count = latency(1 if quick else 5)
        fresh = freshness_ms(runs)
        ddref = str(Path(sys.executable).with_name("ddref"))
        floor = cold([sys.executable, "-c", "import typer"], runs)
        spell = cold([ddref, "spell", "wall of fog"], runs)
        found = cold([ddref, "search", "maneuver as saves"], runs)
    print(f"search latency (in-process, {count} queries x {len(times) // count}): "
          f"p50 {statistics.median(times):.2f} ms, p99 {percentile(times, 0.99):.2f} ms, "
          f"max {max(times):.2f} ms  (targets p50 <= 2, p99 <= 10)")
    print(f"index build from scratch:               median {build:6.2f} s   (target <= 5)")
    print(f"no-op freshness check (new process):    median {fresh:6.1f} ms  (target <= 50)")
    print(f"cold python -c 'import typer':          median {floor * 1000:6.0f} ms")
    print(f"cold ddref spell 'wall of fog':         median {spell * 1000:6.0f} ms  = {spell / floor:.1f}x  (target <= 2x)")
    print(f"cold ddref search 'maneuver as saves':  median {found * 1000:6.0f} ms  = {found / floor:.1f}x  (target <= 3x)")


if __name__ == "__main__":
    main()
