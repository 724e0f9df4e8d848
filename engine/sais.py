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

from collections.abc import Mapping
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
    # ``either``: the owner uses the normal results or the special, not both (002 "Normal or Special")
    either: bool = False
    # ``by_health``: the SAI's results are the rolling die's health, not its icons (002 Bash: "During a
    # non-melee save roll, Bash generates saves results equal to the die's health")
    by_health: bool = False
    # ``per_face``: the results one face gives, as the SAI's text fixes them, whatever the die or the number of
    # icons written (002 Gore: "During a dragon attack or melee avoidance roll, Gore generates two melee results",
    # beside its "for each unit that generates Gore results ... two points of damage"; 001 Create Fireminions,
    # Firewalking, Rise from the Ashes: "generates four ... results"), where 002 SAI General Information's "Each
    # single SAI on a monster ... counts as four points of effect (unless stated otherwise in the SAI
    # description)" gives way to the number stated (engine.roll traces it as a reading where they differ)
    per_face: int | None = None
    special: Literal["army-damage-no-saves", "unit-damage-with-saves", "cut-saves", "cut-counter-maneuvers",
                     "back-damage", "cantrip",
                     # engine.actions.sai_states: an effect left in play on units or an army, a move, a return
                     "unit-state", "army-state", "glare", "move", "raise", "restore", "summon", "attune",
                     "cloak", "fetch",
                     # targeted and army-damaging SAIs (engine.sai_attacks, engine.actions.specials)
                     "unit-strike", "unit-test", "unit-kill", "plague", "rolled-id-kill", "reroll-saves", "charm",
                     "sneak-attack", "bash", "double-units", "surprise", "charge", "friendly-fire",
                     # effects on a dragon in a dragon attack (engine.actions.dragon_sais: Decapitate, Impale, Bash)
                     "dragon-effect",
                     # the Dragonkin Champion's logo moving a summoned dragon outside a dragon attack
                     "dragon-move"] | None = None
    modelled: bool = True


def sai_use_table(*pairs: tuple[tuple[str, ...], SaiUse]) -> dict[str, SaiUse]:
    """An SAI table: each (roll kinds, use) pair gives the use for every kind it names; the editions build theirs
    with it."""
    table: dict[str, SaiUse] = {}
    for kinds, use in pairs:
        for kind in kinds:
            table[kind] = use
    return table


NOT_MODELLED = SaiUse(modelled=False)

# sai id -> roll kind -> use. Each entry restates 002's SAI List text.
SAI_USES: dict[str, dict[str, SaiUse]] = {
    # "During any roll, each Fly result generates one maneuver or one save result."
    "fly": sai_use_table((ANY, SaiUse(("maneuver", "save")))),
    # "During any roll, each Trample result generates one maneuver and one melee result."
    "trample": sai_use_table((ANY, SaiUse(("maneuver", "melee"), each=True))),
    # "During a maneuver roll, each Rend result generates one maneuver result. During a melee
    #  attack or melee avoidance roll, each Rend result generates one melee result; roll this unit again"
    "rend": sai_use_table((("maneuver", "counter-maneuver", "avoid-maneuver"), SaiUse(("maneuver",))),
                  (("melee", "avoid-melee", *DRAGON), SaiUse(("melee",)))),
    # "During a melee attack or melee avoidance roll, Counter generates melee results. During a
    #  save roll, Counter generates save results. During a save roll in a melee attack, Counter
    #  immediately generates both save results and melee results upon the attacking army"
    #  ... During a dragon attack, Counter generates save and melee results."
    "counter": sai_use_table((("melee", "avoid-melee"), SaiUse(("melee",))),
                     (("save", "save-missile", "avoid-save"), SaiUse(("save",))),
                     (("save-melee",), SaiUse(("save",), special="back-damage")),
                     (DRAGON, SaiUse(("save", "melee"), each=True))),
    # "During a melee attack, each Smite result immediately inflicts one point of damage ...; no
    #  saves ... During a dragon attack or melee avoidance roll, Smite generates melee results"
    "smite": sai_use_table((("melee",), SaiUse(special="army-damage-no-saves")),
                   (("avoid-melee", *DRAGON), SaiUse(("melee",)))),
    # "During a missile action, each Stone result immediately inflicts one point of damage on the
    #  defending army; no saves ... During a dragon attack or missile avoidance roll, ... missile results"
    "stone": sai_use_table((("missile",), SaiUse(special="army-damage-no-saves")),
                   (("avoid-missile", *DRAGON), SaiUse(("missile",)))),
    # "During a missile action, each Bullseye result immediately inflicts one point of damage ...
    #  may individually target one or more units ... Each target unit must immediately generate saves"
    "bullseye": sai_use_table((("missile",), SaiUse(special="unit-damage-with-saves")),
                      (("avoid-missile", *DRAGON), SaiUse(("missile",)))),
    # Delayed: "after the defending army rolls for saves but before they finalize any results,
    #  subtract four from the save results" (Screech: melee attack; Howl: melee attack or missile
    #  action; Wave: melee attack). Wave in a maneuver: "subtract four from each
    #  counter-maneuvering army's maneuver results" before they are finalized
    "screech": sai_use_table((("melee",), SaiUse(special="cut-saves"))),
    "howl": sai_use_table((("melee", "missile"), SaiUse(special="cut-saves"))),
    "wave": sai_use_table((("melee",), SaiUse(special="cut-saves")), (("maneuver",), SaiUse(special="cut-counter-maneuvers"))),
    # "During any roll the army makes, Create Fireminions generates magic, maneuver, melee, missile or save results."
    "create-fireminions": sai_use_table((ANY, SaiUse(("magic", "maneuver", "melee", "missile", "save")))),
    # "During a missile action or missile avoidance roll, Volley generates missile results. During a
    #  save roll, Volley generates save results. During a save roll in a missile action, ... both"
    #  ... During a dragon attack, Volley generates save and missile results."
    "volley": sai_use_table((("missile", "avoid-missile"), SaiUse(("missile",))),
                    (("save", "save-melee", "avoid-save"), SaiUse(("save",))),
                    (("save-missile",), SaiUse(("save",), special="back-damage")),
                    (DRAGON, SaiUse(("save", "missile"), each=True))),
    # "During a melee attack or melee avoidance roll, Sortie generates melee results. During a save
    #  roll Sortie generates save results."
    #  ... During a dragon attack, Sortie generates save and melee results."
    "sortie": sai_use_table((("melee", "avoid-melee"), SaiUse(("melee",))),
                    ((*SAVES, "avoid-save"), SaiUse(("save",))),
                    (DRAGON, SaiUse(("save", "melee"), each=True))),
    # "During a melee attack or melee avoidance roll, Double Strike generates melee results; roll this unit again"
    #  (002 SAI resolution: "if a SAI has normal results during a melee avoidance roll, missile avoidance roll,
    #  or save roll, then it also works during a dragon attack": Rend, Double Strike and Tail there too)
    "double-strike": sai_use_table((("melee", "avoid-melee", *DRAGON), SaiUse(("melee",)))),
    # "During a melee attack or melee avoidance roll, Tail generates two melee results. Roll this unit again"
    "tail": sai_use_table((("melee", "avoid-melee", *DRAGON), SaiUse(("melee", "melee"), each=True))),
    # "During a magic action or magic negation roll, Cantrip generates magic results. During any
    #  non-magic action, save roll or non-maneuver avoidance roll, Cantrip can be used to purchase spells"
    "cantrip": sai_use_table((("magic",), SaiUse(("magic",))),
                     (("melee", "missile", *SAVES, "avoid-melee", "avoid-missile", "avoid-save", "avoid-magic"),
                      SaiUse(special="cantrip")),
                     # the army's roll against a dragon attack is a non-maneuver avoidance roll
                     (DRAGON, SaiUse(special="cantrip"))),
    # "During any roll, the Dragonkin unit loses its automatic save(s)" (engine.dragonkin); "Dragonkin Belly does
    #  not generate any results per se" -- a dragon attack is one of "any roll"
    "belly": sai_use_table(((*ANY, "dragon"), SaiUse())),
    # "During any non-maneuver roll, each Wild Growth result generates one save result or may immediately promote
    #  one unit in the army containing this unit" (the promotions: engine.wild_growth); a dragon attack is a
    #  non-maneuver roll
    "wild-growth": sai_use_table(((*(k for k in ANY if "maneuver" not in k), "dragon"), SaiUse(("save",)))),
}

# Targeted and army-damaging SAIs in melee and missile actions (002 SAI List); how each chooses its
# targets and what it does to them is engine.sai_attacks. "During a dragon attack" is roll kind "dragon".
STRIKE, TEST, KILL = SaiUse(special="unit-strike"), SaiUse(special="unit-test"), SaiUse(special="unit-kill")
SAI_USES.update({
    # Kick: "During a melee attack, for each unit that generates Kick results choose one unit in the defending
    #  army. Kick immediately inflicts four points of damage on the target unit, which must generate saves
    #  against this damage. During a dragon attack or melee avoidance roll, Kick generates melee results."
    "kick": sai_use_table((("melee",), STRIKE), (("avoid-melee", *DRAGON), SaiUse(("melee",)))),
    # Coil: "for each unit that generates Coil results choose one unit ... inflict four points of damage ...
    #  The target unit makes a combination roll: to generate saves against the Coil damage and/or inflict
    #  melee damage on the coiling unit. ... During a dragon attack or melee avoidance roll, each Coil result
    #  generates one melee result."
    "coil": sai_use_table((("melee",), STRIKE), (("avoid-melee", *DRAGON), SaiUse(("melee",)))),
    # Gore: "for each unit that generates Gore results choose one unit ... two points of damage on the target
    #  unit, which must generate saves against this damage or be killed and buried. During a dragon attack or
    #  melee avoidance roll, Gore generates two melee results."
    # the two melee results are the face's, as the two points of damage are each rolling unit's (not two per point:
    #  a monster's Gore would give eight): SaiUse.per_face
    "gore": sai_use_table((("melee",), STRIKE), (("avoid-melee", *DRAGON), SaiUse(("melee",), per_face=2))),
    # Hug: "... Hug immediately inflicts four points of damage on the target unit. The unit gets no saves, but
    #  does roll to counter-attack the hugging unit, which cannot save against this damage. During a dragon
    #  attack or melee avoidance roll, Hug generates melee results."
    "hug": sai_use_table((("melee",), STRIKE), (("avoid-melee", *DRAGON), SaiUse(("melee",)))),
    # Slay: "During a melee attack, choose one unit in the defending army to immediately roll its ID icon or
    #  be killed."
    "slay": sai_use_table((("melee",), TEST)),
    # Swallow: "... choose one unit in the defending army to immediately roll its ID icon or be killed and buried."
    "swallow": sai_use_table((("melee",), TEST)),
    # Plague: "choose one unit in the defending army, which must immediately generate a save or be killed. If
    #  the target unit fails to generate a save, your opponent chooses another unit from the same army to be
    #  plagued. The plague continues until a target unit generates a save."
    "plague": sai_use_table((("melee",), SaiUse(special="plague"))),
    # Poison: "choose one health-worth of units ... per Poison result generated. Each target unit must
    #  immediately generate a save or be killed. Any units that are killed must roll a save or be buried."
    "poison": sai_use_table((("melee",), TEST)),
    # Convert: "choose one health-worth of units ... per Convert icon generated. Targeted unit(s) must
    #  immediately generate a save or be killed. The acting player may return Undead units from the dead unit
    #  area to the acting army up to the amount of health killed."
    "convert": sai_use_table((("melee",), TEST)),
    # Decapitate: Delayed Special (melee attack); Special or Normal (dragon attack): "after the defending army
    #  rolls to save but before they apply any unique or special resolution SAIs, choose one unit in the
    #  defending army that rolled an ID icon to be killed. During a dragon attack, choose any dragon that rolls
    #  a Jaws icon to be slain. Otherwise it inflicts three melee results on the dragon."
    "decapitate": sai_use_table((("melee",), SaiUse(special="rolled-id-kill")), (DRAGON, SaiUse(special="dragon-effect"))),
    # Choke: Delayed Special (melee attack): "... choose up to four health-worth of units in the defending army
    #  that rolled an ID icon to immediately be killed."
    "choke": sai_use_table((("melee",), SaiUse(special="rolled-id-kill"))),
    # Impale: as Decapitate, in a missile action; "Otherwise it inflicts three missile results on the dragon."
    "impale": sai_use_table((("missile",), SaiUse(special="rolled-id-kill")), (DRAGON, SaiUse(special="dragon-effect"))),
    # Crush: "During a missile action, choose up to four-health worth of units in the defending army to
    #  immediately roll a maneuver result individually or be killed. Any units that are killed must then roll a
    #  save or be buried. During a dragon attack or missile avoidance roll, Crush generates missile results."
    "crush": sai_use_table((("missile",), TEST), (("avoid-missile", *DRAGON), SaiUse(("missile",)))),
    # Stomp: the same in a melee attack; "During a dragon attack or melee avoidance roll, Stomp generates
    #  melee results."
    "stomp": sai_use_table((("melee",), TEST), (("avoid-melee", *DRAGON), SaiUse(("melee",)))),
    # Smother: "choose up to four health-worth of units in the defending army to immediately roll a maneuver
    #  result individually or be killed."
    "smother": sai_use_table((("melee",), TEST)),
    # Bash: Normal (non-melee save); Special (dragon attack or save against melee attack): "During a non-melee
    #  save roll, Bash generates saves results equal to the die's health. During a save roll against a melee
    #  attack, choose a unit in the attacking army that generated normal melee results. Bash immediately does
    #  back damage equal to the melee results of the target unit ... The defending army gets saves equal to
    #  the amount of damage that the target unit generated. During a dragon attack, target one dragon ..."
    # (its points are the die's health on the dice that have it: a rare item's three, a monster's four)
    "bash": sai_use_table((("save", "save-missile", "avoid-save"), SaiUse(("save",), by_health=True)),
                  (("save-melee",), SaiUse(special="bash")), (DRAGON, SaiUse(special="dragon-effect"))),
    # Flame: "choose up to two health-worth of units in the defending army to be immediately killed and buried
    #  with no save possible."
    "flame": sai_use_table((("melee",), KILL)),
    # Firebreath: "During a melee attack, immediately kill four health of units from the defending army with
    #  no save possible. Those units must then roll a save or maneuver, or be buried."
    "firebreath": sai_use_table((("melee",), KILL)),
    # Firecloud: "During a missile action, choose up to four health-worth of units in the defending army. Each
    #  target unit must immediately roll a maneuver result or be killed."
    "firecloud": sai_use_table((("missile",), TEST)),
    # Flaming Arrow: "for each unit that generates Flaming Arrow results choose one unit ... Each Flaming Arrow
    #  result immediately inflicts one point of damage to the target unit, which must generate saves against
    #  this damage. If the target unit is killed it must roll a save or be buried. During a dragon attack or
    #  missile avoidance roll, Flaming Arrow generates missile results."
    "flaming-arrow": sai_use_table((("missile",), STRIKE), (("avoid-missile", *DRAGON), SaiUse(("missile",)))),
    # Seize: "choose up to four health-worth of units ... to immediately roll an ID icon individually or be
    #  killed. Those that roll an ID icon flee to reserve area."
    "seize": sai_use_table((("missile",), TEST)),
    # Scare: "choose one health-worth of units ... per Scare icon generated. Each target unit must immediately
    #  generate a non-ID icon save result or flee to its reserve area. Target units that roll its ID icon are
    #  killed with no save possible."
    "scare": sai_use_table((("melee",), TEST)),
    # Roar: "choose up to four health-worth of units in the defending army to immediately flee to their
    #  reserve area."
    "roar": sai_use_table((("melee",), KILL)),
    # Charm: "immediately choose up to four health-worth of units in an opposing army to add their results to
    #  the results of the acting army. The affected unit(s) return to their owner's control immediately after
    #  the defender's save roll."
    "charm": sai_use_table((("melee",), SaiUse(special="charm"))),
    # Confuse: Delayed Special (melee attack or missile action): "after the defending army rolls for saves but
    #  before they apply any unique or special resolution SAIs, choose up to four health-worth of units in the
    #  defending army and force them to roll again. Selected units ignore their original roll and apply the
    #  new roll instead."
    "confuse": sai_use_table((("melee", "missile"), SaiUse(special="reroll-saves"))),
    # Trumpet: Special (melee or save): "During a melee attack, melee avoidance roll or save roll, Trumpet
    #  allows each Feral unit in the army containing this unit to immediately double its melee and save results."
    "trumpet": sai_use_table((("melee", "avoid-melee", *SAVES, "avoid-save"), SaiUse(special="double-units"))),
    # Elevate: Normal (maneuver); Special (save against melee attack, missile action, or dragon attack):
    #  "During a maneuver roll, Elevate generates maneuver results. During a missile action, immediately double
    #  one unit's missile results. During a save roll in a melee attack, immediately double one unit's save
    #  results. During a dragon attack, Elevate doubles one unit's missile or save results."
    "elevate": sai_use_table((("maneuver", "counter-maneuver", "avoid-maneuver"), SaiUse(("maneuver",))),
                     (("missile", "save-melee", *DRAGON), SaiUse(special="double-units"))),
    # Flurry: Instant Normal (melee); Normal (save against melee attack); Instant or Normal (dragon attack):
    #  "During a melee attack or melee avoidance roll, Flurry generates melee results; roll the magical item
    #  again ... During a save roll against a melee attack, Flurry generates save results. During a dragon
    #  attack, Flurry generates melee results and roll the magic item again ... or generates save results."
    "flurry": sai_use_table((("melee", "avoid-melee"), SaiUse(("melee",))), (("save-melee",), SaiUse(("save",))),
                    (DRAGON, SaiUse(("melee", "save")))),
    # Charge: Delayed/Late Special (Acting Player Melee Attack): "This SAI has no effect during the counter
    #  attack phase. ... the attacking army must count Maneuver results as if they were Melee results ...
    #  the defending army will not make a counter attack. Instead they will make a combination melee/save roll"
    "charge": sai_use_table((("melee",), SaiUse(special="charge"))),
    # Surprise: Late Special (melee action): "the defending army cannot make its counter-attack roll; however,
    #  it may make its save roll."
    "surprise": sai_use_table((("melee",), SaiUse(special="surprise"))),
    # Sneak Attack: Special (missile action or magic action); Normal (melee attack or dragon attack): "During a
    #  missile or magic action, immediately kill up to four health-worth of opposing units in any army, with no
    #  save possible. The owner of the unit with this SAI selects the target army; the target army's owner
    #  selects the unit(s) killed. Any Dragonkin selected as casualties are immediately buried. During a melee
    #  attack or a dragon attack, Sneak Attack generates melee results."
    "sneak-attack": sai_use_table((("missile", "magic"), SaiUse(special="sneak-attack")),
                          (("melee", *DRAGON), SaiUse(("melee",)))),
    # Breath (Dragonkin Champion): "During a melee attack, attacking player chooses four health-worth of units
    #  in the defending army to be killed with no save possible."
    "breath-dragonkin-champion": sai_use_table((("melee",), KILL)),
    # Breath (Rare Dragonkin): "During a melee attack, targeted player chooses three health-worth of units in
    #  the defending army to be killed with no save possible."
    "breath-rare-dragonkin": sai_use_table((("melee",), KILL)),
})


# Eldarim champions' logos in the army's roll against a dragon attack: "all Eldarim in the army are also
# rolled, but the logo faces count for nothing on the Dragonlord and Dragonslayer" (the Dragoncrusader's logo
# has no use there either; the Dragonmaster's, Dragonhunter's and Dragonzealot's count as a two point ID icon,
# Ruleset.id_icons). Their other uses belong to the SAI table's other kinds.
NO_EFFECT = SaiUse()
# a unit's save roll by itself against an individual-targeting effect (engine.roll asks for it first)
INDIVIDUAL_SAVE = "individual-save"
# any roll a unit makes by itself against an individual-targeting effect (Cloak's "During a roll against an
# individual-targeting effect"); engine.roll asks for it first, in every kind of roll
INDIVIDUAL_ROLL = "individual-roll"
# Every champion's logo: "During a save roll against an individual-targeting effect, the SFR/TSR logo counts as four
# saves" (engine.roll asks for the individual-save use first). The Dragonlord's, Dragonslayer's and
# Dragoncrusader's logos name no other roll: elsewhere they have no effect.
FOUR_SAVES = SaiUse(("save",) * 4, each=True)
for _logo in ("sfr-tsr-logo-dragonlord", "sfr-tsr-logo-dragonslayer", "sfr-logo-dragoncrusader"):
    SAI_USES[_logo] = {"dragon": NO_EFFECT, INDIVIDUAL_SAVE: FOUR_SAVES}
for _logo in ("sfr-tsr-logo-dragonmaster", "sfr-logo-dragonhunter", "sfr-logo-dragonzealot"):
    SAI_USES[_logo] = {INDIVIDUAL_SAVE: FOUR_SAVES}    # elsewhere a two point ID icon (Ruleset.id_icons)
# The Dragonkin Champion's logo: "During any action or non-maneuver avoidance roll, may move a summoned dragon with
# the same color as the Dragonkin Champion from any terrain to any other terrain" (the army's roll against a
# dragon attack is such a roll; engine.actions.dragon_sais moves the dragon; in an action or another
# non-maneuver avoidance roll, engine.actions.sai_states.move_dragons, with the same handler). "Dragonkin units
# cannot roll for magic or missile actions" (002 Dragonkin, engine.dragonkin): of the actions, only a melee.
SAI_USES["sfr-tsr-logo-dragonkin-champion"] = {
    **{k: SaiUse(special="dragon-move") for k in ("melee", "avoid-melee", "avoid-missile", "avoid-save",
                                                  "avoid-magic")},
    "dragon": SaiUse(special="dragon-effect"), INDIVIDUAL_SAVE: FOUR_SAVES}


# --- state, movement, resurrection and magic SAIs (engine.actions.sai_states resolves their specials) -----
ACTIONS = ("melee", "missile", "magic")
NON_MANEUVER_AVOID = ("avoid-melee", "avoid-missile", "avoid-save", "avoid-magic")
# 002 Application: "During a non-maneuver roll: ... during any action, save roll or non-maneuver avoidance roll"
NON_MANEUVER = (*ACTIONS, *SAVES, *NON_MANEUVER_AVOID)

SAI_USES.update({
    # "During a melee attack, choose up to four health-worth of units in the defending army to be immediately
    #  entangled. The target unit(s) cannot be rolled until the beginning of your next turn. Killing the
    #  entangling unit negates the effect."
    "entangle": sai_use_table((("melee",), SaiUse(special="unit-state"))),
    # "During a melee attack, choose up to four health-worth of units in the defending army to be webbed unless
    #  each targeted unit immediately rolls a melee result ... cannot be rolled until the beginning of your next turn"
    "web": sai_use_table((("melee",), SaiUse(special="unit-state"))),
    # "During a melee or missile attack, choose up to four health-worth of units ... to be immobilized unless each
    #  targeted unit immediately rolls a maneuver result ... When saving against an individual targeting effect,
    #  generates four saves."
    "net": sai_use_table((("melee", "missile"), SaiUse(special="unit-state")), ((INDIVIDUAL_SAVE,), SaiUse(("save",)))),
    # "During a melee attack, choose one unit in an opposing army to be immediately put to sleep, with no save
    #  possible. The target unit cannot be rolled until the end of your next turn."
    "sleep": sai_use_table((("melee",), SaiUse(special="unit-state"))),
    # "During a melee attack, choose up to four health-worth of units ... to be stunned unless each targeted unit
    #  immediately rolls a maneuver ... cannot be rolled until the end of your turn. Roll this unit again"
    "stun": sai_use_table((("melee",), SaiUse(special="unit-state"))),
    # Delayed: "after the defending army rolls to save but before they apply any unique or special resolution SAIs,
    #  target all units in the defending army which rolled an ID to become immediately 'hypnotized'"
    "hypnotic-glare": sai_use_table((("melee",), SaiUse(special="glare"))),
    # "During a melee attack, target an opposing army. Until the beginning of your next turn, after the target army
    #  makes any roll but before they finalize any results, subtract one result per Wither icon from that roll."
    "wither": sai_use_table((("melee",), SaiUse(special="army-state"))),
    # "During a melee attack or missile action, choose an opposing army. Until the beginning of your next turn,
    #  after the target army makes any roll but before they finalize any results, halve the results of that roll."
    "frost-breath": sai_use_table((("melee", "missile"), SaiUse(special="army-state"))),
    # "During any action, choose any enemy army. Until the beginning of your next turn, after the target army makes
    #  any maneuver roll, counter-maneuver roll, maneuver avoidance roll, save roll or save avoidance roll ... any
    #  unit in the target army that rolled a Fly icon must roll again until a non-Fly icon is generated."
    "galeforce": sai_use_table((ACTIONS, SaiUse(special="army-state"))),
    # "During any action, immediately choose any of your armies. Until the beginning of your next turn, this army
    #  cannot be targeted by any missile or enemy magic effect."
    "illusion": sai_use_table((ACTIONS, SaiUse(special="army-state"))),
    # Conditional: "Whenever any magic targets this unit ... you may roll this unit after all spells are announced
    #  but before any are resolved" -- rolled only then (engine.actions.magic), in no other roll
    "dispel-magic": {},
    # "During any non-maneuver roll, the ferrying unit may immediately move itself and up to four health-worth of
    #  units in the army containing this unit to any other terrain."
    "ferry": sai_use_table((NON_MANEUVER, SaiUse(special="move")), (("dragon",), SaiUse(special="move"))),
    # "During a maneuver or maneuver avoidance roll, Teleport generates maneuver results. During any action or
    #  non-maneuver avoidance roll, the teleporting unit may immediately move itself and up to three
    #  health-worth of units in the army containing this unit to any terrain."
    "teleport": sai_use_table((("maneuver", "counter-maneuver", "avoid-maneuver"), SaiUse(("maneuver",))),
                      ((*ACTIONS, *NON_MANEUVER_AVOID, "dragon"), SaiUse(special="move"))),
    # "During a save roll, each Vanish icon generates one save result which is added to the army's total save
    #  results. The unit may then immediately move to any other terrain or its reserve area." (its saves also
    #  in a dragon attack, 002 Application: "if a SAI has normal results during ... save roll, then it also
    #  works during a dragon attack")
    "vanish": sai_use_table(((*SAVES, "avoid-save", "dragon"), SaiUse(("save",), special="move"))),
    # "During a maneuver roll, Wayfare generates maneuver results or allows the magical item and a unit able to
    #  carry it to be moved immediately to any other terrain or its reserve area. During the maneuver roll to
    #  determine the order of play, Wayfare generates maneuver results. During a dragon attack, Wayfare allows the
    #  magical item and a unit able to carry it to be moved" (in a dragon attack: engine.actions.sai_states.dragon_moves;
    #  Ferry, Teleport, Firewalking, Vanish there too: the army's roll is a non-maneuver avoidance roll and a save roll)
    "wayfare": sai_use_table((("maneuver",), SaiUse(("maneuver",), special="move", either=True)),
                     (("counter-maneuver", "avoid-maneuver"), SaiUse(("maneuver",))),
                     (("dragon",), SaiUse(special="move"))),
    # "During a save roll, Rise from the Ashes generates save results. Whenever a unit with this icon is killed or
    #  buried, immediately roll the unit; if and only if this icon is rolled the monster immediately goes to your
    #  reserve area." (the Conditional part: engine.actions.sai_endings.rise_from_the_ashes)
    "rise-from-the-ashes": sai_use_table(((*SAVES, "avoid-save", "dragon"), SaiUse(("save",)))),
    # "During any non-maneuver roll, this icon generates four save results or you may immediately bring back up
    #  to four health-worth of units from your DUA to the army containing this unit."
    "regenerate": sai_use_table((NON_MANEUVER, SaiUse(("save",), special="raise", either=True)),
                        (("dragon",), SaiUse(("save",), special="raise", either=True))),
    # "During a magic action, Attune generates magic results of any color. Attune may also immediately count the
    #  normal magic result (only actual magic icons ...) of one unit in the acting army as that same color."
    # ("Normal and Special": its any-color magic, and the special, a "may", engine.actions.sai_magic.attune)
    "attune": sai_use_table((("magic",), SaiUse(("magic",), special="attune"))),
    # "During any non-save roll, Cloak generates magic results. During a save roll, add four magical save results
    #  to the army containing this unit until the beginning of your next turn. During a roll against an
    #  individual-targeting effect, Cloak generates magic, maneuver, melee, missile or save results."
    "cloak": sai_use_table((("maneuver", "counter-maneuver", *ACTIONS, "avoid-maneuver", "avoid-melee", "avoid-missile",
                     "avoid-magic"), SaiUse(("magic",))),
                   ((*SAVES, "avoid-save"), SaiUse(special="cloak")),
                   # the army's roll against a dragon attack is a save combination roll (002 Dragon Attack): read as
                   # a save roll for Cloak, its four magical saves (engine.actions.dragon)
                   (("dragon",), SaiUse(special="cloak")),
                   ((INDIVIDUAL_ROLL,), SaiUse(("magic", "maneuver", "melee", "missile", "save")))),
    # "During a magic action, choose any dragon of a matching color as the magical item and immediately summon it
    #  to any terrain; roll the artifact again and apply the new result as well."
    "summon-dragon": sai_use_table((("magic",), SaiUse(special="summon"))),
    # "During a magic action, generates magic results of any color. During any non-magic action, save roll, or
    #  non-maneuver avoidance roll, counts as a Cantrip that can cast any color spell from the spell lists"
    "sfr-tsr-logo-bronze-medallion": sai_use_table((("magic",), SaiUse(("magic",))),
                                           (("melee", "missile", *SAVES, *NON_MANEUVER_AVOID),
                                            SaiUse(special="cantrip"))),
    # "During any non-maneuver roll, returns one non-dragonkin buried unit to the DUA or you may immediately
    #  bring back up to four health-worth of units from your DUA to the army carrying this medallion."
    "sfr-tsr-logo-gold-medallion": sai_use_table((NON_MANEUVER, SaiUse(special="raise")),
                                         (("dragon",), SaiUse(special="raise"))),
    # "During any non-maneuver roll, returns one buried magical item to the army this medallion is a part of or
    #  one buried Dragonkin to the summoning pool."
    "sfr-tsr-logo-silver-medallion": sai_use_table((NON_MANEUVER, SaiUse(special="restore")),
                                         (("dragon",), SaiUse(special="restore"))),
    # "During a maneuver roll, Firewalking generates maneuver results. During any non-maneuver roll, the
    #  Firewalking unit may immediately move itself and up to three health-worth of units in the army containing
    #  this unit to any other terrain."
    "firewalking": sai_use_table((("maneuver", "counter-maneuver", "avoid-maneuver"), SaiUse(("maneuver",))),
                         ((*NON_MANEUVER, "dragon"), SaiUse(special="move"))),
})


# SAIs whose text says to roll the unit (or item) again, and the kinds of roll in which it does:
# "During a melee attack or melee avoidance roll, ... roll this unit again and apply the new result as well"
# (Rend, Double Strike, Tail, Flurry; Flurry also "During a dragon attack ... roll the magic item again");
# Summon Dragon (artifact): "During a magic action ... roll the artifact
# again"
REROLLS: dict[str, tuple[str, ...]] = {
    "rend": ("melee", "avoid-melee"), "double-strike": ("melee", "avoid-melee"), "tail": ("melee", "avoid-melee"),
    "flurry": ("melee", "avoid-melee", "dragon"), "summon-dragon": ("magic",),
    # Stun: "Instant Special (melee attack) ... Roll this unit again and apply the new result as well"
    "stun": ("melee",),
}


# SAIs whose reroll in these kinds of roll depends on where the owner sends their points (002 Flurry: "During a
# dragon attack, Flurry generates melee results and roll the magic item again ... or generates save results"):
# the action that knows the choice checks the chain's end (engine.actions.dragon_sais.check_flurry)
CHOSEN_REROLLS: dict[str, tuple[str, ...]] = {"flurry": ("dragon",)}
# rerolling SAIs only an item's die has (Summon Dragon: the Dragon Staff): a unit showing one gets the error that
# says so (engine.actions.joined_rolls.ITEM_ONLY), not a request for its next face
ITEM_REROLLS = frozenset({"summon-dragon"})


def rerolls(sai: str, kind: str, table: Mapping[str, tuple[str, ...]] | None = None) -> bool:
    """Whether the SAI rolls its unit again in this kind of roll (a combination roll: in any of its parts);
    ``table``: the edition's (Ruleset.sai_rerolls), None for sfr-2012's."""
    kinds = (REROLLS if table is None else table).get(sai, ())
    if kind == "dragon":        # "if a SAI has normal results during a melee avoidance roll ..." (002)
        return any(k in kinds for k in _DRAGON_PARTS)
    if kind.startswith("combination:"):
        return any(f"avoid-{t}" in kinds for t in kind.split(":", 1)[1].split(","))
    return kind in kinds


def sai_use(sai: str, kind: str, uses: Mapping[str, Mapping[str, SaiUse]] | None = None) -> SaiUse | None:
    """The SAI's use in this kind of roll; None when it does nothing there.

    A combination roll ("combination:maneuver,save") uses an SAI that works in
    any of its avoidance rolls (002 Avoidance Rolls: "The SAI does not need to
    be applicable for every result of the combination roll, just at least one").
    ``uses``: the edition's SAI table (Ruleset.sai_uses), None for sfr-2012's.
    """
    table = (SAI_USES if uses is None else uses).get(sai)
    if table is None:
        return NOT_MODELLED
    if kind in ("dragon", "dragon-save"):
        use = _dragon_use(table, kind)
        return None if use is NO_EFFECT else use
    if not kind.startswith("combination:") or kind in table:
        use = table.get(kind)       # a combination roll the SAI's entry names (SAVE_AND_MANEUVER)
        return None if use is NO_EFFECT else use    # an entry naming the roll as one where it has no effect
    uses = [u for t in kind.split(":", 1)[1].split(",")
            if (u := table.get(f"avoid-{t}")) is not None and u is not NO_EFFECT]
    if not uses:
        return None
    if uses and all(u.special == "cantrip" for u in uses):
        return uses[0]          # Cantrip buys spells in a combination roll as in any non-magic roll
    returning = {u.special for u in uses} & set(RETURNING)
    if returning and len(returning) == 1 and all(u.special in RETURNING for u in uses):
        return uses[0]          # Regenerate, the Medallions: "During any non-maneuver roll" -- its save part
    if not all(u.modelled for u in uses) or any(u.special for u in uses):
        return NOT_MODELLED
    gives = tuple(dict.fromkeys(t for u in uses for t in u.gives))
    return SaiUse(gives, each=any(u.each for u in uses), by_health=any(u.by_health for u in uses),
                  per_face=_per_face(uses))


_DRAGON_PARTS = ("avoid-melee", "avoid-missile", "save")
# the returning specials a spell's save and maneuver combination roll resolves (engine.actions.spells)
RETURNING = ("raise", "restore")


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
        # Elevate doubles a unit's results in the roll: under the breath, its saves (engine.sai_doubling); Wayfare and
        # Teleport still move units (traced as a reading, engine.actions.dragon): "Any special result from an SAI
        # that specifically states it has an effect during a dragon attack can also be applied" (002 Step 6, after
        # the exception), and the breath leaves "simply and only a save avoidance roll" (a non-maneuver avoidance
        # roll, Teleport's words); so do Decapitate, Impale, Bash and the Dragonkin Champion's logo ("During a dragon
        # attack ..."; engine.actions.dragon_sais: their "otherwise three melee/missile results" do not count there)
        if own is not None and ("save" in own.gives and own.each or
                                own.special in ("double-units", "move", "dragon-effect")):
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
    return SaiUse(tuple(dict.fromkeys(t for u in normal for t in u.gives)), each=any(u.each for u in normal),
                  per_face=_per_face(normal))


def _per_face(uses) -> int | None:
    """The results per face the merged uses fix (SaiUse.per_face), the largest where parts differ; None if none does."""
    fixed = [u.per_face for u in uses if u.per_face]
    return max(fixed) if fixed else None


def cite(sai: str, sections: Mapping[str, str] | None = None) -> str:
    """The SAI's section: in the edition's ``sections`` (Ruleset.sai_sections) when given, else in 002's list."""
    return (sections or {}).get(sai) or f"{LIST}.{sai}"
AVOIDANCE = ("avoid-maneuver", "avoid-melee", "avoid-missile", "avoid-save", "avoid-magic")
# Where engine.actions.sai_states resolves each special of this group (roll kinds); elsewhere it is refused
# as not modelled rather than ignored.
RESOLVED: dict[str, tuple[str, ...]] = {
    "unit-state": ("melee", "missile", "charge"), "army-state": ("melee", "missile", "magic"), "glare": ("melee",),
    # the defender's save roll in a melee or missile action (engine.actions.combat)
    # and the army's save roll against a spell ("save": engine.actions.spells.save_roll); Regenerate and the
    # Medallions in a magic action: engine.actions.magic_returns
    # and an army's save or avoidance roll of a roll step or a maneuver's Wall of Thorns (engine.resolve, in_roll)
    "raise": ("melee", "missile", "save-melee", "save-missile", "save", "magic", *AVOIDANCE, "dragon", "dragon-save",
                "combination:save,maneuver"),
    "restore": ("melee", "missile", "save-melee", "save-missile", "save", "magic", *AVOIDANCE, "dragon", "dragon-save",
                "combination:save,maneuver"),
    # tsr-1996 Ferry bringing units back from another terrain (engine.actions.sai_states, as "raise")
    # and in the army's roll against a dragon attack (004 Ferry D: "the Ferry performs normally"; engine.actions.dragon)
    "fetch": ("melee", "missile", "save-melee", "save-missile", "save", "magic", *AVOIDANCE, "dragon", "dragon-save"),
    "cloak": ("save-melee", "save-missile", "save", "avoid-save", "dragon", "dragon-save"),
    "move": ("maneuver", "melee", "missile", "magic", "save-melee", "save-missile", "save", *AVOIDANCE, "dragon",
             "dragon-save"),
    # before the magic action's roll is counted (engine.actions.sai_magic)
    "summon": ("magic",),
    "attune": ("magic",),
    # the Dragonkin Champion's logo: a melee's attack and counter-attack, and an army's non-maneuver avoidance
    # roll (engine.actions.sai_states.move_dragons)
    "dragon-move": ("melee", "avoid-melee", "avoid-missile", "avoid-save", "avoid-magic"),
}
# tsr-1996's charge (engine.actions.charge): the charging army's roll ("charge") and the charged army's ("charged")
for _effect in ("raise", "restore", "fetch"):
    RESOLVED[_effect] = (*RESOLVED[_effect], "charge", "charged")
RESOLVED["unit-state"] = (*RESOLVED["unit-state"], "charged")


def unit_use(sai: str, kind: str, individual: bool, chosen: dict,
             uses: Mapping[str, Mapping[str, SaiUse]] | None = None) -> SaiUse | None:
    """The SAI's use as a unit rolled it: by itself (``individual``), its use against an individual-targeting
    effect first (Net, Cloak); a "Normal or Special" SAI gives its normal results unless its owner chose the
    special (``chosen``: SAI -> 1), never both (002 SAI List: Regenerate "generates four save results or you
    may immediately bring back ..."). A special this version does not resolve in this roll is not modelled.
    002 Application: "SAIs have their same effect whether the unit containing the SAI is rolled individually or
    as part of an army": a unit's own roll resolves the specials of OWN_ROLL (engine.actions.own_roll)."""
    use = _individual_use(sai, kind, uses) if individual else None
    use = use or sai_use(sai, kind, uses)
    if use is None or use.special not in _STATE_SPECIALS:
        return use
    if use.either and not chosen.get(sai):
        return SaiUse(use.gives, each=use.each, per_face=use.per_face)  # its normal results: the special not chosen
    if (use.special not in OWN_ROLL) if individual else (kind not in RESOLVED.get(use.special, ())):
        return NOT_MODELLED
    return SaiUse(special=use.special) if use.either else use


# what the special of a "Normal or Special" SAI does, and the field that chooses it (its normal results otherwise)
SPECIAL_CHOICE = {"raise": ("targets.{sai}", "bring back units from the DUA"), "move": ("move_to.{sai}", "move units")}


def special_left(sai: str, kind: str, individual: bool, chosen: dict,
                 uses: Mapping[str, Mapping[str, SaiUse]] | None = None) -> str:
    """What the owner could have chosen instead of a "Normal or Special" SAI's normal results in this roll and did
    not (the step names no targets or move for it): "the step names no <field>, so not its special (<what>)", else ""
    (issue 21: an absent choice is a traced default). A special this version does not resolve in the roll is no
    choice a scenario can make here (``unit_use`` refuses it), so nothing is said."""
    use = (_individual_use(sai, kind, uses) if individual else None) or sai_use(sai, kind, uses)
    if use is None or not use.either or use.special not in _STATE_SPECIALS or chosen.get(sai):
        return ""
    if (use.special not in OWN_ROLL) if individual else (kind not in RESOLVED.get(use.special, ())):
        return ""
    field, what = SPECIAL_CHOICE.get(use.special, ("targets.{sai}", "its special"))
    return f"the step names no {field.format(sai=sai)}, so not its special ({what})"


def _individual_use(sai: str, kind: str, uses: Mapping[str, Mapping[str, SaiUse]] | None) -> SaiUse | None:
    """Its use in a unit's own roll, which is against an individual-targeting effect (the unit alone is its
    target): Net and the champions' logos in a save ("When saving against an individual targeting effect"),
    Cloak in any such roll; in a combination roll (a killed unit's "save or maneuver, or be buried"), what its
    parts give, with the one special a unit's own roll resolves (002 Avoidance Rolls: "The SAI does not need
    to be applicable for every result of the combination roll, just at least one")."""
    table = (SAI_USES if uses is None else uses).get(sai, {})
    if kind in (*SAVES, "avoid-save") and INDIVIDUAL_SAVE in table:
        return table[INDIVIDUAL_SAVE]
    if INDIVIDUAL_ROLL in table or not kind.startswith("combination:"):
        return table.get(INDIVIDUAL_ROLL)
    parts = [u for t in kind.split(":", 1)[1].split(",")
             if (u := _individual_use(sai, f"avoid-{t}", uses) or table.get(f"avoid-{t}")) is not None]
    specials = {u.special for u in parts if u.special}
    if not parts or any(not u.modelled for u in parts) or len(specials) > 1 or not specials <= set(OWN_ROLL):
        return None     # sai_use's combination rules apply (and refuse what they do not model)
    if len(parts) == 1:
        return parts[0]     # Net's and the logos' four saves in a killed unit's "save or maneuver" roll: its save part
    return SaiUse(tuple(dict.fromkeys(t for u in parts for t in u.gives)), each=any(u.each for u in parts),
                  either=any(u.either for u in parts), special=specials.pop() if specials else None,
                  per_face=_per_face(parts))


_STATE_SPECIALS = ("unit-state", "army-state", "glare", "move", "raise", "restore", "summon", "attune", "cloak",
                   "dragon-move", "fetch")
# the specials a unit's own roll resolves (engine.actions.own_roll, through sai_states.in_roll): Regenerate brings
# units back (the Medallions' "raise" and "restore" too, though an item never rolls alone: 002 Magical Items, "A
# magical item can be rolled only if a unit capable of carrying that item is rolled"), Vanish, Ferry, Teleport and
# Firewalking move units, the Dragonkin Champion's logo a dragon (Cloak gives normal results there:
# INDIVIDUAL_ROLL). tsr-1996 Ferry ("fetch"): 004 Ferry A, "effective during any action--including melee, magic,
# missiles, and saves": its units join the army, not rolled, as Regenerate's (engine.actions.joined_rolls), or the
# monster stays at the other terrain.
OWN_ROLL = ("raise", "restore", "move", "dragon-move", "fetch")


# --- an army's save and maneuver combination roll against a spell (Tidal Wave, Volcanic Eruption) ---------------
# 002 Glossary, Combination Roll: "The roll to avoid the effects of a Tidal Wave spell is another example since the
# army is making a save roll and a maneuver avoidance roll"; 002 Avoidance Rolls: "The SAI does not need to be
# applicable for every result of the combination roll, just at least one". The moving SAIs, Cloak, Trumpet and the
# Dragonkin Champion's logo act in it as in the army's save roll against a spell (engine.actions.spells, with
# engine.actions.sai_states); each SAI's entry names the part of the roll its special needs (the reading is
# traced: COMBINATION_READS).
SAVE_AND_MANEUVER = "combination:save,maneuver"
SAI_USES["vanish"][SAVE_AND_MANEUVER] = SaiUse(("save",), special="move")
SAI_USES["ferry"][SAVE_AND_MANEUVER] = SaiUse(special="move")
# Teleport, Firewalking: their maneuver results (the maneuver avoidance part) and their move (the save part);
# a unit that moves takes its results away (002 Resolution)
SAI_USES["teleport"][SAVE_AND_MANEUVER] = SaiUse(("maneuver",), special="move")
SAI_USES["firewalking"][SAVE_AND_MANEUVER] = SaiUse(("maneuver",), special="move")
# Cloak: its four magical saves (the save part); "During any non-save roll, Cloak generates magic results" does not
# apply, the roll being a save roll too (and magic results count for nothing in it)
SAI_USES["cloak"][SAVE_AND_MANEUVER] = SaiUse(special="cloak")
# Trumpet: "During a melee attack, melee avoidance roll or save roll, Trumpet allows each Feral unit ... to
# immediately double its melee and save results" -- their saves, in the save part (engine.sai_doubling)
SAI_USES["trumpet"][SAVE_AND_MANEUVER] = SaiUse(special="double-units")
# The Dragonkin Champion's logo: "During any action or non-maneuver avoidance roll, may move a summoned dragon" (its
# save part, as for Teleport; engine.actions.sai_states.move_dragons)
SAI_USES["sfr-tsr-logo-dragonkin-champion"][SAVE_AND_MANEUVER] = SaiUse(special="dragon-move")
RESOLVED["dragon-move"] = (*RESOLVED["dragon-move"], SAVE_AND_MANEUVER)
RESOLVED["move"] = (*RESOLVED["move"], SAVE_AND_MANEUVER)
RESOLVED["cloak"] = (*RESOLVED["cloak"], SAVE_AND_MANEUVER)
# What each special SAI's entry needs the combination roll to be: the words the reading rests on (002 SAI List).
COMBINATION_READS: dict[str, str] = {
    "regenerate": "During any non-maneuver roll", "sfr-tsr-logo-gold-medallion": "During any non-maneuver roll",
    "sfr-tsr-logo-silver-medallion": "During any non-maneuver roll", "ferry": "During any non-maneuver roll",
    "firewalking": "During any non-maneuver roll", "teleport": "During any action or non-maneuver avoidance roll",
    "vanish": "During a save roll", "cloak": "During a save roll",
    "sfr-tsr-logo-dragonkin-champion": "During any action or non-maneuver avoidance roll",
    "trumpet": "During a melee attack, melee avoidance roll or save roll",
}


# --- a combination roll's kind ----------------------------------------------------------------------------------
# 002 Avoidance Rolls: a combination roll is one roll for several results ("The roll to avoid the effects of a Tidal
# Wave spell is another example since the army is making a save roll and a maneuver avoidance roll", 002 Glossary);
# the order a step writes them in is no part of the roll, so its kind names them in one order (save first, as
# SAVE_AND_MANEUVER) and the entries above match whatever order was written.
COMBINATION_ORDER = ("save", "maneuver", "melee", "missile", "magic")


def combination_kind(wanted) -> str:
    """The kind of a combination roll for the ``wanted`` results, in COMBINATION_ORDER."""
    rank = {t: i for i, t in enumerate(COMBINATION_ORDER)}
    return "combination:" + ",".join(sorted(wanted, key=lambda t: rank.get(t, len(rank))))
