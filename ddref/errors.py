"""Errors the CLI turns into a message and an exit code, and ``ddref serve`` into a 4xx answer: never a traceback."""

from __future__ import annotations

from collections.abc import Iterable


OUT_OF_MEMORY = ("out of memory: the input needs more memory than ddref was given; lower what it declares "
                 "(units and their count:, effects, steps; `ddref check` names each limit) or raise the memory "
                 "limit (ulimit -v)")
"""What a MemoryError says (the CLI, exit 2; ``ddref serve``, 413): the scenario's sizes are what to lower."""


class UserError(Exception):
    """Bad input from the user: printed as ``ddref: <message>``, exit code 2; HTTP 400.

    ``suggestions`` are the closest known names, when a name was not found
    (the message names them too; the HTTP answer lists them as data).
    """

    exit_code = 2
    status = 400

    def __init__(self, message: str = "", suggestions: Iterable[str] = ()) -> None:
        super().__init__(message)
        self.suggestions = list(suggestions)


class Unknown(UserError):
    """A name or id that matches nothing: HTTP 404."""

    status = 404
