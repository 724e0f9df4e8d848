"""Shell completion latency: medians, not timed tests.

    python bench/complete_bench.py [--runs N]

Each TAB runs a whole ``ddref`` process with typer's completion variables
set, so the figure that matters is cold: a completion request for a spell
name, a unit name (the largest list) and a command name, against the floor
of ``python -c "import typer"``.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

REQUESTS = {
    "spell wall-<TAB>": "ddref spell wall-",
    "unit <TAB> (every unit)": "ddref unit ",
    "command sp<TAB>": "ddref sp",
}


def median_seconds(cmd: list[str], env: dict[str, str], runs: int) -> float:
    subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, check=True)  # warm: bytecode, disk cache
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, check=True)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=15)
    runs = ap.parse_args().runs
    base = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    ddref = str(Path(sys.executable).with_name("ddref"))
    floor = median_seconds([sys.executable, "-c", "import typer"], base, runs)
    print(f"cold python -c 'import typer':  median {floor * 1000:5.0f} ms")
    for label, line in REQUESTS.items():
        words = line.split(" ")
        env = {**base, "_DDREF_COMPLETE": "complete_bash", "COMP_WORDS": line, "COMP_CWORD": str(len(words) - 1)}
        took = median_seconds([ddref], env, runs)
        print(f"completion {label:24} median {took * 1000:5.0f} ms  = {took / floor:.1f}x")


if __name__ == "__main__":
    main()
