"""Scenario authoring commands (issue 8): schema, init, check.

``register(app)`` adds them to the ``ddref`` app. The models, the corpus and
the loader load inside the command bodies only, so every other command
starts as fast as before.
"""

from __future__ import annotations

from engine.names import typed
from pathlib import Path
from typing import Annotated, Optional

import typer

from .errors import UserError
from .options import JsonOpt

SCHEMA_FILE = "ddref-scenario.schema.json"


def schema_command(as_json: JsonOpt = False) -> None:
    """Print the JSON Schema of the scenario format, for editors and validators.

    The output is JSON either way (--json is accepted for consistency). Save it
    and point your editor at it with a first line in the scenario:
    # yaml-language-server: $schema=ddref-scenario.schema.json

    Examples:
      ddref schema > ddref-scenario.schema.json
      ddref schema | python -m json.tool | less
    """
    from .output import print_json
    from .scenario.schema import scenario_schema

    print_json(scenario_schema())


def init_command(
    file: Annotated[Optional[Path], typer.Argument(metavar="[FILE]", help="Where to write it; '-' prints it. "
                                                   "Default: scenario.yaml.")] = None,
    force: Annotated[bool, typer.Option("--force", "-f", help="Overwrite FILE if it exists.")] = False,
    schema: Annotated[str, typer.Option("--schema", metavar="PATH|URL",
                                        help="The schema the first line links to.")] = SCHEMA_FILE,
    template: Annotated[Optional[str], typer.Option("--template", "-t", metavar="KIND",
                                                    help="The kind of dispute to start from (ddref init --list "
                                                         "shows them). Default: melee.")] = None,
    list_: Annotated[bool, typer.Option("--list", help="List the kinds of --template and exit.")] = False,
    as_json: JsonOpt = False,
) -> None:
    """Write a commented starter scenario that replays cleanly, with the line linking editors to the schema.

    Each --template is a common dispute (melee, missile, maneuver, magic,
    dragon-attack, counter-attack, combination) written out with comments;
    every one resolves as written. It refuses to overwrite a file unless
    --force, and writes atomically (never a half-written file). A FILE that
    is a symbolic link stays a link: the file it points to is written (and,
    being there already, needs --force); a link that loops is refused.

    Examples:
      ddref init my-dispute.yaml && ddref schema > ddref-scenario.schema.json
      ddref init --list
      ddref init spells.yaml --template magic
      ddref init - --template dragon-attack > other.yaml
      ddref init my-dispute.yaml --force --schema ../ddref-scenario.schema.json
    """
    from rich.markup import escape

    from .output import out, print_json
    from .scenario.starter import TEMPLATES, template as starter_of

    if list_:
        if as_json:
            print_json([{"template": k, "summary": v} for k, v in TEMPLATES.items()])
            return
        from rich.table import Table

        table = Table(box=None, show_header=False, pad_edge=False)
        for kind, summary in TEMPLATES.items():
            table.add_row(f"[bold]{kind}[/bold]", summary)
        out.print(table)
        out.print("Use: [cyan]ddref init FILE --template KIND[/cyan]", soft_wrap=True)
        return
    kind = template or "melee"
    if kind not in TEMPLATES:
        from .scenario.source import did_you_mean

        raise UserError(f"unknown template {typed(kind)}; expected one of: {', '.join(TEMPLATES)}"
                        f"{did_you_mean(kind, list(TEMPLATES))}", _close(kind, TEMPLATES))
    path = file or Path("scenario.yaml")
    if str(path) == "-":
        typer.echo(starter_of(kind, "FILE", schema), nl=False)
        return
    path = _through_links(path)
    if path.is_dir():   # --force cannot help there: say what to give instead
        raise UserError(f"{path} is a folder, not a scenario file; give a file name in it, "
                        f"like {path / 'scenario.yaml'}")
    if not path.parent.is_dir():
        raise UserError(f"cannot write {path}: the folder {path.parent} does not exist; create it first "
                        f"(mkdir -p {path.parent}) or give a file in an existing folder")
    if path.exists() and not force:
        raise UserError(f"{path} exists; use --force to overwrite it")
    _write_atomically(path, starter_of(kind, path.name, schema))
    if as_json:
        print_json({"file": str(path), "schema": schema, "template": kind})
        return
    local = "://" not in schema  # a path, which editors read relative to the scenario
    target = path.parent / schema if local else None
    hint = "" if not local or target.exists() else \
        f"; for your editor: [cyan]ddref schema > {escape(str(target))}[/cyan]"
    shown = escape(str(path))
    out.print(f"Wrote {shown}. Next: [cyan]ddref resolve {shown}[/cyan]{hint}", soft_wrap=True)


def _through_links(path: Path) -> Path:
    """The file a symbolic link ``path`` points to (through every link), so that the scenario is written there and the
    user's link stays a link: renaming a new file over the link itself would silently replace it with a copy. A path
    that is no link is itself; a link that loops (or is too deep) is refused."""
    import os

    if not path.is_symlink():
        return path
    target = Path(os.path.realpath(path))
    if target.is_symlink():     # realpath gives up on a loop, leaving a link
        raise UserError(f"cannot write {path}: it is a symbolic link that leads to no file (a loop of links); "
                        "give the file itself, or remove the link")
    return target


def _close(name: str, names) -> list[str]:
    import difflib

    return difflib.get_close_matches(name, list(names), n=3, cutoff=0.5)


def _write_atomically(path: Path, text: str) -> None:
    """Write a sibling temporary file and rename it over ``path``: readers see the old file or the new."""
    import os
    import tempfile

    try:
        handle, temp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    except OSError as exc:
        raise UserError(f"cannot write {path}: {exc.strerror}") from None
    umask = os.umask(0)
    os.umask(umask)
    try:
        os.fchmod(handle, 0o666 & ~umask)  # mkstemp's 0600 is for the temporary file, not the scenario
        with os.fdopen(handle, "w", encoding="utf-8") as stream:
            stream.write(text)
        os.replace(temp, path)
    except OSError as exc:
        os.unlink(temp)
        raise UserError(f"cannot write {path}: {exc.strerror}") from None


def check_command(
    files: Annotated[list[Path], typer.Argument(metavar="FILE...", help="Scenario files (YAML, format version 1).")],
    as_json: JsonOpt = False,
) -> None:
    """Check scenario files without replaying them: YAML, fields, names, ids and rolls.

    Exit code 0 when every file is valid, 2 when one is not; each error names
    file:line:column, the field, what was expected and the closest names.

    Examples:
      ddref check my-dispute.yaml
      ddref check scenarios/*.yaml --json
    """
    from rich.text import Text

    from .output import err, out, print_json
    from .scenario.run import load
    from .scenario.source import ScenarioErrors

    results = []
    for path in files:
        try:
            load(path)
            results.append({"file": str(path), "ok": True, "errors": []})
        except ScenarioErrors as exc:
            results.append({"file": str(path), "ok": False, "errors": [e.as_dict() for e in exc.errors]})
            if not as_json:
                err.print(Text(str(exc)))
        else:
            if not as_json:
                out.print(Text(f"{path}: ok"))
    if as_json:
        print_json(results)
    raise typer.Exit(0 if all(r["ok"] for r in results) else 2)


def register(app: typer.Typer) -> None:
    for name, command in (("schema", schema_command), ("init", init_command), ("check", check_command)):
        app.command(name)(command)
