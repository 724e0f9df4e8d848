"""The magic examination's fixes (branch exam-magic2), each with the rule's own numbers: a unit's own Cantrip in its
saves against a spell (002 SAI List, Cantrip; 002 Avoidance Rolls, the Poison example), the same in Fearful Flames'
second save and in the save against Backlash, a Cantrip in the Wall of Thorns melee avoidance roll, the summoning
pool's misspellings reported where written, and sfr-v4's per-unit magic lines."""

from __future__ import annotations

from pathlib import Path

import pytest

from ddref.scenario.run import parse, replay
from ddref.scenario.source import UserError

_DIR = Path(__file__).parents[1] / "scenarios"


def _steps(name: str) -> list[dict]:
    return replay(parse((_DIR / name).read_text(), name))["steps"]


def test_a_unit_s_own_cantrip_in_its_save_against_fearful_flames_buys_its_spell():
    """Fearful Flames x3 on a 3-health Goblin whose save roll is a 3-point Cantrip: cantrip.mage buys a Palsy
    (3 black); no save, 3 damage kills it; the elves' next roll of 7 magic is 6 (Palsy: "subtract one result")."""
    steps = _steps("sfr2012-exam-magic2-unit-cantrip-saves.yaml")
    assert steps[0]["killed"] == ["mage"]
    assert steps[1]["results"]["elves"]["magic"] == 6


def test_fearful_flames_second_save_spends_the_cantrip_and_the_unit_still_flees():
    """h2 saves 2 against 2 damage, then its second save is a 2-point Cantrip: Stoneskin (2 gold) on its army,
    which does not reach a unit targeted by itself (The Stoneskin Rule): no save, h2 flees."""
    step = _steps("sfr2012-exam-magic2-unit-cantrip-saves.yaml")[1]
    assert step["fled"] == ["h2"] and step["killed"] == []
    assert any(e["what"] == "h2's roll is suspended: 2 Cantrip point(s) buy spells" for e in step["trace"])


def test_the_save_against_backlash_spends_the_army_s_cantrip():
    """Backlash: 2 + 3 = 5 damage; the save roll's 3-point Cantrip buys a Palsy (no Backlash: not a magic action),
    2 saves + Stoneskin's 1 = 3: 2 damage; the caster's results keep the save with its magic."""
    step = _steps("sfr2012-exam-magic2-backlash-thorns-cantrip.yaml")[0]
    assert step["results"]["gobs"] == {"magic": 5, "save": 3}
    assert step["damage"]["gobs"] == 2
    assert any("Cantrip spells are not a magic action" in e["what"] for e in step["trace"])


def test_a_cantrip_in_the_wall_of_thorns_avoidance_roll_buys_and_the_melee_still_counts():
    """9 health-worth, 2 melee and a 3-point Cantrip (a Palsy on the watch): 9 - 2 = 7 damage."""
    step = _steps("sfr2012-exam-magic2-backlash-thorns-cantrip.yaml")[-1]
    assert step["damage"]["host"] == 7 and step["results"]["host"]["melee"] == 2
    assert any(e["what"] == "host's roll is suspended: 3 Cantrip point(s) buy spells" for e in step["trace"])


_HEAD = """ddref: 1
title: p
edition: %s
players: [alice, bob]
turn: {player: alice}
terrains:
  front: {type: flatland, face: 3, frontier: true}
  ahome: {type: coastland, face: 3, home_of: alice}
armies:
"""
_POOL = _HEAD % "sfr-2012" + """\
  elves: {player: alice, at: front, units: [{race: goblin, health: 1, count: 6}]}
summoning_pool:
  alice:
    - {dragon: red}
    - %s
steps: []
"""


@pytest.mark.parametrize("item, words", [
    ("{dragn: red-drake}", ["t.yaml:14:", "summoning_pool.alice[1].dragn", "not 'dragn'", "did you mean: dragon"]),
    ("{minor: highland}", ["t.yaml:14:", "summoning_pool.alice[1].minor", "did you mean: minor-terrain?"]),
    ("{dragon: gren-drake}", ["t.yaml:14:", "summoning_pool.alice[1].dragon", "did you mean: green?"]),
    ("{dragonkin: Dragonscout, colour: gold}", ["t.yaml:14:", "summoning_pool.alice[1].colour",
                                                "did you mean: color?"]),
])
def test_a_bad_summoning_pool_entry_is_reported_where_written(item, words):
    with pytest.raises(UserError) as err:
        parse(_POOL % item, "t.yaml")
    text = " ".join(str(err.value).split())
    for w in words:
        assert w in text, (w, text)


def test_a_misspelt_pool_dragonkin_gets_one_error_not_two():
    with pytest.raises(UserError) as err:
        parse(_POOL % "{dragonkin: Dragonscot, color: gold}", "t.yaml")
    text = " ".join(str(err.value).split())
    assert "did you mean: Dragonscout" in text and "give color" not in text


def test_sfr_v4_magic_shows_each_unit_s_contribution():
    """As in the other editions: one line per casting unit, its points and colors (e1 2 magic, g1 2 ID)."""
    text = _HEAD % "sfr-v4" + """\
  mix: {player: alice, at: front, units: [{id: e1, race: coral-elf, health: 2}, {id: g1, race: goblin, health: 2}]}
steps:
  - magic: {army: mix, roll: {e1: magic 2, g1: id}, colors: {green: 2, black: 2}, cast: []}
"""
    whats = [e["what"] for e in replay(parse(text, "v4.yaml"))["steps"][0]["trace"]]
    assert any(w.startswith("e1: 2 magic point(s) from icons and SAIs, 0 from ID") for w in whats)
    assert any(w.startswith("g1: 0 magic point(s) from icons and SAIs, 2 from ID") for w in whats)
