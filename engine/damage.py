"""Damage to an army: whole units, as much health as possible, never more.

002 Damage: "If possible, enough units must be discarded to cover the health
loss, but never in excess of that loss." The owner chooses which units die;
a scenario names them in ``casualties``; when it does not, the engine picks
the default documented in ``default_casualties`` and the trace says so.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from .moves import haunt_army
from .state import Area, Army, GameState, Unit
from .trace import StepError, TraceEvent, told

MAX_LISTED = 8


def reachable(units: Sequence[Unit], damage: int) -> int:
    """The most health-worth of whole units that fits in ``damage``."""
    fits = _sums(units, damage)
    return fits.bit_length() - 1


def _sums(units: Sequence[Unit], damage: int) -> int:
    """The health totals of whole units that fit in ``damage``, as the set bits of an int (bit t: total t):
    a shift and an or per unit, so an army of any size a game holds costs microseconds."""
    mask = (1 << (max(0, min(damage, sum(u.health for u in units))) + 1)) - 1
    fits = 1
    for u in units:
        fits |= (fits << u.health) & mask
    return fits


def default_casualties(units: Sequence[Unit], damage: int) -> tuple[str, ...]:
    """The default choice: reach the most health-worth, taking the smallest units first.

    Units are tried from the lowest health up (then in the order written), and
    the first combination found for each total is kept, so the default keeps
    an army's bigger units whenever the rules allow it. That combination is the unit with which its total
    first became reachable, added to the first combination of the rest: it is rebuilt from each total's first
    unit (linear work, instead of extending every total by every unit).
    """
    ordered = sorted(units, key=lambda u: u.health)
    mask = (1 << (max(0, min(damage, sum(u.health for u in units))) + 1)) - 1
    fits, first = 1, {}
    for k, u in enumerate(ordered):
        new = (fits << u.health) & mask & ~fits
        fits |= new
        while new:
            low = new & -new
            first[low.bit_length() - 1] = k
            new ^= low
    total, chosen = fits.bit_length() - 1, []
    while total:
        unit = ordered[first[total]]
        chosen.append(unit.id)
        total -= unit.health
    return tuple(reversed(chosen))


def _two_ways(units: Sequence[Unit], target: int) -> bool:
    """More than one set of units (by id) makes exactly ``target`` health-worth."""
    found = 0

    def walk(i: int, left: int) -> bool:
        nonlocal found
        if left == 0:
            found += 1
            return found > 1
        return any(units[j].health <= left and walk(j + 1, left - units[j].health) for j in range(i, len(units)))

    return target > 0 and walk(0, target)


def legal_choices(units: Sequence[Unit], damage: int) -> Iterator[tuple[str, ...]]:
    """Every legal set of casualties, distinct by unit health pattern, best first.

    Units of equal health are interchangeable for the rule (002 Damage counts health-worth), so the choices are
    the ways of taking ``count`` units of each health whose health adds up to the most that fits: a subset-sum
    over the few health values, not over units. Each choice names the first units of each health in the order
    written. The work grows with the choices listed, never with the 2^n subsets of an army.
    """
    target = reachable(units, damage)
    groups = _health_groups(units)
    fits = _suffix_sums(groups, target)

    def walk(i: int, left: int) -> Iterator[tuple[int, ...]]:
        if i == len(groups):
            yield ()
            return
        health, ids = groups[i]
        for n in range(min(len(ids), left // health), -1, -1):     # more of the earlier-written health first
            if left - n * health in fits[i + 1]:
                for rest in walk(i + 1, left - n * health):
                    yield (n, *rest)

    for counts in walk(0, target):
        yield tuple(uid for (_, ids), n in zip(groups, counts) for uid in ids[:n])


def count_choices(units: Sequence[Unit], damage: int) -> int:
    """How many choices ``legal_choices`` lists, counted without listing them (a bounded knapsack count)."""
    target = reachable(units, damage)
    ways = [1] + [0] * target
    for health, ids in _health_groups(units):
        ways = [sum(ways[s - n * health] for n in range(0, min(len(ids), s // health) + 1)) for s in range(target + 1)]
    return ways[target]


def _health_groups(units: Sequence[Unit]) -> list[tuple[int, list[str]]]:
    """The units' ids by health, the healths in the order first written."""
    groups: dict[int, list[str]] = {}
    for u in units:
        groups.setdefault(u.health, []).append(u.id)
    return list(groups.items())


def _suffix_sums(groups: list[tuple[int, list[str]]], target: int) -> list[set[int]]:
    """For each group index i, the health totals (up to ``target``) that groups i.. can make."""
    fits = [set() for _ in groups] + [{0}]
    for i in range(len(groups) - 1, -1, -1):
        health, ids = groups[i]
        fits[i] = {s + n * health for s in fits[i + 1] for n in range(len(ids) + 1) if s + n * health <= target}
    return fits


def choose(army: Army, damage: int, named: Sequence[str] | None, cite: str,
           field: str = "casualties") -> tuple[tuple[str, ...], TraceEvent]:
    """Check the scenario's choice of units for ``damage`` health-worth (casualties, or units that must
    flee), or make the default choice; returns ids and a trace event."""
    target = reachable(army.units, damage)
    amount = f"{damage} health-worth fleeing" if field == "fleeing" else f"{damage} damage"
    if named is None:
        ids = default_casualties(army.units, damage)
        # "(defaulted)" only where the owner had a choice: two sets of units could be taken
        chose = _two_ways(army.units, target)
        return ids, TraceEvent(
            what=f"{army.id} removes {', '.join(ids) or 'no unit'}", before=damage, after=target,
            rule=f"as much {'health-worth' if field == 'fleeing' else 'damage'} as whole units can take, never "
                 + (f"more; the scenario named no {field}, so the smallest units are taken first" if chose else
                    "more: these are the only units that can be taken"), cite=cite, defaulted=chose)
    unknown = [i for i in named if army.unit(i) is None]
    if unknown:
        raise StepError(f"{field} {told(unknown)} are not units of army {army.id} "
                        f"(its units: {', '.join(u.id for u in army.units)})", cite=cite, field=field)
    if len(set(named)) != len(named):
        raise StepError(f"{field} for {army.id} name a unit twice: {told(named)}", cite=cite, field=field)
    taken = sum(army.unit(i).health for i in named)
    if taken != target:
        options = list(_take(legal_choices(army.units, damage), MAX_LISTED))
        listing = "; ".join("[" + ", ".join(o) + "]" if o else "[]" for o in options)
        more = count_choices(army.units, damage) - len(options)
        if more > 0:
            listing += f" (and {more} more of other health patterns)"
        # the numbers a player argues over, said as such: what the list names against what the damage takes
        why = "more than it can take" if taken > damage else f"less than the {target} health-worth that must be taken"
        raise StepError(f"{amount} from {army.id}: {field} {told(named)} names {taken} health-worth for {amount}, "
                        f"{why}; legal choices include: {listing}", cite=cite, field=field)
    return tuple(named), TraceEvent(what=f"{army.id} removes {', '.join(named) or 'no unit'}",
                                    before=damage, after=taken,
                                    rule="the owner chooses the " + ("units that flee" if field == "fleeing" else
                                                                     "casualties") +
                                         ": as much as possible, never more",
                                    cite=cite)


def _take(items: Iterator[tuple[str, ...]], n: int) -> Iterator[tuple[str, ...]]:
    for i, item in enumerate(items):
        if i >= n:
            return
        yield item


def kill(state: GameState, army_id: str, unit_ids: Sequence[str]) -> GameState:
    """Killed units leave their army for their owner's dead unit area.

    Spells on a killed unit expire with it (002 Spell Attributes > Target: "Any spell cast on a
    unit immediately expires when the unit is out of play").
    """
    army = state.army(army_id)
    dead = tuple(u for u in army.units if u.id in unit_ids)
    state = state.with_army(army.without(*unit_ids))
    state = state.evolve(effects=tuple(e for e in state.effects if e.target not in unit_ids))
    # 002 Dragonkin: "When killed, Dragonkin units do not go to the Dead Unit Area as normal. Instead they are
    # returned to the summoning pool from which they came"
    kin = tuple(u for u in dead if u.race == "dragonkin")
    if kin:
        state = state.with_pool(state.pool(army.player).evolve(units=(*state.pool(army.player).units, *kin)))
    dead = tuple(u for u in dead if u not in kin)
    haunt = haunt_army(army.player)
    if army.id == haunt:
        # 002 Glossary, Magically Constructed Army: "During the spell, any 'killed' units from this army go to the
        # BUA" -- never to the DUA, where a Cantrip's resurrection or a Regenerate could bring them back ("there are
        # no units in the DUA"); engine.actions.spells reports them buried when the spell is resolved
        return state.add_to("bua", army.player, dead)
    if dead and state.has_army(haunt):
        # "Units that are killed from other armies by some effect would not go to the DUA. For the duration of this
        # spell, all dead units are part of this army": read as joining the army of the dead, which returns them to
        # the DUA when the spell is resolved (the reading is traced there, engine.actions.spells)
        return state.with_army(state.army(haunt).evolve(units=(*state.army(haunt).units, *dead)))
    dua = state.area("dua", army.player)
    return state.with_area("dua", Area(player=army.player, units=dua.units + dead))
