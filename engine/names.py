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
