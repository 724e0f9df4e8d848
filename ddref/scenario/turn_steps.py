"""Building the steps of the turn's phases: where in the turn a scenario begins (``turn: {phase, marched}``),
``reserves`` steps and the armies they form, ``minor`` steps (ddref scenario format, as the README's table
extends it)."""

from __future__ import annotations

from engine import pool
from engine.actions.summons import dragon_id
from engine.moves import new_army_id
from engine.names import slug
from engine.state import Army, Dragon, GameState, Marches
from engine.steps import MagicStep, MinorStep, ReservesStep, Step

from .build import _army_ref, _Builder, _casualties, _roll
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
            b.fail(("turn", "marched", i), f"unknown army {aid!r}{did_you_mean(aid, [a.id for a in state.armies])}")
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
        b.fail((*path, "roll"), f"unknown minor terrain face {m.roll!r}; expected one of: {', '.join(MINOR_FACES)}"
                                f"{did_you_mean(m.roll, MINOR_FACES)}")
        return None
    avoidance = _roll(b, army, m.avoidance, (*path, "avoidance")) if m.avoidance is not None else None
    return MinorStep(army=m.army, face=face, choose=m.choose, avoidance=avoidance,
                     casualties=_casualties(b, state, m.casualties, (*path, "casualties"))) if army else None


def formed(state: GameState, step: Step | None) -> GameState:
    """The state later steps are read against: with the army a reserves step may form where its units arrive
    (so that later steps may name it). Whether the player still has an army there is known only when the
    step resolves; a step naming an army that was not formed is refused then. Likewise the dragon a magic
    step's Summon Dragon names (``dragon: alice:gold-drake``) is in play for later steps (``alice-gold-drake``)."""
    if isinstance(step, MagicStep):
        return _summoned(state, step)
    if not isinstance(step, ReservesStep):
        return state
    for unit_id, dest in (*step.reinforce, *step.fly):
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
        player, _, name = (c.dragon or "").partition(":")
        item = f"dragon:{name}"
        shape = pool.parse(item)
        if not name or shape is None or item not in state.pool(player).items:
            continue
        colors, form = shape
        dragon = Dragon(id=dragon_id(state, player, item), color="-".join(colors), at=c.target, owner=player,
                        form=form)
        items = list(state.pool(player).items)
        items.remove(item)
        state = state.evolve(dragons=(*state.dragons, dragon)).with_pool(state.pool(player).evolve(items=tuple(items)))
    return state


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
                       f"unknown unit {uid!r}{did_you_mean(uid, known)}")
            if isinstance(value, dict) and value[uid] not in places:
                b.fail((*path, name, uid), f"unknown terrain {value[uid]!r} (expected a terrain id)"
                                           f"{did_you_mean(value[uid], places)}")
    return ReservesStep(reinforce=tuple((m.reinforce or {}).items()), retreat=tuple(m.retreat or ()),
                        fly=tuple((m.fly or {}).items()), discard=tuple(m.discard or ()))
