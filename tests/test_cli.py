"""The CLI as a user runs it: answers, JSON, errors with exit code 2 and no traceback."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from ddref.cli import app

ROOT = Path(__file__).resolve().parents[1]


def test_wall_of_fog_in_every_edition_as_json(run):
    """Issue 2: three records with costs 4 (tsr-1996), 6 (sfr-v4), 6 (sfr-2012), each its own text."""
    result = run("spell", "Wall of Fog", "--edition", "all", "--json")
    assert result.exit_code == 0, result.output
    rows = json.loads(result.stdout)
    assert {r["edition"]: r["cost"] for r in rows} == {"tsr-1996": 4, "sfr-v4": 6, "sfr-2012": 6}
    assert len({r["text"] for r in rows}) == 3
    assert all(r["source"]["section"].startswith(r["edition"] + ":") for r in rows)


def test_spell_panel_cites_its_section(run):
    result = run("spell", "WALL OF FOG")
    assert result.exit_code == 0
    assert "sfr-2012:green-water-spells.wall-of-fog" in result.stdout
    assert "halve" in " ".join(result.stdout.split()).lower()


def test_unknown_name_exits_2_with_suggestions(run):
    result = run("spell", "wall of")  # three walls come equally close: a misspelling with one clear match answers
    assert result.exit_code == 2
    assert "did you mean:" in result.stderr and "Wall of Fog" in result.stderr and "Traceback" not in result.output


def test_name_only_in_another_edition_says_where(run):
    result = run("spell", "accelerated growth")
    assert result.exit_code == 2 and "exists in sfr-v4" in result.stderr


@pytest.mark.parametrize("args, needle", [
    (("sai", "trample", "--json"), '"Normal"'),
    (("race", "Vagha", "--json"), '"dwarf"'),
    (("race", "Selumari", "--json"), '"coral-elf"'),
    (("unit", "coral elf trooper", "--json"), '"coral-elf"'),
    (("rule", "sfr-2012:dice-modifiers.applying-dice-modifiers", "--json"), "Modifiers that subtract"),
])
def test_lookups_answer(run, args, needle):
    result = run(*args)
    assert result.exit_code == 0, result.output
    assert needle in result.stdout


def test_spells_filters(run):
    result = run("spells", "--color", "green", "--max-cost", "3", "--json")
    rows = json.loads(result.stdout)
    assert rows and all(r["color"] == "green" and r["cost"] <= 3 and r["edition"] == "sfr-2012" for r in rows)
    reserve = json.loads(run("spells", "--reserve", "--json").stdout)
    assert len(reserve) == 31 and all(r["reserve"] for r in reserve)  # 002 Reserve Magic lists 31
    v4_treefolk = json.loads(run("spells", "--race", "treefolk", "-e", "sfr-v4", "--json").stdout)
    assert [r["name"] for r in v4_treefolk] == ["Accelerated Growth", "Wall of Thorns"]


def test_bad_color_is_a_clean_error(run):
    result = run("spells", "--color", "grene")
    assert result.exit_code == 2 and "did you mean: green" in result.stderr


def test_every_command_has_help_with_an_example():
    for name, command in {c.name or c.callback.__name__: c for c in app.registered_commands}.items():
        doc = command.callback.__doc__ or ""
        assert "Example" in doc, f"ddref {name} --help shows no example"


def _installed_ddref() -> str | None:
    candidate = Path(sys.executable).with_name("ddref")
    return str(candidate) if candidate.exists() else shutil.which("ddref")


@pytest.mark.skipif(_installed_ddref() is None, reason="ddref is not installed in this environment")
def test_installed_console_script_and_python_m(tmp_path):
    """As a new user runs it: the console script and python -m, from outside the checkout."""
    env = {**os.environ, "NO_COLOR": "1", "COLUMNS": "80"}
    for cmd in ([_installed_ddref()], [sys.executable, "-m", "ddref"]):
        done = subprocess.run([*cmd, "spell", "Wall of Fog"], cwd=tmp_path, env=env,
                              capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, done.stderr
        assert "Wall of Fog" in done.stdout and "Traceback" not in done.stderr
        bad = subprocess.run([*cmd, "spell", "nonsense-spell"], cwd=tmp_path, env=env,
                             capture_output=True, text=True, timeout=60)
        assert bad.returncode == 2 and "Traceback" not in bad.stderr and "ddref:" in bad.stderr


def test_readme_and_ci_run_the_same_test_command():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    command = "pip install '.[test]' && python -m pytest -n auto"
    assert command in readme and command in ci
    setup = readme.split("## Set up", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```sh\n(.+?)\n```", setup, re.S)
    assert len(blocks) == 2, "exactly two set-up commands near the top of the README"
    assert "ddref resolve scenarios/" in blocks[0], "the main job runs on a bundled scenario"


def test_usage_errors_exit_2(run):
    assert run("spell").exit_code == 2                      # missing argument
    assert run("spell", "x", "--edition", "tsr-2000").exit_code == 2
    assert run("rule", "sfr-2012:no-such-section").exit_code == 2


@pytest.mark.parametrize("args", [
    ("spell", "wall of fog"), ("spell", "wall of fog", "-e", "all"), ("spells",), ("spells", "-e", "all"),
    ("sai", "charm", "-e", "all"), ("sais", "-e", "all"), ("race", "vagha", "-e", "all"),
    ("unit", "umber hulk", "-e", "all"), ("unit", "trooper"), ("rule", "tsr-1996:faq"),
])
def test_every_lookup_renders_for_people(run, args):
    """The rich (non-JSON) path of every command, in every edition: no internal error."""
    result = run(*args)
    assert result.exit_code == 0, result.stderr
    assert result.stdout.strip()
