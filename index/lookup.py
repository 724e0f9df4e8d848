"""Find records by the names players write: ids, book spellings, aliases.

Matching is on the kebab-case slug, so case, punctuation and spacing do not
matter ("wall of fog", "Wall-of-Fog", "WALL OF FOG"). Unknown names raise
``NotFound`` carrying the closest known names.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache

from engine.names import slug, typed
from engine.edition import EDITIONS

from .corpus import View as Record, records


class NotFound(LookupError):
    """No record of ``kind`` answers to ``name`` (in ``edition``, when given)."""

    def __init__(self, kind: str, name: str, edition: str | None,
                 suggestions: list[str], elsewhere: list[str], guess: list[Record] | None = None) -> None:
        self.kind, self.name, self.edition = kind, name, edition
        self.suggestions, self.elsewhere = suggestions, elsewhere
        self.guess = guess or []  # the one record the name is clearly a misspelling of, when there is one
        super().__init__(self.message())

    def message(self) -> str:
        where = f" in {self.edition}" if self.edition else ""
        text = f"no {self.kind} named {typed(self.name)}{where}"
        if self.elsewhere:
            return f"{text}; it exists in {', '.join(self.elsewhere)} (use --edition {self.elsewhere[0]} or --edition all)"
        if self.suggestions:
            text += "; did you mean: " + ", ".join(self.suggestions) + "?"
        return text


def compact(key: str) -> str:
    """A slug without its hyphens: v4's "Stone Skin" is 002's "Stoneskin"."""
    return key.replace("-", "")


def keys(record: Record) -> set[str]:
    """Every slug a record answers to, and each without hyphens."""
    found = {record.id, slug(record.name if hasattr(record, "name") else record.id)}
    found.update(slug(a) for a in getattr(record, "aliases", ()))
    if getattr(record, "term", None):
        found.add(slug(record.term))
    race = getattr(record, "race", None)
    if race and hasattr(record, "unit_class"):
        found.add(slug(f"{race} {record.name}"))
    return {k for key in found if key for k in (key, compact(key))}


def in_edition(items: Iterable[Record], edition: str | None) -> list[Record]:
    return [r for r in items if edition is None or getattr(r, "edition", None) == edition]


def find(kind: str, name: str, edition: str | None = None) -> list[Record]:
    """Records of ``kind`` named ``name``; ``edition`` None means every edition.

    An exact slug match wins; otherwise a unique prefix ("lightning" finds
    Lightning Strike). Several editions give several records, newest first.
    """
    # in one edition, a record's own id (as scenarios write names) needs no index of every spelling
    if edition is not None and (chosen := in_edition(_by_id(kind).get(name, ()), edition)):
        return chosen
    wanted = compact(slug(name))
    pool = records(kind)
    exact = list(by_key(kind).get(wanted, ()))
    hits = exact or _unique_prefix(kind, wanted)
    chosen = in_edition(hits, edition)
    if chosen:
        return _newest_first(chosen)
    elsewhere = sorted({r.edition for r in hits if hasattr(r, "edition")}, key=EDITIONS.index)
    within = in_edition(pool, edition)
    guess = [] if elsewhere else _newest_first(in_edition(clear_best(within, wanted), edition))
    raise NotFound(kind, name, edition, suggest(within or pool, wanted), elsewhere, guess)


def _newest_first(found: list[Record]) -> list[Record]:
    return sorted(found, key=lambda r: EDITIONS.index(r.edition) if hasattr(r, "edition") else 0)


@cache
def _by_id(kind: str) -> dict[str, tuple[Record, ...]]:
    index: dict[str, list[Record]] = {}
    for r in records(kind):
        index.setdefault(r.id, []).append(r)
    return {k: tuple(v) for k, v in index.items()}


@cache
def by_key(kind: str) -> dict[str, tuple[Record, ...]]:
    """Every slug of every record of ``kind`` -> the records answering to it (built once)."""
    index: dict[str, list[Record]] = {}
    for r in records(kind):
        for k in keys(r):
            index.setdefault(k, []).append(r)
    return {k: tuple(v) for k, v in index.items()}


def _unique_prefix(kind: str, wanted: str) -> list[Record]:
    """The records whose name starts with ``wanted``, when they are all one record (in any editions)."""
    if len(wanted) < 3:
        return []
    hits = {id(r): r for k, rs in by_key(kind).items() if k.startswith(wanted) for r in rs}
    return list(hits.values()) if len({r.id for r in hits.values()}) == 1 else []


# a misspelling is answered with its record when the closest name is this close (difflib's ratio) and no other
# record comes within the margin: "lightening strike" is Lightning Strike, "wall of" is any of three walls
CLEAR_RATIO, CLEAR_MARGIN = 0.8, 0.08


def clear_best(pool: Iterable[Record], wanted: str) -> list[Record]:
    """The records of the one name ``wanted`` is clearly a misspelling of (each edition's), else none."""
    import difflib

    scores: dict[str, tuple[float, list[Record]]] = {}
    matcher = difflib.SequenceMatcher(b=wanted, autojunk=False)
    for r in pool:
        best = 0.0
        for k in keys(r):
            matcher.set_seq1(k)
            if matcher.real_quick_ratio() > best and matcher.quick_ratio() > best:
                best = max(best, matcher.ratio())
        ratio, found = scores.get(r.id, (0.0, []))
        scores[r.id] = (max(ratio, best), [*found, r])
    ranked = sorted(scores.values(), key=lambda s: -s[0])
    if not ranked or ranked[0][0] < CLEAR_RATIO:
        return []
    if len(ranked) > 1 and ranked[1][0] >= ranked[0][0] - CLEAR_MARGIN:
        return []
    return ranked[0][1]


def suggest(pool: Iterable[Record], wanted: str, n: int = 5) -> list[str]:
    """The display names closest to ``wanted``, best first."""
    shown: dict[str, str] = {}
    for r in pool:
        for k in keys(r):
            shown.setdefault(k, getattr(r, "name", None) or getattr(r, "term", None) or r.id)
    import difflib

    close = difflib.get_close_matches(wanted, list(shown), n=n * 3, cutoff=0.6)
    out: list[str] = []
    for k in close:
        if shown[k] not in out:
            out.append(shown[k])
    return out[:n]
