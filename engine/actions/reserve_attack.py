"""The Amazons' Reserve Attack: a missile action from the reserve area (002 Racial Abilities > Amazons).

002: "Amazons, when in the reserve area, cannot use magic. Instead they may
select an enemy army at their home terrain or the frontier and take a missile
action. If part of a multiracial army in the reserve area, Amazon missile
results are counted when the other units roll for magic"; "the acting player can
conduct either the magic action with non-Amazon units or the missile action
with Amazon units first. But whatever action is chosen first, it must be
completed before the second action is conducted" (two steps, in either order:
engine.marches lets a reserve army take both in one march). 002 Reserve Magic:
"The acting player would pick a target army at a terrain to apply any missile
results before rolling the army in the reserve area".
"""

from __future__ import annotations

from ..roll import Roll
from ..ruleset import Ruleset
from ..state import Army, GameState, Terrain
from ..steps import StepResult
from ..trace import StepError, TraceEvent, reading

FAQ = "tsr-1996:faq.amazons.amazons-in-reserves"     # 004: Amazons in Reserves (one combined roll)


def reserve_attack(state: GameState, ruleset: Ruleset, attacker: Army, defender: Army, dice: Roll,
                   out: StepResult) -> Terrain:
    """Check the reserve missile action (who fires, at whom) and return the target's terrain."""
    cite = ruleset.cite("reserve-attack")
    shooters = [u.id for u in attacker.units if u.race in ruleset.reserve_missile_races]
    if not shooters:
        raise StepError(f"{attacker.id} is in the reserve area, where it may only cast magic (only "
                        f"{', '.join(ruleset.reserve_missile_races)} units fire missiles from there)",
                        cite=ruleset.cite("actions"), field="army")
    reach = [t for t in state.terrains if t.home_of == attacker.player or t.frontier]
    there = state.terrain(defender.at) if defender.at in {t.id for t in state.terrains} else None
    if there not in reach:
        legal = [a.id for a in state.armies if a.player != attacker.player and a.units
                 and a.at in {t.id for t in reach}]
        raise StepError(f"{defender.id} is at {defender.at}: a reserve attack targets an enemy army at "
                        f"{attacker.player}'s home terrain or the frontier ({', '.join(t.id for t in reach)}); "
                        f"legal targets: {', '.join(legal) or 'none'}", cite=cite, field="target")
    others = [u.id for u in attacker.units if u.id not in shooters and not u.item]
    if not dice.units and others:
        raise StepError(f"{attacker.id} mixes Amazons and other units: give the roll per unit, since only the "
                        f"Amazons' missile results count (the others roll for magic)", cite=cite, field="roll")
    wrong = [uid for uid, _ in dice.units if uid not in shooters]
    if wrong:
        raise StepError(f"only the Amazons fire in a reserve attack; {', '.join(wrong)} roll for magic in the reserve "
                        f"army's magic action (Amazons here: {', '.join(shooters)})", cite=cite, field="roll")
    out.trace.append(TraceEvent(what=f"{attacker.id}'s Amazons ({', '.join(shooters)}) fire from the reserve area "
                                     f"at {defender.id} at {there.id}", rule="Amazons in the reserve area may select "
                                "an enemy army at their home terrain or the frontier and take a missile action",
                                cite=cite))
    if len(shooters) < len([u for u in attacker.units if not u.item]) and cite == FAQ:
        # 004 C: "only one roll is made. Amazon units generate missile results ... Simultaneously, other units
        # generate magic results"
        out.trace.append(TraceEvent(what=f"{attacker.id}'s other units' faces of the same roll are its magic results "
                                         "(the magic step)", rule="only one roll is made. Amazon units generate missile "
                                    "results ... Simultaneously, other units generate magic results", cite=cite))
    elif len(shooters) < len([u for u in attacker.units if not u.item]):
        # the reading of "Amazon missile results are counted when the other units roll for magic"
        out.trace.append(reading(f"{attacker.id}'s other units roll for magic in their own magic action: two actions "
                                 "of one march, either first, each completed before the other (the Note); the TSR "
                                 "FAQ's one combined roll is tsr-1996's reading", cite, FAQ))
    return there
