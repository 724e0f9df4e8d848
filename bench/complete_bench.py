"""Shell completion latency: medians, not timed tests.

    python bench/complete_bench.py [--runs N]

Each TAB runs a whole ``ddref`` process with typer's completion variables
set, so the figure that matters is cold: a completion request for a spell
name, a unit name (the largest list) and a command name, against the floor
of ``python -c "import typer"``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from bench import median_seconds   # bench/bench.py: this script's own folder comes first on sys.path

REQUESTS = {
    "spell wall-<TAB>": "ddref spell wall-",
    "unit <TAB> (every unit)": "ddref unit ",
    "command sp<TAB>": "ddref sp",
}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=15)
    runs = ap.parse_args().runs
    ddref = str(Path(sys.executable).with_name("ddref"))
    floor = median_seconds([sys.executable, "-c", "import typer"], runs)
    print(f"cold python -c 'import typer':  median {floor * 1000:5.0f} ms")
    for label, line in REQUESTS.items():
        words = line.split(" ")
        env = {"_DDREF_COMPLETE": "complete_bash", "COMP_WORDS": line, "COMP_CWORD": str(len(words) - 1)}
        took = median_seconds([ddref], runs, env)
        print(f"completion {label:24} median {took * 1000:5.0f} ms  = {took / floor:.1f}x")


if __name__ == "__main__":
    main()
