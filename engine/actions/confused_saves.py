"""An attack's Confuse and the units that join the defender's save roll in a skirmish (tsr-1996).

004 Confuse: "after your opponent rolls, choose four health of his units and force them to reroll"; in a melee or
missile attack it acts on the defender's faces once rolled, before the save roll is counted and its own SAIs
resolved (engine.actions.combat ``_delayed``). Units join that save roll only as it is resolved: those a Regenerate
(or Ferry) of it brings (004 Regenerate B: "rolled immediately and their results are counted toward the current
roll"), those freed from an Entangle by its Cantrip or Counter (004 Entangle D: "may immediately be rolled and are
counted in the current roll"). Reading, traced with both citations: they roll after the Confuse has picked, so it
cannot pick them (unlike the charge, where the answer's Confuse acts once the charging roll, its joined units
included, is counted: engine.actions.charge); naming one is an error saying so.
"""

from __future__ import annotations

from ..trace import StepError, reading
from .fight import Fight
from .freed_sais import freeable

CONFUSE = "reroll-saves"


def not_joined_yet(fight: Fight) -> None:
    """The attack's Confuse names no unit that only joins the defender's save roll as it is resolved: one given a
    roll (``unit_saves``) and not in the army (a Regenerate or Ferry brings it), or under an Entangle (freed)."""
    if fight.step is None:
        return
    given = {u for u, _ in getattr(fight.step, "unit_saves", ())}
    later = freeable(fight.state, fight.ruleset, fight.army(), fight.step)
    for sai in dict.fromkeys(s.sai for s in fight.rolled if s.effect == CONFUSE):
        for uid, _ in fight.targets(sai) or ():
            if uid in later or (uid in given and fight.army().unit(uid) is None):
                how = "freed from an Entangle" if uid in later else "brought by a Regenerate or Ferry"
                raise StepError(f"{sai} cannot pick {uid}: it is {how} into {fight.defender}'s save roll only as "
                                f"that roll is resolved, after {sai} acted on the faces rolled (a reading, "
                                f"{fight.cite(sai)} with {_joining_cite(fight, uid in later)}): choose among the "
                                f"units that rolled", cite=fight.cite(sai), field="targets")


def joined_after(fight: Fight, before: set[str]) -> None:
    """Once the save roll is counted: the units that joined it (not in the army when it rolled, ``before``, or freed
    into it) after the attack's Confuse acted, traced as the reading."""
    confuse = next((s.sai for s in fight.rolled if s.effect == CONFUSE), None)
    joined = [u.id for u in fight.army().units if u.id not in before] + list(fight.freed_saves)
    if confuse is None or not joined:
        return
    freed = set(fight.freed_saves)
    for uid in dict.fromkeys(joined):
        fight.out.trace.append(reading(
            f"{uid} joined {fight.defender}'s save roll as it was resolved, after {fight.attacker}'s {confuse} acted "
            f"on the faces rolled: {confuse} could not pick it, its roll counts as rolled", fight.cite(confuse),
            _joining_cite(fight, uid in freed)))


def _joining_cite(fight: Fight, freed: bool) -> str:
    return fight.cite("entangle" if freed else "regenerate")
