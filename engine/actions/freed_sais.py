"""The SAIs of units freed from an Entangle during their army's melee or missile roll (tsr-1996).

004 Entangle D: "If, during an normal action, a special action icon is rolled which kills the Entangling monster
(Cantrip, Bullseye, or even Smite), the Entangled unit(s) may immediately be rolled and are counted in the current
roll"; 002 Application: "SAIs have their same effect whether the unit containing the SAI is rolled individually or as
part of an army". A freed unit's SAI identical to one the army's roll already resolved combines with it (002
Targeting: identical SAIs "are resolved simultaneously (i.e. their effects are combined)", the general rule where 004
is silent) as its continuation (``CONTINUED``): damage to the army takes the step's casualties after the first's
(Smite, Stone); a strike takes the next unit the step's ``targets`` name, else adds its points to the first's on its
target (Kick, Swoop), or, that target dead, picks its own (``struck_again``); a pick of units (Poison, Smother,
Roar, Flame, Charm, a Bullseye's points, Entangle, Web) takes the units the step's ``targets`` name past the first's
(engine.actions.fight ``first_of``, ``targets``); Confuse and Illusion, resolved later in the action, are one pick
with the army's own. Units a Regenerate or Medallion brings into a skirmish's attack roll (both editions) have
their SAIs resolved the same way (002 Resolution: they "are rolled immediately and the results applied with the
results of their army"), the army's own specials resolved before the SAI that brought them.
"""

from __future__ import annotations

from ..chosen import read as chosen_read
from msgspec.structs import replace

from ..damage import default_casualties
from ..roll import Outcome, Roll, Special
from ..state import Army, GameState
from ..trace import StepError, TraceEvent, reading
from . import joined_rolls, sai_states, specials, state_sais, strikes
from .cantrip import CANTRIP
from .routing import SCREECH
from .fight import Fight

STRIKE, SPREAD, STATE = "unit-strike", "unit-damage-with-saves", "unit-state"

# the late identical SAIs of freed units that continue the army's (engine.actions.joined_rolls ``combined``): damage
# to the army, no saves (Smite, Stone: the step's casualties the first left); a strike on one unit (Kick, Swoop: the
# first's); the picks of units (the step's targets the first left): a unit's test or fate (Poison, Smother, Roar,
# Flame), a Bullseye's points, Charm, the states on units (Entangle, Web); the picks resolved with the army's own
# later in the action (Confuse after the defender rolls, Illusion once the melee is resolved): one pick
PICKS = ("unit-test", "unit-kill", SPREAD, "charm", STATE)
WITH_THE_ARMY_S = ("reroll-saves", "friendly-fire")
CONTINUED = ("army-damage-no-saves", STRIKE, *PICKS)


def may_free(state: GameState, ruleset, army: Army, step) -> str:
    """Whether units of ``army`` under an effect whose maker's death frees them (tsr-1996 Entangle) are given a roll
    (``unit_saves``): they may join its roll, so its SAIs' picks leave the rest of their ``targets`` to theirs
    ("freed", else "")."""
    return "freed" if freeable(state, ruleset, army, step) else ""


def may_join(state: GameState, ruleset, army: Army, step) -> str:
    """How units may join ``army``'s skirmish attack roll after its own specials were resolved (``may_free``): freed,
    or brought by a Regenerate, Medallion or tsr-1996 Ferry (engine.actions.joined_rolls ``may_join``), in the
    trace's words ("freed", "brought", "freed or brought"), else ""."""
    ways = [w for w, may in (("freed", freeable(state, ruleset, army, step)),
                             ("brought", joined_rolls.may_join(state, army, step))) if may]
    return " or ".join(ways)


def freeable(state: GameState, ruleset, army: Army, step) -> set[str]:
    """The units of ``army`` under an effect whose maker's death frees them that the step gives a roll."""
    given = dict(getattr(step, "unit_saves", ()))
    mine = {u.id for u in army.units}
    return {e.target for e in state.effects if e.target in mine and e.target in given
            and (rule := ruleset.sai_states.get(e.spell)) is not None and rule.freed_roll}


def first_states(fight: Fight, rolled: list[Special]):
    """The step as the army's own states on units (Entangle, Web) see it when units may be freed into the roll:
    each one's ``targets`` up to its health-worth, the rest left to a freed unit's identical SAI
    (``Fight.first_of``)."""
    step = fight.step
    if not fight.may_free or step is None:
        return step
    for sai, group in _states(rolled).items():
        named = [uid for uid, _ in fight.targets(sai) or ()]
        if not named or fight.ruleset.sai_states[sai].target != "units":
            continue
        limit = sum(s.points for s in group)
        taken, _ = joined_rolls.fitting(tuple(named), {u.id: u for u in fight.army().units}, limit)
        first = fight.first_of(sai, named, len(taken), f"targets up to {limit} health-worth of units of "
                                                       f"{fight.defender}")
        fight.take(sai, first)
        step = joined_rolls.left_to(step, sai, tuple(first))
    return step


def _states(rolled: list[Special]) -> dict[str, list[Special]]:
    """The states on units rolled, identical SAIs together."""
    return {sai: [s for s in rolled if s.sai == sai] for sai in dict.fromkeys(s.sai for s in rolled
                                                                             if s.effect == STATE)}


def freed_specials(fight: Fight, hit: Outcome, joined: dict[str, Outcome],
                   returned: dict[str, Outcome] | None = None) -> list[Special]:
    """The specials of the units freed from an Entangle during the roll (004 Entangle D: they "may immediately be
    rolled and are counted in the current roll"; 002 Application: "SAIs have their same effect whether the unit
    containing the SAI is rolled individually or as part of an army"), and of the units a Regenerate or Medallion
    brought into it (``returned``: their rolls without the specials resolved with the army's already; 002 Resolution:
    they "are rolled immediately and the results applied with the results of their army"), the army's own specials
    resolved before that SAI: resolved as the army's own were (special results now, moves by the caller, late ones
    with the army's; engine.actions.joined_rolls.own_specials)."""
    fight.freed, fight.returned = tuple(joined), tuple(returned or ())
    joined = {**(returned or {}), **joined}
    # Confuse and Illusion are resolved with the army's own later in the action (``later``): one pick of both
    # their Cantrip has bought its spells already (engine.actions.freed_cantrip)
    loose = joined_rolls.own_specials(joined, hit.specials, fight.ruleset, fight.attacker,
                                      later=(*WITH_THE_ARMY_S, CANTRIP), trace=fight.out.trace, combines=CONTINUED)
    loose += [s for o in joined.values() for s in o.specials if s.effect in WITH_THE_ARMY_S]
    if not loose:
        return loose
    fight.rolled = [*fight.rolled, *loose]
    fight.seen |= {s.sai for s in loose}
    specials.check_modelled(fight, [s for s in loose if not sai_states.handles(s)])
    again = [s for s in loose if s.sai in {x.sai for x in hit.specials}]
    read_continued(fight, again)
    late = [s for s in again if s.effect in (STRIKE, SPREAD)]
    specials.resolve(fight, [s for s in loose if s not in late], "special")
    struck_again(fight, late)
    fight.state = state_sais.place_states(fight.state, fight.ruleset, loose, fight.army("attacker"), fight.army(),
                                          _late_states(fight, again), fight.out)
    return loose


def with_freed(fight: Fight, roll: Roll | None) -> Roll | None:
    """The army's attack roll with the rolls of the units freed into it (004 Entangle D: "counted in the current
    roll"), as the opponent's routing reads it: a freed unit's Screech (004: "a screech subtracts four from the
    opponent's saves for the purposes of routing only ... for the immediate save roll an opponent is about to make")
    counts with the army's, each subtracting its four (engine.actions.routing)."""
    units = (*fight.freed, *fight.returned)
    joined, extra = with_rolls(fight, roll, units)
    if roll is not None and extra and (any(f.icon == SCREECH for r in extra for _, faces in r.units for f in faces) or
                  any(icon == SCREECH for r in extra for icon, _ in r.counts)):
        how = fight.joined_as(units)
        fight.out.trace.append(reading(f"the Screech of a unit {how} into {fight.attacker}'s roll counts in it: it "
                                       "subtracts its four from the opponent's saves for routing, with any the army "
                                       "rolled (each Screech its four)", fight.cite(SCREECH),
                                       fight.cite("entangle") if fight.freed else fight.cite("regenerate")))
    return joined


def with_rolls(fight: Fight, roll: Roll | None, units: tuple[str, ...]) -> tuple[Roll | None, list[Roll]]:
    """``roll`` with the rolls ``units`` made when they joined a roll in progress (engine.roll ``Rolling.shown``: the
    faces the roll shows with them, their latest roll) added (their icons and faces), and those rolls."""
    extra = [r for rolling in fight.out.rolls.values() for r in rolling.shown(units)] if units else []
    if roll is None or not extra:
        return roll, extra
    counts: dict[str, int] = {}
    for icon, n in (*roll.counts, *(c for r in extra for c in r.counts)):
        counts[icon] = counts.get(icon, 0) + n
    return replace(roll, counts=tuple(counts.items()), units=(*roll.units, *(u for r in extra for u in r.units))), \
        extra


def read_continued(fight: Fight, again: list[Special]) -> None:
    """Readings, traced: what a freed unit's SAI identical to the army's adds to it (004's SAI text, read with 002
    Targeting: identical SAIs "are resolved simultaneously (i.e. their effects are combined)")."""
    for sai in dict.fromkeys(s.sai for s in again if s.effect in (*PICKS, *WITH_THE_ARMY_S)):
        group = [s for s in again if s.sai == sai]
        who, points = ", ".join(s.unit for s in group), sum(s.points for s in group)
        into = f"{fight.joined_as(s.unit for s in group)} into {fight.attacker}'s roll"
        if group[0].effect in WITH_THE_ARMY_S:
            what = (f"{sai} of {who}, {into}, and the army's own {sai} are one {sai}, "
                    f"resolved when the army's is: one pick of the health-worth of both (theirs + {points}), each "
                    "unit chosen once" + (", rolling again once, not twice (both act after the opponent rolls, on "
                                          "the same roll)" if group[0].effect == "reroll-saves" else ""))
        elif group[0].effect == STATE:
            what = (f"{sai} of {who}, {into}, adds its {points} health-worth to the "
                    f"army's {sai}: the units the step's targets name past the first's (none left: the default), a "
                    f"unit already under the army's {sai} not placed under it twice")
        elif group[0].effect == SPREAD:
            what = (f"{sai} of {who}, {into}, puts its {points} point(s) on the units "
                    f"the step's targets name past those the army's {sai} took (a face's points to a single unit); "
                    f"none left, they are added to the army's {sai}'s on its target, saved against with its one roll "
                    "(that target dead: the default)")
        else:
            what = (f"{sai} of {who}, {into}, picks with its {points} point(s) the "
                    f"units the step's targets name past those the army's {sai} took (none left: the default, "
                    "the units it took left out), as one pick of both")
        fight.out.trace.append(reading(what, fight.cite(sai), fight.ruleset.cite("sai-targeting")))


def _late_states(fight: Fight, again: list[Special]):
    """The step as a freed unit's state on units identical to the army's sees it: the ``targets`` the first left, or
    none left, the default the acting player's would be (as much health-worth as possible, the smallest first) among
    the units not already under the state nor picked by the army's (traced, ``defaulted``)."""
    step = fight.step
    for sai, group in _states(again).items():
        rest = fight.targets(sai)
        if rest is not None or fight.ruleset.sai_states[sai].target != "units":
            step = _with_targets(step, sai, rest)
            fight.take(sai, [uid for uid, _ in rest or ()])
            continue
        under = {e.target for e in fight.state.effects if e.spell == sai} | set(fight.taken.get(sai, ()))
        pool = [u for u in fight.army().units if u.id not in under and not u.item]
        picked = default_casualties(pool, sum(s.points for s in group))
        fight.out.trace.append(TraceEvent(what=f"{sai} of {', '.join(s.unit for s in group)}: "
                                               f"{', '.join(picked) or 'no unit'} chosen", after=len(picked),
                                          rule="the acting player chooses; none left in targets, so as much "
                                          "health-worth as possible of the units not under it, the smallest first",
                                          cite=fight.cite(sai), defaulted=True))
        step = _with_targets(step, sai, tuple((i, None) for i in picked))
    return step


def _with_targets(step, sai: str, named: tuple):
    """The step with ``sai``'s ``targets`` replaced by ``named`` (none: without them)."""
    return step.evolve(targets=tuple((n, ids) for n, ids in step.targets if n != sai) + (((sai, named),) if named
                                                                                           else ()))


def struck_again(fight: Fight, late: list[Special]) -> None:
    """A freed (or brought) unit's strike identical to one the army's roll resolved (a Kick, Swoop, Bullseye)
    continues it: 002 Targeting, identical SAIs "are resolved simultaneously (i.e. their effects are combined)". Its
    points go to the units the step's targets name past the first's (000 Bullseye: one target per face; 002 Kick:
    "for each unit that generates Kick results choose one unit"); none left, they are added to the first's on the
    unit the first struck, which saves against the total with its one roll (``unit_saves``): damage does not stay on
    a unit, so the total is struck again. The first's target dead, it picks its own (``_on_its_own``)."""
    for sai in dict.fromkeys(s.sai for s in late):
        group = [s for s in late if s.sai == sai]
        if fight.targets(sai) is not None:     # the step names a target past the first's: this roller's own
            specials.resolve(fight, group, "special")
            continue
        first = (fight.taken.get(sai) or [None])[0]     # the army's struck (its targets' first, or its default)
        if first is None:       # the army's struck none (no unit left): nor does this one
            specials.resolve(fight, group, "special")
        elif fight.army().unit(first) is None:
            _on_its_own(fight, sai, group, first)
        else:
            _added(fight, sai, group, first)


def _on_its_own(fight: Fight, sai: str, group: list[Special], first: str | None) -> None:
    """Reading, traced: the unit the first struck is dead, so the late strike has no first's target to add to: it
    picks its own, the next unit the step's ``targets`` name (after those the first took), or none left, the
    default (the first unit of the army, ``defaulted``)."""
    who = ", ".join(s.unit for s in group)
    into = f"{fight.joined_as(s.unit for s in group)} into {fight.attacker}'s roll"
    fight.out.trace.append(reading(f"{sai} of {who}, {into}, combines with the army's "
                                   f"{sai}, whose target {first} no longer stands: it picks its own target, the next "
                                   f"the step's targets name for {sai} (none left: the default)", fight.cite(sai),
                                   fight.ruleset.cite("sai-targeting")))
    specials.resolve(fight, group, "special")


def _added(fight: Fight, sai: str, group: list[Special], first: str) -> None:
    """The late strike's points added to the first's on ``first``, struck again with the total."""
    who = ", ".join(s.unit for s in group)
    into = f"{fight.joined_as(s.unit for s in group)} into {fight.attacker}'s roll"
    if strikes.attack_rule(fight, sai).answer:
        raise StepError(f"{sai} rolled by {who}, {into}, combines with the army's {sai} "
                        f"on {first}, which strikes back at each roller: not expressible as one strike; describe "
                        f"{group[0].unit}'s roll without the {sai} (e.g. unit_saves.{group[0].unit}: melee)",
                        cite=fight.ruleset.cite("sai-targeting"), field="unit_saves")
    before = _first_points(fight, sai, group, first)
    total = before + sum(s.points for s in group)
    fight.out.trace.append(TraceEvent(what=f"{sai} of {who}: {sum(s.points for s in group)} damage added to the "
                                           f"first {sai}'s {before} on {first}", before=before, after=total,
                                      rule="a reading: the identical SAIs act as one, the points of both on the one "
                                      "target", cite=fight.cite(sai), also=fight.ruleset.cite("sai-targeting")))
    step, taken = fight.step, fight.taken.pop(sai, None)
    points = total if group[0].effect == SPREAD else None
    fight.step = _with_targets(step, sai, ((first, points),))
    try:
        specials.resolve(fight, [replace(group[0], points=total)], "special")
    finally:
        fight.step = step
        if taken is not None:
            fight.taken[sai] = taken


def _first_points(fight: Fight, sai: str, late: list[Special], first: str) -> int:
    """The damage the army's own ``sai`` put on ``first``: its ``{unit: points}``, or the points of its rollers whose
    target (one per roller in order; none named, the default) it was."""
    named = dict(fight.step.targets).get(sai) if fight.step else None
    if named is not None:
        chosen_read("targets", sai)
    if named and named[0][1] is not None:
        return named[0][1]
    rule = strikes.attack_rule(fight, sai)
    rollers = dict((s.unit, s) for s in fight.rolled if s.sai == sai and s.unit != fight.attacker and s not in late)
    struck = [uid for uid, _ in named] if named else [first] * len(rollers)
    return sum(rule.damage or s.points for uid, s in zip(struck, rollers.values()) if uid == first)
