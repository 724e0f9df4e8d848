"""The scenario's turn-sequence steps (turn, setup, promote, replant, minor, reserves), loaded when a
scenario has one.
"""

from typing import Annotated, Literal

from pydantic import Field

from .model import CASUALTIES, DISCARD, RESIST, described_field, RollIn, Strict


class ExchangeIn(Strict):
    """One recruitment or one promotion in the Initial Effects phase (Feralization, City, Kings' Die)."""

    recruit: str | list[str] | None = described_field("The dead unit recruited.", default=None)
    promote: dict[str, str] | None = described_field("Unit id in the army -> the dead unit it is promoted to.", default=None)


class MutationIn(Strict):
    """A Swamp Stalker mutation attempt (002 Mutation)."""

    army: str = described_field("The mutating army (with a Swamp Stalker unit, at a terrain).")
    targets: dict[str, RollIn | str | list[str]] = described_field(
        "Unit id in an opponent's reserve area (up to 3 health-worth) -> its save roll (a face or faces).")
    recruit: list[str] | None = described_field("The dead Swamp Stalkers returned to the army; left out, the largest that "
                                     "fit (marked defaulted).", default=None)
    promote: dict[str, str] | None = described_field("Swamp Stalker unit id -> the dead Swamp Stalker it is promoted to.",
                                          default=None)


class TempleIn(Strict):
    """The dead unit a Temple forces another player to bury."""

    player: str = described_field("The player forced to bury one of their dead units.")
    bury: str | None = described_field("The dead unit that player chooses; left out, their smallest (marked defaulted).",
                            default=None)
    ashes: RollIn | str | list[str] | None = described_field(
        "The chosen unit's own roll for Rise from the Ashes (001 Rise from the Ashes: \"Whenever a unit with this SAI "
        "is killed or buried, roll the unit\"): required when it bears the SAI (a Phoenix); with the icon it goes "
        "to the reserve area instead of the BUA.", default=None)


class KingsDieIn(ExchangeIn):
    """The Kings' Die's use: recruit or promote one unit, or roll it (then recruit and promote up to 4 health)."""

    roll: str | None = described_field("The face rolled: a race (dwarf) or logo; then recruit and promote bring back up to "
                            "four health-worth.", default=None)


class DragonsLairIn(Strict):
    """The dragon a Dragon's Lair summons, and where."""

    dragon: str | None = described_field("The pool dragon, as player:item (bob:red-drake); default: the first that fits.",
                              default=None)
    to: str | None = described_field("The terrain it goes to; default: the Lair.", default=None)


class InitialIn(Strict):
    """The marching player's choices in the Initial Effects phase; an effect left out is not used."""

    feralization: dict[str, ExchangeIn] | None = described_field("Army id -> the Feral unit it recruits or promotes.",
                                                      default=None)
    mutation: MutationIn | None = described_field("A Swamp Stalker mutation attempt.", default=None)
    sacrifice: dict[str, str] | None = described_field("Dead Eldarim unit id -> the dragonkin in play of equal health it "
                                            "replaces (Sacrifice Dragonkin).", default=None)
    city: dict[str, ExchangeIn] | None = described_field("Army controlling a City -> the unit it recruits or promotes.",
                                              default=None)
    temple: dict[str, TempleIn] | None = described_field("Army controlling a Temple -> the player forced to bury a dead "
                                              "unit, and which.", default=None)
    grove: str | None = described_field("The buried non-dragonkin unit a Grove returns to its DUA (default: the first).",
                             default=None)
    dragons_lair: DragonsLairIn | None = described_field("The dragon a Dragon's Lair summons, and where.", default=None)
    kings_die: KingsDieIn | None = described_field("The Kings' Die's use.", default=None)
    order: list[Literal["feralization", "mutation", "sacrifice", "city", "temple", "grove", "dragons_lair"]] | None = \
        described_field("The player's order of the effects within each step (racial abilities; eighth faces); default: "
             "the order of this list.", default=None)


class TurnStepIn(Strict):
    """The current turn ends and a player's turn begins: spells expire, then the Initial Effects phase."""

    player: str = described_field("The player whose turn begins.")
    initial: InitialIn | None = described_field("The player's choices in the Initial Effects phase.", default=None)
    resist_burial: dict[str, RollIn | str | list[str]] | None = described_field(RESIST, default=None)


class SetupStepIn(Strict):
    """Starting the game: each player's force, dragons and starting armies are checked against the edition's
    set-up rules; the order-of-play roll and the starting distances are resolved."""

    force: int = described_field("The agreed total force size: health points of components each player brings.", gt=0,
                      le=10000)
    player: str | None = described_field("Check only this player's force and armies (default: every player's).",
                              default=None)
    dragons: dict[str, int] | None = described_field(
        "Player -> how many dragons they brought (default: the dragons in their summoning pool; a white dragon "
        "counts as two).", default=None)
    magic_faces: dict[str, dict[str, int]] | None = described_field(
        "Unit id -> how many of its die's faces show each magic-making icon ({magic: 3}, {cantrip: 1, "
        "create-fireminions: 2}), for the magic point value of a die whose faces the corpus does not list.",
        default=None)
    order: dict[str, dict[str, int]] | None = described_field(
        "Player -> their horde army's order-of-play roll as icon counts: {maneuver: 4, id: 1, fly: 2}.",
        default=None)
    terrain_rolls: dict[str, list[int]] | None = described_field(
        "Terrain id -> its starting-distance rolls in order; an 8 is rolled again: [8, 7].", default=None)


class PromoteStepIn(Strict):
    """A promotion by itself (002 Promotion), to replay a ruling; illegal choices list the legal ones."""

    army: str = described_field("The army whose units are promoted.")
    allowed: Annotated[int, Field(ge=0)] | Literal["all"] = described_field(
        "How many units it may promote, or 'all' for as many as possible.", default=1)
    chosen: dict[str, str] | None = described_field(
        "Unit id in the army -> the unit of its DUA (dragonkin: summoning pool) it becomes; left out, the "
        "army's largest units first (marked defaulted).", default=None)


class ReplantStepIn(Strict):
    """Treefolk Replanting (002): Treefolk units of the army exchanged for an equal health of dead Treefolk."""

    army: str = described_field("The Treefolk army, at a terrain (after its maneuver, before its action).")
    give: list[str] = described_field("The army's Treefolk units that go to the DUA.", min_length=1)
    take: list[str] = described_field("The dead Treefolk units that join the army: the same health in all.", min_length=1)


class MinorStepIn(Strict):
    """An army's minor terrain is rolled: when brought in, and before each march of its army."""

    army: str = described_field("The army the minor terrain is with.")
    roll: str = described_field("The face it shows: melee, missile, magic, double maneuvers, double saves, id, or a disaster "
                     "(flood, landslide, revolt, lost).")
    choose: Literal["actions", "doubles"] | None = described_field(
        "After an ID, the owner's choice: melee, missile or magic actions, or double maneuvers and saves "
        "(default: doubles).", default=None)
    avoidance: RollIn | None = described_field("Flood: each rolling unit's face ({unit: face}, five health-worth); Landslide: "
                                    "the army's maneuver avoidance roll.", default=None)
    casualties: dict[str, list[str] | dict[str, list[str] | str]] | None = described_field(CASUALTIES, default=None)
    discard: list[str] | None = described_field(DISCARD, default=None)


class ReservesStepIn(Strict):
    """The marching player's Reserve Movement: reinforce, then retreat."""

    reinforce: dict[str, str] | None = described_field("Unit (or carried item) id in the reserve area -> the terrain it "
                                            "moves to.", default=None)
    retreat: list[str] | None = described_field("Unit (or carried item) ids moving from their terrain to the reserve area.",
                                     default=None)
    fly: dict[str, str] | None = described_field("Firewalker unit (or carried item) id -> the terrain it flies to in the retreat "
                                      "step (Terrain Flight).", default=None)
    discard: list[str] | None = described_field("Items an army left with too few units to carry them buries (the owner's "
                                     "choice; default the last written).", default=None)
