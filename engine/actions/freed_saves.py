"""The units of the defending army freed from an Entangle into its save roll (tsr-1996).

004 Entangle: "When rolled during melee, four health of your choice of units in the opposing army are paralyzed
(cannot make any further rolls) until the beginning of your next turn. Killing the monster negates this effect ...
D) If, during an normal action, a special action icon is rolled which kills the Entangling monster (Cantrip,
Bullseye, or even Smite), the Entangled unit(s) may immediately be rolled and are counted in the current roll". The
defender's save roll can kill the attacking army's Entangling monster: its Cantrip's spells (000 Cantrip: "including
rolling for saves") or its Counter (000 Counter: in melee "an immediate hit upon the attacking army"). Its entangled
units then roll at once and count in that save roll, as units freed into an attack roll do (engine.actions
.freed_sais), and every SAI they roll acts as it would in that army's save roll: most monster SAIs do nothing there
(004 General Rules A: "Unless otherwise noted, the effect does NOT occur during a save roll", traced by the roll as the
army's own are); Regenerate and Ferry bring units that roll at once (engine.actions.joined_rolls ``joined_roll``);
Cantrip buys spells (engine.actions.freed_cantrip); Counter hits back (``_struck_back``).
"""

from __future__ import annotations

from ..roll import Outcome, Roll
from ..trace import reading
from . import freed_cantrip, joined_rolls, sai_states, specials
from .cantrip import CANTRIP
from .fight import Fight
from .freed_sais import with_rolls
from .skirmish import back_damage, combined_sais
from .sai_choices import special_choices


def freed_saves(fight: Fight, answer: Outcome, dice: Roll, buys: dict, waited: bool,
                roll_kind: tuple[str, tuple[str, ...]],
                others: dict[str, Outcome] | None = None) -> Outcome:
    """The defender's units freed into its save roll (``answer``, a ``roll_kind`` roll of ``dice``): 004 Entangle D,
    "If, during an normal action, a special action icon is rolled which kills the Entangling monster (Cantrip,
    Bullseye, or even Smite), the Entangled unit(s) may immediately be rolled and are counted in the current roll":
    the save roll's Cantrip (its spells) or Counter (000: "an immediate hit upon the attacking army") killed it. They
    roll at once (``unit_saves``), their saves counted with the army's; their Cantrip buys spells
    (engine.actions.freed_cantrip: the step's ``cantrip.<army>``, or after the army's own its own purchase); their
    Counter hits the attacker (``_struck_back``). ``others``: the rolls of the units a Regenerate (or Ferry) brought
    into it whose Cantrip waits for the freed units' (engine.actions.skirmish ``with_brought``). Returns the save roll
    (counted again if a spell changed it); the freed units' saves count with it through the one pipeline
    (engine.actions.joined_rolls ``through_pipeline``)."""
    if not any(e.source for e in fight.state.effects):     # no effect ends with its maker: nobody to free
        return answer
    kind = roll_kind[0]
    fight.state, joined = sai_states.freed_roll(fight.state, fight.ruleset, fight.army(), fight.step, fight.out, kind,
                                                "save")
    joined_rolls.unmerged(joined, fight.ruleset, kind, (CANTRIP, *STRIKE_BACK))
    fight.freed_saves = tuple(joined)
    if joined:
        fight.out.trace.append(reading(
            f"{', '.join(joined)}, freed by {fight.defender}'s save roll, {'roll' if len(joined) > 1 else 'rolls'} in "
            "it: the save roll is part of the normal action, so the SAI that killed the Entangling monster frees its "
            "units into the current roll, the save roll (their saves count with the army's, their icons for routing)",
            fight.cite("entangle"), fight.cite(CANTRIP)))
    answer = freed_cantrip.bought(fight, fight.army(), answer, joined, dice, buys, waited, roll_kind, others,
                                         choices={**fight.choices(), **special_choices(fight.step)})
    _struck_back(fight, joined)
    return answer


# the save roll's SAIs that strike the attacker (engine.actions.combat ``_strike_back``): Counter's hits, Bash
STRIKE_BACK = ("back-damage", "bash")


def _struck_back(fight: Fight, joined: dict[str, Outcome]) -> None:
    """The Counter of a unit freed into the save roll: 000 Counter, "During a roll for saves in melee ... it counts as
    both a save and an immediate hit upon the attacking army, which may not roll saves against it" -- its save counted
    with the unit's roll, its hit resolved as the army's own Counter's is (engine.actions.skirmish ``back_damage``).
    Reading, traced: the army's own Counter (or Cantrip) was resolved before the unit was freed (it may be what freed
    it), so the two were not rolled at the same time, which 002 Targeting combines: the freed unit's is an immediate
    hit of its own, its damage taken at once, apart from the first's (as a freed unit's Cantrip is a purchase of its
    own, engine.actions.freed_cantrip)."""
    found = [s for o in joined.values() for s in o.specials if s.effect in STRIKE_BACK]
    if not found:
        return
    specials.resolve(fight, found, "save")
    for sai, points in combined_sais(found, "back-damage").items():
        who = ", ".join(dict.fromkeys(s.unit for s in found if s.sai == sai))
        fight.out.trace.append(reading(
            f"the {sai} of {who}, freed into {fight.defender}'s save roll after the army's own SAIs of that roll were "
            f"resolved, was not rolled at the same time as theirs: an immediate hit of its own, its {points} "
            f"damage taken at once by {fight.attacker}, apart from any the army's {sai} did", fight.cite(sai),
            fight.ruleset.cite("sai-targeting")))
        fight.state = back_damage(fight.state, fight.ruleset, fight.army("attacker"), sai, points, fight.casualties,
                                   fight.out, fight.cite(sai), fight.action)


def saves_with_freed(fight: Fight, saves: Roll | None) -> Roll | None:
    """The defender's save roll with the rolls of its units freed into it (``freed_saves``) or brought into it by its
    Regenerate or Ferry (``returned_saves``): their ID and save icons count with the army's for routing (000 Option:
    Routing, "if an army rolls more ID icons ... than save icons"; 004 Entangle D: the freed units "are counted in the
    current roll"; 004 Regenerate B: the units brought back "are rolled immediately and their results are counted
    toward the current roll", as Ferry C's)."""
    return with_rolls(fight, saves, (*fight.freed_saves, *fight.returned_saves))[0]
