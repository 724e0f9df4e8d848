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
       "avoid-maneuver", "avoid-melee", "avoid-missile", "avoid-save", "avoid-magic", "dragon")
# The army's roll against a dragon attack: "dragon" (002: "a melee avoidance, missile avoidance and save
# combination roll"), or "dragon-save" when a Blue Dragon Breath lets it make only a save roll.
DRAGON = ("dragon",)


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
                     "back-damage", "cantrip",
                     # effects on a dragon in a dragon attack (engine.actions.dragon_sais: Decapitate, Impale, Bash)
                     "dragon-effect"] | None = None
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
                  (("melee", "avoid-melee", *DRAGON), SaiUse(("melee",)))),
    # "During a melee attack or melee avoidance roll, Counter generates melee results. During a
    #  save roll, Counter generates save results. During a save roll in a melee attack, Counter
    #  immediately generates both save results and melee results upon the attacking army"
    #  ... During a dragon attack, Counter generates save and melee results."
    "counter": _uses((("melee", "avoid-melee"), SaiUse(("melee",))),
                     (("save", "save-missile", "avoid-save"), SaiUse(("save",))),
                     (("save-melee",), SaiUse(("save",), special="back-damage")),
                     (DRAGON, SaiUse(("save", "melee"), each=True))),
    # "During a melee attack, each Smite result immediately inflicts one point of damage ...; no
    #  saves ... During a dragon attack or melee avoidance roll, Smite generates melee results"
    "smite": _uses((("melee",), SaiUse(special="army-damage-no-saves")),
                   (("avoid-melee", *DRAGON), SaiUse(("melee",)))),
    # "During a missile action, each Stone result immediately inflicts one point of damage on the
    #  defending army; no saves ... During a dragon attack or missile avoidance roll, ... missile results"
    "stone": _uses((("missile",), SaiUse(special="army-damage-no-saves")),
                   (("avoid-missile", *DRAGON), SaiUse(("missile",)))),
    # "During a missile action, each Bullseye result immediately inflicts one point of damage ...
    #  may individually target one or more units ... Each target unit must immediately generate saves"
    "bullseye": _uses((("missile",), SaiUse(special="unit-damage-with-saves")),
                      (("avoid-missile", *DRAGON), SaiUse(("missile",)))),
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
    #  ... During a dragon attack, Volley generates save and missile results."
    "volley": _uses((("missile", "avoid-missile"), SaiUse(("missile",))),
                    (("save", "save-melee", "avoid-save"), SaiUse(("save",))),
                    (("save-missile",), SaiUse(("save",), special="back-damage")),
                    (DRAGON, SaiUse(("save", "missile"), each=True))),
    # "During a melee attack or melee avoidance roll, Sortie generates melee results. During a save
    #  roll Sortie generates save results."
    #  ... During a dragon attack, Sortie generates save and melee results."
    "sortie": _uses((("melee", "avoid-melee"), SaiUse(("melee",))),
                    ((*SAVES, "avoid-save"), SaiUse(("save",))),
                    (DRAGON, SaiUse(("save", "melee"), each=True))),
    # "During a melee attack or melee avoidance roll, Double Strike generates melee results; roll this unit again"
    #  (002 SAI resolution: "if a SAI has normal results during a melee avoidance roll, missile avoidance roll,
    #  or save roll, then it also works during a dragon attack": Rend, Double Strike and Tail there too)
    "double-strike": _uses((("melee", "avoid-melee", *DRAGON), SaiUse(("melee",)))),
    # "During a melee attack or melee avoidance roll, Tail generates two melee results. Roll this unit again"
    "tail": _uses((("melee", "avoid-melee", *DRAGON), SaiUse(("melee", "melee"), each=True))),
    # "During a magic action or magic negation roll, Cantrip generates magic results. During any
    #  non-magic action, save roll or non-maneuver avoidance roll, Cantrip can be used to purchase spells"
    "cantrip": _uses((("magic",), SaiUse(("magic",))),
                     (("melee", "missile", *SAVES, "avoid-melee", "avoid-missile", "avoid-save", "avoid-magic"),
                      SaiUse(special="cantrip")),
                     # the army's roll against a dragon attack is a non-maneuver avoidance roll
                     (DRAGON, SaiUse(special="cantrip"))),
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


# Eldarim champions' logos in the army's roll against a dragon attack: "all Eldarim in the army are also
# rolled, but the logo faces count for nothing on the Dragonlord and Dragonslayer" (the Dragoncrusader's logo
# has no use there either; the Dragonmaster's, Dragonhunter's and Dragonzealot's count as a two point ID icon,
# Ruleset.id_icons). Their other uses belong to the SAI table's other kinds.
NO_EFFECT = SaiUse()
for _logo in ("sfr-tsr-logo-dragonlord", "sfr-tsr-logo-dragonslayer", "sfr-logo-dragoncrusader"):
    SAI_USES.setdefault(_logo, {k: NOT_MODELLED for k in ANY if k != "dragon"})["dragon"] = NO_EFFECT
# The Dragonkin Champion's logo: "During any action or non-maneuver avoidance roll, may move a summoned dragon with
# the same color as the Dragonkin Champion from any terrain to any other terrain" (the army's roll against a
# dragon attack is such a roll; engine.actions.dragon_sais moves the dragon)
SAI_USES.setdefault("sfr-tsr-logo-dragonkin-champion", {k: NOT_MODELLED for k in ANY if k != "dragon"})["dragon"] = \
    SaiUse(special="dragon-effect")


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
    if kind == "dragon":        # "if a SAI has normal results during a melee avoidance roll ..." (002)
        return any(k in kinds for k in _DRAGON_PARTS)
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
    if kind in ("dragon", "dragon-save"):
        use = _dragon_use(table, kind)
        return None if use is NO_EFFECT else use
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


_DRAGON_PARTS = ("avoid-melee", "avoid-missile", "save")


def _dragon_use(table: dict[str, SaiUse], kind: str) -> SaiUse | None:
    """An SAI in the army's roll against a dragon attack (002 SAI resolution, "During a dragon attack").

    Its own "dragon" entry if it has one; else "if a SAI has normal results during a melee avoidance roll,
    missile avoidance roll, or save roll, then it also works during a dragon attack" (those normal results).
    Under a Blue Dragon Breath the army makes only a save roll ("dragon-save"): an SAI counts as in a save
    roll, unless its dragon-attack use generates saves together with other results (Counter: "Counter
    generates both save and melee results simultaneously during a save roll", 002 Step 6, Example 4).
    """
    own = table.get("dragon")
    if kind == "dragon-save" and own is not NO_EFFECT:
        if own is not None and "save" in own.gives and own.each:
            return own
        return table.get("save")
    if own is not None:
        return own
    uses = [u for part in _DRAGON_PARTS if (u := table.get(part)) is not None]
    if any(not u.modelled for u in uses):
        return NOT_MODELLED
    normal = [u for u in uses if u.gives and not u.special]
    if not normal:
        return None
    return SaiUse(tuple(dict.fromkeys(t for u in normal for t in u.gives)), each=any(u.each for u in normal))


def cite(sai: str) -> str:
    return f"{LIST}.{sai}"
