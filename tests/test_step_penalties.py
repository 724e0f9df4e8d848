"""Issue 21 §2: ``penalties:`` (the owner's split of "one result" penalties, per army) on melee and missile steps,
charges and counter-attacks included. The schema and the loader agree on the field: what one refuses the other
refuses, and a bundled scenario's split is accepted by both."""

from __future__ import annotations

from pathlib import Path

import jsonschema
import pytest
import yaml
from fast_yaml import load_yaml

ROOT = Path(__file__).resolve().parents[1]
CHARGE = ROOT / "scenarios" / "tsr1996-charge-penalty-split.yaml"


@pytest.fixture(scope="module")
def validator():
    from ddref.scenario.schema import scenario_schema

    return jsonschema.Draft202012Validator(scenario_schema())


def _with_penalties(penalties) -> dict:
    data = load_yaml(CHARGE.read_text(encoding="utf-8"))
    data["steps"] = [data["steps"][0]]
    data["steps"][0]["melee"]["penalties"] = penalties
    data.pop("expect", None)
    return data


@pytest.mark.parametrize("penalties, ok", [
    ({"A": {"maneuver": 3}, "B": {"save": 1, "melee": 2}}, True),
    ({"B": {"sav": 3}}, False),                # not a result type
    ({"B": {"save": -1}}, False),              # a negative count
    ({"B": ["save"]}, False),                  # not a mapping
])
def test_schema_and_loader_agree_on_penalties(validator, run, tmp_path, penalties, ok):
    data = _with_penalties(penalties)
    errors = [".".join(map(str, e.absolute_path)) for e in validator.iter_errors(data)]
    path = tmp_path / "split.yaml"
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    checked = run("check", str(path))
    assert (errors == []) is ok, errors
    assert (checked.exit_code == 0) is ok, checked.stderr
    if not ok:
        assert errors and all(e.startswith("steps.0") for e in errors)
        assert "penalties" in checked.stdout + checked.stderr


def test_penalties_name_an_army_of_the_step(run, tmp_path):
    data = _with_penalties({"C": {"save": 3}})
    path = tmp_path / "other.yaml"
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    checked = run("check", str(path))
    assert checked.exit_code == 2 and "not 'C'" in checked.stdout + checked.stderr


def test_the_owners_split_changes_the_result(run, tmp_path):
    """The same charge with and without B's split: its saves are 3 with {save: 1, melee: 2}, 1 by default."""
    import json

    for penalties, saves in (({"B": {"save": 1, "melee": 2}}, 3), (None, 1)):
        data = _with_penalties(penalties)
        if penalties is None:
            del data["steps"][0]["melee"]["penalties"]
        data["steps"][0]["melee"].pop("casualties", None)
        data["steps"][0].pop("expect", None)
        path = tmp_path / "charge.yaml"
        path.write_text(yaml.safe_dump(data), encoding="utf-8")
        result = run("resolve", str(path), "--json")
        assert result.exit_code == 0, result.stderr
        assert json.loads(result.stdout)["steps"][0]["results"]["B"]["save"] == saves
