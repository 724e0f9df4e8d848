"""Steps 6 and 7 of a dragon attack: what of the army's roll can slay dragons, which dragons are slain, and the
promotions that follow (002 Step 6: Army's response to the dragon's attack; Step 7: Dragon slaying;
Promotion).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .. import dragons as kinds
from ..exchange import promote as exchange_promote
from ..roll import Outcome, Roll
from ..ruleset import Ruleset
from ..state import Army, Dragon, GameState
from ..steps import DragonStep, StepResult
from ..trace import StepError, TraceEvent, reading

if TYPE_CHECKING:
    from .battle import Battle

SLAYING = ("melee", "missile")


def check_rollers(ruleset: Ruleset, who: Army, battle: Battle, dice: Roll) -> None:
    """002 White Dragons: "If a Dragoncrusader affects a white dragon then the Dragoncrusader is not rolled with the
    army's dragon attack". (The dragonkin that do not roll against dragons, and Resist Fear, are engine.dragonkin's,
    in the roll itself.)"""
    for unit_id, _ in dice.units:
        if unit_id in battle.benched:
            raise StepError(f"{unit_id} affected a white dragon with its logo and is not rolled with the army",
                            cite=ruleset.cite("white-dragons"), field="roll")


def usable(answer: Outcome, blue, ruleset: Ruleset, who: Army, out: StepResult) -> dict[str, int]:
    """The army's saves, melee and missile against the dragons, and the part of melee and missile not from ID
    icons (``forced_melee``, ``forced_missile``): "if you have 10 or more melee results ... after applying any
    penalties, but without counting IDs ... then the dragon must be killed".

    Reading: the ID icons' share is what they counted before modifiers; penalties fall on the other results
    first (the owner would not give up a forced kill by spending a penalty on results it keeps).
    Under a Blue Dragon Breath the army makes a save roll: only melee and missile results an SAI makes
    together with its saves count (002 Step 6, Example 4: Counter).
    """
    results = {t: answer.results.get(t, 0) for t in ("save", *SLAYING)}
    ids = {t: sum(c.get(t, 0) - answer.non_id.get(u, {}).get(t, 0) for u, c in answer.per_unit.items())
           for t in SLAYING}
    if blue is not None:
        for t in SLAYING:
            before, results[t] = results[t], answer.sai_part.get(t, 0)
            if before != results[t]:
                out.trace.append(TraceEvent(what=f"{who.id}: only {results[t]} {t} (from SAIs that make saves too) "
                                                 f"count in its save roll", before=before, after=results[t],
                                            rule="the target army can only make save rolls",
                                            cite=ruleset.breath_effects[blue.spell][0]))
        ids = dict.fromkeys(SLAYING, 0)
    for t in SLAYING:
        results[f"forced_{t}"] = max(0, results[t] - ids[t])
        if ids[t] and results[t]:
            out.trace.append(TraceEvent(
                what=f"{who.id}: {results[f'forced_{t}']} of its {results[t]} {t} are not from ID icons",
                before=results[t], after=results[f"forced_{t}"],
                rule="only non-ID results force a dragon to be killed (read: the ID icons' share is what they "
                     "counted; penalties fall on the other results first)",
                cite=_forced_cite(ruleset), also=ruleset.cite("combination")))
    out.results[who.id] = {t: results[t] for t in ("melee", "missile", "save")}
    return results


def leave(results: dict[str, int], answer: Outcome, leavers: list[str], ruleset: Ruleset, who: Army,
          out: StepResult) -> None:
    """The units an SAI moved out of the army (Wayfare, Ferry, Teleport, Firewalking) take their non-ID melee and
    missile out of the count that forces a kill: 002 SAI Resolution, "any component removed from the army by a
    Special or Unique resolution type SAI ... does not have its results counted in the army total", and Step 6
    counts "10 or more melee results ... without counting IDs" of the army (a reading, traced). (Vanish's results
    stay: "unless explicitly stated otherwise (e.g. Vanish)"; ``leavers`` holds no Vanish unit.)"""
    for t in SLAYING:
        theirs = sum(answer.non_id.get(u, {}).get(t, 0) for u in leavers)
        if not theirs:
            continue
        before = results[f"forced_{t}"]
        results[f"forced_{t}"] = min(results[t], max(0, before - theirs))
        # reading, traced: Step 6's count is the army total, which SAI Resolution's removed components leave
        out.trace.append(reading(f"{who.id}: the moved units' {theirs} non-ID {t} are no longer in the army total, so "
                                 "they do not count toward a forced kill (a Vanish unit's would)",
                                 _forced_cite(ruleset), ruleset.cite("sai-resolution"))
                         .evolve(before=before, after=results[f"forced_{t}"]))


def _forced_cite(ruleset: Ruleset) -> str:
    """002's rule that non-ID results force a kill: an edition silent on it (001) cites 002's section."""
    return ruleset.cites.get("dragon-forced-kill") or ruleset.cite("dragon-response")


def add(results: dict[str, int], extra: dict[str, int], who: Army, out: StepResult) -> None:
    """Results an SAI's effect on a dragon adds (Decapitate's three melee, Bash's saves): made by an SAI, not an
    ID icon, and untouched by modifiers."""
    for t, n in extra.items():
        results[t] += n
        if t in SLAYING:
            results[f"forced_{t}"] += n
    out.results[who.id] = {t: results[t] for t in ("melee", "missile", "save")}


def slay(state: GameState, ruleset: Ruleset, who: Army, battle: Battle, results: dict[str, int],
         struck: list[Dragon], step: DragonStep, out: StepResult) -> GameState:
    """Each dragon slain takes results of one type (melee or missile) at least its health plus its automatic
    saves; "Melee and missile results cannot be combined to kill the same dragon". ``struck``: the dragons an
    SAI slew already (Decapitate, Impale, Bash)."""
    targets = [d for d in (*battle.attacking(), *battle.held) if d not in struck]
    need = {d.id: kinds.to_slay(d, battle.icons.get(d.id, ()), state, ruleset) for d in targets}
    # each dragon's health plus automatic saves in results of one type (002 Dragons, Dragon Response)
    out.dragon_choices["slay"] = {d.id: [t for t in SLAYING if results[t] >= need[d.id]] for d in targets}
    chosen = _chosen(ruleset, targets, need, results, step, out)
    if ruleset.slay_one_per_type:
        _one_per_type(ruleset, targets, chosen, out)
    _check_forced(ruleset, targets, need, chosen, results)
    slain = [d for d in targets if d.id in chosen]
    for d in slain:
        out.trace.append(TraceEvent(what=f"{d.id} slain by {need[d.id]} {chosen[d.id]} results", after=need[d.id],
                                    rule="it takes the dragon's health plus its automatic saves in results of one type "
                                         "(none on a Belly)", cite=ruleset.cite("dragon-response")))
    for d in (*struck, *slain):
        out.dragon["slain"].append(d.id)
        state = kinds.to_pool(state, next(x for x in state.dragons if x.id == d.id))
    return _promote_after(state, ruleset, who, [*struck, *slain], step, out)


def _chosen(ruleset: Ruleset, targets: list[Dragon], need: dict[str, int], results: dict[str, int],
            step: DragonStep, out: StepResult) -> dict[str, str]:
    cite = ruleset.cite("dragon-response")
    if step.slay is None:
        return _default(targets, need, results, cite, out, one_per_type=ruleset.slay_one_per_type)
    # `slay: {}`: the player names no dragon slain; 002 Step 6 "then the dragon must be killed" is checked after
    named = dict(step.slay)
    ids = {d.id for d in targets}
    for dragon_id, t in named.items():
        if dragon_id not in ids or t not in SLAYING:
            raise StepError(f"slay: {dragon_id}: {t}; name dragons attacking the army ({', '.join(sorted(ids))}) with "
                            "melee or missile", cite=cite, field="slay")
    for t in SLAYING:
        spent = sum(need[d] for d, tt in named.items() if tt == t)
        if spent > results[t]:
            raise StepError(f"slay: the dragons given {t} need {spent} {t} results; the army has {results[t]}",
                            cite=cite, field="slay")
    return named


def _default(targets: list[Dragon], need: dict[str, int], results: dict[str, int], cite: str,
             out: StepResult, one_per_type: bool = False) -> dict[str, str]:
    """Slay as many dragons as the results allow, the cheapest first, each with the type that has the least left
    that still suffices (``one_per_type``: a type's results then go to no other dragon)."""
    left = {t: results[t] for t in SLAYING}
    chosen: dict[str, str] = {}
    for d in sorted(targets, key=lambda d: need[d.id]):
        fits = sorted((t for t in SLAYING if left[t] >= need[d.id]), key=lambda t: left[t])
        if fits:
            chosen[d.id] = fits[0]
            left[fits[0]] = 0 if one_per_type else left[fits[0]] - need[d.id]
    if chosen:
        out.trace.append(TraceEvent(what="dragons slain: " + ", ".join(f"{d} by {t}" for d, t in chosen.items()),
                                    after=len(chosen), rule="the player assigns the melee and missile results; none "
                                    "given, so as many dragons as possible, the cheapest first", cite=cite,
                                    defaulted=True))
    return chosen


def _one_per_type(ruleset: Ruleset, targets: list[Dragon], chosen: dict[str, str], out: StepResult) -> None:
    """000: "The army's owner chooses either melee or missile results (whichever are higher) to inflict on the dragon"
    and, of several dragons, "may count its melee results against one and its missile results against another,
    possibly killing both with the same roll": a reading, traced with both citations: the results of one type go
    against one dragon, so one roll slays at most one dragon with melee and one with missile (002 Step 6 instead
    lets one type's results kill "one or more")."""
    cite, also = ruleset.cite("dragon-vs-dragon"), ruleset.cite("dragon-slaying")
    for t in SLAYING:
        on = [d for d, tt in chosen.items() if tt == t]
        if len(on) > 1:
            raise StepError(f"slay: {', '.join(on)} are all given {t}: an army counts its {t} results against one "
                            "dragon (its melee against one, its missile against another)", cite=cite, field="slay")
    if len(targets) > 1:
        out.trace.append(reading("each type of the army's results goes against one dragon: melee against one, "
                                 "missile against another, so one roll slays at most two dragons", cite, also))


def _check_forced(ruleset: Ruleset, targets: list[Dragon], need: dict[str, int], chosen: dict[str, str],
                  results: dict[str, int]) -> None:
    """002: "if you have 10 or more melee results (5 if a dragon rolled belly), or 10 or more missile results ... after
    applying any penalties, but without counting IDs ..., then the dragon must be killed" (Example 1: 20 melee
    cannot all go to one of two dragons)."""
    for t in SLAYING:
        if ruleset.slay_one_per_type and t in chosen.values():
            continue        # this type's results went against one dragon already (000)
        left = results[f"forced_{t}"] - sum(need[d] for d, tt in chosen.items() if tt == t)
        spared = [d for d in targets if d.id not in chosen and need[d.id] <= left]
        if spared:
            raise StepError(f"{left} non-ID {t} results are left after the dragons slain, enough to slay "
                            f"{', '.join(d.id for d in spared)}, which must then be killed",
                            cite=_forced_cite(ruleset), field="slay")


def _promote_after(state: GameState, ruleset: Ruleset, who: Army, slain: list[Dragon], step: DragonStep,
                   out: StepResult) -> GameState:
    """002: "If an army kills one or more dragons and the army does not contain a Dragonslayer or a Dragonhunter that
    matches a color of the dragon, it may now simultaneously promote as many units as possible"."""
    cite = ruleset.cite("dragon-slaying")
    army = state.army(who.id)
    barred = next((u for u in army.units if u.name == "Dragonslayer" or (u.name == "Dragonhunter" and any(
        u.color in kinds.colors(d) for d in slain))), None)
    if not slain or barred is not None:
        if barred is not None:
            out.trace.append(TraceEvent(what=f"{who.id} cannot promote: {barred.label} is in it", rule="armies with "
                                        "Dragonslayers (or Dragonhunters of the dragon's color) cannot promote units "
                                        "when they defeat a dragon", cite=cite))
        if step.promote:
            why = (f"{barred.label} is in it (002 Step 7: only an army without a Dragonslayer, or a Dragonhunter "
                   "matching a color of the dragon, promotes)") if barred is not None else "it slew no dragon"
            raise StepError(f"promote is given, but {who.id} may not promote after this attack: {why}", cite=cite,
                            field="promote")
        return state
    return promote(state, ruleset, who, None, step.promote, "dragon slain", cite, out)


def promote(state: GameState, ruleset: Ruleset, who: Army, allowed: int | None, chosen: tuple | None, cause: str,
            cite: str, out: StepResult) -> GameState:
    """Promotion through engine.exchange (the Treasure's ``allowed`` units, or as many as possible); ``chosen``
    None takes its default, an empty choice promotes none ("may promote")."""
    before = {u.id for u in state.army(who.id).units}
    state, events = exchange_promote(state, ruleset, who.id, allowed, None if chosen is None else dict(chosen), cause,
                                     cite)
    out.trace.extend(events)
    out.dragon["promoted"] += [u.id for u in state.army(who.id).units if u.id not in before]
    return state
