"""ddref.pydantic_plugins: the stand-in for pydantic's plugin loader answers as pydantic's own does, and only when
every plugin is switched off. Each case runs in a fresh interpreter, whose imports are its own."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest


def _python(code: str, switch: str | None) -> dict:
    env = {k: v for k, v in os.environ.items() if k != "PYDANTIC_DISABLE_PLUGINS"}
    if switch is not None:
        env["PYDANTIC_DISABLE_PLUGINS"] = switch
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True)
    return json.loads(done.stdout)


@pytest.mark.parametrize("switch", ["__all__", "1", "true"])
def test_pydantic_own_loader_gives_no_plugins_when_all_are_off(switch):
    """The stand-in's answer is pydantic's own: no plugins (if pydantic changes this, the stand-in must too)."""
    out = _python("import json; from pydantic.plugin._loader import get_plugins; "
                  "print(json.dumps(list(get_plugins())))", switch)
    assert out == []


BUILD = """
import json, sys
from ddref.pydantic_plugins import skip_loader
skipped = skip_loader()
from pydantic import BaseModel
class M(BaseModel):
    n: int
print(json.dumps({"skipped": skipped, "n": M.model_validate({"n": 3}).n,
                  "metadata": "importlib.metadata" in sys.modules}))
"""


@pytest.mark.parametrize("switch", ["__all__", "1", "true"])
def test_models_build_and_validate_without_reading_package_metadata(switch):
    assert _python(BUILD, switch) == {"skipped": True, "n": 3, "metadata": False}


@pytest.mark.parametrize("switch", [None, "", "some-plugin", "some-plugin,other"])
def test_pydantic_loader_is_kept_unless_every_plugin_is_off(switch):
    out = _python(BUILD, switch)
    assert out["skipped"] is False and out["n"] == 3


def test_a_name_the_stand_in_lacks_comes_from_pydantic_s_own_loader():
    """Should a later pydantic ask its loader for more than get_plugins, the stand-in answers from pydantic's own
    module instead of failing the import."""
    out = _python("import json; from ddref.pydantic_plugins import skip_loader; skip_loader(); "
                  "from pydantic.plugin import _loader; import importlib.metadata as m; "
                  "print(json.dumps({'stand_in': _loader.get_plugins.__module__, "
                  "'own': _loader.entry_points is m.entry_points}))", "__all__")
    assert out == {"stand_in": "ddref.pydantic_plugins", "own": True}
