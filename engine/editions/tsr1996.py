"""tsr-1996 (documents 000 and 004): the TSR revised rules and the FAQ's part four (Amazons, monsters).

Only what differs from sfr-2012 is policy here; everything else is data restating 000's and 004's text.
Rules 000 does not have (dragonkin, magical items, Frostwings ...) have no citation here, so a step that
needs them is refused under tsr-1996 rather than resolved by another edition's rule.
"""

from __future__ import annotations

from ..ruleset import RacialAbility, Ruleset, SpellEffect
from ..sais import ANY, NOT_MODELLED, SAVES, SaiUse, _uses
from ..sais import SAI_USES as SFR_2012_SAIS
from .sfr2012 import _mod

E = "tsr-1996"
MARCH = f"{E}:turn-sequence.first-march"
SAI = f"{E}:special-rules.special-action-icons"
ABILITIES = f"{E}:special-rules.special-abilities"

CITES = {
    # counting results: "each unit's ID icon counts as a number of points of effect equal to its health"
    "id-icons": f"{E}:basic-terms.icons",
    # 004 Monsters, General Rules: "Each normal icon on a monster unit counts as four point of effect"
    "monsters": f"{E}:faq.monsters.general-rules",
    "sai-points": SAI, "sai-application": SAI, "sai-resolution": SAI,
    # modifiers: "apply them in the following order: subtract, divide, multiply, and finally add"
    "modifier-order": f"{E}:dice-modifiers.applying-dice-modifiers",
    # "Whenever a roll is used for more than one effect ... any modifiers to that roll are applied as the
    #  army's owner desires. All modifiers must be applied, however, if possible."
    "combination": f"{E}:dice-modifiers", "avoidance": f"{E}:dice-modifiers", "army-modifiers": f"{E}:dice-modifiers",
    "eighth-face": f"{E}:the-eighth-face",
    "tower": f"{E}:the-eighth-face.special-icons.tower",
    "temple": f"{E}:the-eighth-face.special-icons.temple",
    "standing-stones": f"{E}:the-eighth-face.special-icons.standing-stones",
    # the turn: "A turn consists of a first march, a second march, and a reserve phase"; spells last "until
    # the beginning (end) of your next turn", each by its own text in the spell list
    "turn-sequence": f"{E}:turn-sequence", "turn-begins": f"{E}:spell-list", "turn-ends": f"{E}:spell-list",
    # what happens as a turn begins: "At the beginning of the acting army's turn, the dragon attacks. The
    # attack happens after any spells cast during the previous turn expire" (and the City and Temple icons
    # act "at the beginning of your turn")
    "initial-effects": f"{E}:dragon-rules",
    "march": MARCH, "maneuver": f"{MARCH}.maneuver", "actions": f"{MARCH}.actions", "melee": f"{MARCH}.skirmish",
    "missile": f"{MARCH}.missile", "magic": f"{MARCH}.magic",
    "doubling-magic": f"{MARCH}.terrain-advantage", "terrain-advantage": f"{MARCH}.terrain-advantage",
    "dua-advantage": f"{MARCH}.death-magic", "reserve-magic": f"{MARCH}.reserve-magic",
    # "Each spell is preceded by a magic point cost ... You can even purchase some spells multiple times";
    # "You must announce which spells you are casting and at what targets before you resolve the effects"
    "total-magic": f"{MARCH}.magic", "spell-targets": f"{MARCH}.magic", "spell-cost": f"{MARCH}.magic",
    "spell-color": f"{MARCH}.magic", "multiplicity": f"{MARCH}.magic", "spell-target": f"{MARCH}.magic",
    "spell-duration": f"{E}:spell-list", "spell-effect": f"{E}:spell-list",
    "amazon-magic": f"{E}:faq.amazons.amazonian-magic",
    "reserve-area": f"{E}:basic-terms.reserves",
    # the Damage text ("If a unit takes damage equal to or greater than its health ...") is printed
    # after Second March and Reserves, without a heading of its own in 000
    "damage": f"{E}:turn-sequence.second-march",
    "promotion": f"{E}:the-eighth-face.special-icons.city",
    # City: "To promote a unit, trade it with a unit in your dead unit area. The trade must be with a unit of
    # the same race that's worth 1 health point more"
    "city": f"{E}:the-eighth-face.special-icons.city", "promote": f"{E}:the-eighth-face.special-icons.city",
    "exchanging": f"{E}:the-eighth-face.special-icons.city",
    "sai-targeting": SAI,
}

# 000 Special Abilities, and 004 Amazons ("Maneuvers as Missiles"). 004 Monsters D: "Special racial
# abilities apply to normal monster icons (and special action icons) ... Each monster has the special
# racial abilities of its race."
RACIAL_ABILITIES = (
    # "this race counts maneuver results as saves when rolling for saves in coastland terrain"
    RacialAbility("coral-elf", "Coral Elves", "counts-as", "maneuver", "save", ("coastland",), None,
                  f"{ABILITIES}.coral-elves"),
    # "these elves count their maneuver results as saves when rolling for saves in highland terrain"
    RacialAbility("lava-elf", "Lava Elves", "counts-as", "maneuver", "save", ("highland",), None,
                  f"{ABILITIES}.lava-elves"),
    # "the dwarves double their maneuver results when in highland terrain"
    RacialAbility("dwarf", "Dwarves", "double", "maneuver", None, ("highland",), None, f"{ABILITIES}.dwarves"),
    # "this race doubles its maneuver results when in swampland terrain"
    RacialAbility("goblin", "Goblins", "double", "maneuver", None, ("swampland",), None, f"{ABILITIES}.goblins"),
    # "The Amazons count maneuver icons as missile results when making a missile attack in the flatland";
    # A) "only ... when the acting Amazon army (the firing army) is in Flatland"
    RacialAbility("amazon", "Maneuvers as Missiles", "counts-as", "maneuver", "missile", ("flatland",),
                  ("missile",), f"{E}:faq.amazons.maneuvers-as-missiles"),
)


# 000 Spell List, each entry restating its spell's text ("Multiple castings increase the effect" stacks;
# "Multiple castings affect multiple armies" does not).
SPELL_MODIFIERS = {
    # "Add 1 automatic save result to the target army until the beginning of your next turn"
    "stoneskin": (_mod("add", ["save"], 1, "army", stacks=True),),
    # "Subtract 6 from the maneuver results of the target army ... does affect special racial abilities"
    "transmute-rock-to-mud": (_mod("subtract", ["maneuver"], 6, "army", stacks=True),),
    # "Target army gains 6 automatic maneuver results until the beginning of your next turn"
    "wind-walk": (_mod("add", ["maneuver"], 6, "army", stacks=True),),
    # "Subtract 1 from the results of all armies at the target terrain ... the penalty applies as the army's
    #  owner sees fit"
    "ash-storm": (_mod("subtract", "any", 1, "terrain", stacks=True),),
    # "The target unit's melee hits are doubled ... Multiple castings affect multiple units"
    "burning-hands": (_mod("multiply", ["melee"], 2, "unit"),),
    # "The target army's missile and magic results are halved (rounded down) ... affect multiple armies"
    "dancing-lights": (_mod("divide", ["missile", "magic"], 2, "army"),),
    # "Add 1 automatic save result to the target army until the end of your next turn"
    "watery-double": (_mod("add", ["save"], 1, "army", stacks=True),),
    # "Add 3 automatic save results to the target army ... Multiple castings affect multiple armies"
    "wall-of-ice": (_mod("add", ["save"], 3, "army"),),
    # "Halve (rounding down) all maneuver results at the target terrain, and all missile fire results in,
    #  into, or out of it"
    "wall-of-fog": (_mod("divide", ["maneuver"], 2, "terrain"), _mod("divide", ["missile"], 2, "missile-into-or-out")),
    # "The target army suffers a -1 penalty to all its results ... the penalty applies as the army's owner
    #  sees fit"
    "palsy": (_mod("subtract", "any", 1, "army", stacks=True),),
}

SPELL_EFFECTS = {
    # "Inflict 1 hit on the target army. It may roll saves"
    "hailstorm": SpellEffect("army-damage", 1, "army"),
    # "Choose 1 health-worth of any player's dead units to be buried"
    "dust-to-dust": SpellEffect("bury"),
    # "Immediately move one of your units (any size) from one terrain to another"
    "path": SpellEffect("move"),
    # "Restore 1 health-worth of units from the dead unit area to the casting army"
    "breath-of-life": SpellEffect("resurrect"),
    "spark-of-life": SpellEffect("resurrect"),
    # "Return a dead 1-health unit to the casting army. Multiple castings reanimate multiple 1-health units only"
    "reanimate-dead": SpellEffect("resurrect", max_health=1),
    # "Instantly kills a target unit unless the unit rolls a save or ID icon" (an ID counts as a save in a
    #  save roll: "ID icons count as whatever result you are rolling for")
    "lightning-strike": SpellEffect("unit-damage", 0, "or-killed"),
    # "Inflict 1 hit on a target unit. Target may not roll saves"
    "finger-of-death": SpellEffect("unit-damage", 1, "none"),
    # "Reduce the target terrain die one face ... unless any army at the terrain can immediately roll at
    #  least 8 maneuver results"
    "flash-flood": SpellEffect("terrain-reduction", 8),
}

# 000 Special Action Icons, each entry restating its text. "Spells that multiply, divide, add, or subtract
# ... have no effect on special action icons" and "Special action icons are subject to modification by a
# race's special abilities and the advantages of a terrain's eighth face", as the engine's tally does.
SAI_USES = {
    # "During a missile action, the bullseye targets one unit of the acting player's choice ... Only the
    #  target unit rolls for saves"; "During a dragon attack, the bullseye counts as normal missile damage"
    "bullseye": _uses((("missile",), SaiUse(special="unit-damage-with-saves")),
                      (("avoid-missile",), SaiUse(("missile",)))),
    # "During a magic action, the cantrip counts as normal magic ... When rolling for maneuvers, the cantrip
    #  is negated ... During any other action (including rolling for saves ...), the cantrip can be used to
    #  purchase immediate spells"
    "cantrip": _uses((("magic",), SaiUse(("magic",))),
                     (("melee", "missile", *SAVES, "avoid-melee", "avoid-missile", "avoid-save"),
                      SaiUse(special="cantrip"))),
    # "During a skirmish attack ... the counter acts as a normal melee icon. During a roll for saves, the
    #  counter counts as a normal save. During a roll for saves in melee ... both a save and an immediate hit
    #  upon the attacking army, which may not roll saves against it"
    "counter": SFR_2012_SAIS["counter"],     # the same uses as 002's Counter
    # "This icon provides either maneuvers or saves (not both), as needed"
    "fly": _uses((("maneuver", "counter-maneuver", "avoid-maneuver", *SAVES, "avoid-save"),
                  SaiUse(("maneuver", "save")))),
    # "During a melee attack, the rend counts as normal melee hits. The rending unit may be rolled again ...
    #  During maneuver, rends count as maneuvers but are not rolled again"
    "rend": SFR_2012_SAIS["rend"],           # the same uses as 002's Rend
    # "During a skirmish melee attack, no saves ... can stop these hits ... During a dragon attack or a
    #  charge, smites count as normal melee damage"
    "smite": SFR_2012_SAIS["smite"],         # the same uses as 002's Smite
    # "This icon usually counts as either a maneuver or melee hit as needed" (a charge, where it is both,
    #  is not modelled)
    "trample": _uses((ANY, SaiUse(("maneuver", "melee")))),
    # 004 monster SAIs are rulings on the Kicker Packs' icons: not modelled under tsr-1996 yet
    **{sai: {kind: NOT_MODELLED for kind in ANY} for sai in ("double-strike", "stone", "swoop", "kick")},
}

# "The rending unit may be rolled again immediately ... During maneuver, rends ... are not rolled again"
SAI_REROLLS = {"rend": ("melee", "avoid-melee")}

TSR_1996 = Ruleset(
    edition=E,
    # 000 Applying Dice Modifiers: "Modifiers that subtract, Modifiers that divide, Modifiers that multiply,
    # and finally Modifiers that add" (no racial step: racial abilities apply with the multipliers)
    modifier_steps=("subtract", "divide", "multiply", "add"),
    racial_in="multiply",
    # 000 The Eighth Face: "When rolling for saves, all save results are doubled; When rolling for
    # maneuvers, all maneuver results are doubled"
    eighth_face_doubles=("save", "maneuver"),
    # 004 Monsters C: "Each normal icon on a monster unit counts as four point of effect"
    monster_icon_value=4,
    racial=RACIAL_ABILITIES,
    spell_modifiers=SPELL_MODIFIERS,
    cites=CITES,
    # 000 Magic: "Coral elves cast blue and green magic; lava elves cast red and black magic; dwarves cast red
    # and gold magic; and goblins cast black and gold magic"; 004 Amazonian Magic: "the colors of the terrain
    # they're in"
    race_colors={"coral-elf": ("blue", "green"), "lava-elf": ("red", "black"), "dwarf": ("red", "gold"),
                 "goblin": ("black", "gold"), "amazon": ()},
    spell_effects=SPELL_EFFECTS,
    # "Until the beginning of your next turn, all units killed in the target army go to your reserve rather
    #  than to the dead unit area"
    casualties_go={"open-grave": "reserve"},
    sai_uses=SAI_USES,
    sai_rerolls=SAI_REROLLS,
    # 000 has no Initial Effects phase: what begins its turn is not replayed yet
    initial_effects=False,
    # 000 Death Magic: black ID points double only by burying the dead (engine.actions.death_magic)
    dua_doubling=False,
    death_magic=True,
    # 000 Reserve Magic limits the targets, not the spells (engine.actions.targets)
    reserve_list=False,
    stones_held_to_double=True,
    one_target_sais=("bullseye",),
)
