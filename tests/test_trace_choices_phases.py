"""Issue 21: an absent player's choice is a traced default, and a phase heading only when something happens there.

Choices: the bundled scenario sfr2012-trace2-choices-defaulted.yaml pins Regenerate's special and Flashfire's reroll
(its expectations run with every scenario); here sfr-v4's Wild Growth, "generate one save result or promote", with no
``promote`` named. Phases: a class check over every bundled scenario under every edition."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from ddref.errors import UserError
from ddref.scenario.run import load, replay
from engine.edition import EDITIONS

ROOT = Path(__file__).resolve().parents[1]
SCENARIOS = sorted((ROOT / "scenarios").glob("*.yaml"))
HEADING = re.compile(r"'s Initial Effects phase$|^the beginning of [^ ]+ turn: ")


def test_wild_growth_with_no_promotion_named_is_a_traced_default():
    """001 Wild Growth: 4 results, no promote named while t2 could be promoted (a 3-health Treefolk in the DUA):
    5 saves (4 + grove.2's 1), and a (defaulted) line says no unit is promoted; naming promotions, no such line."""
    steps = replay(load(ROOT / "scenarios" / "sfrv4-wild-growth.yaml"))["steps"]
    line = [e for e in steps[0]["trace"] if "promote no unit" in e["what"]]
    assert steps[0]["results"]["grove"]["save"] == 5
    assert [e["what"] for e in line] == ["grove: 4 Wild Growth result(s) promote no unit: the roll names no "
                                         "promote, so each gives a save"]
    assert line[0]["defaulted"] and line[0]["cite"] == "sfr-v4:special-action-icons-sais.wild-growth"
    assert not [e for e in steps[1]["trace"] if "promote no unit" in e["what"]]


def test_a_regenerate_with_no_dead_to_bring_back_is_no_choice():
    steps = replay(load(ROOT / "scenarios" / "sfr2012-trace2-choices-defaulted.yaml"))["steps"]
    assert steps[0]["trace"][0].get("defaulted") and not steps[3]["trace"][0].get("defaulted")


@pytest.mark.parametrize("edition", [None, *EDITIONS], ids=lambda e: e or "own")
def test_a_phase_heading_shows_by_default_only_when_something_happens_there(edition):
    """Every phase heading the default view shows is followed by a line the default view shows too; a heading
    folded away (detail) is one of a phase where nothing happened, and there is at least one of each."""
    shown, folded, empty = 0, 0, []
    for path in SCENARIOS:
        try:
            result = replay(load(path), edition)
        except UserError:
            continue
        for n, step in enumerate(result["steps"], 1):
            trace = step.get("trace", [])
            for i, e in enumerate(trace):
                if not HEADING.search(e["what"]):
                    continue
                if e.get("detail"):
                    folded += 1
                    continue
                shown += 1
                if not any(not x.get("detail") and not HEADING.search(x["what"]) and x.get("kind") != "reading"
                           for x in trace[i + 1:]):
                    empty.append(f"{path.name} step {n}: {e['what']}")
    assert folded and shown
    assert empty == []


def test_the_dragons_are_said_at_the_beginning_of_a_tsr_1996_turn_only_where_one_can_attack():
    """000 Dragon Rules: "At the beginning of the acting army's turn, the dragons attack". The City and Temple act in
    alice's turn with no dragon at a terrain: the heading says nothing of dragons and no reading of their order
    with the City and Temple is traced; with a dragon at a terrain (tsr1996-faq-regenerate, step 5) both are."""
    quiet = replay(load(ROOT / "scenarios" / "tsr1996-turn-city-and-temple.yaml"))["steps"][3]
    assert [e["what"] for e in quiet["trace"] if "dragon" in e["what"]] == []
    assert any(e["what"] == "the beginning of alice's turn: spells have expired; city, temple act"
               and not e.get("detail") for e in quiet["trace"])
    busy = replay(load(ROOT / "scenarios" / "tsr1996-faq-regenerate.yaml"))["steps"][4]
    said = [e for e in busy["trace"] if "dragon" in e["what"]]
    assert [e.get("kind", "") for e in said] == ["", "reading"] and not any(e.get("detail") for e in said)
