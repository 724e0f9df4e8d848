"""The explained trace: every number a step produces, with the rule that made it."""

from __future__ import annotations

from typing import Any

from .value import Value


class TraceEvent(Value, kw_only=True):
    """One explained change: what changed, before and after, why, and where the rule is.

    ``cite`` is a corpus section id (``ddref rule <cite>`` prints it).
    ``defaulted`` marks a choice the scenario left open and the engine made.
    """

    what: str
    before: Any = None
    after: Any = None
    rule: str
    cite: str
    defaulted: bool = False

    def json(self) -> dict[str, Any]:
        # the fields are plain values: the JSON object is built directly (every trace line of every step)
        data: dict[str, Any] = {"what": self.what}
        if self.before is not None:
            data["before"] = self.before
        if self.after is not None:
            data["after"] = self.after
        data["rule"], data["cite"] = self.rule, self.cite
        if self.defaulted:
            data["defaulted"] = True
        return data


def reading(what: str, cite: str, other: str) -> TraceEvent:
    """A reading of an ambiguous rule or of an edition that contradicts itself, said in the trace with both
    passages: ``cite`` the rule read, ``other`` the passage it is read with."""
    return TraceEvent(what=f"reading: {what}", rule=f"this rule read with {other}", cite=cite)


class StepError(Exception):
    """A step that the rules do not allow: the message says why and cites the rule."""

    def __init__(self, message: str, cite: str | None = None, field: str | None = None) -> None:
        super().__init__(message)
        self.message, self.cite, self.field = message, cite, field
