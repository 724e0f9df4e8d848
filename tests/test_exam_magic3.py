"""The third magic examination's fixes (branch exam-magic3), with the rules' own numbers: Dispel Magic rolls only
when a spell targets the unit, its army or its terrain (002 and 001 Dispel Magic; 004 Dispel Magic C), and under
sfr-v4 its face leaves the spells on the army's other units alone (001: "Magic targeting other units, armies, or
terrains is unaffected by this SAI")."""

from __future__ import annotations

from pathlib import Path

from ddref.scenario.run import parse, replay

_DIR = Path(__file__).parents[1] / "scenarios"


def _steps(name: str) -> list[dict]:
    return replay(parse((_DIR / name).read_text(), name))["steps"]


def _refusal(step: dict) -> str:
    return str(step.get("error") or step)


def test_sfr2012_a_strike_on_another_unit_alone_gives_no_dispel_attempt():
    steps = _steps("sfr2012-exam-magic3-dispel.yaml")
    assert "no spell targets d" in _refusal(steps[0])
    # with the army targeted too, d's face negates the Hailstorm and the Strike on d2: 6 health stays 6
    assert steps[1]["killed"] == []


def test_sfr2012_one_face_of_two_attempts_negates_and_a_countered_summon_stays_in_the_pool():
    steps = _steps("sfr2012-exam-magic3-dispel.yaml")
    assert steps[2]["killed"] == []
    assert any("is not sent to vale" in str(e.get("what")) for e in steps[3]["trace"])


def test_sfrv4_dispel_spares_the_strike_on_another_unit():
    """Hailstorm on the army (negated) and a Lightning Strike on t2 (not): t2 rolls melee, no save: killed."""
    step = _steps("sfrv4-exam-magic3-dispel-summon-racial.yaml")[0]
    assert step["killed"] == ["t2"]
    assert any("Magic targeting other units" in str(e.get("rule")) for e in step["trace"])


def test_tsr_gargoyle_not_targeted_does_not_roll():
    steps = _steps("tsr1996-exam-magic3-dispel-summons.yaml")
    assert "no spell targets gargoyle" in _refusal(steps[1])
    assert steps[0]["killed"] == []
