"""Dragons: their colors and kinds, which dragons fight each other and which attack the army, and what a
dragon's icons are worth (002 Dragon Attack Phase, Dragons, Hybrid, Ivory Hybrid and White Dragons).

The numbers are the edition's (``Ruleset.dragon_faces``, ``dragon_health``, ``dragon_saves``,
``dragon_scale``); this module only says how they combine.
"""

from __future__ import annotations

from functools import cache

from . import pool
from .ruleset import DragonFace, Ruleset
from .state import Dragon, GameState

IVORY, WHITE = "ivory", "white"


@cache
def _colors(color: str) -> tuple[str, ...]:
    return tuple(color.split("-"))


def colors(dragon: Dragon) -> tuple[str, ...]:
    """The dragon's colors as written (``red-gold`` is a red/gold hybrid)."""
    return _colors(dragon.color)


@cache
def _kind(color: str) -> str:
    return pool.kind(_colors(color))


def kind(dragon: Dragon) -> str:
    """elemental, hybrid, ivory, ivory-hybrid or white."""
    return _kind(dragon.color)


def elements(dragon: Dragon) -> tuple[str, ...]:
    """The elemental colors in the dragon (ivory and white are not elements of one color)."""
    return tuple(c for c in colors(dragon) if c in pool.ELEMENTS)


def attacks(a: Dragon, b: Dragon) -> bool:
    """Whether dragon ``a`` attacks dragon ``b`` rather than the army (002 Step 5: Dragon vs. Dragon, Hybrid,
    Ivory Hybrid and White Dragons)."""
    ka, kb = kind(a), kind(b)
    # "Ivory dragons never attack other dragons nor are ivory dragons ever attacked by other dragons. Ivory
    #  Hybrid dragons never attack other dragons"
    if ka in (IVORY, "ivory-hybrid") or kb == IVORY:
        return False
    # "A white dragon will fight all other dragons at a terrain, except an ivory dragon" (not one of its own
    # color: dragons "of different colors" fight); "Elemental and White dragons fight all Hybrid Dragons"
    if WHITE in (ka, kb):
        return ka != kb
    # ivory hybrids "are attacked by all hybrid dragons that do not have a matching elemental color. Elemental
    # dragons not matching the ivory hybrid dragon's elemental color ... attack all ivory hybrid dragons"
    if kb == "ivory-hybrid":
        return not set(elements(b)) & set(elements(a))
    # "Hybrid Dragons fight all dragons ... that do not match their colors exactly"; elementals of different
    # colors "attack each other rather than the army"
    return set(colors(a)) != set(colors(b))


def foes(dragon: Dragon, here: tuple[Dragon, ...]) -> tuple[Dragon, ...]:
    """The dragons at the terrain that ``dragon`` may attack."""
    return tuple(d for d in here if d.id != dragon.id and attacks(dragon, d))


def attacks_army(dragon: Dragon, here: tuple[Dragon, ...]) -> bool:
    """002: "Ivory and ivory hybrid dragons always attack the army"; any other dragon attacks it when there is no
    dragon at the terrain for it to fight."""
    return kind(dragon) in (IVORY, "ivory-hybrid") or not foes(dragon, here)


def scale(dragon: Dragon, ruleset: Ruleset) -> int:
    """White dragons "have double the health (10) and do twice as much damage ... Even the Treasure is twice
    as much"."""
    return ruleset.dragon_scale.get(kind(dragon), 1)


def face(ruleset: Ruleset, icon: str) -> DragonFace:
    return ruleset.dragon_faces[icon]


def damage(dragon: Dragon, icons: tuple[str, ...], ruleset: Ruleset) -> int:
    """The damage the dragon's icons inflict (a Tail's and the icon after it both count)."""
    return sum(face(ruleset, i).damage for i in icons) * scale(dragon, ruleset)


def promotions(dragon: Dragon, icons: tuple[str, ...], ruleset: Ruleset) -> int:
    return sum(face(ruleset, i).promotes for i in icons) * scale(dragon, ruleset)


def saves(dragon: Dragon, icons: tuple[str, ...], state: GameState, ruleset: Ruleset) -> int:
    """The dragon's automatic saves in this attack: none if it rolled Belly or a breath negated them."""
    if any(face(ruleset, i).no_saves for i in icons):
        return 0
    if any(e.spell == ruleset.dragon_breath_effect for e in state.effects_on(dragon.id)):
        return 0
    return ruleset.dragon_saves


def to_slay(dragon: Dragon, icons: tuple[str, ...], state: GameState, ruleset: Ruleset) -> int:
    """Results of one type that slay the dragon: its health and its automatic saves (10; 5 on a Belly; a white
    dragon 15)."""
    return ruleset.dragon_health * scale(dragon, ruleset) + saves(dragon, icons, state, ruleset)


def pool_item(dragon: Dragon) -> str:
    """How the dragon is written in a summoning pool (``dragon:red-wyrm``)."""
    return f"dragon:{dragon.color}" + (f"-{dragon.form}" if dragon.form else "")


def to_pool(state: GameState, dragon: Dragon) -> GameState:
    """002: "When dragons are killed, they are placed back in their summoning pool"; a dragon that flies away
    "returns to its summoning pool". A dragon whose owner the scenario does not name leaves play only."""
    state = state.evolve(dragons=tuple(d for d in state.dragons if d.id != dragon.id),
                         effects=tuple(e for e in state.effects if e.target != dragon.id))
    if dragon.owner is None:
        return state
    owned = state.pool(dragon.owner)
    return state.with_pool(owned.evolve(items=(*owned.items, pool_item(dragon))))


def banish(state: GameState, dragon: Dragon) -> GameState:
    """002: "removed from the game and cannot be summoned back"."""
    return state.evolve(dragons=tuple(d for d in state.dragons if d.id != dragon.id),
                        effects=tuple(e for e in state.effects if e.target != dragon.id))
