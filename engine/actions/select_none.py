"""002 SAI Targeting (a): an offensive SAI's owner "may select less than 'x' health worth, but at least 1-health
worth must be selected ... they cannot choose to select none" -- an empty ``targets:`` entry for such an SAI is
refused at the step, never read as "not given" (which would default it); (b) a non-offensive SAI on the owner's
own units ("less than 'x'-health or no health may be selected": Ferry, Regenerate ...) may name none.
"""

from __future__ import annotations

from ..ruleset import Ruleset
from ..sai_attacks import ATTACK_SAIS
from ..sais import sai_use
from ..trace import StepError

# the special uses (engine.sais) that pick units of the opposing army and hurt or penalize them: Charm ("add their
# results to the acting player's army"), Confuse ("force them to reroll")
_OFFENSIVE_USES = frozenset({"charm", "reroll-saves"})


def offensive(ruleset: Ruleset, sai: str, kind: str) -> bool:
    """Whether the SAI's owner picks units of the opponent's army to damage or penalize (002 Targeting (a)): an
    attack SAI the acting player aims (engine.sai_attacks, not one aimed at a whole army), a state SAI on opposing
    units (Entangle, Web, Sleep ...), Charm and Confuse."""
    rule = ruleset.attack_sais.get(sai) or ATTACK_SAIS.get(sai)
    if rule is not None:
        return rule.chooser == "acting" and rule.pick != "army"
    state = ruleset.sai_states.get(sai)
    if state is not None:
        return state.target in ("units", "unit")
    use = sai_use(sai, kind, ruleset.sai_uses)
    return use is not None and use.special in _OFFENSIVE_USES


def refuse_none(ruleset: Ruleset, sai: str, kind: str, named) -> None:
    """Refuse an empty ``targets:`` entry for an offensive SAI (002 Targeting (a))."""
    if named is not None and not tuple(named) and offensive(ruleset, sai, kind):
        words = ruleset.quote("select-none", "the owner may select less than 'x' health worth, but at least 1-health "
                              "worth must be selected ... they cannot choose to select none")
        raise StepError(f"targets.{sai} is empty, but {sai} is an offensive SAI: {words} (name at least one unit, or "
                        "leave the entry out for the default)",
                        cite=ruleset.cites.get("select-none") or ruleset.cite("sai-targeting"), field="targets")
