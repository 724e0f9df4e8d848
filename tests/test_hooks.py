"""The recursions across layers (engine.actions.hooks) are answered in a fresh process that loads only what a replay
loads: a hook left empty fails only when a scenario reaches it, which an in-process run of many scenarios hides (an
earlier scenario's magic step loads engine.actions.magic)."""

import json
import subprocess
import sys
from pathlib import Path

from fast_yaml import load_yaml

ROOT = Path(__file__).resolve().parent.parent


def fresh(code: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)


def test_every_hook_is_filled_once_engine_resolve_is_imported():
    done = fresh("import engine.resolve, json\nfrom engine.actions import hooks\n"
                 "print(json.dumps({k: h.filled for k, h in vars(hooks).items() if isinstance(h, hooks.Hook)}))")
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout)
    assert sorted(found) == ["BRING_IN", "RISE_FROM_THE_ASHES", "SPEND"]
    assert all(found.values()), found


def test_a_cantrip_buys_spells_in_a_replay_without_a_magic_step():
    # 002 Avoidance Rolls: a unit's own roll against Poison shows a Cantrip, whose spells are resolved at once: the
    # purchase goes through the magic action's spend (hooks.SPEND), though the scenario has no magic step
    scenario = ROOT / "scenarios" / "sfr2012-sai-cantrip-in-poison-roll.yaml"
    assert all("magic" not in step for step in load_yaml(scenario.read_text(encoding="utf-8"))["steps"])
    done = fresh("import sys\nfrom ddref.scenario.run import load, replay\n"
                 f"game = load({str(scenario)!r})\n"
                 "print('engine.actions.magic' in sys.modules)\n"
                 "first = replay(game)['expectations'][0]\n"
                 "print('engine.actions.magic' in sys.modules, *first['actual'])")
    assert done.returncode == 0, done.stderr
    # the mage's 2-point Cantrip buys a Hailstorm (blue, 2): the horde, which rolls no save, loses horde.2; the mage
    # is killed by the Poison; engine.actions.magic is loaded by the purchase, not before
    assert done.stdout.split() == ["False", "True", "horde.2", "mage"]
