"""exam-v4 (001/003 examined as a judge would): what a kill or a burial triggers on every path that kills or
buries, not only in an action step, and a spell a Cantrip buys mid-roll being in play for that roll's damage."""

from __future__ import annotations

import pytest

from ddref.scenario.run import parse, replay
from ddref.scenario.source import ScenarioErrors

HEAD = """
ddref: 1
title: t
edition: {edition}
players: [alice, bob]
turn: {{player: {turn}}}
terrains:
  a-home: {{type: highland, face: 8, eighth: temple, controlled_by: keep, home_of: alice}}
  b-home: {{type: coastland, face: 3, action: melee, home_of: bob}}
  front: {{type: flatland, face: 4, action: melee, frontier: true}}
armies:
  keep: {{player: alice, at: a-home, units: [{{race: treefolk, health: 1, count: 2}}]}}
  bfw: {{player: bob, at: b-home, units: [{{race: firewalker, health: 1, count: 6}}]}}
"""


def run(text: str) -> dict:
    return replay(parse(text, "t.yaml"))


def step(result: dict, i: int) -> dict:
    return result["steps"][i]


PHOENIX_FRONT = """  bfront: {player: bob, at: front, units: [{id: phx, name: Phoenix, race: firewalker}, {race: firewalker, health: 1, count: 6}]}
dragons:
  - {id: rd, color: red, form: drake, owner: alice, at: front}
"""


@pytest.mark.parametrize("icons, targets, casualties", [
    ("breath", "breath_targets: {red: [phx, bfront.2]}", ""),                        # the breath kills it
    ("claws", "", "casualties: {bfront: [phx, bfront.2, bfront.3]}"),                 # the claws' damage kills it
])
@pytest.mark.parametrize("face, rises", [("rise-from-the-ashes", True), ("save", False)])
def test_a_phoenix_killed_by_a_dragon_rolls_rise_from_the_ashes(icons, targets, casualties, face, rises):
    """001 Rise from the Ashes: "Whenever a unit with this SAI is killed or buried, roll the unit. If this SAI is
    rolled, the unit is moved to your Reserve Area" -- a dragon's kill too (the dragon_attack step's ashes)."""
    text = HEAD.format(edition="sfr-v4", turn="bob") + PHOENIX_FRONT + f"""steps:
  - dragon_attack:
      army: bfront
      dragons: {{rd: {icons}}}
      {targets or casualties}
      roll: {{bfront.4: melee}}
      ashes: {{phx: {face}}}
"""
    result = run(text)
    assert "phx" in step(result, 0)["killed"]
    assert ("phx" in step(result, 0)["moved"]) is rises
    reserve = result["state"]["armies"].get("bob-reserve")
    assert (reserve is not None and "phx" in reserve["units"]) is rises


@pytest.mark.parametrize("face, rises", [("rise-from-the-ashes", True), ("save", False)])
def test_a_temple_burying_a_phoenix_rolls_rise_from_the_ashes(face, rises):
    """001 Temple: "force another player to bury one unit of their choice in their DUA"; Rise from the Ashes:
    "Whenever a unit with this SAI is ... buried, roll the unit": with the icon it goes to the reserve area."""
    text = HEAD.format(edition="sfr-v4", turn="bob") + """dua:
  bob: [{id: phx, name: Phoenix, race: firewalker}]
steps:
  - turn: {player: alice, initial: {temple: {keep: {player: bob, bury: phx, ashes: %s}}}}
""" % face
    result = run(text)
    assert ("phx" in step(result, 0)["buried"]) is not rises
    assert ("phx" in step(result, 0)["moved"]) is rises


def test_a_temple_burying_a_phoenix_needs_its_roll():
    text = HEAD.format(edition="sfr-v4", turn="bob") + """dua:
  bob: [{id: phx, name: Phoenix, race: firewalker}]
steps:
  - turn: {player: alice, initial: {temple: {keep: {player: bob, bury: phx}}}}
"""
    with pytest.raises(ScenarioErrors) as err:
        run(text)
    assert "Rise from the Ashes" in str(err.value) and "initial.temple" in str(err.value)


RAIDERS = """  raiders: {player: alice, at: b-home, units: [{id: uni, name: Unicorn, race: treefolk}, {id: oak, name: Oak, race: treefolk}, {race: treefolk, health: 1, count: 3}]}
  trees: {player: alice, at: front, units: [{id: uni2, name: Unicorn, race: treefolk}, {id: naiad, name: Naiad, race: treefolk}, {race: treefolk, health: 1, count: 3}]}
dua:
  alice: [{id: nymph, name: Nymph, race: treefolk}]
dragons:
  - {id: gd, color: green, form: drake, owner: bob, at: front}
"""
MELEE = """  - melee:
      army: bfw
      target: raiders
      roll: {melee: 5}
      saves: {raiders: {uni: cantrip, raiders.3: save, raiders.4: save}}
      cantrip: {raiders: {colors: {green: 3}, cast: [{spell: accelerated-growth, target: alice}]}}
      casualties: {raiders: [oak, raiders.5]}
      stepped: {oak: nymph}
      counter: false
"""
DRAGON = """  - dragon_attack:
      army: trees
      dragons: {gd: claws}
      roll: {uni2: cantrip, trees.3: save, trees.4: save}
      cantrip: {trees: {colors: {green: 3}, cast: [{spell: accelerated-growth, target: alice}]}}
      casualties: {trees: [naiad, trees.3, trees.5]}
      stepped: {naiad: nymph}
"""


@pytest.mark.parametrize("turn, kill, army", [("bob", MELEE, "raiders"), ("alice", DRAGON, "trees")])
def test_accelerated_growth_bought_by_a_cantrip_trades_that_rolls_kills(turn, kill, army):
    """001 Cantrip: spells marked C, bought in any other non-maneuver roll, "are resolved immediately"; Accelerated
    Growth (C): "When a two (or greater) health-worth Treefolk unit is killed, you may instead exchange it with a
    one health-worth Treefolk unit from your DUA" -- bought in the save roll (or the roll against a dragon), it is
    in play when that roll's damage kills."""
    result = run(HEAD.format(edition="sfr-v4", turn=turn) + RAIDERS + "steps:\n" + kill)
    assert step(result, 0)["moved"] == ["nymph"]
    assert "nymph" in result["state"]["armies"][army]["units"]


def test_undead_stepped_damage_against_a_dragon():
    """002 Undead Stepped Damage ("when killed by any means") in a dragon attack: the dragon_attack step names the
    trade as an action step does (the field the sfr-v4 exchange above shares)."""
    text = """
ddref: 1
title: t
edition: sfr-2012
players: [alice, bob]
turn: {player: alice}
terrains:
  hill: {type: highland, face: 4, action: melee, home_of: alice}
  vale: {type: coastland, face: 3, action: melee, home_of: bob}
armies:
  dead: {player: alice, at: hill, units: [{id: u2, race: undead, health: 2}, {race: undead, health: 1, count: 4}]}
  other: {player: bob, at: vale, units: [{race: goblin, health: 1, count: 3}]}
dua:
  alice: [{id: d1, race: undead, health: 1}]
dragons:
  - {id: rd, color: red, form: drake, owner: bob, at: hill}
steps:
  - dragon_attack:
      army: dead
      dragons: {rd: claws}
      roll: {dead.2: save, dead.3: save, dead.4: save}
      casualties: {dead: [u2, dead.5]}
      stepped: {u2: d1}
"""
    result = run(text)
    assert "d1" in result["state"]["armies"]["dead"]["units"]
