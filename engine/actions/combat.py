"""Melee and missile actions: attack, special results, saves if and only if normal damage, damage.

002 First March, Melee/Missile; 002 Damage: "If an attack on an army inflicts
any normal damage, the army rolls for saves"; SAIs with a special resolution
(Smite, Stone) are resolved before the army would roll for saves.
"""

from __future__ import annotations

from contextlib import contextmanager

from msgspec.structs import replace

from .. import multiplayer
from ..protection import army_shield
from ..ruleset import Ruleset
from ..sais import combination_kind
from ..state import RESERVE, Army, GameState, Terrain
from ..steps import AttackStep, MeleeStep, MissileStep, StepResult
from ..trace import StepError, TraceEvent, reading
from ..roll import Roll, RollContext, cut_choices, made_rerolls, resolve_roll, split_rerolls
from . import (cantrip, confused_saves, freed_cantrip, freed_sais, freed_saves, joined_rolls, joined_trumpet, routing,
               sai_states, specials, state_sais)
from .fight import Fight
from .reserve_attack import reserve_attack
from .skirmish import back_damage, combined_sais, leftover_buys, read_by_states, with_brought
from .common import (army, casualty_lists, check_action, leftover_casualties, roll, take_damage,
                     terrains)
from .sai_choices import special_choices


# the specials of the units brought into a skirmish roll that have acted with the army's once they joined: their
# moves, Cloak, logo (engine.actions.sai_states) and Cantrip (engine.actions.skirmish ``with_brought``)
ACTED = (*joined_rolls.MERGED, cantrip.CANTRIP)


def check_savers(step: MeleeStep | MissileStep, ruleset: Ruleset) -> None:
    """002 First March, Melee and Missile: "the target army rolls for saves" (and, against a counter-attack, the
    attacking army): a save roll given for any other army is refused, naming the one that rolls."""
    for field_, other in step.other_savers:
        rolls = step.target if field_ == "saves" else step.army
        kind = "melee" if isinstance(step, MeleeStep) else "missile"
        raise StepError(f"only the {'defending' if field_ == 'saves' else 'attacking'} army ({rolls}) rolls saves "
                        f"here, not {other}", cite=ruleset.cite(kind), field=field_)


def melee(state: GameState, step: MeleeStep, ruleset: Ruleset, by_spell: bool = False) -> tuple[GameState, StepResult]:
    """A melee action; ``by_spell`` when a spell makes it (Haunt), so no terrain icon is needed."""
    check_savers(step, ruleset)
    if step.charge:     # tsr-1996's charge, declared instead of a skirmish
        from .charge import charge

        return charge(state, step, ruleset)
    out = StepResult(kind="melee")
    cite = ruleset.cite("melee")
    attacker, defender = army(state, step.army), army(state, step.target, field="target")
    if attacker.at == RESERVE and not by_spell:
        # 002 First March, Actions: "If your army is in the reserve area, however, it may only cast magic" -- said
        # first, so a reserve army's melee is refused for that and not for where its target stands
        check_action(state, ruleset, attacker, "melee", out)
    if defender.at != attacker.at or defender.player == attacker.player:
        raise StepError(f"{attacker.id} can only melee another player's army at {attacker.at}; "
                        f"{defender.id} is {'yours' if defender.player == attacker.player else 'at ' + defender.at}",
                        cite=cite, field="target")
    if not by_spell:
        check_action(state, ruleset, attacker, "melee", out)
    multiplayer.note(state, ruleset, "target", f"{attacker.id} targets {defender.id} ({defender.player}'s)", out)
    casualties, buys = casualty_lists(step.casualties), dict(step.cantrip)
    fight = _exchange(state, ruleset, attacker, defender, "melee", step.roll, step.saves, casualties, out, None, "",
                      buys, step)
    fights = [fight]
    state, defender = fight.state, fight.state.army(defender.id)
    rout = routing.routed(state, ruleset, defender, freed_saves.saves_with_freed(fight, step.saves), out,
                          freed_sais.with_freed(fight, step.roll),
                          chosen=special_choices(step).get("special", {}))
    if step.counter is not None:
        if rout:
            raise StepError(f"{defender.id} was routed: it can't make the usual counter-attack; remove counter",
                            cite=ruleset.cite("routing"), field="counter")
        if fight.no_counter:
            raise StepError(f"{fight.no_counter}: {defender.id} cannot make a counter-attack roll; remove counter",
                            cite=fight.cite(fight.no_counter), field="counter")
        if not defender.units:
            raise StepError(f"{defender.id} has no units left to counter-attack", cite=cite, field="counter")
        if not state.army(attacker.id).units:
            # 002 Melee: the defending army "may attack back": a counter-attack is an attack on the army that attacked
            # it, which its save roll's back damage (Counter, Scorching Touch, a Charge's melee) or a move left with
            # no unit; an army is "all of your units at a single terrain", so there is nothing to attack
            raise StepError(f"{attacker.id} has no units left after {defender.id}'s save roll: there is no army to "
                            "counter-attack; remove counter", cite=cite, field="counter")
        out.trace.append(TraceEvent(what=f"{defender.id} counter-attacks {attacker.id}",
                                    rule="surviving defenders may attack back", cite=cite))
        # a counter-attack is each army's second roll (002 Melee Action: "it may attack back ... This is called
        # a counter-attack"): its results are kept apart so the attack's stay readable in ``results``
        attack_results, out.results = out.results, {}
        attack_for = {who: {t for roll in rolls for t in roll["for"]} for who, rolls in out.every_roll.items()}
        fights.append(_exchange(state, ruleset, defender, state.army(attacker.id), "melee", step.counter,
                                step.counter_saves, casualties, out, None, "counter_", buys, step))
        out.counter, out.results = ({"results": out.results},
                                    _with_counter(attack_results, out.results, attack_for))
        state = fights[-1].state
    state = routing.pursue(state, ruleset, step, rout, out)
    leftover_casualties(casualties, ruleset, out=out)
    specials.leftover_choices(step, fights)
    leftover_buys(buys, ruleset)
    terrains(state, out)
    return state, out


def _with_counter(attack: dict[str, dict[str, int]], counter: dict[str, dict[str, int]],
                  attack_for: dict[str, set[str]]) -> dict:
    """A melee step's ``results``: each army's attack-phase results, and the counter-attack's for the result
    types the army did not roll for in the attack (the counter's own are all in ``counter.results``). A type the
    attack roll only echoed, not rolled for (the attacker's Stoneskin save in its melee roll), gives way to the
    counter-attack's roll for it: the attacker's save against the counter-attack is its save in the step."""
    merged = {who: dict(got) for who, got in attack.items()}
    for who, got in counter.items():
        for kind, count in got.items():
            if kind not in merged.get(who, {}) or kind not in attack_for.get(who, set()):
                merged.setdefault(who, {})[kind] = count
    return merged


def missile(state: GameState, step: MissileStep, ruleset: Ruleset) -> tuple[GameState, StepResult]:
    check_savers(step, ruleset)
    if step.counter is not None:
        # 002 Missile: "Unlike during melee combat, the target army cannot attack back, even if it occupies the same
        # terrain" (000 Missile, 001 Missile Resolution: the action ends with the target's saves and the damage)
        raise StepError(f"{step.target} cannot counter-attack a missile action: "
                        + ruleset.quote("missile-no-counter", "\"the target army cannot attack back, even if it "
                                        "occupies the same terrain\"") + "; remove counter",
                        cite=ruleset.cite("missile"), field="counter")
    out = StepResult(kind="missile")
    attacker, defender = army(state, step.army), army(state, step.target, field="target")
    if defender.player == attacker.player:
        raise StepError(f"{defender.id} is your own army: a missile action targets an enemy army",
                        cite=ruleset.cite("missile"), field="target")
    veil = army_shield(state, ruleset, defender, "missile")
    if veil is not None:
        raise StepError(f"{defender.id} is under {veil.spell}: it cannot be targeted by any missile",
                        cite=ruleset.spell_sections.get(veil.spell, ruleset.cite("missile")), field="target")
    if attacker.at == RESERVE and defender.at == RESERVE:
        # 002 Reserve Movement: "A reserve army can only be attacked by magic" -- also by Amazons firing from a
        # reserve area (002 Amazons, Reserve Attack: "an enemy army at their home terrain or the frontier")
        raise StepError(f"{defender.id} is in a reserve area, which no missile can reach",
                        cite=ruleset.cite("missile"), field="target")
    if attacker.at == RESERVE and defender.at != RESERVE:
        target_terrain = reserve_attack(state, ruleset, attacker, defender, step.roll, out)
    else:
        terrain = check_action(state, ruleset, attacker, "missile", out)
        target_terrain = _in_range(state, ruleset, attacker, defender, terrain, out)
    multiplayer.note(state, ruleset, "target", f"{attacker.id} targets {defender.id} ({defender.player}'s)", out)
    casualties, buys = casualty_lists(step.casualties), dict(step.cantrip)
    fight = _exchange(state, ruleset, attacker, defender, "missile", step.roll, step.saves, casualties, out,
                      target_terrain, "", buys, step)
    state = fight.state
    out.trace.append(TraceEvent(what=f"{defender.id} cannot attack back", rule="unlike melee, the target "
                                "of a missile action cannot counter-attack", cite=ruleset.cite("missile")))
    # 000 Option: Routing: "An army attacked by an enemy army at the same terrain may be forced to run away ... If
    # the new action (regardless of what is indicated) is directed at the routing army or at another army at the
    # same terrain, however, there's a chance for another rout": a missile at the same terrain too
    rout = attacker.at == defender.at != RESERVE and routing.routed(
        state, ruleset, state.army(defender.id), freed_saves.saves_with_freed(fight, step.saves), out,
        freed_sais.with_freed(fight, step.roll), kind="save-missile",
        chosen=special_choices(step).get("special", {}))
    state = routing.pursue(state, ruleset, step, rout, out)
    leftover_casualties(casualties, ruleset, out=out)
    specials.leftover_choices(step, [fight])
    leftover_buys(buys, ruleset)
    terrains(state, out)
    return state, out


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
                                    rule=ruleset.quote("tower", "missile fire from this army can reach any "
                                                       "terrain in play"),
                                    cite=ruleset.cite("tower")))
        if "cannot-precedence" in ruleset.cites and here.home_of and there.home_of and here.home_of != there.home_of:
            # sfr-v4: 003 "Any effects that indicate an army or unit can't do something always takes precedence",
            # and 001 Missile Resolution "You cannot ... attack from one Home Terrain to the other Home Terrain";
            # read with the Tower's "may attack any terrain in play", which between the only three terrains of a
            # two-player game would otherwise add nothing
            out.trace.append(reading(f"the Tower at {here.id} reaches {there.id}, the other Home Terrain: the "
                                     "Tower's 'may attack any terrain in play' is read over 'You cannot ... attack "
                                     "from one Home Terrain to the other Home Terrain' (a rule of the action, not "
                                     "an effect that says an army can't), else it adds no reach in a two-player game",
                                     ruleset.cite("tower"),
                                     f"{ruleset.cite('missile')} and {ruleset.cite('cannot-precedence')}"))
        return there
    if (here.home_of and there.frontier) or (here.frontier and there.home_of):
        return there
    # each edition words the range in its own terms (sfr-v4: 001 Missile Resolution; tsr-1996: 000 Missile)
    raise StepError(f"{defender.id} at {there.id} is out of range from {here.id}: "
                    + ruleset.quote("missile-range", "a missile reaches the same terrain, or one terrain away (a "
                                    "home terrain to the frontier, the frontier to a home terrain)"),
                    cite=cite, field="target")


def _exchange(state: GameState, ruleset: Ruleset, attacker: Army, defender: Army, action: str, attack: Roll,
              saves: Roll | None, casualties: dict[str, list[str]], out: StepResult,
              target_terrain: Terrain | None, prefix: str, buys: dict, step: AttackStep | None = None) -> Fight:
    """One attack and its answer: specials first, then saves if and only if normal damage."""
    cantrip.members(attack, attacker, "counter" if prefix else "roll")
    cantrip.members(saves, defender, f"{prefix}saves")
    fight = Fight(state=state, ruleset=ruleset, attacker=attacker.id, defender=defender.id, action=action,
                  step=step, casualties=casualties, out=out, counter=bool(prefix),
                  may_free=freed_sais.may_join(state, ruleset, attacker, step), buys=buys)
    first = _before_cantrip(fight, attacker, attack, target_terrain)
    waits, own = _cantrip(fight, attacker, attack, buys)
    attack = cantrip.still_rolling(attack, fight.army("attacker"), out, ruleset)
    hit = roll(fight.state, ruleset, fight.army("attacker"), action, (action,), attack, out,
               target_terrain=target_terrain, choices={**fight.choices(), **special_choices(step)})
    fight.rolled, fight.hit = hit.specials, hit
    for uid, got in fight.charmed_waiting.items():      # charmed before the roll was made (``_before_cantrip``)
        out.rolls[attacker.id].join(uid, got)
    fight.charmed_waiting.clear()
    fight.seen |= {s.sai for s in hit.specials} | first
    specials.check_modelled(fight, [s for s in hit.specials if not sai_states.handles(s)])
    specials.resolve(fight, [s for s in hit.specials if s.sai not in first], "special")
    # the state, returning and moving SAIs (engine.actions.sai_states), special results too
    fight.state = state_sais.place_states(fight.state, ruleset, hit.specials, fight.army("attacker"), fight.army(),
                                          freed_sais.first_states(fight, hit.specials), out)
    # the units a Regenerate or Medallion brings in: their moves go with the army's; their Cantrip buys with the
    # army's own, or waits to be one purchase with the freed units'; their other SAIs act after the army's own
    # were resolved, as freed units' do (engine.actions.freed_sais)
    returning: dict = {}
    fight.state, returned = sai_states.attack_specials(fight.state, ruleset, hit, fight.army("attacker"), action,
                                                       step, out, returning, None)
    choices = {**fight.choices(), **special_choices(step)}
    hit = joined_trumpet.together(fight.state, ruleset, out, hit, (fight.army("attacker"), attack), returning,
                                  (action, (action,)), choices, target_terrain=target_terrain)
    hit, others = with_brought(fight, hit, (fight.army("attacker"), attack), returning, (action, (action,)),
                               (None if waits else buys, own), target_terrain=target_terrain, choices=choices)
    fight.state, joined = sai_states.freed_roll(fight.state, ruleset, fight.army("attacker"), step, out, action)
    hit = freed_cantrip.bought(fight, fight.army("attacker"), hit, joined, attack, buys, waits, (action, (action,)),
                               others, target_terrain=target_terrain, choices=choices)
    fight.hit = hit
    loose = freed_sais.freed_specials(fight, hit, joined, joined_rolls.left_over(
        returning, ACTED))
    per_unit = {**hit.per_unit, **{u: r for o in joined.values() for u, r in o.per_unit.items()}}
    moved = sai_states.attack_specials(fight.state, ruleset, replace(hit, specials=loose, per_unit=per_unit),
                                       fight.army("attacker"), action, joined_rolls.untaken(step, out.moved),
                                       out) if loose else (fight.state, 0)
    fight.state, freed = moved
    # the army's own results, less those of its units that moved away; the units that joined the attack roll
    # (returned, freed, charmed) are counted with it through the one pipeline (the army's modifiers)
    summed = hit.results.get(action, 0) + returned + freed
    normal = max(0, joined_rolls.through_pipeline(out, attacker.id, action, summed))
    charmed = _charmed(fight, action)
    if charmed:
        out.trace.append(TraceEvent(what=f"{attacker.id}: {charmed} {action} of the units that joined its "
                                         f"roll (charmed) counted with its own: {normal}", after=normal,
                                    rule="components brought into an army during a roll are rolled immediately and "
                                         "the results applied with the results of their army",
                                    cite=ruleset.cite("sai-resolution")))
    if freed or loose or charmed or normal != max(0, summed):
        out.results.setdefault(attacker.id, {})[action] = normal
    read_by_states(fight)
    normal += _extra(fight, normal)
    _saves(fight, action, normal, saves, prefix, buys, [*hit.specials, *loose])
    specials.resolve(fight, [*hit.specials, *loose], "late")
    fight.left_unpicked()
    return fight


def _cantrip(fight: Fight, who: Army, dice: Roll, buys: dict) -> tuple[bool, list]:
    """``who``'s Cantrip buys its spells before its roll goes on (engine.actions.cantrip ``use``); or, its roll showing
    none and a unit that may be freed into it rolling one, the step's ``cantrip.<army>`` waits for the freed units
    (engine.actions.freed_cantrip); or, a unit a Regenerate (or Ferry) may bring into it rolling one, the army's own
    waits to be one purchase with it (engine.actions.cantrip ``waiting``, engine.actions.skirmish ``with_brought``), as in a dragon attack.
    Returns whether it waits for the freed units, and the army's own waiting points."""
    waits = freed_cantrip.waits(fight, who, dice)
    if not waits and not cantrip.may_join(fight.state, who, fight.step):
        fight.state = cantrip.use(fight.state, who, dice, buys, False, fight.ruleset, fight.out)
    return waits, cantrip.waiting(fight.state, who, dice, fight.step, fight.ruleset)


def _charmed(fight: Fight, action: str) -> int:
    """The ``action`` results of the opposing units a Charm brought into the acting army's roll in progress
    (engine.actions.delayed ``charm``), as they rolled them: counted with the roll's (``through_pipeline``)."""
    rolling = fight.out.rolls.get(fight.attacker)
    if rolling is None or not fight.charmed:
        return 0
    return sum(rolling.joined[u].results.get(action, 0) for u in fight.charmed if u in rolling.joined)


def _before_cantrip(fight: Fight, attacker: Army, attack: Roll, target_terrain: Terrain | None) -> set[str]:
    """The special SAIs the acting player's ``order`` resolves before its Cantrip (which suspends the roll
    before the others are counted); their points are read from the faces as rolled."""
    order = specials.own_order(fight) if fight.step else ()
    if cantrip.CANTRIP not in order or order.index(cantrip.CANTRIP) == 0:
        return set()
    first = set(order[:order.index(cantrip.CANTRIP)])
    ctx = RollContext(state=fight.state, army=attacker, kind=fight.action, wanted=(fight.action,),
                      ruleset=fight.ruleset, target_terrain=target_terrain)
    early = [s for s in resolve_roll(ctx, attack).specials if s.sai in first]
    fight.out.trace.append(TraceEvent(what=f"{', '.join(sorted(first))} resolved before the Cantrip",
                                      rule="unique and special SAIs can be applied in any order the player chooses",
                                      cite=fight.ruleset.cite("sai-resolution")))
    specials.resolve(fight, early, "special")
    return first


def _extra(fight: Fight, rolled: int) -> int:
    """Results special SAIs added to the attack (Charge: maneuvers as melee; charmed units join the roll instead)."""
    added = fight.extra.get(fight.action, 0)
    if added:
        fight.out.trace.append(TraceEvent(what=f"{fight.attacker}: {rolled} + {added} {fight.action} added by "
                                               "special SAIs", before=rolled, after=rolled + added,
                                          rule="results a special SAI adds count with the acting army's results",
                                          cite=fight.ruleset.cite("sai-resolution")))
        fight.out.results.setdefault(fight.attacker, {})[fight.action] = rolled + added
    return added


def _saves(fight: Fight, action: str, normal: int, saves: Roll | None, prefix: str, buys: dict, rolled) -> None:
    """The defending army's saves against the normal damage, the SAIs acting on them, the damage."""
    ruleset, out, cite = fight.ruleset, fight.out, fight.ruleset.cite(action)
    defender = fight.army()
    if saves is not None and (normal <= 0 or not defender.units):
        # 002 First March, Melee/Missile: "If and only if normal damage is inflicted does the defending army roll to
        # save" (002 Damage: the Special SAIs' own damage gets no save roll): a save roll written where the rules
        # roll none is refused, not read as not rolled (a judge's question: which roll was made?)
        why = (f"the {'counter-attack' if prefix else 'attack'} inflicted no normal {action} damage, and "
               + '"' + ruleset.quote(f"{action}-saves", "if and only if normal damage is inflicted does the "
                                     "defending army roll to save") + '"' if normal <= 0 else
               f"it has no units left to roll (the units of the army roll its saves)")
        raise StepError(f"{defender.id} makes no save roll here: {why}; remove {prefix}saves.{defender.id}",
                        cite=cite if normal <= 0 else ruleset.cite("damage"), field=f"{prefix}saves")
    if normal <= 0:
        out.trace.append(TraceEvent(what=f"no normal {action} damage: {defender.id} does not roll saves",
                                    after=0, rule=ruleset.quote(f"{action}-saves", "if and only if normal damage "
                                    "is inflicted does the defending army roll to save"), cite=cite))
        out.damage.setdefault(defender.id, 0)
        return
    if not defender.units:
        out.trace.append(TraceEvent(what=f"{defender.id} has no units left to save", rule="damage is taken by "
                                    "the units of the army", cite=ruleset.cite("damage")))
        return
    if saves is None:
        raise StepError(f"{defender.id} must roll saves against {normal} {action} damage: give "
                        f"{prefix}saves.{defender.id}", cite=cite, field=f"{prefix}saves")
    confused_saves.not_joined_yet(fight)
    rolled_units = {u.id for u in fight.army().units}
    with _in_field(f"{prefix}saves"):
        saves = _delayed(fight, saves)
    waits, own = _cantrip(fight, fight.army(), saves, buys)
    defender = fight.army()
    if not defender.units:
        out.trace.append(TraceEvent(what=f"{defender.id} has no units left to take the {normal} damage",
                                    rule="damage is taken by the units of the army", cite=ruleset.cite("damage")))
        return
    dice = cantrip.still_rolling(saves, defender, out, ruleset)
    # the attack's Screech, Howl, Wave: subtracted in the save roll's pipeline, before its multipliers
    delayed = [s for s in rolled if not sai_states.handles(s) and specials.EFFECTS[s.effect].phase == "finalize"]
    fight.cuts = cut_choices(defender.id, [(s.sai, "save", s.points) for s in delayed])
    with _in_field(f"{prefix}saves"):
        answer = _save_roll(fight, dice)
    fight.state, hypnotized = state_sais.glare(fight.state, ruleset, rolled, fight.army("attacker"), defender, answer,
                                               saves, out)
    # the units its Regenerate (or Ferry) brings roll in it, as the army does (a save roll against this action), their
    # Cantrip buying with the army's own (or waiting), their other SAIs (Counter, Bash) acting with the army's own
    brought: dict = {}
    fight.state, added = sai_states.in_saves(fight.state, ruleset, answer, defender, fight.step, out, brought,
                                             _answer_kind(fight)[0], None)
    choices = {**fight.choices(), **special_choices(fight.step)}
    fight.returned_saves = tuple(brought)
    answer = joined_trumpet.together(fight.state, ruleset, out, answer, (defender, dice), brought, _answer_kind(fight),
                                     choices)
    answer, others = with_brought(fight, answer, (defender, dice), brought, _answer_kind(fight),
                                  (None if waits else buys, own), choices=choices)
    _strike_back(fight, _with_brought_sais(answer, brought), fight.army())
    # its Cantrip's spells or its Counter killed an Entangling monster: the units it held roll in the save roll
    answer = freed_saves.freed_saves(fight, answer, dice, buys, waits, _answer_kind(fight), others)
    fight.answer = answer
    confused_saves.joined_after(fight, rolled_units)
    bashed = _bashed(fight)
    saved = sai_states.adjust(answer.results.get("save", 0) + bashed, added - hypnotized, fight.army(), out)
    if bashed:
        # 002 Bash: "The defending army gets saves equal to the amount of damage that the target unit generated":
        # they are the army's save results, so the step reports them (``results`` is the roll as finalized)
        out.results.setdefault(defender.id, {})["save"] = saved
    read_by_states(fight)
    damage = max(0, normal - saved)
    out.trace.append(TraceEvent(what=f"{normal} {action} - {saved} saves: {damage} damage to {defender.id}",
                                before=normal, after=damage,
                                rule=ruleset.quote(f"{action}-damage", "each save negates one point of damage"), cite=cite))
    fight.state = take_damage(fight.state, ruleset, fight.army(), damage, fight.casualties, out,
                              f"{action} damage", action)


def _with_brought_sais(answer, brought: dict):
    """The save roll with the specials of the units its Regenerate (or Medallion, tsr-1996 Ferry) brought into it
    that act on the attacker (Counter, Bash): 002 Resolution, they "are rolled immediately and the results applied
    with the results of their army", so they were rolled with the army's own, whose effects they combine with (002
    Targeting); their moves, Cloak and Cantrip have acted already (engine.actions.sai_states ``in_roll``,
    engine.actions.cantrip ``with_brought``)."""
    rest = [s for o in joined_rolls.left_over(brought, ACTED).values() for s in o.specials]
    return replace(answer, specials=[*answer.specials, *rest]) if rest else answer


def _strike_back(fight: Fight, answer, defender: Army) -> None:
    """What the defending army's save roll does to the attacker at once: its special SAIs (Bash), the melee
    of its combination roll under Charge, Counter and Volley, the Scalders' Scorching Touch."""
    ruleset, out, action = fight.ruleset, fight.out, fight.action
    fight.seen |= {s.sai for s in answer.specials}
    specials.resolve(fight, answer.specials, "save")
    if fight.charge:
        fight.state = back_damage(fight.state, ruleset, fight.army("attacker"), "charge",
                                   answer.results.get("melee", 0), fight.casualties, out, fight.cite("charge"), action)
    for sai, points in combined_sais(answer.specials, "back-damage").items():
        fight.state = back_damage(fight.state, ruleset, fight.army("attacker"), sai, points, fight.casualties, out,
                                   fight.cite(sai), action)
    if action == "melee":
        fight.state = _scorching_touch(fight.state, ruleset, defender, fight.army("attacker"), answer,
                                       fight.casualties, out, counter=fight.counter)


def _bashed(fight: Fight) -> int:
    gained = fight.extra.get("save", 0)
    if gained:
        fight.out.trace.append(TraceEvent(what=f"{fight.defender}: + {gained} save(s) from Bash", after=gained,
                                          rule="the defending army gets saves equal to the damage the target unit "
                                          "generated", cite=fight.cite("bash")))
    return gained


def _delayed(fight: Fight, saves: Roll) -> Roll:
    """The defending army has rolled: Delayed SAIs of the attack act on the faces it shows before it applies
    any unique or special SAI (002 SAI Resolution, Delayed: a Decapitate is resolved "before the defending
    army resolves this Cantrip"); the roll goes on without the units they killed, with the units they made
    roll again showing their new faces."""
    charmed = [u for u, _ in saves.units if u in fight.charmed]
    if charmed:
        raise StepError(f"{', '.join(charmed)} are charmed: their results go to {fight.attacker} until the "
                        f"defender's save roll is made, so they do not roll saves", cite=fight.cite("charm"),
                        field="saves")
    kind, wanted = _answer_kind(fight)
    ctx = RollContext(state=fight.state, army=fight.army(), kind=kind, wanted=wanted, ruleset=fight.ruleset)
    # the Flashfire rerolls the spells in play allow are made now, with the Instant rerolls, and traced where they
    # happen (before any Delayed SAI acts); those that wait for a Flashfire this roll's Cantrip casts are not made yet
    saves = made_rerolls(ctx, saves, fight.out.trace)
    _, waiting = split_rerolls(ctx, saves)
    fight.saves = _before_rerolls(saves, waiting)
    specials.resolve(fight, fight.rolled, "delayed")
    return _after_rerolls(fight, saves, waiting)


def _before_rerolls(saves: Roll, waiting: tuple) -> Roll:
    """``saves`` as it shows before the ``waiting`` Flashfire rerolls are made: each such unit shows the face the
    reroll replaces, after the rolls before it (``Roll``: the faces stand as ``before`` faces, then the new ones)."""
    if not waiting:
        return saves
    faces = dict(saves.units)
    for unit_id, ignored, before in waiting:
        faces[unit_id] = (*faces[unit_id][:before], *ignored)
    return saves.evolve(units=tuple(faces.items()))


def _after_rerolls(fight: Fight, saves: Roll, waiting: tuple) -> Roll:
    """The roll once the Delayed SAIs acted, its ``waiting`` Flashfire rerolls made again on the units still in it:
    they are counted with the roll after the Cantrip, through the one pipeline (engine.roll checks each against the
    Flashfires then in play). A unit a Delayed SAI killed before them is not rolled again: 002's Decapitate example,
    the Decapitate "is resolved" before the Cantrip that would cast the Flashfire."""
    if not waiting:
        return fight.saves
    shown, written = dict(fight.saves.units), dict(saves.units)
    for unit_id, ignored, _ in waiting:
        if unit_id not in shown:
            raise StepError(f"{unit_id}'s roll marks a Flashfire reroll that only a Flashfire cast by "
                            f"{fight.defender}'s Cantrip could allow, but a Delayed SAI of the attack took {unit_id} "
                            f"out of the roll ({fight.out.gone(unit_id) or 'removed'}) before that Cantrip was "
                            "resolved, as 002's Decapitate example says: it is not rolled again; remove its flashfire",
                            cite=fight.ruleset.cite("sai-resolution"), field="saves")
        shown[unit_id] = written[unit_id]
    return fight.saves.evolve(units=tuple(shown.items()))


@contextmanager
def _in_field(name: str):
    """The defender's save roll is written in ``saves`` (``counter_saves``): a refusal of its faces (engine.roll
    says ``roll``, the field of an army's own roll; a Flashfire reroll marked there, 002 Flashfire) names the field
    where the faces were written."""
    try:
        yield
    except StepError as exc:
        if exc.field == "roll":
            exc.field = name
        raise


def _save_roll(fight: Fight, saves: Roll):
    """The defending army's save roll (Charge: a combination melee/save roll)."""
    kind, wanted = _answer_kind(fight)
    fight.answer = roll(fight.state, fight.ruleset, fight.army(), kind, wanted, saves, fight.out,
                        choices={**fight.choices(), **special_choices(fight.step)})
    return fight.answer


def _answer_kind(fight: Fight) -> tuple[str, tuple[str, ...]]:
    """The kind of the defending army's save roll and the results it is rolled for."""
    kind = "save-melee" if fight.action == "melee" else "save-missile"
    wanted = ("save", "melee") if fight.charge else ("save",)
    return (combination_kind(("melee", "save")) if fight.charge else kind), wanted


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
    # the roll as it finalizes: Scalders brought into it (a Regenerate) rolled for saves in it too, and those an SAI
    # moved away have no results counted in it (002 SAI Resolution: "results applied with the results of their army";
    # "does not have its results counted in the army total")
    rolling = out.rolls.get(defender.id)
    joined = {u: o for u, o in (rolling.joined.items() if rolling is not None else ())
              if o.races.get(u) == "scalder"}
    left = set(rolling.still_left()) if rolling is not None else set()
    if defender.id in answer.non_id:        # an aggregate roll: the army is all Scalders (checked by the roll)
        points = answer.non_id[defender.id]["save"] if len(scalders) == len(defender.units) else None
    else:
        points = sum(answer.non_id.get(uid, {}).get("save", 0) for uid in scalders
                     if uid not in left and uid not in joined)
    if points is None:
        raise StepError(f"{defender.id} mixes Scalders with other units: give its save roll per unit, so that "
                        "the Scalders' own non-ID saves can be counted for Scorching Touch", cite=cite, field="saves")
    points += sum(o.non_id.get(uid, {}).get("save", 0) for uid, o in joined.items() if uid not in left)
    out.trace.append(reading(f"Scorching Touch: the Scalders of {defender.id} rolled {points} non-ID save result(s), "
                             "counted as rolled, before modifiers (the text does not say)", cite,
                             ruleset.cite("modifier-order")).evolve(after=points))
    return back_damage(state, ruleset, attacker, "Scorching Touch", points, casualties, out, cite, "melee")
