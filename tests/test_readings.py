"""A reading stated in a scenario's description is said in its trace too (the project standard: "say so in the
trace (with both citations) and in the scenario's description")."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from ddref.scenario.run import load, replay
from fast_yaml import load_yaml

ROOT = Path(__file__).resolve().parents[1]


def _states_a_reading(path: Path) -> bool:
    description = load_yaml(path.read_text(encoding="utf-8")).get("description") or ""
    return re.search(r"\breading\b", description, re.IGNORECASE) is not None


READING_SCENARIOS = [p for p in sorted((ROOT / "scenarios").glob("*.yaml")) if _states_a_reading(p)]

def test_the_scenarios_stating_a_reading_are_found():
    # the bundled scenarios state readings of dragons, SAIs, tsr-1996's charge and FAQ (dozens): the selection works
    assert len(READING_SCENARIOS) >= 40


@pytest.mark.parametrize("path", READING_SCENARIOS, ids=lambda p: p.name)
def test_a_reading_in_the_description_is_said_in_the_trace(path):
    result = replay(load(path))
    said = [e for step in result["steps"] for e in step.get("trace", []) if e["what"].startswith("reading: ")]
    assert said, f"{path.name} states a reading in its description, but no trace event says 'reading: '"
