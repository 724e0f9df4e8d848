"""sfr-2012 (document 002): the complete rules; the default edition."""

from __future__ import annotations

from ..ruleset import (Breath, DragonFace, DragonLogo, Protection, RacialAbility, Ruleset, SaiState, SetupRules,
                       SpellEffect, SpellModifier, TargetRule)

E = "sfr-2012"
RACIAL = f"{E}:racial-abilities"
DRAGON_PHASE = f"{E}:the-turn-sequence.dragon-attack-phase"
ELDARIM_ON_DRAGONS = f"{RACIAL}.eldarim-champions-effect-on-dragons"

CITES = {
    # counting results
    "id-icons": f"{E}:basic-terms",                       # ID icons: health-worth of whatever is rolled for
    "monsters": f"{E}:monsters",                           # each monster icon counts 4
    "group-monsters": f"{E}:monsters.group-monsters",
    "sai-points": f"{E}:special-action-icons-general-information",
    "sai-application": f"{E}:special-action-icons-general-information.application",
    "sai-resolution": f"{E}:special-action-icons-general-information.resolution",
    "sai-targeting": f"{E}:special-action-icons-general-information.targeting",
    # modifiers
    "modifier-order": f"{E}:dice-modifiers.applying-dice-modifiers",
    "combination": f"{E}:dice-modifiers.modifiers-and-combination-rolls",
    "army-modifiers": f"{E}:dice-modifiers.army-modifiers",
    "eighth-face": f"{E}:the-eighth-face",
    "tower": f"{E}:the-eighth-face.tower",
    "temple": f"{E}:the-eighth-face.temple",
    "ivory-dragons": f"{E}:dragons.ivory-dragons",
    "unique-resolution": f"{E}:glossary-of-dragon-dice-terms.unique-resolution",
    # "Note: finalized results cannot be changed by any effect" (engine.actions.cantrip ``finalized_untouched``)
    "finalized-results": f"{E}:glossary-of-dragon-dice-terms.finalized-results",
    "avoidance": f"{E}:avoidance-rolls",
    # the turn
    "turn-sequence": f"{E}:the-turn-sequence",
    # Step 4: "The remaining players will take their turn in decreasing order" (engine.actions.turn)
    "turn-order": f"{E}:starting-the-game.step-4-determine-order-of-play",
    "turn-begins": f"{E}:the-turn-sequence.spell-effect-expiration-beginning-of-turn",
    "turn-ends": f"{E}:the-turn-sequence.spell-effect-expiration-end-of-turn",
    "initial-effects": f"{E}:the-turn-sequence.initial-effects-phase",
    # actions
    "march": f"{E}:the-turn-sequence.first-march",
    "maneuver": f"{E}:the-turn-sequence.first-march.maneuver",
    "actions": f"{E}:the-turn-sequence.first-march.actions",
    "melee": f"{E}:the-turn-sequence.first-march.melee",
    "missile": f"{E}:the-turn-sequence.first-march.missile",
    "magic": f"{E}:the-turn-sequence.first-march.magic",
    "counter-attack-phase": f"{E}:glossary-of-dragon-dice-terms.counter-attack-phase",
    "doubling-magic": f"{E}:the-turn-sequence.first-march.doubling-magic",
    # a magic roll's split by color (engine.actions.magic): which colors the points (the doubled ones too) may be
    "magic-split": f"{E}:the-turn-sequence.first-march.doubling-magic",
    "terrain-advantage": f"{E}:the-turn-sequence.first-march.terrain-advantage",
    "dua-advantage": f"{E}:the-turn-sequence.first-march.dead-unit-area-advantage",
    "total-magic": f"{E}:the-turn-sequence.first-march.total-your-magic-results",
    "spell-targets": f"{E}:the-turn-sequence.first-march.target-your-spells",
    # "Army: All of your units at a single terrain or the reserve area": units moved where the player has none
    # form an army (engine.moves.moved_army_at)
    "army-formed": f"{E}:basic-terms",
    "reserve-magic": f"{E}:the-turn-sequence.first-march.reserve-magic",
    # "the casting of spells from a Cantrip special action icon during a non-magic action or save roll is not
    # considered a magic action" (Backlash does not answer them)
    "magic-action": f"{E}:glossary-of-dragon-dice-terms.magic-action",
    "standing-stones": f"{E}:the-eighth-face.standing-stones",
    "amazon-magic": f"{RACIAL}.amazons.magic-use",
    "undead-magic": f"{RACIAL}.undead.double-magic",
    "magic-negation": f"{RACIAL}.frostwings.magic-negation",
    "frostwing-magic": f"{RACIAL}.frostwings.magic-use",
    "opposing-army": f"{E}:glossary-of-dragon-dice-terms.opposing-army",
    "spell-cost": f"{E}:spell-attributes.casting-cost",
    "spell-color": f"{E}:spell-attributes.color",
    "racial-spells": f"{E}:spell-attributes.racial-limitation",
    "multiplicity": f"{E}:spell-attributes.multiplicity",
    "spell-target": f"{E}:spell-attributes.target",
    "spell-duration": f"{E}:spell-attributes.duration",
    # "When a player is eliminated from a multi-player game ... any spells cast on this player's units or armies
    # immediately expire" (engine.expiry.eliminated; other editions have no such key and the rule does nothing)
    "player-eliminated": f"{E}:spell-attributes.duration",
    "spell-effect": f"{E}:spell-attributes.effect",
    "reserve-area": f"{E}:basic-terms",
    "damage": f"{E}:damage",
    "dragonkin": f"{E}:dragonkin",
    "promotion": f"{E}:basic-terms",
    "magic-items": f"{E}:magical-items",
    "stoneskin-rule": f"{E}:damage.the-stoneskin-rule",
    "racial:scalder:Scorching Touch": f"{RACIAL}.scalders.scorching-touch",
    # exchanges with the DUA and the Initial Effects phase (engine.exchange, engine.actions.initial)
    "promote": f"{E}:promotion",
    "exchanging": f"{E}:exchanging-units-from-the-dua",
    "city": f"{E}:the-eighth-face.city",
    "kings-die": f"{E}:kings-die",
    "grove": f"{E}:special-terrains.grove",
    "dragons-lair": f"{E}:special-terrains.dragons-lair",
    "racial:feral:Feralization": f"{RACIAL}.feral.feralization",
    "racial:swamp-stalker:Mutation": f"{RACIAL}.swamp-stalkers.mutation",
    "racial:undead:Stepped Damage": f"{RACIAL}.undead.stepped-damage",
    "racial:undead:Resist Burial": f"{RACIAL}.undead.resist-burial",
    "racial:treefolk:Replanting": f"{RACIAL}.treefolk.replanting",
    "racial:eldarim:Sacrifice Dragonkin": f"{RACIAL}.eldarim.sacrifice-dragonkin",
    # dragons
    "dragon-attack": f"{DRAGON_PHASE}",
    # a dragon with no dragon of another color beside it attacks the army: "If dragons are present at any terrain
    # where the marching player has an army, then the dragons must do combat" (002 The Turn Sequence)
    "dragon-attacks-army": f"{E}:the-turn-sequence",
    "dragon-eldarim": f"{DRAGON_PHASE}.step-1-resolve-eldarim-special-abilities",
    "dragon-roll": f"{DRAGON_PHASE}.step-2-roll-dragons",
    "dragon-breaths": f"{DRAGON_PHASE}.step-3-resolve-all-breaths",
    "dragon-treasures": f"{DRAGON_PHASE}.step-4-resolve-all-treasures",
    "dragon-vs-dragon": f"{DRAGON_PHASE}.step-5-dragon-vs-dragon",
    "dragon-response": f"{DRAGON_PHASE}.step-6-armys-response-to-the-dragons-attack",
    "dragon-slaying": f"{DRAGON_PHASE}.step-7-dragon-slaying",
    "dragon-wings": f"{DRAGON_PHASE}.step-8-resolve-wings",
    "dragons": f"{E}:dragons",
    "dragon-breath": f"{E}:dragons.breath",
    "hybrid-dragons": f"{E}:hybrid-dragons",
    "ivory-hybrid-dragons": f"{E}:ivory-hybrid-dragons",
    "white-dragons": f"{E}:white-dragons",
    "dragon-taming": f"{ELDARIM_ON_DRAGONS}.dragon-taming",
    "dragon-control": f"{ELDARIM_ON_DRAGONS}.dragon-control",
    "dragon-promotion": f"{E}:basic-terms",
    "dragonslayer": f"{E}:the-eldarim-champions.dragonslayer",
    "dragonhunter": f"{E}:the-eldarim-champions.dragonhunter",
    # the turn's phases, reserves, winning (engine.marches, actions.reserves, engine.winning)
    "march-term": f"{E}:glossary-of-dragon-dice-terms.march",
    "first-march": f"{E}:the-turn-sequence.first-march",
    "second-march": f"{E}:the-turn-sequence.second-march",
    "reserve-movement": f"{E}:the-turn-sequence.reserve-movement",
    "reinforce": f"{E}:the-turn-sequence.reserve-movement.reinforce-step",
    "retreat": f"{E}:the-turn-sequence.reserve-movement.retreat-step",
    "terrain-flight": f"{RACIAL}.firewalkers.terrain-flight",
    "dragon-riding": f"{E}:the-eldarim-champions.dragonlord",
    "reserve-attack": f"{RACIAL}.amazons.reserve-attack",
    "winning": f"{E}:object-of-the-game",
    # "The game can also be won if a player has the last surviving unit(s) in play" (engine.capture)
    "last-units-win": f"{E}:object-of-the-game",
    "capture": f"{E}:glossary-of-dragon-dice-terms.capture-a-terrain",
    "in-play": f"{E}:glossary-of-dragon-dice-terms.in-play",
    "minor-terrains": f"{E}:minor-terrains",
    "special-terrains": f"{E}:special-terrains",
    "castle": f"{E}:special-terrains.castle",
    "vortex": f"{E}:special-terrains.vortex",
    "artifacts": f"{E}:artifacts",
    "medallions": f"{E}:medallions",
    # the SAI List's "four points of damage", "up to four health-worth": read as the SAI's points as rolled (four on
    # a monster), with SAI Targeting (its Charm example); an edition without this entry counts them as its text does
    "sai-points-as-rolled": f"{E}:special-action-icons-general-information.targeting",
    "dua-term": f"{E}:glossary-of-dragon-dice-terms.dead-unit-area-dua",
    "buried-term": f"{E}:glossary-of-dragon-dice-terms.buried",
    # "Army: All components belonging to the same player that are at the same location": none, no army
    "army-term": f"{E}:glossary-of-dragon-dice-terms.army",
    # "Terrain-Targeting Effect: An effect that targets a terrain": Open Grave and Leaving do not take its
    # casualties (engine.actions.common.take_damage, a traced reading)
    "terrain-targeting": f"{E}:glossary-of-dragon-dice-terms.terrain-targeting-effect",
    # Haunt's army of the dead (engine.moves.haunt_army, engine.actions.spells)
    "haunt-army": f"{E}:glossary-of-dragon-dice-terms.magically-constructed-army",
}

RACIAL_ABILITIES = (
    RacialAbility("coral-elf", "Terrain Advantage", "counts-as", "maneuver", "save", ("coastland",), None,
                  f"{RACIAL}.coral-elves.terrain-advantage"),
    RacialAbility("lava-elf", "Terrain Advantage", "counts-as", "maneuver", "save", ("highland",), None,
                  f"{RACIAL}.lava-elves.terrain-advantage"),
    RacialAbility("swamp-stalker", "Terrain Advantage", "counts-as", "maneuver", "save", ("swampland",), None,
                  f"{RACIAL}.swamp-stalkers.terrain-advantage"),
    RacialAbility("amazon", "Terrain Advantage", "counts-as", "maneuver", "missile", ("flatland",), None,
                  f"{RACIAL}.amazons.terrain-advantage"),
    RacialAbility("dwarf", "Terrain Advantage", "double", "maneuver", None, ("highland",), None,
                  f"{RACIAL}.dwarves.terrain-advantage"),
    RacialAbility("goblin", "Terrain Advantage", "double", "maneuver", None, ("swampland",), None,
                  f"{RACIAL}.goblins.terrain-advantage"),
    # "during a melee attack, count save results (only from actual save icon results, not ID icons
    #  or SAIs) as if they were melee results" (in a melee attack IDs count as melee already)
    RacialAbility("firewalker", "Flaming Shields", "counts-as", "save", "melee", None, ("melee",),
                  f"{RACIAL}.firewalkers.flaming-shields", icons_only=True),
    # "During a save roll against a missile action, each Scalders unit ... provides one automatic
    #  save result to this army against any non-SAI missile damage"
    RacialAbility("scalder", "Intangibility", "auto", None, "save", None, ("save-missile",),
                  f"{RACIAL}.scalders.intangibility"),
    # "double their maneuver results during a counter-maneuver roll", at any terrain
    RacialAbility("treefolk", "Double Maneuvers", "double", "maneuver", None, None, ("counter-maneuver",),
                  f"{RACIAL}.treefolk.double-maneuvers"),
)


def spell_modifier(op, results, amount, scope, stacks=False):
    """A spell's roll modifier (engine.modifiers): its operation, results ("any" or a tuple), amount, scope and
    whether castings stack; tsr-1996 builds its own with it."""
    return SpellModifier(op, results if results == "any" else tuple(results), amount, scope, stacks)


# Each entry restates its spell's text in 002 (cited as <color>-spells.<spell> in the trace).
SPELL_MODIFIERS = {
    # "subtract one result at the target terrain" (owner splits it in a combination roll)
    "ash-storm": (spell_modifier("subtract", "any", 1, "terrain", stacks=True),),
    # "subtract one result from the target army"
    "palsy": (spell_modifier("subtract", "any", 1, "army", stacks=True),),
    "evil-eye": (spell_modifier("subtract", ["save"], 1, "army", stacks=True),),
    "decay": (spell_modifier("subtract", ["melee"], 1, "army", stacks=True),),
    "transmute-rock-to-mud": (spell_modifier("subtract", ["maneuver"], 6, "army", stacks=True),),
    "higher-ground": (spell_modifier("subtract", ["melee"], 5, "army"),),
    "magic-drain": (spell_modifier("subtract", ["magic"], 2, "terrain", stacks=True),),
    "fields-of-ice": (spell_modifier("subtract", ["maneuver"], 6, "terrain"),),
    # "subtract four maneuver and four missile results at the target terrain"
    "deluge": (spell_modifier("subtract", ["maneuver"], 4, "terrain"), spell_modifier("subtract", ["missile"], 4, "terrain")),
    # "halve all maneuver results at the target terrain, and all missile damage into or at"
    "wall-of-fog": (spell_modifier("divide", ["maneuver"], 2, "terrain"), spell_modifier("divide", ["missile"], 2, "missile-into")),
    # "halve all missile damage into or out of the target terrain"
    "dust-devil": (spell_modifier("divide", ["missile"], 2, "missile-into-or-out"),),
    "blizzard": (spell_modifier("divide", ["melee"], 2, "terrain"),),
    "dancing-lights": (spell_modifier("divide", ["missile", "magic"], 2, "army"),),
    # "halve all save results at the target terrain"
    "black-rain": (spell_modifier("divide", ["save"], 2, "terrain"),),
    # unit spells: "The target unit's melee results are doubled"
    "burning-hands": (spell_modifier("multiply", ["melee"], 2, "unit"),),
    "flaming-armor": (spell_modifier("multiply", ["save"], 2, "unit"),),
    "flaming-spears": (spell_modifier("multiply", ["missile"], 2, "unit"),),
    "earthen-armor": (spell_modifier("add", ["save"], 1, "unit"),),
    # "add N <result> results to the target army"
    "stoneskin": (spell_modifier("add", ["save"], 1, "army", stacks=True),),
    "watery-double": (spell_modifier("add", ["save"], 1, "army", stacks=True),),
    "wall-of-ice": (spell_modifier("add", ["save"], 3, "army"),),
    "wind-wall": (spell_modifier("add", ["save"], 3, "army"),),
    "wind-walk": (spell_modifier("add", ["maneuver"], 4, "army", stacks=True),),
    "restless-dead": (spell_modifier("add", ["maneuver"], 4, "army", stacks=True),),
    "water-walking": (spell_modifier("add", ["maneuver"], 4, "army", stacks=True),),
    # dragon breaths (002 Dragons): "The target army's maneuver results are halved" (gold), "missile results
    # are halved" (green), "until the beginning of its next turn"; "Multiple breaths' effects with duration
    # are cumulative (including halving effects)"
    "gold-dragon-breath": (spell_modifier("divide", ["maneuver"], 2, "army", stacks=True),),
    "green-dragon-breath": (spell_modifier("divide", ["missile"], 2, "army", stacks=True),),
}

# What a spell's target must be beyond its kind, each restating its spell's text in 002.
SPELL_TARGETS = {
    "black-rain": TargetRule(element="green"),           # "any terrain with the green (water) element"
    "water-walking": TargetRule(army_at_element="green"),  # "any army located at a terrain with the green"
    "firestorm": TargetRule(enemy_present=True),         # "any terrain that has an enemy army present"
    # "any terrain with the green (water) / red (fire) element and has an enemy army present"
    "tidal-wave": TargetRule(element="green", enemy_present=True),
    "volcanic-eruption": TargetRule(element="red", enemy_present=True),
    # "any terrain with the gold (earth) element that is not at the 8th face"
    "create-mountain": TargetRule(element="gold", not_eighth=True),
    # "any terrain not already under the effects of a Mire (Wall of Thorns) spell or currently at the 8th face"
    "mire": TargetRule(not_eighth=True, alone=True),
    "wall-of-thorns": TargetRule(not_eighth=True, alone=True),
    "call-of-the-wild": TargetRule(race="feral"),        # "Target any of your Feral units in play"
    "scent-of-fear": TargetRule(at_terrain=True),         # "Target any enemy army at a terrain"
    "night-moves": TargetRule(at_terrain=True, has_race="undead"),
    "soiled-ground": TargetRule(terrain_type="swampland"),   # "Target any swampland terrain"
    # "Target one health-worth of (enemy / your) units"
    "fearful-flames": TargetRule(health_worth=True),
    "camouflage": TargetRule(health_worth=True),
    "hide": TargetRule(health_worth=True),
    "fade": TargetRule(race="undead"),                   # "Target one of your Undead units"
    # "Target one of your units not already under the effects of a Burning Hands (Flaming Armor, Flaming
    # Spears) spell" (002 Red (Fire) Spells; Earthen Armor, 002 Gold (Earth) Spells, "of an Earthen Armor spell")
    "earthen-armor": TargetRule(alone=True),
    "burning-hands": TargetRule(alone=True),
    "flaming-armor": TargetRule(alone=True),
    "flaming-spears": TargetRule(alone=True),
    "explode-stone": TargetRule(health_worth=True),      # "any enemy 1-health (common) magical item"
    "dispel-dragonkin": TargetRule(race="dragonkin", other_color=True),
    "promote-dragonkin": TargetRule(race="dragonkin", same_color=True),
}

# Immediate spells, each restating its text in 002.
SPELL_EFFECTS = {
    # "inflict one point of damage to the target army, which may roll to save"
    "hailstorm": SpellEffect("army-damage", 1, "army"),
    # "Only 1-health (common) units roll for saves, and only 1-health units can be removed"
    "foul-water": SpellEffect("army-damage", 1, "commons"),
    # "inflict two points of damage to each army at the target terrain, which may roll to save"
    "firestorm": SpellEffect("terrain-damage", 2, "army"),
    # "inflict eight points of damage to each army at the target terrain, which may roll to save. In
    #  addition, reduce the target terrain die one step unless any army generates eight or more maneuver
    #  results during this combination roll"
    "tidal-wave": SpellEffect("terrain-damage", 8, "army", reduce_unless=8),
    "volcanic-eruption": SpellEffect("terrain-damage", 8, "army", reduce_unless=8),
    # "inflict one point of damage on the target unit. The target unit must generate saves"
    "firebolt": SpellEffect("unit-damage", 1, "unit"),
    # "Immediately inflict one point of damage on the target unit. The target unit must generate saves
    #  against the damage. If the unit saves against the damage, it must generate another save or
    #  immediately flee to the reserve area"
    "fearful-flames": SpellEffect("unit-damage", 1, "unit", then_flee=True),
    # "Each 1-health (common) unit at the target terrain must generate a save or immediately flee to its
    #  reserve area"
    "mirage": SpellEffect("terrain-flee"),
    # "One health-worth of units in the target army must immediately flee to its reserve area"
    "scent-of-fear": SpellEffect("army-flee"),
    # "All dead units are immediately buried and are counted as a number of points of black (death) magic
    #  equal to double their total health value buried"
    "spirit-furnace": SpellEffect("furnace", 2),
    # "Immediately send any elemental dragon with the same color as the magic used to cast this spell to the
    #  target terrain" (Ivory, Hybrid, Ivory Hybrid and White Dragon alike, each its own kind)
    #  (Elemental, Hybrid and White: "any ... dragon", one at a terrain too; Ivory and Ivory Hybrid: "in a
    #  summoning pool")
    "summon-elemental-dragon": SpellEffect("summon-dragon", dragons="elemental"),
    "summon-hybrid-dragon": SpellEffect("summon-dragon", dragons="hybrid"),
    "summon-ivory-dragon": SpellEffect("summon-dragon", dragons="ivory"),
    "summon-ivory-hybrid-dragon": SpellEffect("summon-dragon", dragons="ivory-hybrid"),
    "summon-white-dragon": SpellEffect("summon-dragon", dragons="white"),
    # "Target any enemy 1-health (common) magical item. Target item is immediately buried"
    "explode-stone": SpellEffect("bury-item"),
    # "Target one of your magical items ... Immediately move the target item to any of your other armies"
    "airy-acquisition": SpellEffect("carry"),
    # "Target one health-worth of magical items, artifacts, or medallions in your BUA. Immediately restore the
    #  target to the casting army"
    "reforge-item": SpellEffect("restore"),
    # "Target one health-worth of your Dragonkin in the summoning pool with the same color as the magic used
    #  to cast this spell to immediately join the casting army"
    "summon-dragonkin": SpellEffect("summon-kin"),
    # "Target any enemy dragonkin with a different color than the color used to cast this spell. Immediately
    #  inflict one point of damage to the target unit with no save possible"
    "dispel-dragonkin": SpellEffect("unit-damage", 1, "none"),
    # "Target any of your armies containing an Undead unit at a terrain. The army immediately attempts to
    #  maneuver the terrain. Opponents at the terrain may counter-maneuver as usual"
    "night-moves": SpellEffect("maneuver"),
    # "Target one of your dragonkin in any of your armies with the same color as the magic used to cast this
    #  spell. This dragonkin can be immediately promoted ... to a unit of greater health (not just one health
    #  more) with multiple castings"
    "promote-dragonkin": SpellEffect("promote-kin"),
    # "Target Eldarim units in your DUA. The target unit is immediately recruited into the casting army or
    #  promoted into your casting army ... to a unit of greater health (not just one health more)"
    "rise-of-the-eldarim": SpellEffect("rise", race="eldarim"),
    # "Target one color of an enemy army's Dragonkin ... must immediately roll an ID icon or be demoted (one health
    #  only). If any roll belly then they are buried. Dragonkin that cannot be demoted are simply returned to
    #  the summoning pool. All the dragonkin of the targeted color in the casting army are buried"
    "demote-dragonkin": SpellEffect("demote-kin"),
    # "All Dragonkin in the target army must immediately roll an ID icon or be demoted. Those Dragonkin that
    #  cannot be demoted and all Dragonkin in the casting army are immediately buried"
    "degenerate-dragonkin": SpellEffect("demote-kin", all_kin=True),
    # "Target any enemy DUA. Choose up to three health-worth of dead units that must immediately roll a save or
    #  be buried. A number of Undead units from your DUA, up to the total number of health buried, may join the
    #  casting army"
    "exhume": SpellEffect("exhume", 3, race="undead"),
    # "All dead units form into a magically constructed army that immediately takes a melee action against any
    #  enemy army. Bury any of your units killed during this melee action and return the rest to your DUA"
    "haunt": SpellEffect("haunt"),
    # "Target a minor terrain in your summoning pool that contains the green (water) element. The target minor
    #  terrain becomes a swampland minor terrain for the duration of the game"
    "reform-land": SpellEffect("reform", element="green", becomes="swampland"),
    # "Target any of your Feral units in play. Immediately move the target unit to the casting army"
    "call-of-the-wild": SpellEffect("recall"),
    # "inflict one point of damage to the target unit with no save possible"
    "finger-of-death": SpellEffect("unit-damage", 1, "none"),
    # "The target unit must immediately generate a save or be killed"
    "lightning-strike": SpellEffect("unit-damage", 0, "or-killed"),
    # "Target one health-worth of units in your DUA. Target units immediately join the casting army"
    "breath-of-life": SpellEffect("resurrect"),
    "spark-of-life": SpellEffect("resurrect"),
    "water-of-life": SpellEffect("resurrect"),
    "reanimate-dead": SpellEffect("resurrect"),
    # "Target one health-worth of units in any enemy's DUA. Target units are immediately buried"
    "ashes-to-ashes": SpellEffect("bury"),
    "bloat-corpses": SpellEffect("bury"),
    "dust-to-dust": SpellEffect("bury"),
    # "Target up to two points of non-blue (non-red) spells in play. The target spell is immediately negated"
    "blue-elemental-blast": SpellEffect("negate", 2),
    "red-elemental-blast": SpellEffect("negate", 2),
    # "Target any of your units at any terrain. Immediately move the target unit to any other terrain"
    "path": SpellEffect("move"),
    # "Each army at the target terrain may make a maneuver avoidance roll. Immediately reduce the target
    #  terrain one face if no army generates at least eight maneuver results"
    "flash-flood": SpellEffect("terrain-reduction", 8),
}

# --- state SAIs (002 SAI List): what their special results leave in play, as effects named by the SAI ---------
# how long each lasts ("until the beginning of your next turn" ...), as a spell's duration
SAI_DURATIONS = {
    "illusion": "until-beginning-of-next-turn",
    "entangle": "until-beginning-of-next-turn", "web": "until-beginning-of-next-turn",
    "net": "until-beginning-of-next-turn", "wither": "until-beginning-of-next-turn",
    "frost-breath": "until-beginning-of-next-turn", "galeforce": "until-beginning-of-next-turn",
    "cloak": "until-beginning-of-next-turn",
    # Sleep: "cannot be rolled until the end of your next turn"; Hypnotic Glare: "Until the end of your next turn"
    "sleep": "until-end-of-next-turn", "hypnotic-glare": "until-end-of-next-turn",
    # Stun: "cannot be rolled until the end of your turn"
    "stun": "until-end-of-turn",
}
SAI_STATES = {
    # "choose up to four health-worth of units in the defending army to be immediately entangled ... Killing the
    #  entangling unit negates the effect"
    "entangle": SaiState(target="units", bound="killed"),
    # "... to be webbed unless each targeted unit immediately rolls a melee result"
    "web": SaiState(target="units", avoid="melee"),
    # "... to be immobilized unless each targeted unit immediately rolls a maneuver result"
    "net": SaiState(target="units", avoid="maneuver"),
    # "choose one unit in an opposing army to be immediately put to sleep, with no save possible"
    "sleep": SaiState(target="unit"),
    # "... to be stunned unless each targeted unit immediately rolls a maneuver"
    "stun": SaiState(target="units", avoid="maneuver"),
    # Wither: "target an opposing army"; Frost Breath: "choose an opposing army"; Galeforce: "choose any enemy army"
    "wither": SaiState(target="enemy-army"), "frost-breath": SaiState(target="enemy-army"),
    "galeforce": SaiState(target="enemy-army"),
    # Illusion: "immediately choose any of your armies"
    "illusion": SaiState(target="own-army"),
    # Hypnotic Glare: "This effect ends immediately for all units if the glaring unit leaves the current terrain,
    #  is killed" (and for a unit "if the hypnotized unit leaves the terrain")
    "hypnotic-glare": SaiState(target="units", bound="present"),
}
# "The target unit(s) cannot be rolled" (Entangle, Web, Net, Stun), "The target unit cannot be rolled" (Sleep),
# "the hypnotized units may not roll" (Hypnotic Glare)
SAI_PROTECTIONS = {sai: Protection(no_rolls="any") for sai in ("entangle", "web", "net", "sleep", "stun",
                                                               "hypnotic-glare")}
SAI_MODIFIERS = {
    # Wither: "after the target army makes any roll but before they finalize any results, subtract one result
    #  per Wither icon from that roll" (one casting per icon: they add up)
    "wither": (SpellModifier("subtract", "any", 1, "army", True),),
    # Frost Breath: "halve the results of that roll" (an effect that divides does not combine: 002 Targeting)
    "frost-breath": (SpellModifier("divide", "any", 2, "army", False),),
    # Cloak: "add four magical save results to the army containing this unit"
    "cloak": (SpellModifier("add", ("save",), 4, "army", True),),
}

# 002 Dragons, the dragon icons, each restating its text.
DRAGON_FACES = {
    # "The dragon's five automatic saves do not count during this attack"
    "belly": DragonFace(no_saves=True, cite=f"{E}:dragons.belly-dragon"),
    # "Against armies, dragon breath effects are based on the dragon's color"
    "breath": DragonFace(breath=True, cite=f"{E}:dragons.breath"),
    # "A dragon's claws inflict 6 points of damage on an army."
    "claws": DragonFace(damage=6, cite=f"{E}:dragons.claws"),
    # "A dragon's jaws inflict 12 points of damage on an army."
    "jaws": DragonFace(damage=12, cite=f"{E}:dragons.jaws"),
    # "The dragon's tail inflicts 3 points of damage on an army; roll the dragon again and apply the new result"
    "tail": DragonFace(damage=3, roll_again=True, cite=f"{E}:dragons.tail-dragon"),
    # "One unit in the target army may be immediately promoted."
    "treasure": DragonFace(promotes=1, cite=f"{E}:dragons.treasure"),
    # "A dragon's wings inflict 5 points of damage on an army. After the attack, if the dragon is still alive,
    #  it flies away. It returns to its summoning pool."
    "wing": DragonFace(damage=5, flies_away=True, cite=f"{E}:dragons.wing"),
}

# 002 Dragons, <Color> Dragon Breath: "Five health-worth of units in the target army ..."
BREATHS = {
    # "are killed, no saves possible. The target army ignores all its ID results until the beginning of its
    #  next turn"
    "black": Breath(kills=5, effect="black-dragon-breath", cite=f"{E}:dragons.black-dragon-breath-disease"),
    # "must save individually or be killed. The target army can only make save and save avoidance rolls until
    #  the beginning of its next turn"
    "blue": Breath(kills=5, save=True, effect="blue-dragon-breath", cite=f"{E}:dragons.blue-dragon-breath-lightning"),
    # "are killed, no saves possible. The target army's maneuver results are halved until the beginning of its
    #  next turn"
    "gold": Breath(kills=5, effect="gold-dragon-breath", cite=f"{E}:dragons.gold-dragon-breath-turn-to-stone"),
    # "must save individually or be killed. Those that are killed must save again or be buried. The target
    #  army's missile results are halved until the beginning of its next turn"
    "green": Breath(kills=5, save=True, burial=True, effect="green-dragon-breath",
                    cite=f"{E}:dragons.green-dragon-breath-poisonous-cloud"),
    # "are killed, no saves possible"
    "ivory": Breath(kills=5, cite=f"{E}:dragons.ivory-dragon-breath-life-drain"),
    # "are killed, no saves possible. The units killed must then either save or be buried."
    "red": Breath(kills=5, burial=True, cite=f"{E}:dragons.red-dragon-breath-flame"),
}

# 002 SFR/TSR logos (SAI List) and Eldarim Champion's Effect on Dragons
DRAGON_LOGOS = {
    # "one attacking dragon becomes tame and will not attack the Dragonlord's army"
    "sfr-tsr-logo-dragonlord": DragonLogo(power="tame", cite=f"{ELDARIM_ON_DRAGONS}.dragon-taming"),
    # "Before a dragon with a color the same as the Dragonmaster attacks ... one attacking dragon becomes tame"
    "sfr-tsr-logo-dragonmaster": DragonLogo(power="tame", matching=True, cite=f"{ELDARIM_ON_DRAGONS}.dragon-taming"),
    # "one attacking dragon is instantly slain"
    "sfr-tsr-logo-dragonslayer": DragonLogo(power="slay", cite=f"{ELDARIM_ON_DRAGONS}.dragon-slaying"),
    # "Before a dragon with a color the same as the Dragonhunter attacks ... one attacking dragon is instantly
    #  banished. The dragon is removed from the game and cannot be summoned back."
    "sfr-logo-dragonhunter": DragonLogo(power="slay", banish=True, matching=True,
                                        cite=f"{ELDARIM_ON_DRAGONS}.dragon-slaying"),
    # "one dragon is controlled for this battle only ... held motionless (do not roll it) and the army can still
    #  attack the dragon"
    "sfr-logo-dragoncrusader": DragonLogo(power="control", cite=f"{ELDARIM_ON_DRAGONS}.dragon-control"),
    "sfr-logo-dragonzealot": DragonLogo(power="control", matching=True, cite=f"{ELDARIM_ON_DRAGONS}.dragon-control"),
}

# 002 Starting the Game, Steps 1, 2, 4 and 6
SETUP = SetupRules(
    # "divide by 24 (round up any fractions) ... You cannot bring more than or less than the required number"
    dragons="per-24",
    # "you must have at least 1-health of units in each army"
    army_minimum="health",
    # "the number of health points consisting of magic users can be no more than half"
    magic_cap=True,
    # "Any results of an eight (8) are rolled again and any results of seven (7) are turned down to six (6)"
    seven_to_six=True,
    # "the Undead rare light magic troop (Vampire) ... has a magic point value of 2"
    magic_point_exceptions={"undead-vampire": 2,
                            # 002 Medallions: "When assembling your armies, the bronze medallion has a magic point
                            # value of 4"
                            "bronze-medallion": 4},
    # 002 Magical Items: an uncommon item costs 2 and a pair of them 3 (a reading, traced), a rare item 3 health
    # costs 2; commons (1), artifacts and medallions (4) cost their health
    item_costs={3: 2},
    item_pair_cost=3,
    dragonkin_per=3,
    kings_die_cap=1,
    # 002 Minor Terrains: "A player may bring up to four minor terrain dice to a game. Until brought into play,
    # they are kept in the summoning pool."
    minor_terrain_cap=4,
    # Step 5, Place Armies: the home army at the player's home terrain, the horde at another player's
    home_and_horde=True,
    # 002 The Eldarim Champions: "You can bring at most one Dragonlord for each 24 health of battle size (i.e.,
    # the same as the required number of dragons)"; likewise Dragonslayer and Dragoncrusader, and "at most one
    # Dragonmaster (of each color)", Dragonhunter and Dragonzealot alike
    champion_caps={"dragonlord": False, "dragonslayer": False, "dragoncrusader": False,
                   "dragonmaster": True, "dragonhunter": True, "dragonzealot": True},
    cites={"force": f"{E}:starting-the-game.step-1-decide-total-force-size",
           "champions": f"{E}:the-eldarim-champions.dragonlord",
           "dragons": f"{E}:starting-the-game.step-1-decide-total-force-size",
           "armies": f"{E}:starting-the-game.step-2-assemble-armies",
           "placing": f"{E}:starting-the-game.step-5-place-armies",
           "battlefield": f"{E}:starting-the-game.step-3-set-the-battlefield",
           "order": f"{E}:starting-the-game.step-4-determine-order-of-play",
           "distances": f"{E}:starting-the-game.step-6-determine-starting-distances",
           "white": f"{E}:white-dragons",
           "minor-terrains": f"{E}:minor-terrains",
           "items": f"{E}:magical-items",
           # Basic Terms: "rare items cost 3 health points" (Magical Items: "cost two points of health")
           "item-costs-read-with": f"{E}:basic-terms",
           "dragonkin": f"{E}:dragonkin",
           "kings-die": f"{E}:kings-die",
           # the order roll's SAIs: 002 counts "maneuver results", read with 003's "ignore all effects of SAIs,
           # other than maneuver results they generate" (a reading, traced)
           "order-sais-read-with": "sfr-v4:multiplayer.multiplayer-games"},
    quotes={
        "dragons": "take the total force size and divide by 24 (round up any fractions) ... You cannot bring more "
                   "than or less than the required number of dragons",
        "white": "a white dragon replaces 2 normal dragons",
        "champions": "you can bring at most one (of each color, for the Dragonmaster, Dragonhunter and "
                     "Dragonzealot) for each 24 health of battle size (i.e., the same as the required number of "
                     "dragons)",
        "armies": "you may have no more than half the total number of health points (rounded down) of your total "
                  "forces placed in a single army but you must have at least 1-health of units in each army",
        "magic-users": "the number of health points consisting of magic users can be no more than half of the "
                       "total number of health points (rounded down)",
        "magic-points": "components with at least one magic icon have a magic point value equal to their health; "
                        "for a monster or artifact each normal magic face counts one point and each Cantrip, "
                        "Create Fireminions, or other potentially magic-generating SAI face two, up to four",
        "order": "roll your entire horde army and add up all the maneuver and ID icon results; the player who "
                 "rolls the most may choose to play first or select the frontier terrain; tied players reroll",
        # 002 counts "maneuver results"; an SAI's other effects have no use before the armies are placed (003,
        # the multiplayer rules, says it outright: "ignore all effects of SAIs, other than maneuver results")
        "order-sais": "only the maneuver results an SAI generates are maneuver results",
        "minor-terrains": "a player may bring up to four minor terrain dice to a game; until brought into play, "
                          "they are kept in the summoning pool",
        "item-costs": "the 20mm four-siders are uncommon worth 2 health and cost two points of health. You may "
                      "include a second uncommon for a cost of only 1 health. So a pair of uncommons cost 3 health. "
                      "And the 22mm four-siders are rare worth 3 health and cost two points of health",
        "dragonkin": "for every full three health points of components a player brings to a game, they are allowed "
                     "(but not required) to bring one health point of Dragonkin ... Dragonkin are not in any army "
                     "before play starts",
        "kings-die": "only one Kings' Die is allowed in a player's forces",
        "battlefield": "players must choose one of the two terrain dice they brought and place it in front of "
                       "themselves to be their home terrain ... their second terrain die in the center of the playing "
                       "area as their proposed frontier terrain; the other proposed frontier terrain dice are not used",
        "home-and-horde": "1) the home army is placed at the player's home terrain, 2) the horde army is placed at "
                          "another player's home terrain, 3) the campaign army is placed at any other terrain where "
                          "the player does not already have an army",
        "distances": "any results of an eight (8) are rolled again and any results of seven (7) are turned down "
                     "to six (6)",
    },
)

SFR_2012 = Ruleset(
    edition=E,
    setup=SETUP,
    # 002 Applying Dice Modifiers: subtract, divide, multiply, racial abilities, add
    modifier_steps=("subtract", "divide", "multiply", "racial", "add"),
    # 002 The Eighth Face: "all save results rolled are doubled ... all maneuver results"
    eighth_face_doubles=("save", "maneuver"),
    monster_icon_value=4,
    racial=RACIAL_ABILITIES,
    # 002 Minor Terrains, Flood: "The acting army's maneuver results are halved until the beginning of your next
    # turn"; Revolt: "The acting army's melee and save results are halved until the beginning of your next turn"
    spell_modifiers={**SPELL_MODIFIERS, "flood": (spell_modifier("divide", ["maneuver"], 2, "army"),),
                     "revolt": (spell_modifier("divide", ["melee", "save"], 2, "army"),), **SAI_MODIFIERS},
    # 002 Minor Terrain Icons: Magic, Melee, Missile "Allows the owning army to conduct a [...] action even when
    # the major terrain is set on another action"; Double Maneuvers, Double Saves; ID: "either allows the owning
    # army to conduct melee, missile, or magic actions as the owner sees fit, or it doubles the owning armies
    # maneuvers and saves"
    minor_actions={"melee": ("melee",), "missile": ("missile",), "magic": ("magic",),
                   "id-actions": ("melee", "missile", "magic")},
    minor_doubles={"double-maneuvers": ("maneuver",), "double-saves": ("save",), "id-doubles": ("maneuver", "save")},
    disaster_effects={"flood": "until-beginning-of-next-turn", "revolt": "until-beginning-of-next-turn"},
    cites=CITES,
    # 002 First March, Magic: "Coral Elves cast blue and green magic; Lava Elves cast red and black
    # magic; ... Treefolk cast green and gold magic"; Amazons "the element colors of the terrain
    # where they are located"; Undead "only that color", black
    race_colors={
        "coral-elf": ("blue", "green"), "lava-elf": ("red", "black"), "dwarf": ("red", "gold"),
        "goblin": ("black", "gold"), "firewalker": ("blue", "red"), "feral": ("blue", "gold"),
        "swamp-stalker": ("green", "black"), "frostwing": ("blue", "black"), "scalder": ("red", "green"),
        "treefolk": ("green", "gold"), "amazon": (), "undead": ("black",),
    },
    # "Eldarim ... any individual Acolyte of Eldarim can only cast one color of magic. Only the mighty
    # Dragonlord and Dragonslayer can cast multiple colors"; 002 Dragonkin: "Dragonkin units cannot roll
    # for magic or missile actions"; 002 The Eldarim Champions, Dragoncrusader: "Dragoncrusaders can cast any
    # color of magic (not just the colors at the current terrain)"
    one_color_races=("eldarim",),
    all_color_units=("dragonlord", "dragonslayer", "dragoncrusader"),
    no_magic_races=("dragonkin",),
    # 002 Dragonkin: "Dragonkin cannot carry magical items or artifacts"; Magical Items: "Amazon units may carry
    # magical items of any color"; Dragonlord: "can carry magical items of any color (including medallions)";
    # Kings' Die: "can hold a magical item of any color (including medallions)"; Dragonslayer: "can carry
    # magical items (including medallions) of any color"; Dragoncrusader: "can carry magical items of any color
    # (including medallions)"
    no_carry_races=("dragonkin",),
    # 002 Dragonkin: "Dragonkin cannot leave the terrain where they are summoned"
    terrain_bound_races=("dragonkin",),
    carry_any_races=("amazon",),
    carry_any_units=("dragonlord", "dragonslayer", "dragoncrusader", "kings-die"),
    # 002 Amazons, Reserve Attack: "when in the reserve area, cannot use magic. Instead they may select an enemy
    # army at their home terrain or the frontier and take a missile action"
    reserve_missile_races=("amazon",),
    # 002 Firewalkers, Terrain Flight: "During the retreat phase of the Reserve Movement, the Firewalkers may
    # immediately move from any terrain with the blue (air) element to any other terrain"
    terrain_flight={"firewalker": "blue"},
    # 002 Dragonlord, Dragonmaster: "During the retreat step of a reserve movement, a Dragonlord [Dragonmaster] can
    # "ride" a tamed dragon to any other terrain"
    dragon_riders=("dragonlord", "dragonmaster"),
    # 002 Kings' Die: "The Kings' Die can never leave the reserves"
    reserve_bound_units=("kings-die",),
    # 002 Deadlands: "the target terrain gains the black (death) element"; Call Water: "add the water
    # (green) element"; Part Water: "remove the water (green) element ... for all but the caster's components"
    terrain_elements={"deadlands": ("add", "black"), "call-water": ("add", "green"), "part-water": ("remove", "green")},
    spell_effects=SPELL_EFFECTS,
    spell_targets=SPELL_TARGETS,
    # 002 Multiplicity ("Multiple castings target multiple ..."): "multiple castings of another instance of this
    # spell at the same target during separate magic actions will have no added effect"
    repeat_instance_no_effect=True,
    # 002 Create Mountain: "in addition to its normal terrain type, it is also considered to be a
    # highland terrain" (its type only: the spell, unlike Deadlands, gives no element)
    terrain_types={"create-mountain": "highland"},
    # 002 Fields of Ice: "during a maneuver attempt at the target terrain the results of ties go to the
    # non-acting player"
    ties_to_defender=("fields-of-ice",),
    spell_protections={
        # "the target unit 1) makes no rolls, 2) cannot be the target of a melee, missile, magic, or dragon
        #  effect, ... 4) cannot be taken as a loss to account for damage"
        "hide": Protection(no_rolls="any", immune=("any",)),
        # "1) cannot roll during a melee or missile action or during a dragon attack, 2) cannot be the target
        #  of a missile, melee, or dragon effect or be taken as a casualty for this damage"
        "fade": Protection(no_rolls="combat", immune=("melee", "missile", "dragon")),
        # "only melee effects can affect the target unit and only melee damage can kill a camouflaged unit" (a racial
        # ability or a minor terrain's disaster is no melee effect either: engine.exchange.replant, engine.actions.minor)
        "camouflage": Protection(immune=("missile", "magic", "dragon", "racial", "disaster")),
        **SAI_PROTECTIONS,
    },
    # 002 Open Grave: "any units taken as casualties immediately go to the reserve area rather than the
    # DUA"; Leaving: "... go to any other of your armies at a terrain rather than the DUA" (both "for any
    # army-targeting effect that causes damage to the target army")
    casualties_go={"open-grave": "reserve", "leaving": "other-army"},
    # 002 The Stoneskin Rule's exception: Smite and Stone state "no saves (including those provided by spells)"
    unprotected_sais=("smite", "stone"),
    # 002 Honor the Dead: "only dead units with the black (death) aspect in the target DUA can be buried"
    burial_limits={"honor-the-dead": "black"},
    # 002 Soiled Ground: "any unit killed at the target terrain that goes into the DUA must roll a save or be
    # buried"
    burial_rolls=("soiled-ground",),
    # 002 Backlash: "if any army at the target terrain takes a magic action and casts magic, then, after all
    # spells are resolved, the army must save against an amount of damage equal to the combined casting costs"
    magic_backlash=("backlash",),
    # 002 Wilding: "one component in the target army may double its melee or save results"
    component_doublers={"wilding": ("melee", "save")},
    # 002 Flashfire: "any one unit in the target army whose last roll result has not been finalized may be
    # rolled again ... applies the new roll result instead"
    rerolls_for={"flashfire": True},
    # 002 Illusion: "choose any of your armies. Until the beginning of your next turn, this army cannot be
    # targeted by any missile or enemy magic effect"
    effect_sais=SAI_DURATIONS,
    sai_states=SAI_STATES,
    # 002 Killed and Buried: "unit abilities (Phoenix's Rise from the Ashes)"
    conditional_units={"phoenix": "rise-from-the-ashes"},
    # Ferry: "move itself and up to four health-worth of units in the army containing this unit"; Teleport,
    # Firewalking: "up to three health-worth"
    sai_move_worth={"ferry": 4, "teleport": 3, "firewalking": 3},
    army_shields={"illusion": ("missile", "magic")},
    # 002 Frostwings, Magic Negation: "Frostwings may simultaneously make a magic negation roll"
    magic_negators=("frostwing",),
    # 002 Wall of Thorns: "any army making a maneuver attempt that results in changing the terrain face causes
    # damage to itself equal to the total health-worth of units in the army. Roll the army; each melee result
    # reduces the damage by one point"
    maneuver_damage=("wall-of-thorns",),
    # 002 Mire: "no army at the target terrain can make a maneuver attempt to change the terrain face"
    no_maneuver=("mire",),
    # 002 Necromantic Wave: "all magic results in the target army may be counted as melee results"
    spell_abilities={"necromantic-wave": RacialAbility(None, "Necromantic Wave", "counts-as", "magic", "melee",
                                                       None, None, f"{E}:black-death-spells.necromantic-wave")},
    # 002 Promotion: "Units under the effect of spells that make them invisible (e.g. Camouflage, Fade and
    # Hide) cannot be promoted"
    invisible=("camouflage", "fade", "hide"),
    # 002 Dragons: "Each dragon is worth 5-health and has 5 automatic saves"; White Dragons: "double the health
    # (10) and do twice as much damage ... Even the Treasure is twice as much"
    dragon_faces=DRAGON_FACES,
    dragon_health=5,
    dragon_saves=5,
    dragon_scale={"white": 2},
    breaths=BREATHS,
    breath_effects={
        "black-dragon-breath": (f"{E}:dragons.black-dragon-breath-disease", "ignore-ids"),
        "blue-dragon-breath": (f"{E}:dragons.blue-dragon-breath-lightning", "save-only"),
        "gold-dragon-breath": (f"{E}:dragons.gold-dragon-breath-turn-to-stone", ""),
        "green-dragon-breath": (f"{E}:dragons.green-dragon-breath-poisonous-cloud", ""),
        # "Against another dragon, dragon breath negates the automatic five saves until the end of the marching
        #  player's next turn"
        "dragon-breath": (f"{E}:dragons.breath", "no-saves"),
    },
    dragon_breath_effect="dragon-breath",
    dragon_logos=DRAGON_LOGOS,
    # "During any roll, the SFR/TSR logo counts as a two point ID icon" (Dragonmaster, Dragonhunter, Dragonzealot)
    id_icons={"sfr-tsr-logo-dragonmaster": 2, "sfr-logo-dragonhunter": 2, "sfr-logo-dragonzealot": 2},
)
