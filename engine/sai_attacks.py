"""How each targeted SAI of a melee or missile action picks its targets and what it does to them, as data.

002 SAI List gives, per SAI, who is chosen (one unit "for each unit that generates" it, "one unit", "up to
four health-worth", "one health-worth ... per icon", an army) and what happens to them (damage they save
against alone, a roll they must make "individually or be killed", being killed with no save, fleeing).
engine.actions.specials reads these records; engine.sais says in which rolls each SAI is special.

Reading of "four" (002 SAI List, preamble: "The SAIs on ten-sided dice generates four results unless stated
otherwise", "rare (3 health) magical items generates three results"; SAI Targeting, Charm example: "two
Beholders each roll a Charm SAI (worth 4 points each) ... up to eight health-worth"): where an entry says
"four points of damage" or "up to four health-worth", the number is the SAI's points as rolled (four on a
monster), so identical SAIs combined reach the sum of their points. A number the text fixes otherwise
(Gore's two points, Flame's two health-worth per face) is ``per_face``.
"""

from __future__ import annotations

from typing import Literal

from .value import Value

Pick = Literal["per-roller", "one-unit", "worth", "army", "points"]
Fate = Literal["killed", "buried", "flee"]


class AttackSai(Value):
    """One targeted SAI.

    ``pick``: ``per-roller`` one defending unit for each unit that rolled it (Kick, Hug); ``one-unit``;
    ``worth`` units up to a health-worth (the SAI's points, or ``per_face`` for each face rolled);
    ``army`` any opposing army (Sneak Attack); ``points`` the points spread over units as the acting player
    chooses (Bullseye).
    ``chooser``: ``acting`` (the attacker names ``targets``) or ``owner`` (the defending player chooses, as
    casualties: as much as possible, 002 SAI Targeting).
    ``damage``: for ``per-roller`` and ``points``, the damage done to each target (None: the roller's points;
    Gore fixes two); ``saves``: whether the target rolls saves against it, by itself (Hug: no).
    ``test``: the result each target must roll by itself (``unit_saves``) to escape: ``save``, ``id`` (its
    ID icon), ``maneuver``, ``non-id-save`` (Scare).
    ``fail``: what happens to a target that does not escape (or to every target when there is no test).
    ``passed``: what happens to a target that escapes (Seize: "Those that roll an ID icon flee").
    ``on_id``: what rolling its ID icon does (Scare: "killed with no save possible").
    ``burial``: what a killed target must then roll or be buried (``save``; ``save-or-maneuver``).
    ``rise``: Undead return from the acting player's DUA up to the health killed (Convert).
    ``answer``: the target rolls back at the rolling unit, which cannot save (Hug: ``melee``; Coil:
    ``melee`` in a combination roll with its saves).
    """

    pick: Pick
    per_face: int | None = None
    chooser: Literal["acting", "owner"] = "acting"
    damage: int | None = None
    saves: bool = True
    test: Literal["save", "id", "maneuver", "non-id-save"] | None = None
    fail: Fate = "killed"
    passed: Fate | None = None
    on_id: Fate | None = None
    burial: Literal["save", "save-or-maneuver"] | None = None
    answer: Literal["melee"] | None = None
    rise: bool = False      # Convert: the acting player's dead Undead may return, up to the health killed
    # tsr-1996 Flame (004): "kill and bury one unit of two health or less" -- the most health a target may have
    max_health: int | None = None
    # tsr-1996 Flame C: "Open Grave DOES save Flamed units; affected units go to the Reserves as normal"
    spared_by_grave: bool = False
    # a Dragonkin's breath (002): an army with a Dragonslayer, or a Dragonhunter of the breathing dragonkin's color,
    # is immune (Dragonslayer: "immune to all dragon and Dragonkin breaths ... extends this immunity to the rest of
    # the army"; Dragonhunter: "immune to breath from dragons and Dragonkin of the same color"), and a dragonkin
    # killed by it is buried (Dragonkin: "taken as casualties from ... Dragonkin's breath effect are immediately
    # buried")
    kin_breath: bool = False


ATTACK_SAIS: dict[str, AttackSai] = {
    # "The total damage may individually target one or more units ... Each target unit must immediately
    #  generate saves against the damage assigned to it"
    "bullseye": AttackSai(pick="points"),
    # "Kick immediately inflicts four points of damage on the target unit, which must generate saves"
    "kick": AttackSai(pick="per-roller"),
    # "inflict four points of damage ... a combination roll: to generate saves against the Coil damage and/or
    #  inflict melee damage on the coiling unit. The coiling unit cannot roll to save against this damage."
    "coil": AttackSai(pick="per-roller", answer="melee"),
    # "two points of damage on the target unit, which must generate saves against this damage or be killed
    #  and buried"
    "gore": AttackSai(pick="per-roller", damage=2, fail="buried"),
    # "four points of damage ... The unit gets no saves, but does roll to counter-attack the hugging unit,
    #  which cannot save against this damage"
    "hug": AttackSai(pick="per-roller", saves=False, answer="melee"),
    # "Each Flaming Arrow result immediately inflicts one point of damage to the target unit, which must
    #  generate saves ... If the target unit is killed it must roll a save or be buried."
    "flaming-arrow": AttackSai(pick="per-roller", burial="save"),
    # "one unit ... to immediately roll its ID icon or be killed"
    "slay": AttackSai(pick="one-unit", test="id"),
    # "one unit ... to immediately roll its ID icon or be killed and buried"
    "swallow": AttackSai(pick="one-unit", test="id", fail="buried"),
    # "one health-worth of units ... per Poison result ... generate a save or be killed. Any units that are
    #  killed must roll a save or be buried."
    "poison": AttackSai(pick="worth", test="save", burial="save"),
    # "one health-worth of units ... per Convert icon ... must immediately generate a save or be killed"
    "convert": AttackSai(pick="worth", test="save", rise=True),
    # "up to four-health worth ... roll a maneuver result individually or be killed. Any units that are
    #  killed must then roll a save or be buried." (Crush in a missile action, Stomp in a melee attack)
    "crush": AttackSai(pick="worth", test="maneuver", burial="save"),
    "stomp": AttackSai(pick="worth", test="maneuver", burial="save"),
    # "up to four health-worth ... to immediately roll a maneuver result individually or be killed"
    "smother": AttackSai(pick="worth", test="maneuver"),
    # "up to four health-worth ... Each target unit must immediately roll a maneuver result or be killed"
    "firecloud": AttackSai(pick="worth", test="maneuver"),
    # "up to four health-worth ... to immediately roll an ID icon individually or be killed. Those that roll
    #  an ID icon flee to reserve area."
    "seize": AttackSai(pick="worth", test="id", passed="flee"),
    # "one health-worth ... per Scare icon ... must immediately generate a non-ID icon save result or flee to
    #  its reserve area. Target units that roll its ID icon are killed with no save possible."
    "scare": AttackSai(pick="worth", test="non-id-save", fail="flee", on_id="killed"),
    # "up to two health-worth of units ... to be immediately killed and buried with no save possible"
    "flame": AttackSai(pick="worth", per_face=2, fail="buried"),
    # "immediately kill four health of units from the defending army with no save possible. Those units must
    #  then roll a save or maneuver, or be buried." The text does not say who chooses: read as damage, which
    #  the owner takes (002 SAI Targeting: "This is the same as applying damage")
    "firebreath": AttackSai(pick="worth", chooser="owner", burial="save-or-maneuver"),
    # "up to four health-worth of units in the defending army to immediately flee to their reserve area"
    "roar": AttackSai(pick="worth", fail="flee"),
    # "attacking player chooses four health-worth of units in the defending army to be killed with no save"
    # the text fixes the four (only the Dragonkin Champion, a six-sided die whose SAI counts one point as rolled,
    # has this SAI): four health-worth per face, as Flame's two
    "breath-dragonkin-champion": AttackSai(pick="worth", per_face=4, kin_breath=True),
    # "targeted player chooses three health-worth of units in the defending army to be killed with no save"
    "breath-rare-dragonkin": AttackSai(pick="worth", chooser="owner", kin_breath=True),
    # "immediately kill up to four health-worth of opposing units in any army, with no save possible. The owner
    #  of the unit with this SAI selects the target army; the target army's owner selects the unit(s) killed."
    "sneak-attack": AttackSai(pick="army", chooser="owner"),
    # "choose one unit in the defending army, which must immediately generate a save or be killed"
    "plague": AttackSai(pick="one-unit", test="save"),
    # Decapitate, Impale: "choose one unit in the defending army that rolled an ID icon to be killed"
    "decapitate": AttackSai(pick="one-unit"),
    "impale": AttackSai(pick="one-unit"),
    # "choose up to four health-worth of units in the defending army that rolled an ID icon"
    "choke": AttackSai(pick="worth"),
    # "choose up to four health-worth of units in the defending army and force them to roll again"
    "confuse": AttackSai(pick="worth"),
    # "immediately choose up to four health-worth of units in an opposing army to add their results"
    "charm": AttackSai(pick="worth"),
}

# tsr-1996 (004 Monster Special Action Icons) Swoop: "During missile, inflict four damage on a single unit in the
# enemy army, with no saves possible ... The monster's owner selects the target unit"
ATTACK_SAIS["swoop"] = AttackSai(pick="per-roller", saves=False)
