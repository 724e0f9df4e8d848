"""Players' words for what the books call otherwise: "cancel" a spell is to negate it.

Each entry maps a word a player types to the book's words; the search adds
them as further spellings of that word (slightly less weight than the word
itself). Only pairs that mean the same in Dragon Dice belong here.
"""

from __future__ import annotations

SYNONYMS: dict[str, tuple[str, ...]] = {
    "cancel": ("negate", "dispel"),
    "dispel": ("negate",),
    "counterspell": ("negate", "dispel"),
    "minus": ("subtract",),
    "reduce": ("subtract",),
    "decrease": ("subtract",),
    "plus": ("add",),
    "increase": ("add",),
    "bonus": ("add",),
    "kill": ("slay",),
    "slay": ("kill",),
    "destroy": ("kill", "slay"),
    "half": ("halve",),
    "halve": ("half",),
    "twice": ("double",),
    "every": ("all",),
    "revive": ("resurrect",),
    "raise": ("resurrect",),
    "heal": ("resurrect",),
    "graveyard": ("dua", "dead"),
    "die": ("unit",),
    "dice": ("units",),
    "teleport": ("move",),
    "flee": ("retreat",),
    "attacker": ("acting",),
    "defender": ("defending",),
}
