"""Where each unit rolling a move SAI goes (002 SAI List: Ferry and Firewalking "may immediately move itself and up to
four (three) health-worth of units ... to any other terrain", Teleport "to any terrain", Vanish "The unit may then
immediately move to any other terrain or its reserve area", Wayfare "the magical item and a unit able to carry it to
be moved immediately to any other terrain or its reserve area").

The step's ``move_to`` names it in one of two forms:

- one place (``move_to: {teleport: hill}``): every unit rolling the SAI goes there, with the units it takes along;
- per mover (``move_to: {teleport: {t1: hill, t2: vale}}``): each unit rolling it goes to its own place, checked
  against its own SAI's rule. Moving is a "may" (002 Targeting (b): of a non-offensive SAI "less than 'x'-health or no
  health may be selected"): a mover the form leaves out does not move, its results staying in the army's
  (``defaulted``). A unit joining the roll late (Regenerate in a magic action) has its own entry as the army's movers
  have theirs. An entry for a unit of the army that rolled no such SAI, or one nothing used in the step, is an error.
"""

from __future__ import annotations

from ..names import typed
from ..chosen import read as chosen_read
from ..ruleset import Ruleset
from ..state import RESERVE, Army, GameState
from ..steps import StepResult
from ..trace import StepError, TraceEvent, reading

# Vanish: "to any other terrain or its reserve area"; Wayfare: "to any other terrain or its reserve area"; Ferry,
# Firewalking "to any other terrain", Teleport "to any terrain" (the one it is at moves nothing: ``check``)
TO_RESERVE = ("vanish", "wayfare")
# Teleport: "to any terrain", where its siblings say "any other terrain": read as they do (``_any_terrain``)
ANY_TERRAIN = ("teleport",)


def per_mover(step, sai: str) -> dict[str, str] | None:
    """The step's per-mover ``move_to`` form for ``sai`` ({mover: place}), or None (one place, or nothing given). The
    scenario loader writes it as a tuple of (mover, place) pairs where the one-place form has a string."""
    to = dict(getattr(step, "move_to", ()) if step is not None else ()).get(sai)
    if to is not None:
        chosen_read("move_to", sai)
    return dict(to) if isinstance(to, tuple) else None


def goes(step, sai: str, unit: str) -> bool:
    """Whether the step sends ``unit``, rolling ``sai``, anywhere: the one place sends every mover, the per-mover form
    those it names."""
    to = dict(getattr(step, "move_to", ()) if step is not None else ()).get(sai)
    return isinstance(to, str) or (to is not None and unit in dict(to))


def going(state: GameState, ruleset: Ruleset, sai: str, step, rolled: tuple[str, ...], army: Army, cite: str,
          out: StepResult, result: str = "") -> dict[str, tuple[str, ...]]:
    """The units of ``army`` rolling ``sai`` (``rolled``) that move, by the place each goes: {place: movers}, each
    place checked against the SAI's rule (``check``). Without ``move_to`` nobody moves (a "may", ``defaulted``)."""
    to = dict(getattr(step, "move_to", ()) if step is not None else ()).get(sai)
    if to is not None:
        chosen_read("move_to", sai)
    if to is None:
        out.trace.append(TraceEvent(what=f"{sai}: nobody moves", rule="the unit may move; no move_to given",
                                    cite=cite, defaulted=True))
        return {}
    _any_terrain(ruleset, sai, army, cite, out)
    if isinstance(to, str):
        check(state, sai, to, army, cite)
        return {to: rolled}
    named = dict(to)
    _strays(sai, named, rolled, army, cite)
    places: dict[str, list[str]] = {}
    for mover in rolled:
        if mover not in named:
            _stays(ruleset, sai, mover, cite, out, result)
            continue
        check(state, sai, named[mover], army, cite, mover)
        out.went.append((sai, mover))
        places.setdefault(named[mover], []).append(mover)
    if places:
        out.trace.append(reading(f"{sai}: " + "; ".join(f"{', '.join(m)} to {p}" for p, m in places.items()) +
                                 ": each unit rolling it moves itself to a place of its own, identical SAIs' effects "
                                 "combined but each unit's move its own", cite, ruleset.cite("sai-targeting"))
                         .evolve(after=sum(len(m) for m in places.values())))
    return {place: tuple(movers) for place, movers in places.items()}


def _stays(ruleset: Ruleset, sai: str, mover: str, cite: str, out: StepResult, result: str) -> None:
    """A mover the per-mover form leaves out chose not to move: "may immediately move" and 002 Targeting (b), "less
    than 'x'-health or no health may be selected"; it stays in the army, its results counted (``defaulted``). A
    Wayfare item in a maneuver roll is the exception: its owner chose the SAI's special over its maneuvers for every
    item rolling it (the roll's one choice), so leaving one out would lose its maneuvers: an error."""
    if sai == "wayfare" and result == "maneuver":
        raise StepError(f"wayfare rolled by {mover} is left out of move_to.wayfare: in a maneuver roll Wayfare gives "
                        "maneuvers or moves the item, and naming move_to.wayfare chose the move for every item rolling "
                        f"it; give {mover} a place too, or leave move_to.wayfare out for its maneuvers", cite=cite,
                        field="move_to")
    out.trace.append(TraceEvent(what=f"{sai}: {mover} does not move, its results staying in its army's",
                                rule=f"the unit may move; no move_to.{sai}.{mover} given, so it chose not to "
                                     f"({ruleset.cite('sai-targeting')}: no health may be selected)",
                                cite=cite, defaulted=True))


def _any_terrain(ruleset: Ruleset, sai: str, army: Army, cite: str, out: StepResult) -> None:
    """Reading, traced: Teleport's "to any terrain" is any terrain but the one its army is at, as Ferry's "to any
    other terrain": a unit going where it is moves nothing (and the reserve area is no terrain)."""
    if sai in ANY_TERRAIN:
        # Ferry's words are quoted only where the edition has Ferry (sfr-v4's documents do not list it)
        ferry = ruleset.sai_sections.get("ferry")
        like = ", as Ferry's \"to any other terrain\"" if ferry else ""
        out.trace.append(reading(f"{sai}'s \"to any terrain\" is any but {army.at}, where its army is (going "
                                 f"there moves nothing){like}", cite, ferry or ruleset.cite("sai-resolution")))


def check(state: GameState, sai: str, to: str, army: Army, cite: str, mover: str | None = None) -> None:
    """Any other terrain; the reserve area only for Vanish and Wayfare. Teleport's "any terrain" is read as the
    others too: the terrain its army is at is no move (the error says so)."""
    reserve = sai in TO_RESERVE
    if to == army.at or (to == RESERVE and not reserve) or (to != RESERVE and to not in {t.id for t in state.terrains}):
        legal = [t.id for t in state.terrains if t.id != army.at] + ([RESERVE] if reserve else [])
        who = f"{sai} rolled by {mover}" if mover else sai
        raise StepError(f"{who} moves units to any other terrain{' or the reserve area' if reserve else ''}"
                        f"{' (its army is at ' + army.at + ', where going is no move)' if to == army.at else ''}: "
                        f"{typed(to)} is not one (legal: {', '.join(legal)})", cite=cite,
                        field=f"move_to.{sai}.{mover}" if mover else "move_to")


def _strays(sai: str, named: dict[str, str], rolled: tuple[str, ...], army: Army, cite: str) -> None:
    """A per-mover entry for a unit of the army that did not roll the SAI: an error naming those that did. (A unit not
    in the army yet may join the roll and roll it later: ``unused`` checks the step.)"""
    strays = [m for m in named if m not in rolled and army.unit(m) is not None]
    if strays:
        raise StepError(f"move_to.{sai} names a place for {', '.join(strays)}, but "
                        f"{'it' if len(strays) == 1 else 'they'} rolled no {sai} here; the units that rolled it: "
                        f"{', '.join(rolled)}", cite=cite, field="move_to")


def per_mover_entries(step, field: str, form):
    """(sai, {mover: ...}) for each per-mover entry (``form``: this module's ``per_mover``, or
    engine.actions.companions') of ``field`` (``move_to``, ``targets``) in ``step`` and in its units' and armies' own
    choices (``save_sais``, ``breath_sais``)."""
    choices = [step, *(c for _, c in (*getattr(step, "save_sais", ()), *getattr(step, "breath_sais", ())))]
    return ((sai, named) for c in choices for sai, _ in getattr(c, field, ()) if (named := form(c, sai)) is not None)


def unused(step, out: StepResult, ruleset: Ruleset) -> None:
    """Every mover a step's per-mover ``move_to`` names went there in the step (``going`` records them): an entry
    nothing used (its unit rolled no such SAI) is an error, never silently ignored."""
    for sai, named in per_mover_entries(step, "move_to", per_mover):
        idle = [m for m in named if (sai, m) not in out.went]
        if idle:
            raise StepError(f"move_to.{sai} names a place for {', '.join(idle)}, but "
                            f"{'it' if len(idle) == 1 else 'they'} made no {sai} move in this step (rolled none, "
                            f"or not as a move); a unit that makes one goes where its entry says",
                            cite=ruleset.sai_sections.get(sai, ruleset.cite("sai-resolution")), field="move_to")
