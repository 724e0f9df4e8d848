"""Misspelled query words corrected to words of the corpus ("lightening strik").

A symmetric-delete index (``deletes`` in the database: every vocabulary word
and its one-deletion variants) finds the candidates with a single indexed
query; an edit distance with transpositions then keeps the closest, and the
most frequent of those first. A word that is no misspelling but the start of
one ("strik", "necro") completes to the commonest words it begins.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol


class Vocabulary(Protocol):
    """What a correction reads of the built index: ``index.store.Store`` is one (this module, which the build
    uses too, stays below the store)."""

    def near(self, variants: Iterable[str]) -> list[tuple[str, int]]: ...

    def known(self, words: Iterable[str], stems: Iterable[str] = ()) -> set[str]: ...

    def completions(self, prefix: str, n: int) -> list[str]: ...

MAX_CANDIDATES = 3
MIN_STEM, MAX_SUFFIX = 5, 4
MAX_WORD = 32
"""Longest word corrected. The corpus's longest word has 15 letters, so a longer word is within two
edits of none; and the variants of a word grow with its length squared (a 600-letter word took
5 s, a 1,000-letter one overflowed SQLite's variables)."""


def corrections(db: Vocabulary, word: str) -> list[str]:
    """The corpus words ``word`` most likely stands for, best first (empty when none is close)."""
    word = word.lower()
    if not 3 <= len(word) <= MAX_WORD or not word.isalpha():
        return []
    limit = 1 if len(word) <= 4 else 2
    variants = {v for d in deletes(word) for v in deletes(d)} if limit == 2 else deletes(word)
    scored = [(distance(word, w), -freq, w) for w, freq in db.near(variants)]
    scored = sorted(s for s in scored if s[0] <= limit)
    if scored:
        best = scored[0][0]
        return [w for d, _f, w in scored if d == best][:MAX_CANDIDATES]
    return _stem_of(db, word) or (db.completions(word, MAX_CANDIDATES) if len(word) >= 4 else [])


def _stem_of(db: Vocabulary, word: str) -> list[str]:
    """The longest corpus word that ``word`` extends by a suffix ("stoneskinned" -> "stoneskin")."""
    prefixes = [word[:k] for k in range(len(word) - 1, max(MIN_STEM, len(word) - MAX_SUFFIX) - 1, -1)]
    known = db.known(prefixes)
    return [next(p for p in prefixes if p in known)] if known else []


def deletes(word: str) -> set[str]:
    """``word`` and every string one deletion away (what the ``deletes`` table holds per word)."""
    return {word, *(word[:i] + word[i + 1:] for i in range(len(word)))}


def distance(a: str, b: str) -> int:
    """Edit distance counting a swap of two neighbours as one edit (optimal string alignment)."""
    prev2: list[int] = []
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        row = [i] + [0] * len(b)
        for j, cb in enumerate(b, 1):
            row[j] = min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + (ca != cb))
            if i > 1 and j > 1 and ca == b[j - 2] and a[i - 2] == cb:
                row[j] = min(row[j], prev2[j - 2] + 1)
        prev2, prev = prev, row
    return prev[-1]
