"""What an SAI does in each kind of roll (sfr-2012 SAI List), as data.

A roll kind is one of: maneuver, counter-maneuver, melee (a melee attack or
counter-attack), missile (missile action), magic (magic action), save-melee,
save-missile, save (any other save roll), and avoid-<result> for avoidance
rolls. An SAI either gives normal results (counted with the other results,
002 "Normal"), acts as a special result resolved before the target's saves
(002 "Special"), or does nothing in that roll. SAIs not listed here, or used
in a roll whose special effect this version does not model, are rejected with
a message rather than silently ignored.
"""

from __future__ import annotations

from typing import Literal

from .state import ResultType
from .value import Value

E = "sfr-2012"
LIST = f"{E}:special-action-icon-sai-list"
SAVES = ("save", "save-melee", "save-missile")
ANY = ("maneuver", "counter-maneuver", "melee", "missile", "magic", *SAVES,
       "avoid-maneuver", "avoid-melee", "avoid-missile", "avoid-save", "avoid-magic")


class SaiUse(Value):
    """One SAI in one kind of roll.

    ``gives``: the normal results it generates; ``each`` True means every point
    gives one of each (Trample: "one maneuver and one melee result"), False
    means each point gives one of them, the owner choosing (Fly: "one maneuver
    or one save result"). ``special``: a special result resolved before saves.
    """

    gives: tuple[ResultType, ...] = ()
    each: bool = False
    special: Literal["army-damage-no-saves", "unit-damage-with-saves", "cut-saves", "cut-counter-maneuvers",
                     "back-damage", "cantrip"] | None = None
    modelled: bool = True


def _uses(*pairs: tuple[tuple[str, ...], SaiUse]) -> dict[str, SaiUse]:
    table: dict[str, SaiUse] = {}
    for kinds, use in pairs:
        for kind in kinds:
            table[kind] = use
    return table


NOT_MODELLED = SaiUse(modelled=False)

# sai id -> roll kind -> use. Each entry restates 002's SAI List text.
SAI_USES: dict[str, dict[str, SaiUse]] = {
    # "During any roll, each Fly result generates one maneuver or one save result."
    "fly": _uses((ANY, SaiUse(("maneuver", "save")))),
    # "During any roll, each Trample result generates one maneuver and one melee result."
    "trample": _uses((ANY, SaiUse(("maneuver", "melee"), each=True))),
    # "During a maneuver roll, each Rend result generates one maneuver result. During a melee
    #  attack or melee avoidance roll, each Rend result generates one melee result; roll this unit again"
    "rend": _uses((("maneuver", "counter-maneuver", "avoid-maneuver"), SaiUse(("maneuver",))),
                  (("melee", "avoid-melee"), SaiUse(("melee",)))),
    # "During a melee attack or melee avoidance roll, Counter generates melee results. During a
    #  save roll, Counter generates save results. During a save roll in a melee attack, Counter
    #  immediately generates both save results and melee results upon the attacking army"
    "counter": _uses((("melee", "avoid-melee"), SaiUse(("melee",))),
                     (("save", "save-missile", "avoid-save"), SaiUse(("save",))),
                     (("save-melee",), SaiUse(("save",), special="back-damage"))),
    # "During a melee attack, each Smite result immediately inflicts one point of damage ...; no
    #  saves ... During a dragon attack or melee avoidance roll, Smite generates melee results"
    "smite": _uses((("melee",), SaiUse(special="army-damage-no-saves")),
                   (("avoid-melee",), SaiUse(("melee",)))),
    # "During a missile action, each Stone result immediately inflicts one point of damage on the
    #  defending army; no saves ... During a dragon attack or missile avoidance roll, ... missile results"
    "stone": _uses((("missile",), SaiUse(special="army-damage-no-saves")),
                   (("avoid-missile",), SaiUse(("missile",)))),
    # "During a missile action, each Bullseye result immediately inflicts one point of damage ...
    #  may individually target one or more units ... Each target unit must immediately generate saves"
    "bullseye": _uses((("missile",), SaiUse(special="unit-damage-with-saves")),
                      (("avoid-missile",), SaiUse(("missile",)))),
    # Delayed: "after the defending army rolls for saves but before they finalize any results,
    #  subtract four from the save results" (Screech: melee attack; Howl: melee attack or missile
    #  action; Wave: melee attack). Wave in a maneuver: "subtract four from each
    #  counter-maneuvering army's maneuver results" before they are finalized
    "screech": _uses((("melee",), SaiUse(special="cut-saves"))),
    "howl": _uses((("melee", "missile"), SaiUse(special="cut-saves"))),
    "wave": _uses((("melee",), SaiUse(special="cut-saves")), (("maneuver",), SaiUse(special="cut-counter-maneuvers"))),
    # "During any roll the army makes, Create Fireminions generates magic, maneuver, melee, missile or save results."
    "create-fireminions": _uses((ANY, SaiUse(("magic", "maneuver", "melee", "missile", "save")))),
    # "During a missile action or missile avoidance roll, Volley generates missile results. During a
    #  save roll, Volley generates save results. During a save roll in a missile action, ... both"
    "volley": _uses((("missile", "avoid-missile"), SaiUse(("missile",))),
                    (("save", "save-melee", "avoid-save"), SaiUse(("save",))),
                    (("save-missile",), SaiUse(("save",), special="back-damage"))),
    # "During a melee attack or melee avoidance roll, Sortie generates melee results. During a save
    #  roll Sortie generates save results."
    "sortie": _uses((("melee", "avoid-melee"), SaiUse(("melee",))),
                    ((*SAVES, "avoid-save"), SaiUse(("save",)))),
    # "During a melee attack or melee avoidance roll, Double Strike generates melee results; roll this unit again"
    "double-strike": _uses((("melee", "avoid-melee"), SaiUse(("melee",)))),
    # "During a melee attack or melee avoidance roll, Tail generates two melee results. Roll this unit again"
    "tail": _uses((("melee", "avoid-melee"), SaiUse(("melee", "melee"), each=True))),
    # "During a magic action or magic negation roll, Cantrip generates magic results. During any
    #  non-magic action, save roll or non-maneuver avoidance roll, Cantrip can be used to purchase spells"
    "cantrip": _uses((("magic",), SaiUse(("magic",))),
                     (("melee", "missile", *SAVES, "avoid-melee", "avoid-missile", "avoid-save", "avoid-magic"),
                      SaiUse(special="cantrip"))),
    # "During a maneuver roll, Firewalking generates maneuver results."
    "firewalking": _uses((("maneuver", "counter-maneuver"), SaiUse(("maneuver",))),
                         (("melee", "missile", "magic", *SAVES), NOT_MODELLED)),
    # "During any roll, the Dragonkin unit loses its automatic save(s)" (engine.dragonkin); "Dragonkin Belly does
    #  not generate any results per se" -- a dragon attack is one of "any roll"
    "belly": _uses(((*ANY, "dragon"), SaiUse())),
    # "During any non-maneuver roll, each Wild Growth result generates one save result or may immediately promote
    #  one unit in the army containing this unit" (the promotions: engine.wild_growth); a dragon attack is a
    #  non-maneuver roll
    "wild-growth": _uses(((*(k for k in ANY if "maneuver" not in k), "dragon"), SaiUse(("save",)))),
}


# SAIs whose text says to roll the unit (or item) again, and the kinds of roll in which it does:
# "During a melee attack or melee avoidance roll, ... roll this unit again and apply the new result as well"
# (Rend, Double Strike, Tail, Flurry); Summon Dragon (artifact): "During a magic action ... roll the artifact
# again"
REROLLS: dict[str, tuple[str, ...]] = {
    "rend": ("melee", "avoid-melee"), "double-strike": ("melee", "avoid-melee"), "tail": ("melee", "avoid-melee"),
    "flurry": ("melee", "avoid-melee"), "summon-dragon": ("magic",),
}


def rerolls(sai: str, kind: str) -> bool:
    """Whether the SAI rolls its unit again in this kind of roll (a combination roll: in any of its parts)."""
    kinds = REROLLS.get(sai, ())
    if kind.startswith("combination:"):
        return any(f"avoid-{t}" in kinds for t in kind.split(":", 1)[1].split(","))
    return kind in kinds


def sai_use(sai: str, kind: str) -> SaiUse | None:
    """The SAI's use in this kind of roll; None when it does nothing there.

    A combination roll ("combination:maneuver,save") uses an SAI that works in
    any of its avoidance rolls (002 Avoidance Rolls: "The SAI does not need to
    be applicable for every result of the combination roll, just at least one").
    """
    table = SAI_USES.get(sai)
    if table is None:
        return NOT_MODELLED
    if not kind.startswith("combination:"):
        return table.get(kind)
    uses = [u for t in kind.split(":", 1)[1].split(",") if (u := table.get(f"avoid-{t}")) is not None]
    if not uses:
        return None
    if uses and all(u.special == "cantrip" for u in uses):
        return uses[0]          # Cantrip buys spells in a combination roll as in any non-magic roll
    if not all(u.modelled for u in uses) or any(u.special for u in uses):
        return NOT_MODELLED
    gives = tuple(dict.fromkeys(t for u in uses for t in u.gives))
    return SaiUse(gives, each=any(u.each for u in uses))


def cite(sai: str) -> str:
    return f"{LIST}.{sai}"
