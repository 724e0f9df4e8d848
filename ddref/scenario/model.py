"""The scenario file, version 1 (../shared/docs/scenario-format.md), as pydantic models.

These models check shapes and types; names (races, spells, units, SAIs,
terrain types) are checked against the corpus by ``ddref.scenario.build``,
which knows the edition. The descriptions are what ``ddref schema`` gives
editors to show beside each field.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

Edition = Literal["sfr-2012", "sfr-v4", "tsr-1996"]
RollIn = dict[str, Any]          # aggregate {maneuver: 12, id: 2} or per unit {unit-id: "melee 2"}

ROLL = ("A roll: the army's aggregate {maneuver: 12, save: 3, id: 2} (result icons, id, SAI names), "
        "or per unit {unit-id: 'melee 2', other-id: [rend, melee 2]}.")
CASUALTIES = "Army id -> the ids of the units it removes; left out, the engine chooses (marked defaulted)."
ASHES = "Killed unit id -> its own roll for Rise from the Ashes (required for a Phoenix)."
STEPPED = ("Killed Undead unit id -> the dead Undead unit of lesser health it is traded for (Stepped Damage); "
           "a killed Undead unit left out is not traded.")
RESIST = "Buried Undead unit id -> its roll to resist burial (a non-ID save returns it to the DUA)."
SACRIFICE = ("Eldarim unit id killed by an individual-targeting effect -> the summoned dragonkin of equal health in "
             "its army sent back to the summoning pool instead (Sacrifice Dragonkin).")


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
    special: Literal["castle", "dragons-lair", "grove", "vortex"] | None = _doc(
        "A special terrain (gold ink, frontier only); type gives its colors. A Castle at face 8 names its declared "
        "type in eighth.", default=None)


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
    tamed_by: str | None = _doc("The Dragonlord or Dragonmaster (unit id) that tamed it and controls it.",
                                default=None)


class TurnIn(Strict):
    player: str = _doc("Whose turn it is when the steps begin.")
    phase: Literal["first-march", "second-march", "reserves", "setup"] | None = _doc(
        "Where in the turn the steps begin; given, the engine follows the turn's phases (two marches by "
        "different armies of this player, then the Reserve Movement). Absent, each step stands alone. "
        "setup: the game has not begun; player plays first, and a turn step naming them begins the first turn.",
        default=None)
    marched: list[str] | None = _doc("The armies that have marched this turn already (second-march, reserves).",
                                     default=None)


class ExchangeIn(Strict):
    """One recruitment or one promotion in the Initial Effects phase (Feralization, City, Kings' Die)."""

    recruit: str | list[str] | None = _doc("The dead unit recruited.", default=None)
    promote: dict[str, str] | None = _doc("Unit id in the army -> the dead unit it is promoted to.", default=None)


class MutationIn(Strict):
    """A Swamp Stalker mutation attempt (002 Mutation)."""

    army: str = _doc("The mutating army (with a Swamp Stalker unit, at a terrain).")
    targets: dict[str, RollIn | str | list[str]] = _doc(
        "Unit id in an opponent's reserve area (up to 3 health-worth) -> its save roll (a face or faces).")
    recruit: list[str] | None = _doc("The dead Swamp Stalkers returned to the army; left out, the largest that "
                                     "fit (marked defaulted).", default=None)
    promote: dict[str, str] | None = _doc("Swamp Stalker unit id -> the dead Swamp Stalker it is promoted to.",
                                          default=None)


class TempleIn(Strict):
    """The dead unit a Temple forces another player to bury."""

    player: str = _doc("The player forced to bury one of their dead units.")
    bury: str | None = _doc("The dead unit that player chooses; left out, their smallest (marked defaulted).",
                            default=None)


class KingsDieIn(ExchangeIn):
    """The Kings' Die's use: recruit or promote one unit, or roll it (then recruit and promote up to 4 health)."""

    roll: str | None = _doc("The face rolled: a race (dwarf) or logo; then recruit and promote bring back up to "
                            "four health-worth.", default=None)


class DragonsLairIn(Strict):
    """The dragon a Dragon's Lair summons, and where."""

    dragon: str | None = _doc("The pool dragon, as player:item (bob:red-drake); default: the first that fits.",
                              default=None)
    to: str | None = _doc("The terrain it goes to; default: the Lair.", default=None)


class InitialIn(Strict):
    """The marching player's choices in the Initial Effects phase; an effect left out is not used."""

    feralization: dict[str, ExchangeIn] | None = _doc("Army id -> the Feral unit it recruits or promotes.",
                                                      default=None)
    mutation: MutationIn | None = _doc("A Swamp Stalker mutation attempt.", default=None)
    sacrifice: dict[str, str] | None = _doc("Dead Eldarim unit id -> the dragonkin in play of equal health it "
                                            "replaces (Sacrifice Dragonkin).", default=None)
    city: dict[str, ExchangeIn] | None = _doc("Army controlling a City -> the unit it recruits or promotes.",
                                              default=None)
    temple: dict[str, TempleIn] | None = _doc("Army controlling a Temple -> the player forced to bury a dead "
                                              "unit, and which.", default=None)
    grove: str | None = _doc("The buried non-dragonkin unit a Grove returns to its DUA (default: the first).",
                             default=None)
    dragons_lair: DragonsLairIn | None = _doc("The dragon a Dragon's Lair summons, and where.", default=None)
    kings_die: KingsDieIn | None = _doc("The Kings' Die's use.", default=None)
    order: list[Literal["feralization", "mutation", "sacrifice", "city", "temple", "grove", "dragons_lair"]] | None = \
        _doc("The player's order of the effects within each step (racial abilities; eighth faces); default: "
             "the order of this list.", default=None)


class TurnStepIn(Strict):
    """The current turn ends and a player's turn begins: spells expire, then the Initial Effects phase."""

    player: str = _doc("The player whose turn begins.")
    initial: InitialIn | None = _doc("The player's choices in the Initial Effects phase.", default=None)
    resist_burial: dict[str, RollIn | str | list[str]] | None = _doc(RESIST, default=None)


class SetupStepIn(Strict):
    """Starting the game: each player's force, dragons and starting armies are checked against the edition's
    set-up rules; the order-of-play roll and the starting distances are resolved."""

    force: int = _doc("The agreed total force size: health points of components each player brings.", gt=0,
                      le=10000)
    player: str | None = _doc("Check only this player's force and armies (default: every player's).",
                              default=None)
    dragons: dict[str, int] | None = _doc(
        "Player -> how many dragons they brought (default: the dragons in their summoning pool; a white dragon "
        "counts as two).", default=None)
    magic_faces: dict[str, dict[str, int]] | None = _doc(
        "Unit id -> how many of its die's faces show each magic-making icon ({magic: 3}, {cantrip: 1, "
        "create-fireminions: 2}), for the magic point value of a die whose faces the corpus does not list.",
        default=None)
    order: dict[str, dict[str, int]] | None = _doc(
        "Player -> their horde army's order-of-play roll as icon counts: {maneuver: 4, id: 1, fly: 2}.",
        default=None)
    terrain_rolls: dict[str, list[int]] | None = _doc(
        "Terrain id -> its starting-distance rolls in order; an 8 is rolled again: [8, 7].", default=None)


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
    targets: dict[str, list[str]] | None = _doc(
        "A save or avoidance roll's special SAI -> the units it takes (regenerate, gold medallion: dead units "
        "brought back; silver medallion: the buried item or dragonkin; ferry, teleport, firewalking: the units "
        "moving along).", default=None)
    move_to: dict[str, str] | None = _doc(
        "SAI name -> the terrain id (or 'reserve', for Vanish) where the units it moves go (tsr-1996 ferry: "
        "where the monster goes and stays).", default=None)
    unit_saves: dict[str, RollIn | str | list[str]] | None = _doc(
        "Unit id brought back during the roll -> its own roll (it is rolled at once).", default=None)
    move_dragons: dict[str, str] | None = _doc(
        "Dragon id -> the terrain a Dragonkin Champion's logo rolled in this roll moves it to.", default=None)


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
    stepped: dict[str, str] | None = _doc(STEPPED, default=None)
    resist_burial: dict[str, RollIn | str | list[str]] | None = _doc(RESIST, default=None)
    castle: Literal["city", "standing-stones", "temple", "tower"] | None = _doc(
        "The type a Castle's captor declares when the maneuver turns it up to 8 (default: city).", default=None)
    minor_terrain: str | None = _doc("If the maneuver succeeds, bring in the summoning pool's minor terrain of this "
                                     "type instead of turning the terrain (a minor step rolls it next).", default=None)


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
    dragon: str | None = _doc("The pool dragon a Summon Dragon spell sends, as player:item (bob:green-drake); "
                              "or a dragon id at a terrain, where the edition sends one from there, or a "
                              "tamed non-ivory dragon's id (sfr-2012 Dragon Taming).", default=None)
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
        "SAI name -> {unit id: points} (where an individual-targeting SAI's points go), or [unit ids] (the "
        "units it targets, in order: entangle [u1, u2]; regenerate: dead unit ids; ferry: the units moving "
        "along), or an army id (the army it targets: wither army-id).", default=None)
    move_to: dict[str, str] | None = _doc(
        "SAI name -> the terrain id (or 'reserve', for Vanish) where the units it moves go (tsr-1996 ferry: "
        "where the monster goes and stays).", default=None)
    move_dragons: dict[str, str] | None = _doc(
        "Dragon id -> the terrain a Dragonkin Champion's logo rolled in this roll moves it to.", default=None)
    ashes: dict[str, RollIn | str | list[str]] | None = _doc(ASHES, default=None)
    unit_saves: dict[str, RollIn | str | list[str]] | None = _doc(
        "Unit id -> its own roll (its face or faces): a target's save, or the roll an SAI makes it make "
        "(its ID icon, a maneuver, a reroll).", default=None)
    order: list[str] | None = _doc(
        "The special and unique SAIs of the attack roll, in the order the acting player resolves them.",
        default=None)
    cantrip: dict[str, CantripIn] | None = _doc(CANTRIP, default=None)
    burial: dict[str, RollIn | str | list[str]] | None = _doc(
        "Killed unit id -> its own roll against burial (Soiled Ground).", default=None)
    stepped: dict[str, str] | None = _doc(STEPPED, default=None)
    resist_burial: dict[str, RollIn | str | list[str]] | None = _doc(RESIST, default=None)
    sacrifice: dict[str, str] | None = _doc(SACRIFICE, default=None)


class MeleeStepIn(MissileStepIn):
    """A missile action's fields, and the defender's counter-attack."""

    counter: RollIn | Literal[False] | None = _doc("The defender's counter-attack roll, or false.", default=None)
    counter_saves: dict[str, RollIn] | None = _doc(
        "The attacking army id and its save roll against the counter-attack.", default=None)
    rise: list[str] | None = _doc("The acting player's dead Undead units that return to the attacking army, up "
                                  "to the health Convert killed.", default=None)
    unit_ids: dict[str, dict[str, int]] | None = _doc(
        "Unit id -> where the ID icons of its own combination roll go, e.g. a Coil target's {save: 1, melee: 1} "
        "(default: all on save, marked defaulted).", default=None)
    counter_order: list[str] | None = _doc(
        "The special and unique SAIs of the counter-attack roll, in the order the defending player resolves them.",
        default=None)
    charge: bool = _doc("tsr-1996: the melee is declared as a charge (000 First March, Charge): the attack's melee "
                        "and maneuver are damage, the target's one roll (saves) gives saves and melee back, the "
                        "charger rolls no saves.", default=False)
    pursue: bool = _doc("With routing: the attacker pursues the army its attack routed, turning the terrain one face "
                        "down (000 Option: Routing).", default=False)


class ChoicesIn(Strict):
    """A target's choices in its combination rolls against spells (as in a roll step)."""

    ids: dict[str, int] | None = _doc("Where ID icons go: {save: 3}.", default=None)
    counts_as: dict[str, int] | None = _doc("How many results a racial ability converts: {save: 2}.", default=None)
    splits: dict[str, dict[str, int]] | None = _doc("SAI name -> how its points split.", default=None)
    penalties: dict[str, int] | None = _doc("Where an 'any result' penalty goes.", default=None)


class SummonIn(Strict):
    """What an artifact's Summon Dragon SAI summons."""

    dragon: str | None = _doc("The pool dragon, as player:item (bob:red-drake), or the id of a tamed non-ivory "
                              "dragon; default the first of a matching color in a pool.", default=None)
    to: str | None = _doc("The terrain it goes to; default the casting army's.", default=None)


class SaveSaisIn(Strict):
    """An army's choices for the special SAIs of its save roll against a spell."""

    targets: dict[str, list[str]] | None = _doc(
        "SAI name -> the units it takes: regenerate / gold medallion: the dead units brought back; silver "
        "medallion: the buried item or dragonkin; ferry, teleport, firewalking: the units moving along.",
        default=None)
    move_to: dict[str, str] | None = _doc(
        "SAI name -> the terrain id (or 'reserve', for Vanish) where the units it moves go (tsr-1996 ferry: "
        "where the monster goes and stays).", default=None)
    unit_saves: dict[str, RollIn | str | list[str]] | None = _doc(
        "Unit id brought back during the roll -> its own save roll (it is rolled at once).", default=None)
    move_dragons: dict[str, str] | None = _doc(
        "Dragon id -> the terrain a Dragonkin Champion's logo rolled in the army's save and maneuver roll against "
        "Tidal Wave moves it to (a summoned dragon of the champion's color).", default=None)


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
    move_to: dict[str, str] | None = _doc(
        "SAI name -> the terrain id where the units it moves go (ferry, teleport, firewalking; tsr-1996 ferry: "
        "where the monster goes and stays).", default=None)
    summon: dict[str, SummonIn] | None = _doc(
        "Artifact unit id -> the dragon its Summon Dragon SAI sends and where.", default=None)
    targets: dict[str, list[str] | str] | None = _doc(
        "SAI name -> the army (or units) a special SAI of the magic roll targets (Sneak Attack, Illusion, "
        "Galeforce; Ferry and the like: the units moving along).", default=None)
    stepped: dict[str, str] | None = _doc(STEPPED, default=None)
    resist_burial: dict[str, RollIn | str | list[str]] | None = _doc(RESIST, default=None)
    sacrifice: dict[str, str] | None = _doc(SACRIFICE, default=None)
    death_magic: list[str] | None = _doc(
        "tsr-1996 Death Magic: the dead units (all of one player's DUA, that player's choice) buried to double "
        "as many black ID points as their health.", default=None)
    move_dragons: dict[str, str] | None = _doc(
        "Dragon id -> the terrain a Dragonkin Champion's logo rolled in this roll moves it to.", default=None)
    attune_color: str | None = _doc(
        "The one color an Attune's magic and the magic icons of the unit it attunes (targets: {attune: [unit]}) "
        "are cast as.", default=None)
    save_sais: dict[str, SaveSaisIn] | None = _doc(
        "Army id -> its choices for the special SAIs of its save roll against the spells (Regenerate, the "
        "Medallions, Cloak, Vanish, Ferry, Teleport, Firewalking); or a unit id -> those of the unit's own save roll "
        "against a spell aimed at it.", default=None)
    unit_saves: dict[str, RollIn | str | list[str]] | None = _doc(
        "Dead unit id brought back by the magic roll's Regenerate or Gold Medallion -> its own magic roll (it is "
        "rolled at once).", default=None)


class PromoteStepIn(Strict):
    """A promotion by itself (002 Promotion), to replay a ruling; illegal choices list the legal ones."""

    army: str = _doc("The army whose units are promoted.")
    allowed: Annotated[int, Field(ge=0)] | Literal["all"] = _doc(
        "How many units it may promote, or 'all' for as many as possible.", default=1)
    chosen: dict[str, str] | None = _doc(
        "Unit id in the army -> the unit of its DUA (dragonkin: summoning pool) it becomes; left out, the "
        "army's largest units first (marked defaulted).", default=None)


class DragonAttackStepIn(Strict):
    """A dragon attack on an army (002 Dragon Attack Phase): Eldarim logos, the dragons' icons, breaths,
    treasures, dragon vs. dragon, the army's combination roll, slaying, promotions, wings."""

    army: str = _doc("The army the dragons at its terrain attack.")
    dragons: dict[str, list[str] | str] = _doc(
        "Dragon id -> the icons it rolled, in order: [tail, jaws] (a Tail rolls it again); every dragon that "
        "rolls in this attack, including those fighting other dragons.", default_factory=dict)
    roll: RollIn | None = _doc("The army's roll against the attack (melee, missile and saves at once; only saves "
                               "under a Blue Dragon Breath). " + ROLL, default=None)
    ids: dict[str, int] | None = _doc("Where ID icons go in the army's roll: {melee: 1, missile: 1, save: 3}.",
                                      default=None)
    penalties: dict[str, int] | None = _doc("Where an 'any result' penalty goes in the army's roll.", default=None)
    splits: dict[str, dict[str, int]] | None = _doc("SAI name -> how its points split in the army's roll.",
                                                    default=None)
    counts_as: dict[str, int] | None = _doc("How many results a racial ability converts: {save: 2}.", default=None)
    casualties: dict[str, list[str]] | None = _doc(CASUALTIES, default=None)
    eldarim: dict[str, str] | None = _doc("Eldarim champion unit id -> the icon it rolled before the attack "
                                          "(its logo tames, slays or controls a dragon).", default=None)
    logo_targets: dict[str, str] | None = _doc("Champion unit id -> the dragon its logo acts on (default: the "
                                               "first it can).", default=None)
    fights: dict[str, str] | None = _doc("Dragon id -> the dragon it attacks in dragon vs. dragon (default: the "
                                         "first it may).", default=None)
    breath: dict[str, str] | None = _doc("Hybrid dragon id -> the color of its breath on 5 health-worth (its "
                                         "owner's pick).", default=None)
    breath_targets: dict[str, list[str]] | None = _doc(
        "Breath color -> the units its individual effect reaches (5 health-worth per breath), in the order the "
        "colors resolve; default: the smallest units.", default=None)
    breath_saves: dict[str, RollIn | str | list[str]] | None = _doc(
        "Unit id -> its own roll to save against a breath (blue, green).", default=None)
    breath_burial: dict[str, RollIn | str | list[str]] | None = _doc(
        "Unit id killed by a breath -> its roll to save against burial (red, green).", default=None)
    slay: dict[str, Literal["melee", "missile"]] | None = _doc(
        "Dragon id -> the results that slay it; default: as many dragons as possible.", default=None)
    treasure: dict[str, str] | None = _doc("Treasure's promotion: unit id in the army -> unit id in the DUA.",
                                           default=None)
    promote: dict[str, str] | None = _doc("Promotions after slaying: unit id in the army -> unit id in the DUA.",
                                          default=None)
    sai_dragons: dict[str, str] | None = _doc("Unit id -> the dragon its Decapitate, Impale or Bash acts on "
                                              "(default: the first it can).", default=None)
    move_dragons: dict[str, str] | None = _doc("Dragon id -> the terrain a Dragonkin Champion's logo rolled in the "
                                               "army's roll moves it to (a dragon of the champion's color).",
                                               default=None)
    cantrip: dict[str, CantripIn] | None = _doc(CANTRIP, default=None)
    elevate: dict[str, Literal["missile", "save"]] | None = _doc(
        "Unit id -> the results an Elevate doubles for that unit in the army's roll (002: \"doubles one unit's missile or save "
        "results\"); one unit per Elevate rolled; default: the units and results gaining the most.", default=None)
    move_to: dict[str, str] | None = _doc(
        "SAI name -> the terrain id (or 'reserve', for Vanish and Wayfare) where the units it moves during the "
        "army's roll go (tsr-1996 ferry: where the monster goes and stays).", default=None)
    targets: dict[str, list[str]] | None = _doc(
        "SAI name -> the units moving along (wayfare: the unit carrying the item; ferry, teleport, "
        "firewalking: the units going with the rolling unit; regenerate, gold medallion: dead units brought "
        "back; silver medallion: the buried item or dragonkin).", default=None)
    unit_saves: dict[str, RollIn | str | list[str]] | None = _doc(
        "Unit id brought back during the army's roll (regenerate, gold medallion) -> its own combination roll "
        "(it is rolled at once).", default=None)
    breath_sais: dict[str, SaveSaisIn] | None = _doc(
        "Unit id -> the choices for the special SAIs of its own save against a breath (breath_saves): the dead "
        "units Regenerate brings back (targets), where Vanish, Ferry, Teleport, Firewalking move it (move_to) and "
        "the units going along (targets).", default=None)


class ReplantStepIn(Strict):
    """Treefolk Replanting (002): Treefolk units of the army exchanged for an equal health of dead Treefolk."""

    army: str = _doc("The Treefolk army, at a terrain (after its maneuver, before its action).")
    give: list[str] = _doc("The army's Treefolk units that go to the DUA.", min_length=1)
    take: list[str] = _doc("The dead Treefolk units that join the army: the same health in all.", min_length=1)


class MinorStepIn(Strict):
    """An army's minor terrain is rolled: when brought in, and before each march of its army."""

    army: str = _doc("The army the minor terrain is with.")
    roll: str = _doc("The face it shows: melee, missile, magic, double maneuvers, double saves, id, or a disaster "
                     "(flood, landslide, revolt, lost).")
    choose: Literal["actions", "doubles"] | None = _doc(
        "After an ID, the owner's choice: melee, missile or magic actions, or double maneuvers and saves "
        "(default: doubles).", default=None)
    avoidance: RollIn | None = _doc("Flood: each rolling unit's face ({unit: face}, five health-worth); Landslide: "
                                    "the army's maneuver avoidance roll.", default=None)
    casualties: dict[str, list[str]] | None = _doc(CASUALTIES, default=None)


class ReservesStepIn(Strict):
    """The marching player's Reserve Movement: reinforce, then retreat."""

    reinforce: dict[str, str] | None = _doc("Unit (or carried item) id in the reserve area -> the terrain it "
                                            "moves to.", default=None)
    retreat: list[str] | None = _doc("Unit (or carried item) ids moving from their terrain to the reserve area.",
                                     default=None)
    fly: dict[str, str] | None = _doc("Firewalker unit (or carried item) id -> the terrain it flies to in the retreat "
                                      "step (Terrain Flight).", default=None)
    discard: list[str] | None = _doc("Items an army left with too few units to carry them buries (the owner's "
                                     "choice; default the last written).", default=None)


STEP_MODELS: dict[str, type[Strict]] = {
    "roll": RollStepIn,
    "maneuver": ManeuverStepIn,
    "melee": MeleeStepIn,
    "missile": MissileStepIn,
    "magic": MagicStepIn,
    "turn": TurnStepIn,
    "reserves": ReservesStepIn,
    "minor": MinorStepIn,
    "setup": SetupStepIn,
    "promote": PromoteStepIn,
    "dragon_attack": DragonAttackStepIn,
    "replant": ReplantStepIn,
}


class ScenarioIn(Strict):
    """A Dragon Dice situation and what happened, step by step (ddref scenario format, version 1)."""

    ddref: Literal[1] = _doc("The format version: 1.")
    title: str = _doc("What the scenario is about.")
    source: str | None = _doc("Where the situation comes from (a rule, a worked example, a game).", default=None)
    description: str | None = _doc("Free text.", default=None)
    edition: Edition = _doc("The rules edition to replay under.", default="sfr-2012")
    players: list[str] = _doc("The players, in turn order.", min_length=1)
    turn: TurnIn | None = _doc("Whose turn it is (default: the first player).", default=None)
    routing: bool = _doc("tsr-1996's optional routing rule (000 Option: Routing) is in play: an army whose save roll "
                         "(or charge roll) shows more ID icons than save icons routs.", default=False)
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
