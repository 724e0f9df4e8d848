"""Lookups tried as a new user would: misspellings answered, the book's words, layouts that read whole."""

from __future__ import annotations

import json
import re

import pytest

from ddref.cli import app


def _unboxed(text: str) -> str:
    """The panel's text without its frame, lines joined by one space: what a reader sees, whatever the wrapping."""
    lines = [re.sub(r"^[│╭╰]\s?|\s?[│╮╯]$", "", line).strip() for line in text.splitlines()]
    return " ".join(" ".join(lines).split())


def test_a_misspelling_with_one_clear_match_answers_with_a_note(run):
    result = run("spell", "lightening strike")
    assert result.exit_code == 0
    assert "Lightning Strike" in result.stdout
    assert "showing Lightning Strike for 'lightening strike'" in result.stderr
    as_json = run("spell", "lightening strik", "--json")
    assert json.loads(as_json.stdout)["id"] == "lightning-strike"
    assert "showing Lightning Strike" in as_json.stderr


def test_several_close_matches_still_list_them(run):
    result = run("spell", "wall of")
    assert result.exit_code == 2
    assert all(w in result.stderr for w in ("Wall of Fog", "Wall of Ice", "Wall of Thorns"))
    assert run("spell", "xyzzy").exit_code == 2


def test_a_glossary_miss_suggests_the_search(run):
    result = run("glossary", "frobnicate")
    assert result.exit_code == 2
    assert "ddref search 'frobnicate'" in result.stderr
    assert "showing Dead Unit Area" in run("glossary", "dead unit aera").stderr


def test_a_race_shows_what_it_does_before_its_lore(run):
    page = run("race", "coral elf").stdout
    assert page.index("Abilities") < page.index("Spells on its list") < page.index("Lore") < page.index("Ailuril")


def test_sai_resolution_reads_as_the_book_prints_it(run):
    # 002: "Counter: Normal (melee, save, and dragon attack); Special and Normal (save against melee attack)"
    assert "Special and Normal (save against melee attack)" in _unboxed(run("sai", "counter").stdout)


def test_a_box_title_never_cuts_a_section_id(run):
    long_id = ("sfr-2012:glossary-of-dragon-dice-terms.multiple-castings-target-multiple-units-armies-terrains-"
               "items-dead-unit-areas")
    page = run("rule", long_id).stdout
    shown = re.sub(r"^[│╭╰]\s?|\s?[│╮╯]$", "", page.splitlines()[1]) + page.splitlines()[2].strip("│ ")
    assert long_id in shown.replace(" ", ""), "the id, folded at most, stands whole at the top of the box"


def test_tables_wrap_between_words(run):
    page = run("spells", "-e", "all").stdout
    cells = [c.strip() for line in page.splitlines() for c in line.split("│")[1:-1]]
    # no cell line ends inside a word that continues on the next line: every word shown is a whole word
    words = {w for c in cells for w in c.split()}
    assert "until" in words and "beginning" in words
    assert not any(w.endswith("-") or w.startswith("-") for w in words)
    assert not {"until-beginning", "-of-next-turn", "until-end-of-ne"} & words


def test_resolve_over_many_files_ends_with_one_total(run, tmp_path):
    files = ["scenarios/sfr2012-modifiers-coral-elf-17-saves.yaml", "scenarios/sfr2012-melee-counter-attack-results.yaml"]
    result = run("resolve", *files, "--quiet")
    assert result.exit_code == 0
    assert re.search(r"^total: 2 of 2 files pass, (\d+) of \1 expectations hold$", result.stdout.strip().splitlines()[-1])
    bad = tmp_path / "bad.yaml"
    bad.write_text("ddref: 1\ntitle: x\nplayers: [a]\nterrains: {t: {type: flatlnd, face: 3}}\n"
                   "armies: {x: {player: a, at: t, units: [Trooper]}}\n")
    mixed = run("resolve", files[0], str(bad), "-q")
    assert mixed.exit_code == 2 and "total: 1 of 2 files pass" in mixed.stdout and "1 invalid" in mixed.stdout


def test_json_errors_are_json_on_stderr(run, tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("ddref: 1\ntitle: x\nplayers: [a]\nterrains: {t: {type: flatlnd, face: 3}}\n"
                   "armies: {x: {player: a, at: t, units: [Trooper]}}\n")
    result = run("resolve", str(bad), "--json")
    assert result.exit_code == 2
    error = json.loads(result.stderr.strip().splitlines()[-1])
    assert error["file"] == str(bad)
    (problem,) = error["errors"]
    assert (problem["line"], problem["column"], problem["path"]) == (4, 22, "terrains.t.type")
    assert "flatland" in problem["message"]
    lookup = run("spell", "xyzzy", "--json")
    assert lookup.exit_code == 2 and json.loads(lookup.stderr)["error"].startswith("no spell named 'xyzzy'")


@pytest.mark.parametrize("command", [c.name or c.callback.__name__.replace("_", "-") for c in app.registered_commands])
def test_help_shows_no_type_placeholder_for_flags(run, command):
    result = run(command, "--help")
    assert result.exit_code == 0
    assert "<bool>" not in result.stdout


def test_expectations_print_values_as_a_scenario_writes_them(run):
    page = run("resolve", "scenarios/sfr2012-tutorial-magic-mixed-army.yaml").stdout
    assert "ok magic.points: expected {gold: 3, red: 2}, actual {gold: 3, red: 2}" in page
    assert "{'" not in page and "['" not in page
