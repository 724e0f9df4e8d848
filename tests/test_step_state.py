"""A format that can check every moment (issue 20 §0): a step's ``expect`` reads the state after that step through
``state.`` paths, an absent area reads as empty, and a step refused without ``expect_error`` still reports the
steps before it (exit 2, located refusal, and with --json their results plus the refusal on stdout)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

BASE = """\
ddref: 1
title: moments
players: [a, b]
turn: {player: b}
terrains:
  field: {type: flatland, face: 3, action: melee}
armies:
  gobs: {player: a, at: field, units: [{id: g1, race: goblin, health: 1}, {id: g2, race: goblin, health: 2}]}
  dw: {player: b, at: field, units: [{id: d1, race: dwarf, health: 2}]}
steps:
  - melee: {army: dw, target: gobs, roll: {melee: 1}, saves: {gobs: {save: 0}}}
"""


def scenario(tmp_path: Path, text: str) -> str:
    path = tmp_path / "s.yaml"
    path.write_text(BASE + text, encoding="utf-8")
    return str(path)


@pytest.mark.parametrize("key, value", [
    # 002 Damage: the killed unit goes to its owner's DUA, read after the step that killed it
    ("state.dua.a.units", ["g1"]), ("state.dua.a.health", 1),
    ("state.armies.gobs.units", ["g2"]), ("state.armies.gobs.health", 2),
    # a player's area that holds nothing reads as empty, never as missing
    ("state.dua.b.units", []), ("state.bua.a", {"units": [], "health": 0}), ("state.summoning_pool.b", []),
    ("state.effects", []), ("state.dragons", {}),
])
def test_a_step_expect_reads_the_state_after_it(run, tmp_path, key, value):
    path = scenario(tmp_path, f"    expect: {{{key}: {json.dumps(value)}}}\n"
                              "  - melee: {army: dw, target: gobs, roll: {melee: 2}, saves: {gobs: {save: 0}}}\n")
    result = run("resolve", path, "--json")
    assert result.exit_code == 0, result.output
    check = json.loads(result.stdout)["expectations"][0]
    assert check["key"] == key and check["actual"] == value and check["ok"]


def test_the_state_is_read_after_that_step_not_at_the_end(run, tmp_path):
    path = scenario(tmp_path, "    expect: {state.dua.a.units: [g1]}\n"
                              "  - melee: {army: dw, target: gobs, roll: {melee: 2}, saves: {gobs: {save: 0}}}\n"
                              "    expect: {state.dua.a.units: [g1, g2]}\n"
                              "expect: {state.dua.a.health: 3, dua.a.health: 3}\n")
    result = run("resolve", path, "--json")
    assert result.exit_code == 0, result.output
    assert [c["actual"] for c in json.loads(result.stdout)["expectations"]] == [["g1"], ["g1", "g2"], 3, 3]


def test_an_unknown_player_is_still_missing(run, tmp_path):
    path = scenario(tmp_path, "    expect: {state.dua.zed.units: []}\n")
    result = run("resolve", path, "--json")
    assert result.exit_code == 1
    assert json.loads(result.stdout)["expectations"][0]["actual"] is None


REFUSED = ("  - melee: {army: dw, target: gobs, roll: {melee: 2}, saves: {gobs: {save: 0}}, casualties: {gobs: [g1]}}\n"
           "  - melee: {army: dw, target: gobs, roll: {melee: 2}, saves: {gobs: {save: 0}}}\n")


def test_a_refused_step_reports_the_steps_before_it_in_json(run, tmp_path):
    result = run("resolve", scenario(tmp_path, "    expect: {killed: [g1]}\n" + REFUSED), "--json")
    assert result.exit_code == 2
    out = json.loads(result.stdout)
    assert out["steps"][0]["killed"] == ["g1"] and out["expectations"][0]["ok"]
    assert len(out["steps"]) == 2 and "not units of army gobs" in out["steps"][1]["rejected"]
    refused = out["refused"]
    assert refused["step"] == 2 and refused["kind"] == "melee" and refused["line"] == 13
    assert refused["path"] == "steps[1].melee.casualties" and refused["cite"] == "sfr-2012:damage"
    assert out["state"]["dua"]["a"]["units"] == ["g1"]          # the state before the refused step
    assert "s.yaml:13:" in result.stderr and "step 2 (melee) is not allowed" in result.stderr


def test_a_refused_step_reports_the_steps_before_it_in_text(run, tmp_path):
    result = run("resolve", scenario(tmp_path, REFUSED))
    assert result.exit_code == 2
    assert "Step 1  melee" in result.stdout and "killed          g1" in result.stdout
    assert "step 2 (melee) refused" in " ".join(result.stdout.split())
    assert "step 2 (melee) is not allowed" in result.stderr


@pytest.fixture(scope="module")
def http_server():
    import test_serve

    yield from test_serve.server.__wrapped__()


def test_serve_puts_the_partial_results_in_the_422(http_server, run, tmp_path):
    from test_serve import request

    path = scenario(tmp_path, REFUSED)
    answer = request(http_server, "POST", "/resolve", Path(path).read_bytes(), {"Content-Type": "application/yaml"})
    assert answer.status == 422
    body = answer.json()
    assert body["errors"][0]["path"] == "steps[1].melee.casualties"
    cli = json.loads(run("resolve", path, "--json").stdout)
    assert body["result"]["refused"]["step"] == 2 and body["result"]["steps"] == cli["steps"]
