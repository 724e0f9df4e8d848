"""An edition as data: what differs between editions lives here, never in a copied engine."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from .state import ResultType
from .value import Value, field

# "sai": SAI-generated results join the subtotal (sfr-v4 Die Roll Resolution step 6); where an edition has no
# such step they are counted with the rest, beyond the reach of subtracting and dividing spells either way
ModifierStep = Literal["subtract", "divide", "multiply", "racial", "add", "sai"]


class RacialAbility(Value):
    """A racial ability that changes results (002 Racial Abilities).

    ``kind``: "counts-as" (``source`` results count as ``target`` results),
    "double" (``source`` results are doubled), "auto" (each unit of the race
    adds one ``target`` result). ``terrains`` None means at any
    terrain; ``rolls`` None means in any roll where ``source`` results matter.
    """

    race: str | None            # None: a spell's conversion for every unit (Necromantic Wave)
    name: str
    kind: Literal["counts-as", "double", "auto"]
    source: ResultType | None
    target: ResultType | None
    terrains: tuple[str, ...] | None
    rolls: tuple[str, ...] | None
    cite: str
    icons_only: bool = False        # only results of normal icons (not ID, not SAI) are converted


class SpellModifier(Value):
    """What a durational spell does to rolls (one spell may carry several).

    ``scope``: "army" (rolls of the target army), "unit" (rolls of the target
    unit), "terrain" (rolls made at the target terrain), "missile-into"
    (missile damage into or at the target terrain, from anywhere),
    "missile-into-or-out" (missile damage into or out of the target terrain).
    ``results`` "any" means the result being rolled for (the owner splits it in
    a combination roll). ``stacks``: multiple castings on one target add up.
    """

    op: Literal["subtract", "divide", "multiply", "add"]
    results: tuple[ResultType, ...] | Literal["any"]
    amount: int
    scope: Literal["army", "unit", "terrain", "missile-into", "missile-into-or-out"]
    stacks: bool
    # the modifier gives one of ``results``, the one rolled for (sfr-v4 Fiery Weapon: "two melee or missile
    # results to any roll the target makes")
    either: bool = False


class SpellEffect(Value):
    """What an immediate spell does to the game state (002 spell descriptions), as data.

    ``kind``: "army-damage" (``points`` per casting on the target army),
    "terrain-damage" (on each army at the target terrain), "unit-damage" (on
    the target unit), "resurrect" (``points`` health-worth per casting of the
    caster's dead units join the casting army), "bury" (health-worth of an
    enemy's dead units are buried), "negate" (``points`` of spells in play are
    negated), "move" (the target unit moves to another terrain, joining the
    army the caster names), "terrain-reduction" (the target terrain turns down
    one face unless an army there rolls ``points`` maneuvers), "terrain-flee"
    (each 1-health unit at the target terrain saves or flees to its reserve
    area), "army-flee" (``points`` health-worth per casting of the target army
    flee to the reserve area), "recall" (the target unit joins the casting army), "furnace" (the
    caster's dead units are buried for ``points`` black magic points per health, before any other spell),
    "summon-dragon" (a dragon of the kind ``dragons`` names goes from a summoning pool to the terrain),
    "bury-item" (the target magical item is buried), "carry" (the caster's item goes to another of its
    armies, named with ``to``), "restore" (``points`` health-worth per casting of the caster's buried
    items return to the casting army), "summon-kin" (a dragonkin of the caster's summoning pool, of the
    paying color and ``points`` health-worth per casting, joins the casting army), "maneuver" (the target
    army attempts to maneuver its terrain, opposed as usual), "promote-kin" (the caster's dragonkin is
    exchanged for a summoning pool dragonkin up to ``points`` health per casting larger), "rise" (the
    caster's dead unit of ``race`` is recruited into the casting army, or promoted into it in exchange for
    the unit named with ``into``, up to ``points`` health per casting), "demote-kin" (the target army's
    dragonkin, of one color unless ``all_kin``, roll an ID or are demoted; the casting army's are buried),
    "exhume" (chosen dead units of the target DUA, ``points`` health-worth per casting, save or are buried;
    as many of the caster's dead ``race`` units as health was buried may join the casting army), "haunt"
    (the caster's dead form an army that makes a melee action; those killed are buried, the rest go back),
    "reform" (a minor terrain of the caster's summoning pool with the ``element`` becomes of the type
    ``becomes`` for the rest of the game). ``save``: how the target may save against damage: "army" (an
    army save roll), "commons" (only 1-health units roll and can be removed),
    "unit" (the unit saves by itself), "or-killed" (the unit saves or is
    killed), "none". Spells of one kind combine ("identical effects", 002
    Spell Attributes > Effect).
    """

    kind: Literal["army-damage", "terrain-damage", "unit-damage", "resurrect", "bury", "negate", "move",
                  "terrain-reduction", "terrain-flee", "army-flee", "recall", "furnace", "summon-dragon",
                  "bury-item", "carry", "restore", "summon-kin", "maneuver", "promote-kin", "rise", "demote-kin",
                  "exhume", "haunt", "reform"]
    points: int = 1
    save: Literal["army", "commons", "unit", "or-killed", "none"] = "none"
    # terrain damage that also reduces the terrain unless an army rolls this many maneuvers in the
    # same combination roll as its saves (Tidal Wave, Volcanic Eruption); 0: no reduction
    reduce_unless: int = 0
    # "terrain-reduction": only an army opposing the caster may roll to avoid it (sfr-v4 Flash Flood: "unless an
    # opposing army at that terrain generates at least six maneuver results")
    opposing_only: bool = False
    # "terrain-reduction": one terrain is reduced at most one step per player's turn by the spell (sfr-v4 Flash
    # Flood: "A terrain may never be reduced by more than one step during a players turn from the effects of Flash
    # Flood"; ``GameState.flooded`` keeps the turn's reductions)
    once_per_turn: bool = False
    # "terrain-flee": the caster chooses up to ``points`` health-worth of units at the terrain (``units:``), rather
    # than every common unit there (001 Mirage: "Target five health-worth of units at any terrain")
    chosen: bool = False
    # "resurrect": only dead units of at most this health (tsr-1996 Reanimate Dead: "Multiple castings reanimate
    # multiple 1-health units only"); 0: any
    max_health: int = 0
    # "resurrect": only dead units whose race has the color of the magic paying the spell (001 Resurrect Dead: "Target
    # one health-worth of units in your DUA that contains the color of magic used to cast this spell")
    of_paying_color: bool = False
    # "move": only to a terrain where the caster already has an army (001 Path: "Move the target to any other terrain
    # where you have an army"), not to form a new army there (000 Path, 002 Path: "to any other terrain")
    to_army_only: bool = False
    # a unit that saves against the damage must save again or flee to the reserve area (Fearful Flames)
    then_flee: bool = False
    # the dragons a summoning spell sends: "elemental", "hybrid", "ivory", "ivory-hybrid" or "white"; "of-color"
    # (tsr-1996 Summon Gold Dragon: "Send any gold dragon"), "any" (sfr-v4 Summon Dragon: "Summon one dragon")
    dragons: str = ""
    # "summon-dragon": a dragon already at a terrain may be sent too (tsr-1996: "regardless of ownership or
    # location"; sfr-v4: "from any Summoning Pool or terrain")
    from_terrain: bool = False
    race: str = ""                  # the race of the dead units a "rise" spell raises
    element: str = ""               # "reform": the element the minor terrain must have
    becomes: str = ""               # "reform": the terrain type it becomes
    all_kin: bool = False           # "demote-kin": every dragonkin, not one color (Degenerate Dragonkin)


class Protection(Value, kw_only=True):
    """What a spell on a unit shields it from (engine.protection).

    ``no_rolls``: "any" (the unit makes no rolls) or "combat" (none in a melee or missile action);
    ``immune``: the effects that cannot target it nor take it as a loss ("melee", "missile",
    "magic", "dragon", or "any").
    """

    no_rolls: Literal["any", "combat"] | None = None
    immune: tuple[str, ...] = ()


class TargetRule(Value, kw_only=True):
    """What a spell's target must be beyond its kind (each spell's own text in 002).

    ``element``: the target terrain has that element; ``army_at_element``: the target army is at a
    terrain with that element; ``enemy_present``: an enemy army is at the target terrain;
    ``not_eighth``: the terrain is not at its eighth face; ``alone``: the target (a terrain or a unit) is not
    already under this spell;
    ``race``: the target unit is of that race.
    """

    element: str | None = None
    army_at_element: str | None = None
    enemy_present: bool = False
    not_eighth: bool = False
    alone: bool = False
    race: str | None = None         # the target unit is of this race (Call of the Wild: Feral)
    health_worth: bool = False      # the target unit is "one health-worth" per casting at most
    at_terrain: bool = False        # the target army is at a terrain, not in the reserve area
    other_color: bool = False       # the target's color differs from the color paying for the spell
    same_color: bool = False        # the target's color is the color paying for the spell
    has_race: str | None = None     # the target army contains a unit of this race
    terrain_type: str | None = None  # the target terrain is of this type (Soiled Ground: swampland)


class SaiState(Value, kw_only=True):
    """What a state SAI's special result leaves in play (engine.actions.sai_states).

    ``target``: "units" (up to the SAI's points of health-worth of units of the defending army), "unit" (one
    unit of an opposing army per unit rolling it), "enemy-army" (an opposing army), "own-army" (one of the
    roller's armies); ``avoid``: each target unit escapes by rolling this result by itself; ``bound``: the
    effect ends when its source unit is killed ("killed") or no longer at the target's terrain ("present").
    """

    target: Literal["units", "unit", "enemy-army", "own-army"]
    avoid: ResultType | None = None
    bound: Literal["killed", "present"] | None = None
    # the freed units of the acting army roll at once in the roll whose SAI killed the source (004 Entangle D)
    freed_roll: bool = False
class DragonFace(Value, kw_only=True):
    """What one dragon icon does in a dragon attack (002 Dragons; each edition's own numbers).

    ``damage``: points inflicted on an army; ``roll_again``: the dragon is rolled again and the new
    result applies as well (Tail); ``flies_away``: a surviving dragon returns to its summoning pool
    after the attack (Wing); ``promotes``: units the attacked army may promote (Treasure);
    ``no_saves``: the dragon's automatic saves do not count during this attack (Belly);
    ``breath``: the dragon breathes (its color's breath on an army; on a dragon, its saves are negated).
    """

    damage: int = 0
    roll_again: bool = False
    flies_away: bool = False
    promotes: int = 0
    no_saves: bool = False
    breath: bool = False
    cite: str = ""


class Breath(Value, kw_only=True):
    """One color of dragon breath against an army (002 Dragons, <Color> Dragon Breath).

    ``kills``: health-worth of units the individual-targeting effect reaches; ``save``: each of them
    "must save individually or be killed" (else killed, no saves possible); ``burial``: those killed
    "must save again or be buried"; ``effect``: the army-targeting effect it leaves in play (an effect
    id of ``Ruleset.breath_effects``), None for ivory and red.
    """

    kills: int
    save: bool = False
    burial: bool = False
    effect: str | None = None
    cite: str = ""
    # 000 Red-Flame: the units killed are also buried, no save ("killed and buried"); 000 Gold-Turn to Stone:
    # ``kills`` counts units, not health-worth ("Five units from the target army ...")
    buries: bool = False
    units: bool = False
    # 000 Black-Disease: "All units in the target army are rolled; any that roll ID icons are killed and buried"
    ids_kill: bool = False


class DragonLogo(Value, kw_only=True):
    """What an Eldarim champion's logo does when rolled before a dragon attack (002 Eldarim Champion's
    Effect on Dragons): ``power`` "tame", "slay" or "control"; ``banish``: a slain dragon is removed from
    the game; ``matching``: only dragons with the champion's color (else any, the white champions)."""

    power: Literal["tame", "slay", "control"]
    banish: bool = False
    matching: bool = False
    cite: str = ""


class StepDown(Value):
    """A killed unit that may instead be traded for a smaller dead unit of its race from its player's DUA (002
    Undead, Stepped Damage; 001 Accelerated Growth). ``health``: the health the dead unit must have (None: any
    lesser health); ``least``: the killed unit's least health; ``rule``: the edition's words; ``name``: what the
    trace calls it."""

    race: str
    name: str
    rule: str
    cite: str
    health: int | None = None
    least: int = 1


class SetupRules(Value):
    """One edition's set-up rules as data.

    ``dragons``: how many dragons a force of n health needs: "per-24" (n / 24 rounded up, no more and no
    fewer: 002) or "one-per-25" (one, plus one per full 25: 000, where each missing dragon costs
    ``missing_dragon_cost`` health of the starting forces). ``fixed_force``: an edition that fixes the
    force (001: thirty health and two dragons). ``army_minimum``: what each starting army must hold
    ("health": 1 health-worth; "unit": one unit or die). ``magic_cap``: magic users may be no more than
    half the force. ``seven_to_six``: a starting-distance 7 is turned down to 6 (8s are always rolled
    again).
    """

    dragons: Literal["per-24", "one-per-25"]
    army_minimum: Literal["health", "unit"]
    magic_cap: bool
    seven_to_six: bool
    cites: Mapping[str, str]
    quotes: Mapping[str, str]       # the edition's own words for each rule, as the trace gives them
    missing_dragon_cost: int = 0
    fixed_force: int | None = None
    fixed_dragons: int | None = None
    # magic point value: unit id (catalog) -> its value where the rules name an exception (002: Vampire 2)
    magic_point_exceptions: Mapping[str, int] = field(default_factory=dict)
    magic_point_cap: int = 4
    # how many minor terrain dice a player may bring (002 Minor Terrains: "up to four"); None: no limit given
    minor_terrain_cap: int | None = None
    # the units a player may bring at most one of per 24 health of battle size (the required number of dragons):
    # catalog name -> whether the limit is per color (002 The Eldarim Champions); empty: no such limit
    champion_caps: Mapping[str, bool] = field(default_factory=dict)
    # at most this many armies of different players on one terrain at the start (000 Place Armies: "no more than
    # three armies belonging to different players can occupy a terrain die"); None: no such limit given
    players_per_terrain: int | None = None
    # 002 Magical Items: the force cost of a magical item by its health where it is not its health ("The 20mm
    # four-siders are uncommon worth 2 health and cost two points of health. You may include a second uncommon for a
    # cost of only 1 health ... And the 22mm four-siders are rare worth 3 health and cost two points of health"):
    # health -> cost; ``item_pair_cost``: what a pair of uncommons costs (3); empty/None: an item costs its health
    item_costs: Mapping[int, int] = field(default_factory=dict)
    item_pair_cost: int | None = None
    # 002 Dragonkin: "For every full three health points of components a player brings to a game, they are allowed
    # (but not required) to bring one health point of Dragonkin ... Dragonkin are not in any army before play
    # starts"; None: no such limit
    dragonkin_per: int | None = None
    # 002 Kings' Die: "Only one Kings' Die is allowed in a player's forces"; None: no limit
    kings_die_cap: int | None = None
    # where the starting armies stand (002 Step 5, Place Armies: "1) the home army is placed at the player's home
    # terrain, 2) the horde army is placed at another player's home terrain"): each player's armies must hold their
    # own home terrain and another player's home terrain; False: not checked
    home_and_horde: bool = False


class Ruleset(Value):
    edition: str
    modifier_steps: tuple[ModifierStep, ...]
    eighth_face_doubles: tuple[ResultType, ...]
    monster_icon_value: int
    racial: tuple[RacialAbility, ...]
    spell_modifiers: Mapping[str, tuple[SpellModifier, ...]]
    cites: Mapping[str, str] = field(default_factory=dict)
    setup: SetupRules | None = None
    # race -> the colors its units cast (an empty tuple: the colors of the terrain, as Amazons)
    race_colors: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    # races whose every unit casts the one color of its die (Eldarim acolytes), the units of them that
    # cast every color (Dragonlord, Dragonslayer), and races that never roll for magic (dragonkin)
    one_color_races: tuple[str, ...] = ()
    all_color_units: tuple[str, ...] = ()
    no_magic_races: tuple[str, ...] = ()
    # spell -> ("add" | "remove", element) it gives a terrain while in effect
    terrain_elements: Mapping[str, tuple[str, str]] = field(default_factory=dict)
    # spell -> what it does to the game state when it resolves (immediate spells)
    spell_effects: Mapping[str, SpellEffect] = field(default_factory=dict)
    # spell -> what its target must be, beyond the kind of target
    spell_targets: Mapping[str, TargetRule] = field(default_factory=dict)
    # spell -> the terrain type a terrain it targets also counts as (Create Mountain: highland)
    terrain_types: Mapping[str, str] = field(default_factory=dict)
    # spell -> the conversion it gives the target army's units ("may be counted as"), as a racial
    # ability with race None (Necromantic Wave: magic as melee)
    spell_abilities: Mapping[str, RacialAbility] = field(default_factory=dict)
    # spells on a terrain under which maneuver ties there go to the non-acting player (Fields of Ice)
    ties_to_defender: tuple[str, ...] = ()
    # spell on a unit -> what it shields the unit from (Hide, Fade, Camouflage)
    spell_protections: Mapping[str, Protection] = field(default_factory=dict)
    # spells on a terrain under which no army there may attempt to maneuver the terrain (Mire)
    no_maneuver: tuple[str, ...] = ()
    # spell on an army (or on all of a player's armies) -> where the casualties of army-targeting damage
    # go instead of the DUA: "reserve" (Open Grave) or "other-army" (Leaving)
    casualties_go: Mapping[str, str] = field(default_factory=dict)
    # spell on an army -> the results one of its components may double (Wilding: melee or save)
    component_doublers: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    # spell on an army -> it lets units of the army be rolled again, the new result replacing the old (Flashfire)
    rerolls_for: Mapping[str, bool] = field(default_factory=dict)
    # SAI -> the duration of the effect it leaves in play (Illusion), and what an army under it cannot be
    # targeted by: "missile" and "magic" (enemy magic)
    effect_sais: Mapping[str, str] = field(default_factory=dict)
    army_shields: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    # state SAI -> what its special result leaves in play, and on whom (Entangle, Wither, Illusion ...)
    sai_states: Mapping[str, SaiState] = field(default_factory=dict)
    # units whose die bears a Conditional SAI rolled whenever they are killed or buried, by catalog name
    # (002 Killed and Buried: "Phoenix's Rise from the Ashes")
    conditional_units: Mapping[str, str] = field(default_factory=dict)
    # moving SAI -> the health-worth of other units it may take along (Ferry 4; Teleport, Firewalking 3)
    sai_move_worth: Mapping[str, int] = field(default_factory=dict)
    # races whose units may roll to negate an opposing army's magic (Frostwings)
    magic_negators: tuple[str, ...] = ()
    # spells on a terrain that damage an army whose maneuver changes its face by the army's health-worth,
    # less the melee results of its roll (Wall of Thorns)
    maneuver_damage: tuple[str, ...] = ()
    # ... where the damage is a fixed amount instead (001 Wall of Thorns: "takes six damage")
    maneuver_damage_fixed: Mapping[str, int] = field(default_factory=dict)
    # spells on a terrain that damage an army there which casts spells (Backlash)
    magic_backlash: tuple[str, ...] = ()
    # spells on a terrain under which units killed there must roll a save or be buried (Soiled Ground)
    burial_rolls: tuple[str, ...] = ()
    # spell on a DUA -> the aspect a dead unit there must have to be buried (Honor the Dead: black)
    burial_limits: Mapping[str, str] = field(default_factory=dict)
    # dragons (002 Dragons): each icon's effect, health and automatic saves, each kind's multiplier of
    # health, damage and treasure (white dragons), each color's breath, the effects breaths leave in play
    # (effect id -> (section, what it does: "ignore-ids", "save-only", or "" for a roll modifier)), the
    # effect a breath leaves on a dragon, and the Eldarim champions' logos
    dragon_faces: Mapping[str, DragonFace] = field(default_factory=dict)
    dragon_health: int = 5
    dragon_saves: int = 5
    dragon_scale: Mapping[str, int] = field(default_factory=dict)
    breaths: Mapping[str, Breath] = field(default_factory=dict)
    breath_effects: Mapping[str, tuple[str, str]] = field(default_factory=dict)
    dragon_breath_effect: str = ""
    dragon_logos: Mapping[str, DragonLogo] = field(default_factory=dict)
    # where a dragon that flies away or is slain goes (002, 001: its summoning pool; 000: "Return it to the
    # owner's dead unit area", where 000's dragons wait to be summoned: the same place in ddref's state)
    dragon_rest: str = "summoning pool"
    # whether dragons of different colors at a terrain fight each other rather than the army (002 Step 5, 000 Dragon
    # vs. Dragon); False: every dragon there attacks the marching army (001: "those dragons will attack the marching
    # army", with no dragon vs. dragon rule)
    dragons_fight: bool = True
    # each result type (melee, missile) of the army's roll slays at most one dragon (000 Dragon vs. Dragon: "may
    # count its melee results against one and its missile results against another"); False: several dragons may
    # share a type's results (002 Step 6: "using melee results for one or more")
    slay_one_per_type: bool = False
    # a Treasure's promotion comes after the army's response (000: "After the attack is resolved"), not before it
    # (002 Step 4, 001 Step 2)
    treasure_after_attack: bool = False
    # the SAI kind of a charging army's roll (tsr-1996: "charge", where Trample is both melee and maneuver)
    charge_roll: str = "melee"
    # the SAI kind of the charged army's one roll (tsr-1996: "charged", where 004's "during melee" SAIs act too)
    charged_roll: str = "save-melee"
    # icons other than ID that count as an ID icon of so many points in any roll (Dragonmaster's logo)
    id_icons: Mapping[str, int] = field(default_factory=dict)
    # who carries magical items (engine.carrying): races that carry none (dragonkin), races and units that
    # carry any color (Amazons; Dragonlord, Kings' Die)
    no_carry_races: tuple[str, ...] = ()
    # races whose units never leave the terrain where they are summoned (002 Dragonkin)
    terrain_bound_races: tuple[str, ...] = ()
    carry_any_races: tuple[str, ...] = ()
    carry_any_units: tuple[str, ...] = ()
    # races whose units in the reserve area fire missiles instead of casting magic (Amazons' Reserve Attack)
    reserve_missile_races: tuple[str, ...] = ()
    # race -> the element a terrain needs for its units to fly from it in the retreat step (Firewalkers: blue)
    terrain_flight: Mapping[str, str] = field(default_factory=dict)
    # units that never leave the reserve area (the Kings' Die)
    reserve_bound_units: tuple[str, ...] = ()
    # units that may ride a dragon they tamed to another terrain in the retreat step (Dragonlord, Dragonmaster)
    dragon_riders: tuple[str, ...] = ()
    # minor terrain face in effect -> the actions it allows whatever the major terrain shows, and the results
    # it doubles in the owning army's rolls (an ID is "id-actions" or "id-doubles", as the owner chose)
    minor_actions: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    minor_doubles: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    # minor terrain disaster -> the duration of the effect it leaves on the army (Flood, Revolt); its modifiers
    # are in ``spell_modifiers`` under the same name
    disaster_effects: Mapping[str, str] = field(default_factory=dict)
    # filled from the corpus by the caller: each spell's and SAI's section (for citations),
    # and each spell's color and cost (to weigh spells in play)
    spell_sections: Mapping[str, str] = field(default_factory=dict)
    sai_sections: Mapping[str, str] = field(default_factory=dict)
    spell_costs: Mapping[str, tuple[str, int]] = field(default_factory=dict)
    spell_durations: Mapping[str, str] = field(default_factory=dict)
    terrain_colors: Mapping[str, tuple[str, ...]] = field(default_factory=dict)   # terrain type -> its elements
    # spells on a unit that make it invisible: it cannot be promoted (002 Promotion: Camouflage, Fade and Hide)
    invisible: tuple[str, ...] = ()
    # the SAI table of this edition (sai id -> roll kind -> engine.sais.SaiUse) and the SAIs that roll their
    # unit again, by roll kind; None: the sfr-2012 tables of engine.sais
    sai_uses: Mapping[str, Mapping[str, Any]] | None = None
    sai_rerolls: Mapping[str, tuple[str, ...]] | None = None
    # the modifier step at whose end racial abilities apply: their own "racial" step (sfr-2012), or with the
    # multipliers where an edition names no such step (tsr-1996)
    racial_in: ModifierStep = "racial"
    # results are floored at zero only at the end of the modifier sequence (000 Applying Dice Modifiers: "Results
    # can never be negative at the end"), not at the subtract step (002: "Modifiers that subtract: results can
    # never be negative")
    floor_at_end: bool = False
    # the results a racial ability counts as another type are results of that type: they are divided as its results
    # were, and pay first what its subtractions took below zero (``floor_at_end``) (tsr-1996: 000 Applying Dice
    # Modifiers, "Results can never be negative at the end"; 000 Palsy, "7 saves become 6"; 000 Dancing Lights, "The
    # target army's missile and magic results are halved"; engine.modifiers.settle_owed)
    converted_owe: bool = False
    # the eighth face doubles every ID result of the controlling army (sfr-v4) rather than result types
    eighth_face_doubles_ids: bool = False
    # SAIs whose points from one die face all go to a single target unit (tsr-1996 Bullseye: "No matter how
    # many bullseye icons are on a single die face, they must all be directed at a single target unit")
    one_target_sais: tuple[str, ...] = ()
    # black ID points may double through the Dead Unit Area without burial (002 Dead Unit Area Advantage);
    # tsr-1996 has Death Magic instead
    dua_doubling: bool = True
    # a turn begins with 002's Initial Effects phase (engine.actions.initial); else with ``turn_begins_with``
    initial_effects: bool = True
    # spells are marked castable from the reserve area (002's reserve list, 001's 'R' column); tsr-1996 has no
    # such mark, only its targets: "Spells can only be cast on friendly units and armies"
    reserve_list: bool = True
    # a reserve army's magic targets only its own player's armies, units and DUA, and never a terrain (002 Reserve
    # Magic: "Terrain dice ... spells and other players components, armies or dead unit area ... cannot be
    # targeted"; 000 Reserve Magic: "Spells can only be cast on friendly units and armies"); 001 says only "Only
    # spells marked as castable from reserves can be cast by a Reserve Army", so under sfr-v4 an R spell takes
    # the targets its own text names ("Target any army")
    reserve_own_targets: bool = True
    # a spell sending "casualties" elsewhere (Open Grave) takes every unit killed in its army, a unit a spell killed
    # by itself included (000 Open Grave: "all units killed in the target army go to your reserve"); 002 limits it
    # to "any army-targeting effect that causes damage to the target army"
    grave_takes_every_kill: bool = False
    # Amazons double magic only at a Standing Stones their army holds (004 Amazonian Magic D: "To double magic,
    # Amazons must control the terrain (possess the Eighth Face) at which the Standing Stones are present")
    stones_held_to_double: bool = False
    # only spells marked for it may be bought with a Cantrip outside a magic action (001's 'C' column)
    cantrip_column: bool = False
    # black ID points double by burying one player's dead, named by the magic step (tsr-1996 Death Magic)
    death_magic: bool = False
    # the edition whose rules apply where this one is silent (sfr-v4: sfr-2012); the trace says so
    fallback: str | None = None
    # the edition's own targeted SAIs where its text differs from 002's (sai id -> engine.sai_attacks.AttackSai;
    # sfr-v4 Bullseye and Double Strike: "The targets make a save roll. Those that do not generate a save
    # result are killed"); the others are engine.sai_attacks.ATTACK_SAIS
    attack_sais: Mapping[str, Any] = field(default_factory=dict)
    # SAIs whose army damage no magical protection avoids, spells sending casualties elsewhere included (002 The
    # Stoneskin Rule: magical protection is "spells that provide saves or prevent units that are killed from going
    # to the dead unit area (e.g. Open Grave)"; "SAIs that state: 'no saves (including those provided by spells)'
    # ... cannot be avoided by magical protection": Smite, Stone); engine.actions.specials._army_damage
    unprotected_sais: tuple[str, ...] = ()
    # where dragons wait out of play, for the trace (the state's summoning pool holds them): tsr-1996's dead unit
    # area (000 Set-up: "Dragons are set to your left, in what will be your dead unit area")
    dragons_wait: str = "summoning pool"
    # the eighth-face icons that act at the beginning of a turn in an edition without 002's Initial Effects phase
    # (tsr-1996: City and Temple, "at the beginning of your turn"); engine.actions.initial
    turn_begins_with: tuple[str, ...] = ()
    # the edition's own words for rules whose trace text would otherwise be 002's (key -> quote), as
    # engine.setup's SetupRules.quotes
    quotes: Mapping[str, str] = field(default_factory=dict)

    # spell on a player's DUA -> the trade it allows while it lasts (sfr-v4 Accelerated Growth)
    spell_step_downs: Mapping[str, StepDown] = field(default_factory=dict)
    # an edition's own words for a rule an SAI handler traces (key -> (words, section)); absent: 002's words
    sai_words: Mapping[str, tuple[str, str]] = field(default_factory=dict)
    # where such words are a reading (key as in ``sai_words``): the second passage it is read with
    sai_read_with: Mapping[str, str] = field(default_factory=dict)
    # Dispel Magic's face negates only the spells aimed at its unit, its army and its terrain, not those at the
    # army's other units (001 Dispel Magic: "Magic targeting other units, armies, or terrains is unaffected by this
    # SAI"); 002 ("all unresolved magic that applies to the target(s)") and 004 C ("targeted on the army, its
    # terrains, or its units"): those too
    dispel_spares_other_units: bool = False
    # the spells of one magic action take effect at once: a group save counts the units another spell of the
    # action killed (004 Dispel Magic D: "since magic is simultaneous, units killed by Lightning still roll")
    simultaneous_magic: bool = False
    # several castings of a unit's "save or be killed" spell may target one unit, each its own roll (tsr-1996: 000
    # Lightning Strike's "Multiple castings target multiple units" read with 004 Dispel Magic D's "A Gargoyle is
    # targeted by 3 Lightning Strikes ... must roll three successful saves"; 002 Multiplicity forbids it)
    castings_at_one_unit: bool = False
    # a spell whose text states no multiplicity stacks at one target (sfr-v4: 001 Spells, "Multiple castings of a
    # spell against the same target increase the value highlighted in red"); 002 Multiplicity refuses it
    castings_increase_value: bool = False
    # another instance of a "multiple castings target multiple ..." spell at a target a previous instance is still
    # on, cast in a separate magic action (by anyone), has no added effect but its duration (002 Multiplicity:
    # "will have no added effect ... except to possibly increase the duration of the spell"): engine.modifiers
    repeat_instance_no_effect: bool = False
    # Wild Growth promotes "one health-worth of units ... for each Wild Growth result" (sfr-v4, 001) rather than
    # "one unit" per result (002): engine.wild_growth
    wild_growth_per_health: bool = False
    # effects on a unit that keep it at its terrain while they last (sfr-v4 Sleep: "cannot be rolled or leave the
    # terrain they currently occupy until the beginning of your next turn"): engine.actions.reserves refuses its retreat
    held_by_effects: tuple[str, ...] = ()

    def in_play(self, spell: str) -> bool:
        """The spell goes into play as an effect that the engine applies while it lasts."""
        return any(spell in table for table in (self.spell_modifiers, self.terrain_elements, self.terrain_types,
                                                self.spell_abilities, self.ties_to_defender, self.no_maneuver,
                                                self.spell_protections, self.casualties_go, self.burial_limits,
                                                self.magic_backlash, self.maneuver_damage,
                                                self.component_doublers, self.burial_rolls, self.rerolls_for,
                                                self.spell_step_downs))

    def quote(self, key: str, default: str) -> str:
        """The edition's words for a rule the trace states; ``default`` (002's) where it gives none."""
        return self.quotes.get(key, default)

    def words(self, key: str, words: str, cite: str) -> tuple[str, str]:
        """An SAI rule's words and section as this edition gives them (``sai_words``), else 002's ``words``."""
        return self.sai_words.get(key, (words, cite))

    def cite(self, key: str) -> str:
        """The section of a rule; an edition without it (and no fallback edition that has it) refuses the step."""
        found = self.cites.get(key)
        if found is None:
            from .trace import StepError

            raise StepError(f"the {self.edition} rules have no rule for this ({key}): ddref cannot resolve it "
                            f"under {self.edition}")
        return found

    def with_corpus(self, spells: Mapping[str, str], sais: Mapping[str, str],
                    costs: Mapping[str, tuple[str, int]], durations: Mapping[str, str],
                    terrain_colors: Mapping[str, tuple[str, ...]] = {}) -> Ruleset:
        """This ruleset with each spell's and SAI's corpus section, and each spell's color, cost and duration."""
        # an SAI's lasting effect (Illusion) is in play as a spell is: its duration and section go with the spells'
        # so are a dragon breath's lasting effects ("until the beginning of its next turn"; on a dragon, "until
        # the end of the marching player's next turn")
        breaths = {e: section for e, (section, _) in self.breath_effects.items()}
        lasting = {e: ("until-end-of-next-turn" if e == self.dragon_breath_effect else "until-beginning-of-next-turn")
                   for e in self.breath_effects}
        # a minor terrain disaster's lasting effect (Flood, Revolt) too, cited to 002 Minor Terrains
        disasters = {d: self.cites["minor-terrains"] for d in self.disaster_effects}
        return self.evolve(spell_sections={**spells, **{s: sais[s] for s in self.effect_sais if s in sais},
                                           **breaths, **disasters},
                           sai_sections=dict(sais), spell_costs=dict(costs),
                           spell_durations={**durations, **self.effect_sais, **lasting, **self.disaster_effects},
                           terrain_colors=dict(terrain_colors))

    def racial_cite(self, race: str, ability: str) -> str:
        """The section of a race's ability (002 Racial Abilities), for abilities outside ``racial``; empty in an
        edition without that race (tsr-1996 has no Undead, Eldarim ...), whose scenarios cannot hold its units.
        """
        return self.cites.get(f"racial:{race}:{ability}", "")
