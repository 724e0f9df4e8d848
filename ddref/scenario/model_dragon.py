"""The scenario's dragon_attack step, loaded when a scenario has one.
"""

from typing import Literal

from .model import CASUALTIES, DISCARD, ROLL, described_field, RollIn, Strict, Count
from .model import MOVE_TO, MOVERS, PER_MOVER, PER_MOVER_TO
from .model_actions import CANTRIP, CantripIn
from .model_magic import SaveSaisIn


class DragonAttackStepIn(Strict):
    """A dragon attack on an army (002 Dragon Attack Phase): Eldarim logos, the dragons' icons, breaths,
    treasures, dragon vs. dragon, the army's combination roll, slaying, promotions, wings."""

    army: str = described_field("The army the dragons at its terrain attack.")
    dragons: dict[str, list[str] | str] = described_field(
        "Dragon id -> the icons it rolled, in order: [tail, jaws] (a Tail rolls it again); every dragon that "
        "rolls in this attack, including those fighting other dragons.", default_factory=dict)
    roll: RollIn | None = described_field("The army's roll against the attack (melee, missile and saves at once; only saves "
                               "under a Blue Dragon Breath). " + ROLL, default=None)
    ids: dict[str, Count] | None = described_field("Where ID icons go in the army's roll: {melee: 1, missile: 1, save: 3}.",
                                      default=None)
    penalties: dict[str, Count] | None = described_field("Where an 'any result' penalty goes in the army's roll.", default=None)
    splits: dict[str, dict[str, Count]] | None = described_field("SAI name -> how its points split in the army's roll.",
                                                    default=None)
    counts_as: dict[str, Count] | None = described_field("How many results a racial ability converts: {save: 2}.", default=None)
    casualties: dict[str, list[str] | dict[str, list[str] | str]] | None = described_field(CASUALTIES, default=None)
    discard: list[str] | None = described_field(DISCARD, default=None)
    eldarim: dict[str, str] | None = described_field("Eldarim champion unit id -> the icon it rolled before the attack "
                                          "(its logo tames, slays or controls a dragon).", default=None)
    logo_targets: dict[str, str] | None = described_field("Champion unit id -> the dragon its logo acts on (default: the "
                                               "first it can).", default=None)
    fights: dict[str, str] | None = described_field("Dragon id -> the dragon it attacks in dragon vs. dragon (default: the "
                                         "first it may).", default=None)
    breath: dict[str, str] | None = described_field("Hybrid dragon id -> the color of its breath on 5 health-worth (its "
                                         "owner's pick).", default=None)
    breath_targets: dict[str, list[str]] | None = described_field(
        "Breath color -> the units its individual effect reaches (5 health-worth per breath), in the order the "
        "colors resolve; default: the smallest units.", default=None)
    breath_saves: dict[str, RollIn | str | list[str]] | None = described_field(
        "Unit id -> its own roll to save against a breath (blue, green).", default=None)
    breath_burial: dict[str, RollIn | str | list[str]] | None = described_field(
        "Unit id killed by a breath -> its roll to save against burial (red, green).", default=None)
    slay: dict[str, Literal["melee", "missile"]] | None = described_field(
        "Dragon id -> the results that slay it; default: as many dragons as possible; {}: none (refused where 10 "
        "non-ID results must kill one).", default=None)
    treasure: dict[str, str] | None = described_field("Treasure's promotion: unit id in the army -> unit id in the DUA.",
                                           default=None)
    promote: dict[str, str] | None = described_field("Promotions after slaying: unit id in the army -> unit id in the DUA.",
                                          default=None)
    sai_dragons: dict[str, str] | None = described_field("Unit id -> the dragon its Decapitate, Impale or Bash acts on "
                                              "(default: the first it can).", default=None)
    move_dragons: dict[str, str] | None = described_field("Dragon id -> the terrain a Dragonkin Champion's logo rolled in the "
                                               "army's roll moves it to (a dragon of the champion's color).",
                                               default=None)
    cantrip: dict[str, CantripIn] | None = described_field(CANTRIP, default=None)
    elevate: dict[str, Literal["missile", "save"]] | None = described_field(
        "Unit id -> the results an Elevate doubles for that unit in the army's roll (002: \"doubles one unit's missile or save "
        "results\"); one unit per Elevate rolled, a unit joining the roll (in unit_saves) too; default: the units and "
        "results gaining the most.", default=None)
    move_to: MOVE_TO | None = described_field(
        "SAI name -> the terrain id (or 'reserve', for Vanish and Wayfare) where the units it moves during the "
        "army's roll go (tsr-1996 ferry: where the monster goes and stays)." + PER_MOVER_TO, default=None)
    targets: dict[str, list[str] | MOVERS] | None = described_field(
        "SAI name -> the units moving along (wayfare: the unit carrying the item; ferry, teleport, "
        "firewalking: the units going with the rolling unit; regenerate, gold medallion: dead units brought "
        "back; silver medallion: the buried item or dragonkin)." + PER_MOVER, default=None)
    unit_saves: dict[str, RollIn | str | list[str]] | None = described_field(
        "Unit id brought back during the army's roll (regenerate, gold medallion) -> its own combination roll "
        "(it is rolled at once).", default=None)
    breath_sais: dict[str, SaveSaisIn] | None = described_field(
        "Unit id -> the choices for the special SAIs of its own save against a breath (breath_saves): the dead "
        "units Regenerate brings back (targets), where Vanish, Ferry, Teleport, Firewalking move it (move_to) and "
        "the units going along (targets).", default=None)
    counter: RollIn | Literal[False] | None = described_field(
        "A dragon attack has no counter-attack (002 Glossary, Counter-Attack Phase: \"The subsequent response by a "
        "defending army to a melee attack\"; the army answers the dragons with its one combination roll, 002 Dragon "
        "Attack Phase Step 6): a counter-attack roll written here is refused when the step resolves, so "
        "expect_error can pin it; false says there is none.", default=None)
    ashes: dict[str, RollIn | str | list[str]] | None = described_field(
        "Unit id killed in the attack (by a breath or the dragons' damage) -> its own roll for Rise from the Ashes "
        "(001/002 Rise from the Ashes: \"Whenever a unit with this SAI is killed or buried, roll the unit\"); left "
        "out, the roll is not replayed (traced, defaulted).", default=None)
    stepped: dict[str, str] | None = described_field(
        "Unit id killed in the attack (by a breath or the dragons' damage) -> the dead unit it is traded for: the "
        "Undead's Stepped Damage, or under sfr-v4 Accelerated Growth (a killed Treefolk of 2+ health for a dead "
        "1-health Treefolk, while the spell is on its DUA, cast before the attack or by a Cantrip in the army's "
        "roll); a killed unit left out is not traded.", default=None)
