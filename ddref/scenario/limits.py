"""How much a scenario may declare: what a game of Dragon Dice can hold, with generous margins.

A scenario is a few KiB, but ``count:`` and long lists let a small file ask for
work without end (10,000 units from a 4 KB file took 54 s and 629 MB; 5,000
effects times 5,000 steps exhausted 3 GB). The limits come from the rules:

- 002 Step 1: Decide Total Force Size (sfr-2012:starting-the-game.step-1-decide-total-force-size): "Good total
  force sizes are 18, 24, 36 or 60 health points", and a unit has at least 1 health, so a player's force is at
  most 60 units in the largest game the rules suggest. 002 Step 2: Assemble Armies
  (sfr-2012:starting-the-game.step-2-assemble-armies): "After initial army placement, this restriction [half the
  force in one army] is no longer in effect ... regroup them into larger armies": one army may hold the whole
  force, 60 units. Limit: twice that, 120 units in an army.
- 003 Multiplayer Games (sfr-v4:multiplayer.multiplayer-games): "We recommend limiting games to six players": six
  forces of 60 units are 360 units in a game. Limit: 1,000 units in all (armies, DUA, BUA and summoning pools),
  almost three times that.
- Effects in play: a spell or an SAI's effect that lasts does so for about a round ("until the beginning of your
  next turn"), and a stacking spell cast again on one target is one effect with a ``count`` (at most 20), so a
  game holds a few dozen at once. Limit: 200.
- Steps: a scenario is one situation, or a few turns of a game (the bundled ones have at most 30). Limit: 1,000;
  a whole game can be split over several files. Every step may cost a trace line per effect, so effects times
  steps is what the two limits keep small (200,000 lines at worst).

Checked before anything is built (``check``), each error naming its limit.
"""

from __future__ import annotations

from typing import Any

MAX_UNITS_PER_ARMY = 120
MAX_UNITS = 1000
MAX_EFFECTS = 200
MAX_STEPS = 1000
MAX_ERRORS = 100
"""Errors reported for one file: past this many, the rest are one more line (each costs a did-you-mean)."""


def declared(items: list[Any]) -> int:
    """How many units a list of unit entries stands for (``count:`` expanded, without building them)."""
    return sum(getattr(item, "count", 1) if not isinstance(item, str) else 1 for item in items)


def problems(spec: Any) -> list[tuple[tuple, str]]:
    """(field path, message) for each limit ``spec`` (a validated ``ScenarioIn``) goes past."""
    found: list[tuple[tuple, str]] = []
    total = 0
    for aid, army in spec.armies.items():
        n = declared(army.units)
        total += n
        if n > MAX_UNITS_PER_ARMY:
            found.append((("armies", aid, "units"),
                          f"army {aid} has {n:,} units; an army holds at most {MAX_UNITS_PER_ARMY} (twice a "
                          "60-health force of 1-health units, 002 Step 1: Decide Total Force Size, which one army "
                          "may hold after placement, 002 Step 2: Assemble Armies)"))
    for kind in ("dua", "bua"):
        for units in getattr(spec, kind).values():
            total += declared(units)
    for items in spec.summoning_pool.values():
        total += len(items)
    if total > MAX_UNITS:
        found.append((("armies",), f"the scenario declares {total:,} units (armies, DUA, BUA and summoning pools); "
                                   f"a game holds at most {MAX_UNITS:,} (six players, 003 Multiplayer Games, of "
                                   "60-health forces, 002 Step 1: Decide Total Force Size, with a margin)"))
    if len(spec.effects) > MAX_EFFECTS:
        found.append((("effects",), f"{len(spec.effects):,} effects in play; a game holds at most {MAX_EFFECTS}"))
    if len(spec.steps) > MAX_STEPS:
        found.append((("steps",), f"{len(spec.steps):,} steps; a scenario has at most {MAX_STEPS:,} (split it "
                                  "into several files)"))
    return found
