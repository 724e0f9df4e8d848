"""002 Magical Items: "If not enough units in the army match the color of the magical items, the extra four-siders
are taken out of play immediately and buried. The owner chooses which items to discard." Every way an army's
components change (a carrier killed or moved away, an item returned by a Silver Medallion, an army newly formed by a
move) leaves no army holding items its units cannot carry once the step is resolved."""

from __future__ import annotations

from pathlib import Path

from ddref.scenario.run import load, load_ruleset
from engine.carrying import check_held
from engine.resolve import resolve
from engine.trace import StepError

SCENARIOS = sorted((Path(__file__).parents[1] / "scenarios").glob("*.yaml"))


def test_no_army_holds_items_its_units_cannot_carry_after_any_step():
    held, steps = [], 0
    for path in SCENARIOS:
        scenario = load(path)
        state, rules = scenario.state, load_ruleset(scenario.state.edition)
        try:
            check_held(state, rules)
        except StepError:
            continue        # a first state the replay refuses (its first step), pinned by its own expect_error
        for planned in scenario.steps:
            try:
                state, _ = resolve(state, planned.step, rules)
            except StepError:
                continue
            steps += 1
            try:
                check_held(state, rules)
            except StepError as exc:
                held.append(f"{path.name} step {planned.index}: {exc.message}")
    assert steps > 1000
    assert not held, "\n".join(held)
