"""Steps as the engine takes them (the scenario loader builds these from YAML)."""

from __future__ import annotations

from typing import Literal

from .roll import Roll
from .value import Struct, Value, field

Casualties = tuple[tuple[str, tuple[str, ...]], ...]   # (army id, unit ids) pairs
# (SAI id, ((unit or army id, points), ...)); points None where the targets are listed without points
Targets = tuple[tuple[str, tuple[tuple[str, int | None], ...]], ...]
UnitRolls = tuple[tuple[str, Roll], ...]                # (unit id, its own roll)
Choices = tuple[tuple[str, tuple[tuple[str, int], ...]], ...]


class RollStep(Value):
    army: str
    wanted: tuple[str, ...]
    roll: Roll
    choices: Choices = ()
    avoidance: bool = False


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
    move_to: tuple[tuple[str, str], ...] = ()   # Wayfare -> the terrain (or reserve) it moves to


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
    move_to: tuple[tuple[str, str], ...] = ()   # SAI -> the terrain (or reserve) the units it moves go to
    ashes: UnitRolls = ()           # killed units' Rise from the Ashes rolls


class MeleeStep(AttackStep):
    counter: Roll | None = None     # the defender's counter-attack roll
    counter_saves: Roll | None = None


class MissileStep(AttackStep):
    """A missile action has no counter-attack."""


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
    targets: Targets = ()           # the army an SAI rolled in the action chooses (Illusion, Galeforce)
    move_to: tuple[tuple[str, str], ...] = ()   # SAI -> the terrain the units it moves go to (Ferry, Teleport)
    # artifact unit -> (the pool dragon as player:item, the terrain) its Summon Dragon SAI sends
    summon: tuple[tuple[str, tuple[str | None, str | None]], ...] = ()


class TurnStep(Value):
    """The current turn ends and ``player``'s turn begins."""

    player: str


Step = RollStep | ManeuverStep | MeleeStep | MissileStep | MagicStep | TurnStep


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
    used: list = field(default_factory=list)    # unit effects used by a roll (engine.resolve expires them)
