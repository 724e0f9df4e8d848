"""The builder's check resumes its replay from the first step an edit changed (ddref.builder.ReplayCache): its
answer must be byte for byte a full replay's, whatever the edit."""

from __future__ import annotations

import json
import random
import re
import threading
from pathlib import Path

import pytest

from ddref import builder
from ddref.scenario import run
from fast_yaml import load_yaml

ROOT = Path(__file__).resolve().parents[1]
# long, and of every kind of step the cache must get right: refused steps pinned by expect_error (the replay goes
# on from the state before them), melee and missile with saves, turns that end holds
LONG = ROOT / "scenarios" / "sfr2012-exam-sais-b-hold-and-subtract.yaml"
TURNS = ROOT / "scenarios" / "tsr1996-sai-joined-freed-charge.yaml"
# magic steps: the options read the engine's result of each step (splits by color, what a Cantrip buys), which the
# cache keeps and hands again
MAGIC = ROOT / "scenarios" / "sfr2012-exam-magic-spells.yaml"
CANTRIP = ROOT / "scenarios" / "sfr2012-exam-magic-cantrip-furnace.yaml"


class FullReplay:
    """The check as it was before the cache: every step replayed on every check."""

    @staticmethod
    def replay(scenario, observe) -> None:
        run.replay(scenario, observe=observe)


def full_answer(monkeypatch, data, wanted=None) -> tuple[int, bytes]:
    with monkeypatch.context() as m:
        m.setattr(builder, "REPLAYS", FullReplay())
        return builder.check_answer(json.dumps(data).encode(), wanted)


def cached_answer(cache, monkeypatch, data, wanted=None) -> tuple[int, bytes]:
    with monkeypatch.context() as m:
        m.setattr(builder, "REPLAYS", cache)
        return builder.check_answer(json.dumps(data).encode(), wanted)


def load(path: Path) -> dict:
    return json.loads(json.dumps(load_yaml(path.read_text(encoding="utf-8"))))


COUNT = re.compile(r"^(\w+) (\d+)$")


def leaves(value, path=()):
    """Each number of a step (a count in a roll: ``melee 2``, or a whole number) with its path."""
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for key, v in items:
        if (isinstance(v, int) and not isinstance(v, bool)) or (isinstance(v, str) and COUNT.match(v)):
            yield (*path, key), v
        else:
            yield from leaves(v, (*path, key))


def edit(data: dict, rng: random.Random) -> str:
    """One random edit, as the page makes them: a number in a step, a step removed, copied or moved, or the
    header (a terrain's face)."""
    steps = data["steps"]
    kind = rng.choice(["number", "number", "number", "drop", "copy", "swap", "header"])
    if kind == "number":
        i = rng.randrange(len(steps))
        found = list(leaves(steps[i]))
        if found:
            path, value = rng.choice(found)
            holder = steps[i]
            for key in path[:-1]:
                holder = holder[key]
            n = rng.randint(0, 6)
            holder[path[-1]] = n if isinstance(value, int) else f"{COUNT.match(value)[1]} {n}"
        return f"number in step {i}"
    if kind == "drop" and len(steps) > 2:
        i = rng.randrange(len(steps))
        del steps[i]
        return f"drop step {i}"
    if kind == "copy":
        i = rng.randrange(len(steps))
        steps.insert(rng.randrange(len(steps) + 1), json.loads(json.dumps(steps[i])))
        return f"copy step {i}"
    if kind == "swap":
        i, j = rng.randrange(len(steps)), rng.randrange(len(steps))
        steps[i], steps[j] = steps[j], steps[i]
        return f"swap {i} {j}"
    terrain = rng.choice(list(data["terrains"]))
    data["terrains"][terrain]["face"] = rng.randint(1, 6)
    return f"face of {terrain}"


@pytest.mark.parametrize("path", [LONG, TURNS, MAGIC, CANTRIP], ids=lambda p: p.stem)
def test_random_edits_answer_as_a_full_replay(path, monkeypatch):
    """Random edits, each scenario checked with the cache the one before left (and checked twice): byte for byte
    the answer of a full replay, errors (refused steps) included. Each scenario is the last one without errors
    with one or two edits, so that most replay far and the cache is resumed from every depth."""
    rng = random.Random(f"builder-cache {path.name}")
    base = load(path)
    cache = builder.ReplayCache()
    clean = refused = 0
    for n in range(60):
        data = json.loads(json.dumps(base))
        for _ in range(rng.randint(1, 2)):
            edit(data, rng)
        wanted = None if n % 3 else set(rng.sample(range(len(data["steps"])), min(3, len(data["steps"]))))
        full = full_answer(monkeypatch, data, wanted)
        assert cached_answer(cache, monkeypatch, data, wanted) == full, f"edit {n}"
        assert cached_answer(cache, monkeypatch, data, wanted) == full, f"edit {n}, checked again"
        if b'"errors":[]' in full[1]:
            clean += 1
            base = data
        else:
            refused += b"is not allowed" in full[1]
    assert clean >= 10 and refused >= 5, (clean, refused)


def test_an_edit_of_an_early_step_is_never_answered_from_the_states_before_it(monkeypatch):
    """The cache keeps the states of the last scenario checked: an edit of its second step (4 melee, not 2, against
    2 saves: two Coral Elves of 1 health die, 002 Melee Action) must change what the later steps offer and refuse the
    4th step's save by e1, now dead, as a full replay does, never the stale states."""
    data = load(LONG)
    cache = builder.ReplayCache()
    before = cached_answer(cache, monkeypatch, data)
    assert before == full_answer(monkeypatch, data)
    assert data["steps"][1]["melee"]["roll"]["g1"] == "melee 2"
    data["steps"][1]["melee"]["roll"]["g1"] = "melee 4"
    after = cached_answer(cache, monkeypatch, data)
    assert after == full_answer(monkeypatch, data)
    # the edit shows in the later steps' states: the cache could not have answered with the old ones
    old, new = (json.loads(a[1])["options"]["steps"][2]["armies"]["elves"]["units"] for a in (before, after))
    assert len(old) - len(new) == 2
    assert [e["path"] for e in json.loads(after[1])["errors"]] == ["steps[3].missile.saves"]
    assert json.loads(before[1])["errors"] == []
    # and back: the cache holds the edited scenario now, not the first
    data["steps"][1]["melee"]["roll"]["g1"] = "melee 2"
    assert cached_answer(cache, monkeypatch, data) == before


def test_an_edit_of_the_header_replays_every_step(monkeypatch):
    """The header (armies, terrains, ...) is in every step's digest: a unit's health changed, every step again."""
    data = load(LONG)
    cache = builder.ReplayCache()
    cached_answer(cache, monkeypatch, data)
    data["armies"]["elves"]["units"][0]["health"] = 2
    resolved = count_resolves(monkeypatch)
    answer = cached_answer(cache, monkeypatch, data)
    cached, resolved[0] = resolved[0], 0
    assert answer == full_answer(monkeypatch, data)
    assert cached == resolved[0] > 1    # as many steps as a full replay resolves (to the step refused, if one is)


def count_resolves(monkeypatch) -> list[int]:
    calls = [0]
    real = run.resolve

    def counted(*args, **kwargs):
        calls[0] += 1
        return real(*args, **kwargs)

    monkeypatch.setattr(run, "resolve", counted)
    return calls


def test_an_edit_of_the_last_step_resolves_that_step_only(monkeypatch):
    """What the cache is for: a long scenario's edit near its end replays from there (the check of 1,000 steps
    was a full replay on every edit, bench/builder_bench.py)."""
    data = load(LONG)
    cache = builder.ReplayCache()
    cached_answer(cache, monkeypatch, data)
    data["steps"][-1] = json.loads(json.dumps(data["steps"][-1]))
    found = list(leaves(data["steps"][-1]))
    path, value = found[0]
    holder = data["steps"][-1]
    for key in path[:-1]:
        holder = holder[key]
    holder[path[-1]] = value + 1 if isinstance(value, int) else f"{COUNT.match(value)[1]} {int(COUNT.match(value)[2]) + 1}"
    resolved = count_resolves(monkeypatch)
    answer = cached_answer(cache, monkeypatch, data)
    assert resolved[0] == 1
    monkeypatch.undo()
    assert answer == full_answer(monkeypatch, data)


def test_concurrent_checks_of_different_scenarios_each_answer_their_own(monkeypatch):
    """Checks in threads sharing one cache (the worker's), of two scenarios and their edits: each answer is its
    scenario's full replay, never one built on the other's states."""
    scenarios = [load(LONG), load(TURNS)]
    edited = load(LONG)
    edited["steps"][1]["melee"]["roll"]["g1"] = "melee 4"
    scenarios.append(edited)
    expected = [full_answer(monkeypatch, s) for s in scenarios]
    cache = builder.ReplayCache()
    monkeypatch.setattr(builder, "REPLAYS", cache)
    wrong: list = []

    def work(k: int) -> None:
        for r in range(6):
            i = (k + r) % len(scenarios)
            if builder.check_answer(json.dumps(scenarios[i]).encode()) != expected[i]:
                wrong.append((k, r, i))

    threads = [threading.Thread(target=work, args=(k,)) for k in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(300)
    assert not wrong


def test_a_check_longer_than_a_slow_replay_keeps_its_worker_and_so_its_cache():
    """Past ``SLOW_REPLAY`` a worker is demoted and retires (ddref.serving), losing the cache of its last check: a
    function with ``slow_after`` (the builder's check) keeps its worker that long. Without it a 1,000-step check
    (0.3 to 0.7 s) replayed in full on a fresh worker on every edit."""
    import asyncio
    import os

    from ddref import serving

    assert builder.check_answer.slow_after > serving.SLOW_REPLAY

    slow, patient = _sleep_past_slow_replay, _patient_sleep_past_slow_replay
    async def pids() -> list[int]:
        pool = serving.ReplayPool(1, 60)
        await pool.start()
        try:
            found = [await pool.call(os.getpid)]
            await pool.call(patient)
            found.append(await pool.call(os.getpid))
            await pool.call(slow)
            found.append(await pool.call(os.getpid))
            return found
        finally:
            await pool.close()

    first, after_patient, after_slow = asyncio.run(pids())
    assert after_patient == first       # kept: the cache with it
    assert after_slow != first          # the control: an ordinary slow job retires its worker


def _sleep_past_slow_replay() -> None:
    """A job past SLOW_REPLAY (run in a replay worker: a module-level function, pickled by name)."""
    import time

    from ddref.serving import SLOW_REPLAY

    time.sleep(SLOW_REPLAY + 0.3)


def _patient_sleep_past_slow_replay() -> None:
    _sleep_past_slow_replay()


_patient_sleep_past_slow_replay.slow_after = 5.0
