"""003's multiplayer rules where a game has more than two players (sfr-v4: 003 Multiplayer Games).

The rules themselves change little in the engine (each counter-maneuvering army is already compared with
the maneuvering army by itself; an attack's target is always declared by the step), so this module says in
the trace which 003 rule applies, where the edition's ruleset cites one (``multiplayer:<rule>``).
"""

from __future__ import annotations

from .ruleset import Ruleset
from .state import GameState
from .steps import StepResult
from .trace import TraceEvent

RULES = {
    "counter-maneuver": "counter-maneuvering armies do not combine their maneuver results. Each compares their total "
                        "with the maneuvering army individually",
    "target": "when performing a melee or missile attack, a player may target any eligible army. The target of the "
              "attack must be declared before the dice are rolled",
}


def note(state: GameState, ruleset: Ruleset, rule: str, what: str, out: StepResult) -> None:
    """One trace line naming the 003 rule, in a game of three or more players under an edition that has it."""
    cite = ruleset.cites.get(f"multiplayer:{rule}")
    if cite is None or len(state.players) < 3:
        return
    out.trace.append(TraceEvent(what=what, rule=RULES[rule], cite=cite))
