"""The values of one army roll: what was rolled (``Face``, ``Roll``), who rolls for what (``RollContext``), the
tallies (``Part``, ``Tally``), a special SAI result (``Special``) and the roll's ``Outcome``. They sit below the
roll pipeline (engine.roll) and every module it calls, so that those modules name them without importing the
pipeline; engine.roll names them too."""

from __future__ import annotations

from collections.abc import Mapping

from .ruleset import Ruleset
from .state import Army, Effect, GameState, ResultType, Terrain
from .trace import TraceEvent
from .value import Struct, Value, field, force_setattr


# --- what was rolled -----------------------------------------------------------------------


class Face(Value):
    """One face that came up: an icon and how many of it (``id``, ``maneuver 2``, ``fly 3``)."""

    icon: str
    count: int = 1


# In a unit's faces, the face before this marker was replaced by a reroll a spell allows (002 Flashfire: "The selected
# unit ignores its last roll result and applies the new roll result instead"): ``Roll``.
REROLLED = "flashfire"


class Roll(Value):
    """A roll in either form of the scenario format.

    ``counts``: the army aggregate (result icons, ``id`` health-worth, SAI
    points by name); ``units``: per unit, the faces in the order they came up
    (a rerolling face lists every face).

    A Flashfire (or Vortex) reroll is marked in a unit's faces by ``flashfire`` after the face it replaced: 002
    Flashfire, "The selected unit ignores its last roll result and applies the new roll result instead ... Note: this
    takes effect at the same time as other rerolling effects (i.e. "Instant" SAIs or group monster IDs)". The reroll
    is made with the Instant rerolls, before any Special, Unique or Delayed SAI acts and before anything reads the
    faces, so the roll holds only the faces that stand (``units``): each marker takes away the one face before it,
    the unit's last roll result then; the faces rolled before that (a Double Strike, a group monster's ID, whose
    rerolls "apply the new result as well") stand. ``rerolled`` keeps each reroll, in the order written, as (unit
    id, the face it replaced or () if none came before the marker, how many standing faces came before it), for the
    pipeline to check against the Flashfires in play and to trace (engine.roll)."""

    counts: tuple[tuple[str, int], ...] = ()
    units: tuple[tuple[str, tuple[Face, ...]], ...] = ()
    promote: tuple[tuple[str, str], ...] = ()   # the promotions its Wild Growth results buy (engine.wild_growth)
    rerolled: tuple[tuple[str, tuple[Face, ...], int], ...] = ()
    # the units whose reroll was already checked and traced when it was made, with the Instant rerolls, before the
    # Delayed SAIs of the attack acted (engine.actions.combat ``_delayed``): the count does not trace it again
    traced_rerolls: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if not any(f.icon == REROLLED for _, faces in self.units for f in faces):
            return
        units, rerolled = [], list(self.rerolled)
        for unit_id, faces in self.units:
            kept: list[Face] = []
            for face in faces:
                if face.icon != REROLLED:
                    kept.append(face)
                    continue
                ignored = (kept.pop(),) if kept else ()
                rerolled.append((unit_id, ignored, len(kept)))
            units.append((unit_id, tuple(kept)))
        force_setattr(self, "units", tuple(units))
        force_setattr(self, "rerolled", tuple(rerolled))

    @property
    def per_unit(self) -> bool:
        return bool(self.units)


class RollContext(Value):
    """Who rolls, for what, where, and the owner's choices.

    ``kind``: the kind of roll in the SAI vocabulary (engine.sais);
    ``wanted``: the result types rolled for (ID icons count as these);
    ``target_terrain``: for a missile action, where the target army is.
    ``choices``: the owner's splits: ``penalties`` {type: n} for penalties that
    the rules let the owner place, ``ids`` {type: n} for ID icons in a
    combination roll.
    """

    state: GameState
    army: Army
    kind: str
    wanted: tuple[ResultType, ...]
    ruleset: Ruleset
    target_terrain: Terrain | None = None
    individual: bool = False
    # Frostwing magic negation against this magic roll: subtracted from its non-SAI magic first
    negation: int = 0
    choices: Mapping[str, Mapping[str, int]] = field(default_factory=dict)
    # in a roll against a dragon attack: the ids of the dragons attacking the army
    facing: tuple[str, ...] = ()
    # a unit brought into its army during the army's roll, rolled with it (engine.actions.joined_rolls):
    # its SAIs act as in the army's roll (002 Application), not as against an individual-targeting effect
    joined: bool = False

    @property
    def terrain(self) -> Terrain | None:
        return None if self.army.at == "reserve" else self.state.terrain(self.army.at)

    @property
    def where(self) -> str:
        return self.army.at


# --- tallies ------------------------------------------------------------------------------


class Part(Struct):
    normal: int = 0
    sai: int = 0
    ids: int = 0        # the share of ``normal`` that ID icons made (sfr-v4: the eighth face doubles it)
    sais: tuple[str, ...] = ()  # the SAIs that made ``sai``, named in the trace's parts (engine.trace.split)
    # how far below zero the modifiers have taken ``normal`` where an edition floors results only at the end
    # (000 Applying Dice Modifiers: "Results can never be negative at the end"); never counted in ``total``:
    # later modifiers scale it and the adds repay it first
    debt: int = 0
    # tsr-1996 (Ruleset.converted_owe): what this result's dividing modifiers divided it by, for the results a racial
    # ability counts as this type later in the roll (engine.modifiers.settle_owed)
    divisor: int = 1

    @property
    def total(self) -> int:
        return self.normal + self.sai


Tally = dict[str, Part]     # result type -> its two parts


class Special(Struct):
    """A special SAI result, resolved by the action before the target's saves."""

    sai: str
    effect: str
    points: int
    unit: str


class Outcome(Struct):
    results: dict[str, int]
    specials: list[Special]
    trace: list[TraceEvent]
    sai_part: dict[str, int] = field(default_factory=dict)   # the share of each result an SAI made
    # per unit (the army id for an aggregate roll): results counted from icons other than ID,
    # before any modifier (002 Scalders, Scorching Touch counts "non-ID save results")
    non_id: dict[str, dict[str, int]] = field(default_factory=dict)
    # per unit (or the army id): every result counted, before any modifier
    per_unit: dict[str, dict[str, int]] = field(default_factory=dict)
    # unit effects that changed a result rolled for (those lasting "until used" then expire)
    used: list[Effect] = field(default_factory=list)
    # per unit (or the army id): the share of each result an SAI made, before any modifier
    sai_per_unit: dict[str, dict[str, int]] = field(default_factory=dict)
    # per unit (or the army id): its tally after its unit modifiers, before any army modifier, and its race: the
    # roll's part that the army's pipeline counts (``grown``: the roll counted again with the units that joined it)
    counted: dict[str, Tally] = field(default_factory=dict)
    races: dict[str, str | None] = field(default_factory=dict)
    # the army's results once every modifier but those that add was applied: the racial abilities step's output
    # (002 Charge: "Maneuver becomes Melee during the Racial Abilities step of the dice modifiers")
    before_add: dict[str, int] = field(default_factory=dict)
