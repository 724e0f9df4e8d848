"""002 Galeforce: Fly icons rolled again in the rolls of an army under it (an effect named by the SAI).

"Until the beginning of your next turn, after the target army makes any maneuver roll, counter-maneuver
roll, maneuver avoidance roll, save roll or save avoidance roll but before they apply any unique or special
resolution SAIs, any unit in the target army that rolled a Fly icon must roll again until a non-Fly icon is
generated." In a per-unit roll such a unit lists its faces in order: every Fly but the last face.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .trace import StepError, TraceEvent

if TYPE_CHECKING:
    from .rolled import Face, RollContext
    from .state import Unit

GALEFORCE = "galeforce"
FLY = "fly"
BLOWN_ROLLS = ("maneuver", "counter-maneuver", "avoid-maneuver", "save", "save-melee", "save-missile", "avoid-save")


def gale_blown(ctx: RollContext, unit: Unit | None, faces: tuple[Face, ...], trace: list) -> tuple[Face, ...]:
    """The unit's faces once its Fly results are rolled again; a Fly cannot be its last face."""
    if not any(f.icon == FLY for f in faces) or ctx.individual or ctx.kind not in BLOWN_ROLLS:
        return faces
    gale = next((e for e in ctx.state.effects_on(ctx.army.id) if e.spell == GALEFORCE), None)
    # 001 Galeforce "subtracts four save and four maneuver results" (a modifier, engine.editions.sfrv4): no re-roll
    if gale is None or GALEFORCE in ctx.ruleset.spell_modifiers:
        return faces
    cite = ctx.ruleset.spell_sections.get(GALEFORCE, ctx.ruleset.cite("sai-resolution"))
    if unit is None:
        raise StepError(f"{ctx.army.id} is under Galeforce and rolled Fly: give the roll per unit, each Fly unit's "
                        "faces in order", cite=cite, field="roll")
    if faces[-1].icon == FLY:
        raise StepError(f"{unit.id} rolled Fly under Galeforce: it must roll again until a non-Fly icon comes up; "
                        "list its faces in order, the last one not Fly", cite=cite, field="roll")
    trace.append(TraceEvent(what=f"{unit.id}: Galeforce on {ctx.army.id}: its Fly is rolled again",
                            rule="any unit in the target army that rolled a Fly icon must roll again until a "
                                 "non-Fly icon is generated", cite=cite))
    return tuple(f for f in faces if f.icon != FLY)
