"""Every bundled scenario replayed under every edition (``ddref resolve --edition E``) ends as the command's exit code
0, 1 or 2 says: its results, a located refusal (a rule the edition lacks, a step it cannot resolve), never an internal
error. A StepError (or any other exception) escaping ``replay`` is what the CLI prints as "internal error"."""

from __future__ import annotations

from pathlib import Path

import pytest

from ddref.errors import UserError
from ddref.scenario.run import load, replay
from engine.edition import EDITIONS

SCENARIOS = sorted((Path(__file__).parents[1] / "scenarios").glob("*.yaml"))


@pytest.mark.parametrize("edition", EDITIONS)
def test_every_scenario_replays_under_every_edition_without_an_internal_error(edition):
    escaped = []
    for path in SCENARIOS:
        try:
            replay(load(path), edition)
        except UserError:
            continue            # exit 2: a located refusal, a user's error
        except Exception as exc:    # noqa: BLE001 - exactly what the CLI's last line of defence calls an internal error
            escaped.append(f"{path.name} --edition {edition}: {type(exc).__name__}: {exc}")
    assert len(SCENARIOS) > 200
    assert not escaped, "\n".join(escaped)
