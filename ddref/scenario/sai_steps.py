"""Scenario fields of the state, movement and magic SAIs: where moving SAIs send units (``move_to``) and what
an artifact's Summon Dragon summons (``summon``); engine.actions.sai_states and sai_magic check the rest."""

from __future__ import annotations

from engine.state import RESERVE, GameState

from .build import _Builder, _icon, _units_named
from .source import did_you_mean


def move_to(b: _Builder, state: GameState, raw: dict | None, path: tuple) -> tuple:
    """{SAI: terrain id or reserve}: where the units a moving SAI takes go."""
    out = []
    places = [t.id for t in state.terrains] + [RESERVE]
    for sai, where in (raw or {}).items():
        icon = _icon(b, sai, (*path, sai))
        if where not in places:
            b.fail((*path, sai), f"unknown terrain {where!r} (a terrain id or 'reserve'){did_you_mean(where, places)}")
        elif icon:
            out.append((icon, where))
    return tuple(out)


def summon(b: _Builder, state: GameState, raw: dict | None, path: tuple) -> tuple:
    """{artifact unit id: (dragon, terrain)} for Summon Dragon SAIs; the engine checks the dragon's color."""
    out = []
    places = [t.id for t in state.terrains]
    for unit_id, value, _ in _units_named(b, state, raw, path):
        if value.to is not None and value.to not in places:
            b.fail((*path, unit_id, "to"), f"unknown terrain {value.to!r}{did_you_mean(value.to, places)}")
        out.append((unit_id, (value.dragon, value.to)))
    return tuple(out)
