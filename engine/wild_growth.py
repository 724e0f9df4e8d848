"""Wild Growth (002 SAI List): "During any non-maneuver roll, each Wild Growth result generates one save result or
may immediately promote one unit in the army containing this unit." (Normal or Special.)

A roll's ``promote`` pairs name the promotions its Wild Growth results buy, one result each; the rest give
saves. The roll only counts: the promotions are one exchange effect (engine.exchange), made by
engine.resolve once the step's roll is resolved.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .trace import StepError, TraceEvent, reading

if TYPE_CHECKING:
    from .rolled import Roll, RollContext, Special, Tally

WILD_GROWTH = "wild-growth"


def spend_on_promotions(ctx: RollContext, roll: Roll, units: dict[str, Tally], specials: list[Special],
                        trace: list[TraceEvent]) -> None:
    """Take one save from the Wild Growth results per promotion the roll names, and mark the promotions."""
    if not roll.promote:
        _not_promoting(ctx, roll, trace)
        return
    from .rolled import Special
    from .sais import sai_use
    cite = ctx.ruleset.sai_sections.get(WILD_GROWTH, ctx.ruleset.cite("sai-points"))
    if sai_use(WILD_GROWTH, ctx.kind, ctx.ruleset.sai_uses) is None:
        raise StepError(f"Wild Growth promotes only in a non-maneuver roll, not in a {ctx.kind} roll", cite=cite,
                        field="roll")
    growers = [(who, n) for who, n in _grown(ctx, roll).items() if n]
    per_health = ctx.ruleset.wild_growth_per_health
    # sfr-v4 (001): "promote one health-worth of units ... for each Wild Growth result": a unit promoted takes as
    # many results as its health (reading, traced: the health-worth promoted is the promoted unit's own, read with
    # 001 Promote a Unit, "Exchange a unit from the army with a unit ... one health larger"); 002: one unit each
    wanted = sum(_health(ctx, old) for old, _ in roll.promote) if per_health else len(roll.promote)
    if wanted > sum(n for _, n in growers):
        have = sum(n for _, n in growers)
        raise StepError(f"the promotions named need {wanted} Wild Growth result(s) but the roll has {have}: each "
                        "promotes one health-worth of units" if per_health else f"the roll names {wanted} "
                        f"promotion(s) but has {have} Wild Growth result(s): each promotes one unit", cite=cite,
                        field="roll")
    if per_health:
        trace.append(reading(f"{ctx.army.id}: {len(roll.promote)} promotion(s) of {wanted} health-worth of units "
                             f"take {wanted} Wild Growth result(s), one per health-worth of the units promoted",
                             cite, ctx.ruleset.cite("promote")))
    left = wanted
    for who, n in growers:
        spent = min(n, left)
        units[who]["save"].sai -= spent
        left -= spent
    specials.append(Special(WILD_GROWTH, "promote", len(roll.promote), ctx.army.id))
    trace.append(TraceEvent(what=f"{ctx.army.id}: {wanted} Wild Growth result(s) promote instead of giving a save",
                            before=sum(n for _, n in growers), after=wanted,
                            rule="generate one save result or promote one health-worth of units in this army for each "
                                 "Wild Growth result" if per_health else "each Wild Growth result generates one save "
                                 "result or may immediately promote one unit in the army containing this unit",
                            cite=cite))


def _not_promoting(ctx: RollContext, roll: Roll, trace: list[TraceEvent]) -> None:
    """Wild Growth "may immediately promote": the roll's ``promote`` names none, so every result is a save, a traced
    default where a promotion was open (a unit of the army with a dead unit of its race one health larger)."""
    grown = sum(_grown(ctx, roll).values())
    if not grown or "maneuver" in ctx.kind:
        return
    from .sais import sai_use
    if sai_use(WILD_GROWTH, ctx.kind, ctx.ruleset.sai_uses) is None:
        return
    dead = [u for a in ctx.state.dua if a.player == ctx.army.player for u in a.units]
    if not any(u.race and not u.item and d.race == u.race and d.health == u.health + 1 and not d.item
               for u in ctx.army.units for d in dead):
        return
    trace.append(TraceEvent(what=f"{ctx.army.id}: {grown} Wild Growth result(s) promote no unit: the roll names no "
                                 "promote, so each gives a save", after=0,
                            rule="generate one save result or promote one health-worth of units in this army for each "
                                 "Wild Growth result" if ctx.ruleset.wild_growth_per_health else "each Wild Growth result "
                                 "generates one save result or may immediately promote one unit in the army containing "
                                 "this unit",
                            cite=ctx.ruleset.sai_sections.get(WILD_GROWTH, ctx.ruleset.cite("sai-points")),
                            defaulted=True))


def _grown(ctx: RollContext, roll: Roll) -> dict[str, int]:
    """Wild Growth results per roller (unit id, or the army id for an aggregate roll)."""
    if not roll.per_unit:
        return {ctx.army.id: sum(n for icon, n in roll.counts if icon == WILD_GROWTH)}
    monster = {u.id: u.monster for u in ctx.army.units}
    per = ctx.ruleset.monster_icon_value
    return {uid: sum(f.count * (per if monster.get(uid) else 1) for f in faces if f.icon == WILD_GROWTH)
            for uid, faces in roll.units}


def _health(ctx: RollContext, unit_id: str) -> int:
    """The health-worth of a unit the roll promotes (an unknown id counts one: engine.exchange names it)."""
    unit = ctx.army.unit(unit_id)
    return unit.health if unit is not None else 1
