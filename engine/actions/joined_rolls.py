"""Units brought into an army during its roll (002 SAI General Information, Resolution: "Components that are brought
into an army with a Special or Unique resolution type SAI during any roll ... are rolled immediately and the results
applied with the results of their army"): Regenerate and the Gold Medallion (from the DUA), tsr-1996 Ferry (from
another terrain), units freed from an Entangle (tsr-1996).

Each unit's roll is its ``unit_saves`` entry, made with its army's kind of roll; its SAIs act as in the army's roll (002
Application: "SAIs have their same effect whether the unit containing the SAI is rolled individually or as part of an
army"): its returning SAIs bring more units, who roll at once too (a chain, ``joined_roll``); its moves, Cloak and logo
are resolved with the army's own (``with_joined``: a charge's specials too, engine.actions.charge; a dragon attack's
Cantrip and Elevate, engine.actions.dragon; a Cantrip buying with the army's own, engine.actions.cantrip); those of
units joining after the army's own specials were resolved (units freed from an Entangle, engine.actions.freed_sais; a magic
action's moves, engine.actions.magic_returns) are resolved after them (``own_specials``); units ferried in or
freed see the ``targets`` the roll's SAIs left (``untaken``), a freed unit's Regenerate taking those the army's left
(its check waits for them: engine.actions.sai_states ``_raise``); a special its caller cannot resolve is refused
(``unmerged``). The returning and moving logic itself is engine.actions.sai_states'.
"""

from __future__ import annotations

from msgspec.structs import replace

from ..modifiers import apply_op
from ..roll import Outcome, Part, Special
from ..ruleset import Ruleset
from ..state import Army, GameState, Unit
from ..steps import StepResult
from ..trace import StepError, TraceEvent, reading
from . import hooks
from .common import roll
from .sai_choices import special_choices

# the returning specials: the units they bring in are rolled at once (``joined_roll``)
BRINGS = ("raise", "fetch", "restore")
# the specials of the units brought into a roll resolved with the army's own in every roll (``with_joined``): their
# moves, Cloak and the Dragonkin Champion's logo
MERGED = ("move", "cloak", "dragon-move")
# SAIs found only on magic items, never on a unit's die: 002 Artifacts, the Dragon Staff's SAI is Summon Dragon
# ("roll the artifact again"), and "artifacts are magic items and therefore are not units"; the returning SAIs
# bring back units (Regenerate, the Medallions), so no unit brought into a roll rolls one
ITEM_ONLY = {"summon-dragon": "the Dragon Staff, an artifact"}


def through_pipeline(out: StepResult, army_id: str, result: str, own: int) -> int:
    """The ``result`` results of ``army_id``'s roll with the units that joined it (returned, freed, ferried in),
    counted through the one pipeline (engine.roll ``grown``): the one place a joined unit's results meet its army's.
    ``own``: the army's own number as its caller holds it, the army's roll with any change of its own (Cloak's saves,
    a Bash, the results of units that moved away, a Cantrip's spell counting it again), never a joined unit's results:
    a unit joins a roll by being rolled into it (engine.actions.common ``roll`` with ``joined``, kept in
    ``StepResult.rolls``), and its results count only here. 002 Resolution: components brought into an army during a
    roll "are rolled immediately and the results applied with the results of their army", so the army's modifiers
    (its spells, the eighth face, its racial abilities, a Screech) act on their results as on the army's own, in the
    order of 002 Applying Dice Modifiers: ``own`` changes by what the pipeline counts beyond the army's own roll
    (traced, with the pipeline's steps, where that differs from adding the joined units' results up). No joined unit:
    ``own`` as it is."""
    rolling = out.rolls.get(army_id)
    if rolling is None or not (rolling.joined or rolling.left):
        return own
    trace: list = []
    left = rolling.still_left()
    counted = rolling.count(result, trace)
    theirs = rolling.theirs(result)
    # the roll as adding up would have it: the army's own and each joined unit's results, less those that left
    added = rolling.own.results.get(result, 0) + theirs - sum(rolling.left[u].get(result, 0) for u in left)
    # summed + counted - added = counted + (own - the army's own roll + what left it): the pipeline's count of the
    # roll as it stands, and the caller's changes of its own
    summed = own + theirs
    if counted == added:
        return summed
    out.trace.extend(trace)     # the pipeline's army steps on the whole roll
    how = "; ".join(x for x in (f"with {', '.join(rolling.joined)}, which joined it" if rolling.joined else "",
                                f"without {', '.join(left)}, which left it" if left else "") if x)
    out.trace.append(TraceEvent(
        what=f"{army_id}'s roll counted again {how}: its {result} results through the modifiers, {added} added up "
             f"becomes {counted}", before=summed, after=max(0, summed + counted - added),
        rule="components brought into an army during a roll are rolled immediately and their results applied with "
             "the results of their army; any component removed from the army by a special or unique SAI does not "
             "have its results counted in the army total: the army's modifiers act on the roll as it stands, in the "
             "modifiers' order", cite=rolling.ctx.ruleset.cite("sai-resolution")))
    return max(0, summed + counted - added)


def leave(out: StepResult, army_id: str, units, per_unit: dict[str, dict[str, int]]) -> None:
    """``units`` leave ``army_id``'s roll in progress before its results are finalized (moved away by an SAI, taken
    by a Hypnotic Glare): 002 Resolution, "Any component removed from the army by a Special or Unique resolution type
    SAI ... does not have its results counted in the army total". The caller takes their results (``per_unit``, as
    counted before any modifier) from its sum; ``through_pipeline`` then counts the roll again without them, so the
    army's modifiers (the eighth face, its spells, its racial abilities) act only on what stays, in the order of 002
    Applying Dice Modifiers: at a held eighth face, a save that leaves is not doubled first and taken away after."""
    rolling = out.rolls.get(army_id)
    if rolling is None:
        return
    for unit_id in units:
        rolling.leave(unit_id, per_unit.get(unit_id, {}))


def unit_doubled(out: StepResult, army_id: str, unit_id: str, result: str) -> None:
    """A unit that joined ``army_id``'s roll doubled by an SAI of that roll once it joined (a dragon attack's Elevate,
    engine.sai_doubling ``joined_doubled``, which picks its ``result``): a unit modifier
    that multiplies, applied before any army modifier (002 Applying Dice Modifiers), so its count in the roll in
    progress doubles too and the army's modifiers act on the doubled results."""
    rolling = out.rolls.get(army_id)
    if rolling is None or unit_id not in rolling.joined:
        return
    outcome = rolling.joined[unit_id]
    counted = {key: {t: Part(p.normal, p.sai, p.ids) for t, p in tally.items()}
               for key, tally in outcome.counted.items()}
    part = counted[unit_id][result]
    added = part.normal
    apply_op("multiply", part, 2)
    rolling.join(unit_id, replace(outcome, counted=counted,
                                  results={**outcome.results, result: outcome.results.get(result, 0) + added}))


def with_joined(answer: Outcome, joined: dict[str, Outcome], ruleset: Ruleset, kind: str,
                merged: tuple[str, ...] | None = MERGED) -> Outcome:
    """The army's roll with the rolls of the units brought into it during the roll, whose ``merged`` specials
    (moves, Cloak, the logo's dragon move) then act with the army's own, as had the units been in the roll from the
    start (002 Resolution: they "are rolled immediately and the results applied with the results of their army";
    002 Targeting: identical SAIs "are resolved simultaneously (i.e. their effects are combined)"). Their returning
    specials have acted already (``_chained``); their results are the caller's to add; any other special of theirs
    is refused (``unmerged``), unless ``merged`` is None: the caller resolves every other special of theirs (a
    skirmish's attack roll: engine.actions.combat, ``left_over``)."""
    if merged is not None:
        unmerged(joined, ruleset, kind, merged)
    if not joined:
        return answer
    extra = [s for o in joined.values() for s in o.specials if s.effect not in BRINGS]
    per_unit = {u: r for o in joined.values() for u, r in o.per_unit.items()}
    return replace(answer, specials=[*answer.specials, *extra], per_unit={**answer.per_unit, **per_unit})


def unmerged(joined: dict[str, Outcome], ruleset: Ruleset, kind: str, merged: tuple[str, ...] = ()) -> None:
    """The special results of the units brought into a roll that its caller does not resolve with the army's
    (``merged``: a magic action resolves their moves and Illusion, Galeforce, Attune; a charge all, its Cantrip too,
    engine.actions.cantrip ``joined``; units freed from an Entangle all, ``own_specials``): refused, not lost."""
    _item_only(joined, ruleset)
    found = [f"{s.sai} rolled by {u}" for u, o in joined.items() for s in o.specials
             if s.effect not in (*BRINGS, *merged)]
    if found:
        raise StepError(f"{', '.join(found)}, brought into the army during its {kind} roll, is not modelled yet by "
                        "this version of ddref (its special result would be lost); describe its roll without it",
                        cite=ruleset.cite("sai-resolution"), field="unit_saves")


def left_over(joined: dict[str, Outcome], resolved: tuple[str, ...]) -> dict[str, Outcome]:
    """The rolls of the units brought into a roll with only the specials not yet resolved: not their returning SAIs
    (``_chained``), nor the ``resolved`` effects the army's own resolved with theirs (``with_joined``)."""
    return {u: replace(o, specials=[s for s in o.specials if s.effect not in (*BRINGS, *resolved)])
            for u, o in joined.items()}


def may_join(state: GameState, who: Army, step, rolled=lambda r: True) -> bool:
    """Whether a unit of ``who``'s player outside the army (in its DUA or another of its armies) is given a roll
    (``unit_saves``) that ``rolled`` accepts: a Regenerate, Medallion or tsr-1996 Ferry may bring it into the roll."""
    showing = [u for u, r in getattr(step, "unit_saves", ()) if rolled(r)]
    if not showing:
        return False        # the common case: no unit outside the army is given a roll
    outside = {u.id for u in state.area("dua", who.player).units} | \
        {u.id for a in state.armies if a.player == who.player and a.id != who.id for u in a.units}
    return any(u in outside for u in showing)


def _item_only(joined: dict[str, Outcome], ruleset: Ruleset) -> None:
    """An SAI no unit's die has (``ITEM_ONLY``) given to a unit brought into the roll: an error saying why."""
    for unit_id, outcome in joined.items():
        for s in outcome.specials:
            if s.sai in ITEM_ONLY:
                raise StepError(f"{s.sai} is given to {unit_id}, brought into the army during its roll, but only "
                                f"{ITEM_ONLY[s.sai]}, has it: artifacts are magic items, not units, and the SAIs that "
                                "bring units into a roll (Regenerate, the Medallions) bring back units only",
                                cite=ruleset.sai_sections.get(s.sai, ruleset.cite("sai-resolution")),
                                field="unit_saves")


def own_specials(joined: dict[str, Outcome], army_rolled: list[Special], ruleset: Ruleset, who: str,
                 later: tuple[str, ...] = (), trace: list | None = None, combines: tuple[str, ...] = ()) -> list[Special]:
    """The specials of the units brought into ``who``'s roll after its own were resolved (units freed from an
    Entangle; a magic action's returned units), to resolve as the army's own (002 Application). Their returning SAIs
    have acted already (``_chained``). One identical to an SAI the army's roll already resolved combines with it
    (``combined``: a move; the caller's ``combines``, effects it resolves as a continuation of the army's: a melee's
    Smite, Kick, engine.actions.freed_sais); any other is refused, the step's choices for it being the army's. ``later``:
    specials resolved with the army's own after the units joined (a magic action's Attune), not again."""
    own = [s for o in joined.values() for s in o.specials if s.effect not in (*BRINGS, *later)]
    again = [s for s in own if s.sai in {x.sai for x in army_rolled}]
    combined(again, ruleset, who, trace, combines)
    again = [s for s in again if s.effect not in (*COMBINED, *combines)]
    if again:
        raise StepError(f"{', '.join(f'{s.sai} rolled by {s.unit}' for s in again)}, brought into {who}'s roll after "
                        "the army's own identical SAI was resolved, is not modelled yet by this version of ddref; "
                        "describe its roll without it", cite=ruleset.cite("sai-resolution"), field="unit_saves")
    return own


# the late identical SAIs that combine with the army's (``combined``): the moves, whose one choice is a destination
COMBINED = ("move",)


def combined(again: list[Special], ruleset: Ruleset, who: str, trace: list | None,
             combines: tuple[str, ...] = ()) -> None:
    """Reading, traced: a move SAI rolled by a unit brought into the roll after the army's identical one was resolved
    is resolved with it (002 Targeting: identical SAIs "are resolved simultaneously (i.e. their effects are
    combined)"; 002 Resolution: brought-in components' results are "applied with the results of their army"): the
    unit moves to its own entry of a per-mover ``move_to`` (engine.actions.destinations), else the SAI's one place,
    taking its own entry of a per-mover ``targets``, else the units the first left (``untaken``), as the Regenerate
    chain continues its ``targets``."""
    # the moves (``COMBINED``), then the caller's ``combines``: the late SAI continues the first, its own effect with
    # the step's choices the first left (a Kick's next target, a Smite's casualties), none left its points on the
    # first's target where the SAI has one (a Kick's unit)
    for effects, how in ((COMBINED, "it moves to its own entry of a per-mover move_to, else the SAI's one move_to, "
                                    "with its own entry of a per-mover targets form, else the targets the first left"),
                         (combines, "it continues the first: its own effect with the step's choices the first left "
                                    "(a Kick's next target, a Smite's next casualties), else, none left, its points "
                                    "on the first's target where the SAI has one (a Kick's unit)")):
        late = [s for s in again if s.effect in effects]
        if late and trace is not None:
            trace.append(reading(f"{', '.join(f'{s.sai} rolled by {s.unit}' for s in late)}, brought into {who}'s "
                                 f"roll after the army's own identical SAI was resolved, combines with it: {how}",
                                 ruleset.cite("sai-targeting"), ruleset.cite("sai-resolution")))


def fitting(chosen: tuple[str, ...], dead: dict[str, Unit], limit: int) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The first units ``targets`` names that this SAI's health-worth brings back, and the rest, left to the same
    SAI rolled by the units it brings back (a chain: ``chained``)."""
    total = 0
    for n, unit_id in enumerate(chosen):
        if unit_id not in dead or total + dead[unit_id].health > limit:
            return chosen[:n], chosen[n:]
        total += dead[unit_id].health
    return chosen, ()


def left_to(step, sai: str, rest: tuple[str, ...]):
    """The step as the units brought back see it: ``sai``'s targets are those it did not take (none left: the
    same SAI rolled by those units gives its normal results, its special not chosen)."""
    targets = tuple((name, tuple((i, None) for i in rest) if name == sai else ids) for name, ids in step.targets
                    if name != sai or rest)
    return step.evolve(targets=targets)


def untaken(step, moved: list[str]):
    """The step as units brought in later in the roll see it (tsr-1996 Ferry's, units freed from an Entangle): each
    SAI's ``targets`` without the units the roll has already brought in or moved (the army's own Regenerate took
    them), as the Regenerate chain leaves its rest (``left_to``)."""
    for sai, ids in getattr(step, "targets", ()):
        # a move SAI's per-mover form keeps each mover's entry (engine.actions.companions)
        if any(i in moved for i, v in ids if not isinstance(v, tuple)):
            step = left_to(step, sai, tuple(i for i, _ in ids if i not in moved))
    return step


def joined_roll(state: GameState, ruleset: Ruleset, sai: str, chosen: tuple[str, ...], army: Army, step,
                 out: StepResult, kind: str, result: str,
                 outcomes: dict[str, Outcome] | None, wanted: tuple[str, ...] = ()) -> GameState:
    """Units brought into the army during its roll "are rolled immediately and the results applied with the
    results of their army" (002 Resolution): each one's roll (a ``kind`` roll for ``result``) is its
    ``unit_saves`` entry, which joins the army's roll in progress (``StepResult.rolls``); their results count only
    when the roll is counted with them (``through_pipeline``)."""
    if kind is None:
        # a reading, traced: the SAI's rule in the edition's words (tsr-1996: 004's), read with what makes a unit's
        # own roll against an effect aimed at it no army's roll (002 Damage; tsr-1996: ``<sai>:own-roll:reading``)
        where = ruleset.words(f"{sai}:own-roll", "", ruleset.cite("sai-resolution"))[1]
        what, other = ruleset.sai_words.get(f"{sai}:own-roll:reading", (
            "a unit's own roll against an effect aimed at it is no army's roll, so they are not rolled with it",
            ruleset.cite("damage")))
        out.trace.append(reading(f"{', '.join(chosen)} join {army.id} and are not rolled: {what}", where, other))
        return state
    rolls = dict(getattr(step, "unit_saves", ()))
    step = untaken(step, out.moved)
    gained, rolled = 0, {}
    for unit_id in chosen:
        if unit_id not in rolls:
            raise StepError(f"{unit_id} joins {army.id} during its roll and is rolled at once: give "
                            f"unit_saves.{unit_id}", cite=ruleset.cite("sai-resolution"), field="unit_saves")
        home = state.army(army.id)
        rolled[unit_id] = roll(state, ruleset, home, kind, wanted or (result,), rolls.pop(unit_id), out, unit=unit_id,
                               choices=special_choices(step), joined=True)
        gained += rolled[unit_id].results.get(result, 0)
        _army_use(ruleset, unit_id, rolled[unit_id], army, out)
    if outcomes is not None:
        outcomes.update(rolled)
    if gained:
        rule, where = ruleset.words(f"{sai}:raise-roll", "components brought into an army by a special SAI during "
                                    "a roll are rolled immediately and their results applied with their army's",
                                    ruleset.cite("sai-resolution"))
        out.trace.append(TraceEvent(what=f"the returned units add {gained} {result} result(s) to {army.id}",
                                    after=gained, rule=rule, cite=where))
    return _chained_all(state, ruleset, rolled, army, step, out, kind, result, outcomes, wanted)


def _army_use(ruleset: Ruleset, unit_id: str, rolled: Outcome, army: Army, out: StepResult) -> None:
    """Reading, traced where the unit's roll made a special result: the unit rolls by itself but as part of its
    army's roll, so its SAIs have their use in that roll (Cloak's four magical saves for the army in a save roll), not
    their use "during a roll against an individual-targeting effect" (002 SAI List, Cloak)."""
    if rolled.specials:
        out.trace.append(reading(f"{unit_id} is rolled with {army.id}'s roll: its SAIs ("
                                 f"{', '.join(dict.fromkeys(s.sai for s in rolled.specials))}) act as in the army's "
                                 "roll, not as in a roll against an individual-targeting effect",
                                 ruleset.cite("sai-resolution"), ruleset.cite("sai-application")))


def _chained_all(state: GameState, ruleset: Ruleset, rolled: dict[str, Outcome], army: Army, step, out: StepResult,
                 kind: str, result: str, outcomes: dict[str, Outcome] | None,
                 wanted: tuple[str, ...]) -> GameState:
    """Each joined unit's own returning SAIs (``_chained``), in the order the units came."""
    for unit_id, outcome in rolled.items():
        state = _chained(state, ruleset, unit_id, outcome, army, step, out, kind, result, outcomes, wanted)
    return state


def _chained(state: GameState, ruleset: Ruleset, unit_id: str, rolled: Outcome, army: Army, step, out: StepResult,
             kind: str, result: str, outcomes: dict[str, Outcome] | None,
             wanted: tuple[str, ...]) -> GameState:
    """A unit brought in during the roll rolls a returning SAI of its own (Regenerate, a Medallion, Ferry): 002
    Application: "SAIs have their same effect whether the unit containing the SAI is rolled individually or as part
    of an army", so it acts as in the army's roll, and the units it brings roll at once too (a chain). Reading: an
    identical SAI already resolved in this roll combines with it (002 Targeting), its choices continuing the step's
    one ``targets`` list (``fitting``)."""
    if not any(s.effect in BRINGS for s in rolled.specials):
        return state
    out.trace.append(reading(f"{unit_id}, brought into {army.id} during its roll, resolves its own "
                             f"{', '.join(dict.fromkeys(s.sai for s in rolled.specials if s.effect in BRINGS))} as in "
                             "its army's roll: the units it brings are rolled at once too, and an identical SAI of the "
                             "roll takes the next units its targets name",
                             ruleset.cite("sai-resolution"), ruleset.cite("sai-targeting")))
    return hooks.BRING_IN(state, ruleset, rolled, army.id, step, out, kind, result, outcomes, wanted)
