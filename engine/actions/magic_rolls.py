"""The avoidance rolls a magic step gives (its ``avoidance``, ``choices``, ``cantrip`` and ``save_sais``), taken as the
spells resolve: a value engine.actions.magic makes, engine.actions.spells and engine.actions.summons read."""

from __future__ import annotations

from ..roll import Roll
from ..trace import StepError


class Rolls:
    """The avoidance rolls a magic step gives, taken in the order the spells resolve."""

    def __init__(self, given: tuple[tuple[str, tuple[Roll, ...]], ...], choices: tuple = (),
                 cantrip: tuple = (), sais: tuple = ()) -> None:
        self.left = {target: list(rolls) for target, rolls in given}
        self.choices = {target: {key: dict(pairs) for key, pairs in made} for target, made in choices}
        self.buys = dict(cantrip)       # army -> what its Cantrip buys in its roll against the spells
        self.sais = dict(sais)          # army -> its choices for the special SAIs of its save roll (SaiChoices)
        self.fallen: dict[str, list] = {}   # army -> its units a spell of this magic action killed

    def has(self, target: str) -> bool:
        return bool(self.left.get(target))

    def take(self, target: str, why: str, cite: str) -> Roll:
        if not self.left.get(target):
            raise StepError(f"{target} rolls {why}: give avoidance.{target} (a list when it rolls more than once)",
                            cite=cite, field="avoidance")
        return self.left[target].pop(0)

    def check_all_used(self, cite: str) -> None:
        unused = [t for t, rolls in self.left.items() if rolls]
        if unused:
            raise StepError(f"avoidance rolls given for {', '.join(unused)} that no spell called for",
                            cite=cite, field="avoidance")
        if self.buys:
            raise StepError(f"cantrip is given for {', '.join(self.buys)}, which made no roll its Cantrip could "
                            "be used in", cite=cite, field="cantrip")
        if self.sais:
            raise StepError(f"save_sais is given for {', '.join(self.sais)}, which made no save roll against the "
                            "spells", cite=cite, field="save_sais")
