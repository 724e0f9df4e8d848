"""Special SAIs that strike chosen units of the defending army before it saves (002 SAI List, with the
targets and fates of engine.sai_attacks): damage a unit saves against alone (Kick, Gore, Hug, Coil,
Flaming Arrow), a roll a unit must make "individually or be killed" (Slay, Swallow, Poison, Convert, Crush,
Stomp, Smother, Firecloud, Seize, Scare, Plague), units killed or sent fleeing with no save (Flame,
Firebreath, Roar, the dragonkin Breaths, Sneak Attack).

002 SAI Targeting: an offensive SAI whose owner selects the units "may select less than "x" health worth,
but at least 1-health worth must be selected"; where the opponent selects them, "as many health as
possible must be selected ... the same as applying damage".
"""

from __future__ import annotations

from ..chosen import read as chosen_read

from .. import dragonkin
from ..damage import choose, default_casualties
from ..protection import exposed, shield
from ..roll import Roll, Special, check_rerolls
from ..ruleset import Ruleset
from ..state import Unit
from ..sai_attacks import ATTACK_SAIS, AttackSai
from ..sais import combination_kind
from ..trace import StepError, TraceEvent, reading, told
from ..moves import reserve_army, transfer
from .common import casualties_destination, named_for
from .fight import Fight

TARGETING = "sai-targeting"
AS_ROLLED = "sai-points-as-rolled"      # the edition reads an SAI's "four points" as its points as rolled
# SAIs whose text does not say who picks the units killed: read as damage, which the owner takes
OWNER_BY_READING = ("firebreath",)


def attack_rule(fight: Fight, sai: str) -> AttackSai:
    """The SAI's targets and fate under the fight's edition: its own record where its text differs from 002's."""
    return fight.ruleset.attack_sais.get(sai) or ATTACK_SAIS[sai]


def rolled_id(dice: Roll, unit: Unit | None = None, ruleset: Ruleset | None = None) -> bool:
    """Whether a unit's own roll shows its ID icon (the last face, after any reroll). 002 Avoidance Rolls: "the ID
    icon must be the final result of the roll. Note: Group Monsters would not be able to avoid the effect ...
    because the immediate rerolling effect of a Group Monster causes the ID icon to never be the final result"
    (002 Monsters, Group Monsters: "reroll the monster and apply the new result as well"): a group monster's roll
    (``unit``) ending on its ID is an unfinished chain, refused asking for the next face (engine.roll
    ``check_rerolls``), and its aggregate form, which cannot show that face, is refused."""
    if unit is not None and ruleset is not None and unit.group_monster:
        if not dice.per_unit and dict(dice.counts).get("id", 0):
            raise StepError(f"{unit.id} is a group monster: its ID icon rerolls it at once and is never the final "
                            f"result: give the roll per unit, every face in order ({unit.id}: [id, <next face>])",
                            cite=ruleset.cite("group-monsters"), field="unit_saves")
        for _, faces in dice.units:
            if faces:
                check_rerolls(unit, faces, ruleset, "avoidance")
    if dice.per_unit:
        return any(faces and faces[-1].icon == "id" for _, faces in dice.units)
    return dict(dice.counts).get("id", 0) > 0


def _limit(rule: AttackSai, specials: list[Special]) -> int:
    """The health-worth an SAI may target: its points, or the fixed number per face the text gives."""
    return rule.per_face * len(specials) if rule.per_face else sum(s.points for s in specials)


def defending_unit(fight: Fight, sai: str, uid: str, army_id: str | None = None) -> None:
    """The unit is one the SAI may target: in the defending army (or ``army_id``), a unit, not shielded."""
    defender, cite = fight.state.army(army_id or fight.defender), fight.cite(sai)
    if defender.unit(uid) is None:
        why = fight.out.gone(uid)
        raise StepError(f"{sai} targets units of {defender.id}: unit {uid} is not in army {defender.id} when "
                        f"this step resolves{' (' + why + ')' if why else ''}; its units: "
                        f"{', '.join(u.id for u in defender.units) or 'none'}", cite=cite, field="targets")
    if defender.unit(uid).item:
        raise StepError(f"{sai} targets units; {uid} is a magical item, which is not a unit",
                        cite=fight.ruleset.cite("magic-items"), field="targets")
    hidden = shield(fight.state, fight.ruleset, uid, fight.action)
    if hidden is not None:
        raise StepError(f"{uid} cannot be the target of a {fight.action} effect while {hidden.spell} is on it",
                        cite=fight.ruleset.spell_sections.get(hidden.spell, cite), field="targets")


def chosen(fight: Fight, sai: str, specials: list[Special], among: list[str] | None = None,
           army_id: str | None = None) -> list[str]:
    """The units a ``one-unit`` or ``worth`` SAI targets in the defending army (or ``army_id``): the step's
    ``targets`` list, checked, or the default (the smallest units first, as for casualties; ``defaulted``)."""
    rule, cite = attack_rule(fight, sai), fight.cite(sai)
    defender = fight.state.army(army_id or fight.defender)
    pool = [u for u in defender.units if (among is None or u.id in among) and not u.item
            and shield(fight.state, fight.ruleset, u.id, fight.action) is None
            and (rule.max_health is None or u.health <= rule.max_health) and u.id not in fight.taken.get(sai, ())]
    limit = len(specials) if rule.pick == "one-unit" else _limit(rule, specials)
    if rule.pick == "worth":
        _trace_limit(fight, sai, rule, specials, limit)
    named = fight.targets(sai)
    if named is None:
        ids = [pool[0].id] if rule.pick == "one-unit" and pool else list(default_casualties(pool, limit))
        fight.out.trace.append(TraceEvent(what=f"{sai}: targets {', '.join(ids) or 'no unit'}", after=len(ids),
                                          rule="the acting player chooses the target units; none given, so the "
                                          "smallest units first", cite=cite, defaulted=True))
        fight.take(sai, ids)
        return ids
    ids = fight.first_of(sai, [uid for uid, _ in named], _fit(rule, defender, [uid for uid, _ in named], limit),
                         f"targets one unit per face rolled ({limit})" if rule.pick == "one-unit" else
                         f"targets up to {limit} health-worth")
    for uid in ids:
        defending_unit(fight, sai, uid, defender.id)
    legal = ", ".join(u.id for u in pool)
    if among is not None and any(uid not in among for uid in ids):
        raise StepError(f"{sai} targets units that rolled an ID icon; of {defender.id} those are: {legal or 'none'}",
                        cite=cite, field="targets")
    if rule.max_health is not None and any(defender.unit(uid).health > rule.max_health for uid in ids):
        raise StepError(f"{sai} targets a unit of {rule.max_health} health or less: choose from {legal or 'none'}",
                        cite=cite, field="targets")
    if rule.pick == "one-unit" and len(ids) > limit:
        raise StepError(f"{sai} targets one unit per face rolled ({limit}); {len(ids)} named: choose from {legal}",
                        cite=cite, field="targets")
    worth = sum(defender.unit(uid).health for uid in ids)
    if rule.pick == "worth" and worth > limit:
        # the units that can be among the picks: none larger than the health-worth the SAI may take (002 SAI List,
        # e.g. Convert: "choose one health-worth of units ... per Convert icon generated")
        fitting = ", ".join(u.id for u in pool if u.health <= limit)
        raise StepError(f"{sai} targets up to {limit} health-worth; {told(ids)} are {worth}: choose among "
                        f"{fitting or 'none'}", cite=cite, field="targets")
    if not ids or len(set(ids)) != len(ids):
        raise StepError(f"{sai} must target at least one unit, each once (an offensive SAI selects at least "
                        f"1-health worth): choose among {legal}", cite=fight.ruleset.cite(TARGETING), field="targets")
    fight.take(sai, ids)
    return ids


def _fit(rule: AttackSai, defender, ids: list[str], limit: int) -> int:
    """How many of the units named first the SAI's pick holds: one per face, or up to its health-worth."""
    if rule.pick == "one-unit":
        return limit
    worth = 0
    for n, uid in enumerate(ids):
        unit = defender.unit(uid)
        if unit is None or worth + unit.health > limit:
            return n
        worth += unit.health
    return len(ids)


def _trace_limit(fight: Fight, sai: str, rule: AttackSai, specials: list[Special], limit: int) -> None:
    """The health-worth an SAI may pick, and the reading behind it (engine.sai_attacks)."""
    what = f"{sai}: up to {limit} health-worth ({len(specials)} face(s))"
    read_with = fight.ruleset.cites.get(AS_ROLLED)
    if rule.per_face or f"{sai}:targets" in fight.ruleset.sai_words or read_with is None:
        how = f"{rule.per_face} per face, as its text fixes" if rule.per_face else "its points as rolled"
        words, where = fight.ruleset.words(f"{sai}:targets", f"the health-worth it picks is {how}", fight.cite(sai))
        fight.out.trace.append(TraceEvent(what=what, after=limit, rule=words, cite=where))
        return
    # 002 SAI List: "up to four health-worth" read as the SAI's points as rolled
    fight.out.trace.append(reading(f"{what}: the health-worth it picks is its points as rolled, the text's number "
                                   "being the four results of a ten-sided die (three on a rare item), and identical "
                                   "SAIs combined add theirs", fight.cite(sai), read_with).evolve(after=limit))


def test(fight: Fight, sai: str, specials: list[Special]) -> None:
    """Each target must roll a result by itself (``unit_saves``) or meet the SAI's fate."""
    killed = 0
    for uid in chosen(fight, sai, specials):
        health = fight.army().unit(uid).health
        if not _test_unit(fight, sai, uid) and uid in fight.out.killed:
            killed += health
    if attack_rule(fight, sai).rise:
        _rise(fight, sai, killed)


def _rise(fight: Fight, sai: str, killed: int) -> None:
    """Convert: "The acting player may return Undead units from the dead unit area to the acting army up to
    the amount of health killed" (the step's ``rise``; none when not given, marked ``defaulted``)."""
    cite, attacker = fight.cite(sai), fight.army("attacker")
    dua = fight.state.area("dua", attacker.player)
    undead = [u for u in dua.units if u.race == "undead"]
    named = fight.step.rise if fight.step is not None and not fight.counter else None
    for unit_id in named or ():
        chosen_read("rise", unit_id)
    if named is None:
        fight.out.trace.append(TraceEvent(what=f"{sai}: no Undead return ({killed} health killed)", after=0,
                                          rule="the acting player may return Undead units from the DUA up to the "
                                          "health killed; none named in rise", cite=cite, defaulted=True))
        return
    legal = ", ".join(f"{u.id} ({u.health})" for u in undead) or "none"
    picked = [next((u for u in undead if u.id == uid), None) for uid in named]
    if None in picked or sum(u.health for u in picked) > killed or len(set(named)) != len(named):
        raise StepError(f"{sai} returns Undead units from {attacker.player}'s DUA up to the {killed} health it killed; "
                        f"named {told(named)}, its Undead there: {legal}", cite=cite, field="rise")
    fight.state = fight.state.take_from("dua", attacker.player, *named)
    fight.state = fight.state.with_army(attacker.evolve(units=(*attacker.units, *picked)))
    fight.out.trace.append(TraceEvent(what=f"{sai}: {', '.join(named)} return from the DUA to {attacker.id}",
                                      after=sum(u.health for u in picked), rule="the acting player may return "
                                      "Undead units from the dead unit area up to the amount of health killed",
                                      cite=cite))


def _test_unit(fight: Fight, sai: str, uid: str) -> bool:
    """One target's roll; returns whether it escaped."""
    rule, cite = attack_rule(fight, sai), fight.cite(sai)
    need = {"save": "a save", "id": "its ID icon", "maneuver": "a maneuver",
            "non-id-save": "a non-ID save"}[rule.test]
    why = f"for {need} against {sai}"
    if rule.test == "id":
        dice = fight.unit_roll(uid, why, sai)
        made = rolled_id(dice, fight.army().unit(uid), fight.ruleset)
        fight.out.trace.append(TraceEvent(what=f"{sai}: {uid} {'rolls' if made else 'does not roll'} its ID icon",
                                          after=int(made), rule="roll its ID icon individually or be killed",
                                          cite=cite))
    else:
        wanted = "maneuver" if rule.test == "maneuver" else "save"
        got = fight.roll_unit(uid, f"avoid-{wanted}", (wanted,), why, sai)
        count = got.non_id.get(uid, {}).get("save", 0) if rule.test == "non-id-save" else got.results.get(wanted, 0)
        made = count > 0
        fight.out.trace.append(TraceEvent(what=f"{sai}: {uid} rolls {count} {rule.test} result(s): "
                                               f"{'escapes' if made else 'fails'}", after=count,
                                          rule=f"must immediately generate {need} result", cite=cite))
        if rule.on_id and rolled_id(fight.unit_roll(uid, why, sai), fight.army().unit(uid), fight.ruleset):
            _fate(fight, sai, uid, rule.on_id, "a target that rolls its ID icon is killed with no save possible")
            return False
    if made and rule.passed:
        _fate(fight, sai, uid, rule.passed, "those that roll an ID icon flee to the reserve area")
    elif not made:
        _fate(fight, sai, uid, rule.fail, f"a target that fails to roll {need} meets the SAI's effect")
    return made


def _fate(fight: Fight, sai: str, uid: str, fate: str, why: str) -> None:
    """Killed (then buried, or rolling against burial), or fleeing to the reserve area."""
    rule = attack_rule(fight, sai)
    if fate == "flee":
        fight.flee(uid, sai)
        return
    if rule.spared_by_grave and _grave(fight, sai, uid):
        return
    fight.kill(uid, sai, why)
    if fate == "buried":
        fight.bury(uid, sai, "killed and buried")
    elif rule.burial:
        wanted = ("save",) if rule.burial == "save" else ("save", "maneuver")
        fight.burial_roll(uid, sai, wanted, f"a unit killed by {sai} must roll {' or '.join(wanted)} or be buried")


def _grave(fight: Fight, sai: str, uid: str) -> bool:
    """tsr-1996 Flame C: "Open Grave DOES save Flamed units; affected units go to the Reserves as normal" -- the unit
    goes to its reserve area as the spell sends its army's casualties (engine.actions.common.take_damage); returns
    whether it did."""
    home = next(a for a in fight.state.armies if a.unit(uid) is not None)
    grave = casualties_destination(fight.state, fight.ruleset, home)
    if grave is None or grave[1] != "reserve":
        return False
    rule, where = fight.ruleset.words(f"{sai}:grave", "the spell saves the unit from the SAI", fight.cite(sai))
    fight.out.trace.append(TraceEvent(what=f"{sai}: {uid} is not killed and buried: {grave[0]} sends it to the "
                                           "reserve area", rule=rule, cite=where))
    state, dest = reserve_army(fight.state, home.player, fight.ruleset, fight.out)
    fight.out.moved.append(uid)
    fight.out.kept[uid] = dest.id   # killed but kept from the DUA by the spell: reported as Open Grave's casualties are
    fight.state = transfer(state, uid, state.army(home.id), dest, f"{grave[0]}: {uid}",
                           fight.ruleset.spell_sections.get(grave[0], where), fight.ruleset, fight.out)
    return True


def kill_units(fight: Fight, sai: str, specials: list[Special]) -> None:
    """Units killed (or sent fleeing) with no save possible: chosen by the acting player (``targets``) or, as
    damage, by their owner (``casualties``)."""
    rule = attack_rule(fight, sai)
    if rule.kin_breath:
        specials = _past_kin_breath_immunity(fight, sai, specials)
        if not specials:
            return
    ids = chosen(fight, sai, specials) if rule.chooser == "acting" else _owner_picks(fight, sai, specials)
    for uid in ids:
        army = next(a for a in fight.state.armies if a.unit(uid) is not None)
        unit = army.unit(uid)
        _fate(fight, sai, uid, rule.fail, "with no save possible")
        if rule.kin_breath and unit.race == dragonkin.KIN:
            # 002 Dragonkin: "taken as casualties from ... Dragonkin's breath effect are immediately buried"
            fight.state = dragonkin.bury_killed(fight.state, army.player, unit, sai, fight.ruleset.cite("dragonkin"),
                                                fight.out)


def _past_kin_breath_immunity(fight: Fight, sai: str, specials: list[Special]) -> list[Special]:
    """The Dragonkin breaths the defending army is not immune to. 002 Dragonslayer: "The Dragonslayer is immune to
    all dragon and Dragonkin breaths. Furthermore, it extends this immunity to the rest of the army it is with";
    Dragonhunter: "The Dragonhunters are immune to breath from dragons and Dragonkin of the same color.
    Furthermore, they extend this immunity to their army and all other units in it"."""
    defender = fight.army()
    attacker = fight.army("attacker")
    kept = []
    for s in specials:
        kin = attacker.unit(s.unit)
        color = kin.color if kin is not None else None
        guard = next((u for u in defender.units if u.name == "Dragonslayer"
                      or (u.name == "Dragonhunter" and color is not None and u.color == color)), None)
        if guard is None:
            kept.append(s)
            continue
        slayer = guard.name == "Dragonslayer"
        chosen_read("targets", sai)     # the acting player's picks, if named, meet the immunity: not a stray entry
        fight.out.trace.append(TraceEvent(
            what=f"{s.unit}'s {sai}: {defender.id} is immune ({guard.label})",
            rule="a Dragonslayer is immune to all dragon and Dragonkin breaths, a Dragonhunter to those of its color, "
                 "and each extends this immunity to its army",
            cite=fight.ruleset.cite("dragonslayer" if slayer else "dragonhunter")))
    return kept


def _owner_picks(fight: Fight, sai: str, specials: list[Special], army_id: str | None = None) -> list[str]:
    """The owner takes as much health-worth as possible, up to the SAI's, as for damage (``casualties``)."""
    army = exposed(fight.state, fight.ruleset, fight.state.army(army_id or fight.defender), fight.action, fight.out)
    limit = _limit(attack_rule(fight, sai), specials)
    if sai in OWNER_BY_READING:
        # the text does not say who chooses: killing health-worth is read as damage, which the owner takes ("This is
        # the same as applying damage", 002 SAI Targeting)
        fight.out.trace.append(reading(f"{sai}: {army.player} chooses the {limit} health-worth killed, as for damage "
                                       "(the text does not say who chooses)", fight.cite(sai),
                                       fight.ruleset.cite(TARGETING)).evolve(after=limit))
    ids, event = choose(army, limit, named_for(army, limit, fight.casualties, sai), fight.cite(sai))
    fight.out.trace.append(event.evolve(what=f"{sai}: {event.what}"))
    return list(ids)


def sneak_attack(fight: Fight, sai: str, specials: list[Special]) -> None:
    """Sneak Attack: "kill up to four health-worth of opposing units in any army, with no save possible. The
    owner of the unit with this SAI selects the target army; the target army's owner selects the unit(s)
    killed. Any Dragonkin selected as casualties are immediately buried." (``targets: {sneak-attack: army}``)"""
    cite, named = fight.cite(sai), fight.targets(sai)
    target = named[0][0] if named else fight.defender
    if not named:
        which = "the first opposing army" if fight.action == "magic" else "the army attacked"
        fight.out.trace.append(TraceEvent(what=f"{sai}: targets {target}", rule="the owner of the unit with this "
                                          f"SAI selects the target army; none given, so {which}",
                                          cite=cite, defaulted=True))
    army = fight.state.army(target) if fight.state.has_army(target) else None
    if army is None or army.player == fight.army("attacker").player:
        opposing = ", ".join(a.id for a in fight.state.armies if a.player != fight.army("attacker").player)
        raise StepError(f"{sai} targets an opposing army in any place: {opposing}, not {target}", cite=cite,
                        field="targets")
    for uid in _owner_picks(fight, sai, specials, target):
        unit = army.unit(uid)
        fight.kill(uid, sai, "with no save possible")
        if unit.race == dragonkin.KIN:
            fight.state = dragonkin.bury_killed(fight.state, army.player, unit, sai, cite, fight.out)


def plague(fight: Fight, sai: str, specials: list[Special]) -> None:
    """Plague: the acting player names the first target; "If the target unit fails to generate a save, your
    opponent chooses another unit from the same army to be plagued. The plague continues until a target unit
    generates a save." ``targets: {plague: [first, then the owner's choices ...]}``."""
    cite, named = fight.cite(sai), fight.targets(sai)
    queue = [uid for uid, _ in named] if named else []
    while fight.army().units:
        if queue:
            uid = queue.pop(0)
            defending_unit(fight, sai, uid)
        else:
            uid = fight.army().units[0].id
            fight.out.trace.append(TraceEvent(what=f"{sai}: {uid} is plagued", rule="the acting player chooses "
                                              "the first target, then the opponent each next one; none given, so "
                                              "the first unit", cite=cite, defaulted=True))
        if _test_unit(fight, sai, uid):
            break
    if queue:
        raise StepError(f"{sai} stopped when a target saved; {queue} were never plagued", cite=cite,
                        field="targets")


def strike(fight: Fight, sai: str, specials: list[Special]) -> None:
    """One target per unit that rolled the SAI, damage that unit saves against alone; identical SAIs
    may strike the same unit together (002 SAI Targeting, Hug example) but no roller's damage is split."""
    rule, cite = attack_rule(fight, sai), fight.cite(sai)
    if any(s.unit == fight.attacker for s in specials):
        raise StepError(f"{sai} chooses one unit for each unit that generates it: give {fight.attacker}'s roll per "
                        "unit", cite=cite, field="roll")
    rollers = {s.unit: (rule.damage or s.points) for s in specials}
    for target, strikers in _groups(fight, sai, rollers).items():
        defending_unit(fight, sai, target)
        damage = sum(rollers[r] for r in strikers)
        what = f"{sai} of {', '.join(strikers)}: {damage} damage on {target}"
        read_with = None if rule.damage else fight.ruleset.cites.get(AS_ROLLED)    # Gore's two: its text fixes it
        if read_with is None:
            fight.out.trace.append(TraceEvent(what=what, after=damage, rule="for each unit that generates it, choose "
                                              "one unit in the defending army", cite=cite))
        else:   # 002 SAI List: "four points of damage" read as the SAI's points as rolled (four on a monster)
            fight.out.trace.append(reading(f"{what}: the text's 'four points' are the SAI's points as rolled (four "
                                           "on a monster)", cite, read_with).evolve(after=damage))
        _struck(fight, sai, target, damage, strikers[0])


def spread(fight: Fight, sai: str, specials: list[Special]) -> None:
    """Bullseye: "The total damage may individually target one or more units in the defending army as the
    acting player chooses. Each target unit must immediately generate saves against the damage assigned"
    (``targets: {bullseye: {unit: points}}``)."""
    points, cite, defender = sum(s.points for s in specials), fight.cite(sai), fight.army()
    assigned = dict(fight.targets(sai) or ())
    first = fight.first_of(sai, list(assigned), _within(list(assigned.values()), points), f"rolled {points} point(s)")
    assigned = {uid: assigned[uid] for uid in first}
    if not assigned:
        first = defender.units[0].id
        assigned = {first: points}
        fight.out.trace.append(TraceEvent(what=f"{sai}: all {points} point(s) on {first}", after=points,
                                          rule="the acting player chooses the target units; none given",
                                          cite=cite, defaulted=True))
    if sai in fight.ruleset.one_target_sais and len(assigned) > len(specials):
        # tsr-1996 Bullseye: "No matter how many bullseye icons are on a single die face, they must all be
        # directed at a single target unit"
        raise StepError(f"{sai}: all the icons of one die face go to a single target unit; {len(specials)} "
                        f"face(s) rolled, {len(assigned)} units targeted", cite=cite, field="targets")
    if None in assigned.values() or sum(assigned.values()) != points:
        given = "no points" if None in assigned.values() else f"{sum(assigned.values())}"
        raise StepError(f"{sai} rolled {points} point(s) but targets assign {given}: assign all {points}, as "
                        f"{{unit: points}}", cite=cite, field="targets")
    fight.take(sai, list(assigned))
    for uid, damage in assigned.items():
        defending_unit(fight, sai, uid)
        _struck(fight, sai, uid, damage, specials[0].unit)


def _within(points: list[int | None], limit: int) -> int:
    """How many of the first ``{unit: points}`` entries the rolled points cover."""
    total = 0
    for n, p in enumerate(points):
        if p is None or total + p > limit:
            return n
        total += p
    return len(points)


def _groups(fight: Fight, sai: str, rollers: dict[str, int]) -> dict[str, list[str]]:
    """target -> the rolling units striking it (``targets: {kick: {unit: points}}`` or ``[units]``)."""
    cite, named = fight.cite(sai), fight.targets(sai)
    if named is None:
        first = fight.army().units[0].id
        fight.out.trace.append(TraceEvent(what=f"{sai}: every roller strikes {first}", rule="the acting player "
                                          "chooses one unit per roller; none given, so the first", cite=cite,
                                          defaulted=True))
        fight.take(sai, [first])
        return {first: list(rollers)}
    if all(points is None for _, points in named):
        # the first's targets, the rest left to a freed unit's identical SAI (engine.actions.freed_sais)
        named = named[:len(fight.first_of(sai, [uid for uid, _ in named], len(rollers),
                                          f"strikes one unit per roller ({len(rollers)})"))]
        fight.take(sai, [uid for uid, _ in named])
        if len(named) != len(rollers):
            raise StepError(f"{sai}: {len(rollers)} unit(s) rolled it ({', '.join(rollers)}); name one target per "
                            f"roller, in that order, or {{unit: points}}", cite=cite, field="targets")
        out: dict[str, list[str]] = {}
        for (uid, _), roller in zip(named, rollers):
            out.setdefault(uid, []).append(roller)
        return out
    fight.take(sai, [uid for uid, _ in named])
    return _by_points(sai, dict(named), rollers, cite)


def _by_points(sai: str, wanted: dict[str, int | None], rollers: dict[str, int], cite: str) -> dict[str, list[str]]:
    """Each target's points must be the points of whole rollers: "the results from the two Hug SAIs cannot be
    divided amongst more than two units"."""
    left, out = dict(rollers), {}
    for uid, points in wanted.items():
        group = _whole_rollers(left, points)
        if group is None:
            raise StepError(f"{sai}: {points} point(s) on {uid} is not the damage of whole rolling units "
                            f"({', '.join(f'{r}: {n}' for r, n in rollers.items())}); each roller's damage goes to "
                            "one unit", cite=cite, field="targets")
        out[uid] = list(group)
        for r in group:
            left.pop(r)
    if left:
        raise StepError(f"{sai}: the damage of {', '.join(left)} is not assigned; assign every roller's "
                        f"{', '.join(str(n) for n in rollers.values())} point(s)", cite=cite, field="targets")
    return out


def _whole_rollers(rollers: dict[str, int], points: int | None) -> list[str] | None:
    """The fewest rollers (the first written, among as few) whose points add up to ``points``: a subset-sum over
    the points, never a walk over the 2^n groups of rollers (40 rollers answer at once)."""
    if not isinstance(points, int) or not 1 <= points <= sum(rollers.values()):
        return None
    best: list[tuple[int, ...] | None] = [()] + [None] * points
    for i, n in enumerate(rollers.values()):
        for total in range(points, n - 1, -1):
            prev = best[total - n]
            if prev is not None and (best[total] is None or (len(prev) + 1, (*prev, i)) < (len(best[total]),
                                                                                            best[total])):
                best[total] = (*prev, i)
    names = list(rollers)
    return None if best[points] is None else [names[i] for i in best[points]]


def _struck(fight: Fight, sai: str, target: str, damage: int, roller: str) -> None:
    """The target's own roll: saves against the damage (Kick, Gore, Flaming Arrow), and/or melee back at the
    rolling unit, which cannot save (Hug: no saves; Coil: a combination roll of both)."""
    rule, cite = attack_rule(fight, sai), fight.cite(sai)
    wanted = tuple(t for t, on in (("save", rule.saves), ("melee", rule.answer)) if on)
    kind = combination_kind(wanted) if len(wanted) > 1 else \
        ("melee" if wanted == ("melee",) else f"save-{fight.action}")
    # a target that neither saves nor answers (Swoop: "with no saves possible") does not roll
    got = fight.roll_unit(target, kind, wanted, f"against {damage} {sai} damage", sai).results if wanted else {}
    # only the results the target rolls for count: a Hug's target "gets no saves" (002 Hug), so a save face it
    # shows in its counter-attack roll saves nothing; a Kick's target rolls no melee back
    saved = got.get("save", 0) if rule.saves else 0
    back = got.get("melee", 0) if rule.answer else 0
    if not rule.saves and got.get("save", 0):
        fight.out.trace.append(TraceEvent(what=f"{sai}: {target}'s {got['save']} save(s) do not count: it gets no "
                                               "saves", after=0, rule="the unit gets no saves, but does roll to "
                                          "counter-attack the rolling unit", cite=cite))
    unit = fight.army().unit(target)
    killed = damage - saved >= unit.health
    fight.out.trace.append(TraceEvent(what=f"{sai}: {damage} damage - {saved} saves on {target}: "
                                           f"{'killed' if killed else 'survives'}", before=damage,
                                      after=max(0, damage - saved), rule="a unit taking damage equal to or greater "
                                      "than its health is killed", cite=cite))
    if killed:
        _fate(fight, sai, target, rule.fail, "killed by the damage it could not save")
    if rule.answer and fight.army("attacker").unit(roller) is not None:
        health = fight.army("attacker").unit(roller).health
        fight.out.trace.append(TraceEvent(what=f"{sai}: {target} strikes back {back} melee at {roller}, no saves",
                                          after=back, rule="the target rolls melee back at the rolling unit, "
                                          "which cannot save against this damage", cite=cite))
        if back >= health:
            fight.kill(roller, sai, "a unit taking damage equal to or greater than its health is killed")
