"""What SAIs do once a step has resolved (engine.resolve runs these after every step): effects that end with
the unit whose SAI made them (Entangle, Hypnotic Glare), Hypnotic Glare ending when its glaring unit is rolled,
and Rise from the Ashes, whose Conditional roll follows a kill or a burial."""

from __future__ import annotations

from ..moves import reserve_army
from ..roll import Roll
from ..ruleset import Ruleset
from ..state import GameState, Unit
from ..steps import StepResult
from ..trace import StepError, TraceEvent, reading
from . import hooks
from .sai_choices import sai_cite
from .sai_states import RISE


def sources_gone(state: GameState, ruleset: Ruleset, out: StepResult) -> GameState:
    """Entangle: "Killing the entangling unit negates the effect"; Hypnotic Glare: it "ends immediately for all
    units if the glaring unit leaves the current terrain, is killed", and for a unit "if the hypnotized unit
    leaves the terrain"."""
    if not any(e.source for e in state.effects):
        return state
    from ..expiry import expire

    where = {u.id: a.at for a in state.armies for u in a.units}
    for e in state.effects:
        rule = ruleset.sai_states.get(e.spell)
        if rule is None or rule.bound is None or e.source is None:
            continue
        if e.source not in where:
            why = f"{e.source}, whose {e.spell} made it, was killed or left play"
        elif rule.bound == "present" and where.get(e.target) != where[e.source]:
            why = f"{e.target} and the glaring unit {e.source} are no longer at one terrain"
        else:
            continue
        state = expire(state, [e], why, "the effect ends with the unit whose SAI made it", ruleset, out)
    return state


def glarers_rolled(before: GameState, state: GameState, step, ruleset: Ruleset, out: StepResult) -> GameState:
    """002 Hypnotic Glare: the effect "ends immediately for all units if the glaring unit ... is rolled (The
    glaring unit may be excluded from any roll while glaring)": a unit glaring before the step (not the roll
    that made the glare) in any of the step's rolls."""
    glaring = {e.source for e in before.effects if e.spell == "hypnotic-glare" and e.source}
    if not glaring:
        return state
    from ..expiry import expire

    rolled = glaring & _rolled_units(step)
    gone = [e for e in state.effects if e.spell == "hypnotic-glare" and e.source in rolled and e in before.effects]
    return expire(state, gone, f"the glaring unit {', '.join(sorted(rolled))} was rolled", "the effect ends for all "
                  "units if the glaring unit is rolled", ruleset, out) if gone else state


def _rolled_units(value) -> set[str]:
    """The units named in every roll a step holds (its roll, saves, counter-attack, unit rolls ...)."""
    if isinstance(value, Roll):
        return {uid for uid, _ in value.units}
    if isinstance(value, tuple):
        return set().union(set(), *(_rolled_units(v) for v in value))
    if hasattr(value, "__struct_fields__"):
        return set().union(set(), *(_rolled_units(getattr(value, f)) for f in value.__struct_fields__))
    return set()


@hooks.RISE_FROM_THE_ASHES.fill
def rise_from_the_ashes(state: GameState, ruleset: Ruleset, unit: Unit, player: str, dice: Roll | None, how: str,
                        out: StepResult, area: str) -> tuple[GameState, bool]:
    """002 Rise from the Ashes (Conditional): "Whenever a unit with this icon is killed or buried, immediately
    roll the unit; if and only if this icon is rolled the monster immediately goes to your reserve area."
    ``area``: where the unit is now ("dua" after a kill; "dua" before a burial it escapes)."""
    cite = sai_cite(ruleset, RISE)
    if dice is None:
        raise StepError(f"{unit.id} ({unit.name}) bears Rise from the Ashes and is {how}: give its roll "
                        f"(ashes.{unit.id}, or its avoidance roll against the burial)", cite=cite, field="ashes")
    faces = [f.icon for _, fs in dice.units for f in fs] or [icon for icon, _ in dice.counts]
    rose = RISE in faces
    rolled = (f"{unit.id} ({how}) rolls {', '.join(faces) or 'nothing'}: "
              f"{'it rises to the reserve area' if rose else 'the icon did not come up'}")
    if how == "killed and buried":      # "killed or buried": one roll for the one event (the caller's reading)
        out.trace.append(reading(f"{rolled}; killed and buried by one effect, it rolls once", cite,
                                 ruleset.cite("buried-term")))
    else:
        out.trace.append(TraceEvent(what=rolled, rule="a Conditional SAI works in the DUA: only if its icon comes up",
                                    cite=cite))
    if not rose:
        return state, False
    state = state.take_from(area, player, unit.id)
    state, reserve = reserve_army(state, player, ruleset, out)
    state = state.with_army(state.army(reserve.id).evolve(units=(*state.army(reserve.id).units, unit)))
    out.moved.append(unit.id)
    # "if and only if this icon is rolled the monster immediately goes to your reserve area", read with the
    # Conditional example of 002 Resolution, which says only "avoiding being buried"
    # the Conditional example is 002's whatever the edition (its words are quoted, so its section is cited)
    out.trace.append(reading(f"{unit.label} goes to {player}'s reserve area, as the SAI List says (the Conditional "
                             "example says only 'avoiding being buried')", cite,
                             "sfr-2012:special-action-icons-general-information.resolution"))
    return state, True


def bears(ruleset: Ruleset, unit: Unit) -> bool:
    return ruleset.conditional_units.get((unit.name or "").lower()) == RISE


def after_kills(state: GameState, ruleset: Ruleset, rolls: dict[str, Roll] | None, out: StepResult) -> GameState:
    """Killed units whose die bears Rise from the Ashes (or for which the step gives an ``ashes`` roll) roll it;
    ``rolls`` None: a kind of step with no ``ashes`` field (a dragon attack ...), where it is not replayed."""
    if not out.killed and not rolls:
        return state
    if rolls is None:
        dead = [u for a in (*state.dua, *state.bua) for u in a.units if u.id in out.killed and bears(ruleset, u)]
        for unit in dead:
            out.trace.append(TraceEvent(what=f"{unit.id}: its Rise from the Ashes roll is not replayed in this kind of "
                                             "step", rule="whenever a unit with this icon is killed, immediately roll "
                                             "the unit", cite=sai_cite(ruleset, RISE), defaulted=True))
        return state
    for unit_id in list(out.killed):
        where, how = "dua", "killed"
        area = next((a for a in state.dua if any(u.id == unit_id for u in a.units)), None)
        if area is None and unit_id in out.buried:
            # killed and buried in this step (Flame, Swallow, a failed burial roll ...): "Whenever a unit with this
            # icon is killed or buried, immediately roll the unit" -- read: one roll for the one event, from the BUA
            where, how = "bua", "killed and buried"
            area = next((a for a in state.bua if any(u.id == unit_id for u in a.units)), None)
        unit = next((u for u in area.units if u.id == unit_id), None) if area else None
        if unit is None or not (bears(ruleset, unit) or unit_id in rolls):
            continue
        state, _ = rise_from_the_ashes(state, ruleset, unit, area.player, rolls.pop(unit_id, None), how, out,
                                       where)
    if rolls:
        raise StepError(f"ashes rolls given for {', '.join(rolls)}, which were not killed in this step",
                        cite=sai_cite(ruleset, RISE), field="ashes")
    return state
