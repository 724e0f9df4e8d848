"""Readings of ambiguous rules in a combination roll are said in the trace where they decide something, with both
sections they rest on (002 SAI List entries; 002 Avoidance Rolls; 002 Dragon Attack Phase, Step 6)."""

from __future__ import annotations

from pathlib import Path

from ddref.scenario.run import load, replay

SCENARIOS = Path(__file__).resolve().parents[1] / "scenarios"
LIST = "sfr-2012:special-action-icon-sai-list"
AVOIDANCE = "sfr-2012:avoidance-rolls"
STEP_6 = "sfr-2012:the-turn-sequence.dragon-attack-phase.step-6-armys-response-to-the-dragons-attack"


def _events(name: str, step: int) -> list[dict]:
    return replay(load(SCENARIOS / name))["steps"][step]["trace"]


def _readings(events: list[dict]) -> dict[str, dict]:
    return {e["what"].split()[1]: e for e in events if e["what"].startswith("reading: ")}


def test_tidal_wave_roll_is_read_as_the_roll_each_moving_sai_needs():
    """Vanish's "During a save roll", Ferry's "During any non-maneuver roll" are met by the save part of Tidal
    Wave's save and maneuver roll ("just at least one", 002 Avoidance Rolls): a reading, citing both."""
    for step, sai, words in ((1, "vanish", "During a save roll"), (3, "ferry", "During any non-maneuver roll"),
                             (6, "teleport", "non-maneuver avoidance roll"), (8, "cloak", "During a save roll")):
        found = _readings(_events("sfr2012-sai-tidal-wave-movers-cloak.yaml", step))[sai]
        assert found["cite"] == f"{LIST}.{sai}"
        assert found["rule"].startswith("a reading") and words in found["rule"] and AVOIDANCE in found["rule"]


def test_tidal_wave_roll_is_read_as_a_non_maneuver_avoidance_roll_for_the_dragonkin_champions_logo():
    logo = "sfr-tsr-logo-dragonkin-champion"
    found = _readings(_events("sfr2012-sai-tidal-wave-logo-trumpet.yaml", 3))[logo]
    assert "non-maneuver avoidance roll" in found["rule"] and AVOIDANCE in found["rule"]
    assert found["cite"] == f"{LIST}.{logo}"


def test_tidal_wave_roll_is_read_as_a_non_maneuver_roll_for_regenerate():
    found = _readings(_events("sfr2012-spell-tidal-wave-regenerate.yaml", 1))["regenerate"]
    assert "During any non-maneuver roll" in found["rule"] and AVOIDANCE in found["rule"]
    assert found["cite"] == f"{LIST}.regenerate"


def test_medallions_against_a_dragon_attack_are_read_as_in_any_non_maneuver_roll():
    """The Medallions name no dragon attack: "During any non-maneuver roll" read with 002 Step 6's "melee, missile,
    or save results" -- traced where they bring back and return; not said where nothing acts (step 2: Regenerate's
    own saves)."""
    events = _events("sfr2012-dragon-attack-regenerate-medallions.yaml", 2)
    readings = _readings(events)
    for sai in ("sfr-tsr-logo-gold-medallion", "sfr-tsr-logo-silver-medallion"):
        assert readings[sai]["cite"] == f"{LIST}.{sai}"
        assert "During any non-maneuver roll" in readings[sai]["rule"] and STEP_6 in readings[sai]["rule"]
    assert "regenerate" not in readings


def test_under_a_blue_dragon_breath_no_reading_is_needed():
    """The save roll a Blue Dragon Breath leaves is a non-maneuver roll by 002 Application: traced as such."""
    events = _events("sfr2012-dragon-blue-breath-regenerate-medallions.yaml", 1)
    assert not _readings(events)
    said = next(e for e in events if e["what"] == "regenerate acts in the army's save roll against the dragons")
    assert said["cite"] == "sfr-2012:special-action-icons-general-information.application"


def test_a_dragon_sent_to_an_unknown_terrain_is_a_located_error():
    """save_sais.<army>.move_dragons names a terrain: a misspelt one is an error at its place, with a did-you-mean."""
    from ddref.scenario.run import parse
    from ddref.scenario.source import UserError

    text = (SCENARIOS / "sfr2012-sai-tidal-wave-logo-trumpet.yaml").read_text()
    try:
        parse(text.replace("move_dragons: {green: hill}", "move_dragons: {green: hil}"), "t.yaml")
    except UserError as exc:
        message = str(exc)
    else:
        message = ""
    assert "save_sais.host.move_dragons.green" in message and "did you mean: hill" in message


def test_wayfare_and_teleport_under_a_blue_dragon_breath_are_a_reading():
    """Step 6's exception read as limiting the results applied, and the breath's save avoidance roll as a
    non-maneuver avoidance roll: both sections quoted where Wayfare and Teleport move."""
    for step, sai in ((0, "wayfare"), (1, "teleport")):
        found = _readings(_events("sfr2012-dragon-blue-breath-wayfare-teleport.yaml", step))[sai]
        assert found["cite"] == f"{LIST}.{sai}"
        assert STEP_6 in found["rule"] and "sfr-2012:dragons.blue-dragon-breath-lightning" in found["rule"]
