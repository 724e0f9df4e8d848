"""A promotion as a step of its own, to replay a ruling (002 Promotion; engine.exchange does the work)."""

from __future__ import annotations

from ..exchange import promote
from ..ruleset import Ruleset
from ..state import GameState
from ..steps import PromoteStep, StepResult
from .common import army, terrains


def promotion(state: GameState, step: PromoteStep, ruleset: Ruleset) -> tuple[GameState, StepResult]:
    out = StepResult(kind="promote")
    cite = ruleset.cite("promote")
    before = army(state, step.army)
    chosen = dict(step.chosen) if step.chosen is not None else None
    state, events = promote(state, ruleset, step.army, step.allowed, chosen, "promotion", cite)
    out.trace += events
    out.moved += [u.id for u in state.army(step.army).units if before.unit(u.id) is None]
    terrains(state, out)
    return state, out
