"""Who takes part in a dragon attack (002 Dragon Attacks): the value the steps of engine.actions.dragon share with
the modules each step is in (engine.actions.eldarim, dragon_sais, slaying), kept below all of them."""

from __future__ import annotations

from .. import dragons as kinds
from ..state import Army, Dragon, GameState


class Battle:
    """Who takes part: the dragons at the army's terrain, which attack the army, which fight each other, and
    what each rolled."""

    def __init__(self, state: GameState, who: Army, fight: bool = True) -> None:
        self.here = tuple(d for d in state.dragons if d.at == who.at)
        # ``fight`` False (Ruleset.dragons_fight, sfr-v4): no dragon fights another, all attack the army
        self.at_army = [d for d in self.here if not fight or kinds.attacks_army(d, self.here)]
        self.fighting = [d for d in self.here if d not in self.at_army]
        self.icons: dict[str, tuple[str, ...]] = {}
        self.controlled: list[Dragon] = []  # controlled by a Dragoncrusader or Dragonzealot: held or allies
        self.held: list[Dragon] = []        # controlled and not rolled: the army can attack them
        self.allies: list[Dragon] = []      # controlled and rolled with the army against the other dragons
        self.benched: list[str] = []        # champions that do not roll with the army (a Dragoncrusader on a white)
        self.movers: list[str] = []         # Dragonkin Champions whose logo came up in the army's roll

    def attacking(self) -> list[Dragon]:
        """The dragons that rolled against the army."""
        return [d for d in self.at_army if d.id in self.icons]
