"""How text becomes search terms, shared by the index build and the query side.

Both sides must analyze alike, or a query word never meets its indexed term:
lower case, English stop words plus the question words players type ("what
does ... do"), Porter stems ("halve"/"halved" -> "halv"). Only whoosh's small
analysis modules are imported here, never its index or searcher.
"""

from __future__ import annotations

import re
from functools import cache, lru_cache

# Question words and filler of real questions: "what does a dragon's belly do".
QUESTION_WORDS = frozenset(
    "what whats does do did doing done how which who whom whose why where when i me my mine "
    "there their they them its happen happens happened get gets should would could".split()
)

WORD = re.compile(r"[a-z0-9]+", re.IGNORECASE)


@cache
def stop_words() -> frozenset[str]:
    from whoosh.analysis import STOP_WORDS

    return STOP_WORDS | QUESTION_WORDS


@cache
def analyzer():
    """The whoosh analyzer of every text field (tokenize, lower, stop, stem)."""
    from whoosh.analysis import StemmingAnalyzer

    return StemmingAnalyzer(stoplist=stop_words(), minsize=2)


@lru_cache(maxsize=8192)
def terms(text: str) -> tuple[str, ...]:
    """The indexed terms of ``text``, in order (stop words dropped)."""
    return tuple(t.text for t in analyzer()(text))


def words(text: str) -> list[str]:
    """The surface words of ``text``, lower case, split as the analyzer splits them."""
    return [w.lower() for w in WORD.findall(text)]


@lru_cache(maxsize=8192)
def stem(word: str) -> str:
    from whoosh.lang.porter import stem as porter

    return porter(word.lower())
