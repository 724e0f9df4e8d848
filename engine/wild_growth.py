"""Wild Growth (002 SAI List): "During any non-maneuver roll, each Wild Growth result generates one save result or
may immediately promote one unit in the army containing this unit." (Normal or Special.)

A roll's ``promote`` pairs name the promotions its Wild Growth results buy, one result each; the rest give
saves. The roll only counts: the promotions are one exchange effect (engine.exchange), made by
engine.resolve once the step's roll is resolved.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .trace import StepError, TraceEvent

if TYPE_CHECKING:
    from .rolled import Roll, RollContext, Special, Tally

WILD_GROWTH = "wild-growth"


def spend_on_promotions(ctx: RollContext, roll: Roll, units: dict[str, Tally], specials: list[Special],
                        trace: list[TraceEvent]) -> None:
    """Take one save from the Wild Growth results per promotion the roll names, and mark the promotions."""
    if not roll.promote:
        return
    from .rolled import Special
    from .sais import sai_use
    cite = ctx.ruleset.sai_sections.get(WILD_GROWTH, ctx.ruleset.cite("sai-points"))
    if sai_use(WILD_GROWTH, ctx.kind) is None:
        raise StepError(f"Wild Growth promotes only in a non-maneuver roll, not in a {ctx.kind} roll", cite=cite,
                        field="roll")
    growers = [(who, n) for who, n in _grown(ctx, roll).items() if n]
    wanted = len(roll.promote)
    if wanted > sum(n for _, n in growers):
        raise StepError(f"the roll names {wanted} promotion(s) but has {sum(n for _, n in growers)} Wild Growth "
                        "result(s): each promotes one unit", cite=cite, field="roll")
    left = wanted
    for who, n in growers:
        spent = min(n, left)
        units[who]["save"].sai -= spent
        left -= spent
    specials.append(Special(WILD_GROWTH, "promote", wanted, ctx.army.id))
    trace.append(TraceEvent(what=f"{ctx.army.id}: {wanted} Wild Growth result(s) promote a unit each instead of "
                                 "giving a save", before=sum(n for _, n in growers), after=wanted, rule="each Wild "
                                 "Growth result generates one save result or may immediately promote one unit in the "
                                 "army containing this unit", cite=cite))


def _grown(ctx: RollContext, roll: Roll) -> dict[str, int]:
    """Wild Growth results per roller (unit id, or the army id for an aggregate roll)."""
    if not roll.per_unit:
        return {ctx.army.id: sum(n for icon, n in roll.counts if icon == WILD_GROWTH)}
    monster = {u.id: u.monster for u in ctx.army.units}
    per = ctx.ruleset.monster_icon_value
    return {uid: sum(f.count * (per if monster.get(uid) else 1) for f in faces if f.icon == WILD_GROWTH)
            for uid, faces in roll.units}
