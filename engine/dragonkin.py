"""Dragonkin in a roll and in an army (002 Dragonkin).

- "Dragonkin have armored skin, giving them automatic saves equal to their health ... These apply to the
  army and the Dragonkin's individual save rolls. These automatic saves are an additive dice modifier and
  cannot be doubled by eighth face or minor terrain effects. They are only applied if the Dragonkin are
  rolled." They are added after every other modifier (the Palsy example: 2 ID saves, Palsy makes 1, then
  the automatic saves of a common and an uncommon make 4).
- Belly (SAI List): "During any roll, the Dragonkin unit loses its automatic save(s)"; "Dragonkin Belly does
  not generate any results per se".
- "Dragonkin units cannot roll for magic or missile actions" (here; engine.actions.magic also refuses a dragonkin's
  magic points when the roll is aggregate).
- "An army cannot consist solely of Dragonkin. If all other units are killed or leave the terrain (by any
  means) the Dragonkin dissipate and return to the summoning pool."
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .ruleset import Ruleset
from .state import Army, GameState, Unit
from .trace import StepError, TraceEvent

if TYPE_CHECKING:
    from .rolled import Roll, RollContext, Tally
    from .steps import StepResult

KIN = "dragonkin"
BELLY = "belly"


def automatic_saves(ctx: RollContext, roll: Roll, groups: dict[str | None, Tally], trace: list[TraceEvent]) -> None:
    """Add each rolled dragonkin's automatic saves (its health) unless it showed Belly."""
    kin = [u for u in ctx.army.units if u.race == KIN]
    if not kin:
        return
    cite = ctx.ruleset.cite("dragonkin")
    if ctx.kind in ("missile", "magic") and roll.per_unit and any(u.id in dict(roll.units) for u in kin):
        first = next(u.id for u in kin if u.id in dict(roll.units))
        raise StepError(f"{first} is dragonkin: it cannot roll for {ctx.kind} (dragonkin units cannot roll for magic "
                        "or missile actions): leave it out of the roll", cite=cite, field="roll")
    if ctx.kind in ("dragon", "dragon-save"):     # "dragon-save": the dragon roll under a Blue Dragon Breath
        kin = _against_dragons(ctx, roll, kin, trace)
    if "save" not in ctx.wanted:
        return
    if roll.per_unit:
        faces = dict(roll.units)
        rolled = [u for u in kin if u.id in faces and all(f.icon != BELLY for f in faces[u.id])]
        assumed = False
    else:
        if any(icon == BELLY and n for icon, n in roll.counts):
            raise StepError("a dragonkin rolled Belly and loses its automatic saves: give the roll per unit to say "
                            "which", cite=cite, field="roll")
        rolled, assumed = kin, True
    worth = sum(u.health for u in rolled)
    if not worth:
        return
    into = groups.get(KIN) or next(iter(groups.values()))
    before = sum(g["save"].total for g in groups.values())
    into["save"].normal += worth
    trace.append(TraceEvent(what=f"{ctx.army.id}: dragonkin {', '.join(u.id for u in rolled)} add {worth} automatic "
                                 "save(s)", before=before, after=before + worth,
                            rule="automatic saves equal to their health, an additive dice modifier not doubled by "
                                 "the eighth face" + ("; the roll is aggregate, so every dragonkin is taken to have "
                                                      "rolled, none showing Belly" if assumed else ""),
                            cite=cite, defaulted=assumed))


def barred(state: GameState, army: Army, facing: tuple[str, ...]) -> list[Unit]:
    """The army's dragonkin that do not roll against the dragons attacking it (``facing``; dragons fighting
    other dragons, or tamed, do not count): 002 Dragonkin, "Dragonkin will
    not battle dragons of their own color"; Ivory Dragons, "if an ivory dragon is attacking an army, don't roll
    the dragonkin"; White Dragons, "When a white dragon attacks, no dragonkin can be rolled"; Resist Fear names
    the hybrid dragons "with a matching color" with them. (Reading: an ivory hybrid counts as an ivory dragon.)"""
    colors = [d.color.split("-") for d in state.dragons if d.id in facing]
    return [u for u in army.units if u.race == KIN
            and any("white" in c or "ivory" in c or u.color in c for c in colors)]


def _against_dragons(ctx: RollContext, roll: Roll, kin: list[Unit], trace: list[TraceEvent]) -> list[Unit]:
    """The dragonkin that roll against the dragons; 002 Resist Fear: "When Eldarim are part of the same army as
    dragonkin, dragonkin are allowed to roll against [those dragons]. Pick dragonkin up to the health of Eldarim
    with the matching color to roll in this dragon attack"."""
    held = barred(ctx.state, ctx.army, ctx.facing)
    if not held:
        return kin
    cite = ctx.ruleset.cite("dragonkin")
    fear = {c: sum(u.health for u in ctx.army.units if u.race == "eldarim" and u.color == c)
            for c in {u.color for u in held}}
    listed = dict(roll.units)
    picked: list[Unit] = []
    for unit in held:
        room = fear[unit.color] - sum(u.health for u in picked if u.color == unit.color)
        if roll.per_unit and unit.id in listed and unit.health > room:
            raise StepError(f"{unit.label} does not battle the dragons here (of its color, ivory or white); Resist Fear "
                            f"lets {fear[unit.color]} health of {unit.color} Eldarim bring no more than "
                            f"{fear[unit.color]} health of {unit.color} dragonkin in", cite=cite, field="roll")
        if unit.health <= room and (unit.id in listed or not roll.per_unit):
            picked.append(unit)
    trace.append(TraceEvent(what=f"{ctx.army.id}: dragonkin {', '.join(u.id for u in held if u not in picked) or 'none'} "
                                 f"do not roll against these dragons" + (f"; Resist Fear brings {', '.join(u.id for u in picked)}"
                                                                         if picked else ""),
                            rule="dragonkin will not battle dragons of their own color, ivory or white dragons, unless "
                                 "Eldarim of their color pick them (Resist Fear)", cite=cite,
                            defaulted=not roll.per_unit and bool(picked)))
    return [u for u in kin if u not in held or u in picked]


def dissipate(before: GameState, state: GameState, ruleset: Ruleset, out: StepResult) -> GameState:
    """Armies left with dragonkin only by the step: the dragonkin return to their summoning pool."""
    if state.armies is before.armies:
        return state
    kin_only = [a for a in state.armies if a.units and all(u.race == KIN for u in a.units)]
    if not kin_only:
        return state
    from .expiry import army_emptied, unit_gone     # engine.expiry needs engine.roll, which needs this module
    for army in kin_only:
        cite = ruleset.cite("dragonkin")
        pool = state.pool(army.player)
        state = state.with_pool(pool.evolve(units=(*pool.units, *army.units)))
        state = state.with_army(army.evolve(units=()))
        out.trace.append(TraceEvent(what=f"{army.id} holds only dragonkin: {', '.join(u.id for u in army.units)} "
                                         "dissipate to the summoning pool", rule="if all other units are killed or "
                                    "leave the terrain the Dragonkin dissipate and return to the summoning pool",
                                    cite=cite))
        for unit in army.units:
            state = unit_gone(state, unit.id, "returned to the summoning pool", ruleset, out)
        state = army_emptied(state, army.id, ruleset, out)
    return state



def dissipate_now(state: GameState, army_id: str, ruleset: Ruleset, out: StepResult) -> GameState:
    """002 Dragonkin: "If all other units are killed or leave the terrain (by any means) the Dragonkin dissipate":
    at once, within the roll whose SAI moved the other units away (a Ferry in the army's save roll), so no damage
    that follows takes them. The army, left empty, is removed after the step (engine.after_step)."""
    if not state.has_army(army_id):
        return state
    army = state.army(army_id)
    if not army.units or not all(u.race == KIN for u in army.units):
        return state
    from .expiry import unit_gone     # engine.expiry needs engine.roll, which needs this module
    pool = state.pool(army.player)
    state = state.with_pool(pool.evolve(units=(*pool.units, *army.units)))
    state = state.with_army(army.evolve(units=()))
    out.trace.append(TraceEvent(what=f"{army.id} holds only dragonkin once the others left: "
                                     f"{', '.join(u.id for u in army.units)} dissipate to the summoning pool at once",
                                rule="if all other units are killed or leave the terrain (by any means) the Dragonkin "
                                     "dissipate and return to the summoning pool", cite=ruleset.cite("dragonkin")))
    for unit in army.units:
        state = unit_gone(state, unit.id, "returned to the summoning pool", ruleset, out)
    return state


def spared_burial(unit_id: str, what: str, ruleset: Ruleset) -> TraceEvent:
    """002 Dragonkin: "Since dragonkin return to the summoning pool when killed, any effect that is a "kill and
    bury", simply returns them to the summoning pool without any chance of burial"."""
    return TraceEvent(what=f"{what}: {unit_id} is a dragonkin: back in the summoning pool, not buried",
                      rule="any effect that is a kill and bury simply returns dragonkin to the summoning pool "
                           "without any chance of burial", cite=ruleset.cite("dragonkin"))


def bury_killed(state: GameState, player: str, unit: Unit, what: str, cite: str, out: StepResult) -> GameState:
    """A dragonkin killed by a Sneak Attack, a dragon's breath or a dragonkin's breath goes from the summoning pool
    (where ``damage.kill`` sent it) to the BUA. 002 Dragonkin: "Dragonkin taken as casualties from a Sneak Attack,
    dragon's breath, or Dragonkin's breath effect are immediately buried"."""
    pool = state.pool(player)
    state = state.with_pool(pool.evolve(units=tuple(u for u in pool.units if u.id != unit.id)))
    out.buried.append(unit.id)
    out.trace.append(TraceEvent(what=f"{what}: {unit.id} is a dragonkin: buried", rule="dragonkin taken as "
                                "casualties from a Sneak Attack, dragon's breath, or Dragonkin's breath effect are "
                                "immediately buried", cite=cite))
    return state.add_to("bua", player, (unit,))


def check_not_alone(state: GameState, ruleset: Ruleset) -> None:
    """002 Dragonkin: "An army cannot consist solely of Dragonkin" (left alone they dissipate at once): a game never
    goes on from a state with such an army, so the scenario's first step is refused (expect_error can pin it)."""
    for a in state.armies:
        kin = [u for u in a.units if u.race == KIN]
        if kin and all(u.race == KIN or u.item for u in a.units):
            raise StepError(f"{a.id} holds only dragonkin ({', '.join(u.id for u in kin)}): an army cannot consist "
                            "solely of Dragonkin (left alone they dissipate and return to the summoning pool)",
                            cite=ruleset.cite("dragonkin"), field="armies")
