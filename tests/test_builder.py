"""Starting points for a dispute (issue 22): ``ddref init --template``, ``ddref serve --open``, and the builder's
endpoints (catalog, check, parse) without a browser."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from ddref import builder
from ddref.scenario.starter import TEMPLATES
from fast_yaml import load_yaml

ROOT = Path(__file__).resolve().parents[1]
CORAL = ROOT / "scenarios" / "sfr2012-modifiers-coral-elf-17-saves.yaml"

# the numbers each template's dispute gives by the rules, read from the books (not from ddref's output)
RULE_NUMBERS = {
    # 002 Missile Action; ID icons count as the result rolled for: 4 + 2 missile, less 2 saves
    "missile": {"results.dwarves.missile": 6, "damage.goblins": 4},
    # 002 Maneuver: 4 + 1 ID against the Dwarves' 2 doubled at a highland (Terrain Advantage); ties go to the mover
    "maneuver": {"results.goblins.maneuver": 5, "results.dwarves.maneuver": 4, "maneuver.succeeded": True},
    # 5 magic + 1 ID: Watery Double (green, 2) and Wind Walk (blue, 4)
    "magic": {"results.elves.magic": 6},
    # 002 Claws: 6 damage; 5 saves leave 1; a dragon is 5 health and 5 automatic saves: 10 melee slay it
    "dragon-attack": {"dragon.damage": 6, "damage.dwarves": 1, "dragon.slain": ["drake"]},
    # 5 melee - 2 saves; the counter-attack 3 melee + 1 ID - 1 save
    "counter-attack": {"damage.goblins": 3, "damage.dwarves": 3},
    # 3 maneuvers, 2 saves, 3 ID placed 1 and 2
    "combination": {"results.goblins.maneuver": 4, "results.goblins.save": 4},
    # 000 Charge: 4 melee + 3 maneuver + 1 ID count as damage, less 3 saves; the charged army's 2 melee, no saves
    "charge": {"damage.dwarves": 5, "damage.goblins": 2},
    # the default starter: 5 melee + 2 ID - 3 saves
    "melee": {"results.dwarves.melee": 7, "damage.goblins": 4},
}


def test_every_template_is_listed_and_resolves_as_written_with_the_rules_numbers(run, tmp_path):
    listed = json.loads(run("init", "--list", "--json").stdout)
    assert [t["template"] for t in listed] == list(TEMPLATES) and set(TEMPLATES) == set(RULE_NUMBERS)
    shown = run("init", "--list").stdout
    assert all(kind in shown for kind in TEMPLATES)
    for kind in TEMPLATES:
        path = tmp_path / f"{kind}.yaml"
        made = run("init", str(path), "--template", kind)
        assert made.exit_code == 0, made.stderr
        text = path.read_text(encoding="utf-8")
        assert text.startswith("# yaml-language-server: $schema=") and f"ddref resolve {path.name}" in text
        assert text.count("#") > 10   # a commented starter
        result = run("resolve", str(path), "--json")
        assert result.exit_code == 0, (kind, result.stderr)
        checks = json.loads(result.stdout)["expectations"]
        assert checks and all(c["ok"] for c in checks), (kind, [c for c in checks if not c["ok"]])
        step = {c["key"]: c["actual"] for c in checks if c["step"] == 1}
        for key, wanted in RULE_NUMBERS[kind].items():
            assert step[key] == wanted, (kind, key)


def test_an_unknown_template_is_refused_with_the_closest(run, tmp_path):
    result = run("init", str(tmp_path / "x.yaml"), "--template", "dragon-atack")
    assert result.exit_code == 2 and "did you mean: dragon-attack" in result.stderr
    assert list(tmp_path.iterdir()) == []


def test_init_onto_a_folder_or_into_a_missing_one_says_what_to_give_and_writes_nothing(run, tmp_path):
    folder = tmp_path / "disputes"
    folder.mkdir()
    (folder / "mine.yaml").write_text("ddref: 1\n", encoding="utf-8")
    for force in ([], ["--force"]):
        result = run("init", str(folder), *force)
        assert result.exit_code == 2 and "is a folder" in result.stderr, result.stderr
        unwrapped = result.stderr.replace(" ", "")   # long temporary paths wrap anywhere
        assert "--force" not in result.stderr and str(folder / "scenario.yaml").replace(" ", "") in unwrapped
    missing = run("init", str(tmp_path / "nowhere" / "x.yaml"))
    assert missing.exit_code == 2 and "does not exist" in missing.stderr
    assert f"thefolder{tmp_path / 'nowhere'}".replace(" ", "") in missing.stderr.replace(" ", "")
    assert sorted(p.name for p in tmp_path.rglob("*")) == ["disputes", "mine.yaml"]
    assert (folder / "mine.yaml").read_text(encoding="utf-8") == "ddref: 1\n"


def test_init_dash_prints_a_template(run):
    result = run("init", "-", "--template", "counter-attack")
    assert result.exit_code == 0 and "counter_saves:" in result.stdout and "ddref check FILE" in result.stdout


def test_serve_open_opens_the_builder_in_the_browser(tmp_path):
    """--open hands the builder's address to the default browser ($BROWSER here: a script noting it)."""
    noted = tmp_path / "opened"
    opener = tmp_path / "browser.sh"
    opener.write_text(f"#!/bin/sh\necho \"$1\" >> {noted}\n")
    opener.chmod(0o755)
    script = Path(sys.executable).with_name("ddref")
    process = subprocess.Popen([str(script), "serve", "--port", "0", "--json", "--open"], cwd=tmp_path,
                               stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                               env={**os.environ, "BROWSER": f"{opener} %s", "NO_COLOR": "1"})
    try:
        url = json.loads(process.stdout.readline())["urls"][0]
        for _ in range(100):
            if noted.exists() and noted.read_text():
                break
            subprocess.run(["sleep", "0.1"])
        assert noted.read_text().split() == [url + "build"]
    finally:
        process.terminate()
        process.wait(15)


# --- the builder's endpoints, as functions ---------------------------------------------------------------------

def coral() -> dict:
    return load_yaml(CORAL.read_text(encoding="utf-8"))


def test_check_writes_yaml_that_reads_back_as_the_same_data_and_lists_each_steps_units():
    data = coral()
    answer = builder.check(data)
    assert answer["errors"] == []
    assert load_yaml(answer["yaml"]) == data
    before = answer["options"]["steps"][0]["armies"]
    assert [u["id"] for u in before["elves"]["units"]] == [f"elves.{n}" for n in range(1, 13)]
    assert before["elves"]["colors"] == ["blue", "green"]   # 002 Coral Elves: blue and green magic


def test_check_lists_a_magic_rolls_largest_splits_even_while_the_chosen_split_is_refused(tmp_path, run):
    """5 magic + 1 ID from Coral Elves (blue, green) at a coastland (blue, green): the ID doubles (002 Doubling
    Magic), 7 points, each blue or green (002 First March, Magic): the 8 splits of 7 into blue and green."""
    path = tmp_path / "magic.yaml"
    assert run("init", str(path), "--template", "magic").exit_code == 0
    data = load_yaml(path.read_text(encoding="utf-8"))
    wanted = [{"blue": 7}] + [{"blue": 7 - g, "green": g} for g in range(1, 7)] + [{"green": 7}]
    assert builder.check(data)["options"]["steps"][0]["splits"] == wanted
    data["steps"][0]["magic"]["colors"] = {"green": 8}      # more than the roll makes: refused at its field
    answer = builder.check(data)
    assert [e["path"] for e in answer["errors"]] == ["steps[0].magic.colors"]
    assert answer["options"]["steps"][0]["splits"] == wanted
    assert "splits" not in builder.check(coral())["options"]["steps"][0]     # a missile step splits no magic


def test_check_lists_the_spells_a_cantrip_rolled_in_a_save_roll_can_buy():
    """Dave's Dwarves (gold, red: 002 Dwarves) save with a 2-point Cantrip (002 SAI List, Cantrip): one at a time its
    points pay the sfr-2012 gold or red spells of cost 2 or less that are basic or Dwarf (002 Racial Spells):
    Ash Storm (red 2), Earthen Armor (gold 2, Dwarf), Stoneskin (gold 2); not Camouflage (Treefolk), Hide (Feral).
    A rare Dwarf's 4-point Cantrip also pays Summon Dragonkin (elemental, 3) in gold or red, not blue."""
    data = load_yaml((ROOT / "scenarios" / "sfr2012-sai-cantrip-outside-magic.yaml").read_text(encoding="utf-8"))
    steps = builder.check(data)["options"]["steps"]
    assert steps[0]["cantrip"] == {"dwarves": [{"spell": s, "color": None}
                                               for s in ("ash-storm", "earthen-armor", "stoneskin")]}
    lone = {(o["spell"], o["color"]) for o in steps[6]["cantrip"]["lone"]}
    assert {("summon-dragonkin", "gold"), ("summon-dragonkin", "red")} <= lone
    assert ("summon-dragonkin", "blue") not in lone and ("camouflage", None) not in lone


def test_check_lists_a_dragon_attacks_slay_and_breath_choices_even_while_a_choice_is_refused():
    """Two gold wyrms breathe on twelve 2-health Ferals: 10 health-worth reached (002 Dragons, Breath: combined);
    the army's 10 melee and 4 missile: each wyrm needs 5 health + 5 automatic saves of one type (002 Dragons)."""
    data = load_yaml((ROOT / "scenarios" / "sfr2012-dragon-breath-gold.yaml").read_text(encoding="utf-8"))
    data["steps"][0]["dragon_attack"]["roll"] = {"save": 3, "melee": 10, "missile": 4}
    data["steps"][0]["dragon_attack"]["slay"] = {"g1": "missile"}     # 4 missile cannot slay: refused
    data["steps"] = data["steps"][:1]
    data.pop("expect", None)
    answer = builder.check(data)
    assert [e["path"] for e in answer["errors"]] == ["steps[0].dragon_attack.slay"]
    found = answer["options"]["steps"][0]["dragon"]
    assert found["slay"] == {"g1": ["melee"], "g2": ["melee"]}
    assert found["breath"]["gold"] == {"reach": 10, "per": "health", "units": [f"feral.{n}" for n in range(1, 13)]}


def test_check_gives_the_loaders_errors_once_each_at_their_fields():
    data = coral()
    data["armies"]["elves"]["units"][0]["race"] = "coral elff"
    data["steps"][0]["missile"]["army"] = "archer"
    errors = builder.check(data)["errors"]
    paths = [e["path"] for e in errors]
    assert paths == sorted(set(paths), key=paths.index)     # each once
    race = next(e for e in errors if e["path"] == "armies.elves.units[0].race")
    assert "did you mean: Coral Elves" in race["message"] and race["line"]
    assert any(e["path"] == "steps[0].missile.army" and "archers" in e["message"] for e in errors)


def test_check_gives_an_illegal_steps_refusal_at_its_field_with_the_later_options_kept():
    data = coral()
    data["steps"][0]["missile"]["casualties"] = {"elves": ["elves.99"]}
    data["steps"][0]["missile"]["saves"]["elves"] = {"save": 0}
    answer = builder.check(data)
    assert [e["path"] for e in answer["errors"]] == ["steps[0].missile.casualties"]
    assert answer["options"]["steps"]    # the pickers keep their options while the choice is wrong


def test_catalog_lists_the_editions_units_with_size_and_health():
    cat = builder.catalog("sfr-2012")
    bowman = next(u for u in cat["units"] if u["race"] == "coral-elf" and u["name"] == "Bowman")
    assert (bowman["size"], bowman["health"]) == ("common", 1)   # 002 Coral Elves: a common unit, 1 health
    assert "standing-stones" in cat["eighth"] and "coastland" in cat["terrain_types"]
    assert {"dragon_attack", "magic", "melee", "missile", "maneuver", "roll", "turn"} <= set(cat["steps"])
    assert "id" in cat["icons"] and "counter" in cat["icons"]     # ID, the results and every SAI
    assert {"claws", "jaws", "tail"} <= set(cat["dragon_faces"])
    assert builder.catalog("tsr-1996")["edition"] == "tsr-1996"


@pytest.mark.parametrize("body, wanted", [(b"[1, 2]", "JSON object"), (b"{oops", "not JSON")])
def test_check_refuses_a_body_that_is_not_a_scenario_object(body, wanted):
    with pytest.raises(builder.BadRequest, match=wanted):
        builder._json_body(body)


@pytest.mark.parametrize("depth", [200, 5000])
def test_check_refuses_a_body_nested_too_deep_as_the_loader_does_not_with_a_500(depth):
    """A JSON body nested past what a scenario file may be is the loader's 422 (as /build/parse and /resolve
    answer), whether the JSON decoder or the YAML writer would have recursed too deep."""
    body = ('{"x":' * depth + "1" + "}" * depth).encode()
    status, answer = builder.check_answer(body)
    errors = json.loads(answer)["errors"]
    assert status == 422 and [e["message"] for e in errors] == ["nesting is deeper than 50 levels"]
    assert errors[0]["file"] == builder.FILE


def test_every_bundled_scenario_goes_through_the_builder_unchanged_and_clean():
    """The form's data -> the YAML the page shows -> the loader: for each bundled scenario, the YAML reads back as
    the same data and checks with no error (a dumper that changed a value, or an option listing that failed on a
    step kind, would show here)."""
    for path in sorted((ROOT / "scenarios").glob("*.yaml")):
        data = load_yaml(path.read_text(encoding="utf-8"))
        answer = builder.check(data)
        assert load_yaml(answer["yaml"]) == data, path.name
        assert answer["errors"] == [], (path.name, answer["errors"][:2])
        assert len(answer["options"]["steps"]) == len(data.get("steps", [])), path.name


def test_check_gives_the_options_of_the_wanted_steps_only_and_the_same_as_all():
    """?steps=0,2 (the page's opened steps): those steps' options are those of a full check, the others null, and
    the errors and YAML are the same (one replay gives both)."""
    data = load_yaml((ROOT / "scenarios" / "sfr2012-modifiers-coral-elf-17-saves.yaml").read_text())
    data["steps"] = [json.loads(json.dumps(data["steps"][0])) for _ in range(3)]   # as JSON gives them: no shared objects
    full, some = builder.check(data), builder.check(data, {0, 2})
    assert [s is None for s in some["options"]["steps"]] == [False, True, False]
    assert some["options"]["steps"][0] == full["options"]["steps"][0]
    assert some["options"]["steps"][2] == full["options"]["steps"][2]
    assert (some["errors"], some["yaml"]) == (full["errors"], full["yaml"])
    assert full["options"]["steps"][0]["armies"]["elves"]["units"][0]["health"] == 1   # 12 health-1 Coral Elves


def test_the_schema_the_page_draws_is_the_formats():
    from ddref.scenario.schema import scenario_schema

    assert json.loads(builder._schema_json()) == json.loads(json.dumps(scenario_schema()))
    assert builder._step_numbers("0,4,7") == {0, 4, 7} and builder._step_numbers("all") is None
    with pytest.raises(builder.BadRequest, match="steps is a list of step numbers"):
        builder._step_numbers("x")
