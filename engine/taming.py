"""Tamed dragons whose Dragonlord or Dragonmaster is gone (002 Dragon Taming): "A DL/DM can lose or relinquish
control of a tamed dragon (i.e. the dragon becomes untamed) in several ways: the DL/DM is killed; the DL/DM leaves
the terrain without the tamed dragon (e.g. via reserve move, Path, Leaving or Open Grave)".

Checked after every step, so a tamer killed or moved away by any effect releases its dragon at once (a reading,
traced: the list names no moment, and control matters when "the dragon would battle", 002 Dragon Attack Phase,
so the dragon could stay tamed until then; "loses control" reads as at once); riding a tamed
dragon (engine.actions.reserves) moves both, and the Dragonkin Champion's logo untames as it moves the dragon.
"""

from __future__ import annotations

from .ruleset import Ruleset
from .state import GameState
from .steps import StepResult
from .trace import reading


def released(state: GameState, ruleset: Ruleset, out: StepResult) -> GameState:
    """Untame each dragon whose tamer is no longer in an army at the dragon's terrain."""
    dragons = list(state.dragons)
    for i, dragon in enumerate(dragons):
        if dragon.tamed_by is None:
            continue
        home = next((a for a in state.armies if a.unit(dragon.tamed_by) is not None), None)
        if home is not None and home.at == dragon.at:
            continue
        how = "is killed" if home is None else f"leaves {dragon.at} without it"
        dragons[i] = dragon.evolve(tamed_by=None)
        out.trace.append(reading(f"{dragon.tamed_by} {how}: {dragon.id} is untamed at once, in the step that "
                                 "killed or moved the tamer, not when the dragon next attacks",
                                 ruleset.cite("dragon-taming"), ruleset.cite("dragon-attack")))
    return state.evolve(dragons=tuple(dragons)) if dragons != list(state.dragons) else state
