"""A dragon attack on an army (002 Dragon Attack Phase, "Dragon attacks follow these eight steps").

1. Eldarim champions roll their logos: tame, slay or control a dragon attacking the army.
2. The dragons roll ("If any Tails are rolled ... apply them now": the icons listed in order).
3. Breaths (engine.actions.breath). 4. Treasures (promotion). 5. Dragon vs. dragon.
6. The army's combination roll: damage less saves; melee or missile results slay dragons.
7. Slain dragons go to their summoning pool; the army promotes as many units as possible.
8. Surviving dragons that rolled Wings fly back to their summoning pool.

Which dragon attacks the army and which fight each other is engine.dragons; every number is the
edition's (``Ruleset.dragon_faces`` ...).
"""

from __future__ import annotations

from ..names import typed
from .. import dragons as kinds
from .. import sai_doubling
from ..marches import before_marches, dragon_attacked
from ..ruleset import Ruleset
from ..sais import RETURNING
from ..state import RESERVE, Army, Dragon, Effect, GameState
from ..steps import DragonStep, StepResult
from ..trace import READING, StepError, TraceEvent, reading, told
from . import breath, cantrip, dragon_sais, eldarim, joined_rolls, sai_states, slaying
from .battle import Battle
from .common import army, casualty_lists, leftover_casualties, roll, take_damage, terrains
from .sai_choices import special_choices


def dragon_attack(state: GameState, step: DragonStep, ruleset: Ruleset) -> tuple[GameState, StepResult]:
    from .common import no_counter

    no_counter(step, ruleset, "dragon attack")
    out = StepResult(kind="dragon_attack")
    # 002 The Turn Sequence: "Initial Effects, Dragon Attacks, a First March, a Second March, and a Reserve Movement"
    before_marches(state, "Dragon Attack", ruleset)
    who = army(state, step.army)
    battle = _battle(state, ruleset, who, out)
    casualties = casualty_lists(step.casualties)
    # Step 1: Eldarim champions
    state = eldarim.resolve(state, ruleset, who, battle, step, out)
    # Step 2: roll the dragons
    _roll_dragons(state, ruleset, who, battle, step, out)
    # Step 3: breaths; Step 4: treasures
    state = breath.breathe(state, ruleset, who, [d for d in battle.attacking() if _rolled(battle, d, "breath", ruleset)],
                           step, out)
    if not ruleset.treasure_after_attack:
        state = _treasures(state, ruleset, who, battle, step, out)
    # Step 5: dragon vs. dragon
    state = _dragon_fights(state, ruleset, who, battle, step, out)
    # Steps 6 and 7: the army's response, and slaying
    if battle.attacking() or battle.held:
        state = _response(state, ruleset, who, battle, step, casualties, out)
    elif step.roll is not None:
        raise StepError(f"no dragon attacks {who.id}, so it makes no roll: drop roll", cite=ruleset.cite("dragon-vs-dragon"),
                        field="roll")
    if ruleset.treasure_after_attack:     # 000 Treasure: "After the attack is resolved, one unit ... may be promoted"
        state = _treasures(state, ruleset, who, battle, step, out)
    # Step 8: wings; then the dragons a Dragonkin Champion's logo moves
    state = _wings(state, ruleset, battle, out)
    state = dragon_sais.move(state, ruleset, who, battle.movers, step, out)
    leftover_casualties(casualties, ruleset, out=out)
    terrains(state, out)
    return dragon_attacked(state, who.id), out


def _battle(state: GameState, ruleset: Ruleset, who: Army, out: StepResult) -> Battle:
    if not ruleset.dragon_faces:
        raise StepError(f"dragon attacks are not modelled for {ruleset.edition} yet (its dragon table is not in its "
                        "ruleset)", field="army")
    cite = ruleset.cite("dragon-attack")
    if who.at == RESERVE:
        raise StepError(f"{who.id} is in the reserve area, where no dragon attacks", cite=cite, field="army")
    if who.player != state.turn_player:
        # "A dragon attacks any armies at its terrain at the beginning of their respective turns"
        raise StepError(f"{who.id} is {who.player}'s army and it is {state.turn_player}'s turn: dragons attack an "
                        "army at the beginning of its owner's turn", cite=cite, field="army")
    battle = Battle(state, who, fight=ruleset.dragons_fight)
    if not battle.here:
        raise StepError(f"no dragon is at {who.at}, where {who.id} is: no dragon attack occurs", cite=cite,
                        field="army")
    out.dragon = {"dragons": {}, "attack_army": [d.id for d in battle.at_army], "fights": {}, "damage": 0,
                  "slain": [], "banished": [], "tamed": [], "controlled": [], "flew": [], "promoted": []}
    if not ruleset.dragons_fight:
        _all_attack(ruleset, who, battle, out)
        return battle
    for d in battle.here:
        foes = kinds.foes(d, battle.here)
        what = (f"{d.id} ({d.color}) attacks {who.id}"
                + (f" if {d.tamed_by}'s player so decides (it is tamed)" if d.tamed_by is not None else "")
                if d in battle.at_army else
                f"{d.id} ({d.color}) fights {', '.join(f.id for f in foes)} rather than the army")
        alone = d in battle.at_army and not foes and all(x in battle.at_army for x in battle.here)
        # a dragon with no other color to fight attacks the army: the rule that says so, not Dragon vs. Dragon's
        # (tsr-1996 Dragon Rules: "whenever a single dragon and an army are at the same terrain, a dragon attack
        # occurs"; 002 The Turn Sequence: "If dragons are present at any terrain where the marching player has an
        # army, then the dragons must do combat")
        out.trace.append(TraceEvent(what=what, rule=ruleset.quote("dragon-attacks-army", "if dragons are present at "
                                    "any terrain where the marching player has an army, then the dragons must do "
                                    "combat") if alone else
                                    ruleset.quote("dragon-vs-dragon", "dragons of different colors "
                                    "attack each other rather than the army; ivory and ivory hybrid dragons always "
                                    "attack the army"),
                                    cite=(ruleset.cites.get("dragon-attacks-army") or ruleset.cite("dragon-attack"))
                                    if alone else ruleset.cite(_kind_cite(d))))
    return battle


def _all_attack(ruleset: Ruleset, who: Army, battle: Battle, out: StepResult) -> None:
    """An edition with no dragon vs. dragon rule (sfr-v4): every dragon at the terrain attacks the marching army. A
    reading, traced with both citations: 001 says "If there are dragons at any terrain where the marching player has
    an army, those dragons will attack the marching army" and has no rule for dragons of different colors, which
    002 Step 5 has ("they attack one another rather than the acting player's army")."""
    for d in battle.here:
        out.trace.append(TraceEvent(what=f"{d.id} ({d.color}) attacks {who.id}",
                                    rule=ruleset.quote("dragons-all-attack", "every dragon at the terrain attacks the "
                                                       "marching army"),
                                    cite=ruleset.cite("dragons-all-attack")))
    if len({d.color for d in battle.here}) > 1:
        out.trace.append(TraceEvent(what=f"reading: dragons of different colors at {who.at} all attack {who.id}, none "
                                         "fights another",
                                    rule="the edition's dragon rules send every dragon at the terrain against the "
                                         "marching army and have no dragon vs. dragon rule (002 Step 5's is not "
                                         "this edition's)",
                                    cite=ruleset.cite("dragons-all-attack"), kind="reading",
                                    also=ruleset.cite("dragon-vs-dragon")))


def _kind_cite(dragon: Dragon) -> str:
    return {"hybrid": "hybrid-dragons", "ivory-hybrid": "ivory-hybrid-dragons", "white": "white-dragons",
            "ivory": "ivory-dragons"}.get(kinds.kind(dragon), "dragon-vs-dragon")


def _rolled(battle: Battle, dragon: Dragon, what: str, ruleset: Ruleset) -> bool:
    return any(getattr(ruleset.dragon_faces[i], what) for i in battle.icons.get(dragon.id, ()))


# --- Step 2 ------------------------------------------------------------------------------------------


def _roll_dragons(state: GameState, ruleset: Ruleset, who: Army, battle: Battle, step: DragonStep,
                  out: StepResult) -> None:
    """002: "If there are any untamed dragons, or your opponent controls a tamed dragon and decides to have it attack
    your army, then roll the dragon(s)": an untamed dragon in the battle must roll; a dragon tamed by another
    player's champion rolls only if the step gives its icons (its controller decided to attack)."""
    cite = ruleset.cite("dragon-roll")
    given = dict(step.dragons)
    present = {d.id for d in (*battle.at_army, *battle.fighting, *battle.controlled)}
    for dragon_id in out.dragon["tamed"]:
        if dragon_id in given:
            # Dragon Taming: a tamed dragon another player had attack, tamed by this army's champion before it
            # rolled: "The battle ends with no damage to either side" (its icons say its controller attacked)
            out.trace.append(TraceEvent(what=f"{dragon_id} was tamed before it rolled: its icons count for nothing",
                                        rule="the battle ends with no damage to either side",
                                        cite=ruleset.cite("dragon-taming")))
            present.add(dragon_id)
    for dragon_id in given:
        if dragon_id in out.dragon["tamed"]:
            continue
        if dragon_id not in present and dragon_id not in battle.icons:
            raise StepError(f"dragons names {typed(dragon_id)}, which is not in this battle (dragons attacking or fighting "
                            f"at {who.at}: {', '.join(sorted(present)) or 'none'})", cite=cite, field="dragons")
    for dragon in battle.controlled:
        _controlled(ruleset, dragon, given.get(dragon.id), battle, out)
    for dragon in (*battle.at_army, *battle.fighting):
        icons = given.get(dragon.id)
        if icons is None:
            if dragon.tamed_by is not None and dragon in battle.at_army:
                # Dragon Taming: "the army controlling the dragon decides whether the attack occurs": no icons given,
                # its controller decided against it; it does not attack the army
                if dragon.id in out.dragon["attack_army"]:
                    out.dragon["attack_army"].remove(dragon.id)
                out.trace.append(TraceEvent(what=f"{dragon.id}, tamed by {dragon.tamed_by}, does not attack {who.id}: "
                                                 "its controller decides no attack (no icons given)",
                                            rule="the army controlling the dragon decides whether the attack occurs",
                                            cite=ruleset.cite("dragon-taming")))
                continue
            raise StepError(f"{dragon.id} rolls in this dragon attack: give dragons.{dragon.id} (its icons in order, "
                            f"as [tail, jaws])", cite=cite, field="dragons")
        battle.icons[dragon.id] = _icons(ruleset, dragon, icons)
        _trace_roll(ruleset, dragon, battle.icons[dragon.id], out)


def _controlled(ruleset: Ruleset, dragon: Dragon, icons: tuple[str, ...] | None, battle: Battle,
                out: StepResult) -> None:
    """002 SFR Logo (Dragoncrusader, Dragonzealot): "The controlled dragon can either be held motionless (do not roll
    it) and the army can still attack the dragon. Or if there is another dragon at that terrain the controlled
    dragon can be rolled, adding the dragon's damage to the army's melee damage. Any breaths from the controlled
    dragon are directed toward another dragon (acting player's choice)"."""
    cite = ruleset.cite("dragon-control")
    if icons is None:
        battle.held.append(dragon)
        out.trace.append(TraceEvent(what=f"{dragon.id} is held motionless, not rolled", rule="the dragon may be held "
                                    "motionless and the army can attack it normally", cite=cite))
        return
    if len(battle.here) < 2:
        raise StepError(f"{dragon.id} is controlled and no other dragon is at its terrain: it is held motionless "
                        "(do not roll it)", cite=cite, field="dragons")
    battle.allies.append(dragon)
    battle.icons[dragon.id] = _icons(ruleset, dragon, icons)
    _trace_roll(ruleset, dragon, battle.icons[dragon.id], out)
    out.trace.append(TraceEvent(what=f"{dragon.id} is rolled with the army", rule="its damage adds to the army's "
                                "melee; its breath is directed toward another dragon", cite=cite))


def _icons(ruleset: Ruleset, dragon: Dragon, icons: tuple[str, ...]) -> tuple[str, ...]:
    """Only a Tail rolls the dragon again ("roll the dragon again and apply the new result as well")."""
    cite = ruleset.cite("dragon-roll")
    unknown = [i for i in icons if i not in ruleset.dragon_faces]
    if unknown or not icons:
        raise StepError(f"dragons.{dragon.id}: {', '.join(unknown) or 'no icon'}; a dragon's icons are "
                        f"{', '.join(ruleset.dragon_faces)}", cite=cite, field="dragons")
    rerolls = [ruleset.dragon_faces[i].roll_again for i in icons]
    if not all(rerolls[:-1]) or rerolls[-1]:
        raise StepError(f"dragons.{dragon.id}: {told(icons)}: every icon but the last must roll the dragon again "
                        "(a Tail), and the last must not", cite=ruleset.cite("dragons"), field="dragons")
    if dragon.form == "wyrm" and any(ruleset.dragon_faces[i].flies_away for i in icons):
        raise StepError(f"{dragon.id} is a wyrm, which is wingless: it cannot roll a wing", cite=cite,
                        field="dragons")
    return tuple(icons)


def _trace_roll(ruleset: Ruleset, dragon: Dragon, icons: tuple[str, ...], out: StepResult) -> None:
    hurt = kinds.damage(dragon, icons, ruleset)
    times = kinds.scale(dragon, ruleset)
    out.dragon["dragons"][dragon.id] = {"icons": list(icons), "damage": hurt}
    for icon in icons:
        f = ruleset.dragon_faces[icon]
        what = f"{dragon.id} rolls {icon}" + (f": {f.damage * times} damage" if f.damage else "")
        rule = "twice as much damage (a white dragon)" if times > 1 and f.damage else "the dragon icon's effect"
        out.trace.append(TraceEvent(what=what, after=f.damage * times, rule=rule,
                                    cite=ruleset.cite("white-dragons") if times > 1 and f.damage else f.cite))


# --- Step 4 ------------------------------------------------------------------------------------------


def _treasures(state: GameState, ruleset: Ruleset, who: Army, battle: Battle, step: DragonStep,
               out: StepResult) -> GameState:
    """002: "If a dragon rolled a Treasure icon, you may promote a unit now" (a white dragon's: 2 units)."""
    allowed = sum(kinds.promotions(d, battle.icons[d.id], ruleset) for d in battle.attacking())
    if not allowed:
        if step.treasure:
            raise StepError("treasure is given, but no dragon attacking the army rolled a Treasure",
                            cite=ruleset.cite("dragon-treasures"), field="treasure")
        return state
    return slaying.promote(state, ruleset, who, allowed, step.treasure, "treasure", ruleset.cite("dragon-treasures"),
                           out)


# --- Step 5 ------------------------------------------------------------------------------------------


def _dragon_fights(state: GameState, ruleset: Ruleset, who: Army, battle: Battle, step: DragonStep,
                   out: StepResult) -> GameState:
    """002: "Each dragon's owner chooses a dragon of a different color than his or her own as a target ... All
    dragons are rolled simultaneously and the results are applied." Breath "against another dragon ... negates
    the automatic five saves until the end of the marching player's next turn"."""
    cite = ruleset.cite("dragon-vs-dragon")
    chosen = {d: t for d, t in step.fights if d not in {a.id for a in battle.allies}}
    aimed: dict[str, list[Dragon]] = {}
    for dragon in battle.fighting:
        target = _fight_target(dragon, chosen.pop(dragon.id, None), battle, cite, out)
        aimed.setdefault(target.id, []).append(dragon)
        out.dragon["fights"][dragon.id] = target.id
    if chosen:
        raise StepError(f"fights names {', '.join(chosen)}, which fight no other dragon here", cite=cite, field="fights")
    for target_id, attackers in aimed.items():
        target = next((d for d in state.dragons if d.id == target_id), None)
        if target is None:      # slain or banished by an Eldarim champion before the dragons fought
            out.trace.append(TraceEvent(what=f"{target_id} is gone: {', '.join(d.id for d in attackers)} attack(s) "
                                             "nothing", rule="the dragons' targets are chosen among the dragons at "
                                        "the terrain", cite=cite))
            continue
        state = _fight(state, ruleset, who, battle, target, attackers, out)
    return state


def _fight_target(dragon: Dragon, named: str | None, battle: Battle, cite: str, out: StepResult) -> Dragon:
    foes = kinds.foes(dragon, battle.here)
    if named is None:
        out.trace.append(TraceEvent(what=f"{dragon.id} attacks {foes[0].id}", rule="each dragon's owner chooses a "
                                    "dragon of a different color as a target; none given, so the first",
                                    cite=cite, defaulted=len(foes) > 1))
        return foes[0]
    target = next((f for f in foes if f.id == named), None)
    if target is None:
        raise StepError(f"fights: {dragon.id} cannot attack {named}; it may attack "
                        f"{', '.join(f.id for f in foes)}", cite=cite, field="fights")
    return target


def _fight(state: GameState, ruleset: Ruleset, who: Army, battle: Battle, target: Dragon, attackers: list[Dragon],
           out: StepResult) -> GameState:
    cite = ruleset.cite("dragon-vs-dragon")
    icons = {d.id: battle.icons[d.id] for d in attackers}
    hurt = sum(kinds.damage(d, icons[d.id], ruleset) for d in attackers)
    breathed = any(ruleset.dragon_faces[i].breath for d in attackers for i in icons[d.id])
    if breathed:
        state = state.evolve(effects=(*state.effects, Effect(spell=ruleset.dragon_breath_effect, target=target.id,
                                                             by=who.player)))
        out.trace.append(TraceEvent(what=f"breath on {target.id}: its automatic saves are negated", after=0,
                                    rule=ruleset.quote("breath-on-dragon", "against another dragon, dragon breath "
                                                       "negates the automatic five saves until the end of the "
                                                       "marching player's next turn"),
                                    cite=ruleset.cite("dragon-breath")))
    own = battle.icons.get(target.id, ())
    saves = kinds.saves(target, own, state, ruleset)
    health = ruleset.dragon_health * kinds.scale(target, ruleset)
    slain = hurt - saves >= health
    out.trace.append(TraceEvent(what=f"{', '.join(icons)} on {target.id}: {hurt} damage - {saves} automatic saves: "
                                     f"{'slain' if slain else 'survives'}", before=hurt, after=max(0, hurt - saves),
                                rule=f"a dragon has {health} health and {ruleset.dragon_saves} automatic saves (none "
                                     "on a Belly or after a breath)", cite=cite))
    if not slain:
        return state
    out.dragon["slain"].append(target.id)
    return kinds.to_pool(state, target)


# --- Steps 6 and 7 -----------------------------------------------------------------------------------


def _response(state: GameState, ruleset: Ruleset, who: Army, battle: Battle, step: DragonStep,
              casualties: dict[str, list[str]], out: StepResult) -> GameState:
    """002: "The army rolls a combination roll and applies any melee, missile, or save results" ("if the army is
    under the effects of a Blue Dragon Breath, the army can only make a save roll")."""
    cite = ruleset.cite("dragon-response")
    who = state.army(who.id)
    if step.roll is None:
        raise StepError(f"{who.id} rolls against the dragon attack: give roll", cite=cite, field="roll")
    if not who.units:
        out.trace.append(TraceEvent(what=f"{who.id} has no units left to roll", rule="the army responds with its "
                                    "units", cite=cite))
        return state
    blue = _save_only(state, ruleset, who)
    slaying.check_rollers(ruleset, who, battle, step.roll)
    cantrip.members(step.roll, who)
    kind, wanted = ("dragon-save", ("save",)) if blue else ("dragon", ("melee", "missile", "save"))
    choices = {key: dict(pairs) for key, pairs in step.choices} | special_choices(step)
    # a Cantrip suspends the roll: what it buys resolves first (002 Cantrip: "non-maneuver avoidance roll")
    buys = dict(step.cantrip)
    own = cantrip.points(who, step.roll, ruleset)     # none: the step's cantrip is left to a unit joining the roll
    # with a unit joining the roll that rolls a Cantrip too, the army's waits for it (engine.actions.cantrip ``joined``)
    waits = cantrip.waiting(state, who, step.roll, step, ruleset)
    state = cantrip.bought(state, who, own, buys, False, ruleset, out) if own and not waits else state
    who = state.army(who.id)
    dragon_sais.check_flurry(ruleset, step.roll, choices, out)
    # with a unit joining the roll that rolls an Elevate, the army's Elevates wait for it (``_lifted``)
    lifts = any(f.icon == sai_doubling.ELEVATE for _, r in step.unit_saves for _, fs in r.units for f in fs) or \
        any(dict(r.counts).get(sai_doubling.ELEVATE) for _, r in step.unit_saves) or \
        bool(set(choices.get(sai_doubling.ELEVATE, {})) & {u for u, _ in step.unit_saves})   # naming a joining unit
    answer = roll(state, ruleset, who, kind, wanted, cantrip.still_rolling(step.roll, who, out, ruleset), out,
                  choices={**choices, sai_doubling.WAIT: {}} if lifts else choices,
                  facing=tuple(d.id for d in battle.attacking()))
    # Elevate "doubles one unit's missile or save results" inside the roll (engine.sai_doubling)
    others = [s.sai for s in answer.specials
              if s.effect not in (dragon_sais.EFFECT, "cantrip", "double-units", "cloak", "move", "raise", "restore",
                            "fetch")]
    if "elevate" in choices and not lifts and not any(s.sai == "elevate" for s in answer.specials):
        raise StepError("elevate is given, but no unit rolled Elevate in the army's roll",
                        cite=ruleset.sai_sections.get("elevate", cite), field="elevate")
    if others:
        raise StepError(f"{', '.join(others)} in a roll against a dragon attack is not modelled yet by this version "
                        "of ddref", cite=ruleset.cite("sai-resolution"), field="roll")
    results = slaying.usable(answer, blue, ruleset, who, out)
    counted = (who, dict(results))     # the army's own roll as counted, to count again (``_recounted``)
    state, joined = _returned(state, ruleset, answer, who, step, kind, wanted, blue, results, out)
    state, spelled = cantrip.joined(state, state.army(who.id), waits, joined, buys, ruleset, out,
                                    "roll against the dragons",
                                    lambda now, unit_id: _spelled_unit(now, ruleset, who, unit_id, joined[unit_id],
                                                                       step, kind, wanted, blue, results, out))
    if lifts:
        choices = _lifted(ruleset, who, answer, joined, choices, out)
    if spelled or waits or lifts:
        _recounted(state, ruleset, counted, kind, wanted, step.roll, choices, battle, blue, results, out, spelled)
    if lifts:
        # the doubled unit's entry in the roll in progress doubles (``unit_doubled``); the army's own ``results`` do not
        for unit_id, t in sai_doubling.joined_doubled(ruleset, kind, joined, choices, out.trace):
            joined_rolls.unit_doubled(out, who.id, unit_id, t)
    if buys:
        raise StepError(f"cantrip is given for {', '.join(buys)}, which made no roll here",
                        cite=ruleset.sai_sections.get(cantrip.CANTRIP, cite), field="cantrip")
    # their moves, Cloak and dragon-attack SAIs act with the army's; an Elevate of theirs is refused
    answer = joined_rolls.with_joined(answer, joined, ruleset, kind,
                                      (dragon_sais.EFFECT, "cloak", "move", cantrip.CANTRIP, "double-units"))
    _acting_under_blue(ruleset, answer, blue, out)
    state, gone, leavers = sai_states.dragon_moves(state, ruleset, answer, who, step, out)
    # the moved units' results leave the roll as they rolled them (before the army's modifiers): what a count already
    # cut by a penalty cannot give up below zero is taken when the roll is counted without them (``through_pipeline``)
    short = {t: max(0, n - results[t]) for t, n in gone.items()}
    for t, n in gone.items():
        results[t] = max(0, results[t] - n)
    slaying.leave(results, answer, leavers, ruleset, who, out)
    who = state.army(who.id) if state.has_army(who.id) else who.evolve(units=())
    state, cloaked = sai_states.cloak_saves(state, ruleset, answer, who, out)
    if cloaked:
        results["save"] += cloaked
        # reading, traced: the army's "melee avoidance, missile avoidance and save combination roll" is a save
        # roll for Cloak ("During a save roll, add four magical save results"), not a non-save roll
        out.trace.append(reading(f"{who.id}'s combination roll against the dragons includes a save roll: Cloak adds "
                                 f"its {cloaked} magical saves (not magic results)", cite,
                                 ruleset.sai_sections.get("cloak", cite)).evolve(after=cloaked))
    # the units brought back are counted with the army through the one pipeline (the army's modifiers): ``results``
    # is the army's own, with its own changes; the roll's count adds the joined units' (``through_pipeline``)
    for t in wanted:
        results[t] = max(0, joined_rolls.through_pipeline(out, who.id, t, results.get(t, 0) - short.get(t, 0)))
    _as_one_roll(ruleset, who, blue, wanted, results, out)
    struck = dragon_sais.resolve(state, ruleset, who, battle, answer, step, out, blue)
    battle.movers = struck.movers
    slaying.add(results, struck.extra, who, out)
    state = _allies(state, ruleset, who, battle, step, results, out)
    hurt = sum(kinds.damage(d, battle.icons[d.id], ruleset) for d in battle.attacking())
    damage = max(0, hurt - results["save"])
    out.dragon["damage"] = hurt
    out.trace.append(TraceEvent(what=f"{hurt} dragon damage - {results['save']} saves: {damage} damage to {who.id}",
                                before=hurt, after=damage, rule="each save negates one point of damage", cite=cite))
    state = take_damage(state, ruleset, who, damage, casualties, out, "dragon damage", "dragon")
    return slaying.slay(state, ruleset, who, battle, results, struck.slain, step, out)


def _allies(state: GameState, ruleset: Ruleset, who: Army, battle: Battle, step: DragonStep, results: dict[str, int],
            out: StepResult) -> GameState:
    """A controlled dragon rolled with the army: its damage is melee of the army's, its breath negates another
    dragon's saves (the step's ``fights`` names which; default the first)."""
    others = [*battle.attacking(), *battle.held]
    for ally in battle.allies:
        cite = ruleset.cite("dragon-control")
        icons = battle.icons[ally.id]
        hurt = kinds.damage(ally, icons, ruleset)
        slaying.add(results, {"melee": hurt}, who, out)
        out.trace.append(TraceEvent(what=f"{ally.id}'s {hurt} damage: {hurt} melee for {who.id}", after=results["melee"],
                                    rule="adding the dragon's damage to the army's melee damage", cite=cite))
        if not any(ruleset.dragon_faces[i].breath for i in icons) or not others:
            continue
        named = dict(step.fights).get(ally.id)
        target = next((d for d in others if d.id == named), None) if named else others[0]
        if target is None:
            raise StepError(f"fights: {ally.id}'s breath may go to {', '.join(d.id for d in others)}, not {named}",
                            cite=cite, field="fights")
        state = state.evolve(effects=(*state.effects, Effect(spell=ruleset.dragon_breath_effect, target=target.id,
                                                             by=who.player)))
        out.trace.append(TraceEvent(what=f"{ally.id}'s breath on {target.id}: its automatic saves are negated",
                                    rule="any breaths from the controlled dragon are directed toward another dragon",
                                    cite=cite, defaulted=named is None and len(others) > 1))
    return state


def _returned(state: GameState, ruleset: Ruleset, answer, who: Army, step: DragonStep, kind: str,
              wanted: tuple[str, ...], blue, results: dict[str, int], out: StepResult) -> tuple[GameState, dict]:
    """002 SAI List, Regenerate and the Gold and Silver Medallions: "During any non-maneuver roll ... bring back up
    to four health-worth of units from your DUA to the army containing this unit"; those units "are rolled
    immediately and the results applied with the results of their army" (002 Resolution): their melee, missile
    and save results join the army's combination roll against the dragons: they join the roll in progress, counted
    with it (``_as_one_roll``), never added to the army's own ``results``."""
    _returning_reading(ruleset, answer, kind, out)
    state, joined = sai_states.joined_returns(state, ruleset, answer, who, step, out, kind, wanted)
    for unit_id, outcome in joined.items():
        # what the unit rolled, traced; its results count only with the roll (``through_pipeline``, ``_as_one_roll``)
        extra = slaying.usable(outcome, blue, ruleset, who, out)
        shown = ", ".join(f"{extra[t]} {t}" for t in wanted if extra.get(t))
        # the edition's words for the SAI that brought the unit (tsr-1996: 004 Regenerate B, Ferry C and D)
        sai = next((s for s, units in step.targets if unit_id in {u for u, _ in units}), "")
        rule, where = ruleset.words(f"{sai}:dragon", "components brought into an army by a special SAI during a roll "
                                    "are rolled immediately and their results applied with their army's",
                                    ruleset.cite("sai-resolution"))
        out.trace.append(TraceEvent(what=f"{unit_id}, brought in by {sai or 'an SAI'} during the roll, adds "
                                         f"{shown or 'nothing'} to {who.id}'s roll against the dragons",
                                    after=sum(extra.get(t, 0) for t in wanted), rule=rule, cite=where))
    if step.unit_saves and not joined:
        raise StepError(f"unit_saves is given for {', '.join(u for u, _ in step.unit_saves)}, but nothing was "
                        "brought back during the roll", cite=ruleset.cite("sai-resolution"), field="unit_saves")
    return state, joined


def _as_one_roll(ruleset: Ruleset, who: Army, blue, wanted: tuple[str, ...], results: dict[str, int],
                 out: StepResult) -> None:
    """What the totals counted through the pipeline (``through_pipeline``) do not say, read from the roll as it stands
    counted as one roll (engine.roll ``Rolling.whole``: its joined units with it, those that left without): under a
    Blue Dragon Breath the melee and missile that SAIs made with the saves (002 Step 6, Example 4: Counter), and the
    melee and missile not from ID icons, which force a kill ("10 or more melee results ... after applying any
    penalties, but without counting IDs"). A unit that joined the roll counts in them as one in it from the start
    (002 Resolution: "rolled immediately and the results applied with the results of their army"); nothing of theirs
    is added beside the roll. No unit joined or left: the army's own roll says it already."""
    rolling = out.rolls.get(who.id)
    if rolling is None or not (rolling.joined or rolling.still_left()):
        return
    scratch = StepResult(kind=out.kind)     # the whole roll's usable results; its trace is the army's own already
    whole = slaying.usable(rolling.whole([]), blue, ruleset, who, scratch)
    for t in slaying.SLAYING:
        if t not in wanted:     # under the breath: what SAIs made, of the whole roll
            results[t] = whole[t]
        results[f"forced_{t}"] = min(results[t], whole[f"forced_{t}"])


def _lifted(ruleset: Ruleset, who: Army, answer, joined: dict, choices: dict, out: StepResult) -> dict:
    """The choices to count the army's roll again with the Elevates of the units joining it (002 Elevate: "During a
    dragon attack, Elevate doubles one unit's missile or save results"). Reading, traced: Elevate is a Special SAI
    and "If two or more SAIs of the same resolution type are generated during a player's roll, they may be resolved
    in any order the player chooses" (002 Resolution), so the Regenerate that brings the unit is resolved first and
    the roll's Elevates, the army's and the joined units', together after it; identical SAIs that multiply "cannot
    be combined to cause a greater effect upon that same unit" (002 Targeting): each doubles a different unit of the
    army's roll (the step's ``elevate``; none given, those gaining the most)."""
    theirs = {u: sum(s.sai == sai_doubling.ELEVATE for s in o.specials) for u, o in joined.items()}
    theirs = {u: n for u, n in theirs.items() if n}
    where = ruleset.sai_sections.get(sai_doubling.ELEVATE, ruleset.cite("sai-resolution"))
    if "elevate" in choices and not theirs and not any(s.sai == sai_doubling.ELEVATE for s in answer.specials):
        raise StepError("elevate is given, but no unit rolled Elevate in the army's roll (nor a unit joining it)",
                        cite=where, field="elevate")
    out.trace.append(reading(f"{who.id}'s Elevates wait for the units joining its roll"
                             f"{' (' + ', '.join(theirs) + ')' if theirs else ''}: the roll's Elevates double "
                             "different units of its own roll together, after the SAI that brought them",
                             ruleset.cite("sai-resolution"), ruleset.cite("sai-targeting")))
    return sai_doubling.lifted_choices(ruleset, choices, theirs, answer, joined, out.trace)


def _recounted(state: GameState, ruleset: Ruleset, counted: tuple, kind: str, wanted: tuple[str, ...], dice,
               choices: dict, battle: Battle, blue, results: dict[str, int], out: StepResult,
               spelled: bool) -> None:
    """The army's own roll counted again once a Cantrip applied after the units joining it (their own, or the army's
    waiting for theirs) put an effect on the army (a Stoneskin) or took units away: a
    reading, traced: the Cantrip is a Unique SAI, "All activity is suspended to resolve the effect of this SAI"
    (002 Resolution, Unique), so its spells act before the roll's results are applied ("After these spells are
    resolved, the defending army resolves the save roll"), as the army's own Cantrip's do: the army's own results
    (``results``) change by what the effect changes in its own roll, which is the roll in progress's own count now. Also counted again
    with the Elevates of units joining the roll (``_lifted``)."""
    who, before = counted
    where = ruleset.sai_sections.get(cantrip.CANTRIP, ruleset.cite("sai-resolution"))
    if spelled:
        out.trace.append(reading(f"the Cantrip applied once units joined {who.id}'s roll suspends it before its "
                                 f"results are applied: {who.id}'s own roll is counted again with the spells' effects",
                                 ruleset.cite("sai-resolution"), where))
    again, who, scratch = cantrip.counted_again(state, ruleset, who, kind, wanted, dice, out, choices=choices,
                                                facing=tuple(d.id for d in battle.attacking()))
    after = slaying.usable(again, blue, ruleset, who, scratch)
    out.trace.extend(e for e in scratch.trace if e not in out.trace)     # what the effects changed
    for t, n in after.items():
        if n != before.get(t, 0):
            out.trace.append(TraceEvent(what=f"{who.id}: {t} {before.get(t, 0)} -> {n} counted again, its own "
                                             f"{results.get(t, 0)} -> {results.get(t, 0) + n - before.get(t, 0)}",
                                        before=results.get(t, 0),
                                        after=results.get(t, 0) + n - before.get(t, 0),
                                        rule="components brought into an army during a roll have their results "
                                        "applied with their army's", cite=ruleset.cite("sai-resolution")))
        results[t] = results.get(t, 0) + n - before.get(t, 0)


def _spelled_unit(state: GameState, ruleset: Ruleset, who: Army, unit_id: str, rolled, step: DragonStep, kind: str,
                  wanted: tuple[str, ...], blue, results: dict[str, int], out: StepResult) -> None:
    """A Cantrip bought once units joined the roll put an effect on one of them (an Earthen Armor): reading, traced,
    as for the army's own roll (``_recounted``): the Cantrip suspends the roll before its results are applied (002
    Resolution, Unique: "All activity is suspended to resolve the effect of this SAI"), and the unit's results are
    "applied with the results of their army" (002 Resolution), so its own roll is counted again with the effect,
    its entry in the roll in progress with it."""
    again, scratch = cantrip.unit_counted_again(state, ruleset, who.id, unit_id, kind, wanted,
                                                dict(step.unit_saves)[unit_id], out, "roll", facing=())
    before, after = slaying.usable(rolled, blue, ruleset, who, scratch), slaying.usable(again, blue, ruleset, who, scratch)
    cantrip.kept(out, scratch, unit_id, again.results)
    for t in wanted:
        # its new count is its entry in the roll in progress (``cantrip.unit_counted_again`` joins it again): the
        # army's number changes when the roll is counted with it (``_as_one_roll``), not by a sum here
        if after.get(t, 0) != before.get(t, 0):
            out.trace.append(TraceEvent(what=f"{unit_id}: {t} {before.get(t, 0)} -> {after.get(t, 0)} counted again, "
                                             f"in {who.id}'s roll", before=before.get(t, 0), after=after.get(t, 0),
                                        rule="components brought into an army during a roll have their results "
                                        "applied with their army's", cite=ruleset.cite("sai-resolution")))


def _returning_reading(ruleset: Ruleset, answer, kind: str, out: StepResult) -> None:
    """Regenerate and the Medallions name no dragon attack ("During any non-maneuver roll", 002 SAI List). Reading,
    traced where it lets them act: the army's roll against the dragons is such a roll, its parts being melee,
    missile and save (002 Step 6). Under a Blue Dragon Breath it is a save roll, which 002 Application counts among
    the non-maneuver rolls: no reading there."""
    for sai in dict.fromkeys(s.sai for s in answer.specials if s.effect in RETURNING):
        where = ruleset.sai_sections.get(sai, ruleset.cite("sai-resolution"))
        if kind == "dragon-save":
            rule, cite = ruleset.words(f"{sai}:dragon-save", "a non-maneuver roll is one made \"during any action, "
                                       "save roll or non-maneuver avoidance roll\"", ruleset.cite("sai-application"))
        else:
            rule, cite = ruleset.words(
                f"{sai}:dragon", f"a reading: its entry's \"During any non-maneuver roll\" ({where}) is met by the "
                "army's roll against a dragon attack, which \"rolls a combination roll and applies any melee, missile, "
                f"or save results\" ({ruleset.cite('dragon-response')}), no maneuver among them", where)
        out.trace.append(TraceEvent(what=f"{'' if kind == 'dragon-save' else 'reading: '}{sai} acts in "
                                         f"the army's {'save ' if kind == 'dragon-save' else ''}roll against the "
                                         "dragons", rule=rule, cite=cite,
                                    **({} if kind == "dragon-save" else
                                       {"kind": READING, "also": ruleset.cite("dragon-response")})))


def _acting_under_blue(ruleset: Ruleset, answer, blue: Effect | None, out: StepResult) -> None:
    """Wayfare and Teleport, Decapitate, Impale, Bash and the Dragonkin Champion's logo under a Blue Dragon Breath
    (engine.sais: their dragon-attack use kept). Reading, traced where it lets them act: Step 6's exception ("the
    army can only make a save roll") limits the results the army applies, not "Any special result from an SAI
    that specifically states it has an effect during a dragon attack" (Wayfare, Decapitate, Impale, Bash: "During
    a dragon attack ..."), and the breath's save roll is a save avoidance roll, a non-maneuver avoidance roll
    (Teleport, the logo: "During any action or non-maneuver avoidance roll"). Decapitate's and Impale's
    "otherwise three melee/missile results" are results, which the save roll does not apply
    (engine.actions.dragon_sais)."""
    if blue is None:
        return
    acting = [s for s in answer.specials
              if s.effect == "move" and s.sai in ("wayfare", "teleport") or s.effect == dragon_sais.EFFECT]
    for sai, effect in dict.fromkeys((s.sai, s.effect) for s in acting):
        breath, step6 = ruleset.breath_effects[blue.spell][0], ruleset.cite("dragon-response")
        does = "moves units" if effect == "move" else "acts"
        out.trace.append(TraceEvent(
            what=f"reading: {sai} still {does} in the army's save roll against the dragons",
            rule=f"a reading: \"the army can only make a save roll\" limits its results, while \"Any special result "
                 f"from an SAI that specifically states it has an effect during a dragon attack can also be applied\" "
                 f"({step6}); the breath's roll \"becomes simply and only a save avoidance roll\" ({breath}), a "
                 "non-maneuver avoidance roll", cite=ruleset.sai_sections.get(sai, step6), kind=READING, also=step6))


def _save_only(state: GameState, ruleset: Ruleset, who: Army) -> Effect | None:
    return next((e for e in state.effects_on(who.id)
                 if ruleset.breath_effects.get(e.spell, ("", ""))[1] == "save-only"), None)


# --- Step 8 ------------------------------------------------------------------------------------------


def _wings(state: GameState, ruleset: Ruleset, battle: Battle, out: StepResult) -> GameState:
    """002 Step 8: "Any surviving dragons that rolled Wings now go back to their summoning pool"."""
    for dragon in (*battle.at_army, *battle.fighting, *battle.allies):
        alive = any(d.id == dragon.id for d in state.dragons)
        if alive and _rolled(battle, dragon, "flies_away", ruleset):
            out.dragon["flew"].append(dragon.id)
            rest = ruleset.dragon_rest
            out.trace.append(TraceEvent(what=f"{dragon.id} flies away to {dragon.owner or 'its owner'}'s {rest}",
                                        rule=f"any surviving dragons that rolled Wings go back to their {rest}",
                                        cite=ruleset.cite("dragon-wings")))
            state = kinds.to_pool(state, next(d for d in state.dragons if d.id == dragon.id))
    return state
