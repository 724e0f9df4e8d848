"""ddref resolve as a user meets it: exit codes, located errors, JSON, never a traceback."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CORAL = str(ROOT / "scenarios" / "sfr2012-modifiers-coral-elf-17-saves.yaml")

BASE = """\
ddref: 1
title: test
players: [a, b]
terrains:
  t: {type: flatland, face: 3, action: melee, home_of: a}
armies:
  x: {player: a, at: t, units: [{race: dwarf, health: 1, count: 3}]}
  y: {player: b, at: t, units: [{race: goblin, health: 1, count: 3}]}
"""


def scenario(tmp_path: Path, body: str) -> str:
    path = tmp_path / "s.yaml"
    path.write_text(BASE + body, encoding="utf-8")
    return str(path)


def test_passing_scenario_exits_0_and_prints_the_cited_trace(run):
    result = run("resolve", CORAL)
    assert result.exit_code == 0
    assert "17 save" in result.stdout and "sfr-2012:the-eighth-face" in result.stdout


def test_trace_lines_fit_the_width_with_each_rule_under_its_event(run):
    """Wrapped lines keep their indent; a citation is never split across two lines."""
    result = run("resolve", str(ROOT / "bench" / "ten-steps.yaml"))
    lines = result.stdout.splitlines()
    assert lines and all(len(line) <= 80 for line in lines)
    events = [i for i, line in enumerate(lines) if line.startswith("  - ")]
    assert len(events) > 30
    for i in events:  # every event (its own wrapped lines indented 4) is followed by its rule, indented 6,
        below = []    # ending in its [citation]
        rest = lines[i + 1:]
        while rest and rest[0].startswith("    ") and not rest[0].startswith("      "):
            rest = rest[1:]
        for line in rest:
            if not line.startswith("      "):
                break
            below.append(line)
        assert below and re.search(r"\[sfr-2012:[\w.-]+\]$", below[-1]), lines[i:i + 4]
    assert any(lines[i + 1].startswith("    ") and not lines[i + 1].startswith("      ") for i in events)
    # a defaulted casualty choice whose rule text is longer than one line
    at = next(i for i, line in enumerate(lines) if "(defaulted)" in line and "damage:" in line)
    assert lines[at + 1].startswith("      as much damage") and lines[at + 2].startswith("      ")


def test_json_is_the_format_object(run):
    data = json.loads(run("resolve", CORAL, "--json").stdout)
    step = data["steps"][0]
    assert data["edition"] == "sfr-2012"
    assert step["results"] == {"archers": {"missile": 15}, "elves": {"maneuver": 4, "save": 17}}
    assert step["damage"] == {"elves": 0}
    assert data["state"]["armies"]["elves"]["health"] == 12
    assert all(set(e) >= {"what", "rule", "cite"} for e in step["trace"])
    assert all(c["ok"] for c in data["expectations"])


def test_failed_expectation_exits_1_with_expected_and_actual(run, tmp_path):
    path = scenario(tmp_path, "steps:\n  - roll: {army: x, for: melee, roll: {melee: 2}}\n    expect: {results.x.melee: 3}\n")
    result = run("resolve", path)
    assert result.exit_code == 1
    assert "expected 3, actual 2" in " ".join(result.stdout.split())


@pytest.mark.parametrize("body, words", [
    ("effects:\n  - {spell: wall of fgo, target: t, by: b}\n", ["s.yaml:10:13:", "effects[0].spell", "did you mean: Wall of Fog"]),
    ("steps:\n  - roll: {army: xx, for: melee, roll: {melee: 2}}\n", ["s.yaml:10:18:", "unknown army 'xx'", "did you mean: x"]),
    ("steps:\n  - roll: {army: x, for: mele, roll: {melee: 2}}\n", ["unknown result type 'mele'", "did you mean: melee"]),
    ("steps:\n  - roll: {army: x, for: melee, roll: {smote: 2}}\n", ["unknown icon or unit 'smote'", "smite"]),
    ("steps:\n  - melee: {army: x, target: y, roll: {melee: 2}}\n", ["step 1 (melee) is not allowed", "saves.y"]),
    ("steps:\n  - melee: {army: x, target: y, roll: {melee: 2}, saves: {y: {save: 0}}, casualties: {y: [x.1]}}\n",
     ["not units of army y"]),
    ("steps:\n  - reserves: {retreat: [a.1]}\n", ["steps[0].reserves.retreat[0]", "unknown unit 'a.1'", "x.1"]),
    ("steps:\n  - reserves: {reinforce: {x.1: hom}}\n", ["unknown terrain 'hom'"]),
    ("steps:\n  - minor: {army: x, roll: flod}\n", ["unknown minor terrain face 'flod'", "flood"]),
    ("steps:\n  - maneuver: {army: x, minor_terrain: coastlnd}\n", ["named by the major terrain type", "coastland"]),
    ("turn: {player: a, marched: [x]}\n", ["marched is read with phase"]),
    ("turn: {player: a, phase: second-march}\n", ["at the second march 1 army has marched this turn"]),
    # an effect in play is a spell, or an SAI whose effect lasts
    ("effects:\n  - {sai: trample, target: x, by: a}\n", ["Trample leaves no effect in play"]),
    ("effects:\n  - {target: x, by: a}\n", ["an effect names a spell, or an SAI"]),
    # a unit lists a second face only when the first rolls it again (Rend, Double Strike, a group monster's ID)
    ("steps:\n  - roll: {army: x, for: melee, roll: {x.1: [melee, melee 2]}}\n",
     ["x.1 lists 2 faces, but melee does not roll it again"]),
    ("steps:\n  - roll: {army: x, for: melee, roll: {melee: 2}, colour: red}\n", ["unknown field 'colour'"]),
])
def test_invalid_scenarios_exit_2_with_located_messages(run, tmp_path, body, words):
    result = run("resolve", scenario(tmp_path, body))
    assert result.exit_code == 2
    assert "Traceback" not in result.output
    for word in words:
        assert word in result.stderr, result.stderr


@pytest.mark.parametrize("command", ["resolve", "check"])
def test_a_located_error_is_one_whole_line_however_long_its_path(run, tmp_path, command):
    # stderr is 80 columns wide here (the run fixture); the error's path alone is longer, and folding it at the
    # width would cut "file:line:" in two, so it could not be copied or grepped
    deep = tmp_path / ("a-folder-with-a-long-name-" * 4)
    deep.mkdir()
    path = deep / "s.yaml"
    path.write_text(BASE + "effects:\n  - {spell: wall of fgo, target: t, by: b}\n", encoding="utf-8")
    result = run(command, str(path))
    assert result.exit_code == 2
    assert f"{path}:10:" in result.stderr, result.stderr


def test_one_bad_file_does_not_stop_the_others(run, tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("ddref: 1\ntitle: [oops\n", encoding="utf-8")
    result = run("resolve", str(bad), CORAL, "--quiet")
    assert result.exit_code == 2
    assert "YAML syntax error" in result.stderr and "5 of 5 expectations hold" in " ".join(result.stdout.split())


def test_missing_file_exits_2(run, tmp_path):
    result = run("resolve", str(tmp_path / "nope.yaml"))
    assert result.exit_code == 2 and "cannot read" in result.stderr


def test_dragons_and_summoning_pool_are_kept_in_the_state(run, tmp_path):
    path = scenario(tmp_path, "dragons:\n  - {id: red1, color: red, form: wyrm, owner: b, at: t}\n"
                              "summoning_pool: {a: [{dragon: green-drake}]}\n"
                              "expect:\n  dragons.red1.color: red\n  summoning_pool.a: ['dragon:green-drake']\n")
    data = json.loads(run("resolve", path, "--json").stdout)
    assert all(c["ok"] for c in data["expectations"]) and len(data["expectations"]) == 2
    bad = run("resolve", scenario(tmp_path, "dragons:\n  - {id: d, color: purple, at: t}\n"))
    assert bad.exit_code == 2 and "unknown dragon color 'purple'" in bad.stderr


def test_mixed_race_penalty_spread_is_marked_defaulted(run, tmp_path):
    """A penalty on a mixed army whose race ability converts results: the owner's choice, defaulted."""
    path = tmp_path / "mixed.yaml"
    path.write_text(
        "ddref: 1\ntitle: mixed\nplayers: [a, b]\nterrains:\n  c: {type: coastland, face: 3, home_of: a}\n"
        "armies:\n  x: {player: a, at: c, units: [{id: e, race: coral-elf, health: 1}, {id: d, race: dwarf, health: 1}]}\n"
        "effects:\n  - {spell: transmute-rock-to-mud, target: x, by: b}\n"
        "steps:\n  - roll: {army: x, for: save, roll: {e: maneuver 4, d: maneuver 4}}\n", encoding="utf-8")
    data = json.loads(run("resolve", str(path), "--json").stdout)
    trace = data["steps"][0]["trace"]
    assert any(e.get("defaulted") and "spread over its races" in e["what"] for e in trace)
    # 8 maneuvers - 6 = 2, one per race in proportion; the Coral Elf's 1 counts as a save
    assert data["steps"][0]["results"]["x"]["save"] == 1


def test_owner_lays_a_mixed_armys_penalty_on_one_race(run, tmp_path):
    """The same mixed army: the owner says the Dwarf's 4 maneuvers took 4 of the 6 penalty.

    The Coral Elf keeps 4 - 2 = 2 maneuvers, which count as 2 saves in coastland
    (002 Racial Abilities, Coral Elves); nothing is defaulted.
    """
    body = ("ddref: 1\ntitle: mixed\nplayers: [a, b]\nterrains:\n  c: {type: coastland, face: 3, home_of: a}\n"
            "armies:\n  x: {player: a, at: c, units: [{id: e, race: coral-elf, health: 1}, {id: d, race: dwarf, health: 1}]}\n"
            "effects:\n  - {spell: transmute-rock-to-mud, target: x, by: b}\n"
            "steps:\n  - roll: {army: x, for: save, roll: {e: maneuver 4, d: maneuver 4}, penalties_by_race: %s}\n")
    ok = tmp_path / "ok.yaml"
    ok.write_text(body % "{maneuver: {dwarves: 4}}", encoding="utf-8")
    data = json.loads(run("resolve", str(ok), "--json").stdout)
    assert data["steps"][0]["results"]["x"]["save"] == 2
    assert not any(e.get("defaulted") for e in data["steps"][0]["trace"])
    bad = tmp_path / "bad.yaml"
    bad.write_text(body % "{maneuver: {dwarf: 5}}", encoding="utf-8")
    result = run("resolve", str(bad))
    assert result.exit_code == 2 and "dwarf counted 4 maneuver, so it can lose 0 to 4, not 5" in " ".join(result.stderr.split())
    wrong = tmp_path / "wrong.yaml"
    wrong.write_text(body % "{maneuver: {goblin: 1}}", encoding="utf-8")
    result = run("resolve", str(wrong))
    # a rule, checked as the roll is made (a step refusal expect_error can pin), not when the file is read
    assert result.exit_code == 2 and "goblin rolled nothing in x (its races here: coral-elf, dwarf)" in \
        " ".join(result.stderr.split())


def test_scalders_mixed_with_others_must_roll_saves_per_unit(run, tmp_path):
    """Scorching Touch counts the Scalders' own non-ID saves: an aggregate roll cannot say whose they are."""
    path = tmp_path / "s.yaml"
    path.write_text(BASE.replace("{race: goblin, health: 1, count: 3}", "{race: scalder, health: 1}, {race: goblin, health: 1}")
                    + "steps:\n  - melee: {army: x, target: y, roll: {melee: 3}, saves: {y: {save: 2}}}\n", encoding="utf-8")
    result = run("resolve", str(path))
    assert result.exit_code == 2 and "give its save roll per unit" in " ".join(result.stderr.split())


TSR_CORAL = str(ROOT / "scenarios" / "tsr1996-editions-coral-elf-missile-save.yaml")


def test_edition_option_overrides_the_scenarios_edition_and_says_so(run):
    """The tsr-1996 Coral Elf missile save replayed under sfr-v4: 001's rules decide (no fog out of the
    terrain, the eighth face doubles only ID results), so the file's tsr-1996 expectations fail (exit 1)."""
    own = json.loads(run("resolve", TSR_CORAL, "--json").stdout)
    assert own["edition"] == "tsr-1996" and "edition_override" not in own
    result = run("resolve", TSR_CORAL, "--edition", "sfr-v4", "--json")
    data = json.loads(result.stdout)
    assert result.exit_code == 1
    assert data["edition"] == "sfr-v4"
    assert data["edition_override"] == {"scenario": "tsr-1996", "replayed": "sfr-v4"}
    assert data["steps"][0]["results"]["elves"]["save"] == 12
    assert data["steps"][0]["results"]["archers"]["missile"] == 20
    text = run("resolve", TSR_CORAL, "-e", "sfr-2012").stdout
    assert "replayed under sfr-2012 (--edition), not the scenario's edition: tsr-1996" in " ".join(text.split())


def test_edition_option_refuses_a_spell_the_edition_lacks(run):
    """Wall of Ice is no spell of 001: the 17-saves scenario cannot be replayed under sfr-v4 (exit 2)."""
    result = run("resolve", CORAL, "--edition", "sfr-v4")
    assert result.exit_code == 2
    assert "effects[5].spell: unknown spell named 'wall-of-ice' in sfr-v4" in " ".join(result.stderr.split())


def test_edition_option_checks_names_as_the_file_edition_would(run, tmp_path):
    """Issue 21: ``--edition E`` checks every name exactly as ``edition: E`` written in the file would: the
    same errors, at the same places (the eldarim scenario names units, races and spells 000/004 lack)."""
    source = ROOT / "scenarios" / "sfr2012-magic-eldarim-colors.yaml"
    written = tmp_path / source.name
    written.write_text(source.read_text(encoding="utf-8").replace("edition: sfr-2012", "edition: tsr-1996", 1),
                       encoding="utf-8")
    by_option = run("resolve", str(source), "--edition", "tsr-1996", "--json")
    in_file = run("resolve", str(written), "--json")
    assert by_option.exit_code == in_file.exit_code == 2
    errors = [[{k: e[k] for k in ("line", "column", "path", "message")} for e in json.loads(r.stderr)["errors"]]
              for r in (by_option, in_file)]
    assert errors[0] == errors[1]
    assert any(e["path"] == "steps[4].magic.cast[0].spell" for e in errors[0])   # Fearful Flames: no 000/004 spell
