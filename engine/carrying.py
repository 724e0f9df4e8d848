"""Magical items, artifacts and medallions are carried by units (002 Magical Items, Artifacts, Medallions).

002 Magical Items: "Each unit can only carry one magical item (or artifact) of a
color matching the unit. If not enough units in the army match the color of the
magical items, the extra four-siders are taken out of play immediately and
buried. The owner chooses which items to discard"; "Amazon units may carry
magical items of any color. Undead units can only carry black magical items";
"Whenever a unit moves from one terrain to another, it may take one magical item
of a matching color with it. This also applies for moves to or from the reserve
area. Note that magic items do not move by themselves, they must be carried".
002 Medallions: "considered to be colorless for purposes of the 1:1 unit to
magic item ratio. Thus, a unit of any race can carry a medallion". 002 Dragonkin:
"Dragonkin cannot carry magical items or artifacts". 002 Dragonlord: "can carry
magical items of any color (including medallions)" (Dragonslayer and Dragoncrusader
alike); Dragonmaster (Dragonhunter, Dragonzealot alike): "medallions and
magical items matching their color"; Kings' Die: "can hold a magical item of any
color (including medallions)".
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from .names import slug
from .ruleset import Ruleset
from .state import Army, GameState, Unit
from .trace import StepError, TraceEvent, told

if TYPE_CHECKING:       # engine.steps imports engine.roll, which checks rolls here
    from .steps import StepResult


def can_carry(unit: Unit, item: Unit, ruleset: Ruleset) -> bool:
    """Whether ``unit`` may carry ``item`` (by color; medallions by any unit)."""
    if unit.item or unit.race in ruleset.no_carry_races:
        return False
    if item.name is not None and slug(item.name).endswith("medallion"):
        return True
    if item.color is None:
        return True     # the scenario does not say the item's color: any unit is taken to be able to carry it
    if unit.race in ruleset.carry_any_races or (unit.name and slug(unit.name) in ruleset.carry_any_units):
        return True
    colors = ruleset.race_colors.get(unit.race) or ((unit.color,) if unit.color else ())
    return item.color in colors


def pairing(units: Sequence[Unit], items: Sequence[Unit], ruleset: Ruleset) -> dict[str, str]:
    """The most items carried, one each, by distinct units: item id -> carrier id (augmenting paths)."""
    carrier_of: dict[str, str] = {}
    item_of: dict[str, Unit] = {}

    def place(item: Unit, seen: set[str]) -> bool:
        for u in units:
            if u.id in seen or not can_carry(u, item, ruleset):
                continue
            seen.add(u.id)
            held = item_of.get(u.id)
            if held is None or place(held, seen):
                item_of[u.id], carrier_of[item.id] = item, u.id
                return True
        return False

    for item in items:
        place(item, set())
    return carrier_of


def check_carried(movers: Sequence[Unit], where: str, ruleset: Ruleset, field: str = "reserves") -> None:
    """Items moving to ``where`` need as many moving units, each able to carry one of them (by a reserves step, a
    maneuver, or an SAI's move: Ferry, Teleport, Firewalking ..., engine.actions.companions)."""
    units = [u for u in movers if not u.item]
    items = [u for u in movers if u.item]
    carried = pairing(units, items, ruleset)
    loose = [i for i in items if i.id not in carried]
    if loose:
        able = {i.id: [u.id for u in units if can_carry(u, i, ruleset)] for i in loose}
        raise StepError(f"magic items do not move by themselves: {', '.join(i.id for i in loose)} going to {where} "
                        "need a unit each, of a matching color, moving with them (units moving there that could "
                        f"carry them: {'; '.join(f'{k}: {told(v) if v else told(None)}' for k, v in able.items())})",
                        cite=ruleset.cite("magic-items"), field=field)


def check_rolled(army: Army, rolled: Sequence[str], ruleset: Ruleset, rolls=lambda unit: True) -> None:
    """002 Magical Items: "A magical item can be rolled only if a unit capable of carrying that item is rolled"
    (one item per unit): the items a roll lists need as many units of the rolling army to carry them, among the
    units that roll in it (``rolls``: a unit a spell or SAI keeps from rolling is no carrier here; a unit left out
    of a per-unit roll rolled, but nothing that counts)."""
    items = [u for u in army.units if u.id in rolled and u.item]
    if not items:
        return
    units = [u for u in army.units if not u.item and rolls(u)]
    carried = pairing(units, items, ruleset)
    loose = [i.id for i in items if i.id not in carried]
    if loose:
        raise StepError(f"{', '.join(loose)} rolled, but a magical item is rolled only if a unit capable of carrying "
                        f"it is rolled (one each); units rolling: {', '.join(u.id for u in units) or 'none'}",
                        cite=ruleset.cite("magic-items"), field="roll")


def unload(state: GameState, army: Army, discard: Sequence[str], ruleset: Ruleset, out: StepResult,
           ) -> tuple[GameState, list[str]]:
    """Bury the items ``army`` has too few units to carry: the owner's ``discard`` first, then the last
    written (defaulted). Returns the state and the ids of the discard list it used."""
    units = [u for u in army.units if not u.item]
    items = [u for u in army.units if u.item]
    if not items:
        return state, []
    extra = len(items) - len(pairing(units, items, ruleset))
    if extra <= 0:
        return state, []
    cite = ruleset.cite("magic-items")
    named = [i for i in items if i.id in discard]
    chosen = _choose(units, items, named, extra, ruleset)
    # a default only where the owner had a choice: fewer items must go than the army holds
    defaulted = [i for i in chosen if i not in named] if extra < len(items) else []
    for item in chosen:
        out.trace.append(TraceEvent(what=f"{army.id}: too few units to carry {item.label}: it is buried",
                                    rule="if not enough units in the army match the color of the magical items, the "
                                         "extra are buried; the owner chooses which"
                                         + ("; none named, so the last written that the first leave uncarried" if item in defaulted
                                            else ""),
                                    cite=cite, defaulted=item in defaulted))
    state = state.with_army(army.without(*(i.id for i in chosen)))
    out.buried.extend(i.id for i in chosen)
    return state.add_to("bua", army.player, tuple(chosen)), [i.id for i in named]


def _choose(units: list[Unit], items: list[Unit], named: list[Unit], extra: int, ruleset: Ruleset) -> list[Unit]:
    """``extra`` items to bury: the named ones, then those the first written leave uncarried."""
    if len(named) > extra:
        raise StepError(f"discard names {len(named)} items, but only {extra} cannot be carried: the others stay",
                        cite=ruleset.cite("magic-items"), field="discard")
    rest = [i for i in items if i not in named]
    carried = pairing(units, rest, ruleset)     # a matched item keeps a carrier: the first written are kept
    chosen = [*named, *(i for i in rest if i.id not in carried)]
    if len(chosen) > extra:
        raise StepError(f"burying {', '.join(i.id for i in named)} still leaves items no unit can carry "
                        f"({', '.join(i.id for i in chosen[len(named):])})", cite=ruleset.cite("magic-items"),
                        field="discard")
    return chosen


def check_held(state: GameState, ruleset: Ruleset) -> None:
    """002 Magical Items: "If not enough units in the army match the color of the magical items, the extra
    four-siders are taken out of play immediately and buried. The owner chooses which items to discard": a game
    never goes on from a state where an army holds items its units cannot carry, so a step from such a state (a
    scenario's first) is refused, naming the owner's choice to make; expect_error can pin it."""
    for a in state.armies:
        items = [u for u in a.units if u.item]
        if not items:
            continue
        units = [u for u in a.units if not u.item]
        extra = len(items) - len(pairing(units, items, ruleset))
        if extra > 0:
            able = "; ".join(f"{i.id}: {', '.join(u.id for u in units if can_carry(u, i, ruleset)) or 'none'}"
                             for i in items)
            raise StepError(f"{a.id} holds {len(items)} magical items but its units can carry only "
                            f"{len(items) - extra} (one each, of a matching color): the extra are buried at once and "
                            f"the owner chooses which; move {extra} of {', '.join(i.id for i in items)} to "
                            f"bua.{a.player} (units able to carry each: {able})", cite=ruleset.cite("magic-items"),
                            field="army")
