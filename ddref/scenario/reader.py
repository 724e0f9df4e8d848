"""The scenario reader's state: one ``Builder`` per file read (ddref.scenario.build makes it; every field reader
takes it first)."""

from __future__ import annotations

from typing import Any

from engine.editions import RULESETS
from engine.names import typed
from engine.value import Struct, field
from index.lookup import NotFound, find

from . import limits
from .source import Locator, ScenarioError, ScenarioErrors


class Builder(Struct):
    """What reading a scenario file keeps: the file, where each value is (for located errors), the edition the
    names are looked up in, the errors so far, and each player's unit ids (``units_of``). Every field reader of
    ddref.scenario takes it first."""
    file: str
    locator: Locator
    edition: str = "sfr-2012"
    errors: list[ScenarioError] = field(default_factory=list)
    # player -> the ids of all the player's units in the first state (its armies, dead, buried, summoning pool): a
    # unit may join another army during play (a Regenerate, a Teleport, a promotion), so a roll naming it is read
    # here and its membership checked when the step resolves (engine.roll ``_member``)
    units_of: dict[str, frozenset] = field(default_factory=dict)

    def fail(self, path: tuple, message: str) -> None:
        self.errors.append(self.locator.error(path, message))
        if len(self.errors) >= limits.MAX_ERRORS:     # each error costs a did-you-mean: stop reading the file
            raise ScenarioErrors([*self.errors, self.locator.error((), f"stopped after {limits.MAX_ERRORS} errors; "
                                                                       "fix these and check again")])

    def name(self, kind: str, value: str, path: tuple, noun: str | None = None, written: str | None = None) -> Any:
        """A record of ``kind`` by name in this edition, or a located error with suggestions; ``written``: the
        name as the file writes it, when ``value`` adds to it (a unit's race)."""
        try:
            return find(kind, value, self.edition)[0]
        except NotFound as exc:
            # sfr-v4 defines two races (001 Racial Icons): the others are sfr-2012's, where v4 is silent
            fallback = RULESETS[self.edition].fallback if self.edition in RULESETS else None
            if fallback and kind in ("race", "unit"):
                try:
                    return find(kind, value, fallback)[0]
                except NotFound:
                    pass
            message = exc.message().replace(f"no {kind}", f"unknown {noun or kind}", 1)
            if written is not None:     # the name as written, the race it was looked up for said apart
                message = message.replace(typed(value), written, 1)
            self.fail(path, message)
            return None
