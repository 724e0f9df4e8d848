"""The engine's one entry point: resolve(state, step, ruleset) -> (state', step result)."""

from __future__ import annotations

from .actions.combat import melee, missile
from .actions.common import army, roll, terrains
from .actions.magic import magic
from .actions.maneuver import maneuver
from .actions.turn import turn
from .expiry import expire
from .ruleset import Ruleset
from .state import GameState
from .steps import MagicStep, ManeuverStep, MeleeStep, MissileStep, RollStep, Step, StepResult, TurnStep
from .trace import StepError

# The kind of roll a plain ``roll`` step makes, by what it is rolled for (engine.sais vocabulary).
_ROLL_KINDS = {("maneuver",): "maneuver", ("melee",): "melee", ("missile",): "missile",
               ("save",): "save", ("magic",): "magic"}


def resolve(state: GameState, step: Step, ruleset: Ruleset) -> tuple[GameState, StepResult]:
    """Resolve one step; a step the rules forbid raises StepError and changes nothing."""
    action = _ACTIONS.get(type(step))
    if action is None:
        raise StepError(f"unknown step {type(step).__name__}")
    state, out = action(state, step, ruleset)
    return _expire_used(state, out, ruleset), out


def _expire_used(state: GameState, out: StepResult, ruleset: Ruleset) -> GameState:
    """A spell lasting "until used" expires once it has changed its unit's results (002 Burning Hands,
    Earthen Armor, Flaming Armor, Flaming Spears)."""
    spent = [e for e in out.used if ruleset.spell_durations.get(e.spell) == "until-used"]
    return expire(state, spent, "it is used", "this spell remains in effect until it is used by the unit",
                  ruleset, out) if spent else state


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


_ACTIONS = {RollStep: _roll, ManeuverStep: maneuver, MeleeStep: melee, MissileStep: missile, MagicStep: magic,
            TurnStep: turn}
