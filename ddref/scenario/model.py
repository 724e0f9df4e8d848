"""The scenario file, version 1 (../shared/docs/scenario-format.md), as pydantic models.

These models check shapes and types; names (races, spells, units, SAIs,
terrain types) are checked against the corpus by ``ddref.scenario.build``,
which knows the edition. The descriptions are what ``ddref schema`` gives
editors to show beside each field.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

Edition = Literal["sfr-2012", "sfr-v4", "tsr-1996"]
RollIn = dict[str, Any]          # aggregate {maneuver: 12, id: 2} or per unit {unit-id: "melee 2"}

ROLL = ("A roll: the army's aggregate {maneuver: 12, save: 3, id: 2} (result icons, id, SAI names), "
        "or per unit {unit-id: 'melee 2', other-id: [rend, melee 2]}.")
CASUALTIES = "Army id -> the ids of the units it removes; left out, the engine chooses (marked defaulted)."
ASHES = "Killed unit id -> its own roll for Rise from the Ashes (required for a Phoenix)."


def _doc(text: str, **kwargs: Any) -> Any:
    return Field(description=text, **kwargs)


class Strict(BaseModel):
    # built on first use: a scenario validates only the step models it has (a faster cold start)
    model_config = ConfigDict(extra="forbid", populate_by_name=True, strict=True, defer_build=True)


class TerrainIn(Strict):
    """A terrain die in play, by its id."""

    type: str = _doc("coastland | flatland | highland | swampland | feyland | wasteland")
    face: int = _doc("The face showing, 1..8.", ge=1, le=8)
    action: Literal["melee", "missile", "magic"] | None = _doc(
        "The action icon showing; absent, the step's action is allowed and the trace says so.", default=None)
    eighth: Literal["city", "standing-stones", "temple", "tower"] | None = _doc(
        "The icon on this die's eighth face.", default=None)
    controlled_by: str | None = _doc("The army holding the eighth face (required at face 8).", default=None)
    home_of: str | None = _doc("The player whose home terrain this is.", default=None)
    frontier: bool = _doc("The frontier terrain.", default=False)


class UnitIn(Strict):
    """A unit: a catalog name, or generic fields (``count`` expands to several units)."""

    id: str | None = _doc("Its id, unique in the file; default <army>.<n>.", default=None)
    name: str | None = _doc("A catalog name: 'Coral Elf Trooper', or 'Trooper' with race.", default=None)
    race: str | None = _doc("The race, e.g. coral-elf.", default=None)
    health: int | None = _doc("Health of a generic unit, 1..4.", default=None, ge=1, le=4)
    count: int = _doc("How many such units (generic units only).", default=1, ge=1, le=100)
    monster: bool | None = _doc("Whether a generic unit is a monster (default: health 4).", default=None)
    color: str | None = _doc("The die's own color, for races that come in colors (Eldarim, dragonkin) and "
                             "magical items.", default=None)


class ArmyIn(Strict):
    """An army, by its id."""

    player: str = _doc("The player who owns it.")
    at: str = _doc("A terrain id, or 'reserve'.")
    units: list[UnitIn | str] = _doc("Its units: catalog names or unit mappings.", min_length=1)


class EffectIn(Strict):
    """A spell or durational effect already in play."""

    spell: str | None = _doc("The spell, e.g. wall-of-fog.", default=None)
    sai: str | None = _doc("Instead of a spell, an SAI whose effect lasts (illusion, entangle, wither, ...).",
                           default=None)
    target: str = _doc("A terrain, army or unit id; a player for their DUA or all their armies.")
    by: str = _doc("The player who cast it.")
    count: int = _doc("How many times it was cast.", default=1, ge=1, le=20)
    source: str | None = _doc("The unit whose SAI made the effect (entangle: killing it ends the effect).",
                              default=None)
    next_turn: bool = _doc("The caster's next turn has already begun: a spell lasting until the end of your "
                           "next turn ends with the current turn (default: cast in the caster's last turn).",
                           default=False)


class DragonIn(Strict):
    """A dragon in play."""

    id: str = _doc("Its id, unique in the file.")
    color: str = _doc("black, blue, gold, green, red, ivory, white, or two for a hybrid (red-gold).")
    form: Literal["drake", "wyrm"] | None = _doc("drake or wyrm.", default=None)
    owner: str | None = _doc("The player who summoned it.", default=None)
    at: str = _doc("The terrain id where it is.")


class TurnIn(Strict):
    player: str = _doc("Whose turn it is when the steps begin.")


class TurnStepIn(Strict):
    """The current turn ends and a player's turn begins: spells expire."""

    player: str = _doc("The player whose turn begins.")


class RollStepIn(Strict):
    """One army roll through the full modifier sequence."""

    army: str = _doc("The army rolling.")
    for_: str | list[str] = _doc("The result type rolled for, or a list for a combination roll.", alias="for")
    roll: RollIn = _doc(ROLL)
    avoidance: bool = _doc("An avoidance roll (002 Avoidance Rolls), not an action roll.", default=False)
    penalties: dict[str, int] | None = _doc(
        "Where an 'any result' penalty goes in a combination roll: {missile: 2, save: 1}.", default=None)
    ids: dict[str, int] | None = _doc("Where ID icons go in a combination roll: {save: 3}.", default=None)
    splits: dict[str, dict[str, int]] | None = _doc(
        "SAI name -> how its points split in a combination roll: {fly: {save: 2, maneuver: 2}}.", default=None)
    counts_as: dict[str, int] | None = _doc(
        "How many results a racial ability converts, by target type: {save: 2}.", default=None)
    penalties_by_race: dict[str, dict[str, int]] | None = _doc(
        "Result type -> {race: n}: how many of the results army penalties took were each race's.", default=None)


class ManeuverStepIn(Strict):
    """A maneuver, and the counter-maneuvers."""

    army: str = _doc("The army maneuvering.")
    direction: Literal["up", "down"] | None = _doc("Which way the terrain turns.", default=None)
    roll: RollIn | None = _doc(ROLL, default=None)
    counter: dict[str, RollIn] | None = _doc("Each counter-maneuvering army id and its roll.", default=None)
    avoidance: RollIn | None = _doc("The acting army's roll against a spell its maneuver sets off (Wall of Thorns).",
                                    default=None)
    casualties: dict[str, list[str]] | None = _doc(CASUALTIES, default=None)
    burial: dict[str, RollIn | str | list[str]] | None = _doc(
        "Killed unit id -> its own roll against burial (Soiled Ground).", default=None)
    targets: dict[str, list[str]] | None = _doc(
        "SAI name -> the units it takes along (wayfare: [the unit carrying the item]).", default=None)
    move_to: dict[str, str] | None = _doc(
        "SAI name -> the terrain id or 'reserve' where it moves (wayfare); given, Wayfare moves instead of "
        "giving maneuvers.", default=None)
    ashes: dict[str, RollIn | str | list[str]] | None = _doc(ASHES, default=None)


class ManeuverIn(Strict):
    """The maneuver a spell makes an army attempt (Night Moves), as a maneuver step without its army."""

    direction: Literal["up", "down"] | None = _doc("Which way the terrain turns.", default=None)
    roll: RollIn | None = _doc(ROLL, default=None)
    counter: dict[str, RollIn] | None = _doc("Each counter-maneuvering army id and its roll.", default=None)


class CastIn(Strict):
    """One spell bought with the magic points."""

    spell: str = _doc("The spell, e.g. hailstorm.")
    target: str = _doc("A terrain, army or unit id; a spell in play as spell@terrain; a dead or buried unit id; "
                       "a player for their DUA or all their armies; a summoning pool's dragonkin.")
    count: int = _doc("How many times it is cast.", default=1, ge=1, le=20)
    color: str | None = _doc("The color paying for an elemental spell.", default=None)
    to: str | None = _doc("The army a moved unit or item joins (Path, Airy Acquisition).", default=None)
    dragon: str | None = _doc("The pool dragon a Summon Dragon spell sends, as player:item (bob:green-drake).",
                              default=None)
    maneuver: ManeuverIn | None = _doc("The maneuver the target army attempts (Night Moves).", default=None)
    into: str | None = _doc("The unit a promoted unit is exchanged for (Promote Dragonkin, Rise of the Eldarim).",
                            default=None)
    kin: str | None = _doc("The color of dragonkin a spell targets (Demote Dragonkin).", default=None)
    units: list[str] | None = _doc("The dead units a spell on a DUA chooses (Exhume).", default=None)
    melee: dict[str, Any] | None = _doc("The melee action a spell makes (Haunt), as a melee step without its army.",
                                        default=None)
    rise: list[str] | None = _doc("The caster's dead units that join the casting army (Exhume's Undead).",
                                  default=None)


class CantripIn(Strict):
    """What an army's Cantrip buys during a roll other than a magic action, as a magic step would."""

    colors: dict[str, int] | None = _doc("The split of the Cantrip points by color.", default=None)
    cast: list[CastIn] = _doc("The spells bought, resolved at once.", default_factory=list)
    avoidance: dict[str, RollIn | str | list[RollIn | str]] | None = _doc(
        "Target army or unit -> its roll against those spells.", default=None)
    casualties: dict[str, list[str]] | None = _doc(CASUALTIES, default=None)
    dispel: dict[str, str | list[str]] | None = _doc(
        "Unit id -> the face(s) of its Dispel Magic attempt against these spells (002 Dispel Magic: \"whenever "
        "any magic targets this unit\").", default=None)


CANTRIP = "Army id -> what its Cantrip buys during its roll, written as a magic step (colors, cast, avoidance)."


class MissileStepIn(Strict):
    """A missile attack: range, attack, saves, damage."""

    army: str = _doc("The attacking army.")
    target: str = _doc("The army attacked.")
    roll: RollIn = _doc(ROLL)
    saves: dict[str, RollIn] | None = _doc("The defending army id and its save roll.", default=None)
    casualties: dict[str, list[str]] | None = _doc(CASUALTIES, default=None)
    targets: dict[str, dict[str, int] | list[str] | str] | None = _doc(
        "SAI name -> {unit id: points}: where an individual-targeting SAI's points go; or the unit ids it "
        "chooses (entangle: [u1, u2]; regenerate: dead unit ids; ferry: the units moving along); or an army id "
        "(wither: army-id).", default=None)
    move_to: dict[str, str] | None = _doc(
        "SAI name -> the terrain id (or 'reserve', for Vanish) where the units it moves go.", default=None)
    ashes: dict[str, RollIn | str | list[str]] | None = _doc(ASHES, default=None)
    unit_saves: dict[str, RollIn | str | list[str]] | None = _doc(
        "Unit id -> its own save roll (its face or faces).", default=None)
    cantrip: dict[str, CantripIn] | None = _doc(CANTRIP, default=None)
    burial: dict[str, RollIn | str | list[str]] | None = _doc(
        "Killed unit id -> its own roll against burial (Soiled Ground).", default=None)


class MeleeStepIn(MissileStepIn):
    """A missile action's fields, and the defender's counter-attack."""

    counter: RollIn | Literal[False] | None = _doc("The defender's counter-attack roll, or false.", default=None)
    counter_saves: dict[str, RollIn] | None = _doc(
        "The attacking army id and its save roll against the counter-attack.", default=None)


class ChoicesIn(Strict):
    """A target's choices in its combination rolls against spells (as in a roll step)."""

    ids: dict[str, int] | None = _doc("Where ID icons go: {save: 3}.", default=None)
    counts_as: dict[str, int] | None = _doc("How many results a racial ability converts: {save: 2}.", default=None)
    splits: dict[str, dict[str, int]] | None = _doc("SAI name -> how its points split.", default=None)
    penalties: dict[str, int] | None = _doc("Where an 'any result' penalty goes.", default=None)


class SummonIn(Strict):
    """What an artifact's Summon Dragon SAI summons."""

    dragon: str | None = _doc("The pool dragon, as player:item (bob:red-drake); default the first of a matching "
                              "color.", default=None)
    to: str | None = _doc("The terrain it goes to; default the casting army's.", default=None)


class MagicStepIn(Strict):
    """A magic action: points by color, purchases, announce then resolve."""

    army: str = _doc("The army casting.")
    roll: RollIn = _doc(ROLL)
    colors: dict[str, int] | None = _doc("The owner's split of the magic points by color: {gold: 3, red: 2}.",
                                         default=None)
    cast: list[CastIn] = _doc("The spells bought, resolved in the order written.", default_factory=list)
    avoidance: dict[str, RollIn | str | list[RollIn | str]] | None = _doc(
        "Target army or unit -> its roll against the spells (a list when several spells need rolls).",
        default=None)
    casualties: dict[str, list[str]] | None = _doc(CASUALTIES, default=None)
    fleeing: dict[str, list[str]] | None = _doc("Army id -> the units its owner sends to the reserve area "
                                                "(Scent of Fear).", default=None)
    choices: dict[str, ChoicesIn] | None = _doc("Target -> its choices in its combination rolls (Tidal Wave).",
                                                default=None)
    negation: dict[str, RollIn] | None = _doc("Opposing army id -> its Frostwing magic negation roll.",
                                              default=None)
    dispel: dict[str, str | list[str]] | None = _doc(
        "Unit id -> the face(s) of its Dispel Magic attempt, rolled after the spells are announced.", default=None)
    cantrip: dict[str, CantripIn] | None = _doc(CANTRIP, default=None)
    burial: dict[str, RollIn | str | list[str]] | None = _doc(
        "Killed unit id -> its own roll against burial (Soiled Ground).", default=None)
    ashes: dict[str, RollIn | str | list[str]] | None = _doc(ASHES, default=None)
    targets: dict[str, list[str] | str] | None = _doc(
        "SAI name -> the army (or units) an SAI rolled in this magic action chooses (illusion: army-id).",
        default=None)
    move_to: dict[str, str] | None = _doc(
        "SAI name -> the terrain id where the units it moves go (ferry, teleport, firewalking).", default=None)
    summon: dict[str, SummonIn] | None = _doc(
        "Artifact unit id -> the dragon its Summon Dragon SAI sends and where.", default=None)


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
    """A Dragon Dice situation and what happened, step by step (ddref scenario format, version 1)."""

    ddref: Literal[1] = _doc("The format version: 1.")
    title: str = _doc("What the scenario is about.")
    source: str | None = _doc("Where the situation comes from (a rule, a worked example, a game).", default=None)
    description: str | None = _doc("Free text.", default=None)
    edition: Edition = _doc("The rules edition to replay under.", default="sfr-2012")
    players: list[str] = _doc("The players, in turn order.", min_length=1)
    turn: TurnIn | None = _doc("Whose turn it is (default: the first player).", default=None)
    terrains: dict[str, TerrainIn] = _doc("Terrain id -> terrain.", min_length=1)
    armies: dict[str, ArmyIn] = _doc("Army id -> army.", min_length=1)
    dua: dict[str, list[UnitIn | str]] = _doc("Player -> the units in their dead unit area.",
                                              default_factory=dict)
    bua: dict[str, list[UnitIn | str]] = _doc("Player -> the units in their buried unit area.",
                                              default_factory=dict)
    summoning_pool: dict[str, list[dict[str, Any]]] = _doc("Player -> what is in their summoning pool.",
                                                           default_factory=dict)
    dragons: list[DragonIn] = _doc("Dragons in play.", default_factory=list)
    effects: list[EffectIn] = _doc("Spells and durational effects already in play.", default_factory=list)
    steps: list[dict[str, Any]] = _doc("What happened, in order: each step one kind key, and expect or "
                                       "expect_error.", default_factory=list)
    expect: dict[str, Any] | None = _doc("Dotted paths into the final state -> expected values.", default=None)
