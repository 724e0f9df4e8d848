"""What a spell may target (002 Spell Attributes > Target; Reserve Magic; The Eighth Face > Temple; each
spell's own conditions in ``Ruleset.spell_targets``), checked when the spells are announced."""

from __future__ import annotations

from ..names import typed

from ..kings_die import is_kings_die
from ..lands import elements, terrain_types
from ..moves import of_the_dead
from ..protection import army_shield, shield
from ..ruleset import Ruleset, TargetRule
from ..state import RESERVE, Army, GameState
from ..steps import Cast, StepResult
from ..trace import StepError, TraceEvent
from . import spells


def check_target(state: GameState, who: Army, c: Cast, ruleset: Ruleset, out: StepResult | None = None) -> None:
    """The target must exist when the spells are announced, and be of the kind the spell names.

    002 Spell Attributes > Target: no spell that directly inflicts damage on one's own armies or
    units; only spells that resurrect or bury may target units in a DUA.
    """
    cite = ruleset.cite("spell-target")
    kind = c.spell.target or ""
    effect = ruleset.spell_effects.get(c.spell.id)
    if effect is not None and effect.kind in spells.RESURRECTION and of_the_dead(who):
        # 002 Glossary, Magically Constructed Army: "A magically constructed army cannot cast resurrection magic (e.g.
        # from a Cantrip) ... because there are no units in the DUA" (all the dead are its units)
        raise StepError(f"{who.id} is the magically constructed army of a Haunt: it cannot cast resurrection magic "
                        f"({c.spell.name}), because there are no units in the DUA (all of {who.player}'s dead are its "
                        "units)", cite=ruleset.cite("haunt-army"), field="cantrip")
    armies = {a.id: a for a in state.armies}
    owner: Army | None = None
    dead = next((a for a in state.dua if any(u.id == c.target for u in a.units)), None)
    if kind == "terrain" or (kind == "dragon" and effect is not None and effect.kind == "summon-dragon"):
        # tsr-1996 Summon Gold Dragon: "Send any gold dragon to any terrain": the terrain is the cast's target,
        # the dragon its ``dragon:``
        ok = any(t.id == c.target for t in state.terrains)
    elif kind.endswith("army"):
        owner = armies.get(c.target)
        ok = owner is not None and (kind == "army" or (owner.player == who.player) == kind.startswith("own"))
        veil = army_shield(state, ruleset, owner, "magic") if ok and owner.player != who.player else None
        if veil is not None:
            raise StepError(f"{c.target} is under {veil.spell}: it cannot be targeted by any enemy magic effect",
                            cite=ruleset.spell_sections.get(veil.spell, cite), field="cast")
    elif kind.endswith("unit"):
        if dead is not None:
            raise StepError(f"{c.target} is in a dead unit area, and {c.spell.name} neither resurrects nor buries: "
                            "only such spells target dead units", cite=cite, field="cast")
        owner = next((a for a in state.armies if a.unit(c.target) is not None), None)
        ok = owner is not None and (kind == "unit" or (owner.player == who.player) == kind.startswith("own"))
        if ok and owner.unit(c.target).item:
            raise StepError(f"{c.target} is a magical item, and {c.spell.name} targets units: magic items are not "
                            "units", cite=ruleset.cite("magic-items"), field="cast")
        if ok and is_kings_die(owner.unit(c.target), ruleset):      # 002 Kings' Die
            raise StepError(f"{c.target} is a Kings' Die, which cannot be attacked or targeted in any way (magical or "
                            "otherwise)", cite=ruleset.cite("kings-die"), field="cast")
        hidden = shield(state, ruleset, c.target, "magic") if ok else None
        if hidden is not None:
            raise StepError(f"{c.target} cannot be the target of a magic effect while {hidden.spell} is on it",
                            cite=ruleset.spell_sections.get(hidden.spell, cite), field="cast")
    elif kind.endswith("dua") and c.target in state.players:     # a whole DUA, named by its player
        ok = kind == "dua" or (c.target == who.player) == kind.startswith("own")
    elif kind.endswith("dua"):
        ok = dead is not None and (kind == "dua" or (dead.player == who.player) == kind.startswith("own"))
        if ok and effect is None:
            raise StepError(f"{c.spell.name} is not modelled by this version yet", cite=cite, field="cast")
    elif kind.endswith("item"):
        owner = next((a for a in state.armies if a.unit(c.target) is not None), None)
        ok = owner is not None and owner.unit(c.target).item and \
            (owner.player == who.player) == kind.startswith("own")
    elif kind == "summoning-pool":          # "your Dragonkin in the summoning pool"
        ok = any(u.id == c.target for u in state.pool(who.player).units)
    elif kind == "minor-terrain":           # "a minor terrain in your summoning pool", named by its type
        ok = True                           # the spell itself says what a pool lacks (actions.spells)
    elif kind == "bua":                     # "in your BUA"
        ok = any(u.id == c.target for u in state.area("bua", who.player).units)
    elif kind == "own-armies":
        ok = c.target == who.player         # "Target all of your armies": named by the casting player
    elif kind == "spell" and effect is not None:
        # an SAI's effect in play (Illusion, Entangle, Wither ...) is not a spell: no spell can target it
        found = spells.effect_ref(state, c.target)
        ok = found is not None and found.spell in ruleset.spell_costs
        if not ok:
            spells_in_play = [f"{e.spell}@{e.target}" for e in state.effects if e.spell in ruleset.spell_costs]
            raise StepError(f"{c.spell.name} targets a spell in play, written <spell>@<target>; no spell "
                            f"{typed(c.target)} is in play (in play: {', '.join(spells_in_play) or 'none'})",
                            cite=cite, field="cast")
    else:
        raise StepError(f"{c.spell.name} targets {kind or 'something'} that this version cannot aim at yet",
                        cite=ruleset.cite("spell-targets"), field="cast")
    if owner is not None and owner.player == who.player and effect is not None and effect.kind in spells.DAMAGE:
        # whatever the spell names as its target (tsr-1996's Hailstorm: "the target army"): 002 Target, "no spell
        # that directly inflicts damage on one's own armies or units"; 000 Magic, "you can't cast magic that inflicts
        # damage on one of your own armies"; 000 Reserve Magic, "Spells that inflict damage on friendly units or
        # armies cannot be cast"
        where = "reserve-magic" if who.at == RESERVE else "spell-target"
        rule = ruleset.quote(f"own-damage:{where}", "directly inflicts damage: you cannot target your own armies or "
                             "units with it")
        raise StepError(f"{c.spell.name}: {rule} ({c.target} is {who.player}'s)",
                        cite=ruleset.cite(where) if where == "reserve-magic" else cite, field="cast")
    in_play = {*armies, *(t.id for t in state.terrains), *(u.id for a in state.armies for u in a.units),
               *(u.id for a in (*state.dua, *state.bua) for u in a.units), *state.players}
    if not ok and c.target not in in_play and "spell-targets" in ruleset.cites:
        # 002 Target Your Spells: "The target of a spell or the conditions for a spell's effect to occur must exist
        # at the time spells are announced" (an army a Path of the same action would form does not, yet)
        raise StepError(f"{typed(c.target)} is not a target for {c.spell.name}: it is not in play when the spells are "
                        "announced, and the target of a spell must exist at the time spells are announced",
                        cite=ruleset.cite("spell-targets"), field="cast")
    if not ok:
        hint = " (a DUA or all of a player's armies is named by its player)" if kind.endswith(("dua", "armies")) else ""
        raise StepError(f"{typed(c.target)} is not a target for {c.spell.name}, which targets {kind.replace('-', ' ')}"
                        + hint, cite=cite, field="cast")
    if c.spell.id in ruleset.spell_targets:
        _check_rule(state, who, c, ruleset.spell_targets[c.spell.id], ruleset)
    if owner is not None and owner.player != who.player and c.spell.color == "black":
        _check_temple(state, owner, c, ruleset)
    if who.at == RESERVE and kind == "terrain" and ruleset.reserve_own_targets:
        raise StepError("a reserve army's magic cannot target a terrain", cite=ruleset.cite("reserve-magic"),
                        field="cast")
    target_player = owner.player if owner is not None else dead.player if dead is not None else None
    if who.at == RESERVE and target_player not in (None, who.player):
        if ruleset.reserve_own_targets:
            # 002 Reserve Magic: "Terrain dice, summoning pool, spells and other players components, armies or dead
            # unit area ... cannot be targeted by a reserve army's magic"; 000 Reserve Magic alike
            raise StepError("a reserve army's magic targets only its own player's armies and units",
                            cite=ruleset.cite("reserve-magic"), field="cast")
        if out is not None:
            # 001 Magic Resolution: "Only spells marked as castable from reserves can be cast by a Reserve Army" --
            # a limit on the spells, none on their targets (002's "other players ... armies ... cannot be targeted"
            # is not in 001)
            out.trace.append(TraceEvent(what=f"{c.spell.name} from the reserve area at {c.target} "
                                             f"({target_player}'s): the edition limits which spells a reserve army "
                                             "casts, not their targets",
                                        rule="only spells marked as castable from reserves can be cast by a Reserve "
                                             "Army", cite=ruleset.cite("reserve-magic")))


def _check_temple(state: GameState, target: Army, c: Cast, ruleset: Ruleset) -> None:
    """002 Temple: "Possession of a Temple face prevents any new enemy black spells from targeting the
    possessing army" (its units too; the terrain may still be targeted)."""
    if target.at == RESERVE:
        return
    terrain = state.terrain(target.at)
    if terrain.face == 8 and terrain.eighth == "temple" and terrain.controlled_by == target.id:
        raise StepError(f"{target.id} controls the Temple of {terrain.id}: enemy black magic cannot target it or "
                        f"its units ({c.spell.name} is black)", cite=ruleset.cite("temple"), field="cast")


def _check_rule(state: GameState, who: Army, c: Cast, rule: TargetRule, ruleset: Ruleset) -> None:
    """What the spell's own text asks of its target (``Ruleset.spell_targets``)."""
    cite = ruleset.spell_sections.get(c.spell.id, ruleset.cite("spell-target"))
    unit = next((a.unit(c.target) for a in state.armies if a.unit(c.target) is not None), None)
    if unit is not None and rule.alone and any(e.spell == c.spell.id for e in state.effects_on(unit.id)):
        # 002 Burning Hands, Earthen Armor, Flaming Armor, Flaming Spears: "Target one of your units not already
        # under the effects of a[n] ... spell"
        art = "an" if c.spell.name[:1] in "AEIOU" else "a"
        raise StepError(f"{c.spell.name} targets one of your units not already under the effects of {art} "
                        f"{c.spell.name} spell; {unit.label} already is", cite=cite, field="cast")
    on_unit = rule.race or rule.health_worth or rule.other_color or rule.same_color
    if unit is not None and not on_unit:
        return
    if on_unit:     # a unit target (check_target found it in play)
        if rule.race and unit.race != rule.race:
            raise StepError(f"{c.spell.name} targets a {rule.race} unit; {unit.label} is {unit.race or 'of no race'}",
                            cite=cite, field="cast")
        if rule.same_color and unit.color != (c.color or c.spell.color):
            raise StepError(f"{c.spell.name} targets a unit of the color of the magic paying for it "
                            f"({c.color or c.spell.color}), and {unit.label} is {unit.color}", cite=cite, field="cast")
        if rule.other_color and unit.color == (c.color or c.spell.color):
            raise StepError(f"{c.spell.name} targets a unit of another color than the {unit.color} magic paying "
                            f"for it, and {unit.label} is {unit.color}", cite=cite, field="cast")
        if rule.health_worth and unit.health > c.count:
            raise StepError(f"{c.spell.name} x{c.count} targets {c.count} health-worth, and {unit.label} "
                            "is more: multiple castings increase the number of health affected", cite=cite,
                            field="cast")
        return
    if rule.at_terrain and state.army(c.target).at == RESERVE:
        raise StepError(f"{c.spell.name} targets an army at a terrain; {c.target} is in the reserve area",
                        cite=cite, field="cast")
    if rule.has_race and not any(u.race == rule.has_race for u in state.army(c.target).units):
        a = "an" if rule.has_race[0] in "aeiou" else "a"
        raise StepError(f"{c.spell.name} targets an army containing {a} {rule.has_race} unit; {c.target} has none",
                        cite=cite, field="cast")
    if rule.army_at_element:
        at = state.army(c.target).at
        terrain = None if at == RESERVE else state.terrain(at)
        if terrain is None or rule.army_at_element not in elements(state, terrain, who, ruleset):
            raise StepError(f"{c.spell.name} targets an army at a terrain with the {rule.army_at_element} element; "
                            f"{c.target} is at {at}", cite=cite, field="cast")
        return
    if rule.at_terrain:
        return
    terrain = state.terrain(c.target)
    land = elements(state, terrain, who, ruleset)
    problems = []
    if rule.terrain_type and rule.terrain_type not in terrain_types(state, terrain, ruleset):
        problems.append(f"it is not a {rule.terrain_type}")
    if rule.element and rule.element not in land:
        problems.append(f"it has no {rule.element} element (it has {', '.join(sorted(land))})")
    if rule.enemy_present and not any(a.at == terrain.id and a.units and a.player != who.player
                                      for a in state.armies):
        problems.append("no enemy army is present there")
    if rule.not_eighth and terrain.face == 8:
        problems.append("it is at its eighth face")
    if rule.alone and any(e.spell == c.spell.id for e in state.effects_on(terrain.id)):
        problems.append(f"it is already under the effects of {c.spell.name}")
    if problems:
        raise StepError(f"{c.spell.name} cannot target {terrain.id}: {'; '.join(problems)}", cite=cite, field="cast")
