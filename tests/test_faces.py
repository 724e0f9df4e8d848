"""Issue 20 §3: "An army loses control of a terrain if that terrain is ever moved from its eighth face" (000 The
Eighth Face) holds for every way the face changes, so every change of a terrain's face during play goes through
engine.faces.turn_to. This test fails when engine code writes a terrain's face anywhere else."""

from __future__ import annotations

import re
from pathlib import Path

ENGINE = Path(__file__).resolve().parents[1] / "engine"

# the places that may write a face themselves, and why
ALLOWED = {
    "faces.py": "the one place",
    "setup.py": "the terrains' starting faces, before play (no control to lose)",
    "capture.py": "an abandoned eighth face turning back to 7, control cleared and traced there",
    "actions/minor.py": "a minor terrain die's face, which no army controls",
}


def test_every_face_change_goes_through_turn_to() -> None:
    writes = re.compile(r"\.evolve\([^()]*\bface\s*=")
    outside = [f"{p.relative_to(ENGINE)}:{n}" for p in sorted(ENGINE.rglob("*.py"))
               if str(p.relative_to(ENGINE)) not in ALLOWED
               for n, line in enumerate(p.read_text().splitlines(), 1) if writes.search(line)]
    assert outside == [], f"a terrain's face is written outside engine.faces.turn_to: {outside}"


def test_the_scan_finds_a_face_write() -> None:
    """The pattern matches the writes it must catch (the allowed files do write faces)."""
    writes = re.compile(r"\.evolve\([^()]*\bface\s*=")
    assert any(writes.search(line) for line in (ENGINE / "faces.py").read_text().splitlines())
    assert any(writes.search(line) for line in (ENGINE / "setup.py").read_text().splitlines())
