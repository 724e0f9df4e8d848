"""Listing the legal casualties when the named ones do not add up (002 Damage: "If possible, enough units must be
discarded to cover the health loss, but never in excess of that loss"): the choices are health patterns, found by
a subset-sum over health values, so an army of any size a game holds answers at once (issue 19 §2)."""

from __future__ import annotations

import itertools
import random
import signal
from contextlib import contextmanager
from pathlib import Path

import pytest

from ddref.scenario.run import load, replay
from engine.actions.strikes import _whole_rollers
from engine.damage import MAX_LISTED, choose, count_choices, legal_choices, reachable
from engine.state import Army, Unit
from engine.trace import StepError


@contextmanager
def within(seconds: float):
    """Fail (instead of hanging the suite) when the body runs longer than ``seconds``."""
    def stop(*_):
        raise TimeoutError(f"took more than {seconds} s")

    old = signal.signal(signal.SIGALRM, stop)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


def _army(healths: list[int]) -> Army:
    return Army(id="a", player="p", at="field", units=tuple(Unit(id=f"u{i}", race="goblin", health=h)
                                                             for i, h in enumerate(healths)))


def _patterns_by_brute_force(healths: list[int], damage: int) -> set[tuple[int, ...]]:
    target = max(sum(c) for n in range(len(healths) + 1) for c in itertools.combinations(healths, n)
                 if sum(c) <= damage)
    return {tuple(sorted(c)) for n in range(len(healths) + 1) for c in itertools.combinations(healths, n)
            if sum(c) == target}


def test_choices_are_every_health_pattern_that_takes_the_most():
    rng = random.Random(19)
    for _ in range(300):
        healths = [rng.randint(1, 4) for _ in range(rng.randint(0, 9))]
        damage = rng.randint(0, 20)
        army = _army(healths)
        listed = list(legal_choices(army.units, damage))
        patterns = [tuple(sorted(army.unit(i).health for i in ids)) for ids in listed]
        assert len(set(patterns)) == len(patterns)                      # one choice per pattern
        assert set(patterns) == _patterns_by_brute_force(healths, damage)
        assert count_choices(army.units, damage) == len(listed)
        assert all(sum(army.unit(i).health for i in ids) == reachable(army.units, damage) for ids in listed)


@pytest.mark.parametrize("healths, damage", [
    ([1] * 24, 12),                 # 10 s before
    ([1] * 28, 14),                 # never finished before
    ([1] * 40, 20),
    ([1, 2, 3, 4] * 10, 51),
    ([2] * 20 + [3] * 20, 49),
])
def test_forty_unit_armies_answer_at_once(healths, damage):
    army = _army(healths)
    with within(2.0):
        with pytest.raises(StepError) as exc:
            choose(army, damage, ["u0"], "sfr-2012:damage")
    message = exc.value.message
    assert "legal choices include" in message
    shown = message.split("legal choices include: ")[1].split(" (and ")[0].split("; ")
    assert len(shown) <= MAX_LISTED
    total = count_choices(army.units, damage)
    if total > MAX_LISTED:
        assert f"(and {total - MAX_LISTED} more" in message


def test_the_count_of_patterns_is_the_number_of_ways_to_split_the_health():
    # 40 one-health units taking 20: a single pattern (twenty 1s); 1,2,3,4 x10 taking 51 has many
    assert count_choices(_army([1] * 40).units, 20) == 1
    mixed = _army([1, 2, 3, 4] * 10)
    ways = sum(1 for a in range(11) for b in range(11) for c in range(11) for d in range(11)
               if a + 2 * b + 3 * c + 4 * d == 51)
    assert count_choices(mixed.units, 51) == ways


def test_a_scenario_with_forty_units_lists_the_choices(tmp_path: Path):
    units = ", ".join(f"{{id: g{i}, race: goblin, health: 1}}" for i in range(40))
    (tmp_path / "s.yaml").write_text(f"""\
ddref: 1
title: forty goblins take 20 damage and name one casualty
turn: {{player: b}}
players: [a, b]
terrains:
  field: {{type: flatland, face: 3}}
armies:
  horde: {{player: a, at: field, units: [{units}]}}
  dwarves: {{player: b, at: field, units: [{{race: dwarf, health: 4, count: 10}}]}}
steps:
  - melee: {{army: dwarves, target: horde, roll: {{melee: 20}}, saves: {{horde: {{save: 0}}}}, casualties: {{horde: [g0]}}}}
    expect_error: "legal choices include"
""", encoding="utf-8")
    with within(5.0):
        out = replay(load(tmp_path / "s.yaml"))
    assert out["expectations"][0]["ok"], out["expectations"]


def test_whole_rollers_subset_sum_matches_the_fewest_first_search():
    """Hug/Kick points per target must be whole rollers' points: the first group by fewest rollers, then order
    written, as itertools.combinations would find it, but without its 2^n walk."""
    rng = random.Random(20)
    for _ in range(500):
        rollers = {f"r{i}": rng.randint(1, 5) for i in range(rng.randint(0, 8))}
        points = rng.randint(0, 25)
        slow = next((list(g) for n in range(1, len(rollers) + 1) for g in itertools.combinations(rollers, n)
                     if sum(rollers[r] for r in g) == points), None)
        assert _whole_rollers(rollers, points) == slow
    with within(2.0):
        assert _whole_rollers({f"r{i}": 2 for i in range(40)}, 41) is None
