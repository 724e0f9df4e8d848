"""Issue 21, a reading carries both citations: every trace line that says it is a reading (``kind: reading``, or
"reading"/"read" in its words) cites the passage read and the passage it is read with, two distinct sections
(``cite`` and ``also``), for every bundled scenario under its own edition and under every other one
(``ddref resolve --edition E``)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from ddref.errors import UserError
from ddref.scenario.run import load, replay
from engine.edition import EDITIONS

SCENARIOS = sorted((Path(__file__).parents[1] / "scenarios").glob("*.yaml"))
SAYS_READ = re.compile(r"\bread(ing)?\b", re.IGNORECASE)


def one_citation_readings(result: dict) -> list[tuple[int, str]]:
    """The reading lines of a replay with fewer than two distinct citations: (step, what)."""
    return [(n, e["what"]) for n, step in enumerate(result["steps"], 1) for e in step.get("trace", ())
            if (e.get("kind") == "reading" or SAYS_READ.search(f"{e['what']} {e['rule']}"))
            and len({e["cite"], e.get("also") or e["cite"]}) < 2]


def test_the_check_finds_a_reading_with_one_citation():
    """The check can fail: a reading citing one section twice, or a change whose rule says "reading" with no
    second citation, is found; one with two sections is not."""
    one = {"what": "reading: x", "rule": "this rule read with a:b", "cite": "a:b", "kind": "reading", "also": "a:b"}
    said = {"what": "charm: a adds 2", "rule": "charmed units add; reading: as a component", "cite": "a:b"}
    two = {**one, "also": "a:c"}
    assert one_citation_readings({"steps": [{"trace": [one, said, two]}]}) == [(1, "reading: x"),
                                                                               (1, "charm: a adds 2")]


@pytest.mark.parametrize("edition", [None, *EDITIONS], ids=lambda e: e or "own")
def test_every_reading_cites_two_sections(edition):
    found, readings = [], 0
    for path in SCENARIOS:
        try:
            result = replay(load(path), edition)
        except UserError:
            continue        # a located refusal under another edition: no trace to check
        readings += sum(1 for step in result["steps"] for e in step.get("trace", ()) if e.get("kind") == "reading")
        found += [f"{path.name} step {n}: {what}" for n, what in one_citation_readings(result)]
    assert readings > 20
    assert not found, "\n".join(found[:20])
