"""SAIs that act on the defending army's own rolls: Charm (its units add their results to the attack),
and the Delayed Decapitate, Impale, Choke and Confuse (after it rolls saves, before it applies its unique or
special SAIs).

002 SAI Resolution, Delayed: "the application of the SAI's effect must wait until after a target rolls but
before they finalize any results or, if specified in the SAI's description, before they apply any Unique or
Special resolution SAIs." A unit killed then "does not have its results counted in the army total" (002 SAI
Resolution: "any component removed from the army by a Special or Unique resolution type SAI ... does not
have its results counted"), and a unit rolled again by Confuse counts its new roll: these act on the faces
the defending army shows (``fight.saves``), and the action counts the roll once they have acted.
"""

from __future__ import annotations

from ..roll import Roll, Special
from ..trace import StepError, TraceEvent
from .fight import Fight
from .strikes import chosen, rolled_id


def _per_unit_saves(fight: Fight, sai: str) -> Roll:
    if fight.saves is None or not fight.saves.per_unit:
        raise StepError(f"{sai} acts on the units of {fight.defender} by what each rolled: give its save roll "
                        f"per unit (saves.{fight.defender})", cite=fight.cite(sai), field="saves")
    return fight.saves


def rolled_id_kill(fight: Fight, sai: str, specials: list[Special]) -> None:
    """Decapitate, Impale ("choose one unit ... that rolled an ID icon to be killed"), Choke ("up to four
    health-worth of units ... that rolled an ID icon to immediately be killed")."""
    saves = _per_unit_saves(fight, sai)
    ids = [uid for uid, faces in saves.units if rolled_id(Roll(units=((uid, faces),)))]
    if not ids:
        fight.out.trace.append(TraceEvent(what=f"{sai}: no unit of {fight.defender} rolled an ID icon", after=0,
                                          rule="only a unit that rolled an ID icon can be chosen",
                                          cite=fight.cite(sai)))
        return
    for uid in chosen(fight, sai, specials, among=ids):
        # a reading with 002 Resolution (sfr-v4's Die Roll Resolution): its second citation
        fight.kill(uid, sai, "a unit that rolled an ID icon is killed, before its army applies any unique or "
                             "special SAI; reading: its results no longer count, as a component removed by a "
                             "special SAI's", also=fight.ruleset.cite('sai-resolution'))
    _drop(fight, [u for u, _ in saves.units if fight.army().unit(u) is None])


def confuse(fight: Fight, sai: str, specials: list[Special]) -> None:
    """Confuse: "choose up to four health-worth of units in the defending army and force them to roll again.
    Selected units ignore their original roll and apply the new roll instead" (their new faces:
    ``unit_saves``)."""
    saves = _per_unit_saves(fight, sai)
    faces = dict(saves.units)
    for uid in chosen(fight, sai, specials):
        new = fight.unit_roll(uid, f"again, forced by {sai}", sai)
        faces[uid] = dict(new.units).get(uid, ())
        fight.out.trace.append(TraceEvent(what=f"{sai}: {uid} rolls again: "
                                               f"{', '.join(f'{f.icon} {f.count}' for f in faces[uid]) or 'nothing'}",
                                          rule=fight.ruleset.quote(f"{sai}-reroll", "selected units ignore their "
                                                                   "original roll and apply the new roll"),
                                          cite=fight.cite(sai)))
    # the faces the Confuse gave replace the unit's whole roll: a Flashfire reroll marked in its saves no longer has
    # the face it replaced (its new roll is the Confuse's)
    confused = set(faces) - {u for u, f in saves.units if faces[u] == f}
    fight.saves = saves.evolve(units=tuple(faces.items()), rerolled=tuple(r for r in saves.rerolled
                                                                          if r[0] not in confused))


def _drop(fight: Fight, gone: list[str]) -> None:
    """The units the Delayed SAI killed leave the roll; the others keep their faces and their Flashfire rerolls (a
    reroll the roll marks is checked when the roll is counted, engine.roll: dropping it would let it pass unchecked)."""
    if gone:
        fight.saves = fight.saves.evolve(units=tuple((u, f) for u, f in fight.saves.units if u not in gone))


def charm(fight: Fight, sai: str, specials: list[Special]) -> None:
    """Charm: "choose up to four health-worth of units in an opposing army to add their results to the
    results of the acting army. The affected unit(s) return to their owner's control immediately after the
    defender's save roll. Their owner may choose charmed units as casualties".

    Reading: a charmed unit is rolled at once by itself (``unit_saves``: 002 SAI Resolution, "Components that
    are brought into an army with a Special or Unique resolution type SAI ... are rolled immediately and the
    results applied with the results of their army"); its results are added to the attack as rolled, and it
    does not roll in its own army's saves, being under the acting player's control until they are rolled.
    """
    for uid in chosen(fight, sai, specials, army_id=_charmed_army(fight, sai)):
        got = fight.roll_unit(uid, fight.action, (fight.action,), f"for the acting army, charmed by {sai}", sai)
        n = got.results.get(fight.action, 0)
        rolling = fight.out.rolls.get(fight.attacker)
        if rolling is not None and rolling.ctx.kind == fight.action:
            # the charmed unit's roll joins the acting army's roll in progress: its results are "applied with the
            # results of their army" (002 Resolution), through the army's modifiers (engine.actions.combat)
            rolling.join(uid, got)
        else:
            # the acting army's roll is not made yet (its player's order resolves the Charm before its Cantrip, which
            # suspends the roll): the charmed unit joins it once it is made, never added beside it
            fight.charmed_waiting[uid] = got
        fight.charmed.append(uid)
        rule, where = fight.ruleset.words(f"{sai}:adds", "charmed units add their results to the results of the "
                                          "acting army", fight.cite(sai))
        fight.out.trace.append(TraceEvent(what=f"{sai}: {uid} adds {n} {fight.action} result(s) to "
                                               f"{fight.attacker}", after=n, rule=f"{rule}; reading: rolled at once "
                                          "by itself, as a component brought into an army by a special SAI",
                                          cite=where, also=fight.ruleset.cite('sai-resolution')))


def _charmed_army(fight: Fight, sai: str) -> str:
    """Charm picks its units "in an opposing army": the one its first target is in (by default the defender);
    the others must be in the same army. An opposing army is "An enemy army located at the same terrain as your
    own army" (002 Glossary, Opposing Army); 000 Charm takes "opposing units" "During melee", which is fought at
    one terrain: an army elsewhere is no opposing army in any edition."""
    named = [uid for uid, _ in fight.targets(sai) or ()]
    homes = {a.id for uid in named for a in fight.state.armies if a.unit(uid) is not None}
    acting = fight.army("attacker")
    opposing = [a.id for a in fight.state.armies if a.player != acting.player and a.at == acting.at and a.units]
    if len(homes) > 1 or any(h not in opposing for h in homes):
        raise StepError(f"{sai} picks its units in one opposing army, an enemy army at {acting.at} "
                        f"({', '.join(opposing)}); {', '.join(named)} are in {', '.join(sorted(homes))}",
                        cite=fight.cite(sai), field="targets")
    return homes.pop() if homes else fight.defender
