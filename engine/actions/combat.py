"""Melee and missile actions: attack, special results, saves if and only if normal damage, damage.

002 First March, Melee/Missile; 002 Damage: "If an attack on an army inflicts
any normal damage, the army rolls for saves"; SAIs with a special resolution
(Smite, Stone) are resolved before the army would roll for saves.
"""

from __future__ import annotations

from ..protection import army_shield, shield
from ..ruleset import Ruleset
from ..state import RESERVE, Army, GameState, Terrain
from ..steps import AttackStep, MeleeStep, MissileStep, StepResult
from ..trace import StepError, TraceEvent
from ..damage import kill
from ..roll import Roll, RollContext, active_modifiers
from . import cantrip, sai_states
from .common import (army, casualty_lists, check_action, cut_results, leftover_casualties, roll, take_damage,
                     terrains)


def melee(state: GameState, step: MeleeStep, ruleset: Ruleset, by_spell: bool = False) -> tuple[GameState, StepResult]:
    """A melee action; ``by_spell`` when a spell makes it (Haunt), so no terrain icon is needed."""
    out = StepResult(kind="melee")
    cite = ruleset.cite("melee")
    attacker, defender = army(state, step.army), army(state, step.target, field="target")
    if defender.at != attacker.at or defender.player == attacker.player:
        raise StepError(f"{attacker.id} can only melee another player's army at {attacker.at}; "
                        f"{defender.id} is {'yours' if defender.player == attacker.player else 'at ' + defender.at}",
                        cite=cite, field="target")
    if not by_spell:
        check_action(state, ruleset, attacker, "melee", out)
    casualties, buys = casualty_lists(step.casualties), dict(step.cantrip)
    state = _exchange(state, ruleset, attacker, defender, "melee", step.roll, step.saves, casualties, out, None, "",
                      buys, step)
    defender = state.army(defender.id)
    if step.counter is not None:
        if not defender.units:
            raise StepError(f"{defender.id} has no units left to counter-attack", cite=cite, field="counter")
        out.trace.append(TraceEvent(what=f"{defender.id} counter-attacks {attacker.id}",
                                    rule="surviving defenders may attack back", cite=cite))
        state = _exchange(state, ruleset, defender, state.army(attacker.id), "melee", step.counter,
                          step.counter_saves, casualties, out, None, "counter_", buys)
    leftover_casualties(casualties, ruleset)
    _leftover_buys(buys, ruleset)
    terrains(state, out)
    return state, out


def missile(state: GameState, step: MissileStep, ruleset: Ruleset) -> tuple[GameState, StepResult]:
    out = StepResult(kind="missile")
    attacker, defender = army(state, step.army), army(state, step.target, field="target")
    if defender.player == attacker.player:
        raise StepError(f"{defender.id} is your own army: a missile action targets an enemy army",
                        cite=ruleset.cite("missile"), field="target")
    veil = army_shield(state, ruleset, defender, "missile")
    if veil is not None:
        raise StepError(f"{defender.id} is under {veil.spell}: it cannot be targeted by any missile",
                        cite=ruleset.spell_sections.get(veil.spell, ruleset.cite("missile")), field="target")
    terrain = check_action(state, ruleset, attacker, "missile", out)
    target_terrain = _in_range(state, ruleset, attacker, defender, terrain, out)
    casualties, buys = casualty_lists(step.casualties), dict(step.cantrip)
    state = _exchange(state, ruleset, attacker, defender, "missile", step.roll, step.saves, casualties, out,
                      target_terrain, "", buys, step)
    out.trace.append(TraceEvent(what=f"{defender.id} cannot attack back", rule="unlike melee, the target "
                                "of a missile action cannot counter-attack", cite=ruleset.cite("missile")))
    leftover_casualties(casualties, ruleset)
    _leftover_buys(buys, ruleset)
    terrains(state, out)
    return state, out


def _leftover_buys(buys: dict, ruleset: Ruleset) -> None:
    if buys:
        raise StepError(f"cantrip is given for {', '.join(buys)}, which made no roll its Cantrip could be used in",
                        cite=ruleset.sai_sections.get(cantrip.CANTRIP, ruleset.cite("sai-resolution")),
                        field="cantrip")


def _in_range(state: GameState, ruleset: Ruleset, attacker: Army, defender: Army, here: Terrain,
              out: StepResult) -> Terrain:
    """Same terrain; home terrain to frontier and back; anywhere from a controlled Tower; never a reserve."""
    cite = ruleset.cite("missile")
    if defender.at == RESERVE:
        raise StepError(f"{defender.id} is in a reserve area, which no missile can reach", cite=cite, field="target")
    there = state.terrain(defender.at)
    if here.id == there.id:
        return there
    if here.face == 8 and here.controlled_by == attacker.id and here.eighth == "tower":
        out.trace.append(TraceEvent(what=f"{attacker.id} holds the Tower at {here.id}: any terrain is in range",
                                    rule="missile fire from this army can reach any terrain in play",
                                    cite=ruleset.cite("tower")))
        return there
    if (here.home_of and there.frontier) or (here.frontier and there.home_of):
        return there
    raise StepError(f"{defender.id} at {there.id} is out of range from {here.id}: a missile reaches the same "
                    "terrain, or one terrain away (a home terrain to the frontier, the frontier to a home "
                    "terrain)", cite=cite, field="target")


def _exchange(state: GameState, ruleset: Ruleset, attacker: Army, defender: Army, action: str, attack: Roll,
              saves: Roll | None, casualties: dict[str, list[str]], out: StepResult,
              target_terrain: Terrain | None, prefix: str, buys: dict, step: AttackStep | None = None) -> GameState:
    """One attack and its answer: specials first, then saves if and only if normal damage."""
    state = cantrip.use(state, attacker, attack, buys, False, ruleset, out)
    attacker, defender = state.army(attacker.id), state.army(defender.id)
    attack = cantrip.still_rolling(attack, attacker)
    hit = roll(state, ruleset, attacker, action, (action,), attack, out, target_terrain=target_terrain,
               choices=sai_states.special_choices(step))
    state = sai_states.place_states(state, ruleset, hit.specials, attacker, defender, step, out)
    state, returned = sai_states.attack_specials(state, ruleset, hit, attacker, action, step, out)
    delayed = [s for s in hit.specials if s.effect == "cut-saves"]
    for special in (s for s in hit.specials if s.effect == "army-damage-no-saves"):
        # Smite, Stone: "immediately inflicts one point of damage ...; no saves (including those provided by spells)"
        out.trace.append(TraceEvent(what=f"{special.sai}: {special.points} damage to {defender.id}, no saves",
                                    after=special.points, rule="special SAI results resolve before the "
                                    "defending army rolls for saves", cite=ruleset.sai_sections.get(special.sai, ruleset.cite("sai-resolution"))))
        state = take_damage(state, ruleset, state.army(defender.id), special.points, casualties, out, special.sai,
                            action)
    for sai, points in _combined(hit.specials, "unit-damage-with-saves").items():
        state = _unit_damage(state, ruleset, state.army(defender.id), sai, points, action, step, out)
    normal = max(0, hit.results.get(action, 0) + returned)
    defender = state.army(defender.id)
    cite = ruleset.cite(action)
    if normal <= 0:
        out.trace.append(TraceEvent(what=f"no normal {action} damage: {defender.id} does not roll saves",
                                    after=0, rule="if and only if normal damage is inflicted does the "
                                    "defending army roll to save", cite=cite))
        out.damage.setdefault(defender.id, 0)
        return state
    if not defender.units:
        out.trace.append(TraceEvent(what=f"{defender.id} has no units left to save", rule="damage is taken by "
                                    "the units of the army", cite=ruleset.cite("damage")))
        return state
    if saves is None:
        raise StepError(f"{defender.id} must roll saves against {normal} {action} damage: give "
                        f"{prefix}saves.{defender.id}", cite=cite, field=f"{prefix}saves")
    kind = "save-melee" if action == "melee" else "save-missile"
    state = cantrip.use(state, defender, saves, buys, False, ruleset, out)
    defender = state.army(defender.id)
    if not defender.units:
        out.trace.append(TraceEvent(what=f"{defender.id} has no units left to take the {normal} damage",
                                    rule="damage is taken by the units of the army", cite=ruleset.cite("damage")))
        return state
    answer = roll(state, ruleset, defender, kind, ("save",), cantrip.still_rolling(saves, defender), out,
                  choices=sai_states.special_choices(step))
    state, hypnotized = sai_states.glare(state, ruleset, hit.specials, attacker, defender, answer, saves, out)
    state, added = sai_states.in_saves(state, ruleset, answer, defender, step, out)
    defender = state.army(defender.id)
    for sai, points in _combined(answer.specials, "back-damage").items():
        state = _back_damage(state, ruleset, state.army(attacker.id), sai, points, casualties, out,
                             ruleset.sai_sections.get(sai, ruleset.cite("sai-resolution")), action)
    if action == "melee":
        state = _scorching_touch(state, ruleset, defender, state.army(attacker.id), answer, casualties, out,
                                 counter=bool(prefix))
    saved = sai_states.adjust(cut_results(answer, delayed, defender, "save", ruleset, out), added - hypnotized,
                              defender, out)
    damage = max(0, normal - saved)
    out.trace.append(TraceEvent(what=f"{normal} {action} - {saved} saves: {damage} damage to {defender.id}",
                                before=normal, after=damage, rule="each save negates one point of damage",
                                cite=cite))
    return take_damage(state, ruleset, defender, damage, casualties, out, f"{action} damage", action)


def _combined(specials, effect: str) -> dict[str, int]:
    """Identical SAIs rolled together are resolved as one (002 SAI Targeting: "their effects are combined")."""
    out: dict[str, int] = {}
    for special in specials:
        if special.effect == effect:
            out[special.sai] = out.get(special.sai, 0) + special.points
    return out


def _unit_damage(state: GameState, ruleset: Ruleset, defender: Army, sai: str, points: int, action: str,
                 step: AttackStep | None, out: StepResult) -> GameState:
    """Bullseye-like damage: the attacker spreads the points over units; each target saves alone."""
    cite = ruleset.sai_sections.get(sai, ruleset.cite("sai-resolution"))
    assigned = dict(dict(step.targets).get(sai, ())) if step else {}
    if None in assigned.values():
        raise StepError(f"{sai} spreads its points over units: give targets.{sai} as {{unit id: points}}",
                        cite=cite, field="targets")
    if not assigned:
        first = defender.units[0].id
        assigned = {first: points}
        out.trace.append(TraceEvent(what=f"{sai}: all {points} point(s) on {first}", after=points,
                                    rule="the acting player chooses the target units; none given",
                                    cite=cite, defaulted=True))
    if sum(assigned.values()) != points:
        raise StepError(f"{sai} rolled {points} point(s) but targets assign {sum(assigned.values())}: "
                        f"assign all {points}", cite=cite, field="targets")
    unit_saves = dict(step.unit_saves) if step else {}
    kind = "save-melee" if action == "melee" else "save-missile"
    for uid, damage in assigned.items():
        unit = defender.unit(uid)
        hidden = shield(state, ruleset, uid, action)
        if hidden is not None:
            raise StepError(f"{uid} cannot be the target of a {action} effect while {hidden.spell} is on it",
                            cite=ruleset.spell_sections.get(hidden.spell, cite), field="targets")
        if uid not in unit_saves:
            raise StepError(f"{uid} must roll saves by itself against {damage} {sai} damage: give "
                            f"unit_saves.{uid}", cite=cite, field="unit_saves")
        saved = roll(state, ruleset, defender, kind, ("save",), unit_saves[uid], out, unit=uid).results.get("save", 0)
        killed = damage - saved >= unit.health
        out.trace.append(TraceEvent(what=f"{sai}: {damage} damage - {saved} saves on {uid}: "
                                         f"{'killed' if killed else 'survives'}", before=damage,
                                    after=max(0, damage - saved), rule="a unit taking damage equal to or "
                                    "greater than its health is killed", cite=cite))
        if killed:
            out.killed.append(uid)
            state = kill(state, defender.id, [uid])
    return state


def _scorching_touch(state: GameState, ruleset: Ruleset, defender: Army, attacker: Army, answer,
                     casualties: dict[str, list[str]], out: StepResult, counter: bool) -> GameState:
    """002 Scalders, Scorching Touch: "when rolling for saves during the attack phase of a melee
    action, generate one point of damage for each non-ID save result back against the attacking army".

    Reading (the text is silent on modifiers): the non-ID save results are counted as rolled, before
    any modifier, since "non-ID" sorts results by the icon that made them and modifiers act on the
    army's total, where that distinction no longer exists (002 Dice Modifiers).
    """
    scalders = [u.id for u in defender.units if u.race == "scalder"]
    if not scalders:
        return state
    cite = ruleset.racial_cite("scalder", "Scorching Touch")
    if counter:
        out.trace.append(TraceEvent(what=f"Scorching Touch: {defender.id} saves against a counter-attack: no "
                                         "damage back", rule="only saves rolled during the attack phase of a "
                                         "melee action strike back", cite=cite))
        return state
    if defender.id in answer.non_id:        # an aggregate roll: the army is all Scalders (checked by the roll)
        points = answer.non_id[defender.id]["save"] if len(scalders) == len(defender.units) else None
    else:
        points = sum(answer.non_id.get(uid, {}).get("save", 0) for uid in scalders)
    if points is None:
        raise StepError(f"{defender.id} mixes Scalders with other units: give its save roll per unit, so that "
                        "the Scalders' own non-ID saves can be counted for Scorching Touch", cite=cite, field="saves")
    out.trace.append(TraceEvent(
        what=f"Scorching Touch: the Scalders of {defender.id} rolled {points} non-ID save result(s)", after=points,
        rule="one point of damage back per non-ID save result, counted as rolled, before modifiers (the text "
             f"does not say; see also {ruleset.cite('modifier-order')})", cite=cite))
    return _back_damage(state, ruleset, attacker, "Scorching Touch", points, casualties, out, cite, "melee")


def _back_damage(state: GameState, ruleset: Ruleset, attacker: Army, what: str, points: int,
                 casualties: dict[str, list[str]], out: StepResult, cite: str, action: str) -> GameState:
    """Damage back at the attacker (Counter, Volley, Scorching Touch): "Only magical saves protect"."""
    ctx = RollContext(state=state, army=attacker, kind="save", wanted=("save",), ruleset=ruleset)
    magical = sum(a.amount for a in active_modifiers(ctx, set())
                  if a.mod.op == "add" and a.mod.results != "any" and "save" in a.mod.results)
    damage = max(0, points - magical)
    out.trace.append(TraceEvent(what=f"{what}: {points} damage back at {attacker.id}, {magical} magical save(s)",
                                before=points, after=damage, rule="only saves from spells protect against "
                                "this damage", cite=cite))
    return take_damage(state, ruleset, attacker, damage, casualties, out, what, action)
