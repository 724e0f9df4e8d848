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
from .protection import shield
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


def legal_pairs(state: GameState, ruleset: Ruleset, army: Army, race: str | None = None) -> list[tuple[Unit, Unit]]:
    """Every (unit in the army, unit it may be promoted to), the army's largest units first; ``race`` limits
    the units promoted (Feralization: "promote one Feral unit in the army")."""
    pairs = []
    for unit in sorted(army.units, key=lambda u: -u.health):
        if promotable(state, ruleset, unit) and (race is None or unit.race == race):
            pairs += [(unit, dead) for dead in source(state, army.player, unit.race) if matches(unit, dead)]
    return pairs


def promote(state: GameState, ruleset: Ruleset, army_id: str, allowed: int | None,
            chosen: Mapping[str, str] | None, cause: str, cite: str,
            race: str | None = None) -> tuple[GameState, list[TraceEvent]]:
    """One promotion effect for the army: up to ``allowed`` promotions (None: as many as possible), all at once.

    ``chosen`` pairs a unit of the army with the unit it becomes; None takes the default (the army's largest
    units first, each to the first matching unit of its DUA or summoning pool), marked ``defaulted``. An
    illegal choice raises StepError listing the legal ones."""
    army = state.army(army_id)
    pairs = legal_pairs(state, ruleset, army, race)
    if chosen is None:
        picked = _default(pairs, allowed)
    else:
        picked = _checked(state, ruleset, army, pairs, allowed, chosen, cause, cite)
    events: list[TraceEvent] = []
    if not picked:
        events.append(TraceEvent(what=f"{cause}: {army_id} promotes no unit" + ("" if pairs else
                                 " (no unit has a match one health larger of its race)"), rule=ruleset.quote(
                                 f"promote-none-{cause}", "if a player has no applicable units in their dead unit area or "
                                 "summoning pool, then promotion cannot occur"), cite=cite, defaulted=chosen is None and bool(pairs)))
    for old, new in picked:
        state = exchange(state, ruleset, army_id, old, new, events)
        events.append(TraceEvent(what=f"{cause}: {old.label} is promoted to {new.label}", before=old.health,
                                 after=new.health, rule=ruleset.quote("promote", "replace it with a unit one health "
                                 "larger in size of the same race from your dead unit area or summoning pool; all "
                                 "promotions occur simultaneously"), cite=cite, defaulted=chosen is None))
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
        raise StepError(f"{cause}: one unit is named twice as what a unit is promoted to: "
                        f"{', '.join(f'{u} -> {d}' for u, d in chosen.items())} (all "
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
                                 rule=ruleset.quote("recruit", "take a common (1-health) unit from your dead unit "
                                 "area and place it in the acting army"), cite=cite, defaulted=chosen is None))
    if not picked:
        events.append(TraceEvent(what=f"{cause}: {army_id} recruits no unit", rule=ruleset.quote("recruit-none",
                                 "if a player has no common units in their dead unit area, then recruiting cannot "
                                 "occur"), cite=cite,
                                 defaulted=chosen is None and bool(fits)))
    return state, events


def bring_back(state: GameState, ruleset: Ruleset, army_id: str, budget: int, recruits: Sequence[str] | None,
               promotions: Mapping[str, str], race: str | None, any_step: bool, cause: str,
               cite: str) -> tuple[GameState, list[TraceEvent]]:
    """Dead units of ``race`` (None: any) come back to the army, recruited whole (any size) or by promotion,
    for at most ``budget`` health gained, as one exchange effect: 002 Mutation ("return up to that many
    health-worth of Swamp Stalker units from your DUA to the mutating army, promote a number of Swamp Stalker
    units equal to the health killed or a combination of both") and the rolled Kings' Die ("bring back up to
    four health-worth ... through recruiting, promoting or a combination of both ... you can recruit any size
    unit (not just commons), and you can promote to a unit of greater health (not just one health more).
    However, the same unit cannot be recruited then promoted"). ``recruits`` None: the largest dead units
    that fit, marked ``defaulted``."""
    army = state.army(army_id)
    dead = [u for u in state.area("dua", army.player).units if not u.item and (race is None or u.race == race)]
    step = None if any_step else 1
    pairs = [(o, n) for o in army.units for n in dead if promotable(state, ruleset, o) and o.race == n.race
             and (race is None or o.race == race) and (n.health - o.health == step if step else n.health > o.health)]
    if recruits is None:
        recruits, left = [], budget - sum(pairs_gain(pairs, promotions))
        for u in sorted(dead, key=lambda u: -u.health):
            if u.health <= left and u.id not in promotions.values():
                recruits.append(u.id)
                left -= u.health
        defaulted = True
    else:
        defaulted = False
    gain = _check_bring_back(army, dead, pairs, recruits, promotions, budget, race, cause, cite)
    events = [TraceEvent(what=f"{cause}: {army_id} gains {gain} health-worth", before=budget, after=gain,
                         rule="bring back up to that many health-worth, by recruiting, promoting or both",
                         cite=cite, defaulted=defaulted)]
    for old_id, new_id in promotions.items():
        old, new = army.unit(old_id), next(u for u in dead if u.id == new_id)
        state = exchange(state, ruleset, army_id, old, new, events)
        events.append(TraceEvent(what=f"{cause}: {old.label} is promoted to {new.label}", before=old.health,
                                 after=new.health, rule="promotion: the exchange of a unit in play with a dead unit "
                                 "of the same race", cite=cite))
    for unit in (u for u in dead if u.id in recruits):
        state = state.take_from("dua", army.player, unit.id)
        state = state.with_army(state.army(army_id).evolve(units=(*state.army(army_id).units, unit)))
        events.append(TraceEvent(what=f"{cause}: {unit.label} returns from the DUA to {army_id}", after=unit.health,
                                 rule="return units from your DUA to the army", cite=cite, defaulted=defaulted))
    return state, events


def pairs_gain(pairs: list[tuple[Unit, Unit]], promotions: Mapping[str, str]) -> list[int]:
    return [n.health - o.health for o, n in pairs if promotions.get(o.id) == n.id]


def _check_bring_back(army: Army, dead: list[Unit], pairs: list[tuple[Unit, Unit]], recruits: Sequence[str],
                      promotions: Mapping[str, str], budget: int, race: str | None, cause: str, cite: str) -> int:
    ids = {u.id for u in dead}
    kind = f"{race} " if race else ""
    for r in recruits:
        if r not in ids:
            raise StepError(f"{cause}: {r} is not a dead {kind}unit of {army.player}'s (dead {kind}units: "
                            f"{', '.join(sorted(ids)) or 'none'})", cite=cite, field="initial")
    legal = {(o.id, n.id) for o, n in pairs}
    for pair in promotions.items():
        if pair not in legal:
            listing = ", ".join(f"{o} -> {n}" for o, n in sorted(legal)[:MAX_LISTED]) or "none"
            raise StepError(f"{cause}: {pair[0]} cannot be promoted to {pair[1]}; legal promotions: {listing}",
                            cite=cite, field="initial")
    taken = [*recruits, *promotions.values()]
    if len(set(taken)) != len(taken):
        raise StepError(f"{cause}: a dead unit is taken twice ({taken}): the same unit cannot be recruited then "
                        "promoted", cite=cite, field="initial")
    gain = sum(u.health for u in dead if u.id in recruits) + sum(pairs_gain(pairs, promotions))
    if gain > budget:
        raise StepError(f"{cause}: {gain} health-worth is brought back, more than the {budget} allowed",
                        cite=cite, field="initial")
    return gain


def replant(state: GameState, ruleset: Ruleset, army_id: str, give: Sequence[str], take: Sequence[str],
            cite: str) -> tuple[GameState, list[TraceEvent]]:
    """002 Replanting: "Treefolk may, when at any terrain during a march, after the maneuver attempt but before
    any action, exchange any number of Treefolk units in that army for an equal health value of Treefolk units
    from your dead unit area"; one exchange effect, so the units given cannot come back in it."""
    army = state.army(army_id)
    dead = state.area("dua", army.player).units
    ours = [army.unit(i) for i in give]
    theirs = [next((u for u in dead if u.id == i), None) for i in take]
    wrong = [i for i, u in [*zip(give, ours), *zip(take, theirs)] if u is None or u.race != "treefolk"]
    if army.at == "reserve" or wrong or len(set(give)) != len(give) or len(set(take)) != len(take):
        raise StepError(f"Replanting exchanges Treefolk units of an army at a terrain for Treefolk units of the DUA: "
                        f"{', '.join(wrong) or army_id} cannot be exchanged (army: "
                        f"{', '.join(u.id for u in army.units if u.race == 'treefolk') or 'none'}; DUA: "
                        f"{', '.join(u.id for u in dead if u.race == 'treefolk') or 'none'})", cite=cite,
                        field="replant")
    for unit_id in give:
        # 002 Hide: "the target unit ... 3) cannot be affected ... by any racial ability"; Camouflage: "only melee
        # effects can affect the target unit" (engine.protection: the "racial" source)
        spell = shield(state, ruleset, unit_id, "racial")
        if spell is not None:
            raise StepError(f"{unit_id} is under {spell.spell}: no racial ability can affect it (Replanting cannot "
                            "exchange it)", cite=ruleset.spell_sections.get(spell.spell, cite), field="replant")
    given, taken = sum(u.health for u in ours), sum(u.health for u in theirs)
    if given != taken:
        raise StepError(f"Replanting exchanges an equal health value: {given} health given for {taken} taken",
                        cite=cite, field="replant")
    events: list[TraceEvent] = []
    state = state.take_from("dua", army.player, *take).add_to("dua", army.player, tuple(ours))
    state = state.with_army(army.evolve(units=(*(u for u in army.units if u.id not in give), *theirs)))
    out = StepResult(kind="exchange")
    for unit_id in give:
        state = unit_gone(state, unit_id, "exchanged", ruleset, out)
    events += out.trace
    events.append(TraceEvent(what=f"Replanting: {', '.join(give)} exchanged for {', '.join(take)}", before=given,
                             after=taken, rule="exchange any number of Treefolk units in that army for an equal "
                             "health value of Treefolk units from your dead unit area", cite=cite))
    return state, events
