"""The marching player's marches (002 The Turn Sequence; First March; Second March; Glossary, March).

002: "A turn consists of up to five phases, which must be conducted in this order:
Initial Effects, Dragon Attacks, a First March, a Second March, and a Reserve
Movement"; "A march consists of an optional maneuver followed by an optional
action for a single army"; "A different army than the one used in the First
March must be used in the Second March"; "Only an army belonging to the
marching player can take a march".

The engine follows these phases only when the scenario says where in a turn its
steps begin (``turn: {phase: ...}``, ``GameState.marches``); otherwise each step
stands alone, as the scenarios of format version 1 were written.
"""

from __future__ import annotations

from .ruleset import Ruleset
from .state import RESERVE, GameState, Marches
from .steps import MagicStep, ManeuverStep, MeleeStep, MinorStep, MissileStep, ReplantStep, Step
from .trace import StepError, TraceEvent, whose

ACTIONS = {MeleeStep: "melee", MissileStep: "missile", MagicStep: "magic"}
ORDINALS = ("first", "second")
# 002 Amazons, Reserve Attack: a reserve army's Amazons fire missiles while its other units cast magic,
# "whatever action is chosen first, it must be completed before the second action is conducted"
RESERVE_PAIR = {"magic", "missile"}


def march(state: GameState, step: Step, ruleset: Ruleset) -> tuple[GameState, list[TraceEvent]]:
    """Check that ``step`` (a maneuver or an action) may be taken now in the turn, and record it."""
    m = state.marches
    if not isinstance(step, (ManeuverStep, MinorStep, ReplantStep, *ACTIONS)) or not state.has_army(step.army):
        return state, []
    # 002 Racial Abilities, Treefolk, Replanting: "Treefolk may, when at any terrain during a march, after the
    # maneuver attempt but before any action, exchange ..." -- a part of the army's own march (its player's turn,
    # between the march's maneuver and its action), checked here as a maneuver or an action is
    replant = isinstance(step, ReplantStep)
    if m is None:
        _marching_player(state, step, ruleset)
        return state, []
    not_begun(state, "march", ruleset)
    who = state.army(step.army)
    action = ACTIONS.get(type(step))
    if who.player != state.turn_player:
        raise StepError(f"it is {state.turn_player}'s turn: only an army belonging to the marching player can "
                        f"take a march, and {who.id} is {who.player}'s", cite=ruleset.cite("march-term"),
                        field="army")
    if m.reserves:
        raise StepError(f"{state.turn_player}'s Reserve Movement is over: no march follows it in the turn (a turn "
                        "step begins the next player's turn)", cite=ruleset.cite("turn-sequence"), field="army")
    current = bool(m.marched) and m.marched[-1] == who.id
    if current and m.acted == ("lost",):
        raise StepError(f"{who.id} lost the remainder of its march (Lost): it may neither maneuver nor take an "
                        "action", cite=ruleset.cite("minor-terrains"), field="army")
    if current and isinstance(step, MinorStep) and not m.acted:
        return state, []        # rolled as it is brought in, within the march
    brought = state.minor_terrain(who.id)
    if isinstance(step, MinorStep) and brought is not None and brought.face is None:
        # 002 Minor Terrains: "Immediately upon adding the minor terrain to an army it is rolled" -- its first roll,
        # not a march spent on the army: a minor terrain brought in outside the army's own march (by the maneuver a
        # Night Moves makes, which "allows only a maneuver, not a maneuver and an action", 002 Glossary, Full and
        # Complete March) is rolled at once, and the army's march, if it takes one, rolls it again first
        return state, []
    if current and replant:
        return state.evolve(marches=_replanting(m, who.id, ruleset)), []
    if current and action is None and m.replanted and not isinstance(step, MinorStep):
        raise StepError(f"{who.id} has replanted in this march: Replanting comes after the maneuver attempt, and no "
                        "maneuver follows it", cite=ruleset.racial_cite("treefolk", "Replanting"), field="army")
    if current and not isinstance(step, MinorStep) and _continues(m, who.at, action):
        return state.evolve(marches=_record(m, action)), []
    if who.id in m.marched:
        which = ORDINALS[m.marched.index(who.id)]
        raise StepError(f"{who.id} took the {which} march this turn and cannot march again: a different army "
                        "than the one used in the First March must be used in the Second March",
                        cite=ruleset.cite("second-march"), field="army")
    if len(m.marched) == 2:
        raise StepError(f"{state.turn_player} has taken both marches this turn ({', '.join(m.marched)}); the Reserve "
                        "Movement comes next", cite=ruleset.cite("turn-sequence"), field="army")
    minor = state.minor_terrain(who.id)
    if minor is not None and not isinstance(step, MinorStep):
        raise StepError(f"{who.id} has a {minor.type} minor terrain: it is rolled before any maneuver or action of "
                        f"the march (a minor step for {who.id} comes first)", cite=ruleset.cite("minor-terrains"),
                        field="army")
    if not m.marched:
        _dragons_have_attacked(state, ruleset)
    which = ORDINALS[len(m.marched)]
    event = TraceEvent(what=f"{state.turn_player}'s {which} march: {who.id}"
                            + (" (the reserve army: no maneuver roll is made)" if who.at == RESERVE else ""),
                       after=len(m.marched) + 1, rule="each march is an optional maneuver then an optional action "
                       "by one army; the second march uses a different army", cite=ruleset.cite(f"{which}-march"))
    fresh = Marches(marched=(*m.marched, who.id))
    if replant:
        # a march whose optional maneuver is not taken: its Replanting comes where the maneuver would have been,
        # and no maneuver follows it ("after the maneuver attempt")
        return state.evolve(marches=fresh.evolve(maneuvered=True, replanted=True)), [event]
    return state.evolve(marches=fresh if isinstance(step, MinorStep) else _record(fresh, action)), [event]


def _marching_player(state: GameState, step: Step, ruleset: Ruleset) -> None:
    """002 Glossary, March: "Only an army belonging to the marching player can take a march" -- also where the
    scenario does not follow the turn's phases: whose turn it is (``turn: {player}``, else the first player, and
    each ``turn`` step) decides which armies may maneuver or take an action."""
    who = state.army(step.army)
    if who.player != state.turn_player:
        kind = "maneuver" if isinstance(step, ManeuverStep) else "Replanting, made during a march" \
            if isinstance(step, ReplantStep) else ACTIONS.get(type(step), "minor terrain roll")
        raise StepError(f"it is {state.turn_player}'s turn: {who.id} is {who.player}'s army, and only an army "
                        f"belonging to the marching player can take a march (this {kind}); a turn step for "
                        f"{who.player} begins their turn", cite=ruleset.cite("march-term"), field="army")


def _dragons_have_attacked(state: GameState, ruleset: Ruleset) -> None:
    """002 The Turn Sequence: "If dragons are present at any terrain where the marching player has an army, then
    the dragons must do combat", in the Dragon Attacks phase, before the First March. A dragon its army's own
    Dragonlord or Dragonmaster holds (``tamed_by``) does not attack it (002 Dragon Taming)."""
    m = state.marches
    for a in state.armies:
        if a.player != state.turn_player or a.at == RESERVE or a.id in m.attacked:
            continue
        here = [d.id for d in state.dragons if d.at == a.at and a.unit(d.tamed_by or "") is None]
        if here:
            # the edition's words: 001 Turn Sequence "those dragons will attack the marching army ... The Effects
            # Expire and Dragon Attack phases are mandatory"; 000 Dragon Rules "before the army's owning player
            # performs any actions or declares his First March"
            rule = ruleset.quote("dragons-attack-first", "the dragons must do combat in the Dragon Attacks phase "
                                 "before the First March")
            raise StepError(f"dragons ({', '.join(here)}) are at {a.at}, where {a.id} is: {rule} (a dragon_attack "
                            f"step for {a.id} comes first)",
                            cite=ruleset.cites.get("dragons-attack-first", ruleset.cite("turn-sequence")), field="army")


def dragon_attacked(state: GameState, army_id: str) -> GameState:
    """Record that the dragons at the army's terrain have done combat this turn."""
    m = state.marches
    return state if m is None else state.evolve(marches=m.evolve(attacked=(*m.attacked, army_id)))


def _replanting(m: Marches, army_id: str, ruleset: Ruleset) -> Marches:
    """002 Replanting, in the current march: "after the maneuver attempt but before any action" -- not once the
    march has taken its action, and once a march (it "exchange[s] any number of Treefolk units" in one exchange:
    the units given cannot come back by a second one). No maneuver follows it."""
    cite = ruleset.racial_cite("treefolk", "Replanting")
    if m.acted:
        raise StepError(f"{whose(army_id)} march has taken its {m.acted[0]} action: Replanting is made after the maneuver "
                        "attempt but before any action", cite=cite, field="replant")
    if m.replanted:
        raise StepError(f"{army_id} has replanted in this march already: Replanting exchanges any number of Treefolk "
                        "units once, after the maneuver attempt and before any action", cite=cite, field="replant")
    return m.evolve(maneuvered=True, replanted=True)


def _continues(m: Marches, at: str, action: str | None) -> bool:
    """Whether the step is the current march's next part: its maneuver before any action, or its action."""
    if m.acted == ("lost",):
        return False
    if action is None:
        return not m.maneuvered and not m.acted
    if not m.acted:
        return True
    return at == RESERVE and action not in m.acted and set(m.acted) | {action} <= RESERVE_PAIR


def _record(m: Marches, action: str | None) -> Marches:
    if action is None:
        return m.evolve(maneuvered=True)
    return m.evolve(maneuvered=True, acted=(*m.acted, action))


def before_marches(state: GameState, phase: str, ruleset: Ruleset) -> None:
    """The Initial Effects and Dragon Attack phases come before the first march (for those phases' steps)."""
    not_begun(state, phase, ruleset)
    m = state.marches
    if m is not None and (m.marched or m.reserves):
        raise StepError(f"the {phase} phase comes before {state.turn_player}'s marches, and "
                        f"{', '.join(m.marched) or 'the Reserve Movement'} took place already this turn",
                        cite=ruleset.cite("turn-sequence"))


def not_begun(state: GameState, what: str, ruleset: Ruleset) -> None:
    """Nothing of a turn happens during the set-up (``turn: {phase: setup}``): 002 Starting the Game, "the
    following six steps for set-up take place before the game begins"; a turn step begins the first turn."""
    if state.marches is not None and state.marches.setup:
        raise StepError(f"the game has not begun: no {what} before the first turn (a turn step naming "
                        f"{state.turn_player}, who plays first, begins it)", cite=setup_cite(ruleset))


def setup_cite(ruleset: Ruleset) -> str:
    """002 Starting the Game, Step 4 (who plays first), where the edition has set-up rules."""
    return ruleset.setup.cites["order"] if ruleset.setup else ruleset.cite("turn-sequence")


def lose_march(state: GameState) -> GameState:
    """The current march ends at once, neither maneuver nor action left (002 Minor Terrains, Lost)."""
    m = state.marches
    return state if m is None else state.evolve(marches=m.evolve(maneuvered=True, acted=("lost",)))


def reserve_movement(state: GameState, ruleset: Ruleset) -> tuple[GameState, list[TraceEvent]]:
    """The Reserve Movement phase comes after both marches, once a turn."""
    m = state.marches
    if m is None:
        return state, []
    not_begun(state, "Reserve Movement", ruleset)
    if m.reserves:
        raise StepError(f"{state.turn_player} has made the Reserve Movement of this turn already",
                        cite=ruleset.cite("reserve-movement"), field="reserves")
    event = TraceEvent(what=f"{state.turn_player}'s Reserve Movement phase, after {len(m.marched)} march(es)",
                       rule=ruleset.quote("reserve-movement", "after finishing both of your marches, you can move "
                                          "units out of and into your reserve area"), cite=ruleset.cite("reserve-movement"))
    return state.evolve(marches=m.evolve(reserves=True)), [event]


def next_turn(state: GameState) -> GameState:
    """A new turn: no army has marched yet."""
    state = state.evolve(flooded=()) if state.flooded else state
    return state if state.marches is None else state.evolve(marches=Marches())
