"""The maneuver: turn the terrain die a step up or down, opposed or not (002 First March, Maneuver)."""

from __future__ import annotations

from .. import multiplayer
from ..minor import bring
from ..special import captured
from ..ruleset import Ruleset
from ..state import RESERVE, Army, Effect, GameState
from ..steps import ManeuverStep, StepResult
from ..faces import turn_to
from ..trace import COMPARISON, StepError, TraceEvent, reading
from . import cantrip, joined_rolls, sai_states
from ..roll import cut_choices
from .common import army, casualty_lists, leftover_casualties, roll, save_only_effect, take_damage, terrains
from .sai_choices import special_choices


def maneuver(state: GameState, step: ManeuverStep, ruleset: Ruleset) -> tuple[GameState, StepResult]:
    out = StepResult(kind="maneuver")
    cite = ruleset.cite("maneuver")
    acting = army(state, step.army)
    buys = {key: buy for key, buy in step.cantrip if buy is not None}
    if step.cantrip and step.avoidance is None:
        # 002 Unique Resolution: "These SAIs do not function during a maneuver roll" (Cantrip: "Unique (non-magic
        # action, save roll, or non-maneuver avoidance)"); a rule, so refused here, where expect_error can pin it
        # sfr-v4: 001 Cantrip, "During any other non-maneuver rolls" (its own words and section, issue 20)
        raise StepError(f"cantrip.{step.cantrip[0][0]}: a Cantrip does not function during a maneuver roll ("
                        f"{ruleset.quote('cantrip-maneuver', 'a Unique resolution SAI')}), so it buys nothing in a "
                        "maneuver or counter-maneuver",
                        cite=_no_cantrip_cite(ruleset), field="cantrip")
    if acting.at == RESERVE:
        raise StepError(f"{acting.id} is in the reserve area: a reserve army makes no maneuver", cite=ruleset.cite("march"))
    terrain = state.terrain(acting.at)
    mired = next((e for e in state.effects_on(terrain.id) if e.spell in ruleset.no_maneuver), None)
    if mired is not None:
        raise StepError(f"{mired.spell} is on {terrain.id}: no army there can make a maneuver attempt to change "
                        "the terrain face", cite=ruleset.spell_sections.get(mired.spell, cite), field="army")
    if step.minor_terrain is not None and step.direction is not None:
        raise StepError("a successful maneuver brings in a minor terrain instead of turning the terrain: give "
                        "direction or minor_terrain, not both", cite=ruleset.cite("minor-terrains"),
                        field="minor_terrain")
    if step.action is not None and (step.minor_terrain is not None or (terrain.face == 7 and step.direction == "up")):
        # at its eighth face the controller chooses its action and enemies only melee (002 The Eighth Face)
        raise StepError("action is the icon on the face a maneuver turns the terrain to (1 to 7): none here "
                        f"({'a minor terrain comes in, the face stays' if step.minor_terrain else 'the eighth face'})",
                        cite=ruleset.cite("actions"), field="action")
    if step.castle is not None and not (terrain.face == 7 and step.direction == "up"):
        raise StepError("castle is the type a Castle's captor declares when it turns the terrain up to 8",
                        cite=ruleset.cite("castle"), field="castle")
    success = True
    if not step.counter:
        out.trace.append(TraceEvent(what=f"nobody counter-maneuvers: {acting.id} maneuvers without rolling",
                                    rule="an unopposed maneuver automatically succeeds", cite=cite))
    else:
        stopped = _rolls_nothing(state, ruleset, acting, step, out)
        if stopped:
            mine, waves = 0, []
        else:
            if step.roll is None:
                raise StepError(f"the maneuver is opposed: give {acting.id}'s roll", cite=cite, field="roll")
            rolled = roll(state, ruleset, acting, "maneuver", ("maneuver",), step.roll, out,
                          choices=special_choices(step))
            # Wayfare's move: the item and its carrier leave, and their maneuvers with them
            state, moved_away = sai_states.attack_moves(state, ruleset, rolled, acting, "maneuver", step, out)
            # their maneuvers leave the roll before the army's modifiers act (a held eighth face's doubling): counted
            # again without them through the one pipeline (002 Resolution; 002 Applying Dice Modifiers)
            mine = max(0, joined_rolls.through_pipeline(out, acting.id, "maneuver",
                                                         rolled.results["maneuver"] - moved_away))
            if moved_away:
                out.results.setdefault(acting.id, {})["maneuver"] = mine
            waves = [s for s in rolled.specials if s.effect == "cut-counter-maneuvers"]
        icy = next((e.spell for e in state.effects_on(terrain.id) if e.spell in ruleset.ties_to_defender), None)
        multiplayer.note(state, ruleset, "counter-maneuver", f"{len(step.counter)} army(ies) counter-maneuver "
                         f"{acting.id}, each compared by itself", out)
        for counter_id, counter_roll in step.counter:
            other = army(state, counter_id, field="counter")
            if other.at != acting.at or other.player == acting.player:
                raise StepError(f"{counter_id} cannot counter-maneuver: only other players' armies at "
                                f"{terrain.id} can", cite=cite, field="counter")
            # the acting army's Wave: subtracted in each counter-maneuvering army's pipeline, before its multipliers
            answer = roll(state, ruleset, other, "counter-maneuver", ("maneuver",), counter_roll, out,
                          choices=cut_choices(other.id, [(s.sai, "maneuver", s.points) for s in waves]))
            theirs = answer.results.get("maneuver", 0)
            # "If the total ... equals or exceeds that of the highest counter-maneuvering army, the maneuver succeeds"
            won = mine > theirs if icy else mine >= theirs
            ties = (f"ties go to the non-acting player while {icy} is on {terrain.id}" if icy
                    else ruleset.quote("maneuver-ties", "ties go to the acting army"))
            out.trace.append(TraceEvent(what=f"{acting.id} {mine} vs {other.id} {theirs}: "
                                             f"{'acting army holds' if won else 'counter-maneuver wins'}",
                                        kind=COMPARISON, rule=f"{ties}; each counter-maneuvering army "
                                        "is compared with the acting army",
                                        cite=ruleset.spell_sections.get(icy, cite) if icy and mine == theirs else cite))
            success = success and won
    out.maneuver = {"army": acting.id, "succeeded": success}
    thorns = next((e for e in state.effects_on(terrain.id) if e.spell in ruleset.maneuver_damage), None)
    if success and step.minor_terrain is not None:
        state = bring(state, acting, terrain, step.minor_terrain, ruleset, out)
        holder = terrain.controlled_by if terrain.face == 8 else None
        if holder is not None and holder != acting.id and holder in dict(step.counter):
            # 002 The Eighth Face: the terrain "immediately turns back to its seventh face whenever the controlling
            # army ... loses control (is out-maneuvered) by an enemy army", read with 002 Minor Terrains: "Each time
            # an acting army successfully maneuvers (outmaneuvers all opponents ...) the army's owner may bring a
            # minor terrain into play instead of turning the major terrain a step": the controller that
            # counter-maneuvered and lost is out-maneuvered all the same, and loses the terrain
            out.trace.append(reading(f"{holder} counter-maneuvered {acting.id} and lost: it is out-maneuvered and "
                                     f"loses {terrain.id}, though {acting.id} brings in a minor terrain instead of "
                                     "turning the terrain", ruleset.cite("eighth-face"),
                                     ruleset.cite("minor-terrains")))
            state = turn_to(state, terrain.id, 7, ruleset, out)
    elif success:
        state = _turn(state, terrain.id, acting.id, step.direction, out, ruleset, step.castle, step.action)
        if thorns is not None:
            state = _thorns(state, acting, thorns, step, buys, ruleset, out)
    if step.action is not None and not success:
        raise StepError("action is the icon on the face the terrain turns to, and the maneuver failed: the face "
                        "stays", cite=cite, field="action")
    if step.avoidance is not None and not (success and thorns):
        raise StepError("avoidance is the acting army's roll against a spell its maneuver sets off, and none "
                        "does here", cite=cite, field="avoidance")
    if buys:
        # the maneuver and counter-maneuver rolls are maneuver rolls, where a Cantrip does not function; only the
        # acting army's avoidance roll may spend one (``_thorns``)
        raise StepError(f"cantrip.{next(iter(buys))}: only the acting army's melee avoidance roll against "
                        f"{thorns.spell if thorns else 'Wall of Thorns'} may spend a Cantrip here (a maneuver or "
                        f"counter-maneuver roll: {ruleset.quote('cantrip-maneuver', 'a Unique resolution SAI')})",
                        cite=_no_cantrip_cite(ruleset), field="cantrip")
    terrains(state, out)
    return state, out


def _rolls_nothing(state: GameState, ruleset: Ruleset, acting: Army, step: ManeuverStep, out: StepResult) -> bool:
    """The acting army of an opposed maneuver may make no maneuver roll (002 Blue Dragon Breath: "The target army can
    only make save and save avoidance rolls until the beginning of its next turn. All other rolls are either not
    allowed ..."). Reading, traced with both citations: the breath forbids the roll, not the maneuver, which was
    announced before anyone chose to oppose it (002 Maneuver: "To maneuver, you announce ... Players with armies at
    the same terrain can, if they want, oppose"; "If the acting army's maneuver is opposed, that army and all
    counter-maneuvering armies are rolled simultaneously"): the acting army rolls nothing, so it "generates" no
    maneuver results, 0, compared with each counter-maneuvering army's as usual (ties still go to it). The step then
    gives it no roll (or one of no results); faces given for it are refused, not silently dropped. A counter-
    maneuvering army under the breath is refused (``roll``'s check): it opposes by rolling, which it may not do."""
    blue = save_only_effect(state, ruleset, acting)
    if blue is None:
        return False
    where = ruleset.breath_effects[blue.spell][0]
    dice = step.roll
    if dice is not None and (any(n for _, n in dice.counts) or any(faces for _, faces in dice.units)):
        raise StepError(f"{acting.id} is under {blue.spell} and can only make save and save avoidance rolls until "
                        f"the beginning of its next turn: it makes no maneuver roll, so its maneuver results are 0; "
                        "give it no roll (leave roll out)", cite=where, field="roll")
    out.trace.append(reading(f"{acting.id} is under {blue.spell}: its maneuver stands, but it may not roll for it, so "
                             "it generates 0 maneuver results against the counter-maneuvering armies",
                             where, ruleset.cite("maneuver")).evolve(after=0))
    out.results.setdefault(acting.id, {})["maneuver"] = 0
    return True


def _no_cantrip_cite(ruleset: Ruleset) -> str:
    """Where the edition says a Cantrip does not function in a maneuver roll (001 Cantrip; 002 Unique Resolution),
    else its Cantrip entry."""
    return ruleset.cites.get("cantrip-maneuver") or ruleset.cites.get("unique-resolution") or \
        ruleset.sai_sections.get("cantrip", ruleset.cite("sai-resolution"))


def _thorns(state: GameState, acting: Army, e: Effect, step: ManeuverStep, buys: dict, ruleset: Ruleset,
            out: StepResult) -> GameState:
    """002 Wall of Thorns: damage equal to the army's health-worth (001: "takes six damage"), less one per
    melee result it rolls. Its roll is a melee avoidance roll (002 Avoidance Rolls: "When the army maneuvers the
    terrain, it must make a melee avoidance roll against the spell's effect"), a non-maneuver avoidance roll, where a
    Cantrip buys spells resolved at once (002 SAI List, Cantrip; 001 Cantrip: "During any other non-maneuver rolls"):
    the step's ``cantrip.<acting army>``, resolved before the melee results count (``buys``, emptied as it is
    spent)."""
    cite = ruleset.spell_sections.get(e.spell, ruleset.cite("maneuver"))
    damage = ruleset.maneuver_damage_fixed.get(e.spell, acting.health)
    worth = f"{damage} damage (the spell's)" if e.spell in ruleset.maneuver_damage_fixed else \
        f"{damage} damage (the army's health-worth)"
    if step.avoidance is None:
        raise StepError(f"{acting.id} changed the face of {e.target} under {e.spell}: give its melee avoidance "
                        "roll (avoidance)", cite=cite, field="avoidance")
    cantrip.members(step.avoidance, acting, "avoidance")
    state = cantrip.use(state, acting, step.avoidance, buys, False, ruleset, out)
    acting = state.army(acting.id) if state.has_army(acting.id) else acting.evolve(units=())
    rolled = roll(state, ruleset, acting, "avoid-melee", ("melee",),
                  cantrip.still_rolling(step.avoidance, acting, out, ruleset), out, choices=special_choices(step))
    # its own returning and moving SAIs ("During any non-maneuver roll ..."), before its melee results count
    state, change = sai_states.in_roll(state, ruleset, rolled, acting, step, out, "avoid-melee", "melee")
    melee = sai_states.adjust(rolled.results.get("melee", 0), change, acting, out, "melee")
    acting = state.army(acting.id) if state.has_army(acting.id) else acting.evolve(units=())
    left = max(0, damage - melee)
    out.trace.append(TraceEvent(what=f"{e.spell} on {e.target}: {worth} - {melee} melee: {left} damage to "
                                     f"{acting.id}", before=damage, after=left,
                                rule="an army whose maneuver changes the terrain face takes the spell's damage; "
                                     "each melee result reduces it by one point", cite=cite))
    casualties = casualty_lists(step.casualties)
    state = take_damage(state, ruleset, acting, left, casualties, out, e.spell, "magic", terrain=True)
    leftover_casualties(casualties, ruleset, out=out)
    return state


def _turn(state: GameState, terrain_id: str, army_id: str, direction: str | None, out: StepResult,
          ruleset: Ruleset, castle: str | None = None, shows: str | None = None) -> GameState:
    terrain = state.terrain(terrain_id)
    cite = ruleset.cite("maneuver")
    if direction is None:
        raise StepError("the maneuver succeeded: say which way the terrain turns (direction: up or down)",
                        cite=cite, field="direction")
    face = terrain.face + (1 if direction == "up" else -1)
    if not 1 <= face <= 8:
        raise StepError(f"{terrain.id} shows {terrain.face}: it cannot turn {direction}", cite=cite, field="direction")
    if terrain.face == 8:
        # "turns back to its seventh face whenever the controlling army ... loses control (is out-maneuvered)"
        face = 7
    elif face == 8:
        terrain = captured(terrain, castle, ruleset, out)
        state = state.with_terrain(terrain)
        out.trace.append(TraceEvent(what=f"{army_id} captures {terrain.id}", before=terrain.face, after=8,
                                    rule="maneuvered to its eighth face, the acting army controls the terrain",
                                    cite=ruleset.cite("eighth-face")))
    out.trace.append(TraceEvent(what=f"{terrain.id} turned {direction}", before=terrain.face, after=face,
                                rule="a successful maneuver turns the terrain one step", cite=cite))
    # control leaves with the eighth face, however the face changes (engine.faces)
    return turn_to(state, terrain_id, face, ruleset, out, captor=army_id, shows=shows)
