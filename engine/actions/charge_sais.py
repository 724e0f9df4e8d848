"""The SAIs of tsr-1996's charge (000 First March, Charge): when each acts in the charge's two rolls.

A charge is two rolls: the charging army's (roll kind ``charge``) and the charged army's one answer (``charged``).
004 Monster Special Action Icons, General Rules A: "during melee" means "(A) a skirmish attack, (B) a skirmish
counter-attack, or (C) a charge roll by attacker or defender", so the monster SAIs act in both rolls, each against
the other army. Their effects are the skirmish's handlers (engine.actions.specials, strikes, delayed, illusion,
state_sais) through a ``Fight`` whose attacker is the army that rolled them; this module only says when:

- ``FIRST`` (Kick, Poison, Smother, Flame): General Rules D, "monster special action icons obey the rules of special
  actions laid out in FAQ 1 ... 3) Resolved first": in the charging roll, before the charged army rolls (a unit
  they kill does not roll in the answer); in the answer, once it is rolled (the charging roll is made already);
- Confuse: "after your opponent rolls, choose four health of his units and force them to reroll": in the charging
  roll, on the answer's faces before it is counted; in the answer, on the charging roll, counted again;
- ``AFTER_ANSWER`` (Charm, Roar, Entangle, Web): 004 says their units' rolls in a charge still count (Charm D, Roar
  C, Entangle C, Web B): they act once the answer is rolled (in the answer, as it is counted);
- Illusion: "resolved in a seperate roll after the current round of melee is resolved" (the ``late`` phase).

Units brought into an army during its roll (Regenerate, the Medallions, tsr-1996 Ferry) are rolled at once and
count in that roll (engine.actions.sai_states.joined_returns); a Cantrip buys its spells while the roll is
suspended (engine.actions.cantrip). Units freed from an Entangle by an SAI of either roll (004 Entangle D) roll at once
and count in it, their SAIs acting as the army's own there (engine.actions.charge_freed). An SAI whose entry gives it no use in a charge (Bullseye: a missile action and a
dragon attack only) has no effect there, its entry quoted (``<sai>:no-effect:charge`` in the edition's words).
"""

from __future__ import annotations

from ..roll import Roll, Special
from ..ruleset import Ruleset
from ..trace import READING, StepError, TraceEvent, reading
from . import specials, state_sais, strikes
from .fight import Fight

FIRST = ("unit-strike", "unit-test", "unit-kill")
CONFUSE = "reroll-saves"
CHARM, FLEE, STATE = "charm", "unit-kill", "unit-state"
AFTER_ANSWER = (CHARM, FLEE, STATE)
# the SAIs whose 004 entry says the units they pick in a charge have rolled: Charm D, Roar C, Entangle C, Web B
AFTER_ANSWER_SAIS = ("charm", "roar", "entangle", "web")
LATE = "friendly-fire"
BACK_DAMAGE = "back-damage"                 # Counter in the answer (engine.actions.charge)
OWN_ROLL = ("cantrip", "raise", "restore", "fetch")     # resolved in the roll of the army that made them
CHARGING = (*FIRST, CONFUSE, *AFTER_ANSWER, LATE, *OWN_ROLL)
# the answer's SAIs against the charging army
CHARGED = (*FIRST, CONFUSE, CHARM, FLEE, STATE, LATE, BACK_DAMAGE, *OWN_ROLL)


def _icons(dice: Roll) -> list[str]:
    """The icons a roll shows, each once."""
    return list(dict.fromkeys([f.icon for _, faces in dice.units for f in faces] + [icon for icon, _ in dice.counts]))


def noted(dice: Roll, ruleset: Ruleset, kind: str, who: str, out) -> None:
    """What an SAI's entry (or ddref's reading of it) makes of it in this charge roll, where its results are plain
    (``<sai>:in-<kind>`` in the edition's words: Smite, Rend, Fly); a reading (``<sai>:in-<kind>:reading``: what it
    reads, the passage it is read with) is traced as one."""
    for icon in _icons(dice):
        found = ruleset.sai_words.get(f"{icon}:in-{kind}")
        read = ruleset.sai_words.get(f"{icon}:in-{kind}:reading")
        if read is not None and found is not None:
            out.trace.append(reading(f"{icon} in {who}'s {kind} roll: {read[0]}", found[1], read[1]))
        elif found is not None:
            out.trace.append(TraceEvent(what=f"{icon} in {who}'s {kind} roll", rule=found[0], cite=found[1]))


def not_modelled(rolled: list[Special], handled: tuple[str, ...], fight: Fight, field: str) -> None:
    left = [s.sai for s in rolled if s.effect not in handled]
    if left:
        raise StepError(f"{', '.join(dict.fromkeys(left))} in a charge {'answer ' if field == 'saves' else ''}roll "
                        "is not modelled yet by this version of ddref", cite=fight.cite(left[0]), field=field)


def of(rolled: list[Special], *effects: str) -> list[Special]:
    return [s for s in rolled if s.effect in effects]


def first(fight: Fight, rolled: list[Special]) -> None:
    """Kick, Poison, Smother, Flame: the skirmish's handlers (engine.actions.strikes), resolved first."""
    found = [s for s in of(rolled, *FIRST) if s.sai not in AFTER_ANSWER_SAIS]
    if not found:
        return
    rule, where = fight.ruleset.words("charge:first", "special SAIs are resolved first", fight.cite(found[0].sai))
    what = f"{', '.join(dict.fromkeys(s.sai for s in found))} of {fight.attacker}: resolved at once, against " \
           f"{fight.defender}"
    if fight.counter:
        fight.out.trace.append(TraceEvent(what=what, rule=rule, cite=where))
    else:   # reading, traced: "Resolved first" is before the charged army rolls
        fight.out.trace.append(reading(f"{what}, before it rolls: 004 names only Charm, Roar, Entangle and Web as "
                                       "acting on units whose charge roll still counts", where, fight.cite("roar")))
    specials.resolve(fight, found, "special")


def confused(fight: Fight, answer: Roll) -> Roll:
    """Confuse of ``fight``'s attacker: the other army's faces once rolled, the chosen units' new faces in place of
    theirs (engine.actions.delayed.confuse, on ``unit_saves``); in the charging roll, on the answer before it is
    counted; in the answer, on the charging roll, counted again (engine.actions.charge)."""
    found = of(fight.rolled, CONFUSE)
    if not found:
        return answer
    rule, where = fight.ruleset.words("confuse:charge", "after the opponent rolls, the chosen units roll again",
                                      fight.cite(found[0].sai))
    fight.out.trace.append(TraceEvent(what=f"{found[0].sai}: {fight.defender} has rolled; the units chosen roll again "
                                           "and its roll counts their new faces", rule=rule, cite=where))
    fight.saves = answer
    specials.resolve(fight, found, "delayed")
    return fight.saves


def frightened(fight: Fight, rolled: list[Special]) -> None:
    """A Roar: 004 Roar C, "If used during a charge, the units affected by a Roar still apply their results before
    fleeing" -- the other army's units it picks have rolled; they flee once the answer is counted, before the damage
    is taken (a reading: they are no longer there to be taken as losses)."""
    found = [s for s in of(rolled, FLEE) if s.sai in AFTER_ANSWER_SAIS]
    for sai in dict.fromkeys(s.sai for s in found):
        rule, where = fight.ruleset.words(f"{sai}:charge", "the units it picks flee after the charged army's roll",
                                          fight.cite(sai))
        fight.out.trace.append(TraceEvent(what=f"{sai}: the units it picks have rolled with {fight.defender}; now "
                                               "they flee", rule=rule, cite=where))
        strikes.kill_units(fight, sai, [s for s in found if s.sai == sai])


def paralyzed(fight: Fight, rolled: list[Special]) -> None:
    """Entangle, Web: 004 Entangle C, "Rolls already made (such as those during a charge) by Entangled units still
    apply their results", and the same of Web (its B) -- the other army's units it picks have rolled, their results
    count whole; they are paralyzed from now on (a Web's targets first roll a save to escape: engine.actions.
    state_sais). A reading, as for Roar C: the answer is rolled before the effect is placed."""
    found = of(rolled, STATE)
    for sai in dict.fromkeys(s.sai for s in found):
        rule, where = fight.ruleset.words(f"{sai}:charge", "the units it picks have rolled; they cannot roll from "
                                          "now on", fight.cite(sai))
        # a reading (as 004 Roar C's "still apply their results before fleeing"): the answer is rolled before the
        # effect is placed; read with the charge's two rolls (000 Charge), its second citation
        fight.out.trace.append(TraceEvent(what=f"reading: {sai}: the units it picks have rolled with {fight.defender}; "
                                               "their results count, the answer being rolled before the effect is "
                                               "placed", rule=rule, cite=where, kind=READING,
                                          also=fight.ruleset.cites.get("charge") or fight.ruleset.cite("melee")))
    if found:
        fight.state = state_sais.place_states(fight.state, fight.ruleset, found, fight.army("attacker"), fight.army(),
                                              fight.step, fight.out)


def counter_hits(rolled: list[Special], fight: Fight, shielded: bool = False) -> int:
    """Counter in the answer: 000 Counter, "counts as both a save and an immediate hit upon the attacking army,
    which may not roll saves against it". Reading, traced where the charging army has magic saves (``shielded``):
    000 Charge's "Only saves provided by magic count against these hits" stops the melee results, not the
    Counter's hits."""
    hits = 0
    for special in of(rolled, BACK_DAMAGE):
        hits += special.points
        if shielded:
            event = reading(f"{special.unit}'s {special.points}-point {special.sai} hits {fight.attacker} despite its "
                            "magic saves: they count against the melee results, not against the Counter's hits",
                            fight.cite(special.sai), fight.ruleset.cite("charge"))
            fight.out.trace.append(event.evolve(after=special.points))
            continue
        fight.out.trace.append(TraceEvent(what=f"{special.unit}: {special.points}-point {special.sai} also hits "
                                               f"{fight.attacker}", after=special.points,
                                          rule="counts as both a save and an immediate hit upon the attacking army, "
                                               "which may not roll saves against it", cite=fight.cite(special.sai)))
    return hits


def swapped(fight: Fight, rolled: list[Special]) -> Fight:
    """The charged army's SAIs against the charging army: ``fight`` with its sides swapped (004 General Rules A (C):
    "a charge roll by attacker or defender"); its ``counter_order`` orders them."""
    back = Fight(state=fight.state, ruleset=fight.ruleset, attacker=fight.defender, defender=fight.attacker,
                 action=fight.action, step=fight.step, casualties=fight.casualties, out=fight.out, counter=True,
                 charge=True, rolled=rolled)
    melee = [s for s in rolled if s.effect in (*FIRST, FLEE, STATE, LATE, CHARM, CONFUSE)]
    if melee:
        rule, where = back.ruleset.words("charged", "the charged army's roll is a melee roll", back.cite(melee[0].sai))
        back.out.trace.append(TraceEvent(what=f"{', '.join(dict.fromkeys(s.sai for s in melee))} of {back.attacker}'s "
                                              f"answer act against {back.defender}", rule=rule, cite=where))
    return back


def answering(back: Fight) -> None:
    """The answer's Roar, Entangle and Web against the charging army, as it is counted (its Kick, Poison, Smother and
    Flame once it is rolled, engine.actions.charge ``_freed_answer``; its Charm: engine.actions.charge; its Illusion
    once the charge is resolved: ``late``)."""
    frightened(back, back.rolled)
    paralyzed(back, back.rolled)


def late(fight: Fight) -> None:
    """Illusion: "resolved in a seperate roll after the current round of melee is resolved" (engine.actions.illusion)."""
    if of(fight.rolled, LATE) and fight.army().units:
        specials.resolve(fight, fight.rolled, "late")
