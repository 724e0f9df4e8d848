"""SAIs whose magic is of any color in a magic action: Attune and the Bronze Medallion (002 SAI List).

Attune: "During a magic action, Attune generates magic results of any color." Bronze Medallion: "During a
magic action, generates magic results of any color." Each unit that rolled such an SAI casts the magic that
SAI made in any color; the rest of its magic keeps its own colors.
"""

from __future__ import annotations

from ..names import typed
from ..chosen import read as chosen_read
from .. import pool
from ..magic import COLORS, Caster
from ..roll import Outcome, Roll
from ..ruleset import Ruleset
from ..state import Army, GameState
from ..steps import MagicStep, StepResult
from ..trace import StepError, TraceEvent, reading, told
from .summons import send_dragon, summon_tamed, summon_untamed, tamed_dragons, untamed_in_play

ANY_COLOR = ("attune", "sfr-tsr-logo-bronze-medallion")


def any_color(casters: list[Caster], rolled: Outcome, dice: Roll, ruleset: Ruleset, out: StepResult) -> list[Caster]:
    """The casters, with each any-color SAI's magic split off into a caster of every color."""
    for unit_id, faces in dice.units:
        casters = split_any_color(casters, unit_id, [f.icon for f in faces if f.icon in ANY_COLOR], rolled, ruleset,
                                  out)
    return casters


def split_any_color(casters: list[Caster], unit_id: str, sais: list[str], rolled: Outcome, ruleset: Ruleset,
                    out: StepResult) -> list[Caster]:
    """``unit_id``'s magic made by its any-color SAIs (``sais``) split off into a caster of every color (a unit
    brought into the army during its magic roll too: engine.actions.magic)."""
    points = rolled.sai_per_unit.get(unit_id, {}).get("magic", 0)
    own = next((c for c in casters if c.unit == unit_id), None) or Caster(unit_id, None, points, 0, (), sai=points)
    if not sais or not points:
        return casters
    rest = own.evolve(normal=own.normal - points, sai=max(0, own.sai - points))
    casters = [c for c in casters if c is not own] + ([rest] if rest.normal or rest.ids else [])
    casters.append(Caster(unit_id, own.race, points, 0, COLORS, any_race=own.any_race, sai=points))
    out.trace.append(TraceEvent(what=f"{unit_id}: {points} magic point(s) from {', '.join(sais)} are of any "
                                     "color", after=points, rule="generates magic results of any color",
                                cite=ruleset.sai_sections.get(sais[0], ruleset.cite("magic"))))
    return casters


ATTUNE = "attune"


def attune(casters: list[Caster], rolled: Outcome, step: MagicStep, ruleset: Ruleset,
           out: StepResult) -> list[Caster]:
    """002 Attune's special part: "Attune may also immediately count the normal magic result (only actual magic
    icons, not ID icons or SAIs) of one unit in the acting army as that same color. The results from both the
    Attune and the Attuned die are counted normally with the other magic results." The attuned unit is the step's
    ``targets: {attune: [unit]}``; "that same color" is ``attune_color``: the Attune's magic and the unit's magic
    icons are both cast as it (reading: Attune's results are then of that one color, as "same" says). A "may":
    without targets, nothing is attuned."""
    chosen = dict(step.targets).get(ATTUNE)
    if chosen is not None:
        chosen_read("targets", ATTUNE)
    cite = ruleset.sai_sections.get(ATTUNE, ruleset.cite("magic"))
    attuners = [s.unit for s in rolled.specials if s.sai == ATTUNE]
    if not chosen:
        if step.attune_color is not None:
            raise StepError("attune_color is given, but no unit is attuned (name it in targets: {attune: [unit]})",
                            cite=cite, field="attune_color")
        open_to = [c.unit for c in casters if c.unit not in attuners and c.normal - c.sai > 0 and c.colors != COLORS]
        if attuners and open_to:    # a "may" the step leaves out: a traced default where a unit could be attuned
            out.trace.append(TraceEvent(what=f"{', '.join(dict.fromkeys(attuners))}'s Attune attunes no unit: the step "
                                             f"names none in targets.attune (it could: {', '.join(open_to)})", after=0,
                                        rule="Attune may also immediately count the normal magic result of one unit "
                                             "in the acting army as that same color", cite=cite, defaulted=True))
        return casters
    color = step.attune_color
    if color not in COLORS:
        raise StepError(f"attune_color: the one color the Attune's magic and the attuned unit's magic icons count as "
                        f"is one of {', '.join(COLORS)}", cite=cite, field="attune_color")
    legal = [c.unit for c in casters if c.unit not in attuners and c.normal - c.sai > 0 and c.colors != COLORS]
    attuned = [uid for uid, _ in chosen]
    if len(attuned) > len(attuners) or any(u not in legal for u in attuned):
        raise StepError(f"each Attune counts the magic icons of one other unit of the acting army as its color: "
                        f"{told(attuned)} is not such a choice (units with magic icons: {', '.join(legal) or 'none'})",
                        cite=cite, field="targets")
    # "count the normal magic result ... of one unit ... as that same color": the Attune's own results are read as
    # of that one color too (002 Color: a unit casts another color only "under the effect of an Attune SAI")
    out.trace.append(reading(f"'that same color': {', '.join(attuners)}'s Attune results and the attuned unit's magic "
                             f"icons are all {color}", cite, ruleset.cite("spell-color")))
    out_casters = []
    for c in casters:
        if c.unit in attuners and c.colors == COLORS:
            out_casters.append(c.evolve(colors=(color,)))
        elif c.unit in attuned:
            icons = c.normal - c.sai
            rest = c.evolve(normal=c.sai)
            out_casters += ([rest] if rest.normal or rest.ids else [])
            out_casters.append(Caster(c.unit, c.race, icons, 0, (color,), any_race=c.any_race))
            out.trace.append(TraceEvent(what=f"{c.unit}: its {icons} magic icon point(s) are attuned: cast as "
                                             f"{color}", after=icons, rule="count the normal magic result (only "
                                        "actual magic icons) of one unit as that same color", cite=cite))
        else:
            out_casters.append(c)
    return out_casters


def rolled_any_color(unit_id: str, dice: Roll) -> bool:
    """The unit's faces in this roll include an SAI whose magic is of any color."""
    return any(f.icon in ANY_COLOR for uid, faces in dice.units if uid == unit_id for f in faces)


SUMMON = "summon-dragon"


def summon_dragons(state: GameState, who: Army, step: MagicStep, ruleset: Ruleset, out: StepResult) -> GameState:
    """002 Summon Dragon (Instant Special, magic action): "choose any dragon of a matching color as the magical
    item and immediately summon it to any terrain; roll the artifact again and apply the new result as well".

    Instant: resolved before the roll's other results are counted. The choice is the step's ``summon`` entry
    for the artifact ({dragon: player:item, to: terrain}); without one, the first dragon of a matching color
    (the caster's own pool first) goes to the casting army's terrain (defaulted); ``dragon`` may also name the id
    of a non-ivory dragon at a terrain, tamed or not ("any dragon"). Reading: a dragon "of a
    matching color" is one with the artifact's color among its colors (an elemental dragon of that color, or a
    hybrid with it); ivory and white dragons have none of the five colors.
    """
    cite = ruleset.sai_sections.get(SUMMON, ruleset.cite("sai-resolution"))
    chosen = dict(step.summon)
    for unit_id, faces in step.roll.units:
        unit = who.unit(unit_id)
        for _ in range(sum(1 for f in faces if f.icon == SUMMON)):     # each face: one dragon
            state = _summon_one(state, who, unit, chosen.pop(unit_id, None), cite, out, ruleset.cite("dragon-taming"),
                                ruleset.cite("hybrid-dragons"))
    if chosen:
        raise StepError(f"summon is given for {', '.join(chosen)}, which rolled no Summon Dragon", cite=cite,
                        field="summon")
    return state


def _summon_one(state: GameState, who: Army, unit, choice: tuple[str | None, str | None] | None, cite: str,
                out: StepResult, taming: str, hybrid: str) -> GameState:
    if unit.color is None:
        raise StepError(f"{unit.id} rolled Summon Dragon: say the artifact's color (color: on the unit)", cite=cite,
                        field="roll")
    fits = [(p, item) for p in sorted(state.summoning_pool, key=lambda p: p.player != who.player)
            for item in p.items if (d := pool.parse(item)) and unit.color in d[0]]
    legal = [f"{p.player}:{item.partition(':')[2]}" for p, item in fits]
    dragon, to = choice or (None, None)
    tamed = tamed_dragons(state, lambda colors: unit.color in colors)
    if dragon in tamed:
        return summon_tamed(state, f"{unit.id}: Summon Dragon", tamed[dragon], to or who.at, cite, taming, out)
    # "choose any dragon of a matching color": an untamed one at a terrain too (never an ivory one: 002 Ivory
    # Dragons, "No other effect can move an ivory dragon"), as the summoning spells' "any" dragon
    untamed = untamed_in_play(state, lambda colors: unit.color in colors)
    if dragon in untamed:
        where = to or who.at
        if where not in {t.id for t in state.terrains}:
            raise StepError(f"{unit.id} summons a dragon to a terrain: {typed(where)} is not one", cite=cite,
                            field="summon")
        return summon_untamed(state, f"{unit.id}: Summon Dragon", untamed[dragon], where, cite, taming, out,
                              field="summon")
    legal += list(tamed) + [d for d in untamed if untamed[d].at != (to or who.at)]
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
        raise StepError(f"{unit.id} summons a dragon to a terrain: {typed(where)} is not one", cite=cite, field="summon")
    state, name = send_dragon(state, owner, item, where, out)
    # "any dragon of a matching color": read as one with the artifact's color among its colors (002 Hybrid Dragons)
    out.trace.append(reading(f"{unit.id}: Summon Dragon sends {owner.player}'s {item.partition(':')[2]} dragon to "
                             f"{where} as {name}: 'of a matching color' is a dragon with the artifact's color "
                             f"({unit.color}) among its colors", cite, hybrid).evolve(defaulted=choice is None))
    return state

