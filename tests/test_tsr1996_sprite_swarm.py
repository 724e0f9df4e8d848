"""tsr-1996's Sprite Swarm (004 Monsters, Sprite Swarm): built from its name, a Coral Elf group monster."""

from pathlib import Path

import pytest
import yaml

from ddref.scenario.run import load
from ddref.scenario.source import ScenarioErrors
from fast_yaml import load_yaml

ROOT = Path(__file__).resolve().parents[1]
SCENARIO = ROOT / "scenarios" / "tsr1996-faq-sprite-swarm.yaml"


def _write(tmp_path, data) -> Path:
    path = tmp_path / "sprite.yaml"
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    return path


def test_a_sprite_swarm_of_another_race_is_refused(tmp_path):
    data = load_yaml(SCENARIO.read_text(encoding="utf-8"))
    data["armies"]["sprites"]["units"] = [{"id": "swarm", "name": "Sprite Swarm", "race": "goblin"}]
    with pytest.raises(ScenarioErrors, match="unknown unit named 'Sprite Swarm' of the goblin race"):
        load(_write(tmp_path, data))


def test_an_id_reroll_of_a_six_sided_unit_is_refused(tmp_path):
    data = load_yaml(SCENARIO.read_text(encoding="utf-8"))
    data["armies"]["sprites"]["units"] = [{"id": "swarm", "race": "coral-elf", "health": 4}]
    data["steps"] = [{"roll": {"army": "sprites", "for": "melee", "roll": {"swarm": ["id", "id", "melee"]}},
                      "expect_error": "does not roll it again"}]
    data.pop("expect")
    from ddref.scenario.run import replay

    result = replay(load(_write(tmp_path, data)))
    assert result["expectations"] and all(c["ok"] for c in result["expectations"]), result["expectations"]
