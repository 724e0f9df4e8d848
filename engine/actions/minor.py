"""Rolling an army's minor terrain and applying its face (002 Minor Terrains, Minor Terrain Icons).

002: "Each time the army's owner spends a march on an army containing a minor
terrain, that minor terrain is rolled before any maneuver or action is attempted
and its result is applied to the army. The result stays in effect until another
march is spent on the army". ID: "Immediately after the ID icon is rolled, the
army's owner decides which effect will remain". The four disasters (Flood,
Landslide, Revolt, Lost) act at once and "Place the minor terrain out of the game".
"""

from __future__ import annotations

from ..marches import lose_march
from ..protection import shield
from ..roll import Roll
from ..ruleset import Ruleset
from ..state import Effect, GameState, MinorTerrain
from ..steps import MinorStep, StepResult
from ..damage import kill, reachable
from ..trace import StepError, TraceEvent, reading
from .common import army, casualty_lists, leftover_casualties, roll, take_damage, terrains
from .own_roll import unit_roll

DISASTERS = ("flood", "landslide", "revolt", "lost")
FACES = ("melee", "missile", "magic", "double-maneuvers", "double-saves", "id", *DISASTERS)
CHOICES = {"actions": "id-actions", "doubles": "id-doubles"}


def minor_roll(state: GameState, step: MinorStep, ruleset: Ruleset) -> tuple[GameState, StepResult]:
    out = StepResult(kind="minor")
    cite = ruleset.cite("minor-terrains")
    who = army(state, step.army)
    m = state.minor_terrain(who.id)
    if m is None:
        raise StepError(f"{who.id} has no minor terrain in play (a successful maneuver with minor_terrain brings "
                        "one in)", cite=cite, field="army")
    face = _face(step, ruleset, out)
    if step.avoidance is not None and face not in ("flood", "landslide"):
        raise StepError(f"avoidance is the roll against a Flood or a Landslide, not against {face}", cite=cite,
                        field="avoidance")
    out.trace.append(TraceEvent(what=f"{who.id}'s {m.type} minor terrain rolls {face}", after=face,
                                rule="rolled before any maneuver or action of the march; the result stays in effect "
                                     "until another march is spent on the army", cite=cite))
    if face in DISASTERS:
        state = _disaster(state, who.id, m, face, step, ruleset, out)
    else:
        state = state.evolve(minor_terrains=tuple(x.evolve(face=face) if x == m else x
                                                  for x in state.minor_terrains))
    terrains(state, out)
    return state, out


def _face(step: MinorStep, ruleset: Ruleset, out: StepResult) -> str:
    """The face in effect: the icon rolled, or for an ID the owner's choice (default: the doubles)."""
    cite = ruleset.cite("minor-terrains")
    if step.face != "id":
        if step.choose is not None:
            raise StepError(f"choose is the owner's decision after an ID; {step.face} leaves none", cite=cite,
                            field="choose")
        return step.face
    if step.choose is None:
        out.trace.append(TraceEvent(what="ID: the owner's choice is not given, so it doubles maneuvers and saves",
                                    rule="the ID allows melee, missile or magic actions, or doubles the army's "
                                         "maneuvers and saves; the owner decides", cite=cite, defaulted=True))
        return "id-doubles"
    return CHOICES[step.choose]


def _disaster(state: GameState, army_id: str, m: MinorTerrain, face: str, step: MinorStep, ruleset: Ruleset,
              out: StepResult) -> GameState:
    cite = ruleset.cite("minor-terrains")
    casualties = casualty_lists(step.casualties)
    if face == "flood":
        state = _flood(state, army_id, step.avoidance, ruleset, out)
    elif face == "landslide":
        state = _landslide(state, army_id, step.avoidance, casualties, ruleset, out)
    elif face == "lost":
        state = lose_march(state)
        out.trace.append(TraceEvent(what=f"Lost: {army_id} loses the remainder of its march", rule="it may "
                                    "neither maneuver nor take an action", cite=cite))
    if face in ruleset.disaster_effects:
        # Flood: maneuvers halved; Revolt: melee and saves halved, "until the beginning of your next turn"
        player = state.army(army_id).player
        state = state.evolve(effects=(*state.effects, Effect(spell=face, target=army_id, by=player)))
        out.trace.append(TraceEvent(what=f"{face.capitalize()}: {army_id}'s "
                                         f"{' and '.join(t for mod in ruleset.spell_modifiers[face] for t in mod.results)}"
                                         " results are halved until the beginning of its player's next turn",
                                    rule="the disaster's lasting effect", cite=cite))
    leftover_casualties(casualties, ruleset, out=out)
    out.trace.append(TraceEvent(what=f"the {m.type} minor terrain is placed out of the game", rule="after a "
                                "disaster, place the minor terrain out of the game", cite=cite))
    return state.evolve(minor_terrains=tuple(x for x in state.minor_terrains if x != m))


def _flood(state: GameState, army_id: str, dice: Roll | None, ruleset: Ruleset, out: StepResult) -> GameState:
    """"Five health-worth of units in the acting army must each make a maneuver avoidance roll. Those units that
    roll a maneuver result avoid the Flood's effect. Those that do not are killed"."""
    cite = ruleset.cite("minor-terrains")
    who = state.army(army_id)
    # 002 Hide: "cannot be affected by any disaster effect from a minor terrain"; Camouflage: "only melee effects
    # can affect the target unit" (engine.protection, the "disaster" source)
    shielded = {u.id: e for u in who.units if (e := shield(state, ruleset, u.id, "disaster")) is not None}
    units = [u for u in who.units if not u.item and u.id not in shielded]
    named = [uid for uid, _ in (dice.units if dice is not None and dice.per_unit else ()) if uid in shielded]
    if named:
        raise StepError(f"Flood: {named[0]} is under {shielded[named[0]].spell}, which no disaster effect of a minor "
                        f"terrain can affect: it does not roll (the others: "
                        f"{', '.join(u.id for u in units) or 'none'})", cite=cite, field="avoidance")
    need = reachable(units, 5)
    if dice is None or not dice.per_unit:
        raise StepError(f"Flood: give avoidance per unit: the units of {army_id} worth {need} health (the owner "
                        f"picks them) and each one's face", cite=cite, field="avoidance")
    rolled = [uid for uid, _ in dice.units]
    worth = sum(who.unit(uid).health for uid in rolled if who.unit(uid) is not None)
    if worth != need or any(who.unit(uid) is None or who.unit(uid).item for uid in rolled):
        # read as 002 Damage takes units: "enough units ... but never in excess" when five cannot be made exactly
        raise StepError(f"Flood: five health-worth of units roll ({need} of {army_id}'s, whole units); the rolls "
                        f"given are {worth} health-worth ({', '.join(rolled)})", cite=cite, field="avoidance")
    if need < 5:
        out.trace.append(reading(f"Flood: whole units of {army_id} cannot make five health-worth: {need} roll, as much "
                                 "as whole units can without passing five", cite, ruleset.cite("damage")))
    dead = []
    for uid, faces in dice.units:
        state, own = unit_roll(state, ruleset, who, uid, "avoid-maneuver", ("maneuver",), Roll(units=((uid, faces),)),
                               out)
        got = own.results.get("maneuver", 0)
        out.trace.append(TraceEvent(what=f"Flood: {uid} rolls {got} maneuver: {'avoids it' if got else 'killed'}",
                                    after=got, rule="those that roll a maneuver result avoid the Flood; those that do "
                                                    "not are killed (an ID counts as a maneuver result, as in any "
                                                    "avoidance roll)", cite=cite))
        if not got:
            dead.append(uid)
    out.killed.extend(dead)
    return kill(state, army_id, dead) if dead else state


def _landslide(state: GameState, army_id: str, dice: Roll | None, casualties: dict[str, list[str]],
               ruleset: Ruleset, out: StepResult) -> GameState:
    """"The owning army instantly takes damage equal to its number of units (not health) ... excluding magical
    items. The entire army (including magical items) makes a maneuver avoidance roll. Each maneuver result
    negates one point of damage. Note that only ID and maneuver icons rolled by the army negate damage; save
    results or maneuvers from spells do not count"."""
    cite = ruleset.cite("minor-terrains")
    who = state.army(army_id)
    # 002 Hide: "cannot be affected by any disaster effect from a minor terrain"; Camouflage: "only melee effects can
    # affect the target unit" (engine.protection, the "disaster" source): read as not counted among the units either
    shielded = {u.id: e for u in who.units if not u.item and (e := shield(state, ruleset, u.id, "disaster"))}
    damage = sum(1 for u in who.units if not u.item and u.id not in shielded)
    if dice is None:
        raise StepError(f"Landslide: give {army_id}'s maneuver avoidance roll (avoidance)", cite=cite,
                        field="avoidance")
    for uid, e in shielded.items():
        out.trace.append(reading(f"Landslide: {uid} is under {e.spell}, which no disaster effect of a minor terrain "
                                 f"can affect: it is not counted among {army_id}'s units for the damage", cite,
                                 ruleset.spell_sections.get(e.spell, cite)))
    rolled = roll(state, ruleset, who, "avoid-maneuver", ("maneuver",), dice, out)
    # the maneuvers counted from the dice, before any modifier: "maneuvers from spells do not count"; an SAI's
    # maneuvers count, as "The only SAIs that can be applied during a roll to avoid a disaster effect ... are
    # those that have their application during a maneuver avoidance roll" lets them
    icons = sum(t.get("maneuver", 0) for t in rolled.per_unit.values())
    left = max(0, damage - icons)
    out.trace.append(reading(f"Landslide: {damage} damage (one per unit) - {icons} maneuver rolled, an SAI's counted, "
                             f"no spell's: {left} damage to {army_id} ('only ID and maneuver icons rolled by the army "
                             "negate damage', read with the SAIs the same section lets apply in a maneuver avoidance "
                             "roll)", cite, ruleset.cite("sai-application")).evolve(before=damage, after=left))
    return take_damage(state, ruleset, who, left, casualties, out, "Landslide", "disaster")
