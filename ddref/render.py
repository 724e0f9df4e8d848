"""Rich rendering of corpus records for people (``--json`` bypasses all of this)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from index.corpus import View


def _yes_no(value: bool | None) -> str:
    return "not stated" if value is None else ("yes" if value else "no")


def _joined(values: Iterable[Any]) -> str:
    return ", ".join(str(v) for v in values) or "-"


def resolution_text(record: Any) -> str:
    clauses = [f"{' '.join(c.timing)} ({c.rolls})" for c in record.resolution]
    return "; ".join(clauses) or "not stated in this edition"


# kind -> the labelled fields its page shows, in order
FIELDS: dict[str, list[tuple[str, Callable[[Any], str]]]] = {
    "spell": [
        ("Color", lambda r: r.color),
        ("Cost", lambda r: str(r.cost)),
        ("Spell list", lambda r: _joined(r.lists)),
        ("From reserve", lambda r: _yes_no(r.reserve)),
        ("By Cantrip", lambda r: _yes_no(r.cantrip)),
        ("Duration", lambda r: r.duration),
        ("Multiple castings", lambda r: _joined(r.multiplicity)),
        ("Target", lambda r: r.target),
    ],
    "sai": [
        ("Resolution", resolution_text),
        ("Races", lambda r: _joined(r.races)),
    ],
    "race": [
        ("Also called", lambda r: _joined(r.aliases)),
        ("Colors", lambda r: _joined(r.colors)),
    ],
    "unit": [
        ("Race", lambda r: r.race or "-"),
        ("Class", lambda r: r.unit_class),
        ("Size", lambda r: r.size),
        ("Health", lambda r: str(r.health)),
        ("Icons", lambda r: _joined(r.icons)),
    ],
}


def _fields(kind: str, record: View) -> Table:
    grid = Table.grid(padding=(0, 2))
    grid.add_column(style="bold")
    grid.add_column(overflow="fold")
    for label, get in FIELDS.get(kind, []):
        grid.add_row(label, get(record))
    return grid


def _source(record: Any) -> Text:
    src = record.source
    return Text.assemble(("Source: ", "dim"), f"{src.edition} document {src.document}, ",
                         (src.section, "cyan"), ("  (ddref rule ", "dim"),
                         (src.section, "dim"), (")", "dim"))


def record_panel(kind: str, record: Any, extras: list[RenderableType] = ()) -> Panel:
    """One record as a panel: fields, text, extras (abilities, rulings), source."""
    parts: list[RenderableType] = [_fields(kind, record)]
    if getattr(record, "text", None):  # units carry no text of their own
        parts += [Text(""), Text(record.text)]
    for extra in extras:
        parts += [Text(""), extra]
    parts += [Text(""), _source(record)]
    title = f"[bold]{getattr(record, 'name', record.id)}[/bold]  [dim]{record.edition}[/dim]"
    return Panel(Group(*parts), title=title, title_align="left", expand=False)


def titled_list(title: str, lines: Iterable[str]) -> RenderableType:
    body = Text(title, style="bold")
    for line in lines:
        body.append("\n- " + line, style="")
    return body


def section_panel(section: View, children: list[View]) -> Panel:
    parts: list[RenderableType] = [Text(section.text or "(heading only)")]
    for child in children:
        parts += [Text(""), Text(child.heading, style="bold"), Text(child.text),
                  Text(child.id, style="dim cyan")]
    title = f"[bold]{section.heading}[/bold]  [dim]{section.id}[/dim]"
    return Panel(Group(*parts), title=title, title_align="left", expand=False)


def record_table(rows: list[Any], columns: list[tuple[str, Callable[[Any], str]]]) -> Table:
    table = Table(title=None, show_lines=False, pad_edge=False)
    for header, _ in columns:
        table.add_column(header, overflow="fold")
    for row in rows:
        table.add_row(*(get(row) for _, get in columns))
    return table
