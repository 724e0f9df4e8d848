"""What follows every step, as data: an ordered registry of small after-step rules.

``engine.resolve.resolve`` runs a step's action, then each rule of ``AFTER_STEP`` in order, each taking the
state the rule before it left. A rule is a name, the ruleset citation key of the rule it implements (002's
section in the comment beside it) and a function ``(After, GameState) -> GameState``. Adding a triggered rule
is adding an entry here at the place the rules put it; tests/test_after_step.py pins the order.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from .actions import sai_endings, sai_states
from .actions.own_roll import unit_roll
from .actions.racial import resist_burial, sacrifice_kin, stepped_damage
from .capture import abandoned, winner
from .carrying import unload
from .dragonkin import dissipate
from .exchange import promote
from .expiry import eliminated as eliminated_expire, expire
from .kings_die import alone as kings_die_alone
from .minor import out_of_game
from .protection import burial_barred, burial_barred_event
from .ruleset import Ruleset
from .state import RESERVE, Army, GameState
from .steps import ReservesStep, Step, StepResult
from .taming import released as untame_released
from .trace import READING, StepError, TraceEvent, reading


@dataclass
class After:
    """What every after-step rule may read: the state before the step, the step, the ruleset and the step's
    result (which rules add to); ``faces`` is the terrains before eighth faces were abandoned."""
    before: GameState
    step: Step
    ruleset: Ruleset
    out: StepResult
    faces: tuple = field(default=())


@dataclass(frozen=True)
class AfterStepRule:
    """One rule that follows a step: ``cite`` is the ruleset's citation key of the rule it implements."""
    name: str
    cite: str
    apply: Callable[[After, GameState], GameState]


def run_after_step(at: After, state: GameState) -> GameState:
    """Apply every after-step rule, in the registry's order, to the state the step's action left."""
    for rule in AFTER_STEP:
        state = rule.apply(at, state)
    return state


def rise_from_the_ashes(at: After, state: GameState) -> GameState:
    """Killed units bearing Rise from the Ashes roll it (002 SAI List, Rise from the Ashes; engine.actions.sai_endings)."""
    ashes = getattr(at.step, "ashes", None)
    return sai_endings.after_kills(state, at.ruleset, None if ashes is None else dict(ashes), at.out)


def sources_gone(at: After, state: GameState) -> GameState:
    """Entangle and Hypnotic Glare end when their source is killed or leaves (002 SAI List)."""
    return sai_endings.sources_gone(state, at.ruleset, at.out)


def glarers_rolled(at: After, state: GameState) -> GameState:
    """Hypnotic Glare ends when the glaring unit is rolled (002 SAI List, Hypnotic Glare)."""
    return sai_endings.glarers_rolled(at.before, state, at.step, at.ruleset, at.out)


def sacrifice(at: After, state: GameState) -> GameState:
    """Eldarim and dragonkin sacrificed (002 racial abilities; engine.actions.racial)."""
    return sacrifice_kin(at.before, state, at.step, at.ruleset, at.out)


def stepped(at: After, state: GameState) -> GameState:
    """Killed units traded for smaller dead units (002 Undead Stepped Damage; engine.actions.racial)."""
    return stepped_damage(at.before, state, at.step, at.ruleset, at.out)


def burial_resisted(at: After, state: GameState) -> GameState:
    """Buried Undead units roll to return to the DUA (002 Undead Resist Burial; engine.actions.racial)."""
    return resist_burial(state, at.step, at.ruleset, at.out)


def dragonkin_dissipate(at: After, state: GameState) -> GameState:
    """Armies left with dragonkin only: the dragonkin return to the summoning pool (002 Dragonkin)."""
    return dissipate(at.before, state, at.ruleset, at.out)


def used_expire(at: After, state: GameState) -> GameState:
    """A spell lasting "until used" expires once it has changed its unit's results (002 Burning Hands,
    Earthen Armor, Flaming Armor, Flaming Spears)."""
    spent = [e for e in at.out.used if at.ruleset.spell_durations.get(e.spell) == "until-used"]
    return expire(state, spent, "it is used", "this spell remains in effect until it is used by the unit",
                  at.ruleset, at.out) if spent else state


def player_eliminated(at: After, state: GameState) -> GameState:
    """A player eliminated from a multi-player game: the spells on their armies expire (002 Spell Attributes >
    Duration; engine.expiry.eliminated)."""
    return eliminated_expire(state, at.ruleset, at.out)


def carriers(at: After, state: GameState) -> GameState:
    """Items left without carriers are buried (002 Magical Items; engine.carrying)."""
    before, out = at.before, at.out
    # 002 Magical Items: "If not enough units in the army match the color of the magical items, the extra four-siders
    # are taken out of play immediately and buried. The owner chooses which items to discard": every army whose
    # components changed in the step (a carrier lost, an item gained -- a Silver Medallion's --, an army newly formed
    # by a move) is checked; unchanged armies lost no carrier and gained no item
    # the owner's choice is the step's ``discard`` (a reserves step's own is used by engine.actions.reserves)
    discard = [] if isinstance(at.step, ReservesStep) else list(getattr(at.step, "discard", ()))
    for a in state.armies if state.armies is not before.armies else ():
        if any(u.item for u in a.units) and (not before.has_army(a.id) or before.army(a.id).units != a.units):
            state, used = unload(state, state.army(a.id), discard, at.ruleset, out)
            discard = [i for i in discard if i not in used]
    if discard:
        raise StepError(f"discard names {', '.join(discard)}, which no army had to give up: items are buried only "
                        "when too few units can carry them", cite=at.ruleset.cite("magic-items"), field="discard")
    return state


def kings_die(at: After, state: GameState) -> GameState:
    """A player whose only unit left in play is a Kings' Die loses it (002 Kings' Die; engine.kings_die)."""
    return kings_die_alone(state, at.ruleset, at.out)


def fallen_casters(at: After, state: GameState) -> GameState:
    """000 Magic: "If all your units are killed--if you have no units left at terrains or in reserve--any spells you
    cast are immediately negated" (an edition that says so: ``cites['spells-end-with-caster']``; 002 and 003 let
    them run their duration instead)."""
    cite = at.ruleset.cites.get("spells-end-with-caster")
    if cite is None or not state.effects:
        return state
    was, now = at.before.units_in_play(), state.units_in_play()
    # "If all your units are killed": the step left the player with none (a scenario may name a caster it gives
    # no army at all, whose spells stay)
    for player in (p for p, n in now.items() if not n and was.get(p)):
        cast = [e for e in state.effects if e.by == player and e.source is None and e.spell in at.ruleset.spell_costs]
        state = expire(state, cast, f"{player} has no units left at terrains or in reserve",
                       at.ruleset.quote("spells-end-with-caster", "any spells you cast are immediately negated"),
                       at.ruleset, at.out, cite=cite) if cast else state
    return state


def untamed(at: After, state: GameState) -> GameState:
    """A dragon whose tamer left its terrain is untamed (engine.taming)."""
    return untame_released(state, at.ruleset, at.out)


def eighth_faces_abandoned(at: After, state: GameState) -> GameState:
    """Eighth faces whose controlling army left turn back to the seventh (002 The Eighth Face; engine.capture)."""
    at.faces = state.terrains
    return abandoned(state, at.ruleset, at.out)


def leave_the_game(at: After, state: GameState) -> GameState:
    """Minor terrains whose army captured or left its terrain are out of the game (002 Minor Terrains)."""
    return out_of_game(state, at.ruleset, at.out)


def armies_gone(at: After, state: GameState) -> GameState:
    """An army the step left with no component is no army any more and leaves the game state, whatever emptied it
    (its units moved away, fled, were killed, exchanged or buried): 002 Glossary, Army: "All components belonging
    to the same player that are at the same location" (Basic Terms: "All of your units at a single terrain or the
    reserve area"; 000 Army, 001 Armies alike). Read once the step is over: within a step, an army "exchanged with
    units from the DUA" or joined again keeps its spells (002 Duration, "the movement/exchange is considered to
    happen by units"), and the rules before this one read the army the step left (its spells expired, its eighth
    face and minor terrain given up)."""
    if all(a.units for a in state.armies):
        return state
    ruleset = at.ruleset
    for army in (a for a in state.armies if not a.units):
        at.out.trace.append(TraceEvent(what=f"{army.id} has no units left: it is no longer an army",
                                       rule=ruleset.quote("army-term", "all components belonging to the same "
                                                          "player that are at the same location"),
                                       cite=ruleset.cite("army-term")))
        # reading (issue 20): 002 Spell Attributes > Duration ends an army's spells when "all the units in an army
        # move away from their current location" and says nothing of an army whose units were all killed (or
        # buried, or taken by any other means); read with 002 Glossary, Army ("All components belonging to the
        # same player that are at the same location"), an army none of whose units is left at its location no
        # longer exists, and a spell on it has nothing to affect: it expires with the army (a later army of the
        # player at that place is another army, under none of them). The units' own spells ended with each unit
        # (engine.expiry.unit_gone); a terrain's spells stay with the terrain.
        on = state.effects_on(army.id)
        if on:
            at.out.trace.append(reading(f"every unit of {army.id} is gone, so the army no longer exists: the spells "
                                        f"cast on it ({', '.join(e.spell for e in on)}) expire with it",
                                        ruleset.cites.get("army-emptied", ruleset.cite("spell-duration")),
                                        ruleset.cite("army-term")))
            state = expire(state, on, f"{army.id} no longer exists (no unit of it is left)",
                           ruleset.quote("army-emptied", "if all the units in an army move away from their current "
                                         "location then all spells cast on that army immediately expire"),
                           ruleset, at.out, own_cite=False, cite=ruleset.cites.get("army-emptied"))
    return state.evolve(armies=tuple(a for a in state.armies if a.units))


def terrains_reported(at: After, state: GameState) -> GameState:
    """A step that reports terrains reports the faces as the after-step rules left them."""
    if at.out.terrains and state.terrains is not at.faces:
        at.out.terrains = {t.id: {"face": t.face, "controlled_by": t.controlled_by} for t in state.terrains}
    return state


def win(at: After, state: GameState) -> GameState:
    """Two captured terrains, or the last units in play, win the game (002 Object of the Game; engine.capture)."""
    return winner(at.before, state, at.ruleset, at.out)


def soiled_ground(at: After, state: GameState) -> GameState:
    """002 Soiled Ground: "any unit killed at the target terrain that goes into the DUA must roll a save or be
    buried"; each such unit's roll is the step's ``burial`` entry for it."""
    before, step, ruleset, out = at.before, at.step, at.ruleset, at.out
    soiled = {e.target: e for e in before.effects if e.spell in ruleset.burial_rolls}
    rolls = {u: r for u, r in getattr(step, "burial", ()) if u not in out.burial_rolled}   # not an SAI's
    # with no such spell in play no killed unit rolls: the kills are not looked up
    for unit_id in (u for u in out.killed if u not in out.burial_rolled) if soiled else ():
        home = next((a for a in before.armies if a.unit(unit_id) is not None), None)
        area = next((a for a in state.dua if any(u.id == unit_id for u in a.units)), None)
        e = soiled.get(home.at) if home is not None else None
        if e is None or area is None:
            continue
        cite = ruleset.spell_sections.get(e.spell, ruleset.cite("spell-effect"))
        unit = next(u for u in area.units if u.id == unit_id)
        # 002 Honor the Dead on its DUA: "only dead units with the black (death) aspect ... can be buried"
        if (barred := burial_barred(state, area.player, unit, ruleset)) is not None:
            out.trace.append(burial_barred_event(barred, (unit,), ruleset, e.spell))
            rolls.pop(unit_id, None)
            continue
        if unit_id not in rolls:
            raise StepError(f"{unit_id} was killed at {home.at} under {e.spell} and must roll a save or be buried: "
                            f"give burial.{unit_id}", cite=cite, field="burial")
        unit = next(u for u in area.units if u.id == unit_id)
        # 002 SAI Resolution, Conditional: "The unit rolls to avoid burial. If the Rise from the Ashes SAI comes
        # up, its effect is applied -- avoiding being buried": the burial roll is its Rise from the Ashes roll
        if sai_endings.bears(ruleset, unit):
            state, rose = sai_endings.rise_from_the_ashes(state, ruleset, unit, area.player, rolls[unit_id],
                                                         "to be buried", out, "dua")
            if rose:
                del rolls[unit_id]
                continue
        # a killed unit rolls against burial in the DUA, at no terrain (002 Glossary, Killed and Buried: "killing a unit
        # (putting it in the DUA) and then burying"): no terrain advantage ("when at a Coastland terrain") helps it
        alone = Army(id=unit_id, player=area.player, at=RESERVE, units=(unit,))
        state, rolled = unit_roll(state, ruleset, alone, unit_id, "avoid-save", ("save",), rolls.pop(unit_id), out,
                                  step)     # in the DUA: its SAIs' normal results only (engine.actions.own_roll)
        saves = rolled.results.get("save", 0)
        out.trace.append(TraceEvent(what=f"{unit_id}: {saves} save(s) against {e.spell}: "
                                         f"{'stays in the DUA' if saves else 'buried'}", after=saves,
                                    rule="a unit killed at the target terrain must roll a save or be buried",
                                    cite=cite))
        if not saves:
            state = state.take_from("dua", area.player, unit_id).add_to("bua", area.player, (unit,))
            out.buried.append(unit_id)
            if sai_endings.bears(ruleset, unit):
                # 'The unit rolls to avoid burial' (002 Resolution, Conditional) is the one roll that "whenever
                # ... buried, immediately roll the unit" asks for
                out.trace.append(reading(f"{unit_id}: its burial roll was its Rise from the Ashes roll: it does not "
                                         "roll again", ruleset.sai_sections.get(sai_states.RISE, cite),
                                         ruleset.cite("sai-resolution")))
    if rolls:
        raise StepError(f"burial rolls given for {', '.join(rolls)}, which no spell or SAI called for",
                        cite=ruleset.cite("spell-effect"), field="burial")
    return state


def wild_growth(at: After, state: GameState) -> GameState:
    """The promotions a roll's Wild Growth results bought, once the step's rolls are resolved; each roll's are
    one exchange effect (002 Exchanging Units from the DUA)."""
    ruleset, out = at.ruleset, at.out
    cite = ruleset.sai_sections.get("wild-growth", ruleset.cite("promote"))
    for army_id, pairs in out.promotions:
        out.trace.append(TraceEvent(what="reading: Wild Growth's promotions, 'immediately' in 002, are made once the "
                                         "step's rolls and damage are resolved; the units promoted must still be in "
                                         "the army", rule=f"this rule read with {ruleset.cite('exchanging')}",
                                    cite=cite, kind=READING, also=ruleset.cite("exchanging")))
        state, events = promote(state, ruleset, army_id, len(pairs), dict(pairs), "Wild Growth", cite)
        out.trace += events
        out.moved += [new for _, new in pairs]
    return state


# The order in which the rules follow a step (tests/test_after_step.py pins it). Kills first end and start what
# they trigger (their SAIs, the spells whose source is gone), then what happens to the dead (burial, stepped
# damage, resisting burial), then the armies as the step left them, then the terrains and the game.
AFTER_STEP: tuple[AfterStepRule, ...] = (
    AfterStepRule("rise-from-the-ashes", "sai-resolution", rise_from_the_ashes),     # 002 special-action-icons-general-information.resolution
    AfterStepRule("sources-gone", "sai-resolution", sources_gone),                   # 002 SAI List: Entangle, Hypnotic Glare
    AfterStepRule("glarers-rolled", "sai-resolution", glarers_rolled),               # 002 SAI List: Hypnotic Glare
    AfterStepRule("soiled-ground", "spell-effect", soiled_ground),                   # 002 spell-attributes.effect (Soiled Ground)
    AfterStepRule("sacrifice", "damage", sacrifice),                                 # 002 racial abilities (Eldarim, Dragonkin)
    AfterStepRule("stepped-damage", "damage", stepped),                              # 002 damage; Undead Stepped Damage
    AfterStepRule("resist-burial", "damage", burial_resisted),                       # 002 Undead Resist Burial
    AfterStepRule("wild-growth", "promote", wild_growth),                            # 002 promotion; exchanging-units-from-the-dua
    AfterStepRule("dragonkin-dissipate", "dragonkin", dragonkin_dissipate),          # 002 dragonkin
    AfterStepRule("used-effects-expire", "spell-duration", used_expire),             # 002 spell-attributes.duration
    AfterStepRule("player-eliminated", "player-eliminated", player_eliminated),      # 002 spell-attributes.duration
    AfterStepRule("carriers", "magic-items", carriers),                              # 002 magical-items
    AfterStepRule("kings-die", "kings-die", kings_die),                              # 002 kings-die
    AfterStepRule("fallen-casters", "spell-duration", fallen_casters),               # 000 magic (002: duration)
    AfterStepRule("untamed", "dragons", untamed),                                    # 002 dragons
    AfterStepRule("eighth-faces-abandoned", "eighth-face", eighth_faces_abandoned),  # 002 the-eighth-face
    AfterStepRule("leave-the-game", "minor-terrains", leave_the_game),               # 002 minor-terrains
    AfterStepRule("armies-gone", "army-term", armies_gone),                          # 002 glossary: army
    AfterStepRule("terrains-reported", "eighth-face", terrains_reported),            # 002 the-eighth-face
    AfterStepRule("win", "winning", win),                                            # 002 object-of-the-game
)
