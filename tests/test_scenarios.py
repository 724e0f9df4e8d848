"""Every bundled scenario replays with all its expectations holding, explained and cited."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from ddref.scenario.run import load, load_ruleset, replay
from engine.names import slug
from index.corpus import records, sections
from fast_yaml import load_yaml

ROOT = Path(__file__).resolve().parents[1]
SCENARIOS = sorted((ROOT / "scenarios").glob("*.yaml"))
EXAMPLES = load_yaml((ROOT / "corpus" / "examples" / "worked-examples.yaml").read_text(encoding="utf-8"))
EXAMPLE_IDS = {e["id"] for e in EXAMPLES}

# The worked examples of issue 3's topics (sfr-2012) that the engine core reproduces.
CORE_EXAMPLES = {
    "sfr2012-counting-id-icons-melee-5", "sfr2012-maneuver-zero-vs-zero", "sfr2012-missile-6-vs-6-no-damage",
    "sfr2012-modifiers-coral-elf-17-saves", "sfr2012-modifiers-burning-hands-palsy-unit-first",
    "sfr2012-modifiers-cumulative-durational", "sfr2012-modifiers-three-palsy-combination-roll",
    "sfr2012-modifiers-wall-of-fog-dust-devil-16-to-4", "sfr2012-eighth-face-racial-stacking",
    "sfr2012-sai-fly-under-transmute-rock-to-mud", "sfr2012-sai-leopard-rider-rend-swamp-eighth-12",
    "sfr2012-sai-create-fireminions-eighth-face-16", "sfr2012-sai-double-strike-reroll",
    "sfr2012-avoidance-flash-flood-rend", "sfr2012-avoidance-wall-of-thorns-smite-counter",
    "sfr2012-avoidance-tidal-wave-rend", "sfr2012-sai-tidal-wave-fly-split",
    "sfr2012-avoidance-volcanic-eruption-lava-elf", "sfr2012-sai-screech-minus-4-saves",
    "sfr2012-sai-bullseye-before-normal-saves", "sfr2012-sai-bullseye-combined-split-5-3",
}

# The worked examples of issue 5 (magic) reproduced so far; the Goblin and Dwarf example is 000's,
# which 002 repeats word for word.
MAGIC_EXAMPLES = {
    "tsr-magic-colors-goblin-dwarf-combinations", "sfr2012-terrain-advantage-flatland-highland",
    "sfr2012-terrain-advantage-eagle-knight-swampland", "sfr2012-magic-deadlands-lava-elves-and-amazons",
    "sfr2012-spell-target-no-damage-to-own-army", "sfr2012-spell-multiplicity-finger-of-death-separate-marches",
    "sfr2012-spell-target-dua-rules", "sfr2012-spell-combine-identical-effects",
    "sfr2012-spell-duration-earthen-armor-follows-unit", "sfr2012-spell-duration-palsy-units-leave-and-join",
    "sfr2012-spell-order-trm-before-flash-flood", "sfr2012-spell-order-mirage-firebolts",
    "sfr2012-sai-frostwing-negation-cantrip-immune", "sfr2012-sai-dispel-magic-conditional",
    "sfr2012-eighth-face-temple-black-magic", "sfr2012-sai-cantrip-suspends-save-roll",
    "sfr2012-simultaneous-roll-fly-vs-cantrip", "sfr2012-sai-single-army-firestorm-cantrip-usable",
    "sfr2012-damage-cantrip-path-escape",
}

# Starting the game (002 Steps 1 and 2).
SETUP_EXAMPLES = {
    "sfr2012-setup-magic-point-value", "sfr2012-setup-dragon-count", "sfr2012-setup-24pt-army-cap-12",
}

# The worked examples of issue 6's turn sequence (reserves, reserve magic, the Amazons' reserve attack, the
# eighth face's Standing Stones) reproduced so far.
TURN_EXAMPLES = {
    "sfr2012-reserve-magic-castable-list", "sfr2012-racial-amazon-reserve-missile",
    "sfr2012-reserve-movement-example", "sfr2012-standing-stones-goblin-coastland-dwarf-flatland",
}

# The worked examples of issue 6 on targeted and army-damaging SAIs in melee and missile actions.
SAI_ATTACK_EXAMPLES = {
    "sfr2012-sai-special-unique-order-player-choice", "sfr2012-sai-combining-hug-charm-trumpet",
}

# Issue 6: the targeted and army-damaging SAIs of melee and missile actions, each rolled in a bundled scenario.
SAI_ATTACK = (
    "kick", "coil", "gore", "hug", "slay", "swallow", "plague", "poison", "convert", "decapitate", "choke", "impale",
    "crush", "stomp", "smother", "bash", "flame", "firebreath", "firecloud", "flaming-arrow", "seize", "scare", "roar",
    "charm", "confuse", "trumpet", "elevate", "flurry", "charge", "surprise", "sneak-attack",
    "breath-dragonkin-champion", "breath-rare-dragonkin",
)

# The worked examples of issue 6's promotions and DUA exchanges (engine.exchange) reproduced so far.
EXCHANGE_EXAMPLES = {
    "sfr2012-promotion-eldarim-color-agnostic", "sfr2012-promotion-requires-matching-dua-unit",
    "sfr2012-dragonkin-promotion-color-change", "sfr2012-exchange-earthen-armor-expires-on-promotion",
    "sfr2012-promotion-city-after-feralization-same-unit", "sfr2012-racial-swamp-stalker-mutation",
    "sfr2012-exchange-undead-stepped-damage-monster-rare",
}

# The worked examples of issue 6's dragon attack phase (engine.actions.dragon) reproduced so far.
DRAGON_EXAMPLES = {
    "sfr2012-dragon-attack-ex1-two-dragons-20-melee", "sfr2012-dragon-attack-ex2-three-red-belly-breath-tail",
    "sfr2012-dragon-attack-ex4-two-blue-tail-belly-breath-counter", "sfr2012-dragon-attack-ex5-four-black-ids-ignored",
    "sfr2012-hybrid-dragon-targeting", "sfr2012-white-dragon-values", "sfr2012-exchange-two-terrains-dragon-treasure",
}

# The tsr-1996 and sfr-v4 worked examples on rolls, counting, modifiers, eighth face, maneuver, missile,
# damage, magic, spells and racial abilities that the engine reproduces under their own editions.
EDITION_EXAMPLES = {
    "tsr-counting-id-icons-melee-5", "faq4-monster-icons-and-racial-abilities",
    "tsr-maneuver-zero-results-acting-army-wins", "tsr-damage-allocation-2-damage", "tsr-spell-palsy-12-to-11",
    "tsr-racial-coral-elf-wind-walk-7-saves", "faq4-amazon-wind-walk-no-missiles",
    "faq4-amazon-eighth-face-doubles-missile-maneuvers", "tsr-sai-maneuver-roll-fly-rend-cantrip",
    "tsr-sai-bullseye-single-target", "tsr-sai-cantrip-lightning-strike-before-saves",
    "tsr-magic-colors-goblin-dwarf-combinations",
    "v4-spell-multiplicity-fiery-weapon-x2", "v4-combat-save-roll-trigger-and-missile-range",
    "v4-damage-must-take-max-not-more", "v4-eighth-face-standing-stones-convert",
}
# Issue 7, part 2: the tsr-1996 and sfr-v4 set-up, multiplayer and dragon worked examples.
EDITIONS2_EXAMPLES = {
    "tsr-setup-24pt-army-cap-12", "tsr-setup-dragon-count-35pt", "tsr-setup-order-and-starting-distances",
    "v4-setup-30-health-15-cap-two-dragons", "mp-turn-order-roll-ignores-sai-effects",
    "v4-dragon-attack-values-no-combining", "tsr-dragon-slaying-thresholds",
    "tsr-dragon-breath-by-color", "tsr-dragon-multiple-same-color-split-melee-missile", "tsr-sai-trample-dragon-attack",
    "tsr-charge-damage-resolution", "tsr-routing-pursuit-face5-to-face4",
    "tsr-sai-counter-in-charge-defense", "faq4-double-strike", "faq4-confuse", "faq4-kick-swoop-stone",
    "faq4-amazon-reserve-missile-fire", "tsr-sai-mammoth-rider-trample-6-9-15",
}
# Issue 7, the FAQ rulings (004 Monster Special Action Icons) under tsr-1996.
FAQ_EXAMPLES = {
    "faq4-regenerate", "faq4-monster-sai-terrain-bonuses-regenerate-conflict", "faq4-poison-smother-web",
    "faq4-dispel-gargoyle-lightning-strike", "faq4-dispel-hailstorm-and-lightning-simultaneous",
    "faq4-roar-reserve-march", "faq4-charm", "faq4-ferry", "faq4-dispel-summon-dragon", "faq4-entangle",
    "faq4-illusion",
}
EDITION_FILES = {"tsr1996-": "tsr-1996", "sfrv4-": "sfr-v4", "sfr2012-": "sfr-2012"}
# issue 7, part 3: what the tsr-1996 and sfr-v4 rulesets refused before
EDITION_REFUSALS_EXAMPLES = {"tsr-reserve-movement-and-reserve-magic"}
# issue 7, the last worked examples: 003's multiplayer rules, 000's Palsy and Smite in a dragon attack and a charge
LAST_EXAMPLES = {
    "mp-counter-maneuver-individual-comparison", "mp-eliminated-player-spells-expire",
    "mp-targeting-any-opponent-declared-before-roll", "tsr-modifiers-palsy-x4-dragon-attack",
    "tsr-sai-smite-skirmish-vs-charge-dragon",
}


@pytest.fixture(scope="module")
def replays():
    return {path.name: replay(load(path)) for path in SCENARIOS}


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.name)
def test_scenario_expectations_hold(replays, path):
    result = replays[path.name]
    failed = [c for c in result["expectations"] if not c["ok"]]
    assert result["expectations"], "a bundled scenario must check something"
    assert not failed, failed


def test_every_trace_citation_exists(replays):
    known = sections()
    for name, result in replays.items():
        for step in result["steps"]:
            for event in step.get("trace", []):
                assert event["cite"] in known, f"{name}: {event['what']} cites {event['cite']!r}"


def test_every_citation_the_engine_can_emit_exists():
    rules = load_ruleset("sfr-2012")
    known = sections()
    cited = [*rules.cites.values(), *(a.cite for a in rules.racial)]
    cited += [rules.spell_sections[s] for s in (*rules.spell_modifiers, *rules.terrain_elements,
                                                 *rules.spell_effects, *rules.terrain_types, *rules.spell_targets)]
    cited += [a.cite for a in rules.spell_abilities.values()]
    cited += [*rules.setup.cites.values()]
    from engine.sais import SAI_USES

    cited += [rules.sai_sections[s] for s in SAI_USES]
    assert [c for c in cited if c not in known] == []


def _spells_in(path: Path) -> set[str]:
    data = load_yaml(path.read_text(encoding="utf-8"))
    named = [e["spell"] for e in data.get("effects") or [] if "spell" in e]
    named += [c["spell"] for step in data.get("steps") or [] for c in (step.get("magic") or {}).get("cast", [])]
    return {slug(n) for n in named}


def test_every_spell_is_modelled_and_exercised_by_a_scenario():
    """Issue 5: a scenario for every spell. Every sfr-2012 spell is modelled, and cast or in play in one."""
    rules = load_ruleset("sfr-2012")
    spells = {s.id for s in records("spell") if s.edition == "sfr-2012"}
    assert sorted(s for s in spells if not (rules.in_play(s) or s in rules.spell_effects)) == []
    exercised = set().union(*(_spells_in(p) for p in SCENARIOS))
    assert sorted(spells - exercised) == []


def test_every_lasting_spell_is_seen_to_end(replays):
    """Issue 5: each scenario exercises its spells' expiry too. Every sfr-2012 spell that lasts (until the
    beginning or end of the caster's next turn, until used, until a terrain's face changes) ends, traced,
    in some bundled scenario."""
    lasting = {s.id for s in records("spell") if s.edition == "sfr-2012"
               and s.duration not in ("immediate", "permanent")}
    ended = {e["what"].split(" on ")[0] for result in replays.values() for step in result["steps"]
             for e in step.get("trace", ()) if " expires" in e["what"]}
    assert sorted(lasting - ended) == []


@pytest.mark.parametrize("edition", ["tsr-1996", "sfr-v4"])
def test_every_citation_another_edition_can_emit_exists(edition):
    rules = load_ruleset(edition)
    known = sections()
    cited = [*rules.cites.values(), *(a.cite for a in rules.racial)]
    cited += [rules.spell_sections[s] for s in (*rules.spell_modifiers, *rules.spell_effects)]
    cited += [rules.sai_sections[s] for s in rules.sai_uses]
    assert [c for c in cited if c not in known] == []


def test_each_scenario_is_replayed_under_the_edition_its_name_says(replays):
    for name, result in replays.items():
        prefix = next(p for p in EDITION_FILES if name.startswith(p))
        assert result["edition"] == EDITION_FILES[prefix], name


def test_each_trace_cites_its_own_edition_or_says_it_falls_back(replays):
    """Judges must see which edition's rule decided: tsr-1996 cites only its own sections; sfr-v4 cites
    sfr-2012 only where 001 is silent, and the rule says so. (sfr-2012 traces may name another edition's
    section beside a reading, for comparison.)"""
    for name, result in replays.items():
        edition = result["edition"]
        if edition == "sfr-2012":
            continue
        for step in result["steps"]:
            for e in step.get("trace", []):
                if e["cite"].startswith(edition + ":"):
                    continue
                assert edition == "sfr-v4" and e["cite"].startswith("sfr-2012:"), (name, e)
                assert e["rule"].endswith("(sfr-v4 is silent here: the sfr-2012 rule applies)"), (name, e)


def test_the_other_editions_spells_modelled_and_left():
    """Every spell of 000 and 001 is modelled."""
    left = {
        "tsr-1996": set(),
        "sfr-v4": set(),
    }
    for edition, expected in left.items():
        rules = load_ruleset(edition)
        spells = {s.id for s in records("spell") if s.edition == edition}
        assert {s for s in spells if not (rules.in_play(s) or s in rules.spell_effects)} == expected


def test_each_editions_modifier_order_is_pinned():
    """000 Applying Dice Modifiers: subtract, divide, multiply, add (racial abilities with the multipliers);
    001 Die Roll Resolution: subtract (5), add SAI results (6), multiply (7), add (8), with sfr-2012's racial
    step where 001 has none; 002: subtract, divide, multiply, racial abilities, add."""
    tsr, v4, sfr = (load_ruleset(e) for e in ("tsr-1996", "sfr-v4", "sfr-2012"))
    assert (tsr.modifier_steps, tsr.racial_in) == (("subtract", "divide", "multiply", "add"), "multiply")
    assert (v4.modifier_steps, v4.racial_in) == (("subtract", "sai", "multiply", "racial", "add"), "racial")
    assert (sfr.modifier_steps, sfr.racial_in) == (("subtract", "divide", "multiply", "racial", "add"), "racial")
    assert (tsr.eighth_face_doubles, v4.eighth_face_doubles, v4.eighth_face_doubles_ids) == (
        ("save", "maneuver"), (), True)


def test_modifier_order_is_pinned():
    """002 Applying Dice Modifiers: subtract, divide, multiply, racial abilities, add."""
    assert load_ruleset("sfr-2012").modifier_steps == ("subtract", "divide", "multiply", "racial", "add")


def test_core_worked_examples_are_covered():
    cited = set()
    for path in SCENARIOS:
        source = load_yaml(path.read_text(encoding="utf-8")).get("source", "")
        cited |= set(re.findall(r"[a-z0-9]+(?:-[a-z0-9]+)+", source)) & EXAMPLE_IDS
    covered = (CORE_EXAMPLES | MAGIC_EXAMPLES | SETUP_EXAMPLES | SAI_ATTACK_EXAMPLES | EXCHANGE_EXAMPLES
               | DRAGON_EXAMPLES | TURN_EXAMPLES | EDITION_EXAMPLES | EDITIONS2_EXAMPLES | EDITION_REFUSALS_EXAMPLES
               | LAST_EXAMPLES | FAQ_EXAMPLES)
    assert covered <= EXAMPLE_IDS
    assert covered - cited == set()


def test_every_targeted_sai_is_rolled_in_a_scenario(replays):
    """Issue 6: each targeted or army-damaging SAI appears in a roll of a bundled scenario (the trace counts
    its points) and in the SAI table with its own use in the rolls it names."""
    from engine.sais import SAI_USES

    rolled = {m.group(1) for result in replays.values() for step in result["steps"]
              for e in step.get("trace", ()) if (m := re.search(r"-point ([a-z-]+)", e["what"]))}
    assert sorted(set(SAI_ATTACK) - rolled) == []
    assert sorted(s for s in SAI_ATTACK if s not in SAI_USES) == []


def test_replay_is_deterministic():
    path = ROOT / "scenarios" / "sfr2012-modifiers-coral-elf-17-saves.yaml"
    assert json.dumps(replay(load(path))) == json.dumps(replay(load(path)))


# Issue 6 (i6-sai-state): the state, movement, resurrection and magic SAIs, and the SAIs modelled before.
SAI_STATE_EXAMPLES = {"sfr2012-sai-rise-from-the-ashes-vs-dust-to-dust"}
STATE_SAIS = {
    "entangle", "web", "net", "sleep", "stun", "hypnotic-glare", "wither", "frost-breath", "galeforce", "illusion",
    "dispel-magic", "ferry", "teleport", "vanish", "wayfare", "rise-from-the-ashes", "regenerate", "attune", "cloak",
    "summon-dragon", "sfr-tsr-logo-bronze-medallion", "sfr-tsr-logo-silver-medallion", "sfr-tsr-logo-gold-medallion",
}
EARLIER_SAIS = {
    "fly", "trample", "rend", "counter", "smite", "stone", "bullseye", "screech", "howl", "wave", "create-fireminions",
    "volley", "sortie", "double-strike", "tail", "cantrip", "firewalking",
}
# the step fields that hold what units rolled (not the choices made about SAIs: targets, move_to)
ROLL_FIELDS = {"roll", "saves", "counter", "counter_saves", "unit_saves", "avoidance", "negation", "dispel",
               "ashes", "burial", "eldarim"}


def _rolled_icons(value) -> set[str]:
    """The icon names in a roll as written: mapping keys (aggregate) and face strings (per unit)."""
    if isinstance(value, dict):
        return set().union(*(({slug(str(k))} | _rolled_icons(v)) for k, v in value.items())) if value else set()
    if isinstance(value, list):
        return set().union(*(_rolled_icons(v) for v in value)) if value else set()
    if isinstance(value, str):
        return {slug(value.rsplit(" ", 1)[0] if value.rsplit(" ", 1)[-1].isdigit() else value)}
    return set()


def _icons_rolled_in(path: Path) -> set[str]:
    data = load_yaml(path.read_text(encoding="utf-8"))
    found: set[str] = set()
    for step in data.get("steps") or []:
        for body in step.values():
            if isinstance(body, dict):
                found |= set().union(set(), *(_rolled_icons(v) for k, v in body.items() if k in ROLL_FIELDS))
    return found


def test_every_state_and_earlier_sai_is_rolled_in_a_scenario():
    """Issue 6: each SAI of i6-sai-state's list, and each of the 17 modelled before, appears in a bundled
    scenario's roll (its table entry is exercised, its effect checked by that scenario's expectations)."""
    rolled = set().union(*(_icons_rolled_in(p) for p in SCENARIOS))
    sais = {s.id for s in records("sai") if s.edition == "sfr-2012"}
    assert (STATE_SAIS | EARLIER_SAIS) <= sais
    assert sorted((STATE_SAIS | EARLIER_SAIS) - rolled) == []

def test_every_sai_of_the_list_is_modelled_and_rolled_in_a_scenario():
    """Issue 6: every entry of 002's SAI list has its table entry (engine.sais) and is rolled in a bundled
    scenario, the Eldarim champions' logos before a dragon attack included (`eldarim:`)."""
    from engine.sais import SAI_USES

    sais = {s.id for s in records("sai") if s.edition == "sfr-2012"}
    assert len(sais) == 82
    assert sorted(sais - set(SAI_USES)) == []
    rolled = set().union(*(_icons_rolled_in(p) for p in SCENARIOS))
    assert sorted(sais - rolled) == []


def test_the_whole_game_scenario_plays_every_kind_of_step_of_the_turn_sequence(replays):
    """Issue 6: one scenario replays two full turns of a two-player game with every phase: the set-up, turns
    (Initial Effects), a dragon attack, maneuvers and the three actions, and the Reserve Movement; each of
    these steps is resolved, not only refused."""
    result = replays["sfr2012-game-two-turns.yaml"]
    played = [step["kind"] for step in result["steps"] if "rejected" not in step]
    wanted = {"setup", "turn", "dragon_attack", "maneuver", "melee", "missile", "magic", "reserves"}
    assert sorted(wanted - set(played)) == []
    assert played.count("turn") >= 2 and played[0] == "setup"
    assert any("rejected" in step for step in result["steps"]), "an illegal move is refused"


# Issue 6 (i6-indiv): the returning, moving and Cloak SAIs in a unit's own roll (engine.actions.own_roll)
INDIVIDUAL_SAIS = {"regenerate", "cloak", "vanish", "ferry", "teleport", "firewalking"}


def test_returning_moving_and_cloak_sais_are_rolled_in_a_units_own_roll(replays):
    """Each is rolled by a unit by itself in sfr2012-sai-individual-rolls.yaml, whose every roll of them is a unit's
    own (the Gold and Silver Medallions never roll alone, 002 Magical Items: tests/test_own_roll.py)."""
    result = replays["sfr2012-sai-individual-rolls.yaml"]
    rolled = {m.group(1) for step in result["steps"] for e in step.get("trace", ())
              if (m := re.search(r"^\w+: \d+-point ([a-z-]+)", e["what"]))}
    assert INDIVIDUAL_SAIS <= rolled
