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

from ..roll import Roll
from ..ruleset import Ruleset
from ..state import Army, GameState
from ..steps import MeleeStep, StepResult
from ..trace import StepError, TraceEvent
from . import routing, sai_states, strikes
from .fight import Fight
from .common import army, casualty_lists, check_action, leftover_casualties, roll, take_damage, terrains

# the charging army's roll: melee and maneuver are both damage; the charged army's one roll: saves and melee
CHARGE_ROLL = ("melee", "maneuver")
# (the charged army's roll is its save roll in melee: 000 Counter "During a roll for saves in melee ... counts as
# both a save and an immediate hit upon the attacking army, which may not roll saves against it")
ANSWER_KIND, ANSWER_ROLL = "save-melee", ("save", "melee")
BACK_DAMAGE = "back-damage"
CHARM = "charm"         # Charm's special result: the units it picks change sides (_charmed)
FLEE = "unit-kill"      # Roar's special result: the units it picks flee (engine.actions.strikes.kill_units)
STATE = "unit-state"    # Entangle's special result: the units it picks are paralyzed (_entangled)


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
    casualties = casualty_lists(step.casualties)
    out.trace.append(TraceEvent(what=f"{attacker.id} charges {defender.id}", rule="instead of skirmishing, you may "
                                "declare a charge", cite=cite))
    hit = roll(state, ruleset, attacker, ruleset.charge_roll, CHARGE_ROLL, step.roll, out)
    frightening = [s for s in hit.specials if s.effect == FLEE]
    charms = [s for s in hit.specials if s.effect == CHARM]
    entangling = [s for s in hit.specials if s.effect == STATE and ruleset.sai_states[s.sai].avoid is None]
    _plain([s for s in hit.specials if s.effect not in (FLEE, CHARM) and s not in entangling], ruleset, cite)
    damage = sum(hit.results.get(t, 0) for t in CHARGE_ROLL)
    out.trace.append(TraceEvent(what=f"{attacker.id}: {hit.results.get('melee', 0)} melee + "
                                     f"{hit.results.get('maneuver', 0)} maneuver = {damage} damage", after=damage,
                                rule="each point of melee and each point of maneuver rolled count as a point of "
                                     "damage to the target (as do ID icons)", cite=cite))
    answer = roll(state, ruleset, defender, ANSWER_KIND, ANSWER_ROLL, answer_dice, out)
    _plain([s for s in answer.specials if s.effect != BACK_DAMAGE], ruleset, cite)
    saves, back = answer.results.get("save", 0), answer.results.get("melee", 0)
    moved = _charmed(state, ruleset, charms, attacker, defender, step, answer, answer_dice, casualties, out)
    damage, saves, back = damage + moved["melee"], max(0, saves - moved["save"]), max(0, back - moved["melee"])
    # a reading: the magic saves stop the melee results; Counter's hits are "an immediate hit upon the attacking
    # army, which may not roll saves against it" (000 Special Action Icons), so nothing stops them
    back = _magic_saves(state, ruleset, attacker, back, out, cite)
    back += _counter_hits(answer.specials, ruleset, attacker, out)
    state = _frightened(state, ruleset, frightening, attacker, defender, step, casualties, out)
    state = _entangled(state, ruleset, entangling, attacker, defender, step, out)
    dealt = max(0, damage - saves)
    out.trace.append(TraceEvent(what=f"{damage} damage - {saves} saves: {dealt} damage to {defender.id}",
                                before=damage, after=dealt, rule="any save results reduce the damage inflicted by "
                                "an amount equal to the save results", cite=cite))
    out.trace.append(TraceEvent(what=f"{defender.id}'s {back} melee hit {attacker.id}, which rolls no saves",
                                after=back, rule="any melee results are counted as damage against the acting army. "
                                "However, the acting army doesn't roll saves in return", cite=cite))
    state = take_damage(state, ruleset, state.army(defender.id), dealt, casualties, out, "charge damage", "melee")
    state = take_damage(state, ruleset, state.army(attacker.id), back, casualties, out, "charged army's melee",
                        "melee")
    # "In a charge attack, all damage is resolved before any routs take effect"
    routs = [routing.routed(state, ruleset, who, dice, out, other) for who, dice, other in
             ((state.army(attacker.id), step.roll, answer_dice), (state.army(defender.id), answer_dice, step.roll))]
    if all(routs):
        state = routing.both_routed(state, ruleset, attacker.at, out)
    else:
        state = routing.pursue(state, ruleset, step, routs[1], out)
    out.trace.append(TraceEvent(what=f"{attacker.id}'s action ends", rule="after the charge has been resolved, the "
                                "action ends for that army", cite=cite))
    leftover_casualties(casualties, ruleset)
    terrains(state, out)
    return state, out


def _charmed(state: GameState, ruleset: Ruleset, charms: list, attacker: Army, defender: Army, step: MeleeStep,
             answer, answer_dice: Roll, casualties: dict[str, list[str]], out: StepResult) -> dict[str, int]:
    """A Charm in the charging army's roll: 004 Charm D, "During a charge, the affected units are indeed chosen after
    the results are seen ... The affected unit's results are not voided or affected; they change sides"; E, "Charmed
    units can be cbosen as casualties by their owner". Returns the melee and saves that left the charged army.

    Reading: on the charging side their melee count as charge damage, and their saves count for nothing (000 Charge:
    "the acting army doesn't roll saves in return. Only saves provided by magic count against these hits")."""
    moved = {"melee": 0, "save": 0}
    if not charms:
        return moved
    fight = Fight(state=state, ruleset=ruleset, attacker=attacker.id, defender=defender.id, action="melee",
                  step=step, casualties=casualties, out=out, charge=True)
    if not answer_dice.per_unit:
        raise StepError(f"Charm takes the results each of {defender.id}'s charmed units rolled: give its roll per unit "
                        f"(saves.{defender.id})", cite=fight.cite(CHARM), field="saves")
    rule, where = ruleset.words(f"{CHARM}:charge", "the charmed units' results change sides", fight.cite(CHARM))
    for uid in strikes.chosen(fight, CHARM, charms):
        got = {t: answer.per_unit.get(uid, {}).get(t, 0) for t in moved}
        moved = {t: moved[t] + got[t] for t in moved}
        out.trace.append(TraceEvent(what=f"{CHARM}: {uid}'s {got['melee']} melee and {got['save']} save change sides: "
                                         f"its melee hit {defender.id}, its saves count for nothing",
                                    after=got["melee"], rule=f"{rule}; reading: only saves provided by magic count for "
                                    f"the charging army ({ruleset.cite('charge')})", cite=where))
    return moved


def _frightened(state: GameState, ruleset: Ruleset, frightening: list, attacker: Army, defender: Army,
                step: MeleeStep, casualties: dict[str, list[str]], out: StepResult) -> GameState:
    """A Roar in the charging army's roll: 004 Roar C, "If used during a charge, the units affected by a Roar still
    apply their results before fleeing" -- the charged army's units it picks have rolled in its answer; they flee
    once it is counted, before the damage is taken (a reading: they are no longer there to be taken as losses)."""
    if not frightening:
        return state
    fight = Fight(state=state, ruleset=ruleset, attacker=attacker.id, defender=defender.id, action="melee",
                  step=step, casualties=casualties, out=out, charge=True)
    for sai in dict.fromkeys(s.sai for s in frightening):
        rule, where = ruleset.words(f"{sai}:charge", "the units it picks flee after the charged army's roll",
                                    fight.cite(sai))
        out.trace.append(TraceEvent(what=f"{sai}: the units it picks have rolled with {defender.id}; now they flee",
                                    rule=rule, cite=where))
        strikes.kill_units(fight, sai, [s for s in frightening if s.sai == sai])
    return fight.state


def _entangled(state: GameState, ruleset: Ruleset, entangling: list, attacker: Army, defender: Army,
               step: MeleeStep, out: StepResult) -> GameState:
    """An Entangle in the charging army's roll: 004 Entangle C, "Entangle prevents units from making any further
    rolls. Rolls already made (such as those during a charge) by Entangled units still apply their results" -- the
    charged army's units it picks have rolled in its answer, which counts whole; they are paralyzed from now on
    (engine.actions.sai_states; a reading, as for Roar C: the answer is rolled before the effect is placed)."""
    if not entangling:
        return state
    for sai in dict.fromkeys(s.sai for s in entangling):
        rule, where = ruleset.words(f"{sai}:charge", "the units it picks have rolled; they cannot roll from now on",
                                    ruleset.sai_sections.get(sai, ruleset.cite("sai-resolution")))
        out.trace.append(TraceEvent(what=f"{sai}: the units it picks have rolled with {defender.id}; their results "
                                         "count", rule=rule, cite=where))
    return sai_states.place_states(state, ruleset, entangling, attacker, state.army(defender.id), step, out)


def _counter_hits(specials, ruleset: Ruleset, attacker: Army, out: StepResult) -> int:
    hits = 0
    for special in (s for s in specials if s.effect == BACK_DAMAGE):
        hits += special.points
        what = f"{special.unit}: {special.points}-point {special.sai} also hits {attacker.id}"
        out.trace.append(TraceEvent(what=what, after=special.points, rule="counts as both a save and an immediate "
                                    "hit upon the attacking army, which may not roll saves against it",
                                    cite=ruleset.sai_sections.get(special.sai, ruleset.cite("sai-resolution"))))
    return hits


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


def _magic_saves(state: GameState, ruleset: Ruleset, attacker: Army, back: int, out: StepResult, cite: str) -> int:
    """"However, the acting army doesn't roll saves in return. Only saves provided by magic count against these
    hits": the automatic saves the spells on the charging army add (000 Stoneskin "Add 1 automatic save result to
    the target army", Wall of Ice ...) reduce the charged army's melee hits; returns the hits left."""
    for effect in state.effects_on(attacker.id):
        for mod in ruleset.spell_modifiers.get(effect.spell, ()):
            if mod.op != "add" or mod.scope != "army" or "save" not in mod.results:
                continue
            saves = mod.amount * (effect.count if mod.stacks else 1)
            left = max(0, back - saves)
            out.trace.append(TraceEvent(what=f"{effect.spell} on {attacker.id}: {saves} save(s) against the charged "
                                             f"army's melee", before=back, after=left,
                                        rule="only saves provided by magic count against these hits", cite=cite))
            back = left
    return back


def _plain(specials, ruleset: Ruleset, cite: str) -> None:
    """SAIs with an effect of their own in a charge (Counter's unsavable hit is the answer's) are not modelled
    yet (000 Smite is plain melee here: "During a dragon attack or a charge, smites count as normal melee damage")."""
    if specials:
        raise StepError(f"{', '.join(s.sai for s in specials)} in a charge is not modelled yet by this version of "
                        "ddref", cite=cite, field="roll")
