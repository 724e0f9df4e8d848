"""The last roll refusals of sfr-2012: items an army cannot carry at load (002 Magical Items)."""

from __future__ import annotations

import pytest

from ddref.scenario.run import parse, replay
from ddref.scenario.source import ScenarioErrors

ITEMS = """
ddref: 1
title: t
edition: sfr-2012
players: [alice, bob]
terrains:
  plain: {type: flatland, face: 3, frontier: true}
armies:
  elves: {player: bob, at: plain, units: [{id: e1, race: coral-elf, health: 2}, %s
    {id: foil, name: Flicker Foil, color: blue}, {id: blade, name: Dawn Blade, color: green}]}
  dwarves: {player: alice, at: plain, units: [{race: dwarf, health: 2}]}
steps:
  - roll: {army: dwarves, for: save, roll: {save: 1}}
"""


def test_an_army_with_more_items_than_carriers_is_refused_at_load_naming_the_burial():
    with pytest.raises(ScenarioErrors) as err:
        replay(parse(ITEMS % "", "s.yaml"))
    message = str(err.value)
    assert "elves holds 2 magical items but its units can carry only 1" in message
    assert "move 1 of foil, blade to bua.bob" in message and "sfr-2012:magical-items" in message


def test_an_army_whose_units_carry_each_item_loads():
    result = replay(parse(ITEMS % "{id: e2, race: coral-elf, health: 1},", "s.yaml"))
    assert result["state"]["armies"]["elves"]["units"] == ["e1", "e2", "foil", "blade"]
