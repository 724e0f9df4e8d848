"""State SAIs: what their special results leave in play (002 SAI List).

Units that "cannot be rolled" (Entangle, Web, Net, Sleep, Stun, Hypnotic Glare) and armies whose rolls are cut or
shielded (Wither, Frost Breath, Galeforce, Illusion) are ``Effect``s named by the SAI. The roll pipeline consults them
as it does spells in play (``Ruleset.spell_protections``, ``spell_modifiers``, ``army_shields``; engine.galeforce for
Galeforce), and engine.expiry ends them by their duration; effects bound to their source unit end with it
(engine.actions.sai_endings ``sources_gone``, ``glarers_rolled``). A unit that may escape (Web, Net, Stun) makes its own
roll (engine.actions.own_roll), its SAIs resolved as in its army's roll (engine.actions.sai_states): this module sits
above both.

The acting player's choices are the step's ``targets`` (units, or an army id) and ``unit_saves`` (each target's own
avoidance roll); where a step is silent the documented default is taken and marked ``defaulted``; an illegal choice is
an error listing the legal ones.
"""

from __future__ import annotations

from ..chosen import read as chosen_read
from ..damage import default_casualties
from ..roll import Outcome, Roll, Special
from ..ruleset import Ruleset, SaiState
from ..state import Army, Effect, GameState
from ..steps import AttackStep, StepResult
from ..trace import StepError, TraceEvent, reading, told
from .joined_rolls import leave
from .own_roll import unit_roll
from .sai_choices import grouped, named_targets, sai_cite
from .select_none import refuse_none


# --- special results before the defender's saves: states on units or on an army -------------------------


def place_states(state: GameState, ruleset: Ruleset, specials: list[Special], attacker: Army,
                 defender: Army | None, step, out: StepResult) -> GameState:
    """Entangle, Web, Net, Sleep, Stun (on units) and Wither, Frost Breath, Galeforce, Illusion (on an army):
    special results, resolved before the defending army rolls for saves (``defender`` None: a magic action)."""
    for sai, rolled in grouped(specials, ("unit-state", "army-state")).items():
        rule = ruleset.sai_states[sai]
        if rule.target in ("enemy-army", "own-army"):
            state = _on_army(state, ruleset, sai, rule, rolled, attacker, defender, step, out)
        else:
            state = _on_units(state, ruleset, sai, rule, rolled, attacker, defender, step, out)
    return state


def _on_army(state: GameState, ruleset: Ruleset, sai: str, rule: SaiState, rolled: list[Special], attacker: Army,
             defender: Army, step: AttackStep | None, out: StepResult) -> GameState:
    cite = sai_cite(ruleset, sai)
    own = rule.target == "own-army"
    legal = [a.id for a in state.armies if a.units and (a.player == attacker.player) == own]
    chosen = named_targets(step, sai)
    if chosen is None:
        target = _default_army(state, sai, own, attacker, defender, legal, cite)
        out.trace.append(TraceEvent(what=f"{sai}: {target} chosen", rule="the acting player chooses the army; none "
                                    "given, so " + ("the acting army" if own else "the defending army" if defender
                                                    else f"the first opposing army at {attacker.at}"), cite=cite,
                                    defaulted=True))
    elif len(chosen) != 1 or chosen[0] not in legal:
        raise StepError(f"{sai} targets one {'of your armies' if own else 'opposing army'}: legal choices are "
                        f"{', '.join(legal)}", cite=cite, field="targets")
    else:
        target = chosen[0]
    # Wither: "subtract one result per Wither icon" -- one effect counting every icon; the others do not add up
    count = sum(s.points for s in rolled) if sai == "wither" else 1
    effect = Effect(spell=sai, target=target, by=attacker.player, count=count, source=rolled[0].unit)
    # Reading (the texts say only "before they finalize any results"): Wither and Frost Breath act as dice
    # modifiers of the army's rolls, in 002 Applying Dice Modifiers' order, never on results an SAI made
    what = f"{sai} on {target} until {_until(ruleset, sai)}"
    if sai in ruleset.spell_modifiers:
        out.trace.append(reading(f"{what}: it acts on the target army's rolls as a dice modifier, in the modifier "
                                 "order, never on results an SAI made", cite, ruleset.cite("modifier-order"))
                         .evolve(after=count))
    else:
        out.trace.append(TraceEvent(what=what, after=count, rule="a delayed special result: it acts on the target "
                                    "army's rolls from now on, before they are finalized", cite=cite))
    return state.evolve(effects=(*state.effects, effect))


def _default_army(state: GameState, sai: str, own: bool, attacker: Army, defender: Army | None,
                  legal: list[str], cite: str) -> str:
    if own or defender is not None:
        return attacker.id if own else defender.id
    here = [a for a in legal if state.army(a).at == attacker.at]
    if not here:
        raise StepError(f"{sai} chooses an opposing army: none is at {attacker.at}, so name it in targets (legal "
                        f"choices: {', '.join(legal)})", cite=cite, field="targets")
    return here[0]


def bound_source(state: GameState, sai: str, bound: str | None, rolled: list[Special], cite: str) -> str:
    """The unit whose SAI made an effect that ends with that unit (002 SAI List, Entangle: "Killing the entangling
    unit negates the effect"; Hypnotic Glare: it "ends immediately for all units if the glaring unit leaves the
    current terrain, is killed, or is rolled"). An aggregate roll does not say which unit rolled the SAI, and the
    effect would be taken for one whose source is gone: such a roll is refused, asking for the per-unit form."""
    source = rolled[0].unit
    if bound is not None and any(a.id == source for a in state.armies):
        raise StepError(f"{sai} ends with the unit that rolled it (when it is killed or leaves), so the engine must "
                        f"know which unit that is: give {source}'s roll per unit (unit-id: face), not as the army's "
                        "aggregate", cite=cite, field="roll")
    return source


def _on_units(state: GameState, ruleset: Ruleset, sai: str, rule: SaiState, rolled: list[Special], attacker: Army,
              defender: Army, step: AttackStep | None, out: StepResult) -> GameState:
    cite = sai_cite(ruleset, sai)
    source = bound_source(state, sai, rule.bound, rolled, cite)
    targets = _unit_targets(state, ruleset, sai, rule, rolled, attacker, defender, step, out)
    saves = dict(step.unit_saves) if step is not None else {}
    for unit_id in targets:
        home = next(a for a in state.armies if a.unit(unit_id) is not None)
        if rule.avoid is not None:
            state, escaped = _avoids(state, ruleset, sai, rule, home, unit_id, saves, step, out)
            if escaped:
                continue
        state = state.evolve(effects=(*state.effects, Effect(spell=sai, target=unit_id, by=attacker.player,
                                                             source=source)))
        words, where = ruleset.words(f"{sai}:state", "the target units cannot be rolled while the effect lasts",
                                     cite)
        out.trace.append(TraceEvent(what=f"{sai}: {unit_id} cannot be rolled until {_until(ruleset, sai)}",
                                    rule=words, cite=where))
    return state


def _unit_targets(state: GameState, ruleset: Ruleset, sai: str, rule: SaiState, rolled: list[Special],
                  attacker: Army, defender: Army, step: AttackStep | None, out: StepResult) -> tuple[str, ...]:
    """The units the acting player chose: up to the points of health-worth in the defending army (at least one
    unit: 002 Targeting (a)), or one unit of an opposing army per unit rolling the SAI (Sleep)."""
    cite = sai_cite(ruleset, sai)
    if rule.target == "unit":
        pool = [u for a in state.armies if a.player != attacker.player and a.at == attacker.at for u in a.units]
        limit, what = len(rolled), f"{len(rolled)} unit(s) of an opposing army at {attacker.at}"
    else:
        pool = list(defender.units)
        # reading: "up to four health-worth" is the SAI's points of effect (four on a monster, 002 SAI
        # General Information: "Each single SAI on a monster ... counts as four points of effect")
        limit, what = sum(s.points for s in rolled), f"up to {sum(s.points for s in rolled)} health-worth of " \
                                                     f"units of {defender.id}"
    if rule.target == "units":
        words, where = ruleset.words(f"{sai}:targets", "read: the text's \"four health-worth\" is the SAI's points "
                                     "of effect, four on a monster", cite)
        read = f"{sai}:targets" not in ruleset.sai_words or f"{sai}:targets" in ruleset.sai_read_with
        out.trace.append(TraceEvent(what=f"{sai}: {limit} point(s) of effect: up to {limit} health-worth of units",
                                    after=limit, rule=words, cite=where,
                                    also=ruleset.sai_read_with.get(f"{sai}:targets", ruleset.cite("sai-points"))
                                    if read else ""))
    found = dict(step.targets).get(sai) if step is not None else None
    if found is not None:
        chosen_read("targets", sai)
    refuse_none(ruleset, sai, "melee", found)     # "cannot choose to select none" (002 Targeting (a))
    chosen = named_targets(step, sai)
    if chosen is None:
        picked = default_casualties(pool, limit) if rule.target == "units" else tuple(u.id for u in pool[:limit])
        out.trace.append(TraceEvent(what=f"{sai}: {', '.join(picked)} chosen", after=len(picked),
                                    rule=f"the acting player chooses {what}; none given, so as much health-worth "
                                         "as possible, the smallest units first", cite=cite, defaulted=True))
        return picked
    by_id = {u.id: u for u in pool}
    worth = sum(by_id[i].health if rule.target == "units" else 1 for i in chosen if i in by_id)
    if not chosen or any(i not in by_id for i in chosen) or worth > limit or len(set(chosen)) < len(chosen):
        raise StepError(f"{sai} targets {what} (at least one): {told(chosen)} is not such a choice; the units "
                        f"to choose from: {', '.join(f'{u.id} ({u.health})' for u in pool)}", cite=cite,
                        field="targets")
    return chosen


def _avoids(state: GameState, ruleset: Ruleset, sai: str, rule: SaiState, home: Army, unit_id: str,
            saves: dict[str, Roll], step, out: StepResult) -> tuple[GameState, bool]:
    """Web, Net, Stun: "unless each targeted unit immediately rolls a <result>" -- its own avoidance roll, its SAIs'
    specials resolved as in its army's roll (engine.actions.own_roll); the state and whether it escapes."""
    cite = sai_cite(ruleset, sai)
    if unit_id not in saves:
        raise StepError(f"{unit_id} must roll a {rule.avoid} result by itself to escape {sai}: give "
                        f"unit_saves.{unit_id}", cite=cite, field="unit_saves")
    state, rolled = unit_roll(state, ruleset, home, unit_id, f"avoid-{rule.avoid}", (rule.avoid,), saves.pop(unit_id),
                              out, step)
    got = rolled.results.get(rule.avoid, 0)
    words, where = ruleset.words(f"{sai}:avoid", f"each target unit escapes if it rolls a {rule.avoid} result", cite)
    out.trace.append(TraceEvent(what=f"{unit_id} rolls {got} {rule.avoid} against {sai}: "
                                     f"{'escapes' if got else 'caught'}", after=got, rule=words, cite=where))
    return state, got > 0


def _until(ruleset: Ruleset, sai: str) -> str:
    return ruleset.spell_durations.get(sai, "").replace("until-", "").replace("-", " ")


# --- delayed: after the defender's save roll ------------------------------------------------------------


def glare(state: GameState, ruleset: Ruleset, specials: list[Special], attacker: Army, defender: Army,
          answer: Outcome, dice: Roll, out: StepResult) -> tuple[GameState, int]:
    """002 Hypnotic Glare: "after the defending army rolls to save ... target all units in the defending army
    which rolled an ID to become immediately 'hypnotized'. Their results do not count towards the save roll,
    but they may be chosen as casualties." Returns the save results they lose.

    Reading: their results are taken away as counted before the army's modifiers (the text does not say
    whether before or after; 002 Applying Dice Modifiers acts on the army's total, where the units' shares
    are no longer told apart)."""
    rolled = [s for s in specials if s.effect == "glare"]
    if not rolled:
        return state, 0
    cite = sai_cite(ruleset, "hypnotic-glare")
    source = bound_source(state, "hypnotic-glare", "present", rolled, cite)
    if not dice.per_unit:
        raise StepError(f"Hypnotic Glare takes the units of {defender.id} that rolled an ID: give its save roll "
                        "per unit", cite=cite, field="saves")
    hypnotized = [uid for uid, faces in dice.units if any(f.icon == "id" for f in faces)]
    lost = sum(answer.per_unit.get(uid, {}).get("save", 0) for uid in hypnotized)
    leave(out, defender.id, hypnotized, answer.per_unit)     # counted again without them (``adjust``)
    for uid in hypnotized:
        state = state.evolve(effects=(*state.effects, Effect(spell="hypnotic-glare", target=uid,
                                                             by=attacker.player, source=source)))
    out.trace.append(reading(f"Hypnotic Glare: {', '.join(hypnotized) or 'no unit'} of {defender.id} rolled an ID and "
                             f"are hypnotized: -{lost} save(s), their results taken out as counted, before the army's "
                             "modifiers (the text is silent)", cite, ruleset.cite("modifier-order")).evolve(after=lost))
    return state, lost
