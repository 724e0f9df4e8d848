"""Magic points by color: who casts which colors, which ID points double, and what splits are possible.

002 First March, Magic: "each unit may normally cast magic only according to
its aspect colors"; "Magic points of a particular color can be combined from
component to component as the player chooses, and multiple points of a
particular unit can be divided between that unit's colors." 002 Doubling
Magic: only ID points double, each health-worth separately ("split a
multi-health ID icon into the equivalent number of 1-health IDs, each of which
may be doubled (or not doubled, your choice)"), for a color the unit shares
with the terrain, or black through the Dead Unit Area.

The owner's split is a choice, so this module computes every split the roll
allows (small numbers: a set of reachable vectors) and the magic action checks
the scenario's ``colors`` against it.
"""

from __future__ import annotations

from collections.abc import Iterable

from .names import slug
from .ruleset import Ruleset
from .trace import StepError
from .value import Value

COLORS = ("black", "blue", "gold", "green", "red")
# sfr-v4 names earth magic "yellow" (001 Spells: "YELLOW (EARTH) SPELLS"; Racial Icons: "Treefolk are a combination
# of Green (Water) and Yellow (Earth)"): a scenario may write it so, read as gold
COLOR_ALIASES = {"yellow": "gold"}

Bucket = tuple[str, str | None]          # (color, race) -- race only where a racial spell needs it
Allocation = tuple[tuple[Bucket, int], ...]


class Caster(Value):
    """One unit's magic in one roll.

    ``normal``: points from magic icons and SAIs (never doubled), ``sai`` of them
    beyond the reach of penalties and negation (from SAIs, or added after every
    modifier as Spirit Furnace's); ``ids``: health-worth of ID icons; ``colors``: the colors it may cast;
    ``doubles``: the colors whose ID points the terrain doubles;
    ``dua``: which Dead Unit Area budget doubles its black ID points
    ("max": the player with the most dead health-worth; "all": every dead unit,
    for Undead; None: no DUA doubling).
    """

    unit: str
    race: str | None
    normal: int
    ids: int
    colors: tuple[str, ...]
    doubles: tuple[str, ...] = ()
    dua: str | None = None
    any_race: bool = False      # its points pay racial spells of any race (Spirit Furnace's points)
    sai: int = 0
    # where ``any_race``: the races whose racial spells its points may pay (those in the casting army: 002 Magical
    # Items, "the spells purchased must be usable by that army"); None: any race (002 Artifacts: the Dragon Staff's
    # ID "even spells that ordinarily cannot be cast by that army")
    races: tuple[str, ...] | None = None


State = tuple[tuple[int, ...], int, int, int]   # points per bucket, DUA "max" used, DUA "all" used, lost

def allocations(casters: Iterable[Caster], buckets: tuple[Bucket, ...],
                budgets: tuple[int, int], lose: int = 0) -> set[tuple[int, ...]]:
    """Every vector of points per bucket the casters can make, doubling as they may.

    ``lose``: points that negation and penalties take before doubling (002 Doubling Magic: "a multiply
    modifier" after "any subtraction or division"); which of the non-SAI points is the owner's choice,
    so every choice is a possibility.
    """
    index = {b: i for i, b in enumerate(buckets)}
    states: set[State] = {((0,) * len(buckets), 0, 0, 0)}
    for caster in casters:
        plain = _point_options(caster, index, doubled=False) if caster.normal else []
        for i in range(caster.normal):
            states = _spread(states, plain, budgets, lose if i >= caster.sai else 0)
        doubling = _point_options(caster, index, doubled=True) if caster.ids else []
        for _ in range(caster.ids):
            states = _spread(states, doubling, budgets, lose)
    return {vector for vector, _, _, lost in states if lost == lose}


def _point_options(caster: Caster, index: dict[Bucket, int], doubled: bool) -> list[tuple[int, int, int, int]]:
    """(bucket, points, DUA max used, DUA all used) for one point of this caster."""
    if caster.any_race:
        slots = [slot for (color, race), slot in index.items() if color in caster.colors
                 and (race is None or caster.races is None or race in caster.races)]
        options = [(slot, 1, 0, 0) for slot in slots]
        if doubled:     # an artifact's ID (002 Artifacts: "can be doubled as per the basic rules")
            options += [(slot, 2, 0, 0) for (color, race), slot in index.items() if slot in slots
                        and color in caster.doubles]
        return options
    options = []
    for color in caster.colors:
        slot = index.get((color, caster.race), index.get((color, None)))
        options.append((slot, 1, 0, 0))
        if not doubled:
            continue
        if color in caster.doubles:
            options.append((slot, 2, 0, 0))
        elif color == "black" and caster.dua:
            options.append((slot, 2, int(caster.dua == "max"), int(caster.dua == "all")))
    return options


def _spread(states: set[State], options, budgets: tuple[int, int], lose: int) -> set[State]:
    out: set[State] = set()
    add = out.add       # the inner loop of every magic action: kept to plain tuple arithmetic
    most_max, most_all = budgets
    for vector, used_max, used_all, lost in states:
        if lost < lose:
            add((vector, used_max, used_all, lost + 1))
        for slot, points, more_max, more_all in options:
            if used_max + more_max > most_max or used_all + more_all > most_all:
                continue
            add((vector[:slot] + (vector[slot] + points,) + vector[slot + 1:], used_max + more_max,
                 used_all + more_all, lost))
    return out


def by_color(vector: tuple[int, ...], buckets: tuple[Bucket, ...]) -> dict[str, int]:
    totals: dict[str, int] = {}
    for (color, _), n in zip(buckets, vector):
        if n:
            totals[color] = totals.get(color, 0) + n
    return dict(sorted(totals.items()))


def unit_aspects(unit, ruleset: Ruleset) -> tuple[str, ...]:
    """The colors a unit casts by itself (002 First March, Magic): its race's aspects; for an Eldarim
    acolyte the one color of its die ("any individual Acolyte of Eldarim can only cast one color"), for the
    Dragonlord, Dragonslayer and Dragoncrusader all five; an empty tuple for Amazons, who cast the terrain's colors."""
    cite = ruleset.cite("magic")
    if unit.race in ruleset.race_colors:
        return ruleset.race_colors[unit.race]
    if unit.race in ruleset.one_color_races:
        if unit.name is not None and slug(unit.name) in ruleset.all_color_units:
            return COLORS
        if unit.color is None:
            raise StepError(f"{unit.id} is an Eldarim acolyte, which casts the one color of its die: say which "
                            "(color: on the unit)", cite=cite, field="roll")
        return (unit.color,)
    if unit.race in ruleset.no_magic_races:
        raise StepError(f"{unit.id} is {unit.race}: it cannot roll for magic", cite=ruleset.cite("dragonkin"),
                        field="roll")
    raise StepError(f"{unit.id} ({unit.race or 'no race'}): which colors it casts is not known to this version",
                    cite=cite, field="roll")
