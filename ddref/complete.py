"""Shell completion of names: spells, SAIs, races, units and edition ids.

A completion request is a whole ``ddref`` process per TAB, so it reads the
names straight from the corpus records (one JSON file per kind) and never
builds or opens the search index. It offers ids (``wall-of-fog``), which
every lookup accepts and which need no quoting in a shell, with the name as
the books print it and its editions as help where the shell shows help (zsh,
fish).
"""

from __future__ import annotations

from collections.abc import Callable

EDITIONS = ("sfr-2012", "sfr-v4", "tsr-1996")


def names(kind: str) -> Callable[[str], list[tuple[str, str]]]:
    """An autocompletion callback for a name of ``kind`` (spell, sai, race, unit)."""

    def complete(incomplete: str) -> list[tuple[str, str]]:
        return matching(kind, incomplete)

    return complete


def matching(kind: str, incomplete: str) -> list[tuple[str, str]]:
    """(id, "Name (editions)") of every record of ``kind`` whose id starts with ``incomplete``.

    Only ids: typer keeps only the offers that start with what was typed.
    """
    from index.corpus import records

    found: dict[str, tuple[str, list[str]]] = {}
    for r in records(kind):
        if r.id.startswith(incomplete):
            found.setdefault(r.id, (r.name, []))[1].append(r.edition)
    return [(rid, f"{name} ({', '.join(editions)})") for rid, (name, editions) in sorted(found.items())]


def editions(incomplete: str) -> list[str]:
    """Edition ids, for an option typed as a plain string (typer completes Enum options itself)."""
    return [e for e in EDITIONS if e.startswith(incomplete)]
