"""The after-step registry (engine.after_step): what follows every step, in one visible order."""

from engine import after_step
from engine.editions import ruleset


def test_the_after_step_order_is_the_registry_order():
    # kills end and start what they trigger, then the dead (burial, stepped damage, resisting burial), then the
    # armies as the step left them, then terrains and the game (002: a win is checked once all else is settled)
    assert [r.name for r in after_step.AFTER_STEP] == [
        "rise-from-the-ashes", "sources-gone", "glarers-rolled", "soiled-ground", "sacrifice", "stepped-damage",
        "resist-burial", "wild-growth", "dragonkin-dissipate", "used-effects-expire", "player-eliminated", "carriers",
        "kings-die",
        "fallen-casters", "untamed", "eighth-faces-abandoned", "leave-the-game", "armies-gone", "terrains-reported", "win"]


def test_every_after_step_rule_cites_a_section_of_002_and_says_what_it_does():
    rules = ruleset("sfr-2012")
    for rule in after_step.AFTER_STEP:
        assert rules.cite(rule.cite).startswith("sfr-2012:"), rule.name
        assert rule.apply.__doc__, rule.name


def test_resolve_runs_the_registry(monkeypatch):
    # resolve applies exactly the registry's rules, in order: an entry added there runs after every step
    from pathlib import Path

    from ddref.scenario.run import load, replay

    seen = []
    probe = after_step.AfterStepRule("probe", "winning", lambda at, state: seen.append(type(at.step).__name__) or state)
    monkeypatch.setattr(after_step, "AFTER_STEP", (probe,))
    scenario = Path(__file__).parent.parent / "scenarios" / "sfr2012-counting-and-melee-example.yaml"
    replay(load(scenario, None), None)
    assert seen and len(seen) == len(load(scenario, None).steps)
