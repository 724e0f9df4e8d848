"""ddref serve over loopback: latency percentiles, a mixed load that must end with 0 errors, and that
load from 20 clients with and without slow replays running.

    python bench/serve_bench.py                  # every figure
    python bench/serve_bench.py --quick          # fewer requests
    python bench/serve_bench.py --load-only      # only the 20-client figures
    python bench/serve_bench.py --slow-scenario FILE   # the slow replays replay FILE, not a 5 s spin

It starts ``ddref serve`` as the command does (``service.run`` with the default
limits, on a free port of 127.0.0.1, its own temporary index cache), except that
its replay workers also know one bench-only body, ``# bench: spin SECONDS``: a
replay that keeps its worker's CPU busy for that long, as a runaway scenario
does (nothing else in the server differs). Then, each client on one kept-alive
connection as a browser does:
- the latency of a spell lookup (GET /spells/wall%20of%20fog) and of a search
  over bench/search-queries.txt (GET /search?q=...): p50 and p99;
- 10,000 mixed requests from 4 clients at once: lookups of every kind, search,
  rules, rulings, glossary, compare, POST /resolve of the bundled scenarios,
  and unknown names; an error is any answer other than the one expected (200,
  or 404 for an unknown name) or a failed connection. Target: 0 errors;
- 20 clients, each pausing a random 0-200 ms between requests (``--think``),
  sending lookups, searches and resolves (6:3:1) for 40 s, while a 21st client
  alternates 5 s of calm and a 5-second replay: p50 and p99 per kind, for the
  requests made while no slow replay ran and for those made while one ran (the
  two interleaved, so that the machine's own load weighs on both alike).
  Target: lookups keep p99 under 50 ms while a 5-second replay runs, 0 errors.

Every request goes to 127.0.0.1 only, and every loop is bounded in count and time.
"""

from __future__ import annotations

import argparse
import collections
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
LOAD_CLIENTS = 20
SPIN = b"# bench: spin "
# ddref serve as the command runs it, its replay workers knowing the bench's spin (run with python -c,
# this folder on the path: the workers import this module to find spin_or_replay)
SERVER = f"""
import json, sys
sys.path.insert(0, {str(Path(__file__).resolve().parent)!r})
from serve_bench import spin_or_replay
import inspect
from ddref.service import listen, run, urls, warm_up
sock = listen("127.0.0.1", 0)
warm_up()
port = sock.getsockname()[1]
# a ddref from before replay workers (for a before/after with --slow-scenario) has no replay= to give
spin = {{"replay": spin_or_replay}} if "replay" in inspect.signature(run).parameters else {{}}
run(sock, lambda: print(json.dumps({{"urls": urls("127.0.0.1", port)}}), flush=True), **spin)
"""


def spin_or_replay(body: bytes, file: str, edition: str | None) -> tuple[int, bytes]:
    """The server's replay, except that ``# bench: spin SECONDS`` keeps the CPU busy that long."""
    if not body.startswith(SPIN):
        from ddref.service import replay_answer

        return replay_answer(body, file, edition)
    end = time.monotonic() + float(body[len(SPIN):].split()[0])
    while time.monotonic() < end:
        pass
    return 200, b"{}"


def start_server(cache: str) -> tuple[subprocess.Popen, int]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["DDREF_CACHE_DIR"] = cache
    server = subprocess.Popen([sys.executable, "-c", SERVER], stdout=subprocess.PIPE,
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
    asked += [("GET", "/spells/wall%20of", None, 404), ("GET", "/rules/sfr-2012:nothing", None, 404)]
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


# --- 20 clients, with and without slow replays ----------------------------------------------

def kinds() -> dict[str, list[tuple[str, str, bytes | None, int]]]:
    """The load's requests by kind: lookup (every GET but search, unknown names too), search, resolve."""
    asked = collections.defaultdict(list)
    for request in mixed_requests():
        method, path = request[:2]
        asked["resolve" if method == "POST" else "search" if path.startswith("/search") else "lookup"].append(request)
    return asked


def load_client(port: int, until: float, think: float, seed: int, done: list, errors: list) -> None:
    """Requests drawn 6:3:1 from lookups, searches and resolves, a random pause of 0-2x ``think`` s
    between them, until ``until`` or 3,000 requests; each as (start, end, kind) in ``done``."""
    asked, draw = kinds(), random.Random(seed)
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    for _ in range(3000):
        if time.perf_counter() >= until:
            break
        kind = draw.choices(("lookup", "search", "resolve"), (6, 3, 1))[0]
        method, path, body, expected = draw.choice(asked[kind])
        start = time.perf_counter()
        try:
            status = call(conn, method, path, body)
        except (OSError, http.client.HTTPException) as exc:
            errors.append(f"{method} {path}: {exc!r}")
            conn.close()
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            continue
        done.append((start, time.perf_counter(), kind))
        if status != expected:
            errors.append(f"{method} {path}: {status}, expected {expected}")
        time.sleep(draw.uniform(0, 2 * think))
    conn.close()


def slow_client(port: int, until: float, body: bytes, pause: float, spans: list, errors: list) -> None:
    """Slow replays of ``body``, each after ``pause`` s of calm on a new connection (the server closed the
    idle one), until ``until`` (at most 50): their (start, end)."""
    for _ in range(50):
        time.sleep(pause)
        if time.perf_counter() >= until:
            break
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
        start = time.perf_counter()
        try:
            status = call(conn, "POST", "/resolve", body)
        except (OSError, http.client.HTTPException) as exc:
            errors.append(f"slow POST /resolve: {exc!r}")
            break
        finally:
            conn.close()
        spans.append((start, time.perf_counter()))
        if status != 200:
            errors.append(f"slow POST /resolve: {status}, expected 200")


def load(port: int, seconds: float, think: float, slow: bytes, pause: float):
    """LOAD_CLIENTS clients for ``seconds``, and one more sending ``slow`` replays with ``pause`` s of calm
    between them, so that calm and slow stretches alternate under the same machine load. Returns
    {"calm" or "slow": {kind: [ms]}} (a request counts as slow if it started while a slow replay ran, as
    calm if none ran at any time of it), the slow replays' (start, end), and the errors."""
    done: list[tuple[float, float, str]] = []
    spans: list[tuple[float, float]] = []
    errors: list[str] = []
    until = time.perf_counter() + seconds
    threads = [threading.Thread(target=load_client, args=(port, until, think, seed, done, errors))
               for seed in range(LOAD_CLIENTS)]
    threads.append(threading.Thread(target=slow_client, args=(port, until, slow, pause, spans, errors)))
    for t in threads:
        t.start()
    for t in threads:
        t.join(seconds + 150)
    times: dict[str, dict[str, list[float]]] = {"calm": collections.defaultdict(list),
                                                 "slow": collections.defaultdict(list)}
    for start, end, kind in done:
        if any(s <= start < e for s, e in spans):
            times["slow"][kind].append((end - start) * 1000)
        elif not any(start < e and s < end for s, e in spans):
            times["calm"][kind].append((end - start) * 1000)
    return times, spans, errors


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer requests (the mixed load stays 10,000)")
    parser.add_argument("--load-only", action="store_true", help="only the 20-client figures")
    parser.add_argument("--seconds", type=float, default=40.0,
                        help="length of the 20-client run, at most 300 (default 40: four slow replays)")
    parser.add_argument("--think", type=float, default=100.0,
                        help="mean pause of a client between requests, ms (default 100: 0-200 ms)")
    parser.add_argument("--slow-scenario", type=Path, help="a scenario file for the slow replays, "
                                                           "in place of a 5-second spin")
    args = parser.parse_args()
    rounds = 1 if args.quick else 3
    seconds = min(args.seconds, 300.0)
    slow = args.slow_scenario.read_bytes() if args.slow_scenario else SPIN + b"5\n"
    errors: list[str] = []
    with tempfile.TemporaryDirectory() as cache:
        server, port = start_server(cache)
        try:
            if not args.load_only:
                spell = timed(port, [SPELL] * (300 if args.quick else 1000))
                search = timed(port, [f"/search?q={urllib.parse.quote(q, safe='')}" for q in queries()] * rounds)
                rate, times, errors = mixed(port, 10_000)
            loaded, spans, load_errors = load(port, seconds, args.think / 1000, slow, 5.0)
        finally:
            server.terminate()
            server.wait(15)
    if not args.load_only:
        for name, ms in (("spell lookup", spell), ("search", search)):
            print(f"{name:>13} over loopback ({len(ms)} requests): p50 {percentile(ms, 0.5):.2f} ms, "
                  f"p99 {percentile(ms, 0.99):.2f} ms")
        print(f"mixed load: 10,000 requests from {CLIENTS} clients at {rate:,.0f} requests/s, "
              f"p50 {percentile(times, 0.5):.2f} ms, p99 {percentile(times, 0.99):.2f} ms, {len(errors)} error(s)")
        for error in errors[:10]:
            print("  " + error)
    what = args.slow_scenario.name if args.slow_scenario else "a 5-second spin"
    durations = ", ".join(f"{(e - s):.1f}" for s, e in spans) or "none finished"
    print(f"{LOAD_CLIENTS} clients pausing 0-{2 * args.think:g} ms between requests for {seconds:g} s, a 21st "
          f"replaying {what} every 5 s of calm (each took {durations} s); {len(load_errors)} error(s):")
    for kind in ("lookup", "search", "resolve"):
        for when, label in (("calm", "no slow replay"), ("slow", "a slow replay running")):
            ms = loaded[when].get(kind) or [float("nan")]
            print(f"  {kind:>8}, {label:<21} ({len(loaded[when].get(kind, [])):>5}): p50 {percentile(ms, 0.5):7.2f} ms, "
                  f"p99 {percentile(ms, 0.99):7.2f} ms, max {max(ms):8.2f} ms")
    for error in load_errors[:10]:
        print("    " + error)
    lookups = loaded["slow"].get("lookup") or [float("inf")]
    p99 = percentile(lookups, 0.99)
    print(f"target: lookup p99 under 50 ms while a slow replay runs: {p99:.2f} ms, {'met' if p99 < 50 else 'MISSED'}")
    sys.exit(1 if errors or load_errors or p99 >= 50 else 0)


if __name__ == "__main__":
    main()
