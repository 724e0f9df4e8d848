"""Units of a tsr-1996 charge (000 First March, Charge) that no roll of it frees: those whose Entangling monster dies
from the charge's damage (the answer's melee and Counter hits, the charging roll's melee and maneuver), and those
whose Entangling monster a Roar makes flee.

004 Entangle D: "If, during an normal action, a special action icon is rolled which kills the Entangling monster
(Cantrip, Bullseye, or even Smite), the Entangled unit(s) may immediately be rolled and are counted in the current
roll". Readings, traced with both citations, and an error where the step gives such a unit a roll (``unit_saves``):

- the charge's damage is taken once both rolls are counted (000 Charge: "After you count up the damage, the target
  army rolls. Any save results reduce the damage ... and any melee results are counted as damage against the acting
  army"; 000 Counter in "a defender's roll during a charge" is "a save and an immediate hit upon the attacking army,
  which may not roll saves against it", counted with those melee results, engine.actions.charge_sais
  ``counter_hits``): a monster it kills frees its units when no current roll remains for them to join;
- a Roar kills nobody ("choose four health of opposing units to immediately flee to their reserves"), and in a charge
  acts once the rolls are made (004 Roar C: "the units affected by a Roar still apply their results before fleeing"):
  the fled monster's Entangle stands (004 Entangle: "Killing the monster negates this effect").
"""

from __future__ import annotations

from ..state import Effect, GameState
from ..trace import StepError, reading
from .fight import Fight


def held(fight: Fight) -> list[tuple[Effect, str | None]]:
    """The effects still holding units as the charge's damage is about to be taken whose end frees their units
    (an Entangle: ``freed_roll``), each with the army its maker is in."""
    rules, state = fight.ruleset.sai_states, fight.state
    return [(e, next((a.id for a in state.armies if a.unit(e.source) is not None), None)) for e in state.effects
            if e.source and (r := rules.get(e.spell)) is not None and r.freed_roll]


def checked(fight: Fight, countered: Fight, effects: list[tuple[Effect, str | None]], state: GameState) -> None:
    """Of ``effects`` (``held`` before the damage), those whose maker the damage killed (by ``state``) or a Roar made
    flee: their units roll in no roll of the charge; a ``unit_saves`` entry for one is an error saying why."""
    alive = {u.id for a in state.armies for u in a.units}
    rolled = {*fight.freed, *countered.freed, *fight.rolled_units, *countered.rolled_units}
    given = dict(fight.step.unit_saves)
    for effect, home in effects:
        if effect.target in rolled:
            continue
        if effect.source not in alive:
            _killed(fight, effect, home, effect.target in given)
        elif effect.source in fight.out.fled:
            _fled(fight, effect, effect.target in given)


def _killed(fight: Fight, effect: Effect, home: str | None, given: bool) -> None:
    charge = fight.ruleset.cite("charge")
    by = f"{fight.defender}'s answer (its melee and Counter hits)" if home == fight.attacker \
        else f"{fight.attacker}'s charging roll"
    what = (f"{effect.target}, under {effect.source}'s {effect.spell}, is freed only as {effect.source} is killed "
            f"once both rolls are counted (by the charge's damage from {by}, or by an effect resolved after the "
            "charge, such as an Illusion): no current roll remains for it to join, it rolls in no roll of this charge")
    if given:
        raise StepError(f"unit_saves.{effect.target} is given, but {what} (004 Entangle D: the Entangled units 'are "
                        "counted in the current roll'; 000 Charge: the damage and the melee results, a Counter's "
                        f"hits with them, are taken after the target army rolls [{charge}]): remove "
                        f"unit_saves.{effect.target}", cite=_cite(fight, effect), field="unit_saves")
    fight.out.trace.append(reading(what, _cite(fight, effect), charge))


def _fled(fight: Fight, effect: Effect, given: bool) -> None:
    roar = fight.cite("roar")
    what = (f"{effect.source} fled by a Roar, which kills nobody: its {effect.spell} on {effect.target} stands "
            "(killing the monster negates it), and a Roar in a charge acts once the rolls are made: "
            f"{effect.target} is not freed")
    if given:
        raise StepError(f"unit_saves.{effect.target} is given, but {what} (004 Entangle D: 'a special action icon is "
                        "rolled which kills the Entangling monster'; 004 Roar C: the units 'still apply their results "
                        f"before fleeing' [{roar}]): remove unit_saves.{effect.target}", cite=_cite(fight, effect),
                        field="unit_saves")
    fight.out.trace.append(reading(what, _cite(fight, effect), roar))


def _cite(fight: Fight, effect: Effect) -> str:
    return fight.cite(effect.spell)
