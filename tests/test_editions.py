"""The three editions in one engine: what differs is policy in the ruleset, and each refuses what it lacks."""

from __future__ import annotations

import pytest

from ddref.scenario.run import load_ruleset, parse, replay
from ddref.scenario.source import ScenarioErrors
from engine.trace import StepError

BASE = """\
ddref: 1
title: t
edition: {edition}
players: [a, b]
terrains:
  hill: {{type: highland, face: 8, eighth: city, controlled_by: x, home_of: a}}
armies:
  x: {{player: a, at: hill, units: [{{race: dwarf, health: 1, count: 6}}]}}
steps:
  - roll: {{army: x, for: maneuver, roll: {{maneuver: 3, id: 2}}}}
"""


def test_an_edition_refuses_a_rule_it_does_not_have():
    """000 has no dragonkin: a step needing that rule is refused by tsr-1996, not resolved by 002's."""
    with pytest.raises(StepError, match="tsr-1996 rules have no rule for this"):
        load_ruleset("tsr-1996").cite("dragonkin")
    assert load_ruleset("sfr-v4").cite("dragonkin") == "sfr-2012:dragonkin"     # v4 falls back


@pytest.mark.parametrize("edition, maneuvers", [
    # 000: eighth face (x2) then the Dwarves' highland doubling (x2): (3 + 2) x 4
    ("tsr-1996", 20),
    # 002: the same, in its own racial step
    ("sfr-2012", 20),
    # 001: only the 2 ID results double (3 + 4 = 7), then 002's Dwarf ability (x2), marked as the fallback
    ("sfr-v4", 14),
])
def test_the_same_roll_under_each_edition(edition, maneuvers):
    result = replay(parse(BASE.format(edition=edition), "t.yaml"))
    step = result["steps"][0]
    assert step["results"]["x"]["maneuver"] == maneuvers
    fallbacks = [e for e in step["trace"] if not e["cite"].startswith(edition)]
    assert all(e["rule"].endswith("(sfr-v4 is silent here: the sfr-2012 rule applies)") for e in fallbacks)
    assert bool(fallbacks) == (edition == "sfr-v4")


def test_death_magic_is_tsr_1996s_only():
    body = BASE.format(edition="sfr-2012").replace("steps:\n  - roll: {army: x, for: maneuver, roll: {maneuver: 3, id: 2}}\n", """\
dua:
  b: [{id: d1, race: goblin, health: 1}]
steps:
  - magic: {army: x, roll: {x.1: id}, colors: {red: 1}, death_magic: [d1]}
""").replace("face: 8, eighth: city, controlled_by: x,", "face: 3, action: magic,")
    with pytest.raises(ScenarioErrors, match="death_magic .* is not a rule of sfr-2012"):
        replay(parse(body, "t.yaml"))


BULLSEYE = """\
ddref: 1
title: t
edition: {edition}
players: [a, b]
terrains:
  bank: {{type: coastland, face: 4, action: missile, home_of: a}}
armies:
  bows: {{player: a, at: bank, units: [{{id: archer, race: {race}, health: 2}}]}}
  grove: {{player: b, at: bank, units: [{{race: {race}, health: 1, count: 4}}]}}
steps:
  - missile: {{army: bows, target: grove, roll: {{archer: [bullseye 2, save]}}, targets: {{bullseye: {targets}}}}}
"""
# (001 Bullseye: "Roll this unit again and apply the new result as well": the archer's next face is listed)


def test_v4_bullseye_is_a_save_or_die_test_where_002s_is_damage():
    """001 Bullseye: "The targets make a save roll. Those that do not generate a save result are killed": each
    target must roll by itself (refused without its roll); 002's Bullseye points are damage spread over units."""
    v4 = BULLSEYE.format(edition="sfr-v4", race="treefolk", targets="[grove.1, grove.2]")
    with pytest.raises(ScenarioErrors, match="grove.1 must roll by itself .* give unit_saves.grove.1"):
        replay(parse(v4, "t.yaml"))
    over = BULLSEYE.format(edition="sfr-v4", race="treefolk", targets="[grove.1, grove.2, grove.3]")
    with pytest.raises(ScenarioErrors, match="up to 2 health-worth"):
        replay(parse(over, "t.yaml"))
    assert load_ruleset("sfr-2012").attack_sais == {}
    assert load_ruleset("sfr-v4").attack_sais["bullseye"].test == "save"
    assert load_ruleset("sfr-v4").attack_sais["double-strike"].test == "save"


def test_each_editions_summon_dragon_sends_its_own_dragons():
    """000 Summon Gold Dragon: "Send any gold dragon" (no ivory clause, which is 002's); 001 Summon Dragon: "Summon
    one dragon from any Summoning Pool or terrain" (any dragon); both may take one already at a terrain."""
    from engine.pool import summonable

    gold = load_ruleset("tsr-1996").spell_effects["summon-gold-dragon"]
    assert summonable(("gold",), gold.dragons, "gold") and gold.from_terrain
    assert not summonable(("red",), gold.dragons, "gold") and not summonable(("ivory",), gold.dragons, "gold")
    assert summonable(("ivory",), "elemental", "gold")          # 002's: "Any color Summon Dragon ... ivory"
    v4 = load_ruleset("sfr-v4").spell_effects["summon-dragon"]
    assert summonable(("green",), v4.dragons, "red") and v4.from_terrain
    assert load_ruleset("tsr-1996").dragons_wait == "dead unit area"

