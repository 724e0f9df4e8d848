"""tsr-1996 Death Magic: black ID points doubled by burying one player's dead, every point so gained spent.

000 First March, Death Magic: "during a magic action black magic can be doubled when ID icons are rolled
by "burying" dead units of health equal to the points of ID icons rolled ... Any one player (including
the acting player) who has dead units can be targeted for the loss; however, the targeted player chooses
which of his dead units are buried. Only points generated through ID icons can be used for burying and
doubling. All magic points gained by burying dead must be spent. Units in reserve can't double death
magic." The scenario names the buried units (``death_magic:``, the targeted player's choice).
"""

from __future__ import annotations

from ..magic import Caster
from ..ruleset import Ruleset
from ..state import RESERVE, Army, GameState
from ..steps import Cast, MagicStep, StepResult
from ..trace import StepError, TraceEvent


def bury(state: GameState, who: Army, casters: list[Caster], step: MagicStep, ruleset: Ruleset,
         out: StepResult) -> tuple[GameState, list[Caster], int]:
    """Bury the named dead; each health buried doubles one black ID point (a caster of that many black
    points added, beyond the reach of modifiers). Returns the state, that caster and the health buried."""
    if not step.death_magic:
        return state, [], 0
    cite = ruleset.cite("dua-advantage")
    if not ruleset.death_magic:
        raise StepError(f"death_magic (doubling black by burying the dead) is not a rule of {ruleset.edition}",
                        cite=cite, field="death_magic")
    if who.at == RESERVE:
        raise StepError("units in reserve can't double death magic", cite=cite, field="death_magic")
    player, units = _the_dead(state, step.death_magic, cite)
    health = sum(u.health for u in units)
    black_ids = sum(c.ids for c in casters if "black" in c.colors)
    if health > black_ids:
        raise StepError(f"{health} health-worth buried, but only {black_ids} black-casting ID point(s) rolled: "
                        "only points generated through ID icons can be used for burying and doubling",
                        cite=cite, field="death_magic")
    state = state.take_from("dua", player, *step.death_magic).add_to("bua", player, units)
    out.buried.extend(step.death_magic)
    out.trace.append(TraceEvent(what=f"death magic: {player} buries {', '.join(step.death_magic)}: {health} black "
                                     f"ID point(s) doubled", before=health, after=2 * health,
                                rule="black magic is doubled by burying dead units of health equal to the ID "
                                     "points doubled, all of one player's dead", cite=cite))
    return state, [Caster("death-magic", None, health, 0, ("black",), any_race=True, sai=health)], health


def _the_dead(state: GameState, ids: tuple[str, ...], cite: str):
    """The named dead units, all in one player's dead unit area."""
    found = {u.id: (area.player, u) for area in state.dua for u in area.units if u.id in ids}
    missing = [i for i in ids if i not in found]
    if missing:
        raise StepError(f"{', '.join(missing)} is not in any dead unit area (the dead: "
                        f"{', '.join(u.id for a in state.dua for u in a.units) or 'none'})", cite=cite,
                        field="death_magic")
    players = {p for p, _ in found.values()}
    if len(players) > 1:
        raise StepError(f"the buried dead must be one player's (any one player can be targeted), not "
                        f"{', '.join(sorted(players))}'", cite=cite, field="death_magic")
    return players.pop(), tuple(u for _, u in found.values())


def check_spent(points: dict[str, int], cast: tuple[Cast, ...], doubled: int, ruleset: Ruleset,
                out: StepResult) -> None:
    """The doubled points are black, and "All magic points gained by burying dead must be spent"."""
    if not doubled:
        return
    cite = ruleset.cite("dua-advantage")
    black = 2 * doubled
    spent = sum(c.spell.cost * c.count for c in cast if (c.color or c.spell.color) == "black")
    if points.get("black", 0) < black or spent < black:
        raise StepError(f"the {black} black point(s) gained by burying the dead must all be spent on black "
                        f"spells; {spent} are", cite=cite, field="cast")
    out.trace.append(TraceEvent(what=f"death magic: {black} black point(s) gained, {spent} spent on black spells",
                                before=black, after=spent, rule="all magic points gained by burying dead must "
                                "be spent", cite=cite))
