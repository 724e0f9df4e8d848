"""The scenario's roll and action steps (roll, maneuver, missile, melee) and what they share with magic
(Cantrip buys, spells cast).
"""

from typing import Any, Literal

from .model import ASHES, CASUALTIES, DISCARD, RESIST, ROLL, SACRIFICE, STEPPED, described_field, RollIn, Strict, Count
from .model import MOVE_TO, MOVERS, PER_MOVER, PER_MOVER_TO, no_entries


class RollStepIn(Strict):
    """One army roll through the full modifier sequence."""

    army: str = described_field("The army rolling.")
    for_: str | list[str] = described_field("The result type rolled for, or a list for a combination roll.", alias="for")
    roll: RollIn = described_field(ROLL)
    avoidance: bool = described_field("An avoidance roll (002 Avoidance Rolls), not an action roll.", default=False)
    penalties: dict[str, Count] | None = described_field(
        "Where an 'any result' penalty goes in a combination roll: {missile: 2, save: 1}.", default=None)
    ids: dict[str, Count] | None = described_field("Where ID icons go in a combination roll: {save: 3}.", default=None)
    splits: dict[str, dict[str, Count]] | None = described_field(
        "SAI name -> how its points split in a combination roll: {fly: {save: 2, maneuver: 2}}.", default=None)
    counts_as: dict[str, Count] | None = described_field(
        "How many results a racial ability converts, by target type: {save: 2}.", default=None)
    doubles: dict[str, str] | None = described_field(
        "Unit id -> the result it doubles, for the component a spell lets double its results (Wilding: \"one "
        "component ... may double its melee or save results. Select the component after the army's roll\"), one "
        "unit per casting. Absent: the units gaining the most (defaulted).", default=None)
    penalties_by_race: dict[str, dict[str, Count]] | None = described_field(
        "Result type -> {race: n}: how many of the results army penalties took were each race's.", default=None)
    targets: dict[str, list[str] | MOVERS] | None = described_field(
        "A save or avoidance roll's special SAI -> the units it takes (regenerate, gold medallion: dead units "
        "brought back, in order, each of the roll's, returned units' included, taking the next that fit; silver medallion: the buried item or dragonkin; ferry, teleport, firewalking: the units "
        "moving along)." + PER_MOVER, default=None)
    move_to: MOVE_TO | None = described_field(
        "SAI name -> the terrain id (or 'reserve', for Vanish) where the units it moves go (tsr-1996 ferry: "
        "where the monster goes and stays)." + PER_MOVER_TO, default=None)
    unit_saves: dict[str, RollIn | str | list[str]] | None = described_field(
        "Unit id brought back during the roll -> its own roll (it is rolled at once).", default=None)
    move_dragons: dict[str, str] | None = described_field(
        "Dragon id -> the terrain a Dragonkin Champion's logo rolled in this roll moves it to.", default=None)


class ManeuverStepIn(Strict):
    """A maneuver, and the counter-maneuvers."""

    army: str = described_field("The army maneuvering.")
    direction: Literal["up", "down"] | None = described_field("Which way the terrain turns.", default=None)
    roll: RollIn | None = described_field(ROLL, default=None)
    counter: dict[str, RollIn] | None = described_field("Each counter-maneuvering army id and its roll.", default=None)
    avoidance: RollIn | None = described_field("The acting army's roll against a spell its maneuver sets off (Wall of Thorns).",
                                    default=None)
    casualties: dict[str, list[str] | dict[str, list[str] | str]] | None = described_field(CASUALTIES, default=None)
    discard: list[str] | None = described_field(DISCARD, default=None)
    burial: dict[str, RollIn | str | list[str]] | None = described_field(
        "Killed unit id -> its own roll against burial (Soiled Ground).", default=None)
    targets: dict[str, list[str] | MOVERS] | None = described_field(
        "SAI name -> the units it takes along (wayfare: [the unit carrying the item])." + PER_MOVER, default=None)
    move_to: MOVE_TO | None = described_field(
        "SAI name -> the terrain id or 'reserve' where it moves (wayfare); given, Wayfare moves instead of "
        "giving maneuvers." + PER_MOVER_TO, default=None)
    ashes: dict[str, RollIn | str | list[str]] | None = described_field(ASHES, default=None)
    stepped: dict[str, str] | None = described_field(STEPPED, default=None)
    resist_burial: dict[str, RollIn | str | list[str]] | None = described_field(RESIST, default=None)
    castle: Literal["city", "standing-stones", "temple", "tower"] | None = described_field(
        "The type a Castle's captor declares when the maneuver turns it up to 8 (default: city).", default=None)
    minor_terrain: str | None = described_field("If the maneuver succeeds, bring in the summoning pool's minor terrain of this "
                                     "type instead of turning the terrain (a minor step rolls it next).", default=None)
    action: Literal["melee", "missile", "magic"] | None = described_field(
        "The action icon on the face the maneuver turns the terrain to (the rules do not list each die's faces); "
        "absent, the terrain's action icon is no longer known once its face changes, and the next action there is "
        "assumed (traced, defaulted).", default=None)
    cantrip: dict[str, "CantripIn"] | None = described_field(
        "Army id -> what its Cantrip buys (as a magic step: colors, cast, avoidance). With `avoidance`: the acting "
        "army's Cantrip in its melee avoidance roll against Wall of Thorns, a non-maneuver avoidance roll, buys spells "
        "resolved at once before its melee results count (002 Cantrip: \"During any non-magic action, save roll or "
        "non-maneuver avoidance roll, Cantrip can be used to purchase spells that are immediately resolved\"). Without "
        "it, a purchase in a maneuver or counter-maneuver roll: always refused when the step resolves (002 Unique "
        "Resolution: \"These SAIs do not function during a maneuver roll\"), so expect_error can pin it.",
        default=None)


class ManeuverIn(Strict):
    """The maneuver a spell makes an army attempt (Night Moves), as a maneuver step without its army."""

    direction: Literal["up", "down"] | None = described_field("Which way the terrain turns.", default=None)
    roll: RollIn | None = described_field(ROLL, default=None)
    counter: dict[str, RollIn] | None = described_field("Each counter-maneuvering army id and its roll.", default=None)
    minor_terrain: str | None = described_field(
        "If the maneuver succeeds, bring in the summoning pool's minor terrain of this type instead of turning the "
        "terrain (002 Glossary, Maneuver: \"change the face showing on the current terrain, or ... bring a minor "
        "terrain into play\"); a minor step rolls it next.", default=None)
    castle: Literal["city", "standing-stones", "temple", "tower"] | None = described_field(
        "The type a Castle's captor declares when the maneuver turns it up to 8 (default: city).", default=None)
    action: Literal["melee", "missile", "magic"] | None = described_field(
        "The action icon on the face the maneuver turns the terrain to.", default=None)


class CastIn(Strict):
    """One spell bought with the magic points."""

    spell: str = described_field("The spell, e.g. hailstorm.")
    target: str = described_field("A terrain, army or unit id; a spell in play as spell@terrain; a dead or buried unit id; "
                       "a player for their DUA or all their armies; a summoning pool's dragonkin.")
    count: int = described_field("How many times it is cast.", default=1, ge=1, le=20)
    color: str | None = described_field("The color paying for an elemental spell.", default=None)
    to: str | None = described_field("Where a moved unit or item goes: the army it joins (Path, Airy Acquisition), or, for Path, "
                          "the terrain (\"to any other terrain\"), where it joins its player's army or forms a new "
                          "one named <player>-<terrain>.", default=None)
    dragon: str | None = described_field("The pool dragon a Summon Dragon spell sends, as player:item (bob:green-drake); "
                              "or a dragon id at a terrain, where the edition sends one from there, or a "
                              "tamed non-ivory dragon's id (sfr-2012 Dragon Taming).", default=None)
    maneuver: ManeuverIn | None = described_field("The maneuver the target army attempts (Night Moves).", default=None)
    into: str | None = described_field("The unit a promoted unit is exchanged for (Promote Dragonkin, Rise of the Eldarim).",
                            default=None)
    kin: str | None = described_field("The color of dragonkin a spell targets (Demote Dragonkin).", default=None)
    units: list[str] | None = described_field("The dead units a spell on a DUA chooses (Exhume).", default=None)
    melee: dict[str, Any] | None = described_field("The melee action a spell makes (Haunt), as a melee step without its army.",
                                        default=None)
    rise: list[str] | None = described_field("The caster's dead units that join the casting army (Exhume's Undead).",
                                  default=None)


class CantripIn(Strict):
    """What an army's Cantrip buys during a roll other than a magic action, as a magic step would."""

    colors: dict[str, Count] | None = described_field("The split of the Cantrip points by color.", default=None)
    cast: list[CastIn] = described_field("The spells bought, resolved at once.", default_factory=no_entries)
    avoidance: dict[str, RollIn | str | list[RollIn | str]] | None = described_field(
        "Target army or unit -> its roll against those spells.", default=None)
    casualties: dict[str, list[str] | dict[str, list[str] | str]] | None = described_field(CASUALTIES, default=None)
    dispel: dict[str, str | list[str]] | None = described_field(
        "Unit id -> the face(s) of its Dispel Magic attempt against these spells (002 Dispel Magic: \"whenever "
        "any magic targets this unit\").", default=None)


CANTRIP = ("Army id -> what its Cantrip buys during its roll, written as a magic step (colors, cast, avoidance). "
           "tsr-1996: a unit id -> the own purchase of that unit, freed from an Entangle into its army's attack or "
           "save roll after the army's own Cantrip was resolved. A unit id is also the purchase of a unit that an SAI "
           "forces to roll by itself (Poison, Slay ...: 002 Avoidance Rolls, \"it does get to spend the Cantrip\"), or that "
           "saves by itself against a spell aimed at it (Fearful Flames, both its saves; its army id is read the same "
           "when no unit entry is given).")


class MissileStepIn(Strict):
    """A missile attack: range, attack, saves, damage."""

    army: str = described_field("The attacking army.")
    target: str = described_field("The army attacked.")
    roll: RollIn = described_field(ROLL)
    saves: dict[str, RollIn] | None = described_field("The defending army id and its save roll.", default=None)
    casualties: dict[str, list[str] | dict[str, list[str] | str]] | None = described_field(CASUALTIES, default=None)
    discard: list[str] | None = described_field(DISCARD, default=None)
    targets: dict[str, dict[str, int] | MOVERS | list[str] | str] | None = described_field(
        "SAI name -> {unit id: points} (where an individual-targeting SAI's points go), or [unit ids] (the "
        "units it targets, in order: entangle [u1, u2]; regenerate: dead unit ids; ferry: the units moving "
        "along), or an army id (the army it targets: wither army-id)." + PER_MOVER, default=None)
    move_to: MOVE_TO | None = described_field(
        "SAI name -> the terrain id (or 'reserve', for Vanish) where the units it moves go (tsr-1996 ferry: "
        "where the monster goes and stays)." + PER_MOVER_TO, default=None)
    move_dragons: dict[str, str] | None = described_field(
        "Dragon id -> the terrain a Dragonkin Champion's logo rolled in this roll moves it to.", default=None)
    ashes: dict[str, RollIn | str | list[str]] | None = described_field(ASHES, default=None)
    unit_saves: dict[str, RollIn | str | list[str]] | None = described_field(
        "Unit id -> its own roll (its face or faces): a target's save, or the roll an SAI makes it make "
        "(its ID icon, a maneuver, a reroll).", default=None)
    order: list[str] | None = described_field(
        "The special and unique SAIs of the attack roll, in the order the acting player resolves them.",
        default=None)
    cantrip: dict[str, CantripIn] | None = described_field(CANTRIP, default=None)
    burial: dict[str, RollIn | str | list[str]] | None = described_field(
        "Killed unit id -> its own roll against burial (Soiled Ground).", default=None)
    stepped: dict[str, str] | None = described_field(STEPPED, default=None)
    resist_burial: dict[str, RollIn | str | list[str]] | None = described_field(RESIST, default=None)
    sacrifice: dict[str, str] | None = described_field(SACRIFICE, default=None)
    penalties: dict[str, dict[str, int]] | None = described_field(
        "Army id -> where the \"one result\" penalties on its combination roll in this step go (000/002 Dice "
        "Modifiers: \"applied as the army's owner desires\"), e.g. a tsr-1996 charged army's "
        "{save: 2, melee: 1} under a triple Ash Storm; per army, for each of its rolls in the step (attack, saves, "
        "counter-attack, charge); all must be applied where possible. Absent: all on the first result rolled for "
        "(defaulted).", default=None)
    doubles: dict[str, str] | None = described_field(
        "Unit id -> the result it doubles, for the component a spell lets double its results (Wilding: \"one "
        "component ... may double its melee or save results. Select the component after the army's roll\"), one "
        "unit per casting. Absent: the units gaining the most (defaulted).", default=None)
    counter: RollIn | Literal[False] | None = described_field(
        "A counter-attack roll: always refused when a missile step resolves (002 Missile: \"the target army cannot "
        "attack back, even if it occupies the same terrain\"), so expect_error can pin it; false says there is none. "
        "In a melee step, the defender's counter-attack roll, or false.", default=None)
    pursue: bool = described_field("With routing: the attacker pursues the army its attack routed (a melee, or a missile at "
                        "the same terrain), turning the terrain one face down (000 Option: Routing).", default=False)


class MeleeStepIn(MissileStepIn):
    """A missile action's fields, and the defender's counter-attack."""

    counter: RollIn | Literal[False] | None = described_field("The defender's counter-attack roll, or false.", default=None)
    counter_saves: dict[str, RollIn] | None = described_field(
        "The attacking army id and its save roll against the counter-attack.", default=None)
    rise: list[str] | None = described_field("The acting player's dead Undead units that return to the attacking army, up "
                                  "to the health Convert killed.", default=None)
    unit_ids: dict[str, dict[str, Count]] | None = described_field(
        "Unit id -> where the ID icons of its own combination roll go, e.g. a Coil target's {save: 1, melee: 1} "
        "(default: all on save, marked defaulted).", default=None)
    counter_order: list[str] | None = described_field(
        "The special and unique SAIs of the counter-attack roll, in the order the defending player resolves them.",
        default=None)
    charge: bool = described_field("tsr-1996: the melee is declared as a charge (000 First March, Charge): the attack's melee "
                        "and maneuver are damage, the target's one roll (saves) gives saves and melee back, the "
                        "charger rolls no saves.", default=False)
    rerolls: dict[str, RollIn | str | list[str]] | None = described_field(
        "tsr-1996 charge: unit id -> its new roll when the charged army's Confuse picks a unit freed from an Entangle "
        "into the charging roll, or one a Regenerate or Ferry brought into it, whose unit_saves entry is the roll it "
        "joined the roll with (004 Confuse: \"force them to reroll\").", default=None)


ManeuverStepIn.model_rebuild()     # its ``cantrip`` names CantripIn, defined below it
