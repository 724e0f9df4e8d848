"""The engine's one entry point: resolve(state, step, ruleset) -> (state', step result)."""

from __future__ import annotations

from importlib import import_module

from .actions.combat import melee, missile
from .actions import hooks, sai_states
from .actions.common import army, roll, terrains
from .actions.maneuver import maneuver
from .actions.minor import minor_roll
from .actions.companions import unused as unused_movers
from .actions.destinations import unused as unused_destinations
from .after_step import After, run_after_step
from .capture import check_over
from .chosen import FIELDS as CHOICE_FIELDS, recording, unread
from .marches import march
from .minor import check_unrolled
from .moves import haunt_army
from .sais import RESOLVED, combination_kind
from .ruleset import Ruleset
from .state import GameState
from .steps import (DragonStep, MagicStep, ManeuverStep, MeleeStep, MinorStep, MissileStep, PromoteStep, ReplantStep,
                    ReservesStep, RollStep, SetupStep, Step, StepResult, TurnStep)
from .trace import StepError
from .actions.sai_choices import special_choices

# The kind of roll a plain ``roll`` step makes, by what it is rolled for (engine.sais vocabulary).
_ROLL_KINDS = {("maneuver",): "maneuver", ("melee",): "melee", ("missile",): "missile",
               ("save",): "save", ("magic",): "magic"}


def resolve(state: GameState, step: Step, ruleset: Ruleset) -> tuple[GameState, StepResult]:
    """Resolve one step; a step the rules forbid raises StepError and changes nothing."""
    action = _ACTIONS.get(type(step))
    if action is None:
        raise StepError(f"unknown step {type(step).__name__}")
    check_over(state, ruleset)
    _haunt_gone(state, step, ruleset)
    check_unrolled(state, step, ruleset)
    marched, events = march(state, step, ruleset)
    with recording() as seen:
        after, out = action(marched, step, ruleset)
    unused_movers(step, out, ruleset)
    unused_destinations(step, out, ruleset)
    _unread_choices(step, seen, ruleset)
    _unrolled_unit_saves(step, out, ruleset)
    out.trace[:0] = events
    after = run_after_step(After(state, step, ruleset, out), after)
    if ruleset.fallback:
        _mark_fallbacks(out, ruleset)
    return after, out


def _haunt_gone(state: GameState, step: Step, ruleset: Ruleset) -> None:
    """A step naming a Haunt's army of the dead (its army or its target) once that spell is resolved is refused:
    002 Glossary, Magically Constructed Army: "This army cannot sustain any action past the melee action. It
    conducts a melee attack and disappears" (the army exists only inside its Haunt's melee, engine.actions.spells)."""
    cite = ruleset.cites.get("haunt-army")
    for field in ("army", "target"):
        named = getattr(step, field, None)
        player = next((p for p in state.players if named == haunt_army(p)), None)
        if cite is None or player is None or state.has_army(named):
            continue
        raise StepError(f"{named} is the magically constructed army {player}'s Haunt formed of the dead: it cannot "
                        "sustain any action past the melee action (it conducts a melee attack and disappears)",
                        cite=cite, field=field)


def _unread_choices(step: Step, seen: set, ruleset: Ruleset) -> None:
    """A choice entry no rule of the step read is refused (issue 21 §3, "never silently"; engine.chosen): the SAI
    was not rolled, or rolled where it does not act, the unit made no such roll, no penalty was taken."""
    for field, keys in unread(step, seen):
        raise StepError(f"{field} names {', '.join(keys)}, which nothing in this step used: each entry must name "
                        f"{CHOICE_FIELDS[field]}", cite=ruleset.cite(_CHOICE_CITES.get(field, "sai-resolution")), field=field)


# the rule each choice field answers to (doubles and penalties: the dice modifiers' owner's choices)
_CHOICE_CITES = {"doubles": "modifier-order", "penalties": "modifier-order", "counts_as": "avoidance"}


def _unrolled_unit_saves(step: Step, out: StepResult, ruleset: Ruleset) -> None:
    """A roll or magic step's ``unit_saves`` gives the roll of a unit brought into its roll (Regenerate, the Gold
    Medallion): a unit that made no roll in the step was brought by nothing, and its entry is refused (issue 21 §3;
    the attack steps and the dragon attack check theirs in their actions)."""
    if not isinstance(step, (RollStep, MagicStep)):
        return
    idle = [u for u, _ in step.unit_saves if u not in out.results and u not in out.every_roll]
    if idle:
        raise StepError(f"unit_saves names {', '.join(idle)}, which nothing in this step brought into a roll (no unit "
                        "of it rolled)", cite=ruleset.cite("sai-resolution"), field="unit_saves")
    # a magic step's ``choices`` are a target's in its combination rolls (Tidal Wave): for a target that rolled
    unrolled = [t for t, _ in step.choices if t not in out.results and t not in out.every_roll] \
        if isinstance(step, MagicStep) else []
    if unrolled:
        raise StepError(f"choices names {', '.join(unrolled)}, which made no roll in this step (choices are a "
                        "target's in its combination rolls against the spells)", cite=ruleset.cite("sai-resolution"),
                        field="choices")


def _mark_fallbacks(out: StepResult, ruleset: Ruleset) -> None:
    """sfr-v4 is a starter: "where it is silent, the sfr-2012 rule applies", and the trace says so at each
    event whose rule (and citation) is the fallback edition's."""
    own = ruleset.edition + ":"
    note = f" ({ruleset.edition} is silent here: the {ruleset.fallback} rule applies)"
    out.trace[:] = [e if e.cite.startswith(own) or e.rule.endswith(note) else e.evolve(rule=e.rule + note)
                    for e in out.trace]


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
    choices = {key: dict(pairs) for key, pairs in step.choices} | special_choices(step)
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
# once the step's rolls are resolved (engine.after_step.wild_growth).
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


def _function_on_first_use(module: str, name: str):
    """A function of a module loaded on first use (``_on_first_use``), for a hook a lower module calls."""
    def call(*args, **kwargs):
        return getattr(import_module(module, __package__), name)(*args, **kwargs)

    return call


# the recursions across layers (engine.actions.hooks) whose answering module is loaded on first use: a Cantrip's
# spells are resolved as a magic action's (engine.actions.magic ``spend``), in a replay that may have no magic step
hooks.SPEND.fill(_function_on_first_use(".actions.magic", "spend"))

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
