"""The Cantrip of a unit freed from an Entangle into its army's roll (tsr-1996): a melee or missile attack roll, or
the defender's save roll (engine.actions.freed_saves).

004 Entangle D: "If, during an normal action, a special action icon is rolled which kills the Entangling monster
(Cantrip, Bullseye, or even Smite), the Entangled unit(s) may immediately be rolled and are counted in the current
roll"; 000 Cantrip: "During any other action (including rolling for saves or during a dragon attack), the cantrip can
be used to purchase immediate spells", resolved, as 000 Special Action Icons' example has it, "Before the defending
army rolls for saves". Two cases:

- the army's roll shows no Cantrip: the freed units' buy the step's ``cantrip.<army>``, whose check that the army
  rolled one waits until the freed units have rolled (``waits``), as for units joining a roll from outside
  (engine.actions.cantrip ``may_join``, ``joined``);
- the army's own Cantrip was resolved before they rolled (its spell may be what freed them): a reading, traced
  (``_own_purchase``): the freed units' Cantrip is a purchase of its own points, the step's ``cantrip.<unit>``.

A spell either buys that changes the army's roll (or a freed unit's) has that roll counted again
(engine.actions.cantrip ``army_again``, ``unit_again``), which the army's count then reads
(engine.actions.joined_rolls ``through_pipeline``).
"""

from __future__ import annotations

from ..roll import Outcome, Roll, Special
from ..state import Army
from ..trace import StepError, reading
from . import cantrip, freed_sais
from .fight import Fight
from .sai_choices import special_choices


def waits(fight: Fight, who: Army, dice: Roll) -> bool:
    """Whether the step's ``cantrip.<army>`` waits for the units freed into ``who``'s roll (its attack roll, or its
    save roll: engine.actions.freed_saves): its own roll shows no Cantrip and a unit that may be freed into it
    (under an Entangle, given a roll: ``freed_sais.freeable``) rolls one. The army's Cantrip check
    (engine.actions.cantrip ``use``) is then made once they have rolled (``bought``)."""
    under = freed_sais.freeable(fight.state, fight.ruleset, who, fight.step)
    if not under or cantrip.points(who, dice, fight.ruleset):
        return False
    return any(cantrip.rolled(r) for u, r in fight.step.unit_saves if u in under)


def returned(joined: dict[str, Outcome]) -> dict[str, Outcome]:
    """The rolls of the units brought into a roll (Regenerate, Ferry: ``joined``) when one shows a Cantrip, which
    waits to be one purchase with that of the units freed into the roll (``bought``'s ``others``; a spell it buys on
    any of them counts its roll again), else none."""
    return dict(joined) if _cantrips(joined) else {}


def _cantrips(rolls: dict[str, Outcome]) -> list[str]:
    """The units whose roll (of ``rolls``) shows a Cantrip."""
    return [u for u, o in rolls.items() if any(s.effect == cantrip.CANTRIP for s in o.specials)]


def bought(fight: Fight, who: Army, rolled: Outcome, joined: dict[str, Outcome], dice: Roll, buys: dict,
           waited: bool, roll_kind: tuple[str, tuple[str, ...]], others: dict[str, Outcome] | None = None,
           **kwargs) -> Outcome:
    """The spells the Cantrip of the units freed into ``who``'s roll (``rolled``: a ``roll_kind`` roll of ``dice``)
    buys, resolved at once, before the roll's results are applied (an attack's: before the defender's saves): the
    step's ``cantrip.<army>`` when the army's roll had none (``waited``), else their own purchase
    (``_own_purchase``). No purchase given: it buys nothing (traced, ``defaulted``). ``others``: the rolls of the units
    a Regenerate (or Ferry) brought into the roll whose Cantrip waited with the army's purchase (``returned``): one
    purchase with the freed units' (``_with_returned``), their entries replaced if a spell counts them again (as is
    the roll in progress, whose count reads them: engine.actions.joined_rolls ``through_pipeline``). Returns the
    army's roll (counted again, with ``kwargs``, if a spell changed it)."""
    found = [s for o in joined.values() for s in o.specials if s.effect == cantrip.CANTRIP]
    if not waited and not found:
        return rolled
    others = others if others is not None else {}
    everyone = {**others, **joined}
    if waited:
        _not_own(who, found, buys, fight.cite(cantrip.CANTRIP))
    key = None if waited else _own_purchase(fight, who, found, buys)
    choices = special_choices(fight.step)
    what = cantrip.roll_words(roll_kind)
    _with_returned(fight, who, others, joined)
    fight.state, spelled = cantrip.joined(fight.state, who, [], everyone, buys, fight.ruleset, fight.out,
                                          what, lambda now, unit_id: cantrip.unit_again(
                                              fight, now, who, unit_id, everyone, roll_kind, choices=choices), key)
    joined.update({u: everyone[u] for u in joined})
    others.update({u: everyone[u] for u in others})
    if spelled:
        rolled = cantrip.army_again(fight, rolled, who, dice, roll_kind, **kwargs)
    return rolled


def _not_own(who: Army, found: list[Special], buys: dict, cite: str) -> None:
    """The army's roll showed no Cantrip: a purchase named for a freed unit (``cantrip.<unit>``) is an error saying
    that its Cantrip buys the army's."""
    named = [s.unit for s in found if s.unit in buys]
    if named:
        raise StepError(f"cantrip.{named[0]} is given, but {who.id}'s roll shows no Cantrip of its own: "
                        f"{named[0]}'s, freed into it, buys the step's cantrip.{who.id} (cantrip.<unit> is "
                        "a freed unit's own purchase after the army's own Cantrip was resolved)",
                        cite=cite, field="cantrip")


def _own_purchase(fight: Fight, who: Army, found: list[Special], buys: dict) -> str:
    """Reading, traced: the army's own Cantrip was resolved before the units were freed (its spell may be what freed
    them: 004 Entangle D names the Cantrip among the SAIs that kill the Entangling monster), so it was not rolled at
    the same time as theirs, which 002 Targeting combines ("If multiple components with identical SAIs are rolled at
    the same time ... their effects are combined"), and its purchase is spent: the freed units' Cantrip (000: it
    "can be used to purchase immediate spells") is a purchase of its own points, the step's ``cantrip.<unit>`` for one
    of them (those freed together rolled at one time: one purchase). Returns that unit's id."""
    rollers = list(dict.fromkeys(s.unit for s in found))
    named = [u for u in rollers if u in buys]
    if len(named) > 1:
        raise StepError(f"{', '.join(named)} were freed into {who.id}'s roll together: their Cantrips are one "
                        f"purchase (identical SAIs rolled at the same time are combined); give it once, as "
                        f"cantrip.{named[0]}", cite=fight.ruleset.cite("sai-targeting"), field="cantrip")
    key = (named or rollers)[0]
    fight.out.trace.append(reading(
        f"the Cantrip of {', '.join(rollers)}, freed into {who.id}'s roll after the army's own Cantrip was "
        f"resolved (whose spells may be what freed {'them' if len(rollers) > 1 else 'it'}), was not rolled at the same "
        "time as the army's, whose purchase is spent: it buys spells of its own points, resolved at once, the step's "
        f"cantrip.{key}", fight.cite("entangle"), fight.ruleset.cite("sai-targeting")))
    return key


def _with_returned(fight: Fight, who: Army, others: dict[str, Outcome], joined: dict[str, Outcome]) -> None:
    """Reading, traced: the units a Regenerate (or Ferry) brought into the army's roll and those freed into it both
    rolled a Cantrip, the army's own roll none: both joined the one roll before its results are applied, which their
    Cantrips suspend (002 Resolution, Unique: "All activity is suspended to resolve the effect of this SAI"); identical
    SAIs of one roll "are resolved simultaneously (i.e. their effects are combined)" (002 Targeting: "The acting
    player does not spend one Cantrip, then the other separately"): the returned units' Cantrip waits for the freed
    units', one purchase of their points, the step's ``cantrip.<army>`` (000 Cantrip: it "can be used to purchase
    immediate spells"), as the army's own waits for a returned unit's (engine.actions.cantrip ``joined``). Neither was
    resolved before the other (unlike the army's own Cantrip, ``_own_purchase``)."""
    if not others:
        return
    fight.out.trace.append(reading(
        f"the Cantrip of {', '.join(_cantrips(others))}, brought into {who.id}'s roll, whose own roll shows none, "
        f"waits for that of {', '.join(_cantrips(joined)) or 'the units freed into it'}, freed into it: both joined "
        "the roll before its results are applied, identical SAIs of one roll combined: one purchase of their points, "
        f"the step's cantrip.{who.id}", fight.cite("entangle"), fight.ruleset.cite("sai-targeting")))
