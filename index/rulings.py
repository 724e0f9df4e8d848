"""Find FAQ rulings by what a judge types: a ruling or topic id, a topic, a spell, SAI or race, words.

A small, local matcher over 91 rulings: exact ids first, then topics, then the
records a ruling concerns, then its text, each tier after the one before.
"""

from __future__ import annotations

import re

_STOP = frozenset("a an and are at be by can do does for from how i in is it its of on or the to what "
                  "when where which who with you your".split())


def _words(text: str) -> list[str]:
    """Lower-case words without a plural -s, stop words dropped."""
    words = re.findall(r"[a-z0-9]+", text.lower())
    return [w[:-1] if len(w) > 3 and w.endswith("s") else w for w in words if w not in _STOP]


def _has_all(wanted: list[str], words: list[str]) -> bool:
    """Every wanted word starts a word of ``words`` ("amazon" finds "Amazonian")."""
    return bool(wanted) and all(any(w.startswith(q) for w in words) for q in wanted)


def match_rulings(query: str, rulings) -> list:
    """Rulings for ``query``: by id first; else by topic, by what they concern, by text, in that order."""
    key = query.strip().lower()
    by_id = [r for r in rulings if r.id == key or r.id.startswith(key + ".") or f"rule:{key}" in r.concerns]
    if by_id:
        return by_id
    wanted, refs = _words(query), _concerned(query)
    tiers = [
        [r for r in rulings if _has_all(wanted, _words(f"{r.part} {r.topic}"))],
        [r for r in rulings if refs & set(r.concerns)],
        [r for r in rulings if _has_all(wanted, _words(f"{r.topic} {r.text}"))],
    ]
    seen: dict[str, object] = {}
    for tier in tiers:
        for r in tier:
            seen.setdefault(r.id, r)
    return list(seen.values())


def _concerned(query: str) -> set[str]:
    """The ``kind:id`` refs a ruling would concern for a spell, SAI or race named ``query``."""
    from engine.names import slug

    from .lookup import by_key, compact

    wanted = compact(slug(query))
    return {f"{kind}:{r.id}" for kind in ("race", "spell", "sai") for r in by_key(kind).get(wanted, ())}
