"""Cantrip in a roll other than a magic action: its points buy spells that are resolved at once.

002 SAI List, Cantrip: "During any non-magic action, save roll or non-maneuver
avoidance roll, Cantrip can be used to purchase spells that are immediately
resolved." 002 SAI Resolution: a Unique SAI suspends the roll ("The save roll is
suspended to resolve the Cantrip"), and in a simultaneous roll unique SAIs do
not work. What the points buy is the owner's choice: the step's ``cantrip``
names it per army, in the form of a magic step (colors, cast, avoidance).
"""

from __future__ import annotations

from typing import Any, Protocol

from msgspec.structs import replace

from ..lands import elements
from ..magic import COLORS, Caster, unit_aspects
from ..modifiers import active_modifiers
from ..roll import Outcome, Roll
from ..roll_bounds import face_points
from ..ruleset import Ruleset
from ..state import Army, GameState
from ..steps import MagicStep, StepResult
from ..trace import NOT_APPLIED, StepError, TraceEvent, not_applied, reading, whose
from . import hooks, joined_rolls

CANTRIP = "cantrip"
# 002 SFR/TSR Logo (Bronze Medallion): "During any non-magic action, save roll, or non-maneuver avoidance roll,
# counts as a Cantrip that can cast any color spell from the spell lists (basic or racial)"
BRONZE = "sfr-tsr-logo-bronze-medallion"


class Fighting(Protocol):
    """What counting a roll again reads of the fight it is made in (``unit_again``, ``army_again``):
    engine.actions.fight ``Fight`` is one; it sits above this module, a unit's own roll in a fight buying with its
    Cantrip (``bought``)."""

    state: GameState
    ruleset: Ruleset
    out: StepResult
    step: Any


def use(state: GameState, who: Army, dice: Roll, buys: dict[str, MagicStep], simultaneous: bool,
        ruleset: Ruleset, out: StepResult) -> GameState:
    """Resolve the spells ``who``'s Cantrip buys before its roll finishes (the roll then goes on)."""
    return bought(state, who, points(who, dice, ruleset), buys, simultaneous, ruleset, out)


def bought(state: GameState, who: Army, found: list, buys: dict[str, MagicStep], simultaneous: bool,
           ruleset: Ruleset, out: StepResult, key: str | None = None) -> GameState:
    """The spells ``who``'s Cantrip points (``found``: unit, points, of any color) buy, resolved at once: the step's
    ``cantrip.<key>`` (by default ``cantrip.<army>``; a freed unit's own purchase, engine.actions.freed_cantrip)."""
    cite = ruleset.sai_sections.get(CANTRIP, ruleset.cite("sai-resolution"))
    total = sum(n for _, n, _ in found)
    key = key or who.id
    buy = buys.pop(key, None)
    if not total:
        if buy is not None:
            raise StepError(f"{key} rolled no Cantrip in this roll, so cantrip.{key} buys nothing",
                            cite=cite, field="cantrip")
        return state
    if simultaneous:
        if buy is not None:
            raise StepError(f"{who.id} rolls at the same time as another army: a Cantrip is ignored in a "
                            "simultaneous roll", cite=ruleset.cite("sai-resolution"), field="cantrip")
        out.trace.append(TraceEvent(what=f"{who.id}: {total}-point Cantrip ignored", after=0, rule="in a "
                                    "simultaneous roll unique SAIs such as Cantrip do not work",
                                    cite=ruleset.cite("sai-resolution"), kind=NOT_APPLIED))
        return state
    casters = _casters(state, who, found, ruleset)
    out.cantrips[key] = (who, tuple(casters))
    if buy is None:
        out.trace.append(TraceEvent(what=f"{key}: {total} Cantrip point(s) buy nothing", after=0,
                                    rule="Cantrip can be used to purchase spells; the scenario buys none",
                                    cite=cite, defaulted=True))
        return state
    # ``key``: the army's roll, or a unit's own (its purchase is ``cantrip.<unit>``)
    out.trace.append(TraceEvent(what=f"{key}'s roll is suspended: {total} Cantrip point(s) buy spells",
                                after=total, rule="during a non-magic action, save roll or non-maneuver avoidance "
                                "roll, Cantrip purchases spells that are immediately resolved", cite=cite))
    _check_column(buy, ruleset, cite)
    _racial_reading(buy, casters, ruleset, out)
    # paid and resolved as a magic action's spells (engine.actions.magic ``spend``), whose rolls may use a Cantrip
    # not a magic action (002 Glossary, Magic Action): no Backlash
    before = state
    state, _ = hooks.SPEND(state, who, casters, 0, buy, ruleset, out, magic_action=False)
    finalized_untouched(before, state, who.id, ruleset, out)
    out.trace.append(TraceEvent(what=f"{key}'s roll resumes", rule="the roll goes on once the Cantrip's "
                                "spells are resolved", cite=cite))
    return state


def finalized_untouched(before: GameState, state: GameState, rolling: str, ruleset: Ruleset, out: StepResult) -> None:
    """002 Glossary, Finalized Results: "The end-state of a result after all modifications and effects are applied.
    Note: finalized results cannot be changed by any effect." The rolls other armies made earlier in the step (the
    acting army's attack, before the defender's save roll) were finalized before a Cantrip in ``rolling``'s roll cast
    its spells: a modifier those spells put in play that would reach such a roll does not change it, said once where
    a player would expect it (a not-applied line); the rolls made after it count it as usual. Each roll kept in
    ``out.rolls`` is the latest of its army, finalized unless it is ``rolling``'s own, which the roll in progress
    is."""
    cite = ruleset.cites.get("finalized-results")
    new = [e for e in state.effects if e not in before.effects]
    if cite is None or not new:
        return
    for army_id, roll in out.rolls.items():
        if army_id == rolling or not state.has_army(army_id):
            continue
        ctx = roll.ctx.evolve(state=state)
        wanted = roll.ctx.wanted
        for active in active_modifiers(ctx, set(roll.own.counted) | set(roll.joined)):
            results = wanted if active.mod.results == "any" else [t for t in active.mod.results if t in wanted]
            if active.effect not in new or not results:
                continue
            event = not_applied(f"{active.effect.spell} on {active.effect.target} does not change {whose(army_id)} "
                                f"{', '.join(results)} results of this step: they were finalized before it was cast",
                                "finalized results cannot be changed by any effect", cite)
            if event not in out.trace:
                out.trace.append(event)


def _casters(state: GameState, who: Army, found: list, ruleset: Ruleset) -> list[Caster]:
    """Each unit's Cantrip points as a caster of its colors."""
    land = elements(state, None if who.at == "reserve" else state.terrain(who.at), who, ruleset)
    casters = []
    for unit, n, any_color in found:
        colors = COLORS if any_color else unit_aspects(unit, ruleset) or tuple(sorted(land))  # Amazons: the terrain's
        # the Bronze Medallion "can cast any color spell from the spell lists (basic or racial)": its points pay
        # a racial spell as that race's points would (the spell's race must still be in the army, 002 Racial Spells)
        casters.append(Caster(unit.id, unit.race, n, 0, colors, any_race=any_color))
    return casters


def _racial_reading(buy: MagicStep, casters: list[Caster], ruleset: Ruleset, out: StepResult) -> None:
    """Said once where points of any color buy a racial spell: "(basic or racial)" read with 002 Racial Spells."""
    racial = [c.spell.name for c in buy.cast if "basic" not in c.spell.lists]
    if racial and any(c.any_race for c in casters):
        out.trace.append(reading(f"points of any color and race pay the racial spell(s) {', '.join(racial)} as that "
                                 "race's own points would; the spell's race must still be in the army",
                                 # an edition without the Bronze Medallion refuses the step (``Ruleset.cite``)
                                 ruleset.sai_sections.get(BRONZE) or ruleset.cite(BRONZE), ruleset.cite("racial-spells")))


def _check_column(buy: MagicStep, ruleset: Ruleset, cite: str) -> None:
    """An edition that marks the spells a Cantrip may buy (001's 'C' column) refuses the others."""
    unmarked = [c.spell.name for c in buy.cast if ruleset.cantrip_column and not c.spell.cantrip]
    if unmarked:
        raise StepError(f"a Cantrip outside a magic action casts only spells marked in the 'C' column, not "
                        f"{', '.join(unmarked)}", cite=cite, field="cantrip")


def members(dice: Roll | None, who: Army, field: str = "roll") -> None:
    """Before anything in the roll acts, every unit it names is in the army (the scenario is read against its first
    state, where a unit of the player's may join the army in an earlier step, or not): else a located error, not a
    unit silently left out (``still_rolling``)."""
    missing = [u for u, _ in dice.units if who.unit(u) is None] if dice is not None else []
    if missing:
        raise StepError(f"unit {missing[0]} is not in army {who.id} when this step resolves (its units: "
                        f"{', '.join(u.id for u in who.units) or 'none'})", field=field)


def still_rolling(dice: Roll, who: Army, out: StepResult | None = None, ruleset: Ruleset | None = None) -> Roll:
    """The roll of the units still in the army (a Cantrip's Path may have taken one away, an SAI killed one before the
    save roll; ``members`` checked them before). Each unit left out is said once in ``out``'s trace, with why: a
    named unit is never dropped silently (issue 21)."""
    if not dice.per_unit:
        return dice
    gone = [u for u, _ in dice.units if who.unit(u) is None]
    if gone and out is not None and ruleset is not None:
        for unit_id in gone:
            killed = unit_id in out.killed
            event = not_applied(
                f"{unit_id}'s faces are not counted in {whose(who.id)} roll: {unit_id} was "
                f"{'killed' if killed else 'moved out of ' + who.id} earlier in this step",
                "a killed unit is removed from its army to the dead unit area, so it does not roll with the army"
                if killed else "a unit that left the army before its roll does not roll with it",
                ruleset.cite("damage") if killed else ruleset.cite("sai-resolution"))
            if event not in out.trace:
                out.trace.append(event)
    return dice.evolve(units=tuple((u, f) for u, f in dice.units if u not in gone))


def points(who: Army, dice: Roll, ruleset: Ruleset) -> list:
    """(unit, Cantrip points) for each unit that rolled one; an aggregate roll is one race's."""
    if not dice.per_unit:
        points = dict(dice.counts).get(CANTRIP, 0)
        if points and len({u.race for u in who.units}) > 1:
            raise StepError(f"{who.id} mixes races, which cast different colors: give the roll with the Cantrip "
                            "per unit", cite=ruleset.cite("magic"), field="roll")
        return [(who.units[0].evolve(id=who.id), points, False)] if points else []
    found = []
    for unit_id, faces in dice.units:
        unit = who.unit(unit_id)
        # each icon worth what the roll counts it (engine.roll_bounds.face_points: a monster's 4, an item's SAI points)
        n = sum(f.count for f in faces if f.icon == CANTRIP) * face_points(unit, CANTRIP, ruleset)
        bronze = sum(f.count for f in faces if f.icon == BRONZE) * face_points(unit, BRONZE, ruleset)
        if n + bronze and unit is not None:
            found.append((unit, n + bronze, bool(bronze)))
    return found


def rolled(dice: Roll) -> bool:
    """Whether ``dice`` show a Cantrip (or the Bronze Medallion's), aggregate or per unit."""
    icons = (CANTRIP, BRONZE)
    return any(dict(dice.counts).get(i) for i in icons) or any(f.icon in icons for _, fs in dice.units for f in fs)


def may_join(state: GameState, who: Army, step) -> bool:
    """Whether a unit of ``who``'s player that may join its roll (its ``unit_saves``) rolls a Cantrip."""
    return joined_rolls.may_join(state, who, step, rolled)


def waiting(state: GameState, who: Army, dice: Roll, step, ruleset: Ruleset) -> list:
    """``who``'s own Cantrip points when a unit that may join its roll rolls a Cantrip too (``may_join``): the
    army's then waits to combine with it (``joined``); else none."""
    return points(who, dice, ruleset) if may_join(state, who, step) else []


def joined(state: GameState, who: Army, waits: list, joining: dict, buys: dict[str, MagicStep],
           ruleset: Ruleset, out: StepResult, what: str, recount, key: str | None = None,
           simultaneous: bool = False) -> tuple[GameState, bool]:
    """The Cantrips of the units that joined ``who``'s roll (``joining``: their rolls), with the army's own waiting
    one (``waits``), buy the step's ``cantrip.<army>`` spells as one purchase. Readings, traced: a Unique SAI
    suspends the roll when it is rolled (002 Resolution, Unique: "All activity is suspended to resolve the effect of
    this SAI"), here once the unit has joined, before the roll's results are applied; identical SAIs of one roll
    "are resolved simultaneously (i.e. their effects are combined)" (002 Targeting, its example: "The acting player
    does not spend one Cantrip, then the other separately"), Unique SAIs "applied at the same time as Special SAIs
    in any order the player wishes" (002 Resolution): the army's own Cantrip waits for the SAI that brings the unit.
    Returns whether the spells put an effect on the army or its own units (not those joining), or took one away (the roll is then
    counted again: ``counted_again``). An effect on a unit that joined the roll: ``recount(state, unit_id)`` counts
    that unit's own roll again with it (engine.actions.dragon ``_spelled_unit``, ``unit_again``). ``key``: the step's
    ``cantrip`` entry bought (by default the army's; a freed unit's own purchase, engine.actions.freed_cantrip).
    ``simultaneous``: a roll against simultaneous magic, where a Cantrip is ignored (engine.actions.spells)."""
    found = [(who.unit(s.unit), s.points, s.sai == BRONZE) for o in joining.values() for s in o.specials
             if s.effect == CANTRIP]
    where = ruleset.sai_sections.get(CANTRIP, ruleset.cite("sai-resolution"))
    if not found and not waits:
        if who.id in buys:
            raise StepError(f"{who.id} rolled no Cantrip in this roll (nor did a unit brought into it), so "
                            f"cantrip.{who.id} buys nothing", cite=where, field="cantrip")
        return state, False
    if found:
        out.trace.append(reading(f"{', '.join(u.id for u, _, _ in found)}, brought into {who.id}'s {what}, rolled a "
                                 "Cantrip: it suspends the roll then, before its results are applied",
                                 ruleset.cite("sai-resolution"), where))
    if waits:
        theirs = ", ".join(u.id for u, _, _ in found) or "no unit joining it"
        out.trace.append(reading(f"{who.id}'s own Cantrip ({', '.join(u.id for u, _, _ in waits)}) waits for the units "
                                 f"joining its roll: with {theirs}'s it buys the step's spells as one purchase",
                                 ruleset.cite("sai-targeting"), ruleset.cite("sai-resolution")))
    before, units = set(state.effects), {u.id for u in who.units}
    state = bought(state, who, [*waits, *found], buys, simultaneous, ruleset, out, key)
    new = {e.target for e in state.effects if e not in before}
    for unit_id in sorted(new & set(joining)):
        recount(state, unit_id)
    now = {u.id for u in state.army(who.id).units} if state.has_army(who.id) else set()
    return state, bool(waits) or bool(new & {who.id, *(units - set(joining))}) or bool(units - set(joining) - now)


def counted_again(state: GameState, ruleset: Ruleset, who: Army, kind: str, wanted: tuple[str, ...], dice: Roll,
                  out: StepResult, **kwargs):
    """``who``'s own roll (``dice``, the units it had then) counted again in a scratch result, once a Cantrip applied
    after units joined it changed what it counts; the new trace events go to ``out`` (what the effects changed)."""
    from .common import roll

    now = state.army(who.id) if state.has_army(who.id) else who.evolve(units=())
    who = who.evolve(units=tuple(u for u in who.units if now.unit(u.id) is not None))   # a Path took some away
    scratch = StepResult(kind=out.kind, rolls=out.rolls)
    again = roll(state, ruleset, who, kind, wanted, still_rolling(dice, who), scratch, **kwargs)
    kept(out, scratch, who.id, again.results)
    return again, who, scratch


def unit_counted_again(state: GameState, ruleset: Ruleset, who: str, unit_id: str, kind: str, wanted: tuple[str, ...],
                       dice: Roll, out: StepResult, what: str, read: bool = True, **kwargs):
    """The own roll (``dice``) of ``unit_id``, which joined ``who``'s ``what``, counted again in a scratch result once
    a Cantrip's spell put an effect on it (``joined``'s ``recount``). Reading, traced: the Cantrip suspends the roll
    before its results are applied (002 Resolution, Unique: "All activity is suspended to resolve the effect of this
    SAI"). Returns the new outcome and the scratch result, whose events the caller keeps (``kept``)."""
    from .common import roll

    scratch = StepResult(kind=out.kind, rolls=out.rolls)
    again = roll(state, ruleset, state.army(who), kind, wanted, dice, scratch, unit=unit_id, joined=True, **kwargs)
    if read:
        out.trace.append(reading(f"the Cantrip's spell on {unit_id}, which joined {who}'s {what}, acts before the "
                                 f"roll's results are applied: {unit_id}'s own roll is counted again with it",
                                 ruleset.cite("sai-resolution"), ruleset.sai_sections.get(CANTRIP,
                                                                                          ruleset.cite("sai-resolution"))))
    return again, scratch


def kept(out: StepResult, scratch: StepResult, unit_id: str, results: dict[str, int]) -> None:
    """A scratch result's new trace events and used effects go to ``out``, and ``unit_id``'s (or an army's) results
    as counted again."""
    out.trace.extend(e for e in scratch.trace if e not in out.trace)
    out.used.extend(e for e in scratch.used if e not in out.used)
    out.results.setdefault(unit_id, {}).update(results)


def unit_again(fight: Fighting, state: GameState, who: Army, unit_id: str, joined: dict[str, Outcome],
               roll_kind: tuple[str, tuple[str, ...]], read: bool = True, **kwargs) -> None:
    """A Cantrip bought once units joined the roll put an effect on one of them (a Burning Hands): reading, traced,
    as for the army's own roll (``army_again``): the Cantrip suspends the roll before its results are applied (002
    Resolution, Unique: "All activity is suspended to resolve the effect of this SAI"), and the unit's results "are
    counted toward the current roll" (004 Regenerate B, Entangle D), so its own roll is counted again with the
    effect (``unit_recounted``; a charge, engine.actions.charge; units freed from an Entangle,
    engine.actions.freed_cantrip). ``kwargs``: the roll's choices."""
    unit_recounted(state, fight.ruleset, fight.out, who.id, unit_id, joined, roll_kind,
                   dict(fight.step.unit_saves)[unit_id], read, **kwargs)


def unit_recounted(state: GameState, ruleset: Ruleset, out: StepResult, who: str, unit_id: str,
                   joined: dict[str, Outcome], roll_kind: tuple[str, tuple[str, ...]], dice: Roll, read: bool = True,
                   what: str = "", **kwargs) -> None:
    """The own roll (``dice``) of ``unit_id``, which joined ``who``'s roll (``what``, by default ``roll_words``),
    counted again with what now acts on it: its entry in ``joined`` replaced, each result it changed traced (``read``
    False: the caller traced why, not a Cantrip's spell). ``kwargs``: the roll's choices."""
    kind, wanted = roll_kind
    again, scratch = unit_counted_again(state, ruleset, who, unit_id, kind, wanted, dice, out,
                                        what or roll_words(roll_kind), read, **kwargs)
    kept(out, scratch, unit_id, again.results)
    for t in wanted:
        if again.results.get(t, 0) != joined[unit_id].results.get(t, 0):
            out.trace.append(TraceEvent(what=f"{unit_id}: {t} counted again", before=joined[unit_id].results.get(t, 0),
                                        after=again.results.get(t, 0), rule="components brought into an army "
                                        "during a roll have their results applied with their army's",
                                        cite=ruleset.cite("sai-resolution")))
    joined[unit_id] = replace(joined[unit_id], results=again.results)


def army_again(fight: Fighting, rolled: Outcome, who: Army, dice: Roll, roll_kind: tuple[str, tuple[str, ...]],
               read: bool = True, **kwargs) -> Outcome:
    """The army's own roll counted again once the Cantrip applied after units joined it put an effect on it or took
    units away (``army_recounted``). ``kwargs``: the roll's choices (a missile's target terrain); ``read`` False: the
    caller traced why (a Trumpet joining the roll, engine.actions.joined_trumpet)."""
    return army_recounted(fight.state, fight.ruleset, fight.out, rolled, who, dice, roll_kind, read, **kwargs)


def army_recounted(state: GameState, ruleset: Ruleset, out: StepResult, rolled: Outcome, who: Army, dice: Roll,
                   roll_kind: tuple[str, tuple[str, ...]], read: bool = True, **kwargs) -> Outcome:
    """``who``'s own roll (``rolled``, of ``dice``) counted again with what a Cantrip applied after units joined it
    (reading, traced unless ``read`` is False: 000 Special Action Icons: they "take effect before normal action
    icons", and a defending army's cantrip "can buy spells such as Stoneskin to protect itself" in its roll; 002
    Resolution, Unique: "All activity is suspended to resolve the effect of this SAI": the spells act before the
    roll's results are counted, as the army's own Cantrip's do), each result it changed traced."""
    where = ruleset.sai_sections.get(CANTRIP, ruleset.cite("sai-resolution"))
    if read:
        out.trace.append(reading(f"the Cantrip applied once units joined {who.id}'s roll takes effect before its "
                                 f"normal results count: {who.id}'s own roll is counted again with the spells' "
                                 "effects", where, ruleset.cite("sai-resolution")))
    again, _, _ = counted_again(state, ruleset, who, *roll_kind, dice, out, **kwargs)
    for t in roll_kind[1]:
        if again.results.get(t, 0) != rolled.results.get(t, 0):
            out.trace.append(TraceEvent(what=f"{who.id}: {t} counted again", before=rolled.results.get(t, 0),
                                        after=again.results.get(t, 0), rule="special action icons take effect "
                                        "before normal action icons", cite=ruleset.cite("sai-resolution")))
    return replace(rolled, results=again.results)


def roll_words(roll_kind: tuple[str, tuple[str, ...]]) -> str:
    """The roll as the trace names it: "save roll" for a save roll of any kind (a melee's, a missile's), else the
    kind's name ("melee roll")."""
    return "save roll" if roll_kind[1][0] == "save" else f"{roll_kind[0]} roll"
