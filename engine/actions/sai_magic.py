"""SAIs whose magic is of any color in a magic action: Attune and the Bronze Medallion (002 SAI List).

Attune: "During a magic action, Attune generates magic results of any color." Bronze Medallion: "During a
magic action, generates magic results of any color." Each unit that rolled such an SAI casts the magic that
SAI made in any color; the rest of its magic keeps its own colors.
"""

from __future__ import annotations

from .. import pool
from ..magic import COLORS, Caster
from ..roll import Outcome, Roll
from ..ruleset import Ruleset
from ..state import Army, GameState
from ..steps import MagicStep, StepResult
from ..trace import StepError, TraceEvent
from .summons import send_dragon

ANY_COLOR = ("attune", "sfr-tsr-logo-bronze-medallion")


def any_color(casters: list[Caster], rolled: Outcome, dice: Roll, ruleset: Ruleset, out: StepResult) -> list[Caster]:
    """The casters, with each any-color SAI's magic split off into a caster of every color."""
    for unit_id, faces in dice.units:
        sais = [f.icon for f in faces if f.icon in ANY_COLOR]
        points = rolled.sai_per_unit.get(unit_id, {}).get("magic", 0)
        own = next((c for c in casters if c.unit == unit_id), None) or Caster(unit_id, None, points, 0, (), sai=points)
        if not sais or not points:
            continue
        rest = own.evolve(normal=own.normal - points, sai=max(0, own.sai - points))
        casters = [c for c in casters if c is not own] + ([rest] if rest.normal or rest.ids else [])
        casters.append(Caster(unit_id, own.race, points, 0, COLORS, any_race=own.any_race, sai=points))
        out.trace.append(TraceEvent(what=f"{unit_id}: {points} magic point(s) from {', '.join(sais)} are of any "
                                         "color", after=points, rule="generates magic results of any color",
                                    cite=ruleset.sai_sections.get(sais[0], ruleset.cite("magic"))))
    return casters


def rolled_any_color(unit_id: str, dice: Roll) -> bool:
    """The unit's faces in this roll include an SAI whose magic is of any color."""
    return any(f.icon in ANY_COLOR for uid, faces in dice.units if uid == unit_id for f in faces)


SUMMON = "summon-dragon"


def summon_dragons(state: GameState, who: Army, step: MagicStep, ruleset: Ruleset, out: StepResult) -> GameState:
    """002 Summon Dragon (Instant Special, magic action): "choose any dragon of a matching color as the magical
    item and immediately summon it to any terrain; roll the artifact again and apply the new result as well".

    Instant: resolved before the roll's other results are counted. The choice is the step's ``summon`` entry
    for the artifact ({dragon: player:item, to: terrain}); without one, the first dragon of a matching color
    (the caster's own pool first) goes to the casting army's terrain (defaulted). Reading: a dragon "of a
    matching color" is one with the artifact's color among its colors (an elemental dragon of that color, or a
    hybrid with it); ivory and white dragons have none of the five colors.
    """
    cite = ruleset.sai_sections.get(SUMMON, ruleset.cite("sai-resolution"))
    chosen = dict(step.summon)
    for unit_id, faces in step.roll.units:
        unit = who.unit(unit_id)
        for _ in range(sum(1 for f in faces if f.icon == SUMMON)):     # each face: one dragon
            state = _summon_one(state, who, unit, chosen.pop(unit_id, None), cite, out)
    if chosen:
        raise StepError(f"summon is given for {', '.join(chosen)}, which rolled no Summon Dragon", cite=cite,
                        field="summon")
    return state


def _summon_one(state: GameState, who: Army, unit, choice: tuple[str | None, str | None] | None, cite: str,
                out: StepResult) -> GameState:
    if unit.color is None:
        raise StepError(f"{unit.id} rolled Summon Dragon: say the artifact's color (color: on the unit)", cite=cite,
                        field="roll")
    fits = [(p, item) for p in sorted(state.summoning_pool, key=lambda p: p.player != who.player)
            for item in p.items if (d := pool.parse(item)) and unit.color in d[0]]
    legal = [f"{p.player}:{item.partition(':')[2]}" for p, item in fits]
    dragon, to = choice or (None, None)
    if dragon is not None and dragon not in legal:
        raise StepError(f"{unit.id} summons a dragon of its color ({unit.color}): legal choices are "
                        f"{', '.join(legal) or 'none'}", cite=cite, field="summon")
    if not fits:
        out.trace.append(TraceEvent(what=f"{unit.id}: Summon Dragon finds no {unit.color} dragon in any summoning "
                                         "pool", rule="choose any dragon of a matching color", cite=cite))
        return state
    owner, item = fits[legal.index(dragon)] if dragon else fits[0]
    where = to or who.at
    if where not in {t.id for t in state.terrains}:
        raise StepError(f"{unit.id} summons a dragon to a terrain: {where!r} is not one", cite=cite, field="summon")
    state, name = send_dragon(state, owner, item, where, out)
    out.trace.append(TraceEvent(what=f"{unit.id}: Summon Dragon sends {owner.player}'s {item.partition(':')[2]} "
                                     f"dragon to {where} as {name}", rule="choose any dragon of a matching color as "
                                "the magical item and immediately summon it to any terrain", cite=cite,
                                defaulted=choice is None))
    return state
