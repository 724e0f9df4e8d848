"""Spells on what waits outside the armies or comes and goes by exchange: the summoning pool (dragons,
dragonkin, minor terrains), magical items, and the Eldarim's recruitment and promotion (002 spell
descriptions; Basic Terms, Promotion and Recruitment; Dragonkin; Magical Items)."""

from __future__ import annotations

from ..names import typed
from typing import TYPE_CHECKING

from .. import pool
from ..expiry import army_emptied, unit_gone
from ..moves import of_the_dead, owner, transfer
from ..pool import MINOR
from ..ruleset import Ruleset, SpellEffect
from ..state import RESERVE, Army, Dragon, GameState, Pool
from ..steps import Cast, StepResult
from ..trace import StepError, TraceEvent, reading

if TYPE_CHECKING:
    from .magic_rolls import Rolls


# each edition's words for sending the dragon (002 Summon ... Dragon; 000 Summon Gold Dragon ...; 001 Summon Dragon)
SENDS = {"": "immediately send the dragon to the target terrain",
         "of-color": "send any {color} dragon to any terrain, regardless of ownership or location",
         "any": "summon one dragon from any summoning pool or terrain to the target terrain"}


def summon(state: GameState, who: Army, c: Cast, effect: SpellEffect, cite: str, ruleset: Ruleset,
           out: StepResult) -> GameState:
    """Each casting sends one dragon of the spell's kind from a summoning pool (tsr-1996: a dead unit area) to
    the target terrain: the one the cast names (``dragon: <player>:<item>``, or the id of a dragon at a terrain
    where the spell may send one from there), else the first that fits, the caster's pool first."""
    paid = c.color or c.spell.color
    cite = ruleset.spell_sections.get(c.spell.id, cite)
    for _ in range(c.count):
        fits = [(p, item) for p in sorted(state.summoning_pool, key=lambda p: p.player != who.player)
                for item in p.items if (d := pool.parse(item)) and pool.summonable(d[0], effect.dragons, paid)]
        if c.dragon is not None:
            fits = [(p, item) for p, item in fits if f"{p.player}:{item.partition(':')[2]}" == c.dragon]
        tamed = tamed_dragons(state, lambda colors: pool.summonable(colors, effect.dragons, paid))
        if not fits and c.dragon in tamed and not effect.from_terrain:
            state = summon_tamed(state, c.spell.name, tamed[c.dragon], c.target, cite, ruleset.cite("dragon-taming"),
                                 out)
            continue
        if not fits and effect.from_terrain:
            state = _send_from_terrain(state, c, effect, paid, cite, ruleset, out)
            continue
        if not fits and effect.dragons == "ivory-hybrid" and c.dragon in {d.id for d in state.dragons}:
            state = _ivory_hybrid_in_play(state, c, paid, cite, ruleset, out)
            continue
        untamed = untamed_in_play(state, lambda colors: pool.summonable(colors, effect.dragons, paid))
        if not fits and c.dragon in untamed and not effect.from_terrain:
            state = _untamed_in_play(state, c, untamed[c.dragon], cite, ruleset, out)
            continue
        held = next((d for d in state.dragons if d.id == c.dragon and d.color == "ivory"), None)
        if not fits and held is not None:
            raise StepError(f"{c.spell.name}: no summoning pool holds {held.id}, and {held.id} ({held.color}) is at "
                            f"{held.at}: once an ivory dragon is at a terrain no other effect can move it",
                            cite=ruleset.cite("ivory-dragons"), field="cast")
        if not fits:
            a = "an" if effect.dragons[0] in "aeiou" else "a"
            wanted = f"{c.dragon} ({a} {effect.dragons} dragon " if c.dragon else f"{a} {effect.dragons} dragon ("
            at = [d.id for d in untamed.values() if d.at != c.target] + list(tamed)
            name = f"; name one at a terrain (dragon:): {', '.join(at)}" if at and not effect.from_terrain else ""
            held = next((f"{p.player}'s {i.partition(':')[2]} is {'-'.join(d[0])}" for p in state.summoning_pool
                         for i in p.items if (d := pool.parse(i)) and f"{p.player}:{i.partition(':')[2]}" == c.dragon),
                        None)
            why = f": {held}, not a dragon this spell paid in {paid} sends" if held else ""
            raise StepError(f"{c.spell.name} paid in {paid}: no {ruleset.dragons_wait} holds {wanted}that this spell "
                            f"may send){why}{name}", cite=cite, field="cast")
        owner, item = fits[0]
        state, name = send_dragon(state, owner, item, c.target, out)
        out.trace.append(TraceEvent(what=f"{c.spell.name}: {owner.player}'s {item.partition(':')[2]} dragon goes from "
                                         f"the {ruleset.dragons_wait} to {c.target} as {name}",
                                    rule=SENDS.get(effect.dragons, SENDS[""]).format(color=paid), cite=cite,
                                    defaulted=c.dragon is None and len(fits) > 1))
    return state


def _send_from_terrain(state: GameState, c: Cast, effect: SpellEffect, paid: str, cite: str, ruleset: Ruleset,
                       out: StepResult) -> GameState:
    """The named dragon at a terrain goes to the target terrain (tsr-1996: "Send any gold dragon to any terrain,
    regardless of ownership or location"; sfr-v4: "Summon one dragon from any Summoning Pool or terrain")."""
    dragon = next((d for d in state.dragons if d.id == c.dragon), None)
    if dragon is None or not pool.summonable(tuple(dragon.color.split("-")), effect.dragons, paid):
        legal = [d.id for d in state.dragons if pool.summonable(tuple(d.color.split("-")), effect.dragons, paid)]
        legal += [f"{p.player}:{i.partition(':')[2]}" for p in state.summoning_pool for i in p.items
                  if (d := pool.parse(i)) and pool.summonable(d[0], effect.dragons, paid)]
        named = f"cannot send {c.dragon}" if c.dragon else "sends a dragon at a terrain only when named (dragon:)"
        raise StepError(f"{c.spell.name} paid in {paid} {named}: legal choices: {', '.join(legal) or 'none'}",
                        cite=cite, field="cast")
    out.moved.append(dragon.id)
    out.trace.append(TraceEvent(what=f"{c.spell.name}: {dragon.id} goes from {dragon.at} to {c.target}",
                                rule=SENDS[effect.dragons].format(color=paid), cite=cite))
    return state.evolve(dragons=tuple(d.evolve(at=c.target) if d is dragon else d for d in state.dragons))


def _ivory_hybrid_in_play(state: GameState, c: Cast, paid: str, cite: str, ruleset: Ruleset,
                          out: StepResult) -> GameState:
    """An ivory hybrid dragon already at a terrain, named by its id. 002 Summon Ivory Hybrid Dragon: "send any
    ivory hybrid dragon in a summoning pool ... Or summon any ivory hybrid dragon with the same color as the magic
    used"; Ivory Hybrid Dragons: "once summoned to a terrain, no ivory Dragon Summoning spell can move them.
    However, a Dragon Summoning spell of their elemental color can move them". Reading (traced with both
    citations): the spell's first clause (any color, from a summoning pool) is the "ivory" summoning, which never
    moves one in play; paid in the dragon's elemental color, its second clause moves it from its terrain. A tamed
    one stays: "A non-ivory dragon controlled by a DL/DM can be summoned ... away from that control"."""
    from .. import dragons as kinds
    dragon = next(d for d in state.dragons if d.id == c.dragon)
    rule = ruleset.cite("ivory-hybrid-dragons")
    if kinds.kind(dragon) != "ivory-hybrid":
        raise StepError(f"{c.spell.name} sends an ivory hybrid dragon: {dragon.id} is {dragon.color}", cite=cite,
                        field="cast")
    element = kinds.elements(dragon)[0]
    if paid != element:
        raise StepError(f"{c.spell.name} paid in {paid} cannot move {dragon.id} ({dragon.color}) from {dragon.at}: "
                        "once an ivory hybrid is summoned to a terrain no ivory Dragon Summoning spell can move it, "
                        f"only one of its elemental color ({element})", cite=rule, field="cast")
    if dragon.tamed_by is not None:
        raise StepError(f"{c.spell.name} cannot move {dragon.id}: it is tamed by {dragon.tamed_by}, and only a "
                        "non-ivory dragon can be summoned away from a DL/DM's control", cite=ruleset.cite(
                            "dragon-taming"), field="cast")
    out.moved.append(dragon.id)
    out.trace.append(reading(f"{c.spell.name} paid in {paid}, its elemental color, moves {dragon.id} from "
                             f"{dragon.at} to {c.target} (a spell of its elemental color can move an ivory hybrid "
                             "in play; none paid in another color can)", rule, cite))
    return state.evolve(dragons=tuple(d.evolve(at=c.target) if d is dragon else d for d in state.dragons))


def untamed_in_play(state: GameState, fits) -> dict[str, Dragon]:
    """The untamed dragons at terrains whose colors ``fits`` (a summoning spell's kind and paid color), by id,
    never an ivory one (002 Ivory Dragons: "once an ivory dragon is at a terrain, it must either be killed, fly
    away with Wings, or be tamed and ridden away by a Dragonlord. No other effect can move an ivory dragon")."""
    return {d.id: d for d in state.dragons if d.tamed_by is None and "ivory" not in (colors := tuple(
        d.color.split("-"))) and fits(colors)}


def _untamed_in_play(state: GameState, c: Cast, dragon: Dragon, cite: str, ruleset: Ruleset,
                     out: StepResult) -> GameState:
    """An untamed dragon already at a terrain, named by its id, goes to the target terrain. 002 Summon Elemental
    (Hybrid, White) Dragon: "Immediately send any elemental dragon with the same color as the magic used ... to
    the target terrain" (Summon Ivory Dragon alone says "in a summoning pool"); Dragon Taming: "A non-ivory dragon
    controlled by a DL/DM can be summoned (per the spell) away from that control. In this case, it can even be
    summoned to the terrain it currently occupies". Reading (traced with both citations): "any" dragon is one in a
    pool or at a terrain, so an untamed one at a terrain is moved too; "even" is said of a controlled dragon only,
    so an untamed one is not summoned to the terrain it occupies (nothing would change)."""
    return summon_untamed(state, c.spell.name, dragon, c.target, cite, ruleset.cite("dragon-taming"), out)


def summon_untamed(state: GameState, by: str, dragon: Dragon, where: str, cite: str, taming: str,
                   out: StepResult, field: str = "cast") -> GameState:
    """An untamed non-ivory dragon at a terrain that a summoning spell or a Dragon Staff's Summon Dragon SAI ("choose
    any dragon of a matching color ... and immediately summon it to any terrain") sends to ``where`` (the reading of
    ``_untamed_in_play``)."""
    if dragon.at == where:
        raise StepError(f"{by} cannot summon {dragon.id} to {where}: it is already there and untamed "
                        "(only a dragon controlled by a DL/DM can be summoned to the terrain it occupies)",
                        cite=taming, field=field)
    out.moved.append(dragon.id)
    out.trace.append(reading(f"{by} sends any dragon of its kind, not only one in a summoning pool: the "
                             f"untamed {dragon.id} goes from {dragon.at} to {where}", cite, taming))
    return state.evolve(dragons=tuple(d.evolve(at=where) if d is dragon else d for d in state.dragons))


def tamed_dragons(state: GameState, fits) -> dict[str, Dragon]:
    """002 Dragon Taming: "A non-ivory dragon controlled by a DL/DM can be summoned (per the spell) away from that
    control" (002 Ivory Dragons: "No other effect can move an ivory dragon"): the tamed dragons whose colors
    ``fits`` (the spell's or the Summon Dragon SAI's), by id."""
    return {d.id: d for d in state.dragons if d.tamed_by is not None and "ivory" not in (colors := tuple(
        d.color.split("-"))) and fits(colors)}


def summon_tamed(state: GameState, by: str, dragon: Dragon, where: str, cite: str, taming: str,
                 out: StepResult) -> GameState:
    """The named tamed dragon goes to ``where`` (even its own terrain: "it can even be summoned to the terrain it
    currently occupies") and is untamed ("If this happens, the DL/DM may attempt control again"). Reading: the
    rolled Summon Dragon SAI the taming rule lists untames the one dragon it summons, not every tamed dragon."""
    if where not in {t.id for t in state.terrains}:
        raise StepError(f"{by} summons a dragon to a terrain: {typed(where)} is not one", cite=cite, field="summon")
    out.moved.append(dragon.id)
    # reading, traced: "a player rolls a Summon Dragon SAI" untames the dragon summoned, not every tamed dragon
    out.trace.append(reading(f"{by} takes the named {dragon.id} from {dragon.tamed_by}'s control at {dragon.at} to "
                             f"{where}: it is untamed (only the dragon summoned, not every dragon tamed)", taming,
                             cite))
    return state.evolve(dragons=tuple(d.evolve(at=where, tamed_by=None) if d is dragon else d for d in state.dragons))


def dragon_id(state: GameState, player: str, item: str) -> str:
    """The id a summoned pool dragon takes in play: ``<owner>-<item>`` (``alice-gold-drake``), numbered when
    taken."""
    ids = {d.id for d in state.dragons}
    base = f"{player}-{item.partition(':')[2]}"
    return next(n for n in (base, *(f"{base}-{i}" for i in range(2, 99))) if n not in ids)


def send_dragon(state: GameState, owner: Pool, item: str, to: str, out: StepResult) -> tuple[GameState, str]:
    """The pool's dragon ``item`` leaves ``owner``'s summoning pool for the terrain ``to``; returns its new id."""
    colors, form = pool.parse(item)
    name = dragon_id(state, owner.player, item)
    items = list(owner.items)
    items.remove(item)
    state = state.evolve(
        summoning_pool=tuple(p.evolve(items=tuple(items)) if p is owner else p for p in state.summoning_pool),
        dragons=(*state.dragons, Dragon(id=name, color="-".join(colors), at=to, owner=owner.player, form=form)))
    out.moved.append(name)
    return state, name


def item(state: GameState, c: Cast, effect: SpellEffect, names: str, cite: str, ruleset: Ruleset,
          out: StepResult) -> GameState:
    """Explode Stone buries the item; Airy Acquisition moves it to another of its owner's armies."""
    source = owner(state, c.target)
    if effect.kind == "bury-item":
        item = source.unit(c.target)
        state = state.with_army(source.without(c.target)).add_to("bua", source.player, (item,))
        out.buried.append(c.target)
        out.trace.append(TraceEvent(what=f"{names}: {item.label} is buried", rule="target item is immediately "
                                    "buried", cite=cite))
        return army_emptied(state, source.id, ruleset, out)
    dest = state.army(c.to) if c.to is not None and state.has_army(c.to) else None
    if dest is not None and of_the_dead(dest):
        # 002 Glossary, Magically Constructed Army: it "does not gain any of the attributes associated with an active
        # army: protective spells, attaching units or encumbering magical items"
        raise StepError(f"{c.spell.name} cannot move {c.target} to {dest.id}: a Haunt's magically constructed army "
                        "does not gain the attributes of an active army, encumbering magical items among them",
                        cite=ruleset.cite("haunt-army"), field="cast")
    if dest is None or dest.player != source.player or dest.id == source.id:
        raise StepError(f"{c.spell.name} moves {c.target} to another of {source.player}'s armies: name it with to:",
                        cite=cite, field="cast")
    out.moved.append(c.target)
    return transfer(state, c.target, source, dest, names, cite, ruleset, out)


def reform(state: GameState, who: Army, c: Cast, effect: SpellEffect, names: str, cite: str, ruleset: Ruleset,
            out: StepResult) -> GameState:
    """Reform Land: a minor terrain of the caster's pool (named by its type) becomes of another type for good."""
    pool_ = state.pool(who.player)
    item = f"{MINOR}:{c.target}"
    if item not in pool_.items:
        held = [i.partition(":")[2] for i in pool_.items if i.startswith(f"{MINOR}:")]
        raise StepError(f"{who.player}'s summoning pool holds no {c.target} minor terrain (it holds: "
                        f"{', '.join(held) or 'none'})", cite=cite, field="cast")
    if effect.element not in ruleset.terrain_colors.get(c.target, ()):
        raise StepError(f"{names} targets a minor terrain with the {effect.element} element; a {c.target} has "
                        f"{', '.join(ruleset.terrain_colors.get(c.target, ())) or 'none'}", cite=cite, field="cast")
    items = list(pool_.items)
    items[items.index(item)] = f"{MINOR}:{effect.becomes}"
    state = state.with_pool(pool_.evolve(items=tuple(items)))
    out.trace.append(TraceEvent(what=f"{names}: {who.player}'s {c.target} minor terrain becomes a {effect.becomes} "
                                     "minor terrain", rule="for the duration of the game", cite=cite))
    return state


def demote_kin(state: GameState, who: Army, c: Cast, effect: SpellEffect, names: str, cite: str, ruleset: Ruleset,
                rolls: Rolls, out: StepResult) -> GameState:
    """Demote and Degenerate Dragonkin: each targeted dragonkin rolls an ID or is exchanged for one of one health
    less from its summoning pool (Demote: a Belly buries it; one that cannot be demoted goes back to the pool;
    Degenerate: one that cannot be demoted is buried); the casting army's own such dragonkin are buried."""
    paid = c.color or c.spell.color
    if not effect.all_kin and (c.kin is None or c.kin == paid):
        raise StepError(f"{c.spell.name} targets one color of dragonkin other than the {paid} paying for it: name "
                        "it with kin:", cite=cite, field="cast")
    hit = [u for u in state.army(c.target).units if u.race == "dragonkin" and (effect.all_kin or u.color == c.kin)]
    for unit in hit:
        dice = rolls.take(unit.id, f"an ID icon against {names}", cite)
        faces = {f.icon for _, fs in dice.units for f in fs} | {icon for icon, n in dice.counts if n}
        if "id" in faces:
            out.trace.append(TraceEvent(what=f"{names}: {unit.label} rolls its ID and is not demoted", rule="must "
                                        "immediately roll an ID icon or be demoted", cite=cite))
        elif "belly" in faces and not effect.all_kin:
            state = _bury_kin(state, unit.id, f"{names}: {unit.label} rolls Belly and is buried", cite, ruleset,
                              out)
        else:
            state = _demote(state, unit, effect, names, cite, ruleset, out)
    own = [u for u in state.army(who.id).units if u.race == "dragonkin" and (effect.all_kin or u.color == c.kin)]
    for unit in own:
        state = _bury_kin(state, unit.id, f"{names}: the casting army's {unit.label} is buried", cite, ruleset, out)
    return state


def _demote(state: GameState, unit, effect: SpellEffect, names: str, cite: str, ruleset: Ruleset,
            out: StepResult) -> GameState:
    army = owner(state, unit.id)
    pool_ = state.pool(army.player)
    smaller = [u for u in pool_.units if u.race == unit.race and u.health == unit.health - 1]
    smaller.sort(key=lambda u: u.color != unit.color)      # the same color first, when the pool has it
    if not smaller:
        if effect.all_kin:
            return _bury_kin(state, unit.id, f"{names}: {unit.label} cannot be demoted and is buried", cite, ruleset,
                             out)
        state = state.with_army(army.without(unit.id))
        state = state.with_pool(pool_.evolve(units=(*pool_.units, unit)))
        out.trace.append(TraceEvent(what=f"{names}: {unit.label} cannot be demoted and returns to the summoning "
                                         "pool", rule="dragonkin that cannot be demoted are simply returned to the "
                                    "summoning pool", cite=cite))
        return unit_gone(state, unit.id, "returned to the summoning pool", ruleset, out)
    lesser = smaller[0]
    state = state.with_pool(pool_.evolve(units=(*(u for u in pool_.units if u.id != lesser.id), unit)))
    state = state.with_army(army.evolve(units=tuple(lesser if u.id == unit.id else u for u in army.units)))
    out.moved.append(lesser.id)
    out.trace.append(TraceEvent(what=f"{names}: {unit.label} is demoted to {lesser.label}", before=unit.health,
                                after=lesser.health, rule="failing to roll an ID icon, the dragonkin is demoted "
                                "one health", cite=cite))
    return unit_gone(state, unit.id, "exchanged", ruleset, out)


def _bury_kin(state: GameState, unit_id: str, what: str, cite: str, ruleset: Ruleset, out: StepResult) -> GameState:
    army = owner(state, unit_id)
    state = state.with_army(army.without(unit_id)).add_to("bua", army.player, (army.unit(unit_id),))
    out.buried.append(unit_id)
    out.trace.append(TraceEvent(what=what, rule="the dragonkin is immediately buried", cite=cite))
    return unit_gone(state, unit_id, "buried", ruleset, out)


def rise(state: GameState, who: Army, c: Cast, effect: SpellEffect, most: int, names: str, cite: str,
          ruleset: Ruleset, out: StepResult) -> GameState:
    """Rise of the Eldarim: the dead unit is recruited into the casting army (002 Recruitment: a common,
    here up to one health per casting), or promoted into it in exchange for the casting army's unit named
    with ``into`` (002 Promotion: a unit of the same race, here up to one health more per casting)."""
    area = state.area("dua", who.player)
    dead = next(u for u in area.units if u.id == c.target)
    caster = state.army(who.id)
    if dead.race != effect.race:
        raise StepError(f"{names} raises {effect.race} units; {dead.label} is {dead.race}", cite=cite, field="cast")
    if c.into is None:
        if dead.health > most:
            raise StepError(f"{names} recruits up to {most} health; {dead.label} is more: multiple castings "
                            "increase the health", cite=cite, field="cast")
        state = state.take_from("dua", who.player, c.target)
        state = state.with_army(caster.evolve(units=(*caster.units, dead)))
        what = f"{names}: {dead.label} is recruited into {who.id}"
    else:
        old = caster.unit(c.into)
        if old is None or old.race != effect.race or not old.health < dead.health <= old.health + most:
            raise StepError(f"{names} promotes a unit of {who.id} of the same race to {dead.label}, up to {most} "
                            f"health more: {c.into} is not one", cite=cite, field="cast")
        rest = tuple(u for u in area.units if u.id != c.target)
        state = state.with_area("dua", area.evolve(units=(*rest, old)))
        state = state.with_army(caster.evolve(units=tuple(dead if u.id == c.into else u for u in caster.units)))
        state = unit_gone(state, c.into, "exchanged", ruleset, out)
        what = f"{names}: {old.label} is promoted to {dead.label}"
    out.moved.append(c.target)
    out.trace.append(TraceEvent(what=what, before=dead.health, after=most, rule="the target unit is immediately "
                                "recruited into the casting army or promoted into your casting army", cite=cite))
    return state


def promote_kin(state: GameState, c: Cast, most: int, cite: str, ruleset: Ruleset, out: StepResult) -> GameState:
    """Promote Dragonkin: the dragonkin is exchanged for one of greater health from its summoning pool, up to
    one health more per casting ("the Dragonkin promoted does not have to be the same color"). The unit's
    spells expire with the exchange (002 Spell Attributes > Duration)."""
    army = owner(state, c.target)
    unit = army.unit(c.target)
    pool_ = state.pool(army.player)
    fits = [u for u in pool_.units if u.race == unit.race and unit.health < u.health <= unit.health + most]
    if c.into is not None:
        fits = [u for u in fits if u.id == c.into]
    if not fits:
        raise StepError(f"{army.player}'s summoning pool holds no {unit.race} of {unit.health + 1} to "
                        f"{unit.health + most} health" + (f" named {c.into}" if c.into else "") +
                        f" to promote {c.target} to", cite=cite, field="cast")
    chosen = max(fits, key=lambda u: u.health)
    rest = tuple(u for u in pool_.units if u.id != chosen.id)
    state = state.with_pool(pool_.evolve(units=(*rest, unit)))
    state = state.with_army(army.evolve(units=tuple(chosen if u.id == c.target else u for u in army.units)))
    out.moved.append(chosen.id)
    out.trace.append(TraceEvent(what=f"{c.spell.name}: {unit.label} is exchanged for {chosen.label}",
                                before=unit.health, after=chosen.health, rule="this dragonkin can be immediately "
                                "promoted, to a unit of greater health with multiple castings", cite=cite,
                                defaulted=c.into is None and len(fits) > 1))
    return unit_gone(state, c.target, "exchanged", ruleset, out)


def summon_kin(state: GameState, who: Army, c: Cast, worth: int, names: str, cite: str, ruleset: Ruleset,
                out: StepResult) -> GameState:
    """Summon Dragonkin: the pool's dragonkin of the paying color joins the casting army (002 Dragonkin:
    "Dragonkin cannot be summoned into the reserve area")."""
    kin = next(u for u in state.pool(who.player).units if u.id == c.target)
    paid = c.color or c.spell.color
    if who.at == RESERVE:
        raise StepError("dragonkin cannot be summoned into the reserve area", cite=ruleset.cite("dragonkin"),
                        field="cast")
    if kin.color != paid:
        raise StepError(f"{c.target} is {kin.color}: {c.spell.name} summons dragonkin of the color of the magic "
                        f"paying for it ({paid})", cite=cite, field="cast")
    if worth < kin.health:
        raise StepError(f"only {worth} health-worth ({names}) is aimed at {c.target}, which has {kin.health} "
                        "health: multiple castings increase the number of health affected", cite=cite, field="cast")
    pool_ = state.pool(who.player)
    state = state.with_pool(pool_.evolve(units=tuple(u for u in pool_.units if u.id != c.target)))
    state = state.with_army(state.army(who.id).evolve(units=(*state.army(who.id).units, kin)))
    out.moved.append(c.target)
    out.trace.append(TraceEvent(what=f"{names}: {kin.label} joins {who.id} from the summoning pool",
                                before=kin.health, after=worth, rule="the dragonkin immediately joins the casting "
                                "army", cite=cite))
    return state


def restore(state: GameState, who: Army, item_id: str, worth: int, names: str, cite: str, ruleset: Ruleset,
             out: StepResult) -> GameState:
    """Reforge Item: a buried item of health-worth within the castings returns to the casting army."""
    bua = state.area("bua", who.player)
    item = next(u for u in bua.units if u.id == item_id)
    if worth < item.health:
        raise StepError(f"only {worth} health-worth ({names}) is aimed at {item_id}, which has {item.health} "
                        "health: aim more castings at it", cite=ruleset.cite("spell-effect"), field="cast")
    state = state.take_from("bua", who.player, item_id)
    state = state.with_army(state.army(who.id).evolve(units=(*state.army(who.id).units, item)))
    out.moved.append(item_id)
    out.trace.append(TraceEvent(what=f"{names}: {item.label} is restored to {who.id}", before=item.health,
                                after=worth, rule="immediately restore the target to the casting army", cite=cite))
    return state
