"""A unit's own roll: a unit rolled by itself against an effect aimed at it, with its SAIs' special results.

Every roll a unit makes by itself goes through ``unit_roll``: its save against a spell aimed at it, an SAI's "roll
an ID (or a result) or be killed" test, its escape roll (Web, Net, Stun), a killed unit's burial roll, its roll
against Mutation, Flood or Resist Burial, its save against a dragon breath and against the breath's burial
(engine.actions.breath). 002 SAI General Information, Application: "SAIs have their same effect
whether the unit containing the SAI is rolled individually or as part of an army", so the special results of its
roll are resolved as in its army's roll (engine.actions.sai_states.in_roll, against the unit's army):

- Regenerate brings dead units back to its army; reading: the units join the army but are not rolled (002
  Resolution rolls them "with the results of their army", and a unit's own roll is no army's roll). The Gold and
  Silver Medallions never roll by themselves ("A magical item can be rolled only if a unit capable of carrying
  that item is rolled", 002 Magical Items: engine.carrying refuses it).
- Vanish, Ferry, Teleport and Firewalking move the unit (and the units going along) away; the unit's own results
  stand and the effect still finds it: "Individual units can escape from effects that target their armies, but
  they cannot escape from effects that target them individually" (002 Damage). The caller looks its army up again.
- Cloak gives normal results there ("During a roll against an individual-targeting effect, Cloak generates magic,
  maneuver, melee, missile or save results", engine.sais.INDIVIDUAL_ROLL).
- A dead unit rolls in the DUA, where "no special SAI results (unless the SAI description states otherwise) works
  in the DUA" (002 Avoidance Rolls): a step naming a choice for such an SAI there is refused with that rule; the
  SAI's normal results (Regenerate's, Vanish's saves) count ("unless the SAI generates normal results you are
  looking for in an individual roll", 002 Application).

The choices are the step's ``targets``, ``move_to`` and a chosen "Normal or Special" SAI (engine.actions.sai_choices
``special_choices``).
"""

from __future__ import annotations

from ..roll import Outcome, Roll
from ..ruleset import Ruleset
from ..sais import OWN_ROLL
from ..state import Army, GameState
from ..steps import StepResult
from ..trace import StepError, TraceEvent, reading
from .common import roll
from .sai_choices import special_choices
from .sai_states import in_roll

CLOAK = "cloak"


def unit_roll(state: GameState, ruleset: Ruleset, who: Army, unit_id: str, kind: str, wanted: tuple[str, ...],
              dice: Roll, out: StepResult, step=None, choices: dict | None = None) -> tuple[GameState, Outcome]:
    """``unit_id`` of ``who`` (its army, or a one-unit army for a dead unit) rolls ``dice`` by itself, a ``kind``
    roll for ``wanted``; ``step`` holds the choices for its SAIs. Returns the state once its specials are
    resolved, and the roll."""
    picks = {**(choices or {}), **special_choices(step)}
    outcome = roll(state, ruleset, who, kind, wanted, dice, out, unit=unit_id, choices=picks)
    if CLOAK in ruleset.sai_sections and CLOAK in (*(f.icon for _, fs in dice.units for f in fs), *dict(dice.counts)):
        out.trace.append(reading(f"{unit_id}'s Cloak gives its normal results: every roll a unit makes by itself "
                                 "answers an effect aimed at it alone", ruleset.sai_sections[CLOAK],
                                 ruleset.cite("sai-application")))
    own = [s for s in outcome.specials if s.effect in OWN_ROLL]
    if not own:
        return state, outcome
    out.own_sais.extend(s.sai for s in own)     # their targets are read (engine.actions.specials.leftover_choices)
    home = next((a for a in state.armies if a.unit(unit_id) is not None), None)
    if home is None:
        buried = any(u.id == unit_id for a in state.bua for u in a.units)
        _in_dua(ruleset, own, unit_id, step, out, "BUA" if buried else "DUA")
        return state, outcome
    start = len(out.moved)
    state, _ = in_roll(state, ruleset, outcome, home, step, out, None, "")
    if unit_id in out.moved[start:]:
        out.trace.append(reading(f"{unit_id} moved during its own roll, which still answers the effect "
                                 "aimed at it (\"they cannot escape from effects that target them individually\")", ruleset.cite("damage"), ruleset.cite("sai-resolution")))
    return state, outcome


def _in_dua(ruleset: Ruleset, own: list, unit_id: str, step, out: StepResult, area: str) -> None:
    """A dead unit's SAIs: no special result works in the DUA (read for a buried unit's roll, Resist Burial, as
    for the DUA: the rules name no SAI working in the BUA); a choice made for one is refused."""
    named = {sai for sai, _ in (*getattr(step, "targets", ()), *getattr(step, "move_to", ()))}
    rule = "no special SAI results (unless the SAI description states otherwise) works in the DUA"
    if area == "BUA" and own:
        out.trace.append(reading(f"{unit_id} rolls in the BUA, where the rules name no SAI working: as in the DUA, "
                                 "no special result works", ruleset.cite("sai-application"),
                                 ruleset.cite("avoidance")))
    for special in own:
        if special.sai in named:
            raise StepError(f"{unit_id} rolls {special.sai} in the {area}, where no special SAI result works: the "
                            f"step's targets/move_to for {special.sai} cannot be used there",
                            cite=ruleset.cite("sai-application"), field="targets")
        out.trace.append(TraceEvent(what=f"{unit_id}: {special.sai}'s special result has no effect in the {area}",
                                    after=0, rule=rule, cite=ruleset.cite("sai-application")))
