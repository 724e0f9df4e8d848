"""The choices of a step its rules read (issue 21 §3: "never silently"): a rule that uses an entry of a step's choice
field (``targets.<sai>``, ``move_to.<sai>``, ``doubles.<unit>``, ``penalties.<army>``, ``move_dragons.<dragon>``) says
so with ``read``; once the step's action is done, ``engine.resolve`` refuses every entry no rule read
(``unread``). An entry given for an SAI the army did not roll, or rolled where it does not act (a counter-maneuver's
Wayfare), for a unit that made no such roll, or for a penalty no roll took, is a mistake in the scenario, never
ignored.

The reads are kept per resolve in a context variable, so the rules below need no extra parameter to say them."""

from __future__ import annotations

from contextlib import contextmanager
from contextvars import ContextVar
from typing import Iterator

from .steps import DragonStep, RollStep

_READ: ContextVar[set | None] = ContextVar("engine_chosen_read", default=None)

# the choice fields whose entries a rule must read, each with how to list a step's entries (their keys), and what a
# key names (said in the refusal)
FIELDS: dict[str, str] = {
    "targets": "an SAI that acted in this step",
    "move_to": "an SAI that moved units in this step",
    "doubles": "a unit whose roll a component-doubling spell (Wilding) reached in this step",
    "penalties": "an army whose roll took a 'one result' penalty in this step",
    "move_dragons": "a dragon a Dragonkin Champion's logo moved in this step",
    "rise": "a dead Undead unit a Convert of the attack returned",
    # 002 Racial Abilities: only a racial ability "that count[s] one result as another" converts results
    "counts_as": "a result a racial ability (or a spell's count) of the rolling army converted results into in this step",
}


def read(field: str, key: str) -> None:
    """A rule used the step's ``field`` entry ``key``."""
    seen = _READ.get()
    if seen is not None:
        seen.add((field, key))


@contextmanager
def recording() -> Iterator[set]:
    """Collect the reads of one step's resolution (nested: the outer step's set)."""
    if _READ.get() is not None:
        yield _READ.get()
        return
    seen: set = set()
    token = _READ.set(seen)
    try:
        yield seen
    finally:
        _READ.reset(token)


def entries(step, field: str) -> list[str]:
    """The keys of the step's ``field`` (the loader's pairs; ``doubles`` are ("doubles:<result>", ((unit, 1), ...)),
    keyed here by unit)."""
    if isinstance(step, (RollStep, DragonStep)) and field == "counts_as":
        return [result for result, _ in dict(step.choices).get("counts_as", ())]
    if field == "counts_as":
        # a magic step's ``choices``: each target army's own, keyed <army>.<result> (engine.modifiers reads both)
        return [f"{army}.{result}" for army, chosen in getattr(step, "choices", ()) or ()
                for key, pairs in chosen if key == "counts_as" for result, _ in pairs]
    if isinstance(step, (RollStep, DragonStep)) and field in ("doubles", "penalties"):
        # a roll step's (and a dragon attack's) doubles and penalties are among its roll's ``choices``
        choices = dict(step.choices)
        if field == "penalties":
            return [step.army] if choices.get("penalties") else []
        return [unit for key, units in step.choices if key.startswith("doubles:") for unit, _ in units]
    pairs = getattr(step, field, ()) or ()
    if field == "rise":
        return list(pairs)
    if field == "doubles":
        return [unit for _, units in pairs for unit, _ in units]
    return [key for key, _ in pairs]


def unread(step, seen: set) -> list[tuple[str, list[str]]]:
    """(field, keys) of the step's choice entries no rule read."""
    found = []
    for field in FIELDS:
        left = [k for k in entries(step, field) if (field, k) not in seen]
        if left:
            found.append((field, list(dict.fromkeys(left))))
    return found
