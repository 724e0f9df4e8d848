"""Promotion and recruitment (engine.exchange), for the cases a scenario does not reach: the default choice,
"as many as possible", and the simultaneity of one exchange effect (002 Exchanging Units from the DUA)."""

from __future__ import annotations

import pytest

from ddref.scenario.run import load_ruleset
from engine.exchange import promote, recruit
from engine.state import Area, Army, GameState, Terrain, Unit
from engine.trace import StepError

RULES = load_ruleset("sfr-2012")
CITE = "sfr-2012:promotion"


def game(units, dead):
    army = Army(id="a", player="p", at="t", units=tuple(units))
    return GameState(edition="sfr-2012", players=("p",), turn_player="p",
                     terrains=(Terrain(id="t", type="flatland", colors=("gold",), face=3),), armies=(army,),
                     dua=(Area(player="p", units=tuple(dead)),))


def unit(uid, health, race="feral"):
    return Unit(id=uid, race=race, health=health)


def test_wild_growth_example_common_not_promoted_to_the_uncommon_just_exchanged():
    """002 Exchanging Units from the DUA: "A Wild Growth SAI affects an army consisting of a common and
    uncommon unit. There is only a rare unit in the player's DUA. The uncommon unit is promoted to the rare ...
    The common unit cannot be promoted to this uncommon"."""
    state = game([unit("c", 1), unit("u", 2)], [unit("r", 3)])
    after, events = promote(state, RULES, "a", None, None, "Wild Growth", CITE)
    assert [u.id for u in after.army("a").units] == ["c", "r"]
    assert [u.id for u in after.area("dua", "p").units] == ["u"]
    assert all(e.defaulted for e in events)
    # a second, separate effect may use the uncommon now in the DUA
    again, _ = promote(after, RULES, "a", None, None, "Wild Growth", CITE)
    assert [u.id for u in again.army("a").units] == ["u", "r"]


def test_as_many_as_possible_takes_each_unit_once():
    """002 Promotion: "Each unit can only be promoted once" in one promotion: two commons, two uncommons dead."""
    state = game([unit("c1", 1), unit("c2", 1), unit("u0", 2)], [unit("u1", 2), unit("u2", 2), unit("r1", 3)])
    after, _ = promote(state, RULES, "a", None, None, "dragon slain", CITE)
    assert sorted(u.id for u in after.army("a").units) == ["r1", "u1", "u2"]
    limited, _ = promote(state, RULES, "a", 1, None, "treasure", CITE)
    assert [u.id for u in limited.army("a").units] == ["c1", "c2", "r1"]     # the largest first


def test_illegal_choices_are_refused_with_the_legal_ones():
    state = game([unit("c1", 1), unit("c2", 1)], [unit("u1", 2)])
    with pytest.raises(StepError, match="c1 -> u1, c2 -> u1"):
        promote(state, RULES, "a", 1, {"c1": "zz"}, "treasure", CITE)
    with pytest.raises(StepError, match="may promote 1 unit"):
        promote(state, RULES, "a", 1, {"c1": "u1", "c2": "u1"}, "treasure", CITE)
    with pytest.raises(StepError, match="named twice"):
        promote(state, RULES, "a", None, {"c1": "u1", "c2": "u1"}, "treasure", CITE)


def test_recruit_takes_commons_of_the_race_only():
    """002 Recruitment: "take a common (1-health) unit from your dead unit area"."""
    state = game([unit("f", 2)], [unit("g", 1, "goblin"), unit("u", 2), unit("c", 1)])
    after, _ = recruit(state, RULES, "a", 1, None, "Feralization", CITE, race="feral")
    assert [u.id for u in after.army("a").units] == ["f", "c"]
    with pytest.raises(StepError, match="it may recruit: c"):
        recruit(state, RULES, "a", 1, ["u"], "Feralization", CITE, race="feral")
