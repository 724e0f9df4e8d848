"""Spells' and racial abilities' dice modifiers in one roll (002 Applying Dice Modifiers: "subtract, divide,
multiply, racial abilities, add"), for ``engine.roll``'s pipeline: which durational effects reach the roll, how
each operation changes a tally's ``normal`` part (never the ``sai`` part a spell cannot modify), and the
racial abilities and spell conversions that count one result as another.
"""

from __future__ import annotations

from .chosen import read as chosen_read
from collections.abc import Mapping
from typing import TYPE_CHECKING

from .lands import negated_by_element_loss, terrain_types
from .ruleset import RacialAbility, SpellModifier
from .state import Effect
from .trace import NOT_APPLIED, StepError, TraceEvent, TracePart, not_applied, reading, split, told, whose
from .value import Value

if TYPE_CHECKING:
    from .rolled import Part, RollContext, Tally


class Active(Value):
    """A spell modifier in force for this roll."""

    effect: Effect
    mod: SpellModifier
    cite: str

    @property
    def amount(self) -> int:
        times = self.effect.count if self.mod.stacks else 1
        # halving effects are cumulative by halving again (002 Dragons, Breath: "Multiple breaths' effects with
        # duration are cumulative (including halving effects)")
        return self.mod.amount ** times if self.mod.op == "divide" else self.mod.amount * times


def _applies(mod: SpellModifier, effect: Effect, ctx: RollContext, unit_ids: set[str]) -> bool:
    if mod.scope == "army":
        return effect.target == ctx.army.id and not ctx.individual
    if mod.scope == "unit":
        return effect.target in unit_ids
    if mod.scope == "terrain":
        # terrain penalties apply to rolls made at that terrain (not to results arriving from elsewhere)
        return effect.target == ctx.where and not ctx.individual
    target = ctx.target_terrain.id if ctx.target_terrain else None
    if ctx.kind != "missile":
        return False
    if mod.scope == "missile-into":
        return effect.target == target
    return effect.target in (target, ctx.where)


def _temple_shields(effect: Effect, mod: SpellModifier, ctx: RollContext) -> bool:
    """002 Temple: "death (black) magic cast by enemy armies cannot affect this army". Read for spells on
    the Temple's terrain; spells on the army itself can only predate the capture, and "it does not negate
    those already affecting that army"."""
    terrain = ctx.terrain
    return (mod.scope == "terrain" and terrain is not None and terrain.face == 8 and terrain.eighth == "temple"
            and terrain.controlled_by == ctx.army.id and effect.by != ctx.army.player
            and ctx.ruleset.spell_costs.get(effect.spell, ("",))[0] == "black")


def _reaches(mod: SpellModifier, ctx: RollContext) -> bool:
    """The modifier changes a result this roll is for."""
    return mod.results == "any" or any(t in ctx.wanted for t in mod.results)


def home_army(ctx: RollContext):
    """The army a unit rolling by itself belongs to (its roll's ``army`` is the unit alone)."""
    unit = ctx.army.units[0].id if ctx.army.units else None
    return next((a for a in ctx.state.armies if any(u.id == unit for u in a.units)), None)


def _not_reaching(effect: Effect, mod: SpellModifier, ctx: RollContext) -> TraceEvent | None:
    """Why a spell a player would expect in this roll does not apply: an army's or terrain's spell in a unit's
    own roll (002 Applying Dice Modifiers), a terrain's spell on missiles fired into it from another terrain
    (its penalties are to rolls made at the terrain)."""
    rs, spell = ctx.ruleset, effect.spell
    if not _reaches(mod, ctx):
        return None
    if ctx.individual and not ctx.joined and mod.scope in ("army", "terrain"):
        home = home_army(ctx)
        if home is None or effect.target not in (home.id, home.at):
            return None
        what = f"{spell} on {effect.target} does not reach {whose(ctx.army.id)} own {' and '.join(ctx.wanted)} roll"
        if "individual-modifiers" in rs.cites:
            # 000 Dice Modifiers says it of army and terrain spells alike ("such as the penalty for an Ash Storm or
            # the bonus from a Watery Double spell")
            return not_applied(what, rs.quote("individual-modifiers", "modifiers to an army's roll don't apply to an "
                                              "individual unit when it must roll separately"),
                               rs.cite("individual-modifiers"))
        if mod.scope == "army" and rs.edition == "sfr-2012":
            return not_applied(what, "since the Stoneskin and Open Grave spells target an army, they do not protect "
                                     "the unit when it is targeted individually", rs.cite("modifier-order"))
        # a terrain's spell, or another edition: 002's rule for army spells read for them (traced with both)
        return reading(f"{what}: a spell on the army or its terrain is read as not reaching a unit rolling by "
                       "itself", rs.spell_sections.get(spell, rs.cite("modifier-order")), "sfr-2012:"
                       "dice-modifiers.applying-dice-modifiers").evolve(kind=NOT_APPLIED)
    if (mod.scope == "missile-into" and ctx.kind == "missile" and ctx.target_terrain is not None
            and effect.target == ctx.where != ctx.target_terrain.id):
        return _fired_out(effect, ctx)
    if (mod.scope == "terrain" and ctx.kind == "missile" and ctx.target_terrain is not None
            and effect.target == ctx.target_terrain.id != ctx.where):
        return not_applied(f"{spell} on {effect.target} does not cut {whose(ctx.army.id)} missiles, rolled at "
                           f"{ctx.where} and fired into {effect.target}",
                           "a terrain's spell changes the rolls made at that terrain, not those fired in from another",
                           rs.spell_sections.get(spell, rs.cite("modifier-order")))
    return None


def _fired_out(effect: Effect, ctx: RollContext) -> TraceEvent:
    """Missiles fired out of a terrain whose spell cuts missiles "into or at" it (002 Wall of Fog: "halve ... all
    missile damage into or at the target terrain"): not cut. Where the edition has a spell that says "into or out
    of" (002 Dust Devil), the difference is read as deliberate and traced as a reading with both passages; else
    (001 Wall of Fog, "any missile attack targeting an army at that terrain") the text is plain."""
    rs, spell = ctx.ruleset, effect.spell
    what = (f"{spell} on {effect.target} does not cut {whose(ctx.army.id)} missiles, fired out of {effect.target} "
            f"at {ctx.target_terrain.id}")
    cite = rs.spell_sections.get(spell, rs.cite("modifier-order"))
    both = next((s for s, mods in rs.spell_modifiers.items() if any(m.scope == "missile-into-or-out" for m in mods)
                 and s in rs.spell_sections), None)
    if both is None:
        return not_applied(what, "the spell cuts missiles fired into or at the target terrain only", cite)
    return reading(f"{what}: it halves missile damage \"into or at the target terrain\", and {both} names \"into "
                   "or out of\": read as not reaching missiles fired out of the terrain", cite,
                   rs.spell_sections[both]).evolve(kind=NOT_APPLIED)


def active_modifiers(ctx: RollContext, unit_ids: set[str], trace: list[TraceEvent] | None = None) -> list[Active]:
    out = []
    for effect in ctx.state.effects:
        negator = negated_by_element_loss(ctx.state, effect, ctx.ruleset)
        mods = ctx.ruleset.spell_modifiers.get(effect.spell, ())
        if negator is not None and mods:
            if trace is not None and any(_applies(m, effect, ctx, unit_ids) and _reaches(m, ctx) for m in mods):
                own_terrain_spell = negator.by == effect.by
                event = reading(
                    f"{effect.spell} on {effect.target} is negated while {negator.spell} is on {negator.target}, "
                    f"although both are {negator.by}'s: 'except for the caster's spells' follows, and is read as "
                    "qualifying, only the army-targeting spells; a terrain-targeting spell that needs the element is "
                    "negated whoever cast it", ctx.ruleset.spell_sections.get(negator.spell, ""),
                    ctx.ruleset.spell_sections.get(effect.spell, "")) if own_terrain_spell else not_applied(
                    f"{effect.spell} on {effect.target} is negated while {negator.by}'s {negator.spell} is on "
                    f"{negator.target}",
                    "the effects of spells that require the terrain to have the element it removes are negated "
                    "(army-targeting ones except the caster's)",
                    ctx.ruleset.spell_sections.get(negator.spell, ""))
                if event not in trace:
                    trace.append(event)
            continue
        for mod in ctx.ruleset.spell_modifiers.get(effect.spell, ()):
            if trace is not None and not _applies(mod, effect, ctx, unit_ids):
                why = _not_reaching(effect, mod, ctx)
                if why is not None and why not in trace:
                    trace.append(why)
            if _applies(mod, effect, ctx, unit_ids) and _temple_shields(effect, mod, ctx):
                if trace is not None:
                    # "death (black) magic cast by enemy armies cannot affect this army" read over "does not
                    # protect the terrain": the spell stays on the terrain, but not on the army's rolls
                    trace.append(reading(f"{effect.spell} on {effect.target} does not affect {ctx.army.id}, which "
                                         "holds the Temple: 'cannot affect this army' reaches a black spell on its "
                                         "terrain, which the Temple does not protect", ctx.ruleset.cite("temple"),
                                         ctx.ruleset.spell_sections.get(effect.spell, ctx.ruleset.cite("temple"))))
                continue
            if _applies(mod, effect, ctx, unit_ids):
                if effect.count > 1 and not mod.stacks:
                    raise StepError(f"{effect.spell} is in play {effect.count} times on {effect.target}, but "
                                    "its multiple castings must target different targets",
                                    cite=ctx.ruleset.spell_sections.get(effect.spell, ""))
                if (ctx.ruleset.repeat_instance_no_effect and not mod.stacks and effect.spell in ctx.ruleset.spell_costs
                        and any(
                        a.mod == mod and a.effect.spell == effect.spell and a.effect.target == effect.target
                        for a in out)):
                    # 002 Multiplicity (a spell's; SAIs and minor terrains say their own): another instance at the same target, from a separate magic action
                    if trace is not None and _reaches(mod, ctx):
                        trace.append(not_applied(
                            f"{effect.by}'s further {effect.spell} on {effect.target} adds nothing to the one "
                            "already there",
                            "multiple castings of another instance of this spell at the same target during "
                            "separate magic actions will have no added effect, except to possibly increase the "
                            "duration of the spell", ctx.ruleset.cite("multiplicity")))
                    continue
                out.append(Active(effect, mod, ctx.ruleset.spell_sections.get(effect.spell, "")))
    return out


def apply_op(op: str, part: Part, amount: int, floor_at_end: bool = False, owe: bool = False) -> None:
    """One modifier on a result's normal part. ``floor_at_end`` (tsr-1996, 000 Applying Dice Modifiers: "Results
    can never be negative at the end"): a subtraction below zero is kept as ``debt``, a negative value that the
    later steps divide ("round down") and multiply as they do any value, that results a racial ability counts as
    this type pay first (settle_owed), and that the adds repay; what is left of it at the end is dropped (zero is
    as low as a result can go). Elsewhere (002: "Modifiers that subtract: results can never be negative") a
    subtraction stops at zero. ``owe`` (tsr-1996, Ruleset.converted_owe): the results a racial ability counts as
    this type later in the roll are divided as this type's were (``divisor``)."""
    # spells modify only the normal part: "any result ... generated by an SAI cannot be modified by spells"
    if op == "subtract":
        if floor_at_end:
            part.debt += max(0, amount - part.normal)
        part.normal = max(0, part.normal - amount)      # "results can never be negative"
        part.ids = min(part.ids, part.normal)           # a reading: penalties take non-ID results first
    elif op == "divide":
        part.normal //= amount                          # "round down"
        part.debt = -(-part.debt // amount)             # a negative value rounded down: -3 / 2 -> -2
        if owe:
            part.divisor *= amount
        part.ids = min(part.ids, part.normal)
    elif op == "multiply":
        part.normal *= amount
        part.debt *= amount
    else:
        repaid = min(part.debt, amount)
        part.debt -= repaid
        part.normal += amount - repaid


_SIGN = {"subtract": "-", "divide": "/", "multiply": "x", "add": "+"}


def spell_step(op: str, actives: list[Active], tally: Tally, ctx: RollContext, trace: list[TraceEvent],
                scope_label: str, used: list[Effect] | None = None, owing: Mapping[str, str] | None = None) -> None:
    """Apply the ``op`` modifiers; ``used`` collects the effects that changed a result rolled for; ``owing``:
    result type -> the type a racial ability will count as it later in the roll (tsr-1996, settle_owed)."""
    owing = owing or {}
    if not actives:
        return
    mine = [a for a in actives if a.mod.op == op]
    generic = [a for a in mine if a.mod.results == "any"]
    for active in mine:
        if active in generic and len(ctx.wanted) > 1:
            continue
        for t in _modified(active, generic, ctx):
            before = tally[t].total
            if not before and t not in ctx.wanted and op != "add":
                continue    # a penalty on a result neither rolled nor wanted changes nothing: not traced
            parts, debt = (tally[t].normal, tally[t].sai), tally[t].debt
            # a spell that also changes the converted results' own type (Wall of Fog: maneuvers and missiles)
            # reaches them once, as that type (004 Amazons B: "by reducing the maneuver rolls")
            owe = t in owing and not any(a.effect is active.effect and owing[t] in _modified(a, generic, ctx)
                                         for a in actives)
            apply_op(op, tally[t], active.amount, ctx.ruleset.floor_at_end, owe)
            times = f" x{active.effect.count}" if active.mod.stacks and active.effect.count > 1 else ""
            trace.append(TraceEvent(
                what=f"{scope_label}: {active.effect.spell}{times} on {active.effect.target}: "
                     f"{t} {_SIGN[op]}{active.amount}{_below_zero(debt, tally[t].debt)}",
                before=before, after=tally[t].total, rule=f"modifiers that {op} ({_sai_note(op)})"
                + (_FLOOR_AT_END if debt or tally[t].debt else ""),
                cite=active.cite, parts=split(parts, (tally[t].normal, tally[t].sai), tally[t].sais, True)))
            if used is not None and t in ctx.wanted and tally[t].total != before and active.effect not in used:
                used.append(active.effect)
    if generic and len(ctx.wanted) > 1:
        _generic_penalty(op, generic, tally, ctx, trace, scope_label, owing)


def _modified(active: Active, generic: list[Active], ctx: RollContext) -> tuple[str, ...]:
    """The results a modifier changes: those it names, the one rolled for ("any"), or the one of its results
    rolled for when it gives either (sfr-v4 Fiery Weapon: "melee or missile results")."""
    if active in generic:
        return ctx.wanted
    if active.mod.either:
        return tuple(t for t in active.mod.results if t in ctx.wanted)[:1]
    return active.mod.results


def _generic_penalty(op: str, generic: list[Active], tally: Tally, ctx: RollContext, trace: list[TraceEvent],
                     scope_label: str, owing: Mapping[str, str] | None = None) -> None:
    """Penalties to "one result" in a combination roll: the owner places their total (002)."""
    total = sum(a.amount for a in generic)
    names = ", ".join(f"{a.effect.spell} x{a.effect.count}" if a.effect.count > 1 else a.effect.spell
                      for a in generic)
    cite = ctx.ruleset.cite("combination")
    placed = split_points(total, ctx, "penalties", trace, f"penalty of {names}", cite)
    if op == "subtract":
        wasted = sum(max(0, n - tally[t].normal) for t, n in placed.items())
        room = sum(max(0, tally[t].normal - placed.get(t, 0)) for t in ctx.wanted)
        if wasted and room:
            raise StepError(f"the penalties {told(placed)} leave {wasted} point(s) unapplied while other results "
                            "could take them: all modifiers must be applied, if possible", cite=cite,
                            field="penalties")
        if wasted and not ctx.ruleset.floor_at_end:
            # 000/002 Dice Modifiers: "All modifiers must be applied, however, if possible": no result is left
            trace.append(TraceEvent(what=f"{scope_label}: {names}: {wasted} point(s) find no result left to take "
                                    "them and are not applied", before=total, after=total - wasted,
                                    rule="all modifiers must be applied, if possible", cite=cite))
    for t, n in placed.items():
        before, parts, debt = tally[t].total, (tally[t].normal, tally[t].sai), tally[t].debt
        apply_op(op, tally[t], n, ctx.ruleset.floor_at_end, t in owing)
        trace.append(TraceEvent(what=f"{scope_label}: {names}: {t} {_SIGN[op]}{n}{_below_zero(debt, tally[t].debt)}",
                                before=before,
                                after=tally[t].total, rule="in a combination roll the owner applies the "
                                "penalties as they wish; all must be applied where possible", cite=cite,
                                parts=split(parts, (tally[t].normal, tally[t].sai), tally[t].sais, True)))


_FLOOR_AT_END = "; results can never be negative at the end: below zero is carried to the later steps"


def _below_zero(before: int, after: int) -> str:
    """Say where a result stands below zero (tsr-1996 floors results only at the end)."""
    if before == after:
        return ""
    if not after:
        return f" (repays the {before} below zero first)"
    return f" (the result stands at -{after})"


def _sai_note(op: str) -> str:
    return "SAI results untouched" if op in ("subtract", "divide") else "applied in modifier order"




def racial_abilities(race: str | None, ctx: RollContext) -> list[RacialAbility]:
    types = None    # the terrain's types, looked up for the first of the race's abilities that needs them
    out = []
    for ability in ctx.ruleset.racial:
        if ability.race != race:
            continue
        if ability.terrains is not None and types is None:
            terrain = ctx.terrain
            types = terrain_types(ctx.state, terrain, ctx.ruleset) if terrain is not None else set()
        if ability.terrains is not None and not types & set(ability.terrains):
            continue
        if ability.rolls is not None and ctx.kind not in ability.rolls:
            continue
        out.append(ability)
    return out


def spell_abilities(ctx: RollContext) -> list[RacialAbility]:
    """Conversions a spell on the army gives all its units (002 Necromantic Wave); not in a unit's own roll."""
    if ctx.individual:
        return []
    return [ctx.ruleset.spell_abilities[e.spell] for e in ctx.state.effects_on(ctx.army.id)
            if e.spell in ctx.ruleset.spell_abilities]


def _off_terrain(race: str | None, tally: Tally, ctx: RollContext) -> list[TraceEvent]:
    """The race's abilities that would change this roll's results at another terrain: said, once each."""
    terrain = ctx.terrain
    if race is None or terrain is None:
        return []
    types, out = None, []
    for ability in ctx.ruleset.racial:
        if ability.race != race or ability.terrains is None or ability.kind == "auto":
            continue
        if ability.rolls is not None and ctx.kind not in ability.rolls:
            continue
        if not tally[ability.source].total or ability.kind != "double" and ability.target not in ctx.wanted:
            continue
        types = types if types is not None else terrain_types(ctx.state, terrain, ctx.ruleset)
        if types & set(ability.terrains):
            continue
        out.append(not_applied(f"{race} {ability.name} does not apply: {ctx.army.id} is at {terrain.id}, a "
                               f"{terrain.type}, not a {' or '.join(ability.terrains)}",
                               "a racial ability that names a terrain type works only at a terrain of that type",
                               ability.cite).evolve(detail=True))   # said on every roll off it: --verbose shows it
    return out


def racial(group: str | None, tally: Tally, ctx: RollContext, trace: list[TraceEvent]) -> None:
    if not ctx.individual:
        trace.extend(e for e in _off_terrain(group, tally, ctx) if e not in trace)
    for ability in (*racial_abilities(group, ctx), *spell_abilities(ctx)):
        label = f"{ability.race} {ability.name}" if ability.race else f"{ability.name} on {ctx.army.id}"
        _terrain_by_spell(ability, ctx, trace)
        if ability.kind == "auto":
            units = sum(1 for u in ctx.army.units if u.race == ability.race)
            before = tally[ability.target].total
            tally[ability.target].normal += units
            trace.append(TraceEvent(what=f"{label}: {units} unit(s) add {units} "
                                         f"{ability.target}", before=before, after=tally[ability.target].total,
                                    rule="an automatic result for each unit of the race", cite=ability.cite))
            continue
        src = tally[ability.source]
        before = src.total
        if src.debt and ability.kind != "double" and ability.target in ctx.wanted:
            # tsr-1996 (floor only at the end): a count below zero is no result to count as another
            trace.append(reading(
                f"{label}: {ctx.army.id}'s {ability.source} results stand {src.debt} below zero; none are counted as "
                f"{ability.target}, and the shortfall stays with the {ability.source} (\"Results can never be "
                "negative at the end\" is read as flooring each result, not as taking it from another)",
                ability.cite, ctx.ruleset.cite("modifier-order")))
        if not before:
            continue
        if ability.kind == "double":
            parts = (src.normal, src.sai)
            src.normal *= 2
            src.sai *= 2
            trace.append(TraceEvent(what=f"{label}: {ability.source} doubled",
                                    before=before, after=src.total,
                                    parts=split(parts, (src.normal, src.sai), src.sais, False),
                                    rule=ctx.ruleset.quote(f"racial-{ability.race}", "racial abilities that multiply"),
                                    cite=ability.cite))
            continue
        if ability.target not in ctx.wanted:
            continue  # counting maneuvers as saves matters only when saves are rolled for
        moved = _converted(ability, label, src.normal if ability.icons_only else before, ctx, trace)
        dst = tally[ability.target]
        dst_before = dst.total
        take_normal = min(src.normal, moved)
        src.normal -= take_normal
        src.sai -= moved - take_normal
        dst.normal += take_normal
        dst.sai += moved - take_normal
        what = f"{label}: {moved} {ability.source} count as {ability.target}"
        # both results shown: the ones converted and those they became (a pooled figure reads as wrong arithmetic)
        parts = (TracePart(name=ability.source, before=before, after=src.total),
                 TracePart(name=ability.target, before=dst_before, after=dst.total))
        if ability.race:
            trace.append(TraceEvent(what=what, before=dst_before, after=dst.total, rule="racial abilities that count "
                                    "one result as another", cite=ability.cite, parts=parts))
            _halved_before_count(ability, moved, ctx, trace)
        else:   # a spell's count: applied with the racial abilities that do (002 names no other place for it)
            trace.append(reading(f"{what}: a spell's count, applied with the racial abilities that count one result "
                                 "as another (002 names no other place for it)", ability.cite,
                                 ctx.ruleset.cite("modifier-order")).evolve(before=dst_before, after=dst.total,
                                                                            parts=parts))
        settle_owed(dst, take_normal, label, ability, ctx, trace)


def settle_owed(dst: Part, converted: int, label: str, ability: RacialAbility, ctx: RollContext,
                trace: list[TraceEvent]) -> None:
    """tsr-1996: the results just counted as ``ability.target`` are results of that type, so its modifiers reach
    them too: the divisor its icons were divided by, then the points its subtractions could not take (000 Applying
    Dice Modifiers: "Modifiers that subtract, Modifiers that divide ... Results can never be negative at the end";
    000 Palsy: "7 saves become 6"; 000 Dancing Lights: "missile and magic results are halved")."""
    if not converted or (dst.divisor == 1 and not dst.debt):
        return
    before = dst.total
    if dst.divisor > 1:
        cut = converted - converted // dst.divisor
        dst.normal -= cut
        converted -= cut
    take = min(dst.debt, dst.normal)
    dst.normal -= take
    dst.debt -= take
    dst.ids = min(dst.ids, dst.normal)
    how = ", ".join(x for x in (f"divided by {dst.divisor}" if dst.divisor > 1 else "",
                                f"less the {take} penalty point(s) no {ability.target} icon was there to take"
                                if take else "") if x)
    trace.append(reading(f"{label}: the {ability.target} modifiers reach the {ability.source} counted as "
                         f"{ability.target} too ({how})",
                         ctx.ruleset.cite("modifier-order"), ability.cite).evolve(before=before, after=dst.total))
    dst.divisor = 1


def _halved_before_count(ability: RacialAbility, moved: int, ctx: RollContext, trace: list[TraceEvent]) -> None:
    """Results a racial ability counts as missile (002 Amazons) after a spell halved the missiles fired into the
    target terrain (002 Wall of Fog: "halve ... all missile damage into or at the target terrain"; Dust Devil).
    The spell is applied as a modifier that divides the attacking army's missile results (002 Applying Dice
    Modifiers, Coral Elf example: "This is halved because of the Wall of Fog spell giving the attacking army 15
    missile results"), and the racial step comes after the divide step, so the counted results are not halved:
    a reading of "all missile damage", said with both passages."""
    if (ability.target != "missile" or ctx.kind != "missile" or ctx.target_terrain is None or not moved
            or ctx.ruleset.converted_owe):
        return      # tsr-1996 divides the counted results as missiles (settle_owed), or halved them as maneuvers
    for effect in ctx.state.effects:
        for mod in ctx.ruleset.spell_modifiers.get(effect.spell, ()):
            if (mod.op == "divide" and mod.scope in ("missile-into", "missile-into-or-out")
                    and _applies(mod, effect, ctx, set())):
                event = reading(
                    f"{effect.spell} on {effect.target} halved {whose(ctx.army.id)} missile results in the divide "
                    f"step; the {moved} {ability.source} its racial ability counts as missile come after it and are "
                    "not halved: the spell's \"all missile damage into\" is read as a modifier that divides the "
                    "attacking army's results, in the order subtract, divide, multiply, racial abilities, add",
                    ctx.ruleset.spell_sections.get(effect.spell, ctx.ruleset.cite("modifier-order")),
                    ctx.ruleset.cite("modifier-order"))
                if event not in trace:
                    trace.append(event)


def _terrain_by_spell(ability: RacialAbility, ctx: RollContext, trace: list[TraceEvent]) -> None:
    """Say so when an ability applies because a spell gives the terrain its type (Create Mountain)."""
    terrain = ctx.terrain
    if ability.terrains is None or terrain is None or terrain.type in ability.terrains:
        return
    spell = next(e.spell for e in ctx.state.effects_on(terrain.id)
                 if ctx.ruleset.terrain_types.get(e.spell) in ability.terrains)
    kind = ctx.ruleset.terrain_types[spell]
    trace.append(TraceEvent(what=f"{spell} on {terrain.id}: the {terrain.type} also counts as a {kind}",
                            rule=f"in addition to its normal terrain type, it is also considered to be a {kind} "
                                 "terrain", cite=ctx.ruleset.spell_sections.get(spell, ability.cite)))


def _converted(ability: RacialAbility, label: str, available: int, ctx: RollContext,
               trace: list[TraceEvent]) -> int:
    """How many results a counts-as ability converts.

    All of them when only the target result is rolled for; in a combination
    roll for both, each result counts as one or the other, never both (002
    Avoidance Rolls), as the owner says in ``counts_as`` (default: all).
    """
    chosen = ctx.choices.get("counts_as", {}).get(ability.target)
    if chosen is not None:
        chosen_read("counts_as", ability.target)
        chosen_read("counts_as", f"{ctx.army.id}.{ability.target}")
    if ability.source not in ctx.wanted and chosen is None:
        return available
    if chosen is None:
        trace.append(TraceEvent(what=f"{label}: all {available} {ability.source} counted "
                                     f"as {ability.target}", after=available, rule="in a combination roll the "
                                     "owner chooses, result by result; none given", cite=ctx.ruleset.cite("avoidance"),
                                defaulted=True))
        return available
    if not 0 <= chosen <= available:
        raise StepError(f"counts_as {ability.target}: {chosen} is more than the {available} {ability.source} "
                        "results there are", cite=ability.cite, field="counts_as")
    return chosen


def split_points(points: int, ctx: RollContext, key: str, trace: list[TraceEvent], what: str, cite: str,
           allowed: tuple[str, ...] | None = None) -> dict[str, int]:
    """The owner's split of points over ``allowed`` results (``choices[key]``), or the default (the first)."""
    allowed = allowed or ctx.wanted
    chosen = ctx.choices.get(key)
    if not chosen and key == "penalties":
        # a melee or missile step's ``penalties`` is per army: the rolling army's split (engine.actions.sai_states)
        chosen = ctx.choices.get("penalties:by-army", {}).get(ctx.army.id)
    if chosen and key == "penalties":
        chosen_read("penalties", ctx.army.id)
    if chosen:
        bad = [t for t in chosen if t not in allowed]
        if any(n < 0 for n in chosen.values()):     # the loader refuses these too: points are never negative
            raise StepError(f"the split of {what} ({fmt(chosen)}) places a negative number of points; each result "
                            "gets 0 or more", cite=cite, field=key)
        if bad or sum(chosen.values()) != points:
            raise StepError(f"the split of {what} ({fmt(chosen)}) must place exactly {points} point(s) "
                            f"over {', '.join(allowed)}" + (f", not on {', '.join(bad)}, which this roll is not for"
                                                             if bad else ""), cite=cite, field=key)
        return dict(chosen)
    trace.append(TraceEvent(what=f"{what}: {points} point(s) placed on {allowed[0]}", after=points,
                            rule="the owner splits these over the results rolled for; none given",
                            cite=cite, defaulted=True))
    return {allowed[0]: points}


def fmt(counts: Mapping[str, int]) -> str:
    return ", ".join(f"{n} {t}" for t, n in counts.items()) or "nothing"
