"""Issue 19: crashes, freezes and amplification found under attack. Each test reproduces one hole: a scenario a
careless or hostile user writes must get a located message (exit 2) quickly, never an internal error."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import jsonschema
import pytest

from ddref.scenario.model import STEP_KINDS
from ddref.scenario.schema import scenario_schema

ROOT = Path(__file__).resolve().parents[1]

HEAD = """ddref: 1
title: t
players: [a, b]
terrains:
  home: {type: highland, face: 3, action: melee, home_of: a}
  front: {type: flatland, face: 4, action: melee, frontier: true}
"""
ARMIES = """armies:
  x: {player: a, at: home, units: [{id: d1, race: dwarf, health: 1}, {race: dwarf, health: 1, count: 2}]}
  y: {player: b, at: front, units: [{race: goblin, health: 1, count: 3}]}
"""


def write(tmp_path: Path, text: str, name: str = "s.yaml") -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def clean_failure(result, *needles: str) -> None:
    """Exit 2, a located message naming what is wrong, no internal error."""
    assert result.exit_code == 2, result.output
    assert "internal error" not in result.output and "Traceback" not in result.output, result.output
    for needle in needles:
        assert needle in result.stderr, result.stderr


# --- 4. integers too long to read or print; 2. a 1 MiB sexagesimal integer ------------------------------------

@pytest.mark.parametrize("number", ["0x" + "f" * 5000, "0b" + "1" * 20000, "0" + "7" * 6000, "1" + ":0" * 3000,
                                    "9" * 5000])
@pytest.mark.parametrize("command", [("check",), ("resolve",), ("resolve", "--json")])
def test_an_integer_too_long_is_a_located_error(run, tmp_path, number, command):
    """Hex, binary and sexagesimal integers of thousands of digits became ints too large to print: ValueError in
    the message and trace rendering (a 500 in serve)."""
    path = write(tmp_path, HEAD + ARMIES + f"steps:\n  - roll: {{army: x, for: maneuver, roll: {{maneuver: {number}}}}}\n")
    result = run(*command, path)
    clean_failure(result, f"{path}:11:", "steps[0].roll.roll.maneuver", "at most 100 characters")


def test_a_megabyte_sexagesimal_integer_fails_fast(run, tmp_path):
    """PyYAML reads `1:0:0:...` in time quadratic in its length: a 1 MiB one took 1 min 44 s of CPU."""
    number = "1" + ":0" * ((1024 * 1024 - 1000) // 2)
    path = write(tmp_path, HEAD + ARMIES + f"steps:\n  - roll: {{army: x, for: maneuver, roll: {{maneuver: {number}}}}}\n")
    started = time.process_time()
    result = run("check", path)
    assert time.process_time() - started < 5
    clean_failure(result, "at most 100 characters")


def test_short_integers_in_every_notation_are_still_read(run, tmp_path):
    steps = "".join(f"  - roll: {{army: y, for: maneuver, roll: {{maneuver: {n}}}}}\n"
                    f"    expect: {{results.y.maneuver: {v}}}\n" for n, v in (("0x3", 3), ("0b10", 2), ("03", 3)))
    result = run("resolve", write(tmp_path, HEAD + ARMIES + "steps:\n" + steps))
    assert result.exit_code == 0 and "3 of 3 expectations hold" in " ".join(result.stdout.split()), result.output


# --- 4. face counts in other scripts' digits, or thousands of digits -------------------------------------------

@pytest.mark.parametrize("face", ["melee \u00b2", "melee \u0663", "melee \uff12", "melee " + "9" * 5000])
def test_a_face_count_that_is_not_ascii_digits_is_a_located_error(run, tmp_path, face):
    """`str.isdigit()` is true of '²' (and of 5,000 nines), which int() then refused: ValueError, an internal error."""
    path = write(tmp_path, HEAD + ARMIES + f"steps:\n  - roll: {{army: x, for: melee, roll: {{d1: '{face}'}}}}\n")
    result = run("check", path)
    clean_failure(result, "steps[0].roll.roll.d1", "digits 0-9")


# --- 4. ids unique across units, dragons and every area ------------------------------------------------------

DRAGON_STEP = "steps:\n  - dragon_attack: {army: x, dragons: {d: [jaws]}, roll: {melee: 10, save: 2}}\n"


@pytest.mark.parametrize("extra, where", [
    ("dragons:\n  - {id: d, color: red, at: home}\n  - {id: d, color: blue, at: home}\n", "dragons[1].id"),
    ("dragons:\n  - {id: d, color: red, at: home}\n  - {id: d1, color: blue, at: home}\n", "dragons[1].id"),
    ("dragons:\n  - {id: d, color: red, at: home}\ndua:\n  a: [{id: d1, race: dwarf, health: 1}]\n", "dua.a"),
    ("dragons:\n  - {id: d, color: red, at: home}\nbua:\n  b: [{id: y, race: goblin, health: 1}]\n", "bua.b"),
    ("dragons:\n  - {id: d, color: red, at: home}\ndua:\n  a: [{id: d, race: dwarf, health: 1}]\n", "dragons[0].id"),
    ("dragons:\n  - {id: d, color: red, at: home}\nsummoning_pool:\n  a: [{dragonkin: Dragonscout, color: red, id: d1}]\n",
     "summoning_pool.a"),
    ("dragons:\n  - {id: home, color: red, at: home}\n", "dragons[0].id"),
])
def test_an_id_used_twice_anywhere_is_reported_by_check(run, tmp_path, extra, where):
    """A dragon id used twice passed `ddref check`, then `resolve` crashed in the slaying code (StopIteration)."""
    path = write(tmp_path, HEAD + ARMIES + extra + DRAGON_STEP)
    for command in (("check",), ("resolve",)):
        clean_failure(run(*command, path), where, "is used twice", "ids are unique")


# --- 4. MemoryError -------------------------------------------------------------------------------------------

HOG = """
import resource, sys
import ddref.cli
import ddref.scenario.run as run

def hog(*args, **kwargs):
    chunks = []
    while True:
        chunks.append(bytearray(4096))

run.load = hog
vm = next(int(l.split()[1]) for l in open("/proc/self/status") if l.startswith("VmSize:")) * 1024
limit = vm + 200 * 1024 * 1024
resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
sys.argv = ["ddref", "resolve", "bench/ten-steps.yaml"]
ddref.cli.main()
"""


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads its memory size from /proc")
def test_running_out_of_memory_says_what_to_lower(tmp_path):
    proc = subprocess.run([sys.executable, "-c", HOG], cwd=ROOT, capture_output=True, text=True, timeout=120,
                          env={**os.environ, "DDREF_CACHE_DIR": str(tmp_path)})
    assert proc.returncode == 2 and "Traceback" not in proc.stderr and "internal error" not in proc.stderr, proc.stderr
    assert "out of memory" in proc.stderr and "units" in proc.stderr and "effects" in proc.stderr


# --- 4. what the loader accepts, the schema accepts (and the other way) ----------------------------------------

SCHEMA = jsonschema.Draft202012Validator(scenario_schema())
MINIMAL = {"ddref": 1, "title": "t", "players": ["a", "b"], "terrains": {"home": {"type": "highland", "face": 3}},
           "armies": {"x": {"player": "a", "at": "home", "units": [{"race": "dwarf", "health": 1}]}}}


@pytest.mark.parametrize("kind", list(STEP_KINDS))
@pytest.mark.parametrize("value", [None, {}, 0, False, "", []], ids=["null", "empty", "0", "false", "text", "list"])
def test_a_step_kind_written_empty_is_read_alike_by_loader_and_schema(run, tmp_path, kind, value):
    """`reserves: null` passed the loader (which read any false value as {}) and failed the schema `ddref schema`
    gives editors: every kind key with every empty value is accepted by both or by neither."""
    data = {**MINIMAL, "steps": [{kind: value}]}
    path = write(tmp_path, json.dumps(data))
    loader = run("check", path).exit_code == 0
    schema = not list(SCHEMA.iter_errors(data))
    assert loader is schema, (loader, schema)
