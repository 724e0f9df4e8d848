"""Names as players write them, and the kebab-case ids records carry."""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache


@lru_cache(maxsize=4096)    # a pure function of its text; unit names are slugged after every step (engine.kings_die)
def slug(text: str) -> str:
    """Kebab-case id: 'Transmute Rock to Mud' -> 'transmute-rock-to-mud', "Kings' Die" -> 'kings-die'."""
    text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    text = re.sub(r"['\u2019]", "", text.lower())
    return re.sub(r"[^a-z0-9]+", "-", text).strip("-")


_ESCAPES = {"\t": "\\t", "\n": "\\n", "\r": "\\r"}


TYPED_SHOWN = 60   # the characters of a long typed name a message shows


def typed(name: object) -> str:
    """A name the user typed that matches nothing, for a message: in plain single quotes, so its spacing shows, its
    control characters escaped (``\\t``, ``\\n``, ``\\u001b``), never a Python repr (issue 21 §3). A known id is
    printed bare, without this."""
    text = str(name)
    cut = len(text) > TYPED_SHOWN + 20   # a pasted page is not echoed back whole: its start and its length
    shown = "".join(_ESCAPES.get(c, c if c.isprintable() or c == " " else f"\\u{ord(c):04x}")
                    for c in (text[:TYPED_SHOWN] if cut else text))
    return f"'{shown}...' ({len(text):,} characters)" if cut else f"'{shown}'"
