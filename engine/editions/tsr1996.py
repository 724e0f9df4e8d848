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
    # 000 Reserves is printed within Second March (no section of its own): "After finishing both of your marches,
    # you can move units into and out of your reserves"; Reinforce: "move any or all of them to any home terrain
    # or the frontier"; Retreat: "move any or all of your units from the terrain dice they occupy and place them
    # in reserve"
    "reserve-movement": f"{E}:turn-sequence.second-march", "reinforce": f"{E}:turn-sequence.second-march",
    "retreat": f"{E}:turn-sequence.second-march",
    # "A different army than the one used in the First March must be used in the Second March"
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

# 000's own words for the rules the trace states (engine.ruleset.Ruleset.quote)
QUOTES = {
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
    # The Eighth Face; Damage
    "eighth-face": "When rolling for saves, all save results are doubled; When rolling for maneuvers, all maneuver "
                   "results are doubled",
    "melee-damage": "Each point of saves rolled negates one point of damage",
    "missile-damage": "Each point of saves rolled negates one point of damage",
    # Dragon Rules: Dragon vs. Dragon; Breath; Blue-Paralysis; Green-Frost
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
    # "Reroll any results of 8" (and only 8s: 000 has no seven-to-six rule)
    seven_to_six=False,
    cites={"force": f"{PLAYING}.decide-battle-size", "dragons": f"{PLAYING}.decide-battle-size",
           "armies": f"{PLAYING}.assemble-armies", "order": f"{PLAYING}.determine-order-of-play",
           "distances": f"{PLAYING}.determine-starting-distances", "white": f"{PLAYING}.decide-battle-size",
           # the order roll's SAIs: 000's "no special abilities apply" read with 003's "ignore all effects of SAIs,
           # other than maneuver results they generate" (a reading, traced by engine.setup as one)
           "order-sais-read-with": "sfr-v4:multiplayer.multiplayer-games"},
    quotes={
        "dragons": "You must bring one dragon (of any color) to the battle, regardless of how small a battle you are "
                   "playing. In addition, for every 25 health points in your forces you need to bring another dragon",
        "missing-dragon": "For each dragon you fail to bring to the battle, your starting forces are reduced by 3 "
                          "health points",
        "white": "000 has no white dragons: every dragon counts one",
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
                     "tsr-green-frost": (_mod("divide", ["maneuver", "melee", "missile", "save", "magic"], 2,
                                              "army", stacks=True),)},
    # "Dragons are set to your left, in what will be your dead unit area"; Wing: "Return it to the owner's dead
    # unit area"
    dragon_rest="dead unit area",
    # Treasure: "After the attack is resolved, one unit in the target army may be promoted"
    treasure_after_attack=True,
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

# --- 004 Monster Special Action Icons in a dragon attack (issue 7, part 2) ------------------------------

from ..sais import AVOIDANCE, DRAGON, NO_EFFECT  # noqa: E402  (appended section: the FAQ's dragon-attack rulings as data)


def _in_dragon_attack(sai: str, use: SaiUse) -> dict[str, SaiUse]:
    """The SAI's other uses as they were (not modelled unless an entry above gives them) and its 004 ruling for
    a dragon attack."""
    return {**SAI_USES.get(sai, {kind: NOT_MODELLED for kind in ANY}), **{kind: use for kind in DRAGON}}


# Poison: "During melee, choose four health of opposing units to save or be killed. Any that are killed must save
# again or be buried"; Smother: "During melee, your choice of four health worth of opposing units must each roll a
# maneuver result or be killed": 002's text with a monster's four points (002's handlers, engine.sai_attacks)
SAI_USES.update({sai: {kind: NOT_MODELLED for kind in ANY} | SFR_2012_SAIS[sai] for sai in ("poison", "smother")})
# Kick: "During melee, inflict four damage on a unit of your choice ... The target unit may roll saves ... Kick
# does not count as maneuvers" (002's melee strike; 004 General Rules A: not during a save roll); Stone: "During
# missile, inflict four damage on the target army, with no saves possible ... removed before an opponent rolls for
# saves" (002's missile use)
SAI_USES.update({sai: {kind: NOT_MODELLED for kind in ANY} | {kind: SFR_2012_SAIS[sai][kind]}
                 for sai, kind in (("kick", "melee"), ("stone", "missile"))})
# Confuse: "During a melee or missile combat, after your opponent rolls, choose four health of his units and force
# them to reroll"; Roar: "During melee, choose four health of opposing units to immediately flee to their reserves
# ... There is no save against the Roar's effect" (002's text, and handlers, with a monster's four points)
SAI_USES.update({sai: {kind: NOT_MODELLED for kind in ANY} | SFR_2012_SAIS[sai] for sai in ("confuse", "roar")})
# Swoop: "During missile, inflict four damage on a single unit in the enemy army, with no saves possible ... Swoop
# does not count as maneuvers" (engine.sai_attacks: one unit per roller, no saves)
SAI_USES["swoop"] = {kind: NOT_MODELLED for kind in ANY} | {"missile": SaiUse(special="unit-strike")}
# Double Strike: "During melee, hit for four points and then reroll this unit and count the new result as well ...
# Roll all double strikes first, then include the damage rolled with the normal damage total"
SAI_USES["double-strike"] = {kind: NOT_MODELLED for kind in ANY} | {"melee": SaiUse(("melee",))}
SAI_USES.update({
    # Kick D: "During a dragon attack, Kick counts as four normal melee hits against the dragon" (a monster's icon
    # counts four)
    "kick": _in_dragon_attack("kick", SaiUse(("melee",))),
    # Double Strike C: "During a dragon attack, the Double Strike hits count against the dragon, and reroll as normal"
    "double-strike": _in_dragon_attack("double-strike", SaiUse(("melee",))),
    # Stone E: "During a dragon attack, Stone counts as four normal missile hits against the dragon"
    "stone": _in_dragon_attack("stone", SaiUse(("missile",))),
    # Swoop C: "During a dragon attack, Swoop counts as four normal missile hits against the dragon"
    "swoop": _in_dragon_attack("swoop", SaiUse(("missile",))),
    # "During a dragon attack, <SAI> has no effect": Charm E, Confuse B, Entangle E, Illusion C, Poison C,
    # Smother B, Web D, Roar D
    **{sai: _in_dragon_attack(sai, NO_EFFECT)
       for sai in ("charm", "confuse", "entangle", "illusion", "poison", "smother", "web", "roar")},
})
# Double Strike A: "Continue to reroll until a Double Strike is not indicated" (in melee; against a dragon through
# the melee avoidance part of the roll, as 002's table reads it)
SAI_REROLLS["double-strike"] = ("melee", "avoid-melee")

# --- 004 Amazons in Reserves (issue 7, part 2) ---------------------------------------------------------

# "When in the reserve area, Amazons may use missile fire to attack targets at their owner's home terrain or the
# frontier die ... Amazons CAN NOT cast magic from reserves" (engine.actions.reserve_attack, engine.actions.magic)
TSR_1996 = TSR_1996.evolve(reserve_missile_races=("amazon",),
                           cites={**TSR_1996.cites, "reserve-attack": f"{E}:faq.amazons.amazons-in-reserves"})

# --- 004 Screech, with the routing option (issue 7, part 2) ---------------------------------------------

# Screech: "During melee, a screech subtracts four from the opponent's saves for the purposes of routing only ...
# During a dragon attack, Screech has no effect": nothing in the roll itself (engine.actions.routing counts it)
SAI_USES["screech"] = {kind: NOT_MODELLED for kind in ANY} | {"melee": NO_EFFECT, "dragon": NO_EFFECT}

# --- 004 Regenerate (issue 7, the FAQ rulings) ---------------------------------------------------------

# Regenerate: "Count as four saves, or bring back four health of units from your dead to this location ... effective
# during any action--including melee, magic, missiles, and saves--but not during a maneuver roll ... Troops brought
# back from the dead with this power are rolled immediately and their results are counted toward the current roll
# ... During a dragon attack, Regenerate performs normally": 002's uses (engine.actions.sai_states' raise).
# General Rules D2: "Regenerate is the only new special action icon which can benefit from the Eighth Face", and
# Regenerate C: "Regenerate never doubles it effect": ddref reads C of the four health it brings back (never eight)
# and D2 of its four saves, which the eighth face doubles as it doubles every save (tsr-1996:the-eighth-face).
SAI_USES["regenerate"] = dict(SFR_2012_SAIS["regenerate"])   # no entry for a maneuver roll
REGENERATE = f"{E}:faq.monster-special-action-icons.regenerate"
TSR_1996 = TSR_1996.evolve(sai_words={
    "regenerate:gives": ("Count as four saves ... Regenerate is the only new special action icon which can benefit "
                         "from the Eighth Face (reading: its saves double there like every save; 'Regenerate never "
                         f"doubles it effect' is read of the health it brings back, see {REGENERATE} C)",
                         f"{E}:faq.monster-special-action-icons.general-rules"),
    "regenerate:raise": ("bring back four health of units from your dead to this location (Regenerate never doubles "
                         "it effect)", REGENERATE),
    "regenerate:raise-roll": ("Troops brought back from the dead with this power are rolled immediately and their "
                              "results are counted toward the current roll", REGENERATE),
})

# --- 004 Web and Entangle (issue 7, the FAQ rulings) --------------------------------------------------------

from ..ruleset import Protection, SaiState  # noqa: E402  (appended section: Web's paralysis as data)

# Web: "During melee, unless they immediately roll a save, four health of your choice in the opposing army are
# paralyzed (cannot make any further rolls) until the beginning of your next turn ... The affected unit(s) must be in
# the army already targeted during the melee action ... Unlike Entangle, killing the monster does not negate the
# effects" (B and C say "Poison": read as Web, the entry they stand in); 002's Web avoids with a melee result
WEB = f"{E}:faq.monster-special-action-icons.web"
SAI_USES["web"] = {**SAI_USES["web"], "melee": SFR_2012_SAIS["web"]["melee"]}
# Entangle: "When rolled during melee, four health of your choice of units in the opposing army are paralyzed (cannot
# make any further rolls) until the beginning of your next turn. Killing the monster negates this effect ... If an
# entire army is paralyzed, the army cannot make any rolls (maneuvers, actions, saves), but it may take actions which
# do not require rolls (unopposed maneuvers, retreats to reserves)": 002's Entangle (engine.actions.sai_states)
ENTANGLE = f"{E}:faq.monster-special-action-icons.entangle"
SAI_USES["entangle"] = {**SAI_USES["entangle"], "melee": SFR_2012_SAIS["entangle"]["melee"]}
TSR_1996 = TSR_1996.evolve(
    sai_states={**TSR_1996.sai_states, "web": SaiState(target="units", avoid="save"),
                "entangle": SaiState(target="units", bound="killed", freed_roll=True)},
    effect_sais={**TSR_1996.effect_sais, "web": "until-beginning-of-next-turn",
                 "entangle": "until-beginning-of-next-turn"},
    spell_protections={**TSR_1996.spell_protections, "web": Protection(no_rolls="any"),
                       "entangle": Protection(no_rolls="any")},
    sai_words={**TSR_1996.sai_words,
               "web:avoid": ("unless they immediately roll a save, four health of your choice in the opposing army "
                             "are paralyzed", WEB),
               "web:state": ("paralyzed (cannot make any further rolls) until the beginning of your next turn ... "
                             "Unlike Entangle, killing the monster does not negate the effects of [Web; 004 prints "
                             "'Poison']", WEB),
               # D: the entangled units of the army whose SAI killed the monster (engine.actions.sai_states)
               "entangle:freed": ("Killing the monster negates this effect ... If, during an normal action, a "
                                  "special action icon is rolled which kills the Entangling monster (Cantrip, "
                                  "Bullseye, or even Smite), the Entangled unit(s) may immediately be rolled", ENTANGLE),
               "entangle:charge": ("Entangle prevents units from making any further rolls. Rolls already made "
                                   "(such as those during a charge) by Entangled units still apply their results",
                                   ENTANGLE),
               "entangle:raise-roll": ("the Entangled unit(s) may immediately be rolled and are counted in the current "
                                       "roll", ENTANGLE),
               # Monsters C: "Each normal icon on a monster unit counts as four point of effect"
               "entangle:state": ("paralyzed (cannot make any further rolls) until the beginning of your next turn. "
                                  "Killing the monster negates this effect", ENTANGLE),
               "entangle:targets": ("four health of your choice of units in the opposing army (a monster's icon: "
                                    "\"Each normal icon on a monster unit counts as four point of effect\")", ENTANGLE),
               "web:targets": ("four health of your choice in the opposing army (a monster's icon: \"Each normal "
                               "icon on a monster unit counts as four point of effect\")", WEB)},
)

# --- 004 Dispel Magic (issue 7, the FAQ rulings) --------------------------------------------------------

# Dispel Magic: "When one or more spells target an army containing this unit or the terrain the unit occupies, you
# may roll this unit to resist. If the dispel face comes up, the spells have no effect ... The dispel face itself
# must roll up to nullify magic; ID icons do NOT count in this instance ... any single Dispel Magic face nullifies
# all spells ... Only units bearing a dispel icon which are targeted by the unit-targeting spell may roll to disple
# ... It is the option of the owner of the monster whether to attempt to dispel" (engine.actions.magic)
DISPEL = f"{E}:faq.monster-special-action-icons.dispel-magic"
# F: "Dispel icons do not count as magic for any purposes"; G: "During a dragon attack, Dispel Magic has no effect"
SAI_USES["dispel-magic"] = {**_in_dragon_attack("dispel-magic", NO_EFFECT), "magic": NO_EFFECT}
TSR_1996 = TSR_1996.evolve(
    dispel_own_unit=True,
    # D: "since magic is simultaneous, units killed by Lightning still roll in the group save against the
    # Hailstorms" (engine.actions.spells)
    simultaneous_magic=True,
    cites={**TSR_1996.cites, "simultaneous-magic": DISPEL},
    sai_words={**TSR_1996.sai_words,
               "dispel-magic:fails": ("The dispel face itself must roll up to nullify magic; ID icons do NOT count in "
                                      "this instance ... If this roll fails, a second roll is made to determine if "
                                      "the Gargoyle saves (and this time, ID icons do count)", DISPEL),
               "dispel-magic:negates": ("If multiple spells are targeted on the army, its terrains, or its units, any "
                                        "single Dispel Magic face nullifies all spells", DISPEL),
               "dispel-magic:no-effect:magic": ("Dispel icons do not count as magic for any purposes", DISPEL),
               "dispel-magic:no-effect": ("During a dragon attack, Dispel Magic has no effect", DISPEL),
               # G: the Summon is countered (engine.actions.magic)
               "dispel-magic:summon": ("When the dragon is first summoned, however, a Dispel Magic would have the "
                                       "effect of countering the Summon. The dragon is returned whence it came, "
                                       "whether a player's dead area or a terrain", DISPEL)},
)

# --- 004 Roar, Poison, Smother in 004's words (issue 7, the FAQ rulings) ------------------------------------

# The four health they pick: Monsters C, "Each normal icon on a monster unit counts as four point of effect"
# (engine.actions.strikes); Roar B: where the frightened units go (engine.moves)
_MONSTER_POINTS = "a monster's icon: \"Each normal icon on a monster unit counts as four point of effect\""
TSR_1996 = TSR_1996.evolve(sai_words={
    **TSR_1996.sai_words,
    "roar:targets": (f"choose four health of opposing units to immediately flee to their reserves ({_MONSTER_POINTS})",
                     f"{E}:faq.monster-special-action-icons.roar"),
    # C: "If used during a charge, the units affected by a Roar still apply their results before fleeing"
    # (engine.actions.charge)
    "roar:charge": ("If used during a charge, the units affected by a Roar still apply their results before "
                    "fleeing", f"{E}:faq.monster-special-action-icons.roar"),
    "roar:moves": ("If there is no army at the target army's reserves, the affected units form a new army",
                   f"{E}:faq.monster-special-action-icons.roar"),
    "poison:targets": (f"choose four health of opposing units to save or be killed ({_MONSTER_POINTS})",
                       f"{E}:faq.monster-special-action-icons.poison"),
    "smother:targets": (f"your choice of four health worth of opposing units must each roll a maneuver result or be "
                        f"killed ({_MONSTER_POINTS})", f"{E}:faq.monster-special-action-icons.smother"),
})

# --- 004 Charm (issue 7, the FAQ rulings) --------------------------------------------------------------

# Charm: "During melee, this effect forces four health of opposing units (your choice) to add their rolls to your
# side of the conflict ... The affected unit(s) return to their owner's control immediately after the current roll
# ... During a skirmish attack or counterattack, the affected units are chosen BEFORE the roll for saves is made ...
# Charmed units can be cbosen as casualties by their owner, but their results are still added to the side of the
# charming monster": 002's handler in a skirmish (engine.actions.delayed.charm), and in a charge, "the affected units
# are indeed chosen after the results are seen" (engine.actions.charge)
CHARM = f"{E}:faq.monster-special-action-icons.charm"
SAI_USES["charm"] = {**SAI_USES["charm"], "melee": SFR_2012_SAIS["charm"]["melee"]}
TSR_1996 = TSR_1996.evolve(sai_words={
    **TSR_1996.sai_words,
    "charm:targets": ("forces four health of opposing units (your choice) to add their rolls to your side of the "
                      f"conflict ({_MONSTER_POINTS})", CHARM),
    "charm:adds": ("forces four health of opposing units (your choice) to add their rolls to your side of the conflict "
                   "... During a skirmish attack or counterattack, the affected units are chosen BEFORE the roll for "
                   "saves is made", CHARM),
    "charm:charge": ("During a charge, the affected units are indeed chosen after the results are seen ... they "
                     "change sides", CHARM),
})

# --- 004 Ferry (issue 7, the FAQ rulings) ----------------------------------------------------------------

# Ferry: "Immediately move this monster to another terrain, if desired. It may stay there or immediately return with
# four health of six-sided units ... Ferry is effective during any action--including melee, magic, missiles, and
# saves--but not during a maneuver roll ... Up to four health worth of six-sided units can be Ferried (it is
# permissible to Ferry less health.) ... Troops moved through the use of this power are immediately rolled and
# counted toward the totals of the current roll. The monster is not rerolled": the return, or the monster staying
# at the other terrain (``move_to``), 004's own handler (engine.actions.sai_states' fetch); 002's Ferry moves units
# OUT of the army instead. D: "During a dragon attack, the Ferry performs normally": in the army's roll against the
# dragons (engine.actions.dragon), the units it returns with roll for melee, missile and saves with the army.
FERRY = f"{E}:faq.monster-special-action-icons.ferry"
SAI_USES["ferry"] = {kind: NOT_MODELLED for kind in ANY} | {kind: SaiUse(special="fetch")
                                                          for kind in ("melee", "missile", "magic", *SAVES, *DRAGON)}
SAI_USES["ferry"].update({"maneuver": NO_EFFECT, "counter-maneuver": NO_EFFECT})  # "but not during a maneuver roll"
TSR_1996 = TSR_1996.evolve(sai_words={
    **TSR_1996.sai_words,
    "ferry:fetch": ("Immediately move this monster to another terrain ... It may stay there or immediately return "
                    "with four health of six-sided units ... Up to four health worth of six-sided units can be "
                    "Ferried (it is permissible to Ferry less health.)", FERRY),
    "ferry:moves": ("Immediately move this monster to another terrain, if desired. It may stay there or "
                    "immediately return with four health of six-sided units", FERRY),
    "ferry:stays": ("Immediately move this monster to another terrain, if desired. It may stay there", FERRY),
    # the units Regenerate brings back in the army's roll against a dragon (engine.actions.dragon), in 004's words
    "regenerate:dragon": ("During a dragon attack, Regenerate performs normally ... Troops brought back from the "
                          "dead with this power are rolled immediately and their results are counted toward the "
                          "current roll", REGENERATE),
    "ferry:dragon": ("During a dragon attack, the Ferry performs normally ... Troops moved through the use of this "
                     "power are immediately rolled and counted toward the totals of the current roll", FERRY),
    "ferry:raise-roll": ("Troops moved through the use of this power are immediately rolled and counted toward the "
                         "totals of the current roll. The monster is not rerolled.", FERRY),
})

# --- 004 Illusion (issue 7, the FAQ rulings) -------------------------------------------------------------

# Illusion: "During melee, choose four health worth of the enemy units to be attacked by the rest of their army ...
# resolved in a seperate roll after the current round of melee is resolved ... After the dead are removed from the
# current melee, the caster of the illusion selects his four health of units ... The affected four health worth of
# units DO NOT counterattack against their own army. They do, however, have the chance to roll saves": 004's own
# handler (engine.actions.illusion), a late special result of the attack; 002's Illusion is another effect
from ..sai_attacks import AttackSai  # noqa: E402  (appended section: Illusion's targets as data)

ILLUSION = f"{E}:faq.monster-special-action-icons.illusion"
SAI_USES["illusion"] = {**SAI_USES["illusion"], "melee": SaiUse(special="friendly-fire")}
TSR_1996 = TSR_1996.evolve(
    attack_sais={**TSR_1996.attack_sais, "illusion": AttackSai(pick="worth")},
    sai_words={**TSR_1996.sai_words,
               "illusion:targets": ("choose four health worth of the enemy units (a monster's icon: \"Each normal "
                                    "icon on a monster unit counts as four point of effect\")", ILLUSION),
               "illusion:attack": ("The attack on the enemy units by the rest of the army is resolved in a seperate "
                                   "roll after the current round of melee is resolved ... After the dead are removed "
                                   "from the current melee, the caster of the illusion selects his four health of "
                                   "units to be attacked by the rest of their army", ILLUSION),
               "illusion:saves": ("The affected four health worth of units DO NOT counterattack against their own "
                                  "army. They do, however, have the chance to roll saves against the damage caused by "
                                  "\"friendly fire.\"", ILLUSION)})

# --- 000 Charge: the charging army's roll (issue 7, part 2) ---------------------------------------------

# The charging army's roll is a roll of its own kind ("charge", engine.actions.charge): each SAI counts as in a
# melee roll, but Trample: "This icon usually counts as either a maneuver or melee hit as needed" and, in a
# charge, as both (000 Special Action Icons; "the same charge by the dwarf mammoth rider inflicts 15 points")
for _sai, _table in list(SAI_USES.items()):
    if "melee" in _table:
        SAI_USES[_sai] = {**_table, "charge": _table["melee"]}
SAI_USES["trample"] = {**SAI_USES["trample"], "charge": SaiUse(("maneuver", "melee"), each=True)}
# Smite: "During a dragon attack or a charge, smites count as normal melee damage and can be stopped by saves"
SAI_USES["smite"] = {**SAI_USES["smite"], "charge": SaiUse(("melee",))}
SAI_REROLLS.update({sai: (*kinds, "charge") for sai, kinds in SAI_REROLLS.items() if "melee" in kinds})
TSR_1996 = TSR_1996.evolve(sai_uses=SAI_USES, sai_rerolls=SAI_REROLLS, charge_roll="charge")


# --- 004 Monsters > Sprite Swarm (issue 7) ---------------------------------------------------------------
# "The ID icon of the Sprite Swarm counts as four points of effect and the die is rerolled, adding that effect as
# well. Continue to reroll until the ID icon is not indicated ... If the result of a second ... roll is not
# relevent ..., ignore it ... Each ID icon rolled counts as one ID icon for the purposes of Routing" (the roll
# lists each face: engine.roll; routing counts each ID face: engine.actions.routing). The scenario names the
# Sprite Swarm (no tsr-1996 catalog entry: ddref.scenario.build EDITION_GROUP_MONSTERS)
TSR_1996 = TSR_1996.evolve(cites={**TSR_1996.cites, "group-monster-reroll": f"{E}:faq.monsters.sprite-swarm"})


# --- SAIs in a charge (issue 7): what each 000/004 entry makes of the charge's two rolls -------------------
# The charging army's roll ("charge", above) and the charged army's one roll ("charged", engine.actions.charge):
# 004 General Rules A, "When the term "during melee" is used, it is intended to indicate an effect that occurs only
# during (A) a skirmish attack, (B) a skirmish counter-attack, or (C) a charge roll by attacker or defender".
MONSTER_SAIS = f"{E}:faq.monster-special-action-icons"
GENERAL = f"{MONSTER_SAIS}.general-rules"
_DURING_MELEE = ("during melee ... (C) a charge roll by attacker or defender", GENERAL)
# Fly: "This icon provides either maneuvers or saves (not both), as needed": the charging army's maneuvers are damage
SAI_USES["fly"] = {**SAI_USES["fly"], "charge": SaiUse(("maneuver", "save"))}
# The charged army's roll: as a roll for saves in melee (000 Counter: "During a roll for saves in melee-including a
# defender's roll during a charge-it counts as both a save and an immediate hit upon the attacking army"), and each
# monster SAI whose 004 entry acts "during melee" as in a melee attack (General Rules A (C)), against the charging army
for _sai, _table in list(SAI_USES.items()):
    if "save-melee" in _table:
        SAI_USES[_sai] = {**_table, "charged": _table["save-melee"]}
for _sai in ("kick", "poison", "smother", "roar", "entangle", "web", "double-strike", "illusion", "screech", "charm",
             "confuse"):
    SAI_USES[_sai] = {**SAI_USES[_sai], "charged": SAI_USES[_sai]["melee"]}
# Smite: "During a dragon attack or a charge, smites count as normal melee damage"; Rend (a reading: the charged
# army's melee results "are counted as damage against the acting army", and its roll is a charge roll "during melee",
# 004 General Rules A): "During a melee attack, the rend counts as normal melee hits. The rending unit may be rolled
# again immediately"
SAI_USES["smite"] = {**SAI_USES["smite"], "charged": SaiUse(("melee",))}
SAI_USES["rend"] = {**SAI_USES["rend"], "charged": SaiUse(("melee",))}
SAI_REROLLS.update({sai: (*SAI_REROLLS[sai], "charged") for sai in ("rend", "double-strike")})
# Stone, Swoop: General Rules B, "When the term "during missile" is used, it is intended to indicate an effect that
# occurs only during a missile attack of the attacking army": nothing in either roll of a charge
for _sai in ("stone", "swoop"):
    SAI_USES[_sai] = {k: u for k, u in SAI_USES[_sai].items() if k not in ("charge", "charged")}
TSR_1996 = TSR_1996.evolve(sai_uses=SAI_USES, sai_rerolls=SAI_REROLLS, charged_roll="charged", sai_words={
    **TSR_1996.sai_words,
    # the charging army's SAIs (engine.actions.charge_sais)
    "stone:no-effect": ("When the term \"during missile\" is used, it is intended to indicate an effect that occurs "
                        "only during a missile attack of the attacking army", GENERAL),
    "swoop:no-effect": ("When the term \"during missile\" is used, it is intended to indicate an effect that occurs "
                        "only during a missile attack of the attacking army", GENERAL),
    "charge:first": ("Unless otherwise noted, monster special action icons obey the rules of special actions laid out "
                     "in FAQ 1 ... 3) Resolved first", GENERAL),
    "web:charge": ("Rolls already made (such as those during a charge) by [Webbed; 004 prints 'Poisoned'] units still "
                   "apply their results. Remember to note the rolls that [Webbed] units made before rolling their "
                   "saves against the [Web] effect", WEB),
    "confuse:charge": ("During a melee or missile combat, after your opponent rolls, choose four health of his units "
                       "and force them to reroll ... This is a special case that DOES violate the principle that dice "
                       "once rolled cannot be voided", f"{MONSTER_SAIS}.confuse"),
    "charged": _DURING_MELEE,
    # Smite, Rend, Fly as plain results in a charge roll (engine.actions.charge_sais.noted)
    "smite:in-charge": ("During a dragon attack or a charge, smites count as normal melee damage and can be stopped by "
                        "saves", f"{SAI}.smite"),
    "smite:in-charged": ("During a dragon attack or a charge, smites count as normal melee damage and can be stopped "
                         "by saves", f"{SAI}.smite"),
    "rend:in-charged": ("During a melee attack, the rend counts as normal melee hits. The rending unit may be rolled "
                        "again immediately", f"{SAI}.rend"),
    # a reading, traced in place of the entry above (engine.actions.charge_sais.noted): what it reads, and with what
    "rend:in-charged:reading": (f"the charged army's roll is a melee attack here (its melee results \"are counted as "
                                f"damage against the acting army\", {MARCH}.charge; \"a charge roll by attacker or "
                                "defender\" is during melee): the rend counts as normal melee hits, the unit rolled "
                                "again", GENERAL),
    "fly:in-charge": ("This icon provides either maneuvers or saves (not both), as needed (the charging army's "
                      f"maneuvers are damage, {MARCH}.charge)", f"{SAI}.fly"),
    # 000 Bullseye acts "During a missile action" and "During a dragon attack" only: a charge is neither, so it has
    # no effect there, as in a skirmish (the charge's rolls: engine.actions.charge)
    **{f"bullseye:no-effect:{kind}": ("During a missile action, the bullseye targets one unit ... During a dragon "
                                      "attack, the bullseye counts as normal missile damage", f"{SAI}.bullseye")
       for kind in ("charge", "charged")},
})


# --- 004 Flame (issue 7: an SAI rolled in a charge) -------------------------------------------------------------
# Flame: "During melee, kill and bury one unit of two health or less, with no save possible. A) The owner of the
# monster selects which unit to kill and bury. B) The affected unit must be in the army already targeted during the
# melee action. C) Open Grave DOES save Flamed units; affected units go to the Reserves as normal. D) During a dragon
# attack, Flame has no effect": one unit per face (002's Flame takes "up to two health-worth"), by the handler of the
# SAIs that kill with no save (engine.actions.strikes.kill_units); in a charge, resolved first in either roll
# (General Rules D3, engine.actions.charge_sais)
FLAME = f"{MONSTER_SAIS}.flame"
SAI_USES["flame"] = {**{kind: NOT_MODELLED for kind in ANY}, **{kind: SaiUse(special="unit-kill")
                                                                 for kind in ("melee", "charge", "charged")}}
SAI_USES["flame"].update({kind: NO_EFFECT for kind in DRAGON})
TSR_1996 = TSR_1996.evolve(
    sai_uses=SAI_USES,
    attack_sais={**TSR_1996.attack_sais, "flame": AttackSai(pick="one-unit", fail="buried", max_health=2,
                                                            spared_by_grave=True)},
    sai_words={**TSR_1996.sai_words,
               "flame:grave": ("Open Grave DOES save Flamed units; affected units go to the Reserves as normal", FLAME),
               "flame:no-effect": ("During a dragon attack, Flame has no effect", FLAME)})


# --- 004 General Rules A and B: the monster SAIs in every other roll (issue 7) -------------------------------------
# General Rules A: "When the term "during melee" is used, it is intended to indicate an effect that occurs only during
# (A) a skirmish attack, (B) a skirmish counter-attack, or (C) a charge roll by attacker or defender. Unless otherwise
# noted, the effect does NOT occur during a save roll"; B: "When the term "during missile" is used, it is intended to
# indicate an effect that occurs only during a missile attack of the attacking army. Unless otherwise noted, the
# effect does NOT occur during a save roll". Every roll an entry does not name is one where its SAI has no effect
# (engine.roll traces it with the words of ``<sai>:no-effect:<kind>``, the roll's own sentence of 004).
_MELEE_ONLY = ("When the term \"during melee\" is used, it is intended to indicate an effect that occurs only during "
               "(A) a skirmish attack, (B) a skirmish counter-attack, or (C) a charge roll by attacker or defender")
_MISSILE_ONLY = ("When the term \"during missile\" is used, it is intended to indicate an effect that occurs only "
                 "during a missile attack of the attacking army")
_NOT_IN_SAVES = "Unless otherwise noted, the effect does NOT occur during a save roll"
SAVE_ROLLS = (*SAVES, "avoid-save")
_NOT_MANEUVER = "effective during any action--including melee, magic, missiles, and saves--but not during a maneuver roll"
MANEUVER_ROLLS = ("maneuver", "counter-maneuver", "avoid-maneuver")
# Confuse: "During a melee or missile combat, after your opponent rolls, choose four health of his units and force
# them to reroll": read as A's and B's "during melee" and "during missile" (an attack, a counter-attack, a charge
# roll; the attacking army's missile roll), so not in a save roll
_CONFUSE = ("During a melee or missile combat, after your opponent rolls, choose four health of his units and force "
            "them to reroll", f"{MONSTER_SAIS}.confuse")
# the reading, traced as one (engine.roll): what it reads, and the passage it is read with
_CONFUSE_READ = ("'During a melee or missile combat' read as the 'during melee' and 'during missile' of General Rules "
                 f"A and B: {_NOT_IN_SAVES}, nor in a roll other than the attack", GENERAL)
# Dispel Magic: rolled to resist spells (engine.actions.magic), "Dispel icons do not count as magic for any purposes"
_DISPEL = ("When one or more spells target an army containing this unit or the terrain the unit occupies, you may "
           "roll this unit to resist ... Dispel icons do not count as magic for any purposes", DISPEL)
# the sentence for each roll an SAI does nothing in: sai -> (its words in a save roll, elsewhere)
_OTHER_ROLLS = {
    **{sai: ((f"{_MELEE_ONLY}. {_NOT_IN_SAVES}", GENERAL), (_MELEE_ONLY, GENERAL))
       for sai in ("kick", "poison", "smother", "roar", "charm", "entangle", "web", "double-strike", "illusion",
                   "screech", "flame")},
    **{sai: ((f"{_MISSILE_ONLY}. {_NOT_IN_SAVES}", GENERAL), (_MISSILE_ONLY, GENERAL)) for sai in ("stone", "swoop")},
    "confuse": (_CONFUSE, _CONFUSE),
    "dispel-magic": (_DISPEL, _DISPEL),
}
# Screech in melee and in a charge: no result in the roll, counted for routing only (engine.actions.routing) -- its
# own value, not NO_EFFECT (which engine.sais.sai_use reads as "no effect in this roll")
ROUTING_ONLY = SaiUse()
SAI_USES["screech"] = {**SAI_USES["screech"], **{kind: ROUTING_ONLY for kind in ("melee", "charge", "charged")}}
# Ferry A: "effective during any action--including melee, magic, missiles, and saves--but not during a maneuver roll":
# an avoidance roll is a roll for saves or against a spell (fetch, engine.actions.sai_states; in a unit's own roll,
# engine.actions.own_roll), not the maneuver avoidance roll; Regenerate A, the same words
SAI_USES["ferry"] = {**SAI_USES["ferry"], **{kind: SaiUse(special="fetch") for kind in AVOIDANCE
                                              if kind != "avoid-maneuver"}}
_words = {}
for _sai, _cite in (("ferry", FERRY), ("regenerate", REGENERATE)):
    SAI_USES[_sai] = {**SAI_USES[_sai], **{kind: NO_EFFECT for kind in MANEUVER_ROLLS}}
    _words.update({f"{_sai}:no-effect:{kind}": (f"{_sai.capitalize()} is {_NOT_MANEUVER}", _cite)
                   for kind in MANEUVER_ROLLS})
for _sai, (_in_saves, _elsewhere) in _OTHER_ROLLS.items():
    _left = [kind for kind, use in SAI_USES[_sai].items() if use is NOT_MODELLED]
    SAI_USES[_sai] = {**SAI_USES[_sai], **{kind: NO_EFFECT for kind in _left}}
    _words.update({f"{_sai}:no-effect:{kind}": _in_saves if kind in SAVE_ROLLS else _elsewhere for kind in _left})
    if _sai == "confuse":
        _words.update({f"{_sai}:no-effect:{kind}:reading": _CONFUSE_READ for kind in _left})
# a unit's own roll (engine.actions.own_roll: the monster's save against a spell aimed at it): the units it returns
# with, or brings back, join its army unrolled -- read: "the current roll" is the monster's own, whose result answers
# the effect aimed at it alone, so no other unit's results count toward it
_OWN = ("a unit's own roll answers an effect aimed at that unit alone, no army total to count them toward (000: "
        "modifiers to an army's roll \"don't apply to an individual unit when it must roll separately\")",
        f"{E}:dice-modifiers")
_words["ferry:own-roll"] = ("Troops moved through the use of this power are immediately rolled and counted toward the "
                            "totals of the current roll", FERRY)
_words["regenerate:own-roll"] = ("Troops brought back from the dead with this power are rolled immediately and their "
                                 "results are counted toward the current roll", REGENERATE)
_words["ferry:own-roll:reading"] = _words["regenerate:own-roll:reading"] = _OWN
# In a dragon attack: "During a dragon attack, <SAI> has no effect" (Charm E, Confuse B, Entangle E, Illusion C,
# Poison C, Roar D, Screech C, Smother B, Web D), also under a Blue-Paralysis; Kick, Double Strike, Stone and Swoop
# count against the dragon as melee or missile, which a Blue-Paralysis leaves no roll for: "The target army can only
# roll for saves until the beginning of the owning player's next turn" (000 Dragon Rules)
for _sai in ("charm", "confuse", "entangle", "illusion", "poison", "roar", "screech", "smother", "web"):
    _ruling = (f"During a dragon attack, {_sai.capitalize()} has no effect", f"{MONSTER_SAIS}.{_sai}")
    _words.update({f"{_sai}:no-effect:{kind}": _ruling for kind in ("dragon", "dragon-save")})
_words.update({f"{_sai}:no-effect:dragon-save": (QUOTES["breath-tsr-blue-paralysis"], f"{DRAGON_RULES}.blue-paralysis")
               for _sai in ("kick", "double-strike", "stone", "swoop")})
TSR_1996 = TSR_1996.evolve(sai_uses=SAI_USES, sai_words={**TSR_1996.sai_words, **_words})
