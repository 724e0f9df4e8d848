"""Racial abilities that act when units die or are buried, after any step (002 Racial Abilities > The Undead).

- Stepped Damage: "Undead, when killed by any means, may instead be traded in for an Undead unit of lesser
  health from the DUA." The step's ``stepped`` pairs each killed Undead unit with the dead unit that takes its
  place; only units in the DUA before the step are eligible (002 Exchanging Units from the DUA: "at the start
  of the Stepped Damage effect, this rare unit was not located in the DUA").
- Resist Burial: "When sent to the BUA, an Undead unit may resist burial and return to the DUA by rolling a
  non-ID save result." The step's ``resist_burial`` gives each buried Undead unit's roll.

Both are "may": a unit the step does not name is not traded, or does not roll, and the trace says so.

And the Eldarim's (002 Sacrifice Dragonkin): "When an Eldarim unit is killed by an individual-targeting effect,
instead of sending it to the DUA you may instead send a summoned dragonkin unit in the same army of equal health
back to the summoning pool." The step's ``sacrifice`` names each such Eldarim and its dragonkin; an effect is
individual-targeting when the step aims it at the unit (a spell cast on it, an SAI's ``targets``).
"""

from __future__ import annotations

from ..ruleset import Ruleset, StepDown
from ..state import RESERVE, Army, GameState, Unit
from ..steps import Step, StepResult
from ..trace import StepError, TraceEvent, reading
from .own_roll import unit_roll

UNDEAD = "undead"


def stepped_damage(before: GameState, state: GameState, step: Step, ruleset: Ruleset, out: StepResult) -> GameState:
    """Killed units traded for smaller dead units of their race, each to the army the killed unit was in: the
    Undead's Stepped Damage, or a spell on the player's DUA (sfr-v4 Accelerated Growth)."""
    chosen = dict(getattr(step, "stepped", ()))
    if not out.killed and not chosen:
        return state
    for unit_id in list(out.killed):
        home = next((a for a in before.armies if a.unit(unit_id) is not None), None)
        if home is None or not any(u.id == unit_id for u in state.area("dua", home.player).units):
            continue
        # the spell may be on the DUA before the step or be cast during it: 001 Cantrip, "These spells are resolved
        # immediately" (an Accelerated Growth bought in the very roll whose damage kills the unit)
        rule = _step_rule(before, ruleset, home, home.unit(unit_id)) or _step_rule(state, ruleset, home,
                                                                                    home.unit(unit_id))
        if rule is None:
            if unit_id in chosen:
                raise StepError(f"{home.unit(unit_id).label} may not be traded for a dead unit: "
                                f"{_trades(ruleset)}", cite=_trades_cite(ruleset), field="stepped")
            continue
        state = _step_down(before, state, home, unit_id, chosen.pop(unit_id, None), rule, out)
    if chosen:
        raise StepError(f"stepped names {', '.join(chosen)}, which this step did not kill (killed: "
                        f"{', '.join(out.killed) or 'none'})", cite=ruleset.cite("damage"), field="stepped")
    return state


def _trades(ruleset: Ruleset) -> str:
    """The trades of a killed unit this edition has, in its own terms (each edition words its own rules)."""
    trades = ["Stepped Damage is the Undead's"] * bool(ruleset.racial_cite(UNDEAD, "Stepped Damage"))
    trades += [f"{d.name} is the {d.race.title()}'s, while it is on their player's DUA"
               for d in ruleset.spell_step_downs.values()]
    return "; ".join(trades) or "no trade of a killed unit is in these rules"


def _trades_cite(ruleset: Ruleset) -> str:
    """The section of this edition's own trade rule: a spell's (sfr-v4 Accelerated Growth) before a race's ability
    an edition holds only by the sfr-2012 fallback."""
    cites = [d.cite for d in ruleset.spell_step_downs.values()]
    cites.append(ruleset.racial_cite(UNDEAD, "Stepped Damage") or ruleset.cite("damage"))
    return next((c for c in cites if c.startswith(f"{ruleset.edition}:")), cites[-1])


def _step_rule(state: GameState, ruleset: Ruleset, home: Army, killed: Unit) -> StepDown | None:
    """The trade the killed unit may make: its race's ability, or a spell on its player's DUA."""
    cite = ruleset.racial_cite(UNDEAD, "Stepped Damage")
    if killed.race == UNDEAD and cite:
        return StepDown(race=UNDEAD, name="Stepped Damage", cite=cite, rule="undead, when killed by any means, may "
                        "instead be traded in for an Undead unit of lesser health from the DUA")
    for e in state.effects_on(home.player):
        rule = ruleset.spell_step_downs.get(e.spell)
        if rule is not None and rule.race == killed.race and killed.health >= rule.least:
            return rule
    return None


def _step_down(before: GameState, state: GameState, home: Army, unit_id: str, into: str | None, rule: StepDown,
               out: StepResult) -> GameState:
    killed = home.unit(unit_id)
    earlier = {u.id for u in before.area("dua", home.player).units}
    dead = state.area("dua", home.player).units
    fits = [u for u in dead if u.id in earlier and u.race == rule.race and u.health < killed.health
            and rule.health in (None, u.health)]
    if into is None:
        if fits:
            out.trace.append(TraceEvent(what=f"{rule.name}: {unit_id} may be traded for {', '.join(u.id for u in fits)}"
                                             "; the scenario names none, so it is not", rule=rule.rule,
                                        cite=rule.cite, defaulted=True))
        return state
    new = next((u for u in fits if u.id == into), None)
    if new is None:
        size = f"{rule.health} health" if rule.health else "lesser health"
        raise StepError(f"{rule.name}: {unit_id} cannot be traded for {into}; only {rule.race.capitalize()} units of "
                        f"{size} in the DUA when the effect began may take its place: "
                        f"{', '.join(u.id for u in fits) or 'none'}", cite=rule.cite, field="stepped")
    state = state.take_from("dua", home.player, into)
    army = state.army(home.id)
    state = state.with_army(army.evolve(units=(*army.units, new)))
    # the traded unit went to the DUA (it is there, the unit that takes its place came from there): it stays in
    # ``killed``, "the units that went to the DUA" (docs/scenario-format.md), and the unit taking its place is ``moved``
    out.moved.append(into)
    out.trace.append(TraceEvent(what=f"{rule.name}: {killed.label} is traded for {new.label}", before=killed.health,
                                after=new.health, rule=rule.rule + "; only units in the DUA at the start of the exchange "
                                "are eligible", cite=rule.cite))
    return state


def resist_burial(state: GameState, step: Step, ruleset: Ruleset, out: StepResult) -> GameState:
    """Buried Undead units roll: a save that is not an ID icon sends the unit back to the DUA."""
    cite = ruleset.racial_cite(UNDEAD, "Resist Burial")
    rolls = dict(getattr(step, "resist_burial", ()))
    if not out.buried and not rolls:
        return state
    for area in state.bua:
        for unit in [u for u in area.units if u.id in out.buried and u.race == UNDEAD]:
            dice = rolls.pop(unit.id, None)
            if dice is None:
                out.trace.append(TraceEvent(what=f"Resist Burial: {unit.label} may roll to resist burial; the "
                                                 "scenario gives no roll, so it stays buried", rule="may resist burial "
                                            "and return to the DUA by rolling a non-ID save result", cite=cite,
                                            defaulted=True))
                continue
            state = _resist(state, area.player, unit, dice, cite, ruleset, out)
    if rolls:
        raise StepError(f"resist_burial gives rolls for {', '.join(rolls)}, not an Undead unit this step buried",
                        cite=cite, field="resist_burial")
    return state


def _resist(state: GameState, player: str, unit, dice, cite: str, ruleset: Ruleset, out: StepResult) -> GameState:
    alone = Army(id=unit.id, player=player, at=RESERVE, units=(unit,))   # a dead unit is at no terrain
    state, rolled = unit_roll(state, ruleset, alone, unit.id, "avoid-save", ("save",), dice, out)
    saves = rolled.results.get("save", 0)
    faces = [f.icon for _, fs in dice.units for f in fs] or [icon for icon, n in dice.counts if n]
    if faces and all(icon == "id" for icon in faces):
        saves = 0           # "a non-ID save result"
    out.trace.append(TraceEvent(what=f"Resist Burial: {unit.id} rolls {saves} non-ID save(s): "
                                     f"{'returns to the DUA' if saves else 'stays buried'}", after=saves,
                                rule="return to the DUA by rolling a non-ID save result", cite=cite))
    if not saves:
        return state
    out.buried.remove(unit.id)
    return state.take_from("bua", player, unit.id).add_to("dua", player, (unit,))


def sacrifice_kin(before: GameState, state: GameState, step: Step, ruleset: Ruleset, out: StepResult) -> GameState:
    """Each named Eldarim comes back from the DUA to its army; the dragonkin named goes to the summoning pool."""
    chosen = getattr(step, "sacrifice", ())
    if not chosen:
        return state
    cite = ruleset.racial_cite("eldarim", "Sacrifice Dragonkin")
    aimed = _individual_targets(step)
    for eldarim_id, kin_id in chosen:
        home = next((a for a in before.armies if a.unit(eldarim_id) is not None), None)
        eldarim = home.unit(eldarim_id) if home else None
        army = state.army(home.id) if home and state.has_army(home.id) else None
        kin = army.unit(kin_id) if army else None
        if eldarim is None or eldarim.race != "eldarim" or eldarim_id not in out.killed or eldarim_id not in aimed:
            raise StepError(f"Sacrifice Dragonkin: {eldarim_id} is not an Eldarim unit this step killed by an "
                            f"individual-targeting effect (aimed at: {', '.join(sorted(aimed)) or 'none'})",
                            cite=cite, field="sacrifice")
        if kin is None or kin.race != "dragonkin" or kin.health != eldarim.health:
            raise StepError(f"Sacrifice Dragonkin: {kin_id} is not a dragonkin of {eldarim.health} health in "
                            f"{home.id}", cite=cite, field="sacrifice")
        # "killed by an individual-targeting effect": read as an effect aimed at the unit, a spell cast on it or an
        # SAI's points given to it (002 Spell Attributes, Target: a spell that targets an army is not aimed at it)
        out.trace.append(reading(f"{eldarim_id} was killed by an effect aimed at it (a spell cast on it, or an SAI's "
                                 "points given to it): an individual-targeting effect", cite,
                                 ruleset.cite("spell-target")))
        state = state.take_from("dua", home.player, eldarim_id)
        state = state.with_army(army.evolve(units=tuple(eldarim if u.id == kin_id else u for u in army.units)))
        state = state.with_pool(state.pool(home.player).evolve(units=(*state.pool(home.player).units, kin)))
        out.killed.remove(eldarim_id)
        out.trace.append(TraceEvent(what=f"Sacrifice Dragonkin: {eldarim.label} stays in {home.id}; {kin.label} goes "
                                         "back to the summoning pool instead", rule="instead of sending it to the DUA "
                                    "you may instead send a summoned dragonkin unit in the same army of equal health "
                                    "back to the summoning pool", cite=cite))
    return state


def _individual_targets(step: Step) -> set[str]:
    """The units the step aims an effect at: spells cast on them, SAI points given to them (``targets``)."""
    aimed = {c.target for c in getattr(step, "cast", ())}
    aimed |= {unit_id for _, points in getattr(step, "targets", ()) for unit_id, _ in points}
    return aimed
