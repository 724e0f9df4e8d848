"""tsr-1996's optional routing rule (000 Option: Routing), in play when the scenario says ``routing: true``.

"When rolling to save (or when making a charge), if an army rolls more ID icons (number of actual icons, not
the icons' total point value) than save icons, it is routed and runs away ... The opposing army can pursue if
it wants. To do this, that player turns the terrain die one number lower. The army then acts again using the
newly revealed action icon ... No routs can occur when the terrain die is on its first face. An army that is
routed because of a melee skirmish attack can't make the usual counter-attack against its opponent."
"""

from __future__ import annotations

from collections.abc import Mapping

from ..lands import terrain_types
from ..sais import unit_use
from ..roll import Roll
from ..ruleset import Ruleset
from ..state import Army, GameState
from ..steps import MeleeStep, StepResult
from ..faces import turn_to
from ..trace import StepError, TraceEvent


SCREECH = "screech"


def routed(state: GameState, ruleset: Ruleset, who: Army, dice: Roll | None, out: StepResult,
           against: Roll | None = None, save_roll: bool = True, kind: str = "save-melee",
           chosen: Mapping[str, int] | None = None) -> bool:
    """Whether the army's save (or charge) roll routs it: more ID icons than save icons, counted as icons, less
    four for each Screech in the opponent's roll (``against``). ``kind``: the save roll's kind in the SAI vocabulary
    (engine.sais), ``chosen``: the owner's "Normal or Special" choices (a Regenerate used to bring units back gives
    no saves). ``save_roll`` False (a charge's rolls): the racial
    abilities that count maneuvers as saves "when rolling for saves" are not applied (a reading left to the charge
    work; the charge counts those maneuvers as its own results)."""
    if not state.routing or dice is None:
        return False
    cite = ruleset.cite("routing")
    if state.terrain(who.at).face == 1:
        out.routed = out.routed or []
        out.trace.append(TraceEvent(what=f"{who.id} cannot rout at face 1", rule="no routs can occur when the "
                                    "terrain die is on its first face", cite=cite))
        return False
    ids, saves = _icons(dice, who, cite, _save_races(state, ruleset, who) if save_roll else set(),
                        _sai_saves(ruleset, dice, kind, chosen or {}) if save_roll else set())
    saves = _screeched(ruleset, who, saves, against, out)
    rout = ids > saves
    out.routed = [*(out.routed or []), *([who.id] if rout else [])]    # the step object's `routed` (000 Routing)
    # "Saves provided by spells don't prevent an army from routing": only the icons rolled are counted; "saves
    # provided by ... a racial ability do count as normal saves for determining routs" (see _save_races)
    out.trace.append(TraceEvent(what=f"{who.id} rolled {ids} ID icon(s) and {saves} save icon(s): "
                                     + ("routed" if rout else "holds"), before=saves, after=ids,
                                rule="if an army rolls more ID icons (number of actual icons, not the icons' total "
                                     "point value) than save icons, it is routed and runs away; saves provided by "
                                     "spells don't prevent an army from routing; saves provided by a special "
                                     "action icon or a racial ability do count", cite=cite))
    return rout


def _screeched(ruleset: Ruleset, who: Army, saves: int, against: Roll | None, out: StepResult) -> int:
    """004 Screech: "During melee, a screech subtracts four from the opponent's saves for the purposes of routing
    only ... counted on the roll--i.e., before saves are doubled due to the effect of an Eighth Face"."""
    if against is None:
        return saves
    icons = sum(1 for _, fs in against.units for f in fs if f.icon == SCREECH) + dict(against.counts).get(SCREECH, 0)
    if not icons:
        return saves
    less = max(0, saves - 4 * icons)
    out.trace.append(TraceEvent(what=f"{icons} Screech: {who.id}'s saves count {less} for routing", before=saves,
                                after=less, rule="a screech subtracts four from the opponent's saves for the purposes "
                                "of routing only", cite=ruleset.sai_sections.get(SCREECH, ruleset.cite("routing"))))
    return less


def _save_races(state: GameState, ruleset: Ruleset, who: Army) -> set[str]:
    """The races whose maneuver icons count as saves at the army's terrain (000 Coral Elves, Lava Elves): 000
    Routing, "saves provided by a special action icon or a racial ability do count as normal saves for determining
    routs", so their maneuver icons are save icons for routing."""
    types = terrain_types(state, state.terrain(who.at), ruleset)
    return {a.race for a in ruleset.racial if a.race and a.kind == "counts-as" and a.source == "maneuver"
            and a.target == "save" and (a.terrains is None or types & set(a.terrains))}


def _sai_saves(ruleset: Ruleset, dice: Roll, kind: str, chosen: Mapping[str, int]) -> set[str]:
    """The SAIs rolled whose use in this save roll gives save results (000 Counter: "During a roll for saves, the
    counter counts as a normal save"; Fly: "either maneuvers or saves ... as needed"; Regenerate's saves unless its
    owner brings units back): 000 Routing, "saves provided by a special action icon ... do count as normal saves for
    determining routs", so each of their icons is a save icon for routing."""
    icons = {f.icon for _, fs in dice.units for f in fs}
    found = set()
    for icon in icons - {"save", "id", "maneuver", "melee", "missile", "magic"}:
        use = unit_use(icon, kind, False, chosen, ruleset.sai_uses)
        if use is not None and use.modelled and "save" in use.gives:
            found.add(icon)
    return found


def _icons(dice: Roll, who: Army, cite: str, save_races: set[str] = frozenset(),
           sai_saves: set[str] = frozenset()) -> tuple[int, int]:
    if dice.per_unit:
        def is_save(uid: str, icon: str) -> bool:
            unit = who.unit(uid)
            return (icon == "save" or icon in sai_saves
                    or (icon == "maneuver" and unit is not None and unit.race in save_races))
        return (sum(1 for _, fs in dice.units for f in fs if f.icon == "id"),
                sum(f.count for uid, fs in dice.units for f in fs if is_save(uid, f.icon)))
    counts = dict(dice.counts)
    if counts.get("id"):
        raise StepError(f"routing counts {who.id}'s ID icons, not their health-worth: give its roll per unit "
                        "({unit-id: id, ...})", cite=cite, field="saves")
    every = bool(who.units) and all(u.race in save_races for u in who.units)
    return 0, counts.get("save", 0) + (counts.get("maneuver", 0) if every else 0)


def pursue(state: GameState, ruleset: Ruleset, step: MeleeStep, rout: bool, out: StepResult) -> GameState:
    """The attacker may pursue a routed army: the terrain turns one face down and the attacker acts again."""
    if not step.pursue:
        return state
    cite = ruleset.cite("routing")
    if not rout:
        raise StepError(f"{step.target} was not routed, so {step.army} cannot pursue it: remove pursue", cite=cite,
                        field="pursue")
    terrain = state.terrain(state.army(step.army).at)
    lower = terrain.face - 1
    out.trace.append(TraceEvent(what=f"{step.army} pursues: {terrain.id} turns down to face {lower}; "
                                     f"{step.army} acts again with the action it shows", before=terrain.face,
                                after=lower, rule="to pursue, that player turns the terrain die one number lower. "
                                "The army then acts again using the newly revealed action icon", cite=cite))
    # "The army then acts again": where the turn's marches are followed, its march takes another action (the one
    # the new face shows), not a second march
    m = state.marches
    if m is not None and m.marched and m.marched[-1] == step.army:
        state = state.evolve(marches=m.evolve(acted=()))
    # 000 The Eighth Face: "An army loses control of a terrain if that terrain is ever moved from its eighth face"
    return turn_to(state, terrain.id, lower, ruleset, out)


def both_routed(state: GameState, ruleset: Ruleset, terrain_id: str, out: StepResult) -> GameState:
    """A charge that routs both armies: "damage is resolved, the terrain die is automatically turned down one
    step, and the action ends there"."""
    terrain = state.terrain(terrain_id)
    out.trace.append(TraceEvent(what=f"both armies routed: {terrain.id} turns down to face {terrain.face - 1}",
                                before=terrain.face, after=terrain.face - 1, rule="if both are routed, the "
                                "terrain die is automatically turned down one step, and the action ends there",
                                cite=ruleset.cite("routing")))
    return turn_to(state, terrain.id, terrain.face - 1, ruleset, out)
