"""tsr-1996's charge (000 First March, Charge), a melee action declared as a charge (``charge: true``).

"Instead of skirmishing, you may declare a charge. Choose a target army at the same terrain and roll your
army. Each point of melee and each point of maneuver rolled count as a point of damage to the target (as
do ID icons). After you count up the damage, the target army rolls. Any save results reduce the damage
inflicted by an amount equal to the save results, and any melee results are counted as damage against the
acting army. However, the acting army doesn't roll saves in return. Only saves provided by magic count
against these hits. After the charge has been resolved, the action ends for that army."

Editions without this rule (002's Charge is an SAI, 001 has none) refuse the step.
"""

from __future__ import annotations

from ..roll import Outcome, Roll
from ..ruleset import Ruleset
from ..state import Army, GameState
from ..steps import MeleeStep, StepResult
from ..trace import StepError, TraceEvent, reading
from . import (cantrip, charge_freed, charge_sais, charge_unfreed, joined_rolls, routing, sai_states,
               specials, strikes)
from .charge_sais import CHARM
from .skirmish import leftover_buys, read_by_states, with_brought
from .freed_sais import may_free, with_rolls
from .fight import Fight
from .common import army, casualty_lists, check_action, leftover_casualties, roll, take_damage, terrains
from .sai_choices import special_choices

# the charging army's roll: melee and maneuver are both damage; the charged army's one roll: saves and melee
CHARGE_ROLL = ("melee", "maneuver")
# (the charged army's roll is a save roll in melee: 000 Counter "During a roll for saves in melee ... counts as
# both a save and an immediate hit upon the attacking army, which may not roll saves against it")
ANSWER_ROLL = ("save", "melee")


def charge(state: GameState, step: MeleeStep, ruleset: Ruleset) -> tuple[GameState, StepResult]:
    out = StepResult(kind="melee")
    cite = _cite(ruleset)
    attacker, defender = army(state, step.army), army(state, step.target, field="target")
    if defender.at != attacker.at or defender.player == attacker.player:
        raise StepError(f"{attacker.id} can only charge another player's army at {attacker.at}", cite=cite,
                        field="target")
    check_action(state, ruleset, attacker, "melee", out)
    if step.counter is not None:
        raise StepError(f"{defender.id} makes no counter-attack roll against a charge: its one roll's melee results "
                        "hit back; remove counter", cite=cite, field="counter")
    answer_dice = _answer_dice(step, defender, cite)
    cantrip.members(step.roll, attacker)
    cantrip.members(answer_dice, defender, "saves")
    buys = dict(step.cantrip)
    fight = Fight(state=state, ruleset=ruleset, attacker=attacker.id, defender=defender.id, action="melee",
                  step=step, casualties=casualty_lists(step.casualties), out=out, charge=True,
                  may_free=may_free(state, ruleset, attacker, step))
    out.trace.append(TraceEvent(what=f"{attacker.id} charges {defender.id}", rule="instead of skirmishing, you may "
                                "declare a charge", cite=cite))
    damage = _charging(fight, buys)
    answer_dice = charge_sais.confused(fight, answer_dice)
    answer_waits = charge_freed.waits(fight, "defender", answer_dice)
    answer, returned = _answer(fight, answer_dice, buys, answer_waits)
    countered = charge_sais.swapped(fight, answer.specials)
    answer, added = _freed_answer(fight, countered, answer, answer_dice, (buys, answer_waits, returned))
    damage, charge_dice = _confused_charge(fight, countered, damage)
    damage, saves, back = _tally(fight, countered, damage, answer, answer_dice, charge_dice, added)
    charge_sais.answering(countered)
    fight.state = countered.state
    charge_sais.frightened(fight, fight.rolled)
    charge_sais.paralyzed(fight, fight.rolled)
    dealt = max(0, damage - saves)
    out.trace.append(TraceEvent(what=f"{damage} damage - {saves} saves: {dealt} damage to {defender.id}",
                                before=damage, after=dealt, rule="any save results reduce the damage inflicted by "
                                "an amount equal to the save results", cite=cite))
    out.trace.append(TraceEvent(what=f"{defender.id}'s {back} melee hit {attacker.id}, which rolls no saves",
                                after=back, rule="any melee results are counted as damage against the acting army. "
                                "However, the acting army doesn't roll saves in return", cite=cite))
    # a freed unit the answer's Confuse picked is in the charge's faces already, with its new roll
    freed = tuple(u for u in fight.freed if u not in dict(charge_dice.units))
    held = charge_unfreed.held(fight)
    state = _routs(fight, _damage(fight, countered, dealt, back), with_rolls(fight, charge_dice, freed)[0],
                   with_rolls(countered, answer_dice, countered.freed)[0])
    charge_unfreed.checked(fight, countered, held, state)
    out.trace.append(TraceEvent(what=f"{attacker.id}'s action ends", rule="after the charge has been resolved, the "
                                "action ends for that army", cite=cite))
    leftover_casualties(fight.casualties, ruleset, out=fight.out)
    _leftover_choices(fight, countered)
    leftover_buys(buys, ruleset)
    terrains(state, out)
    return state, out


def _routs(fight: Fight, state: GameState, charge_dice: Roll, answer_dice: Roll) -> GameState:
    """000 Option: Routing, "In a charge attack, all damage is resolved before any routs take effect ... It's
    possible during a charge for both the attacker and the defender to be routed" (engine.actions.routing)."""
    ruleset, out = fight.ruleset, fight.out
    routs = [routing.routed(state, ruleset, state.army(who), dice, out, other, save_roll=False) for who, dice, other in
             ((fight.attacker, charge_dice, answer_dice), (fight.defender, answer_dice, charge_dice))]
    if all(routs):
        return routing.both_routed(state, ruleset, state.army(fight.attacker).at, out)
    return routing.pursue(state, ruleset, fight.step, routs[1], out)


def _charging(fight: Fight, buys: dict) -> int:
    """The charging army's roll: its Cantrip buys spells first (or waits for a joining unit's), its Kick, Poison and
    Smother are resolved at once, the units its Regenerate (or Ferry) brings roll with it; returns its damage."""
    ruleset, out, step = fight.ruleset, fight.out, fight.step
    waits = cantrip.waiting(fight.state, fight.army("attacker"), step.roll, step, ruleset)
    freed_waits = charge_freed.waits(fight, "attacker", step.roll)
    if not cantrip.may_join(fight.state, fight.army("attacker"), step) and not freed_waits:
        fight.state = cantrip.use(fight.state, fight.army("attacker"), step.roll, buys, False, ruleset, out)
    dice = cantrip.still_rolling(step.roll, fight.army("attacker"), out, ruleset)
    hit = roll(fight.state, ruleset, fight.army("attacker"), ruleset.charge_roll, CHARGE_ROLL, dice, out,
               choices=special_choices(step))
    charge_sais.noted(dice, ruleset, ruleset.charge_roll, fight.attacker, out)
    fight.rolled, fight.hit = hit.specials, hit
    charge_sais.not_modelled(hit.specials, charge_sais.CHARGING, fight, "roll")
    # the purchase waiting for the units freed into the roll is theirs to buy (engine.actions.charge_freed)
    hit, returned = _joined(fight, hit, (fight.army("attacker"), dice), (ruleset.charge_roll, CHARGE_ROLL),
                                   charge_sais.CHARGING, (None if freed_waits else buys, waits))
    fight.rolled, fight.hit = hit.specials, hit
    charge_sais.first(fight, hit.specials)
    # its Cantrip's spells or its Kick, Poison, Smother, Flame killed an Entangling monster: its units roll in it
    hit = charge_freed.freed(fight, hit, dice, (ruleset.charge_roll, CHARGE_ROLL), charge_sais.CHARGING,
                             (buys, freed_waits, returned))
    fight.hit = hit
    # the units that joined the charging roll are counted with it through the one pipeline (the army's modifiers)
    melee, maneuver = (joined_rolls.through_pipeline(out, fight.attacker, t, hit.results.get(t, 0))
                       for t in CHARGE_ROLL)
    _ids_once(dice, fight.attacker, ruleset, out)
    out.trace.append(TraceEvent(what=f"{fight.attacker}: {melee} melee + {maneuver} maneuver = {melee + maneuver} "
                                     "damage", after=melee + maneuver,
                                rule="each point of melee and each point of maneuver rolled count as a point of "
                                     "damage to the target (as do ID icons)", cite=_cite(ruleset)))
    return melee + maneuver


def _ids_once(dice: Roll, attacker: str, ruleset: Ruleset, out: StepResult) -> None:
    """000 Charge: "Each point of melee and each point of maneuver rolled count as a point of damage to the target
    (as do ID icons)". Reading, traced where the charging roll has ID icons (the example leaves it open): an ID icon
    counts once, as melee or maneuver (000 Basic Terms: it counts as whatever is rolled for), not as both."""
    if dict(dice.counts).get("id") or any(f.icon == "id" for _, faces in dice.units for f in faces):
        out.trace.append(reading(f"{attacker}'s ID icons count once each, as melee or maneuver, not as both",
                                 _cite(ruleset), ruleset.cite("id-icons")))


def _confused_charge(fight: Fight, countered: Fight, damage: int) -> tuple[int, Roll]:
    """A Confuse in the charged army's answer: 004 Confuse, "after your opponent rolls, choose four health of his
    units and force them to reroll. A) This is a special case that DOES violate the principle that dice once rolled
    cannot be voided" -- the charging roll is counted again with the chosen units' new faces (``unit_saves``).
    Returns the damage and the charging roll's faces."""
    if not charge_sais.of(countered.rolled, charge_sais.CONFUSE):
        _unread_rerolls(fight, ())
        return damage, fight.step.roll
    dice = cantrip.still_rolling(fight.step.roll, fight.army("attacker"), fight.out, fight.ruleset)
    joined = (*fight.freed, *fight.brought)
    countered.rerolled = {u: dict(fight.step.rerolls).get(u) for u in joined}
    new = charge_sais.confused(countered, dice)
    again = {uid: faces for uid, faces in new.units if uid in joined}
    _unread_rerolls(fight, again)
    new = new.evolve(units=tuple((u, f) for u, f in new.units if u not in again))
    before = dict(dice.units)
    changed = [uid for uid, faces in new.units if before.get(uid) != faces]
    ruleset = fight.ruleset
    hit = roll(fight.state, ruleset, fight.army("attacker"), ruleset.charge_roll, CHARGE_ROLL, new, fight.out,
               choices=special_choices(fight.step))
    rerolled = _freed_again(fight, countered, again)
    changed += list(again)
    special = [s.sai for s in (*fight.hit.specials, *hit.specials, *rerolled) if s.unit in changed]
    if special:
        # A reading: 004 Confuse voids the faces, but a special they showed was "Resolved first" (General Rules D)
        # before the answer was rolled, and one the new faces show comes after that time: the effect of the first
        # stands, the second is not resolved, and only the new faces' results count.
        _, first = ruleset.words("charge:first", "resolved first", countered.cite("confuse"))
        fight.out.trace.append(reading(
            f"{', '.join(changed)} {'roll' if len(changed) > 1 else 'rolls'} again: "
            f"{', '.join(dict.fromkeys(special))} is not resolved again (an effect "
            "already resolved first stands; one the new faces show comes too late), only the new faces' results "
            "count", countered.cite("confuse"), first))
    fight.hit = hit
    melee, maneuver = (hit.results.get(t, 0) for t in CHARGE_ROLL)
    # the units that joined it are counted with it through the one pipeline, their new rolls in place of the first
    joined = sum(joined_rolls.through_pipeline(fight.out, fight.attacker, t, hit.results.get(t, 0))
                 for t in CHARGE_ROLL) - melee - maneuver
    fight.out.trace.append(TraceEvent(what=f"{fight.attacker} counted again: {melee} melee + {maneuver} maneuver"
                                           f"{f' + {joined} from the units that joined it' if joined else ''} = "
                                           f"{melee + maneuver + joined} damage", before=damage,
                                      after=melee + maneuver + joined, rule="each point of melee and each point of "
                                      "maneuver rolled count as a point of damage to the target (as do ID icons)",
                                      cite=_cite(ruleset)))
    # as before the Confuse, the routing reads the freed units' rolls with the army's, not the brought units'
    freed = tuple((u, f) for u, f in again.items() if u in fight.freed)
    return melee + maneuver + joined, new.evolve(units=(*new.units, *freed)) if freed else new


def _freed_again(fight: Fight, countered: Fight, again: dict) -> list:
    """The units freed into the charging roll that the answer's Confuse picked (``again``: their new faces, the step's
    ``rerolls``), counted again by themselves as when they were freed (engine.actions.charge_freed). Reading, traced
    with both citations: 004 Entangle D, the freed units "are counted in the current roll", so they are among the
    charging army's units that rolled, which 004 Confuse lets the opponent "force ... to reroll" after it rolls: their
    first roll (``unit_saves``) is voided and the new one counted in its place, in the roll in progress too (``roll``
    with ``joined``), which the charging roll's count reads. Returns the specials of their new rolls."""
    specials: list = []
    for uid, faces in again.items():
        first = sum(fight.out.results.get(uid, {}).get(t, 0) for t in CHARGE_ROLL)
        got = roll(fight.state, fight.ruleset, fight.army("attacker"), fight.ruleset.charge_roll, CHARGE_ROLL,
                   Roll(units=((uid, faces),)), fight.out, unit=uid, joined=True,
                   choices=special_choices(fight.step))
        now = sum(got.results.get(t, 0) for t in CHARGE_ROLL)
        how = f"brought by {fight.brought[uid]}" if uid in fight.brought else "freed"
        fight.out.trace.append(reading(
            f"{uid}, {how} into {fight.attacker}'s roll and counted in it, is one of its units the answer's "
            f"Confuse may pick: its first roll is voided, its new one (rerolls.{uid}) counted: {first} -> {now} "
            "melee and maneuver", countered.cite("confuse"),
            fight.cite(fight.brought.get(uid) or "entangle")).evolve(before=first, after=now))
        specials += got.specials
    return specials


def _unread_rerolls(fight: Fight, read) -> None:
    """The step's ``rerolls`` names only units freed (or brought by a Regenerate or Ferry) into the charging roll that
    the answer's Confuse picked."""
    left = [u for u, _ in fight.step.rerolls if u not in read]
    if left:
        picked = ", ".join(read) or "none"
        raise StepError(f"rerolls.{left[0]} is given, but {left[0]} is no unit freed or brought into "
                        f"{fight.attacker}'s roll that the answer's Confuse picked (those: {picked})",
                        cite=fight.ruleset.cite("charge"), field="rerolls")


def _answer(fight: Fight, dice: Roll, buys: dict, freed_waits: bool) -> tuple[Outcome, dict]:
    """The charged army's one roll: its Cantrip buys spells first (or waits for a joining unit's, or a freed unit's:
    ``freed_waits``); the units its Regenerate (or Ferry) brings roll with it. Returns the roll and the rolls of those
    whose Cantrip waits for the freed units' (``_joined``)."""
    ruleset, out = fight.ruleset, fight.out
    waits = cantrip.waiting(fight.state, fight.army(), dice, fight.step, ruleset)
    if not cantrip.may_join(fight.state, fight.army(), fight.step) and not freed_waits:
        fight.state = cantrip.use(fight.state, fight.army(), dice, buys, False, ruleset, out)
    charged = fight.army()
    answer = roll(fight.state, ruleset, charged, ruleset.charged_roll, ANSWER_ROLL,
                  cantrip.still_rolling(dice, charged, out, ruleset), out,
                  choices=special_choices(fight.step))
    charge_sais.noted(dice, ruleset, ruleset.charged_roll, charged.id, out)
    charge_sais.not_modelled(answer.specials, charge_sais.CHARGED, fight, "saves")
    return _joined(fight, answer, (charged, cantrip.still_rolling(dice, charged, out, ruleset)),
                   (ruleset.charged_roll, ANSWER_ROLL), charge_sais.CHARGED, (None if freed_waits else buys, waits))


def _freed_answer(fight: Fight, countered: Fight, answer: Outcome, dice: Roll,
                  buying: tuple[dict, bool]) -> tuple[Outcome, dict[str, int]]:
    """The answer's Kick, Poison, Smother, Flame against the charging army, resolved first (004 General Rules D), and
    the charged army's units they (or its Cantrip's spells) freed from the charging army's Entangling monster, rolled
    at once in the answer (engine.actions.charge_freed). Returns the answer and the saves and melee the units that
    joined it add."""
    countered.may_free = may_free(countered.state, countered.ruleset, fight.army(), fight.step)
    charge_sais.first(countered, countered.rolled)
    charged = cantrip.still_rolling(dice, fight.army(), fight.out, fight.ruleset)
    answer = charge_freed.freed(countered, answer, charged, (fight.ruleset.charged_roll, ANSWER_ROLL),
                                charge_sais.CHARGED, buying)
    fight.state = countered.state
    # the units that joined the answer are counted with it through the one pipeline (the army's modifiers)
    own = {t: answer.results.get(t, 0) for t in ANSWER_ROLL}
    return answer, {t: joined_rolls.through_pipeline(fight.out, fight.defender, t, own[t]) - own[t]
                    for t in ANSWER_ROLL}


def _joined(fight: Fight, rolled: Outcome, rolling: tuple[Army, Roll], roll_kind: tuple[str, tuple[str, ...]],
            handled: tuple[str, ...], buying: tuple[dict | None, list]) -> tuple[Outcome, dict]:
    """Units brought into the army during its roll (Regenerate, the Medallions, tsr-1996 Ferry) "are rolled
    immediately and their results are counted toward the current roll" (004 Regenerate B): the roll with their
    specials, which act as the army's own in that roll (``handled``: 002 Application, "SAIs have their same effect
    whether the unit containing the SAI is rolled individually or as part of an army"); their results count with the
    army's through the one pipeline (engine.actions.joined_rolls ``through_pipeline``). A Cantrip
    of theirs buys the step's ``cantrip.<army>`` (000 Cantrip: "During any other action ... the cantrip can be used to
    purchase immediate spells"), with the army's own waiting for it (``buying``: the buys, the army's waiting
    points; engine.actions.cantrip ``joined``), the army's roll counted again if the spells change it
    (``cantrip.army_again``). With no buys (``None``: the army's roll shows no Cantrip and a unit that may be freed
    into it rolls one), their Cantrip waits to be one purchase with the freed units' (engine.actions.freed_cantrip
    ``bought``): their rolls are returned with the roll."""
    who, (kind, wanted) = rolling[0], roll_kind
    choices = special_choices(fight.step)
    fight.state, joined = sai_states.joined_returns(fight.state, fight.ruleset, rolled, who, fight.step, fight.out,
                                                    kind, wanted)
    rolled, waiting = with_brought(fight, rolled, rolling, joined, roll_kind, buying, choices=choices)
    rolled = joined_rolls.with_joined(rolled, joined, fight.ruleset, kind, handled)
    added = {t: sum(o.results.get(t, 0) for o in joined.values()) for t in wanted}
    brought = next((s.sai for s in rolled.specials if s.effect in charge_sais.OWN_ROLL), None)
    if who.id == fight.attacker and joined:     # the answer's Confuse may pick them (``_confused_charge``)
        fight.brought = {**fight.brought, **{uid: brought for uid in joined}}
    if any(added.values()):
        sai = brought
        rule, where = fight.ruleset.words(f"{sai}:raise-roll", "the units brought into the army roll with it",
                                          fight.cite(sai))
        fight.out.trace.append(TraceEvent(what=f"{', '.join(joined)} add "
                                               f"{', '.join(f'{n} {t}' for t, n in added.items())} to {who.id}'s roll",
                                          after=sum(added.values()), rule=rule, cite=where))
    return rolled, waiting


def _damage(fight: Fight, countered: Fight, dealt: int, back: int) -> GameState:
    """Both armies take their damage; then the charged army's Illusion acts, then the charging army's (Illusion A:
    "resolved in a seperate roll after the current round of melee is resolved")."""
    ruleset, out = fight.ruleset, fight.out
    state = take_damage(fight.state, ruleset, fight.army(), dealt, fight.casualties, out, "charge damage", "melee")
    countered.state = take_damage(state, ruleset, fight.army("attacker"), back, fight.casualties, out,
                                  "charged army's melee", "melee")
    charge_sais.late(countered)
    fight.state = countered.state
    charge_sais.late(fight)
    return fight.state


def _tally(fight: Fight, countered: Fight, damage: int, answer: Outcome, answer_dice: Roll, charge_dice: Roll,
           added: dict[str, int]) -> tuple[int, int, int]:
    """The charge damage, the charged army's saves and its melee hits on the charging army, once each side's Charm
    has taken the other's results and the charging army's magic saves have stopped what they can."""
    saves, back = answer.results.get("save", 0) + added["save"], answer.results.get("melee", 0) + added["melee"]
    moved = _charmed(fight, answer, answer_dice)
    taken = _charmed(countered, fight.hit, charge_dice)
    damage += moved["melee"] + moved["maneuver"] - taken["melee"] - taken["maneuver"]
    saves = max(0, saves - moved["save"]) + taken["save"]
    back = max(0, back - moved["melee"]) + taken["melee"]
    # a reading (traced by counter_hits): the magic saves stop the melee results; Counter's hits are "an immediate
    # hit upon the attacking army, which may not roll saves against it" (000 Special Action Icons), so nothing stops
    # them
    shields = _magic_shields(fight.state, fight.ruleset, fight.army("attacker"))
    back = _magic_saves(shields, fight.army("attacker"), back, fight.out, _cite(fight.ruleset))
    return damage, saves, back + charge_sais.counter_hits(answer.specials, fight, bool(shields))


def _leftover_choices(fight: Fight, countered: Fight) -> None:
    """The step's ``targets``, ``order``, ``counter_order`` (the answer's) and ``unit_saves`` name only SAIs the two
    rolls made and units they made roll (engine.actions.specials.leftover_choices, as in a skirmish)."""
    for one in (fight, countered):
        one.seen |= {s.sai for s in one.rolled}
        read_by_states(one)
        one.left_unpicked()
    specials.leftover_choices(fight.step, [fight, countered])


def _charmed(fight: Fight, rolled: Outcome, dice: Roll) -> dict[str, int]:
    """A Charm of ``fight``'s attacker (the charging army; with ``counter``, the charged army's answer): 004 Charm D,
    "During a charge, the affected units are indeed chosen after the results are seen ... The affected unit's results
    are not voided or affected; they change sides"; E, "Charmed units can be cbosen as casualties by their owner".
    Returns the results (``rolled``, from ``dice`` per unit) that left the other army.

    Reading: on the charging side the charmed melee and maneuver count as charge damage ("Each point of melee and each
    point of maneuver rolled count as a point of damage") and the saves for nothing (000 Charge: "the acting army
    doesn't roll saves in return. Only saves provided by magic count against these hits"); on the charged
    side the saves reduce the damage, the melee hit the charging army, the maneuver count for nothing (000 Charge: the
    target army's roll counts saves and melee)."""
    ruleset, out = fight.ruleset, fight.out
    moved = {"melee": 0, "save": 0, "maneuver": 0}
    charms = charge_sais.of(fight.rolled, CHARM)
    if not charms:
        return moved
    if not dice.per_unit:
        field = "roll" if fight.counter else f"saves.{fight.defender}"
        raise StepError(f"Charm takes the results each of {fight.defender}'s charmed units rolled: give its roll per "
                        f"unit ({field})", cite=fight.cite(CHARM), field=field.partition(".")[0])
    where = ruleset.words(f"{CHARM}:charge", "the charmed units' results change sides", fight.cite(CHARM))[1]
    for uid in strikes.chosen(fight, CHARM, charms):
        got = {t: rolled.per_unit.get(uid, {}).get(t, 0) for t in moved}
        moved = {t: moved[t] + got[t] for t in moved}
        fate = (f"its melee hit {fight.defender}, its saves save {fight.attacker}, its maneuver count for nothing, as "
                "the charged army's roll counts saves and melee" if fight.counter else f"its melee and maneuver hit "
                f"{fight.defender}, its saves count for nothing, only saves provided by magic counting for the "
                "charging army")
        out.trace.append(reading(f"{CHARM}: {uid}'s {got['melee']} melee, {got['maneuver']} maneuver and "
                                 f"{got['save']} save change sides: {fate}", where, ruleset.cite("charge"))
                         .evolve(after=got["melee"] + (0 if fight.counter else got["maneuver"])))
    return moved


def _cite(ruleset: Ruleset) -> str:
    found = ruleset.cites.get("charge")
    if found is None:
        raise StepError(f"the {ruleset.edition} rules have no charge action (tsr-1996's 000 First March has one; "
                        "002's Charge is an SAI): remove charge", cite=ruleset.cite("melee"), field="charge")
    return found


def _answer_dice(step: MeleeStep, defender: Army, cite: str) -> Roll:
    if step.saves is None:
        raise StepError(f"{defender.id} rolls once against the charge, for saves and melee: give saves "
                        f"({{{defender.id}: {{save: 2, melee: 1}}}})", cite=cite, field="saves")
    return step.saves


def _magic_shields(state: GameState, ruleset: Ruleset, attacker: Army) -> list[tuple[str, int]]:
    """The automatic saves the spells on the charging army add (000 Stoneskin "Add 1 automatic save result to the
    target army", Wall of Ice ...): (spell, saves) each."""
    return [(effect.spell, mod.amount * (effect.count if mod.stacks else 1))
            for effect in state.effects_on(attacker.id) for mod in ruleset.spell_modifiers.get(effect.spell, ())
            if mod.op == "add" and mod.scope == "army" and "save" in mod.results]


def _magic_saves(shields: list[tuple[str, int]], attacker: Army, back: int, out: StepResult, cite: str) -> int:
    """"However, the acting army doesn't roll saves in return. Only saves provided by magic count against these
    hits": the spells' automatic saves (``shields``) reduce the charged army's melee hits; returns the hits left."""
    for spell, saves in shields:
        left = max(0, back - saves)
        out.trace.append(TraceEvent(what=f"{spell} on {attacker.id}: {saves} save(s) against the charged army's melee",
                                    before=back, after=left, rule="only saves provided by magic count against these "
                                    "hits", cite=cite))
        back = left
    return back
