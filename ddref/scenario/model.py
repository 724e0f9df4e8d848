"""The scenario file, version 1 (../shared/docs/scenario-format.md), as pydantic models.

These models check shapes and types; names (races, spells, units, SAIs,
terrain types) are checked against the corpus by ``ddref.scenario.build``,
which knows the edition. The descriptions are what ``ddref schema`` gives
editors to show beside each field.
"""

# No ``from __future__ import annotations`` here: pydantic would then evaluate every field's annotation from
# its string when each class is defined, about a fifth of this module's import time (bench/bench.py).
from importlib import import_module
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

Edition = Literal["sfr-2012", "sfr-v4", "tsr-1996"]
# a number of results, points or icons the owner places: never negative (a split of {save: 100, maneuver: -96}
# would make results from nothing)
Count = Annotated[int, Field(ge=0)]
RollIn = dict[str, Any]          # aggregate {maneuver: 12, id: 2} or per unit {unit-id: "melee 2"}

ROLL = ("A roll: the army's aggregate {maneuver: 12, save: 3, id: 2} (result icons, id, SAI names), "
        "or per unit {unit-id: 'melee 2', other-id: [rend, melee 2]}.")
CASUALTIES = ("Army id -> the ids of the units it removes, or per source of damage ({smite: [..], melee: [..]}: an "
              "SAI, a spell, melee, missile, dragon, charge), with to: army-id where a spell sends them to another "
              "of the owner's armies (Leaving); left out, the engine chooses (marked defaulted).")
ASHES = "Killed unit id -> its own roll for Rise from the Ashes (required for a Phoenix)."
STEPPED = ("Killed Undead unit id -> the dead Undead unit of lesser health it is traded for (Stepped Damage); "
           "a killed Undead unit left out is not traded.")
RESIST = "Buried Undead unit id -> its roll to resist burial (a non-ID save returns it to the DUA)."
DISCARD = ("Magical items an army that the step leaves with too few units to carry them buries: the owner's "
           "choice (002 Magical Items: \"The owner chooses which items to discard\"); default the last written, "
           "marked defaulted; naming an item no army had to give up is refused.")
SACRIFICE = ("Eldarim unit id killed by an individual-targeting effect -> the summoned dragonkin of equal health in "
             "its army sent back to the summoning pool instead (Sacrifice Dragonkin).")
# a moving SAI's per-mover ``targets`` form (engine.actions.companions): the units each unit rolling it takes along
MOVERS = dict[str, list[str]]
PER_MOVER = (" A moving SAI (ferry, teleport, firewalking, vanish, wayfare) may instead name each unit rolling it -> "
             "the units it takes along, each checked against its own SAI's limit: teleport: {t1: [a], t2: [b, c]} "
             "(a mover left out takes nobody, but Wayfare's item needs its carrier; a unit brought into the roll late, "
             "by Regenerate, has its own entry).")
# a moving SAI's per-mover ``move_to`` form (engine.actions.destinations): where each unit rolling it goes
MOVE_TO = dict[str, str | dict[str, str]]
PER_MOVER_TO = (" A moving SAI (ferry, teleport, firewalking, vanish, wayfare) may instead name each unit rolling "
                "it -> where it goes with the units it takes, each place checked against its own SAI: teleport: "
                "{t1: hill, t2: vale} (a mover left out does not move, its results staying in the army's; a unit "
                "brought into the roll late, by Regenerate, has its own entry).")


def described_field(text: str, **kwargs: Any) -> Any:
    """A pydantic field with its description (shown in the schema and the builder); every model_* module uses it."""
    return Field(description=text, **kwargs)


def no_entries() -> list:
    """A list field's default: pydantic reads a default factory's signature, and a builtin's (``list``) only by
    tokenizing its text signature, about 7 ms of a cold ``ddref resolve``; a plain function's costs nothing."""
    return []


class Strict(BaseModel):
    # built on first use: a scenario validates only the step models it has (a faster cold start)
    model_config = ConfigDict(extra="forbid", populate_by_name=True, strict=True, defer_build=True)


class TerrainIn(Strict):
    """A terrain die in play, by its id."""

    type: str = described_field("coastland | flatland | highland | swampland | feyland | wasteland")
    face: int = described_field("The face showing, 1..8.", ge=1, le=8)
    action: Literal["melee", "missile", "magic"] | None = described_field(
        "The action icon showing; absent, the step's action is allowed and the trace says so.", default=None)
    eighth: Literal["city", "standing-stones", "temple", "tower"] | None = described_field(
        "The icon on this die's eighth face.", default=None)
    controlled_by: str | None = described_field("The army holding the eighth face (required at face 8).", default=None)
    home_of: str | None = described_field("The player whose home terrain this is.", default=None)
    frontier: bool = described_field("The frontier terrain.", default=False)
    special: Literal["castle", "dragons-lair", "grove", "vortex"] | None = described_field(
        "A special terrain (gold ink, frontier only); type gives its colors. A Castle at face 8 names its declared "
        "type in eighth.", default=None)


class UnitIn(Strict):
    """A unit: a catalog name, or generic fields (``count`` expands to several units)."""

    id: str | None = described_field("Its id, unique in the file; default <army>.<n>.", default=None)
    name: str | None = described_field("A catalog name: 'Coral Elf Trooper', or 'Trooper' with race.", default=None)
    race: str | None = described_field("The race, e.g. coral-elf.", default=None)
    health: int | None = described_field("Health of a generic unit, 1..4.", default=None, ge=1, le=4)
    count: int = described_field("How many such units (generic units only).", default=1, ge=1, le=100)
    monster: bool | None = described_field("Whether a generic unit is a monster (default: health 4).", default=None)
    color: str | None = described_field("The die's own color, for races that come in colors (Eldarim, dragonkin) and "
                             "magical items.", default=None)


class ArmyIn(Strict):
    """An army, by its id."""

    player: str = described_field("The player who owns it.")
    at: str = described_field("A terrain id, or 'reserve'.")
    units: list[UnitIn | str] = described_field("Its units: catalog names or unit mappings.", min_length=1)


class EffectIn(Strict):
    """A spell or durational effect already in play."""

    spell: str | None = described_field("The spell, e.g. wall-of-fog; a name no spell bears that is an "
                                                  "SAI whose effect lasts is read as sai:.", default=None)
    sai: str | None = described_field("Instead of a spell, an SAI whose effect lasts (illusion, entangle, wither, ...).",
                           default=None)
    target: str = described_field("A terrain, army or unit id; a player for their DUA or all their armies.")
    by: str = described_field("The player who cast it.")
    count: int = described_field("How many times it was cast.", default=1, ge=1, le=20)
    source: str | None = described_field("The unit whose SAI made the effect (entangle: killing it ends the effect).",
                              default=None)
    next_turn: bool = described_field("The caster's next turn has already begun: a spell lasting until the end of your "
                           "next turn ends with the current turn (default: cast in the caster's last turn).",
                           default=False)


class DragonIn(Strict):
    """A dragon in play."""

    id: str = described_field("Its id, unique in the file.")
    color: str = described_field("black, blue, gold, green, red, ivory, white, or two for a hybrid (red-gold).")
    form: Literal["drake", "wyrm"] | None = described_field("drake or wyrm.", default=None)
    owner: str | None = described_field("The player who summoned it.", default=None)
    at: str = described_field("The terrain id where it is.")
    tamed_by: str | None = described_field("The Dragonlord or Dragonmaster (unit id) that tamed it and controls it.",
                                default=None)


class TurnIn(Strict):
    player: str = described_field("Whose turn it is when the steps begin.")
    phase: Literal["first-march", "second-march", "reserves", "setup"] | None = described_field(
        "Where in the turn the steps begin; given, the engine follows the turn's phases (two marches by "
        "different armies of this player, then the Reserve Movement). Absent, each step stands alone. "
        "setup: the game has not begun; player plays first, and a turn step naming them begins the first turn.",
        default=None)
    marched: list[str] | None = described_field("The armies that have marched this turn already (second-march, reserves).",
                                     default=None)


# Each step kind's model, in the module that defines it (ddref.scenario.model_<family>): a scenario imports only
# the step models it uses (a faster cold start; bench/bench.py).
STEP_KINDS: dict[str, tuple[str, str]] = {
    "roll": ("actions", "RollStepIn"),
    "maneuver": ("actions", "ManeuverStepIn"),
    "melee": ("actions", "MeleeStepIn"),
    "missile": ("actions", "MissileStepIn"),
    "magic": ("magic", "MagicStepIn"),
    "turn": ("turn", "TurnStepIn"),
    "reserves": ("turn", "ReservesStepIn"),
    "minor": ("turn", "MinorStepIn"),
    "setup": ("turn", "SetupStepIn"),
    "promote": ("turn", "PromoteStepIn"),
    "dragon_attack": ("dragon", "DragonAttackStepIn"),
    "replant": ("turn", "ReplantStepIn"),
}


def step_model(kind: str) -> type[Strict]:
    """The model of a step kind (one of ``STEP_KINDS``)."""
    family, name = STEP_KINDS[kind]
    return getattr(import_module(f"ddref.scenario.model_{family}"), name)


def step_models() -> dict[str, type[Strict]]:
    """Every step kind's model (``ddref schema``)."""
    return {kind: step_model(kind) for kind in STEP_KINDS}


class ScenarioIn(Strict):
    """A Dragon Dice situation and what happened, step by step (ddref scenario format, version 1)."""

    ddref: Literal[1] = described_field("The format version: 1.")
    title: str = described_field("What the scenario is about.")

    @field_validator("ddref", mode="before")
    @classmethod
    def _version_not_a_boolean(cls, value: Any) -> Any:
        # pydantic matches Literal[1] by equality, and true == 1 in Python: the JSON Schema's const 1 (ddref schema)
        # rejects true, and so must the loader
        if isinstance(value, bool):
            raise ValueError(f"expected 1 (the format version), got {str(value).lower()}")
        return value

    source: str | None = described_field("Where the situation comes from (a rule, a worked example, a game).", default=None)
    description: str | None = described_field("Free text.", default=None)
    edition: Edition = described_field("The rules edition to replay under.", default="sfr-2012")
    players: list[str] = described_field("The players, in turn order.", min_length=1)
    turn: TurnIn | None = described_field("Whose turn it is (default: the first player).", default=None)
    routing: bool = described_field("tsr-1996's optional routing rule (000 Option: Routing) is in play: an army whose save roll "
                         "(or charge roll) shows more ID icons than save icons routs.", default=False)
    terrains: dict[str, TerrainIn] = described_field("Terrain id -> terrain.", min_length=1)
    armies: dict[str, ArmyIn] = described_field("Army id -> army.", min_length=1)
    dua: dict[str, list[UnitIn | str]] = described_field("Player -> the units in their dead unit area.",
                                              default_factory=dict)
    bua: dict[str, list[UnitIn | str]] = described_field("Player -> the units in their buried unit area.",
                                              default_factory=dict)
    summoning_pool: dict[str, list[dict[str, Any]]] = described_field("Player -> what is in their summoning pool.",
                                                           default_factory=dict)
    dragons: list[DragonIn] = described_field("Dragons in play.", default_factory=no_entries)
    effects: list[EffectIn] = described_field("Spells and durational effects already in play.", default_factory=no_entries)
    steps: list[dict[str, Any]] = described_field("What happened, in order: each step one kind key, and expect or "
                                       "expect_error.", default_factory=no_entries)
    expect: dict[str, Any] | None = described_field("Dotted paths into the final state -> expected values (a 'state.' prefix "
                                         "is accepted, as in a step's expect).", default=None)
