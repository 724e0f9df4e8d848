"""The scenario file, version 1 (../shared/docs/scenario-format.md), as pydantic models.

These models check shapes and types; names (races, spells, units, SAIs,
terrain types) are checked against the corpus by ``ddref.scenario.build``,
which knows the edition.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

Edition = Literal["sfr-2012", "sfr-v4", "tsr-1996"]
RollIn = dict[str, Any]          # aggregate {maneuver: 12, id: 2} or per unit {unit-id: "melee 2"}


class Strict(BaseModel):
    # built on first use: a scenario validates only the step models it has (a faster cold start)
    model_config = ConfigDict(extra="forbid", populate_by_name=True, defer_build=True)


class TerrainIn(Strict):
    type: str = Field(description="coastland | flatland | highland | swampland | feyland | wasteland")
    face: int = Field(ge=1, le=8)
    action: Literal["melee", "missile", "magic"] | None = None
    eighth: Literal["city", "standing-stones", "temple", "tower"] | None = None
    controlled_by: str | None = None
    home_of: str | None = None
    frontier: bool = False


class UnitIn(Strict):
    """A unit: a catalog name, or generic fields (``count`` expands to several units)."""

    id: str | None = None
    name: str | None = None
    race: str | None = None
    health: int | None = Field(default=None, ge=1, le=4)
    count: int = Field(default=1, ge=1, le=100)
    monster: bool | None = None
    color: str | None = None        # the die's color, for races that come in colors (Eldarim, dragonkin)


class ArmyIn(Strict):
    player: str
    at: str
    units: list[UnitIn | str] = Field(min_length=1)


class EffectIn(Strict):
    spell: str
    target: str
    by: str
    count: int = Field(default=1, ge=1, le=20)
    # true when the caster's next turn has already begun (a spell lasting "until the end of your
    # next turn" then ends with the current turn); by default the spell was cast in the caster's last turn
    next_turn: bool = False


class DragonIn(Strict):
    id: str
    color: str
    form: Literal["drake", "wyrm"] | None = None
    owner: str | None = None
    at: str


class TurnIn(Strict):
    player: str


class TurnStepIn(Strict):
    player: str                     # whose turn begins


class RollStepIn(Strict):
    army: str
    for_: str | list[str] = Field(alias="for")
    roll: RollIn
    avoidance: bool = False                  # an avoidance roll (002 Avoidance Rolls), not an action roll
    penalties: dict[str, int] | None = None  # where an "any result" penalty goes in a combination roll
    ids: dict[str, int] | None = None        # where ID icons go in a combination roll
    splits: dict[str, dict[str, int]] | None = None   # SAI name -> how its points split
    counts_as: dict[str, int] | None = None  # how many results a racial ability converts, by target type
    # result type -> {race: n}: how many of the results army penalties took were each race's
    penalties_by_race: dict[str, dict[str, int]] | None = None


class ManeuverStepIn(Strict):
    army: str
    direction: Literal["up", "down"] | None = None
    roll: RollIn | None = None
    counter: dict[str, RollIn] | None = None
    avoidance: RollIn | None = None         # the acting army's roll against a spell its maneuver sets off
    casualties: dict[str, list[str]] | None = None
    burial: dict[str, RollIn | str | list[str]] | None = None   # killed unit -> its roll against burial


class ManeuverIn(Strict):
    """The maneuver a spell makes an army attempt (Night Moves), as a maneuver step without its army."""

    direction: Literal["up", "down"] | None = None
    roll: RollIn | None = None
    counter: dict[str, RollIn] | None = None


class CastIn(Strict):
    spell: str
    target: str
    count: int = Field(default=1, ge=1, le=20)
    color: str | None = None        # the color paying for an elemental spell
    to: str | None = None           # the army a moved unit joins (Path)
    dragon: str | None = None       # the dragon a Summon Dragon spell sends, as <player>:<pool item>
    maneuver: ManeuverIn | None = None  # the maneuver the target army attempts (Night Moves)
    into: str | None = None         # the unit a promoted unit is exchanged for (Promote Dragonkin)
    kin: str | None = None          # the color of dragonkin a spell targets (Demote Dragonkin)


class CantripIn(Strict):
    """What an army's Cantrip buys during a roll other than a magic action, as a magic step would."""

    colors: dict[str, int] | None = None
    cast: list[CastIn] = Field(default_factory=list)
    avoidance: dict[str, RollIn | str | list[RollIn | str]] | None = None
    casualties: dict[str, list[str]] | None = None


class MissileStepIn(Strict):
    army: str
    target: str
    roll: RollIn
    saves: dict[str, RollIn] | None = None
    casualties: dict[str, list[str]] | None = None
    targets: dict[str, dict[str, int]] | None = None     # SAI name -> {unit id: points}
    unit_saves: dict[str, RollIn | str | list[str]] | None = None   # unit id -> its own save roll (faces)
    cantrip: dict[str, CantripIn] | None = None     # army -> what its Cantrip buys during its roll
    burial: dict[str, RollIn | str | list[str]] | None = None   # killed unit -> its roll against burial


class MeleeStepIn(MissileStepIn):
    """A missile action's fields, and the defender's counter-attack."""

    counter: RollIn | Literal[False] | None = None
    counter_saves: dict[str, RollIn] | None = None


class ChoicesIn(Strict):
    """A target's choices in its combination rolls against spells (as in a ``roll`` step)."""

    ids: dict[str, int] | None = None
    counts_as: dict[str, int] | None = None
    splits: dict[str, dict[str, int]] | None = None
    penalties: dict[str, int] | None = None


class MagicStepIn(Strict):
    army: str
    roll: RollIn
    colors: dict[str, int] | None = None    # the owner's split of the magic points by color
    cast: list[CastIn] = Field(default_factory=list)
    # target army or unit -> its roll against the spells (a list when several spells need rolls)
    avoidance: dict[str, RollIn | str | list[RollIn | str]] | None = None
    casualties: dict[str, list[str]] | None = None
    fleeing: dict[str, list[str]] | None = None     # army -> the units its owner sends to the reserve area
    choices: dict[str, ChoicesIn] | None = None     # target -> its choices in its combination rolls
    negation: dict[str, RollIn] | None = None       # opposing army -> its Frostwing magic negation roll
    dispel: dict[str, str | list[str]] | None = None    # unit -> the face(s) of its Dispel Magic attempt
    cantrip: dict[str, CantripIn] | None = None     # target army -> what its Cantrip buys in its saves
    burial: dict[str, RollIn | str | list[str]] | None = None   # killed unit -> its roll against burial


STEP_MODELS: dict[str, type[Strict]] = {
    "roll": RollStepIn,
    "maneuver": ManeuverStepIn,
    "melee": MeleeStepIn,
    "missile": MissileStepIn,
    "magic": MagicStepIn,
    "turn": TurnStepIn,
}
# In the format but not resolved by this version: named, so the error says so plainly.
LATER_STEPS = ("dragon_attack", "reserves")


class ScenarioIn(Strict):
    ddref: Literal[1]
    title: str
    source: str | None = None
    description: str | None = None
    edition: Edition = "sfr-2012"
    players: list[str] = Field(min_length=1)
    turn: TurnIn | None = None
    terrains: dict[str, TerrainIn] = Field(min_length=1)
    armies: dict[str, ArmyIn] = Field(min_length=1)
    dua: dict[str, list[UnitIn | str]] = Field(default_factory=dict)
    bua: dict[str, list[UnitIn | str]] = Field(default_factory=dict)
    summoning_pool: dict[str, list[dict[str, Any]]] = Field(default_factory=dict)
    dragons: list[DragonIn] = Field(default_factory=list)
    effects: list[EffectIn] = Field(default_factory=list)
    steps: list[dict[str, Any]] = Field(default_factory=list)
    expect: dict[str, Any] | None = None

