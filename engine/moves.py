"""Units moving between armies: by a spell, fleeing to the reserve area, or going elsewhere than the DUA.

002 Spell Attributes > Duration: "Armies never actually move; only units in that
army move" -- spells on a unit go with it, spells on the army it leaves stay,
and expire once the army is empty; a unit joining an army comes under its spells.
"""

from __future__ import annotations

from .dragonkin import dissipate_now
from .expiry import army_emptied
from .ruleset import Ruleset
from .state import RESERVE, Army, GameState, Unit
from .steps import StepResult
from .trace import TraceEvent, reading


def haunt_army(player: str) -> str:
    """The id of the army a player's dead form for a spell's melee action (002 Haunt)."""
    return f"{player}-haunt"


def haunting(state: GameState, army_id: str) -> bool:
    """Whether ``army_id`` is a player's magically constructed army of the dead, in play while its Haunt's melee is
    resolved (002 Glossary, Magically Constructed Army: "This army is not an active army at a terrain or reserves"):
    no unit arriving at its terrain joins it ("does not gain any of the attributes associated with an active army:
    ... attaching units"), and it is gone once the melee is over."""
    return any(army_id == haunt_army(p) for p in state.players) and state.has_army(army_id)


def of_the_dead(army: Army) -> bool:
    """Whether ``army`` is its player's Haunt army of the dead (``haunting``), which gains none of an active army's
    attributes (002 Glossary, Magically Constructed Army)."""
    return army.id == haunt_army(army.player)


def _active(army: Army) -> bool:
    """An army units arriving may join: any but a Haunt's army of the dead."""
    return not of_the_dead(army)


def owner(state: GameState, unit_id: str) -> Army:
    """The army a unit in play belongs to."""
    return next(a for a in state.armies if a.unit(unit_id) is not None)


def transfer(state: GameState, unit_id: str, source: Army, dest: Army, names: str, cite: str, ruleset: Ruleset,
             out: StepResult) -> GameState:
    """The unit leaves ``source`` for ``dest``: spells on the unit go with it, spells on ``source`` stay
    (and expire if it is left empty), spells on ``dest`` now cover it (002 Spell Attributes > Duration)."""
    unit = source.unit(unit_id)
    state = state.with_army(source.without(unit_id))
    state = state.with_army(state.army(dest.id).evolve(units=(*state.army(dest.id).units, unit)))
    where = "the reserve area" if dest.at == RESERVE else dest.at
    rule, cite = ruleset.words(f"{names}:moves", ruleset.quote("unit-moves", "spells on a unit follow it wherever it "
                                                              "goes; spells on an army stay with the army"), cite)
    out.trace.append(TraceEvent(what=f"{names}: {unit.label} goes from {source.at} to {where}, joining {dest.id}",
                                rule=rule, cite=cite))
    # 002 Dragonkin: "If all other units are killed or leave the terrain (by any means) the Dragonkin dissipate": at
    # once, whatever moved the last other unit away (an SAI in a roll in progress, a spell, a retreat), so nothing that
    # follows in the step meets them in the army (a roll's mover takes their results out: engine.actions.sai_states)
    state = dissipate_now(state, source.id, ruleset, out)
    return army_emptied(state, source.id, ruleset, out)


def reserve_army(state: GameState, player: str, ruleset: Ruleset, out: StepResult) -> tuple[GameState, Army]:
    """The player's army in the reserve area, formed when a first unit arrives (002 Basic Terms, Reserve Area:
    "The units in a player's reserve area form an army")."""
    reserve = next((a for a in state.armies if a.player == player and a.at == RESERVE and _active(a)), None)
    if reserve is not None:
        return state, reserve
    ids = _taken(state)
    name = next(n for n in (f"{player}-reserve", *(f"{player}-reserve-{i}" for i in range(2, 99))) if n not in ids)
    reserve = Army(id=name, player=player, at=RESERVE, units=())
    out.trace.append(TraceEvent(what=f"{player}'s reserve area forms the army {name}",
                                rule=ruleset.quote("reserve-army", "the units in a player's reserve area form an army"),
                                cite=ruleset.cite("reserve-area")))
    return state.evolve(armies=(*state.armies, reserve)), reserve


def _taken(state: GameState) -> set[str]:
    """The ids a new army may not take: armies, units and terrains in play, and the armies spells still name (an
    army gone with its last unit, engine.after_step ``armies-gone``: a new army of that name would come under them)."""
    return ({a.id for a in state.armies} | {u.id for a in state.armies for u in a.units} | {t.id for t in state.terrains}
            | {e.target for e in state.effects})


def bound(unit: Unit | None, ruleset: Ruleset) -> bool:
    """002 Dragonkin: "Dragonkin cannot leave the terrain where they are summoned"."""
    return unit is not None and unit.race in ruleset.terrain_bound_races


def held(state: GameState, unit_id: str, ruleset: Ruleset):
    """The effect on the unit that keeps it at its terrain (sfr-v4 Sleep: "cannot be rolled or leave the terrain
    they currently occupy until the beginning of your next turn"), or None."""
    return next((e for e in state.effects_on(unit_id) if e.spell in ruleset.held_by_effects), None)


def stays(unit_id: str, names: str, cite: str, ruleset: Ruleset, out: StepResult) -> None:
    """Reading: an effect that would send a dragonkin off its terrain leaves it where it is (002 Dragonkin:
    "Dragonkin cannot leave the terrain where they are summoned"), traced with the effect's section ``cite``."""
    out.trace.append(reading(f"{names}: {unit_id} is dragonkin, which cannot leave the terrain where it was "
                             "summoned: the effect does not move it off its terrain",
                             ruleset.cite("dragonkin"), cite))


def flee(state: GameState, unit_id: str, names: str, cite: str, ruleset: Ruleset, out: StepResult) -> GameState:
    """The unit flees to its player's reserve area (a dragonkin stays: it cannot leave its terrain)."""
    source = owner(state, unit_id)
    if source.at == RESERVE:
        out.trace.append(TraceEvent(what=f"{names}: {unit_id} is in the reserve area already", rule="a unit in "
                                    "the reserve area has nowhere to flee", cite=cite))
        return state
    if bound(source.unit(unit_id), ruleset):
        stays(unit_id, names, cite, ruleset, out)
        return state
    if (effect := held(state, unit_id, ruleset)) is not None:
        out.trace.append(TraceEvent(what=f"{names}: {unit_id} does not flee: {effect.spell} is on it", rule="cannot be "
                                    "rolled or leave the terrain they currently occupy",
                                    cite=ruleset.sai_sections.get(effect.spell, cite)))
        return state
    state, reserve = reserve_army(state, source.player, ruleset, out)
    out.fled.append(unit_id)
    return transfer(state, unit_id, source, reserve, names, cite, ruleset, out)


def army_at(state: GameState, player: str, terrain_id: str, ruleset: Ruleset, out: StepResult,
            rule: str | None = None, cite: str | None = None) -> tuple[GameState, Army]:
    """The player's army at the terrain; units arriving where the player has none form a new army, named
    <player>-<terrain> (002 Reinforce Step: "If you don't have an army at the terrain, the reserve units form a
    new army"; any other arrival -- Path, Ferry, Teleport ... -- by 002 Army, "All of your units at a single terrain
    or the reserve area": ``rule`` and ``cite`` name the rule the new army is formed by)."""
    if terrain_id == RESERVE:
        return reserve_army(state, player, ruleset, out)
    there = next((a for a in state.armies if a.player == player and a.at == terrain_id and a.units and _active(a)),
                 None)
    if there is not None:
        return state, there
    name = new_army_id(state, player, terrain_id)
    army = Army(id=name, player=player, at=terrain_id, units=())
    out.trace.append(TraceEvent(what=f"{player} has no army at {terrain_id}: the units arriving form the army {name}",
                                rule=rule or "if you don't have an army at the terrain, the reserve units form a new "
                                     "army", cite=cite or ruleset.cite("reinforce")))
    return state.evolve(armies=(*state.armies, army)), army


def new_army_id(state: GameState, player: str, terrain_id: str) -> str:
    """The id of a new army the player forms at the terrain: <player>-<terrain>, numbered if taken (-2, -3 ...)."""
    ids = _taken(state)
    return next(n for n in (f"{player}-{terrain_id}", *(f"{player}-{terrain_id}-{i}" for i in range(2, 99)))
                if n not in ids)


def moved_army_at(state: GameState, player: str, terrain_id: str, ruleset: Ruleset,
                  out: StepResult) -> tuple[GameState, Army]:
    """Where units an effect moves "to any terrain" (Path, Ferry, Teleport, Firewalking, Vanish, Wayfare) arrive: the
    player's army there, or a new army <player>-<terrain> (the reserve area: <player>-reserve). 002 Army: "All of
    your units at a single terrain or the reserve area"; 000 Path: "If the unit(s) move to another terrain where
    there are no friendly units, they form a new army"; an army the scenario gives there, even empty, takes them)."""
    there = next((a for a in state.armies if a.player == player and a.at == terrain_id and _active(a)), None)
    if there is not None:
        return state, there
    if any(a.player == player and a.at == terrain_id and not _active(a) for a in state.armies):
        out.trace.append(reading(f"{player}'s magically constructed army of the dead stands at {terrain_id}: the "
                                 "units arriving do not attach to it, which is not an active army at a terrain",
                                 ruleset.cite("haunt-army"), ruleset.cite("army-formed")))
    return army_at(state, player, terrain_id, ruleset, out,
                   ruleset.quote("moved-new-army", "all of your units at a single terrain or the reserve area"),
                   ruleset.cite("army-formed"))
