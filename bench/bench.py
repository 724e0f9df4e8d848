"""ddref benchmarks: medians, not timed tests.

    python bench/bench.py            # every figure
    python bench/bench.py --quick    # fewer repetitions

Figures: in-process resolve throughput over the bundled scenarios (steps/s,
target >= 2,000); cold `ddref resolve` of a 10-step scenario, its trace printed
and with --quiet, against cold `python -c "import typer"` (target <= 4x); cold
`ddref spell "wall of fog"`.
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
sys.path.insert(0, str(ROOT))


def median_seconds(cmd: list[str], runs: int, extra_env: dict[str, str] | None = None) -> float:
    # An installed package runs from compiled bytecode (pip compiles it); a shell that sets
    # PYTHONDONTWRITEBYTECODE would make every run compile ddref's modules again.
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"} | (extra_env or {})
    subprocess.run(cmd, cwd=ROOT, capture_output=True, check=False, env=env)   # warm: bytecode, disk cache
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(cmd, cwd=ROOT, capture_output=True, check=False, env=env)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def resolve_throughput(rounds: int) -> tuple[float, int]:
    from ddref.scenario.run import load, replay

    scenarios = [load(p) for p in sorted((ROOT / "scenarios").glob("*.yaml"))]
    steps = sum(len(s.steps) for s in scenarios)
    rates = []
    for _ in range(rounds):
        start = time.perf_counter()
        for s in scenarios:
            replay(s)
        rates.append(steps / (time.perf_counter() - start))
    return statistics.median(rates), steps


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true")
    runs = 3 if ap.parse_args().quick else 9
    ddref = str(Path(sys.executable).with_name("ddref"))
    rate, steps = resolve_throughput(runs)
    print(f"resolve throughput (in-process, {steps} steps per round): median {rate:,.0f} steps/s  (target >= 2,000)")
    floor = median_seconds([sys.executable, "-c", "import typer"], runs)
    # typer 0.29 coerces every command parameter through a pydantic TypeAdapter, so any command
    # with arguments imports pydantic too; this second floor shows that share
    floor2 = median_seconds([sys.executable, "-c", "import typer, pydantic, typer._adapters"], runs)
    cold = median_seconds([ddref, "resolve", "bench/ten-steps.yaml"], runs)
    quiet = median_seconds([ddref, "resolve", "bench/ten-steps.yaml", "--quiet"], runs)
    spell = median_seconds([ddref, "spell", "wall of fog"], runs)
    print(f"cold python -c 'import typer':          median {floor * 1000:6.0f} ms")
    print(f"cold typer + its pydantic adapters:     median {floor2 * 1000:6.0f} ms")
    print(f"cold ddref resolve (10 steps, trace):   median {cold * 1000:6.0f} ms  = {cold / floor:.1f}x  (target <= 4x)")
    print(f"cold ddref resolve (10 steps, --quiet): median {quiet * 1000:6.0f} ms  = {quiet / floor:.1f}x")
    print(f"cold ddref spell 'wall of fog':         median {spell * 1000:6.0f} ms  = {spell / floor:.1f}x")


if __name__ == "__main__":
    main()
