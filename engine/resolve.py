"""The engine's one entry point: resolve(state, step, ruleset) -> (state', step result)."""

from __future__ import annotations

from importlib import import_module

from .actions.combat import melee, missile
from .actions import sai_endings, sai_states
from .actions.common import army, roll, terrains
from .actions.maneuver import maneuver
from .actions.minor import minor_roll
from .actions.racial import resist_burial, sacrifice_kin, stepped_damage
from .actions.own_roll import unit_roll
from .actions.companions import unused as unused_movers
from .actions.destinations import unused as unused_destinations
from .dragonkin import dissipate
from .exchange import promote
from .capture import abandoned, check_over, winner
from .carrying import unload
from .marches import march
from .minor import check_unrolled, out_of_game
from .sais import RESOLVED, combination_kind
from .kings_die import alone as kings_die_alone
from .taming import released as untame_released
from .expiry import expire
from .ruleset import Ruleset
from .state import Army, GameState
from .steps import (DragonStep, MagicStep, ManeuverStep, MeleeStep, MinorStep, MissileStep, PromoteStep, ReplantStep,
                    ReservesStep, RollStep, SetupStep, Step, StepResult, TurnStep)
from .trace import READING, StepError, TraceEvent, reading

# The kind of roll a plain ``roll`` step makes, by what it is rolled for (engine.sais vocabulary).
_ROLL_KINDS = {("maneuver",): "maneuver", ("melee",): "melee", ("missile",): "missile",
               ("save",): "save", ("magic",): "magic"}


def resolve(state: GameState, step: Step, ruleset: Ruleset) -> tuple[GameState, StepResult]:
    """Resolve one step; a step the rules forbid raises StepError and changes nothing."""
    action = _ACTIONS.get(type(step))
    if action is None:
        raise StepError(f"unknown step {type(step).__name__}")
    check_over(state, ruleset)
    check_unrolled(state, step, ruleset)
    marched, events = march(state, step, ruleset)
    after, out = action(marched, step, ruleset)
    unused_movers(step, out, ruleset)
    unused_destinations(step, out, ruleset)
    out.trace[:0] = events
    ashes = getattr(step, "ashes", None)
    after = sai_endings.after_kills(after, ruleset, None if ashes is None else dict(ashes), out)
    after = sai_endings.glarers_rolled(state, sai_endings.sources_gone(after, ruleset, out), step, ruleset, out)
    after = _soiled_ground(state, after, step, ruleset, out)
    after = sacrifice_kin(state, after, step, ruleset, out)
    after = resist_burial(stepped_damage(state, after, step, ruleset, out), step, ruleset, out)
    after = dissipate(state, _wild_growth(after, ruleset, out), ruleset, out)
    after = _expire_used(after, out, ruleset)
    after = _aftermath(state, after, ruleset, out)
    if ruleset.fallback:
        _mark_fallbacks(out, ruleset)
    return after, out


def _aftermath(before: GameState, state: GameState, ruleset: Ruleset, out: StepResult) -> GameState:
    """What follows any step: items left without carriers are buried, abandoned eighth faces turn back, and
    the game may be won (engine.carrying, engine.capture)."""
    # 002 Magical Items: "If not enough units in the army match the color of the magical items, the extra four-siders
    # are taken out of play immediately and buried. The owner chooses which items to discard": every army whose
    # components changed in the step (a carrier lost, an item gained -- a Silver Medallion's --, an army newly formed
    # by a move) is checked; unchanged armies lost no carrier and gained no item
    for a in state.armies if state.armies is not before.armies else ():
        if any(u.item for u in a.units) and (not before.has_army(a.id) or before.army(a.id).units != a.units):
            state, _ = unload(state, state.army(a.id), (), ruleset, out)
    state = kings_die_alone(state, ruleset, out)
    state = untame_released(state, ruleset, out)
    faces = state.terrains
    state = abandoned(state, ruleset, out)
    state = out_of_game(state, ruleset, out)
    if out.terrains and state.terrains is not faces:
        out.terrains = {t.id: {"face": t.face, "controlled_by": t.controlled_by} for t in state.terrains}
    return winner(before, state, ruleset, out)


def _mark_fallbacks(out: StepResult, ruleset: Ruleset) -> None:
    """sfr-v4 is a starter: "where it is silent, the sfr-2012 rule applies", and the trace says so at each
    event whose rule (and citation) is the fallback edition's."""
    own = ruleset.edition + ":"
    note = f" ({ruleset.edition} is silent here: the {ruleset.fallback} rule applies)"
    out.trace[:] = [e if e.cite.startswith(own) or e.rule.endswith(note) else e.evolve(rule=e.rule + note)
                    for e in out.trace]


def _expire_used(state: GameState, out: StepResult, ruleset: Ruleset) -> GameState:
    """A spell lasting "until used" expires once it has changed its unit's results (002 Burning Hands,
    Earthen Armor, Flaming Armor, Flaming Spears)."""
    spent = [e for e in out.used if ruleset.spell_durations.get(e.spell) == "until-used"]
    return expire(state, spent, "it is used", "this spell remains in effect until it is used by the unit",
                  ruleset, out) if spent else state


def _soiled_ground(before: GameState, state: GameState, step: Step, ruleset: Ruleset, out: StepResult) -> GameState:
    """002 Soiled Ground: "any unit killed at the target terrain that goes into the DUA must roll a save or be
    buried"; each such unit's roll is the step's ``burial`` entry for it."""
    soiled = {e.target: e for e in before.effects if e.spell in ruleset.burial_rolls}
    rolls = {u: r for u, r in getattr(step, "burial", ()) if u not in out.burial_rolled}   # not an SAI's
    # with no such spell in play no killed unit rolls: the kills are not looked up
    for unit_id in (u for u in out.killed if u not in out.burial_rolled) if soiled else ():
        home = next((a for a in before.armies if a.unit(unit_id) is not None), None)
        area = next((a for a in state.dua if any(u.id == unit_id for u in a.units)), None)
        e = soiled.get(home.at) if home is not None else None
        if e is None or area is None:
            continue
        cite = ruleset.spell_sections.get(e.spell, ruleset.cite("spell-effect"))
        if unit_id not in rolls:
            raise StepError(f"{unit_id} was killed at {home.at} under {e.spell} and must roll a save or be buried: "
                            f"give burial.{unit_id}", cite=cite, field="burial")
        unit = next(u for u in area.units if u.id == unit_id)
        # 002 SAI Resolution, Conditional: "The unit rolls to avoid burial. If the Rise from the Ashes SAI comes
        # up, its effect is applied -- avoiding being buried": the burial roll is its Rise from the Ashes roll
        if sai_endings.bears(ruleset, unit):
            state, rose = sai_endings.rise_from_the_ashes(state, ruleset, unit, area.player, rolls[unit_id],
                                                         "to be buried", out, "dua")
            if rose:
                del rolls[unit_id]
                continue
        alone = Army(id=unit_id, player=area.player, at=home.at, units=(unit,))
        state, rolled = unit_roll(state, ruleset, alone, unit_id, "avoid-save", ("save",), rolls.pop(unit_id), out,
                                  step)     # in the DUA: its SAIs' normal results only (engine.actions.own_roll)
        saves = rolled.results.get("save", 0)
        out.trace.append(TraceEvent(what=f"{unit_id}: {saves} save(s) against {e.spell}: "
                                         f"{'stays in the DUA' if saves else 'buried'}", after=saves,
                                    rule="a unit killed at the target terrain must roll a save or be buried",
                                    cite=cite))
        if not saves:
            state = state.take_from("dua", area.player, unit_id).add_to("bua", area.player, (unit,))
            out.buried.append(unit_id)
            if sai_endings.bears(ruleset, unit):
                # 'The unit rolls to avoid burial' (002 Resolution, Conditional) is the one roll that "whenever
                # ... buried, immediately roll the unit" asks for
                out.trace.append(reading(f"{unit_id}: its burial roll was its Rise from the Ashes roll: it does not "
                                         "roll again", ruleset.sai_sections.get(sai_states.RISE, cite),
                                         ruleset.cite("sai-resolution")))
    if rolls:
        raise StepError(f"burial rolls given for {', '.join(rolls)}, which no spell or SAI called for",
                        cite=ruleset.cite("spell-effect"), field="burial")
    return state


def _wild_growth(state: GameState, ruleset: Ruleset, out: StepResult) -> GameState:
    """The promotions a roll's Wild Growth results bought, once the step's rolls are resolved; each roll's are
    one exchange effect (002 Exchanging Units from the DUA)."""
    cite = ruleset.sai_sections.get("wild-growth", ruleset.cite("promote"))
    for army_id, pairs in out.promotions:
        out.trace.append(TraceEvent(what="reading: Wild Growth's promotions, 'immediately' in 002, are made once the "
                                         "step's rolls and damage are resolved; the units promoted must still be in "
                                         "the army", rule=f"this rule read with {ruleset.cite('exchanging')}",
                                    cite=cite, kind=READING, also=ruleset.cite("exchanging")))
        state, events = promote(state, ruleset, army_id, len(pairs), dict(pairs), "Wild Growth", cite)
        out.trace += events
        out.moved += [new for _, new in pairs]
    return state


def _roll(state: GameState, step: RollStep, ruleset: Ruleset) -> tuple[GameState, StepResult]:
    out = StepResult(kind="roll")
    who = army(state, step.army)
    wanted = tuple(step.wanted)
    # a roll for several results at once is a combination roll (002 Avoidance Rolls; a dragon
    # attack roll is "a melee avoidance, missile avoidance and save combination roll")
    if len(wanted) > 1:
        kind = combination_kind(wanted)     # one order, whatever order the step writes (engine.sais)
    else:
        kind = f"avoid-{wanted[0]}" if step.avoidance else _ROLL_KINDS[wanted]
    choices = {key: dict(pairs) for key, pairs in step.choices} | sai_states.special_choices(step)
    rolled = roll(state, ruleset, who, kind, wanted, step.roll, out, choices=choices)
    if kind in OWN_SPECIALS:
        # the roll's returning, moving and Cloak SAIs (002 SAI List: "During any non-maneuver roll ...")
        state, change = sai_states.in_roll(state, ruleset, rolled, who, step, out, kind, wanted[0])
        sai_states.adjust(rolled.results.get(wanted[0], 0), change, who, out, wanted[0])
    _unresolved_specials(rolled.specials, kind, ruleset)
    terrains(state, out)
    return state, out


# the kinds of a roll step in which its own special SAIs are resolved (engine.sais.RESOLVED names them)
OWN_SPECIALS = ("save", "avoid-maneuver", "avoid-melee", "avoid-missile", "avoid-save", "avoid-magic")


# A roll step only counts results: a special SAI result acts on others (002 SAI resolution: "Special: ... the SAI
# has a special effect"), so it is resolved by the step kind of the action it belongs to. Trumpet and Elevate
# double units' results inside the roll itself (engine.sai_doubling); the promotions Wild Growth buys are made
# once the step's rolls are resolved (_wild_growth).
_IN_THE_ROLL = ("double-units", "promote")
_RESOLVED_BY = {"melee": "a melee step (the attack, its targets and the defender's saves)",
                "missile": "a missile step (the attack, its targets and the defender's saves)",
                "magic": "a magic step (cast, cantrip, targets)", "maneuver": "a maneuver step (its counter-maneuvers)"}


def _unresolved_specials(specials: list, kind: str, ruleset: Ruleset) -> None:
    """Refuse a roll step whose special SAI results no roll step resolves, naming the step kind that does."""
    # an army's save or avoidance roll resolves its own returning, moving and Cloak SAIs (sai_states.in_roll)
    own = kind in OWN_SPECIALS
    left = [s for s in specials if s.effect not in _IN_THE_ROLL and not (own and kind in RESOLVED.get(s.effect, ()))]
    if not left:
        return
    where = _RESOLVED_BY.get(kind, "the step of the action or spell this roll answers (melee, missile, magic, "
                                   "dragon_attack: their saves, avoidance or cantrip fields)")
    sais = ", ".join(dict.fromkeys(s.sai for s in left))
    raise StepError(f"{sais} in a {kind} roll is a special result that acts beyond the roll; a roll step only "
                    f"counts results: describe it in {where}",
                    cite=ruleset.sai_sections.get(left[0].sai, ruleset.cite("sai-resolution")), field="roll")


def _on_first_use(module: str, name: str):
    """A step kind's action, its module imported when a step of the kind is first resolved: a replay loads only the
    actions its steps use (a cold ``ddref resolve`` of a skirmish does not load magic, the turn or the set-up)."""
    def action(state: GameState, step: Step, ruleset: Ruleset) -> tuple[GameState, StepResult]:
        return getattr(import_module(module, __package__), name)(state, step, ruleset)

    return action


_ACTIONS = {RollStep: _roll, ManeuverStep: maneuver, MeleeStep: melee, MissileStep: missile,
            MagicStep: _on_first_use(".actions.magic", "magic"), TurnStep: _on_first_use(".actions.turn", "turn"),
            ReservesStep: _on_first_use(".actions.reserves", "reserves"), MinorStep: minor_roll,
            SetupStep: _on_first_use(".setup", "setup")}
_ACTIONS[PromoteStep] = _on_first_use(".actions.promotion", "promotion")
_ACTIONS[ReplantStep] = _on_first_use(".actions.promotion", "replanting")


def _dragon_attack(state: GameState, step: DragonStep, ruleset: Ruleset) -> tuple[GameState, StepResult]:
    # imported on first use: a replay without a dragon attack does not load the dragon modules
    from .actions.dragon import dragon_attack

    return dragon_attack(state, step, ruleset)


_ACTIONS[DragonStep] = _dragon_attack
