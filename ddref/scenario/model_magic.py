"""The scenario's magic step, loaded when a scenario has one.
"""

from .model import ASHES, CASUALTIES, DISCARD, RESIST, ROLL, SACRIFICE, STEPPED, described_field, RollIn, Strict, Count
from .model_actions import CANTRIP, CantripIn, CastIn
from .model import MOVE_TO, MOVERS, PER_MOVER, PER_MOVER_TO, no_entries
from typing import Literal


class ChoicesIn(Strict):
    """A target's choices in its combination rolls against spells (as in a roll step)."""

    ids: dict[str, Count] | None = described_field("Where ID icons go: {save: 3}.", default=None)
    counts_as: dict[str, Count] | None = described_field("How many results a racial ability converts: {save: 2}.", default=None)
    splits: dict[str, dict[str, Count]] | None = described_field("SAI name -> how its points split.", default=None)
    penalties: dict[str, Count] | None = described_field("Where an 'any result' penalty goes.", default=None)


class SummonIn(Strict):
    """What an artifact's Summon Dragon SAI summons."""

    dragon: str | None = described_field("The pool dragon, as player:item (bob:red-drake), or the id of a non-ivory "
                              "dragon at a terrain, tamed or not; default the first of a matching color in a pool.",
                              default=None)
    to: str | None = described_field("The terrain it goes to; default the casting army's.", default=None)


class SaveSaisIn(Strict):
    """An army's choices for the special SAIs of its save roll against a spell."""

    targets: dict[str, list[str] | MOVERS] | None = described_field(
        "SAI name -> the units it takes: regenerate / gold medallion: the dead units brought back; silver "
        "medallion: the buried item or dragonkin; ferry, teleport, firewalking: the units moving along." + PER_MOVER,
        default=None)
    move_to: MOVE_TO | None = described_field(
        "SAI name -> the terrain id (or 'reserve', for Vanish) where the units it moves go (tsr-1996 ferry: "
        "where the monster goes and stays)." + PER_MOVER_TO, default=None)
    unit_saves: dict[str, RollIn | str | list[str]] | None = described_field(
        "Unit id brought back during the roll -> its own save roll (it is rolled at once).", default=None)
    move_dragons: dict[str, str] | None = described_field(
        "Dragon id -> the terrain a Dragonkin Champion's logo rolled in the army's save and maneuver roll against "
        "Tidal Wave moves it to (a summoned dragon of the champion's color).", default=None)


class MagicStepIn(Strict):
    """A magic action: points by color, purchases, announce then resolve."""

    army: str = described_field("The army casting.")
    roll: RollIn = described_field(ROLL)
    colors: dict[str, Count] | None = described_field(
        "The owner's split of the magic points by color: {gold: 3, red: 2}; it may leave points out (fewer than the "
        "roll gives: the rest is not used), and the spells are paid from it.", default=None)
    cast: list[CastIn] = described_field("The spells bought, resolved in the order written.", default_factory=no_entries)
    avoidance: dict[str, RollIn | str | list[RollIn | str]] | None = described_field(
        "Target army or unit -> its roll against the spells (a list when several spells need rolls).",
        default=None)
    casualties: dict[str, list[str] | dict[str, list[str] | str]] | None = described_field(CASUALTIES, default=None)
    discard: list[str] | None = described_field(DISCARD, default=None)
    fleeing: dict[str, list[str]] | None = described_field("Army id -> the units its owner sends to the reserve area "
                                                "(Scent of Fear).", default=None)
    choices: dict[str, ChoicesIn] | None = described_field("Target -> its choices in its combination rolls (Tidal Wave).",
                                                default=None)
    negation: dict[str, RollIn] | None = described_field("Opposing army id -> its Frostwing magic negation roll.",
                                              default=None)
    dispel: dict[str, str | list[str]] | None = described_field(
        "Unit id -> the face(s) of its Dispel Magic attempt, rolled after the spells are announced.", default=None)
    cantrip: dict[str, CantripIn] | None = described_field(CANTRIP, default=None)
    burial: dict[str, RollIn | str | list[str]] | None = described_field(
        "Killed unit id -> its own roll against burial (Soiled Ground).", default=None)
    ashes: dict[str, RollIn | str | list[str]] | None = described_field(ASHES, default=None)
    move_to: MOVE_TO | None = described_field(
        "SAI name -> the terrain id where the units it moves go (ferry, teleport, firewalking; tsr-1996 ferry: "
        "where the monster goes and stays)." + PER_MOVER_TO, default=None)
    summon: dict[str, SummonIn] | None = described_field(
        "Artifact unit id -> the dragon its Summon Dragon SAI sends and where.", default=None)
    targets: dict[str, list[str] | MOVERS | str] | None = described_field(
        "SAI name -> the army (or units) a special SAI of the magic roll targets (Sneak Attack, Illusion, "
        "Galeforce; Ferry and the like: the units moving along)." + PER_MOVER, default=None)
    stepped: dict[str, str] | None = described_field(STEPPED, default=None)
    resist_burial: dict[str, RollIn | str | list[str]] | None = described_field(RESIST, default=None)
    sacrifice: dict[str, str] | None = described_field(SACRIFICE, default=None)
    death_magic: list[str] | None = described_field(
        "tsr-1996 Death Magic: the dead units (all of one player's DUA, that player's choice) buried to double "
        "as many black ID points as their health.", default=None)
    move_dragons: dict[str, str] | None = described_field(
        "Dragon id -> the terrain a Dragonkin Champion's logo rolled in this roll moves it to.", default=None)
    attune_color: str | None = described_field(
        "The one color an Attune's magic and the magic icons of the unit it attunes (targets: {attune: [unit]}) "
        "are cast as.", default=None)
    save_sais: dict[str, SaveSaisIn] | None = described_field(
        "Army id -> its choices for the special SAIs of its save roll against the spells (Regenerate, the "
        "Medallions, Cloak, Vanish, Ferry, Teleport, Firewalking); or a unit id -> those of the unit's own save roll "
        "against a spell aimed at it.", default=None)
    unit_saves: dict[str, RollIn | str | list[str]] | None = described_field(
        "Dead unit id brought back by the magic roll's Regenerate or Gold Medallion -> its own magic roll (it is "
        "rolled at once).", default=None)
    counter: RollIn | Literal[False] | None = described_field(
        "A magic action has no counter-attack (002 Glossary, Counter-Attack Phase: \"The subsequent response by a defending "
        "army to a melee attack\"): a counter-attack roll written here is refused when the step resolves, so "
        "expect_error can pin it; false says there is none.", default=None)
