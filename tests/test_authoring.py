"""Writing scenarios (issue 8): the JSON Schema, ddref init, ddref check, shell completion, --debug."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest
import yaml

import ddref.cli
from fast_yaml import load_yaml

ROOT = Path(__file__).resolve().parents[1]
SCENARIOS = sorted((ROOT / "scenarios").glob("*.yaml"))
CORAL = ROOT / "scenarios" / "sfr2012-modifiers-coral-elf-17-saves.yaml"


@pytest.fixture(scope="module")
def schema():
    from ddref.scenario.schema import scenario_schema

    return scenario_schema()


@pytest.fixture(scope="module")
def validator(schema):
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def _data(path: Path) -> dict:
    return load_yaml(path.read_text(encoding="utf-8"))


# --- ddref schema --------------------------------------------------------------------------------

def test_schema_command_prints_the_schema(run, schema):
    result = run("schema")
    assert result.exit_code == 0 and json.loads(result.stdout) == schema
    assert json.loads(run("schema", "--json").stdout) == schema


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.name)
def test_every_bundled_scenario_is_valid_under_the_schema(validator, path):
    errors = [f"{'.'.join(map(str, e.absolute_path))}: {e.message}" for e in validator.iter_errors(_data(path))]
    assert errors == []


@pytest.mark.parametrize("change, where", [
    (lambda d: d["armies"]["elves"].update(playr="alice"), "armies.elves"),          # unknown field
    (lambda d: d.update(edition="sfr-2013"), "edition"),                              # not an edition
    (lambda d: d["terrains"]["coast"].update(face=9), "terrains.coast.face"),         # no face 9
    (lambda d: d["steps"].append({"melee": {"army": "elves"}}), "steps.1"),           # missing target, roll
    (lambda d: d["steps"].append({"mellee": {"army": "elves"}}), "steps.1"),          # unknown step kind
    (lambda d: d["steps"].append({"roll": {"army": "elves", "for": "sav", "roll": {"save": 1}}}), "steps.1"),
    (lambda d: d["steps"][0].update(expect_eror="x"), "steps.0"),
    (lambda d: d.update(ddref=2), "ddref"),
])
def test_the_schema_rejects_what_the_loader_rejects(validator, run, tmp_path, change, where):
    data = _data(CORAL)
    change(data)
    errors = list(validator.iter_errors(data))
    assert errors and any(".".join(map(str, e.absolute_path)).startswith(where) for e in errors), errors
    path = tmp_path / "bad.yaml"
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    assert run("check", str(path)).exit_code == 2


def test_every_field_is_described_and_closed(schema):
    objects = [schema, *schema["$defs"].values()]
    for obj in objects:
        assert obj["additionalProperties"] is False, obj.get("title")
        missing = [name for name, prop in obj["properties"].items() if not prop.get("description")]
        assert missing == [], (obj.get("title"), missing)
    for step in schema["properties"]["steps"]["items"]["oneOf"]:
        assert step["additionalProperties"] is False


def test_known_names_are_offered_and_fixed_lists_enforced(schema, validator):
    defs = schema["$defs"]
    spells = defs["EffectIn"]["properties"]["spell"]["anyOf"][0]["enum"]
    assert "wall-of-fog" in spells and "transmute-rock-to-mud" in spells
    assert "coral-elf" in defs["UnitIn"]["properties"]["race"]["anyOf"][0]["enum"]
    assert "dwarf-umber-hulk" in defs["UnitIn"]["properties"]["name"]["anyOf"][0]["enum"]
    assert schema["properties"]["edition"]["enum"] == ["sfr-2012", "sfr-v4", "tsr-1996"]
    # the books' spelling is accepted by the loader, so the schema may not refuse it
    data = _data(CORAL)
    data["effects"][0]["spell"] = "Wall of Fog"
    assert list(validator.iter_errors(data)) == []
    data["steps"].append({"magic": {"army": "elves", "roll": {"magic": 2}, "colors": {"purple": 2}}})
    assert list(validator.iter_errors(data))


# --- ddref init ----------------------------------------------------------------------------------

def test_init_writes_a_starter_that_validates_checks_and_replays(run, tmp_path, validator):
    path = tmp_path / "dispute.yaml"
    result = run("init", str(path))
    assert result.exit_code == 0 and "ddref resolve" in result.stdout
    text = path.read_text(encoding="utf-8")
    assert text.startswith("# yaml-language-server: $schema=ddref-scenario.schema.json\n")
    assert list(validator.iter_errors(load_yaml(text))) == []
    assert run("check", str(path)).exit_code == 0
    replayed = run("resolve", str(path), "--json")
    assert replayed.exit_code == 0, replayed.stderr
    checks = json.loads(replayed.stdout)["expectations"]
    assert len(checks) >= 3 and all(c["ok"] for c in checks)
    assert [p.name for p in tmp_path.iterdir()] == ["dispute.yaml"]   # no temporary file left
    umask = os.umask(0)
    os.umask(umask)
    assert path.stat().st_mode & 0o777 == 0o666 & ~umask               # as any file the user writes


def test_init_refuses_to_overwrite_unless_forced(run, tmp_path):
    path = tmp_path / "mine.yaml"
    path.write_text("my own work\n", encoding="utf-8")
    refused = run("init", str(path))
    assert refused.exit_code == 2 and "--force" in refused.stderr
    assert path.read_text(encoding="utf-8") == "my own work\n"
    assert run("init", str(path), "--force", "--schema", "https://example.org/s.json").exit_code == 0
    assert path.read_text(encoding="utf-8").startswith("# yaml-language-server: $schema=https://example.org/s.json")


def test_init_dash_prints_the_starter(run, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = run("init", "-")
    assert result.exit_code == 0 and result.stdout.startswith("# yaml-language-server:")
    assert load_yaml(result.stdout)["ddref"] == 1 and list(tmp_path.iterdir()) == []


def test_init_into_a_missing_folder_is_a_clean_error(run, tmp_path):
    result = run("init", str(tmp_path / "no" / "such" / "s.yaml"))
    assert result.exit_code == 2 and "cannot write" in result.stderr and "Traceback" not in result.output


# --- ddref check ---------------------------------------------------------------------------------

def test_check_valid_files_exit_0(run):
    result = run("check", *map(str, SCENARIOS[:3]))
    assert result.exit_code == 0 and result.stdout.count(": ok") == 3


def test_check_reports_every_file_with_located_errors(run, tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text(CORAL.read_text(encoding="utf-8").replace("player: alice", "player: alcie", 1), encoding="utf-8")
    result = run("check", str(CORAL), str(bad), "--json")
    assert result.exit_code == 2
    good, wrong = json.loads(result.stdout)
    assert good == {"file": str(CORAL), "ok": True, "errors": []}
    assert wrong["ok"] is False and wrong["file"] == str(bad)
    (error,) = wrong["errors"]
    assert error["line"] and error["column"] and error["path"].endswith(".player")
    assert "did you mean: alice" in error["message"]
    text = run("check", str(bad))
    assert text.exit_code == 2 and f"{bad}:{error['line']}:{error['column']}" in text.stderr


def test_check_a_missing_file(run, tmp_path):
    result = run("check", str(tmp_path / "nope.yaml"))
    assert result.exit_code == 2 and "cannot read" in result.stderr


# --- --debug -------------------------------------------------------------------------------------

def _broken(monkeypatch):
    def boom(*args, **kwargs):
        raise RuntimeError("a bug")

    monkeypatch.setattr(ddref.cli, "_show", boom)


def test_an_internal_error_is_one_line_without_debug(run, monkeypatch):
    _broken(monkeypatch)
    result = run("spell", "wall of fog")
    assert result.exit_code == 2 and "internal error (RuntimeError: a bug)" in result.stderr
    assert "Traceback" not in result.output and "--debug" in result.stderr


@pytest.mark.parametrize("how", ["option", "environment"])
def test_debug_lets_the_traceback_through(run, monkeypatch, how):
    _broken(monkeypatch)
    if how == "environment":
        monkeypatch.setenv("DDREF_DEBUG", "1")
    with pytest.raises(RuntimeError, match="a bug"):
        run(*(["--debug"] if how == "option" else []), "spell", "wall of fog")
    monkeypatch.delenv("DDREF_DEBUG", raising=False)
    assert run("spell", "wall of fog").exit_code == 2   # --debug does not stick to the next run


# --- shell completion ----------------------------------------------------------------------------

def _ddref() -> list[str]:
    script = Path(sys.executable).with_name("ddref")
    return [str(script)] if script.exists() else [sys.executable, "-m", "ddref"]


def _complete(line: str, shell: str = "bash") -> list[str]:
    env = {**os.environ, "_DDREF_COMPLETE": f"complete_{shell}", "_TYPER_COMPLETE_ARGS": line,
           "COMP_WORDS": line, "COMP_CWORD": str(len(line.split(" ")) - 1)}
    done = subprocess.run(_ddref(), env=env, capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    return done.stdout.splitlines()


@pytest.mark.parametrize("line, expected", [
    ("ddref spell wall-", ["wall-of-fog", "wall-of-ice", "wall-of-thorns"]),
    ("ddref sai double", ["double-strike"]),
    ("ddref race coral", ["coral-elf"]),
    ("ddref unit dwarf-umb", ["dwarf-umber-hulk"]),
    ("ddref spell --edition sfr", ["sfr-2012", "sfr-v4"]),
    ("ddref resolve x.yaml --edition t", ["tsr-1996"]),
    ("ddref spel", ["spell", "spells"]),
])
def test_bash_completion_offers_real_names(line, expected):
    assert _complete(line) == expected


def test_zsh_completion_shows_the_book_name_as_help():
    (out,) = [line for line in _complete("ddref sai double", "zsh") if "double-strike" in line]
    assert "Double Strike (sfr-2012, sfr-v4, tsr-1996)" in out


@pytest.mark.skipif(shutil.which("bash") is None, reason="no bash")
def test_installed_bash_completion_completes_a_spell(tmp_path):
    """--install-completion as a user runs it, then the installed script answers a TAB in bash."""
    env = {**os.environ, "HOME": str(tmp_path), "PATH": f"{Path(_ddref()[0]).parent}{os.pathsep}{os.environ['PATH']}"}
    # typer finds the shell by walking up the process tree (shellingham): run it from bash, as a user would, so
    # that a test run detached from any shell still finds one ("; exit" keeps bash from exec-ing the command)
    done = subprocess.run(["bash", "-c", '"$0" "$@"; exit $?', *_ddref(), "--install-completion", "bash"], env=env,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    script = tmp_path / ".bash_completions" / "ddref.sh"
    assert script.exists() and str(script) in (tmp_path / ".bashrc").read_text(encoding="utf-8")
    # bash calls the function with the command name as $1
    tab = f'source {script}; COMP_WORDS=(ddref spell wall-of-f); COMP_CWORD=2; _ddref_completion ddref; ' \
          'echo "${COMPREPLY[@]}"'
    answered = subprocess.run(["bash", "-c", tab], env=env, capture_output=True, text=True, timeout=60)
    assert answered.stdout.split() == ["wall-of-fog"], answered.stderr
