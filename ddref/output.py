"""Where output goes: rich consoles for people, plain JSON for scripts."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import re

from rich.console import Console

# What a name, id or title from a file must not send to a terminal as it is: C0 controls but tab and newline (ESC
# starts the sequences that recolor, move the cursor, retitle the window or hide text), DEL, the C1 controls, and
# the bidirectional formatting characters (an RTL override shows text reversed: "Trojan Source").
UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def printable(text: str) -> str:
    """``text`` with every character of ``UNSAFE`` written as its escape (``\\x1b``, ``\\u202e``)."""
    return UNSAFE.sub(_escape, text) if UNSAFE.search(text) else text


def _escape(match: re.Match) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


class SafeConsole(Console):
    """A rich console that escapes ``UNSAFE`` characters in whatever text it prints (titles, ids, names, the
    did-you-mean lists of error messages), while its own styling and cursor control still work: people's output
    goes through it, and JSON (``print_json``) does not, so JSON stays exact."""

    def _render_buffer(self, buffer):   # rich's one place turning segments into the text written
        buffer = list(buffer)
        if UNSAFE.search("".join([s[0] for s in buffer if not s[2]])):     # one search over the text: the usual case
            buffer = [s._replace(text=printable(s[0])) if not s[2] and s[0] else s for s in buffer]
        return super()._render_buffer(buffer)


# rich honors NO_COLOR and drops styling when stdout is not a terminal. What goes to stderr is printed whole
# (soft wrap): a located error ("file:line:col: field: ...") or an address is never folded at the console's
# width, which is 80 columns when stderr is a file or pipe, so it stays one line to copy or grep, and a
# terminal wraps it on screen as it wraps any long line.
out = SafeConsole(highlight=False)
err = SafeConsole(stderr=True, highlight=False, soft_wrap=True)


def print_json(data: Any) -> None:
    sys.stdout.write(json.dumps(data, indent=2, ensure_ascii=False) + "\n")


def show(*renderables: Any) -> None:
    """Print for people, through rich's pager when stdout is a TTY and the output is taller than it."""
    if not out.is_terminal or _height(renderables) <= out.height:
        for renderable in renderables:
            out.print(renderable)
        return
    import os

    # less: quit when one screen, keep colors (-R), leave the text on screen (-X)
    os.environ.setdefault("LESS", "-FRX")
    with out.pager(styles="R" in os.environ["LESS"]):
        for renderable in renderables:
            out.print(renderable)


def _height(renderables: tuple[Any, ...]) -> int:
    return sum(len(out.render_lines(r, pad=False, new_lines=False)) for r in renderables)


def guessed(found: Any) -> None:
    """Say on stderr which record a misspelt name was answered with (``answers.Guessed``); stdout stays data."""
    if note := getattr(found, "note", None):
        err.print(f"ddref: {note}", markup=False, highlight=False)


def warn(message: str) -> None:
    """A warning the user can act on, in yellow on stderr (stdout stays data)."""
    from rich.text import Text

    err.print(Text(f"warning: {message}", style="yellow"))


@contextmanager
def build_progress() -> Iterator[Callable[[int, int, str], None] | None]:
    """A ``progress(done, total, stage)`` callback drawing a bar on stderr, or None when stderr is no TTY."""
    if not err.is_terminal:
        yield None
        return
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    # (the bar's lines are cropped to the width whatever the console's soft wrap: rich renders a live display
    # line by line at the width, so it redraws in place)
    bar = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                   TimeElapsedColumn(), console=err, transient=True)
    task: list = []

    def report(done: int, total: int, stage: str) -> None:
        description = f"Building the index: {stage}"
        if not task:  # start drawing only when something is really built
            bar.start()
            task.append(bar.add_task(description, total=total))
        bar.update(task[0], completed=done, total=total, description=description)

    try:
        yield report
    finally:
        if task:
            bar.stop()
            err.print(f"[dim]Built the search index in {bar.tasks[0].elapsed or 0:.1f} s.[/dim]")
