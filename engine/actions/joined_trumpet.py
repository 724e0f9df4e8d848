"""A Trumpet in a roll that units joined during the roll (sfr-2012).

002 SAI List, Trumpet: "During a melee attack, melee avoidance roll or save roll, Trumpet allows each Feral unit in the
army containing this unit to immediately double its melee and save results"; 002 Resolution: components brought into
an army during a roll (Regenerate, the Gold Medallion) "are rolled immediately and the results applied with the
results of their army"; 002 Targeting: SAIs that "multiply or divide a result cannot be combined to cause a greater
effect upon that same unit". Reading, traced with those citations: once a unit has joined, it is a unit "in the army
containing" the Trumpet, so a Trumpet of the roll (the army's, or a joining unit's) doubles every Feral unit in it, the
joining units included, once however many Trumpets: a roll that showed none is counted again with it (the Trumpet
being "immediate", before the roll's results are applied). The joining units' rolls are counted again where they
join (``joined_ferals``, engine.actions.sai_states ``bring_in``: every roll units join), the army's own roll by the
caller that holds its dice (``together``: a skirmish's attack and save rolls, engine.actions.combat; a save roll
against spells, engine.actions.spells; against a dragon attack a Trumpet has no effect).
"""

from __future__ import annotations

from ..roll import Outcome, Roll
from ..ruleset import Ruleset
from ..sai_doubling import TRUMPET, TRUMPETED
from ..state import Army, GameState
from ..steps import StepResult
from ..trace import reading
from .cantrip import army_recounted, unit_recounted
from .sai_choices import special_choices

# the choice that counts a roll again with a Trumpet it did not show itself (engine.sai_doubling)
BLOWN = {TRUMPETED: {"joined": 1}}


def _blew(outcome: Outcome) -> bool:
    return any(s.sai == TRUMPET for s in outcome.specials)


def _ferals(army: Army) -> set[str]:
    return {u.id for u in army.units if u.race == "feral"}


def _read(ruleset: Ruleset, blowers: list[str], reached: list[str], who: str, out: StepResult) -> None:
    out.trace.append(reading(
        f"the Trumpet of {', '.join(blowers)} sounds in {who}'s roll, which units joined: each Feral unit in the army, "
        f"those joining it included, doubles its melee and save results once, so {', '.join(reached)} "
        f"{'is' if len(reached) == 1 else 'are'} counted again with it",
        ruleset.sai_sections.get(TRUMPET, ruleset.cite("sai-resolution")), ruleset.cite("sai-resolution")))


def joined_ferals(state: GameState, ruleset: Ruleset, rolled: Outcome, army_id: str, joined: dict[str, Outcome],
                  step, out: StepResult, kind: str | None, wanted: tuple[str, ...]) -> None:
    """The Feral units that joined ``army_id``'s roll (``rolled``) without a Trumpet of their own, counted again with
    the roll's (the army's or a joining unit's): their entries in ``joined`` and in the roll in progress replaced
    (engine.actions.cantrip ``unit_recounted``), which the roll's count then reads (engine.actions.joined_rolls
    ``through_pipeline``)."""
    if kind is None or not joined:
        return
    blowers = [army_id] * _blew(rolled) + [u for u, o in joined.items() if _blew(o)]
    units = [u for u in joined if u in _ferals(state.army(army_id)) and not _blew(joined[u])] if blowers else []
    if not units:
        return
    _read(ruleset, blowers, units, army_id, out)
    for unit_id in units:
        unit_recounted(state, ruleset, out, army_id, unit_id, joined, (kind, wanted), dict(step.unit_saves)[unit_id],
                       read=False, choices={**special_choices(step), **BLOWN})


def army_reached(ruleset: Ruleset, rolling: tuple[Army, Roll], rolled: Outcome, joined: dict[str, Outcome],
                 out: StepResult) -> bool:
    """Whether ``rolling``'s army's own roll (``rolled``, of its dice), which showed no Trumpet, is counted again with
    the Trumpet of a unit that joined it: it has Feral units of its own that rolled (traced)."""
    who, dice = rolling
    blowers = [u for u, o in joined.items() if _blew(o)]
    if not blowers or _blew(rolled):
        return False
    rollers = {u for u, _ in dice.units} if dice.per_unit else {u.id for u in who.units} - set(joined)
    if not rollers & _ferals(who):
        return False
    _read(ruleset, blowers, [f"{who.id}'s own roll"], who.id, out)
    return True


def together(state: GameState, ruleset: Ruleset, out: StepResult, rolled: Outcome, rolling: tuple[Army, Roll],
             joined: dict[str, Outcome], roll_kind: tuple[str, tuple[str, ...]], choices: dict, **kwargs) -> Outcome:
    """The army's own roll (``rolled``, of ``rolling``'s dice: a skirmish's attack or save roll, engine.actions.combat;
    a save roll against spells, engine.actions.spells) counted again with the Trumpet of a unit that joined it
    (``army_reached``); the joining units' own rolls were counted again where they joined (``joined_ferals``).
    ``kwargs``: the roll's other choices (a missile's target terrain)."""
    if not army_reached(ruleset, rolling, rolled, joined, out):
        return rolled
    who, dice = rolling
    own = who.evolve(units=tuple(u for u in who.units if u.id not in joined))     # the army as it rolled
    return army_recounted(state, ruleset, out, rolled, own, dice, roll_kind, read=False,
                          choices={**choices, **BLOWN}, **kwargs)
