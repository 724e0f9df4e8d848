"""Regenerate and the Medallions in a magic action: the units they bring into the caster's magic roll, and those units'
own SAIs acting as the army's did (002 SAI List; 002 SAI General Information, Application and Resolution). Above the
modules it combines: engine.actions.sai_states (the returning and moving SAIs) and engine.actions.specials (Sneak
Attack)."""

from __future__ import annotations

from msgspec.structs import replace

from ..roll import Outcome, Special
from ..ruleset import Ruleset
from ..state import Army, GameState
from ..steps import MagicStep, StepResult
from ..trace import TraceEvent
from . import companions
from .joined_rolls import own_specials, unmerged, untaken
from .sai_states import attack_moves, joined_returns
from .state_sais import place_states
from .specials import after_magic


def magic_returns(state: GameState, ruleset: Ruleset, hit: Outcome, caster: Army, step,
                  out: StepResult) -> tuple[GameState, dict[str, Outcome], MagicStep]:
    """Regenerate and the Medallions in a magic action: ``joined_returns`` for a magic roll. The returned units'
    own Illusion, Galeforce (``place_states``), moves (Vanish, Teleport, Ferry, Firewalking: ``attack_moves``) and
    Sneak Attack (engine.actions.specials ``after_magic``: its kills after the army's own, with the casualties they
    left) act as the army's own did (002 Application: "SAIs have their same effect whether the unit containing the
    SAI is rolled individually or as part of an army"): a unit moved away leaves the action with its magic. Returns
    the units still in the army and their rolls, and the step less the casualties their Sneak Attack took."""
    state, joined = joined_returns(state, ruleset, hit, caster, step, out, "magic", ("magic",))
    unmerged(joined, ruleset, "magic", ("move", "army-state", "attune", SNEAK))    # Attune: engine.actions.magic
    own = own_specials(joined, hit.specials, ruleset, caster.id, ("attune",), out.trace,
                       combines=(ARMY_STATE, SNEAK))
    late = [s for s in own if s.effect == ARMY_STATE and s.sai in {x.sai for x in hit.specials}]
    _one_effect(state, ruleset, late, hit, out)
    sneaks = [s for s in own if s.effect == SNEAK]
    if sneaks:
        state, step = after_magic(state, state.army(caster.id), step, sneaks, ruleset, out)
    own = [s for s in own if s not in late and s not in sneaks]
    if not own:
        return state, joined, step
    theirs = replace(hit, specials=own, per_unit={u: r for o in joined.values() for u, r in o.per_unit.items()})
    state = place_states(state, ruleset, own, state.army(caster.id), None, step, out)
    start, left = len(out.moved), untaken(step, out.moved)
    companions.late_default(ruleset, own, hit.specials, left, out)
    state, _ = attack_moves(state, ruleset, theirs, state.army(caster.id), "magic", left, out)
    return state, {u: o for u, o in joined.items() if u not in out.moved[start:]}, step


ARMY_STATE, SNEAK = "army-state", "sneak-attack"


def _one_effect(state: GameState, ruleset: Ruleset, late: list[Special], hit: Outcome, out: StepResult) -> None:
    """A returned unit's Galeforce or Illusion identical to one the army's magic roll resolved: 002 Targeting,
    identical SAIs "are resolved simultaneously (i.e. their effects are combined)": it is the army's one effect on the
    army the first chose (the step's one ``targets`` entry), no second effect (one such effect counts once,
    ``_on_army``). The reading is traced by engine.actions.joined_rolls ``combined``."""
    for sai in dict.fromkeys(s.sai for s in late):
        first = {s.unit for s in hit.specials if s.sai == sai}
        effect = next(e for e in reversed(state.effects) if e.spell == sai and e.source in first)
        out.trace.append(TraceEvent(what=f"{sai} rolled by {', '.join(s.unit for s in late if s.sai == sai)}: one "
                                         f"effect with the army's {sai} on {effect.target}", after=effect.count,
                                    rule="identical SAIs act as one: the target army has the one effect",
                                    cite=ruleset.cite("sai-targeting")))
