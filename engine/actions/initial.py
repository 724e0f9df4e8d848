"""The Initial Effects phase of the marching player's turn (002 The Turn Sequence > Initial Effects Phase).

"There are several steps within the Initial Effects phase that must be resolved in this order: Racial
Abilities: Feralization and Swamp Stalker mutation ... Eighth Face Special Location Icons: City, Temple,
Dragons' Lair, and Grove ... Royalty Die Abilities: Promotion or recruiting by a Kings' Die." Each step is
a separate occurrence, so one unit may be promoted in each (002 Promotion: "a unit can be promoted multiple
times, but not within the same step"); each effect is one exchange (engine.exchange).

The player's choices are the turn step's ``initial``; an effect the rules let the player use but the
scenario does not name is not used, and the trace says so (``defaulted``). Within a step, the effects
resolve in the order ``order`` gives, else: Feralization (armies in the order written), Mutation, Sacrifice
Dragonkin; City, Temple, Grove, Dragon's Lair.
"""

from __future__ import annotations

from ..names import typed
from .. import pool
from ..damage import kill
from ..exchange import KIN, bring_back, promote, recruit
from ..expiry import unit_gone
from ..protection import burial_barred, burial_barred_event
from ..ruleset import Ruleset
from ..state import RESERVE, Army, GameState, Unit
from ..steps import Exchanges, InitialEffects, KingsDie, Mutation, StepResult
from ..trace import StepError, TraceEvent, reading
from .own_roll import unit_roll
from . import hooks
from .sai_choices import sai_cite
from .sai_states import RISE

FERAL, STALKER, ELDARIM = "feral", "swamp-stalker", "eldarim"
KINGS_DIE = "Kings' Die"
MUTATION_TARGETS = 3        # "Target up to 3 health-worth of units in an opponent's reserve area"
KINGS_DIE_GAIN = 4          # "bring back up to four health-worth of units"


def initial_effects(state: GameState, player: str, chosen: InitialEffects, ruleset: Ruleset,
                    out: StepResult) -> GameState:
    """The phase's three steps, in the rulebook's order."""
    out.trace.append(TraceEvent(what=f"{player}'s Initial Effects phase", rule="racial abilities, then eighth "
                                "face special location icons, then the royalty die; each step is a separate "
                                "occurrence", cite=ruleset.cite("initial-effects")))
    header = len(out.trace) - 1
    before = {u.id: a.id for a in state.armies for u in a.units}
    state = _racial(state, player, chosen, ruleset, out)
    state = _eighth_faces(state, player, chosen, ruleset, out)
    state = _kings_die(state, player, chosen.kings_die, ruleset, out)
    _joined(state, before, out)
    if all(e.detail for e in out.trace[header + 1:]):
        # nothing happened in the phase (at most detail lines): its heading is a detail line (--verbose, --json), not
        # default noise
        out.trace[header] = out.trace[header].evolve(detail=True)
    return state


def _joined(state: GameState, before: dict[str, str], out: StepResult) -> None:
    """The units that joined an army in the phase (from the DUA, the summoning pool, or another army by way of the
    DUA) are ``moved``."""
    out.moved += [u.id for a in state.armies for u in a.units if before.get(u.id) != a.id and u.id not in out.moved]


# --- racial abilities ------------------------------------------------------------------------


RACIAL_STEP = ("feralization", "mutation", "sacrifice")
EIGHTH_STEP = ("city", "temple", "grove", "dragons_lair")


def _in_order(step: tuple[str, ...], chosen: InitialEffects, cite: str) -> list[str]:
    """002: "The effects within a step can occur in any order the acting player chooses (e.g. Swamp Stalker
    mutation can occur before Feralization)"; ``order`` names it, else the rulebook's order of mention."""
    unknown = [e for e in chosen.order if e not in (*RACIAL_STEP, *EIGHTH_STEP)]
    if unknown:
        raise StepError(f"order names {typed(unknown[0])}; the effects are: {', '.join((*RACIAL_STEP, *EIGHTH_STEP))}",
                        cite=cite, field="initial")
    return [e for e in chosen.order if e in step] + [e for e in step if e not in chosen.order]


def _racial(state: GameState, player: str, chosen: InitialEffects, ruleset: Ruleset, out: StepResult) -> GameState:
    effects = {"feralization": lambda s: _feralization(s, player, dict(chosen.feralization), ruleset, out),
               "mutation": lambda s: _mutation(s, player, chosen.mutation, ruleset, out),
               "sacrifice": lambda s: _sacrifice(s, player, chosen.sacrifice, ruleset, out)}
    for name in _in_order(RACIAL_STEP, chosen, ruleset.cite("initial-effects")):
        state = effects[name](state)
    return state


def _feralization(state: GameState, player: str, chosen: dict[str, Exchanges], ruleset: Ruleset,
                  out: StepResult) -> GameState:
    """002 Feralization: "each of your armies at a terrain with at least one Feral unit may 1) recruit one Feral
    unit to this army or 2) promote one Feral unit in the army ... each army with Feral is considered separate"."""
    cite = ruleset.racial_cite(FERAL, "Feralization")
    able = [a.id for a in state.armies if a.player == player and a.at != RESERVE
            and any(u.race == FERAL for u in a.units)]
    for army_id in chosen:
        if army_id not in able:
            raise StepError(f"Feralization: {army_id} is not an army of {player}'s at a terrain with a Feral unit "
                            f"(those that may: {', '.join(able) or 'none'})", cite=cite, field="initial")
    for army_id in [*chosen, *(a for a in able if a not in chosen)]:     # the armies named, in the order written
        state = _recruit_or_promote(state, army_id, chosen.get(army_id), "Feralization", FERAL, cite, ruleset,
                                    out)
    return state


def _recruit_or_promote(state: GameState, army_id: str, choice: Exchanges | None, cause: str, race: str | None,
                        cite: str, ruleset: Ruleset, out: StepResult) -> GameState:
    """One recruitment or one promotion (Feralization, City, the Kings' Die unrolled); none when not named."""
    if choice is None:
        out.trace.append(TraceEvent(what=f"{cause}: {army_id} may recruit or promote one unit; the scenario names "
                                         "neither, so it does not",
                                    rule=ruleset.quote(cause.lower(), "may recruit one unit or promote one unit"),
                                    cite=cite, defaulted=True))
        return state
    if choice.recruit is not None and choice.promote is not None:
        raise StepError(f"{cause}: {army_id} recruits or promotes, not both", cite=cite, field="initial")
    if choice.recruit is not None:
        state, events = recruit(state, ruleset, army_id, 1, choice.recruit, cause, cite, race=race)
    else:
        state, events = promote(state, ruleset, army_id, 1, dict(choice.promote or ()), cause, cite, race=race)
    out.trace += events
    return state


def _mutation(state: GameState, player: str, m: Mutation | None, ruleset: Ruleset, out: StepResult) -> GameState:
    """002 Mutation: "Target up to 3 health-worth of units in an opponent's reserve area, which must generate a
    save result or be killed. For those that are killed return up to that many health-worth of Swamp Stalker
    units from your DUA to the mutating army, promote a number of Swamp Stalker units equal to the health
    killed or a combination of both"."""
    cite = ruleset.racial_cite(STALKER, "Mutation")
    dead = any(u.race == STALKER for u in state.area("dua", player).units)
    able = [a.id for a in state.armies if a.player == player and a.at != RESERVE
            and any(u.race == STALKER for u in a.units)] if dead else []
    if m is None:
        if able:
            out.trace.append(TraceEvent(what="Mutation: the scenario names no attempt, so none is made",
                                        rule="you may attempt to mutate", cite=cite, defaulted=True))
        return state
    if m.army not in able or not dead:
        raise StepError(f"Mutation needs a Swamp Stalker unit in an army at a terrain and a dead Swamp Stalker in "
                        f"the DUA: {m.army} cannot mutate (armies that may: {', '.join(able) or 'none'}; dead "
                        f"Swamp Stalkers: {'yes' if dead else 'none'})", cite=cite, field="initial")
    state, killed = _mutation_targets(state, player, m, cite, ruleset, out)
    state, events = bring_back(state, ruleset, m.army, killed, m.recruit, dict(m.promote), STALKER, False,
                               "Mutation", cite)
    out.trace += events
    return state


def _mutation_targets(state: GameState, player: str, m: Mutation, cite: str, ruleset: Ruleset,
                      out: StepResult) -> tuple[GameState, int]:
    """The targeted reserve units roll a save each; those without one are killed. Returns the health killed."""
    units = [(uid, _reserve_owner(state, uid)) for uid, _ in m.targets]
    bad = [uid for uid, army in units if army is None or army.player == player]
    # 002 Kings' Die: "For effects that target an army in the reserve, the Kings' Die cannot be attacked or
    # targeted in any way"
    royal = [uid for uid, army in units if uid not in bad and is_kings_die(army.unit(uid))]
    if royal:
        raise StepError(f"Mutation cannot target {royal[0]}: the Kings' Die cannot be attacked or targeted in any "
                        "way", cite=ruleset.cite("kings-die"), field="initial")
    if bad:
        raise StepError(f"Mutation targets units in an opponent's reserve area: {bad[0]} is not one", cite=cite,
                        field="initial")
    if len({a.player for _, a in units}) > 1:
        raise StepError("Mutation targets units in one opponent's reserve area", cite=cite, field="initial")
    worth = sum(a.unit(uid).health for uid, a in units)
    if worth > MUTATION_TARGETS:
        raise StepError(f"Mutation targets up to {MUTATION_TARGETS} health-worth of units; these are {worth}",
                        cite=cite, field="initial")
    killed = 0
    for uid, dice in m.targets:
        army = _reserve_owner(state, uid)
        state, rolled = unit_roll(state, ruleset, army, uid, "avoid-save", ("save",), dice, out)
        army, saves = _reserve_owner(state, uid) or army, rolled.results.get("save", 0)
        out.trace.append(TraceEvent(what=f"Mutation: {uid} rolls {saves} save(s): "
                                         f"{'saved' if saves else 'killed'}", after=saves,
                                    rule="must generate a save result or be killed", cite=cite))
        if not saves:
            killed += army.unit(uid).health
            out.killed.append(uid)
            state = kill(state, army.id, [uid])
    return state, killed


def _reserve_owner(state: GameState, unit_id: str) -> Army | None:
    return next((a for a in state.armies if a.at == RESERVE and a.unit(unit_id) is not None), None)


def _sacrifice(state: GameState, player: str, chosen: tuple[tuple[str, str], ...], ruleset: Ruleset,
               out: StepResult) -> GameState:
    """002 Sacrifice Dragonkin: "one of your Eldarim units in the DUA may be exchanged for any of your dragonkin
    units in play of equal health. Dragonkin go back to the summoning pool, while the Eldarim joins the army
    which had the dragonkin"."""
    cite = ruleset.racial_cite(ELDARIM, "Sacrifice Dragonkin")
    if len(chosen) > 1:
        raise StepError("Sacrifice Dragonkin exchanges one Eldarim unit of the DUA", cite=cite, field="initial")
    for dead_id, kin_id in chosen:
        out.trace.append(reading(
            "Sacrifice Dragonkin resolves in the racial abilities step (the phase names only Feralization "
            "and Mutation there; the ability says 'During your Initial Effects phase')", cite,
            ruleset.cite("initial-effects")))
        eldarim = next((u for u in state.area("dua", player).units if u.id == dead_id and u.race == ELDARIM), None)
        army = next((a for a in state.armies if a.player == player and a.unit(kin_id) is not None), None)
        kin = army.unit(kin_id) if army else None
        if eldarim is None or kin is None or kin.race != KIN or kin.health != eldarim.health:
            raise StepError(f"Sacrifice Dragonkin exchanges a dead Eldarim unit for a dragonkin of {player}'s in play "
                            f"of equal health: {dead_id} for {kin_id} is not that", cite=cite, field="initial")
        state = state.take_from("dua", player, dead_id)
        state = state.with_pool(state.pool(player).evolve(units=(*state.pool(player).units, kin)))
        state = state.with_army(army.evolve(units=tuple(eldarim if u.id == kin_id else u for u in army.units)))
        out.trace.append(TraceEvent(what=f"Sacrifice Dragonkin: {kin.label} goes back to the summoning pool; "
                                         f"{eldarim.label} joins {army.id}", rule="dragonkin go back to the "
                                    "summoning pool, while the Eldarim joins the army which had the dragonkin",
                                    cite=cite))
        state = unit_gone(state, kin_id, "exchanged", ruleset, out)
    return state


# --- eighth-face special location icons -------------------------------------------------------


def beginning_of_turn(state: GameState, player: str, chosen: InitialEffects, ruleset: Ruleset,
                      out: StepResult) -> GameState:
    """An edition without an Initial Effects phase (tsr-1996): only the eighth-face icons its text acts "at the
    beginning of your turn" (``Ruleset.turn_begins_with``); any other choice is refused, naming those."""
    others = [name for name, value in (("feralization", chosen.feralization), ("mutation", chosen.mutation),
              ("sacrifice", chosen.sacrifice), ("grove", chosen.grove), ("kings_die", chosen.kings_die),
              ("dragons_lair", chosen.dragons_lair != (None, None)), ("city", chosen.city),
              ("temple", chosen.temple)) if value and name not in ruleset.turn_begins_with]
    if others:
        raise StepError(f"initial names {others[0]}, which the {ruleset.edition} rules do not act at the beginning of "
                        f"a turn; they act: {', '.join(ruleset.turn_begins_with)}", cite=ruleset.cite("initial-effects"),
                        field="initial")
    # the dragons are said only where one is at a terrain to attack (phase boilerplate only when something happens)
    dragons = any(d.at != "pool" for d in state.dragons)
    start = len(out.trace)
    out.trace.append(TraceEvent(what=f"the beginning of {player}'s turn: spells have expired; "
                                     + ("the dragons attack (each a dragon_attack step); " if dragons else "")
                                     + f"{', '.join(ruleset.turn_begins_with)} act",
                                rule=ruleset.quote("turn-begins-with", "at the beginning of your turn"),
                                cite=ruleset.cite("initial-effects")))
    if dragons:     # the order with the dragon attack is a question only where a dragon is at a terrain to attack
        out.trace.append(reading(
            f"{' and '.join(ruleset.turn_begins_with)} act 'at the beginning of your turn', an order with the "
            "dragon attack the text does not give: they are resolved here, the dragons as later steps",
            ruleset.cite("eighth-face"), ruleset.cite("initial-effects")))
    header = len(out.trace)
    before = {u.id: a.id for a in state.armies for u in a.units}
    state = _eighth_faces(state, player, chosen, ruleset, out, ruleset.turn_begins_with)
    _joined(state, before, out)
    if all(e.detail for e in out.trace[header:]):
        # no City or Temple acted (at most detail lines): the heading (and its reading) are detail lines (--verbose,
        # --json)
        out.trace[start:header] = [e.evolve(detail=True) for e in out.trace[start:header]]
    return state


def _eighth_faces(state: GameState, player: str, chosen: InitialEffects, ruleset: Ruleset,
                  out: StepResult, step: tuple[str, ...] = EIGHTH_STEP) -> GameState:
    held = {t.controlled_by: t for t in state.terrains if t.face == 8 and t.controlled_by
            and state.has_army(t.controlled_by) and state.army(t.controlled_by).player == player}
    effects = {"city": lambda s: _city(s, player, held, dict(chosen.city), ruleset, out),
               "temple": lambda s: _temple(s, player, held, dict(chosen.temple), ruleset, out,
                                           dict(chosen.temple_ashes)),
               "grove": lambda s: _grove(s, player, held, chosen.grove, ruleset, out),
               "dragons_lair": lambda s: _dragons_lair(s, player, held, chosen.dragons_lair, ruleset, out)}
    for name in _in_order(step, chosen, ruleset.cite("initial-effects")):
        state = effects[name](state)
    return state


def _holders(held: dict, icon: str, chosen: dict, cite: str, player: str) -> list[str]:
    # a special terrain's own eighth face is its icon (002 Special Terrains: Grove, Dragon's Lair)
    armies = [a for a, t in held.items() if icon in (t.eighth, t.type, t.special)]
    for army_id in chosen:
        if army_id not in armies:
            raise StepError(f"{army_id} controls no {icon} of {player}'s at its eighth face (armies that do: "
                            f"{', '.join(armies) or 'none'})", cite=cite, field="initial")
    return [*chosen, *(a for a in armies if a not in chosen)]      # the armies named first, in the order written


def _city(state: GameState, player: str, held: dict, chosen: dict[str, Exchanges], ruleset: Ruleset,
          out: StepResult) -> GameState:
    """002 City: "at the beginning of your turn after spells expire but before any dragons attack or you take a
    march, you can recruit a 1-health (common) unit or promote a unit in the controlling army"."""
    cite = ruleset.cite("city")
    for army_id in _holders(held, "city", chosen, cite, player):
        state = _recruit_or_promote(state, army_id, chosen.get(army_id), "City", None, cite, ruleset, out)
    return state


def _temple(state: GameState, player: str, held: dict, chosen: dict[str, tuple[str, str | None]],
            ruleset: Ruleset, out: StepResult, ashes: dict | None = None) -> GameState:
    """002 Temple: "at the beginning of your turn ... you may force another player to bury one of his dead units.
    The targeted player chooses which of their units to bury"."""
    cite = ruleset.cite("temple")
    for army_id in _holders(held, "temple", chosen, cite, player):
        if army_id not in chosen:
            out.trace.append(TraceEvent(what=f"Temple: {army_id} may force another player to bury a dead unit; the "
                                             "scenario names none, so it does not", rule=ruleset.quote("temple",
                                        "you may force another player to bury one of his dead units"), cite=cite,
                                        defaulted=True))
            continue
        state = _bury_one(state, player, *chosen[army_id], cite, ruleset, out, ashes)
    for other in ashes or {}:
        raise StepError(f"Temple: an ashes roll is given for {other}, which no Temple buried", cite=cite,
                        field="initial")
    return state


def _bury_one(state: GameState, player: str, victim: str, unit_id: str | None, cite: str, ruleset: Ruleset,
              out: StepResult, ashes: dict | None = None) -> GameState:
    dead = state.area("dua", victim).units
    if victim == player or victim not in state.players:
        raise StepError(f"Temple: force another player to bury: {victim} is not another player", cite=cite,
                        field="initial")
    if not dead:
        out.trace.append(TraceEvent(what=f"Temple: {victim} has no dead unit to bury", rule=ruleset.quote(
                                    "temple", "force another player to bury one of his dead units"), cite=cite))
        return state
    # 002 Honor the Dead on the victim's DUA: "only dead units with the black (death) aspect in the target DUA can
    # be buried" -- the victim chooses among those
    barred = {u.id: e for u in dead if (e := burial_barred(state, victim, u, ruleset)) is not None}
    if unit_id in barred:
        e = barred[unit_id]
        raise StepError(f"Temple: {unit_id} cannot be buried: {e.spell} is on {victim}'s DUA, and only dead units "
                        f"with the {ruleset.burial_limits[e.spell]} aspect can be buried",
                        cite=ruleset.spell_sections.get(e.spell, cite), field="initial")
    if len(barred) == len(dead):
        out.trace.append(burial_barred_event(next(iter(barred.values())), dead, ruleset, "the Temple"))
        return state
    buriable = [u for u in dead if u.id not in barred]
    unit = next((u for u in dead if u.id == unit_id), None) if unit_id else min(buriable, key=lambda u: u.health)
    if unit is None:
        raise StepError(f"Temple: {unit_id} is not in {victim}'s DUA (its units: {', '.join(u.id for u in dead)})",
                        cite=cite, field="initial")
    ashes = {} if ashes is None else ashes      # the caller's dict: each roll used is taken out of it
    if ruleset.conditional_units.get((unit.name or "").lower()) == RISE or unit.id in ashes:
        # 001 Rise from the Ashes: "Whenever a unit with this SAI is killed or buried, roll the unit. If this SAI is
        # rolled, the unit is moved to your Reserve Area": a Temple's burial too (its roll: the temple's ashes)
        out.trace.append(TraceEvent(what=f"Temple: {victim} chooses {unit.label} to bury", rule=ruleset.quote(
                                    "temple-chooses", "the targeted player chooses which of their units to bury"),
                                    cite=cite))
        if unit.id not in ashes:
            raise StepError(f"Temple: {unit.label} bears Rise from the Ashes and is to be buried: give its roll "
                            f"(initial.temple.<army>.ashes)", cite=sai_cite(ruleset, RISE),
                            field="initial")
        state, rose = hooks.RISE_FROM_THE_ASHES(state, ruleset, unit, victim, ashes.pop(unit.id, None),
                                                "to be buried", out, "dua")
        if rose:
            return state
    out.buried.append(unit.id)
    out.trace.append(TraceEvent(what=f"Temple: {victim} buries {unit.label}", rule=ruleset.quote("temple-chooses",
                                "the targeted player chooses which of their units to bury")
                                + ("" if unit_id else "; none named, so the smallest"),
                                cite=cite, defaulted=unit_id is None))
    return state.take_from("dua", victim, unit.id).add_to("bua", victim, (unit,))


def _grove(state: GameState, player: str, held: dict, chosen: str | None, ruleset: Ruleset,
           out: StepResult) -> GameState:
    """002 Grove: "At the beginning of your turn, if there are any buried non-dragonkin units (even of an
    enemy), any one non-dragonkin unit in a BUA must be placed in the corresponding DUA"."""
    cite = ruleset.cite("grove")
    holders = _holders(held, "grove", {}, cite, player)
    buried = [(a.player, u) for a in state.bua for u in a.units if u.race != KIN and not u.item]
    if chosen is not None and not (holders and any(u.id == chosen for _, u in buried)):
        raise StepError(f"Grove: {chosen} is not a buried non-dragonkin unit that a Grove {player} controls can "
                        f"return (buried: {', '.join(u.id for _, u in buried) or 'none'})", cite=cite,
                        field="initial")
    if not holders or not buried:
        return state
    owner, unit = next(((p, u) for p, u in buried if u.id == chosen), buried[0])
    out.trace.append(reading(
        "the Grove acts for the player whose army controls it at its eighth face (the phase lists it "
        "among the eighth face special location icons; its text says 'At the beginning of your turn')", cite,
        ruleset.cite("initial-effects")))
    out.moved.append(unit.id)
    out.trace.append(TraceEvent(what=f"Grove: {unit.label} goes from {owner}'s BUA to their DUA", rule="any one "
                                "non-dragonkin unit in a BUA must be placed in the corresponding DUA", cite=cite,
                                defaulted=chosen is None))
    return state.take_from("bua", owner, unit.id).add_to("dua", owner, (unit,))


def _dragons_lair(state: GameState, player: str, held: dict, chosen: tuple[str | None, str | None],
                  ruleset: Ruleset, out: StepResult) -> GameState:
    """002 Dragon's Lair: "At the beginning of your turn, summon any Dragon with at least one color matching
    either of the terrain's colors, to any terrain"; White Dragons: "Dragon Staffs and Dragon's Lairs have no
    effect on white dragons". Reading: the summons is not optional ("summon", not "may summon"); the scenario
    names the dragon (player:item) and the terrain, else the first that fits (the player's own pool first) goes
    to the Lair itself, marked defaulted."""
    cite = ruleset.cite("dragons-lair")
    named, to = chosen
    lairs = [held[a] for a in _holders(held, "dragons-lair", {}, cite, player)]
    if not lairs:
        if named or to:
            raise StepError(f"{player} controls no Dragon's Lair at its eighth face", cite=cite, field="initial")
        return state
    lair = lairs[0]
    fits = [(p.player, item) for p in sorted(state.summoning_pool, key=lambda p: p.player != player)
            for item in p.items if (d := pool.parse(item)) and "white" not in d[0]
            and any(c in lair.colors for c in d[0])]
    listing = ", ".join(f"{p}:{i.partition(':')[2]}" for p, i in fits) or "none"
    if named is not None:
        fits = [(p, i) for p, i in fits if f"{p}:{i.partition(':')[2]}" == named]
    if to is not None and all(t.id != to for t in state.terrains):
        raise StepError(f"Dragon's Lair: {typed(to)} is not a terrain", cite=cite, field="initial")
    if not fits:
        if named is not None:
            raise StepError(f"Dragon's Lair summons a dragon with a color of {lair.id} ({', '.join(lair.colors)}): "
                            f"{named} is not one (those that fit: {listing})", cite=cite, field="initial")
        return state
    owner, item = fits[0]
    out.trace.append(reading(
        "the Dragon's Lair acts for the player whose army controls it at its eighth face (the phase lists it "
        "among the eighth face special location icons), and its summons is not optional ('summon', not 'may "
        "summon')", cite, ruleset.cite("initial-effects")))
    state, name = pool.send(state, owner, item, to or lair.id)
    out.moved.append(name)
    out.trace.append(TraceEvent(what=f"Dragon's Lair: {owner}'s {item.partition(':')[2]} dragon goes to {to or lair.id} "
                                     f"as {name}", rule="summon any Dragon with at least one color matching either "
                                "of the terrain's colors, to any terrain", cite=cite,
                                defaulted=named is None or to is None))
    return state


# --- the royalty die ----------------------------------------------------------------------------


def _kings_die(state: GameState, player: str, chosen: KingsDie | None, ruleset: Ruleset,
               out: StepResult) -> GameState:
    """002 Kings' Die: "During the Initial Effects phase, if a player possesses a Kings' Die, one of the following
    may be done: Recruit a unit from your dead unit area to your reserve army. Promote one unit in your reserve
    army. Roll the Kings' Die"."""
    cite = ruleset.cite("kings-die")
    reserve = next((a for a in state.armies if a.player == player and a.at == RESERVE
                    and any(is_kings_die(u) for u in a.units)), None)
    if reserve is None:
        if chosen is not None:
            raise StepError(f"{player} has no Kings' Die in the reserve area", cite=cite, field="initial")
        return state
    if chosen is None:
        out.trace.append(TraceEvent(what="Kings' Die: the scenario names no use, so it is not used", rule="one of "
                                    "the following may be done", cite=cite, defaulted=True))
        return state
    if chosen.roll is None:
        if chosen.recruit is not None:
            out.trace.append(reading(
                "the Kings' Die's 'Recruit a unit' recruits a common, as any recruitment does (only the "
                "rolled die may 'recruit any size unit (not just commons)')", cite, ruleset.cite("promotion")))
        return _recruit_or_promote(state, reserve.id, Exchanges(recruit=chosen.recruit, promote=chosen.promote),
                                   "Kings' Die", None, cite, ruleset, out)
    race = None if chosen.roll == "logo" else chosen.roll
    out.trace.append(TraceEvent(what=f"Kings' Die rolled: {chosen.roll}", rule="bring back up to four health-worth "
                                "of units that match the race of the face rolled; if the TSR logo is rolled, of any "
                                "combination of races", cite=cite))
    state, events = bring_back(state, ruleset, reserve.id, KINGS_DIE_GAIN, chosen.recruit,
                               dict(chosen.promote or ()), race, True, "Kings' Die", cite)
    out.trace += events
    return state


def is_kings_die(unit: Unit) -> bool:
    return unit.name == KINGS_DIE
