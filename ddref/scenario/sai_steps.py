"""Scenario fields of the state, movement and magic SAIs: where moving SAIs send units (``move_to``) and what
an artifact's Summon Dragon summons (``summon``); engine.actions.sai_states and sai_magic check the rest."""

from __future__ import annotations

from engine.names import typed
from engine.state import RESERVE, GameState
from engine.steps import SaiChoices

from .fields import moving_sais, sai_targets as _sai_targets, unit_rolls as _unit_rolls, units_named as _units_named
from .reader import Builder as _Builder
from .rolls import face_icon as _icon
from .source import did_you_mean


def move_to(b: _Builder, state: GameState, raw: dict | None, path: tuple) -> tuple:
    """{SAI: terrain id or reserve}: where the units a moving SAI takes go; or per mover {SAI: {mover: place}}
    (``per_mover_to``). The engine checks each place against the SAI's rule (engine.actions.destinations)."""
    out = []
    places = [t.id for t in state.terrains] + [RESERVE]
    for sai, where in (raw or {}).items():
        icon = _icon(b, sai, (*path, sai))
        if isinstance(where, dict):
            where = per_mover_to(b, state, icon, where, places, (*path, sai))
        elif where not in places:
            b.fail((*path, sai), f"unknown terrain {typed(where)} (a terrain id or 'reserve'){did_you_mean(where, places)}")
            continue
        if icon:
            out.append((icon, where))
    return tuple(out)


def per_mover_to(b: _Builder, state: GameState, icon: str | None, raw: dict, places: list[str], path: tuple) -> tuple:
    """{mover: place}: a moving SAI's per-mover ``move_to`` form (engine.actions.destinations), each mover checked
    against the units in play and in the DUA (a unit Regenerate brings back may roll it), each place against the
    terrains, the SAI against the edition's moving SAIs."""
    if icon and icon not in moving_sais(b):
        b.fail(path, f"{icon} moves no units in {b.edition}: the per-mover form {{unit: place}} is for the moving "
                     f"SAIs ({', '.join(moving_sais(b))}); write one terrain id")
        return ()
    units = [u.id for a in (*state.armies, *state.dua) for u in a.units]
    for mover, where in raw.items():
        if mover not in units:
            b.fail((*path, mover), f"unknown unit {typed(mover)} (a unit rolling {icon}){did_you_mean(mover, units)}")
        if where not in places:
            b.fail((*path, mover), f"unknown terrain {typed(where)} (a terrain id or 'reserve')"
                                   f"{did_you_mean(where, places)}")
    return tuple(raw.items())


def move_dragons(b: _Builder, state: GameState, raw: dict | None, path: tuple) -> tuple:
    """{dragon id: terrain id}: where a Dragonkin Champion's logo sends a dragon; the engine checks the dragon (it
    may be summoned during the scenario)."""
    places = [t.id for t in state.terrains]
    for dragon, where in (raw or {}).items():
        if where not in places:
            b.fail((*path, dragon), f"unknown terrain {typed(where)}{did_you_mean(where, places)}")
    return tuple((raw or {}).items())


def summon(b: _Builder, state: GameState, raw: dict | None, path: tuple) -> tuple:
    """{artifact unit id: (dragon, terrain)} for Summon Dragon SAIs; the engine checks the dragon's color."""
    out = []
    places = [t.id for t in state.terrains]
    for unit_id, value, _ in _units_named(b, state, raw, path):
        if value.to is not None and value.to not in places:
            b.fail((*path, unit_id, "to"), f"unknown terrain {typed(value.to)}{did_you_mean(value.to, places)}")
        out.append((unit_id, (value.dragon, value.to)))
    return tuple(out)


def save_sais(b: _Builder, state: GameState, raw: dict | None, path: tuple) -> tuple:
    """{army id: {targets, move_to, unit_saves}}: the choices for the special SAIs of an army's save roll against a
    spell (what Regenerate and the Medallions bring back, where Vanish, Ferry, Teleport, Firewalking move); a unit
    id instead: those of that unit's own save roll against a spell aimed at it (engine.actions.own_roll)."""
    out = []
    units = [u.id for a in state.armies for u in a.units]
    for army_id, m in (raw or {}).items():
        where = (*path, army_id)
        if army_id not in units and not state.has_army(army_id):
            known = [a.id for a in state.armies] + units
            b.fail(where, f"unknown army or unit {typed(army_id)} (an army id, or a unit id for its own save roll)"
                          f"{did_you_mean(army_id, known)}")
            continue
        out.append((army_id, SaiChoices(targets=_sai_targets(b, state, m.targets, where),
                                        move_to=move_to(b, state, m.move_to, (*where, "move_to")),
                                        unit_saves=_unit_rolls(b, state, m.unit_saves, (*where, "unit_saves")),
                                        move_dragons=move_dragons(b, state, m.move_dragons, (*where, "move_dragons")))))
    return tuple(out)


#END