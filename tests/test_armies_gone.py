"""An army left with no component is no army (002 Glossary, Army: "All components belonging to the same player that
are at the same location"; 000 Army, 001 Armies alike): whatever emptied it, it leaves the game state when the step
is over (engine.after_step ``armies-gone``)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from ddref.scenario import run
from engine.after_step import AFTER_STEP

ROOT = Path(__file__).resolve().parents[1]
SCENARIOS = sorted((ROOT / "scenarios").glob("*.yaml"))


def _replay_all(monkeypatch) -> tuple[list[str], Counter]:
    """Every bundled scenario replayed, each resolved step checked: the armies the step left with no unit (should be
    none), and the kind of step that made an army vanish, for each army that had units before it."""
    empty: list[str] = []
    emptied: Counter = Counter()
    real = run.resolve

    def checked(state, step, rules):
        after, out = real(state, step, rules)
        empty.extend(f"{type(step).__name__}: {a.id}" for a in after.armies if not a.units)
        emptied.update(type(step).__name__ for a in state.armies if a.units and not after.has_army(a.id))
        return after, out

    monkeypatch.setattr(run, "resolve", checked)
    for path in SCENARIOS:
        run.replay(run.load(path))
    return empty, emptied


def test_no_step_leaves_an_army_with_no_units(monkeypatch):
    # every path that empties an army (moved, fled, ferried, killed, reserves moved out, dragonkin dissipated ...),
    # in every bundled scenario of every edition: none is left in the game state as an army with no units
    empty, emptied = _replay_all(monkeypatch)
    assert empty == []
    # the check is not vacuous: armies are emptied by many kinds of step in the bundled scenarios
    assert {"MeleeStep", "MagicStep", "ReservesStep", "ManeuverStep"} <= set(emptied), emptied
    assert sum(emptied.values()) >= 20, emptied


def test_the_rule_runs_after_the_rules_that_read_the_army_the_step_left():
    # its spells expire, its eighth face and minor terrain are given up on the army the step left; then it goes
    names = [r.name for r in AFTER_STEP]
    assert names.index("armies-gone") > max(names.index(n) for n in (
        "used-effects-expire", "player-eliminated", "carriers", "kings-die", "eighth-faces-abandoned",
        "leave-the-game"))
    assert names.index("armies-gone") < names.index("win")


def test_a_new_army_never_takes_the_name_of_a_gone_army_a_spell_still_names():
    # an army killed to its last unit is gone, its spells stay in play until they end; units arriving later at that
    # terrain form a new army, which must not come under those spells by taking the gone army's name
    from engine.editions import ruleset
    from engine.moves import army_at
    from engine.state import Effect, GameState, Terrain
    from engine.steps import StepResult

    state = GameState(edition="sfr-2012", players=("alice", "bob"), turn_player="alice",
                      terrains=(Terrain(id="field", type="flatland", colors=("blue", "gold"), face=3),), armies=(),
                      effects=(Effect(spell="palsy", target="bob-field", by="alice"),))
    state, army = army_at(state, "bob", "field", ruleset("sfr-2012"), StepResult(kind="magic"))
    assert army.id == "bob-field-2" and not state.effects_on(army.id)
