"""The special effects of SAIs in melee and missile actions: effect kind (engine.sais ``special``) -> handler.

002 SAI Resolution Order: "1. Instant (rerolling) 2. Special or Unique (in any order the player wishes)
3. Normal 4. Delayed (after other player rolls, but before results are final)"; Late SAIs act "until the
target rolls and finalizes their results". Each kind of effect has a ``phase`` saying when the action
(engine.actions.combat) calls it:

- ``special``: after the attack roll, before the defending army rolls saves (Smite, Bullseye, Slay ...);
- ``delayed``: after the defending army rolls saves, before it applies its unique or special SAIs
  (Decapitate, Choke, Confuse);
- ``save``: an SAI of the defending army's save roll that strikes back (Counter, Volley, Bash);
- ``late``: once the defending army has finalized (Surprise, Charge: no counter-attack);
- ``roll``: acts inside the roll itself (engine.roll: Trumpet, Elevate, Charge), nothing left to do here;
- ``finalize``: cuts the defending army's results as they are finalized (Screech, Howl, Wave: subtracted in its
  roll's pipeline with the modifiers that subtract, engine.roll ``cut_choices``).

Identical SAIs rolled together are resolved as one (002 SAI Targeting: "their effects are combined"); the
acting player chooses the order of the special and unique ones (the step's ``order``; by default the order
they were rolled in, marked ``defaulted``).
"""

from __future__ import annotations

from collections.abc import Callable

from ..roll import RollContext, Special, resolve_roll
from ..ruleset import Ruleset
from ..sais import RESOLVED, sai_use
from ..state import RESULT_TYPES, Army, GameState
from ..steps import AttackStep, MagicStep, StepResult
from ..trace import StepError, TraceEvent, reading
from ..value import Value
from . import answers, delayed, illusion, strikes
from .common import casualties_destination, casualty_lists, take_damage
from .fight import Fight

Handler = Callable[[Fight, str, list[Special]], None]


class SpecialEffect(Value):
    phase: str
    handler: Handler | None = None


def _army_damage(fight: Fight, sai: str, specials: list[Special]) -> None:
    """Smite, Stone: "immediately inflicts one point of damage ...; no saves (including those provided by
    spells) can stop this damage"."""
    points = sum(s.points for s in specials)
    defender = fight.army()
    fight.out.trace.append(TraceEvent(what=f"{sai}: {points} damage to {defender.id}, no saves", after=points,
                                      rule="special SAI results resolve before the defending army rolls for saves",
                                      cite=fight.cite(sai)))
    fight.state = take_damage(fight.state, fight.ruleset, defender, points, fight.casualties, fight.out, sai,
                              fight.action, army_targeting=not _past_protection(fight, sai, defender))


def _past_protection(fight: Fight, sai: str, defender) -> bool:
    """Whether a spell that would send this damage's casualties elsewhere than the DUA (Open Grave, Leaving) is
    passed by: reading (traced), 002 The Stoneskin Rule counts spells that "prevent units that are killed from
    going to the dead unit area (e.g. Open Grave)" as magical protection, and "SAIs that state: 'no saves
    (including those provided by spells)'" -- Smite, Stone -- "cannot be avoided by magical protection"; Open
    Grave's own "for any army-targeting effect that causes damage to the target army" would take them, but the
    Stoneskin Rule names Open Grave and these SAIs together and is the more specific text. tsr-1996 keeps Open
    Grave's reach (000 Open Grave "all units killed in the target army"; 004 Flame C: "Open Grave DOES save
    Flamed units"), its ruleset naming no such SAI."""
    if sai not in fight.ruleset.unprotected_sais:
        return False
    grave = casualties_destination(fight.state, fight.ruleset, defender)
    if grave is None:
        return False
    spell = grave[0]
    fight.out.trace.append(reading(
        f"{spell} on {defender.id} is magical protection (\"prevent units that are killed from going to the dead "
        f"unit area (e.g. Open Grave)\"), which {sai}'s damage, \"no saves (including those provided by spells)\", "
        f"cannot be avoided by: its casualties go to the DUA, though {spell} sends casualties of \"any "
        "army-targeting effect\" elsewhere", fight.ruleset.cite("stoneskin-rule"),
        fight.ruleset.spell_sections.get(spell, fight.cite(sai))))
    return True


# effect kind -> when it acts and its handler (None: the roll or the action itself applies it)
EFFECTS: dict[str, SpecialEffect] = {
    "army-damage-no-saves": SpecialEffect("special", _army_damage),
    "unit-damage-with-saves": SpecialEffect("special", strikes.spread),
    "cantrip": SpecialEffect("special"),            # engine.actions.cantrip, while the roll is suspended
    "cut-saves": SpecialEffect("finalize"),
    "back-damage": SpecialEffect("save"),           # engine.actions.skirmish.back_damage
    "unit-strike": SpecialEffect("special", strikes.strike),
    "unit-test": SpecialEffect("special", strikes.test),
    "unit-kill": SpecialEffect("special", strikes.kill_units),
    "plague": SpecialEffect("special", strikes.plague),
    "sneak-attack": SpecialEffect("special", strikes.sneak_attack),
    "charm": SpecialEffect("special", delayed.charm),
    "rolled-id-kill": SpecialEffect("delayed", delayed.rolled_id_kill),
    "reroll-saves": SpecialEffect("delayed", delayed.confuse),
    "surprise": SpecialEffect("late", answers.surprise),
    "charge": SpecialEffect("special", answers.charge),
    "bash": SpecialEffect("save", answers.bash),
    "double-units": SpecialEffect("roll"),
    "friendly-fire": SpecialEffect("late", illusion.friendly_fire),     # tsr-1996 Illusion (004)
}


def check_modelled(fight: Fight, specials: list[Special]) -> None:
    """A special result this version has no effect for is an error, never silently ignored."""
    for s in specials:
        if s.effect not in EFFECTS:
            raise StepError(f"{s.sai} in a {fight.action} roll is not modelled yet by this version of ddref; "
                            f"describe the roll without it or see 'ddref sai {s.sai}'", cite=fight.cite(s.sai),
                            field="roll")


def in_phase(specials: list[Special], phase: str) -> dict[str, list[Special]]:
    """The specials of one phase, identical SAIs together, in the order rolled."""
    out: dict[str, list[Special]] = {}
    for s in specials:
        effect = EFFECTS.get(s.effect)
        if effect is not None and effect.phase == phase and effect.handler is not None:
            out.setdefault(s.sai, []).append(s)
    return out


def ordered(fight: Fight, groups: dict[str, list[Special]]) -> list[str]:
    """The acting player's order (``order``) of the SAIs in ``groups``, or the order rolled (defaulted)."""
    order = own_order(fight)
    chosen = [s for s in order if s in groups]
    rest = [s for s in groups if s not in chosen]
    if len(groups) > 1 and rest and not chosen:
        fight.out.trace.append(TraceEvent(
            what=f"special SAIs resolved in the order rolled: {', '.join(groups)}", rule="special and unique "
            "SAIs are resolved in any order the acting player wishes; no order given",
            cite=fight.ruleset.cite("sai-resolution"), defaulted=True))
    elif chosen:
        fight.out.trace.append(TraceEvent(
            what=f"special SAIs resolved in the {'defending' if fight.counter else 'acting'} player's order: "
                 f"{', '.join(chosen + rest)}",
            rule="if two or more SAIs of the same resolution type are generated during a player's roll, they "
                 "may be resolved in any order the player chooses", cite=fight.ruleset.cite("sai-resolution")))
    return chosen + rest


def own_order(fight: Fight) -> tuple[str, ...]:
    """The order of the rolling player's special SAIs: the step's ``order`` for the attack, ``counter_order`` for
    a counter-attack (002 SAI Resolution Order: "in any order the player wishes": each player orders their own
    roll's SAIs); a magic step has none."""
    return getattr(fight.step, "counter_order" if fight.counter else "order", ())


def resolve(fight: Fight, specials: list[Special], phase: str) -> None:
    """Run every special of ``phase`` (identical SAIs combined), in the acting player's order."""
    groups = in_phase(specials, phase)
    for sai in ordered(fight, groups) if phase == "special" else groups:
        if fight.army().units:
            EFFECTS[groups[sai][0].effect].handler(fight, sai, groups[sai])


LOGO = "sfr-tsr-logo-dragonkin-champion"


def leftover_choices(step: AttackStep, fights: list[Fight]) -> None:
    """The step's ``targets``, ``order`` and ``unit_saves`` name only SAIs its rolls made and units they made
    roll: a choice nothing used is a mistake in the scenario, never silently ignored."""
    if step is None or not fights:
        return
    cite = fights[0].ruleset.cite("sai-resolution")
    seen = set().union(*(f.seen | set(f.out.own_sais) for f in fights))
    countered = set().union(*(f.seen for f in fights if f.counter))
    for name, chosen, made in (("targets", [s for s, _ in step.targets], seen), ("order", list(step.order), seen),
                               ("counter_order", list(getattr(step, "counter_order", ())), countered)):
        unused = [s for s in chosen if s not in made]
        if unused:
            raise StepError(f"{name} name {', '.join(unused)}, which no roll of this step made as a special SAI "
                            f"(special SAIs rolled: {', '.join(sorted(made)) or 'none'})", cite=cite, field=name)
    if step.move_dragons and LOGO not in seen:
        raise StepError(f"move_dragons is given, but no roll of this step made a Dragonkin Champion's logo (special "
                        f"SAIs rolled: {', '.join(sorted(seen)) or 'none'})", cite=cite, field="move_dragons")
    read = set().union(*(f.rolled_units for f in fights))
    unused = [u for u, _ in (*step.unit_saves, *getattr(step, "unit_ids", ())) if u not in read]
    if unused:
        raise StepError(f"unit_saves or unit_ids are given for {', '.join(unused)}, which no SAI of this step made roll by "
                        "itself", cite=cite, field="unit_saves")


def before_magic(state: GameState, caster: Army, step: MagicStep, ruleset: Ruleset,
                 out: StepResult) -> tuple[GameState, MagicStep]:
    """The special SAIs of a magic action's roll (Sneak Attack: "During a missile or magic action,
    immediately kill ...") resolve before its magic is counted and spent (002 SAI Resolution Order: special
    before normal); returns the state and the step less the casualties they took."""
    found = []
    if any(_special_in_magic(f.icon, ruleset) for _, faces in step.roll.units for f in faces) or \
            any(_special_in_magic(icon, ruleset) for icon, _ in step.roll.counts):
        ctx = RollContext(state=state, army=caster, kind="magic", wanted=("magic",), ruleset=ruleset)
        found = [s for s in resolve_roll(ctx, step.roll).specials if s.effect in EFFECTS]
    # the state and moving SAIs' targets are engine.actions.sai_states' (RESOLVED); a unit a Regenerate brings into
    # the roll may make the special (``after_magic``)
    joining = {f.icon for _, r in step.unit_saves for _, fs in r.units for f in fs} | \
        {icon for _, r in step.unit_saves for icon, _ in r.counts}
    unused = [s for s, _ in step.targets if s not in {f.sai for f in found} | joining and not _state_sai(s, ruleset)]
    if unused:
        raise StepError(f"targets name {', '.join(unused)}, which the magic roll did not make as a special SAI",
                        cite=ruleset.cite("sai-resolution"), field="targets")
    if not found:
        return state, step
    return after_magic(state, caster, step, found, ruleset, out)


def after_magic(state: GameState, caster: Army, step: MagicStep, found: list, ruleset: Ruleset,
                out: StepResult) -> tuple[GameState, MagicStep]:
    """The special SAIs ``found`` of ``caster``'s magic roll (its own, ``before_magic``; those of the units a
    Regenerate brought into it, engine.actions.magic_returns) resolved at once; returns the state and
    the step less the casualties they took."""
    enemy = next((a.id for a in state.armies if a.player != caster.player and a.units), None)
    casualties = casualty_lists(step.casualties)
    fight = Fight(state=state, ruleset=ruleset, attacker=caster.id, defender=enemy or caster.id, action="magic",
                  step=step, casualties=casualties, out=out)
    resolve(fight, found, "special")
    return fight.state, step.evolve(casualties=tuple((a, tuple(ids)) for a, ids in casualties.items()))


def _state_sai(sai: str, ruleset: Ruleset) -> bool:
    use = sai_use(sai, "magic", ruleset.sai_uses)
    return use is not None and use.special in RESOLVED


def _special_in_magic(icon: str, ruleset: Ruleset) -> bool:
    use = sai_use(icon, "magic", ruleset.sai_uses) if icon not in ("id", *RESULT_TYPES) else None
    return use is not None and use.special is not None and use.special in EFFECTS
