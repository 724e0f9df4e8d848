"""003's multiplayer rules where a game has more than two players (sfr-v4: 003 Multiplayer Games).

The rules themselves change little in the engine (each counter-maneuvering army is already compared with
the maneuvering army by itself; an attack's target is always declared by the step), so this module says in
the trace which 003 rule applies, where the edition's ruleset cites one (``multiplayer:<rule>``).

A player eliminated in such a game (``multiplayer:eliminated``) is the one rule with behaviour of its own:
003 "If a player is eliminated, all spells cast by that player expire when they would otherwise take their
next turn. Simply skip their turn from then on." 003 does not say when a player is eliminated; ddref takes
002's words (Spell Attributes > Duration): "no units are remaining at terrains or in the reserve area".
"""

from __future__ import annotations

from .expiry import expire
from .ruleset import Ruleset
from .state import GameState
from .steps import StepResult
from .trace import StepError, TraceEvent, reading
from .value import Value

RULES = {
    "counter-maneuver": "counter-maneuvering armies do not combine their maneuver results. Each compares their total "
                        "with the maneuvering army individually",
    "target": "when performing a melee or missile attack, a player may target any eligible army. The target of the "
              "attack must be declared before the dice are rolled",
    "opposing": "any effect that targets an 'opposing' unit or army may target the unit or army of any opponent",
    "eliminated": "if a player is eliminated, all spells cast by that player expire when they would otherwise take "
                  "their next turn. Simply skip their turn from then on",
}
# 002 Spell Attributes > Duration, the only document that says when a player is eliminated
ELIMINATED = "no units are remaining at terrains or in the reserve area"



def note(state: GameState, ruleset: Ruleset, rule: str, what: str, out: StepResult) -> None:
    """One trace line naming the 003 rule, in a game of three or more players under an edition that has it."""
    cite = ruleset.cites.get(f"multiplayer:{rule}")
    if cite is None or len(state.players) < 3:
        return
    out.trace.append(TraceEvent(what=what, rule=RULES[rule], cite=cite))


def opposing_target(state: GameState, ruleset: Ruleset, caster: str, spell: str, kind: str, target: str,
                    out: StepResult) -> None:
    """A spell aimed at an opposing ("enemy") army or unit names whose it is: any opponent's may be chosen."""
    if not kind.startswith("enemy"):
        return
    owner = next((a for a in state.armies if target in (a.id, *(u.id for u in a.units))), None)
    if owner is not None and owner.player != caster:
        note(state, ruleset, "opposing", f"{spell} targets {target} ({owner.player}'s), one of {caster}'s "
             f"{len(state.players) - 1} opponents", out)


# 002 Spell Attributes > Duration: the eliminated player's spells on others "have their normal duration (that is to
# say, they expire when the eliminated player would have had his or her next turn)"
ELIMINATED_002 = ("any spells the eliminated player had previously cast on another player's units or armies, or on "
                  "terrains, have their normal duration (that is to say, they expire when the eliminated player would "
                  "have had his or her next turn)")


def _rule(ruleset: Ruleset) -> tuple[str, str, str] | None:
    """The eliminated player's rule the edition states, as (its cite, the cite saying when a player is eliminated,
    its words): 003's (sfr-v4), else 002's own sentence in Spell Attributes > Duration (sfr-2012); None: neither."""
    if "multiplayer:eliminated" in ruleset.cites:
        return (ruleset.cites["multiplayer:eliminated"], ruleset.cites["multiplayer:eliminated-when"],
                RULES["eliminated"])
    if "player-eliminated" in ruleset.cites:
        return ruleset.cites["player-eliminated"], ruleset.cites["player-eliminated"], ELIMINATED_002
    return None


def eliminated(state: GameState, ruleset: Ruleset, player: str) -> bool:
    """``player`` is out of a game of three or more, under every edition: no army of theirs, at a terrain or in the
    reserve area, has a unit left (002 Duration: "no units are remaining at terrains or in the reserve area"; magical
    items are no units: ``GameState.units_in_play``, the count the win and the fallen casters use too). Their
    turn is skipped from then on (``skipped_by``: the edition's passage) and the turn order passes over them
    (engine.actions.turn): one rule for every edition, so no edition's turn order keeps an eliminated player."""
    return len(state.players) >= 3 and not state.units_in_play().get(player)


class Skip(Value):
    """The passages that skip an eliminated player's turn in an edition (``skipped_by``)."""

    cite: str           # the passage that skips the turn
    words: str          # its words
    also: str           # the passage it is read with, "" where the edition says it
    when: str           # the passage that says when a player is eliminated
    when_words: str     # its words


def skipped_by(ruleset: Ruleset) -> Skip:
    """The passage that skips an eliminated player's turn in the edition: 003 "Simply skip their turn from then on"
    (sfr-v4); 002 Duration, their spells "expire when the eliminated player would have had his or her next turn"
    (sfr-2012: a turn they no longer have); 000 Magic, "If all your units are killed ... any spells you cast are
    immediately negated" (tsr-1996, which says nothing more of a player with no units: a reading, with 000's order of
    play)."""
    if "multiplayer:eliminated" in ruleset.cites:
        return Skip(ruleset.cites["multiplayer:eliminated"], RULES["eliminated"], "",
                    ruleset.cites["multiplayer:eliminated-when"], ELIMINATED)
    if "player-eliminated" in ruleset.cites:
        return Skip(ruleset.cites["player-eliminated"], ELIMINATED_002, "", ruleset.cites["player-eliminated"],
                    ELIMINATED)
    turn_order = ruleset.cites.get("turn-order", ruleset.cite("turn-sequence"))
    if "spells-end-with-caster" in ruleset.cites:
        cite = ruleset.cites["spells-end-with-caster"]
        return Skip(cite, ruleset.quote("spells-end-with-caster", "any spells you cast are immediately negated")
                    + ": a player with no units left takes no turn", turn_order, cite,
                    "if you have no units left at terrains or in reserve")
    return Skip(turn_order, "a player with no units left takes no turn", "", turn_order, ELIMINATED)


def out_of_game(state: GameState, ruleset: Ruleset, player: str) -> bool:
    """``player`` is eliminated from a game of three or more under an edition whose eliminated player's spells run
    until their turn would have come (003; 002 Duration): they end when the turn passes the player's seat. Under
    tsr-1996 they end at once (000 Magic: engine.after_step ``fallen_casters``)."""
    return _rule(ruleset) is not None and eliminated(state, ruleset, player)


def refuse_turn(state: GameState, ruleset: Ruleset, player: str) -> None:
    """An eliminated player's turn never begins, under every edition (``eliminated``, ``skipped_by``)."""
    if eliminated(state, ruleset, player):
        playing = [p for p in state.players if not eliminated(state, ruleset, p)]
        skip = skipped_by(ruleset)
        # an edition that does not say when a player is eliminated (sfr-v4's 003) is read with 002 Duration: the
        # refusal says so, naming the passage whose words it gives (each edition words its own rules, issue 20)
        when = (skip.when_words if skip.when.partition(":")[0] == ruleset.edition else
                f"a reading: the {ruleset.edition} rules do not say when a player is eliminated; {skip.when} does: "
                f"\"{skip.when_words}\"")
        raise StepError(f"{player} is eliminated ({when}): their turn is skipped ({skip.words}); the "
                        f"players still in the game are {', '.join(playing)}", cite=skip.cite, field="player")


def skip_eliminated(state: GameState, ending: str, player: str, ruleset: Ruleset, out: StepResult) -> GameState:
    """The turn passes from ``ending`` to ``player``: each eliminated player seated between them (in the order
    of ``players``) would have taken their turn now, so every spell they cast expires and their turn is skipped
    (003 Multiplayer Games)."""
    order = state.players
    if ending not in order or player not in order:
        return state
    at = order.index(ending)
    between = [order[(at + i) % len(order)] for i in range(1, len(order))]
    for skipped in between[:between.index(player)]:
        if not eliminated(state, ruleset, skipped):
            continue
        skip = skipped_by(ruleset)
        out.trace.append(TraceEvent(what=f"{skipped} is eliminated: no army of theirs has a unit",
                                    rule=skip.when_words, cite=skip.when))
        out.trace.append(reading(f"{skipped}'s turn is skipped: {skip.words}", skip.cite, skip.also) if skip.also
                         else TraceEvent(what=f"{skipped}'s turn is skipped", rule=skip.words, cite=skip.cite))
        if not out_of_game(state, ruleset, skipped):
            continue        # an edition whose eliminated player's spells end at once (000 Magic), not now
        rule_cite, _, rule_words = _rule(ruleset)
        state = expire(state, [e for e in state.effects if e.by == skipped],
                       f"{skipped}, eliminated, would have taken their next turn now", rule_words, ruleset, out,
                       cite=rule_cite)
    return state
