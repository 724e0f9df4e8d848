"""The built SQLite database, read-only: names, aliases, spelling, and the ranking tables.

``store()`` opens the database of the fresh index once per process (building
the index first when needed). Nothing here imports whoosh or sqlite-utils,
so a search answers exact names from SQLite alone. A database that cannot be
read is thrown away and built again, once.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from .cache import Built, IndexUnavailable, Progress, cache_root, discard, ensure, info

__all__ = ["IndexUnavailable", "Store", "cache_root", "ensure", "forget", "info", "store"]

# what every query needs; a database without one of them was not built whole
TABLES = {"meta", "names", "aliases", "vocab", "deletes", "english", "name_deletes", "search_docs", "postings"}


class Store:
    """Queries over one built ``ddref.db``."""

    def __init__(self, built: Built) -> None:
        self.built = built
        self.conn = sqlite3.connect(f"file:{built.db_path}?mode=ro", uri=True, check_same_thread=False)
        tables = {name for (name,) in self.query("SELECT name FROM sqlite_master WHERE type = 'table'")}
        if not TABLES <= tables:
            self.conn.close()
            raise sqlite3.DatabaseError(f"tables missing: {', '.join(sorted(TABLES - tables))}")

    def query(self, sql: str, params: Sequence[Any] = ()) -> list[tuple]:
        return self.conn.execute(sql, params).fetchall()

    # names

    def named(self, kind: str, key: str) -> list[str]:
        """Keys of the records of ``kind`` answering to the name slug ``key``."""
        return [r for (r,) in self.query("SELECT record FROM names WHERE kind = ? AND key = ?", (kind, key))]

    def names_of(self, kinds: Sequence[str], keys: Iterable[str]) -> list[tuple[str, str, str]]:
        """(kind, name slug, record key) of the records of ``kinds`` answering to any of ``keys``."""
        keys = list(keys)
        if not keys:
            return []
        return self.query(f"SELECT kind, key, record FROM names WHERE kind IN ({_marks(kinds)}) "
                          f"AND key IN ({_marks(keys)})", [*kinds, *keys])

    def shown_names(self, kind: str) -> set[str]:
        """Every record name of ``kind`` as the books print it (for did-you-mean hints)."""
        return {s for (s,) in self.query("SELECT DISTINCT shown FROM names WHERE kind = ?", (kind,))}

    # query expansion and spelling

    def aliases(self, keys: Iterable[str]) -> dict[str, tuple[str, str]]:
        """Compact alias slug -> (alias as the books write it, what it stands for)."""
        keys = list(set(keys))
        if not keys:
            return {}
        return {k: (a, e) for k, a, e in self.query(
            f"SELECT key, alias, expansion FROM aliases WHERE key IN ({_marks(keys)})", keys)}

    def known(self, words: Iterable[str], stems: Iterable[str] = ()) -> set[str]:
        """The words (lower case) that occur in the searchable text, and the ``stems`` that are indexed terms."""
        words, stems = list(set(words)), [f"all:{s}" for s in set(stems)]
        found = {w for (w,) in self.query(f"SELECT word FROM vocab WHERE word IN ({_marks(words)})", words)} \
            if words else set()
        if stems:
            found |= {t[4:] for (t,) in self.query(f"SELECT term FROM postings WHERE term IN ({_marks(stems)})", stems)}
        return found

    def near(self, variants: Iterable[str]) -> list[tuple[str, int]]:
        """Vocabulary words sharing a one-deletion variant with the given ones, with their frequency."""
        variants = list(set(variants))
        return self.query(
            f"SELECT DISTINCT d.word, v.freq FROM deletes d JOIN vocab v ON v.word = d.word "
            f"WHERE d.del IN ({_marks(variants)})", variants)

    def english(self, words: Iterable[str]) -> set[str]:
        """The ``words`` (lower case) that the English spelling dictionary has."""
        words = list(set(words))
        return {w for (w,) in self.query(f"SELECT word FROM english WHERE word IN ({_marks(words)})", words)} \
            if words else set()

    def specificity(self, words: Iterable[str]) -> dict[str, float]:
        """Of the ``words`` (lower case) in the English dictionary, how much likelier each is in the books
        than in English (a log10 ratio; see ``index.build._specificity``)."""
        words = list(set(words))
        return dict(self.query(f"SELECT word, specific FROM english WHERE word IN ({_marks(words)})", words)) \
            if words else {}

    def near_names(self, variants: Iterable[str]) -> list[str]:
        """Name keys sharing a one-deletion variant with the given ones (a misspelled whole name)."""
        variants = list(set(variants))
        return [k for (k,) in self.query(
            f"SELECT DISTINCT key FROM name_deletes WHERE del IN ({_marks(variants)})", variants)] if variants else []

    def completions(self, prefix: str, n: int) -> list[str]:
        """The ``n`` commonest vocabulary words that start with ``prefix`` (and are longer)."""
        return [w for (w,) in self.query(
            "SELECT word FROM vocab WHERE word > ? AND word < ? ORDER BY freq DESC LIMIT ?",
            (prefix, prefix + "\uffff", n))]

def _marks(items: Sequence[Any]) -> str:
    return ",".join("?" * len(items))


_open: dict[Path, Store] = {}


def store(progress: Progress | None = None) -> Store:
    """The store over the fresh index of the current cache directory, opened once per process.

    The index is built first when needed, reporting to ``progress``. A
    database that cannot be read is thrown away and built again, once;
    ``IndexUnavailable`` when that fails too.
    """
    root = cache_root()
    found = _open.get(root)
    if found is None or not found.built.folder.exists():
        found = _open[root] = _connect(progress)
    return found


def forget(db: Store) -> None:
    """Discard an index that failed while in use, so the next ``store()`` builds it again."""
    _open.pop(cache_root(), None)
    db.conn.close()
    discard(db.built)


def _connect(progress: Progress | None) -> Store:
    """Open the index (``ensure`` checks its database against the manifest's checksum first: an index edited in
    place, or planted, is rebuilt); one that cannot be read is built again, once."""
    built = ensure(progress=progress)
    try:
        return Store(built)
    except sqlite3.DatabaseError:
        discard(built)
    try:
        return Store(ensure(progress=progress))
    except sqlite3.DatabaseError as exc:
        raise IndexUnavailable(f"the search index in {built.folder} cannot be read: {exc}") from exc
