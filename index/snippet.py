"""Snippets: the sentence of a text holding the most distinct query words, with their spans marked.

Highlighting works on surface words that begin with a query term's stem
("halv" marks "halve", "halved"; Porter's final "i" reads as "y" too, so
"buri" marks "bury"). Occurrences are found with ``str.find`` on the lower
cased text, a bounded number per stem, so a long rule section costs no more
than a short one.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterable

from .analysis import stem as porter

WIDTH = 180
PER_STEM = 40  # enough occurrences to place the window
WORD_REST = re.compile(r"[a-z0-9]*")
SENTENCE_END = re.compile(r"(?<=[.!?:])[\"')]*\s+(?=[\"'(]?[A-Z0-9-])")  # where the next sentence starts

Match = tuple[int, int, str]  # start, end, the stem it matched


def variants(stems: Iterable[str]) -> tuple[tuple[str, str], ...]:
    """(surface prefix, stem) pairs to look for: the stem without a final "e" ("dure" is "during"),
    and with a final "i" also as "y" ("buri" is "bury")."""
    found: dict[str, str] = {}
    for stem in stems:
        base = stem[:-1] if stem.endswith("e") and len(stem) > 3 else stem
        found.setdefault(base, stem)
        if base.endswith("i") and len(base) > 2:
            found.setdefault(base[:-1] + "y", stem)
    return tuple(found.items())


def matches(text: str, prefixes: tuple[tuple[str, str], ...]) -> list[Match]:
    """Where words beginning with one of ``prefixes`` stand in ``text``, in order."""
    lower = text.lower()
    found: dict[int, Match] = {}
    for prefix, stem in prefixes:
        start, count = 0, 0
        while count < PER_STEM:
            at = lower.find(prefix, start)
            if at < 0:
                break
            start = at + 1
            if at and lower[at - 1].isalnum():
                continue
            end = WORD_REST.match(lower, at + len(prefix)).end()
            if porter(lower[at:end]) != stem:
                continue  # "duration" begins like "during" but is another word
            if at not in found or found[at][1] < end:
                found[at] = (at, end, stem)
            count += 1
    return sorted(found.values())


def phrase_pattern(stems: tuple[str, ...], stop_words: frozenset[str]) -> re.Pattern:
    """Words beginning like ``stems`` in a row, with only spaces, hyphens, slashes or quotes and
    stop words (or one-letter words) between: "dead unit" is in "the dead-unit area" but not in
    "Dead: Units ...". A match is a candidate: its words' stems must still be compared
    (``terms(match) == stems``)."""
    space = r"[\s\-/'\"]+"
    gap = f"(?:{space}(?:" + "|".join(sorted(map(re.escape, stop_words))) + r"|\w)\b)*" + space
    words = ["(?:" + "|".join(re.escape(p) for p, _ in variants((stem,))) + r")\w*" for stem in stems]
    return re.compile(r"\b" + gap.join(words), re.IGNORECASE)


def snippet(text: str, prefixes: tuple[tuple[str, str], ...],
            width: int = WIDTH) -> tuple[str, list[tuple[int, int]]]:
    """The window of ``text`` that starts at the sentence holding the most distinct matched stems
    (the first such sentence), and the match spans within it.

    A sentence longer than the window is entered where its matches cluster.
    ``text`` has its whitespace collapsed already (the build stores it so).
    """
    found = matches(text, prefixes) if prefixes else []
    if len(text) <= width:
        return text, [(s, e) for s, e, _ in found]
    start = _best_sentence(text, found, width)
    end = _word_end(text, min(len(text), start + width))
    prefix, suffix = ("..." if start > 0 else ""), ("..." if end < len(text) else "")
    shift = len(prefix) - start
    marked = [(s + shift, e + shift) for s, e, _ in found if s >= start and e <= end]
    return prefix + text[start:end] + suffix, marked


def _best_sentence(text: str, found: list[Match], width: int) -> int:
    """Where the window starts: at the sentence with the most distinct matched stems (then the most
    matches, then the first), or inside it where its matches cluster when they lie past the window."""
    if not found:
        return 0
    bounds = [0] + [m.end() for m in SENTENCE_END.finditer(text)]
    per_sentence: dict[int, list[Match]] = {}
    for m in found:  # found is in text order: each match joins the sentence it starts in
        per_sentence.setdefault(bisect_right(bounds, m[0]) - 1, []).append(m)
    best = max(per_sentence, key=lambda i: (len({m[2] for m in per_sentence[i]}), len(per_sentence[i]), -i))
    a, inside = bounds[best], per_sentence[best]
    if inside and inside[-1][1] > a + width:  # a long sentence: go where its matches cluster
        at = _best_start(inside, width)
        return a if at - a < width // 6 else _word_start(text, at - width // 6)
    return a


def _best_start(found: list[Match], width: int) -> int:
    """Where the window with the most distinct matched stems starts (a sliding window over the matches)."""
    span = width * 2 // 3
    best, best_count, counts, j = 0, 0, {}, 0
    for s, _e, stem in found:
        while j < len(found) and found[j][0] < s + span:
            counts[found[j][2]] = counts.get(found[j][2], 0) + 1
            j += 1
        if len(counts) > best_count:
            best, best_count = s, len(counts)
        counts[stem] -= 1
        if not counts[stem]:
            del counts[stem]
    return best


def _word_start(text: str, at: int) -> int:
    at = max(0, at)
    while 0 < at < len(text) and not text[at - 1].isspace():
        at += 1
    return at


def _word_end(text: str, at: int) -> int:
    while at < len(text) and not text[at].isspace():
        at += 1
    return at
