"""Steps as the engine takes them (the scenario loader builds these from YAML)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from .roll import Roll

Casualties = tuple[tuple[str, tuple[str, ...]], ...]   # (army id, unit ids) pairs
Targets = tuple[tuple[str, tuple[tuple[str, int], ...]], ...]   # (SAI id, ((unit id, points), ...))
UnitRolls = tuple[tuple[str, Roll], ...]                # (unit id, its own roll)
Choices = tuple[tuple[str, tuple[tuple[str, int], ...]], ...]


@dataclass(frozen=True)
class RollStep:
    army: str
    wanted: tuple[str, ...]
    roll: Roll
    choices: Choices = ()
    avoidance: bool = False


@dataclass(frozen=True)
class ManeuverStep:
    army: str
    direction: Literal["up", "down"] | None = None
    roll: Roll | None = None
    counter: tuple[tuple[str, Roll], ...] = ()


@dataclass(frozen=True)
class AttackStep:
    """What a melee and a missile action share: who attacks whom, the rolls, the choices."""

    army: str
    target: str
    roll: Roll
    saves: Roll | None = None
    casualties: Casualties = ()
    targets: Targets = ()           # where individual-targeting SAI points go
    unit_saves: UnitRolls = ()      # the targets' own save rolls


@dataclass(frozen=True)
class MeleeStep(AttackStep):
    counter: Roll | None = None     # the defender's counter-attack roll
    counter_saves: Roll | None = None


@dataclass(frozen=True)
class MissileStep(AttackStep):
    """A missile action has no counter-attack."""


@dataclass(frozen=True)
class SpellCard:
    """What the magic action needs to know of a spell (from the edition's spell list)."""

    id: str
    name: str
    color: str                      # black, blue, gold, green, red or elemental
    cost: int
    lists: tuple[str, ...]          # "basic" or the races whose spell it is
    reserve: bool                   # castable from the reserve area
    multiplicity: tuple[str, ...]   # target-another, increase-effect, increase-number-affected, once-per-action
    target: str | None              # terrain, army, enemy-army, own-unit, ...


@dataclass(frozen=True)
class Cast:
    spell: SpellCard
    target: str
    count: int = 1
    color: str | None = None        # the color paying for an elemental spell


@dataclass(frozen=True)
class MagicStep:
    army: str
    roll: Roll
    colors: tuple[tuple[str, int], ...] | None = None   # the owner's split of the points by color
    cast: tuple[Cast, ...] = ()


Step = RollStep | ManeuverStep | MeleeStep | MissileStep | MagicStep


@dataclass
class StepResult:
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
