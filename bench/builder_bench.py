"""The dispute builder's round trips over loopback: median (and p90) of 100 checks and 100 resolves.

    python bench/builder_bench.py                 # the Coral Elf worked example, 100 of each
    python bench/builder_bench.py -n 30 FILE.yaml # another scenario, fewer requests

It starts the installed ``ddref serve --port 0`` (its own temporary index cache), then, on one kept-alive
connection as the page does, times what the page asks on each change and on Resolve:
- ``POST /build/check`` with the scenario as JSON (its YAML, the loader's errors, each step's options);
- ``POST /resolve`` with its YAML (the trace).
The first request of each kind is a warm-up and not counted. Every request goes to 127.0.0.1 only.
"""

from __future__ import annotations

import argparse
import http.client
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).parent))

from serve_bench import start_server  # noqa: E402 - bench/serve_bench.py, beside this script

CORAL = ROOT / "scenarios" / "sfr2012-modifiers-coral-elf-17-saves.yaml"


def timed(conn: http.client.HTTPConnection, path: str, body: bytes, kind: str, n: int) -> list[float]:
    out = []
    for i in range(n + 1):
        start = time.perf_counter()
        conn.request("POST", path, body=body, headers={"Content-Type": kind})
        response = conn.getresponse()
        data = response.read()
        took = time.perf_counter() - start
        if response.status != 200:
            sys.exit(f"{path} answered {response.status}: {data[:300]!r}")
        if i:
            out.append(took * 1000)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("scenario", nargs="?", type=Path, default=CORAL)
    parser.add_argument("-n", type=int, default=100, help="requests of each kind (default 100)")
    args = parser.parse_args()
    text = args.scenario.read_bytes()
    data = json.dumps(yaml.safe_load(text)).encode()
    with tempfile.TemporaryDirectory() as cache:
        server, port = start_server(cache)
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
            checks = timed(conn, "/build/check", data, "application/json", args.n)
            resolves = timed(conn, "/resolve", text, "application/yaml", args.n)
            conn.close()
        finally:
            server.terminate()
            server.wait(15)
    print(f"{args.scenario.name}, {args.n} requests each, one kept-alive connection:")
    for name, ms in (("check   (POST /build/check)", checks), ("resolve (POST /resolve)", resolves)):
        p90 = statistics.quantiles(ms, n=10)[-1] if len(ms) > 1 else ms[0]
        print(f"  {name}: median {statistics.median(ms):.1f} ms, p90 {p90:.1f} ms")


if __name__ == "__main__":
    main()
