"""When spells in play expire (002 Spell Attributes > Duration, and each spell's own duration).

Every expiry is traced with the rule that ends the spell: the beginning or end of
the caster's next turn, a terrain face changing, an army left empty, a unit's
spell used.
"""

from __future__ import annotations

from collections.abc import Iterable

from .ruleset import Ruleset
from .state import Effect, GameState
from .steps import StepResult
from .trace import TraceEvent


def expire(state: GameState, gone: Iterable[Effect], why: str, rule: str, ruleset: Ruleset,
           out: StepResult, own_cite: bool = True, cite: str | None = None) -> GameState:
    """Take ``gone`` out of play, one trace line each (cited to ``cite``, the spell's own text, or Duration)."""
    rule_cite = cite
    gone = [e for e in gone if e in state.effects]
    for e in gone:
        cite = rule_cite or (ruleset.spell_sections.get(e.spell) if own_cite else None)
        out.trace.append(TraceEvent(what=f"{e.spell} on {e.target} expires: {why}", before=e.count, after=0,
                                    rule=rule, cite=cite or ruleset.cite("spell-duration")))
    return state.evolve(effects=tuple(e for e in state.effects if e not in gone)) if gone else state


def face_changed(state: GameState, terrain_id: str, ruleset: Ruleset, out: StepResult) -> GameState:
    """Spells lasting "until the target terrain's face is changed" end (002 Deadlands, Create Mountain, ...)."""
    gone = [e for e in state.effects if e.target == terrain_id
            and ruleset.spell_durations.get(e.spell) == "until-terrain-face-changes"]
    return expire(state, gone, f"{terrain_id}'s face changed", "the spell lasts until the target terrain's "
                  "face is changed", ruleset, out)


def army_emptied(state: GameState, army_id: str, ruleset: Ruleset, out: StepResult) -> GameState:
    """002 Duration: "If all the units in an army move away ... all spells cast on that army immediately expire"."""
    if state.army(army_id).units:
        return state
    return expire(state, state.effects_on(army_id), "every unit has moved away", ruleset.quote("army-emptied",
                  "if all the units in an army move away from their current location then all spells cast on that "
                  "army immediately expire"), ruleset, out, own_cite=False,
                  cite=ruleset.cites.get("army-emptied"))   # where the edition's words are (tsr-1996: Magic)


def turn_ends(state: GameState, player: str, ruleset: Ruleset, out: StepResult) -> GameState:
    """The end of ``player``'s turn ends its spells lasting "until the end of your next turn" cast before it."""
    gone = [e for e in state.effects if e.by == player and e.next_turn
            and ruleset.spell_durations.get(e.spell) == "until-end-of-next-turn"]
    state = expire(state, gone, f"the end of {player}'s next turn", "the spell lasts until the end of its caster's next turn",
                  ruleset, out)
    # 002 Stun: "cannot be rolled until the end of your turn" (the turn the SAI was rolled in)
    gone = [e for e in state.effects if e.by == player and ruleset.spell_durations.get(e.spell) == "until-end-of-turn"]
    return expire(state, gone, f"the end of {player}'s turn", "the effect lasts until the end of its caster's turn",
                  ruleset, out)


def turn_begins(state: GameState, player: str, ruleset: Ruleset, out: StepResult) -> GameState:
    """The beginning of ``player``'s turn ends its spells lasting "until the beginning of your next turn";
    its spells lasting until the end of its next turn are now in that turn."""
    gone = [e for e in state.effects if e.by == player
            and ruleset.spell_durations.get(e.spell) == "until-beginning-of-next-turn"]
    state = expire(state, gone, f"the beginning of {player}'s next turn",
                   "the spell lasts until the beginning of its caster's next turn",
                   ruleset, out)
    return state.evolve(effects=tuple(
        e.evolve(next_turn=True) if e.by == player and not e.next_turn
        and ruleset.spell_durations.get(e.spell) == "until-end-of-next-turn" else e for e in state.effects))


def unit_gone(state: GameState, unit_id: str, how: str, ruleset: Ruleset, out: StepResult) -> GameState:
    """002 Spell Attributes > Duration: an individual-targeting spell "immediately expires when the target unit
    is exchanged, killed or buried"."""
    return expire(state, state.effects_on(unit_id), f"{unit_id} was {how}", "an individual-targeting spell "
                  "immediately expires when the target unit is exchanged, killed or buried", ruleset, out,
                  own_cite=False)


def eliminated(state: GameState, ruleset: Ruleset, out: StepResult) -> GameState:
    """002 Spell Attributes > Duration: "When a player is eliminated from a multi-player game -- no units are
    remaining at terrains or in the reserve area -- any spells cast on this player's units or armies immediately
    expire." (Their units' spells expired when the units were killed; their armies' go now. The spells the player
    cast keep "their normal duration": nothing here ends them.) Only where the edition states it
    (``player-eliminated``), in a game of three or more players."""
    cite = ruleset.cites.get("player-eliminated")
    if cite is None or len(state.players) < 3:
        return state
    out_of_game = {p for p, n in state.units_in_play().items() if not n}
    armies = {a.id for a in state.armies if a.player in out_of_game}
    gone = [e for e in state.effects if e.target in armies]
    if not gone:
        return state
    return expire(state, gone, f"{', '.join(sorted(out_of_game))} is eliminated (no units are remaining at "
                  "terrains or in the reserve area)", "any spells cast on this player's units or armies immediately "
                  "expire", ruleset, out, own_cite=False, cite=cite)
