"""Step 3 of a dragon attack: the breaths on the army (002 Dragons, Breath and each color's Dragon Breath;
Hybrid, Ivory Hybrid and White Dragons).

Each breath has an individual-targeting effect ("Five health-worth of units in the target army ...") and,
but for ivory and red, an army-targeting effect that stays in play as an ``Effect`` until the beginning of
the army's next turn (``Ruleset.breath_effects``; engine.expiry ends it at ``turn`` steps).

A unit's save against the breath and a killed unit's save against burial are its own rolls
(engine.actions.own_roll): its SAIs act there as in any of its own rolls, 002 Application: "SAIs have their same
effect whether the unit containing the SAI is rolled individually or as part of an army" (the step's
``breath_sais`` hold the choices of each unit's save).
"""

from __future__ import annotations

from .. import dragonkin, dragons as kinds
from ..damage import choose, kill
from ..lands import elements as terrain_elements
from ..moves import owner
from ..protection import burial_barred, burial_barred_event, exposed
from ..ruleset import Breath, Ruleset
from ..state import RESERVE, Army, Dragon, Effect, GameState
from ..steps import DragonStep, StepResult
from ..trace import StepError, TraceEvent, told
from .own_roll import unit_roll


class Breaths:
    """What the breaths rolled against the army add up to, by color: health-worth reached and army effects."""

    def __init__(self) -> None:
        self.reach: dict[str, int] = {}     # color -> how many individual effects ("combined")
        self.army: dict[str, int] = {}      # color -> how many army effects ("cumulative")

    def add(self, color: str, individual: bool, army: bool) -> None:
        if individual:
            self.reach[color] = self.reach.get(color, 0) + 1
        if army:
            self.army[color] = self.army.get(color, 0) + 1


def breathe(state: GameState, ruleset: Ruleset, who: Army, breathing: list[Dragon], step: DragonStep,
            out: StepResult) -> GameState:
    """Resolve every breath on the army: "Multiple breaths of the same color are combined. Breaths of different
    colors resolved separately in any order the acting player wishes" (the order of ``breath_targets``, then
    the order the dragons are written)."""
    found = _collect(state, ruleset, who, breathing, step, out)
    named = dict(step.breath_targets)
    order = list(dict.fromkeys([*(c for c in named if c in found.reach or c in found.army), *found.reach,
                                *found.army]))
    for unknown in (c for c in named if c not in order):
        raise StepError(f"breath_targets names {unknown} breath, which no dragon breathed on {who.id} "
                        f"(breaths: {', '.join(order) or 'none'})", cite=ruleset.cite("dragon-breaths"),
                        field="breath_targets")
    saves, burial = dict(step.breath_saves), dict(step.breath_burial)
    rolls = Rolls(saves, burial, dict(step.breath_sais))
    for color in order:
        breath = _breath(ruleset, color)
        if color in found.reach and breath.ids_kill:
            state = _disease(state, who, breath, saves, out)
        if color in found.reach and breath.kills:
            state = _individual(state, ruleset, who, color, breath, found.reach[color], named.get(color), rolls, out)
        if color in found.army and breath.effect:
            state = _army_effect(state, ruleset, who, breath, found.army[color], out)
    for field, left in (("breath_saves", saves), ("breath_burial", burial), ("breath_sais", rolls.sais)):
        if left:
            raise StepError(f"{field} given for {', '.join(left)}, which no breath called on to roll",
                            cite=ruleset.cite("dragon-breaths"), field=field)
    return state


class Rolls:
    """The units' own rolls against the breaths: their saves, their saves against burial, and the choices for the
    special SAIs of their saves (unit id -> engine.steps.SaiChoices); each is used once."""

    def __init__(self, saves: dict, burial: dict, sais: dict) -> None:
        self.saves, self.burial, self.sais = saves, burial, sais


def _breath(ruleset: Ruleset, color: str) -> Breath:
    if color not in ruleset.breaths:
        raise StepError(f"the {ruleset.edition} {color} dragon breath is not modelled yet by this version of ddref",
                        cite=ruleset.cite("dragon-breath"), field="dragons")
    return ruleset.breaths[color]


def _collect(state: GameState, ruleset: Ruleset, who: Army, breathing: list[Dragon], step: DragonStep,
             out: StepResult) -> Breaths:
    """Which colors breathe on the army, after the Eldarim's immunities."""
    found = Breaths()
    chosen = dict(step.breath)
    for dragon in breathing:
        for color, individual, army in _breaths_of(state, ruleset, who, dragon, chosen.pop(dragon.id, None), out):
            if _immune(ruleset, who, color, dragon, out):
                continue
            found.add(color, individual, army)
    if chosen:
        raise StepError(f"breath names {', '.join(chosen)}, which breathed on no army as a hybrid dragon",
                        cite=ruleset.cite("hybrid-dragons"), field="breath")
    return found


def _breaths_of(state: GameState, ruleset: Ruleset, who: Army, dragon: Dragon, picked: str | None,
                out: StepResult) -> list[tuple[str, bool, bool]]:
    """(color, individual effect, army effect) of one dragon's breath."""
    kind = kinds.kind(dragon)
    if kind == "white":
        # "Inflict as many breaths as the terrain has colors ... if there are any spells that add to the terrain
        #  colors, also inflict those breaths ... not affected by any spells that remove terrain colors"
        terrain = state.terrain(who.at)
        added = terrain_elements(state, terrain, who, ruleset) - set(terrain.colors)
        colors = (*terrain.colors, *sorted(added))
        out.trace.append(TraceEvent(what=f"{dragon.id} (white) breathes as {terrain.id}'s colors: {', '.join(colors)}",
                                    after=len(colors), rule="as many breaths as the terrain has colors",
                                    cite=ruleset.cite("white-dragons")))
        return [(c, True, True) for c in colors]
    if kind in ("hybrid", "ivory-hybrid"):
        return _hybrid(ruleset, dragon, picked, out)
    if picked is not None:
        raise StepError(f"breath: {dragon.id} is a {kind} dragon, whose breath is its color's; only a hybrid's "
                        "owner picks one", cite=ruleset.cite("hybrid-dragons"), field="breath")
    return [(dragon.color, True, True)]


def _hybrid(ruleset: Ruleset, dragon: Dragon, picked: str | None, out: StepResult) -> list[tuple[str, bool, bool]]:
    """002 Hybrid Dragons: "one color of breath against 5 health of the defending army (dragon's owner picks which
    breath), and both colors of army breath effects"; Ivory Hybrid Dragons: "either an ivory breath or their
    elemental breath against 5 health ... and the elemental army breath effect"."""
    ivory = kinds.kind(dragon) == "ivory-hybrid"
    cite = ruleset.cite("ivory-hybrid-dragons" if ivory else "hybrid-dragons")
    options = kinds.colors(dragon)
    if picked is None:
        picked = kinds.elements(dragon)[0]
        out.trace.append(TraceEvent(what=f"{dragon.id}'s breath on 5 health-worth is {picked}", rule="the dragon's "
                                    "owner picks which breath; none given, so its first elemental color",
                                    cite=cite, defaulted=True))
    elif picked not in options:
        raise StepError(f"breath: {dragon.id} ({dragon.color}) breathes {' or '.join(options)}, not {picked}",
                        cite=cite, field="breath")
    return [(c, c == picked, c in kinds.elements(dragon)) for c in options]


def _immune(ruleset: Ruleset, who: Army, color: str, dragon: Dragon, out: StepResult) -> bool:
    """002 Step 3: "armies with Dragonslayers in them are immune to all dragon breaths and armies with
    Dragonhunters in them are immune to the breath of dragons that match the color of the Dragonhunter"
    (Hybrid Dragons: "Dragonhunters matching one color of breath block that breath, but not the other")."""
    for unit in who.units:
        slayer = unit.name == "Dragonslayer"
        if slayer or (unit.name == "Dragonhunter" and unit.color == color):
            out.trace.append(TraceEvent(what=f"{dragon.id}'s {color} breath: {who.id} is immune ({unit.label})",
                                        rule="armies with Dragonslayers are immune to all dragon breaths, with "
                                        "Dragonhunters to the breath of their color",
                                        cite=ruleset.cite("dragonslayer" if slayer else "dragonhunter")))
            return True
    return False


def _individual(state: GameState, ruleset: Ruleset, who: Army, color: str, breath: Breath, times: int,
                named: tuple[str, ...] | None, rolls: Rolls, out: StepResult) -> GameState:
    """Five health-worth of units per breath of the color are killed, or must save individually or be killed;
    those killed may then have to save or be buried."""
    target = exposed(state, ruleset, state.army(who.id), "dragon", out)
    reach = breath.kills * times
    out.dragon_choices.setdefault("breath", {})[color] = {
        "reach": reach, "per": "units" if breath.units else "health", "units": [u.id for u in target.units]}
    if breath.units:
        ids, event = _units(target, reach, named, breath)
    else:
        ids, event = choose(target, reach, list(named) if named is not None else None, breath.cite,
                            field="breath_targets")
    if times > 1:
        out.trace.append(TraceEvent(what=f"{times} {color} breaths combined: {reach} health-worth", after=reach,
                                    rule="multiple breaths of the same color are combined (read: one effect reaching "
                                         "five health-worth per breath)",
                                    cite=ruleset.cite("dragon-breath"), also=breath.cite))
    worth = "units" if breath.units else "health-worth"
    out.trace.append(event.evolve(what=f"{color} breath x{times} ({reach} {worth}): {event.what}"))
    killed = []
    for unit_id in ids:     # every targeted unit saves, then those that did not are killed
        state, saved = _saved(state, ruleset, unit_id, rolls, breath, out) if breath.save else (state, False)
        if not saved:
            killed.append(unit_id)
    for unit_id in killed:
        out.killed.append(unit_id)
        state = _kill(state, ruleset, unit_id, breath, rolls.burial, out)
    return state


def _units(army: Army, reach: int, named: tuple[str, ...] | None, breath: Breath) -> tuple[tuple[str, ...], TraceEvent]:
    """000 Gold-Turn to Stone: "Five units from the target army ... The army's owner chooses which units are
    targeted" (all of them in an army of fewer)."""
    want = min(reach, len(army.units))
    if named is None:
        ids = tuple(u.id for u in sorted(army.units, key=lambda u: u.health)[:want])
        return ids, TraceEvent(what=f"{army.id}: {', '.join(ids)} are targeted", after=want, rule="the army's owner "
                               "chooses which units are targeted; none given, so the smallest", cite=breath.cite,
                               defaulted=True)
    unknown = [i for i in named if army.unit(i) is None]
    if unknown or len(set(named)) != want or len(named) != want:
        raise StepError(f"breath_targets: name {want} different units of {army.id} (its units: "
                        f"{', '.join(u.id for u in army.units)}), not {told(named)}", cite=breath.cite,
                        field="breath_targets")
    return tuple(named), TraceEvent(what=f"{army.id}: {', '.join(named)} are targeted", after=want,
                                    rule="the army's owner chooses which units are targeted", cite=breath.cite)


def _disease(state: GameState, who: Army, breath: Breath, saves: dict, out: StepResult) -> GameState:
    """000 Black-Disease: "All units in the target army are rolled; any that roll ID icons are killed and buried"
    (each unit's roll is its ``breath_saves`` entry)."""
    army = state.army(who.id)
    missing = [u.id for u in army.units if u.id not in saves]
    if missing:
        raise StepError(f"every unit of {who.id} rolls against the breath: give breath_saves for "
                        f"{', '.join(missing)}", cite=breath.cite, field="breath_saves")
    for unit in army.units:
        rolled = saves.pop(unit.id)
        ids = any(f.icon == "id" for _, faces in rolled.units for f in faces) or dict(rolled.counts).get("id", 0) > 0
        out.trace.append(TraceEvent(what=f"{unit.id} rolls {'an ID icon: killed and buried' if ids else 'no ID icon'}",
                                    rule="all units in the target army are rolled; any that roll ID icons are killed "
                                         "and buried", cite=breath.cite))
        if ids:
            out.killed.append(unit.id)
            out.buried.append(unit.id)
            state = kill(state, who.id, [unit.id]).take_from("dua", who.player, unit.id).add_to("bua", who.player,
                                                                                                   (unit,))
    return state


def _saved(state: GameState, ruleset: Ruleset, unit_id: str, rolls: Rolls, breath: Breath,
           out: StepResult) -> tuple[GameState, bool]:
    """002: "must save individually or be killed": a save avoidance roll by the unit alone, its own roll (its SAIs'
    specials resolved, ``breath_sais.<unit>``); one save is enough. A unit an SAI moved away is still killed if it
    made no save: "they cannot escape from effects that target them individually" (002 Damage)."""
    if unit_id not in rolls.saves:
        raise StepError(f"{unit_id} must save individually against the breath or be killed: give "
                        f"breath_saves.{unit_id}", cite=breath.cite, field="breath_saves")
    state, outcome = unit_roll(state, ruleset, owner(state, unit_id), unit_id, "avoid-save", ("save",),
                               rolls.saves.pop(unit_id), out, rolls.sais.pop(unit_id, None))
    rolled = outcome.results.get("save", 0)
    out.trace.append(TraceEvent(what=f"{unit_id} rolled {rolled} save(s) against the breath: "
                                     f"{'survives' if rolled else 'killed'}", after=rolled,
                                rule="the unit must save individually or be killed", cite=breath.cite))
    return state, rolled > 0


def _kill(state: GameState, ruleset: Ruleset, unit_id: str, breath: Breath, burial: dict,
          out: StepResult) -> GameState:
    """The unit goes to the DUA, or to the BUA if it fails its save against burial; 002 Dragonkin: "Dragonkin
    taken as casualties from a Sneak Attack, dragon's breath, or Dragonkin's breath effect are immediately
    buried". The killed unit's save against burial is its own roll in the DUA (engine.actions.own_roll)."""
    who = owner(state, unit_id)     # its army, or the one an SAI of its own save moved it to
    unit = who.unit(unit_id)
    state = kill(state, who.id, [unit_id])
    if unit.race == dragonkin.KIN:
        return dragonkin.bury_killed(state, who.player, unit, "breath", ruleset.cite("dragonkin"), out)
    # 002 Glossary, Killed and Buried: the two steps "allow the unit to apply ... spell affects (Honor the Dead),
    # before burying the unit": no burial (nor burial roll) for a unit the DUA's spell keeps there
    if (breath.buries or breath.burial) and (barred := burial_barred(state, who.player, unit, ruleset)) is not None:
        burial.pop(unit_id, None)
        out.trace.append(burial_barred_event(barred, (unit,), ruleset, "the breath"))
        return state
    if breath.buries:
        out.trace.append(TraceEvent(what=f"{unit_id} is killed and buried", rule="five health-worth of units are "
                                    "killed and buried", cite=breath.cite))
        out.buried.append(unit_id)
        return state.take_from("dua", who.player, unit_id).add_to("bua", who.player, (unit,))
    if not breath.burial:
        return state
    if unit_id not in burial:
        raise StepError(f"{unit_id} was killed by the breath and must save or be buried: give "
                        f"breath_burial.{unit_id}", cite=breath.cite, field="breath_burial")
    # a killed unit rolls against burial in the DUA, at no terrain (002 Glossary, Killed and Buried: "killing a unit
    # (putting it in the DUA) and then burying"): no terrain advantage ("when at a Coastland terrain") helps it
    alone = Army(id=unit_id, player=who.player, at=RESERVE, units=(unit,))
    state, outcome = unit_roll(state, ruleset, alone, unit_id, "avoid-save", ("save",), burial.pop(unit_id), out)
    rolled = outcome.results.get("save", 0)
    out.trace.append(TraceEvent(what=f"{unit_id} rolled {rolled} save(s) against burial: "
                                     f"{'stays in the DUA' if rolled else 'buried'}", after=rolled,
                                rule="the units killed must then save or be buried", cite=breath.cite))
    if rolled:
        return state
    out.buried.append(unit_id)
    return state.take_from("dua", who.player, unit_id).add_to("bua", who.player, (unit,))


def _army_effect(state: GameState, ruleset: Ruleset, who: Army, breath: Breath, times: int,
                 out: StepResult) -> GameState:
    """The army-targeting effect, in play "until the beginning of its next turn" (the army's owner's turn);
    "Multiple breaths' effects with duration are cumulative (including halving effects)"."""
    old = next((e for e in state.effects if e.spell == breath.effect and e.target == who.id), None)
    count = times + (old.count if old else 0)
    effect = Effect(spell=breath.effect, target=who.id, by=who.player, count=count)
    effects = tuple(e for e in state.effects if e is not old)
    out.trace.append(TraceEvent(what=f"{breath.effect} on {who.id}" + (f" x{count}" if count > 1 else ""),
                                before=old.count if old else 0, after=count,
                                rule=ruleset.quote(f"breath-{breath.effect}", "the army effect lasts until the "
                                                   "beginning of its next turn; multiple breaths' effects with "
                                                   "duration are cumulative"), cite=breath.cite))
    return state.evolve(effects=(*effects, effect))
