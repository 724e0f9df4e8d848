"""Safe YAML loading with positions, and located error messages (ddref.scenario.source)."""

from __future__ import annotations

from typing import Annotated, Literal, Union

import pydantic
import pytest

from ddref.errors import UserError
from ddref.scenario.source import (
    MAX_BYTES,
    MAX_DEPTH,
    Locator,
    ScenarioError,
    ScenarioErrors,
    did_you_mean,
    errors_text,
    format_path,
    load_yaml,
    pydantic_errors,
)

SCENARIO = """\
ddref: 1
title: fogged missiles
players: [alice, bob]
steps:
  - missile:
      army: archers
      roll: {missile: 30}
  - melee:
      army: elves
      casualties:
        elves: [elves.3, elves.4]
expect:
  armies.elves.health: 8
"""


def load(text, file="s.yaml"):
    return load_yaml(text, file)


def error_of(text, file="s.yaml") -> ScenarioError:
    with pytest.raises(ScenarioError) as info:
        load_yaml(text, file)
    return info.value


# --------------------------------------------------------------------------- loading and positions


def test_loads_plain_data():
    data, _ = load(SCENARIO)
    assert data == {
        "ddref": 1,
        "title": "fogged missiles",
        "players": ["alice", "bob"],
        "steps": [
            {"missile": {"army": "archers", "roll": {"missile": 30}}},
            {"melee": {"army": "elves", "casualties": {"elves": ["elves.3", "elves.4"]}}},
        ],
        "expect": {"armies.elves.health": 8},
    }


@pytest.mark.parametrize("path, position", [
    ((), (1, 1)),
    (("ddref",), (1, 8)),
    (("players",), (3, 10)),
    (("players", 1), (3, 18)),
    (("steps",), (5, 3)),
    (("steps", 0), (5, 5)),
    (("steps", 0, "missile"), (6, 7)),
    (("steps", 0, "missile", "army"), (6, 13)),
    (("steps", 0, "missile", "roll", "missile"), (7, 23)),
    (("steps", 1, "melee", "casualties"), (11, 9)),
    (("steps", 1, "melee", "casualties", "elves"), (11, 16)),
    (("steps", 1, "melee", "casualties", "elves", 1), (11, 26)),
    (("expect", "armies.elves.health"), (13, 24)),
])
def test_positions_of_values(path, position):
    _, locator = load(SCENARIO)
    assert locator.at(path) == position


def test_key_positions_point_at_the_key():
    _, locator = load(SCENARIO)
    assert locator.key_at(("steps", 1, "melee", "army")) == (9, 7)
    assert locator.key_at(("expect", "armies.elves.health")) == (13, 3)


def test_unknown_path_falls_back_to_nearest_located_ancestor():
    _, locator = load(SCENARIO)
    assert locator.at(("steps", 1, "melee", "saves", "elves")) == (9, 7)
    assert locator.at(("steps", 7, "melee")) == (5, 3)
    assert locator.at(("nothing", "here")) == (1, 1)
    assert Locator("x.yaml").at(("a",)) == (None, None)


def test_locator_error_is_located_and_formatted():
    _, locator = load(SCENARIO, "scenarios/x.yaml")
    err = locator.error(("steps", 1, "melee", "casualties", "elves"),
                        "expected a list of unit ids, got 'elves.3'")
    assert (err.file, err.line, err.column) == ("scenarios/x.yaml", 11, 16)
    assert err.path == "steps[1].melee.casualties.elves"
    assert str(err) == ("scenarios/x.yaml:11:16: steps[1].melee.casualties.elves: "
                        "expected a list of unit ids, got 'elves.3'")
    assert isinstance(err, UserError) and err.exit_code == 2


def test_scalars_follow_yaml_1_1_and_dates_stay_text():
    data, _ = load("a: yes\nb: off\nc: ~\nd: 0x10\ne: 1.5\nf: '12'\non: 1\nwhen: 2012-01-01\n")
    assert data == {"a": True, "b": False, "c": None, "d": 16, "e": 1.5, "f": "12",
                    True: 1, "when": "2012-01-01"}


def test_bytes_are_decoded_and_a_bom_is_ignored():
    data, locator = load("\ufeffname: Ærøskøbing\n".encode("utf-8"))
    assert data == {"name": "Ærøskøbing"}
    assert locator.at(("name",)) == (1, 7)


# --------------------------------------------------------------------------- rejected input


def test_aliases_are_rejected_with_location():
    err = error_of("base: &b {health: 1}\nother: *b\n")
    assert (err.line, err.column) == (2, 8)
    assert err.message.startswith("YAML aliases (*b) are not supported")


def test_billion_laughs_is_rejected_quickly():
    lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    lines += [f"{c}: &{c} [*{p},*{p},*{p},*{p},*{p},*{p},*{p},*{p},*{p}]"
              for p, c in zip("abcdefgh", "bcdefghi")]
    err = error_of("\n".join(lines) + "\n")
    assert (err.line, err.column) == (2, 8)
    assert "aliases (*a)" in err.message


def test_python_object_tags_are_rejected_not_executed(tmp_path, monkeypatch):
    marker = tmp_path / "ran"
    monkeypatch.chdir(tmp_path)
    err = error_of(f'x: !!python/object/apply:os.system ["touch {marker}"]\n')
    assert not marker.exists()
    assert (err.line, err.column, err.path) == (1, 4, "x")
    assert err.message.startswith("unsupported YAML tag '!!python/object/apply:os.system'")


@pytest.mark.parametrize("text, tag", [
    ("x: !foo 3\n", "'!foo'"),
    ("x: !!binary aGk=\n", "'!!binary'"),
    ("x: !!set {a, b}\n", "'!!set'"),
    ("x: !!python/name:os.system ''\n", "'!!python/name:os.system'"),
])
def test_unknown_tags_are_rejected(text, tag):
    err = error_of(text)
    assert err.message.startswith(f"unsupported YAML tag {tag}")
    assert (err.line, err.column) == (1, 4)


def test_duplicate_keys_name_the_first_occurrence():
    err = error_of("ddref: 1\nsteps:\n  - melee:\n      army: a\n      target: b\n      army: c\n")
    assert err.message == "duplicate key 'army' (first at line 4)"
    assert (err.line, err.column, err.path) == (6, 7, "steps[0].melee")


def test_duplicate_keys_that_mean_the_same_value():
    err = error_of("yes: 1\ntrue: 2\n")
    assert err.message == "duplicate key 'true' (first at line 1)"
    assert err.line == 2


def test_non_utf8_bytes_name_offset_and_line():
    err = error_of(b"ddref: 1\ntitle: caf\xe9\n", "bad.yaml")
    assert (err.file, err.line, err.column) == ("bad.yaml", 2, 11)
    assert "byte 0xe9 at offset 19" in err.message
    assert "UTF-8" in err.message


@pytest.mark.parametrize("text", ["", "   \n\n", b"", "# only a comment\n", "---\n"])
def test_empty_file(text):
    err = error_of(text, "e.yaml")
    assert err.message.startswith("file is empty")
    assert str(err).startswith("e.yaml: file is empty")


@pytest.mark.parametrize("text, got", [("- a\n- b\n", "a list"), ("just text\n", "'just text'"),
                                       ("42\n", "42"), ("~\n", "null")])
def test_top_level_must_be_a_mapping(text, got):
    err = error_of(text)
    assert err.message.startswith("the top level must be a mapping")
    assert err.message.endswith(f"got {got}")
    assert (err.line, err.column) == (1, 1)


def test_oversize_input_is_rejected_before_parsing():
    text = "a: '" + "x" * MAX_BYTES + "'\n"
    err = error_of(text)
    assert "too large" in err.message and "1 MiB" in err.message
    assert error_of(text.encode()).message == err.message


def test_size_counts_utf8_bytes_not_characters():
    text = "a: '" + "é" * (MAX_BYTES // 2) + "'\n"  # fewer characters than MAX_BYTES, more bytes
    assert len(text) < MAX_BYTES
    assert "too large" in error_of(text).message


def test_nesting_limit():
    ok = "a: " + "[" * (MAX_DEPTH - 1) + "]" * (MAX_DEPTH - 1) + "\n"
    data, _ = load(ok)
    depth, value = 1, data["a"]
    while value:
        depth, value = depth + 1, value[0]
    assert depth == MAX_DEPTH - 1
    err = error_of("a: " + "[" * MAX_DEPTH + "]" * MAX_DEPTH + "\n")
    assert err.message == f"nesting is deeper than {MAX_DEPTH} levels"
    assert (err.line, err.column) == (1, 3 + MAX_DEPTH)


def test_very_deep_nesting_does_not_overflow():
    err = error_of("a: " + "[" * 100_000 + "]" * 100_000 + "\n")
    assert err.message.startswith("nesting is deeper")


@pytest.mark.parametrize("text, position, words", [
    ("ddref: 1\nsteps:\n  - melee: {army: elves\n", (4, 1), "expected ',' or '}'"),
    ("ddref: 1\ntitle: a: b\n", (2, 9), "mapping values are not allowed here"),
    ("ddref: 1\nsteps:\n\t- x\n", (3, 1), "found character '\\t'"),
    ("a: 1\n---\nb: 2\n", (2, 1), "expected a single document in the stream, but found another"),
    ("a: 'open\n", (2, 1), "found unexpected end of stream"),
])
def test_syntax_errors_are_located(text, position, words):
    err = error_of(text)
    assert (err.line, err.column) == position
    assert err.message.startswith("YAML syntax error: ")
    assert words in err.message


def test_control_characters_are_located():
    err = error_of("ddref: 1\ntitle: a\x07b\n")
    assert (err.line, err.column) == (2, 9)
    assert "U+0007" in err.message


@pytest.mark.parametrize("text, words", [
    ("<<: {a: 1}\n", "merge keys (<<) are not supported"),
    ("? [a, b]\n: 1\n", "mapping keys must be single values"),
    ("a: !!int abc\n", "cannot read 'abc' as !!int"),
])
def test_other_unsupported_yaml(text, words):
    assert words in error_of(text).message


# --------------------------------------------------------------------------- error rendering


def test_error_rendering_omits_absent_parts():
    assert str(ScenarioError("m", file="f.yaml", line=3, column=4, path="a[1]")) == "f.yaml:3:4: a[1]: m"
    assert str(ScenarioError("m", file="f.yaml", line=3, path="a")) == "f.yaml:3: a: m"
    assert str(ScenarioError("m", file="f.yaml")) == "f.yaml: m"
    assert str(ScenarioError("m", line=2, column=1)) == "2:1: m"
    assert ScenarioError("m", file="f", line=1, column=2, path="p").as_dict() == {
        "file": "f", "line": 1, "column": 2, "path": "p", "message": "m"}


def test_errors_text_and_scenario_errors():
    errors = [ScenarioError("one", file="f", line=1, column=1),
              ScenarioError("two", file="f", line=2, column=5, path="x"),
              ScenarioError("one", file="f", line=1, column=1)]
    assert errors_text(errors) == "f:1:1: one\nf:2:5: x: two"
    many = ScenarioErrors(errors)
    assert many.errors == errors and str(many) == "f:1:1: one\nf:2:5: x: two"
    assert isinstance(many, UserError)


def test_format_path():
    assert format_path(("steps", 2, "melee", "casualties")) == "steps[2].melee.casualties"
    assert format_path(("steps", 0, "roll", "elves.3")) == "steps[0].roll['elves.3']"
    assert format_path(("turn", True)) == "turn.true"
    assert format_path(()) == ""


# --------------------------------------------------------------------------- names


def test_did_you_mean():
    spells = ["wall-of-fog", "wall-of-ice", "ash-storm", "transmute-rock-to-mud"]
    assert did_you_mean("wall of fgo", spells) == "; did you mean: wall-of-fog, wall-of-ice?"
    assert did_you_mean("wall of fgo", spells, n=1) == "; did you mean: wall-of-fog?"
    assert did_you_mean("Transmute_Rock to Mudd", spells) == "; did you mean: transmute-rock-to-mud?"
    assert did_you_mean("Dragons Breth", ["Dragon's Breath"]) == "; did you mean: Dragon's Breath?"
    assert did_you_mean("zzzz", spells) == ""
    assert did_you_mean("anything", []) == ""


# --------------------------------------------------------------------------- pydantic errors


class Cast(pydantic.BaseModel):
    model_config = pydantic.ConfigDict(extra="forbid")
    spell: str
    count: int = 1

    @pydantic.field_validator("spell")
    @classmethod
    def known_spell(cls, value: str) -> str:
        if value != "wall-of-fog":
            raise ValueError(f"unknown spell {value!r}" + did_you_mean(value, ["wall-of-fog"]))
        return value


class Melee(pydantic.BaseModel):
    model_config = pydantic.ConfigDict(extra="forbid")
    army: str
    casualties: dict[str, list[str]] = {}
    for_: Literal["melee", "missile"] | None = pydantic.Field(None, alias="for")


class MeleeStep(pydantic.BaseModel):
    model_config = pydantic.ConfigDict(extra="forbid")
    melee: Melee


class TurnStep(pydantic.BaseModel):
    model_config = pydantic.ConfigDict(extra="forbid")
    turn: dict[str, str]


def step_kind(value):
    return next((k for k in ("melee", "turn") if isinstance(value, dict) and k in value), None)


Step = Annotated[Union[Annotated[MeleeStep, pydantic.Tag("melee")],
                       Annotated[TurnStep, pydantic.Tag("turn")]],
                 pydantic.Discriminator(step_kind)]


class Scenario(pydantic.BaseModel):
    model_config = pydantic.ConfigDict(extra="forbid")
    ddref: Literal[1]
    players: list[str]
    cast: list[Cast] = []
    steps: list[Step] = []
    limits: dict[int, int] = {}


BAD = """\
ddref: 2
players: [alice, 3]
playres: x
cast:
  - {spell: wall of fgo, count: abc}
  - {spel: wall-of-fog}
steps:
  - melee:
      army: elves
      for: mellee
      casualties:
        elves: elves.3
      armee: x
  - turn: {player: bob}
    extra: 1
  - melee: {casualties: {}}
limits: {x: 1}
"""

EXPECTED = [  # in file order, although pydantic reports unknown fields last
    "bad.yaml:1:8: ddref: expected one of 1, got 2",
    "bad.yaml:2:18: players[1]: expected a string, got 3",
    "bad.yaml:3:1: playres: unknown field 'playres'; did you mean: players?",
    "bad.yaml:5:13: cast[0].spell: unknown spell 'wall of fgo'; did you mean: wall-of-fog?",
    "bad.yaml:5:33: cast[0].count: expected an integer, got 'abc'",
    "bad.yaml:6:5: cast[1].spell: required field missing",
    "bad.yaml:6:6: cast[1].spel: unknown field 'spel'; did you mean: spell?",
    "bad.yaml:10:12: steps[0].melee.for: expected one of 'melee' or 'missile', got 'mellee'",
    "bad.yaml:12:16: steps[0].melee.casualties.elves: expected a list, got 'elves.3'",
    "bad.yaml:13:7: steps[0].melee.armee: unknown field 'armee'; did you mean: army?",
    "bad.yaml:15:5: steps[1].extra: unknown field 'extra'",
    "bad.yaml:16:12: steps[2].melee.army: required field missing",
    "bad.yaml:17:10: limits.x: key 'x': expected an integer",
]


def validation_error(model, data) -> pydantic.ValidationError:
    with pytest.raises(pydantic.ValidationError) as info:
        model.model_validate(data)
    return info.value


def test_pydantic_errors_with_model():
    data, locator = load(BAD, "bad.yaml")
    errors = pydantic_errors(validation_error(Scenario, data), locator, model=Scenario)
    assert [str(e) for e in errors] == EXPECTED


def test_pydantic_errors_without_model_guess_the_same_paths():
    data, locator = load(BAD, "bad.yaml")
    errors = pydantic_errors(validation_error(Scenario, data), locator)
    no_hints = [line.split("; did you mean")[0] for line in EXPECTED]
    assert [str(e).split("; did you mean")[0] for e in errors] == no_hints
    assert "did you mean: wall-of-fog?" in str(errors[3])  # the validator's own hint is kept


def test_pydantic_errors_with_prefix_and_known_fields():
    data, locator = load(BAD, "bad.yaml")
    exc = validation_error(Melee, data["steps"][0]["melee"])
    errors = pydantic_errors(exc, locator, ("steps", 0, "melee"),
                             known_fields={(): ["army", "target", "casualties"]})
    assert [str(e) for e in errors] == [
        "bad.yaml:10:12: steps[0].melee.for: expected one of 'melee' or 'missile', got 'mellee'",
        "bad.yaml:12:16: steps[0].melee.casualties.elves: expected a list, got 'elves.3'",
        "bad.yaml:13:7: steps[0].melee.armee: unknown field 'armee'; did you mean: army?",
    ]
    assert (errors[2].line, errors[2].column, errors[2].path) == (13, 7, "steps[0].melee.armee")


def test_pydantic_smart_union_labels_are_dropped():
    class Either(pydantic.BaseModel):
        value: int | list[int]

    data, locator = load("value: [1, x]\n", "u.yaml")
    errors = pydantic_errors(validation_error(Either, data), locator, model=Either)
    assert [str(e) for e in errors] == [
        "u.yaml:1:8: value: expected an integer, got a list",
        "u.yaml:1:12: value[1]: expected an integer, got 'x'",
    ]
    errors = pydantic_errors(validation_error(Either, data), locator)
    assert [e.path for e in errors] == ["value", "value[1]"]


def test_pydantic_constraint_and_model_validator_messages():
    class Terrain(pydantic.BaseModel):
        face: int = pydantic.Field(ge=1, le=8)
        controlled_by: str | None = None

        @pydantic.model_validator(mode="after")
        def eighth_face_needs_controller(self):
            if self.face == 8 and self.controlled_by is None:
                raise ValueError("controlled_by is required when face is 8")
            return self

    data, locator = load("terrain:\n  face: 9\n", "t.yaml")
    errors = pydantic_errors(validation_error(Terrain, data["terrain"]), locator, ("terrain",))
    assert [str(e) for e in errors] == [
        "t.yaml:2:9: terrain.face: expected less than or equal to 8, got 9"]

    data, locator = load("terrain:\n  face: 8\n", "t.yaml")
    errors = pydantic_errors(validation_error(Terrain, data["terrain"]), locator, ("terrain",))
    assert [str(e) for e in errors] == [
        "t.yaml:2:3: terrain: controlled_by is required when face is 8"]


def test_fast_and_careful_composers_agree_on_every_bundled_scenario(monkeypatch):
    """libyaml composes well-formed files; the pure-Python loader must read them identically."""
    from pathlib import Path

    import ddref.scenario.source as source

    for path in sorted((Path(__file__).resolve().parents[1] / "scenarios").glob("*.yaml")):
        text = path.read_text(encoding="utf-8")
        fast_data, fast_loc = source.load_yaml(text, str(path))
        with monkeypatch.context() as m:
            m.setattr(source, "_compose_fast", lambda _text: None)
            slow_data, slow_loc = source.load_yaml(text, str(path))
        assert fast_data == slow_data
        for key in fast_data.get("steps", []) and range(len(fast_data["steps"])):
            assert fast_loc.at(("steps", key)) == slow_loc.at(("steps", key))
