"""Hostile and malformed input, generated (issue 8): ddref answers with exit 0, 1 or 2 and a message,
never a traceback or an internal error, never hangs, never runs anything a file asks for.

The inputs run in-process through ``ddref.cli.main`` (as the console script does), which keeps
thousands of cases fast. The normal suite runs a quick, derandomized profile; the long run is

    DDREF_FUZZ_EXAMPLES=10000 python -m pytest tests/test_fuzz.py

with that many cases per test (the README gives the figures of the last long run).
"""

from __future__ import annotations

import copy
import io
import json
import os
import signal
import sys
import tempfile
import time
from contextlib import contextmanager, redirect_stderr, redirect_stdout
from pathlib import Path

import jsonschema
import msgspec
import pytest
import yaml
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from ddref.cli import main
from ddref.scenario.run import load, load_ruleset, replay
from ddref.scenario.schema import scenario_schema
from ddref.scenario.source import MAX_BYTES, ScenarioErrors
from engine.resolve import resolve
from engine.state import GameState
from engine.trace import StepError
from index.corpus import sections
from fast_yaml import load_yaml

ROOT = Path(__file__).resolve().parents[1]
SCENARIOS = sorted((ROOT / "scenarios").glob("*.yaml"))
BASES = {p.name: load_yaml(p.read_text(encoding="utf-8")) for p in SCENARIOS}
LONG = int(os.environ.get("DDREF_FUZZ_EXAMPLES", "0"))
SECONDS_PER_INPUT = 10   # a hang is an input that takes longer than this

settings.register_profile("quick", max_examples=15, derandomize=True, deadline=None, database=None,
                          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
settings.register_profile("long", max_examples=max(LONG, 1), deadline=None, database=None,
                          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
FUZZ = settings.get_profile("long" if LONG else "quick")

WORK = Path(tempfile.mkdtemp(prefix="ddref-fuzz-"))
SCHEMA = jsonschema.Draft202012Validator(scenario_schema())
MARKER = WORK / "executed"          # a file a YAML tag would create if anything ran it


# --- running ddref in-process ------------------------------------------------------------------

@contextmanager
def _time_limit(seconds: float):
    def hung(signum, frame):
        raise TimeoutError(f"no answer within {seconds} s")

    previous = signal.signal(signal.SIGALRM, hung)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def ddref(*args: str) -> tuple[int, str, str]:
    """Run ``ddref ARGS`` as the console script would: (exit code, stdout, stderr).

    stdout is strict UTF-8 and stderr replaces what it cannot write, as Python sets them up in a
    UTF-8 terminal, so printing something unprintable is caught here as it would be there.
    """
    out = io.TextIOWrapper(io.BytesIO(), encoding="utf-8", errors="strict")
    err = io.TextIOWrapper(io.BytesIO(), encoding="utf-8", errors="backslashreplace")
    argv, sys.argv = sys.argv, ["ddref", *args]
    code = 0
    try:
        with _time_limit(SECONDS_PER_INPUT), redirect_stdout(out), redirect_stderr(err):
            main()
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    finally:
        sys.argv = argv
    out.flush(), err.flush()
    return code, out.buffer.getvalue().decode(), err.buffer.getvalue().decode()


def assert_clean(code: int, stdout: str, stderr: str, as_json: bool = False) -> None:
    """Exit 0, 1 or 2; a failure says something (on stderr, or in the JSON); nothing the user
    should never see."""
    assert code in (0, 1, 2), (code, stderr)
    assert "Traceback" not in stdout + stderr and "internal error" not in stderr, stderr
    if code == 2 and not as_json:
        assert stderr.strip(), "exit 2 without a message"
    assert not MARKER.exists(), "a scenario file ran a command"


def scenario_file(data: bytes) -> str:
    path = WORK / "fuzzed.yaml"
    path.write_bytes(data)
    return str(path)


# --- strategies: mutated scenarios -------------------------------------------------------------

NAMES = ["wall-of-fog", "Wall of Fog", "wall of fgo", "hailstorm", "coral-elf", "dwarf", "Umber Hulk",
         "trample", "double-strike", "fly", "save", "melee", "maneuver", "id", "flatland", "coastland",
         "reserve", "elves", "elves.1", "alice", "bob", "sfr-v4", "tsr-1996", "magic", "gold", "purple"]

scalars = st.one_of(
    st.none(), st.booleans(), st.integers(-3, 40), st.integers(-2**70, 2**70),
    st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=20), st.sampled_from(NAMES),
)
values = st.recursive(scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(st.one_of(st.text(max_size=8), st.sampled_from(NAMES),
                                                           st.integers(-2, 9)), inner, max_size=4)),
    max_leaves=12)


def _nodes(node, path=()):
    yield path
    if isinstance(node, dict):
        for key, value in node.items():
            yield from _nodes(value, (*path, key))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from _nodes(value, (*path, i))


def _parent(data, path):
    for part in path[:-1]:
        data = data[part]
    return data


@st.composite
def mutated_scenarios(draw) -> dict:
    """A bundled scenario with a few random edits: a value replaced (wrong type, unknown name, huge or
    negative number), a field deleted, an entry duplicated (ids used twice), a key renamed."""
    data = copy.deepcopy(BASES[draw(st.sampled_from(sorted(BASES)))])
    for _ in range(draw(st.integers(1, 4))):
        path = draw(st.sampled_from(list(_nodes(data))))
        if not path:
            continue
        parent, last = _parent(data, path), path[-1]
        edit = draw(st.sampled_from(["replace", "number", "delete", "duplicate", "rename"]))
        if edit == "replace":
            parent[last] = draw(values)
        elif edit == "number":
            parent[last] = draw(st.one_of(st.integers(-5, 60), st.integers(10**6, 10**30), st.just(-1)))
        elif edit == "delete":
            del parent[last]
        elif edit == "duplicate" and isinstance(parent, dict):
            parent[f"{last}-copy" if draw(st.booleans()) else draw(st.sampled_from(NAMES))] = \
                copy.deepcopy(parent[last])
        elif edit == "duplicate":
            parent.append(copy.deepcopy(parent[last]))
        elif isinstance(parent, dict):
            parent[draw(st.one_of(st.text(max_size=10), st.sampled_from(NAMES), st.integers()))] = parent.pop(last)
    return data


def dumped(data) -> bytes:
    return yaml.safe_dump(data, allow_unicode=True, sort_keys=False).encode("utf-8")


@st.composite
def corrupted(draw) -> bytes:
    """A scenario's bytes with bytes that are not UTF-8 (or not YAML) spliced in."""
    data = dumped(BASES[draw(st.sampled_from(sorted(BASES)))])
    at = draw(st.integers(0, len(data)))
    return data[:at] + draw(st.binary(min_size=1, max_size=8)) + data[at:]


# --- strategies: hostile files -----------------------------------------------------------------

class Large(bytes):
    """A large generated file (up to 25 MB), shown by its size: Hypothesis writes out every example it makes
    (a repr as large as the file each time), and holding those made the 10,000-example run of the hostile files
    reach 8.7 GB."""

    def __repr__(self) -> str:
        return f"Large({bytes(self[:24])!r} + ... ({len(self):,} bytes))"


def _laughs(levels: int, width: int) -> bytes:
    lines = ['a: &a ["lol"]'] + [f"{chr(98 + i)}: &{chr(98 + i)} [{', '.join(['*' + chr(97 + i)] * width)}]"
                                 for i in range(levels)]
    return ("\n".join(lines) + "\n").encode()


TAGGED = [
    f"!!python/object/apply:os.system ['touch {MARKER}']\n",
    f"ddref: 1\ntitle: !!python/object/apply:os.system ['touch {MARKER}']\n",
    f"ddref: 1\ntitle: x\nsteps: [!!python/object/new:subprocess.Popen [['touch', '{MARKER}']]]\n",
    "ddref: !!python/name:os.system\n",
    "ddref: 1\ntitle: !!binary aGVsbG8=\n",
    "ddref: 1\nplayers: !!set {a, b}\n",
    "ddref: 1\nplayers: !!omap [a: 1]\n",
    "ddref: !custom 1\n",
    "ddref: !!int abc\n",
    "ddref: 1\n<<: {title: merged}\n",
    "? [a, b]\n: c\n",
    "ddref: 2001-12-14\ntitle: 1e3\n",
]

hostile_files = st.one_of(
    st.sampled_from([b"", b"   \n\t\n", b"---\n", b"~\n", b"# only a comment\n", b"[]", b"\"just text\"",
                     b"--- 1\n--- 2\n", b"\xef\xbb\xbf", b"\x00\x01\x02"]),
    st.sampled_from(TAGGED).map(str.encode),
    st.builds(_laughs, st.integers(1, 9), st.integers(2, 10)),
    st.integers(1, 20_000).map(lambda n: Large(b"[" * n + b"]" * n)),
    st.integers(1, 5_000).map(lambda n: Large(b"".join(b"  " * i + b"k:\n" for i in range(n)))),
    st.integers(1, 3).map(lambda k: Large(b"title: " + b"x" * (MAX_BYTES + k))),
    st.integers(1, 3).map(lambda k: Large(b"#" * (MAX_BYTES // k))),
    st.binary(max_size=300),
    st.text(alphabet="{}[]:-,&*!|>'\"#%@`? \n\tab1", max_size=200).map(str.encode),
    corrupted(),
)


@given(mutated_scenarios())
@FUZZ
def test_mutated_scenarios_resolve_or_fail_cleanly(data):
    path = scenario_file(dumped(data))
    assert_clean(*ddref("resolve", path, "--quiet"))


@given(mutated_scenarios())
@FUZZ
def test_mutated_scenarios_check_as_json(data):
    code, stdout, stderr = ddref("check", scenario_file(dumped(data)), "--json")
    assert_clean(code, stdout, stderr, as_json=True)
    (result,) = json.loads(stdout)
    assert result["ok"] is (code == 0) and bool(result["errors"]) is (code == 2)
    # the file is well-formed YAML, so every error can say where it is
    assert all(e["message"] and e["file"] and e["line"] and e["column"] for e in result["errors"]), result
    if code == 0:   # what ddref accepts, an editor using the schema must not underline
        assert [(list(e.absolute_path), e.message) for e in SCHEMA.iter_errors(_string_keys(data))] == []


def _string_keys(node):
    """The data as an editor's YAML server sees it for the schema: mapping keys are strings."""
    if isinstance(node, dict):
        return {str(k) if not isinstance(k, bool) else str(k).lower(): _string_keys(v) for k, v in node.items()}
    if isinstance(node, list):
        return [_string_keys(v) for v in node]
    return node


@given(hostile_files)
@FUZZ
def test_hostile_files_fail_cleanly(data):
    started = time.perf_counter()
    assert_clean(*ddref("resolve", scenario_file(data)))
    assert time.perf_counter() - started < SECONDS_PER_INPUT


# --- strategies: malformed queries and names ---------------------------------------------------

TOKENS = ["type:", "type:spell", "edition:", "edition:tsr-1996", "color:", "color:grene", "race:",
          "race:dwarf,goblin", "cost:", "cost<=", "cost>=9999999999999999999999", "cost:\u00b2", "name:", "-",
          "--", '"', '""', "'", "*", "?", "(", ")", "AND", "OR", "NOT", "\\", ":", "<=", "wall", "fog", "dua",
          "TRtM", "lightening", "\udcff", "\u200b", "\U0001f409"]
queries = st.lists(st.one_of(st.sampled_from(TOKENS), st.text(min_size=1, max_size=12)), max_size=12) \
    .map(" ".join).filter(lambda q: "\x00" not in q)   # a shell cannot pass a NUL byte in an argument
words = st.text(max_size=40).filter(lambda q: "\x00" not in q)


@given(queries, st.sampled_from([(), ("--json",), ("--type", "spell"), ("-e", "tsr-1996", "--limit", "3")]))
@FUZZ
def test_malformed_queries_answer_cleanly(query, options):
    code, stdout, stderr = ddref("search", "--", query, *options) if not options else \
        ddref("search", *options, "--", query)
    assert_clean(code, stdout, stderr)
    assert code in (0, 2)


@given(st.sampled_from(["spell", "sai", "race", "unit", "rule", "ruling", "glossary"]), words)
@FUZZ
def test_malformed_names_answer_cleanly(command, name):
    code, stdout, stderr = ddref(command, "--", name)
    assert_clean(code, stdout, stderr)
    assert code in (0, 2)


# --- properties of the engine ------------------------------------------------------------------

@st.composite
def rerolled(draw) -> tuple[str, bytes]:
    """A bundled scenario with every aggregate roll count redrawn: legal input the rules must handle."""
    name = draw(st.sampled_from(sorted(BASES)))
    data = copy.deepcopy(BASES[name])
    for path in list(_nodes(data)):
        value = _parent(data, path)[path[-1]] if path else None
        if "roll" in path[:-1] and isinstance(value, int) and not isinstance(value, bool):
            _parent(data, path)[path[-1]] = draw(st.integers(0, 40))
    for step in data.get("steps", []):
        step.pop("expect", None)
    data.pop("expect", None)
    return name, dumped(data)


def _numbers(node):
    if isinstance(node, bool):
        return
    if isinstance(node, (int, float)):
        yield node
    elif isinstance(node, dict):
        for value in node.values():
            yield from _numbers(value)
    elif isinstance(node, list):
        for value in node:
            yield from _numbers(value)


def _replayed(data: bytes):
    try:
        return replay(load(Path(scenario_file(data))))
    except ScenarioErrors:
        return None           # a redrawn roll the rules refuse (e.g. too few results to cast): fine


@given(rerolled())
@FUZZ
def test_results_are_never_negative_and_replays_are_identical(case):
    name, data = case
    with _time_limit(SECONDS_PER_INPUT):
        first = _replayed(data)
        assume(first is not None)
        second = _replayed(data)
    assert json.dumps(first, sort_keys=False) == json.dumps(second, sort_keys=False)
    for step in first["steps"]:
        for field in ("results", "damage"):
            assert all(n >= 0 for n in _numbers(step.get(field, {}))), (name, field, step.get(field))
    assert all(army["health"] >= 0 for army in first["state"]["armies"].values())
    known = sections()
    assert all(e["cite"] in known for s in first["steps"] for e in s.get("trace", [])), name


def _stepwise(scenario, through_json: bool):
    """Resolve step by step: each step's result as JSON (or the rejection), and the final state. With
    ``through_json`` the state goes through JSON and back before every step."""
    state, rules, outs = scenario.state, load_ruleset(scenario.state.edition), []
    for planned in scenario.steps:
        if through_json:
            state = msgspec.json.decode(msgspec.json.encode(state), type=GameState)
        try:
            state, result = resolve(state, planned.step, rules)
        except StepError as exc:
            outs.append(exc.message)
            continue
        outs.append(msgspec.json.encode(result))
    return state, outs


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.name)
def test_a_state_sent_through_json_replays_the_same(path):
    """The engine's state is all data: a replay whose state goes through JSON before every step
    gives byte-identical step results and final state."""
    scenario = load(path)
    state, outs = _stepwise(scenario, through_json=False)
    again, outs_again = _stepwise(scenario, through_json=True)
    assert again == state and msgspec.json.encode(again) == msgspec.json.encode(state)
    assert outs_again == outs


@given(rerolled())
@FUZZ
def test_a_state_sent_through_json_replays_the_same_for_any_rolls(case):
    try:
        scenario = load(Path(scenario_file(case[1])))
    except ScenarioErrors:
        assume(False)
    assert _stepwise(scenario, through_json=True) == _stepwise(scenario, through_json=False)


# --- what fuzzing found, pinned ----------------------------------------------------------------

@pytest.mark.parametrize("args, code, needle", [
    (("search", "wall cost<=99999999999999999999999"), 0, "Wall of"),     # overflowed SQLite's integers
    (("search", "cost:\u00b2 fog"), 0, "cost needs a number"),           # a digit int() cannot read
    (("search", '"wall of fog" -x type:spell ' * 100), 2, "the query is too long"),  # SQLite's tree depth
    (("rule", "magic " * 500), 2, "the query is too long"),
    (("search", "\udcff\udcfe"), 0, "No match for \\udcff\\udcfe"),       # not UTF-8, to strict stdout
    (("spell", "wall\udcff"), 2, "no spell named 'wall\\udcff'"),
])
def test_found_by_fuzzing(args, code, needle):
    got, stdout, stderr = ddref(*args)
    assert_clean(got, stdout, stderr)
    assert got == code and needle in stdout + stderr


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="no /dev/zero")
def test_an_endless_file_is_refused_without_reading_it_whole():
    code, _, stderr = ddref("check", "/dev/zero")
    assert code == 2 and "/dev/zero: this is a device, not a scenario file" in stderr   # refused before it is opened


def test_expect_error_must_be_words():
    data = copy.deepcopy(BASES["sfr2012-spell-dead-units.yaml"])
    data["steps"][0]["expect_error"] = -1
    code, _, stderr = ddref("resolve", scenario_file(dumped(data)))
    assert code == 2 and "steps[0].expect_error: expect_error is the words the rejection must contain, as a " \
                         "string; got -1" in " ".join(stderr.split())


def test_a_unit_killed_by_an_earlier_step_is_refused_not_a_crash():
    """Bullseye at a unit the first step killed: the scenario is checked against the first state, so the
    engine must say so when the step resolves (found by the long run)."""
    data = copy.deepcopy(BASES["sfr2012-sai-bullseye.yaml"])
    data["steps"].append(copy.deepcopy(data["steps"][0]))
    code, _, stderr = ddref("resolve", scenario_file(dumped(data)))
    assert_clean(code, _, stderr)
    assert code == 2 and "unit rare is not in army shields when this step resolves" in " ".join(stderr.split())


def test_a_unit_retreated_twice_in_one_step_is_refused_not_a_crash():
    """A retreat list naming a unit twice: the second move found no unit (found by a 3,000-case run)."""
    data = copy.deepcopy(BASES["tsr1996-reserve-movement-and-magic.yaml"])
    step = next(s for s in data["steps"] if "reserves" in s)
    step["reserves"]["retreat"].append(step["reserves"]["retreat"][0])
    code, _, stderr = ddref("resolve", scenario_file(dumped(data)))
    assert_clean(code, _, stderr)
    assert code == 2 and "horde.1 is named twice in the retreat step" in " ".join(stderr.split())


def test_a_pool_dragonkin_whose_color_is_a_list_is_a_located_error():
    """A dragonkin die in the summoning pool built its unit model outside the file's validation: a list for its color
    was an internal error (found by a 2,000-case run)."""
    data = copy.deepcopy(BASES["sfr2012-promotion-rulings.yaml"])
    kin = next(item for items in data["summoning_pool"].values() for item in items if "dragonkin" in item)
    kin["color"] = []
    code, _, stderr = ddref("resolve", scenario_file(dumped(data)))
    assert_clean(code, _, stderr)
    assert code == 2 and "].color: expected a string, got a list" in " ".join(stderr.split())


# --- systematic edits: every list entry doubled, every key of a step deleted, every unit id swapped ------------
# Each edit of each bundled scenario's steps, not a random sample: the long run edits every scenario (about 21,000
# cases), the suite two whose edits found internal errors (a unit retreated twice, ferried twice).

def _unit_ids(data: dict) -> list[str]:
    ids = []
    for army_id, army in (data.get("armies") or {}).items():
        for unit in army.get("units") or []:
            if isinstance(unit, dict) and "id" in unit:
                ids.append(unit["id"])
            elif isinstance(unit, dict):
                ids += [f"{army_id}.{n}" for n in range(1, (unit.get("count") or 1) + 1)]
    return ids


def _edits(name: str):
    """(what, edited scenario) for every systematic edit of ``name``'s steps."""
    base, ids = BASES[name], _unit_ids(BASES[name])
    for i, step in enumerate(base.get("steps") or []):
        for path in _nodes(step):
            node = _parent(step, path)[path[-1]] if path else step
            if path:
                data = copy.deepcopy(base)
                del _parent(data["steps"][i], path)[path[-1]]
                yield f"steps[{i}] without {path}", data
            if isinstance(node, list) and node and all(isinstance(x, str) for x in node):
                data = copy.deepcopy(base)
                (_parent(data["steps"][i], path)[path[-1]] if path else data["steps"][i]).append(node[0])
                yield f"steps[{i}] {path} with {node[0]} twice", data
            if isinstance(node, str) and node in ids and path:
                for other in (ids[(ids.index(node) + k) % len(ids)] for k in (1, len(ids) // 2)):
                    data = copy.deepcopy(base)
                    _parent(data["steps"][i], path)[path[-1]] = other
                    yield f"steps[{i}] {path}: {node} -> {other}", data


SYSTEMATIC = sorted(BASES) if LONG else ["tsr1996-reserve-movement-and-magic.yaml", "tsr1996-faq-ferry.yaml"]


@pytest.mark.parametrize("name", SYSTEMATIC)
def test_systematic_edits_resolve_or_fail_cleanly(name):
    failed = []
    for what, data in _edits(name):
        code, stdout, stderr = ddref("resolve", scenario_file(dumped(data)), "--quiet")
        if code not in (0, 1, 2) or "internal error" in stderr or "Traceback" in stdout + stderr:
            failed.append(f"{what}: {stderr.strip()[:200]}")
    assert not failed, "\n".join(failed)
