"""``ddref coverage`` (issue 20): which rules ddref models, how it read the ambiguous ones, and the proof.

The records are corpus/conformance/*.yaml (ddref.conformance reads them); this module only prints them.
"""

from __future__ import annotations

from engine.names import typed
from enum import Enum
from typing import Annotated, Optional

import typer

from .options import AnyEditionOpt, JsonOpt, edition_id


class Status(str, Enum):
    modelled = "modelled"
    reading = "reading"
    refused = "refused"
    not_a_rule = "not-a-rule"
    open = "open"


COLUMNS = (("modelled", "modelled"), ("reading", "read"), ("refused", "refused"), ("open", "open"),
           ("not-a-rule", "not a rule"))


def coverage_command(
    edition: AnyEditionOpt = None,
    status: Annotated[Optional[Status], typer.Option(
        "--status", "-s", case_sensitive=False,
        help="Only statements of this status: modelled, reading, refused, not-a-rule or open "
             "(open: a rule not yet shown modelled by a scenario).")] = None,
    section: Annotated[Optional[str], typer.Option(
        "--section", metavar="ID", help="Only this section and its subsections (a section id).")] = None,
    as_json: JsonOpt = False,
) -> None:
    """How ddref covers each rule: per edition and section, the statements modelled, read, refused, open.

    Every normative statement of the five rule documents has a record: 'modelled' (a scenario step
    fails if the rule breaks), 'reading' (an ambiguous rule; the reading is traced with both
    citations), 'refused' (cannot be modelled, and why), 'not-a-rule', or 'open' (not yet shown).
    The table counts them per section; the readings follow, each with its citations and scenario.
    With --status, the statements themselves are listed.

    Examples:
      ddref coverage
      ddref coverage --edition sfr-2012 --status reading
      ddref coverage --section sfr-2012:dice-modifiers --status modelled
      ddref coverage --json
    """
    from . import conformance as C
    from .errors import UserError
    from .output import print_json, show

    try:
        recs = C.records(edition_id(edition), status.value if status else None)
    except C.RecordError as exc:
        raise UserError(f"the conformance records are invalid: {exc}") from None
    if section:
        section = section.strip()
        if section not in C.corpus_sections():
            import difflib

            close = difflib.get_close_matches(section, list(C.corpus_sections()), n=3, cutoff=0.5)
            raise UserError(f"no rule section with id {typed(section)}"
                            + (f"; did you mean {', '.join(close)}?" if close else "; `ddref rules` lists them"))
        recs = [r for r in recs if r.section == section or r.section.startswith(section + ".")]
    if as_json:
        print_json([r.json() for r in recs])
        return
    show(*_human(recs, status.value if status else None, C))


def _human(recs: list, status: str | None, C) -> list:
    from rich.table import Table
    from rich.text import Text

    blocks: list = []
    table = C.corpus_sections()
    if status:
        for r in recs:
            blocks.append(_statement(r, table, Text))
        blocks.append(f"{len(recs)} {status} statement(s)")
        return blocks
    by_edition: dict[str, dict[str, list]] = {}
    for r in recs:
        by_edition.setdefault(r.edition, {}).setdefault(r.section, []).append(r)
    for edition, sections in by_edition.items():
        t = Table(title=f"{edition}: conformance by section", pad_edge=False, title_justify="left")
        t.add_column("Section", overflow="fold")
        for _, label in COLUMNS:
            t.add_column(label, justify="right")
        for sid, mine in sections.items():
            c = C.counts(mine)
            t.add_row(sid, *(str(c[k] or "") for k, _ in COLUMNS))
        total = C.counts([r for rs in sections.values() for r in rs])
        t.add_row(Text("total", style="bold"), *(Text(str(total[k]), style="bold") for k, _ in COLUMNS))
        blocks.append(t)
    readings = [r for r in recs if r.status == "reading"]
    if readings:
        blocks.append(Text("Readings (the rule read, and the passage it is read with):", style="bold"))
        blocks += [_statement(r, table, Text) for r in readings]
    c = C.counts(recs)
    blocks.append(", ".join(f"{c[k]} {label}" for k, label in COLUMNS) + " statement(s); "
                  "[cyan]ddref coverage --status STATUS[/cyan] lists them, [cyan]ddref rule ID[/cyan] shows a section")
    return blocks


def _statement(r, table, Text):
    text = Text()
    text.append(f"{r.status}  ", style={"modelled": "green", "reading": "yellow", "refused": "red",
                                        "open": "magenta"}.get(r.status, "dim"))
    text.append(r.section, style="cyan")
    if r.s:
        text.append(f" sentence {r.s}")
    text.append(f"  ({table[r.section]['heading']})\n", style="dim")
    if r.says:
        text.append(f"  \"{r.says}\"\n")
    if r.cites:
        text.append("  cites: " + " read with ".join(r.cites) + "\n")
    if r.scenarios:
        text.append("  scenarios: " + ", ".join(f"{f} step {s}" for f, s in r.scenarios) + "\n")
    if r.note:
        text.append(f"  note: {r.note}\n", style="dim")
    text.rstrip()
    return text


def coverage_panel(section_id: str, children: list):
    """The coverage block under a rule section: status counts, and each statement's scenarios."""
    from rich.panel import Panel
    from rich.text import Text

    from . import conformance as C

    ids = [section_id, *(c.id for c in children)]
    try:
        loaded = C.load()
    except C.RecordError as exc:
        return Text(f"coverage unavailable: {exc}", style="red")
    recs = [r for sid in ids if sid in loaded for r in loaded[sid].records]
    c = C.counts(recs)
    table = C.corpus_sections()
    parts = [Text(", ".join(f"{c[k]} {label}" for k, label in COLUMNS if c[k]) or "no records")]
    parts += [_statement(r, table, Text) for r in recs if r.status != "not-a-rule"]
    return Panel(Text("\n").join(parts), title="[bold]Coverage[/bold] (ddref coverage --section ID)",
                 title_align="left", expand=False)


def register(app: typer.Typer) -> None:
    app.command("coverage")(coverage_command)
