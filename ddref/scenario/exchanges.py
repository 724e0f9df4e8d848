"""The scenario's exchanges with the DUA as engine values: the promote and replant steps, a turn's Initial
Effects choices, and the Undead's and Eldarim's choices on any step that kills or buries (a roll's Wild Growth
promotions are read with the roll, ddref.scenario.rolls). Engine: engine.exchange, engine.actions.initial,
engine.actions.racial; the shared field readers: ddref.scenario.fields."""

from __future__ import annotations

from engine.names import slug, typed
from engine.state import RESERVE, Army, GameState
from engine.steps import Exchanges, InitialEffects, KingsDie, Mutation, PromoteStep, ReplantStep, ReservesStep, Step

from .fields import army_ref as _army_ref, unit_rolls as _unit_rolls
from .reader import Builder as _Builder
from .rolls import roll as _roll


def undead_choices(b: _Builder, state: GameState, m, step: Step, path: tuple) -> Step:
    """The Undead's Stepped Damage trades and Resist Burial rolls, and the Eldarim's Sacrifice Dragonkin, on any
    step that kills or buries."""
    changes = {}
    for name in ("stepped", "sacrifice"):
        if getattr(m, name, None):
            changes[name] = tuple(getattr(m, name).items())
    rolls = []
    for uid, value in (getattr(m, "resist_burial", None) or {}).items():
        alone = buried_alone(state, uid)
        if alone is None:
            b.fail((*path, "resist_burial", uid), f"unknown unit {typed(uid)}")
            continue
        rolls.append((uid, _roll(b, alone, {uid: value} if isinstance(value, (str, list)) else value,
                                 (*path, "resist_burial", uid))))
    if rolls:
        changes["resist_burial"] = tuple(rolls)
    if getattr(m, "discard", None) and not isinstance(step, ReservesStep):
        changes["discard"] = tuple(m.discard)   # the items the owner buries (engine.after_step.carriers)
    return step.evolve(**changes) if changes else step


def buried_alone(state: GameState, unit_id: str) -> Army | None:
    """The unit by itself, wherever it is now (in play, dead or buried), to read its roll."""
    for unit in [*(u for a in state.armies for u in a.units), *(u for a in (*state.dua, *state.bua) for u in a.units)]:
        if unit.id == unit_id:
            return Army(id=unit_id, player="", at=RESERVE, units=(unit,))
    return None


def initial(b: _Builder, state: GameState, m, path: tuple) -> InitialEffects:
    """The Initial Effects phase's choices; unit ids are checked when the phase resolves (the state then)."""
    if m is None:
        return InitialEffects()
    mutation = None
    if m.mutation is not None:
        mp = (*path, "mutation")
        if _army_ref(b, state, m.mutation.army, (*mp, "army")) is not None:
            mutation = Mutation(army=m.mutation.army, targets=_unit_rolls(b, state, m.mutation.targets,
                                                                          (*mp, "targets")),
                                recruit=None if m.mutation.recruit is None else tuple(m.mutation.recruit),
                                promote=tuple((m.mutation.promote or {}).items()))
    temple = tuple((a, (t.player, t.bury)) for a, t in (m.temple or {}).items())
    temple_ashes = []
    for a, t in (m.temple or {}).items():
        if t.ashes is None:
            continue
        where = (*path, "temple", a, "ashes")
        alone = buried_alone(state, t.bury) if t.bury else None
        if alone is None:
            b.fail(where, "an ashes roll needs the unit it is for: name it in bury")
            continue
        temple_ashes.append((t.bury, _roll(b, alone, {t.bury: t.ashes} if isinstance(t.ashes, (str, list))
                                           else t.ashes, where)))
    kings = None
    if m.kings_die is not None:
        kings = KingsDie(roll=None if m.kings_die.roll is None else slug(m.kings_die.roll),
                         **_recruit_or_promote(m.kings_die))
    return InitialEffects(feralization=tuple((a, Exchanges(**_recruit_or_promote(e))) for a, e in (m.feralization or {}).items()),
                          mutation=mutation, sacrifice=tuple((m.sacrifice or {}).items()),
                          city=tuple((a, Exchanges(**_recruit_or_promote(e))) for a, e in (m.city or {}).items()),
                          temple=temple, temple_ashes=tuple(temple_ashes), grove=m.grove, kings_die=kings,
                          dragons_lair=(m.dragons_lair.dragon, m.dragons_lair.to) if m.dragons_lair else (None, None),
                          order=tuple(m.order or ()))


def _recruit_or_promote(e) -> dict:
    """An ExchangeIn's fields as engine values (one recruit may be written alone)."""
    recruit = [e.recruit] if isinstance(e.recruit, str) else e.recruit
    return {"recruit": None if recruit is None else tuple(recruit),
            "promote": None if e.promote is None else tuple(e.promote.items())}


def promote_step(b: _Builder, state: GameState, m, path: tuple) -> Step | None:
    if _army_ref(b, state, m.army, (*path, "army")) is None:
        return None
    chosen = tuple(m.chosen.items()) if m.chosen is not None else None
    return PromoteStep(army=m.army, allowed=None if m.allowed == "all" else m.allowed, chosen=chosen)


def replant_step(b: _Builder, state: GameState, m, path: tuple) -> Step | None:
    if _army_ref(b, state, m.army, (*path, "army")) is None:
        return None
    return ReplantStep(army=m.army, give=tuple(m.give), take=tuple(m.take))
