"""The modifier-pipeline steps only some editions have (engine.roll runs them where a ruleset says so).

sfr-v4's step 6 (SAI results join the subtotal), and the note tsr-1996's racial abilities need, applied
with the multipliers since its order names no racial step (sfr-v4's eighth face is engine.doubling's).
A tally here is engine.roll's: result type -> Part (``normal``, ``sai``, ``ids``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .state import RESULT_TYPES
from .trace import TraceEvent

if TYPE_CHECKING:
    from .rolled import RollContext


def sai_step(groups: dict[str | None, Any], ctx: RollContext, trace: list[TraceEvent]) -> None:
    """sfr-v4 Die Roll Resolution, step 6: "Add SAI generated action results to obtain a new subtotal" (after
    the modifiers that subtract, before those that multiply). The tally keeps them apart from the start."""
    for t in RESULT_TYPES:
        sai = sum(g[t].sai for g in groups.values())
        if sai:
            total = sum(g[t].total for g in groups.values())
            trace.append(TraceEvent(what=f"{ctx.army.id}: {sai} SAI-generated {t} join the subtotal",
                                    before=total - sai, after=total, rule="add SAI generated action results to "
                                    "obtain a new subtotal", cite=ctx.ruleset.cite("sai-step")))


def racial_with_multipliers(ctx: RollContext, trace: list[TraceEvent]) -> None:
    """tsr-1996 names no racial step: "Eighth face advantages are cumulative with any special racial
    abilities", and spells that add (Wind Walk) "aren't counted when determining the results of a special
    ability": racial abilities apply after the multipliers, before the additions (a reading, traced)."""
    trace.append(TraceEvent(what=f"{ctx.army.id}: racial abilities apply with the multipliers",
                            rule="a reading: the modifier order names no racial step; eighth face advantages are "
                                 "cumulative with racial abilities, and spells that add are not counted by them",
                            cite=ctx.ruleset.cite("eighth-face"), also=ctx.ruleset.cite("modifier-order")))
