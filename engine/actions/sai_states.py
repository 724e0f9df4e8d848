"""State, movement and resurrection SAIs: what their special results leave in play or move (002 SAI List).

- Units that "cannot be rolled" (Entangle, Web, Net, Sleep, Stun, Hypnotic Glare) and armies whose rolls are cut
  or shielded (Wither, Frost Breath, Galeforce, Illusion) are ``Effect``s named by the SAI, placed by
  engine.actions.state_sais, which sits above this module (a unit escaping one makes its own roll,
  engine.actions.own_roll, whose SAIs are resolved here); Cloak's saves are this module's (``cloak_saves``).
- Regenerate and the Gold and Silver Medallions bring dead or buried units back; Vanish, Ferry, Teleport,
  Firewalking and Wayfare move units to another terrain (in an attack, a save roll, a magic action, a
  maneuver); Rise from the Ashes (Conditional) sends a killed or buried unit whose icon comes up to its reserve
  area. What a roll's special results do elsewhere is refused as not modelled (engine.sais.RESOLVED).
- The units they bring into the army during its roll are rolled at once, their own SAIs acting as in the army's roll
  (engine.actions.joined_rolls).

The acting player's choices are the step's ``targets`` (units, or an army id), ``move_to`` (where units move)
and ``unit_saves`` (each target's own avoidance roll); where a step is silent the documented default is taken
and marked ``defaulted``; an illegal choice is an error listing the legal ones.
"""

from __future__ import annotations

from ..chosen import read as chosen_read
from ..dragonkin import KIN
from ..moves import held, moved_army_at, of_the_dead, transfer
from ..roll import Outcome, Special
from ..sais import RESOLVED
from ..ruleset import Ruleset
from ..state import RESERVE, Army, Effect, GameState
from ..steps import AttackStep, StepResult
from ..trace import READING, StepError, TraceEvent, reading, told
from . import companions, destinations, hooks
from .joined_rolls import MERGED, fitting, joined_roll, leave, left_to, through_pipeline, with_joined
from .joined_trumpet import joined_ferals
from .sai_choices import grouped, named_targets, sai_cite

RISE = "rise-from-the-ashes"
GOLD, SILVER = "sfr-tsr-logo-gold-medallion", "sfr-tsr-logo-silver-medallion"


def handles(special: Special) -> bool:
    """Whether this module resolves the special result (engine.sais.RESOLVED names its effects)."""
    return special.effect in RESOLVED


# --- special results before the defender's saves: states on units or on an army -------------------------


# --- delayed: after the defender's save roll ------------------------------------------------------------


# --- special results in a save roll: Regenerate, Gold Medallion, Cloak, Vanish and the movers -----------


def in_saves(state: GameState, ruleset: Ruleset, answer: Outcome, defender: Army, step: AttackStep | None,
             out: StepResult, joined: dict[str, Outcome] | None = None, kind: str = "save",
             resolves: tuple[str, ...] | None = ()) -> tuple[GameState, int]:
    """The save roll's own special results, resolved before its saves are applied; returns the saves they
    add (Cloak) less the saves of units that moved away. ``joined``: filled with the rolls of the units brought in
    (a ``kind`` roll: a skirmish's save roll against melee or missile), whose ``resolves`` specials the caller
    resolves (``in_roll``: a skirmish's, all, engine.actions.combat; a save roll against spells, their Cantrip,
    engine.actions.spells)."""
    return in_roll(state, ruleset, answer, defender, step, out, kind, "save", joined, resolves)


def in_roll(state: GameState, ruleset: Ruleset, answer: Outcome, army: Army, step, out: StepResult, kind: str | None,
            result: str, joined: dict[str, Outcome] | None = None,
            resolves: tuple[str, ...] | None = ()) -> tuple[GameState, int]:
    """An army's own special results in its save roll or avoidance roll (``kind``, for ``result``), resolved
    before its results are applied: units brought back roll a ``kind`` roll at once, Cloak adds its saves in a
    save roll, moved units take their results away. Returns the change to its ``result`` results of its own (Cloak's,
    the moved units'; the units brought in count when the roll is counted with them, engine.actions.joined_rolls
    ``through_pipeline``, as ``adjust`` does). ``kind`` None:
    a unit's own roll (engine.actions.own_roll), where the units brought back join its army without rolling.
    ``joined`` given: filled with the rolls of the units brought in, whose ``resolves`` specials (None: all but
    their moves and Cloak) the caller resolves; any other is refused (engine.actions.joined_rolls ``unmerged``)."""
    merged = None if resolves is None else (*MERGED, *resolves)
    joined = {} if joined is None else joined
    state = bring_in(state, ruleset, answer, army.id, step, out, kind, result, joined)
    answer = with_joined(answer, joined, ruleset, kind or result, merged)
    state, change = cloak_saves(state, ruleset, answer, army, out)
    for sai, rolled in grouped(answer.specials, ("move",)).items():
        state, lost = _move(state, ruleset, sai, rolled, state.army(army.id), answer, step, out, result,
                            kind is not None)
        change -= lost
    if state.has_army(army.id):
        state = move_dragons(state, ruleset, answer, state.army(army.id), step, out)
    # dragonkin the moves left alone dissipated at once, their results leaving the roll with the moved units' (``_move``)
    return state, change


@hooks.BRING_IN.fill
def bring_in(state: GameState, ruleset: Ruleset, rolled: Outcome, army_id: str, step, out: StepResult, kind: str,
             result: str, joined: dict[str, Outcome] | None = None,
             wanted: tuple[str, ...] = ()) -> GameState:
    """The roll's returning SAIs: units brought back from the DUA (Regenerate, the Gold Medallion) or from
    another terrain (tsr-1996 Ferry) roll a ``kind`` roll (for ``wanted``, else ``result``) at once, their own
    returning SAIs bringing more (a chain); buried items and dragonkin come back (the Silver Medallion). ``joined``
    collects each unit brought in and its roll; their results count when the roll is counted with them
    (engine.actions.joined_rolls ``through_pipeline``)."""
    if not rolled.specials and not joined:
        return state        # no SAI rolled and no unit joined: none brings a unit in (the usual roll)
    joined = {} if joined is None else joined
    for effect, bring in (("raise", _raise), ("fetch", _fetch)):
        for sai, group in grouped(rolled.specials, (effect,)).items():
            state = bring(state, ruleset, sai, group, state.army(army_id), step, out, kind, result, joined, wanted)
    for sai, group in grouped(rolled.specials, ("restore",)).items():
        state = _restore(state, ruleset, group, state.army(army_id), step, out)
    # a Trumpet of the roll doubles the Feral units that joined it (engine.actions.joined_trumpet)
    joined_ferals(state, ruleset, rolled, army_id, joined, step, out, kind, wanted or (result,))
    return state


def move_dragons(state: GameState, ruleset: Ruleset, rolled: Outcome, army: Army, step, out: StepResult) -> GameState:
    """002 SFR/TSR Logo (Dragonkin Champion): "During any action or non-maneuver avoidance roll, may move a
    summoned dragon with the same color as the Dragonkin Champion from any terrain to any other terrain" -- the
    step's ``move_dragons``, checked and moved as in a dragon attack (engine.actions.dragon_sais.move). A "may":
    without ``move_dragons`` no dragon moves."""
    movers = [s.unit for s in rolled.specials if s.effect == "dragon-move"]
    if not movers:
        # a melee checks once both its rolls are made (engine.actions.specials.leftover_choices)
        if getattr(step, "move_dragons", ()) and not isinstance(step, AttackStep):
            raise StepError("move_dragons is given, but this roll made no Dragonkin Champion's logo",
                            cite=sai_cite(ruleset, "sfr-tsr-logo-dragonkin-champion"), field="move_dragons")
        return state
    if not getattr(step, "move_dragons", ()):
        out.trace.append(TraceEvent(what=f"{', '.join(movers)}: no dragon moves", rule="the logo may move a summoned "
                                    "dragon of its color; no move_dragons given",
                                    cite=sai_cite(ruleset, "sfr-tsr-logo-dragonkin-champion"), defaulted=True))
        return state
    from .dragon_sais import move

    return move(state, ruleset, army, movers, step, out)


def attack_specials(state: GameState, ruleset: Ruleset, hit: Outcome, attacker: Army, action: str,
                    step: AttackStep | None, out: StepResult, joined: dict[str, Outcome] | None = None,
                    also: tuple[str, ...] | None = ()) -> tuple[GameState, int]:
    """The attack roll's own returning and moving SAIs (Regenerate, the Medallions; Ferry, Teleport,
    Firewalking), before the attack is resolved; returns the change to its ``action`` results (the results of the
    units that moved away, taken out; those of the units brought in count with the roll's, engine.actions.joined_rolls
    ``through_pipeline``). ``joined``: filled
    with the rolls of the units brought in, whose moves and logo act with the army's (``MERGED``); ``also``:
    the effects of theirs the caller resolves, None for every other one (engine.actions.combat)."""
    joined = {} if joined is None else joined
    state = bring_in(state, ruleset, hit, attacker.id, step, out, action, action, joined)
    hit = with_joined(hit, joined, ruleset, action, None if also is None else (*MERGED, *also))
    state, lost = attack_moves(state, ruleset, hit, attacker, action, step, out)
    state = move_dragons(state, ruleset, hit, state.army(attacker.id), step, out)
    if lost:
        out.results.setdefault(attacker.id, {})[action] = max(0, hit.results.get(action, 0) - lost)
    return state, -lost


def attack_moves(state: GameState, ruleset: Ruleset, hit: Outcome, attacker: Army, action: str,
                 step: AttackStep | None, out: StepResult) -> tuple[GameState, int]:
    """Ferry, Teleport, Firewalking rolled in the attack of a melee or missile action: the units move away
    before the attack is resolved, and their results leave it; returns the results taken away."""
    lost = 0
    for sai, rolled in grouped(hit.specials, ("move",)).items():
        state, n = _move(state, ruleset, sai, rolled, state.army(attacker.id), hit, step, out, action)
        lost += n
    if lost:
        out.results.setdefault(attacker.id, {})[action] = max(0, hit.results.get(action, 0) - lost)
    return state, lost


def _cloak(state: GameState, ruleset: Ruleset, rolled: list[Special], defender: Army, out: StepResult) -> int:
    """002 Cloak: "During a save roll, add four magical save results to the army containing this unit until the
    beginning of your next turn" -- this save roll included."""
    added = 4 * len(rolled)
    out.trace.append(TraceEvent(what=f"cloak: +{added} magical saves to {defender.id} until the beginning of "
                                     f"{defender.player}'s next turn", after=added,
                                rule="four magical save results for the army, this roll and its rolls until then",
                                cite=sai_cite(ruleset, "cloak")))
    return added


def cloak_saves(state: GameState, ruleset: Ruleset, answer: Outcome, army: Army,
                out: StepResult) -> tuple[GameState, int]:
    """Cloak in a save roll, and in the army's roll against a dragon attack, "a melee avoidance, missile avoidance
    and save combination roll" (002 Dragon Attack; read as a save roll for Cloak): "During a save roll, add four
    magical save results to the army containing this unit until the beginning of your next turn". Returns the
    saves it adds to this roll; the effect stays on the army."""
    added = 0
    for sai, rolled in grouped(answer.specials, ("cloak",)).items():
        added += _cloak(state, ruleset, rolled, army, out)
        state = state.evolve(effects=(*state.effects, Effect(spell="cloak", target=army.id, by=army.player,
                                                             count=len(rolled), source=rolled[0].unit)))
    return state, added


def dragon_moves(state: GameState, ruleset: Ruleset, answer: Outcome, army: Army, step,
                 out: StepResult) -> tuple[GameState, dict[str, int], list[str]]:
    """Wayfare ("During a dragon attack, Wayfare allows the magical item and a unit able to carry it to be moved
    immediately to any other terrain or its reserve area"), and Ferry, Teleport, Firewalking and Vanish (the army's
    roll against a dragon attack is a non-maneuver avoidance roll and a save roll) in that roll: the units move
    away and, but for Vanish's, their results leave the army's. Returns the results taken away, by type, and the
    units whose results left."""
    return combination_moves(state, ruleset, answer, army, step, out, ("melee", "missile", "save"))


def combination_moves(state: GameState, ruleset: Ruleset, answer: Outcome, army: Army, step, out: StepResult,
                      wanted: tuple[str, ...]) -> tuple[GameState, dict[str, int], list[str]]:
    """The moving SAIs of a combination roll for ``wanted`` results (a dragon attack's, a Tidal Wave's save and
    maneuver roll): the units move away and, but for Vanish's ("unless explicitly stated otherwise (e.g.
    Vanish)", 002 Resolution), their ``wanted`` results leave the army's. Returns the results taken away, by
    type, and the units whose results left."""
    lost: dict[str, int] = {}
    leavers: list[str] = []
    for sai, rolled in grouped(answer.specials, ("move",)).items():
        gone: list[str] = []
        state, _ = _move(state, ruleset, sai, rolled, state.army(army.id), answer, step, out, "", gone=gone)
        leavers += gone
        for t in wanted:     # the Vanish movers keep theirs (not in ``gone``); kin that dissipated do not
            lost[t] = lost.get(t, 0) + sum(answer.per_unit.get(u, {}).get(t, 0) for u in gone)
    if any(lost.values()):
        out.trace.append(_leave_total(f"the moved units' results leave {army.id}'s total: "
                                      + ", ".join(f"{n} {t}" for t, n in lost.items() if n), sum(lost.values()),
                                      ruleset))
    return state, lost, leavers


ARMY_STATE, SNEAK = "army-state", "sneak-attack"


def joined_returns(state: GameState, ruleset: Ruleset, hit: Outcome, caster: Army, step, out: StepResult,
                   kind: str, wanted: tuple[str, ...]) -> tuple[GameState, dict[str, Outcome]]:
    """Regenerate and the Gold and Silver Medallions rolled in a magic action (002 SAI List: "During any
    non-maneuver roll ..."): units come back from the DUA (the Gold Medallion: from the BUA to the DUA) or a
    buried item returns, before the magic is counted. Returns each unit brought into the army and its own
    magic roll, which the magic action counts as that unit's magic (002 Resolution: "rolled immediately and
    the results applied with the results of their army"). A ``kind`` roll for ``wanted`` results: a magic
    action's magic, the army's combination roll against a dragon attack (melee, missile, save) or a spell."""
    rolls: dict[str, Outcome] = {}
    state = bring_in(state, ruleset, hit, caster.id, step, out, kind, wanted[0], rolls, wanted)
    return state, rolls


def _raise(state: GameState, ruleset: Ruleset, sai: str, rolled: list[Special], army: Army,
           step: AttackStep | None, out: StepResult, kind: str, result: str,
           outcomes: dict[str, Outcome] | None = None, wanted: tuple[str, ...] = ()) -> GameState:
    """Regenerate, Gold Medallion: "immediately bring back up to four health-worth of units from your DUA to the
    army containing this unit". Those units "are rolled immediately and the results applied with the results of
    their army" (002 Resolution): each one's roll (a ``kind`` roll for ``result``) is its ``unit_saves`` entry."""
    cite = sai_cite(ruleset, sai)
    # 002 SAI List: "The SAIs on the medallions generates four results unless stated otherwise"
    limit = 4 * len(rolled) if sai == GOLD else sum(s.points for s in rolled)
    dead = state.area("dua", army.player).units
    chosen = named_targets(step, sai) or ()
    if not chosen:
        out.trace.append(TraceEvent(what=f"{sai}: nothing comes back", rule="the owner names the units it brings "
                                    "back; none given", cite=cite, defaulted=True))
        return state
    if sai == GOLD and any(u.id == chosen[0] for u in state.area("bua", army.player).units):
        return _unbury(state, ruleset, chosen, army, out)
    if of_the_dead(army):
        # 002 Glossary, Magically Constructed Army: "A magically constructed army cannot ... bring back units with a
        # Regeneration SAI because there are no units in the DUA" (its dead are its units; those it loses are buried)
        raise StepError(f"{army.id} is the magically constructed army of a Haunt: it cannot bring back units with "
                        f"{sai} ({told(chosen)}), because there are no units in the DUA (all of {army.player}'s dead "
                        "are its units, and those it loses go to the BUA); remove the targets",
                        cite=ruleset.cite("haunt-army"), field="targets")
    by_id = {u.id: u for u in dead}
    taken, rest = fitting(chosen, by_id, limit)
    if not taken:
        raise StepError(f"{sai} brings back up to {limit} health-worth of {army.player}'s dead units: "
                        f"{told(chosen)} is not such a choice; the DUA holds "
                        f"{', '.join(f'{u.id} ({u.health})' for u in dead) or 'nothing'}", cite=cite, field="targets")
    for unit_id in taken:
        unit = by_id[unit_id]
        state = state.take_from("dua", army.player, unit_id)
        state = state.with_army(state.army(army.id).evolve(units=(*state.army(army.id).units, unit)))
        out.moved.append(unit_id)
        rule, where = ruleset.words(f"{sai}:raise", "up to four health-worth of units come back from your DUA to "
                                    "the army containing this unit", cite)
        out.trace.append(TraceEvent(what=f"{sai}: {unit.label} comes back from the DUA to {army.id}",
                                    before=limit, after=unit.health, rule=rule, cite=where))
    start = len(out.moved)
    state = joined_roll(state, ruleset, sai, taken, army, left_to(step, sai, rest), out, kind, result, outcomes,
                        wanted)
    left = [i for i in rest if i not in out.moved[start:]]
    if left:
        error = StepError(f"{sai} brings back up to {limit} health-worth of {army.player}'s dead units: "
                          f"{told(chosen)} is not such a choice ({', '.join(left)} past that is left to the same SAI "
                          f"rolled by the units it brings back, and none took it); the DUA held "
                          f"{', '.join(f'{u.id} ({u.health})' for u in dead) or 'nothing'}", cite=cite, field="targets")
        if not _freed_later(state, ruleset, army, step, kind):
            raise error
        out.deferred.append((tuple(left), error))
    return state


def _freed_later(state: GameState, ruleset: Ruleset, army: Army, step, kind: str) -> bool:
    """Whether units of the acting ``army`` freed by its roll roll later in it (``freed_roll``, 004 Entangle D:
    "the Entangled unit(s) may immediately be rolled and are counted in the current roll": the melee or missile
    action's roll): a returning SAI's ``targets`` past its own units are then left to theirs too (the chain's
    reading), checked once they rolled."""
    if kind not in ("melee", "missile") or army.id != getattr(step, "army", None):
        return False
    given = dict(getattr(step, "unit_saves", ()))
    return any(e.target in given for e in _freed(state, ruleset, army))


def _freed(state: GameState, ruleset: Ruleset, army: Army) -> list:
    """The effects on ``army``'s units whose maker died during the roll and which free their units to roll."""
    alive = {u.id for a in state.armies for u in a.units}
    mine = {u.id for u in army.units}
    return [e for e in state.effects if e.source and e.source not in alive and e.target in mine
            and (rule := ruleset.sai_states.get(e.spell)) is not None and rule.freed_roll]


# tsr-1996 Ferry (004): "Immediately move this monster to another terrain, if desired. It may stay there or
# immediately return with four health of six-sided units": either the monster stays at the other terrain (the
# step's ``move_to``), or it goes and comes back at once with the units, who join its army (Ferry C: "Troops moved
# through the use of this power are immediately rolled and counted toward the totals of the current roll. The
# monster is not rerolled"); D: "During a dragon attack, the Ferry performs normally" (engine.actions.dragon).
def _fetch(state: GameState, ruleset: Ruleset, sai: str, rolled: list[Special], army: Army, step, out: StepResult,
           kind: str, result: str, outcomes: dict[str, Outcome] | None = None,
           wanted: tuple[str, ...] = ()) -> GameState:
    """The units named in the step's ``targets`` come from the player's armies at one other terrain to the
    ferrying monster's army and are rolled at once (``joined_roll``). With ``move_to``
    the monster stays at that terrain instead (``_ferry_stays``)."""
    limit = sum(s.points for s in rolled)
    chosen = named_targets(step, sai) or ()
    to = dict(getattr(step, "move_to", ())).get(sai) if step is not None else None
    if to is not None:
        chosen_read("move_to", sai)
        return _ferry_stays(state, ruleset, sai, rolled, army, to, chosen, out)
    rule, cite = ruleset.words(f"{sai}:fetch", "immediately return with four health of six-sided units",
                               sai_cite(ruleset, sai))
    if not chosen:
        out.trace.append(TraceEvent(what=f"{sai}: nobody is ferried to {army.id}", rule=f"{rule} (a choice; no "
                                    "targets given)", cite=cite, defaulted=True))
        return state
    legal = {u.id: (a, u) for a in state.armies if a.player == army.player and a.at not in (army.at, RESERVE)
             for u in a.units if not u.monster and u.race != "dragonkin" and not u.item}
    picked = [legal[i] for i in chosen if i in legal]
    if (len(picked) != len(chosen) or len(set(chosen)) != len(chosen) or sum(u.health for _, u in picked) > limit
            or len({a.at for a, _ in picked}) != 1):
        raise StepError(f"{sai} returns with up to {limit} health of six-sided units from one other terrain: "
                        f"{told(chosen)} is not such a choice (each unit once); legal units: "
                        f"{', '.join(f'{u.id} ({u.health}, at {a.at})' for a, u in legal.values()) or 'none'}",
                        cite=cite, field="targets")
    out.trace.append(TraceEvent(what=f"{sai}: {', '.join(r.unit for r in rolled)} goes to {picked[0][0].at} and "
                                     f"returns at once to {army.at}", before=limit,
                                after=sum(u.health for _, u in picked), rule=rule, cite=cite))
    for source, unit in picked:
        out.moved.append(unit.id)
        state = transfer(state, unit.id, state.army(source.id), state.army(army.id), sai, cite, ruleset, out)
    return joined_roll(state, ruleset, sai, chosen, army, step, out, kind, result, outcomes, wanted)


def _ferry_stays(state: GameState, ruleset: Ruleset, sai: str, rolled: list[Special], army: Army, to: str,
                 chosen: tuple[str, ...], out: StepResult) -> GameState:
    """004 Ferry: "It may stay there or immediately return with four health of six-sided units" -- the monster
    goes to ``to`` (any other terrain) and stays, joining the player's army there (formed if there is none); it
    returns with nobody. Its die shows the Ferry icon, which is no result of the roll: the roll's totals keep the
    rest of the army's results, and the monster is no longer in the army when they are applied."""
    rule, cite = ruleset.words(f"{sai}:stays", "It may stay there", sai_cite(ruleset, sai))
    if chosen:
        raise StepError(f"{sai}: the monster either stays at {to} (move_to) or returns with units (targets: "
                        f"{told(chosen)}), not both: drop one", cite=cite, field="move_to")
    destinations.check(state, sai, to, army, cite)
    state, dest = _army_at(state, army.player, to, ruleset, out)
    for monster in dict.fromkeys(s.unit for s in rolled):
        # reading: "stay there or immediately return with" -- one or the other, so it returns with nobody; the
        # text is silent on the monster's own roll, whose Ferry icon is no result (the monster's icons that count
        # four points of effect are its ID and normal icons, 004 Monsters B and C)
        out.trace.append(TraceEvent(what=f"reading: {sai}: {monster} goes to {to} and stays there, returning with nobody "
                                         f"(read: the text's 'or'); its Ferry icon counts toward no total of "
                                         f"{army.id}'s roll (read: only a monster's ID and normal icons count)",
                                    rule=rule, cite=cite, also=ruleset.cite("monsters"), kind=READING))
        out.moved.append(monster)
        state = transfer(state, monster, state.army(army.id), state.army(dest.id), sai, cite, ruleset, out)
    return state


def _unbury(state: GameState, ruleset: Ruleset, chosen: tuple[str, ...], army: Army, out: StepResult) -> GameState:
    """002 Gold Medallion: "returns one non-dragonkin buried unit to the DUA"."""
    cite = sai_cite(ruleset, GOLD)
    buried = state.area("bua", army.player).units
    legal = [u.id for u in buried if u.race != "dragonkin" and not u.item]
    if len(chosen) != 1 or chosen[0] not in legal:
        raise StepError(f"the Gold Medallion returns one non-dragonkin buried unit to the DUA: legal choices are "
                        f"{', '.join(legal) or 'none'}", cite=cite, field="targets")
    unit = next(u for u in buried if u.id == chosen[0])
    out.trace.append(TraceEvent(what=f"{GOLD}: {unit.label} returns from the BUA to {army.player}'s DUA",
                                rule="returns one non-dragonkin buried unit to the DUA", cite=cite))
    return state.take_from("bua", army.player, unit.id).add_to("dua", army.player, (unit,))


def _restore(state: GameState, ruleset: Ruleset, rolled: list[Special], army: Army, step: AttackStep | None,
             out: StepResult) -> GameState:
    """002 Silver Medallion: "returns one buried magical item to the army this medallion is a part of or one
    buried Dragonkin to the summoning pool"."""
    cite = sai_cite(ruleset, SILVER)
    buried = state.area("bua", army.player).units
    legal = [u.id for u in buried if u.item or u.race == "dragonkin"]
    chosen = named_targets(step, SILVER)
    if chosen is None:
        out.trace.append(TraceEvent(what=f"{SILVER}: nothing returns", rule="the owner names the buried item or "
                                    "dragonkin; none given", cite=cite, defaulted=True))
        return state
    if len(chosen) != 1 or chosen[0] not in legal:
        raise StepError(f"the Silver Medallion returns one buried magical item or dragonkin: legal choices are "
                        f"{', '.join(legal) or 'none'}", cite=cite, field="targets")
    unit = next(u for u in buried if u.id == chosen[0])
    state = state.take_from("bua", army.player, unit.id)
    if unit.item:
        out.moved.append(unit.id)
        out.trace.append(TraceEvent(what=f"{SILVER}: {unit.label} returns from the BUA to {army.id}",
                                    rule="one buried magical item returns to the army", cite=cite))
        return state.with_army(state.army(army.id).evolve(units=(*state.army(army.id).units, unit)))
    out.trace.append(TraceEvent(what=f"{SILVER}: {unit.label} returns from the BUA to {army.player}'s summoning "
                                     "pool", rule="one buried Dragonkin returns to the summoning pool", cite=cite))
    pool = state.pool(army.player)
    return state.with_pool(pool.evolve(units=(*pool.units, unit)))


# Vanish's saves still count ("unless explicitly stated otherwise (e.g. Vanish)"); who goes along:
# engine.actions.companions; where each mover goes: engine.actions.destinations
KEEPS_RESULTS = ("vanish",)


def _move(state: GameState, ruleset: Ruleset, sai: str, rolled: list[Special], army: Army, answer: Outcome,
          step, out: StepResult, result: str, roll: bool = True, gone: list | None = None) -> tuple[GameState, int]:
    """Vanish, Ferry (the unit and up to four health-worth of its army), Teleport and Firewalking (up to three),
    Wayfare (the item and one unit to carry it) move away; their ``result`` results leave the army's:
    "Any component removed from the army by a Special ... SAI ... does not have its results counted in the army
    total, unless explicitly stated otherwise (e.g. Vanish)" (002 Resolution). Moving is a "may": without
    ``move_to`` nobody moves; per mover, each goes to its own place and one left out stays. ``roll``: the units
    leave the army's roll in progress (``joined_rolls.leave``; not in a unit's own roll), which is counted again
    without them through the one pipeline. Dragonkin the moves leave alone dissipate at once (engine.moves
    ``transfer``) and leave the roll as the moved units do (``_kin_gone``). ``gone``: extended with every unit that
    left the army, moved or dissipated."""
    cite = sai_cite(ruleset, sai)
    movers = tuple(dict.fromkeys(s.unit for s in rolled))
    places = destinations.going(state, ruleset, sai, step, movers, army, cite, out, result)
    if not places:
        return state, 0
    moving = tuple(m for group in places.values() for m in group)
    taken = companions.along(ruleset, sai, step, moving, army, cite, out, movers, apart=len(places) > 1)
    _held_back(state, ruleset, sai, taken, army, cite)
    lost = 0
    kin = [u.id for u in army.units if u.race == KIN]
    for to, group in places.items():
        units = (*group, *(i for m in group for i in taken.get(m, ())))
        lost += 0 if sai in KEEPS_RESULTS else sum(answer.per_unit.get(i, {}).get(result, 0) for i in units)
        if roll and sai not in KEEPS_RESULTS:
            leave(out, army.id, units, answer.per_unit)
        state = _send(state, ruleset, sai, units, army, to, cite, out)
        if gone is not None and sai not in KEEPS_RESULTS:
            gone.extend(units)
    if lost:
        out.trace.append(_leave_total(f"{sai}: the moved units' {lost} {result} result(s) leave {army.id}'s total",
                                      lost, ruleset))
    return state, lost + _kin_gone(state, ruleset, army.id, kin, answer, out, result, roll, gone)


def _kin_gone(state: GameState, ruleset: Ruleset, army_id: str, kin: list[str], answer: Outcome, out: StepResult,
              result: str, roll: bool, gone: list | None) -> int:
    """The dragonkin of ``army_id`` (``kin``, before the move) that dissipated when the move left them alone (002
    Dragonkin, at once: engine.moves ``transfer``) leave its roll in progress with their results, as the moved units
    did: 002 Resolution, a component removed from the army by a Special SAI "does not have its results counted in the
    army total" -- their automatic saves too. Returns their ``result`` results, taken from the army's."""
    left = [k for k in kin if not (state.has_army(army_id) and state.army(army_id).unit(k) is not None)]
    if not left:
        return 0
    if roll:
        leave(out, army_id, left, answer.per_unit)
    if gone is not None:
        gone.extend(left)
    lost = sum(answer.per_unit.get(k, {}).get(result, 0) for k in left)
    if lost:
        out.trace.append(_leave_total(f"the dissipated dragonkin's {lost} {result} result(s) leave {army_id}'s total",
                                      lost, ruleset))
    return lost


def _held_back(state: GameState, ruleset: Ruleset, sai: str, taken: dict[str, tuple[str, ...]], army: Army,
               cite: str) -> None:
    """A unit an effect keeps at its terrain cannot be taken along (sfr-v4 Sleep: "cannot be rolled or leave the
    terrain they currently occupy until the beginning of your next turn"; ``Ruleset.held_by_effects``). The movers
    themselves rolled, so no such effect is on them."""
    for mover, units in taken.items():
        for unit_id in units:
            if (effect := held(state, unit_id, ruleset)) is not None:
                raise StepError(f"{sai} rolled by {mover} cannot take {unit_id} along: it cannot leave {army.at} "
                                f"while {effect.spell} is on it (cannot be rolled or leave the terrain it "
                                "occupies)", cite=ruleset.sai_sections.get(effect.spell, cite), field="targets")


def _send(state: GameState, ruleset: Ruleset, sai: str, units: tuple[str, ...], army: Army, to: str, cite: str,
          out: StepResult) -> GameState:
    """The ``units`` leave ``army`` for the player's army at ``to`` (formed if there is none)."""
    state, dest = _army_at(state, army.player, to, ruleset, out)
    for unit_id in units:
        out.moved.append(unit_id)
        state = transfer(state, unit_id, state.army(army.id), dest, sai, cite, ruleset, out)
        dest = state.army(dest.id)
    return state


def _leave_total(what: str, lost: int, ruleset: Ruleset) -> TraceEvent:
    """002 Resolution: "Any component removed from the army by a Special or Unique resolution type SAI ... does not
    have its results counted in the army total": read as taken out as counted, before the army's modifiers."""
    cite, other = ruleset.cite("sai-resolution"), ruleset.cite("modifier-order")
    if other == cite and ruleset.fallback:
        # sfr-v4 gives its SAI timing and its modifier order in one section (001 Die Roll Resolution) and is silent
        # on a removed component's results: the rule read with it is the fallback edition's (002 Resolution)
        other = f"{ruleset.fallback}:special-action-icons-general-information.resolution"
    return reading(f"{what}, taken out as counted, before the army's modifiers", cite, other).evolve(after=lost)


def _army_at(state: GameState, player: str, where: str, ruleset: Ruleset, out: StepResult) -> tuple[GameState, Army]:
    """The player's army at ``where`` (a terrain, or the reserve area), formed if the player has none there
    (engine.moves.moved_army_at: the one place moved units form an army, its name documented)."""
    return moved_army_at(state, player, where, ruleset, out)


# --- units freed by the end of an effect ---------------------------------------------------------------


def freed_roll(state: GameState, ruleset: Ruleset, army: Army, step, out: StepResult,
               action: str, result: str | None = None,
               wanted: tuple[str, ...] = ()) -> tuple[GameState, dict[str, Outcome]]:
    """tsr-1996, 004 Entangle D: "If, during an normal action, a special action icon is rolled which kills the
    Entangling monster (Cantrip, Bullseye, or even Smite), the Entangled unit(s) may immediately be rolled and are
    counted in the current roll": the units of ``army`` freed by its roll's SAIs (the acting army's attack roll; the
    defender's save roll, engine.actions.freed_saves) roll now (their ``unit_saves``), joining its roll in progress
    (``joined_roll``: an ``action`` roll for ``result``, a save roll's saves, or ``wanted``, a tsr-1996 charge's
    results, engine.actions.charge_freed); a "may": a freed unit without one is not rolled. Returns each freed unit's
    roll, whose specials are the caller's to resolve as the army's own (engine.actions.freed_sais)."""
    freed = _freed(state, ruleset, army)
    if not freed:
        return state, {}
    from ..expiry import expire

    rule, cite = ruleset.words(f"{freed[0].spell}:freed", "the effect ends with the unit whose SAI made it",
                               sai_cite(ruleset, freed[0].spell))
    state = expire(state, freed, f"{', '.join(sorted({e.source for e in freed}))} was killed during "
                   f"{army.id}'s roll", rule, ruleset, out, cite=cite)
    given = dict(getattr(step, "unit_saves", ()))
    rolling = tuple(e.target for e in freed if e.target in given)
    for e in freed:
        if e.target not in given:
            out.trace.append(TraceEvent(what=f"{e.target} is freed but not rolled", rule=f"{rule} (a choice; no "
                                        f"unit_saves.{e.target} given)", cite=cite, defaulted=True))
    joined: dict[str, Outcome] = {}
    state = joined_roll(state, ruleset, freed[0].spell, rolling, army, step, out, action, result or action, joined,
                        wanted)
    for left, error in out.deferred:    # the army's returning SAI left these to the freed units' (``_raise``)
        if any(i not in out.moved for i in left):
            raise error
    out.deferred.clear()
    return state, joined


def adjust(saved: int, change: int, defender: Army, out: StepResult, result: str = "save") -> int:
    """The defender's saves (an avoidance roll's ``result`` results) once its roll's own specials and a Hypnotic
    Glare have acted on them, the units that joined the roll counted with it through the one pipeline
    (engine.actions.joined_rolls ``through_pipeline``)."""
    change = through_pipeline(out, defender.id, result, saved + change) - saved
    if not change:
        return saved
    saved = max(0, saved + change)
    out.results.setdefault(defender.id, {})[result] = saved
    return saved
