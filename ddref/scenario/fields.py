"""The field readers shared by every step kind of ddref.scenario: armies and units named, rolls by unit or army,
casualties, choices, SAI targets. Each takes the ``Builder`` first and reports a located error on it."""

from __future__ import annotations

import re
from typing import Any

from engine.editions import RULESETS
from engine.moves import haunt_army
from engine.names import slug, typed
from engine.sais import SAI_USES
from engine.state import RESERVE, RESULT_TYPES, Army, GameState

from .reader import Builder
from .rolls import face_icon, roll
from .source import did_you_mean


def army_ref(b: Builder, state: GameState, army_id: str, path: tuple) -> Army | None:
    """The army named ``army_id`` in ``state``, or one play may form (``formed_in_play``); a located error otherwise."""
    if state.has_army(army_id):
        return state.army(army_id)
    formed = formed_in_play(state, army_id)
    if formed is not None:
        return formed
    b.fail(path, f"unknown army {typed(army_id)}{did_you_mean(army_id, [a.id for a in state.armies])}")
    return None


def formed_in_play(state: GameState, army_id: str) -> Army | None:
    """An army that play may form, named as the engine names it (engine.moves): <player>-reserve in the reserve area
    (units fleeing there: Roar, Scent of Fear, Open Grave, a retreat ...), <player>-<terrain> at a terrain (units
    arriving where the player has none: a reinforcement, Path, Ferry, Teleport ...), -2, -3 ... when the name is
    taken. Read as an empty army of that player there; whether it exists is known only when the step resolves, and
    a step naming an army that was not formed is refused then."""
    rules = RULESETS.get(state.edition)
    if rules is not None and rules.spell_effects.get("haunt") is not None:
        for player in state.players:
            if army_id == haunt_army(player):
                # 002 Haunt's army of the dead (<player>-haunt), in play only during the spell's melee: a later step
                # naming it is refused when it resolves (002 Glossary, Magically Constructed Army: "This army cannot
                # sustain any action past the melee action"), where expect_error can pin it
                return Army(id=army_id, player=player, at=RESERVE, units=())
    base = re.sub(r"-\d+$", "", army_id)
    places = {RESERVE: RESERVE, **{t.id: t.id for t in state.terrains}}
    for player in state.players:
        where = base[len(player) + 1:] if base.startswith(f"{player}-") else None
        if where in places:
            return Army(id=army_id, player=player, at=places[where], units=())
    return None


def owner_split(b: Builder, value: dict[str, int] | None, wanted: tuple[str, ...], path: tuple) -> tuple:
    """An owner's split over result types: each a result type (a form error otherwise); whether the roll is for
    it is a rule, checked when the step resolves (engine.roll, engine.modifiers), so expect_error can pin it."""
    if not value:
        return ()
    for t in value:
        if t not in RESULT_TYPES:
            b.fail((*path, t), f"unknown result type {typed(t)}; expected one of: {', '.join(RESULT_TYPES)}"
                               f"{did_you_mean(str(t), RESULT_TYPES)}")
    return tuple(value.items())


def choices(b: Builder, m, wanted: tuple[str, ...], path: tuple) -> tuple:
    """A combination roll's choices: where penalties, IDs, conversions and each SAI's points go."""
    pairs = [("penalties", m.penalties), ("ids", m.ids), ("counts_as", m.counts_as)]
    for sai, split in (m.splits or {}).items():
        icon = face_icon(b, sai, (*path, "splits", sai))
        if icon:
            pairs.append((icon, split))
    return tuple((k, owner_split(b, v, wanted, (*path, k))) for k, v in pairs if v)


def casualties(b: Builder, state: GameState, value: dict | None, path: tuple) -> tuple:
    """(army, ids) pairs; an army's units named per source of damage are ``army@source`` pairs
    (engine.actions.common ``named_for``), the source a slug (``smite``, ``melee``, ``firestorm``)."""
    out = []
    for aid, ids in (value or {}).items():
        if army_ref(b, state, aid, (*path, aid)) is None:
            continue
        if isinstance(ids, dict):
            for source, named in ids.items():
                if source == "to":      # where a spell sends its casualties (Leaving): "<army>->" (engine.actions.common)
                    if isinstance(named, str) and army_ref(b, state, named, (*path, aid, "to")) is not None:
                        out.append((f"{aid}->", (named,)))
                    elif not isinstance(named, str):
                        b.fail((*path, aid, "to"), "to: names one army (where the casualties go)")
                elif isinstance(named, str):
                    b.fail((*path, aid, source), f"{source}: a list of unit ids (to: alone names an army)")
                else:
                    out.append((f"{aid}@{slug(source)}", tuple(named)))
        else:
            out.append((aid, tuple(ids)))
    return tuple(out)


def sai_targets(b: Builder, state: GameState, raw: dict | None, path: tuple) -> tuple:
    """``targets``: SAI -> {unit: points}, [units] or an army id, checked against the units and armies in play
    (and the dead and buried units, which Regenerate and the Medallions bring back)."""
    units = [u.id for a in (*state.armies, *state.dua, *state.bua) for u in a.units]
    targets = []
    for sai, assigned in (raw or {}).items():
        icon = face_icon(b, sai, (*path, "targets", sai))
        if isinstance(assigned, str):
            pairs = ((assigned, None),) if army_ref(b, state, assigned, (*path, "targets", sai)) else ()
        else:
            named = assigned.items() if isinstance(assigned, dict) else ((uid, None) for uid in assigned)
            pairs = tuple(named)
            if pairs and all(isinstance(v, list) for _, v in pairs):     # {mover: [units]}: a moving SAI's
                pairs = per_mover(b, icon, pairs, units, (*path, "targets", sai))
            for uid, _ in pairs:
                if uid not in units:
                    b.fail((*path, "targets", sai, uid), f"unknown unit {typed(uid)}{did_you_mean(uid, units)}")
        if icon:
            targets.append((icon, pairs))
    return tuple(targets)


def units_named(b: Builder, state: GameState, raw: dict | None, path: tuple) -> list[tuple[str, Any, Army]]:
    """(unit id, value, its army) for each key of a {unit id: value} mapping that names a unit in play."""
    found = []
    for unit_id, value in (raw or {}).items():
        # a dead unit too: one an SAI brings back during a roll (Regenerate) rolls at once
        home = next((a for a in state.armies if a.unit(unit_id) is not None), None) or in_pool(state, unit_id)
        if home is None:
            b.fail((*path, unit_id), f"unknown unit {typed(unit_id)}"
                                     f"{did_you_mean(unit_id, [u.id for a in state.armies for u in a.units])}")
        else:
            found.append((unit_id, value, home))
    return found


def unit_rolls(b: Builder, state: GameState, raw: dict | None, path: tuple) -> tuple:
    """{unit id: its own roll}: a face, a list of faces, or an aggregate mapping for the unit alone."""
    out = []
    for unit_id, value, home in units_named(b, state, raw, path):
        alone = home.evolve(units=(home.unit(unit_id),))
        out.append((unit_id, roll(b, alone, {unit_id: value} if isinstance(value, (str, list)) else value,
                                   (*path, unit_id))))
    return tuple(out)


def rolls_by_army(b: Builder, state: GameState, raw: dict | None, path: tuple) -> tuple:
    """{army id: roll} with each army checked and its roll read against it."""
    out = []
    for army_id, value in (raw or {}).items():
        other = army_ref(b, state, army_id, (*path, army_id))
        if other is not None:
            out.append((army_id, roll(b, other, value, (*path, army_id))))
    return tuple(out)


def in_pool(state: GameState, unit_id: str) -> Army | None:
    """A summoning pool's dragonkin or a dead unit, as a one-unit army, so that a roll it makes (once
    summoned; or against burial) can be read."""
    for where, player, units in [*(("pool", p.player, p.units) for p in state.summoning_pool),
                                 *(("dua", a.player, a.units) for a in state.dua)]:
        unit = next((u for u in units if u.id == unit_id), None)
        if unit is not None:
            return Army(id=f"{player}-{where}", player=player, at=RESERVE, units=(unit,))
    return None


def per_mover(b: Builder, icon: str | None, pairs: tuple, units: list[str], path: tuple) -> tuple:
    """{mover: [units it takes along]}: a moving SAI's per-mover ``targets`` form (engine.actions.companions), each
    mover's units as a tuple; every id checked against the units in play, the SAI against the edition's moving
    SAIs (a list or {unit: points} for the others)."""
    moving = moving_sais(b)
    if icon and icon not in moving:
        b.fail(path, f"{icon} moves no units in {b.edition}: the per-mover form {{unit: [units it takes along]}} is "
                     f"for the moving SAIs ({', '.join(moving)}); write a list of units")
        return ()
    for mover, along in pairs:
        for n, uid in enumerate(along):
            if uid not in units:
                b.fail((*path, mover, n), f"unknown unit {typed(uid)}{did_you_mean(uid, units)}")
    return tuple((mover, tuple(along)) for mover, along in pairs)


def moving_sais(b: Builder) -> list[str]:
    """The edition's moving SAIs (``special == "move"`` in its SAI table)."""
    ruleset = RULESETS.get(b.edition)
    table = (ruleset.sai_uses if ruleset is not None else None) or SAI_USES
    return sorted(sai for sai, uses in table.items() if any(getattr(u, "special", None) == "move"
                                                             for u in uses.values()))
