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
    # ``either``: the owner uses the normal results or the special, not both (002 "Normal or Special")
    either: bool = False
    special: Literal["army-damage-no-saves", "unit-damage-with-saves", "cut-saves", "cut-counter-maneuvers",
                     "back-damage", "cantrip",
                     # engine.actions.sai_states: an effect left in play on units or an army, a move, a return
                     "unit-state", "army-state", "glare", "move", "raise", "restore", "summon", "attune",
                     "cloak"] | None = None
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
}


# --- state, movement, resurrection and magic SAIs (engine.actions.sai_states resolves their specials) -----
ACTIONS = ("melee", "missile", "magic")
NON_MANEUVER_AVOID = ("avoid-melee", "avoid-missile", "avoid-save", "avoid-magic")
# 002 Application: "During a non-maneuver roll: ... during any action, save roll or non-maneuver avoidance roll"
NON_MANEUVER = (*ACTIONS, *SAVES, *NON_MANEUVER_AVOID)
# a unit's save roll by itself against an individual-targeting effect (engine.roll asks for it first)
INDIVIDUAL_SAVE = "individual-save"

SAI_USES.update({
    # "During a melee attack, choose up to four health-worth of units in the defending army to be immediately
    #  entangled. The target unit(s) cannot be rolled until the beginning of your next turn. Killing the
    #  entangling unit negates the effect."
    "entangle": _uses((("melee",), SaiUse(special="unit-state"))),
    # "During a melee attack, choose up to four health-worth of units in the defending army to be webbed unless
    #  each targeted unit immediately rolls a melee result ... cannot be rolled until the beginning of your next turn"
    "web": _uses((("melee",), SaiUse(special="unit-state"))),
    # "During a melee or missile attack, choose up to four health-worth of units ... to be immobilized unless each
    #  targeted unit immediately rolls a maneuver result ... When saving against an individual targeting effect,
    #  generates four saves."
    "net": _uses((("melee", "missile"), SaiUse(special="unit-state")), ((INDIVIDUAL_SAVE,), SaiUse(("save",)))),
    # "During a melee attack, choose one unit in an opposing army to be immediately put to sleep, with no save
    #  possible. The target unit cannot be rolled until the end of your next turn."
    "sleep": _uses((("melee",), SaiUse(special="unit-state"))),
    # "During a melee attack, choose up to four health-worth of units ... to be stunned unless each targeted unit
    #  immediately rolls a maneuver ... cannot be rolled until the end of your turn. Roll this unit again"
    "stun": _uses((("melee",), SaiUse(special="unit-state"))),
    # Delayed: "after the defending army rolls to save but before they apply any unique or special resolution SAIs,
    #  target all units in the defending army which rolled an ID to become immediately 'hypnotized'"
    "hypnotic-glare": _uses((("melee",), SaiUse(special="glare"))),
    # "During a melee attack, target an opposing army. Until the beginning of your next turn, after the target army
    #  makes any roll but before they finalize any results, subtract one result per Wither icon from that roll."
    "wither": _uses((("melee",), SaiUse(special="army-state"))),
    # "During a melee attack or missile action, choose an opposing army. Until the beginning of your next turn,
    #  after the target army makes any roll but before they finalize any results, halve the results of that roll."
    "frost-breath": _uses((("melee", "missile"), SaiUse(special="army-state"))),
    # "During any action, choose any enemy army. Until the beginning of your next turn, after the target army makes
    #  any maneuver roll, counter-maneuver roll, maneuver avoidance roll, save roll or save avoidance roll ... any
    #  unit in the target army that rolled a Fly icon must roll again until a non-Fly icon is generated."
    "galeforce": _uses((ACTIONS, SaiUse(special="army-state"))),
    # "During any action, immediately choose any of your armies. Until the beginning of your next turn, this army
    #  cannot be targeted by any missile or enemy magic effect."
    "illusion": _uses((ACTIONS, SaiUse(special="army-state"))),
    # Conditional: "Whenever any magic targets this unit ... you may roll this unit after all spells are announced
    #  but before any are resolved" -- rolled only then (engine.actions.magic), in no other roll
    "dispel-magic": {},
    # "During any non-maneuver roll, the ferrying unit may immediately move itself and up to four health-worth of
    #  units in the army containing this unit to any other terrain."
    "ferry": _uses((NON_MANEUVER, SaiUse(special="move"))),
    # "During a maneuver or maneuver avoidance roll, Teleport generates maneuver results. During any action or
    #  non-maneuver avoidance roll, the teleporting unit may immediately move itself and up to three
    #  health-worth of units in the army containing this unit to any terrain."
    "teleport": _uses((("maneuver", "counter-maneuver", "avoid-maneuver"), SaiUse(("maneuver",))),
                      ((*ACTIONS, *NON_MANEUVER_AVOID), SaiUse(special="move"))),
    # "During a save roll, each Vanish icon generates one save result which is added to the army's total save
    #  results. The unit may then immediately move to any other terrain or its reserve area." (its saves also
    #  in a dragon attack, 002 Application: "if a SAI has normal results during ... save roll, then it also
    #  works during a dragon attack")
    "vanish": _uses(((*SAVES, "avoid-save"), SaiUse(("save",), special="move")), (("dragon",), SaiUse(("save",)))),
    # "During a maneuver roll, Wayfare generates maneuver results or allows the magical item and a unit able to
    #  carry it to be moved immediately to any other terrain or its reserve area. During the maneuver roll to
    #  determine the order of play, Wayfare generates maneuver results. During a dragon attack, Wayfare allows the
    #  magical item and a unit able to carry it to be moved" (the dragon attack use: engine.actions.dragon)
    "wayfare": _uses((("maneuver",), SaiUse(("maneuver",), special="move", either=True)),
                     (("counter-maneuver", "avoid-maneuver"), SaiUse(("maneuver",)))),
    # "During a save roll, Rise from the Ashes generates save results. Whenever a unit with this icon is killed or
    #  buried, immediately roll the unit; if and only if this icon is rolled the monster immediately goes to your
    #  reserve area." (the Conditional part: engine.actions.sai_states.rise_from_the_ashes)
    "rise-from-the-ashes": _uses(((*SAVES, "avoid-save", "dragon"), SaiUse(("save",)))),
    # "During any non-maneuver roll, this icon generates four save results or you may immediately bring back up
    #  to four health-worth of units from your DUA to the army containing this unit."
    "regenerate": _uses((NON_MANEUVER, SaiUse(("save",), special="raise", either=True)),
                        (("dragon",), SaiUse(("save",), special="raise", either=True))),
    # "During a magic action, Attune generates magic results of any color. Attune may also immediately count the
    #  normal magic result (only actual magic icons ...) of one unit in the acting army as that same color."
    # (its optional second part, a "may", is the special: not modelled)
    "attune": _uses((("magic",), SaiUse(("magic",), special="attune", either=True))),
    # "During any non-save roll, Cloak generates magic results. During a save roll, add four magical save results
    #  to the army containing this unit until the beginning of your next turn. During a roll against an
    #  individual-targeting effect, Cloak generates magic, maneuver, melee, missile or save results."
    "cloak": _uses((("maneuver", "counter-maneuver", *ACTIONS, "avoid-maneuver", "avoid-melee", "avoid-missile",
                     "avoid-magic"), SaiUse(("magic",))),
                   ((*SAVES, "avoid-save"), SaiUse(special="cloak")),
                   ((INDIVIDUAL_SAVE,), SaiUse(("magic", "maneuver", "melee", "missile", "save")))),
    # "During a magic action, choose any dragon of a matching color as the magical item and immediately summon it
    #  to any terrain; roll the artifact again and apply the new result as well."
    "summon-dragon": _uses((("magic",), SaiUse(special="summon"))),
    # "During a magic action, generates magic results of any color. During any non-magic action, save roll, or
    #  non-maneuver avoidance roll, counts as a Cantrip that can cast any color spell from the spell lists"
    "sfr-tsr-logo-bronze-medallion": _uses((("magic",), SaiUse(("magic",))),
                                           (("melee", "missile", *SAVES, *NON_MANEUVER_AVOID),
                                            SaiUse(special="cantrip"))),
    # "During any non-maneuver roll, returns one non-dragonkin buried unit to the DUA or you may immediately
    #  bring back up to four health-worth of units from your DUA to the army carrying this medallion."
    "sfr-tsr-logo-gold-medallion": _uses((NON_MANEUVER, SaiUse(special="raise"))),
    # "During any non-maneuver roll, returns one buried magical item to the army this medallion is a part of or
    #  one buried Dragonkin to the summoning pool."
    "sfr-tsr-logo-silver-medallion": _uses((NON_MANEUVER, SaiUse(special="restore"))),
    # "During a maneuver roll, Firewalking generates maneuver results. During any non-maneuver roll, the
    #  Firewalking unit may immediately move itself and up to three health-worth of units in the army containing
    #  this unit to any other terrain."
    "firewalking": _uses((("maneuver", "counter-maneuver", "avoid-maneuver"), SaiUse(("maneuver",))),
                         (NON_MANEUVER, SaiUse(special="move"))),
})


# SAIs whose text says to roll the unit (or item) again, and the kinds of roll in which it does:
# "During a melee attack or melee avoidance roll, ... roll this unit again and apply the new result as well"
# (Rend, Double Strike, Tail, Flurry); Summon Dragon (artifact): "During a magic action ... roll the artifact
# again"
REROLLS: dict[str, tuple[str, ...]] = {
    "rend": ("melee", "avoid-melee"), "double-strike": ("melee", "avoid-melee"), "tail": ("melee", "avoid-melee"),
    "flurry": ("melee", "avoid-melee"), "summon-dragon": ("magic",),
    # Stun: "Instant Special (melee attack) ... Roll this unit again and apply the new result as well"
    "stun": ("melee",),
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


# Where engine.actions.sai_states resolves each special of this group (roll kinds); elsewhere it is refused
# as not modelled rather than ignored.
RESOLVED: dict[str, tuple[str, ...]] = {
    "unit-state": ("melee", "missile"), "army-state": ("melee", "missile", "magic"), "glare": ("melee",),
    # the defender's save roll in a melee or missile action (engine.actions.combat)
    "raise": ("melee", "missile", "save-melee", "save-missile"),
    "restore": ("melee", "missile", "save-melee", "save-missile"),
    "cloak": ("save-melee", "save-missile"),
    "move": ("maneuver", "melee", "missile", "magic", "save-melee", "save-missile"),
    # before the magic action's roll is counted (engine.actions.sai_magic)
    "summon": ("magic",),
}


def unit_use(sai: str, kind: str, individual: bool, chosen: dict) -> SaiUse | None:
    """The SAI's use as a unit rolled it: by itself in a save roll, its use against an individual-targeting
    effect first (Net, Cloak); a "Normal or Special" SAI gives its normal results unless its owner chose the
    special (``chosen``: SAI -> 1), never both (002 SAI List: Regenerate "generates four save results or you
    may immediately bring back ..."). A special this version does not resolve in this roll is not modelled."""
    use = sai_use(sai, INDIVIDUAL_SAVE) if individual and kind in (*SAVES, "avoid-save") else None
    use = use or sai_use(sai, kind)
    if use is None or use.special not in _STATE_SPECIALS:
        return use
    if use.either and not chosen.get(sai):
        return SaiUse(use.gives, each=use.each)     # its normal results: the owner did not choose the special
    if kind not in RESOLVED.get(use.special, ()):
        return NOT_MODELLED
    return SaiUse(special=use.special) if use.either else use

_STATE_SPECIALS = ("unit-state", "army-state", "glare", "move", "raise", "restore", "summon", "attune", "cloak")

