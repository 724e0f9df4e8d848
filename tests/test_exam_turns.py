"""Defects the examination of the turn sequence and marches found (issue 20): each test states the rule it pins."""

from __future__ import annotations

from pathlib import Path

import pytest

from ddref.scenario.run import StepRefused, load, parse, replay
from ddref.scenario.source import ScenarioErrors

ROOT = Path(__file__).resolve().parents[1]

# Alice's turn, first march: Treefolk at a terrain, two in her DUA (002 Racial Abilities, Treefolk, Replanting)
TREES = """\
ddref: 1
title: replanting in the march
edition: sfr-2012
players: [alice, bob]
turn: {player: alice, phase: first-march}
terrains:
  wood: {type: flatland, face: 3, action: magic, home_of: alice}
  hill: {type: highland, face: 3, action: magic, home_of: bob}
armies:
  trees: {player: alice, at: wood, units: [{id: c1, race: treefolk, health: 1}, {id: c2, race: treefolk, health: 1}]}
  btrees: {player: bob, at: hill, units: [{id: b1, race: treefolk, health: 1}]}
dua:
  alice: [{id: u2, race: treefolk, health: 2}, {id: c9, race: treefolk, health: 1}]
  bob: [{id: bu, race: treefolk, health: 1}]
steps:
"""


def _refusal(text: str) -> str:
    with pytest.raises(StepRefused) as info:
        replay(parse(text, "s.yaml"))
    return str(info.value)


def test_replanting_after_the_action_is_refused():
    """002 Replanting: "after the maneuver attempt but before any action": once the march's action is taken, no
    exchange (the engine allowed it)."""
    message = _refusal(TREES + "  - magic: {army: trees, roll: {magic: 0}}\n"
                               "  - replant: {army: trees, give: [c1, c2], take: [u2]}\n")
    assert "trees' march has taken its magic action" in message
    assert "sfr-2012:racial-abilities.treefolk.replanting" in message


def test_replanting_by_the_other_players_army_is_refused():
    """002 Replanting: "during a march"; Glossary, March: "Only an army belonging to the marching player can take a
    march" (the engine let Bob's Treefolk replant in Alice's turn)."""
    message = _refusal(TREES + "  - replant: {army: btrees, give: [b1], take: [bu]}\n")
    assert "only an army belonging to the marching player" in message


def test_replanting_begins_a_march_once_and_no_maneuver_follows():
    """A march without its optional maneuver: Replanting is its first part (the first march), once, and a maneuver
    after it is refused ("after the maneuver attempt")."""
    out = replay(parse(TREES + "  - replant: {army: trees, give: [c1, c2], take: [u2]}\n"
                               "  - maneuver: {army: trees, direction: up}\n"
                               "    expect_error: no maneuver follows it\n"
                               "  - replant: {army: trees, give: [u2], take: [c1, c2]}\n"
                               "    expect_error: replanted in this march already\n"
                               "  - magic: {army: trees, roll: {magic: 0}}\n", "s.yaml"))
    first = out["steps"][0]
    assert first["trace"][0]["what"] == "alice's first march: trees"
    assert all(c["ok"] for c in out["expectations"])
    # 2 health given (c1 + c2) for 2 taken (u2); the march's action follows
    assert [u for u in out["state"]["armies"]["trees"]["units"]] == ["u2"]


# Bob's goblins under Alice's Palsy (-1 to every result) are wiped out by her melee (002 Spell Attributes > Duration)
WIPE = """\
ddref: 1
title: wiped out
edition: sfr-2012
players: [alice, bob]
turn: {player: alice}
terrains:
  hill: {type: highland, face: 3, action: melee, home_of: alice}
  vale: {type: flatland, face: 4, home_of: bob}
armies:
  dwarves: {player: alice, at: hill, units: [{race: dwarf, health: 2, count: 3}]}
  goblins: {player: bob, at: hill, units: [{id: g1, race: goblin, health: 1}, {id: g2, race: goblin, health: 1}]}
  breserve: {player: bob, at: reserve, units: [{id: r1, race: goblin, health: 1}]}
effects:
  - {spell: palsy, target: goblins, by: alice}
  - {spell: ash storm, target: vale, by: alice}
steps:
  - melee: {army: dwarves, target: goblins, roll: {melee: 5}, saves: {goblins: {save: 0}}}
"""


def test_the_spells_on_an_army_wiped_out_expire_with_it():
    """002 Duration ("If all the units in an army move away ... all spells cast on that army immediately expire")
    read with 002 Glossary, Army: killed to the last unit, the army no longer exists and its Palsy ends; the Ash
    Storm on a terrain stays (the engine kept the Palsy in play)."""
    out = replay(parse(WIPE, "s.yaml"))
    step = out["steps"][0]
    assert step["killed"] == ["g1", "g2"]
    assert [e["spell"] for e in out["state"]["effects"]] == ["ash-storm"]
    reading = [e for e in step["trace"] if e["what"].startswith("reading: every unit of goblins is gone")]
    assert reading and reading[0]["cite"] == "sfr-2012:spell-attributes.duration"
    assert reading[0]["also"] == "sfr-2012:glossary-of-dragon-dice-terms.army"


def test_a_later_army_at_the_place_is_not_under_the_old_armys_spell():
    """Bob's reserve goblin reinforcing the hill forms a new army there: 2 saves stay 2 (no Palsy -1)."""
    text = WIPE + ("  - turn: {player: bob}\n  - reserves: {reinforce: {r1: hill}}\n"
                   "  - roll: {army: bob-hill, for: save, roll: {save: 2}}\n")
    out = replay(parse(text, "s.yaml"))
    assert out["steps"][3]["results"]["bob-hill"]["save"] == 2


SAI_AS_SPELL = """\
ddref: 1
title: sai as spell
edition: sfr-2012
players: [alice, bob]
turn: {player: alice}
terrains:
  vale: {type: flatland, face: 4, action: missile, home_of: alice}
  front: {type: coastland, face: 5, action: missile, frontier: true}
armies:
  archers: {player: alice, at: vale, units: [{race: dwarf, health: 1, count: 3}]}
  goblins: {player: bob, at: front, units: [{race: goblin, health: 1, count: 4}]}
effects:
  - {spell: NAME, target: goblins, by: bob}
steps:
  - missile: {army: archers, target: goblins, roll: {missile: 2}}
"""


def test_spell_naming_a_lasting_sai_is_that_sai():
    """docs/scenario-format.md: `sai: illusion` instead of `spell:`; `spell: illusion` (no spell of 002 is so
    named) now means the same: the Illusion stops the missile (002 SAI List, Illusion)."""
    message = _refusal(SAI_AS_SPELL.replace("NAME", "illusion"))
    assert "goblins is under illusion: it cannot be targeted by any missile" in message


def test_spell_naming_an_sai_without_a_lasting_effect_says_so():
    with pytest.raises(ScenarioErrors) as info:
        parse(SAI_AS_SPELL.replace("NAME", "smite"), "s.yaml")
    message = info.value.errors[0].message
    assert message.startswith("Smite is an SAI, not a spell, and it leaves no effect in play")
    assert "illusion" in message


def test_a_misspelled_lasting_sai_is_suggested():
    with pytest.raises(ScenarioErrors) as info:
        parse(SAI_AS_SPELL.replace("NAME", "ilusion"), "s.yaml")
    assert "did you mean: illusion?" in info.value.errors[0].message


@pytest.mark.parametrize("name", sorted(p.name for p in (ROOT / "scenarios").glob("*-exam-turns-*.yaml")))
def test_the_exam_turns_scenarios_hold(name):
    out = replay(load(ROOT / "scenarios" / name))
    failed = [c for c in out["expectations"] if not c["ok"]]
    assert out["expectations"] and not failed, failed
