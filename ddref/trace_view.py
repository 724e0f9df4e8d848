"""Rich rendering of a resolved scenario: each step's numbers and the rule behind each."""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text


def _change(event: dict[str, Any]) -> str:
    before, after = event.get("before"), event.get("after")
    if before is None and after is None:
        return ""
    if before is None:
        return f"= {after}"
    return f"{before} -> {after}"


def _trace(events: list[dict[str, Any]]) -> Text:
    text = Text()
    for e in events:
        text.append("- " + e["what"])
        change = _change(e)
        if change:
            text.append(f"  {change}", style="bold")
        if e.get("defaulted"):
            text.append("  (defaulted)", style="yellow")
        text.append(f"\n    {e['rule']} ", style="dim")
        text.append(f"[{e['cite']}]\n", style="cyan")
    return text


def _results(step: dict[str, Any]) -> Table:
    grid = Table.grid(padding=(0, 2))
    grid.add_column(style="bold")
    grid.add_column()
    for army, counts in step.get("results", {}).items():
        grid.add_row(army, ", ".join(f"{n} {t}" for t, n in counts.items()) or "-")
    for army, n in step.get("damage", {}).items():
        grid.add_row(f"damage to {army}", str(n))
    if step.get("killed"):
        grid.add_row("killed", ", ".join(step["killed"]))
    if step.get("maneuver"):
        grid.add_row("maneuver", "succeeded" if step["maneuver"]["succeeded"] else "failed")
    return grid


def step_panel(index: int, step: dict[str, Any], checks: list[dict[str, Any]]) -> Panel:
    parts: list[RenderableType] = []
    if "rejected" in step:
        parts.append(Text(f"rejected: {step['rejected']}", style="yellow"))
    else:
        parts += [_results(step), Text(""), _trace(step["trace"])]
    parts += [_check_line(c) for c in checks]
    return Panel(Group(*parts), title=f"[bold]Step {index}[/bold] {step['kind']}", title_align="left")


def _check_line(check: dict[str, Any]) -> Text:
    mark, style = ("ok", "green") if check["ok"] else ("FAILED", "bold red")
    return Text.assemble((f"{mark} ", style), f"{check['key']}: expected {check['expected']!r}, "
                                               f"actual {check['actual']!r}")


def resolution(result: dict[str, Any], quiet: bool) -> list[RenderableType]:
    checks = result["expectations"]
    out: list[RenderableType] = [Text(f"{result['title']}  ({result['edition']})", style="bold")]
    if not quiet:
        for i, step in enumerate(result["steps"], 1):
            out.append(step_panel(i, step, [c for c in checks if c["step"] == i]))
        final = [c for c in checks if c["step"] is None]
        if final:
            out.append(Panel(Group(*[_check_line(c) for c in final]), title="Final state", title_align="left"))
    failed = [c for c in checks if not c["ok"]]
    for c in failed if quiet else []:
        out.append(_check_line(c))
    summary = f"{len(checks) - len(failed)} of {len(checks)} expectations hold" if checks else "no expectations"
    out.append(Text(f"{result['file']}: {summary}", style="red" if failed else "green"))
    return out
