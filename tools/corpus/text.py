"""Small text helpers shared by the extractors."""

from __future__ import annotations

import re

from collections.abc import Iterator

from engine.names import slug  # noqa: F401  (re-exported for the extractors)

# Canonical race ids (sfr-2012 names; the other editions use a subset).
RACE_IDS = (
    "coral-elf", "dwarf", "goblin", "lava-elf", "amazon", "firewalker", "undead", "feral",
    "swamp-stalker", "frostwing", "scalder", "treefolk", "eldarim", "dragonkin",
)


def squash(text: str) -> str:
    """Collapse runs of white space inside a paragraph (keeps paragraph breaks)."""
    paras = [re.sub(r"[ \t]+", " ", p).strip() for p in re.split(r"\n\s*\n", text)]
    return "\n\n".join(p for p in paras if p)


def spans(pattern: re.Pattern[str], text: str, start: int, end: int) -> Iterator[tuple[re.Match[str], int]]:
    """Each match of ``pattern`` in ``text[start:end]`` with where its span ends (the next match, or ``end``)."""
    heads = list(pattern.finditer(text, start, end))
    for i, head in enumerate(heads):
        yield head, heads[i + 1].start() if i + 1 < len(heads) else end
