"""Rich rendering of a resolved scenario: each step's numbers and the rule behind each."""

from __future__ import annotations

import textwrap
from typing import Any

from rich.text import Text


def _part(part: dict[str, Any]) -> str:
    if part.get("untouched"):
        return f"{part['before']} {part['part']} untouched"
    return f"{part['before']} {part['part']} -> {part['after']}"


def _change(event: dict[str, Any]) -> str:
    """The change a line shows: the parts a modifier reached and those it did not, then the whole
    (``8 normal -> 4, 3 from rend untouched: 11 -> 7``); a comparison shows no change."""
    before, after = event.get("before"), event.get("after")
    if event.get("kind") == "comparison" or before is None and after is None:
        return ""
    whole = f"= {as_written(after)}" if before is None else f"{as_written(before)} -> {as_written(after)}"
    if event.get("parts"):
        return ", ".join(_part(p) for p in event["parts"]) + ": " + whole.removeprefix("= ")
    return whole


_MARK = {"not-applied": "not applied: ", "reading": ""}


def _block(heading: str) -> Text:
    text = Text()
    text.append(heading, style="bold")
    return text


def _wrapped(text: Text, line: str, indent: str, width: int, style: str = "") -> int:
    """Append ``line`` wrapped to ``width`` (continuation lines indented); return the last line's length."""
    lead = indent + "  " if line.startswith("- ") else indent
    lines = textwrap.wrap(line, width, initial_indent=indent, subsequent_indent=lead, break_on_hyphens=False)
    text.append("\n".join(lines), style=style)
    return len(lines[-1]) if lines else 0


def _tail(text: Text, line_length: int, part: str, width: int, style: str) -> int:
    """Append ``part`` to the current line, or on a new indented one when it would not fit."""
    if line_length + len(part) > width:
        part = "\n      " + part.lstrip()
        line_length = 0
    text.append(part, style=style)
    return line_length + len(part)


def _trace(events: list[dict[str, Any]], text: Text, width: int, verbose: bool = False) -> None:
    for e in events:
        if e.get("detail") and not verbose:
            continue    # folded into another line (the army's count); --verbose shows it
        length = _wrapped(text, "- " + _MARK.get(e.get("kind", ""), "") + e["what"], "  ", width)
        change = _change(e)
        if change:
            length = _tail(text, length, f"  {change}", width, "bold")
        if e.get("defaulted"):
            _tail(text, length, "  (defaulted)", width, "yellow")
        text.append("\n")
        length = _wrapped(text, e["rule"], "      ", width, "dim")
        length = _tail(text, length, f" [{e['cite']}]", width, "cyan")
        if e.get("also") and e["also"] != e["cite"]:     # a reading's second citation
            _tail(text, length, f" [{e['also']}]", width, "cyan")
        text.append("\n")


def _results(step: dict[str, Any], text: Text, width: int, verbose: bool = False) -> None:
    # the result types the step rolled for (``rolled_for``); --verbose shows every result counted
    wanted = {} if verbose else step.get("rolled_for", {})
    rows = [(army, ", ".join(f"{n} {t}" for t, n in counts.items() if army not in wanted or t in wanted[army])
             or "-") for army, counts in step.get("results", {}).items()]
    rows += [(f"damage to {army}", str(n)) for army, n in step.get("damage", {}).items()]
    if step.get("killed"):
        rows.append(("killed", ", ".join(step["killed"])))
    if step.get("kept"):    # killed, kept from the DUA by a spell (Open Grave, Leaving)
        rows.append(("killed, not to the DUA", ", ".join(f"{u} to {dest}" for u, dest in step["kept"].items())))
    if step.get("maneuver"):
        rows.append(("maneuver", "succeeded" if step["maneuver"]["succeeded"] else "failed"))
    pad = max((len(label) for label, _ in rows), default=0) + 2
    for label, value in rows:
        start = len(text)
        _wrapped(text, f"{label.ljust(pad)}{value}", "  ", width)
        text.stylize("bold", start, start + 2 + len(label))
        text.append("\n")


def as_written(value: Any) -> str:
    """A value as a scenario writes it (YAML's flow style: ``{gold: 3, red: 2}``, ``[d1, d2]``, ``null``), not as
    Python prints it; a string is quoted only where YAML would read it as something else (``'3'``)."""
    import yaml

    text = yaml.safe_dump(value, default_flow_style=True, width=10**9, allow_unicode=True, sort_keys=False)
    return text.removesuffix("\n").removesuffix("\n...").strip()


def _check(check: dict[str, Any], text: Text, indent: str, width: int) -> None:
    mark, style = ("ok", "green") if check["ok"] else ("FAILED", "bold red")
    start = len(text) + len(indent)
    # a text (an expected error, the message) is shown as it is, never in YAML's quotes
    shown = [v if isinstance(v, str) else as_written(v) for v in (check["expected"], check["actual"])]
    if check.get("absent"):         # the path names nothing in the object (a misspelt path, a removed dragon)
        shown[1] = "absent (the path names nothing)"
    _wrapped(text, f"{mark} {check['key']}: expected {shown[0]}, actual {shown[1]}", indent, width)
    text.stylize(style, start, start + len(mark))
    text.append("\n")


def step_text(index: int, step: dict[str, Any], checks: list[dict[str, Any]], width: int,
              verbose: bool = False) -> Text:
    """One step: a heading, its results, then each trace event with its rule and citation."""
    text = _block(f"Step {index}  {step['kind']}\n")
    if "rejected" in step:
        _wrapped(text, f"rejected: {step['rejected']}", "  ", width, "yellow")
        text.append("\n")
    else:
        _results(step, text, width, verbose)
        _trace(step["trace"], text, width, verbose)
    for c in checks:
        _check(c, text, "  ", width)
    return text


def resolution(result: dict[str, Any], quiet: bool, width: int = 80, verbose: bool = False) -> list[Text]:
    """The blocks to print, every line already wrapped to ``width`` (print them with ``no_wrap``); ``verbose``
    shows the lines the default folds into others (each unit's count)."""
    checks = result["expectations"]
    failed = [c for c in checks if not c["ok"]]
    out = [_block("")]
    _wrapped(out[0], f"{result['title']}  ({result['edition']})", "", width, "bold")
    if result.get("edition_override"):
        out[0].append("\n")
        _wrapped(out[0], f"replayed under {result['edition']} (--edition), not the scenario's edition: "
                         f"{result['edition_override']['scenario']}", "", width, "yellow")
    if not quiet:
        out += [step_text(i, step, [c for c in checks if c["step"] == i], width, verbose)
                for i, step in enumerate(result["steps"], 1)]
    shown = [c for c in checks if c["step"] is None] if not quiet else failed
    if shown:
        out.append(_block("" if quiet else "Final state\n"))
        for c in shown:
            _check(c, out[-1], "" if quiet else "  ", width)
    summary = f"{len(checks) - len(failed)} of {len(checks)} expectations hold" if checks else "no expectations"
    refused = result.get("refused")
    if refused:
        summary = f"step {refused['step']} ({refused['kind']}) refused; before it, {summary}"
    out.append(_block(""))
    _wrapped(out[-1], f"{result['file']}: {summary}", "", width, "red" if failed or refused else "green")
    return out


def grand_total(results: list[dict[str, Any]], invalid: int = 0) -> Text:
    """The one line that ends a run over several files: files whose expectations all hold, expectations held."""
    checks = [c for r in results for c in r["expectations"]]
    held = sum(c["ok"] for c in checks)
    passed = sum(all(c["ok"] for c in r["expectations"]) for r in results)
    files = len(results) + invalid
    line = (f"total: {passed} of {files} files pass, {held} of {len(checks)} expectations hold"
            + (f", {invalid} invalid" if invalid else ""))
    return Text(line, style="bold green" if passed == files else "bold red")
