"""Step 1 of a dragon attack: the Eldarim champions' logos (002 Step 1: Resolve Eldarim special abilities;
Eldarim Champion's Effect on Dragons; the SFR/TSR logos in the SAI List; White Dragons).

"Any Eldarim that rolls its SFR/TSR logo face applies its effect (dragon controlling, dragon taming, or
dragon slaying); all other results rolled are ignored." What each logo does is ``Ruleset.dragon_logos``.
"""

from __future__ import annotations

from ..names import typed
from typing import TYPE_CHECKING

from .. import dragons as kinds
from ..names import slug
from ..ruleset import DragonLogo, Ruleset
from ..state import Army, Dragon, GameState, Unit
from ..steps import DragonStep, StepResult
from ..trace import StepError, TraceEvent

if TYPE_CHECKING:
    from .battle import Battle


def resolve(state: GameState, ruleset: Ruleset, who: Army, battle: Battle, step: DragonStep,
            out: StepResult) -> GameState:
    state = _tamed_before(state, ruleset, who, battle, out)
    targets = dict(step.logo_targets)
    attacking = [d for d in battle.at_army if d.tamed_by is None or d.id in dict(step.dragons)]
    for unit_id, _ in step.eldarim:
        _may_roll(ruleset, who.unit(unit_id), attacking)
    for unit_id, icon in step.eldarim:
        unit = who.unit(unit_id)
        if unit is None:
            raise StepError(f"eldarim: {typed(unit_id)} is not a unit of {who.id}", cite=ruleset.cite("dragon-eldarim"),
                            field="eldarim")
        logo = ruleset.dragon_logos.get(icon)
        if logo is None or not icon.endswith(slug(unit.name or "-")):
            _ignored(ruleset, unit, icon, out)
            continue
        named = targets.pop(unit_id, None)
        # a dragon another player's champion tamed is in the battle only if its controller has it attack (its
        # icons given: Dragon Taming, "the army controlling the dragon decides whether the attack occurs")
        kept = {d.id for d in battle.at_army if d.tamed_by is not None and d.id not in dict(step.dragons)}
        dragon = _target(ruleset, unit, logo, named, battle, out,
                         kept | (set(targets.values()) if named is None else set()), kept)
        if dragon is not None:
            state = _apply(state, ruleset, who, unit, logo, dragon, battle, step, out)
    if targets:
        raise StepError(f"logo_targets given for {', '.join(targets)}, which rolled no logo",
                        cite=ruleset.cite("dragon-eldarim"), field="logo_targets")
    return state


def _may_roll(ruleset: Ruleset, unit: Unit | None, attacking: list[Dragon]) -> None:
    """002 Step 1: "If your army contains a Dragonlord, a Dragonslayer, a Dragonmaster whose color matches a color of
    a dragon attacking your army, or a Dragonhunter whose color matches a color of a dragon attacking your army,
    then you may roll those dice now": a one-color champion (``DragonLogo.matching``) whose color no attacking
    dragon has does not roll before the attack (a white dragon has no elemental color to match)."""
    if unit is None or not unit.name:
        return
    logo = next((logo for icon, logo in ruleset.dragon_logos.items() if icon.endswith(slug(unit.name))), None)
    if logo is None or not logo.matching:
        return
    colors = sorted({c for d in attacking for c in kinds.colors(d)})
    if not any(unit.color in kinds.elements(d) for d in attacking):
        raise StepError(f"eldarim: {unit.label} may not roll before the attack: a {unit.name} rolls in Step 1 only "
                        f"when its color ({unit.color}) matches a color of a dragon attacking its army (attacking: "
                        f"{', '.join(colors) or 'none'})", cite=ruleset.cite("dragon-eldarim"), field="eldarim")


def _ignored(ruleset: Ruleset, unit: Unit, icon: str, out: StepResult) -> None:
    if icon in ruleset.dragon_logos:
        raise StepError(f"eldarim: {unit.label} cannot roll {icon}, another champion's logo",
                        cite=ruleset.cite("dragon-eldarim"), field="eldarim")
    out.trace.append(TraceEvent(what=f"{unit.id} rolled {icon} before the attack: ignored", rule="all other results "
                                "rolled are ignored", cite=ruleset.cite("dragon-eldarim")))


def _tamed_before(state: GameState, ruleset: Ruleset, who: Army, battle: Battle, out: StepResult) -> GameState:
    """White dragons: "Just before the dragon attack, white dragons automatically become untamed"; a dragon tamed
    by a champion of the attacked army's owner does not attack it (Dragon Taming: "when the dragon would battle
    an opponent's army, the army controlling the dragon decides whether the attack occurs")."""
    for dragon in list(battle.at_army):
        if dragon.tamed_by is None:
            continue
        tamer = next((a for a in state.armies if a.unit(dragon.tamed_by) is not None and a.at == dragon.at), None)
        if kinds.kind(dragon) == "white" or tamer is None:
            why = ("white dragons automatically become untamed just before the dragon attack" if tamer else
                   "a DL/DM loses control when it is killed or leaves the terrain without the tamed dragon")
            state = _replace(state, battle, dragon.evolve(tamed_by=None))
            out.trace.append(TraceEvent(what=f"{dragon.id} is untamed", rule=why, cite=ruleset.cite(
                "white-dragons" if tamer else "dragon-taming")))
        elif tamer.player == who.player:
            battle.at_army.remove(dragon)
            out.trace.append(TraceEvent(what=f"{dragon.id}, tamed by {dragon.tamed_by}, does not attack {who.id}",
                                        rule="the player controlling a tamed dragon decides whether it attacks",
                                        cite=ruleset.cite("dragon-taming")))
    return state


def _eligible(unit: Unit, logo: DragonLogo, dragon: Dragon) -> bool:
    """002: "Only white Eldarim can affect a white dragon"; a one-color champion affects only dragons of a matching
    color (an ivory hybrid by its elemental color)."""
    if logo.matching:
        return kinds.kind(dragon) != "white" and unit.color in kinds.elements(dragon)
    return True


def _target(ruleset: Ruleset, unit: Unit, logo: DragonLogo, named: str | None, battle: Battle,
            out: StepResult, kept: set[str] = frozenset(), idle: set[str] = frozenset()) -> Dragon | None:
    """The dragon the champion's logo acts on: the one named, else the first it can affect that the owner did not
    name for another champion (Dragon Taming: "If multiple Dragonlords and/or Dragonmasters roll their SFR/TSR
    logos, their owner decides which take control of the dragon(s)" -- a default never takes a dragon the owner
    gave to another champion rolling after it)."""
    options = [d for d in battle.at_army if _eligible(unit, logo, d) and d.id not in idle]
    if named is None:
        options = [d for d in options if d.id not in kept]
    if named is not None:
        chosen = next((d for d in options if d.id == named), None)
        if chosen is None:
            raise StepError(f"logo_targets: {unit.id}'s logo cannot act on {named}; it may act on "
                            f"{', '.join(d.id for d in options) or 'no dragon attacking the army'}", cite=logo.cite,
                            field="logo_targets")
        return chosen
    if not options:
        out.trace.append(TraceEvent(what=f"{unit.id} rolled its logo: no dragon attacking {unit.id}'s army "
                                         "that it can affect", rule="the champion affects dragons attacking its "
                                    "army (of its color, for one-color champions)", cite=logo.cite))
        return None
    out.trace.append(TraceEvent(what=f"{unit.id}'s logo acts on {options[0].id}", rule="the owner chooses which "
                                "dragon; none given, so the first", cite=logo.cite, defaulted=len(options) > 1))
    return options[0]


def _apply(state: GameState, ruleset: Ruleset, who: Army, unit: Unit, logo: DragonLogo, dragon: Dragon,
           battle: Battle, step: DragonStep, out: StepResult) -> GameState:
    battle.at_army.remove(dragon)
    if logo.power == "tame":
        # "the dragon is immediately tamed. It does not attack the DL/DM's army during this turn"
        out.dragon["tamed"].append(dragon.id)
        out.trace.append(TraceEvent(what=f"{unit.id} tames {dragon.id}: it does not attack {who.id}",
                                    rule="if the DL/DM's logo is rolled, the dragon is immediately tamed",
                                    cite=logo.cite))
        return _replace(state, battle, dragon.evolve(tamed_by=unit.id))
    if logo.power == "control":
        # "one dragon is controlled for this battle only": held motionless or rolled with the army (Step 2)
        battle.controlled.append(dragon)
        out.dragon["controlled"].append(dragon.id)
        out.trace.append(TraceEvent(what=f"{unit.id} controls {dragon.id} for this battle", rule="the acting player "
                                    "controls one dragon", cite=logo.cite))
        if kinds.kind(dragon) == "white":
            battle.benched.append(unit.id)
        return state
    return _slay(state, ruleset, who, unit, logo, dragon, battle, step, out)


def _slay(state: GameState, ruleset: Ruleset, who: Army, unit: Unit, logo: DragonLogo, dragon: Dragon,
          battle: Battle, step: DragonStep, out: StepResult) -> GameState:
    """002: "Each Dragonslayer and Dragonhunter that rolls its SFR/TSR logo allows the acting player to immediately kill
    one dragon. In addition, any dragons killed by the logo face of a Dragonhunter are banished"; White Dragons:
    "If a Dragonslayer slays a white dragon, roll the dragon. If the dragon comes up jaws, it destroys the dragon
    (banish it) and the Dragonslayer as well (kill and bury the Dragonslayer)"."""
    risk = dict(step.dragons).get(dragon.id) if kinds.kind(dragon) == "white" else None
    if kinds.kind(dragon) == "white":
        if risk is None:
            raise StepError(f"{unit.id} slays the white dragon {dragon.id}: roll the dragon (give dragons.{dragon.id})",
                            cite=ruleset.cite("white-dragons"), field="dragons")
        battle.icons[dragon.id] = tuple(risk)
    jaws = risk is not None and "jaws" in risk
    banish = logo.banish or jaws
    # 002 Dragon Slaying: the logo lets the player "kill one dragon. In addition, any dragons killed by the logo face
    # of a Dragonhunter are banished": a banished dragon is killed too, so it is listed as slain and as banished.
    out.dragon["slain"].append(dragon.id)
    if banish:
        out.dragon["banished"].append(dragon.id)
    out.trace.append(TraceEvent(what=f"{unit.id} {'banishes' if banish else 'slays'} {dragon.id}",
                                rule="the logo allows the acting player to immediately kill one dragon"
                                     + ("; a Dragonhunter's kill is banished" if logo.banish else ""),
                                cite=ruleset.cite("white-dragons") if jaws else logo.cite))
    if not jaws:
        return kinds.banish(state, dragon) if banish else kinds.to_pool(state, dragon)
    out.trace.append(TraceEvent(what=f"{dragon.id} came up jaws: {unit.id} is killed and buried",
                                rule="it destroys the dragon (banish it) and the Dragonslayer as well",
                                cite=ruleset.cite("white-dragons")))
    out.buried.append(unit.id)
    mine = state.army(who.id)
    state = state.with_army(mine.without(unit.id)).add_to("bua", who.player, (unit,))
    return kinds.banish(state, dragon)


def _replace(state: GameState, battle: Battle, dragon: Dragon) -> GameState:
    battle.here = tuple(dragon if d.id == dragon.id else d for d in battle.here)
    battle.at_army = [dragon if d.id == dragon.id else d for d in battle.at_army]
    return state.evolve(dragons=tuple(dragon if d.id == dragon.id else d for d in state.dragons))
