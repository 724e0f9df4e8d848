"""The engine's one entry point: resolve(state, step, ruleset) -> (state', step result)."""

from __future__ import annotations

from .actions.combat import melee, missile
from .actions.common import army, roll, terrains
from .actions.magic import magic
from .actions.maneuver import maneuver
from .ruleset import Ruleset
from .state import GameState
from .steps import MagicStep, ManeuverStep, MeleeStep, MissileStep, RollStep, Step, StepResult
from .trace import StepError

# The kind of roll a plain ``roll`` step makes, by what it is rolled for (engine.sais vocabulary).
_ROLL_KINDS = {("maneuver",): "maneuver", ("melee",): "melee", ("missile",): "missile",
               ("save",): "save", ("magic",): "magic"}


def resolve(state: GameState, step: Step, ruleset: Ruleset) -> tuple[GameState, StepResult]:
    """Resolve one step; a step the rules forbid raises StepError and changes nothing."""
    if isinstance(step, RollStep):
        return _roll(state, step, ruleset)
    if isinstance(step, ManeuverStep):
        return maneuver(state, step, ruleset)
    if isinstance(step, MeleeStep):
        return melee(state, step, ruleset)
    if isinstance(step, MissileStep):
        return missile(state, step, ruleset)
    if isinstance(step, MagicStep):
        return magic(state, step, ruleset)
    raise StepError(f"unknown step {type(step).__name__}")


def _roll(state: GameState, step: RollStep, ruleset: Ruleset) -> tuple[GameState, StepResult]:
    out = StepResult(kind="roll")
    who = army(state, step.army)
    wanted = tuple(step.wanted)
    # a roll for several results at once is a combination roll (002 Avoidance Rolls; a dragon
    # attack roll is "a melee avoidance, missile avoidance and save combination roll")
    if len(wanted) > 1:
        kind = "combination:" + ",".join(wanted)
    else:
        kind = f"avoid-{wanted[0]}" if step.avoidance else _ROLL_KINDS[wanted]
    choices = {key: dict(pairs) for key, pairs in step.choices}
    roll(state, ruleset, who, kind, wanted, step.roll, out, choices=choices)
    terrains(state, out)
    return state, out
