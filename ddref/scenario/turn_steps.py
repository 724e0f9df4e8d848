"""Building the steps of the game's phases: the ``setup`` step, where in the turn a scenario begins (``turn:
{phase, marched}``), ``dragon_attack`` steps, ``reserves`` steps and the armies they form, ``minor`` steps
(ddref scenario format, as the README's table extends it)."""

from __future__ import annotations

from typing import Any

from engine import pool
from engine.editions import RULESETS
from engine.actions.summons import dragon_id
from engine.moves import new_army_id
from engine.names import slug, typed
from engine.state import RESERVE, Army, Dragon, GameState, Marches, Unit
from engine.steps import DragonStep, MagicStep, MinorStep, ReservesStep, SetupStep, Step, TurnStep
from index.lookup import NotFound, find

from . import sai_steps
from .fields import (army_ref as _army_ref, casualties as _casualties, choices as _choices,
                     sai_targets as _sai_targets, unit_rolls as _unit_rolls)
from .reader import Builder as _Builder
from .rolls import face_icon as _icon, roll as _roll
from .model import ScenarioIn
from .source import did_you_mean


def marches(b: _Builder, spec: ScenarioIn, state: GameState) -> GameState:
    """``turn: {phase, marched}``: where in the turn the steps begin, so the engine follows its phases."""
    turn = spec.turn
    if turn is None or turn.phase is None:
        if turn is not None and turn.marched:
            b.fail(("turn", "marched"), "marched is read with phase: say where in the turn the steps begin")
        return state
    marched = tuple(turn.marched or ())
    for i, aid in enumerate(marched):
        if not state.has_army(aid):
            b.fail(("turn", "marched", i), f"unknown army {typed(aid)}{did_you_mean(aid, [a.id for a in state.armies])}")
    if turn.phase == "setup":
        if marched:
            b.fail(("turn", "marched"), "no army has marched before the first turn")
        return state.evolve(marches=Marches(setup=True))
    need = {"first-march": 0, "second-march": 1}.get(turn.phase)
    if need is not None and len(marched) != need:
        b.fail(("turn", "marched"), f"at the {turn.phase.replace('-', ' ')} {need} army has marched this turn: "
                                    f"name {'it' if need else 'none'} in marched")
    if len(marched) > 2:
        b.fail(("turn", "marched"), "a turn has two marches at most")
    done = Marches(marched=marched, maneuvered=bool(marched), acted=("done",) if marched else (),
                   reserves=False)
    return state.evolve(marches=done)


MINOR_FACES = ("melee", "missile", "magic", "double-maneuvers", "double-saves", "id", "flood", "landslide",
               "revolt", "lost")


def minor_step(b: _Builder, state: GameState, m, path: tuple) -> Step | None:
    """A minor terrain's roll: the face by its name, and the rolls a disaster calls for."""
    army = _army_ref(b, state, m.army, (*path, "army"))
    face = slug(m.roll)
    if face not in MINOR_FACES:
        b.fail((*path, "roll"), f"unknown minor terrain face {typed(m.roll)}; expected one of: {', '.join(MINOR_FACES)}"
                                f"{did_you_mean(m.roll, MINOR_FACES)}")
        return None
    avoidance = _roll(b, army, m.avoidance, (*path, "avoidance")) if m.avoidance is not None else None
    return MinorStep(army=m.army, face=face, choose=m.choose, avoidance=avoidance,
                     casualties=_casualties(b, state, m.casualties, (*path, "casualties"))) if army else None


def formed(state: GameState, step: Step | None) -> GameState:
    """The state later steps are read against: with the army a reserves step may form where its units arrive
    (so that later steps may name it). Whether the player still has an army there is known only when the
    step resolves; a step naming an army that was not formed is refused then. Likewise the dragon a magic
    step's Summon Dragon names (``dragon: alice:gold-drake``) is in play for later steps (``alice-gold-drake``), as
    is the one a Dragon Staff's Summon Dragon SAI (``summon``) or a Dragon's Lair (a turn step's ``initial``)
    names."""
    if isinstance(step, MagicStep):
        state = _summoned(state, step)
        army = next((a for a in state.armies if a.id == step.army), None)
        for _, (named, to) in step.summon:
            state = _sent(state, named, to or (army.at if army else None))
        return state
    if isinstance(step, TurnStep):
        named, to = step.initial.dragons_lair
        lair = next((t.id for t in state.terrains if t.special == "dragons-lair"), None)
        return _sent(state, named, to or lair)
    if not isinstance(step, ReservesStep):
        return state
    # a retreat forms <player>-reserve as a reinforcement forms <player>-<terrain> (002 Retreat Step: "move any or
    # all of your units from the terrain they occupy and place them in the reserve area")
    for unit_id, dest in (*step.reinforce, *step.fly, *((u, RESERVE) for u in step.retreat)):
        home = next((a for a in state.armies if a.unit(unit_id) is not None), None)
        if home is None or any(a.player == home.player and a.at == dest and a.id.startswith(f"{home.player}-{dest}")
                               for a in state.armies):
            continue
        unit = home.unit(unit_id)
        state = state.evolve(armies=(*state.armies, Army(id=new_army_id(state, home.player, dest), player=home.player,
                                                         at=dest, units=(unit,))))
    return state


def _summoned(state: GameState, step: MagicStep) -> GameState:
    """The dragons the step's casts name, sent from their pools, so that a later dragon_attack may name them."""
    for c in step.cast:
        state = _sent(state, c.dragon, c.target)
    return state


def _sent(state: GameState, named: str | None, to: str | None) -> GameState:
    """The pool dragon ``named`` (player:item) in play at ``to``, as the engine will name it when the step sends it."""
    player, _, name = (named or "").partition(":")
    item = f"dragon:{name}"
    shape = pool.parse(item)
    if not name or to is None or shape is None or player not in state.players or item not in state.pool(player).items:
        return state
    colors, form = shape
    dragon = Dragon(id=dragon_id(state, player, item), color="-".join(colors), at=to, owner=player, form=form)
    items = list(state.pool(player).items)
    items.remove(item)
    return state.evolve(dragons=(*state.dragons, dragon)).with_pool(state.pool(player).evolve(items=tuple(items)))


def reserves_step(b: _Builder, state: GameState, m, path: tuple) -> Step | None:
    """Unit and terrain ids are checked here; which units may move where, when the step resolves."""
    known = [u.id for a in state.armies for u in a.units] + [u.id for area in (*state.dua, *state.bua)
                                                              for u in area.units]
    places = [t.id for t in state.terrains]
    for name in ("reinforce", "retreat", "fly", "discard"):
        value = getattr(m, name) or ()
        for i, uid in enumerate(value):
            if uid not in known:
                b.fail((*path, name, uid if isinstance(value, dict) else i),
                       f"unknown unit {typed(uid)}{did_you_mean(uid, known)}")
            # a flight to the reserve area is a rule (002 Terrain Flight: "to any other terrain"), refused when the
            # step resolves, where expect_error can pin it
            if isinstance(value, dict) and value[uid] not in places and not (name == "fly" and value[uid] == RESERVE):
                b.fail((*path, name, uid), f"unknown terrain {typed(value[uid])} (expected a terrain id)"
                                           f"{did_you_mean(value[uid], places)}")
    return ReservesStep(reinforce=tuple((m.reinforce or {}).items()), retreat=tuple(m.retreat or ()),
                        fly=tuple((m.fly or {}).items()), discard=tuple(m.discard or ()))


# --- the set-up and the Dragon Attacks phase -----------------------------------------------------


def setup_step(b: _Builder, state: GameState, m, path: tuple) -> Step | None:
    named = [(("player",), m.player)] if m.player is not None else []
    named += [((key, p), p) for key in ("dragons", "order") for p in getattr(m, key) or {}]
    for where, player in named:
        if player not in state.players:
            b.fail((*path, *where), f"unknown player {typed(player)}{did_you_mean(player, state.players)}")
    for tid, rolls in (m.terrain_rolls or {}).items():
        if tid not in {t.id for t in state.terrains}:
            b.fail((*path, "terrain_rolls", tid), f"unknown terrain {typed(tid)}"
                                                   f"{did_you_mean(tid, [t.id for t in state.terrains])}")
        if not rolls or any(not 1 <= r <= 8 for r in rolls):
            b.fail((*path, "terrain_rolls", tid), f"a terrain die rolls faces 1 to 8, got {rolls}")
    units = {u.id: u for a in state.armies for u in a.units}
    for uid in m.magic_faces or {}:
        if uid not in units:
            b.fail((*path, "magic_faces", uid), f"unknown unit {typed(uid)}{did_you_mean(uid, list(units))}")
    return SetupStep(
        force=m.force, players=(m.player,) if m.player else state.players,
        dragons=None if m.dragons is None else tuple(m.dragons.items()),
        catalog=tuple((u.id, (rec.id, rec.unit_class)) for u in units.values() if (rec := _record(b, u))),
        magic_faces=_icon_counts(b, m.magic_faces, (*path, "magic_faces")),
        order=_icon_counts(b, m.order, (*path, "order")),
        terrain_rolls=tuple((tid, tuple(rolls)) for tid, rolls in (m.terrain_rolls or {}).items()))


def _icon_counts(b: _Builder, value: dict[str, dict[str, int]] | None, path: tuple) -> tuple:
    """{key: {icon: n}} with each icon checked and named as the corpus names it."""
    return tuple((key, tuple((icon, n) for name, n in counts.items()
                             if (icon := _icon(b, name, (*path, key, name))) is not None))
                 for key, counts in (value or {}).items())


def _record(b: _Builder, unit: Unit) -> Any:
    """A named unit's catalog record (its id and class), None for a generic unit."""
    if not unit.name:
        return None
    try:
        return find("unit", f"{unit.race} {unit.name}" if unit.race else unit.name, b.edition)[0]
    except NotFound:
        return None


# the books' other spellings of a dragon icon: 002's examples write "a tail then a claw", "Belly, Treasure, Breath,
# and Claw" and "dragons that rolled Wings" for its reference's Claws and Wing
ICON_SPELLINGS = {"claw": "claws", "wings": "wing"}


def _dragon_icon(icon: str, faces) -> str:
    """A dragon icon as the edition names it, the books' other spellings read as the face they name."""
    other = ICON_SPELLINGS.get(icon)
    return other if faces and icon not in faces and other in faces else icon


def dragon_step(b: _Builder, state: GameState, m, path: tuple, read_cantrip) -> Step | None:
    """A dragon attack: dragon ids and icons, the army's roll and choices, the units named; ``read_cantrip`` reads
    its ``cantrip`` field (ddref.scenario.build's, which reads each purchase as a magic step)."""
    army = _army_ref(b, state, m.army, (*path, "army"))
    if army is None:
        return None
    faces = RULESETS[b.edition].dragon_faces if b.edition in RULESETS else {}
    dragons = []
    for named_id, icons in m.dragons.items():
        where = (*path, "dragons", named_id)
        if not any(d.id == named_id for d in state.dragons):
            b.fail(where, f"unknown dragon {typed(named_id)}{did_you_mean(named_id, [d.id for d in state.dragons])}")
        named = tuple(_dragon_icon(slug(i), faces) for i in ([icons] if isinstance(icons, str) else icons))
        for i, icon in enumerate(named):
            if faces and icon not in faces:
                b.fail((*where, i), f"unknown dragon icon {typed(icon)}; expected one of: {', '.join(faces)}"
                                    f"{did_you_mean(icon, faces)}")
        dragons.append((named_id, named))
    # a unit id names a unit of the game (a form error otherwise, with the army's own units suggested); whether it
    # is a unit of the attacked army, one that may promote or roll its logo, is a rule checked when the attack
    # resolves (engine.actions.dragon, engine.exchange), so expect_error can pin it
    members = {u.id for u in army.units}
    known = members | {u.id for a in (*state.armies, *state.dua, *state.bua) for u in a.units}
    for field_ in ("eldarim", "logo_targets", "treasure", "promote", "sai_dragons", "elevate"):
        for uid in getattr(m, field_) or {}:
            if uid not in known and not (field_ == "sai_dragons" and uid == army.id) and \
                    not (field_ == "elevate" and uid in (m.unit_saves or {})):   # a unit joining the roll
                b.fail((*path, field_, uid), f"unknown unit {typed(uid)} (a unit of army {army.id})"
                                             f"{did_you_mean(uid, members)}")
    wanted = ("melee", "missile", "save")
    return DragonStep(
        counter=m.counter not in (None, False),
        army=m.army, dragons=tuple(dragons), roll=_roll(b, army, m.roll, (*path, "roll")) if m.roll else None,
        choices=_choices(b, m, wanted, path) + _elevate(m.elevate),
        casualties=_casualties(b, state, m.casualties, (*path, "casualties")),
        eldarim=tuple((u, _icon(b, face, (*path, "eldarim", u)) or "") for u, face in (m.eldarim or {}).items()),
        logo_targets=tuple((m.logo_targets or {}).items()), fights=tuple((m.fights or {}).items()),
        breath=tuple((d, slug(c)) for d, c in (m.breath or {}).items()),
        breath_targets=tuple((slug(c), tuple(ids)) for c, ids in (m.breath_targets or {}).items()),
        breath_saves=_unit_rolls(b, state, m.breath_saves, (*path, "breath_saves")),
        breath_burial=_unit_rolls(b, state, m.breath_burial, (*path, "breath_burial")),
        slay=None if m.slay is None else tuple(m.slay.items()), treasure=None if m.treasure is None else tuple(m.treasure.items()),
        promote=None if m.promote is None else tuple(m.promote.items()), sai_dragons=tuple((m.sai_dragons or {}).items()),
        move_dragons=tuple((m.move_dragons or {}).items()), cantrip=read_cantrip(b, state, m.cantrip, (*path, "cantrip")),
        move_to=sai_steps.move_to(b, state, getattr(m, "move_to", None), (*path, "move_to")),
        targets=_sai_targets(b, state, getattr(m, "targets", None), path),
        unit_saves=_unit_rolls(b, state, m.unit_saves, (*path, "unit_saves")),
        breath_sais=sai_steps.save_sais(b, state, m.breath_sais, (*path, "breath_sais")),
        ashes=None if m.ashes is None else _unit_rolls(b, state, m.ashes, (*path, "ashes")))


def _elevate(picks: dict[str, str] | None) -> tuple:
    """The units Elevate doubles and, for each, the results (choices "elevate" and "elevate:<result>")."""
    if not picks:
        return ()
    by_result = {r: tuple((u, 1) for u, t in picks.items() if t == r) for r in dict.fromkeys(picks.values())}
    return (("elevate", tuple((u, 1) for u in picks)), *((f"elevate:{r}", units) for r, units in by_result.items()))
