"""Search and reference commands (issue 4): search, index, rule(s), ruling, glossary, compare, sources.

``register(app)`` adds them to the ``ddref`` app. Like the rest of the CLI
they are thin shells: index/ finds and compares, render.py draws, and every
error a user can cause becomes a one-line message with exit code 2. Heavy
modules (whoosh, sqlite-utils) load inside the command bodies only.
"""

from __future__ import annotations

from enum import Enum
from typing import Annotated, Optional

import typer

from engine.names import typed

from .errors import UserError
from .options import AnyEditionOpt, Edition, EditionOpt, JsonOpt, edition_id

class Kind(str, Enum):
    spell = "spell"
    sai = "sai"
    rule = "rule"
    ruling = "ruling"
    glossary = "glossary"
    race = "race"
    unit = "unit"


class Comparable(str, Enum):
    spell = "spell"
    sai = "sai"
    rule = "rule"


# --- search and the index -------------------------------------------------

def search_command(
    query: Annotated[str, typer.Argument(help="Words, \"phrases\", -not, and fields such as type:spell cost<=4.")],
    edition: AnyEditionOpt = None,
    kind: Annotated[Optional[Kind], typer.Option("--type", "-t", case_sensitive=False,
                                                 help="Only this type of record.")] = None,
    limit: Annotated[int, typer.Option("--limit", "-n", min=1, max=200, help="At most N hits.")] = 10,
    as_json: JsonOpt = False,
) -> None:
    """Search spells, SAIs, rule sections, FAQ rulings, glossary terms, races and units.

    Ask as at the table ("which SAI stops the defender from counter attacking"),
    or name something ("wall of fog"). Free words, "quoted phrases", -negation
    and fields (type:, edition:, color:, race:, cost:3, cost<=4, reserve:yes,
    cantrip:yes, name:, story:yes for the books' story text and front matter).
    Edition words (TSR, 1996, old rules, v4, 2012, new rules) keep to that
    edition. One hit per record, listing the editions it is in. The first
    search builds the index in the cache directory. See docs/search.md.

    Examples:
      ddref search "sai that shoots back"
      ddref search "old TSR rules claws damage"
      ddref search "type:spell color:green cost<=3 -elemental"
      ddref search dua --type glossary --json
    """
    from .answers import search_json
    from .output import print_json, show
    from .render import search_hits

    result = _search(query, edition=edition_id(edition), kind=kind.value if kind else None, limit=limit)
    if as_json:
        print_json(search_json(query, edition, kind.value if kind else None, result))
        return
    if not result.hits:
        read = result.understood or query.strip()
        show(f"No match for [bold]{_escape(read)}[/bold]." if read else "No match.")
        return
    header = f"{len(result.hits)} hit(s) for [bold]{_escape(result.understood or query)}[/bold]"
    show(header, search_hits(result, _open_command))


def _search(query: str, **options):
    """``answers.search`` with a progress bar while the index builds, and warnings on stderr."""
    from .answers import search
    from .output import build_progress, warn

    with build_progress() as progress:
        result = search(query, progress=progress, **options)
    for warning in result.warnings:
        warn(warning)
    return result


def _open_command(hit) -> str:
    """The ddref command that shows a hit in full."""
    edition = "" if hit.kind in ("rule", "ruling", "glossary") else f" -e {hit.edition}"
    return f"ddref {hit.kind} {hit.id}{edition}"


def _escape(text: str) -> str:
    from rich.markup import escape

    return escape(text)


index_app = typer.Typer(help="Build the search index or show where it is and what it holds.",
                        no_args_is_help=True, add_completion=False, rich_markup_mode="rich")


@index_app.command("build")
def index_build(
    force: Annotated[bool, typer.Option("--force", help="Rebuild even when the index is fresh.")] = False,
    as_json: JsonOpt = False,
) -> None:
    """Build the search index now (it builds by itself on the first search).

    Examples:
      ddref index build
      ddref index build --force --json
    """
    from index.store import IndexUnavailable, ensure

    from .output import build_progress

    try:
        with build_progress() as progress:
            ensure(force=force, progress=progress)
    except IndexUnavailable as exc:
        raise UserError(str(exc)) from None
    _print_info(as_json)


@index_app.command("info")
def index_info(as_json: JsonOpt = False) -> None:
    """Where the index is (and the cache folder holding it), the corpus hash it was built from, counts, build time,
    and whether it is fresh. The cache folder is $DDREF_CACHE_DIR, else $XDG_CACHE_HOME/ddref, else ~/.cache/ddref
    (a private folder under the temporary directory when that cannot be written); ddref deletes only its own
    folders in it.

    Examples:
      ddref index info
      ddref index info --json
    """
    _print_info(as_json)


def _print_info(as_json: bool) -> None:
    from index.store import IndexUnavailable, info

    from .output import print_json, show
    from .render import key_values

    try:
        facts = info()
    except IndexUnavailable as exc:
        raise UserError(str(exc)) from None
    if as_json:
        print_json(facts)
        return
    counts = facts.get("counts") or {}
    show(key_values([
        ("Location", str(facts.get("location", "-"))),
        ("Cache folder", str(facts.get("cache_dir", "-"))),
        ("Corpus hash", str(facts.get("corpus_hash") or "-")),
        ("Fresh", "yes" if facts.get("fresh") else "no (the next search rebuilds it)"),
        ("Built at", str(facts.get("built_at") or "never")),
        ("Build time", f"{facts['build_seconds']:.2f} s" if facts.get("build_seconds") is not None else "-"),
        ("Size", f"{facts['size_bytes'] / 1024:.0f} KiB" if facts.get("size_bytes") is not None else "-"),
        *((kind, ", ".join(f"{n} {ed}" for ed, n in by_edition.items())) for kind, by_edition in counts.items()),
    ]))


# --- rule sections --------------------------------------------------------

def rule_command(
    target: Annotated[str, typer.Argument(metavar="ID|QUERY",
                                          help="A section id as traces and records cite it, or words.")],
    edition: AnyEditionOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Print a rule section and its subsections, by its stable id or as the best match for words,
    with how ddref covers it: each statement's status and the scenarios that exercise it.

    Words search the rule sections of --edition (sfr-2012 unless given; 'all'
    for every edition) and print the best-matching one, saying so.

    Examples:
      ddref rule sfr-2012:dice-modifiers.applying-dice-modifiers
      ddref rule "reserve magic" --edition tsr-1996
      ddref rule tsr-1996:faq --json
    """
    from .answers import section, section_json
    from .output import print_json, show
    from .render import section_panel

    from .cli_coverage import coverage_panel

    found, children, best = section(target, edition, _search)
    if as_json:
        print_json(section_json(target, found, children, best))
        return
    note = [f"[dim]Best match for {_escape(typed(target.strip()))}:[/dim]"] if best else []
    show(*note, section_panel(found, children), coverage_panel(found.id, children))


def rules_command(edition: EditionOpt = Edition.sfr_2012, as_json: JsonOpt = False) -> None:
    """The table of contents of an edition's rules: headings indented by level, with their ids.

    Examples:
      ddref rules
      ddref rules --edition sfr-v4
      ddref rules --edition all --json
    """
    from .answers import contents, contents_json
    from .output import out, print_json, show
    from .render import toc

    rows = contents(edition)
    if as_json:
        print_json(contents_json(rows))
        return
    show(toc(rows, out.width), f"{len(rows)} section(s); [cyan]ddref rule ID[/cyan] prints one")


# --- FAQ rulings and the glossary ------------------------------------------

def ruling_command(
    query: Annotated[str, typer.Argument(help="Topic words, a ruling or topic id, a spell/SAI/race name, or words of the text.")],
    as_json: JsonOpt = False,
) -> None:
    """FAQ rulings (tsr-1996, FAQ part four) with their topic, letter, text and source.

    Matches a ruling id (or the id of a topic or part), the words of a topic,
    the spell, SAI, race or section a ruling concerns, then the ruling's text.

    Examples:
      ddref ruling "amazons in reserves"
      ddref ruling charm
      ddref ruling tsr-1996:faq.amazons --json
    """
    from .answers import dumps, rulings
    from .output import print_json, show
    from .render import ruling_panel

    found = rulings(query)
    if as_json:
        print_json(dumps(found))
        return
    topics: dict[str, list] = {}
    for r in found:
        topics.setdefault(r.source.section, []).append(r)
    show(*(ruling_panel(group) for group in topics.values()), f"{len(found)} ruling(s)")


def glossary_command(
    term: Annotated[str, typer.Argument(help="A term or abbreviation of the sfr-2012 glossary: 'dua', 'acting army'.")],
    as_json: JsonOpt = False,
) -> None:
    """Look a term or abbreviation up in the sfr-2012 glossary (an abbreviation shows its full entry too).

    Examples:
      ddref glossary dua
      ddref glossary "acting army" --json
    """
    from .answers import dumps, glossary
    from .output import guessed, print_json, show
    from .render import glossary_panel

    entries = glossary(term)
    guessed(entries)
    if as_json:
        print_json(dumps(entries))
        return
    hints = [f"[dim]See [cyan]ddref {e.category.lower()} {_quoted(e.expansion)}[/cyan] for the {e.category}.[/dim]"
             for e in entries if e.kind == "abbreviation" and (e.category or "").lower() in ("spell", "sai", "race")]
    show(*(glossary_panel(e) for e in entries), *hints)


def _quoted(text: str) -> str:
    return f'"{text}"' if " " in text else text


# --- editions side by side, and the documents -------------------------------

def compare_command(
    kind: Annotated[Comparable, typer.Argument(case_sensitive=False, help="spell, sai or rule.")],
    name: Annotated[str, typer.Argument(help="Its name (for a rule: a heading or any edition's section id).")],
    as_json: JsonOpt = False,
) -> None:
    """Show a spell, SAI or rule section in every edition side by side, with what differs highlighted.

    Differing fields are marked with *; each edition's text is a word diff
    against the first edition's ([-removed-] and {+added+} without color).

    Examples:
      ddref compare spell "wall of fog"
      ddref compare sai charm --json
      ddref compare rule "dice modifiers"
    """
    from .answers import comparison
    from .output import out, print_json, show
    from .render import comparison_view

    found = comparison(kind.value, name)
    if as_json:
        print_json(found.as_json())
        return
    show(*comparison_view(found, marked=out.no_color or out.color_system is None))


def sources_command(as_json: JsonOpt = False) -> None:
    """The rule documents loaded: edition, title, year, record counts, and the corpus hash.

    Examples:
      ddref sources
      ddref sources --json
    """
    from .answers import sources_json
    from .output import print_json, show
    from .render import record_table

    data = sources_json()
    if as_json:
        print_json(data)
        return
    show(record_table(data["documents"], [
        ("Doc", lambda d: d["id"]), ("Edition", lambda d: d["edition"]),
        ("Title", lambda d: d["title"]), ("Year", lambda d: d["year"]),
        ("Records", lambda d: ", ".join(f"{n} {k}" for k, n in d["counts"].items()) or "-"),
    ]), f"Corpus hash [bold]{data['corpus_hash']}[/bold]")


def register(app: typer.Typer) -> None:
    """Add the search and reference commands, and the ``index`` sub-app, to ``app``."""
    for name, command in (("search", search_command), ("rule", rule_command), ("rules", rules_command),
                          ("ruling", ruling_command), ("glossary", glossary_command),
                          ("compare", compare_command), ("sources", sources_command)):
        app.command(name)(command)
    app.add_typer(index_app, name="index")
