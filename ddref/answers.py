"""What the lookups answer, as records and as JSON data: one implementation for two shells.

The CLI prints these answers (rich for people, ``--json`` for scripts) and
``ddref serve`` returns the same JSON over HTTP. Every function takes plain
values, calls index/ or the scenario runner, and raises a
:class:`~ddref.errors.UserError` (``Unknown`` for a name that matches
nothing, with the closest names) that each shell turns into its own message:
``ddref: ...`` with exit code 2, or a 4xx answer. Nothing here knows about the
terminal or HTTP; heavy modules load inside the functions.
"""

from __future__ import annotations

from engine.names import typed
import re
from collections.abc import Callable
from typing import Any

from .errors import Unknown, UserError
from .options import Edition, edition_id

# the editions a section id can start with (engine.edition.EDITIONS, kept
# literal here so that parsing arguments imports nothing)
SECTION_ID = re.compile(r"^(sfr-2012|sfr-v4|tsr-1996):[a-z0-9][a-z0-9.-]*$")

REPLAYABLE = ("sfr-2012", "sfr-v4", "tsr-1996")


def _did_you_mean(close: list[str], otherwise: str = "") -> str:
    return f"; did you mean: {', '.join(close)}?" if close else otherwise


# --- records by name -------------------------------------------------------

class Guessed(list):
    """Records found for a misspelt name that clearly meant them; ``note`` says so ("showing X for 'y'")."""

    def __init__(self, found: list, note: str) -> None:
        super().__init__(found)
        self.note = note


def named(kind: str, name: str, edition: Edition | None) -> list:
    """The records of ``kind`` named ``name`` in ``edition`` (every edition for all/None), newest first.

    A misspelling with one clear best match answers with that record, as a :class:`Guessed` list whose note
    the shells show; several close names are still an error listing them."""
    from index.lookup import NotFound, find

    try:
        return find(kind, name, edition_id(edition))
    except NotFound as exc:
        if exc.guess:
            shown = getattr(exc.guess[0], "name", None) or getattr(exc.guess[0], "term", None) or exc.guess[0].id
            return Guessed(exc.guess, f"showing {shown} for {typed(name)}")
        raise Unknown(exc.message(), exc.suggestions) from None


def dumps(found: list) -> list[dict]:
    """Records (or sections) as JSON data."""
    return [r.model_dump(mode="json") for r in found]


def records_json(found: list, edition: Edition | None) -> Any:
    """Records as JSON data: one object, or a list for --edition all (or when several)."""
    rows = dumps(found)
    return rows if edition is Edition.all or len(rows) != 1 else rows[0]


def known(value: str, allowed: set[str], what: str) -> str:
    """``value`` in lower case when it is one of ``allowed``, else an error with the closest ones."""
    import difflib

    if value.lower() in allowed:
        return value.lower()
    close = difflib.get_close_matches(value.lower(), sorted(allowed), n=3)
    otherwise = f"; expected one of: {', '.join(sorted(allowed))}"
    raise Unknown(f"unknown {what} {typed(value)}" + _did_you_mean(close, otherwise), close)


def spell_list(edition: Edition, color: str | None = None, race: str | None = None,
               max_cost: int | None = None, reserve: bool = False) -> list:
    """Spells of ``edition`` filtered by color, race list ('basic' for the basic list), cost and reserve casting."""
    from index.corpus import records
    from index.lookup import in_edition

    rows = in_edition(records("spell"), edition_id(edition))
    if color:
        wanted = known(color, {s.color for s in records("spell")}, "color")
        rows = [s for s in rows if s.color == wanted]
    if race:
        wanted = "basic" if race.lower() == "basic" else named("race", race, Edition.all)[0].id
        rows = [s for s in rows if wanted in s.lists]
    if max_cost is not None:
        rows = [s for s in rows if s.cost <= max_cost]
    if reserve:
        rows = [s for s in rows if s.reserve]
    return rows


# --- search ----------------------------------------------------------------

def search(query: str, edition: str | None = None, kind: str | None = None, limit: int = 10,
           progress: Callable[[int, int, str], None] | None = None):
    """``index.search.search``, its index unavailable or a query too long turned into a user error."""
    from index.search import QueryTooLong
    from index.search import search as ranked
    from index.store import IndexUnavailable

    try:
        return ranked(query, edition=edition, kind=kind, limit=limit, progress=progress)
    except (IndexUnavailable, QueryTooLong) as exc:
        raise UserError(str(exc)) from None


def search_json(query: str, edition: Edition | None, kind: str | None, result) -> dict:
    from dataclasses import fields

    # a hit's fields are plain values: a shallow dict is its JSON (asdict's deep copy took 2 ms a search)
    names = [f.name for f in fields(result.hits[0])] if result.hits else []
    return {"query": query, "understood": result.understood, "edition": edition_id(edition),
            "type": kind, "warnings": list(result.warnings),
            "hits": [{name: getattr(h, name) for name in names} for h in result.hits]}


# --- rule sections ---------------------------------------------------------

def section(target: str, edition: Edition | None, searcher: Callable = search) -> tuple[Any, list, bool]:
    """``(section, subsections, best)``: the section with id ``target``, or (best) the one matching its words.

    Words search the rule sections of ``edition`` (the default edition when None).
    """
    from index.corpus import sections

    target = target.strip()
    if not target:
        raise UserError("give a section id or words to look for; `ddref rules` lists the sections")
    table = sections()
    best = not SECTION_ID.match(target)
    found = _best_section(target, edition, searcher) if best else _section_by_id(table, target, edition)
    children = [s for s in table.values() if s.id.startswith(found.id + ".")]
    return found, children, best


def section_json(target: str, found, children: list, best: bool) -> dict:
    from .conformance import section_coverage

    return {"section": found.model_dump(), "subsections": [c.model_dump() for c in children],
            "match": "best" if best else "id", "query": target.strip(),
            "coverage": section_coverage(found.id)}  # issue 20: its statements' status and scenarios


def _section_by_id(table: dict, section_id: str, edition: Edition | None):
    import difflib

    found = table.get(section_id)
    if found is None:
        close = difflib.get_close_matches(section_id, list(table), n=5, cutoff=0.5)
        raise Unknown(f"no rule section with id {typed(section_id)}" + _did_you_mean(close), close)
    wanted = edition_id(edition)
    if wanted and found.edition != wanted:
        raise Unknown(f"section {typed(section_id)} is in {found.edition}, not {wanted}")
    return found


def _best_section(query: str, edition: Edition | None, searcher: Callable):
    from engine.edition import DEFAULT_EDITION
    from index.corpus import sections

    wanted = DEFAULT_EDITION if edition is None else edition_id(edition)
    result = searcher(query, edition=wanted, kind="rule", limit=1)
    if not result.hits:
        where = f" in {wanted}" if wanted else ""
        raise Unknown(f"no rule section matches {typed(query)}{where}; try `ddref rules` for the contents")
    return sections()[result.hits[0].id]


def contents(edition: Edition) -> list:
    """The rule sections of ``edition`` (every edition for all), in document order."""
    from index.corpus import sections

    wanted = edition_id(edition)
    return [s for s in sections().values() if wanted is None or s.edition == wanted]


def contents_json(rows: list) -> list[dict]:
    return [{k: getattr(s, k) for k in ("id", "heading", "level", "parent", "document", "edition")} for s in rows]


# --- FAQ rulings and the glossary --------------------------------------------

def rulings(query: str) -> list:
    """The FAQ rulings for ``query`` (see ``index.rulings.match_rulings``), or an error with close topics."""
    import difflib

    from index.corpus import records
    from index.rulings import match_rulings

    every = records("ruling")
    found = match_rulings(query, every)
    if found:
        return found
    topics = sorted({r.topic for r in every} | {r.part.title() for r in every})
    close = difflib.get_close_matches(query.title(), topics, n=5, cutoff=0.5)
    raise Unknown(f"no FAQ ruling matches {typed(query)}"
                  + _did_you_mean(close, "; try `ddref search QUERY --type ruling`"), close)


def glossary(term: str) -> list:
    """The entry for ``term``, and for an abbreviation the entry of what it stands for, when there is one."""
    from index.lookup import NotFound, find

    try:
        entries = list(find("glossary", term))
    except NotFound as exc:
        if exc.guess:
            return Guessed(exc.guess, f"showing {exc.guess[0].term} for {typed(term)}")
        words = term.replace("'", "")
        hint = f"; to search the rules for these words: ddref search '{words}'" if len(words) <= 100 else ""
        raise Unknown(exc.message().replace("no glossary named", "no glossary entry for") + hint,
                      exc.suggestions) from None   # a pasted page is not echoed back in a hint
    for entry in list(entries):
        if entry.kind == "abbreviation" and entry.expansion:
            try:
                entries += [e for e in find("glossary", entry.expansion) if e not in entries]
            except NotFound:
                pass  # stands for a spell, race or die: the CLI's hint names the command
    return entries


# --- editions side by side, and the documents -------------------------------

def comparison(kind: str, name: str):
    """``index.compare.compare``, an unknown name turned into a user error."""
    from index.compare import compare
    from index.lookup import NotFound

    try:
        return compare(kind, name)
    except NotFound as exc:
        raise Unknown(exc.message(), exc.suggestions) from None


# kinds counted per document, as `ddref sources` names them
_COUNTED = ("section", "spell", "sai", "race", "unit", "terrain", "eighth-face", "dragon", "ruling", "glossary")


def sources_json() -> dict:
    """The documents with their record counts, and the corpus hash."""
    from index.corpus import corpus_hash, records

    counts = _counts()
    return {"corpus_hash": corpus_hash(),
            "documents": [{**d.model_dump(), "counts": counts.get(d.id, {})} for d in records("document")]}


def _counts() -> dict[str, dict[str, int]]:
    """Per document, how many sections and records of each kind cite it (kinds with none left out)."""
    from index.corpus import records, sections

    counts: dict[str, dict[str, int]] = {}
    cited = [("section", s.document) for s in sections().values()]
    cited += [(kind, r.source.document) for kind in _COUNTED[1:] for r in records(kind)]
    for kind, document in cited:
        per_kind = counts.setdefault(document, dict.fromkeys(_COUNTED, 0))
        per_kind[kind] += 1
    return {document: {k: n for k, n in per_kind.items() if n} for document, per_kind in counts.items()}


# --- scenarios ---------------------------------------------------------------

def replayable(edition: str | None) -> str | None:
    """``edition`` when the engine can replay under it (None: the scenario's own), else an error."""
    if edition is not None and edition not in REPLAYABLE:
        from .scenario.source import did_you_mean

        hint = did_you_mean(edition, REPLAYABLE)   # sfr2012, SFR-2012: a typo, not another edition
        raise UserError(f"edition {typed(edition)} cannot be replayed: this version resolves "
                        + ", ".join(REPLAYABLE) + hint, [e for e in REPLAYABLE if e in hint])
    return edition
