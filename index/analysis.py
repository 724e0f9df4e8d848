"""How text becomes search terms, shared by the index build and the query side.

Both sides must analyze alike, or a query word never meets its indexed term:
whoosh's default tokens, lower case, stop words (whoosh's English list plus
the question words players type: "what does ... do"), words of two letters
or more, Porter stems ("halve"/"halved" -> "halv"). The stems are the Snowball
project's Porter stemmer (PyStemmer, its C build: 1 ms to import where the pure
Python ``snowballstemmer`` takes 11, for every cold search), not whoosh's: whoosh 2.7's
step 1b tests its end-of-word patterns from the start of the word, so it never
undoubles a consonant nor puts back an "e" ("stopped" -> "stopp" against "stop",
"webbed" -> "webb", "beginning" -> "beginn", "eliminated" -> "eliminat" against
"eliminate" -> "elimin"), and a player's "stop" never met the books' "stopped".
Words of one or two letters stay as they are (whoosh's rule, kept: "LS" is an
abbreviation, not a plural). The build hands whoosh a
``StemmingAnalyzer`` made of exactly these; the query side does the same few
steps itself, so a search never imports ``whoosh.analysis`` (50 ms of imports,
mostly urllib). ``tests/test_index_analysis.py`` checks the two agree on the
whole corpus.
"""

from __future__ import annotations

import re
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache, lru_cache

# whoosh.analysis.STOP_WORDS, as of whoosh 2.7 (pinned in pyproject.toml)
WHOOSH_STOP_WORDS = frozenset(
    "a an and are as at be by can for from have if in is it may not of on or tbd that the this to us "
    "we when will with yet you your".split()
)
# Question words and filler of real questions: "what does a dragon's belly do".
QUESTION_WORDS = frozenset(
    "what whats does do did doing done how which who whom whose why where when i me my mine "
    "there their they them its happen happens happened get gets should would could".split()
)
STOP_WORDS = WHOOSH_STOP_WORDS | QUESTION_WORDS
MIN_SIZE = 2

TOKEN = re.compile(r"\w+(?:\.?\w+)*")  # whoosh's RegexTokenizer default pattern
WORD = re.compile(r"[a-z0-9]+", re.IGNORECASE)


def stop_words() -> frozenset[str]:
    return STOP_WORDS


@contextmanager
def quiet_whoosh() -> Iterator[None]:
    """Around every use of whoosh: 2.7 is unmaintained, and compiling it on Python 3.11+ warns
    (SyntaxWarning, DeprecationWarning); no warning of it may reach a user."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", SyntaxWarning)
        warnings.simplefilter("ignore", DeprecationWarning)
        yield


@cache
def analyzer():
    """The whoosh analyzer of every text field at build time: the same steps as ``terms``."""
    with quiet_whoosh():
        from whoosh.analysis import StemmingAnalyzer

    return StemmingAnalyzer(stoplist=STOP_WORDS, minsize=MIN_SIZE, stemfn=stem)


@lru_cache(maxsize=8192)
def terms(text: str) -> tuple[str, ...]:
    """The indexed terms of ``text``, in order (stop words and one-letter words dropped)."""
    found = []
    for match in TOKEN.finditer(text):
        word = match.group(0).lower()
        if len(word) >= MIN_SIZE and word not in STOP_WORDS:
            found.append(stem(word))
    return tuple(found)


PAIR_SCOPE = "pair"  # the postings of two terms following each other (index.build)


def pair_term(first: str, second: str) -> str:
    """The indexed term of two terms following each other (no term holds a space)."""
    return f"{first} {second}"


def words(text: str) -> list[str]:
    """The surface words of ``text``, lower case, split at anything not a letter or digit."""
    return [w.lower() for w in WORD.findall(text)]


@lru_cache(maxsize=16384)
def stem(word: str) -> str:
    word = word.lower()
    if len(word) < 3:
        return word
    import Stemmer

    return Stemmer.Stemmer("porter").stemWord(word)  # one per call (0.4 us): a stemmer is not thread-safe
