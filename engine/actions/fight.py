"""One attack and its answer as the SAI handlers see it: who fights whom, the step's choices, the state so far.

A handler of engine.actions.specials reads the step's choices for its SAI (``targets``, ``unit_saves``,
``burial``) through a ``Fight`` and replaces ``fight.state``; every change it makes is traced in ``fight.out``.
"""

from __future__ import annotations

from ..chosen import read as chosen_read
from ..damage import kill
from ..dragonkin import spared_burial
from ..moves import flee
from ..protection import burial_barred, burial_barred_event
from ..roll import Outcome, Roll
from ..ruleset import Ruleset
from ..sais import combination_kind
from ..state import RESERVE, Army, GameState
from ..steps import AttackStep, MagicStep, StepResult
from ..trace import StepError, TraceEvent, told
from ..value import Struct, field
from . import cantrip, own_roll
from .select_none import refuse_none


class Fight(Struct):
    state: GameState
    ruleset: Ruleset
    attacker: str
    defender: str
    action: str                         # melee | missile
    step: AttackStep | MagicStep | None      # a magic step for the special SAIs of a magic roll
    casualties: dict[str, list[str]]
    out: StepResult
    counter: bool = False               # the counter-attack of a melee action
    answer: Outcome | None = None       # the defender's save roll, once counted
    saves: Roll | None = None           # the faces it shows (Delayed SAIs act on them)
    no_counter: str | None = None       # the SAI that stops the defender's counter-attack (Surprise, Charge)
    charmed: list[str] = field(default_factory=list)    # units adding their results to the acting army
    # the charmed units' rolls made before the acting army's roll was (the acting player's order resolves the Charm
    # before its Cantrip, which suspends the roll): they join that roll once it is made (engine.actions.combat)
    charmed_waiting: dict = field(default_factory=dict)
    extra: dict[str, int] = field(default_factory=dict)  # results added to the attack by a special SAI
    rolled: list = field(default_factory=list)          # the attack roll's special results
    hit: Outcome | None = None          # the attack roll
    charge: bool = False                # Charge: the defender answers with a combination melee/save roll
    seen: set = field(default_factory=set)              # the special SAIs rolled (whose targets may be read)
    # the step's ``cantrip`` purchases not yet made (army or unit id -> MagicStep), shared with the action, which
    # refuses those left over: a unit an SAI forces to roll by itself buys with ``cantrip.<unit-id>``
    buys: dict = field(default_factory=dict)
    rolled_units: set = field(default_factory=set)      # the units whose own roll (unit_saves) was read
    # tsr-1996, 004 Entangle D: units of the acting army may be freed into its roll (002 Resolution: or brought into
    # a skirmish's attack roll by a Regenerate or Medallion), rolling an SAI identical to one the army's own roll
    # resolved, which continues it with the step's targets the first left (engine.actions.freed_sais): how units may
    # join the roll after its own specials were resolved, in the trace's words ("freed", "brought", "freed or
    # brought"), or ""
    may_free: str = ""
    taken: dict = field(default_factory=dict)   # SAI -> the units its picks took in this roll (with ``may_free``)
    left: dict = field(default_factory=dict)    # SAI -> (the units it left to a freed unit's identical SAI, error)
    freed: tuple = ()       # the units freed into the roll that rolled in it (their ``unit_saves``)
    # the units a Regenerate or Medallion (tsr-1996: Regenerate or Ferry) brought into the skirmish's attack roll,
    # whose SAIs are resolved after the army's own, as freed units' are (engine.actions.freed_sais)
    returned: tuple = ()
    freed_saves: tuple = ()     # the defender's units freed into its save roll that rolled in it
    returned_saves: tuple = ()  # the defender's units its Regenerate (or Ferry) brought into its save roll
    # units whose own roll (``unit_saves``) is the one they were freed into the roll with (tsr-1996 charge): an SAI
    # forcing them to roll again (Confuse) reads their new roll here, the step's ``rerolls`` (None: not given)
    rerolled: dict = field(default_factory=dict)
    # the units a Regenerate (or Ferry) brought into the charging roll, each with that SAI (004 Regenerate B: "rolled
    # immediately and their results are counted toward the current roll"): the answer's Confuse rerolls them as it
    # does freed units (``rerolled``)
    brought: dict = field(default_factory=dict)
    # the attack's Delayed SAIs that subtract from the defender's saves (Screech, Howl, Wave): the choices that make its
    # save roll subtract them in its pipeline (engine.roll ``cut_choices``), once the attack roll shows them
    cuts: dict = field(default_factory=dict)

    def choices(self) -> dict:
        """The owner's choices a roll reads: the units Elevate doubles (``targets: {elevate: [unit]}``); the attack's
        Screech, Howl or Wave subtracting from the defender's saves (``cuts``)."""
        named = self.targets("elevate")
        picks: dict[str, int] = {}
        for unit_id, _ in named or ():
            picks[unit_id] = picks.get(unit_id, 0) + 1
        return {**({"elevate": picks} if picks else {}), **self.cuts}

    def army(self, which: str = "defender") -> Army:
        return self.state.army(self.attacker if which == "attacker" else self.defender)

    def cite(self, sai: str) -> str:
        return self.ruleset.sai_sections.get(sai, self.ruleset.cite("sai-resolution"))

    def targets(self, sai: str) -> tuple[tuple[str, int | None], ...] | None:
        """The step's ``targets`` for this SAI, or None when the scenario names none; once the roll's SAI picked
        (``taken``), those it left (a freed unit's identical SAI: none left, None, so its default)."""
        found = dict(self.step.targets).get(sai) if self.step else None
        if found is not None:
            chosen_read("targets", sai)
        # an empty entry is a choice of none, which an offensive SAI's owner cannot make (002 Targeting (a))
        refuse_none(self.ruleset, sai, self.action, found)
        if found is None or not self.taken.get(sai):
            return tuple(found) if found is not None else None
        return tuple(t for t in found if t[0] not in self.taken[sai]) or None

    def take(self, sai: str, ids) -> None:
        """The units the SAI picked, whose rest a freed unit's identical SAI picks from (``may_free`` only)."""
        if self.may_free:
            self.taken.setdefault(sai, []).extend(ids)

    def joined_as(self, units) -> str:
        """How ``units`` joined the roll after the army's own specials were resolved, in the trace's words."""
        return " or ".join(sorted({"brought" if u in self.returned else "freed" for u in units}, reverse=True))

    def first_of(self, sai: str, ids: list[str], fit: int, what: str) -> list[str]:
        """The first ``fit`` of the units named for the roll's first ``sai``, the rest left to the same SAI rolled by
        a unit freed or brought into the roll (004 Entangle D; 002 Resolution; 002 Targeting: identical SAIs' "effects
        are combined"), checked once it rolled (``left_unpicked``); all of them when no unit may join or one SAI
        picked already."""
        if not self.may_free or self.taken.get(sai) or not 0 < fit < len(ids):
            return ids
        self.left[sai] = (ids[fit:], StepError(
            f"{sai} {what}: {told(ids)} is not such a choice ({', '.join(ids[fit:])} past that is left to the same SAI "
            f"rolled by a unit {self.may_free} into {self.attacker}'s roll, and none took it)", cite=self.cite(sai),
            field="targets"))
        return ids[:fit]

    def left_unpicked(self) -> None:
        """The units a first SAI left to a freed unit's identical one that none took: the first's error."""
        for sai, (rest, error) in self.left.items():
            if any(i not in self.taken.get(sai, ()) for i in rest):
                raise error

    def unit_roll(self, unit_id: str, why: str, sai: str) -> Roll:
        if unit_id in self.rerolled:
            return self._rerolled(unit_id, why, sai)
        rolls = dict(getattr(self.step, "unit_saves", ()))
        self.rolled_units.add(unit_id)
        if unit_id not in rolls:
            raise StepError(f"{unit_id} must roll by itself {why}: give unit_saves.{unit_id}", cite=self.cite(sai),
                            field="unit_saves")
        return rolls[unit_id]

    def _rerolled(self, unit_id: str, why: str, sai: str) -> Roll:
        """The new roll of a unit freed or brought into the roll, forced to roll again (its ``unit_saves`` is its
        first)."""
        again = self.rerolled[unit_id]
        if again is None:
            raise StepError(f"{unit_id} must roll {why}: its unit_saves is the roll it joined {self.defender}'s "
                            f"roll with; give its new roll as rerolls.{unit_id}", cite=self.cite(sai),
                            field="rerolls")
        return again

    def roll_unit(self, unit_id: str, kind: str, wanted: tuple, why: str, sai: str) -> Outcome:
        """The unit's own roll (``unit_saves``), an individual roll: no army or terrain modifier; its SAIs'
        specials act as in its army's roll, with the step's choices (engine.actions.own_roll)."""
        home = next(a for a in self.state.armies if a.unit(unit_id) is not None)
        dice = self.unit_roll(unit_id, why, sai)
        if "maneuver" not in kind:
            # 002 Avoidance Rolls: "A unit is targeted with a Poison SAI. When the unit makes its first save
            # avoidance roll, it rolls a Cantrip SAI. The unit does not save, but it does get to spend the Cantrip
            # because this SAI is applicable during a save roll" (Cantrip: "save roll or non-maneuver avoidance
            # roll"); its purchase is ``cantrip.<unit-id>``, resolved before the roll goes on. (A killed unit's
            # second roll, in the DUA, is ``burial_roll``: "it would not count, because it is in the DUA".)
            alone = home.evolve(units=tuple(u for u in home.units if u.id == unit_id))
            found = cantrip.points(alone, dice, self.ruleset)
            if found:
                self.out.trace.append(TraceEvent(
                    what=f"{unit_id} rolls a Cantrip in its own roll against {sai}: its points buy spells "
                         f"(cantrip.{unit_id}) before the roll goes on",
                    rule=self.ruleset.quote("cantrip-own-roll", "the unit does not save, but it does get to spend the "
                                            "Cantrip because this SAI is applicable during a save roll"),
                    cite=self.ruleset.cite("avoidance") if "cantrip-own-roll" not in self.ruleset.quotes
                    else self.ruleset.sai_sections.get(cantrip.CANTRIP, self.ruleset.cite("sai-resolution"))))
                self.state = cantrip.bought(self.state, alone, found, self.buys, False, self.ruleset, self.out,
                                            key=unit_id)
            home = next((a for a in self.state.armies if a.unit(unit_id) is not None), home)
        self.state, got = own_roll.unit_roll(self.state, self.ruleset, home, unit_id, kind, wanted, dice, self.out,
                                             self.step, self.unit_choices(unit_id))
        return got

    def unit_choices(self, unit_id: str) -> dict:
        """Where the unit's own combination roll puts its ID icons (``unit_ids``; 002 Coil: "The target unit makes
        a combination roll: to generate saves against the Coil damage and/or inflict melee damage")."""
        ids = dict(getattr(self.step, "unit_ids", ())).get(unit_id)
        return {"ids": dict(ids)} if ids else {}

    def kill(self, unit_id: str, sai: str, why: str, also: str = "") -> None:
        """``also``: the second citation when ``why`` is a reading (the passage it is read with)."""
        home = next(a for a in self.state.armies if a.unit(unit_id) is not None)
        self.out.trace.append(TraceEvent(what=f"{sai}: {unit_id} is killed", rule=why, cite=self.cite(sai),
                                         also=also))
        self.out.killed.append(unit_id)
        self.state = kill(self.state, home.id, [unit_id])

    def bury(self, unit_id: str, sai: str, why: str) -> None:
        """A killed unit goes on from the dead unit area to the buried unit area."""
        area = next((a for a in self.state.dua if any(u.id == unit_id for u in a.units)), None)
        if area is None:        # a dragonkin, gone back to its summoning pool
            self.out.trace.append(spared_burial(unit_id, sai, self.ruleset))
            return
        unit = next(u for u in area.units if u.id == unit_id)
        # 002 Glossary, Killed and Buried: "a two-step process ... to allow the unit to apply ... spell affects (Honor
        # the Dead), before burying the unit"
        if (barred := burial_barred(self.state, area.player, unit, self.ruleset)) is not None:
            self.out.trace.append(burial_barred_event(barred, (unit,), self.ruleset, sai))
            return
        self.state = self.state.take_from("dua", area.player, unit_id).add_to("bua", area.player, (unit,))
        self.out.buried.append(unit_id)
        self.out.trace.append(TraceEvent(what=f"{sai}: {unit_id} is buried", rule=why, cite=self.cite(sai)))

    def flee(self, unit_id: str, sai: str) -> None:
        self.state = flee(self.state, unit_id, sai, self.cite(sai), self.ruleset, self.out)

    def burial_roll(self, unit_id: str, sai: str, wanted: tuple[str, ...], why: str) -> None:
        """A killed unit rolls (``burial``) for one of ``wanted`` or is buried."""
        rolls = dict(self.step.burial) if self.step else {}
        if not any(u.id == unit_id for a in self.state.dua for u in a.units):     # a dragonkin, in its pool
            self.out.trace.append(spared_burial(unit_id, sai, self.ruleset))
            return
        if unit_id not in rolls:
            raise StepError(f"{unit_id} was killed by {sai} and must roll {' or '.join(wanted)} or be buried: give "
                            f"burial.{unit_id}", cite=self.cite(sai), field="burial")
        area = next(a for a in self.state.dua if any(u.id == unit_id for u in a.units))
        unit = next(u for u in area.units if u.id == unit_id)
        # a killed unit rolls against burial in the DUA, at no terrain (002 Glossary, Killed and Buried: "killing a unit
        # (putting it in the DUA) and then burying"): no terrain advantage ("when at a Coastland terrain") helps it
        alone = Army(id=unit_id, player=area.player, at=RESERVE, units=(unit,))
        kind = "avoid-save" if len(wanted) == 1 else combination_kind(wanted)
        self.state, rolled = own_roll.unit_roll(self.state, self.ruleset, alone, unit_id, kind, wanted,
                                                rolls[unit_id], self.out, self.step)
        got = rolled.results
        self.out.burial_rolled.append(unit_id)
        made = sum(got.get(t, 0) for t in wanted)
        self.out.trace.append(TraceEvent(what=f"{sai}: {unit_id} rolls {made} {' or '.join(wanted)} result(s): "
                                              f"{'stays in the DUA' if made else 'buried'}", after=made, rule=why,
                                         cite=self.cite(sai)))
        if not made:
            self.bury(unit_id, sai, why)
