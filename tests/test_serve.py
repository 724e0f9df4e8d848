"""ddref serve's API over real HTTP on loopback: the CLI's answers, its messages, and no crash on bad input.

The server runs in a thread of this process (uvicorn on a free port), so a
test can break a library function and see what a client gets.
"""

from __future__ import annotations

import http.client
import json
import signal
import socket
import threading
import time
import urllib.parse
from contextlib import contextmanager
from pathlib import Path

import pytest

from ddref.scenario.source import MAX_BYTES
from fast_yaml import load_yaml

ROOT = Path(__file__).resolve().parents[1]
SCENARIOS = sorted((ROOT / "scenarios").glob("*.yaml"))
CORAL = ROOT / "scenarios" / "sfr2012-modifiers-coral-elf-17-saves.yaml"


@contextmanager
def serving(replay=None, **limits):
    """A server as ``ddref serve`` configures it (with ``limits``, and ``replay`` for POST /resolve when a test
    injects one), on a free port; its port. Stopped as SIGTERM stops it."""
    from ddref.limits import Limits
    from ddref.service import create_app, listen
    from ddref.serving import GracefulServer, server_config

    failed: list[BaseException] = []
    for attempt in (1, 2):
        sock = listen("127.0.0.1", 0)
        app = create_app(limits=Limits(**limits), replay=replay)
        # uvicorn logs why a start failed at "error" (shown with the failing test's captured output)
        served = GracefulServer(server_config(app, app.state.limits, log_level="error"), app.state.replays)

        def run(served=served, sock=sock) -> None:
            try:
                served.run(sockets=[sock])
            except BaseException as error:  # noqa: BLE001 - shown in the assertion below, not lost with the thread
                failed.append(error)

        thread = threading.Thread(target=run, daemon=True)
        thread.start()
        # The workers warm up for at most 60 s (ReplayPool.start) before the server starts anyway; a loaded machine
        # gets that and as much again before this calls it a failure.
        deadline = time.monotonic() + 120
        while not served.started and thread.is_alive():
            assert time.monotonic() < deadline, "the server did not start within 120 s"
            time.sleep(0.02)
        if served.started:
            break
        sock.close()
        # a start that failed on a loaded machine is tried once more; twice is a failure, with both reasons
        assert attempt == 1, f"the server stopped before it started, twice: {failed!r}"
    try:
        yield sock.getsockname()[1]
    finally:
        served.handle_exit(signal.SIGTERM, None)  # what SIGTERM does, from this thread
        thread.join(30)


@pytest.fixture(scope="module")
def server():
    with serving() as port:
        yield port


class Answer:
    def __init__(self, status: int, headers: dict[str, str], body: bytes) -> None:
        self.status, self.headers, self.body = status, headers, body

    def json(self):
        return json.loads(self.body)


def request(port: int, method: str, path: str, body=None, headers=None, chunked: bool = False) -> Answer:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        conn.request(method, path, body=body, headers=headers or {}, encode_chunked=chunked)
        response = conn.getresponse()
        return Answer(response.status, {k.lower(): v for k, v in response.getheaders()}, response.read())
    finally:
        conn.close()


def get(port: int, path: str) -> Answer:
    return request(port, "GET", path)


def q(text: str) -> str:
    return urllib.parse.quote(text, safe="")


def same_message(cli_stderr: str, error: str) -> bool:
    """The CLI's message (after ``ddref:`` when it has one) is the API's error; rich wraps it anywhere."""
    return "".join(cli_stderr.split()).removeprefix("ddref:") == "".join(error.split())


# --- the same answers as the CLI's --json --------------------------------------------

@pytest.mark.parametrize("path, args", [
    (f"/spells/{q('Wall of Fog')}?edition=all", ("spell", "Wall of Fog", "--edition", "all")),
    ("/spells/lightning", ("spell", "lightning")),
    ("/sais/charm?edition=tsr-1996", ("sai", "charm", "--edition", "tsr-1996")),
    ("/races/Selumari", ("race", "Selumari")),
    (f"/units/{q('coral elf trooper')}", ("unit", "coral elf trooper")),
    ("/spells?color=green&max_cost=3&edition=sfr-v4", ("spells", "--color", "green", "--max-cost", "3", "-e", "sfr-v4")),
    (f"/search?q={q('maneuver results count as saves in coastland')}",
     ("search", "maneuver results count as saves in coastland")),
    (f"/search?q={q('type:spell color:green cost<=3 -fog')}&edition=sfr-2012&limit=5",
     ("search", "type:spell color:green cost<=3 -fog", "-e", "sfr-2012", "--limit", "5")),
    (f"/search?q={q('colr:green fog')}&type=spell", ("search", "colr:green fog", "--type", "spell")),
    ("/rules/sfr-2012:dice-modifiers.applying-dice-modifiers", ("rule", "sfr-2012:dice-modifiers.applying-dice-modifiers")),
    (f"/rules/{q('reserve magic')}?edition=tsr-1996", ("rule", "reserve magic", "--edition", "tsr-1996")),
    ("/rules?edition=sfr-v4", ("rules", "--edition", "sfr-v4")),
    (f"/rulings?q={q('amazons in reserves')}", ("ruling", "amazons in reserves")),
    ("/glossary/dua", ("glossary", "dua")),
    (f"/compare/spell/{q('wall of fog')}", ("compare", "spell", "wall of fog")),
    (f"/compare/rule/{q('dice modifiers')}", ("compare", "rule", "dice modifiers")),
    ("/sources", ("sources",)),
])
def test_each_endpoint_answers_what_the_cli_prints_as_json(server, run, path, args):
    answer = get(server, path)
    assert answer.status == 200, answer.body
    assert answer.headers["content-type"] == "application/json"
    cli = run(*args, "--json")
    assert cli.exit_code == 0, cli.stderr
    assert answer.json() == json.loads(cli.stdout)


@pytest.mark.parametrize("path, args, suggestion", [
    (f"/spells/{q('wall of')}", ("spell", "wall of"), "Wall of Fog"),
    (f"/spells/{q('accelerated growth')}", ("spell", "accelerated growth"), None),
    ("/sais/cha", ("sai", "cha"), "Charge"),
    ("/rules/sfr-2012:dice-modifier", ("rule", "sfr-2012:dice-modifier"), "sfr-2012:dice-modifiers"),
    ("/rules/tsr-1996:faq?edition=sfr-2012", ("rule", "tsr-1996:faq", "-e", "sfr-2012"), None),
    ("/rulings?q=zzqx", ("ruling", "zzqx"), None),
    ("/glossary/nosuchterm", ("glossary", "nosuchterm"), None),
    ("/compare/spell/nosuch", ("compare", "spell", "nosuch"), None),
    ("/spells?color=grene", ("spells", "--color", "grene"), "green"),
])
def test_an_unknown_name_is_a_404_with_the_clis_message_and_the_closest_names(server, run, path, args, suggestion):
    answer = get(server, path)
    assert answer.status == 404
    body = answer.json()
    cli = run(*args)
    assert cli.exit_code == 2
    assert same_message(cli.stderr, body["error"])
    if suggestion:
        assert suggestion in body["suggestions"] and suggestion in body["error"]


@pytest.mark.parametrize("path, words", [
    ("/spells/fog?edition=sfr-2000", ["query parameter 'edition'", "'sfr-2012'", "(got 'sfr-2000')"]),
    ("/search?q=fog&limit=0", ["query parameter 'limit'", "greater than or equal to 1"]),
    ("/search", ["query parameter 'q'", "required"]),
    ("/compare/dragon/red", ["path parameter 'kind'", "'spell', 'sai' or 'rule'"]),
    ("/spells?max_cost=cheap", ["query parameter 'max_cost'", "integer"]),
])
def test_a_bad_parameter_is_a_422_naming_it(server, path, words):
    answer = get(server, path)
    assert answer.status == 422
    for word in words:
        assert word in answer.json()["error"]


def test_an_empty_rule_query_is_a_400(server):
    answer = get(server, "/rules/%20")
    assert answer.status == 400 and "give a section id or words" in answer.json()["error"]


def test_an_unknown_path_is_a_404_pointing_to_the_docs(server):
    answer = get(server, "/spell/fog")
    assert answer.status == 404 and "/docs" in answer.json()["error"]


def test_one_very_long_word_is_searched_without_spelling_it_or_rebuilding_the_index(server):
    from index.store import info

    assert get(server, "/search?q=fog").status == 200  # the index is built
    built = info()["built_at"]
    answer = get(server, "/search?q=" + "xqzt" * 245)  # 980 letters: its spelling variants overflowed SQLite
    assert answer.status == 200 and answer.json()["hits"] == []
    assert info()["built_at"] == built


# --- POST /resolve ------------------------------------------------------------------

@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_resolve_answers_what_ddref_resolve_json_prints(server, run, path):
    answer = request(server, "POST", f"/resolve?file={q(str(path))}", path.read_bytes(),
                     {"Content-Type": "application/yaml"})
    assert answer.status == 200, answer.body
    cli = run("resolve", str(path), "--json")
    assert answer.json() == json.loads(cli.stdout)


def test_resolve_takes_a_json_body(server):
    import yaml

    scenario = load_yaml(CORAL.read_text(encoding="utf-8"))
    answer = request(server, "POST", "/resolve", json.dumps(scenario), {"Content-Type": "application/json"})
    assert answer.status == 200, answer.body
    data = answer.json()
    assert data["file"] == "scenario"
    assert data["steps"][0]["results"]["elves"]["save"] == 17  # 002's worked example
    assert data["expectations"] and all(c["ok"] for c in data["expectations"])


def test_an_invalid_scenario_is_a_422_with_the_clis_located_messages(server, run, tmp_path):
    text = CORAL.read_text(encoding="utf-8").replace("army: archers", "army: archer").replace(
        "{spell: wall-of-fog,", "{spell: wall of fgo,")
    path = tmp_path / "dispute.yaml"
    path.write_text(text, encoding="utf-8")
    answer = request(server, "POST", f"/resolve?file={q(str(path))}", text.encode())
    assert answer.status == 422
    body = answer.json()
    cli = run("resolve", str(path))
    assert cli.exit_code == 2
    assert same_message(cli.stderr, body["error"])
    assert "did you mean: archers" in body["error"] and "did you mean: Wall of Fog" in body["error"]
    lines = text.splitlines()
    for error in body["errors"]:
        assert error["file"] == str(path) and error["path"] and error["message"]
        assert ("archer" in lines[error["line"] - 1]) or ("wall of fgo" in lines[error["line"] - 1])


@pytest.mark.parametrize("body, words", [
    (b"", ["file is empty"]),
    (b"ddref: 1\nsteps: [1\n", ["scenario:3:1:", "YAML syntax error"]),
    (b"\xff\xfe", ["not valid UTF-8"]),
    (b"[1, 2]", ["top level must be a mapping"]),
    (b"a: &x [1]\nb: *x\n", ["alias"]),
])
def test_a_body_that_is_no_scenario_is_a_422_not_a_crash(server, body, words):
    answer = request(server, "POST", "/resolve", body)
    assert answer.status == 422
    for word in words:
        assert word in answer.json()["error"]


def test_resolve_under_an_edition_it_cannot_replay_is_a_400(server, run):
    answer = request(server, "POST", "/resolve?edition=tsr-2000", CORAL.read_bytes())
    assert answer.status == 400
    assert same_message(run("resolve", str(CORAL), "-e", "tsr-2000").stderr, answer.json()["error"])


def test_resolve_under_another_edition_says_so(server):
    """?edition= overrides the scenario's edition, as --edition does, and the answer says which it was."""
    answer = request(server, "POST", "/resolve?edition=tsr-1996", CORAL.read_bytes())
    assert answer.status == 200
    data = answer.json()
    assert data["edition"] == "tsr-1996"
    assert data["edition_override"] == {"scenario": "sfr-2012", "replayed": "tsr-1996"}


def test_a_body_over_the_limit_is_a_413_whether_announced_or_streamed(server):
    big = b"#" * (MAX_BYTES + 1)
    announced = request(server, "POST", "/resolve", big)
    assert announced.status == 413 and f"{MAX_BYTES:,} bytes" in announced.json()["error"]
    streamed = request(server, "POST", "/resolve", iter([big[:MAX_BYTES], big[MAX_BYTES:]]), chunked=True)
    assert streamed.status == 413 and "too large" in streamed.json()["error"]
    assert get(server, "/spells/lightning").status == 200


# --- nothing crashes the server ---------------------------------------------------------

def test_an_unexpected_error_is_a_500_json_without_traceback(server, monkeypatch):
    from ddref import answers

    def broken(*args, **kwargs):
        raise RuntimeError("boom in /some/internal/path")

    monkeypatch.setattr(answers, "named", broken)
    answer = get(server, "/spells/fog")
    assert answer.status == 500
    message = answer.json()["error"]
    assert "internal error (RuntimeError)" in message
    assert "Traceback" not in message and "/some/internal/path" not in message
    monkeypatch.undo()
    assert get(server, "/spells/lightning").status == 200


def test_garbage_on_the_socket_leaves_the_server_answering(server):
    with socket.create_connection(("127.0.0.1", server), timeout=10) as raw:
        raw.sendall(b"NOT HTTP AT ALL\x00\xff\r\n\r\n")
        assert raw.recv(100).startswith(b"HTTP/1.1 400")
    assert get(server, "/sais/charm").status == 200


# --- the docs and the pages, with nothing from elsewhere ------------------------------------

def test_docs_are_served_from_the_package_not_a_cdn(server):
    docs = get(server, "/docs")
    assert docs.status == 200
    html = docs.body.decode()
    assert "/docs-assets/swagger-ui-bundle.js" in html and "cdn." not in html
    assert get(server, "/docs-assets/swagger-ui-bundle.js").status == 200
    spec = get(server, "/openapi.json").json()
    assert {"/spells/{name}", "/sais/{name}", "/races/{name}", "/units/{name}", "/search", "/rules/{target}",
            "/rulings", "/compare/{kind}/{name}", "/resolve"} <= set(spec["paths"])


@pytest.mark.parametrize("page", ["/", "/trace"])
def test_pages_fit_a_phone_and_load_only_their_own_files(server, page):
    import re

    answer = get(server, page)
    assert answer.status == 200 and answer.headers["content-type"].startswith("text/html")
    assert "default-src 'self'" in answer.headers["content-security-policy"]
    html = answer.body.decode()
    assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in html
    assets = re.findall(r'(?:src|href)="([^"]+)"', html)
    assert any(a.endswith(".js") for a in assets) and any(a.endswith(".css") for a in assets)
    for asset in assets:
        if asset.startswith("data:"):
            continue
        assert asset.startswith("/"), f"{page} loads {asset} from elsewhere"
        assert get(server, asset).status == 200, asset


def test_every_curl_example_of_the_serve_docs_answers(server):
    import re

    page = (ROOT / "docs" / "serve.md").read_text(encoding="utf-8")
    examples = re.findall(r"^curl (.*?)'http://127\.0\.0\.1:8000(/[^']*)'", page.replace("\\\n", ""), re.M)
    assert len(examples) >= 12
    for options, path in examples:
        body = re.search(r"--data-binary @(\S+)", options)
        answer = request(server, "POST" if body else "GET", path, (ROOT / body[1]).read_bytes() if body else None)
        assert answer.status == 200, (path, answer.body[:200])


# --- the command -----------------------------------------------------------------------

def test_serve_on_a_busy_port_is_a_clean_error(run):
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen(1)
        result = run("serve", "--port", str(busy.getsockname()[1]))
    assert result.exit_code == 2
    assert "cannot listen on 127.0.0.1" in result.stderr and "try another --port" in result.stderr


def test_serve_on_an_unknown_host_is_a_clean_error(run):
    result = run("serve", "--host", "no-such-host.invalid")
    assert result.exit_code == 2 and "cannot serve on host 'no-such-host.invalid'" in result.stderr


def test_the_lan_urls_are_this_machines_addresses_on_networks_that_are_up(monkeypatch):
    import psutil

    from ddref.service import urls

    def address(family, text):
        return type("Address", (), {"family": family, "address": text})()

    stats = {"lo": ("up,loopback,running", True), "wlan0": ("up,broadcast", True), "eth1": ("broadcast", False)}
    monkeypatch.setattr(psutil, "net_if_stats", lambda: {
        name: type("Stats", (), {"flags": flags, "isup": up})() for name, (flags, up) in stats.items()})
    monkeypatch.setattr(psutil, "net_if_addrs", lambda: {
        "lo": [address(socket.AF_INET, "127.0.0.1")],
        "wlan0": [address(socket.AF_INET, "192.168.1.20"), address(socket.AF_INET6, "fe80::1"),
                  address(socket.AF_INET6, "fd00::20")],
        "eth1": [address(socket.AF_INET, "10.0.0.5")],
    })
    assert urls("0.0.0.0", 8000) == ["http://192.168.1.20:8000/", "http://127.0.0.1:8000/"]
    assert urls("::", 8000) == ["http://192.168.1.20:8000/", "http://[fd00::20]:8000/", "http://127.0.0.1:8000/"]
    assert urls("127.0.0.1", 8080) == ["http://127.0.0.1:8080/"]


def test_a_misspelling_with_one_clear_match_is_answered_with_a_note(server):
    answer = get(server, f"/spells/{q('lightening strike')}")
    assert answer.status == 200 and answer.json()["id"] == "lightning-strike"
    assert answer.headers.get("x-ddref-note") == "showing Lightning Strike for 'lightening strike'"



def test_build_parse_refuses_a_number_the_page_would_round_at_its_line(server):
    """/build/parse hands the builder page JSON: a whole number past 2**53 - 1 would come back rounded (a roll
    of 99999999999999999999999999 melee was then refused as "got 1e+26"). It is refused at its line and field;
    the largest the page holds passes as written."""
    import yaml

    def parse(number: int) -> Answer:
        data = load_yaml(CORAL.read_text(encoding="utf-8"))
        data["steps"][0]["missile"]["roll"] = {"missile": number}
        return request(server, "POST", "/build/parse", yaml.safe_dump(data, sort_keys=False).encode())

    answer = parse(99999999999999999999999999)
    assert answer.status == 422, answer.body
    [error] = answer.json()["errors"]
    assert error["path"] == "steps[0].missile.roll.missile" and error["line"] > 1
    assert "99999999999999999999999999" in error["message"]
    kept = parse(2**53 - 1)
    assert kept.status == 200 and kept.json()["scenario"]["steps"][0]["missile"]["roll"] == {"missile": 2**53 - 1}


def test_a_mistyped_edition_to_replay_under_gets_a_did_you_mean_on_both_sides(server, run):
    result = run("resolve", str(CORAL), "-e", "sfr2012")
    assert result.exit_code == 2 and "did you mean: sfr-2012?" in result.stderr
    answer = request(server, "POST", "/resolve?edition=SFR2012", CORAL.read_bytes())
    assert answer.status == 400 and answer.json()["suggestions"] == ["sfr-2012"]
    assert "did you mean: sfr-2012?" in answer.json()["error"]
