"""tsr-1996 (documents 000 and 004): the TSR revised rules here, the FAQ's part four (Amazons, monsters) and the
SAIs of a charge in engine.editions.tsr1996_faq.

Only what differs from sfr-2012 is policy here; everything else is data restating 000's and 004's text.
Rules 000 does not have (dragonkin, magical items, Frostwings ...) have no citation here, so a step that
needs them is refused under tsr-1996 rather than resolved by another edition's rule.
"""

from __future__ import annotations

from ..ruleset import RacialAbility, Ruleset, SpellEffect
from ..sais import ANY, NOT_MODELLED, SAVES, SaiUse, sai_use_table
from ..sais import SAI_USES as SFR_2012_SAIS
from .sfr2012 import spell_modifier

E = "tsr-1996"
MARCH = f"{E}:turn-sequence.first-march"
SAI = f"{E}:special-rules.special-action-icons"
ABILITIES = f"{E}:special-rules.special-abilities"
SAI_GENERAL = f"{E}:faq.monster-special-action-icons.general-rules"

CITES = {
    # 000 Cantrip: "When rolling for maneuvers, the cantrip is negated and can't be used for anything" (the refusal of
    # a purchase in a maneuver cites 000's own section, not 002 Unique Resolution: engine.actions.maneuver, issue 20)
    "cantrip-maneuver": f"{SAI}.cantrip",
    # "Army: All of your units at a single terrain"
    "army-term": f"{E}:basic-terms.army",
    # "Your reserve army is kept to your right" (000 Reserves, parsed into the Second March section): one reserve army
    "reserve-army": f"{E}:turn-sequence.second-march",
    # counting results: "each unit's ID icon counts as a number of points of effect equal to its health"
    "id-icons": f"{E}:basic-terms.icons",
    # 004 Monsters, General Rules: "Each normal icon on a monster unit counts as four point of effect"
    "monsters": f"{E}:faq.monsters.general-rules",
    # 004 General Rules say which roll a monster SAI acts in (A "during melee", B "during missile": "the effect does
    # NOT occur during a save roll") and whom it targets (C "the effect MUST be targeted on the enemy army"): the
    # passages the engine's readings of joined rolls and targets are read with, beside 000's SAI section
    "sai-points": SAI, "sai-application": SAI_GENERAL, "sai-resolution": SAI,
    # modifiers: "apply them in the following order: subtract, divide, multiply, and finally add"
    "modifier-order": f"{E}:dice-modifiers.applying-dice-modifiers",
    # "Whenever a roll is used for more than one effect ... any modifiers to that roll are applied as the
    #  army's owner desires. All modifiers must be applied, however, if possible."
    "combination": f"{E}:dice-modifiers", "avoidance": f"{E}:dice-modifiers", "army-modifiers": f"{E}:dice-modifiers",
    "eighth-face": f"{E}:the-eighth-face",
    # 000 Path: "If the unit(s) move to another terrain where there are no friendly units, they form a new army"
    "army-formed": f"{E}:spell-list.earth-gold",
    # "The first player to capture two terrains immediately wins the game" (the only win 000 names: no
    # "last-units-win", engine.capture)
    "winning": f"{E}:the-object-of-the-game",
    "tower": f"{E}:the-eighth-face.special-icons.tower",
    "temple": f"{E}:the-eighth-face.special-icons.temple",
    "standing-stones": f"{E}:the-eighth-face.special-icons.standing-stones",
    # the turn: "A turn consists of a first march, a second march, and a reserve phase"; spells last "until
    # the beginning (end) of your next turn", each by its own text in the spell list
    "turn-sequence": f"{E}:turn-sequence", "dragons-attack-first": f"{E}:dragon-rules",
    # Determine Order of Play: "the one with the second highest total becomes the second player, and so on"
    "turn-order": f"{E}:playing-the-game.determine-order-of-play",
    # Dice Modifiers: "Modifiers to an army's roll ... don't apply to an individual unit when it must roll
    # separately" (engine.modifiers)
    "individual-modifiers": f"{E}:dice-modifiers",
    # Magic: "If all your units are killed ... any spells you cast are immediately negated" (engine.after_step)
    "spells-end-with-caster": f"{E}:turn-sequence.first-march.magic",
    "turn-begins": f"{E}:spell-list", "turn-ends": f"{E}:spell-list",
    # what happens as a turn begins: "At the beginning of the acting army's turn, the dragon attacks. The
    # attack happens after any spells cast during the previous turn expire" (and the City and Temple icons
    # act "at the beginning of your turn")
    "initial-effects": f"{E}:dragon-rules",
    # "On your turn, choose one of your armies to act with" (000 First March): only the marching player's armies
    "march-term": MARCH,
    "march": MARCH, "maneuver": f"{MARCH}.maneuver", "actions": f"{MARCH}.actions", "melee": f"{MARCH}.skirmish",
    "missile": f"{MARCH}.missile", "magic": f"{MARCH}.magic",
    "magic-split": f"{MARCH}.terrain-advantage",
    "doubling-magic": f"{MARCH}.terrain-advantage", "terrain-advantage": f"{MARCH}.terrain-advantage",
    "dua-advantage": f"{MARCH}.death-magic", "reserve-magic": f"{MARCH}.reserve-magic",
    # "Each spell is preceded by a magic point cost ... You can even purchase some spells multiple times";
    # "You must announce which spells you are casting and at what targets before you resolve the effects"
    "total-magic": f"{MARCH}.magic", "spell-targets": f"{MARCH}.magic", "spell-cost": f"{MARCH}.magic",
    "spell-color": f"{MARCH}.magic", "multiplicity": f"{MARCH}.magic", "spell-target": f"{MARCH}.magic",
    "spell-duration": f"{E}:spell-list", "spell-effect": f"{E}:spell-list",
    # the words on spells and units moving away are in the magic action's section (engine.expiry, engine.moves)
    "army-emptied": f"{E}:turn-sequence.first-march.magic",
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
    "sai-targeting": SAI_GENERAL,
    # 000 Reserves is printed within Second March (no section of its own): "After finishing both of your marches,
    # you can move units into and out of your reserves"; Reinforce: "move any or all of them to any home terrain
    # or the frontier"; Retreat: "move any or all of your units from the terrain dice they occupy and place them
    # in reserve"
    "reserve-movement": f"{E}:turn-sequence.second-march", "reinforce": f"{E}:turn-sequence.second-march",
    "retreat": f"{E}:turn-sequence.second-march",
    # "On your turn, choose one of your armies to act with ... This is your First March" (a turn's phase, so a
    # scenario can begin at it and the marches are tracked); "A different army than the one used in the First
    # March must be used in the Second March"
    "first-march": MARCH,
    # only the player whose turn it is marches: "On your turn, choose one of your armies to act with"
    "march-term": MARCH,
    "second-march": f"{E}:turn-sequence.second-march",
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
    "stoneskin": (spell_modifier("add", ["save"], 1, "army", stacks=True),),
    # "Subtract 6 from the maneuver results of the target army ... does affect special racial abilities"
    "transmute-rock-to-mud": (spell_modifier("subtract", ["maneuver"], 6, "army", stacks=True),),
    # "Target army gains 6 automatic maneuver results until the beginning of your next turn"
    "wind-walk": (spell_modifier("add", ["maneuver"], 6, "army", stacks=True),),
    # "Subtract 1 from the results of all armies at the target terrain ... the penalty applies as the army's
    #  owner sees fit"
    "ash-storm": (spell_modifier("subtract", "any", 1, "terrain", stacks=True),),
    # "The target unit's melee hits are doubled ... Multiple castings affect multiple units"
    "burning-hands": (spell_modifier("multiply", ["melee"], 2, "unit"),),
    # "The target army's missile and magic results are halved (rounded down) ... affect multiple armies"
    "dancing-lights": (spell_modifier("divide", ["missile", "magic"], 2, "army"),),
    # "Add 1 automatic save result to the target army until the end of your next turn"
    "watery-double": (spell_modifier("add", ["save"], 1, "army", stacks=True),),
    # "Add 3 automatic save results to the target army ... Multiple castings affect multiple armies"
    "wall-of-ice": (spell_modifier("add", ["save"], 3, "army"),),
    # "Halve (rounding down) all maneuver results at the target terrain, and all missile fire results in,
    #  into, or out of it"
    "wall-of-fog": (spell_modifier("divide", ["maneuver"], 2, "terrain"), spell_modifier("divide", ["missile"], 2, "missile-into-or-out")),
    # "The target army suffers a -1 penalty to all its results ... the penalty applies as the army's owner
    #  sees fit"
    "palsy": (spell_modifier("subtract", "any", 1, "army", stacks=True),),
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
    # "Send any gold (blue, red, green, black) dragon to any terrain, regardless of ownership or location": a
    # dragon of the spell's color, from any player's dead unit area (where 000's dragons wait) or any terrain
    **{f"summon-{color}-dragon": SpellEffect("summon-dragon", dragons="of-color", from_terrain=True)
       for color in ("gold", "blue", "red", "green", "black")},
}

# 000 Special Action Icons, each entry restating its text. "Spells that multiply, divide, add, or subtract
# ... have no effect on special action icons" and "Special action icons are subject to modification by a
# race's special abilities and the advantages of a terrain's eighth face", as the engine's tally does.
SAI_USES = {
    # "During a missile action, the bullseye targets one unit of the acting player's choice ... Only the
    #  target unit rolls for saves"; "During a dragon attack, the bullseye counts as normal missile damage"
    "bullseye": sai_use_table((("missile",), SaiUse(special="unit-damage-with-saves")),
                      (("avoid-missile",), SaiUse(("missile",)))),
    # "During a magic action, the cantrip counts as normal magic ... When rolling for maneuvers, the cantrip
    #  is negated ... During any other action (including rolling for saves ...), the cantrip can be used to
    #  purchase immediate spells"
    "cantrip": sai_use_table((("magic",), SaiUse(("magic",))),
                     (("melee", "missile", *SAVES, "avoid-melee", "avoid-missile", "avoid-save"),
                      SaiUse(special="cantrip"))),
    # "During a skirmish attack ... the counter acts as a normal melee icon. During a roll for saves, the
    #  counter counts as a normal save. During a roll for saves in melee ... both a save and an immediate hit
    #  upon the attacking army, which may not roll saves against it"
    "counter": SFR_2012_SAIS["counter"],     # the same uses as 002's Counter
    # "This icon provides either maneuvers or saves (not both), as needed"
    "fly": sai_use_table((("maneuver", "counter-maneuver", "avoid-maneuver", *SAVES, "avoid-save"),
                  SaiUse(("maneuver", "save")))),
    # "During a melee attack, the rend counts as normal melee hits. The rending unit may be rolled again ...
    #  During maneuver, rends count as maneuvers but are not rolled again"
    "rend": SFR_2012_SAIS["rend"],           # the same uses as 002's Rend
    # "During a skirmish melee attack, no saves ... can stop these hits ... During a dragon attack or a
    #  charge, smites count as normal melee damage"
    "smite": SFR_2012_SAIS["smite"],         # the same uses as 002's Smite
    # "This icon usually counts as either a maneuver or melee hit as needed" (a charge, where it is both:
    #  engine.editions.tsr1996_faq)
    "trample": sai_use_table((ANY, SaiUse(("maneuver", "melee")))),
    # 004 monster SAIs are rulings on the Kicker Packs' icons: placeholders here, their 004 uses are set in
    # engine.editions.tsr1996_faq
    **{sai: {kind: NOT_MODELLED for kind in ANY} for sai in ("double-strike", "stone", "swoop", "kick")},
}

# "The rending unit may be rolled again immediately ... During maneuver, rends ... are not rolled again"
SAI_REROLLS = {"rend": ("melee", "avoid-melee")}

# 000's own words for the rules the trace states (engine.ruleset.Ruleset.quote)
QUOTES = {
    # 000 Cantrip (engine.actions.maneuver)
    "cantrip-maneuver": "When rolling for maneuvers, the cantrip is negated and can't be used for anything",
    # 000 Magic (engine.actions.magic: a split of fewer points than the roll gives)
    "spell-cost-unspent": "you aren't required to spend all your points. (Any extra points not used disappear",
    # 000 Missile (engine.actions.combat)
    "missile-range": "Missile attacks can target enemy armies at the same terrain, or can reach from any home terrain "
                     "to the frontier, or from the frontier to any home terrain",
    # 000 Basic Terms
    "army-term": "all of your units at a single terrain",
    # 000 Reserves
    "reserve-army": "Your reserve army is kept to your right",
    # Determine Order of Play (engine.actions.turn)
    "turn-order": "The player who rolls the most points of maneuver results becomes the first player, the one with "
                  "the second highest total becomes the second player, and so on",
    # Dice Modifiers (engine.modifiers: an army's or terrain's spell in a unit's own roll)
    "individual-modifiers": "Modifiers to an army's roll (such as the penalty for an Ash Storm or the bonus from a "
                            "Watery Double spell) don't apply to an individual unit when it must roll separately",
    # Magic; Reserve Magic (engine.actions.targets: a damaging spell at one's own army or unit)
    "own-damage:spell-target": "you can't cast magic that inflicts damage on one of your own armies",
    "own-damage:reserve-magic": "Spells that inflict damage on friendly units or armies cannot be cast",
    # Magic (engine.after_step.fallen_casters)
    "spells-end-with-caster": "If all your units are killed—if you have no units left at terrains or in reserve—any "
                              "spells you cast are immediately negated",
    # Dragon Rules (engine.marches: no march before the dragons at the army's terrain attack)
    "dragons-attack-first": "At the beginning of the acting army's turn, the dragon attacks ... before the army's "
                            "owning player performs any actions or declares his First March",
    # The Eighth Face: every way the face changes (engine.faces)
    "eighth-face-left": "An army loses control of a terrain if that terrain is ever moved from its eighth face",
    # 004 Monster Special Action Icons, General Rules C: an offensive SAI's targets (engine.actions.select_none)
    "select-none": "the effect MUST be targeted on the enemy army which has already been targeted in the melee or "
                   "missile action",
    # Path: units moved where the player has none form an army (engine.moves.moved_army_at)
    "moved-new-army": "If the unit(s) move to another terrain where there are no friendly units, they form a new army",
    # Special Action Icons, Cantrip: a unit's own roll against an SAI (engine.actions.fight.Fight.roll_unit)
    "cantrip-own-roll": "During any other action (including rolling for saves or during a dragon attack), the "
                        "cantrip can be used to purchase immediate spells",
    # Dragon Rules: what begins the acting army's turn
    "turn-begins-with": "At the beginning of the acting army's turn, the dragon attacks. The attack happens after "
                        "any spells cast during the previous turn expire, but before the army's owning player "
                        "performs any actions",
    # the spell list's durations
    "turn-ends": "until the end of your next turn",
    "turn-begins": "until the beginning of your next turn",
    "city": "at the beginning of your turn you can recruit a 1-health unit or promote a unit in the controlling army",
    "temple": "you may force another player to bury one of his dead units",
    "temple-chooses": "The targeted player chooses which of his units to bury",
    "recruit": "To recruit a 1-health unit, take a common unit from your dead unit area and place it in the "
               "controlling army",
    "recruit-none": "If you have no common units in your dead unit area, you can't recruit",
    "promote": "To promote a unit, trade it with a unit in your dead unit area. The trade must be with a unit of "
               "the same race that's worth 1 health point more than the \"live\" unit",
    # Dragon Slaying: "If an army slays a dragon, it may promote as many units as possible"; Treasure
    "promote-none-dragon slain": "If an army slays a dragon, it may promote as many units as possible",
    "promote-none-treasure": "After the attack is resolved, one unit in the target army may be promoted",
    "promote-none-City": "The trade must be with a unit of the same race that's worth 1 health point more than the "
                    "\"live\" unit",
    # Maneuver: "If the number of maneuver icons rolled by the acting army equals or exceeds that of the highest
    # counter-maneuvering army, the acting army's maneuver succeeds"
    "maneuver-ties": "If the number of maneuver icons rolled by the acting army equals or exceeds that of the "
                     "highest counter-maneuvering army, the acting army's maneuver succeeds",
    # Skirmish: "If damage is inflicted, the target army rolls for saves"; Missile: "If any damage is inflicted,
    # the target army rolls for saves"
    "melee-saves": "If damage is inflicted, the target army rolls for saves",
    "missile-saves": "If any damage is inflicted, the target army rolls for saves",
    # Special Abilities
    "racial-dwarf": "the dwarves double their maneuver results when in highland terrain",
    "racial-goblin": "this race doubles its maneuver results when in swampland terrain",
    # Breath of Life, Spark of Life: "Restore 1 health-worth of units from the dead unit area to the casting
    # army"; Reanimate Dead: "Return a dead 1-health unit to the casting army"
    "resurrect-up-to-any": "Restore 1 health-worth of units from the dead unit area to the casting army",
    "resurrect-up-to-1": "Return a dead 1-health unit to the casting army",
    # Dust to Dust: "Choose 1 health-worth of any player's dead units to be buried (removed from the game)"
    "bury": "Choose 1 health-worth of any player's dead units to be buried (removed from the game)",
    # The Eighth Face; Damage
    "eighth-face": "When rolling for saves, all save results are doubled; When rolling for maneuvers, all maneuver "
                   "results are doubled",
    "melee-damage": "Each point of saves rolled negates one point of damage",
    "missile-damage": "Each point of saves rolled negates one point of damage",
    # Dragon Rules: Dragon vs. Dragon; Breath; Blue-Paralysis; Green-Frost
    # Flash Flood: who may roll against it, in 000's words (002's are "a maneuver avoidance roll")
    "terrain-reduction-roll": "unless any army at the terrain can immediately roll at least 8 maneuver results",
    # Dragon Rules: a dragon with no dragon of another color beside it attacks the army
    "dragon-attacks-army": "whenever a single dragon and an army are at the same terrain, a dragon attack occurs ... "
                           "If multiple dragons of the same color are in the same terrain, they attack the acting "
                           "player's army at the same time",
    "dragon-vs-dragon": "When dragons of different colors are in the same terrain, they attack one another rather "
                        "than the acting player's army",
    "breath-on-dragon": "Against another dragon, dragon breath negates the automatic 5 saves until the end of the "
                        "acting player's next turn",
    "breath-tsr-blue-paralysis": "The target army can only roll for saves until the beginning of the owning "
                                 "player's next turn",
    "breath-tsr-green-frost": "All rolls made by the target army (or any individual units in that army) are halved "
                              "(rounded down) until the beginning of the owning player's next turn",
    # 004 Amazons in Reserves A; Confuse: "choose four health of his units and force them to reroll"
    "reserve-no-magic": "Amazons CAN NOT cast magic from reserves",
    "confuse-reroll": "choose four health of his units and force them to reroll",
    # Reserves: "Your reserve army is kept to your right"
    "reserve-army": "Your reserve army is kept to your right",
    # Reserves
    "reserve-movement": "After finishing both of your marches, you can move units into and out of your reserves",
    # Magic: "if you move away one or more units from an army that had a spell cast on that army or that terrain,
    # the spell no longer affects those units" (000 has no other word on spells and moving units)
    "unit-moves": "Magic: if you move away one or more units from an army that had a spell cast on that army or "
                  "that terrain, the spell no longer affects those units",
    "army-emptied": "Magic: \"if you move away one or more units from an army that had a spell cast on that army or "
                    "that terrain, the spell no longer affects those units\"; with every unit gone, it affects none",
}

TSR_1996 = Ruleset(
    edition=E,
    # 000 Applying Dice Modifiers: "Modifiers that subtract, Modifiers that divide, Modifiers that multiply,
    # and finally Modifiers that add" (no racial step: racial abilities apply with the multipliers)
    modifier_steps=("subtract", "divide", "multiply", "add"),
    racial_in="multiply",
    floor_at_end=True,      # 000 Applying Dice Modifiers: "Results can never be negative at the end"
    # "Results can never be negative at the end": a penalty or a halving on saves (missiles) reaches the maneuvers
    # the Coral and Lava Elves (Amazons) count as saves (missiles) as well (engine.modifiers.settle_owed)
    converted_owe=True,
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
    # 000 Open Grave: "all units killed in the target army go to your reserve rather than to the dead unit area" --
    # a unit a Finger of Death or Lightning Strike kills too (002's reads "any army-targeting effect")
    grave_takes_every_kill=True,
    sai_uses=SAI_USES,
    sai_rerolls=SAI_REROLLS,
    # 000 has no Initial Effects phase: its turn begins with the City and Temple (turn_begins_with) and the
    # dragon attacks (a dragon_attack step each)
    initial_effects=False,
    # 000 Death Magic: black ID points double only by burying the dead (engine.actions.death_magic)
    dua_doubling=False,
    death_magic=True,
    # 000 Reserve Magic limits the targets, not the spells (engine.actions.targets)
    reserve_list=False,
    stones_held_to_double=True,
    one_target_sais=("bullseye",),
    # 000 Set-up: "Dragons are set to your left, in what will be your dead unit area"; Wing: "Return it to the
    # owner's dead unit area"
    dragons_wait="dead unit area",
    # City: "at the beginning of your turn you can recruit a 1-health unit or promote a unit in the controlling
    # army"; Temple: "at the beginning of your turn, you may force another player to bury one of his dead units"
    turn_begins_with=("city", "temple"),
    quotes=QUOTES,
)

# --- 000 Playing the Game: the set-up (issue 7, part 2) --------------------------------------------

from ..ruleset import SetupRules  # noqa: E402  (appended section: the set-up rules as data)

PLAYING = f"{E}:playing-the-game"
SETUP = SetupRules(
    # "You must bring one dragon ... for every 25 health points in your forces you need to bring another dragon"
    dragons="one-per-25",
    # "For each dragon you fail to bring to the battle, your starting forces are reduced by 3 health points"
    missing_dragon_cost=3,
    # "You must put at least one unit in each army"
    army_minimum="unit",
    # 000 has no cap on magic users
    magic_cap=False,
    # Place Armies: "no more than three armies belonging to different players can occupy a terrain die"
    players_per_terrain=3,
    # Place Armies: "each player places his home army at his home terrain. Then, going in order, each player places
    # his horde at the home terrain of another player and his campaign army at any other terrain on the table"
    home_and_horde=True,
    # "Reroll any results of 8" (and only 8s: 000 has no seven-to-six rule)
    seven_to_six=False,
    cites={"force": f"{PLAYING}.decide-battle-size", "dragons": f"{PLAYING}.decide-battle-size",
           "armies": f"{PLAYING}.assemble-armies", "order": f"{PLAYING}.determine-order-of-play",
           "distances": f"{PLAYING}.determine-starting-distances", "white": f"{PLAYING}.decide-battle-size",
           "placing": f"{PLAYING}.place-armies",
           "battlefield": f"{PLAYING}.set-the-battlefield",
           # the order roll's SAIs: 000's "no special abilities apply" read with 003's "ignore all effects of SAIs,
           # other than maneuver results they generate" (a reading, traced by engine.setup as one)
           "order-sais-read-with": "sfr-v4:multiplayer.multiplayer-games"},
    quotes={
        "dragons": "You must bring one dragon (of any color) to the battle, regardless of how small a battle you are "
                   "playing. In addition, for every 25 health points in your forces you need to bring another dragon",
        "missing-dragon": "For each dragon you fail to bring to the battle, your starting forces are reduced by 3 "
                          "health points",
        "white": "000 has no white dragons: every dragon counts one",
        "reserve-start": "It's possible in a game with four or more players that the player at the end of the turn "
                         "order may have no legal spot to place one of his armies. If this happens, that player must "
                         "start with that army in reserve",
        "battlefield": "Choose one of your terrain dice to be your home terrain ... Choose a second terrain die ... "
                       "and set it forward as a proposed frontier terrain ... The other terrain dice aren't used in "
                       "this battle",
        "home-and-horde": "each player places his home army at his home terrain. Then, going in order, each player "
                          "places his horde at the home terrain of another player and his campaign army at any other "
                          "terrain on the table",
        "placing": "No player can place more than one of his armies at a particular terrain die, and ... no more "
                   "than three armies belonging to different players can occupy a terrain die",
        "armies": "No more than half the total number of health points (rounded down) of your forces can be placed "
                  "in a single army ... You must put at least one unit in each army",
        "order": "roll your horde army and add up all the maneuver and ID icon results ... The player who rolls the "
                 "most points of maneuver results becomes the first player ... In a tie, tied players reroll ... The "
                 "first player also gets to choose which of the proposed terrain dice becomes the frontier",
        # "(The army isn't at any terrain yet, so no special abilities apply.)": an SAI counts only for the
        # maneuver results it makes, as 003 says outright for sfr-v4
        "order-sais": "the army isn't at any terrain yet, so no special abilities apply: only the maneuver results "
                      "an SAI generates count",
        "distances": "Reroll any results of 8 (a 7 stays a 7)",
    },
)
TSR_1996 = TSR_1996.evolve(setup=SETUP)

# --- 000 Dragon Rules (issue 7, part 2) ------------------------------------------------------------

from ..ruleset import Breath, DragonFace  # noqa: E402  (appended section: the dragon table as data)

DRAGON_RULES = f"{E}:dragon-rules"
# 000 Dragon Rules, the dragon action icons, each restating its text (each cites its own section)
DRAGON_FACES = {icon: DragonFace(cite=f"{DRAGON_RULES}.{icon}", **effect) for icon, effect in {
    # "The dragon's 5 automatic saves don't count during this attack. In other words, 5 points of damage will
    #  slay the dragon this turn"
    "belly": {"no_saves": True},
    # "Against armies, dragon breath effects are based on the dragon's color"
    "breath": {"breath": True},
    # "A dragon's claws inflict 5 points of damage on an army"; "jaws inflict 10 points"
    "claws": {"damage": 5}, "jaws": {"damage": 10},
    # "The dragon's tail inflicts 3 points of damage on an army. Furthermore, the dragon immediately rolls again"
    "tail": {"damage": 3, "roll_again": True},
    # "After the attack is resolved, one unit in the target army may be promoted"
    "treasure": {"promotes": 1},
    # "After the attack is resolved, the dragon flies away. (Return it to the owner's dead unit area.)": no damage
    "wing": {"flies_away": True},
}.items()}
BREATHS = {
    # "Five units from the target army are killed unless they can generate save results. Each unit must be rolled
    #  individually ... The army's owner chooses which units are targeted"
    "gold": Breath(kills=5, units=True, save=True, cite=f"{DRAGON_RULES}.gold-turn-to-stone"),
    # "The target army can only roll for saves until the beginning of the owning player's next turn"
    "blue": Breath(kills=0, effect="tsr-blue-paralysis", cite=f"{DRAGON_RULES}.blue-paralysis"),
    # "Five health-worth of units from the target army are killed and buried. The army's owner chooses"
    "red": Breath(kills=5, buries=True, cite=f"{DRAGON_RULES}.red-flame"),
    # "All rolls made by the target army (or any individual units in that army) are halved (rounded down) until
    #  the beginning of the owning player's next turn"
    "green": Breath(kills=0, effect="tsr-green-frost", cite=f"{DRAGON_RULES}.green-frost"),
    # "All units in the target army are rolled; any that roll ID icons are killed and buried"
    "black": Breath(kills=0, ids_kill=True, cite=f"{DRAGON_RULES}.black-disease"),
}
TSR_1996 = TSR_1996.evolve(
    dragon_faces=DRAGON_FACES, breaths=BREATHS, dragon_health=5, dragon_saves=5, dragon_scale={},
    breath_effects={
        "tsr-blue-paralysis": (f"{DRAGON_RULES}.blue-paralysis", "save-only"),
        "tsr-green-frost": (f"{DRAGON_RULES}.green-frost", ""),
        # "Against another dragon, dragon breath negates the automatic 5 saves until the end of the acting
        #  player's next turn"
        "dragon-breath": (f"{DRAGON_RULES}.breath", "no-saves"),
    },
    dragon_breath_effect="dragon-breath",
    spell_modifiers={**TSR_1996.spell_modifiers,
                     "tsr-green-frost": (spell_modifier("divide", ["maneuver", "melee", "missile", "save", "magic"], 2,
                                              "army", stacks=True),)},
    # "Dragons are set to your left, in what will be your dead unit area"; Wing: "Return it to the owner's dead
    # unit area"
    dragon_rest="dead unit area",
    # Treasure: "After the attack is resolved, one unit in the target army may be promoted"
    treasure_after_attack=True,
    # Dragon Slaying: "The army's owner chooses either melee or missile results (whichever are higher) to inflict on
    # the dragon"; Dragon vs. Dragon: "An army attacked by multiple dragons may count its melee results against one
    # and its missile results against another" (a reading, traced: engine.actions.slaying)
    slay_one_per_type=True,
    cites={**TSR_1996.cites,
           # "At the beginning of the acting army's turn, the dragon attacks"; "The owner of the dragon rolls the
           #  dragon die"
           "dragon-attack": DRAGON_RULES, "dragon-roll": DRAGON_RULES, "dragons": f"{DRAGON_RULES}.tail",
           "dragon-breath": f"{DRAGON_RULES}.breath", "dragon-breaths": f"{DRAGON_RULES}.breath",
           "dragon-treasures": f"{DRAGON_RULES}.treasure", "dragon-wings": f"{DRAGON_RULES}.wing",
           # "The army's owner chooses either melee or missile results (whichever are higher) to inflict on the
           #  dragon, and all saves defend against damage ... ID icons can be used as melee, missile, or save
           #  results"; "If an army slays a dragon, it may promote as many units as possible"
           "dragon-response": f"{DRAGON_RULES}.dragon-slaying", "dragon-slaying": f"{DRAGON_RULES}.dragon-slaying",
           "dragon-vs-dragon": f"{DRAGON_RULES}.dragon-vs-dragon"},
)

# --- 000 First March, Charge (issue 7, part 2) ---------------------------------------------------------

# "Instead of skirmishing, you may declare a charge" (engine.actions.charge)
TSR_1996 = TSR_1996.evolve(cites={**TSR_1996.cites, "charge": f"{MARCH}.charge"})

# --- 000 Option: Routing (issue 7, part 2) ---------------------------------------------------------

# "An army attacked by an enemy army at the same terrain may be forced to run away, or be routed"
# (engine.actions.routing; in play where the scenario says routing: true)
TSR_1996 = TSR_1996.evolve(cites={**TSR_1996.cites, "routing": f"{E}:turn-sequence.option-routing"})
