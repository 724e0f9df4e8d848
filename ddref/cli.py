"""The ``ddref`` command: a thin typer shell over index/ and engine/.

Heavy modules (pydantic models, the corpus) load inside the commands that use
them, so ``ddref --help`` stays quick. Every error a user can cause ends here
as a one-line message and exit code 2; nothing prints a traceback.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Optional

import typer

from . import __version__, complete, params, pydantic_plugins
from .errors import UserError
from .limits import Limits
from .options import Edition, EditionOpt, JsonOpt, edition_id

params.install()

app = typer.Typer(
    name="ddref",
    help="Dragon Dice rules reference: cited lookups of spells, SAIs, races, units and rules "
         "across the tsr-1996, sfr-v4 and sfr-2012 editions.",
    no_args_is_help=True,
    rich_markup_mode="rich",
    pretty_exceptions_enable=False,
)


def _show(kind: str, name: str, edition: Edition, as_json: bool, extras=None) -> None:
    """Look a record up and print it: panels for people, JSON for scripts."""
    from .answers import named, records_json
    from .output import guessed, out, print_json
    from .render import record_panel

    found = named(kind, name, edition)
    guessed(found)
    if as_json:
        print_json(records_json(found, edition))
        return
    for record in found:
        out.print(record_panel(kind, record, extras(record) if extras else []))


def _rulings_for(ref: str) -> list:
    from index.corpus import records

    return [r for r in records("ruling") if ref in r.concerns]


def _ruling_block(kind: str, record) -> list:
    from .render import titled_list

    rulings = [r for r in _rulings_for(f"{kind}:{record.id}") if r.edition == record.edition]
    if not rulings:
        return []
    return [titled_list("FAQ rulings", (f"{r.topic} {r.letter}) {r.text}  [{r.id}]" for r in rulings))]


@app.command()
def spell(
    name: Annotated[str, typer.Argument(help="Spell name in any case, e.g. 'wall of fog'.",
                                        autocompletion=complete.names("spell"))],
    edition: EditionOpt = Edition.sfr_2012,
    as_json: JsonOpt = False,
) -> None:
    """Show a spell: color, cost, lists, duration, multiplicity, text and source.

    Examples:
      ddref spell "Wall of Fog"
      ddref spell "wall of fog" --edition all --json
    """
    _show("spell", name, edition, as_json, lambda r: _ruling_block("spell", r))


@app.command()
def spells(
    edition: EditionOpt = Edition.sfr_2012,
    color: Annotated[Optional[str], typer.Option(help="black, blue, gold, green, red or elemental.")] = None,
    race: Annotated[Optional[str], typer.Option(help="Only spells on this race's list (or 'basic').")] = None,
    max_cost: Annotated[Optional[int], typer.Option("--max-cost", min=0, help="Only spells costing at most N.")] = None,
    reserve: Annotated[bool, typer.Option("--reserve", help="Only spells castable from the reserve area.")] = False,
    as_json: JsonOpt = False,
) -> None:
    """List spells, filtered by edition, color, race list, cost and reserve casting.

    Examples:
      ddref spells --color green --max-cost 3
      ddref spells --race treefolk --edition sfr-v4 --json
    """
    from .answers import dumps, spell_list
    from .output import out, print_json
    from .render import record_table

    rows = spell_list(edition, color, race, max_cost, reserve)
    if as_json:
        print_json(dumps(rows))
        return
    out.print(record_table(rows, [
        ("Spell", lambda s: s.name), ("Edition", lambda s: s.edition), ("Color", lambda s: s.color),
        ("Cost", lambda s: str(s.cost)), ("List", lambda s: ", ".join(s.lists)),
        ("Duration", lambda s: s.duration),
    ]))
    out.print(f"{len(rows)} spell(s)")


@app.command()
def sai(
    name: Annotated[str, typer.Argument(help="SAI name in any case, e.g. 'double strike'.",
                                        autocompletion=complete.names("sai"))],
    edition: EditionOpt = Edition.sfr_2012,
    as_json: JsonOpt = False,
) -> None:
    """Show a special action icon: resolution per kind of roll, text and source.

    Examples:
      ddref sai trample
      ddref sai charm --edition all
    """
    _show("sai", name, edition, as_json, lambda r: _ruling_block("sai", r))


@app.command()
def sais(edition: EditionOpt = Edition.sfr_2012, as_json: JsonOpt = False) -> None:
    """List the special action icons of an edition.

    Example:
      ddref sais --edition sfr-v4
    """
    from index.corpus import records
    from index.lookup import in_edition

    from .answers import dumps
    from .output import out, print_json
    from .render import resolution_text, record_table

    rows = in_edition(records("sai"), edition_id(edition))
    if as_json:
        print_json(dumps(rows))
        return
    out.print(record_table(rows, [
        ("SAI", lambda s: s.name), ("Edition", lambda s: s.edition), ("Resolution", resolution_text),
    ]))
    out.print(f"{len(rows)} SAI(s)")


@app.command()
def race(
    name: Annotated[str, typer.Argument(help="Race name or alias: 'coral elves', 'Selumari'.",
                                        autocompletion=complete.names("race"))],
    edition: EditionOpt = Edition.sfr_2012,
    as_json: JsonOpt = False,
) -> None:
    """Show a race: aliases, colors, abilities, its spells, rulings and source.

    Examples:
      ddref race Vagha
      ddref race amazons --edition tsr-1996
    """
    _show("race", name, edition, as_json, _race_extras)


def _race_extras(record) -> list:
    from index.corpus import records

    from .render import titled_list

    blocks = []
    if record.abilities:
        blocks.append(titled_list("Abilities", (f"{a.name}: {a.text}" for a in record.abilities)))
    own = [s.name for s in records("spell") if s.edition == record.edition and record.id in s.lists]
    if own:
        blocks.append(titled_list("Spells on its list", own))
    return blocks + _ruling_block("race", record)


@app.command()
def unit(
    name: Annotated[str, typer.Argument(help="Unit name: 'Coral Elf Trooper', 'Umber Hulk'.",
                                        autocompletion=complete.names("unit"))],
    edition: EditionOpt = Edition.sfr_2012,
    as_json: JsonOpt = False,
) -> None:
    """Show a unit (or monster, champion, dragonkin, magical item): race, class, size, health.

    Examples:
      ddref unit "coral elf trooper"
      ddref unit "umber hulk" --json
    """
    _show("unit", name, edition, as_json)


@app.command()
def resolve(
    files: Annotated[list[Path], typer.Argument(metavar="FILE...", help="Scenario files (YAML, format version 1).")],
    edition: Annotated[Optional[str], typer.Option("--edition", "-e", metavar="EDITION",
                                                   help="Replay under this edition instead of the file's.",
                                                   autocompletion=complete.editions)] = None,
    as_json: JsonOpt = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="Print only failures and the summary.")] = False,
    verbose: Annotated[bool, typer.Option("--verbose", "-v", help="Print every trace event, each unit's count "
                                                                 "included (--json always has them all).")] = False,
) -> None:
    """Replay a scenario step by step and explain every number with the rule behind it.

    Exit code 0 when every expectation holds, 1 when one fails, 2 when a file is invalid
    or a step is illegal. A step the rules refuse (without expect_error) still reports the
    steps before it; with --json their results and the refusal ("refused") are on stdout.

    Examples:
      ddref resolve scenarios/sfr2012-modifiers-coral-elf-17-saves.yaml
      ddref resolve scenarios/*.yaml --quiet
      ddref resolve my-dispute.yaml --json
      ddref resolve my-dispute.yaml --verbose     # every unit's count too
    """
    import json

    from rich.text import Text

    from .answers import replayable
    from .output import err, out, print_json
    from .scenario.run import StepRefused, load, replay
    from .scenario.source import ScenarioErrors
    from .trace_view import grand_total, resolution

    edition = replayable(edition)
    code, results, invalid = 0, [], 0
    for path in files:
        try:
            result = replay(load(path, edition), edition)
        except StepRefused as exc:
            # the steps before the refused one still report: their trace (or JSON), then the located refusal
            results.append(exc.result)
            if not as_json:
                for block in resolution(exc.result, quiet, out.width, verbose):
                    out.print(block, no_wrap=True, overflow="ignore")
            err.print(Text(str(exc)))
            code = max(code, 2)
            continue
        except ScenarioErrors as exc:
            if as_json:  # one JSON object a file on stderr: file, and each problem's line, column, field
                print(json.dumps(error_json(exc, str(path)), ensure_ascii=False), file=sys.stderr)
            else:
                err.print(Text(str(exc)))
            code, invalid = max(code, 2), invalid + 1
            continue
        results.append(result)
        if any(not c["ok"] for c in result["expectations"]):
            code = max(code, 1)
        if not as_json:
            for block in resolution(result, quiet, out.width, verbose):
                out.print(block, no_wrap=True, overflow="ignore")  # wrapped already, with indents
    if as_json:
        print_json(results[0] if len(files) == 1 and results else results)
    elif len(files) > 1:
        out.print(grand_total(results, invalid), no_wrap=True, overflow="ignore")
    raise typer.Exit(code)


@app.command()
def serve(
    host: Annotated[str, typer.Option(help="Address to listen on: 127.0.0.1 for this machine only, "
                                           "0.0.0.0 for phones on the same network.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(min=0, max=65535, help="Port to listen on (0: any free port).")] = 8000,
    as_json: Annotated[bool, typer.Option("--json", help="Print the addresses as one JSON line when ready.")] = False,
    resolve_timeout: Annotated[float, typer.Option(
        min=0.1, help="Seconds a replay (POST /resolve) may run before it is stopped (a 422 says so), and "
                      "may wait for a free worker (else a 503).")] = Limits.resolve_timeout,
    resolve_workers: Annotated[int, typer.Option(
        min=1, max=64, help="Replays run at once, each in its own process; lookups never wait for them."
    )] = Limits.resolve_workers,
    read_timeout: Annotated[float, typer.Option(
        min=0.1, help="Seconds a client has to send a request's headers, and again its body (else a 408 and "
                      "the connection closed).")] = Limits.read_timeout,
    keep_alive: Annotated[float, typer.Option(
        min=0.1, help="Seconds an idle connection stays open for the client's next request.")] = Limits.keep_alive,
    max_connections: Annotated[int, typer.Option(
        min=1, help="Connections open at once. Past it the longest-idle connection of the client holding the "
                    "most is closed; only when all are busy does a request get a 503.")] = Limits.max_connections,
    open_: Annotated[bool, typer.Option("--open", help="Open the dispute builder (/build) in this machine's "
                                                       "default browser once the server is ready.")] = False,
) -> None:
    """Serve the lookups and scenario replays over HTTP: a JSON API and a web page for phones.

    The page (search, and a scenario pasted and traced step by step) is at /,
    the dispute builder (a scenario written by picking) at /build, the API's
    documentation at /docs. Ctrl+C or SIGTERM stops it, a replay in progress too.

    The limits keep it answering a few dozen phones when one is slow, stalls
    or misbehaves: a slow replay runs in a worker process and never delays a
    lookup; a connection that never finishes its request is closed after
    --read-timeout; errors are always JSON.

    Examples:
      ddref serve                   # this machine only: http://127.0.0.1:8000/
      ddref serve --host 0.0.0.0    # phones on the same Wi-Fi too
      ddref serve --port 0 --json   # any free port, its URL as JSON
      ddref serve --resolve-timeout 30 --resolve-workers 4   # long scenarios
      ddref serve --open            # and open the dispute builder in the browser
    """
    import json

    from .output import build_progress, err, out
    from .service import listen, run, urls, warm_up

    sock = listen(host, port)
    with build_progress() as progress:
        warm_up(progress)
    addresses = urls(host, sock.getsockname()[1])

    def ready() -> None:
        if as_json:
            print(json.dumps({"urls": addresses, "docs": addresses[0] + "docs"}), flush=True)
        else:
            out.print("ddref serves the rules reference at:", *(f"  [bold]{u}[/bold]" for u in addresses),
                      f"Build a dispute at {addresses[0]}build; API documentation at {addresses[0]}docs; "
                      "Ctrl+C stops it.", sep="\n")
        if open_:
            import webbrowser

            # this machine's own address: the last one listed (loopback, for a wildcard host)
            if not webbrowser.open(addresses[-1] + "build"):
                err.print(f"ddref: no browser to open; open {addresses[-1]}build yourself", style="yellow")

    run(sock, ready, Limits(resolve_timeout=resolve_timeout, resolve_workers=resolve_workers,
                            read_timeout=read_timeout, keep_alive=keep_alive, max_connections=max_connections))


from . import cli_author, cli_coverage, cli_search  # noqa: E402 - search and reference (issue 4), authoring (issue 8)
cli_search.register(app)
cli_author.register(app)
cli_coverage.register(app)  # rule coverage (issue 20)


def _version(value: bool) -> None:
    if value:
        print(f"ddref {__version__}")
        raise typer.Exit()


_debug = False


def _set_debug(value: bool) -> None:
    global _debug
    if value:
        _debug = True


@app.callback()
def _root(
    version: Annotated[bool, typer.Option("--version", callback=_version, is_eager=True,
                                          help="Show the version and exit.")] = False,
    debug: Annotated[bool, typer.Option("--debug", callback=_set_debug, is_eager=True,
                                        help="Show the traceback of an internal error, for a bug report "
                                             "(or set DDREF_DEBUG=1).")] = False,
) -> None:
    """Dragon Dice rules reference."""


def main() -> None:
    """Entry point: user errors become one-line messages with exit code 2.

    An unexpected exception is a bug in ddref: it is reported in one line as
    well (``ddref --debug ...`` or DDREF_DEBUG=1 shows the traceback for a bug report).
    """
    import os

    global _debug
    _debug = False
    # ddref uses no pydantic plugins: without this pydantic scans every installed package's entry points the
    # first time a scenario model is built (pydantic's documented switch; a value the user set is kept)
    os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")
    pydantic_plugins.skip_loader()      # and, switched off, the loader's import of importlib.metadata (30 ms)
    _printable_streams()
    out_of_memory = False
    _watch_interrupts()
    try:
        with _only_the_command_asked_for(_typed_words(sys.argv[1:], os.environ)):
            app()
    except (KeyboardInterrupt, SystemExit) as exc:
        # typer turns a Ctrl+C into a silent exit 130, and a server that caught it returns normally: either way
        # the user gets one line saying so (never a traceback), and the shell's 130 (128 + SIGINT)
        if not _interrupted and not isinstance(exc, KeyboardInterrupt):
            raise
        _fail("interrupted", 130, {"error": "interrupted"})
    except UserError as exc:
        _fail(str(exc), exc.exit_code, error_json(exc))
    except MemoryError:
        if _debug or os.environ.get("DDREF_DEBUG"):
            raise
        # said after this block: until it ends, the traceback keeps every frame's data (what filled the memory)
        # alive, and printing the message through rich would itself fail for want of memory
        out_of_memory = True
    except Exception as exc:  # noqa: BLE001 - the last line of defence
        if _debug or os.environ.get("DDREF_DEBUG"):
            raise
        message = (f"internal error ({type(exc).__name__}: {exc}); please report it "
                   "with the traceback that `ddref --debug ...` shows")
        _fail(message, 2, {"error": message})
    if _interrupted:    # a command that handled the Ctrl+C itself (ddref serve shuts down, then returns)
        _fail("interrupted", 130, {"error": "interrupted"})
    if out_of_memory:
        import json

        from .errors import OUT_OF_MEMORY

        said = json.dumps({"error": OUT_OF_MEMORY}) if "--json" in sys.argv[1:] else f"ddref: {OUT_OF_MEMORY}"
        sys.stderr.write(said + "\n")
        sys.exit(2)


_interrupted = False


def _watch_interrupts() -> None:
    """Note a Ctrl+C (SIGINT) before raising KeyboardInterrupt as Python does, so that ``main`` knows the command was
    interrupted whatever became of the exception (typer turns it into exit 130; uvicorn catches it, shuts down and
    raises it again into ``ddref serve``, which returns)."""
    import signal

    global _interrupted
    _interrupted = False
    if signal.getsignal(signal.SIGINT) is not signal.default_int_handler:
        return      # ignored (a background job started with SIGINT ignored) or handled by an embedding program

    def interrupted(signum, frame):
        global _interrupted
        _interrupted = True
        raise KeyboardInterrupt

    try:
        signal.signal(signal.SIGINT, interrupted)
    except ValueError:  # not the main thread (an embedding program): Python's own handling stays
        pass


@contextmanager
def _only_the_command_asked_for(args: list[str]) -> Iterator[None]:
    """Keep only the command being run: typer reads every command's signature at each start.

    ``ddref spell ...`` then skips the parameters of the other sixteen commands;
    ``ddref``, ``ddref --help`` and unknown names keep them all for the listing
    and the did-you-mean.
    """
    name = next((a for a in args if not a.startswith("-")), "")
    commands = [c for c in app.registered_commands if _name(c) == name]
    groups = [g for g in app.registered_groups if g.name == name]
    every = app.registered_commands, app.registered_groups
    if commands or groups:
        app.registered_commands, app.registered_groups = commands, groups
    try:
        yield
    finally:
        app.registered_commands, app.registered_groups = every


def _printable_streams() -> None:
    """Let stdout and stderr print any text a user can type.

    An argument or file name that is not valid UTF-8 reaches Python as lone
    surrogates (``\\udcff``); echoing it in a message must not crash on a
    terminal whose stream is strict UTF-8 (a UTF-8 locale, PYTHONIOENCODING).
    Such characters print as the escape ``\\udcff`` instead.
    """
    for stream in (sys.stdout, sys.stderr):
        if getattr(stream, "errors", None) == "strict" and hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="backslashreplace")


def _typed_words(argv: list[str], env) -> list[str]:
    """The words before the command line's end: argv, or while completing, the words the shell passes.

    A completion request runs ``ddref`` with no arguments and the command
    line in the environment (COMP_WORDS and COMP_CWORD for bash,
    _TYPER_COMPLETE_ARGS for zsh, fish and PowerShell); the word being
    completed is left out, so ``ddref sp<TAB>`` still lists every command.
    """
    if not env.get("_DDREF_COMPLETE"):
        return argv
    line = env.get("COMP_WORDS") or env.get("_TYPER_COMPLETE_ARGS", "")
    words = line.split()[1:]
    cword = env.get("COMP_CWORD", "")
    if cword.isdigit():
        return words[: int(cword) - 1]
    return words if line.endswith(" ") else words[:-1]


def _name(info) -> str:
    return info.name or info.callback.__name__.replace("_", "-")


def error_json(exc: UserError, file: str | None = None) -> dict:
    """An error as the data ``--json`` prints on stderr: the message, the closest names, and for a scenario each
    problem's file, line, column, field (``path``) and message."""
    data: dict = {"error": str(exc), "suggestions": exc.suggestions}
    if problems := getattr(exc, "errors", None):
        data["errors"] = [e.as_dict() for e in problems]
    if file is not None:
        data = {"file": file, **data}
    return data


def _fail(message: str, code: int, data: dict) -> None:
    """The error on stderr: one line for people, or with --json one JSON object (stdout stays data)."""
    import json

    from rich.text import Text

    from .output import err

    if "--json" in sys.argv[1:]:
        print(json.dumps(data, ensure_ascii=False), file=sys.stderr)
    else:
        err.print(Text.assemble(("ddref: ", "bold red"), message))
    sys.exit(code)
