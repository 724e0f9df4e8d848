"""Units exchanged with the dead unit area (or, for dragonkin, the summoning pool): promotion, recruitment,
and the racial exchanges built on them (002 Basic Terms > Promotion, Recruitment; Promotion; Exchanging
Units from the DUA).

What every exchange shares (002 Exchanging Units from the DUA):

- "exchanges with the DUA are performed in the same manner" as moves, unit by unit: spells on the army
  stay, and "Even if all the units in the army are exchanged, at no time is the entire army gone";
- "Any individual-targeting spells affecting the unit expire immediately upon the exchange";
- "Each exchange by an army and each separate exchange effect by the same army occur simultaneously.
  Only units located in an army and DUA at the start of each separate exchange are eligible": each call
  here is one exchange effect, and reads the units it may use before it changes anything.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from .expiry import unit_gone
from .ruleset import Ruleset
from .state import Army, GameState, Unit
from .steps import StepResult
from .trace import StepError, TraceEvent

KIN = "dragonkin"
MAX_LISTED = 12


def source(state: GameState, player: str, race: str | None) -> tuple[Unit, ...]:
    """Where a unit of ``race`` is promoted from: the player's DUA, or the summoning pool for dragonkin (002
    Promotion: "trade it with a unit in your dead unit area or summoning pool (for dragonkin)")."""
    if race == KIN:
        return state.pool(player).units
    return state.area("dua", player).units


def invisible(state: GameState, ruleset: Ruleset, unit_id: str) -> str | None:
    """The spell that keeps the unit from being promoted (002 Promotion: "Units under the effect of spells that
    make them invisible (e.g. Camouflage, Fade and Hide) cannot be promoted")."""
    return next((e.spell for e in state.effects_on(unit_id) if e.spell in ruleset.invisible), None)


def promotable(state: GameState, ruleset: Ruleset, unit: Unit) -> bool:
    """A unit of a race (not an item, not the race-less Kings' Die) that no spell makes invisible."""
    return unit.race is not None and not unit.item and invisible(state, ruleset, unit.id) is None


def matches(unit: Unit, other: Unit, step: int = 1) -> bool:
    """``other`` is a unit of the same race, ``step`` health larger (002 Glossary, Promotion: "races with dice
    in multiple colors (dragonkin and Eldarim), ignore the colors when promoting": the race alone counts)."""
    return other.race == unit.race and other.health == unit.health + step and not other.item


def legal_pairs(state: GameState, ruleset: Ruleset, army: Army) -> list[tuple[Unit, Unit]]:
    """Every (unit in the army, unit it may be promoted to), the army's largest units first."""
    pairs = []
    for unit in sorted(army.units, key=lambda u: -u.health):
        if promotable(state, ruleset, unit):
            pairs += [(unit, dead) for dead in source(state, army.player, unit.race) if matches(unit, dead)]
    return pairs


def promote(state: GameState, ruleset: Ruleset, army_id: str, allowed: int | None,
            chosen: Mapping[str, str] | None, cause: str, cite: str) -> tuple[GameState, list[TraceEvent]]:
    """One promotion effect for the army: up to ``allowed`` promotions (None: as many as possible), all at once.

    ``chosen`` pairs a unit of the army with the unit it becomes; None takes the default (the army's largest
    units first, each to the first matching unit of its DUA or summoning pool), marked ``defaulted``. An
    illegal choice raises StepError listing the legal ones."""
    army = state.army(army_id)
    pairs = legal_pairs(state, ruleset, army)
    if chosen is None:
        picked = _default(pairs, allowed)
    else:
        picked = _checked(state, ruleset, army, pairs, allowed, chosen, cause, cite)
    events: list[TraceEvent] = []
    if not picked:
        events.append(TraceEvent(what=f"{cause}: {army_id} promotes no unit" + ("" if pairs else
                                 " (no unit has a match one health larger of its race)"), rule="if a player has no "
                                 "applicable units in their dead unit area or summoning pool, then promotion cannot "
                                 "occur", cite=cite, defaulted=chosen is None and bool(pairs)))
    for old, new in picked:
        state = exchange(state, ruleset, army_id, old, new, events)
        events.append(TraceEvent(what=f"{cause}: {old.label} is promoted to {new.label}", before=old.health,
                                 after=new.health, rule="replace it with a unit one health larger in size of the "
                                 "same race from your dead unit area or summoning pool; all promotions occur "
                                 "simultaneously", cite=cite, defaulted=chosen is None))
    return state, events


def _default(pairs: list[tuple[Unit, Unit]], allowed: int | None) -> list[tuple[Unit, Unit]]:
    picked: list[tuple[Unit, Unit]] = []
    for old, new in pairs:
        if allowed is not None and len(picked) >= allowed:
            break
        if all(old.id != o.id and new.id != n.id for o, n in picked):
            picked.append((old, new))
    return picked


def _checked(state: GameState, ruleset: Ruleset, army: Army, pairs: list[tuple[Unit, Unit]], allowed: int | None,
             chosen: Mapping[str, str], cause: str, cite: str) -> list[tuple[Unit, Unit]]:
    legal = {(o.id, n.id) for o, n in pairs}
    listing = ", ".join(f"{o.id} -> {n.id}" for o, n in pairs[:MAX_LISTED]) or "none"
    if allowed is not None and len(chosen) > allowed:
        raise StepError(f"{cause}: {army.id} may promote {allowed} unit(s); {len(chosen)} are named",
                        cite=cite, field="promote")
    if len(set(chosen.values())) != len(chosen):
        raise StepError(f"{cause}: one unit is named twice as what a unit is promoted to: {dict(chosen)} (all "
                        "promotions occur simultaneously: each dead unit is taken once)", cite=cite, field="promote")
    picked = []
    for old_id, new_id in chosen.items():
        if (old_id, new_id) not in legal:
            raise StepError(f"{cause}: {old_id} cannot be promoted to {new_id}: {_why(state, ruleset, army, old_id, new_id)}"
                            f"; legal promotions: {listing}", cite=cite, field="promote")
        picked.append(next(p for p in pairs if (p[0].id, p[1].id) == (old_id, new_id)))
    return picked


def _why(state: GameState, ruleset: Ruleset, army: Army, old_id: str, new_id: str) -> str:
    old = army.unit(old_id)
    if old is None:
        return f"{old_id} is not a unit of {army.id}"
    spell = invisible(state, ruleset, old_id)
    if spell is not None:
        return f"{old_id} is under {spell}, which makes it invisible: it cannot be promoted"
    if old.race is None or old.item:
        return f"{old.label} belongs to no race"
    new = next((u for u in source(state, army.player, old.race) if u.id == new_id), None)
    where = "summoning pool" if old.race == KIN else "dead unit area"
    if new is None:
        return f"{new_id} is not in {army.player}'s {where}"
    return f"{new.label} is not a unit of race {old.race} one health larger than {old.label}"


def exchange(state: GameState, ruleset: Ruleset, army_id: str, old: Unit, new: Unit,
             events: list[TraceEvent]) -> GameState:
    """``old`` leaves the army for its player's DUA (dragonkin: summoning pool) and ``new`` takes its place; the
    army's spells stay, ``old``'s individual-targeting spells expire."""
    army = state.army(army_id)
    kin = old.race == KIN or new.race == KIN
    if kin:
        pool = state.pool(army.player)
        state = state.with_pool(pool.evolve(units=(*(u for u in pool.units if u.id != new.id), old)))
    else:
        state = state.take_from("dua", army.player, new.id).add_to("dua", army.player, (old,))
    state = state.with_army(army.evolve(units=tuple(new if u.id == old.id else u for u in army.units)))
    out = StepResult(kind="exchange")
    state = unit_gone(state, old.id, "exchanged", ruleset, out)
    events += out.trace
    return state


def recruit(state: GameState, ruleset: Ruleset, army_id: str, allowed: int, chosen: Sequence[str] | None,
            cause: str, cite: str, race: str | None = None) -> tuple[GameState, list[TraceEvent]]:
    """Up to ``allowed`` common units from the DUA join the army (002 Recruitment: "take a common (1-health)
    unit from your dead unit area and place it in the acting army. You may not recruit from the Summoning
    Pool"); ``race`` limits them (Feralization: a Feral unit). None chooses the first ones, ``defaulted``."""
    army = state.army(army_id)
    fits = [u for u in state.area("dua", army.player).units if u.health == 1 and not u.item
            and u.race != KIN and (race is None or u.race == race)]
    if chosen is None:
        picked = fits[:allowed]
    else:
        listing = ", ".join(u.id for u in fits[:MAX_LISTED]) or "none"
        if len(chosen) > allowed:
            raise StepError(f"{cause}: {army_id} may recruit {allowed} unit(s); {len(chosen)} are named",
                            cite=cite, field="recruit")
        bad = [i for i in chosen if all(u.id != i for u in fits)]
        if bad:
            what = f"a common {race} unit" if race else "a common (1-health) unit"
            raise StepError(f"{cause}: {bad[0]} is not {what} in {army.player}'s dead unit area; it may recruit: "
                            f"{listing}", cite=cite, field="recruit")
        picked = [u for u in fits if u.id in chosen]
    events = []
    for unit in picked:
        state = state.take_from("dua", army.player, unit.id)
        state = state.with_army(state.army(army_id).evolve(units=(*state.army(army_id).units, unit)))
        events.append(TraceEvent(what=f"{cause}: {unit.label} is recruited into {army_id}", after=unit.health,
                                 rule="take a common (1-health) unit from your dead unit area and place it in the "
                                 "acting army", cite=cite, defaulted=chosen is None))
    if not picked:
        events.append(TraceEvent(what=f"{cause}: {army_id} recruits no unit", rule="if a player has no common "
                                 "units in their dead unit area, then recruiting cannot occur", cite=cite,
                                 defaulted=chosen is None and bool(fits)))
    return state, events
