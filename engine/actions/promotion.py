"""Exchanges with the DUA as steps of their own: a promotion, to replay a ruling (002 Promotion), and Treefolk
Replanting (002 Racial Abilities); engine.exchange does the work."""

from __future__ import annotations

from ..exchange import promote, replant
from ..ruleset import Ruleset
from ..state import GameState
from ..steps import PromoteStep, ReplantStep, StepResult
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


def replanting(state: GameState, step: ReplantStep, ruleset: Ruleset) -> tuple[GameState, StepResult]:
    out = StepResult(kind="replant")
    army(state, step.army)
    state, events = replant(state, ruleset, step.army, step.give, step.take,
                            ruleset.racial_cite("treefolk", "Replanting"))
    out.trace += events
    out.moved += list(step.take)
    terrains(state, out)
    return state, out
