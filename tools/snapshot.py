"""Behaviour snapshots of every bundled scenario under every edition, for refactors that must not change behaviour
(issue 24: "every bundled scenario's --json output under each edition must be byte-identical before and after").

    python -m tools.snapshot write DIR      # ddref resolve FILE --edition E --json, and the default trace, per pair
    python -m tools.snapshot compare A B    # the pairs whose output differs (exit 1 if any)

Each pair (scenario, edition) is one file DIR/<edition>/<scenario>.txt holding the exit code, the --json output
and the human trace (rich at its fixed non-terminal width), so a refactor that changes only wording shows too.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EDITIONS = ("sfr-2012", "tsr-1996", "sfr-v4")


def write(out: Path) -> int:
    from typer.testing import CliRunner

    from ddref.cli import app

    runner = CliRunner()
    out = out.resolve()
    os.chdir(ROOT)  # relative paths in the output, so two worktrees' snapshots compare
    scenarios = sorted(Path("scenarios").glob("*.yaml"))
    for edition in EDITIONS:
        (out / edition).mkdir(parents=True, exist_ok=True)
        for path in scenarios:
            parts = []
            for extra in (["--json"], []):
                result = runner.invoke(app, ["resolve", str(path), "--edition", edition, *extra])
                parts.append(f"# exit {result.exit_code} {' '.join(extra) or 'human'}\n{result.output}")
            (out / edition / f"{path.stem}.txt").write_text("".join(parts), encoding="utf-8")
    print(f"{len(scenarios)} scenarios x {len(EDITIONS)} editions written to {out}")
    return 0


def compare(a: Path, b: Path) -> int:
    names = sorted({p.relative_to(a) for p in a.rglob("*.txt")} | {p.relative_to(b) for p in b.rglob("*.txt")})
    differ = [n for n in names if not (a / n).exists() or not (b / n).exists()
              or (a / n).read_bytes() != (b / n).read_bytes()]
    for name in differ:
        print(f"differs: {name}")
    print(f"{len(names) - len(differ)} of {len(names)} identical")
    return 1 if differ else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.snapshot", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("write").add_argument("dir", type=Path)
    cmp = sub.add_parser("compare")
    cmp.add_argument("a", type=Path)
    cmp.add_argument("b", type=Path)
    args = parser.parse_args(argv)
    return write(args.dir) if args.command == "write" else compare(args.a, args.b)


if __name__ == "__main__":
    sys.exit(main())
