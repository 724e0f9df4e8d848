"""tsr-1996, continued (engine.editions.tsr1996 holds 000's rules): the FAQ's (004) rulings on the monsters and
their Special Action Icons, the Amazons in reserves, and what each 000/004 SAI makes of a charge's two rolls."""

from __future__ import annotations

from ..sais import ANY, NOT_MODELLED, SAVES, SaiUse
from ..sais import SAI_USES as SFR_2012_SAIS
from .tsr1996 import DRAGON_RULES, E, MARCH, QUOTES, SAI, SAI_REROLLS, SAI_USES, TSR_1996


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
                         "doubles it effect', Regenerate C, is read of the health it brings back)",
                         f"{E}:faq.monster-special-action-icons.general-rules"),
    "regenerate:raise": ("bring back four health of units from your dead to this location (Regenerate never doubles "
                         "it effect)", REGENERATE),
    "regenerate:raise-roll": ("Troops brought back from the dead with this power are rolled immediately and their "
                              "results are counted toward the current roll", REGENERATE),
}, sai_read_with={**TSR_1996.sai_read_with, "regenerate:gives": REGENERATE},
    # the reading said where the eighth face doubles Regenerate's saves (engine.doubling._sai_readings)
    quotes={**TSR_1996.quotes, "regenerate:eighth-face": "its four saves double there like every save (General Rules "
            "D2: 'Regenerate is the only new special action icon which can benefit from the Eighth Face'); "
            "'Regenerate never doubles it effect' (Regenerate C) is read of the four health it brings back"})

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
# do not require rolls (unopposed maneuvers, retreats to reserves)": 002's Entangle (engine.actions.state_sais)
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
                                    "\"Each normal icon on a monster unit counts as four point of effect\" "
                                    f"({E}:faq.monsters.general-rules))", ENTANGLE),
               "web:targets": ("four health of your choice in the opposing army (a monster's icon: \"Each normal "
                               "icon on a monster unit counts as four point of effect\" "
                               f"({E}:faq.monsters.general-rules))", WEB)},
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
    # D: "since magic is simultaneous, units killed by Lightning still roll in the group save against the
    # Hailstorms" (engine.actions.spells)
    simultaneous_magic=True,
    # D: "A Gargoyle is targeted by 3 Lightning Strikes ... the Gargoyle must roll three successful saves in order
    # to survive" (engine.actions.magic._each_its_own, engine.actions.spells.resolve)
    castings_at_one_unit=True,
    cites={**TSR_1996.cites, "simultaneous-magic": DISPEL},
    sai_words={**TSR_1996.sai_words,
               "dispel-magic:fails": ("The dispel face itself must roll up to nullify magic; ID icons do NOT count in "
                                      "this instance ... If this roll fails, a second roll is made to determine if "
                                      "the Gargoyle saves (and this time, ID icons do count)", DISPEL),
               "dispel-magic:who": ("When one or more spells target an army containing this unit or the terrain the "
                                    "unit occupies, you may roll this unit to resist ... Only units bearing a dispel "
                                    "icon which are targeted by the unit-targeting spell may roll to disple", DISPEL),
               "dispel-magic:negates": ("If multiple spells are targeted on the army, its terrains, or its units, any "
                                        "single Dispel Magic face nullifies all spells", DISPEL),
               "dispel-magic:no-effect:magic": ("Dispel icons do not count as magic for any purposes", DISPEL),
               "dispel-magic:once": ("Only one Dispel attempt may be attempted per volley of magic", DISPEL),
               "dispel-magic:one-unit": ("A Gargoyle is targeted by 3 Lightning Strikes. It makes only one roll to "
                                         "dispel. If the dispel succeeds, all of the Lightning Strikes are nullified. "
                                         "If the dispel fails, the Gargoyle must roll three successful saves in order "
                                         "to survive", DISPEL),
               "dispel-magic:no-effect": ("During a dragon attack, Dispel Magic has no effect", DISPEL),
               # G: the Summon is countered (engine.actions.magic)
               "dispel-magic:summon": ("When the dragon is first summoned, however, a Dispel Magic would have the "
                                       "effect of countering the Summon. The dragon is returned whence it came, "
                                       "whether a player's dead area or a terrain", DISPEL)},
)

# --- 004 Roar, Poison, Smother in 004's words (issue 7, the FAQ rulings) ------------------------------------

# The four health they pick: Monsters C, "Each normal icon on a monster unit counts as four point of effect"
# (engine.actions.strikes); Roar B: where the frightened units go (engine.moves)
_MONSTER_POINTS = ("a monster's icon: \"Each normal icon on a monster unit counts as four point of effect\" "
                   f"({E}:faq.monsters.general-rules)")
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
                                    "icon on a monster unit counts as four point of effect\" "
                                    f"({E}:faq.monsters.general-rules))", ILLUSION),
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
# Sprite Swarm (tsr-1996 catalog entry without a race, built Coral Elf: ddref.scenario.build EDITION_MONSTER_RACES)
TSR_1996 = TSR_1996.evolve(cites={**TSR_1996.cites, "group-monster-reroll": f"{E}:faq.monsters.sprite-swarm"})


# --- SAIs in a charge (issue 7): what each 000/004 entry makes of the charge's two rolls -------------------
# The charging army's roll ("charge", above) and the charged army's one roll ("charged", engine.actions.charge):
# 004 General Rules A, "When the term "during melee" is used, it is intended to indicate an effect that occurs only
# during (A) a skirmish attack, (B) a skirmish counter-attack, or (C) a charge roll by attacker or defender".
MONSTER_SAIS = f"{E}:faq.monster-special-action-icons"
GENERAL = f"{MONSTER_SAIS}.general-rules"
# C: "the effect MUST be targeted on the enemy army": an empty targets list is refused (engine.actions.select_none)
TSR_1996 = TSR_1996.evolve(cites={**TSR_1996.cites, "select-none": GENERAL})
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
