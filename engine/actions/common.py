"""What every action shares: rolling an army, checking the terrain's action, taking damage."""

from __future__ import annotations

from ..names import typed
from ..damage import choose, kill, reachable
from ..roll import Outcome, Roll, RollContext, Rolling, resolve_roll
from ..minor import allowed_event, allows
from ..moves import bound, reserve_army, stays, transfer
from ..protection import check_named, check_rollers, exposed
from ..ruleset import Ruleset
from ..state import RESERVE, Army, Effect, GameState, ResultType, Terrain
from ..steps import Casualties, StepResult
from ..names import slug
from ..trace import StepError, TraceEvent, reading, told, whose


def army(state: GameState, army_id: str, field: str = "army") -> Army:
    if not state.has_army(army_id):
        known = ", ".join(a.id for a in state.armies)
        raise StepError(f"no army {typed(army_id)} (armies: {known})", field=field)
    found = state.army(army_id)
    if not found.units:
        raise StepError(f"army {army_id} has no units left", field=field)
    return found


def roll(state: GameState, ruleset: Ruleset, who: Army, kind: str, wanted: tuple[ResultType, ...],
         dice: Roll, out: StepResult, target_terrain: Terrain | None = None,
         choices: dict | None = None, unit: str | None = None, facing: tuple[str, ...] = (),
         joined: bool = False) -> Outcome:
    """Roll an army (or, with ``unit``, that unit by itself) and record its results and trace.

    A unit rolled by itself is an individual roll: army and terrain modifiers
    and the eighth face do not apply (002 Applying Dice Modifiers, The Eighth
    Face); its results are recorded under the unit's id. ``facing``: in a roll against a dragon attack, the
    dragons attacking the army. ``joined``: the unit was brought into the army during the army's roll and
    rolls with it, its SAIs used as in the army's roll. A unit's returning and moving specials are its caller's
    to resolve (engine.actions.own_roll; a unit joining its army's roll: engine.actions.joined_rolls).
    """
    check_rollers(state, ruleset, dice, kind, who if unit is None else None)
    if joined:
        _joins_a_roll(out, who, unit, kind, ruleset)
    if unit is None:
        kind, wanted = save_only(state, ruleset, who, kind, wanted, out)
    if dice.promote:        # Wild Growth: "promote one unit in the army containing this unit" (engine.resolve)
        out.promotions.append((who.id, dice.promote))
    home = who
    if unit is not None:
        member = who.unit(unit)
        if member is None:  # the scenario was checked against the first state; a step may have removed it
            raise StepError(f"unit {unit} is not in army {who.id} when this step resolves ("
                            f"{out.gone(unit) or 'an earlier step removed it'}); its units: "
                            f"{', '.join(u.id for u in who.units) or 'none'}")
        # the trace names the unit; its army's spells do not reach a unit's own roll anyway
        who = who.evolve(id=unit, units=(member,))
    ctx = RollContext(state=state, army=who, kind=kind, wanted=wanted, ruleset=ruleset,
                      target_terrain=target_terrain, choices=choices or {}, individual=unit is not None,
                      facing=facing, joined=joined)
    outcome = resolve_roll(ctx, dice)
    now = out.rolls.get(home.id) if unit is None else None
    recount = now is not None and bool(now.joined) and now.ctx.kind == ctx.kind    # the same roll counted again
    _register(out, home, unit, joined, ctx, dice, outcome)
    out.trace.extend(outcome.trace)
    if outcome.used:
        out.used.extend(e for e in outcome.used if e not in out.used)
    made = out.every_roll.setdefault(unit or who.id, [])
    if recount and made:
        made.pop()      # a roll counted again once units joined it is the same roll, not another
    made.append({"for": list(wanted), **outcome.results})
    out.results.setdefault(unit or who.id, {}).update(outcome.results)
    return outcome


def _register(out: StepResult, home: Army, unit: str | None, joined: bool, ctx: RollContext, dice: Roll,
              outcome: Outcome) -> None:
    """The army's roll in progress (``out.rolls``, engine.roll.Rolling): an army's roll starts one (or, the same kind
    counted again once units joined it, a Cantrip's spell or a Trumpet acting on it, replaces its own count); a unit
    joining it (``joined``) is added to it, its latest count kept."""
    if unit is None:
        now = out.rolls.get(home.id)
        again = now is not None and now.joined and now.ctx.kind == ctx.kind
        # the units that left a roll counted again (a Cantrip's spell) stay out of it
        kept = now.left if now is not None and now.ctx.kind == ctx.kind else {}
        out.rolls[home.id] = Rolling(ctx, dice, outcome, now.joined if again else {}, kept,
                                     joined_dice=now.joined_dice if again else {})
    elif joined:
        out.rolls[home.id].join(unit, outcome, dice)     # there is one (``_joins_a_roll``)


def _joins_a_roll(out: StepResult, home: Army, unit: str | None, kind: str, ruleset: Ruleset) -> None:
    """A unit rolled ``joined`` is counted only with the roll it joins (002 Resolution: components brought into an army
    during a roll "are rolled immediately and the results applied with the results of their army"): its army must have
    a roll of that kind in progress in this step, or its results would be counted nowhere (or in another roll).
    Refused before anything is recorded: a caller that rolls a joining unit outside its army's roll is an engine
    defect, said as such, never a unit silently lost."""
    now = out.rolls.get(home.id)
    if unit is not None and now is not None and now.ctx.kind == kind:
        return
    having = "no roll in progress" if now is None else f"a {now.ctx.kind} roll in progress, not a {kind} roll"
    raise StepError(f"engine defect: {unit or home.id} is rolled as joining {home.id}'s {kind} roll, but "
                    f"{'only a unit joins a roll' if unit is None else f'{home.id} has {having}'}: its results would "
                    "be counted in no roll; please report this scenario", cite=ruleset.cite("sai-resolution"))


# the kinds of roll an army under a Blue Dragon Breath may still make (engine.sais vocabulary)
SAVE_ROLLS = ("save", "save-melee", "save-missile", "avoid-save", "dragon-save")
# tsr-1996: the charged army's one roll (engine.actions.charge) is its roll for saves in melee, as before it had a kind
SAVE_ROLLS += ("charged",)


def save_only(state: GameState, ruleset: Ruleset, who: Army, kind: str, wanted: tuple[ResultType, ...],
              out: StepResult) -> tuple[str, tuple[ResultType, ...]]:
    """002 Blue Dragon Breath: "The target army can only make save and save avoidance rolls until the beginning of
    its next turn. All other rolls are either not allowed, or, if a combination avoidance roll that includes
    saves, becomes simply and only a save avoidance roll"."""
    blue = save_only_effect(state, ruleset, who)
    if blue is None or kind in SAVE_ROLLS:
        return kind, wanted
    cite = ruleset.breath_effects[blue.spell][0]
    if kind.startswith("combination:") and "save" in wanted:
        out.trace.append(TraceEvent(what=f"{who.id} is under {blue.spell}: its combination roll is only a save "
                                         "avoidance roll", rule="a combination avoidance roll that includes saves "
                                    "becomes simply and only a save avoidance roll", cite=cite))
        return "avoid-save", ("save",)
    # a counter-maneuvering army opposes by rolling (002 Maneuver: "that army and all counter-maneuvering armies are
    # rolled"), which it may not do: it cannot counter-maneuver (the acting army's own roll: engine.actions.maneuver)
    opposes = ", so it cannot counter-maneuver" if kind == "counter-maneuver" else ""
    raise StepError(f"{who.id} is under {blue.spell} and can only make save and save avoidance rolls until the "
                    f"beginning of its next turn, not a {kind} roll{opposes}", cite=cite)


def save_only_effect(state: GameState, ruleset: Ruleset, who: Army) -> Effect | None:
    """The Blue Dragon Breath (an effect making the army's rolls save rolls only) on the army, if any."""
    return next((e for e in state.effects_on(who.id)
                 if ruleset.breath_effects.get(e.spell, ("", ""))[1] == "save-only"), None)


def check_action(state: GameState, ruleset: Ruleset, who: Army, action: str, out: StepResult) -> Terrain:
    """The action must be the one the terrain shows (the eighth-face controller chooses freely)."""
    if who.at == RESERVE:
        raise StepError(f"army {who.id} is in the reserve area, where it may only cast magic",
                        cite=ruleset.cite("actions"))
    terrain = state.terrain(who.at)
    if terrain.face == 8 and terrain.controlled_by and terrain.controlled_by != who.id:
        if action != "melee":
            # a minor terrain's action face ("Allows the owning army to conduct a Missile action even when the major
            # terrain is set on another action", 002 Minor Terrains) does not lift it: a reading, the eighth face's
            # "restricted to only melee attacks" is a restriction on the army, not a setting of the major terrain
            minor = allows(state, who, action, ruleset)
            lifted = (f" (its minor terrain's {action} face allows an action the major terrain is not set on, not "
                      f"one the eighth face restricts: a reading, {ruleset.cite('minor-terrains')} read with "
                      f"{ruleset.cite('eighth-face')})"
                      if minor is not None else "")
            raise StepError(f"{terrain.id} is at its eighth face, held by {terrain.controlled_by}: enemy armies "
                            f"there may only melee, not {action}{lifted}", cite=ruleset.cite("eighth-face"))
        return terrain
    if terrain.face == 8 and terrain.controlled_by == who.id:
        out.trace.append(TraceEvent(what=f"{who.id} controls {terrain.id}'s eighth face: it may {action}",
                                    rule="the controlling army can use melee, missile, or magic as it sees fit",
                                    cite=ruleset.cite("eighth-face")))
        return terrain
    minor = allows(state, who, action, ruleset)
    if minor is not None and terrain.action != action:
        out.trace.append(allowed_event(minor, action, ruleset))
        return terrain
    if terrain.action is None:
        out.trace.append(TraceEvent(what=f"{terrain.id} shows face {terrain.face}; its action icon is not "
                                         f"given, so {action} is assumed", rule="the face showing dictates "
                                         "the action", cite=ruleset.cite("actions"), defaulted=True))
    elif terrain.action != action:
        raise StepError(f"{terrain.id} shows {terrain.action}, so {who.id} cannot take a {action} action",
                        cite=ruleset.cite("actions"))
    return terrain


def take_damage(state: GameState, ruleset: Ruleset, target: Army, damage: int, casualties: dict[str, list[str]],
                out: StepResult, what: str, source: str, army_targeting: bool = True,
                terrain: bool = False) -> GameState:
    """Remove whole units for ``damage`` from ``source`` (melee, missile, magic): the owner's named
    units, or the default; units a spell shields from that source cannot be taken (engine.protection).

    Casualties of an effect that targets the army go to the DUA, or where a spell sends them.
    ``terrain``: the damage is a terrain-targeting effect's (Firestorm, Tidal Wave, Volcanic Eruption, Backlash,
    Wall of Thorns), whose casualties a spell sending those of army-targeting effects elsewhere does not take.
    """
    out.damage[target.id] = out.damage.get(target.id, 0) + damage
    if damage <= 0:
        return state
    whole, target = target, exposed(state, ruleset, target, source, out)
    named = named_for(target, damage, casualties, what.removesuffix(" damage"))
    check_named(state, ruleset, whole, target, named, source)
    ids, event = choose(target, damage, named, ruleset.cite("damage"))
    out.trace.append(event.evolve(what=f"{what}: {event.what}"))
    elsewhere = casualties_destination(state, ruleset, target) if army_targeting and not terrain else None
    if terrain and ids:
        _terrain_casualties(state, ruleset, target, what, out)
    if elsewhere is None:
        out.killed.extend(ids)
        return kill(state, target.id, ids)
    spell, where = elsewhere
    cite = ruleset.spell_sections.get(spell, ruleset.cite("damage"))
    for unit_id in ids:
        if bound(state.army(target.id).unit(unit_id), ruleset):
            stays(unit_id, f"{spell}: casualty", cite, ruleset, out)      # it cannot go elsewhere: killed as usual
            out.killed.append(unit_id)
            state = kill(state, target.id, [unit_id])
            continue
        if where == "reserve":
            state, dest = reserve_army(state, target.player, ruleset, out)
        elif f"{target.id}->" in casualties:
            sent = casualties[f"{target.id}->"]
            dest = _sent_to(state, target, sent[0], spell, cite)
            sent[1:] = ["used"]     # the step's leftover check (``leftover_casualties``) knows it was
            out.trace.append(TraceEvent(what=f"{spell}: {unit_id} goes to {dest.id} at {dest.at}", rule="casualties "
                                        "go to another of your armies at a terrain, the one the owner chose", cite=cite))
        else:
            dest = next((a for a in state.armies if a.player == target.player and a.id != target.id
                         and a.at != RESERVE), None)
            if dest is None:
                out.trace.append(TraceEvent(what=f"{spell}: {target.player} has no other army at a terrain: "
                                                 f"{unit_id} goes to the DUA", rule="casualties go to another "
                                            "of your armies at a terrain", cite=cite))
                out.killed.append(unit_id)
                state = kill(state, target.id, [unit_id])
                continue
            out.trace.append(TraceEvent(what=f"{spell}: {unit_id} goes to {dest.id} at {dest.at}", rule="the "
                                        "owner chooses which other army at a terrain; none given, so the first",
                                        cite=cite, defaulted=True))
        out.moved.append(unit_id)
        out.kept[unit_id] = dest.id
        state = transfer(state, unit_id, state.army(target.id), dest, f"{spell}: casualty {unit_id}", cite,
                         ruleset, out)
    return state


def _terrain_casualties(state: GameState, ruleset: Ruleset, target: Army, what: str, out: StepResult) -> None:
    """Reading (traced): 002 Open Grave (and Leaving) act "for any army-targeting effect that causes damage to the
    target army"; a spell that targets a terrain is a Terrain-Targeting Effect (002 Glossary: "An effect that targets
    a terrain. As such, all armies located at the target terrain can be subjected to the effect"), so its
    casualties go to the DUA, though The Stoneskin Rule's "an army is the target of the damage ... from ... spells"
    could be read to make every damaged army a target."""
    grave = casualties_destination(state, ruleset, target)
    if grave is None:
        return
    spell = grave[0]
    out.trace.append(reading(
        f"{what} targets a terrain, not {target.id}: {spell} on {target.id} sends the casualties of \"any "
        f"army-targeting effect\" elsewhere, so {whose(target.id)} casualties of this terrain-targeting effect go to the "
        "DUA", ruleset.spell_sections.get(spell, ruleset.cite("damage")), ruleset.cite("terrain-targeting")))


def _sent_to(state: GameState, target: Army, dest_id: str, spell: str, cite: str) -> Army:
    """The army the owner sends a spell's casualties to (``casualties: {army: {to: other}}``): another of the
    owner's armies at a terrain."""
    legal = [a.id for a in state.armies if a.player == target.player and a.id != target.id and a.at != RESERVE]
    if dest_id not in legal:
        raise StepError(f"casualties.{target.id}.to: {spell} sends casualties to another of {target.player}'s armies "
                        f"at a terrain, not {dest_id} (legal: {', '.join(legal) or 'none'})", cite=cite,
                        field="casualties")
    return state.army(dest_id)


def casualties_destination(state: GameState, ruleset: Ruleset, target: Army) -> tuple[str, str] | None:
    """The spell sending this army's casualties elsewhere than the DUA, and where (Open Grave, Leaving);
    the owner's first army at a terrain takes them under Leaving (the owner's choice; defaulted)."""
    for e in state.effects:
        where = ruleset.casualties_go.get(e.spell)
        if where is not None and (e.target == target.id or (e.target == target.player == e.by)):
            return e.spell, where
    return None


def named_for(target: Army, damage: int, casualties: dict[str, list[str]], source: str = "") -> list[str] | None:
    """The part of the scenario's casualty list for ``target`` that covers this damage.

    A step may damage one army more than once (an SAI before saves, then the
    normal damage); its ``casualties`` list names every unit it loses in the
    step, and each damage event takes the named units that fit it, in order.
    Named per source (``casualties: {army: {smite: [...], melee: [...]}}``), the source's list is this
    damage's casualties, exactly.
    """
    key = f"{target.id}@{slug(source)}" if source else ""
    if key in casualties:
        return casualties.pop(key)
    if target.id not in casualties:
        return None
    pool = [i for i in casualties[target.id] if target.unit(i) is not None]
    need = reachable(target.units, damage)
    picked = _subset(pool, {i: target.unit(i).health for i in pool}, need)
    if picked is None:
        return list(casualties[target.id])      # let choose() explain what is wrong
    for i in picked:
        casualties[target.id].remove(i)
    return picked


def _subset(ids: list[str], health: dict[str, int], need: int) -> list[str] | None:
    """The first ids (in the order written) whose health adds up to exactly ``need``."""
    best: dict[int, list[str]] = {0: []}
    for i in ids:
        for total, chosen in list(best.items()):
            if total + health[i] <= need and total + health[i] not in best:
                best[total + health[i]] = chosen + [i]
    return best.get(need)


def casualty_lists(casualties: Casualties) -> dict[str, list[str]]:
    return {army_id: list(ids) for army_id, ids in casualties}


def _gone_note(ids: list[str], out: StepResult | None) -> str:
    """Why named units no longer qualify: killed or moved by another effect earlier in the step (issue 21: a named
    unit dropped is said, with why)."""
    if out is None:
        return ""
    killed = [i for i in ids if i in out.killed]
    moved = [i for i in ids if i in out.moved and i not in killed]
    notes = [f"{', '.join(killed)} killed in this step by another effect, not by damage this list covers"] * bool(killed)
    notes += [f"{', '.join(moved)} moved out of the army earlier in this step"] * bool(moved)
    return f" ({'; '.join(notes)})" if notes else ""


def leftover_casualties(casualties: dict[str, list[str]], ruleset: Ruleset, field: str = "casualties",
                        out: StepResult | None = None) -> None:
    sent = [a.removesuffix("->") for a, ids in casualties.items() if a.endswith("->") and len(ids) == 1]
    if sent:    # a destination no spell used: said, never ignored
        raise StepError(f"{field}.{sent[0]}.to names where a spell sends {whose(sent[0])} casualties, but none did "
                        "in this step", cite=ruleset.cite("damage"), field=field)
    unused = {a: ids for a, ids in casualties.items() if ids and not a.endswith("->")}
    if unused:
        did = "kill" if field == "casualties" else "send to the reserve area"
        # a list named per source that no damage of that source took says which source (never silently)
        said = "; ".join(f"{a.replace('@', '.')} {told(ids)}" + (f" (no {a.split('@')[1]} damage to {a.split('@')[0]} "
                                                                 "in this step)" if "@" in a else _gone_note(ids, out))
                         for a, ids in unused.items())
        raise StepError(f"{field} name units this step did not {did}: {said}", cite=ruleset.cite("damage"),
                        field=field)


def terrains(state: GameState, out: StepResult) -> None:
    out.terrains = {t.id: {"face": t.face, "controlled_by": t.controlled_by} for t in state.terrains}


def no_counter(step, ruleset: Ruleset, action: str) -> None:
    """A counter-attack written on a step whose action has none: refused, citing the rule (a missile step says 002
    Missile's own words, engine.actions.combat). 002 Glossary, Counter-Attack Phase: "The subsequent response by a
    defending army to a melee attack by the marching army during a melee action" -- only a melee action has one;
    an army a dragon attack hits answers with its one combination roll (002 Dragon Attack Phase, Step 6)."""
    if not getattr(step, "counter", False):
        return
    cite = ruleset.cites.get("counter-attack-phase") or ruleset.cite("melee")
    answer = ("; the army answers the dragons with its one combination roll (roll)" if action == "dragon attack"
              else "")
    raise StepError(f"a {action} has no counter-attack: a counter-attack is \"the subsequent response by a defending "
                    f"army to a melee attack\"{answer}; remove counter", cite=cite, field="counter")
