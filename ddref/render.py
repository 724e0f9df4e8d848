"""Rich rendering of corpus records for people (``--json`` bypasses all of this)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from rich.console import Group, RenderableType
from rich.padding import Padding
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from index.corpus import View


def _yes_no(value: bool | None) -> str:
    return "not stated" if value is None else ("yes" if value else "no")


def _joined(values: Iterable[Any]) -> str:
    return ", ".join(str(v) for v in values) or "-"


def resolution_text(record: Any) -> str:
    # the timing words as the book prints them ("Special and Normal", "Delayed/Late Special"), where recorded
    clauses = [f"{c.printed or ' '.join(c.timing)} ({c.rolls})" for c in record.resolution]
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
    text = [Text(""), Text(record.text)] if getattr(record, "text", None) else []  # units carry no text
    if kind == "race":  # what the race does in play first; its story after, under its own heading
        text = [Text(""), Text("Lore", style="bold"), *text[1:]] if text else []
        parts += [part for extra in extras for part in (Text(""), extra)] + text
    else:
        parts += text + [part for extra in extras for part in (Text(""), extra)]
    parts += [Text(""), _source(record)]
    title = f"[bold]{getattr(record, 'name', record.id)}[/bold]  [dim]{record.edition}[/dim]"
    return Panel(Group(*parts), title=title, title_align="left", expand=False)


def titled_list(title: str, lines: Iterable[str]) -> RenderableType:
    body = Text(title, style="bold")
    for line in lines:
        body.append("\n- " + line, style="")
    return body


def section_panel(section: View, children: list[View], width: int | None = None) -> Panel:
    """A rule section and its subsections. Its id stands in the box's title when heading and id fit there, else
    on the first line inside the box: a box title is cut to the width, and an id must be read whole."""
    import shutil

    parts: list[RenderableType] = [Text(section.text or "(heading only)")]
    for child in children:
        parts += [Text(""), Text(child.heading, style="bold"), Text(child.text),
                  Text(child.id, style="dim cyan")]
    room = (width or shutil.get_terminal_size().columns) - 8  # the corners, the spaces round the title
    heading = Text(section.heading, style="bold")
    if len(section.heading) + 2 + len(section.id) <= room:
        title = Text.assemble(heading, "  ", (section.id, "dim"))
    else:
        title, parts = heading, [Text(section.id, style="dim cyan", overflow="fold"), *parts]
    return Panel(Group(*parts), title=title, title_align="left", expand=False)


def record_table(rows: list[Any], columns: list[tuple[str, Callable[[Any], str]]]) -> Table:
    """Rows as a table whose cells wrap between words, never inside one: each column is at least as wide as its
    longest word (ids such as ``until-beginning-of-next-turn`` read as words: ``until beginning of next turn``)."""
    cells = [[_words(get(row)) for _, get in columns] for row in rows]
    table = Table(title=None, show_lines=False, pad_edge=False)
    for i, (header, _) in enumerate(columns):
        longest = max((len(w) for row in cells for w in row[i].split()), default=0)
        table.add_column(header, overflow="fold", min_width=max(len(header), min(longest, 24)))
    for row in cells:
        table.add_row(*row)
    return table


def _words(value: str) -> str:
    """A hyphenated id of three or more words as words, so that it can wrap: ``until-end-of-next-turn``."""
    return value.replace("-", " ") if value.count("-") >= 2 and " " not in value else value


# --- search and reference pages (issue 4) ---------------------------------

def toc(rows: list[View], width: int = 80) -> Text:
    """The table of contents: headings indented by level, each followed by its id,
    on the same line when both fit in ``width`` columns, else on the next."""
    text = Text(overflow="fold")
    for s in rows:
        indent = "  " * (s.level - 1)
        text.append(indent + s.heading, style="bold" if s.level == 1 else "")
        fits = len(indent) + len(s.heading) + 2 + len(s.id) <= width
        text.append("  " if fits else "\n" + indent + "    ")
        text.append(s.id + "\n", style="dim cyan")
    text.rstrip()
    return text


def ruling_panel(rulings: list[View]) -> Panel:
    """One FAQ topic: its lettered rulings, each with its id, and the source."""
    first = rulings[0]
    parts: list[RenderableType] = []
    for r in rulings:
        parts += [Text.assemble((f"{r.letter}) ", "bold"), r.text), Text(f"   {r.id}", style="dim cyan")]
    parts += [_source(first)]
    title = f"[bold]{first.topic}[/bold]  [dim]{first.part.title()} · {first.edition}[/dim]"
    return Panel(Group(*parts), title=title, title_align="left", expand=False)


def glossary_panel(entry: View) -> Panel:
    parts: list[RenderableType] = []
    if entry.kind == "abbreviation":
        parts.append(Text.assemble(("Stands for: ", "bold"), entry.expansion or "-",
                                   (f"  ({entry.category})" if entry.category else "", "dim")))
    else:
        parts.append(Text(entry.text))
    if entry.aliases:
        parts.append(Text.assemble(("Also: ", "bold"), _joined(entry.aliases)))
    if entry.parent:
        parts.append(Text.assemble(("See also: ", "bold"), entry.parent))
    parts += [Text(""), _source(entry)]
    title = f"[bold]{entry.term}[/bold]  [dim]{entry.kind} · {entry.edition}[/dim]"
    return Panel(Group(*parts), title=title, title_align="left", expand=False)


def _field_value(record: View, field: str) -> str:
    value = getattr(record, field, None)
    if field == "resolution":
        return resolution_text(record)
    if isinstance(value, bool) or value is None:
        return _yes_no(value)
    if isinstance(value, tuple):
        return _joined(value)
    return str(value)


def comparison_table(comparison: Any) -> Table:
    """The compared fields side by side, one column per edition; differing rows marked and styled."""
    table = Table(pad_edge=False, show_lines=False)
    table.add_column("Field", style="bold", no_wrap=True)
    for edition in comparison.editions:
        table.add_column(edition, overflow="fold", ratio=1)
    for field in comparison.fields:
        if field == "text":  # shown below as a word diff
            continue
        differs = field in comparison.differing
        style = "bold yellow" if differs else ""
        table.add_row(("* " if differs else "  ") + field,
                      *(Text(_field_value(r, field), style=style) for r in comparison.records))
    return table


def word_diff_text(tokens: tuple, marked: bool) -> Text:
    """A word diff as one text: deletions red and struck out, insertions green; with
    ``marked`` (no color) as git's word diff writes them, [-old-] and {+new+}."""
    styles = {"equal": "", "delete": "red strike", "insert": "green bold"}
    marks = {"equal": ("", ""), "delete": ("[-", "-]"), "insert": ("{+", "+}")}
    text = Text()
    for token in tokens:
        left, right = marks[token.op] if marked else ("", "")
        lead = token.text[: len(token.text) - len(token.text.lstrip())]
        text.append(lead)
        text.append(left + token.text.lstrip() + right, style=styles[token.op])
    return text


def comparison_view(comparison: Any, marked: bool) -> list[RenderableType]:
    """``ddref compare``: the title, the fields side by side, the base text and each edition's word diff."""
    parts: list[RenderableType] = [
        Text.assemble((f"{comparison.name}", "bold"), (f"  {comparison.kind} in ", "dim"),
                      (", ".join(comparison.editions), "dim")),
        comparison_table(comparison),
        Text.assemble(("Differs in: ", "bold"), ", ".join(comparison.differing) or "nothing"),
    ]
    if "text" in comparison.fields:
        base = comparison.records[0]
        parts += [Text(""), Text(f"Text ({comparison.base})", style="bold"), Text(base.text or "-")]
        for edition, tokens in comparison.diffs:
            parts += [Text(""), Text(f"Text ({edition}), against {comparison.base}", style="bold"),
                      word_diff_text(tokens, marked)]
    parts += [Text(""), Text("Sources", style="bold")]
    parts += [Text.assemble((f"{r.edition}: ", "dim"), (_section_of(r), "cyan")) for r in comparison.records]
    return parts


def _section_of(record: View) -> str:
    return record.source.section if getattr(record, "source", None) else record.id


def search_hits(result: Any, open_command: Callable[[Any], str]) -> RenderableType:
    """Ranked hits: title, kind and edition; the snippet with matched words highlighted; how to open it."""
    parts: list[RenderableType] = []
    for rank, hit in enumerate(result.hits, 1):
        snippet = Text(hit.snippet)
        for start, end in hit.highlights:
            snippet.stylize("bold yellow", start, end)
        parts += [Text.assemble((f"{rank:>2}. ", "dim"), (hit.title, "bold"),
                                (f"  {hit.kind} · {', '.join(getattr(hit, 'editions', ()) or (hit.edition,))}", "dim")),
                  Padding(snippet, (0, 0, 0, 4), expand=False),
                  Padding(Text(open_command(hit), style="cyan"), (0, 0, 0, 4), expand=False)]
    return Group(*parts)


def key_values(rows: list[tuple[str, str]]) -> Table:
    grid = Table.grid(padding=(0, 2))
    grid.add_column(style="bold", no_wrap=True)
    grid.add_column(overflow="fold")
    for label, value in rows:
        grid.add_row(label, value)
    return grid
