"""The units each moving SAI's unit takes along (002 SAI List: Ferry "may immediately move itself and up to four
health-worth of units in the army containing this unit", Teleport and Firewalking "up to three", Vanish "the unit"
alone, Wayfare "the magical item and a unit able to carry it").

The step's ``targets`` names them in one of two forms:

- a list (``targets: {teleport: [u1, u2]}``): the units going along with the units rolling the SAI, together, up to
  one SAI's health-worth; where more than one unit rolled it, which goes with which is not said and the trace marks
  the list's going with them together ``defaulted``; a unit brought into the roll after the army's identical SAI was
  resolved takes those the first left (engine.actions.joined_rolls ``combined``), marked ``defaulted`` too;
- per mover (``targets: {teleport: {mover: [u1], other: [u2]}}``): each unit rolling the SAI takes its own units,
  checked against its own SAI's limit (``own``); a mover the form does not name takes nobody (``defaulted``). A unit
  joining the roll late (Regenerate in a magic action) has its own entry as the army's movers have theirs.
"""

from __future__ import annotations

from ..chosen import read as chosen_read
from ..carrying import can_carry, check_carried
from ..roll import Special
from ..ruleset import Ruleset
from ..state import Army
from ..steps import StepResult
from ..trace import StepError, TraceEvent, reading, told
from .destinations import goes, per_mover_entries

# Vanish: "The unit may then immediately move" -- the unit alone
ALONE = ("vanish",)
# Wayfare: "the magical item and a unit able to carry it": the item goes with one unit able to carry it
CARRIED = "wayfare"


def per_mover(step, sai: str) -> dict[str, tuple[str, ...]] | None:
    """The step's per-mover form for ``sai`` ({mover: (the units it takes along)}), or None (the list form, or
    nothing given). The scenario loader writes each mover's units as a tuple where a list form has ``None``."""
    found = dict(getattr(step, "targets", ())).get(sai) if step is not None else None
    if found is not None:
        chosen_read("targets", sai)
    if not found or not all(isinstance(units, tuple) for _, units in found):
        return None
    return dict(found)


def along(ruleset: Ruleset, sai: str, step, movers: tuple[str, ...], army: Army, cite: str, out: StepResult,
          rolled: tuple[str, ...] = (), apart: bool = False) -> dict[str, tuple[str, ...]]:
    """The units going along with each of ``movers`` (the units of ``army`` rolling ``sai`` that move; ``rolled``: all
    that rolled it, if more), by the step's form: {mover: its units}; the list form's all with the first mover.
    ``apart``: the movers go to different places (engine.actions.destinations), where a list cannot say who goes
    where."""
    named = per_mover(step, sai)
    if named is None:
        listed = dict(getattr(step, "targets", ()) if step is not None else ()).get(sai) or ()
        if listed:
            chosen_read("targets", sai)
        if listed and apart:
            raise StepError(f"targets.{sai} lists the units going along with all its movers together, but they go to "
                            f"different places (move_to.{sai}): name each mover's own units (targets.{sai}: "
                            f"{{{movers[0]}: [units]}})", cite=cite, field="targets")
        return {movers[0]: _together(ruleset, sai, tuple(i for i, _ in listed), movers, army, cite, out)}
    _strays(sai, named, rolled or movers, army, cite)
    taken: dict[str, tuple[str, ...]] = {}
    for mover in movers:
        if mover not in named and sai in ALONE:
            continue        # Vanish: the unit alone, nothing to choose
        if mover not in named and sai != CARRIED:      # Wayfare's item cannot move without its carrier: an error
            out.trace.append(TraceEvent(what=f"{sai}: {mover} takes nobody along", rule=f"the owner names the units "
                                        f"each mover takes (targets.{sai}.{mover}); none given for {mover}",
                                        cite=cite, defaulted=True))
            continue
        gone = tuple(i for units in taken.values() for i in units)
        taken[mover] = own(ruleset, sai, mover, named.get(mover, ()), movers, gone, army, cite, out)
        out.movers.append(mover)
    return taken


def own(ruleset: Ruleset, sai: str, mover: str, chosen: tuple[str, ...], movers: tuple[str, ...],
        taken: tuple[str, ...], army: Army, cite: str, out: StepResult) -> tuple[str, ...]:
    """One mover's own units, checked against its own SAI: "the teleporting unit may immediately move itself and up
    to three health-worth of units in the army containing this unit" (Ferry four, Firewalking three; Vanish none;
    Wayfare the one unit carrying the item). Reading, traced: each identical SAI keeps its own limit and units,
    their effects combined as 002 Targeting says of SAIs "that target health-worth of units in an army"."""
    pool = [u for u in army.units if u.id not in movers and u.id not in taken]
    limit = _checked(ruleset, sai, f"{sai} rolled by {mover}", chosen, pool, army, cite, (mover,))
    worth = len(chosen) if sai == CARRIED else sum(army.unit(i).health for i in chosen)
    out.trace.append(reading(f"{sai}: {mover} takes {', '.join(chosen) or 'nobody'} along, up to its own SAI's "
                             "limit: identical SAIs' effects combined, each mover its own units",
                             cite, ruleset.cite("sai-targeting")).evolve(before=limit, after=worth))
    return chosen


def _checked(ruleset: Ruleset, sai: str, who: str, chosen: tuple[str, ...], pool: list, army: Army,
             cite: str, movers: tuple[str, ...] = ()) -> int:
    """The units ``chosen`` to go along, from ``pool`` (the army's units not moving by themselves): the one carrier
    (Wayfare), none (Vanish), or up to the SAI's health-worth, each once; an error listing ``pool`` else. Returns
    the limit."""
    if sai == CARRIED:
        # "the magical item and a unit able to carry it" (002 Wayfare): one of a matching color (002 Magical Items)
        item = army.unit(movers[0]) if len(movers) == 1 else None
        carriers = [u.id for u in pool if not u.item and (item is None or can_carry(u, item, ruleset))]
        if len(chosen) != 1 or chosen[0] not in carriers:
            raise StepError(f"{who} moves the magical item with one unit able to carry it: name it in targets "
                            f"(legal: {', '.join(carriers) or 'none'})", cite=cite, field="targets")
        return 1
    limit = 0 if sai in ALONE else ruleset.sai_move_worth.get(sai, 0)
    by_id = {u.id: u for u in pool}
    if any(i not in by_id for i in chosen) or len(set(chosen)) < len(chosen) or \
            sum(by_id[i].health for i in chosen) > limit:
        raise StepError(f"{who} takes the rolling unit and up to {limit} health-worth of other units of {army.id}: "
                        f"{told(chosen)} is not such a choice; the units it may take: "
                        f"{', '.join(f'{u.id} ({u.health})' for u in pool) or 'none'}", cite=cite, field="targets")
    # 002 Magical Items: "magic items do not move by themselves, they must be 'carried'", one each by a moving unit of a
    # matching color: an item taken along needs a carrier among the movers
    going = [u for u in army.units if u.id in movers or u.id in chosen]
    if any(u.item for u in going):
        check_carried(going, f"{who}'s destination", ruleset, "targets")
    return limit


def _strays(sai: str, named: dict[str, tuple[str, ...]], movers: tuple[str, ...], army: Army, cite: str) -> None:
    """A per-mover entry for a unit of the army that did not roll the SAI: an error naming those that did. (A unit
    not in the army yet may join the roll and roll it later; engine.actions.companions ``unused`` checks the step.)"""
    strays = [m for m in named if m not in movers and army.unit(m) is not None]
    if strays:
        raise StepError(f"targets.{sai} names {', '.join(strays)} as moving with its own units, but "
                        f"{'it' if len(strays) == 1 else 'they'} rolled no {sai} here; the units that rolled it: "
                        f"{', '.join(movers)}", cite=cite, field="targets")


def _together(ruleset: Ruleset, sai: str, others: tuple[str, ...], movers: tuple[str, ...], army: Army, cite: str,
              out: StepResult) -> tuple[str, ...]:
    """The list form: the units going along with all the movers together: none (Vanish), the one carrier
    (Wayfare), or up to the SAI's health-worth; which mover takes which is the default where several rolled it."""
    _checked(ruleset, sai, sai, others, [u for u in army.units if u.id not in movers], army, cite, movers)
    if len(movers) > 1:
        out.trace.append(TraceEvent(what=f"{sai}: {', '.join(others) or 'nobody'} along with {', '.join(movers)} "
                                         "together", after=len(others),
                                    rule=f"the owner names the units each mover takes (targets.{sai}: {{mover: "
                                         "[units]}); a list given, so it goes with them together", cite=cite,
                                    defaulted=True))
    return others


def late_default(ruleset: Ruleset, own: list[Special], first: list[Special], step, out: StepResult) -> None:
    """Units brought into the roll after the army's identical move SAI was resolved (``own``; the army's: ``first``)
    and sent somewhere (engine.actions.destinations), the step giving the list form: each takes the units of the
    list the first left (engine.actions.joined_rolls ``combined``), marked defaulted."""
    for sai in dict.fromkeys(s.sai for s in own if s.effect == "move" and s.sai in {x.sai for x in first}):
        late = [s.unit for s in own if s.sai == sai and goes(step, sai, s.unit)]
        if per_mover(step, sai) is not None or not late:
            continue
        left = [i for i, _ in dict(getattr(step, "targets", ())).get(sai) or ()]
        out.trace.append(TraceEvent(what=f"{sai} rolled by {', '.join(late)}: takes {', '.join(left) or 'nobody'} "
                                         "along, what the army's identical SAI left of the list", after=len(left),
                                    rule=f"the owner names the units each mover takes (targets.{sai}: {{{late[0]}: "
                                         "[units]}); a list given, so it takes what the first left",
                                    cite=ruleset.sai_sections.get(sai, ruleset.cite("sai-resolution")),
                                    defaulted=True))


def unused(step, out: StepResult, ruleset: Ruleset) -> None:
    """Every mover a step's per-mover form names moved with its units in the step (``along`` records them): an entry
    nothing used (its unit rolled no such SAI, or no ``move_to`` sent it) is an error, never silently ignored."""
    for sai, named in per_mover_entries(step, "targets", per_mover):
        idle = [m for m in named if m not in out.movers]
        if idle:
            raise StepError(f"targets.{sai} names {', '.join(idle)} as moving with its own units, but "
                            f"{'it' if len(idle) == 1 else 'they'} made no {sai} move in this step (rolled none, or "
                            f"no move_to.{sai} sent it)", cite=ruleset.sai_sections.get(sai, ruleset.cite(
                                "sai-resolution")), field="targets")
