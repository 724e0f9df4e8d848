"""The magic action: magic points by color, doubling, the purchase of spells, announce then resolve.

002 First March, Magic and Doubling Magic; Spell Attributes. Spells whose
effect is a durational modifier of rolls or a terrain element (the ruleset's
``spell_modifiers`` and ``terrain_elements``) go into play as effects; the
immediate ones the ruleset describes (``spell_effects``) change the state
through ``actions.spells``. Any other spell is refused with a message, and so
is a roll whose magic total a modifier changes, rather than guessed.
"""

from __future__ import annotations

from msgspec.structs import replace

from .. import multiplayer
from ..lands import elements
from ..magic import COLORS, Bucket, Caster, allocations, by_color, unit_aspects
from ..minor import allowed_event, allows
from ..names import slug
from ..special import no_doubling
from ..roll import Outcome, RollContext, Rolling, resolve_roll
from ..protection import burial_barred, burial_barred_event
from ..ruleset import Ruleset
from ..state import RESERVE, Army, Effect, GameState, Terrain
from ..steps import Cast, MagicStep, StepResult
from ..trace import StepError, TraceEvent, not_applied, reading
from . import death_magic, joined_rolls, sai_magic, sai_states, specials, spells, state_sais
from .common import army, casualty_lists, leftover_casualties, no_counter, roll, take_damage, terrains
from .magic_returns import magic_returns
from .magic_rolls import Rolls
from .targets import check_target
from .sai_choices import special_choices


def magic(state: GameState, step: MagicStep, ruleset: Ruleset) -> tuple[GameState, StepResult]:
    no_counter(step, ruleset, "magic action")
    out = StepResult(kind="magic")
    caster = army(state, step.army)
    terrain = _where(state, caster, ruleset, out)
    state, step = specials.before_magic(state, caster, step, ruleset, out)
    state = sai_magic.summon_dragons(state, caster, step, ruleset, out)     # Instant: before the roll is counted
    casters, lose, rolled = _count(state, caster, step, terrain, ruleset, out)
    # Illusion, Galeforce ("During any action"); Ferry, Teleport, Firewalking moving units away, whose magic
    # then leaves the action -- resolved before the spells are paid for and resolved
    state = state_sais.place_states(state, ruleset, rolled.specials, caster, None, step, out)
    state, _ = sai_states.attack_moves(state, ruleset, rolled, caster, "magic", step, out)
    casters = [c for c in casters if c.unit not in out.moved]
    state, returned, step = magic_returns(state, ruleset, rolled, caster, step, out)
    state = sai_states.move_dragons(state, ruleset, rolled, state.army(caster.id), step, out)
    caster = state.army(caster.id)
    casters += _returned_casters(returned, caster, terrain, state, ruleset, out)
    lose = _lost(out, caster.id, rolled, returned, lose)
    casters = _attuned(casters, rolled, returned, step, ruleset, out)
    state, points = spend(state, caster, casters, lose, step, ruleset, out)
    # the magic points, with what a later roll of the caster in the step counted (its save against Backlash, 002
    # Backlash: "after all spells are resolved, the army must save"), which the magic result would otherwise hide
    out.results[caster.id] = {**out.results.get(caster.id, {}), "magic": points}
    terrains(state, out)
    return state, out


def spend(state: GameState, caster: Army, casters: list[Caster], lose: int, step: MagicStep, ruleset: Ruleset,
          out: StepResult, magic_action: bool = True) -> tuple[GameState, int]:
    """Split the casters' points by color, pay for the spells and resolve them (a magic action, or the
    spells a Cantrip buys during another roll: ``magic_action`` False); returns the new state and the points."""
    step = _elemental_color(step, casters, ruleset, out)
    buckets = _buckets(caster, step.cast, ruleset)
    budgets = _dua_budgets(state)
    state, furnace = _spirit_furnace(state, caster, step, casters, buckets, budgets, lose, ruleset, out)
    state, buried, doubled = death_magic.bury(state, caster, casters, step, ruleset, out)
    casters = [*casters, *buried]
    reachable = allocations(casters, buckets, budgets, lose)
    furnace_reach = None
    if furnace or _furnace_cast(step, ruleset) is not None:
        reachable, furnace_reach = _after_furnace(reachable, furnace, step, buckets, ruleset)
    casters = [*casters, *furnace]
    out.splits[caster.id] = (reachable, buckets)
    vector = _choose(reachable, buckets, step, ruleset, out, furnace_reach)
    points = declared(vector, buckets, step, ruleset)
    death_magic.check_spent(points, step.cast, doubled, ruleset, out)
    rolled = sum(c.normal + c.ids for c in casters) - lose
    if sum(vector) != rolled:
        out.trace.append(TraceEvent(what=f"{caster.id}: ID magic doubled", before=rolled, after=sum(vector),
                                    rule="doubling magic is a multiply modifier on ID points, after any "
                                         "subtraction or division", cite=ruleset.cite("doubling-magic")))
    _pay(step.cast, vector, buckets, points, caster, ruleset, out,
         foreign=any(c.any_race and c.races is None and c.ids for c in casters))
    state = _resolve(state, caster, step, ruleset, out, magic_action)
    out.magic = {"army": caster.id, "points": points,
                 "cast": [{"spell": c.spell.id, "target": c.target, "count": c.count,
                           "color": c.color or c.spell.color, "cost": c.spell.cost * c.count} for c in step.cast],
                 "unspent": sum(points.values()) - sum(c.spell.cost * c.count for c in step.cast)}
    return state, sum(points.values())


def _elemental_color(step: MagicStep, casters: list[Caster], ruleset: Ruleset, out: StepResult) -> MagicStep:
    """An elemental spell is paid in one color of the caster's choice (002 Spell Attributes, Color; 000 Magic; 001
    Magic Resolution). Where only one color can pay -- the owner's split names one color, or every point rolled is
    of one color -- that is the choice, traced as a default; with more than one the step must say."""
    named = {c for c, n in step.colors or () if n}
    rolled = {color for c in casters if c.normal + c.ids for color in c.colors}
    only = named if step.colors is not None else rolled
    unsaid = [c.spell for c in step.cast if c.spell.color == "elemental" and c.color not in COLORS]
    if unsaid and (len(only) != 1 or any(c.color is not None for c in step.cast if c.spell in unsaid)):
        raise StepError(f"{unsaid[0].name} is an elemental spell: say which one color pays for it "
                        f"(color: one of {', '.join(COLORS)})", cite=ruleset.cite("spell-color"), field="cast")
    if not unsaid:
        return step
    (color,) = only
    cast = tuple(c.evolve(color=color) if c.spell.color == "elemental" and c.color is None else c for c in step.cast)
    for c, given in zip(cast, step.cast):
        if c is not given:
            out.trace.append(TraceEvent(
                what=f"{c.spell.name} paid in {color}, the only color " + (
                    "of the split" if step.colors is not None else "of magic rolled"),
                rule="an elemental spell is paid in any one color; none given (color:), so the only one there is",
                cite=ruleset.cite("spell-color"), defaulted=True))
    return step.evolve(cast=cast)


def declared(vector: tuple[int, ...], buckets, step: MagicStep, ruleset: Ruleset) -> dict[str, int]:
    """The points by color the spells are paid from: the roll's split, or the smaller split the owner declared
    (``_choose``: the rest is not used); a spell of a color the declared split leaves short is refused."""
    points = by_color(vector, buckets)
    wanted = dict(sorted((c, n) for c, n in (step.colors or ()) if n))
    if step.colors is None or wanted == points:
        return points
    short = [f"{n} {color} needed, {wanted.get(color, 0)} {color} declared"
             for color, n in _cost_by_color(step.cast).items() if wanted.get(color, 0) < n]
    if short:
        raise StepError(f"the spells cost more than the {_fmt(wanted)} declared ({'; '.join(short)})",
                        cite=ruleset.cite("spell-cost"), field="colors")
    return wanted


def _where(state: GameState, caster: Army, ruleset: Ruleset, out: StepResult) -> Terrain | None:
    if caster.at == RESERVE:
        return None
    terrain = state.terrain(caster.at)
    held = terrain.face == 8 and terrain.controlled_by == caster.id
    if terrain.face == 8 and terrain.controlled_by and not held:
        # 000/002 The Eighth Face 3): "enemy armies at the terrain are restricted to only melee attacks"; sfr-v4
        # Terrain - Eighth Face: "opposing armies at the terrain are restricted to a melee action" -- a magic action
        # too, not only missiles (engine.actions.common.check_action), whatever icon the scenario gave the terrain
        raise StepError(f"{terrain.id} is at its eighth face, held by {terrain.controlled_by}: enemy armies there "
                        "may only melee, not cast magic", cite=ruleset.cite("eighth-face"), field="army")
    minor = allows(state, caster, "magic", ruleset)
    if not held and minor is not None and terrain.action not in (None, "magic"):
        out.trace.append(allowed_event(minor, "magic", ruleset))
        return terrain
    if not held and terrain.action not in (None, "magic"):
        raise StepError(f"{terrain.id} shows a {terrain.action} icon: an army there casts spells only when the "
                        "terrain shows magic (or as a reserve army)", cite=ruleset.cite("magic"), field="army")
    return terrain


def _spirit_furnace(state: GameState, who: Army, step: MagicStep, casters: list[Caster], buckets, budgets,
                    lose: int, ruleset: Ruleset, out: StepResult) -> tuple[GameState, list[Caster]]:
    """002 Spirit Furnace: "announced and resolved first, before any other spells"; the caster's dead units
    are buried and count as black points, "treated as a modifier that adds", for racial spells of any race
    in the casting army too. It is paid from the points rolled."""
    furnaces = [c for c in step.cast if _kind(c, ruleset) == "furnace"]
    if not furnaces:
        return state, []
    c = furnaces[0]
    cite = ruleset.spell_sections.get(c.spell.id, ruleset.cite("spell-targets"))
    if step.cast[0] is not c:
        raise StepError(f"{c.spell.name} must be announced and resolved first, before any other spells are "
                        "announced or resolved: write it first", cite=cite, field="cast")
    check_target(state, who, c, ruleset)
    _check_count(c, step.cast, ruleset)     # "only once per magic action", before any point is split
    if not any(_affordable((c,), v, buckets) for v in allocations(casters, buckets, budgets, lose)):
        raise StepError(f"{c.spell.name} is paid from the points rolled, which cannot pay its {c.spell.cost}",
                        cite=ruleset.cite("spell-cost"), field="cast")
    area = state.area("dua", who.player)
    # 002 Honor the Dead on the caster's DUA: "only dead units with the black (death) aspect in the target DUA can
    # be buried"; the others stay, and only "their total health value buried" counts
    barred = {u.id: e for u in area.units if (e := burial_barred(state, who.player, u, ruleset)) is not None}
    kept = tuple(u for u in area.units if u.id in barred)
    burnt = tuple(u for u in area.units if u.id not in barred)
    if kept:
        out.trace.append(burial_barred_event(next(iter(barred.values())), kept, ruleset, c.spell.name))
    worth = sum(u.health for u in burnt)
    points = ruleset.spell_effects[c.spell.id].points * worth
    state = state.with_area("dua", area.evolve(units=kept)).add_to("bua", who.player, burnt)
    out.buried.extend(u.id for u in burnt)
    out.trace.append(TraceEvent(what=f"{c.spell.name}: {len(burnt)} dead unit(s), {worth} health-worth, "
                                     f"buried: {points} black point(s)", before=worth, after=points,
                                rule="all dead units are buried and count as double their health in black magic, "
                                     "added after every modifier", cite=cite))
    races = tuple(sorted({u.race for u in who.units if u.race}))     # "any race that is in the casting army"
    return state, [Caster(c.spell.id, None, points, 0, ("black",), any_race=True, sai=points, races=races)] \
        if points else []


def _furnace_cast(step: MagicStep, ruleset: Ruleset) -> Cast | None:
    return next((c for c in step.cast if _kind(c, ruleset) == "furnace"), None)


def _after_furnace(rolled: set[tuple[int, ...]], furnace: list[Caster], step: MagicStep, buckets,
                   ruleset: Ruleset) -> tuple[set[tuple[int, ...]], set[tuple[int, ...]]]:
    """002 Spirit Furnace (First March, Target your spells): the Furnace is "announced and resolved first ...
    Then the points gained through the casting of this spell are added to the remaining magic results". So it is
    paid from the split of the points rolled alone, and only then do its black points join what that split left:
    the splits allowed are a rolled split that pays the Furnace plus a split of the Furnace's own points (never
    the rolled points spent elsewhere and the Furnace paying for itself). Returns (the splits allowed, the splits
    the roll and the Furnace's points would make were the Furnace not paid first), the latter to say why a split
    is refused."""
    c = _furnace_cast(step, ruleset)
    own = allocations(furnace, buckets, (0, 0)) if furnace else {(0,) * len(buckets)}
    paying = {v for v in rolled if _affordable((c,), v, buckets)}
    summed = lambda pool: {tuple(a + b for a, b in zip(r, f)) for r in pool for f in own}
    return summed(paying), summed(rolled)


def _kind(c: Cast, ruleset: Ruleset) -> str | None:
    effect = ruleset.spell_effects.get(c.spell.id)
    return effect.kind if effect is not None else None


# --- counting: each unit's magic and ID points, and its colors ----------------------------------


def _count(state: GameState, who: Army, step: MagicStep, terrain: Terrain | None, ruleset: Ruleset,
           out: StepResult) -> tuple[list[Caster], int, Outcome]:
    """Each unit's points, and how many of them negation and penalties take (the owner says which)."""
    ctx = RollContext(state=state, army=who, kind="magic", wanted=("magic",), ruleset=ruleset,
                      negation=_negation(state, who, step, ruleset, out), choices=special_choices(step))
    rolled = resolve_roll(ctx, step.roll)
    out.rolls[who.id] = Rolling(ctx, step.roll, rolled)     # the roll the units brought back join (``_lost``)
    out.trace.extend(rolled.trace)
    counted = sum(t.get("magic", 0) for t in rolled.per_unit.values())
    final = rolled.results.get("magic", 0)
    doubled_ids = _eighth_face_ids(who, terrain, rolled, counted, final, ruleset)
    counted, kept = counted + doubled_ids, doubled_ids
    if final > counted:
        raise StepError(f"a modifier adds to {who.id}'s magic ({counted} -> {final}); this version does not "
                        "yet say which color the added points are", cite=ruleset.cite("doubling-magic"))
    if final < counted:
        # "doubling magic is a multiply modifier, after any subtraction or division": 002 says no more of which
        # points a penalty takes, read as the owner's choice (shown by the split)
        out.trace.append(reading(f"{who.id}: {counted - final} of its {counted} magic point(s) are lost before "
                                 "doubling; which ones is the owner's choice, shown by the split",
                                 ruleset.cite("doubling-magic"), ruleset.cite("modifier-order"))
                         .evolve(before=counted, after=final))
    land = elements(state, terrain, who, ruleset)
    casters = []
    races = {u.race for u in who.units if not u.item}
    for unit_id, tally in rolled.per_unit.items():
        unit = who.unit(unit_id)
        if unit is not None and unit.race is None and sai_magic.rolled_any_color(unit_id, step.roll):
            continue        # a medallion: its SAI's magic, of any color, is split off below
        if unit is not None and unit.item:
            casters += _item(unit, tally.get("magic", 0), rolled.non_id[unit_id].get("magic", 0), terrain, land, who,
                             ruleset, out)
            continue
        if unit is None and len(races) > 1:
            raise StepError(f"{who.id} mixes races, which cast different colors: give the magic roll per unit",
                            cite=ruleset.cite("magic"), field="roll")
        # an aggregate roll of a one-race army (its magical items, if any, rolled nothing for magic)
        unit = unit or next(u for u in who.units if not u.item).evolve(id=who.id)
        if who.at == RESERVE and unit.race in ruleset.reserve_missile_races:
            # an army of those races alone casts nothing, whether its roll is given as a whole or per unit (the
            # refusal says why, not "no points")
            alone = all(u.race in ruleset.reserve_missile_races for u in who.units if not u.item)
            _no_reserve_magic(unit, tally.get("magic", 0), who.id if unit_id == who.id or alone else "", ruleset,
                              out)
            continue
        total, plain = tally.get("magic", 0), rolled.non_id[unit_id].get("magic", 0)
        if total and kept and total > plain:
            # sfr-v4: the unit's ID points doubled by the eighth face are its own, of its race's colors
            more = min(total - plain, kept)
            kept -= more
            out.trace.append(reading(f"{unit.id}: its {total - plain} ID magic point(s) doubled by {terrain.id}'s "
                                     f"eighth face count {total - plain + more}, of its race's colors",
                                     ruleset.cite("eighth-face"), ruleset.cite("magic"))
                             .evolve(before=total - plain, after=total - plain + more))
            total += more
        if total:
            caster = _caster(unit, plain, total - plain, terrain, land, who, ruleset, out)
            sai = rolled.sai_per_unit.get(unit_id, {}).get("magic", 0)
            casters.append(caster.evolve(sai=sai) if sai else caster)
    # Attune's special part waits for the units brought in during the roll (``magic``)
    return sai_magic.any_color(casters, rolled, step.roll, ruleset, out), counted - final, rolled


def _eighth_face_ids(who: Army, terrain: Terrain | None, rolled: Outcome, counted: int, final: int,
                     ruleset: Ruleset) -> int:
    """The magic points the army's held eighth face added by doubling its ID results (sfr-v4 Terrain - Eighth Face:
    "When rolling the army, all ID results are doubled"), given back to the units that rolled the IDs. Reading: 001
    Magic Resolution, "Each result rolled by the army counts as one point of magic of EITHER of the race's colors",
    says nothing of the terrain's colors, so a doubled ID point is the unit's, of either of its race's colors (002's
    doubling for a color the unit shares with the terrain is not 001's)."""
    if not ruleset.eighth_face_doubles_ids or terrain is None or final <= counted:
        return 0
    if terrain.face != 8 or terrain.controlled_by != who.id:
        return 0
    ids = sum(total - rolled.non_id.get(u, {}).get("magic", 0) for u, t in rolled.per_unit.items()
              if (total := t.get("magic", 0)))
    return min(final - counted, ids)


def _attuned(casters: list[Caster], rolled: Outcome, returned: dict[str, Outcome], step: MagicStep,
             ruleset: Ruleset, out: StepResult) -> list[Caster]:
    """002 Attune's special part, for the army's Attunes and those of the units brought into its roll (002
    Application: "SAIs have their same effect whether the unit containing the SAI is rolled individually or as part
    of an army"). Reading, traced where a returned unit rolled one: Attune "may also immediately count the normal
    magic result ... of one unit in the acting army", a Special result, resolved with the roll's other special
    results in any order the player chooses (002 Resolution), so after the SAI that brought the unit: each Attune
    of the roll attunes one other unit of the army, the returned ones among them (engine.actions.sai_magic)."""
    theirs = [s for o in returned.values() for s in o.specials if s.sai == sai_magic.ATTUNE]
    if theirs:
        out.trace.append(reading(f"{', '.join(dict.fromkeys(s.unit for s in theirs))}'s Attune, rolled when brought "
                                 "into the army, attunes with the army's own after the SAI that brought it",
                                 ruleset.sai_sections.get(sai_magic.ATTUNE, ruleset.cite("magic")),
                                 ruleset.cite("sai-resolution")))
    return sai_magic.attune(casters, replace(rolled, specials=[*rolled.specials, *theirs]), step, ruleset, out)


def _lost(out: StepResult, army_id: str, rolled: Outcome, returned: dict[str, Outcome], lose: int) -> int:
    """The magic points the army's penalties take (``lose``: from its own roll, ``rolled``), once the units Regenerate
    or the Gold Medallion brought back (``returned``) joined the roll: counted with it through the one pipeline
    (engine.actions.joined_rolls ``through_pipeline``; 002 Resolution: their results are "applied with the results of
    their army"), the army's penalties take from theirs too."""
    rolling = out.rolls.get(army_id)
    if rolling is not None:
        # a unit brought back that then moved away left the roll: its results are not counted in the army total
        # (002 Resolution: "any component removed from the army ... does not have its results counted")
        rolling.keep_joined(returned)
    if not returned and not (rolling is not None and rolling.left):
        return lose
    # units moved away left the roll too (the casters the caller left out): the penalties fall on what stays
    own = rolled.results.get("magic", 0)
    theirs = sum(o.results.get("magic", 0) for o in returned.values())
    return lose + own + theirs - joined_rolls.through_pipeline(out, army_id, "magic", own)


def _returned_casters(returned: dict[str, Outcome], who: Army, terrain: Terrain | None, state: GameState,
                      ruleset: Ruleset, out: StepResult) -> list[Caster]:
    """The units Regenerate or the Gold Medallion brought back during the magic roll cast the magic of their own
    roll with their own colors, as the army's other units do (002 SAI General Information, Resolution:
    "components that are brought into an army ... are rolled immediately and the results applied with the
    results of their army")."""
    land = elements(state, terrain, who, ruleset)
    casters = []
    for unit_id, rolled in returned.items():
        total = rolled.results.get("magic", 0)
        plain = rolled.non_id.get(unit_id, {}).get("magic", total)
        if total:
            mine = [_caster(who.unit(unit_id), plain, total - plain, terrain, land, who, ruleset, out)]
            sais = [s.sai for s in rolled.specials if s.sai in sai_magic.ANY_COLOR]   # Attune's magic: any color
            casters += sai_magic.split_any_color(mine, unit_id, sais, rolled, ruleset, out)
    return casters


def _no_reserve_magic(unit, points: int, whole_army: str, ruleset: Ruleset, out: StepResult) -> None:
    """002 Amazons, Reserve Attack: "Amazons, when in the reserve area, cannot use magic"; ``whole_army``: the id of
    an army of such units alone (refused), else "" (the unit's magic is ignored)."""
    cite = ruleset.cite("reserve-attack")
    if whole_army:
        raise StepError(f"{whole_army} is an army of {unit.race} units in the reserve area, which cannot use magic: "
                        "they may take a missile action instead", cite=cite, field="roll")
    out.trace.append(TraceEvent(what=f"{unit.id}: {unit.race} in the reserve area: its {points} magic ignored",
                                before=points, after=0, rule=ruleset.quote("reserve-no-magic", "Amazons, when in the "
                                "reserve area, cannot use magic; they fire missiles instead"), cite=cite))


def _negation(state: GameState, who: Army, step: MagicStep, ruleset: Ruleset, out: StepResult) -> int:
    """002 Frostwings, Magic Negation: opposing armies' Frostwings roll; each non-ID magic result of theirs
    negates a point, and "only the greater of the rolls is subtracted"."""
    if not step.negation:
        return 0
    cite = ruleset.cite("magic-negation")
    best = 0
    for army_id, dice in step.negation:
        other = army(state, army_id, field="negation")
        negators = [u for u in other.units if u.race in ruleset.magic_negators]
        if other.player == who.player or not negators:
            raise StepError(f"{army_id} cannot negate {who.id}'s magic: only an opposing army with Frostwing "
                            "units can", cite=cite, field="negation")
        if who.at == RESERVE or other.at != who.at:
            # "when an opposing army conducts a magic action"; 002 Glossary, Opposing Army: "An enemy army located
            # at the same terrain as your own army" (a reserve area is no terrain: nobody opposes a reserve army)
            raise StepError(f"{army_id} cannot negate {who.id}'s magic: Frostwings negate when an opposing army "
                            "conducts a magic action, and an opposing army is an enemy army located at the same "
                            f"terrain as your own army ({army_id} is at {other.at}, {who.id} at {who.at})",
                            cite=ruleset.cite("opposing-army"), field="negation")
        if not dice.per_unit and len(negators) != len(other.units):
            raise StepError(f"{army_id} is not all Frostwings: give its negation roll per unit, since only the "
                            "Frostwings' results negate", cite=cite, field="negation")
        outcome = roll(state, ruleset, other, "magic", ("magic",), dice, out)
        keys = [u.id for u in negators] if dice.per_unit else [other.id]
        rolled = sum(outcome.non_id.get(k, {}).get("magic", 0) for k in keys)
        # the negation roll is a roll for magic like any other: what its own modifiers take (Magic Drain at the
        # terrain, Palsy on the army) is taken from it too. Reading: the owner loses the results that do not negate
        # (ID icons, other races' units) first, so the negation is the rolled non-ID Frostwing magic, at most the
        # roll's finalized magic (002 Dice Modifiers: "applied as the army's owner desires")
        n = min(rolled, outcome.results.get("magic", 0))
        if n < rolled:
            out.trace.append(reading(f"{army_id}: its negation roll finalizes {outcome.results.get('magic', 0)} magic: "
                                     f"{n} of the {rolled} non-ID Frostwing magic result(s) left to negate "
                                     "(its modifiers take the results that do not negate first)", cite,
                                     ruleset.cite("modifier-order")).evolve(before=rolled, after=n))
        out.trace.append(TraceEvent(what=f"{army_id}: {n} non-ID magic result(s) of Frostwings", after=n,
                                    rule="each non-ID magic result negates one point; of several rolls only the "
                                         "greatest counts", cite=cite))
        best = max(best, n)
    return best


def _caster(unit, plain: int, ids: int, terrain: Terrain | None, land: set[str], who: Army,
            ruleset: Ruleset, out: StepResult) -> Caster:
    aspects = unit_aspects(unit, ruleset)
    own = aspects or tuple(sorted(land))     # Amazons: the terrain's colors
    stones = terrain is not None and terrain.eighth == "standing-stones"
    colors = set(own)
    if stones and terrain.face == 8 and terrain.controlled_by == who.id:
        colors |= land          # 002 Standing Stones: "cast magic of the terrain's colors"
    # 002 Terrain Advantage: ID points double for a color both the unit and the terrain have; never
    # in reserve; "Amazons and Frostwings can only double ID icons at a terrain with a Standing Stones"
    held = stones and terrain.face == 8 and terrain.controlled_by == who.id
    stones_only = unit.race in ("amazon", "frostwing")
    stones_ok = held if ruleset.stones_held_to_double else stones
    may_double = terrain is not None and (not stones_only or stones_ok)
    doubles = tuple(sorted(set(own) & land)) if may_double else ()
    if ruleset.eighth_face_doubles_ids:
        # sfr-v4 has no Terrain Advantage doubling of magic: its only doubling of IDs is the held eighth face's
        # ("When rolling the army, all ID results are doubled"), applied in the roll (engine.doubling)
        doubles = ()
    if ids and stones and not held and unit.race == "amazon" and ruleset.stones_held_to_double:
        out.trace.append(TraceEvent(what=f"{unit.id}: an Amazon at a Standing Stones its army does not hold: its ID "
                                         "points do not double", after=ids, rule="to double magic, Amazons must "
                                    "control the terrain at which the Standing Stones are present",
                                    cite=ruleset.cite("amazon-magic")))
    dua = None
    # 002 Dead Unit Area Advantage: "Death races (those races with a black aspect)"; an Amazon casting
    # black at a Deadlands terrain has no black aspect
    if ruleset.dua_doubling and terrain is not None and "black" in aspects and "black" not in doubles:
        dua = "all" if unit.race == "undead" else "max"
        if stones_only and not stones_ok:
            # 002 Frostwings, Magic Use: "they only double ID results at a terrain containing the Standing Stones as
            # the eighth face" (Terrain Advantage: "Amazons and Frostwings can only double ID icons at a terrain with
            # a Standing Stones") read with 002 Dead Unit Area Advantage ("Death races ... may double their magic
            # through the power of Death itself"): the Frostwings' own limit is on every doubling of their IDs,
            # Death's too
            dua = None
            if ids:
                out.trace.append(reading(
                    f"{unit.id}: a Frostwing at {terrain.id}, whose eighth face is not Standing Stones: its ID "
                    "magic does not double, through the DUA neither", ruleset.cite("frostwing-magic"),
                    ruleset.cite("dua-advantage")))
    if ids and no_doubling(terrain) and (doubles or dua):
        # 002 Grove: "No army can double magic at this terrain by any means (including when it's not at an
        # eighth face)"
        doubles, dua = (), None
        out.trace.append(TraceEvent(what=f"{unit.id}: {terrain.id} is a Grove: its ID magic cannot double",
                                    rule="no army can double magic at this terrain by any means",
                                    cite=ruleset.cite("grove")))
    if ids and dua and held and "black" not in land:
        # 002 Standing Stones: "no unit can double its ID icons for magic unless both the unit and the terrain contain
        # that color" read with 002 Dead Unit Area Advantage: black "may also be doubled differently than the other
        # four colors ... through the power of Death itself": the Stones' limit is on the terrain's doubling only
        out.trace.append(reading(f"{unit.id}: at {terrain.id}'s Standing Stones (no black) its black ID points may "
                                 "still double through the DUA: the Stones limit the terrain's doubling, not Death's",
                                 ruleset.cite("dua-advantage"), ruleset.cite("standing-stones")))
    doubling = ([f"as {', '.join(doubles)}"] if doubles else []) + (["as black through the DUA"] if dua else [])
    out.trace.append(TraceEvent(
        what=f"{unit.id}: {plain} magic point(s) from icons and SAIs, {ids} from ID; casts "
             f"{', '.join(sorted(colors))}" + (f"; ID points may double {' or '.join(doubling)}" if ids and doubling
                                               else ""),
        after=plain + ids, rule="a unit casts its aspect colors; only ID points double, for a color it shares "
                                "with the terrain", cite=ruleset.cite("terrain-advantage" if ids and doubles else "magic")))
    return Caster(unit.id, unit.race, plain, ids, tuple(sorted(colors)), doubles, dua if ids else None)


def _item(unit, points: int, plain: int, terrain: Terrain | None, land: set[str], who: Army, ruleset: Ruleset,
          out: StepResult) -> list[Caster]:
    """002 Magical Items: "Magic results rolled on magic item die can be applied to the color of spells that
    matches the color of the item. However, the spells purchased must be usable by that army ... Magic
    results rolled on a magical item cannot be doubled" (in the reserve area its roll is ignored: engine.roll).
    002 Artifacts: an artifact's ID icon "counts as four points of the effect desired by the army when rolled. When
    rolling for magic the ID icon of an artifact can be doubled as per the basic rules" (for a color the terrain
    has: the artifact's own); "the Dragon Staff ID icon may use its results to purchase appropriately colored spells
    (basic or racial) from the spell list - even spells that ordinarily cannot be cast by that army"."""
    cite = ruleset.cite("magic-items")
    if unit.color is None:
        raise StepError(f"{unit.id} is a magical item: say its color (color: on the unit)", cite=cite, field="roll")
    army_races = tuple(sorted({u.race for u in who.units if u.race}))
    casters = []
    if plain:
        out.trace.append(TraceEvent(what=f"{unit.id}: {plain} {unit.color} point(s) from a magical item, never "
                                         "doubled", after=plain, rule="magic results on a magical item go to spells "
                                    "of its color usable by the army, and cannot be doubled", cite=cite))
        casters.append(Caster(unit.id, None, plain, 0, (unit.color,), any_race=True, races=army_races))
    ids = points - plain
    if ids:
        art = ruleset.cite("artifacts")
        doubles = (unit.color,) if terrain is not None and unit.color in land and not no_doubling(terrain) else ()
        staff = slug(unit.name or "") == "dragon-staff"
        out.trace.append(TraceEvent(
            what=f"{unit.id}: {ids} {unit.color} ID point(s) from an artifact" + (
                f"; they may double ({unit.color} is {terrain.id}'s)" if doubles else "") + (
                "; a Dragon Staff's: they may buy spells of any race's list" if staff else ""),
            after=ids, rule="the ID icon of an artifact can be doubled as per the basic rules" + (
                "; the Dragon Staff ID icon may purchase spells that ordinarily cannot be cast by that army"
                if staff else ""), cite=art))
        casters.append(Caster(unit.id, None, 0, ids, (unit.color,), doubles, any_race=True,
                              races=None if staff else army_races))
    return casters


def _dua_budgets(state: GameState) -> tuple[int, int]:
    """002 Dead Unit Area Advantage: the player with the most dead health-worth; Undead: every dead unit."""
    health = [a.health for a in state.dua]
    return max(health, default=0), sum(health)


# --- the owner's split ----------------------------------------------------------------------


def _buckets(who: Army, cast: tuple[Cast, ...], ruleset: Ruleset) -> tuple[Bucket, ...]:
    """One bucket per color, and one per (color, race) a racial spell must be paid from."""
    racial = {(c.color or c.spell.color, race) for c in cast for race in c.spell.lists if race != "basic"}
    return tuple((color, None) for color in COLORS) + tuple(sorted(racial))


def _choose(reachable: set[tuple[int, ...]], buckets, step: MagicStep, ruleset: Ruleset,
            out: StepResult, unpaid: set[tuple[int, ...]] | None = None) -> tuple[int, ...]:
    cite = ruleset.cite("magic")
    if step.colors is None:
        fitting = sorted((v for v in reachable if _affordable(step.cast, v, buckets)), key=_largest_first)
        if not fitting:
            raise StepError("no split of the magic points pays for the spells cast", cite=cite, field="cast")
        chose = len({tuple(by_color(v, buckets).items()) for v in fitting}) > 1   # "(defaulted)" only where one chose
        out.trace.append(TraceEvent(what=f"magic points: {_fmt(by_color(fitting[0], buckets))}",
                                    after=sum(fitting[0]), rule="the owner splits the points by color; " +
                                    ("none given, so the largest split that pays for the spells" if chose else
                                     "this is the only split that pays for the spells"), cite=cite, defaulted=chose))
        return fitting[0]
    wanted = {c: n for c, n in step.colors if n}
    total, split = sum(wanted.values()), dict(sorted(wanted.items()))
    matching = sorted((v for v in reachable if sum(v) == total and by_color(v, buckets) == split), key=_largest_first)
    if matching:
        # with a racial spell one color may split over races in several ways: prefer one that pays
        matching.sort(key=lambda v: not _affordable(step.cast, v, buckets))
        out.trace.append(TraceEvent(what=f"magic points: {_fmt(wanted)}", after=sum(wanted.values()),
                                    rule="points of one color combine across units; each unit's points go to "
                                         "its own colors", cite=cite))
        return matching[0]
    # a split of fewer points than the roll gives (a color the owner does not mean to use left out): 002 Casting
    # Cost: "not all of the results are required to be spent. Any extra results not used disappear"; 000 Magic:
    # "you aren't required to spend all your points"; 001: "Not all spell points have to be spent". The spells are
    # then paid from the split as declared (``declared``)
    covering = sorted((v for v in reachable if all(by_color(v, buckets).get(c, 0) >= n for c, n in wanted.items())),
                      key=_largest_first)
    furnace = _furnace_cast(step, ruleset)
    if covering and furnace is None:
        covering.sort(key=lambda v: not _affordable(step.cast, v, buckets))
        out.trace.append(TraceEvent(what=f"magic points: {_fmt(wanted)} of the {_fmt(by_color(covering[0], buckets))} "
                                         "rolled; the rest is not used", after=total,
                                    rule=ruleset.quote("spell-cost-unspent", "not all of the results are required "
                                                       "to be spent; any extra results not used disappear"),
                                    cite=ruleset.cites.get("spell-cost-unspent") or ruleset.cite("spell-cost")))
        return covering[0]
    if unpaid and furnace is not None and any(sum(v) == total and by_color(v, buckets) == split for v in unpaid):
        raise StepError(f"{_fmt(wanted)} leaves the points rolled unable to pay for {furnace.spell.name} "
                        f"({furnace.spell.cost} {furnace.spell.color}): it is paid from the points rolled, and its "
                        "own black points are added to what remains only once it is resolved; splits that pay "
                        f"for it first: {'; '.join(_fmt(s) for s in _maximal(reachable, buckets))}",
                        cite=ruleset.spell_sections.get(furnace.spell.id, ruleset.cite("spell-targets")),
                        field="colors")
    raise StepError(f"{_fmt(wanted)} is not a split this roll allows; the largest are: "
                    f"{'; '.join(_fmt(split) for split in _maximal(reachable, buckets))}",
                    cite=ruleset.cite("magic-split"), field="colors")


def maximal_splits(out: StepResult, army_id: str) -> list[dict[str, int]] | None:
    """The splits by color an army's magic roll in this step allows that no other contains (002 First March,
    Magic; 002 Doubling Magic), the largest first; None where the army split no magic points in the step."""
    found = out.splits.get(army_id)
    return None if found is None else _maximal(*found)


def buyable(out: StepResult, key: str, cards, ruleset: Ruleset) -> list[tuple[str, str | None]] | None:
    """What the Cantrip ``key`` rolled in this step could buy, one spell at a time: (spell id, paying color) for each
    of ``cards`` (the edition's spells) its points pay for (002 SAI List, Cantrip; 002 Casting Cost: each spell in
    its color, an elemental spell in one color of the owner's choice, a racial spell from that race's points), in
    the 'C' column where the edition has one (001); None where no Cantrip was rolled."""
    found = out.cantrips.get(key)
    if found is None:
        return None
    who, casters = found
    total = sum(c.normal for c in casters)
    races = {u.race for u in who.units}
    offered = []
    for card in cards:
        if card.cost > total or (ruleset.cantrip_column and not card.cantrip):
            continue
        spell_races = [r for r in card.lists if r != "basic"]
        if spell_races and not races & set(spell_races):
            continue    # 002 Racial Spells: the race must be in the army
        # an elemental spell is paid in any one color (002 Dragons: "the elemental (black, blue, gold, green,
        # & red)" colors)
        for color in (COLORS if card.color == "elemental" else (card.color,)):
            cast = (Cast(spell=card, target=who.id, color=color if card.color == "elemental" else None),)
            buckets = _buckets(who, cast, ruleset)
            if any(_affordable(cast, v, buckets) for v in allocations(casters, buckets, (0, 0))):
                offered.append((card.id, color if card.color == "elemental" else None))
    return offered


def _maximal(reachable: set[tuple[int, ...]], buckets) -> list[dict[str, int]]:
    """Every split by color that no other split the roll allows contains (as much of every color, more of
    one), the largest first: the splits to choose among, all of them and only them."""
    splits = list({tuple(by_color(v, buckets).items()): None for v in sorted(reachable, key=_largest_first)})
    as_dicts = [dict(s) for s in splits]

    def within(a: dict[str, int], b: dict[str, int]) -> bool:
        return a != b and all(n <= b.get(c, 0) for c, n in a.items())

    return [a for a in as_dicts if not any(within(a, b) for b in as_dicts)]


def _largest_first(vector: tuple[int, ...]) -> tuple:
    return -sum(vector), [-n for n in vector]


def _affordable(cast: tuple[Cast, ...], vector: tuple[int, ...], buckets) -> bool:
    """Each color pays its spells; a racial spell only from that race's points of the color.

    Racial spells are paid first, so that a basic spell of the same color takes
    what the race's points leave.
    """
    have = dict(zip(buckets, vector))
    for c in sorted(cast, key=lambda c: c.spell.lists == ("basic",)):
        color, cost = c.color or c.spell.color, c.spell.cost * c.count
        races = [r for r in c.spell.lists if r != "basic"]
        for bucket in [(color, r) for r in races] if races else [b for b in buckets if b[0] == color]:
            take = min(have.get(bucket, 0), cost)
            have[bucket] = have.get(bucket, 0) - take
            cost -= take
        if cost:
            return False
    return True


def _cost_by_color(cast: tuple[Cast, ...]) -> dict[str, int]:
    """What the spells cost in each color (an elemental spell in the color that pays it)."""
    cost: dict[str, int] = {}
    for c in cast:
        color = c.color or c.spell.color
        cost[color] = cost.get(color, 0) + c.spell.cost * c.count
    return cost


def _fmt(points: dict[str, int]) -> str:
    return ", ".join(f"{n} {c}" for c, n in points.items()) or "no points"


# --- buying and resolving ------------------------------------------------------------------


def _pay(cast: tuple[Cast, ...], vector, buckets, points: dict[str, int], who: Army, ruleset: Ruleset,
         out: StepResult, foreign: bool = False) -> None:
    """``foreign``: a Dragon Staff's ID points are in the roll, which alone may pay a racial spell of a race not in
    the army (engine.magic: only they reach its race's points; _affordable then says whether they do)."""
    for c in cast:
        spell, color = c.spell, c.color or c.spell.color
        if spell.color != "elemental" and c.color is not None and c.color != spell.color:
            # a spell that is not elemental has one color (000 Magic: "the number of magic points of that color
            # required to cast that spell"; 001 Magic Resolution: "Basic spells require a number of points of a
            # specific color"; 002 Spell Attributes, Color)
            raise StepError(f"{spell.name} is a {spell.color} spell, paid only with {spell.color} magic; color: "
                            f"{c.color} names another (only elemental spells take a color)",
                            cite=ruleset.cite("spell-color"), field="cast")
        if who.at == RESERVE and ruleset.reserve_list and not spell.reserve:
            raise StepError(f"{spell.name} cannot be cast from the reserve area", cite=ruleset.cite("reserve-magic"),
                            field="cast")
        races = [r for r in spell.lists if r != "basic"]
        if races and not any(u.race in races for u in who.units) and not foreign:
            raise StepError(f"{spell.name} is a {', '.join(races)} spell and {who.id} has none of them",
                            cite=ruleset.cite("racial-spells"), field="cast")
        _check_count(c, cast, ruleset, out)
        out.trace.append(TraceEvent(what=f"buy {spell.name} x{c.count} for {spell.cost * c.count} {color}",
                                    after=spell.cost * c.count, rule="each spell is paid in its color (racial "
                                    "spells from that race's points)", cite=ruleset.spell_sections.get(spell.id, ruleset.cite("spell-cost"))))
    if not _affordable(cast, vector, buckets):
        by_color_cost = _cost_by_color(cast)
        if all(points.get(color, 0) >= n for color, n in by_color_cost.items()):
            racial = [f"{c.spell.name} ({', '.join(r for r in c.spell.lists if r != 'basic')})" for c in cast
                      if c.spell.lists != ("basic",)]
            raise StepError(f"racial spells are paid only by that race's points, and these cannot be: "
                            f"{', '.join(racial)}", cite=ruleset.cite("racial-spells"), field="cast")
        short = [f"{n} {color} needed, {points.get(color, 0)} {color}" for color, n in by_color_cost.items()
                 if points.get(color, 0) < n]
        # 001 Magic Resolution: "Elemental Spells may only be cast using magic results of any single colour";
        # 002 Spell Attributes, Color: "All the magic that 'powers' each of those spells must come from single color"
        single = [c.spell.name for c in cast if c.spell.color == "elemental"
                  and points.get(c.color, 0) < by_color_cost.get(c.color, 0)]
        raise StepError(f"the spells cost more than the {_fmt(points)} rolled ({'; '.join(short)})"
                        + (f"; an elemental spell ({', '.join(single)}) is paid from its one color alone, points of "
                           "other colors do not add to it" if single else ""),
                        cite=ruleset.cite("spell-color") if single else ruleset.cite("spell-cost"), field="cast")


def _check_count(c: Cast, cast: tuple[Cast, ...], ruleset: Ruleset, out: StepResult | None = None) -> None:
    """002 Multiplicity: more castings at one target only where they "increase the effect"."""
    cite = ruleset.cite("multiplicity")
    same = [x for x in cast if x.spell.id == c.spell.id]
    if "once-per-action" in c.spell.multiplicity and sum(x.count for x in same) > 1:
        raise StepError(f"{c.spell.name} can be cast only once per magic action", cite=cite, field="cast")
    at_target = sum(x.count for x in same if x.target == c.target)
    stacking = {"increase-effect", "increase-number-affected"} & set(c.spell.multiplicity)
    if at_target > 1 and not c.spell.multiplicity and ruleset.castings_increase_value:
        # 001 Spells: "Multiple castings of a spell against the same target increase the value highlighted in red"
        # -- general; the highlighting is lost in the text, so a spell whose own words say nothing stacks
        stacking = {"increase-effect"}
        if out is not None and c is next(x for x in cast if x.spell.id == c.spell.id and x.target == c.target):
            out.trace.append(reading(
                f"{at_target} castings of {c.spell.name} at {c.target} add up (the spell's value grows with each; "
                "its own text states no other rule for more castings)", cite,
                ruleset.spell_sections.get(c.spell.id, cite)))
    if at_target > 1 and not stacking and _each_its_own(c, ruleset):
        return
    if at_target > 1 and not stacking:
        raise StepError(f"{c.spell.name} cannot be cast on {c.target} more than once in one magic action "
                        "(multiple castings target another)", cite=cite, field="cast")


def _each_its_own(c: Cast, ruleset: Ruleset) -> bool:
    """Whether several castings of a unit's "save or be killed" spell may target one unit, each resolved by its own
    roll (``Ruleset.castings_at_one_unit``: tsr-1996, engine.actions.spells.resolve). Reading: 000's "Multiple
    castings target multiple units" says what more castings may do, and 004 (an "extension of the rules booklet ...
    clarifying the most confusing parts of the game") casts three at one unit: "A Gargoyle is targeted by 3
    Lightning Strikes ... If the dispel fails, the Gargoyle must roll three successful saves in order to survive"
    (traced where it applies)."""
    effect = ruleset.spell_effects.get(c.spell.id)
    return ruleset.castings_at_one_unit and effect is not None and effect.kind == "unit-damage" \
        and effect.save == "or-killed"


def _resolve(state: GameState, who: Army, step: MagicStep, ruleset: Ruleset, out: StepResult,
             magic_action: bool = True) -> GameState:
    """Announce every spell and its target, then resolve them in the order written (``magic_action`` False: the
    spells a Cantrip buys outside a magic action).

    Castings that act as one (``spells.group_key``) resolve together, where the first of them is written.
    """
    for c in step.cast:
        check_target(state, who, c, ruleset, out)
        multiplayer.opposing_target(state, ruleset, who.player, c.spell.name, c.spell.target or "", c.target, out)
    negated = _dispel(state, step, ruleset, out)
    rolls = Rolls(step.avoidance, step.choices, step.cantrip, step.save_sais)
    casualties = casualty_lists(step.casualties)
    fleeing = casualty_lists(step.fleeing)
    # 002 Backlash: "if any army at the target terrain takes a magic action and casts magic ... this spell must be
    # in effect before the magic action has begun"; 002 Glossary, Magic Action: "the casting of spells from a
    # Cantrip special action icon during a non-magic action or save roll is not considered a magic action"
    backlash = [e for e in state.effects if e.target == who.at and e.spell in ruleset.magic_backlash]
    if backlash and not magic_action:
        out.trace.append(not_applied(f"{backlash[0].spell} on {who.at}: {who.id}'s Cantrip spells are not a magic "
                                     "action", "the casting of spells from a Cantrip special action icon during a "
                                     "non-magic action or save roll is not considered a magic action",
                                     ruleset.cite("magic-action")))
        backlash = []
    groups: dict[tuple, list[Cast]] = {}
    for i, c in enumerate(step.cast):
        if c in negated:
            continue
        key = spells.group_key(c, ruleset) if c.spell.id in ruleset.spell_effects else (i,)
        groups.setdefault(key, []).append(c)
    for casts in groups.values():
        c = casts[0]
        cite = ruleset.spell_sections.get(c.spell.id, ruleset.cite("spell-targets"))
        if _kind(c, ruleset) == "furnace":
            continue        # resolved before the points were split (_spirit_furnace)
        if c.spell.id in ruleset.spell_effects:
            state = spells.resolve(state, who, casts, ruleset, rolls, casualties, fleeing, out)
            continue
        if not ruleset.in_play(c.spell.id):
            raise StepError(f"resolving {c.spell.name} is not modelled by this version yet", cite=cite, field="cast")
        state = state.evolve(effects=(*state.effects, Effect(spell=c.spell.id, target=c.target, by=who.player,
                                                             count=c.count)))
        out.trace.append(TraceEvent(what=f"{c.spell.name} x{c.count} takes effect on {c.target}", after=c.count,
                                    rule="spells resolve one at a time, in the caster's order", cite=cite))
    for e in backlash[:1] if step.cast and state.army(who.id).units else ():
        state = _backlash(state, state.army(who.id), e, step.cast, ruleset, rolls, casualties, out)
    rolls.check_all_used(ruleset.cite("spell-targets"))
    leftover_casualties(casualties, ruleset, out=out)
    leftover_casualties(fleeing, ruleset, "fleeing", out)
    return state


def _dispel(state: GameState, step: MagicStep, ruleset: Ruleset, out: StepResult) -> list[Cast]:
    """002 Dispel Magic: "Whenever any magic targets this unit, the army containing this unit and/or the
    terrain this unit occupies, you may roll this unit after all spells are announced but before any are
    resolved. If the Dispel Magic icon comes up, immediately negate all unresolved magic that applies to the
    target(s). Only one dispel attempt is made per unit"."""
    cite = ruleset.sai_sections.get("dispel-magic", ruleset.cite("sai-resolution"))
    negated: list[Cast] = []
    for unit_id, faces in step.dispel:
        home = next((a for a in state.armies if a.unit(unit_id) is not None), None)
        if home is None:
            raise StepError(f"{unit_id} is not a unit in play", cite=cite, field="dispel")
        # who may roll: "Whenever any magic targets this unit, the army containing this unit and/or the terrain this
        # unit occupies, you may roll this unit" (002 Dispel Magic; 001 the same words; 004 Dispel Magic C: "Only
        # units bearing a dispel icon which are targeted by the unit-targeting spell may roll"): a spell aimed only
        # at another unit of the army lets it make no attempt (exam-magic3: ddref let any unit of the army roll)
        own = {home.id, home.at, unit_id}
        covered = {home.id, home.at, *(u.id for u in home.units)}
        # what one face negates: 002 "all unresolved magic that applies to the target(s)" and 004 C "targeted on
        # the army, its terrains, or its units": spells on the army's other units too (the worked example
        # sfr2012-sai-dispel-magic-conditional); 001: "all unresolved magic that targets or effects this unit, its
        # army or the terrain it occupies. Magic targeting other units, armies, or terrains is unaffected"
        aimed = [c for c in step.cast if c.target in (own if ruleset.dispel_spares_other_units else covered)]
        if not any(c.target in own for c in step.cast):
            rule, where = ruleset.words("dispel-magic:who", "Whenever any magic targets this unit, the army "
                                        "containing this unit and/or the terrain this unit occupies, you may roll "
                                        "this unit", cite)
            raise StepError(f"no spell targets {unit_id}, its army {home.id} or its terrain {home.at}: it makes no "
                            f"dispel attempt (Dispel Magic: \"{rule}\")", cite=where, field="dispel")
        spared = [c for c in step.cast if c.target in covered and c not in aimed]
        if len(faces) > 1:
            # one roll, one face: 002 "Only one dispel attempt is made per unit"; 004 Dispel Magic D: "Only one
            # Dispel attempt may be attempted per volley of magic. EXAMPLE: A Gargoyle is targeted by 3 Lightning
            # Strikes. It makes only one roll to dispel"
            rule, where = ruleset.words("dispel-magic:once", "only one dispel attempt is made per unit", cite)
            raise StepError(f"dispel.{unit_id} lists {len(faces)} faces ({', '.join(faces)}), but {rule[0].lower()}"
                            f"{rule[1:]}: give the one face its single roll showed", cite=where, field="dispel")
        if "dispel-magic" not in faces:
            rule, where = ruleset.words("dispel-magic:fails", "only one dispel attempt is made per unit; if it fails, "
                                        "the spells are resolved normally", cite)
            out.trace.append(TraceEvent(what=f"{unit_id} rolls for Dispel Magic: {', '.join(faces) or 'nothing'}: "
                                             "the spells resolve normally", rule=rule, cite=where))
            continue
        rule, where = ruleset.words("dispel-magic:negates", "negate all unresolved magic that applies to the unit, "
                                    "its army and its terrain", cite)
        for c in spared if "dispel-magic" in faces else ():
            rule2, where2 = ruleset.words("dispel-magic:spares", "magic targeting other units is unaffected", cite)
            out.trace.append(TraceEvent(what=f"{unit_id}'s Dispel Magic does not negate {c.spell.name} x{c.count} on "
                                             f"{c.target}, another unit of {home.id}", rule=rule2, cite=where2))
        for c in aimed:
            if c not in negated:
                negated.append(c)
                out.trace.append(TraceEvent(what=f"{unit_id} rolls Dispel Magic: {c.spell.name} x{c.count} on "
                                                 f"{c.target} is negated", before=c.count, after=0, rule=rule,
                                            cite=where))
                if c.target not in own and "dispel-magic:negates" not in ruleset.sai_words:
                    # 002's own words (the editions that word it otherwise say whether the army's units are in):
                    # "all unresolved magic that applies to the target(s)" read with the army's other units, each
                    # a component of the army (002 Glossary, Army)
                    out.trace.append(TraceEvent(
                        what=f"reading: {c.spell.name} on {c.target}, a unit of {home.id}, is magic that applies to "
                             f"the target army, so {unit_id}'s Dispel Magic negates it",
                        rule="Dispel Magic negates \"all unresolved magic that applies to the target(s)\"; an army "
                             "is \"All components belonging to the same player that are at the same location\"",
                        cite=cite, also=ruleset.cite("army-term"), kind="reading"))
                _summon_countered(state, c, ruleset, cite, out)
    return negated


def _summon_countered(state: GameState, c: Cast, ruleset: Ruleset, cite: str, out: StepResult) -> None:
    """A negated Summon Dragon sends no dragon: it stays where it was (tsr-1996, 004 Dispel Magic G: "When the
    dragon is first summoned, however, a Dispel Magic would have the effect of countering the Summon. The dragon
    is returned whence it came, whether a player's dead area or a terrain")."""
    effect = ruleset.spell_effects.get(c.spell.id)
    if effect is None or effect.kind != "summon-dragon":
        return
    dragon = next((d for d in state.dragons if d.id == c.dragon), None)
    origin = (f"{dragon.at}" if dragon is not None else f"{c.dragon.partition(':')[0]}'s {ruleset.dragons_wait}"
              if c.dragon else "where it waits")
    rule, where = ruleset.words("dispel-magic:summon", "immediately negate all unresolved magic that applies to the "
                                "target(s)", cite)
    out.trace.append(TraceEvent(what=f"{c.spell.name} is countered: {c.dragon or 'its dragon'} is not sent to "
                                     f"{c.target}, it is returned whence it came: {origin}", rule=rule, cite=where))


def _backlash(state: GameState, who: Army, e: Effect, cast: tuple[Cast, ...], ruleset: Ruleset,
              rolls: Rolls, casualties: dict[str, list[str]], out: StepResult) -> GameState:
    """002 Backlash: "after all spells are resolved, the army must save against an amount of damage equal
    to the combined casting costs of all spells cast"."""
    cite = ruleset.spell_sections.get(e.spell, ruleset.cite("spell-effect"))
    damage = sum(c.spell.cost * c.count for c in cast)
    out.trace.append(TraceEvent(what=f"{e.spell} on {e.target}: {who.id} cast {damage} points of spells and must "
                                     f"save against {damage} damage", after=damage, rule="after all spells are "
                                "resolved, the army saves against the combined casting costs", cite=cite))
    dice = rolls.take(who.id, f"saves against {e.spell}", cite)
    # a save roll against a spell: its Cantrip buys first, as in every other (spells ``save_roll_with_cantrip``)
    state, rolled, who = spells.save_roll_with_cantrip(state, ruleset, who, dice, rolls, out)
    saves = rolled.get("save", 0)
    left = max(0, damage - saves)
    out.trace.append(TraceEvent(what=f"{damage} damage - {saves} saves: {left} damage to {who.id}", before=damage,
                                after=left, rule="each save negates one point of damage", cite=cite))
    return take_damage(state, ruleset, who, left, casualties, out, e.spell, "magic", terrain=True)
