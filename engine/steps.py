"""Steps as the engine takes them (the scenario loader builds these from YAML)."""

from __future__ import annotations

from typing import Literal

from .rolled import Roll
from .value import Struct, Value, field

Casualties = tuple[tuple[str, tuple[str, ...]], ...]   # (army id, unit ids) pairs
# (SAI id, ((unit or army id, points), ...)); points None where the targets are listed without points; a move SAI's
# per-mover form: (mover id, the unit ids it takes along) (engine.actions.companions)
Targets = tuple[tuple[str, tuple[tuple[str, int | tuple[str, ...] | None], ...]], ...]
UnitRolls = tuple[tuple[str, Roll], ...]                # (unit id, its own roll)
Choices = tuple[tuple[str, tuple[tuple[str, int], ...]], ...]
# (SAI id, terrain id or "reserve"); a move SAI's per-mover form: (SAI id, ((mover id, its place), ...))
# (engine.actions.destinations)
MoveTo = tuple[tuple[str, str | tuple[tuple[str, str], ...]], ...]


class RollStep(Value):
    army: str
    wanted: tuple[str, ...]
    roll: Roll
    choices: Choices = ()
    avoidance: bool = False
    # a save or avoidance roll's special SAIs (Regenerate, the Medallions, Cloak, Vanish, Ferry, Teleport,
    # Firewalking): the units they take, where they move, the units brought back's own rolls
    targets: Targets = ()
    move_to: MoveTo = ()
    unit_saves: UnitRolls = ()
    move_dragons: tuple[tuple[str, str], ...] = ()  # dragon id -> the terrain a Dragonkin Champion's logo sends it


class ManeuverStep(Value):
    army: str
    direction: Literal["up", "down"] | None = None
    roll: Roll | None = None
    counter: tuple[tuple[str, Roll], ...] = ()
    avoidance: Roll | None = None   # the acting army's roll against a spell its maneuver sets off (Wall of Thorns)
    casualties: tuple[tuple[str, tuple[str, ...]], ...] = ()
    burial: UnitRolls = ()          # killed units' rolls to escape burial (Soiled Ground)
    targets: Targets = ()           # the unit carrying the item Wayfare moves
    ashes: UnitRolls = ()           # killed units' Rise from the Ashes rolls (Wall of Thorns)
    move_to: MoveTo = ()   # Wayfare -> the terrain (or reserve) it moves to
    stepped: tuple[tuple[str, str], ...] = ()   # killed Undead unit -> the dead Undead it is traded for
    resist_burial: UnitRolls = ()   # buried Undead units' rolls to resist burial
    discard: tuple[str, ...] = ()   # items the owner buries when the step leaves too few units to carry them
    minor_terrain: str | None = None    # bring in this minor terrain (its type) instead of turning the terrain
    castle: str | None = None           # the basic type a Castle's captor declares (city, standing-stones, ...)
    # army -> what its Cantrip buys: in the Wall of Thorns avoidance roll (``avoidance``), else (None) named in a
    # maneuver roll and refused at step time
    cantrip: tuple[tuple[str, "MagicStep | None"], ...] = ()
    action: str | None = None           # the action icon on the face the terrain turns to (melee, missile, magic)


class AttackStep(Value):
    """What a melee and a missile action share: who attacks whom, the rolls, the choices."""

    army: str
    target: str
    roll: Roll
    saves: Roll | None = None
    casualties: Casualties = ()
    targets: Targets = ()           # where individual-targeting SAI points go
    unit_saves: UnitRolls = ()      # the targets' own save rolls
    cantrip: tuple[tuple[str, "MagicStep"], ...] = ()   # army -> what its Cantrip buys during its roll
    burial: UnitRolls = ()          # killed units' rolls to escape burial (Soiled Ground)
    move_to: MoveTo = ()   # SAI -> the terrain (or reserve) the units it moves go to
    ashes: UnitRolls = ()           # killed units' Rise from the Ashes rolls
    order: tuple[str, ...] = ()     # the acting player's order of the attack roll's special/unique SAIs
    stepped: tuple[tuple[str, str], ...] = ()   # killed Undead unit -> the dead Undead it is traded for
    resist_burial: UnitRolls = ()   # buried Undead units' rolls to resist burial
    discard: tuple[str, ...] = ()   # items the owner buries when the step leaves too few units to carry them
    sacrifice: tuple[tuple[str, str], ...] = ()   # Eldarim killed by an individual-targeting effect -> its dragonkin
    move_dragons: tuple[tuple[str, str], ...] = ()  # dragon id -> the terrain a Dragonkin Champion's logo sends it
    # (field, army) for each army a ``saves``/``counter_saves`` entry names that is not the one rolling saves there:
    # refused when the step resolves (engine.actions.combat.check_savers), so expect_error can pin it
    other_savers: tuple[tuple[str, str], ...] = ()
    # army -> its owner's split of "one result" penalties over its combination roll's results (engine.modifiers)
    penalties: tuple[tuple[str, tuple[tuple[str, int], ...]], ...] = ()
    # ("doubles:<result>", ((unit, 1),)): the components a spell lets double a result (Wilding), as the owner chose
    doubles: tuple[tuple[str, tuple[tuple[str, int], ...]], ...] = ()


class MeleeStep(AttackStep):
    counter: Roll | None = None     # the defender's counter-attack roll
    counter_saves: Roll | None = None
    rise: tuple[str, ...] | None = None     # the acting player's dead Undead returning by Convert
    counter_order: tuple[str, ...] = ()     # the defending player's order of the counter-attack's special SAIs
    unit_ids: tuple[tuple[str, tuple[tuple[str, int], ...]], ...] = ()   # unit -> where its own roll's IDs go (Coil)
    charge: bool = False            # tsr-1996: declared as a charge (engine.actions.charge)
    pursue: bool = False            # routing: the attacker pursues a routed army (engine.actions.routing)
    rerolls: UnitRolls = ()         # tsr-1996 charge: a freed unit's new roll, forced by Confuse (its second)


class MissileStep(AttackStep):
    """A missile action has no counter-attack."""
    pursue: bool = False            # routing, at the same terrain: the attacker pursues a routed army
    # a counter-attack written on a missile step: read so that the refusal comes when the step resolves (and
    # ``expect_error`` can pin 002 Missile's "the target army cannot attack back"); always refused
    counter: Roll | None = None


class SpellCard(Value):
    """What the magic action needs to know of a spell (from the edition's spell list)."""

    id: str
    name: str
    color: str                      # black, blue, gold, green, red or elemental
    cost: int
    lists: tuple[str, ...]          # "basic" or the races whose spell it is
    reserve: bool                   # castable from the reserve area
    multiplicity: tuple[str, ...]   # target-another, increase-effect, increase-number-affected, once-per-action
    target: str | None              # terrain, army, enemy-army, own-unit, ...
    cantrip: bool = True            # may be bought with a Cantrip outside a magic action (001's 'C' column)


class Cast(Value):
    spell: SpellCard
    target: str
    count: int = 1
    color: str | None = None        # the color paying for an elemental spell
    to: str | None = None           # where a moving spell sends its target (an army id)
    dragon: str | None = None       # the dragon a summoning spell sends, as <player>:<pool item>
    maneuver: ManeuverStep | None = None    # the maneuver the target army attempts (Night Moves)
    into: str | None = None         # the unit a promoted unit is exchanged for (Promote Dragonkin)
    kin: str | None = None          # the color of dragonkin a spell targets (Demote Dragonkin)
    units: tuple[str, ...] = ()     # the dead units a spell on a DUA chooses (Exhume)
    rise: tuple[str, ...] | None = None     # the caster's dead units that join the casting army (Exhume)
    melee: "MeleeStep | None" = None        # the melee action the spell's army of the dead makes (Haunt)


class SaiChoices(Value):
    """A target army's choices for the special SAIs of its save roll against a spell (002 SAI List: Regenerate,
    the Gold and Silver Medallions, Cloak, Vanish, Ferry, Teleport, Firewalking; in Tidal Wave's roll, the
    Dragonkin Champion's logo): what they bring back or move."""

    targets: Targets = ()           # SAI -> the dead units it brings back / the units moving along
    move_to: MoveTo = ()   # SAI -> where the units it moves go
    unit_saves: UnitRolls = ()      # units brought back during the roll: their own rolls
    move_dragons: tuple[tuple[str, str], ...] = ()  # dragon id -> the terrain a Dragonkin Champion's logo sends it


class MagicStep(Value):
    army: str
    roll: Roll
    colors: tuple[tuple[str, int], ...] | None = None   # the owner's split of the points by color
    cast: tuple[Cast, ...] = ()
    # target (army or unit id) -> the rolls it makes against the spells, in the order they resolve
    avoidance: tuple[tuple[str, tuple[Roll, ...]], ...] = ()
    casualties: Casualties = ()
    fleeing: Casualties = ()        # the units an army's owner sends to the reserve area (Scent of Fear)
    choices: tuple[tuple[str, Choices], ...] = ()   # target -> its choices in its combination rolls
    negation: tuple[tuple[str, Roll], ...] = ()     # opposing Frostwing armies' magic negation rolls
    dispel: tuple[tuple[str, tuple[str, ...]], ...] = ()   # unit -> the icons of its Dispel Magic attempt
    cantrip: tuple[tuple[str, "MagicStep"], ...] = ()      # target army -> what its Cantrip buys in its saves
    burial: UnitRolls = ()          # killed units' rolls to escape burial (Soiled Ground)
    ashes: UnitRolls = ()           # killed units' Rise from the Ashes rolls
    move_to: MoveTo = ()   # SAI -> the terrain the units it moves go to (Ferry, Teleport)
    # artifact unit -> (the pool dragon as player:item, the terrain) its Summon Dragon SAI sends
    summon: tuple[tuple[str, tuple[str | None, str | None]], ...] = ()
    counter: bool = False           # a counter-attack written on the step: refused when it resolves (no_counter)
    targets: Targets = ()           # the army a special SAI of the magic roll targets (Sneak Attack, Illusion)
    stepped: tuple[tuple[str, str], ...] = ()   # killed Undead unit -> the dead Undead it is traded for
    resist_burial: UnitRolls = ()   # buried Undead units' rolls to resist burial
    discard: tuple[str, ...] = ()   # items the owner buries when the step leaves too few units to carry them
    sacrifice: tuple[tuple[str, str], ...] = ()   # Eldarim killed by an individual-targeting effect -> its dragonkin
    death_magic: tuple[str, ...] = ()   # the dead units buried to double black ID points (tsr-1996)
    save_sais: tuple[tuple[str, SaiChoices], ...] = ()   # target army -> its save roll's special SAI choices
    unit_saves: UnitRolls = ()      # units Regenerate or the Gold Medallion bring back: their own magic rolls
    attune_color: str | None = None     # the color an Attune and the unit it attunes (targets.attune) cast
    move_dragons: tuple[tuple[str, str], ...] = ()  # dragon id -> the terrain a Dragonkin Champion's logo sends it


class Exchanges(Value):
    """What one effect of the Initial Effects phase brings back: units recruited, promotions (unit -> dead unit)."""

    recruit: tuple[str, ...] | None = None
    promote: tuple[tuple[str, str], ...] | None = None


class Mutation(Value):
    """A Swamp Stalker mutation attempt (002 Mutation)."""

    army: str                                   # the mutating army
    targets: UnitRolls = ()                     # the opponent's reserve units targeted, and their save rolls
    recruit: tuple[str, ...] | None = None      # the dead Swamp Stalkers returned (None: the default)
    promote: tuple[tuple[str, str], ...] = ()   # the Swamp Stalkers promoted


class KingsDie(Value):
    """The Kings' Die's one use in the phase: recruit, promote, or roll (``roll``: the race shown, or "logo")."""

    roll: str | None = None
    recruit: tuple[str, ...] | None = None
    promote: tuple[tuple[str, str], ...] | None = None


class InitialEffects(Value):
    """The marching player's choices in the Initial Effects phase (002 The Turn Sequence > Initial Effects)."""

    feralization: tuple[tuple[str, Exchanges], ...] = ()     # army -> its recruitment or promotion
    mutation: Mutation | None = None
    sacrifice: tuple[tuple[str, str], ...] = ()              # dead Eldarim -> the dragonkin in play it replaces
    city: tuple[tuple[str, Exchanges], ...] = ()             # controlling army -> its recruitment or promotion
    temple: tuple[tuple[str, tuple[str, str | None]], ...] = ()   # controlling army -> (player, dead unit buried)
    temple_ashes: UnitRolls = ()    # the unit a Temple buries -> its Rise from the Ashes roll ("killed or buried")
    grove: str | None = None                                 # the buried unit a Grove returns to its DUA
    dragons_lair: tuple[str | None, str | None] = (None, None)   # the pool dragon (player:item) and its terrain
    order: tuple[str, ...] = ()     # the player's order of the effects within a step (default: the rulebook's list)
    kings_die: KingsDie | None = None


class DragonStep(Value):
    """A dragon attack on ``army`` (002 Dragon Attack Phase): the dragons' icons and the army's answer."""

    army: str
    dragons: tuple[tuple[str, tuple[str, ...]], ...] = ()   # dragon id -> its icons in order ([tail, jaws])
    roll: Roll | None = None                    # the army's combination (or, under Blue breath, save) roll
    choices: Choices = ()                       # ids, penalties, splits, counts_as of that roll
    casualties: Casualties = ()
    eldarim: tuple[tuple[str, str], ...] = ()   # unit id -> the icon it rolled before the attack (Step 1)
    logo_targets: tuple[tuple[str, str], ...] = ()  # unit id -> the dragon its logo tames, slays or controls
    fights: tuple[tuple[str, str], ...] = ()    # dragon id -> the dragon it attacks (Step 5)
    breath: tuple[tuple[str, str], ...] = ()    # hybrid dragon id -> the color of its breath on 5 health-worth
    breath_targets: tuple[tuple[str, tuple[str, ...]], ...] = ()   # breath color -> the units it reaches
    breath_saves: UnitRolls = ()                # targeted units' own saves against a breath
    breath_burial: UnitRolls = ()               # units a breath killed: their saves against burial
    # dragon id -> "melee" or "missile", the results that slay it (None: the default, as many as possible; empty: the
    # player slays none, which 002 Step 6's "must be killed" may refuse)
    slay: tuple[tuple[str, str], ...] | None = None
    # the Treasure's promotions and those after slaying: unit id -> the unit it becomes (None: the default; empty:
    # none, as "may promote" allows)
    treasure: tuple[tuple[str, str], ...] | None = None
    promote: tuple[tuple[str, str], ...] | None = None
    sai_dragons: tuple[tuple[str, str], ...] = ()   # unit id -> the dragon its Decapitate, Impale or Bash acts on
    move_dragons: tuple[tuple[str, str], ...] = ()  # dragon id -> the terrain a Dragonkin Champion's logo sends it
    cantrip: tuple[tuple[str, "MagicStep"], ...] = ()   # what the army's Cantrip buys during its roll
    move_to: MoveTo = ()   # SAI -> where the units it moves go (Wayfare, Ferry, Vanish ...)
    targets: Targets = ()           # SAI -> the units moving along (Wayfare: the carrier)
    unit_saves: UnitRolls = ()      # units Regenerate or the Gold Medallion brings back: their own rolls
    breath_sais: tuple[tuple[str, SaiChoices], ...] = ()    # unit id -> the special SAI choices of its breath save
    discard: tuple[str, ...] = ()   # items the owner buries when the step leaves too few units to carry them
    counter: bool = False           # a counter-attack written on the step: refused when it resolves (no_counter)
    # killed units' Rise from the Ashes rolls (001 Rise from the Ashes: "Whenever a unit with this SAI is killed or
    # buried, roll the unit"): a dragon's damage or breath kills too; None (the field left out): not replayed
    ashes: UnitRolls | None = None
    # killed Treefolk -> the dead 1-health Treefolk it is exchanged for (001 Accelerated Growth: "When a two (or
    # greater) health-worth Treefolk unit is killed, you may instead exchange it"), as on the action steps
    stepped: tuple[tuple[str, str], ...] = ()


class TurnStep(Value):
    """The current turn ends and ``player``'s turn begins."""

    player: str
    initial: InitialEffects = InitialEffects()
    resist_burial: UnitRolls = ()   # Undead units a Temple buries: their rolls to resist burial


class SetupStep(Value):
    """Starting the game: ``force`` health per player; ``dragons`` each player brought; ``catalog`` (unit id,
    catalog id, unit class) of named units; ``magic_faces`` the magic-making faces of a unit, by icon;
    ``order`` each player's order-of-play roll (icon, count); ``terrain_rolls`` each terrain's
    starting-distance rolls in order."""

    force: int
    players: tuple[str, ...] = ()        # whose force and armies are checked
    dragons: tuple[tuple[str, int], ...] | None = None
    catalog: tuple[tuple[str, tuple[str, str]], ...] = ()
    magic_faces: tuple[tuple[str, tuple[tuple[str, int], ...]], ...] = ()
    order: tuple[tuple[str, tuple[tuple[str, int], ...]], ...] = ()
    terrain_rolls: tuple[tuple[str, tuple[int, ...]], ...] = ()


class PromoteStep(Value):
    """A promotion by itself (002 Promotion), to replay a ruling: up to ``allowed`` units of the army (None: as
    many as possible), ``chosen`` pairing each with the unit it becomes (None: the documented default)."""

    army: str
    allowed: int | None = 1
    chosen: tuple[tuple[str, str], ...] | None = None


class ReplantStep(Value):
    """Treefolk Replanting (002): the army's ``give`` units are exchanged for the DUA's ``take`` units."""

    army: str
    give: tuple[str, ...]
    take: tuple[str, ...]


class ReservesStep(Value):
    """The marching player's Reserve Movement: reinforce, then retreat (002 Reserve Movement)."""

    reinforce: tuple[tuple[str, str], ...] = ()     # (unit or item id in the reserve area, terrain id)
    retreat: tuple[str, ...] = ()                   # unit or item ids leaving a terrain for the reserve area
    fly: tuple[tuple[str, str], ...] = ()           # (Firewalker unit or item id, terrain id): Terrain Flight
    discard: tuple[str, ...] = ()                   # items the owner buries when too few units can carry them


class MinorStep(Value):
    """An army's minor terrain is rolled: when it is brought in, and before each march of its army
    (002 Minor Terrains)."""

    army: str
    face: str                       # melee, missile, magic, double-maneuvers, double-saves, id, or a disaster
    choose: str | None = None       # after an ID: "actions" (melee, missile or magic) or "doubles"
    avoidance: Roll | None = None   # Flood: each unit's own roll (per unit); Landslide: the army's roll
    casualties: Casualties = ()
    discard: tuple[str, ...] = ()   # items the owner buries when the step leaves too few units to carry them



Step = (RollStep | ManeuverStep | MeleeStep | MissileStep | MagicStep | TurnStep | SetupStep | PromoteStep | ReplantStep
        | DragonStep | ReservesStep | MinorStep)


class StepResult(Struct):
    """What a step produced (the scenario format's step object, less ``expect``)."""

    kind: str
    results: dict[str, dict[str, int]] = field(default_factory=dict)
    damage: dict[str, int] = field(default_factory=dict)
    killed: list[str] = field(default_factory=list)
    buried: list[str] = field(default_factory=list)
    fled: list[str] = field(default_factory=list)
    moved: list[str] = field(default_factory=list)
    terrains: dict[str, dict] = field(default_factory=dict)
    trace: list = field(default_factory=list)
    maneuver: dict | None = None
    magic: dict | None = None
    setup: dict | None = None
    used: list = field(default_factory=list)    # unit effects used by a roll (engine.resolve expires them)
    burial_rolled: list = field(default_factory=list)   # units whose burial roll an SAI already took
    own_sais: list = field(default_factory=list)    # SAIs with a special in a unit's own roll (engine.actions.own_roll)
    dragon: dict | None = None      # a dragon attack's report: each dragon's icons and damage, slain, flown
    promotions: list = field(default_factory=list)   # (army id, promotions) Wild Growth results buy
    counter: dict | None = None     # a melee step's counter-attack: {"results": each army's results in it}
    # the armies a roll of the step routed (000 Option: Routing), in order; None where no rout was checked (routing
    # off, or no roll that can rout), so a step's object can say "no rout" ([]) apart from "not asked"
    routed: list | None = None
    deferred: list = field(default_factory=list)    # (unit ids, error): a returning SAI's check left to freed units
    movers: list = field(default_factory=list)     # units a move SAI took with their per-mover targets entry
    went: list = field(default_factory=list)       # (SAI, unit) a per-mover move_to entry sent (actions.destinations)
    # army id -> its roll in progress (engine.roll.Rolling): the units that joined it are counted with it through the
    # one pipeline (engine.actions.joined_rolls ``through_pipeline``); shared with the scratch results of recounts
    rolls: dict = field(default_factory=dict)
    # every roll of each army (or unit rolling by itself) in the step, in order, as each roll finalized it: an army
    # that rolls several times (saves against several spells) keeps them all, ``results`` holding the last
    every_roll: dict[str, list] = field(default_factory=dict)
    # units killed that a spell keeps from the DUA (Open Grave, Leaving) -> where they went: killed, not in the DUA
    kept: dict[str, str] = field(default_factory=dict)
    # army id -> (reachable point vectors, buckets) of each magic split it made (engine.actions.magic.maximal_splits
    # lists the choices from it, for the builder's pickers); the vectors are computed anyway, kept by reference
    splits: dict = field(default_factory=dict)
    # cantrip key (army, or freed unit) -> (the army, its Cantrip's casters): what the points may buy
    # (engine.actions.magic.buyable, for the builder's pickers)
    cantrips: dict = field(default_factory=dict)
    # a dragon attack's choices as the engine found them (for the builder's pickers): "slay": dragon id -> the result
    # types that alone could slay it; "breath": breath color -> {"reach", "units" (the units it may reach), "per"}
    dragon_choices: dict = field(default_factory=dict)

    def gone(self, unit_id: str) -> str:
        """Why a unit the step names is no longer where it was: killed or moved earlier in this step, else "" (a
        refusal or a not-applied line says it: issue 21, a named unit is never dropped without why)."""
        if unit_id in self.killed:
            return "killed earlier in this step"
        if unit_id in self.moved or unit_id in self.fled:
            return "moved earlier in this step"
        return ""
