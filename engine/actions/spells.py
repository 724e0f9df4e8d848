"""Immediate spells as changes to the game state: damage, resurrection, burial, negation.

002 Spell Attributes and each spell's description. What a spell does is data
(``Ruleset.spell_effects``); this module carries out each kind of effect:

- damage on an army (an army save roll), on each army at a terrain, or on a
  unit (its own save roll, no save, or "save or be killed"). Identical damage
  spells at one target are one effect with one save roll; a unit is never
  "wounded" across magic actions (002 Spell Attributes > Effect);
- resurrection and burial by health-worth, where different spells with the
  identical effect combine on one dead unit;
- negation of a spell in play by the points of the blasts aimed at it;
- moves (Path, Call of the Wild) and flights to the reserve area (Mirage, Scent of Fear, Fearful Flames);
- terrain reduction avoided by maneuvers (Flash Flood; Tidal Wave and Volcanic Eruption with their damage);
- the magic action's own maneuver (Night Moves) and melee (Haunt), and Exhume.

What acts on the summoning pool, dragonkin, magical items and the Eldarim is in ``actions.summons``.
"""

from __future__ import annotations

from ..names import typed
from ..damage import choose, kill
from ..faces import turn_to
from ..moves import bound, flee, haunt_army, held, moved_army_at, owner, reserve_army, transfer
from ..protection import burial_barred, burial_barred_event, exposed, shield, veil_passed
from ..roll import Outcome, Roll
from ..ruleset import Ruleset, SpellEffect
from ..sais import COMBINATION_READS, SAVE_AND_MANEUVER
from ..state import RESERVE, Army, Effect, GameState, Unit
from ..steps import Cast, StepResult
from ..trace import NOT_APPLIED, READING, StepError, TraceEvent, reading
from . import cantrip, joined_rolls, joined_trumpet, sai_endings, sai_states, summons
from .common import casualties_destination, roll, save_only, save_only_effect, take_damage
from .magic_rolls import Rolls
from .maneuver import maneuver
from .own_roll import unit_roll
from .sai_choices import special_choices

DAMAGE = ("army-damage", "terrain-damage", "unit-damage")
# the kinds of spell that bring the caster's dead units back into play (resurrection magic)
RESURRECTION = ("resurrect", "rise")


def group_key(c: Cast, ruleset: Ruleset) -> tuple[str, str]:
    """Castings resolved together: the same damage spell at one target, or one effect at one target."""
    effect = ruleset.spell_effects[c.spell.id]
    return (c.spell.id if effect.kind in DAMAGE else effect.kind, c.target)


def resolve(state: GameState, who: Army, casts: list[Cast], ruleset: Ruleset, rolls: Rolls,
            casualties: dict[str, list[str]], fleeing: dict[str, list[str]], out: StepResult) -> GameState:
    """One group of castings (see ``group_key``) takes effect."""
    effect = ruleset.spell_effects[casts[0].spell.id]
    cite = ruleset.spell_sections[casts[0].spell.id]
    names = " + ".join(f"{c.spell.name} x{c.count}" for c in casts)
    amount = sum(c.count for c in casts) * effect.points
    target = casts[0].target
    if _target_gone(state, casts[0], names, ruleset, out):
        return state
    if effect.kind == "army-damage":
        return _army_damage(state, state.army(target), amount, effect, names, cite, ruleset, rolls, casualties,
                            out)[0]
    if effect.kind == "terrain-damage":
        best = 0
        here = [a for a in state.armies if a.at == target and a.units]
        veil_passed(state, ruleset, here, who.player, names, f"its terrain {target}", out)
        for army in here:
            # the armies at the terrain roll at the same time: a simultaneous roll (002 SAI Resolution)
            state, maneuvers = _army_damage(state, state.army(army.id), amount, effect, names, cite, ruleset, rolls,
                                            casualties, out, simultaneous=len(here) > 1)
            best = max(best, maneuvers)
        return _reduce_unless(state, target, best, effect.reduce_unless, names, cite, ruleset, out) \
            if effect.reduce_unless else state
    if effect.kind == "unit-damage":
        veil_passed(state, ruleset, [owner(state, target)], who.player, names, f"its unit {target}", out)
        castings = sum(c.count for c in casts)
        if castings > 1 and effect.save == "or-killed" and ruleset.castings_at_one_unit:
            return _each_casting(state, target, castings, effect, names, cite, ruleset, rolls, out)
        return _unit_damage(state, target, amount, effect, names, cite, ruleset, rolls, out)
    if effect.kind in ("resurrect", "bury"):
        return _raise_or_bury(state, who, target, amount, effect, names, cite, ruleset, out, rolls,
                              {c.color or c.spell.color for c in casts})
    if effect.kind == "move":
        return _move(state, casts[0], cite, ruleset, out)
    if effect.kind == "summon-dragon":
        for c in casts:
            state = summons.summon(state, who, c, effect, cite, ruleset, out)
        return state
    if effect.kind in ("bury-item", "carry"):
        return summons.item(state, casts[0], effect, names, cite, ruleset, out)
    if effect.kind == "maneuver":
        return _maneuver(state, casts[0], cite, ruleset, out)
    if effect.kind == "reform":
        return summons.reform(state, who, casts[0], effect, names, cite, ruleset, out)
    if effect.kind == "haunt":
        return _haunt(state, who, casts[0], names, cite, ruleset, out)
    if effect.kind == "exhume":
        return _exhume(state, who, casts[0], effect, amount, names, cite, ruleset, rolls, out)
    if effect.kind == "demote-kin":
        return summons.demote_kin(state, who, casts[0], effect, names, cite, ruleset, rolls, out)
    if effect.kind == "rise":
        return summons.rise(state, who, casts[0], effect, amount, names, cite, ruleset, out)
    if effect.kind == "promote-kin":
        return summons.promote_kin(state, casts[0], amount, cite, ruleset, out)
    if effect.kind == "summon-kin":
        return summons.summon_kin(state, who, casts[0], amount, names, cite, ruleset, out)
    if effect.kind == "restore":
        return summons.restore(state, who, target, amount, names, cite, ruleset, out)
    if effect.kind == "recall":
        return _recall(state, who, target, names, cite, ruleset, out)
    if effect.kind == "terrain-flee":
        if effect.chosen:
            return _terrain_flee(state, *_chosen(state, casts[0], effect.points, names, cite), names, cite,
                                 ruleset, rolls, out)
        return _terrain_flee(state, target, None, names, cite, ruleset, rolls, out)
    if effect.kind == "army-flee":
        return _army_flee(state, state.army(target), amount, names, cite, ruleset, fleeing, out)
    if effect.kind == "terrain-reduction":
        return _reduce(state, target, effect.points, names, cite, ruleset, rolls, out,
                       who.player if effect.opposing_only else None, casts[0].spell.id if effect.once_per_turn else None)
    return _negate(state, target, casts, amount, names, cite, ruleset, out)


def _reduce(state: GameState, terrain_id: str, needed: int, names: str, cite: str, ruleset: Ruleset,
            rolls: Rolls, out: StepResult, caster: str | None = None, once: str | None = None) -> GameState:
    """Each army at the terrain (each opposing the ``caster`` player, when given) may roll to avoid it; the
    terrain turns down one face unless one succeeds. ``once``: the spell that may reduce one terrain only one step
    in a player's turn (sfr-v4 Flash Flood), recorded in ``GameState.flooded``."""
    best = 0
    for army in [a for a in state.armies if a.at == terrain_id and a.units and a.player != caster]:
        if not rolls.has(army.id):
            out.trace.append(TraceEvent(what=f"{army.id} makes no avoidance roll against {names}", after=0,
                                        rule=ruleset.quote("terrain-reduction-roll", "each army at the target "
                                                           "terrain may make a maneuver avoidance roll")
                                        + "; the scenario gives none for this one", cite=cite, defaulted=True))
            continue
        dice = rolls.take(army.id, f"maneuvers to avoid {names}", cite)
        rolled = roll(state, ruleset, army, "avoid-maneuver", ("maneuver",), dice, out).results.get("maneuver", 0)
        best = max(best, rolled)
    if once is not None and (once, terrain_id) in state.flooded:
        face = state.terrain(terrain_id).face
        out.trace.append(TraceEvent(what=f"{names}: {terrain_id} is not reduced: {once} has reduced it one step "
                                         "this turn already", before=face, after=face,
                                    rule="a terrain may never be reduced by more than one step during a player's "
                                         "turn from the effects of this spell", cite=cite))
        return state
    before = state.terrain(terrain_id).face
    state = _reduce_unless(state, terrain_id, best, needed, names, cite, ruleset, out)
    if once is not None and state.terrain(terrain_id).face < before:
        state = state.evolve(flooded=(*state.flooded, (once, terrain_id)))
    return state


def _reduce_unless(state: GameState, terrain_id: str, best: int, needed: int, names: str, cite: str,
                   ruleset: Ruleset, out: StepResult) -> GameState:
    """The terrain turns down one face unless the best maneuver roll made ``needed``."""
    terrain = state.terrain(terrain_id)
    if best >= needed or terrain.face == 1:
        why = f"an army rolled {best} >= {needed} maneuvers" if best >= needed else "it shows its first face"
        out.trace.append(TraceEvent(what=f"{names}: {terrain_id} is not reduced: {why}", before=terrain.face,
                                    after=terrain.face, rule=f"reduce the terrain unless an army generates at "
                                    f"least {needed} maneuver results", cite=cite))
        return state
    out.trace.append(TraceEvent(what=f"{names}: no army rolled {needed} maneuvers ({best} at most): {terrain_id} "
                                     "is reduced one face", before=terrain.face, after=terrain.face - 1,
                                rule=f"reduce the terrain one face if no army generates at least {needed} "
                                     "maneuver results", cite=cite))
    return turn_to(state, terrain_id, terrain.face - 1, ruleset, out)   # control leaves with the eighth face


def _move(state: GameState, c: Cast, cite: str, ruleset: Ruleset, out: StepResult) -> GameState:
    """The unit leaves its army for another of its player's armies at another terrain.

    Spells on the unit go with it; spells on the army it left stay there, and expire if no unit is
    left in it (002 Spell Attributes > Duration).
    """
    source = owner(state, c.target)
    dest = state.army(c.to) if c.to is not None and state.has_army(c.to) else None
    effect = ruleset.spell_effects[c.spell.id]
    if (effect.to_army_only and dest is None and c.to is not None and c.to != source.at
            and any(t.id == c.to for t in state.terrains)
            and not any(a.player == source.player and a.at == c.to for a in state.armies)):
        # 001 Path: "Move the target to any other terrain where you have an army" (not 000/002's new army there)
        mine = [a.id for a in state.armies if a.player == source.player and a.at not in (RESERVE, source.at)]
        raise StepError(f"{c.spell.name} moves {c.target} only to another terrain where {source.player} has an army, "
                        f"and {source.player} has none at {c.to}: name one of {', '.join(mine) or 'none'}",
                        cite=cite, field="cast")
    if dest is None and c.to is not None and any(t.id == c.to for t in state.terrains) and c.to != source.at:
        # "move the target unit to any other terrain" (002 Path): named by its terrain, the unit joins its player's
        # army there, or forms a new one, <player>-<terrain> (000 Path: "If the unit(s) move to another terrain
        # where there are no friendly units, they form a new army"; 002 Army: "All of your units at a single
        # terrain")
        state, dest = moved_army_at(state, source.player, c.to, ruleset, out)
    if source.at == RESERVE:
        raise StepError(f"{c.spell.name} targets a unit at a terrain; {c.target} is in the reserve area",
                        cite=cite, field="cast")
    if bound(source.unit(c.target), ruleset):
        raise StepError(f"{c.spell.name} cannot move {c.target}: dragonkin cannot leave the terrain where they are "
                        "summoned", cite=ruleset.cite("dragonkin"), field="cast")
    if (effect := held(state, c.target, ruleset)) is not None:
        # sfr-v4 Sleep: "cannot be rolled or leave the terrain they currently occupy"
        raise StepError(f"{c.spell.name} cannot move {c.target}: it cannot leave {source.at} while {effect.spell} is "
                        "on it", cite=ruleset.sai_sections.get(effect.spell, cite), field="cast")
    if dest is None or dest.player != source.player or dest.at in (RESERVE, source.at):
        raise StepError(f"{c.spell.name} moves {c.target} to another terrain: name, with to:, that terrain (or the "
                        f"army of {source.player}'s it joins there)", cite=cite, field="cast")
    out.moved.append(c.target)
    return transfer(state, c.target, source, dest, c.spell.name, cite, ruleset, out)


def _maneuver(state: GameState, c: Cast, cite: str, ruleset: Ruleset, out: StepResult) -> GameState:
    """Night Moves: the target army attempts to maneuver its terrain, as a maneuver step would."""
    if c.maneuver is None:
        raise StepError(f"{c.spell.name} makes {c.target} attempt a maneuver: give it with the cast (maneuver: "
                        "{direction, roll, counter})", cite=cite, field="cast")
    out.trace.append(TraceEvent(what=f"{c.spell.name}: {c.target} attempts to maneuver {state.army(c.target).at}",
                                rule="the army immediately attempts to maneuver the terrain; opponents may "
                                     "counter-maneuver as usual", cite=cite))
    state, moved = maneuver(state, c.maneuver, ruleset)
    out.trace.extend(moved.trace)
    out.results.update(moved.results)
    out.maneuver = moved.maneuver
    return state


def _haunt(state: GameState, who: Army, c: Cast, names: str, cite: str, ruleset: Ruleset,
           out: StepResult) -> GameState:
    """Haunt: the caster's dead form an army at the target's terrain and make a melee action against it; the
    dead it loses are buried and the rest return to the DUA."""
    from .combat import melee      # a melee action inside a magic action

    if c.melee is None:
        raise StepError(f"{c.spell.name} makes the dead take a melee action: give it with the cast (melee: "
                        "{target, roll, saves, ...})", cite=cite, field="cast")
    area = state.area("dua", who.player)
    target = state.army(c.melee.target) if state.has_army(c.melee.target) else None
    if not area.units or target is None or target.player == who.player:
        raise StepError(f"{c.spell.name} needs dead units and an enemy army to attack", cite=cite, field="cast")
    dead = Army(id=haunt_army(who.player), player=who.player, at=target.at, units=area.units)
    state = state.with_area("dua", area.evolve(units=())).evolve(armies=(*state.armies, dead))
    # "All dead units form into a magically constructed army that immediately takes a melee action against any
    # enemy army": read as standing at the target's terrain, with no terrain icon needed (002 Melee)
    out.trace.append(reading(f"{c.spell.name}: {len(dead.units)} dead unit(s) form {dead.id} and attack {target.id} at "
                             f"{target.at}: the dead stand at the target's terrain, and a melee a spell makes needs no "
                             "terrain icon", cite, ruleset.cite("melee")).evolve(after=dead.health))
    buried = {u.id for u in state.area("bua", who.player).units}
    state, fought = melee(state, c.melee, ruleset, by_spell=True)
    for key in ("results", "damage"):
        getattr(out, key).update(getattr(fought, key))
    out.trace.extend(fought.trace)
    out.killed.extend(fought.killed)
    out.moved.extend(fought.moved)      # units an SAI or a Cantrip's spell moved during the melee
    out.fled.extend(fought.fled)
    fallen = [u for u in state.area("bua", who.player).units if u.id not in buried and u.id in fought.killed]
    return _haunt_resolved(state, who.player, dead, fallen, c.spell.name, cite, ruleset, out)


def _haunt_resolved(state: GameState, player: str, dead: Army, fallen: list[Unit], name: str, cite: str,
                    ruleset: Ruleset, out: StepResult) -> GameState:
    """Haunt is resolved once its melee is: 002 Glossary, Magically Constructed Army: "any 'killed' units from this
    army go to the BUA" (engine.damage.kill buried them as they fell); "The units in the magically constructed army
    are either buried or returned to the DUA (even if they somehow left this army and were moved to another
    place)"; "It conducts a melee attack and disappears"."""
    glossary = ruleset.cite("haunt-army")
    formed = {u.id for u in dead.units}
    army = state.army(dead.id)
    joined = [u for u in (*army.units, *fallen) if u.id not in formed]
    if joined:
        out.trace.append(reading(f"{name}: {', '.join(u.id for u in joined)}, killed from another of {player}'s "
                                 f"armies during the spell, did not go to the DUA: as dead units they were part of "
                                 f"{dead.id}, buried if killed from it, else returned to the DUA with it", glossary,
                                 cite))
    away = [(a, u) for a in state.armies if a.id != dead.id for u in a.units if u.id in formed]
    for home, unit in away:
        state = state.with_army(state.army(home.id).without(unit.id))
        out.trace.append(TraceEvent(what=f"{name}: {unit.label} left {dead.id} for {home.id}: it returns to the DUA",
                                    rule="the units in the magically constructed army are either buried or returned "
                                         "to the DUA (even if they somehow left this army and were moved to another "
                                         "place)", cite=glossary))
    back = (*army.units, *(u for _, u in away))
    state = state.add_to("dua", player, back)
    state = state.evolve(armies=tuple(a for a in state.armies if a.id != dead.id))
    out.buried.extend(u.id for u in fallen)
    out.trace.append(TraceEvent(what=f"{name}: {len(fallen)} of the dead killed are buried, {len(back)} "
                                     "return to the DUA", rule="bury any of your units killed during this melee "
                                "action and return the rest to your DUA", cite=cite))
    return state


def _exhume(state: GameState, who: Army, c: Cast, effect: SpellEffect, worth: int, names: str, cite: str,
            ruleset: Ruleset, rolls: Rolls, out: StepResult) -> GameState:
    """Exhume: each chosen dead unit saves or is buried; then up to as many of the caster's dead Undead as the
    health buried join the casting army (the scenario's ``rise``, else as many as may, largest first: the
    owner's choice, defaulted)."""
    area = state.area("dua", c.target)
    chosen = [u for u in area.units if u.id in c.units]
    unknown = [i for i in c.units if i not in {u.id for u in chosen}]
    if unknown or not chosen:
        raise StepError(f"{c.spell.name} chooses dead units of {c.target}'s DUA with units: "
                        f"{', '.join(unknown) or 'none given'} are not there", cite=cite, field="cast")
    if sum(u.health for u in chosen) > worth:
        raise StepError(f"{names} chooses up to {worth} health-worth of dead units; {', '.join(c.units)} are "
                        f"{sum(u.health for u in chosen)}", cite=cite, field="cast")
    buried = 0
    for unit in chosen:
        # 002 Honor the Dead: "only dead units with the black (death) aspect in the target DUA can be buried": a
        # chosen unit it protects cannot be buried, so its roll (if given) decides nothing
        if (barred := burial_barred(state, c.target, unit, ruleset)) is not None:
            if rolls.has(unit.id):
                rolls.take(unit.id, f"a save against {names}", cite)
            out.trace.append(burial_barred_event(barred, (unit,), ruleset, names))
            continue
        alone = Army(id=f"{c.target}-dua", player=c.target, at=RESERVE, units=(unit,))
        saves = roll(state, ruleset, alone, "avoid-save", ("save",), rolls.take(unit.id, f"a save against {names}",
                                                                                  cite), out, unit=unit.id)
        if saves.results.get("save", 0):
            out.trace.append(TraceEvent(what=f"{names}: {unit.label} saves and stays in the DUA", rule="the chosen "
                                        "dead units must immediately roll a save or be buried", cite=cite))
            continue
        state = state.take_from("dua", c.target, unit.id).add_to("bua", c.target, (unit,))
        out.buried.append(unit.id)
        buried += unit.health
        out.trace.append(TraceEvent(what=f"{names}: {unit.label} rolls no save and is buried", rule="the chosen "
                                    "dead units must immediately roll a save or be buried", cite=cite))
    return _exhumed_rise(state, who, c, effect, buried, names, cite, out)


def _exhumed_rise(state: GameState, who: Army, c: Cast, effect: SpellEffect, buried: int, names: str, cite: str,
                  out: StepResult) -> GameState:
    own = state.area("dua", who.player)
    mine = [u for u in own.units if u.race == effect.race]
    if c.rise is None:
        rising = sorted(mine, key=lambda u: -u.health)[:buried]
    else:
        rising = [u for u in mine if u.id in c.rise]
        if len(rising) != len(c.rise) or len(rising) > buried:
            raise StepError(f"{names}: up to {buried} {effect.race} unit(s) of {who.player}'s DUA may join "
                            f"(one per health buried); rise names {', '.join(c.rise)}", cite=cite, field="cast")
    state = state.with_area("dua", own.evolve(units=tuple(u for u in own.units if u not in rising)))
    state = state.with_army(state.army(who.id).evolve(units=(*state.army(who.id).units, *rising)))
    out.moved.extend(u.id for u in rising)
    out.trace.append(TraceEvent(what=f"{names}: {len(rising)} {effect.race} unit(s) join {who.id}"
                                     + (f" ({', '.join(u.id for u in rising)})" if rising else ""),
                                before=buried, after=len(rising), rule="a number of Undead units from your DUA, "
                                "up to the total number of health buried, may join the casting army", cite=cite,
                                defaulted=c.rise is None))
    return state


def _recall(state: GameState, who: Army, unit_id: str, names: str, cite: str, ruleset: Ruleset,
            out: StepResult) -> GameState:
    """Call of the Wild: the unit joins the casting army, wherever it was."""
    source = owner(state, unit_id)
    if source.id == who.id:
        raise StepError(f"{unit_id} is in the casting army already", cite=cite, field="cast")
    out.moved.append(unit_id)
    return transfer(state, unit_id, source, state.army(who.id), names, cite, ruleset, out)


def _terrain_flee(state: GameState, terrain_id: str, chosen: list[str] | None, names: str, cite: str,
                  ruleset: Ruleset, rolls: Rolls, out: StepResult) -> GameState:
    """Mirage: each common unit at the terrain (or each unit the caster chose, 001) makes its own save
    avoidance roll, or flees."""
    commons = chosen if chosen is not None else [
        u.id for a in state.armies if a.at == terrain_id for u in a.units
        if u.health == 1 and shield(state, ruleset, u.id, "magic") is None]
    rule = ("the targets make a save roll; those that do not generate a save result are moved to their reserve "
            "area") if chosen is not None else ("each 1-health (common) unit at the target terrain must generate a "
                                                "save or immediately flee to its reserve area")
    out.trace.append(TraceEvent(what=f"{names}: {len(commons)} unit(s) at {terrain_id} must save or flee",
                                after=len(commons), rule=rule, cite=cite))
    for unit_id in commons:
        state, stays = _saves_or_flees(state, unit_id, names, cite, ruleset, rolls, out)
        if not stays:
            state = flee(state, unit_id, names, cite, ruleset, out)
    return state


def _chosen(state: GameState, c: Cast, worth: int, names: str, cite: str) -> tuple[str, list[str]]:
    """The target unit and those named with it (``units:``), all at its terrain, at most ``worth`` health-worth
    per casting (001 Mirage: "Target five health-worth of units at any terrain"); returns the terrain and them."""
    home = owner(state, c.target)
    here = {u.id: u for a in state.armies if a.at == home.at for u in a.units}
    ids = list(dict.fromkeys((c.target, *c.units)))
    wrong = [i for i in ids if i not in here]
    if wrong or sum(here[i].health for i in ids) > worth * c.count:
        raise StepError(f"{names} targets up to {worth * c.count} health-worth of units at one terrain ({home.at}: "
                        f"{', '.join(here)}), the target and those named with units:", cite=cite, field="cast")
    return home.at, ids


def _saves_or_flees(state: GameState, unit_id: str, names: str, cite: str, ruleset: Ruleset, rolls: Rolls,
                    out: StepResult) -> tuple[GameState, bool]:
    """The unit's save avoidance roll (002 Avoidance Rolls), its own roll (engine.actions.own_roll): the state and
    whether it generates a save."""
    dice = rolls.take(unit_id, f"a save to avoid fleeing from {names}", cite)
    # its second save is a save avoidance roll too: its Cantrip buys as in its first (``own_cantrip``)
    state = own_cantrip(state, ruleset, unit_id, dice, rolls, out, names)
    if not any(a.unit(unit_id) for a in state.armies):
        out.trace.append(TraceEvent(what=f"{unit_id} is no longer in play: it does not flee", rule="the unit must "
                                    "generate a save or flee to the reserve area", cite=cite))
        return state, True
    state, rolled = unit_roll(state, ruleset, owner(state, unit_id), unit_id, "avoid-save", ("save",), dice, out,
                              rolls.sais.pop(unit_id, None))
    saves = rolled.results.get("save", 0)
    out.trace.append(TraceEvent(what=f"{unit_id}: {saves} save(s): {'stays' if saves else 'flees'}", after=saves,
                                rule="the unit must generate a save or flee to the reserve area", cite=cite))
    return state, saves > 0


def _army_flee(state: GameState, army: Army, worth: int, names: str, cite: str, ruleset: Ruleset,
               fleeing: dict[str, list[str]], out: StepResult) -> GameState:
    """Scent of Fear: the army's owner chooses which units make up the health-worth that flees."""
    named = fleeing.pop(army.id, None)
    able = exposed(state, ruleset, army, "magic", out)
    kin = [u.id for u in able.units if bound(u, ruleset) and u.id in (named or ())]
    if kin:
        raise StepError(f"fleeing: {', '.join(kin)} cannot flee: dragonkin cannot leave the terrain where they are "
                        f"summoned; the others may: {', '.join(u.id for u in able.units if not bound(u, ruleset))}",
                        cite=ruleset.cite("dragonkin"), field="fleeing")
    able = able.evolve(units=tuple(u for u in able.units if not bound(u, ruleset)))    # 002 Dragonkin
    ids, event = choose(able, worth, named, cite, field="fleeing")
    out.trace.append(event.evolve(what=f"{names}: {worth} health-worth of {army.id} must flee: "
                                       f"{', '.join(ids) or 'no unit can'}"))
    for unit_id in ids:
        state = flee(state, unit_id, names, cite, ruleset, out)
    return state


def _army_damage(state: GameState, army: Army, damage: int, effect: SpellEffect, names: str, cite: str,
                 ruleset: Ruleset, rolls: Rolls, casualties: dict[str, list[str]],
                 out: StepResult, simultaneous: bool = False) -> tuple[GameState, int]:
    """The army saves against the damage; returns the new state and the maneuvers rolled with the saves
    when the spell makes it a save and maneuver combination roll (Tidal Wave)."""
    out.trace.append(TraceEvent(what=f"{names}: {damage} damage to {army.id}", after=damage,
                                rule="identical spells at one target are one effect with one save roll",
                                cite=ruleset.cite("multiplicity")))
    unsaid = ruleset.quotes.get("spell-damage-saves")
    if unsaid and not effect.reduce_unless:     # sfr-v4: the spell's own words name no save roll (its quotes)
        out.trace.append(reading(unsaid, cite, ruleset.sai_sections.get("smite", ruleset.cite("damage"))))
    if effect.save == "commons" and not any(u.health == 1 for u in army.units):
        return state, 0
    combination = bool(effect.reduce_unless)
    what = "saves and maneuvers (one combination roll)" if combination else "saves"
    dice = rolls.take(army.id, f"{what} against {names}", cite)
    state, army, roller, dice, waiting = _army_cantrip(state, ruleset, army, dice, rolls, out, simultaneous)
    target = army
    if effect.save == "commons":
        target = army.evolve(units=tuple(u for u in army.units if u.health == 1))
        roller = roller.evolve(units=tuple(u for u in roller.units if u.health == 1))
        out.trace.append(TraceEvent(what=f"only {army.id}'s 1-health units roll and can be removed",
                                    after=len(target.units), rule="only 1-health (common) units roll for saves, "
                                    "and only 1-health units can be removed", cite=cite))
    if not target.units:
        return state, 0
    if combination:
        state, rolled, target = _combination(state, ruleset, roller, dice, rolls, out, waiting)
    else:
        state, rolled, target = save_roll(state, ruleset, roller, dice, rolls, out, waiting)
    saves = rolled.get("save", 0)
    left = max(0, damage - saves)
    out.trace.append(TraceEvent(what=f"{damage} damage - {saves} saves: {left} damage to {army.id}", before=damage,
                                after=left, rule="each save negates one point of damage", cite=cite))
    # Open Grave and Leaving redirect the casualties of army-targeting effects only (not Firestorm's)
    state = take_damage(state, ruleset, target, left, casualties, out, names, "magic",
                        army_targeting=effect.kind == "army-damage", terrain=effect.kind == "terrain-damage")
    return state, rolled.get("maneuver", 0)


def _army_cantrip(state: GameState, ruleset: Ruleset, army: Army, dice: Roll, rolls: Rolls, out: StepResult,
                  simultaneous: bool = False) -> tuple[GameState, Army, Army, Roll, tuple[list, bool] | None]:
    """The army's Cantrip in its save roll against a spell, spent before the saves count: 002 SAI List, Cantrip:
    "During any non-magic action, save roll or non-maneuver avoidance roll, Cantrip can be used to purchase spells
    that are immediately resolved" (the step's ``cantrip.<army>``). Every army save against a spell goes through it
    (``_army_damage``, ``save_roll_with_cantrip``: Backlash). Returns the state, the army now, the army that rolls
    (with the units simultaneous magic killed), the roll of the units still in it and, where a unit a Regenerate
    may bring into the roll rolls a Cantrip, the army's own points waiting for it (``_joined``)."""
    # the units an earlier spell of simultaneous magic killed roll too (``_with_fallen``)
    cantrip.members(dice, army.evolve(units=(*army.units, *_fallen(army.id, ruleset, rolls))), "avoidance")
    waiting = (cantrip.points(army, dice, ruleset), simultaneous) \
        if cantrip.may_join(state, army, rolls.sais.get(army.id)) else None
    if waiting is None:
        state = cantrip.use(state, army, dice, rolls.buys, simultaneous, ruleset, out)
    army = state.army(army.id)
    roller = _with_fallen(army, ruleset, rolls, out)
    return state, army, roller, cantrip.still_rolling(dice, roller, out, ruleset), waiting


def save_roll_with_cantrip(state: GameState, ruleset: Ruleset, army: Army, dice: Roll, rolls: Rolls,
                           out: StepResult) -> tuple[GameState, dict[str, int], Army]:
    """An army's save roll against a spell's damage outside the spell's own resolution (Backlash: "the army must
    save against an amount of damage equal to the combined casting costs"): its Cantrip buys first, as in every
    save roll against a spell (``_army_cantrip``), then ``save_roll``."""
    state, _, roller, dice, waiting = _army_cantrip(state, ruleset, army, dice, rolls, out)
    if not roller.units:
        return state, {"save": 0}, roller
    return save_roll(state, ruleset, roller, dice, rolls, out, waiting)


def own_cantrip(state: GameState, ruleset: Ruleset, unit_id: str, dice: Roll, rolls: Rolls, out: StepResult,
                against: str) -> GameState:
    """A unit's Cantrip in its own roll against a spell aimed at it (its save against the damage, the second save of
    Fearful Flames), spent before the roll goes on: 002 SAI List, Cantrip, "During any non-magic action, save roll or
    non-maneuver avoidance roll, Cantrip can be used to purchase spells that are immediately resolved", and 002
    Avoidance Rolls' example, "The unit does not save, but it does get to spend the Cantrip because this SAI is
    applicable during a save roll". Its purchase is ``cantrip.<unit>`` as in a unit's own roll against an SAI
    (engine.actions.fight ``roll_unit``); ``cantrip.<army>`` is read as the same purchase when no unit entry is
    given (the unit's army makes no other roll in the step's spell). Every unit save against a spell goes through
    it."""
    army = owner(state, unit_id)
    alone = army.evolve(units=tuple(u for u in army.units if u.id == unit_id))
    found = cantrip.points(alone, dice, ruleset)
    key = unit_id if unit_id in rolls.buys or not found or army.id not in rolls.buys else army.id
    if found:
        out.trace.append(TraceEvent(
            what=f"{unit_id} rolls a Cantrip in its own roll against {against}: its points buy spells "
                 f"(cantrip.{key}) before the roll goes on",
            rule=ruleset.quote("cantrip-own-roll", "the unit does not save, but it does get to spend the Cantrip "
                               "because this SAI is applicable during a save roll"),
            cite=ruleset.sai_sections.get(cantrip.CANTRIP, ruleset.cite("sai-resolution"))
            if "cantrip-own-roll" in ruleset.quotes else ruleset.cite("avoidance")))
    elif unit_id not in rolls.buys or rolls.left.get(unit_id):
        return state        # no purchase, or it is for a later roll of the unit (Fearful Flames' second save)
    return cantrip.bought(state, alone, found, rolls.buys, False, ruleset, out, key=key)


def _combination(state: GameState, ruleset: Ruleset, army: Army, dice: Roll, rolls: Rolls, out: StepResult,
                 waiting: tuple[list, bool] | None = None) -> tuple[GameState, dict[str, int], Army]:
    """The army's save and maneuver combination roll (Tidal Wave), its special SAIs resolved before its results
    are applied (002 Avoidance Rolls: "The SAI does not need to be applicable for every result of the combination
    roll, just at least one"; engine.sais.SAVE_AND_MANEUVER): Regenerate and the Medallions bring units back, who
    roll at once and whose saves and maneuvers join the army's (002 Resolution: "rolled immediately and the
    results applied with the results of their army"; they can be taken as casualties); Vanish, Ferry, Teleport and
    Firewalking move units away, whose results (but Vanish's) leave the army's and who escape the damage; Cloak
    adds four magical saves; their Cantrip buys with the army's own (``_joined``, ``waiting``). Returns the
    state, the roll's results and the army that takes the damage."""
    # under a Blue Dragon Breath it "becomes simply and only a save avoidance roll", for the units brought back too
    kind, wanted = save_only(state, ruleset, army, SAVE_AND_MANEUVER, ("save", "maneuver"), out)
    sais = rolls.sais.pop(army.id, None)
    outcome = roll(state, ruleset, army, kind, wanted, dice, out,
                   choices={**(rolls.choices.get(army.id) or {}), **special_choices(sais)})
    if kind == SAVE_AND_MANEUVER:
        _combination_readings(ruleset, outcome, out)
    state, joined = sai_states.joined_returns(state, ruleset, outcome, army, sais, out, kind, wanted)
    state, outcome = _joined(state, ruleset, (army, dice), outcome, joined, waiting, rolls, sais, (kind, wanted), out)
    results = {t: outcome.results.get(t, 0) for t in wanted}   # under the breath, its maneuvers count for nothing
    # the units brought back join the roll (counted with it below, ``through_pipeline``); traced as they join
    running = sum(results.values())
    for unit_id, extra in joined.items():
        running += sum(extra.results.get(t, 0) for t in wanted)
        out.trace.append(TraceEvent(what=f"{unit_id}, brought back during the roll, adds "
                                         + ", ".join(f"{extra.results.get(t, 0)} {t}" for t in wanted)
                                         + f" to {army.id}'s roll", after=running,
                                    rule="components brought into an army by a special SAI during a roll are rolled "
                                         "immediately and their results applied with their army's",
                                    cite=ruleset.cite("sai-resolution")))
    if kind != SAVE_AND_MANEUVER:
        _maneuvers_lost(state, ruleset, army, [outcome, *joined.values()], out)
    # their moves and Cloak act with the army's (their Cantrip has bought with it)
    outcome = joined_rolls.with_joined(outcome, joined, ruleset, kind,
                                       (*joined_rolls.MERGED, *_joining(waiting)))
    state, gone, _ = sai_states.combination_moves(state, ruleset, outcome, army, sais, out, wanted)
    for t, n in gone.items():
        results[t] = results.get(t, 0) - n     # a unit brought back may be among those that moved away
    state, cloaked = sai_states.cloak_saves(state, ruleset, outcome, army, out)
    results["save"] = results.get("save", 0) + cloaked
    # the units brought back are counted with the army through the one pipeline (the army's modifiers)
    results = {t: max(0, joined_rolls.through_pipeline(out, army.id, t, n)) if t in wanted else max(0, n)
               for t, n in results.items()}
    if state.has_army(army.id):
        state = sai_states.move_dragons(state, ruleset, outcome, state.army(army.id), sais, out)
    out.results[army.id] = dict(results)
    return state, results, _taking(state, army, out)


def _maneuvers_lost(state: GameState, ruleset: Ruleset, army: Army, outcomes: list[Outcome],
                    out: StepResult) -> None:
    """002 Blue Dragon Breath: the combination roll "becomes simply and only a save avoidance roll" -- the
    maneuvers rolled, the returned units' included (002 Army Modifiers: "the new units are also affected"), count
    for nothing against the terrain's reduction."""
    lost = sum(o.results.get("maneuver", 0) for o in outcomes)
    blue = save_only_effect(state, ruleset, army)
    if lost and blue is not None:
        out.trace.append(TraceEvent(what=f"{army.id}: its {lost} maneuver(s) count for nothing", before=lost, after=0,
                                    rule="a combination avoidance roll that includes saves becomes simply and only a "
                                         "save avoidance roll", cite=ruleset.breath_effects[blue.spell][0]))


def _combination_readings(ruleset: Ruleset, outcome: Outcome, out: StepResult) -> None:
    """Reading, traced where it decides something: each special SAI of the save and maneuver combination roll acts
    because the roll is what its entry needs (a non-maneuver roll, a save roll) in its save part, on the strength
    of 002 Avoidance Rolls ("just at least one"; 002 Glossary: "the army is making a save roll and a maneuver
    avoidance roll")."""
    for sai in dict.fromkeys(s.sai for s in outcome.specials if s.sai in COMBINATION_READS):
        where = ruleset.sai_sections.get(sai, ruleset.cite("sai-resolution"))
        out.trace.append(TraceEvent(
            what=f"reading: {sai} acts in the save and maneuver combination roll",
            rule=f"a reading: its entry's \"{COMBINATION_READS[sai]}\" ({where}) is met by the save part of \"a "
                 "combination avoidance roll against a Tidal Wave spell\", since \"the SAI does not need to be "
                 "applicable for every result of the combination roll, just at least one\" "
                 f"({ruleset.cite('avoidance')})",
            cite=where, kind=READING, also=ruleset.cite("avoidance")))


def save_roll(state: GameState, ruleset: Ruleset, army: Army, dice: Roll, rolls: Rolls, out: StepResult,
              waiting: tuple[list, bool] | None = None) -> tuple[GameState, dict[str, int], Army]:
    """The army's save roll against a spell, its own special SAIs resolved before its saves are applied, as in
    the save roll of a melee or missile action (engine.actions.sai_states.in_saves): Regenerate and the Gold
    Medallion bring units back ("During any non-maneuver roll ... bring back up to four health-worth of units
    from your DUA to the army containing this unit"), the Silver Medallion returns a buried item, Cloak adds four
    magical saves ("During a save roll, add four magical save results"), Vanish, Ferry, Teleport and Firewalking
    move units away; their Cantrip buys with the army's own (``_joined``, ``waiting``). Returns the state,
    the roll's results and the army that takes the damage (``army``'s units still there and the units brought
    back)."""
    sais = rolls.sais.pop(army.id, None)
    outcome = roll(state, ruleset, army, "save", ("save",), dice, out, choices=special_choices(sais))
    joined: dict[str, Outcome] = {}
    state, change = sai_states.in_saves(state, ruleset, outcome, army, sais, out, joined, resolves=_joining(waiting))
    state, outcome = _joined(state, ruleset, (army, dice), outcome, joined, waiting, rolls, sais, ("save", ("save",)),
                             out)
    saves = sai_states.adjust(outcome.results.get("save", 0), change, army, out)
    return state, {**outcome.results, "save": saves}, _taking(state, army, out)


def _joining(waiting: tuple[list, bool] | None) -> tuple[str, ...]:
    """The specials of the units brought into a roll against spells that the army's roll resolves once they joined
    (``_joined``): their Trumpet's doubling (engine.actions.joined_trumpet; in a save roll, Trumpet's alone), and
    their Cantrip where the army's own waited for it (``waiting``), else refused."""
    return ("double-units", *((cantrip.CANTRIP,) if waiting is not None else ()))


def _joined(state: GameState, ruleset: Ruleset, rolling: tuple[Army, Roll], outcome: Outcome,
            joined: dict[str, Outcome], waiting: tuple[list, bool] | None, rolls: Rolls, sais,
            roll_kind: tuple[str, tuple[str, ...]], out: StepResult) -> tuple[GameState, Outcome]:
    """The units a Regenerate or Medallion brought into the army's roll against the spells, once they joined: a
    Trumpet of theirs doubles the army's own Feral units (engine.actions.joined_trumpet ``together``: the army's roll
    counted again); and 002 Cantrip: "During any non-magic action, save roll or non-maneuver avoidance roll, Cantrip
    can be used to purchase spells that are immediately resolved": their Cantrip, with the army's own that waited for
    it (``waiting``: its points, and whether the roll is against simultaneous magic, where a Cantrip is ignored;
    None: the army's was spent before it rolled, no unit that may join rolling one), buys the step's
    ``cantrip.<army>`` as one purchase, as in a skirmish's save roll (engine.actions.cantrip ``joined``: the
    readings); a spell on a joining unit counts its roll again (its entry in ``joined`` replaced), one on the army
    the army's own roll. Returns the state and the army's roll."""
    who, dice = rolling
    choices = special_choices(sais)
    outcome = joined_trumpet.together(state, ruleset, out, outcome, rolling, joined, roll_kind, choices)
    if waiting is None:
        return state, outcome
    state, spelled = cantrip.joined(
        state, state.army(who.id), waiting[0], joined, rolls.buys, ruleset, out, "save roll against the spells",
        lambda now, unit_id: cantrip.unit_recounted(now, ruleset, out, who.id, unit_id, joined, roll_kind,
                                                    dict(sais.unit_saves)[unit_id], what="save roll", choices=choices),
        simultaneous=waiting[1])
    if spelled:
        outcome = cantrip.army_recounted(state, ruleset, out, outcome, who, dice, roll_kind, choices=choices)
    return state, outcome


def _taking(state: GameState, army: Army, out: StepResult) -> Army:
    """The army that takes the damage: ``army``'s units still there and the units brought back during its roll
    (not the units a simultaneous magic's earlier spell killed, engine.actions.spells._with_fallen)."""
    if not state.has_army(army.id):
        return army.evolve(units=())
    now, kept = state.army(army.id), {u.id for u in army.units} | set(out.moved)
    return now.evolve(units=tuple(u for u in now.units if u.id in kept))


UNIT_TARGETS, ARMY_TARGETS = ("unit", "enemy-unit", "own-unit"), ("army", "enemy-army", "own-army")


def _target_gone(state: GameState, c: Cast, names: str, ruleset: Ruleset, out: StepResult) -> bool:
    """A spell announced at a unit (an army) that an earlier spell of this magic action killed (emptied) resolves on
    nothing: said in the trace, never dropped silently (issue 21). Reading: the spells are announced with their
    targets, then resolved one at a time (002 Total Your Magic Results; Target Your Spells); the text does not say
    what a spell does whose target is gone by then; ddref reads that it has no effect, its points spent."""
    kind = c.spell.target
    if kind in UNIT_TARGETS:
        if any(a.unit(c.target) is not None for a in state.armies) or c.target not in out.killed:
            return False
        why = f"{c.target} was killed earlier in this magic action"
    elif kind in ARMY_TARGETS:
        if state.has_army(c.target) and state.army(c.target).units:
            return False
        why = f"{c.target} has no units left, killed or moved earlier in this magic action"
    else:
        return False
    cite = ruleset.cite("total-magic")
    also = next((ruleset.cites[k] for k in ("spell-targets", "simultaneous-magic", "multiplicity")
                 if ruleset.cites.get(k) and ruleset.cites[k] != cite), ruleset.cite("spell-targets"))
    out.trace.append(TraceEvent(
        what=f"reading: {names} at {c.target} has no effect: {why} (announced with its target, the spell "
             "resolves on nothing; its points are spent)",
        rule="the spells and their targets are announced, then resolved one at a time; a target gone by then is "
             "not replaced", cite=cite, also=also, kind=NOT_APPLIED))
    return True


def _with_fallen(army: Army, ruleset: Ruleset, rolls: Rolls, out: StepResult) -> Army:
    """The army that rolls its group save: under simultaneous magic (tsr-1996, 004 Dispel Magic D: "since magic is
    simultaneous, units killed by Lightning still roll in the group save against the Hailstorms") with the units a
    spell of this magic action killed; they roll, but cannot be taken as casualties again."""
    fallen = _fallen(army.id, ruleset, rolls)
    if not fallen:
        return army
    # reading, traced: the castings resolve in the order written, the units an earlier one killed rolling here
    out.trace.append(reading(f"{', '.join(u.id for u in fallen)}, killed by an earlier spell of this magic action "
                             f"(the castings resolve in the order written), still roll in {army.id}'s save, but cannot "
                             "be taken as casualties again", ruleset.cite("simultaneous-magic"), ruleset.cite("magic"))
                     .evolve(after=len(fallen)))
    return army.evolve(units=(*army.units, *fallen))


def _fallen(army_id: str, ruleset: Ruleset, rolls: Rolls) -> list:
    """The units of ``army_id`` a spell of this magic action killed, who still roll under simultaneous magic."""
    return rolls.fallen.get(army_id, []) if ruleset.simultaneous_magic else []


def _unit_damage(state: GameState, unit_id: str, damage: int, effect: SpellEffect, names: str, cite: str,
                 ruleset: Ruleset, rolls: Rolls, out: StepResult) -> GameState:
    army = owner(state, unit_id)
    unit = army.unit(unit_id)
    saves = 0
    if effect.save != "none":
        # "generate a save or be killed" is a save avoidance roll; against damage, a save roll (002 Avoidance Rolls)
        kind = "avoid-save" if effect.save == "or-killed" else "save"
        dice = rolls.take(unit_id, f"saves by itself against {names}", cite)
        # a Cantrip in the unit's own roll buys spells first; a spell on the unit follows it wherever it goes
        state = own_cantrip(state, ruleset, unit_id, dice, rolls, out, names)
        army = _home(state, unit_id, army)
        # its SAIs' specials as in its army's save roll (save_sais.<unit>); moved, the spell still finds it
        state, rolled = unit_roll(state, ruleset, army, unit_id, kind, ("save",), dice, out,
                                  rolls.sais.pop(unit_id, None))
        army = _home(state, unit_id, army)
        saves = rolled.results.get("save", 0)
    if effect.save == "or-killed":
        killed = saves == 0
        what = f"{names}: {unit_id} rolled {saves} save(s): {'killed' if killed else 'survives'}"
        rule, before, after = "the target unit must generate a save or be killed", None, saves
    else:
        left = max(0, damage - saves)
        killed = left >= unit.health
        saved = "no save possible" if effect.save == "none" else f"{saves} saves"
        what = f"{names}: {damage} damage ({saved}) on {unit.label}: {'killed' if killed else 'no effect'}"
        rule = ("a unit is killed by damage equal to its health; less has no effect, and damage from "
                "another magic action never adds to it (no wounding)")
        before, after = damage, left
    out.trace.append(TraceEvent(what=what, before=before, after=after, rule=rule,
                                cite=cite if killed else ruleset.cite("spell-effect")))
    if killed:
        grave = casualties_destination(state, ruleset, army) if ruleset.grave_takes_every_kill else None
        if grave is not None and grave[1] == "reserve" and not bound(unit, ruleset):
            # 000 Open Grave: "all units killed in the target army go to your reserve rather than to the dead unit
            # area" -- a unit a spell kills by itself is killed in its army too
            gcite = ruleset.spell_sections.get(grave[0], cite)
            out.trace.append(TraceEvent(what=f"{grave[0]} on {army.id}: {unit_id} goes to the reserve area, not the DUA",
                                        rule="all units killed in the target army go to the reserve rather than to "
                                             "the dead unit area", cite=gcite))
            state, dest = reserve_army(state, army.player, ruleset, out)
            out.moved.append(unit_id)
            return transfer(state, unit_id, state.army(army.id), dest, f"{grave[0]}: {unit_id}", gcite, ruleset, out)
        out.killed.append(unit_id)
        rolls.fallen.setdefault(army.id, []).append(unit)
        return kill(state, army.id, [unit_id])
    # Fearful Flames: "If the unit saves against the damage" read as: if the damage does not kill it
    if effect.then_flee:
        state, stays = _saves_or_flees(state, unit_id, names, cite, ruleset, rolls, out)
        state = state if stays else flee(state, unit_id, names, cite, ruleset, out)
    return state


def _each_casting(state: GameState, unit_id: str, castings: int, effect: SpellEffect, names: str, cite: str,
                  ruleset: Ruleset, rolls: Rolls, out: StepResult) -> GameState:
    """Several castings of a "save or be killed" spell at one unit (``Ruleset.castings_at_one_unit``), each its own
    roll (``avoidance.<unit>``, a list), the unit surviving only if every roll saves. Reading, traced: 000 Lightning
    Strike's "Multiple castings target multiple units" read with 004 Dispel Magic D's example, "A Gargoyle is
    targeted by 3 Lightning Strikes ... the Gargoyle must roll three successful saves in order to survive"."""
    words, where = ruleset.words("dispel-magic:one-unit", "", ruleset.cite("multiplicity"))
    out.trace.append(reading(f"{castings} castings of {names.split(' x')[0]} at {unit_id}: \"multiple castings "
                             f"target multiple units\" does not forbid several at one unit, as the FAQ's example "
                             f"casts three at one (\"{words}\"): each casting is its own save or ID roll", cite,
                             where))
    for n in range(1, castings + 1):
        if not any(a.unit(unit_id) for a in state.armies):
            out.trace.append(TraceEvent(what=f"{unit_id} is dead: casting {n} of {castings} has no target left",
                                        rule="instantly kills a target unit unless the unit rolls a save", cite=cite))
            break
        state = _unit_damage(state, unit_id, effect.points, effect, f"{names} (casting {n} of {castings})", cite,
                             ruleset, rolls, out)
    return state


def _home(state: GameState, unit_id: str, army: Army) -> Army:
    """The unit's army now (it may have moved during its own roll), or ``army`` when it is in none."""
    return owner(state, unit_id) if any(a.unit(unit_id) for a in state.armies) else army


def _raise_or_bury(state: GameState, who: Army, unit_id: str, worth: int, effect: SpellEffect, names: str,
                   cite: str, ruleset: Ruleset, out: StepResult, rolls: Rolls,
                   paid: set[str] = frozenset()) -> GameState:
    area = next((a for a in state.dua if any(u.id == unit_id for u in a.units)), None)
    if area is None:
        dead = [u.id for a in state.dua for u in a.units]
        raise StepError(f"{names} targets a dead unit, named by its id; {typed(unit_id)} is none (dead units: "
                        f"{', '.join(dead) or 'none'})", cite=cite, field="cast")
    unit = next(u for u in area.units if u.id == unit_id)
    if effect.max_health and unit.health > effect.max_health:
        raise StepError(f"{names} returns only {effect.max_health}-health units, and {unit_id} has {unit.health} "
                        "health", cite=cite, field="cast")
    aspects = ruleset.race_colors.get(unit.race, ())
    if effect.of_paying_color and (other := sorted(c for c in paid if c not in aspects)):
        # 001 Resurrect Dead: "units in your DUA that contains the color of magic used to cast this spell"
        raise StepError(f"{names} is paid with {', '.join(other)} magic, and {unit_id} ({unit.race}: "
                        f"{', '.join(aspects) or 'no color'}) does not contain that color: pay it with one of "
                        f"{', '.join(aspects) or 'none'}", cite=cite, field="cast")
    if worth < unit.health:
        raise StepError(f"only {worth} health-worth ({names}) is aimed at {unit_id}, which has {unit.health} "
                        "health: aim more castings at it (spells with identical effects combine)",
                        cite=ruleset.cite("spell-effect"), field="cast")
    if effect.kind == "bury":
        _check_burial(state, area.player, unit, ruleset)
        # 002 SAI Resolution, Conditional: "The unit rolls to avoid burial. If the Rise from the Ashes SAI comes
        # up, its effect is applied -- avoiding being buried" (its roll: the step's avoidance entry for it)
        if sai_endings.bears(ruleset, unit) or rolls.has(unit_id):
            dice = rolls.take(unit_id, "to avoid burial", cite) if rolls.has(unit_id) else None
            state, rose = sai_endings.rise_from_the_ashes(state, ruleset, unit, area.player, dice, "to be buried", out,
                                                         "dua")
            if rose:
                return state
    state = state.take_from("dua", area.player, unit_id)
    if effect.kind == "resurrect":
        state = state.with_army(state.army(who.id).evolve(units=(*state.army(who.id).units, unit)))
        what = f"{names}: {unit.label} rises and joins {who.id}"
        # the edition's words, by how large a unit the spell may return (tsr-1996 Reanimate Dead: 1-health only)
        rule = ruleset.quote(f"resurrect-up-to-{effect.max_health or 'any'}", "target units immediately join the "
                             "casting army")
        out.moved.append(unit_id)
    else:
        state = state.add_to("bua", area.player, (unit,))
        what = f"{names}: {unit.label} is buried"
        rule = ruleset.quote("bury", "target units are immediately buried")   # the edition's words, else 002's
        out.buried.append(unit_id)
    out.trace.append(TraceEvent(what=what, before=unit.health, after=worth, rule=rule, cite=cite))
    if worth > unit.health:
        out.trace.append(TraceEvent(what=f"{worth - unit.health} health-worth left unused", after=worth - unit.health,
                                    rule="health-worth not aimed at a unit has no effect",
                                    cite=ruleset.cite("spell-effect")))
    return state


def _check_burial(state: GameState, player: str, unit, ruleset: Ruleset) -> None:
    """Honor the Dead: only dead units with the black (death) aspect in the DUA can be buried."""
    e = burial_barred(state, player, unit, ruleset)
    if e is not None:
        aspect = ruleset.burial_limits[e.spell]
        raise StepError(f"{unit.label} has no {aspect} aspect, and {e.spell} is on {player}'s DUA: only dead "
                        f"units with the {aspect} aspect can be buried",
                        cite=ruleset.spell_sections.get(e.spell, ruleset.cite("spell-effect")), field="cast")


def effect_ref(state: GameState, ref: str) -> Effect | None:
    """A spell in play named ``<spell>@<target>`` (as ``deadlands@hill``)."""
    spell, _, target = ref.partition("@")
    return next((e for e in state.effects if e.spell == spell and e.target == target), None)


def _negate(state: GameState, ref: str, casts: list[Cast], points: int, names: str, cite: str,
            ruleset: Ruleset, out: StepResult) -> GameState:
    found = effect_ref(state, ref)
    color, cost = ruleset.spell_costs[found.spell]
    for c in casts:
        if c.spell.color == color:
            raise StepError(f"{c.spell.name} negates only non-{color} spells, and {found.spell} is {color}",
                            cite=cite, field="cast")
    if points < cost:
        raise StepError(f"only {points} points ({names}) are aimed at {found.spell}, which costs {cost}: "
                        "combine more blasts (identical effects combine)", cite=ruleset.cite("spell-effect"), field="cast")
    left = found.count - 1
    state = state.evolve(effects=tuple(e.evolve(count=left) if e is found else e
                                       for e in state.effects if e is not found or left))
    out.trace.append(TraceEvent(what=f"{names}: one casting of {found.spell} on {found.target} is negated",
                                before=found.count, after=left,
                                rule=f"{points} points of blasts negate a {cost}-point spell in play", cite=cite))
    return state
