"""The Reserve Movement phase: reinforce, then retreat (002 The Turn Sequence, Reserve Movement).

002: "The Reserve Movement phase has two steps that must be conducted in the
following order: reinforce and retreat"; "Because movement from terrain to
reserve area and from reserve area to terrain occurs by units and not armies,
modifiers to an army's rolls -- such as spells like Stoneskin or Wind Walk -- do
not travel between locations. This is true even if all the units in an entire
army move". In the retreat step Firewalkers may fly between terrains (Terrain
Flight), and a Dragonlord or Dragonmaster may ride a dragon it has tamed to
another terrain. Magical items go only where a unit carries them (engine.carrying).
"""

from __future__ import annotations

from ..names import typed
from collections.abc import Sequence

from .. import marches
from ..carrying import check_carried, unload
from ..lands import elements
from ..moves import army_at, transfer
from ..ruleset import Ruleset
from ..names import slug
from ..state import RESERVE, Army, Dragon, GameState, Unit
from ..steps import ReservesStep, StepResult
from ..trace import StepError, TraceEvent
from .common import terrains


def reserves(state: GameState, step: ReservesStep, ruleset: Ruleset) -> tuple[GameState, StepResult]:
    out = StepResult(kind="reserves")
    state, events = marches.reserve_movement(state, ruleset)
    out.trace.extend(events)
    player = state.turn_player
    discard = list(step.discard)
    # 1. reinforce: "If you have any units in the reserve area, you can move any or all of them to any terrain"
    state = _move(state, player, step.reinforce, "reinforce", discard, ruleset, out)
    # 2. retreat: "you can move any or all of your units from the terrain they occupy ... to the reserve area";
    #    Firewalkers may instead fly to another terrain
    state = _move(state, player, tuple((u, RESERVE) for u in step.retreat), "retreat", discard, ruleset, out)
    state = _move(state, player, step.fly, "fly", discard, ruleset, out)
    if discard:
        raise StepError(f"discard names {', '.join(discard)}, which no army had to give up: items are buried only "
                        "when too few units can carry them", cite=ruleset.cite("magic-items"), field="discard")
    terrains(state, out)
    return state, out


def _move(state: GameState, player: str, moves: Sequence[tuple[str, str]], how: str, discard: list[str],
          ruleset: Ruleset, out: StepResult) -> GameState:
    """Move each named unit (and the items carried with it) to its destination, by destination."""
    cite = ruleset.cite("reinforce" if how == "reinforce" else "retreat")
    groups: dict[tuple[str, str], list[Unit]] = {}
    for n, (unit_id, dest) in enumerate(moves):
        if any(unit_id == other for other, _ in moves[:n]):
            raise StepError(f"{unit_id} is named twice in the {how} step: each unit moves once", cite=cite,
                            field=how)
        source = _source(state, player, unit_id, how, ruleset)
        unit = source.unit(unit_id)
        _check_move(state, source, unit, dest, how, ruleset)
        groups.setdefault((source.id, dest), []).append(unit)
    for (source_id, dest), units in groups.items():
        where = "the reserve area" if dest == RESERVE else dest
        check_carried(units, where, ruleset)
        state, target = army_at(state, player, dest, ruleset, out)
        for unit in units:
            names, why = f"{how} step", cite
            if how == "fly":
                rides = _mount(state, state.army(source_id), unit, ruleset) is not None
                names = "riding a tamed dragon" if rides else "Terrain Flight"
                why = ruleset.cite("dragon-riding" if rides else "terrain-flight")
            state = _mounts(state, state.army(source_id), unit, dest, ruleset, out)
            state = transfer(state, unit.id, state.army(source_id), state.army(target.id), names, why, ruleset, out)
            out.moved.append(unit.id)
        state, used = unload(state, state.army(source_id), discard, ruleset, out)
        for item_id in used:
            discard.remove(item_id)
    return state


def _source(state: GameState, player: str, unit_id: str, how: str, ruleset: Ruleset) -> Army:
    """The army the unit leaves: the reserve army to reinforce; an army at a terrain to retreat or fly."""
    home = next((a for a in state.armies if a.unit(unit_id) is not None), None)
    from_reserve = how == "reinforce"
    legal = [u.id for a in state.armies if a.player == player and (a.at == RESERVE) == from_reserve
             for u in a.units]
    if home is None or home.player != player or (home.at == RESERVE) != from_reserve:
        where = "in the reserve area" if from_reserve else "at a terrain"
        raise StepError(f"{unit_id} is not one of {player}'s units {where}, which the {how} "
                        f"{'step' if how != 'fly' else 'of Terrain Flight'} moves; those are: "
                        f"{', '.join(legal) or 'none'}", cite=ruleset.cite("reinforce" if from_reserve else "retreat"),
                        field=how if how != "fly" else "fly")
    return home


def _check_move(state: GameState, source: Army, unit: Unit, dest: str, how: str, ruleset: Ruleset) -> None:
    """Dragonkin never leave their terrain; Firewalkers fly only from a terrain with the air element."""
    if unit.race in ruleset.no_carry_races and how != "reinforce":
        raise StepError(f"{unit.label}: dragonkin cannot leave the terrain where they are summoned",
                        cite=ruleset.cite("dragonkin"), field=how)
    held = next((e for e in state.effects_on(unit.id) if e.spell in ruleset.held_by_effects), None)
    if held is not None and how != "reinforce":
        # sfr-v4 Sleep: "cannot be rolled or leave the terrain they currently occupy until the beginning of your next
        # turn"
        raise StepError(f"{unit.label} cannot leave {source.at} while {held.spell} is on it", field=how,
                        cite=ruleset.sai_sections.get(held.spell, ruleset.cite("retreat")))
    if unit.name is not None and slug(unit.name) in ruleset.reserve_bound_units:
        raise StepError(f"{unit.label}: the Kings' Die can never leave the reserves", cite=ruleset.cite("kings-die"),
                        field=how)
    if how != "fly":
        if dest != RESERVE and dest not in {t.id for t in state.terrains}:
            raise StepError(f"unknown terrain {typed(dest)} (terrains: {', '.join(t.id for t in state.terrains)})",
                            cite=ruleset.cite("reinforce"), field=how)
        return
    cite = ruleset.cite("terrain-flight")
    element = ruleset.terrain_flight.get(unit.race or "")
    if element is None and _mount(state, source, unit, ruleset) is not None:
        element = ""        # a rider goes from any terrain
    elif element is None and not unit.item:
        raise StepError(f"{unit.label} cannot fly between terrains: only {', '.join(ruleset.terrain_flight)} units "
                        f"have Terrain Flight, and only a {' or '.join(ruleset.dragon_riders)} rides a dragon it has "
                        f"tamed (none is tamed by {unit.id} at {source.at})", cite=cite, field="fly")
    here = state.terrain(source.at)
    if element and element not in elements(state, here, source, ruleset):
        raise StepError(f"{unit.label} is at {here.id}, which has no {element} element: Terrain Flight leaves only "
                        f"a terrain with it", cite=cite, field="fly")
    if dest == source.at or dest not in {t.id for t in state.terrains}:
        others = [t.id for t in state.terrains if t.id != source.at]
        gone = "the reserve area, which is no terrain" if dest == RESERVE else dest
        raise StepError(f"Terrain Flight goes from {source.at} to any other terrain, not {gone} (the others: "
                        f"{', '.join(others)})", cite=cite, field="fly")



def _tamed(state: GameState, source: Army, unit: Unit) -> Dragon | None:
    """The dragon at the unit's terrain that the unit has tamed (002 Dragon Taming)."""
    return next((d for d in state.dragons if d.tamed_by == unit.id and d.at == source.at), None)


def _mount(state: GameState, source: Army, unit: Unit, ruleset: Ruleset) -> Dragon | None:
    """The tamed dragon the unit may ride: a Dragonlord's or a Dragonmaster's."""
    rider = unit.name is not None and slug(unit.name) in ruleset.dragon_riders
    return _tamed(state, source, unit) if rider else None


def _mounts(state: GameState, source: Army, unit: Unit, dest: str, ruleset: Ruleset, out: StepResult) -> GameState:
    """002 Dragonlord: "During the retreat step of a reserve movement, a Dragonlord can ride a tamed dragon to any
    other terrain"; Dragon Taming: a DL/DM relinquishes control when it "leaves the terrain without the tamed
    dragon (e.g. via reserve move ...)"."""
    dragon = _tamed(state, source, unit)
    if dragon is None:
        return state
    if dest != RESERVE and _mount(state, source, unit, ruleset) is not None:
        moved = dragon.evolve(at=dest)
        out.trace.append(TraceEvent(what=f"{unit.id} rides the tamed dragon {dragon.id} from {source.at} to {dest}",
                                    rule="during the retreat step a Dragonlord or Dragonmaster can ride a tamed "
                                         "dragon to any other terrain", cite=ruleset.cite("dragon-riding")))
    else:
        moved = dragon.evolve(tamed_by=None)
        out.trace.append(TraceEvent(what=f"{unit.id} leaves {source.at} without {dragon.id}: the dragon is untamed",
                                    rule="a DL/DM relinquishes control of a tamed dragon when it leaves the terrain "
                                         "without it", cite=ruleset.cite("dragon-taming")))
    return state.evolve(dragons=tuple(moved if d.id == dragon.id else d for d in state.dragons))
