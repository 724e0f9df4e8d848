"""All of a player's units at one place are one army, in every edition, so a scenario that gives a player two
armies at one terrain (or two in the reserve area) is refused where it is read, naming the second army's ``at``
and quoting the edition's definition (issue 20):

- 002 Glossary, Army: "All components belonging to the same player that are at the same location";
- 001 Armies: "An army is a collection of your units and monsters at a terrain or in reserves";
- 000 Basic Terms, Army: "All of your units at a single terrain", and 000 Reserves: "Your reserve army".
"""

from __future__ import annotations

import pytest

from ddref.scenario.run import parse, replay
from ddref.scenario.source import ScenarioErrors

SCENARIO = """\
ddref: 1
title: one army a place
edition: {edition}
players: [me, them]
terrains:
  hill: {{type: highland, face: 4, action: melee, home_of: me}}
  vale: {{type: flatland, face: 4, action: melee, frontier: true}}
armies:
  first: {{player: me, at: {first}, units: [{{race: goblin, health: 1, count: 2}}]}}
  second: {{player: {owner}, at: {second}, units: [{{race: goblin, health: 1, count: 2}}]}}
steps:
  - roll: {{army: first, for: save, roll: {{save: 1}}}}
    expect: {{results.first.save: 1}}
"""

CITES = {
    ("sfr-2012", "hill"): "sfr-2012:glossary-of-dragon-dice-terms.army",
    ("sfr-2012", "reserve"): "sfr-2012:glossary-of-dragon-dice-terms.army",
    ("sfr-v4", "hill"): "sfr-v4:get-to-know-your-dice.armies",
    ("sfr-v4", "reserve"): "sfr-v4:get-to-know-your-dice.armies",
    ("tsr-1996", "hill"): "tsr-1996:basic-terms.army",
    ("tsr-1996", "reserve"): "tsr-1996:turn-sequence.second-march",
}
WORDS = {
    ("sfr-2012", "hill"): "All components belonging to the same player that are at the same location",
    ("sfr-2012", "reserve"): "All components belonging to the same player that are at the same location",
    ("sfr-v4", "hill"): "at a terrain or in reserves",
    ("sfr-v4", "reserve"): "at a terrain or in reserves",
    ("tsr-1996", "hill"): "all of your units at a single terrain",
    ("tsr-1996", "reserve"): "Your reserve army is kept to your right",
}


@pytest.mark.parametrize("edition, place", sorted(CITES))
def test_two_armies_of_one_player_at_one_place_are_refused(edition, place):
    text = SCENARIO.format(edition=edition, first=place, second=place, owner="me")
    with pytest.raises(ScenarioErrors) as exc:
        parse(text, "two.yaml")
    [error] = exc.value.errors
    assert error.path == "armies.second.at"
    assert error.line == 10                                  # the second army's line
    assert "me already has army first at" in error.message
    assert WORDS[edition, place] in error.message and CITES[edition, place] in error.message


@pytest.mark.parametrize("edition", ["sfr-2012", "sfr-v4", "tsr-1996"])
@pytest.mark.parametrize("first, second, owner", [("hill", "hill", "them"), ("hill", "vale", "me"),
                                                  ("reserve", "hill", "me")])
def test_armies_at_different_places_or_of_different_players_are_accepted(edition, first, second, owner):
    result = replay(parse(SCENARIO.format(edition=edition, first=first, second=second, owner=owner), "ok.yaml"))
    assert [c["ok"] for c in result["expectations"]] == [True]
