"""ddref serve over loopback: latency percentiles and a mixed load that must end with 0 errors.

    python bench/serve_bench.py            # every figure
    python bench/serve_bench.py --quick    # fewer requests

It starts the installed ``ddref serve --port 0`` (a free port on 127.0.0.1,
its own temporary index cache), then, each client on one kept-alive
connection as a browser does:
- the latency of a spell lookup (GET /spells/wall%20of%20fog) and of a search
  over bench/search-queries.txt (GET /search?q=...): p50 and p99;
- 10,000 mixed requests from 4 clients at once: lookups of every kind, search,
  rules, rulings, glossary, compare, POST /resolve of the bundled scenarios,
  and unknown names; an error is any answer other than the one expected (200,
  or 404 for an unknown name) or a failed connection. Target: 0 errors.

Every request goes to 127.0.0.1 only, and every loop is bounded.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from search_bench import percentile, queries  # noqa: E402 - bench/search_bench.py, beside this script

SPELL = "/spells/wall%20of%20fog"
CLIENTS = 4


def start_server(cache: str) -> tuple[subprocess.Popen, int]:
    script = Path(sys.executable).with_name("ddref")
    command = [str(script)] if script.exists() else [sys.executable, "-m", "ddref"]
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["DDREF_CACHE_DIR"] = cache
    server = subprocess.Popen([*command, "serve", "--port", "0", "--json"], stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL, text=True, env=env)
    line = server.stdout.readline()
    if not line:
        sys.exit(f"ddref serve did not start (exit code {server.wait(10)})")
    return server, urllib.parse.urlsplit(json.loads(line)["urls"][0]).port


def call(conn: http.client.HTTPConnection, method: str, path: str, body: bytes | None = None) -> int:
    conn.request(method, path, body=body)
    response = conn.getresponse()
    response.read()
    return response.status


def timed(port: int, paths: list[str]) -> list[float]:
    """Milliseconds for each GET of ``paths`` in turn on one connection, after a warm-up round of each."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    for path in dict.fromkeys(paths):
        call(conn, "GET", path)
    times = []
    for path in paths:
        start = time.perf_counter()
        status = call(conn, "GET", path)
        times.append((time.perf_counter() - start) * 1000)
        assert status == 200, (path, status)
    conn.close()
    return times


def mixed_requests() -> list[tuple[str, str, bytes | None, int]]:
    """(method, path, body, expected status): every endpoint, unknown names, scenarios to replay."""
    q = lambda text: urllib.parse.quote(text, safe="")  # noqa: E731
    gets = [SPELL, "/spells/lightning?edition=all", "/sais/charm?edition=tsr-1996", "/races/Selumari",
            "/units/coral%20elf%20trooper", "/spells?color=green&max_cost=3", "/rules?edition=sfr-v4",
            "/rules/sfr-2012:dice-modifiers.applying-dice-modifiers", "/rulings?q=charm", "/glossary/dua",
            "/compare/spell/wall%20of%20fog", "/sources"]
    gets += [f"/search?q={q(text)}" for text in queries()[:40]]
    asked = [("GET", path, None, 200) for path in gets]
    asked += [("GET", "/spells/wall%20of%20fgo", None, 404), ("GET", "/rules/sfr-2012:nothing", None, 404)]
    asked += [("POST", "/resolve", path.read_bytes(), 200) for path in sorted((ROOT / "scenarios").glob("*.yaml"))[:5]]
    return asked


def client(port: int, work: list, errors: list, times: list) -> None:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    for method, path, body, expected in work:
        start = time.perf_counter()
        try:
            status = call(conn, method, path, body)
        except (OSError, http.client.HTTPException) as exc:
            errors.append(f"{method} {path}: {exc!r}")
            conn.close()
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            continue
        times.append((time.perf_counter() - start) * 1000)
        if status != expected:
            errors.append(f"{method} {path}: {status}, expected {expected}")
    conn.close()


def mixed(port: int, total: int) -> tuple[float, list[float], list[str]]:
    """``total`` requests drawn from ``mixed_requests`` over CLIENTS connections at once: (requests/s, ms, errors)."""
    pool = mixed_requests()
    draw = random.Random(9)
    work = [draw.choice(pool) for _ in range(total)]
    errors: list[str] = []
    times: list[float] = []
    threads = [threading.Thread(target=client, args=(port, work[i::CLIENTS], errors, times)) for i in range(CLIENTS)]
    start = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return total / (time.perf_counter() - start), times, errors


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer requests (the mixed load stays 10,000)")
    args = parser.parse_args()
    rounds = 1 if args.quick else 3
    with tempfile.TemporaryDirectory() as cache:
        server, port = start_server(cache)
        try:
            spell = timed(port, [SPELL] * (300 if args.quick else 1000))
            search = timed(port, [f"/search?q={urllib.parse.quote(q, safe='')}" for q in queries()] * rounds)
            rate, times, errors = mixed(port, 10_000)
        finally:
            server.terminate()
            server.wait(15)
    for name, ms in (("spell lookup", spell), ("search", search)):
        print(f"{name:>13} over loopback ({len(ms)} requests): p50 {percentile(ms, 0.5):.2f} ms, "
              f"p99 {percentile(ms, 0.99):.2f} ms")
    print(f"mixed load: 10,000 requests from {CLIENTS} clients at {rate:,.0f} requests/s, "
          f"p50 {percentile(times, 0.5):.2f} ms, p99 {percentile(times, 0.99):.2f} ms, {len(errors)} error(s)")
    for error in errors[:10]:
        print("  " + error)
    sys.exit(1 if errors else 0)


if __name__ == "__main__":
    main()
