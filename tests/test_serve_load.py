"""ddref serve under slow replays, stalled connections and a stop mid-replay (issue 19, section 3).

Each server runs in a thread of this process (the SIGTERM test: in its own process), with
tests/serve_slow.py's replay in its workers: a body ``# spin: SECONDS`` keeps a worker's CPU busy
as a runaway replay does. Nothing here asserts a duration: each test asserts an order of events
(a lookup answered while a replay still ran) or an outcome (a 408, a 422, a process gone), with
timeouts far from the times involved. bench/serve_bench.py measures the latencies.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import psutil
import pytest
import serve_slow

from test_serve import CORAL, Answer, get, q, request
from test_serve import serving as serve_serving

TESTS = Path(__file__).resolve().parent


def serving(**limits):
    """A server with ``limits`` and the spinning replay (``serve_slow``); its port."""
    return serve_serving(replay=serve_slow.replay, **limits)


class Background(threading.Thread):
    """One request in a thread of its own; ``answer`` once it is answered."""

    def __init__(self, port: int, method: str, path: str, body: bytes | None = None) -> None:
        super().__init__(daemon=True)
        self.args, self.answer, self.failure = (port, method, path, body), None, None
        self.start()

    def run(self) -> None:
        try:
            self.answer = request(*self.args)
        except Exception as exc:  # noqa: BLE001 - the test looks at it
            self.failure = exc


def wait_for(condition, what: str, seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, f"still waiting for {what} after {seconds} s"
        time.sleep(0.02)


def running(pid: int) -> bool:
    try:
        return psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False


def json_error(answer: Answer, status: int) -> str:
    assert answer.status == status, (answer.status, answer.body[:300])
    assert answer.headers["content-type"] == "application/json", answer.headers
    return answer.json()["error"]


def raw_answer(sock: socket.socket) -> bytes:
    """Everything the server sends on ``sock`` until it closes it."""
    received = b""
    while chunk := sock.recv(65536):
        received += chunk
    return received


def closed(sock: socket.socket) -> bool:
    """Whether the server closes ``sock`` (within 10 s) without answering: an end of file, or a reset."""
    sock.settimeout(10)
    try:
        return sock.recv(65536) == b""
    except ConnectionResetError:
        return True


# --- a slow replay holds nothing up, and a runaway one is stopped ---------------------------

def test_lookups_searches_and_other_replays_answer_while_a_slow_replay_runs(tmp_path):
    marker = tmp_path / "spinning"
    with serving(resolve_timeout=120) as port:
        slow = Background(port, "POST", "/resolve", serve_slow.spin_body(60, marker))
        wait_for(marker.exists, "the slow replay to start")
        assert get(port, "/spells/lightning").status == 200
        search = get(port, f"/search?q={q('wall of fog')}")
        assert search.status == 200 and search.json()["hits"][0]["title"] == "Wall of Fog"
        other = request(port, "POST", "/resolve", CORAL.read_bytes())  # the other worker replays it
        assert other.status == 200 and other.json()["steps"][0]["results"]["elves"]["save"] == 17  # 002's example
        assert slow.is_alive() and slow.answer is None, "the slow replay ended before the others were answered"


def test_a_replay_past_the_time_limit_is_stopped_and_answers_a_json_422(tmp_path):
    marker = tmp_path / "spinning"
    with serving(resolve_timeout=1) as port:
        error = json_error(request(port, "POST", "/resolve", serve_slow.spin_body(30, marker)), 422)
        assert "limit of 1 s" in error and "stopped" in error and "--resolve-timeout" in error
        worker = int(marker.read_text())
        wait_for(lambda: not running(worker), "the runaway replay's process to end", 10)
        again = request(port, "POST", "/resolve", CORAL.read_bytes())  # a fresh worker took its place
        assert again.status == 200 and all(c["ok"] for c in again.json()["expectations"])


def test_a_long_replay_drops_to_a_low_priority_and_its_worker_is_then_replaced(tmp_path):
    from ddref.serving import DEMOTED_NICENESS, SLOW_REPLAY

    def worker_of(seconds: float, name: str) -> int:
        marker = tmp_path / name
        assert request(port, "POST", "/resolve", serve_slow.spin_body(seconds, marker)).status == 200
        return int(marker.read_text())

    base = psutil.Process().nice()  # the server's (it runs in this process)
    with serving(resolve_workers=1, resolve_timeout=60) as port:
        quick = worker_of(SLOW_REPLAY / 10, "quick")
        assert worker_of(SLOW_REPLAY / 10, "quick-again") == quick  # a quick replay keeps its worker
        marker = tmp_path / "long"
        long = Background(port, "POST", "/resolve", serve_slow.spin_body(SLOW_REPLAY + 3, marker))
        wait_for(marker.exists, "the long replay to start")
        demoted = int(marker.read_text())
        wait_for(lambda: psutil.Process(demoted).nice() == DEMOTED_NICENESS, "the long replay's worker to drop its priority")
        assert psutil.Process().nice() == base  # the server's own is untouched
        long.join(60)
        assert long.answer.status == 200
        fresh = worker_of(SLOW_REPLAY / 10, "after")
        assert fresh != demoted and psutil.Process(fresh).nice() == base


def test_a_replay_whose_process_dies_is_a_json_500_and_the_next_replay_gets_a_fresh_one():
    with serving(resolve_workers=1) as port:
        error = json_error(request(port, "POST", "/resolve", b"# die\n"), 500)
        assert "process ended unexpectedly" in error and "Traceback" not in error
        again = request(port, "POST", "/resolve", CORAL.read_bytes())
        assert again.status == 200 and all(c["ok"] for c in again.json()["expectations"])


def test_an_unexpected_error_in_a_replay_is_a_json_500_without_traceback(port):
    error = json_error(request(port, "POST", "/resolve", b"# raise\n"), 500)
    assert "internal error (RuntimeError)" in error and "/some/internal/path" not in error
    assert request(port, "POST", "/resolve", CORAL.read_bytes()).status == 200


def start_server() -> tuple[subprocess.Popen, int]:
    """A server as ``ddref serve`` runs it, in a process of its own, with the spinning replay; its port."""
    script = ("import sys, serve_slow\n"
              "from ddref.service import listen, run\n"
              "sock = listen('127.0.0.1', 0)\n"
              "run(sock, lambda: print(sock.getsockname()[1], flush=True), replay=serve_slow.replay)\n")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(TESTS), os.environ.get("PYTHONPATH", "")])}
    server = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                              text=True, env=env)
    return server, int(server.stdout.readline() or 0)


def test_sigterm_stops_the_server_and_its_replay_mid_replay(tmp_path):
    marker = tmp_path / "spinning"
    server, port = start_server()
    try:
        slow = Background(port, "POST", "/resolve", serve_slow.spin_body(120, marker))
        wait_for(marker.exists, "the slow replay to start")
        worker = int(marker.read_text())
        server.send_signal(signal.SIGTERM)
        server.wait(20)  # the replay had two minutes to go
        wait_for(lambda: not running(worker), "the replay's process to end", 10)
        slow.join(10)
        if slow.answer is not None:  # answered before the connection closed: a JSON 503
            assert "stopping" in json_error(slow.answer, 503)
    finally:
        server.kill()
        server.wait(10)


def test_a_killed_server_leaves_no_replay_running(tmp_path):
    marker = tmp_path / "spinning"
    server, port = start_server()
    try:
        Background(port, "POST", "/resolve", serve_slow.spin_body(120, marker))
        wait_for(marker.exists, "the slow replay to start")
        server.kill()  # SIGKILL: the server cannot stop its workers itself
        server.wait(10)
        worker = int(marker.read_text())
        wait_for(lambda: not running(worker), "the orphaned replay's process to end", 10)
    finally:
        server.kill()
        server.wait(10)


# --- connections: stalled ones are closed, never at a real client's expense ------------------

def test_half_open_connections_do_not_starve_a_real_client():
    stalled = []
    with serving(read_timeout=120) as port:  # the header deadline far off: room is made by closing idle ones
        try:
            for _ in range(250):  # more than the 100 connections the server holds at once
                sock = socket.create_connection(("127.0.0.1", port), timeout=10)
                sock.sendall(b"GET /sources HTTP/1.1\r\nHost: judge\r\n")  # headers never finished
                stalled.append(sock)
            answer = request(port, "GET", "/spells/lightning")
            assert answer.status == 200, answer.body[:300]
            for sock in stalled[:150]:  # the oldest of them were closed to make room
                assert closed(sock)
        finally:
            for sock in stalled:
                sock.close()


def test_headers_that_never_finish_get_a_json_408_and_the_connection_closed():
    with serving(read_timeout=0.5) as port:
        with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
            sock.sendall(b"GET /sources HTTP/1.1\r\nHost: judge\r\n")
            answer = raw_answer(sock)
        head, _, body = answer.partition(b"\r\n\r\n")
        assert head.startswith(b"HTTP/1.1 408") and b"content-type: application/json" in head
        assert "within 0.5 s" in json.loads(body)["error"]
        with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:  # nothing sent at all
            assert raw_answer(sock).startswith(b"HTTP/1.1 408")
        assert get(port, "/sources").status == 200


def test_a_body_that_never_finishes_gets_a_json_408():
    with serving(read_timeout=0.5) as port:
        with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
            sock.sendall(b"POST /resolve HTTP/1.1\r\nHost: judge\r\nContent-Length: 1000\r\n\r\nddref: 1\n")
            head, _, body = raw_answer(sock).partition(b"\r\n\r\n")
        assert head.startswith(b"HTTP/1.1 408") and b"content-type: application/json" in head
        assert "body did not all arrive within 0.5 s" in json.loads(body)["error"]


def test_past_the_connection_limit_with_every_connection_busy_the_503_is_json(tmp_path):
    markers = [tmp_path / "one", tmp_path / "two"]
    with serving(max_connections=2, resolve_workers=2, resolve_timeout=120) as port:
        busy = [Background(port, "POST", "/resolve", serve_slow.spin_body(60, m)) for m in markers]
        wait_for(lambda: all(m.exists() for m in markers), "both slow replays to start")
        error = json_error(get(port, "/sources"), 503)
        assert "connection limit" in error and "--max-connections" in error
        assert all(b.is_alive() for b in busy)


@pytest.fixture(scope="module")
def port():
    """A server with the default limits, for the tests that need nothing else."""
    with serving() as port:
        yield port


def test_bytes_that_are_not_http_get_a_json_400(port):
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(b"NOT HTTP AT ALL\x00\xff\r\n\r\n")
        head, _, body = raw_answer(sock).partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 400") and b"content-type: application/json" in head
    assert "not valid HTTP" in json.loads(body)["error"]


# --- HEAD ----------------------------------------------------------------------------------

SAMPLES = {"name": "lightning", "kind": "spell", "target": "sfr-2012:dice-modifiers", "term": "dua"}


def _get_paths() -> list[str]:
    """A path for each GET route and mount of the app, its parameters filled with sample values."""
    from starlette.routing import Mount

    from ddref.service import create_app

    paths = []
    for route in create_app().routes:
        if isinstance(route, Mount):
            paths.append(route.path + "/" + {"/static": "index.html"}.get(route.path, "favicon-32x32.png"))
        elif "GET" in getattr(route, "methods", ()):
            paths.append(route.path.format(**{p: SAMPLES.get(p, "x") for p in route.param_convertors}) + "?q=fog")
    return paths


@pytest.mark.parametrize("path", _get_paths())
def test_head_answers_as_get_does_without_a_body(port, path):
    got, head = get(port, path), request(port, "HEAD", path)
    assert head.status == got.status and head.body == b""
    same = ("content-type", "content-length", "content-security-policy", "etag", "last-modified")
    assert {k: v for k, v in head.headers.items() if k in same} == {k: v for k, v in got.headers.items() if k in same}
    assert head.headers.get("content-length", str(len(got.body))) == str(len(got.body))


def test_a_method_a_route_does_not_take_is_a_json_405_naming_the_ones_it_does(port):
    answer = get(port, "/resolve")
    assert "/resolve does not take GET; it takes POST" in json_error(answer, 405)
    assert answer.headers["allow"] == "POST"
