"""The game state: frozen values; a step returns a new state, never edits one.

Frozen value classes (engine.value) rather than pydantic models: the scenario loader
validates input, and the engine needs only cheap, immutable values.
"""

from __future__ import annotations

from typing import Literal

from .value import Value

ResultType = Literal["maneuver", "melee", "missile", "save", "magic"]
RESULT_TYPES: tuple[ResultType, ...] = ("maneuver", "melee", "missile", "save", "magic")
RESERVE = "reserve"


class Unit(Value, kw_only=True):
    """A unit in play or in a dead/buried area."""

    id: str
    race: str | None            # None for a generic or race-less component
    health: int
    name: str | None = None     # catalog name, e.g. "Trooper"
    monster: bool = False       # ten-sided: each icon counts 4
    group_monster: bool = False  # ID counts and the die is rerolled (002 Group Monsters)
    color: str | None = None    # the die's own color, where a race comes in colors (Eldarim, dragonkin)
    item: bool = False          # a magical item: a component, not a unit (002 Magical Items)
    # points of effect per SAI icon when not one (002 SAI General Information: "Each single SAI on a rare magic
    # item counts as three points of effect. Each single SAI on a monster, artifact or medallion counts as four")
    sai_points: int | None = None
    # the SAIs the corpus knows on this die (002's catalog of champions, items, artifacts, medallions), and the
    # section listing them; empty where the corpus does not know the die: a face it does not bear is refused
    sais: tuple[str, ...] = ()
    die_cite: str | None = None

    @property
    def label(self) -> str:
        return f"{self.id} ({self.name or self.race or 'unit'}, {self.health} health)"


class Terrain(Value, kw_only=True):
    id: str
    type: str                   # coastland, flatland, ...
    colors: tuple[str, ...]
    face: int
    action: str | None = None   # melee | missile | magic, when the scenario says
    eighth: str | None = None   # city | standing-stones | temple | tower
    controlled_by: str | None = None   # army id holding the eighth face
    home_of: str | None = None
    frontier: bool = False
    special: str | None = None  # a special terrain (002 Special Terrains): castle | dragons-lair | grove | vortex


class Army(Value, kw_only=True):
    id: str
    player: str
    at: str                     # terrain id or RESERVE
    units: tuple[Unit, ...]

    @property
    def health(self) -> int:
        return sum(u.health for u in self.units)

    def unit(self, unit_id: str) -> Unit | None:
        for u in self.units:        # a plain loop: the engine's most frequent lookup
            if u.id == unit_id:
                return u
        return None

    def without(self, *unit_ids: str) -> Army:
        return self.evolve(units=tuple(u for u in self.units if u.id not in unit_ids))


class Effect(Value, kw_only=True):
    """A spell or durational effect in play."""

    spell: str                  # spell id
    target: str                 # terrain, army or unit id
    by: str                     # the casting player
    count: int = 1
    # the caster's next turn has begun (a spell lasting "until the end of your next turn" ends with it)
    next_turn: bool = False
    # the unit whose SAI made the effect (an entangling or glaring unit: the effect ends with it)
    source: str | None = None


class Area(Value, kw_only=True):
    """A player's dead or buried unit area."""

    player: str
    units: tuple[Unit, ...] = ()

    @property
    def health(self) -> int:
        return sum(u.health for u in self.units)


class Dragon(Value, kw_only=True):
    """A dragon in play (summoned to a terrain) or waiting in a summoning pool."""

    id: str
    color: str
    at: str                     # a terrain id, or "pool"
    owner: str | None = None
    form: str | None = None     # drake | wyrm
    tamed_by: str | None = None  # the Dragonlord or Dragonmaster (unit id) controlling it (002 Dragon Taming)


class Pool(Value, kw_only=True):
    """A player's summoning pool: what magic can bring into play (dragons, dragonkin, minor terrains)."""

    player: str
    items: tuple[str, ...] = ()     # dragons and minor terrains, as kind:name
    units: tuple[Unit, ...] = ()    # dragonkin dice waiting to be summoned


class MinorTerrain(Value, kw_only=True):
    """A minor terrain in play with an army (002 Minor Terrains)."""

    type: str                   # the major terrain type it matches
    army: str                   # the army it was brought to
    face: str | None = None     # the result in effect until its army's next march: melee, missile, magic,
                                # double-maneuvers or double-saves (an ID as the owner chose); None: not rolled yet


class Marches(Value, kw_only=True):
    """How far the marching player has gone through the turn (002 The Turn Sequence), when the scenario
    follows the turn's phases: "a First March, a Second March, and a Reserve Movement"."""

    marched: tuple[str, ...] = ()   # the armies that took a march this turn, in order
    maneuvered: bool = False        # the current march has made its maneuver
    acted: tuple[str, ...] = ()     # the actions the current march has taken (melee, missile, magic)
    reserves: bool = False          # the Reserve Movement phase is done: no march may follow
    setup: bool = False             # the game has not begun: the set-up, before the first player's first turn
    attacked: tuple[str, ...] = ()  # the armies whose dragon attack of this turn has been resolved
    replanted: bool = False         # the current march's army has made its Treefolk Replanting (002 Racial Abilities)


class GameState(Value, kw_only=True):
    edition: str
    players: tuple[str, ...]
    turn_player: str
    terrains: tuple[Terrain, ...]
    armies: tuple[Army, ...]
    effects: tuple[Effect, ...] = ()
    dua: tuple[Area, ...] = ()
    bua: tuple[Area, ...] = ()
    dragons: tuple[Dragon, ...] = ()
    summoning_pool: tuple[Pool, ...] = ()
    winner: str | None = None
    marches: Marches | None = None  # None: the steps stand alone, not one turn's phases in order
    minor_terrains: tuple[MinorTerrain, ...] = ()
    routing: bool = False  # tsr-1996's optional routing rule is in play (000 Option: Routing)
    # the terrains a once-per-turn terrain reduction (sfr-v4 Flash Flood) has turned down this turn, by spell:
    # ((spell, terrain), ...); emptied when a turn begins (engine.marches.next_turn)
    flooded: tuple[tuple[str, str], ...] = ()

    def minor_terrain(self, army_id: str) -> MinorTerrain | None:
        return next((m for m in self.minor_terrains if m.army == army_id), None)

    def terrain(self, terrain_id: str) -> Terrain:
        for t in self.terrains:     # a plain loop, as army(): looked up in every roll
            if t.id == terrain_id:
                return t
        raise StopIteration(terrain_id)     # as next() over no match

    def army(self, army_id: str) -> Army:
        for a in self.armies:
            if a.id == army_id:
                return a
        raise KeyError(f"no army {army_id} in play")

    def has_army(self, army_id: str) -> bool:
        return any(a.id == army_id for a in self.armies)

    def units_in_play(self) -> dict[str, int]:
        """Player -> how many units they have at terrains and in the reserve area (002 Glossary, Unit: a six- or
        ten-sided die of a race; magical items are not units). A player with none is eliminated (002 Duration)."""
        count = dict.fromkeys(self.players, 0)
        for a in self.armies:
            count[a.player] = count.get(a.player, 0) + sum(1 for u in a.units if not u.item)
        return count

    def effects_on(self, target_id: str) -> tuple[Effect, ...]:
        return tuple([e for e in self.effects if e.target == target_id]) if self.effects else ()

    def with_army(self, army: Army) -> GameState:
        return self.evolve(armies=tuple(army if a.id == army.id else a for a in self.armies))

    def with_terrain(self, terrain: Terrain) -> GameState:
        return self.evolve(terrains=tuple(terrain if t.id == terrain.id else t for t in self.terrains))

    def pool(self, player: str) -> Pool:
        return next((p for p in self.summoning_pool if p.player == player), Pool(player=player))

    def with_pool(self, pool: Pool) -> GameState:
        if any(p.player == pool.player for p in self.summoning_pool):
            return self.evolve(summoning_pool=tuple(pool if p.player == pool.player else p
                                                    for p in self.summoning_pool))
        return self.evolve(summoning_pool=(*self.summoning_pool, pool))

    def area(self, kind: Literal["dua", "bua"], player: str) -> Area:
        return next((a for a in getattr(self, kind) if a.player == player), Area(player=player))

    def add_to(self, kind: Literal["dua", "bua"], player: str, units: tuple[Unit, ...]) -> GameState:
        """``units`` join the player's dead or buried unit area."""
        area = self.area(kind, player)
        return self.with_area(kind, area.evolve(units=(*area.units, *units)))

    def take_from(self, kind: Literal["dua", "bua"], player: str, *unit_ids: str) -> GameState:
        """The units leave the player's dead or buried unit area."""
        area = self.area(kind, player)
        return self.with_area(kind, area.evolve(units=tuple(u for u in area.units if u.id not in unit_ids)))

    def with_area(self, kind: Literal["dua", "bua"], area: Area) -> GameState:
        others = tuple(a for a in getattr(self, kind) if a.player != area.player)
        ordered = tuple(sorted((*others, area), key=lambda a: self.players.index(a.player)
                               if a.player in self.players else len(self.players)))
        return self.evolve(**{kind: ordered})
