"""The Kings' Die in play (002 Kings' Die): "The Kings' Die can never leave the reserves. For effects that target
an army in the reserve, the Kings' Die cannot be attacked or targeted in any way (magical or otherwise) and cannot
be taken as a casualty. The Kings' Die does nothing, never participating in rolls made by the reserve army. ... If a
player has no units left in play other than a Kings' Die, the Kings' Die immediately dies and is removed from play."

Leaving the reserves is refused by the Reserve Movement (engine.actions.reserves); its use in the Initial Effects
phase is engine.actions.initial.
"""

from __future__ import annotations

from .names import slug
from .rolled import Roll
from .ruleset import Ruleset
from .state import GameState, Unit
from .steps import StepResult
from .trace import StepError, reading


def is_kings_die(unit: Unit, ruleset: Ruleset) -> bool:
    return unit.name is not None and slug(unit.name) in ruleset.reserve_bound_units


def _named(state: GameState) -> list[Unit]:
    """The units in play with a catalog name, one of each name (a Kings' Die is known by its name)."""
    return list({u.name: u for a in state.armies for u in a.units if u.name is not None}.values())


def check_rolls(state: GameState, ruleset: Ruleset, dice: Roll) -> None:
    """A per-unit roll may not show the Kings' Die: "never participating in rolls made by the reserve army"."""
    if not ruleset.reserve_bound_units:
        return          # an edition without it (tsr-1996)
    for unit_id, _ in dice.units:
        unit = next((u for a in state.armies for u in a.units if u.id == unit_id), None)
        if unit is not None and is_kings_die(unit, ruleset):
            raise StepError(f"{unit_id} is a Kings' Die, which never rolls (it does nothing, never participating in "
                            "rolls made by the reserve army): leave it out of the roll", cite=ruleset.cite("kings-die"),
                            field="roll")


def alone(state: GameState, ruleset: Ruleset, out: StepResult) -> GameState:
    """A player whose only unit left in play is a Kings' Die loses it. Reading: it "dies and is removed from
    play": it leaves the game, going to no dead unit area (nothing may bring it back)."""
    if not ruleset.reserve_bound_units or not any(is_kings_die(u, ruleset) for u in _named(state)):
        return state        # none in play: the usual case, checked after every step
    for player in state.players:
        units = [u for a in state.armies if a.player == player for u in a.units if not u.item]
        kings = [u for u in units if is_kings_die(u, ruleset)]
        if not kings or len(kings) != len(units):
            continue
        for army in (a for a in state.armies if a.player == player):
            state = state.with_army(army.without(*(k.id for k in kings)))
        out.killed.extend(k.id for k in kings)
        # "If a player has no units left in play other than a Kings' Die, the Kings' Die immediately dies and is
        # removed from play": read as out of the game, not to the dead unit area (002 Glossary, DUA)
        out.trace.append(reading(f"{player} has no unit in play but the Kings' Die: {', '.join(k.id for k in kings)} "
                                 "'dies and is removed from play', out of the game, to no dead unit area",
                                 ruleset.cite("kings-die"), ruleset.cite("dua-term")))
    return state
