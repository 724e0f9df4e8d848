"""tsr-1996's charge (000 First March, Charge): refused where an edition has no such action."""

from pathlib import Path

import pytest
import yaml

from ddref.scenario.run import load, replay
from fast_yaml import load_yaml

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("edition", ["sfr-2012", "sfr-v4"])
def test_an_edition_without_a_charge_action_refuses_it(tmp_path, edition):
    data = load_yaml((ROOT / "scenarios" / "tsr1996-charge-damage.yaml").read_text(encoding="utf-8"))
    data["edition"] = edition
    data["steps"] = data["steps"][:1]
    data["steps"][0].pop("expect")
    data["steps"][0]["expect_error"] = f"the {edition} rules have no charge action"
    data.pop("expect")
    path = tmp_path / "charge.yaml"
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    result = replay(load(path))
    assert result["expectations"] and all(c["ok"] for c in result["expectations"]), result["expectations"]


def test_routing_is_refused_outside_tsr1996(tmp_path):
    from ddref.scenario.source import ScenarioErrors

    data = load_yaml((ROOT / "scenarios" / "tsr1996-routing-pursuit.yaml").read_text(encoding="utf-8"))
    data["edition"] = "sfr-2012"
    path = tmp_path / "routing.yaml"
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    with pytest.raises(ScenarioErrors, match="no routing option"):
        load(path)
