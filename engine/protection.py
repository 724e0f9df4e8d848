"""Units a spell hides or shields: they make no rolls, cannot be targeted, cannot be taken as losses.

002 Hide ("makes no rolls, cannot be the target of a melee, missile, magic, or
dragon effect ... cannot be taken as a loss to account for damage"), Fade
("cannot roll during a melee or missile action ... cannot be the target of a
missile, melee, or dragon effect or be taken as a casualty for this damage")
and Camouflage ("only melee effects can affect the target unit and only melee
damage can kill a camouflaged unit"). What each spell shields against is data:
``Ruleset.spell_protections``.
"""

from __future__ import annotations

from .kings_die import check_rolls, is_kings_die
from .rolled import Roll
from .ruleset import Ruleset
from .state import Army, Effect, GameState
from .steps import StepResult
from .trace import StepError, TraceEvent, reading

# the kinds of roll made in a melee or missile action, or against a dragon attack (engine.sais vocabulary;
# Fade: "cannot roll during a melee or missile action or during a dragon attack")
COMBAT_ROLLS = ("melee", "missile", "save-melee", "save-missile", "dragon", "dragon-save")
DRAGON_ROLLS = ("dragon", "dragon-save")


def shield(state: GameState, ruleset: Ruleset, unit_id: str, source: str) -> Effect | None:
    """The spell that keeps ``source`` (melee, missile, magic, dragon) from affecting the unit, if any."""
    for e in state.effects_on(unit_id):
        p = ruleset.spell_protections.get(e.spell)
        if p is not None and ("any" in p.immune or source in p.immune):
            return e
    return None


def army_shield(state: GameState, ruleset: Ruleset, army: Army, source: str) -> Effect | None:
    """The effect keeping ``source`` (missile, or enemy magic) from targeting the army (002 Illusion)."""
    return next((e for e in state.effects_on(army.id) if source in ruleset.army_shields.get(e.spell, ())
                 and e.by == army.player), None)


def veil_passed(state: GameState, ruleset: Ruleset, armies: list[Army], caster: str, names: str, aimed: str,
                out: StepResult) -> None:
    """Illusion shields "this army": read as the army itself, so enemy magic aimed at its terrain or its units still
    reaches it (said where such a spell reaches an army under it)."""
    for army in armies:
        veil = army_shield(state, ruleset, army, "magic") if army.player != caster else None
        if veil is not None:
            spell_target = ruleset.cite("spell-target")
            out.trace.append(reading(f"{army.id} is under {veil.spell}, which names the army: {names}, aimed at "
                                     f"{aimed}, still reaches it", ruleset.spell_sections.get(veil.spell, spell_target),
                                     spell_target))


def exposed(state: GameState, ruleset: Ruleset, army: Army, source: str, out: StepResult) -> Army:
    """The army as ``source`` damage sees it: shielded units cannot be taken as losses, nor magical items
    (002 Magical Items: "they cannot be discarded to account for damage")."""
    kings = [u.id for u in army.units if is_kings_die(u, ruleset)]
    if kings:       # 002 Kings' Die: it "cannot be taken as a casualty"
        out.trace.append(TraceEvent(what=f"{', '.join(kings)}: the Kings' Die cannot be taken as a loss",
                                    rule="the Kings' Die cannot be attacked or targeted in any way and cannot be "
                                         "taken as a casualty", cite=ruleset.cite("kings-die")))
        army = army.without(*kings)
    kept = [(u, shield(state, ruleset, u.id, source)) for u in army.units if not u.item]
    shielded = [(u, e) for u, e in kept if e is not None]
    for u, e in shielded:
        out.trace.append(TraceEvent(what=f"{u.label} cannot be taken as a loss for {source} damage ({e.spell})",
                                    rule="the spell keeps the unit from being taken as a casualty",
                                    cite=ruleset.spell_sections.get(e.spell, ruleset.cite("spell-effect"))))
    items = [u.id for u in army.units if u.item]
    if items:
        out.trace.append(TraceEvent(what=f"{', '.join(items)}: magical items cannot be taken as losses",
                                    rule="magical items cannot be discarded to account for damage on the army",
                                    cite=ruleset.cite("magic-items")))
    return army.evolve(units=tuple(u for u, e in kept if e is None)) if shielded or items or kings else army


def check_named(state: GameState, ruleset: Ruleset, army: Army, exposed_army: Army, named: list[str] | None,
                source: str) -> None:
    """A unit named as a casualty that ``exposed`` kept out of the losses is refused with the rule that keeps it
    (Fade: "cannot ... be taken as a casualty for this damage"; the Kings' Die; a magical item), not as a unit the
    army does not have."""
    for unit_id in named or ():
        unit = army.unit(unit_id)
        if unit is None or exposed_army.unit(unit_id) is not None:
            continue
        e = shield(state, ruleset, unit_id, source)
        if is_kings_die(unit, ruleset):
            why, cite = "the Kings' Die cannot be taken as a casualty", ruleset.cite("kings-die")
        elif unit.item:
            why, cite = ("it is a magical item, and magical items cannot be discarded to account for damage on the "
                         "army", ruleset.cite("magic-items"))
        elif e is not None:
            why = f"{e.spell} is on it, and it cannot be taken as a casualty for {source} damage"
            cite = ruleset.spell_sections.get(e.spell, ruleset.cite("spell-effect"))
        else:
            continue
        raise StepError(f"casualties [{unit_id}] are not units of army {army.id} that this damage can take: {why}",
                        cite=cite, field="casualties")


def check_rollers(state: GameState, ruleset: Ruleset, dice: Roll, kind: str, who=None) -> None:
    """A unit a spell keeps from rolling must not appear in a per-unit roll, nor a Kings' Die. An army's aggregate
    roll showing any result while every unit of ``who`` is held is refused too (004 Entangle B: "If an entire army
    is paralyzed, the army cannot make any rolls (maneuvers, actions, saves)"): no unit of it could have rolled it."""
    check_rolls(state, ruleset, dice)
    if who is not None and not dice.units and any(n > 0 for _, n in dice.counts):
        units = [u for u in who.units if not u.item]
        holds = [held(state, ruleset, u.id, kind) for u in units]
        if units and all(e is not None for e in holds):
            e = holds[0]
            raise StepError(f"every unit of {who.id} makes no rolls while {e.spell} is on it ("
                            f"{', '.join(u.id for u in units)}): the army cannot make any rolls; leave the roll "
                            "empty", cite=ruleset.spell_sections.get(e.spell, ruleset.cite("spell-effect")),
                            field="roll")
    for unit_id, _ in dice.units:
        e = held(state, ruleset, unit_id, kind)
        if e is not None:
            # Fade: "cannot roll during a melee or missile action or during a dragon attack": the part of it
            # the refused roll is in
            when = "makes no rolls" if ruleset.spell_protections[e.spell].no_rolls == "any" else \
                "cannot roll during a dragon attack" if kind in DRAGON_ROLLS else \
                "cannot roll during a melee or missile action"
            raise StepError(f"{unit_id} {when} while {e.spell} is on it: leave it out of the roll",
                            cite=ruleset.spell_sections.get(e.spell, ruleset.cite("spell-effect")), field="roll")


def held(state: GameState, ruleset: Ruleset, unit_id: str, kind: str) -> Effect | None:
    """The effect that keeps ``unit_id`` from rolling in a ``kind`` roll (Entangle, Web, Sleep: "cannot make any
    further rolls"; a spell that forbids combat rolls in a melee or missile action), or None."""
    for e in state.effects_on(unit_id):
        p = ruleset.spell_protections.get(e.spell)
        if p is not None and (p.no_rolls == "any" or (p.no_rolls == "combat" and kind in COMBAT_ROLLS)):
            return e
    return None


def burial_barred(state: GameState, player: str, unit, ruleset: Ruleset) -> Effect | None:
    """The spell on ``player``'s DUA that keeps ``unit`` from being buried, if any: 002 Honor the Dead, "only dead
    units with the black (death) aspect in the target DUA can be buried" -- whatever buries them (a burial spell,
    Spirit Furnace's "All dead units are immediately buried", Exhume, a Temple, Soiled Ground, a breath's or an SAI's
    "killed and buried": 002 Glossary, Killed and Buried: "a two-step process ... to allow the unit to apply ... spell
    affects (Honor the Dead), before burying the unit")."""
    for e in state.effects_on(player):
        aspect = ruleset.burial_limits.get(e.spell)
        if aspect is not None and aspect not in ruleset.race_colors.get(unit.race, ()):
            return e
    return None


def burial_barred_event(e: Effect, units, ruleset: Ruleset, why: str) -> TraceEvent:
    """The trace line for dead units a DUA spell keeps from a burial (``why``: what would have buried them)."""
    aspect = ruleset.burial_limits[e.spell]
    return TraceEvent(what=f"{', '.join(u.label for u in units)} not buried by {why}: {e.spell} is on "
                           f"{e.target}'s DUA", rule=f"only dead units with the {aspect} aspect in the target DUA "
                      "can be buried", cite=ruleset.spell_sections.get(e.spell, ruleset.cite("spell-effect")))
