"""Errors the CLI turns into a message and an exit code, never a traceback."""

from __future__ import annotations


class UserError(Exception):
    """Bad input from the user: printed as ``ddref: <message>``, exit code 2."""

    exit_code = 2
