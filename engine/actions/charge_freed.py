"""Units freed from an Entangle into a roll of tsr-1996's charge (000 First March, Charge): the charging army's roll
or the charged army's answer.

004 Entangle D: "If, during an normal action, a special action icon is rolled which kills the Entangling monster
(Cantrip, Bullseye, or even Smite), the Entangled unit(s) may immediately be rolled and are counted in the current
roll"; 004 General Rules A: "during melee" includes "(C) a charge roll by attacker or defender", so a roll's Kick,
Poison, Smother or Flame (resolved first, engine.actions.charge_sais ``first``) or its Cantrip's spell can kill the
other army's Entangling monster. Its units then roll at once (``unit_saves``), a roll of the same kind: their melee
and maneuver (ID icons as either) are damage in the charging roll, their saves and melee count in the answer; their
SAIs act as the army's own in that roll (002 Application: "SAIs have their same effect whether the unit containing the
SAI is rolled individually or as part of an army"), as those of units brought in by Regenerate or Ferry do
(engine.actions.charge ``_joined``): their returning SAIs bring units that roll at once, their Cantrip buys spells
(engine.actions.freed_cantrip), their Kick, Poison, Smother and Flame are resolved at once, their Charm, Roar,
Entangle, Web, Confuse, Illusion and Counter with the army's own, when the army's are; one identical to an SAI the
roll resolved before they were freed continues it, as in a skirmish (engine.actions.freed_sais).
"""

from __future__ import annotations

from msgspec.structs import replace

from ..roll import Outcome, Roll
from ..trace import TraceEvent, reading
from . import charge_sais, freed_cantrip, joined_rolls, sai_states
from .cantrip import CANTRIP
from .fight import Fight
from .freed_sais import SPREAD, STRIKE, read_continued, struck_again
from .sai_choices import special_choices


def waits(fight: Fight, who: str, dice: Roll) -> bool:
    """Whether the step's ``cantrip.<army>`` of ``who`` (``attacker`` or ``defender`` of ``fight``) waits for the
    units that may be freed into its charge roll (engine.actions.freed_cantrip ``waits``)."""
    return freed_cantrip.waits(fight, fight.army(who), dice)


def freed(fight: Fight, rolled: Outcome, dice: Roll, roll_kind: tuple[str, tuple[str, ...]], handled: tuple[str, ...],
          buying: tuple[dict, bool, dict[str, Outcome]]) -> Outcome:
    """The units of ``fight``'s attacker (the army that made ``rolled``, a ``roll_kind`` roll of ``dice``: the
    charging roll, or the answer with ``fight`` swapped) freed by an SAI of that roll, rolled at once and counted in
    it: their results count with the army's through the one pipeline (engine.actions.joined_rolls
    ``through_pipeline``). Returns the army's roll (its specials with theirs, counted again if their Cantrip's spells
    changed it). ``handled``: the effects the roll resolves; ``buying``: the step's ``cantrip``
    buys, whether the army's purchase waited for them and the rolls of the units a Regenerate (or Ferry) brought into
    the roll whose Cantrip waited with it (one purchase with theirs: engine.actions.freed_cantrip ``bought``)."""
    (kind, wanted), who = roll_kind, fight.army("attacker")
    joined: dict[str, Outcome] = {}
    if any(e.source for e in fight.state.effects):     # else no effect ends with its maker: nobody to free
        fight.state, joined = sai_states.freed_roll(fight.state, fight.ruleset, who, fight.step, fight.out, kind,
                                                    wanted[0], wanted)
        joined_rolls.unmerged(joined, fight.ruleset, kind, handled)
    fight.freed = tuple(joined)
    if joined:
        _read_freed(fight, tuple(joined), wanted)
    returned = dict(buying[2])
    if joined or returned:
        # a spell of the one purchase on a returned unit counts its roll again (traced by cantrip.unit_again)
        rolled = freed_cantrip.bought(fight, fight.army("attacker"), rolled, joined, dice, buying[0], buying[1],
                                      roll_kind, others=returned, choices=special_choices(fight.step))
    if not joined:
        return rolled
    own = _own(fight, joined)
    added = {t: sum(o.results.get(t, 0) for o in joined.values()) for t in wanted}
    fight.out.trace.append(TraceEvent(what=f"{', '.join(joined)} add {', '.join(f'{n} {t}' for t, n in added.items())} "
                                           f"to {fight.attacker}'s roll", after=sum(added.values()),
                                      rule="the Entangled unit(s) may immediately be rolled and are counted in the "
                                      "current roll", cite=fight.cite("entangle")))
    return replace(rolled, specials=[*rolled.specials, *own])


def _own(fight: Fight, joined: dict[str, Outcome]) -> list:
    """The freed units' specials, as the army's own in its charge roll: their Kick, Poison, Smother, Flame resolved at
    once (``charge_sais.first``), the rest left to the army's (``fight.rolled``). One identical to an SAI the roll
    resolved already continues it, as in a skirmish (engine.actions.freed_sais: 002 Targeting, identical SAIs' "effects
    are combined"): a Kick's points added to the first's on its target (that target dead, the next the step's
    ``targets`` name), a Poison, Smother or Flame taking the units the step's ``targets`` name past the first's."""
    resolved = [s for s in fight.rolled if s.effect in charge_sais.FIRST and s.sai not in charge_sais.AFTER_ANSWER_SAIS]
    own = joined_rolls.own_specials(joined, resolved, fight.ruleset, fight.attacker, later=(CANTRIP,),
                                    trace=fight.out.trace, combines=charge_sais.FIRST)
    again = [s for s in own if s.sai in {x.sai for x in resolved}]
    read_continued(fight, again)
    late = [s for s in again if s.effect in (STRIKE, SPREAD)]
    charge_sais.first(fight, [s for s in own if s not in late])
    struck_again(fight, late)
    fight.rolled = [*fight.rolled, *own]
    return own


def _read_freed(fight: Fight, units: tuple[str, ...], wanted: tuple[str, ...]) -> None:
    """Reading, traced with both citations: 004 Entangle D's "current roll" is the charge roll the freeing SAI was
    rolled in (004 General Rules A (C): "a charge roll by attacker or defender"), which the freed units join as
    units brought into it do (004 Regenerate B): counted for what that roll counts."""
    roll = "the answer" if fight.counter else "the charging roll"
    fight.out.trace.append(reading(
        f"{', '.join(units)}, freed by an SAI of {fight.attacker}'s charge roll, "
        f"{'roll' if len(units) > 1 else 'rolls'} in it at once: the current roll is {roll}, its results counted as {' and '.join(wanted)}, its SAIs "
        "acting as the army's own in that roll", fight.cite("entangle"), fight.ruleset.cite("charge")))
