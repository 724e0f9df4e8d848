"""Turn a parsed scenario into engine values: the initial GameState and the steps.

Every problem is a located ``ScenarioError`` (file, line, field, what was
expected, a did-you-mean for names); as many as can be found are reported
together.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pydantic

from engine import pool
from engine.editions import RULESETS
from engine.names import slug, typed
from engine.roll import Roll
from engine.sais import SAI_USES
from engine.moves import haunt_army
from engine.state import RESERVE, RESULT_TYPES, Area, Army, Dragon, Effect, GameState, Pool, Terrain, Unit
from engine.magic import COLOR_ALIASES, COLORS
from engine.steps import Cast, MagicStep, ManeuverStep, MeleeStep, MissileStep, RollStep, SpellCard, Step, TurnStep
from engine.value import Struct
from index.corpus import records
from index.lookup import NotFound, find

from . import exchanges, limits, sai_steps, turn_steps
from .rolls import face_icon as _icon, faces as _faces, roll as _roll
from .fields import (army_ref as _army_ref, casualties as _casualties, choices as _choices, in_pool as _in_pool,
                     rolls_by_army as _rolls_by_army, sai_targets as _sai_targets, owner_split as _split,
                     unit_rolls as _unit_rolls, units_named as _units_named, formed_in_play)
from .reader import Builder as _Builder
from .model import STEP_KINDS, ScenarioIn, UnitIn, step_model
from .source import Locator, ScenarioErrors, did_you_mean, pydantic_errors, show_value

# 002 Monsters > Group Monsters: "Coral Elf Sprite Swarm, Goblin Harpies, Swamp Stalker Mudmen,
# Frostwing Wolf Pack, Scalding Web Birds and Scalding Will o' Wisps"
GROUP_MONSTERS = {"sprite-swarm", "harpies", "mudmen", "wolf-pack", "web-birds", "will-o-wisps"}
# 002 SAI General Information: "Each single SAI on a rare magic item counts as three points of effect. Each single
# SAI on a monster, artifact or medallion counts as four points of effect" (monsters: every icon counts four)
# tsr-1996's catalog holds the two monsters 004 rules on by name without a race (004 Monsters > Sprite Swarm: "The ID
# icon of the Sprite Swarm counts as four points of effect and the die is rerolled"; Dispel Magic B: "A Gargoyle is
# targeted by a Lightning Strike"): neither 000 nor 004 says whose they are. A reading: a scenario's Sprite Swarm and
# Gargoyle are of the race 002's Icons of Each Race gives them ("Coral Elf Sprite Swarm", 002 Group Monsters; the
# Gargoyle in the Dwarf icons), 004 Monsters D giving "Each monster ... the special racial abilities of its race";
# another race is refused, as a unit that edition's catalog does not hold
EDITION_MONSTER_RACES = {"tsr-1996": {"sprite-swarm": "coral-elf", "gargoyle": "dwarf"}}
SAI_POINTS = {("item", "rare"): 3, ("artifact", "artifact"): 4, ("medallion", "medallion"): 4}
# 002 SAI General Information: "The exception is the Double Strike SAI on the Tiger-Folk unit (Feral rare heavy
# troop): this single SAI counts as four points of effect"; 002 SAI List: "The Feral Tiger-folk unit's Double Strike
# icon generates four melee results" (a six-sided unit's one SAI, counted four, as a monster's)
UNIT_SAI_POINTS = {("feral", "tiger-folk"): 4}


class PlannedStep(Struct):
    index: int                      # 1-based, as reported
    kind: str
    step: Step | None               # None when the step could not be built (errors reported)
    expect: dict[str, Any] | None
    expect_error: str | None
    path: tuple


class Scenario(Struct):
    file: str
    spec: ScenarioIn
    state: GameState
    steps: list[PlannedStep]
    locator: Locator
    written_edition: str | None = None      # the file's own edition when --edition built it under another


def build(data: Any, locator: Locator, file: str) -> Scenario:
    if not isinstance(data, dict):
        raise ScenarioErrors([locator.error((), "a scenario file is a mapping (ddref: 1, title: ..., steps: ...)")])
    try:
        spec = ScenarioIn.model_validate(data)
    except pydantic.ValidationError as exc:
        raise ScenarioErrors(pydantic_errors(exc, locator, model=ScenarioIn)) from None
    too_big = limits.problems(spec)
    if too_big:
        raise ScenarioErrors([locator.error(path, message) for path, message in too_big])
    b = _Builder(file=file, locator=locator, edition=spec.edition)
    state = _state(b, spec)
    b.units_of = _units_of(state)
    steps, seen = [], state
    for i, raw in enumerate(spec.steps):
        steps.append(_step(b, spec, seen, i, raw))
        seen = turn_steps.formed(seen, steps[-1].step)
    if b.errors:
        raise ScenarioErrors(b.errors)
    return Scenario(file=file, spec=spec, state=state, steps=steps, locator=locator)


# --- the initial state ---------------------------------------------------------------------


def _units_of(state: GameState) -> dict[str, frozenset]:
    """Each player's unit ids in ``state``, wherever they are (``_Builder.units_of``)."""
    out: dict[str, set] = {}
    for player, units in [*((a.player, a.units) for a in state.armies),
                          *((area.player, area.units) for area in (*state.dua, *state.bua, *state.summoning_pool))]:
        out.setdefault(player, set()).update(u.id for u in units)
    return {p: frozenset(ids) for p, ids in out.items()}


def _state(b: _Builder, spec: ScenarioIn) -> GameState:
    players = tuple(spec.players)
    for pid in set(p for p in players if players.count(p) > 1):
        b.fail(("players",), f"player {typed(pid)} is listed twice")
    turn = spec.turn.player if spec.turn else players[0]
    if turn not in players:
        b.fail(("turn", "player"), f"unknown player {typed(turn)}{did_you_mean(turn, players)}")
    terrains = tuple(_terrain(b, spec, tid, t) for tid, t in spec.terrains.items())
    armies = tuple(_army(b, spec, aid, a) for aid, a in spec.armies.items())
    dua, bua = _areas(b, spec, "dua"), _areas(b, spec, "bua")
    pools = tuple(_pool(b, spec, player, items) for player, items in spec.summoning_pool.items())
    state = GameState(edition=spec.edition, players=players, turn_player=turn, terrains=terrains, armies=armies,
                      effects=tuple(_effect(b, spec, i, e, armies) for i, e in enumerate(spec.effects)),
                      dua=dua, bua=bua,
                      dragons=tuple(_dragon(b, spec, i, d) for i, d in enumerate(spec.dragons)),
                      summoning_pool=pools)
    _check_ids(b, spec, state)
    _check_names(b, spec)
    _check_control(b, spec, state)
    _check_one_army_a_place(b, state)
    state = _routing(b, spec, state)
    return turn_steps.marches(b, spec, state)


def _routing(b: _Builder, spec: ScenarioIn, state: GameState) -> GameState:
    """The optional routing rule (000 Option: Routing), only in an edition that has it."""
    if not spec.routing:
        return state
    if spec.edition in RULESETS and "routing" not in RULESETS[spec.edition].cites:
        b.fail(("routing",), f"the {spec.edition} rules have no routing option (tsr-1996's 000 has one)")
    return state.evolve(routing=True)



def _terrain(b: _Builder, spec: ScenarioIn, tid: str, t) -> Terrain:
    path = ("terrains", tid)
    kinds = {r.id: r for r in records("terrain") if r.edition in (spec.edition, "sfr-2012") and r.kind == "major"}
    rec = kinds.get(slug(t.type))
    if rec is None:
        b.fail((*path, "type"), f"unknown terrain type {typed(t.type)}{did_you_mean(t.type, kinds)}")
    if t.home_of and t.home_of not in spec.players:
        b.fail((*path, "home_of"), f"unknown player {typed(t.home_of)}{did_you_mean(t.home_of, spec.players)}")
    if t.face == 8 and not t.controlled_by:
        b.fail((*path, "controlled_by"), "a terrain at face 8 is controlled by an army: name it in controlled_by")
    if t.controlled_by and t.face != 8:
        b.fail((*path, "controlled_by"), f"only a terrain at its eighth face is controlled (face is {t.face})")
    if t.special == "castle" and t.face == 8 and not t.eighth:
        b.fail((*path, "eighth"), "a Castle at its eighth face is the basic type its captor declared: give eighth")
    return Terrain(id=tid, type=rec.id if rec else slug(t.type), colors=rec.colors if rec else (), face=t.face,
                   action=t.action, eighth=t.eighth, controlled_by=t.controlled_by, home_of=t.home_of,
                   frontier=t.frontier, special=t.special)


def _army(b: _Builder, spec: ScenarioIn, aid: str, a) -> Army:
    path = ("armies", aid)
    if a.player not in spec.players:
        b.fail((*path, "player"), f"unknown player {typed(a.player)}{did_you_mean(a.player, spec.players)}")
    if a.at != RESERVE and a.at not in spec.terrains:
        b.fail((*path, "at"), f"unknown terrain {typed(a.at)} (expected a terrain id or 'reserve')"
                              f"{did_you_mean(a.at, [*spec.terrains, RESERVE])}")
    return Army(id=aid, player=a.player, at=a.at, units=_units(b, aid, a.units, (*path, "units")))


def _units(b: _Builder, owner: str, items: list, path: tuple) -> tuple[Unit, ...]:
    out: list[Unit] = []
    for i, item in enumerate(items):
        spec = UnitIn(name=item) if isinstance(item, str) else item
        # one entry is read (and its errors reported) once, whatever its count: the counted units are the same die
        # under their default ids; an entry with an id stands for one unit (its count refused once by _unit)
        unit = _unit(b, spec, f"{owner}.{len(out) + 1}", (*path, i))
        if unit is None:
            continue
        out.append(unit)
        for _ in range(spec.count - 1 if not spec.id else 0):
            out.append(unit.evolve(id=f"{owner}.{len(out) + 1}"))
    return tuple(out)


def _unit(b: _Builder, spec: UnitIn, default_id: str, path: tuple) -> Unit | None:
    uid = spec.id or default_id
    if spec.id and spec.count > 1:
        b.fail((*path, "id"), "a unit with an id stands for one unit: drop count or the id")
    race = None
    if spec.race:
        rec = b.name("race", spec.race, (*path, "race"))
        race = rec.id if rec else None
    if spec.name and slug(spec.name) == "kings-die" and not race:
        # 002 Kings' Die: "a 4-health unit ... The Kings' Die belongs to no particular race" (no catalog entry)
        return Unit(id=uid, race=None, health=4, name="Kings' Die")
    if spec.name:
        own = EDITION_MONSTER_RACES.get(b.edition, {}).get(slug(spec.name))
        race = own if own and race in (None, own) else race
        # the race-less record by its name alone, with the reading's race (EDITION_MONSTER_RACES)
        wanted = spec.name if own == race and own else f"{race} {spec.name}" if race else spec.name
        rec = b.name("unit", wanted, (*path, "name"), noun="unit",
                     written=f"{typed(spec.name)} of the {race} race" if race else repr(spec.name))
        if rec is None:
            return _stand_in(uid, race, spec)
        monster = rec.size == "monster"
        # 002 Artifacts: "follow all of the magical item rules", and "each icon counts as four points of effect";
        # Medallions: "4-point magical items"
        item = rec.unit_class in ("item", "artifact", "medallion")
        # a monster record's icons are those its text puts on the die (004's Gargoyle: Dispel Magic), not its whole
        # die: they do not limit what it rolls
        sais = () if monster else tuple(rec.icons)
        return Unit(id=uid, race=rec.race or race, health=rec.health, name=rec.name,
                    monster=monster or rec.size == "artifact",
                    group_monster=monster and slug(rec.name) in GROUP_MONSTERS, color=_color(b, spec, path),
                    item=item, sai_points=SAI_POINTS.get((rec.unit_class, rec.size))
                    or UNIT_SAI_POINTS.get((rec.race, slug(rec.name))),
                    sais=sais, die_cite=rec.source.section if sais else None)
    if spec.health is None:
        b.fail(path, "a unit needs a catalog name, or a race and a health")
        return _stand_in(uid, race, spec)
    # a generic 4-health unit is a monster (ten-sided) unless it says monster: false (a champion)
    monster = spec.monster if spec.monster is not None else spec.health == 4
    return Unit(id=uid, race=race, health=spec.health, monster=monster, color=_color(b, spec, path))


def _stand_in(uid: str, race: str | None, spec: UnitIn) -> Unit:
    """A unit whose name was not found, already reported: it stays in the army under its id so that the steps
    and effects naming it are read as written, one unknown name making one error (never a cascade of 'unit not
    in army' over valid entries); the scenario is refused with that error before anything is replayed."""
    return Unit(id=uid, race=race, health=spec.health or 1)


def magic_color(name: str) -> str:
    """A magic color as the scenario wrote it, sfr-v4's "yellow" read as gold (engine.magic.COLOR_ALIASES)."""
    return COLOR_ALIASES.get(name, name)


def _color(b: _Builder, spec: UnitIn, path: tuple) -> str | None:
    if spec.color is None or magic_color(slug(spec.color)) in COLORS:
        return None if spec.color is None else magic_color(slug(spec.color))
    b.fail((*path, "color"), f"unknown color {typed(spec.color)}; expected one of: {', '.join(COLORS)}"
                             f"{did_you_mean(spec.color, COLORS)}")
    return None


def _areas(b: _Builder, spec: ScenarioIn, kind: str) -> tuple[Area, ...]:
    out = []
    for player, items in getattr(spec, kind).items():
        if player not in spec.players:
            b.fail((kind, player), f"unknown player {typed(player)}{did_you_mean(player, spec.players)}")
        out.append(Area(player=player, units=_units(b, f"{kind}.{player}", items, (kind, player))))
    return tuple(out)


DRAGON_COLORS = ("black", "blue", "gold", "green", "red", "ivory", "white")
POOL_KINDS = ("dragon", pool.MINOR)     # a pool item's kinds besides a dragonkin die (engine.pool)


def _dragon(b: _Builder, spec: ScenarioIn, i: int, d) -> Dragon:
    path = ("dragons", i)
    color = slug(d.color)
    # hybrids are named by their two colors, e.g. "red-gold"
    if not all(c in DRAGON_COLORS for c in color.split("-")):
        b.fail((*path, "color"), f"unknown dragon color {typed(d.color)}; expected one of {', '.join(DRAGON_COLORS)} "
                                 f"or two of them for a hybrid{did_you_mean(d.color, DRAGON_COLORS)}")
    if d.at not in spec.terrains:
        b.fail((*path, "at"), f"unknown terrain {typed(d.at)}{did_you_mean(d.at, spec.terrains)}")
    if d.owner is not None and d.owner not in spec.players:
        b.fail((*path, "owner"), f"unknown player {typed(d.owner)}{did_you_mean(d.owner, spec.players)}")
    return Dragon(id=d.id, color=color, at=d.at, owner=d.owner, form=d.form, tamed_by=d.tamed_by)


def _kind_hint(kind: str) -> str:
    """The did-you-mean of a pool item's unknown kind: a close name, else one it begins (minor: minor-terrain)."""
    known = (*POOL_KINDS, "dragonkin")
    hint = did_you_mean(kind, known)
    begun = [k for k in known if k.startswith(slug(kind))] if slug(kind) else []
    return hint or (f"; did you mean: {', '.join(begun)}?" if begun else "")


def _pool(b: _Builder, spec: ScenarioIn, player: str, items: list[dict]) -> Pool:
    if player not in spec.players:
        b.fail(("summoning_pool", player), f"unknown player {typed(player)}{did_you_mean(player, spec.players)}")
    names, units = [], []
    for i, item in enumerate(items):
        if "dragonkin" in item:         # a dragonkin die: {dragonkin: Dragonscout, color: gold, id: ds1}
            extra = sorted(set(item) - {"dragonkin", "color", "id"})
            if extra:
                b.fail(("summoning_pool", player, i, extra[0]), f"a dragonkin in the pool takes dragonkin (its name), "
                       f"color and id, not {typed(extra[0])}{did_you_mean(str(extra[0]), ('dragonkin', 'color', 'id'))}")
                continue
            try:
                spec_unit = UnitIn(name=str(item["dragonkin"]), race="dragonkin", color=item.get("color"),
                                   id=item.get("id"))
            except pydantic.ValidationError as exc:     # color or id of the wrong type: located, as the models' own
                b.errors.extend(pydantic_errors(exc, b.locator, prefix=("summoning_pool", player, i), model=UnitIn))
                continue
            errors = len(b.errors)
            unit = _unit(b, spec_unit, f"{player}.pool.{len(units) + 1}", ("summoning_pool", player, i))
            if unit is not None and unit.color is None and len(b.errors) == errors:     # one error per mistake
                b.fail(("summoning_pool", player, i), "a dragonkin comes in a color: give color")
            if unit is not None:
                units.append(unit)
            continue
        for kind, value in item.items():
            name = f"{slug(str(kind))}:{slug(str(value))}"
            if slug(str(kind)) not in POOL_KINDS:
                # a misspelt field was read as an item of an unknown kind, which nothing ever summons: located here
                # (file, line, field), not left to make a Summon Dragon find no dragon later
                b.fail(("summoning_pool", player, i, kind), f"a summoning pool item is one of {{dragon: <colors>}}, "
                       f"{{minor-terrain: <type>}} or {{dragonkin: <name>, color: <color>}}; not {typed(kind)}"
                       f"{_kind_hint(str(kind))}")
                continue
            majors = sorted(r.id for r in records("terrain") if r.edition == "sfr-2012" and r.kind == "major")
            if slug(str(kind)) == pool.MINOR and slug(str(value)) not in majors:
                b.fail(("summoning_pool", player, i, kind), f"a minor terrain is written by the major terrain type it "
                       f"matches: one of {', '.join(majors)}{did_you_mean(str(value), majors)}")
            dragon = pool.parse(name)
            if dragon is not None and not (dragon[0] and all(c in DRAGON_COLORS for c in dragon[0])):
                wrong = next((c for c in dragon[0] if c not in DRAGON_COLORS), str(value))
                b.fail(("summoning_pool", player, i, kind), f"a dragon is written <colors>[-drake|-wyrm], as "
                       f"red-wyrm, red-gold or ivory; {typed(value)} names no color of {', '.join(DRAGON_COLORS)}"
                       f"{did_you_mean(wrong, (*DRAGON_COLORS, *pool.FORMS))}")
            names.append(name)
    return Pool(player=player, items=tuple(names), units=tuple(units))


def _check_ids(b: _Builder, spec: ScenarioIn, state: GameState) -> None:
    """One id names one thing in a file (the format's Names and ids): terrains, armies, every unit wherever it is
    (an army, a DUA, a BUA, a summoning pool: a unit is in one place only) and dragons share one name space, as
    steps and effects find any of them by id (a dragon id used twice passed `ddref check`, then crashed the
    slaying code looking the dragon up)."""
    seen: dict[str, str] = {}

    def claim(uid: str, what: str, path: tuple) -> None:
        if uid in seen:
            b.fail(path, f"id {typed(uid)} is used twice ({what}, and already {seen[uid]}); ids are unique in a file, "
                         "across terrains, armies, units (in armies, DUA, BUA and summoning pools) and dragons")
        else:
            seen[uid] = what

    for tid in spec.terrains:
        claim(tid, "a terrain", ("terrains", tid))
    for army in state.armies:
        claim(army.id, "an army", ("armies", army.id))
        for unit in army.units:
            claim(unit.id, f"a unit of army {army.id}", ("armies", army.id, "units"))
    for kind, label, areas in (("dua", "DUA", state.dua), ("bua", "BUA", state.bua),
                               ("summoning_pool", "summoning pool", state.summoning_pool)):
        for area in areas:
            for unit in area.units:
                claim(unit.id, f"a unit in the {label} of {area.player}", (kind, area.player))
    for i, dragon in enumerate(state.dragons):
        claim(dragon.id, "a dragon", ("dragons", i, "id"))


# Letters that draw nothing although their category is a letter (Hangul fillers, the braille blank): a name
# holding one looks like another name
_BLANK_LETTERS = frozenset("\u115f\u1160\u3164\uffa0\u2800")


def hidden_character(name: str) -> str | None:
    """The first character of ``name`` a reader cannot see or that reorders what is seen, described (``U+200B
    ZERO WIDTH SPACE``), or None: controls and format characters (bidi overrides and isolates, zero-width
    spaces and joiners, the byte order mark), line and paragraph separators, spaces other than the plain space,
    unassigned and private-use code points and blank letters. Two players, armies or units whose names look the
    same on the table but differ by such a character would be two names a judge cannot tell apart, and a right-to-
    left override shows a name reversed in every message and trace."""
    import unicodedata

    for char in name:
        category = unicodedata.category(char)
        if (category in ("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp") or (category == "Zs" and char != " ")
                or char in _BLANK_LETTERS):
            name = unicodedata.name(char, None) or ("a control character" if category == "Cc" else "no named character")
            return f"U+{ord(char):04X} ({name})" if category == "Cc" else f"U+{ord(char):04X} {name}"
    return None


def _check_names(b: _Builder, spec: ScenarioIn) -> None:
    """Refuse names of players, terrains, armies, units and dragons holding a character that cannot be seen or that
    reorders the text (``hidden_character``): each error names the field and the character."""

    def check(name: object, path: tuple, what: str, at_key: bool = False) -> None:
        if not isinstance(name, str) or (found := hidden_character(name)) is None:
            return
        message = (f"the {what} {typed(name)} holds {found}, which cannot be seen or reorders the text; expected "
                   "visible characters only (letters, digits, punctuation, plain spaces)")
        if at_key:
            b.errors.append(b.locator.error(path, message, at_key=True))
        else:
            b.fail(path, message)

    for i, player in enumerate(spec.players):
        check(player, ("players", i), "player name")
    if spec.turn:
        check(spec.turn.player, ("turn", "player"), "player name")
    for tid in spec.terrains:
        check(tid, ("terrains", tid), "terrain id", at_key=True)
    for aid, army in spec.armies.items():
        check(aid, ("armies", aid), "army id", at_key=True)
        if army.player not in spec.players:     # else said once, where the players are listed
            check(army.player, ("armies", aid, "player"), "player name")
        _check_unit_names(check, army.units, ("armies", aid, "units"))
    for kind in ("dua", "bua"):
        for player, items in getattr(spec, kind).items():
            check(player, (kind, player), "player name", at_key=True)
            _check_unit_names(check, items, (kind, player))
    for i, dragon in enumerate(spec.dragons):
        check(dragon.id, ("dragons", i, "id"), "dragon id")


def _check_unit_names(check: Callable, items: list, path: tuple) -> None:
    for i, item in enumerate(items):
        if isinstance(item, str):
            check(item, (*path, i), "unit name")
        else:
            check(item.id, (*path, i, "id"), "unit id")
            check(item.name, (*path, i, "name"), "unit name")


def _effect(b: _Builder, spec: ScenarioIn, i: int, e, armies: tuple[Army, ...]) -> Effect:
    path = ("effects", i)
    if (e.spell is None) == (e.sai is None):
        b.fail(path, "an effect names a spell, or an SAI whose effect lasts (sai: illusion): one of the two")
        return Effect(spell="", target=e.target, by=e.by)
    breaths = RULESETS[spec.edition].breath_effects if spec.edition in RULESETS else {}
    if e.spell is not None and slug(e.spell) in breaths:     # a dragon breath's lasting effect
        rec = None
    elif e.sai is not None:
        rec = b.name("sai", e.sai, (*path, "sai"))
        lasting = _lasting(spec)
        if rec is not None and rec.id not in lasting:
            b.fail((*path, "sai"), f"{rec.name} leaves no effect in play that this version models "
                                   f"(those that do: {', '.join(lasting) or 'none'})")
    elif (known := _sai_named(spec, e.spell)) is not None:
        rec = known if known.id in _lasting(spec) else None
        if rec is not None:
            # an SAI's lasting effect written as ``spell:`` (docs/scenario-format.md, effect: ``sai: illusion``
            # instead of ``spell:``): a name no spell of the edition bears and an SAI whose effect lasts is that SAI
            e = e.model_copy(update={"sai": e.spell, "spell": None})
        else:
            b.fail((*path, "spell"), f"{known.name} is an SAI, not a spell, and it leaves no effect in play that this "
                                     "version models (`sai:` names an SAI whose effect lasts: "
                                     + ", ".join(_lasting(spec)) + ")")
    else:
        rec = b.name("spell", e.spell, (*path, "spell"))
        if rec is None and "did you mean" not in str(b.errors[-1]) and (close := did_you_mean(e.spell,
                                                                                               _lasting(spec))):
            b.errors[-1] = b.locator.error((*path, "spell"), f"unknown spell named {typed(e.spell)} in {spec.edition}"
                                           f"{close} (an SAI whose effect lasts: write `sai:` or `spell:` with its "
                                           "name)")
    targets = [*spec.terrains, *(a.id for a in armies), *(u.id for a in armies for u in a.units), *spec.players,
               *(d.id for d in spec.dragons)]
    if e.target not in targets:
        b.fail((*path, "target"), f"unknown target {typed(e.target)} (a terrain, army or unit id, or a player for "
                                  "their DUA or all their armies)"
                                  f"{did_you_mean(e.target, targets)}")
    if e.by not in spec.players:
        b.fail((*path, "by"), f"unknown player {typed(e.by)}{did_you_mean(e.by, spec.players)}")
    elif e.spell is not None and rec is not None and e.target in targets:
        _effect_target(b, spec, path, rec, e, armies)
    elif e.sai is not None and rec is not None and e.target in targets:
        _unit_state_target(b, path, rec, e, armies)
    if e.source is not None and e.source not in targets:
        b.fail((*path, "source"), f"unknown unit {typed(e.source)}{did_you_mean(e.source, targets)}")
    return Effect(spell=rec.id if rec else slug(e.spell or e.sai), target=e.target, by=e.by, count=e.count,
                  next_turn=e.next_turn, source=e.source)


def _lasting(spec: ScenarioIn) -> dict:
    return RULESETS[spec.edition].effect_sais if spec.edition in RULESETS else {}


def _sai_named(spec: ScenarioIn, name: str):
    """The SAI of the edition named ``name`` when no spell bears it, else None."""
    try:
        find("spell", name, spec.edition)
        return None
    except NotFound:
        pass
    try:
        return find("sai", name, spec.edition)[0]
    except NotFound:
        return None


def _unit_state_target(b: _Builder, path: tuple, rec, e, armies: tuple[Army, ...]) -> None:
    """An SAI whose lasting effect is on units (Entangle, Web, Net, Sleep, Stun: 004 Entangle, "four health of your
    choice of units in the opposing army are paralyzed"; 002 "the target unit") is in play on units, one effect per
    unit: written on an army or a terrain it would hold nobody, so it is refused, naming the units to write instead
    (004 Entangle B, "If an entire army is paralyzed": one effect on each of its units)."""
    if not any(u.special == "unit-state" for u in SAI_USES.get(rec.id, {}).values()):
        return
    if any(u.id == e.target for a in armies for u in a.units):
        return
    army = next((a for a in armies if a.id == e.target), None)
    units = f": one effect per unit of {army.id} ({', '.join(u.id for u in army.units)})" if army else ""
    b.fail((*path, "target"), f"{rec.name} holds units, not {typed(e.target)}: its target is a unit id{units}")


def _effect_target(b: _Builder, spec: ScenarioIn, path: tuple, rec, e, armies: tuple[Army, ...]) -> None:
    """A spell in play is on a target of the kind it may be cast on (002 Spell Attributes > Target): a terrain
    spell on a terrain, an army spell on an army (its caster's own or an enemy's, as the spell says), a unit
    spell on a unit, a DUA spell on a player's DUA; a spell at the wrong kind of target is refused, naming the
    rule."""
    kind = rec.target or ""
    owner = {a.id: a.player for a in armies}
    units = {u.id: (a.player, u) for a in armies for u in a.units}
    side = "own" if kind.startswith("own") else "enemy" if kind.startswith("enemy") else None
    if kind == "terrain":
        found, whose = e.target in spec.terrains, None
    elif kind in ("army", "own-army", "enemy-army"):
        found, whose = e.target in owner, owner.get(e.target)
    elif kind in ("unit", "own-unit", "enemy-unit"):
        found, whose = e.target in units and not units[e.target][1].item, units.get(e.target, (None,))[0]
    elif kind in ("own-item", "enemy-item"):
        found, whose = e.target in units and units[e.target][1].item, units.get(e.target, (None,))[0]
    elif kind in ("dua", "own-dua", "enemy-dua", "own-armies"):
        found, whose = e.target in spec.players, e.target
    else:
        return                  # a spell, a dragon, the summoning pool: checked where the engine reads them
    if found and side is not None and whose is not None and (whose == e.by) != (side == "own"):
        found = False
    if not found:
        cite = RULESETS[spec.edition].cites.get("spell-target", "") if spec.edition in RULESETS else ""
        what = kind.replace("-", " ") + ("" if kind != "own-armies" else " (named by the caster)")
        b.fail((*path, "target"), f"{rec.name} targets {what}"
                                  + (" (a DUA is named by its player)" if kind.endswith("dua") else "")
                                  + f", and {typed(e.target)} is not one for a spell cast by {e.by}"
                                  + (f" [{cite}]" if cite else ""))


def _check_control(b: _Builder, spec: ScenarioIn, state: GameState) -> None:
    for t in state.terrains:
        if t.controlled_by is None:
            continue
        if not state.has_army(t.controlled_by):
            b.fail(("terrains", t.id, "controlled_by"), f"unknown army {typed(t.controlled_by)}"
                                                        f"{did_you_mean(t.controlled_by, spec.armies)}")
        elif state.army(t.controlled_by).at != t.id:
            b.fail(("terrains", t.id, "controlled_by"), f"{t.controlled_by} is not at {t.id}")


def _check_one_army_a_place(b: _Builder, state: GameState) -> None:
    """All of a player's units at one place are one army: 002 Glossary, Army ("All components belonging to the
    same player that are at the same location"), 001 Armies ("at a terrain or in reserves"), 000 Basic Terms, Army
    ("All of your units at a single terrain") and 000 Reserves ("Your reserve army"). Two armies of one player at
    one place are refused, not merged: steps name armies, and a merge would change what they name."""
    rules = RULESETS.get(state.edition)
    if rules is None:
        return                  # an unknown edition is refused where the edition is read
    first: dict[tuple[str, str], str] = {}
    for army in state.armies:
        key = (army.player, army.at)
        if key not in first:
            first[key] = army.id
            continue
        rule = "reserve-army" if army.at == RESERVE and "reserve-army" in rules.cites else "army-term"
        words = rules.quote(rule, "All components belonging to the same player that are at the same location")
        why = f": \"{words}\" [{rules.cite(rule)}]"
        place = "the reserve area" if army.at == RESERVE else army.at
        b.fail(("armies", army.id, "at"),
               f"{army.player} already has army {first[key]} at {place}; all of a player's units at one place are one "
               f"army{why} (give {army.id}'s units to {first[key]}, or put {army.id} at another place)")


# --- steps ------------------------------------------------------------------------------------


def _step(b: _Builder, spec: ScenarioIn, state: GameState, i: int, raw: dict) -> PlannedStep:
    path = ("steps", i)
    if not isinstance(raw, dict):
        b.fail(path, f"a step is a mapping with one kind key ({', '.join(STEP_KINDS)})")
        return PlannedStep(i + 1, "?", None, None, None, path)
    kinds = [k for k in raw if k not in ("expect", "expect_error")]
    expect, expect_error = raw.get("expect"), raw.get("expect_error")
    if expect is not None and not isinstance(expect, dict):
        b.fail((*path, "expect"), "expect is a mapping of dotted paths to values")
        expect = None
    if expect_error is not None and not isinstance(expect_error, str):
        b.fail((*path, "expect_error"), "expect_error is the words the rejection must contain, as a string; "
                                        f"got {show_value(expect_error)}")
        expect_error = None
    if len(kinds) != 1:
        b.fail(path, f"a step has exactly one kind key, found {kinds or 'none'}; "
                     f"expected one of: {', '.join(STEP_KINDS)}")
        return PlannedStep(i + 1, "?", None, expect, expect_error, path)
    kind = kinds[0]
    planned = PlannedStep(i + 1, kind, None, expect, expect_error, (*path, kind))
    if kind not in STEP_KINDS:
        b.fail((*path, kind), f"unknown step kind {typed(kind)}{did_you_mean(kind, list(STEP_KINDS))}")
        return planned
    try:
        # a kind key with nothing after it (``- reserves:``) is null: the step with all its defaults, as the JSON
        # Schema says (ddref.scenario.schema); any other value that is not a mapping is an error, as there
        model = step_model(kind).model_validate({} if raw[kind] is None else raw[kind])
    except pydantic.ValidationError as exc:
        b.errors.extend(_with_step_fields(pydantic_errors(exc, b.locator, prefix=(*path, kind), model=step_model(kind)),
                                          kind, (*path, kind)))
        return planned
    planned.step = _STEP_BUILDERS[kind](b, state, model, (*path, kind))
    if planned.step is not None:
        planned.step = exchanges.undead_choices(b, state, model, planned.step, (*path, kind))
    return planned


def _with_step_fields(errors: list, kind: str, path: tuple) -> list:
    """An unknown field of a step itself lists the fields that step kind has, after its did-you-mean: a user who
    wrote ``counter:`` on a missile step, or a field of another kind, sees what this kind can say."""
    from .source import ScenarioError, format_path

    where = format_path(path) + "."
    fields = ", ".join(sorted((f.alias or name) for name, f in step_model(kind).model_fields.items()))
    out = []
    for err in errors:
        if err.message.startswith("unknown field") and err.path.startswith(where) and "." not in \
                err.path[len(where):] and "[" not in err.path[len(where):]:
            head, hint = (err.message.split("; did you mean", 1) + [""])[:2]
            hint = f"; did you mean{hint}" if hint else ""
            err = ScenarioError(f"{head} (a {kind.replace('_', ' ')} step has: {fields}){hint}", file=err.file,
                                line=err.line, column=err.column, path=err.path)
        out.append(err)
    return out


def _results(b: _Builder, value: str | list[str], path: tuple) -> tuple[str, ...]:
    wanted = tuple([value] if isinstance(value, str) else value)
    for t in wanted:
        if t not in RESULT_TYPES:
            b.fail(path, f"unknown result type {typed(t)}; expected one of: {', '.join(RESULT_TYPES)}"
                         f"{did_you_mean(t, RESULT_TYPES)}")
    if not wanted:
        b.fail(path, "roll for at least one result type")
    return wanted


def _roll_step(b: _Builder, state: GameState, m, path: tuple) -> Step | None:
    army = _army_ref(b, state, m.army, (*path, "army"))
    wanted = _results(b, m.for_, (*path, "for"))
    roll = _roll(b, army, m.roll, (*path, "roll"))
    choices = _choices(b, m, wanted, path) + _doubles(b, m, path)
    for t, by_race in (m.penalties_by_race or {}).items():
        where = (*path, "penalties_by_race", t)
        if t not in RESULT_TYPES:
            b.fail(where, f"unknown result type {typed(t)}; expected one of: {', '.join(RESULT_TYPES)}"
                          f"{did_you_mean(t, RESULT_TYPES)}")
            continue
        choices += ((f"penalties_by_race:{t}", tuple(_by_race(b, army, by_race, where).items())),)
    return RollStep(army=m.army, wanted=wanted, roll=roll, choices=choices, avoidance=m.avoidance,
                    targets=_sai_targets(b, state, getattr(m, "targets", None), path),
                    move_to=sai_steps.move_to(b, state, getattr(m, "move_to", None), (*path, "move_to")),
                    unit_saves=_unit_rolls(b, state, getattr(m, "unit_saves", None), (*path, "unit_saves")),
                    move_dragons=tuple((getattr(m, "move_dragons", None) or {}).items())) \
        if army else None


def _by_race(b: _Builder, army: Army | None, value: dict[str, int], path: tuple) -> dict[str, int]:
    """{race name: n}, each a race of the edition; whether the army has units of it (that rolled) is checked
    when the roll is made (engine.roll._owner_split), so expect_error can pin it."""
    out = {}
    for name, n in value.items():
        rec = b.name("race", name, (*path, name))
        if rec is None or army is None:
            continue
        if n < 0:
            b.fail((*path, name), f"expected a whole number of results >= 0, got {n}")
        else:
            out[rec.id] = n
    return out


def _maneuver_step(b: _Builder, state: GameState, m, path: tuple) -> Step | None:
    army = _army_ref(b, state, m.army, (*path, "army"))
    counter = _rolls_by_army(b, state, m.counter, (*path, "counter"))
    roll = _roll(b, army, m.roll, (*path, "roll")) if m.roll is not None else None
    avoidance = _roll(b, army, m.avoidance, (*path, "avoidance")) if m.avoidance is not None else None
    kind = getattr(m, "minor_terrain", None)
    majors = sorted(r.id for r in records("terrain") if r.edition == "sfr-2012" and r.kind == "major")
    if kind is not None and slug(kind) not in majors:
        b.fail((*path, "minor_terrain"), f"a minor terrain is named by the major terrain type it matches: one of "
                                         f"{', '.join(majors)}{did_you_mean(kind, majors)}")
    return ManeuverStep(army=m.army, direction=m.direction, roll=roll, counter=counter, avoidance=avoidance,
                        cantrip=_maneuver_cantrip(b, state, m, path),
                        casualties=_casualties(b, state, m.casualties, (*path, "casualties")),
                        burial=_unit_rolls(b, state, m.burial, (*path, "burial")),
                        minor_terrain=None if kind is None else slug(kind),
                        castle=getattr(m, "castle", None),
                        action=getattr(m, "action", None),
                        targets=_sai_targets(b, state, m.targets, path),
                        move_to=sai_steps.move_to(b, state, m.move_to, (*path, "move_to")),
                        ashes=_unit_rolls(b, state, m.ashes, (*path, "ashes"))) if army else None


def _saves(b: _Builder, state: GameState, saves: dict | None, target: str, path: tuple) -> Roll | None:
    """The save roll of the army that rolls saves here; an entry for another army is a name error if no such
    army exists, else a rule the engine checks when the step resolves (``_other_savers``)."""
    if not saves:
        return None
    for aid in saves:
        if aid != target:
            _army_ref(b, state, aid, (*path, aid))
    if target not in saves:
        return None
    return _roll(b, state.army(target) if state.has_army(target) else None, saves[target], (*path, target))


def _other_savers(m, target: str, army: str) -> tuple:
    """(field, army) for each army a ``saves`` or ``counter_saves`` entry names besides the one rolling there."""
    return tuple((f, aid) for f, rolls in (("saves", target), ("counter_saves", army))
                 for aid in (getattr(m, f, None) or {}) if aid != rolls)


def _targets(b: _Builder, state: GameState, m, path: tuple) -> dict:
    """``targets``, ``unit_saves`` and ``order``: where targeted SAIs go, the targets' own rolls, and the
    order of the attack's special SAIs."""
    order = _order(b, m.order, (*path, "order"))
    return {"targets": _sai_targets(b, state, m.targets, path), "unit_saves": _unit_rolls(b, state, m.unit_saves, (*path, "unit_saves")),
            "cantrip": _cantrip(b, state, m.cantrip, (*path, "cantrip")),
            "burial": _unit_rolls(b, state, m.burial, (*path, "burial")), "order": order,
            "move_dragons": tuple((getattr(m, "move_dragons", None) or {}).items()),
            "ashes": _unit_rolls(b, state, m.ashes, (*path, "ashes")),
            "move_to": sai_steps.move_to(b, state, m.move_to, (*path, "move_to")),
            "penalties": _penalties(b, state, getattr(m, "penalties", None), (m.army, m.target), (*path, "penalties")),
            "doubles": _doubles(b, m, path)}


def _doubles(b: _Builder, m, path: tuple) -> tuple:
    """``doubles``: unit id -> the result a spell lets that component double (Wilding), as choices pairs
    ("doubles:<result>", ((unit, 1),)); which units may is checked when the roll is made (engine.roll)."""
    out: dict[str, tuple] = {}
    for unit, result in (getattr(m, "doubles", None) or {}).items():
        if result not in RESULT_TYPES:
            b.fail((*path, "doubles", unit), f"unknown result type {typed(result)}; expected one of: "
                                            f"{', '.join(RESULT_TYPES)}{did_you_mean(result, RESULT_TYPES)}")
        elif not any(unit in ids for ids in b.units_of.values()):
            b.fail((*path, "doubles", unit), f"unknown unit {typed(unit)}: no army holds it")
        else:
            out[f"doubles:{result}"] = (*out.get(f"doubles:{result}", ()), (unit, 1))
    return tuple(out.items())


def _penalties(b: _Builder, state: GameState, raw: dict | None, armies: tuple[str, ...], path: tuple) -> tuple:
    """``penalties``: army id (one of the step's) -> {result type: n}, the owner's split of "one result" penalties
    over that army's combination roll; whether the roll is for those results is checked when the step resolves."""
    out = []
    for army_id, split in (raw or {}).items():
        if army_id not in armies:
            b.fail((*path, army_id), f"penalties are given for the armies that roll in this step "
                                     f"({', '.join(armies)}), not {typed(army_id)}{did_you_mean(army_id, list(armies))}")
            continue
        for t, n in split.items():
            if t not in RESULT_TYPES:
                b.fail((*path, army_id, t), f"unknown result type {typed(t)}; expected one of: {', '.join(RESULT_TYPES)}"
                                            f"{did_you_mean(t, RESULT_TYPES)}")
            elif n < 0:
                b.fail((*path, army_id, t), f"expected a whole number of {t} (>= 0), got {n}")
        out.append((army_id, tuple(split.items())))
    return tuple(out)


def _order(b: _Builder, names: list[str] | None, path: tuple) -> tuple[str, ...]:
    """An order of special SAIs, each name checked (did-you-mean)."""
    return tuple(i for n, name in enumerate(names or ()) if (i := _icon(b, name, (*path, n))))


def _melee_step(b: _Builder, state: GameState, m, path: tuple) -> Step | None:
    army = _army_ref(b, state, m.army, (*path, "army"))
    target = _army_ref(b, state, m.target, (*path, "target"))
    if army is None or target is None:
        return None
    counter = _roll(b, target, m.counter, (*path, "counter")) if m.counter not in (None, False) else None
    if m.rerolls and not m.charge:
        b.fail((*path, "rerolls"), "only a charge (charge: true) reads rerolls: the new roll of a unit freed (or "
                                   "brought by a Regenerate or Ferry) into the charging roll that the charged army's "
                                   "Confuse picks")
    return MeleeStep(army=m.army, target=m.target, roll=_roll(b, army, m.roll, (*path, "roll")),
                     saves=_saves(b, state, m.saves, m.target, (*path, "saves")), counter=counter,
                     counter_saves=_saves(b, state, m.counter_saves, m.army, (*path, "counter_saves")),
                     casualties=_casualties(b, state, m.casualties, (*path, "casualties")),
                     rise=None if m.rise is None else tuple(m.rise), charge=m.charge,
                     pursue=m.pursue, **_targets(b, state, m, path),
                     counter_order=_order(b, m.counter_order, (*path, "counter_order")),
                     unit_ids=tuple((u, _split(b, ids, ("save", "melee"), (*path, "unit_ids", u)))
                                    for u, ids in (m.unit_ids or {}).items()),
                     rerolls=_unit_rolls(b, state, m.rerolls, (*path, "rerolls")),
                     other_savers=_other_savers(m, m.target, m.army))


def _missile_step(b: _Builder, state: GameState, m, path: tuple) -> Step | None:
    army = _army_ref(b, state, m.army, (*path, "army"))
    target = _army_ref(b, state, m.target, (*path, "target"))
    if army is None or target is None:
        return None
    return MissileStep(army=m.army, target=m.target, roll=_roll(b, army, m.roll, (*path, "roll")),
                       saves=_saves(b, state, m.saves, m.target, (*path, "saves")),
                       casualties=_casualties(b, state, m.casualties, (*path, "casualties")),
                       other_savers=_other_savers(m, m.target, m.army), pursue=m.pursue,
                       counter=_roll(b, target, m.counter, (*path, "counter")) if m.counter not in (None, False)
                       else None,
                       **_targets(b, state, m, path))


def _magic_step(b: _Builder, state: GameState, m, path: tuple, rolled: bool = True) -> Step | None:
    """A magic step; ``rolled`` False for what a Cantrip buys, whose points come from another roll."""
    army = _army_ref(b, state, m.army, (*path, "army"))
    colors = None
    if m.colors is not None:
        for color, n in m.colors.items():
            if magic_color(color) not in COLORS:
                b.fail((*path, "colors", color), f"unknown color {typed(color)}; expected one of: {', '.join(COLORS)}"
                                                 f"{did_you_mean(color, COLORS)}")
            elif n < 0:
                b.fail((*path, "colors", color), f"expected a whole number of points >= 0, got {n}")
        merged: dict[str, int] = {}
        for color, n in m.colors.items():     # "yellow" and "gold" are one color (sfr-v4's name for earth magic)
            merged[magic_color(color)] = merged.get(magic_color(color), 0) + n
        colors = tuple(merged.items())
    cast = []
    for i, c in enumerate(m.cast):
        where = (*path, "cast", i)
        rec = b.name("spell", c.spell, (*where, "spell"))
        if c.color is not None and magic_color(c.color) not in COLORS:
            b.fail((*where, "color"), f"unknown color {typed(c.color)}; expected one of: {', '.join(COLORS)}"
                                      f"{did_you_mean(c.color, COLORS)}")
        if rec is not None:
            card = SpellCard(id=rec.id, name=rec.name, color=rec.color, cost=rec.cost, lists=tuple(rec.lists),
                             reserve=bool(rec.reserve), multiplicity=tuple(rec.multiplicity), target=rec.target,
                             cantrip=rec.cantrip is not False)
            if c.to is not None and not any(t.id == c.to for t in state.terrains):
                _army_ref(b, state, c.to, (*where, "to"))     # an army, or a terrain (Path: "to any other terrain")
            fight = _haunt_melee(b, state, rec, c, (*where, "melee")) if c.melee is not None else None
            moves = None
            if c.maneuver is not None and state.has_army(c.target):
                moves = _maneuver_step(b, state, step_model("maneuver")(army=c.target, **c.maneuver.model_dump(
                    exclude_none=True)), (*where, "maneuver"))
            paid = None if c.color is None else magic_color(c.color)
            cast.append(Cast(spell=card, target=c.target, count=c.count, color=paid, to=c.to, dragon=c.dragon,
                             maneuver=moves, into=c.into, kin=c.kin, units=tuple(c.units or ()),
                             rise=None if c.rise is None else tuple(c.rise), melee=fight))
    if army is None:
        return None
    roll = _roll(b, army, m.roll, (*path, "roll")) if rolled else Roll()
    return MagicStep(army=m.army, roll=roll, colors=colors, cast=tuple(cast),
                     counter=getattr(m, "counter", None) not in (None, False),
                     avoidance=_avoidance(b, state, m.avoidance, (*path, "avoidance")),
                     casualties=_casualties(b, state, m.casualties, (*path, "casualties")),
                     fleeing=_casualties(b, state, m.fleeing, (*path, "fleeing")),
                     choices=tuple((target, _choices(b, c, RESULT_TYPES, (*path, "choices", target)))
                                   for target, c in (m.choices or {}).items()),
                     negation=_rolls_by_army(b, state, m.negation, (*path, "negation")),
                     dispel=_dispel(b, state, m.dispel, (*path, "dispel")),
                     cantrip=_cantrip(b, state, m.cantrip, (*path, "cantrip")),
                     burial=_unit_rolls(b, state, m.burial, (*path, "burial")),
                     ashes=_unit_rolls(b, state, m.ashes, (*path, "ashes")),
                     summon=sai_steps.summon(b, state, m.summon, (*path, "summon")),
                     move_to=sai_steps.move_to(b, state, m.move_to, (*path, "move_to")),
                     targets=_sai_targets(b, state, getattr(m, "targets", None), path),
                     death_magic=tuple(getattr(m, "death_magic", None) or ()),
                     save_sais=sai_steps.save_sais(b, state, getattr(m, "save_sais", None), (*path, "save_sais")),
                     unit_saves=_unit_rolls(b, state, getattr(m, "unit_saves", None), (*path, "unit_saves")),
                     move_dragons=tuple((getattr(m, "move_dragons", None) or {}).items()),
                     attune_color=getattr(m, "attune_color", None))



def _haunt_melee(b: _Builder, state: GameState, rec, c, path: tuple) -> Step | None:
    """The melee a spell's army of the dead makes (Haunt), read against that army: the caster's dead units."""
    if c.target not in state.players:
        return None
    dead = state.area("dua", c.target)
    army = Army(id=haunt_army(c.target), player=c.target, at=RESERVE, units=dead.units)
    try:
        m = step_model("melee").model_validate({"army": army.id, **c.melee})
    except pydantic.ValidationError as exc:
        b.errors.extend(pydantic_errors(exc, b.locator, prefix=path, model=step_model("melee")))
        return None
    return _melee_step(b, state.evolve(armies=(*state.armies, army)), m, path)


def _maneuver_cantrip(b: _Builder, state: GameState, m, path: tuple) -> tuple:
    """A maneuver step's ``cantrip``: with ``avoidance`` (the acting army's melee avoidance roll against Wall of
    Thorns, a non-maneuver avoidance roll, where 002 Cantrip buys spells) it is read as a magic step's purchase, as in
    any roll; without it, the names alone, refused when the step resolves (a maneuver roll, where it does not
    function), so expect_error can pin it."""
    raw = getattr(m, "cantrip", None) or {}
    if getattr(m, "avoidance", None) is None:
        return tuple((key, None) for key in raw)
    return _cantrip(b, state, raw, (*path, "cantrip"))


def _cantrip(b: _Builder, state: GameState, raw: dict | None, path: tuple) -> tuple:
    """{army id: what its Cantrip buys}, each read as a magic step of that army with no roll of its own; a unit id
    names a unit's own purchase, read as its army's (tsr-1996: a unit freed from an Entangle after its army's
    Cantrip was resolved, engine.actions.freed_cantrip)."""
    out = []
    for key, buy in (raw or {}).items():
        home = None if state.has_army(key) else next((a for a in state.armies if a.unit(key) is not None), None)
        if home is None and not state.has_army(key):
            names = [a.id for a in state.armies] + [u.id for a in state.armies for u in a.units]
            b.fail((*path, key), f"unknown army or unit {typed(key)} (an army's Cantrip; tsr-1996: a freed unit's own "
                                 f"purchase){did_you_mean(key, names)}")
            continue
        m = step_model("magic")(army=key if home is None else home.id, roll={}, **buy.model_dump(exclude_none=True))
        step = _magic_step(b, state, m, (*path, key), rolled=False)
        if step is not None:
            out.append((key, step))
    return tuple(out)


def _dispel(b: _Builder, state: GameState, raw: dict | None, path: tuple) -> tuple:
    """{unit id: face or faces} of Dispel Magic attempts, as icon ids."""
    out = []
    for unit_id, value, home in _units_named(b, state, raw, path):
        faces = _faces(b, home, unit_id, value, (*path, unit_id))
        out.append((unit_id, tuple(f.icon for f in faces)))
    return tuple(out)


def _avoidance(b: _Builder, state: GameState, raw: dict | None, path: tuple) -> tuple:
    """Target (army or unit) -> the rolls it makes against spells: one roll, or a list of them."""
    out = []
    for target, value in (raw or {}).items():
        where = (*path, target)
        who = state.army(target) if state.has_army(target) else \
            next((a for a in state.armies if a.unit(target) is not None), None) or _in_pool(state, target) \
            or formed_in_play(state, target)    # an army play forms (<player>-reserve ...): checked when it resolves
        if who is None:
            b.fail(where, f"{typed(target)} is neither an army nor a unit in play"
                          f"{did_you_mean(target, [a.id for a in state.armies] + [u.id for a in state.armies for u in a.units])}")
            continue
        if who.id != target:            # a unit rolls by itself; a face or list of faces is its roll
            who = who.evolve(units=(who.unit(target),))
        several = isinstance(value, list) and bool(value) and all(isinstance(v, dict) for v in value)
        rolls = []
        for i, one in enumerate(value if several else [value]):
            one = {target: one} if isinstance(one, (str, list)) and who.id != target else one
            rolls.append(_roll(b, who, one, (*where, i) if several else where))
        out.append((target, tuple(rolls)))
    return tuple(out)


def _turn_step(b: _Builder, state: GameState, m, path: tuple) -> Step | None:
    if m.player not in state.players:
        b.fail((*path, "player"), f"unknown player {typed(m.player)}{did_you_mean(m.player, state.players)}")
        return None
    return TurnStep(player=m.player, initial=exchanges.initial(b, state, m.initial, (*path, "initial")))


_STEP_BUILDERS: dict[str, Callable] = {
    "roll": _roll_step, "maneuver": _maneuver_step, "melee": _melee_step, "missile": _missile_step,
    "magic": _magic_step, "turn": _turn_step,
    "promote": exchanges.promote_step,
    "replant": exchanges.replant_step,
}


_STEP_BUILDERS.update(reserves=turn_steps.reserves_step, minor=turn_steps.minor_step, setup=turn_steps.setup_step,
                      dragon_attack=lambda b, state, m, path: turn_steps.dragon_step(b, state, m, path, _cantrip))
