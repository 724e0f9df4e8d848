"""The suite stays inside its time budget (README, Tests): no test reads YAML with the slow parser."""

from __future__ import annotations

import re
from pathlib import Path

HERE = Path(__file__).parent


def test_tests_read_yaml_with_libyaml():
    """``yaml.safe_load`` parses with pure Python, ~7x slower than libyaml on the bundled scenarios; the
    sweeps read 700 of them each. Tests use ``fast_yaml.load_yaml`` (same data, C parser)."""
    slow = re.compile(r"\byaml\.(safe_load|load|full_load|unsafe_load)\(")
    found = [f"{p.name}:{n}" for p in sorted(HERE.glob("*.py")) if p.name != "fast_yaml.py"
             for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1) if slow.search(line)]
    assert found == []
