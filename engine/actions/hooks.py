"""The calls that go up the layers, all in one place: where the rules recurse across modules.

The modules of ``engine.actions`` import only those below them (docs/architecture.md). A few rules call back into a
layer above the caller, because the rules themselves recurse: a unit brought into a roll by a Regenerate brings more
in turn (002 SAI General Information, Resolution), and a Cantrip's spells, cast as in a magic action, make save rolls
that may show a Cantrip again (002 SAI List, Cantrip). Each such call is a ``Hook`` here: the lower module calls it,
the module above that implements it fills it: when it is imported, or, for a module engine.resolve loads only when
first used (the magic action), engine.resolve. The imports still go one way, and every recursion across layers is
listed below.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


class Hook:
    """A call a lower module makes into the module above it that ``fill``s it (``what``: that module's function)."""

    def __init__(self, what: str, why: str) -> None:
        self.what, self.why = what, why
        self._call: Callable[..., Any] | None = None

    def fill(self, call: Callable[..., Any]) -> Callable[..., Any]:
        """Set the function that answers the call (usable as a decorator); returns it unchanged."""
        self._call = call
        return call

    @property
    def filled(self) -> bool:
        """Whether a function answers the call yet."""
        return self._call is not None

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if self._call is None:
            raise RuntimeError(f"{self.what} is not loaded ({self.why}): import engine.resolve first")
        return self._call(*args, **kwargs)


# engine.actions.joined_rolls -> engine.actions.sai_states: the returning SAIs of a unit brought into a roll bring
# more units, who roll at once too (a chain); filled by sai_states (``joined_roll``'s only caller)
BRING_IN = Hook("engine.actions.sai_states.bring_in", "a unit brought into a roll resolves its own returning SAIs")
# engine.actions.cantrip -> engine.actions.magic: the spells a Cantrip buys are paid for and resolved as in a magic
# action, whose save rolls may show a Cantrip again; filled by engine.resolve (magic is loaded on first use)
SPEND = Hook("engine.actions.magic.spend", "a Cantrip's spells are resolved as a magic action's")
# engine.actions.initial -> engine.actions.sai_endings: a unit a Temple buries rolls its Rise from the Ashes (001:
# "Whenever a unit with this SAI is killed or buried, roll the unit"), as a unit killed in a step does; filled by
# sai_endings (imported by engine.after_step, so by engine.resolve)
RISE_FROM_THE_ASHES = Hook("engine.actions.sai_endings.rise_from_the_ashes",
                           "a unit buried in the Initial Effects phase rolls its Rise from the Ashes")
