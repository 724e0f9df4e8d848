"""SAIs whose special effect acts on a dragon during a dragon attack (002 SAI List: Decapitate, Impale, Bash).

An SAI table entry ``("dragon",) -> SaiUse(special="dragon-effect")`` sends the SAI here; what it does to the
dragon is ``DRAGON_SAIS``. Each result acts once, on the dragon the step's ``sai_dragons`` names for the unit
that rolled it (default: the first dragon it can act on, marked ``defaulted``). Reading: a unit's roll of the
SAI acts once, whatever its points ("choose any dragon", "three melee results" are said of the SAI, not per
point).
"""

from __future__ import annotations

from ..chosen import read as chosen_read
from typing import TYPE_CHECKING

from .. import dragons as kinds
from ..roll import Outcome
from ..ruleset import Ruleset
from ..state import Army, Dragon, Effect, GameState
from ..steps import DragonStep, StepResult
from ..trace import StepError, TraceEvent, reading, told

if TYPE_CHECKING:
    from .battle import Battle

EFFECT = "dragon-effect"
# sai -> (what it does, the results it gives otherwise): "During a dragon attack, choose any dragon that rolls a
# Jaws icon to be slain. Otherwise it inflicts three melee results on the dragon" (Decapitate; Impale: missile);
# Bash: "target one dragon that did normal damage. Bash immediately does back damage equal to the melee results
# of the target dragon. The defending army gets saves equal to the amount of damage that the target dragon
# generated."
# The Dragonkin Champion's logo moves a summoned dragon of its color (``move_dragons``, at the end of the attack).
DRAGON_SAIS = {"decapitate": ("slay-jaws", "melee"), "impale": ("slay-jaws", "missile"), "bash": ("bash", "save"),
               "sfr-tsr-logo-dragonkin-champion": ("move", "")}
JAWS, OTHERWISE = "jaws", 3


class Struck:
    """What the SAIs did: dragons slain, results they add (``extra``), and the choices left unused."""

    def __init__(self, step: DragonStep, blue: Effect | None = None) -> None:
        self.blue = blue                    # a Blue Dragon Breath: the army's roll is a save roll
        self.slain: list[Dragon] = []
        self.extra: dict[str, int] = {}
        self.named = dict(step.sai_dragons)
        self.movers: list[str] = []         # Dragonkin Champions whose logo may move a dragon


def resolve(state: GameState, ruleset: Ruleset, who: Army, battle: Battle, answer: Outcome, step: DragonStep,
            out: StepResult, blue: Effect | None = None) -> Struck:
    """``blue``: the Blue Dragon Breath the army is under, if any (its roll a save roll)."""
    struck = Struck(step, blue)
    for special in (s for s in answer.specials if s.effect == EFFECT):
        if special.sai not in DRAGON_SAIS:
            raise StepError(f"{special.sai}'s effect on a dragon is not modelled yet by this version of ddref",
                            cite=ruleset.sai_sections.get(special.sai, ruleset.cite("dragon-response")), field="roll")
        _one(state, ruleset, battle, special.sai, special.unit, struck, out)
    if struck.named:
        raise StepError(f"sai_dragons names {', '.join(struck.named)}, which rolled no Decapitate, Impale or Bash",
                        cite=ruleset.cite("dragon-response"), field="sai_dragons")
    return struck


def _one(state: GameState, ruleset: Ruleset, battle: Battle, sai: str, unit: str, struck: Struck,
         out: StepResult) -> None:
    what, otherwise = DRAGON_SAIS[sai]
    cite = ruleset.sai_sections.get(sai, ruleset.cite("dragon-response"))
    if what == "move":
        struck.movers.append(unit)
        return
    alive = [d for d in battle.attacking() if d not in struck.slain]
    if what == "slay-jaws":
        options = [d for d in alive if JAWS in battle.icons[d.id]]
    else:
        options = [d for d in alive if kinds.damage(d, battle.icons[d.id], ruleset)]
    dragon = _chosen(sai, unit, options, struck, cite, out)
    if what == "slay-jaws" and dragon is not None:
        struck.slain.append(dragon)
        out.trace.append(TraceEvent(what=f"{unit}'s {sai} slays {dragon.id}, which rolled Jaws", rule="choose any "
                                    "dragon that rolls a Jaws icon to be slain; the army still saves against its "
                                    "damage", cite=cite))
        return
    if what == "slay-jaws" and struck.blue is not None:
        out.trace.append(_no_results_under_blue(ruleset, struck.blue, unit, sai, otherwise, cite))
        return
    if what == "slay-jaws":
        struck.extra[otherwise] = struck.extra.get(otherwise, 0) + OTHERWISE
        out.trace.append(TraceEvent(what=f"{unit}'s {sai}: no dragon rolled Jaws: {OTHERWISE} {otherwise} results",
                                    after=OTHERWISE, rule=f"otherwise it inflicts three {otherwise} results on the "
                                    "dragon", cite=cite))
        return
    if dragon is None:
        out.trace.append(TraceEvent(what=f"{unit}'s {sai}: no dragon did normal damage", after=0,
                                    rule="target one dragon that did normal damage", cite=cite))
        return
    _bash(state, ruleset, battle, dragon, unit, sai, struck, cite, out)


def _no_results_under_blue(ruleset: Ruleset, blue: Effect, unit: str, sai: str, otherwise: str,
                           cite: str) -> TraceEvent:
    """002 Blue Dragon Breath: "The target army can only make save and save avoidance rolls"; Step 6: "the army can
    only make a save roll": Decapitate's and Impale's "otherwise three melee/missile results" are no saves."""
    breath = ruleset.breath_effects[blue.spell][0]
    return TraceEvent(what=f"{unit}'s {sai}: no dragon rolled Jaws; its {OTHERWISE} {otherwise} results do not count "
                           "in the army's save roll", after=0,
                      rule=f"otherwise it inflicts three {otherwise} results on the dragon ({cite}); but 'the army "
                           f"can only make a save roll' ({ruleset.cite('dragon-response')}): 'only make save and "
                           "save avoidance rolls'", cite=breath)


def _bash(state: GameState, ruleset: Ruleset, battle: Battle, dragon: Dragon, unit: str, sai: str, struck: Struck,
          cite: str, out: StepResult) -> None:
    """Reading: the back damage slays the dragon if it reaches the dragon's health and automatic saves, as
    results of one type would (002 Step 6); less has no effect on it."""
    hurt = kinds.damage(dragon, battle.icons[dragon.id], ruleset)
    struck.extra["save"] = struck.extra.get("save", 0) + hurt
    need = kinds.to_slay(dragon, battle.icons[dragon.id], state, ruleset)
    slain = hurt >= need
    if slain:
        struck.slain.append(dragon)
    out.trace.append(TraceEvent(what=f"{unit}'s {sai} on {dragon.id}: {hurt} saves for the army, {hurt} back damage "
                                     f"({need} slay it): {'slain' if slain else 'no effect on the dragon'}",
                                before=hurt, after=need, rule="back damage equal to the target dragon's damage, and "
                                "saves equal to it", cite=cite))


def _chosen(sai: str, unit: str, options: list[Dragon], struck: Struck, cite: str, out: StepResult) -> Dragon | None:
    named = struck.named.pop(unit, None)
    if named is None:
        if len(options) > 1:
            out.trace.append(TraceEvent(what=f"{unit}'s {sai} acts on {options[0].id}", rule="the acting player "
                                        "chooses the dragon; none given, so the first", cite=cite, defaulted=True))
        return options[0] if options else None
    found = next((d for d in options if d.id == named), None)
    if found is None:
        raise StepError(f"sai_dragons: {unit}'s {sai} cannot act on {named}; it may act on "
                        f"{', '.join(d.id for d in options) or 'no dragon'}", cite=cite, field="sai_dragons")
    return found


def move(state: GameState, ruleset: Ruleset, who: Army, movers: list[str], step: DragonStep,
         out: StepResult) -> GameState:
    """002 SFR/TSR Logo (Dragonkin Champion): "may move a summoned dragon with the same color as the Dragonkin
    Champion from any terrain to any other terrain. A player may move a dragon that is currently controlled by a
    Dragonlord or Dragonmaster. In this case, the dragon becomes untamed"; Ivory dragons: "No other effect can
    move an ivory dragon". Reading: the dragon moves once the attack is over (after Wings), so a dragon the army
    must slay cannot be taken away from it; a slain dragon cannot be moved."""
    cite = ruleset.sai_sections.get("sfr-tsr-logo-dragonkin-champion", ruleset.cite("dragon-response"))
    free = list(movers)
    for dragon_id, to in step.move_dragons:
        chosen_read("move_dragons", dragon_id)
        dragon = next((d for d in state.dragons if d.id == dragon_id), None)
        colors = {who.unit(u).color: u for u in free if who.unit(u) is not None}
        mover = next((colors[c] for c in kinds.elements(dragon) if c in colors), None) if dragon else None
        if dragon is None or mover is None or kinds.kind(dragon) == "ivory" or to == dragon.at or \
                not any(t.id == to for t in state.terrains):
            raise StepError(f"move_dragons: {dragon_id} -> {to}: a Dragonkin Champion's logo rolled in this roll "
                            "moves a summoned dragon of its color (not an ivory one) to another terrain; the logos "
                            f"rolled: {', '.join(free) or 'none'}", cite=cite, field="move_dragons")
        free.remove(mover)
        state = state.evolve(dragons=tuple(d.evolve(at=to, tamed_by=None) if d.id == dragon_id else d
                                           for d in state.dragons))
        out.moved.append(dragon_id)
        out.trace.append(_moved_reading(ruleset, cite, step, f"{mover}'s logo moves {dragon_id} from {dragon.at} to "
                                        f"{to}" + (" (untamed)" if dragon.tamed_by else "")))
    return state


def _moved_reading(ruleset: Ruleset, cite: str, step, moved: str) -> TraceEvent:
    """The reading that times the logo's move: in a dragon attack once the attack is over (002 Step 6: the army
    must slay the dragon attacking it), in an action once the roll's other special results are resolved (002 SAI
    Resolution)."""
    if isinstance(step, DragonStep):
        return reading(f"{moved}, once the attack is over: a dragon the army must slay is not taken from it",
                       cite, ruleset.cite("dragon-response"))
    return reading(f"{moved}, once the roll's other special results are resolved, as in a dragon attack",
                   cite, ruleset.cite("sai-resolution"))


def check_flurry(ruleset: Ruleset, dice, choices: dict[str, dict[str, int]], out: StepResult) -> None:
    """002 Flurry: "During a dragon attack, Flurry generates melee results and roll the magic item again, applying
    the new result as well or generates save results": its points go all to melee (and the item rolls again) or all
    to save (and it does not). ``choices['flurry']`` is the owner's split (default: melee). Reading, traced where a
    Flurry is rolled: that "or" sends all its points one way, though 002 Application lets "SAIs that generate
    different results ... split their points of effect between the different results" of a combination roll."""
    cite = ruleset.sai_sections.get("flurry", ruleset.cite("sai-application"))
    if any(f.icon == "flurry" for _, faces in dice.units for f in faces):
        out.trace.append(reading("Flurry's \"melee results and roll the magic item again ... or ... save results\" "
                                 "sends all its points to melee (rolling again) or all to save, never split",
                                 cite, ruleset.cite("sai-application")))
    split = {t: n for t, n in choices.get("flurry", {}).items() if n}
    if len(split) > 1:
        raise StepError(f"Flurry's points go to melee or to save, not both: {told(split)}", cite=cite, field="splits")
    if "save" not in split:
        # its points go to melee: the item rolls again, and the chain ends on a face that does not (as every
        # rerolling face's: engine.roll._check_rerolls)
        open_ = [u for u, faces in dice.units if faces and faces[-1].icon == "flurry"]
        if open_:
            raise StepError(f"{', '.join(open_)}'s roll ends on flurry, whose melee results roll the magic item again: "
                            "give the face it rolled next (or send Flurry's points to save: `splits: {flurry: "
                            "{save: N}}`)", cite=cite, field="roll")
        return
    again = [u for u, faces in dice.units if any(f.icon == "flurry" for f in faces[:-1])]
    if again:
        raise StepError(f"{', '.join(again)} rolled again after Flurry, but Flurry's points go to save: only its melee "
                        "results roll the magic item again", cite=cite, field="roll")
