"""No Python reprs in any message (issue 21 §3): no dict or list repr (``{'missile': 4}``, ``['a1']``), no ``None``,
no ``\\x`` escapes; a known id is printed bare, a name the user typed that matches nothing in plain quotes by one
helper (engine.names.typed), its control characters escaped. Scans every bundled scenario's refusals, and the
refusals of a set of bad inputs."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from ddref.scenario.run import StepRefused, load, parse, replay
from ddref.scenario.source import ScenarioErrors
from engine.names import typed

SCENARIOS = sorted((Path(__file__).parent.parent / "scenarios").glob("*.yaml"))
REPR = re.compile(r"\{'|\['|\bNone\b|\\x[0-9a-f]{2}")


def reprs(message: str) -> list[str]:
    return REPR.findall(message)


def test_the_helper_quotes_and_escapes():
    assert typed("a b") == "'a b'"
    assert typed("a\tb\x1b") == "'a\\tb\\u001b'"
    assert not reprs(typed("x\x07"))


def test_a_long_typed_name_is_shown_by_its_start_and_length_not_echoed_whole(run):
    assert typed("a" * 80) == "'" + "a" * 80 + "'"     # a long real name is still shown whole
    assert typed("b" * 10_000) == "'" + "b" * 60 + "...' (10,000 characters)"
    for command in (["spell"], ["sai"], ["race"], ["unit"], ["glossary"], ["compare", "spell"]):
        result = run(*command, "counter attack " * 700)
        assert result.exit_code == 2 and "(10,500 characters)" in result.stderr, command
        assert len(result.stderr) < 2_000, (command, len(result.stderr))


def test_no_repr_in_any_bundled_refusal():
    found = []
    for path in SCENARIOS:
        try:
            result = replay(load(path))
        except ScenarioErrors:
            continue    # a failing scenario is test_scenarios' to report
        for i, step in enumerate(result["steps"], 1):
            message = step.get("rejected", "")
            if reprs(message):
                found.append(f"{path.name}#{i}: {message}")
    assert not found, "\n".join(found)


HEAD = """\
ddref: 1
title: bad inputs
players: [a, b]
terrains:
  t: {type: flatland, face: 3, action: melee, home_of: a}
  h: {type: highland, face: 3, home_of: b}
armies:
  five: {player: a, at: t, units: [{race: goblin, health: 1, count: 5}]}
  foe: {player: b, at: t, units: [{id: f1, race: dwarf, health: 2}, {id: f2, race: dwarf, health: 2}]}
steps:
"""

BAD = [
    '  - roll: {army: "fi\\tve", for: melee, roll: {melee: 1}}\n',
    '  - roll: {army: five, for: "mel\\x07ee", roll: {melee: 1}}\n',
    '  - melee: {army: five, target: foe, roll: {melee: 2}, saves: {foe: {save: 0}}, counter: false, '
    'casualties: {foe: ["f\\u001b1"]}}\n',
    '  - melee: {army: five, target: foe, roll: {melee: 2}, saves: {foe: {save: 0}}, counter: false, '
    'casualties: {foe: [f1, f2]}}\n',
    '  - melee: {army: five, target: foe, roll: {melee: 4, save: 1}, saves: {foe: {save: 0}}, counter: false, '
    'penalties: {five: {save: -1}}}\n',
    '  - roll: {army: five, for: melee, roll: {"sm ite": 1}}\n',
    '  - reserves: {retreat: ["a.1 "]}\n',
    '  - maneuver: {army: five, direction: up, roll: {maneuver: 2}, counter: {foe: {maneuver: 0}}, '
    'move_to: {wayfare: "nowhere\\n"}}\n',
]


@pytest.mark.parametrize("body", BAD)
def test_no_repr_in_a_bad_input_refusal(body):
    try:
        result = replay(parse(HEAD + body, "s.yaml"))
        message = result["steps"][-1].get("rejected", "")
    except StepRefused as exc:
        message = str(exc)
    except ScenarioErrors as exc:
        message = str(exc)
    assert message, "the bad input was accepted"
    assert not reprs(message), message
