"""The summoning pool's dragons: what kind each is, and which a summoning spell may send (002 Dragons,
Ivory dragons; the Summon ... Dragon spells).

A pool item is written ``dragon:<colors>[-drake|-wyrm]`` (``dragon:red-wyrm``,
``dragon:red-gold``, ``dragon:ivory``, ``dragon:ivory-green-drake``, ``dragon:white``), or
``minor-terrain:<type>`` for a minor terrain, which matches a major terrain type (002 Minor Terrains).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .state import GameState

FORMS = ("drake", "wyrm")
MINOR = "minor-terrain"     # a minor terrain in a pool: minor-terrain:<its type>, e.g. minor-terrain:coastland
ELEMENTS = ("black", "blue", "gold", "green", "red")


def parse(item: str) -> tuple[tuple[str, ...], str | None] | None:
    """(colors, form) of a pool item that is a dragon; None for anything else."""
    kind, _, value = item.partition(":")
    if kind != "dragon":
        return None
    parts = value.split("-")
    form = parts.pop() if parts and parts[-1] in FORMS else None
    return tuple(parts), form


def kind(colors: tuple[str, ...]) -> str:
    """elemental, hybrid, ivory, ivory-hybrid or white."""
    if "white" in colors:
        return "white"
    if "ivory" in colors:
        return "ivory-hybrid" if len(colors) > 1 else "ivory"
    return "hybrid" if len(colors) > 1 else "elemental"


def summonable(colors: tuple[str, ...], spell_kind: str, paid: str) -> bool:
    """Whether a Summon <kind> Dragon paid in ``paid`` may send this dragon.

    002: elemental "with the same color as the magic used"; hybrid "with at least one color the same";
    ivory "any ivory dragon in a summoning pool", and "Any color Summon Dragon spell can be used to summon an
    ivory dragon"; ivory hybrid "any ivory hybrid dragon in a summoning pool"; white "any white dragon".
    """
    found = kind(colors)
    if spell_kind == "any":             # sfr-v4 Summon Dragon: "Summon one dragon from any Summoning Pool"
        return True
    if spell_kind == "of-color":        # tsr-1996 Summon Gold Dragon: "Send any gold dragon to any terrain"
        return colors == (paid,)
    if spell_kind == "elemental":
        return found == "ivory" or (found == "elemental" and colors == (paid,))
    if spell_kind == "hybrid":
        return found == "hybrid" and paid in colors
    return found == spell_kind


def send(state: GameState, player: str, item: str, terrain: str) -> tuple[GameState, str]:
    """The pool's dragon ``item`` leaves ``player``'s summoning pool for ``terrain``; returns its new id
    (<player>-<item>, numbered when taken)."""
    from .state import Dragon
    colors, form = parse(item)
    ids = {d.id for d in state.dragons}
    base = f"{player}-{item.partition(':')[2]}"
    name = next(n for n in (base, *(f"{base}-{i}" for i in range(2, 99))) if n not in ids)
    owned = state.pool(player)
    items = list(owned.items)
    items.remove(item)
    state = state.with_pool(owned.evolve(items=tuple(items)))
    return state.evolve(dragons=(*state.dragons, Dragon(id=name, color="-".join(colors), at=terrain, owner=player,
                                                        form=form))), name
