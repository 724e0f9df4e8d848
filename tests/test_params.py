"""ddref converts its own plain parameters, so no command start pays for pydantic's TypeAdapters."""

from __future__ import annotations

import subprocess
import sys


def test_a_lookup_never_imports_pydantic():
    code = ("import sys; sys.argv = ['ddref', 'spell', 'wall of fog', '--edition', 'SFR-V4'];"
            "from ddref.cli import main\ntry: main()\nexcept SystemExit: pass\n"
            "print('pydantic' in sys.modules, 'whoosh' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip().splitlines()[-1] == "False False"


def test_bad_values_get_typer_style_messages_and_exit_2(run):
    result = run("spells", "--max-cost", "x")
    assert result.exit_code == 2 and "'x' is not a valid integer" in result.stderr
    result = run("spells", "--max-cost", "-1")
    assert result.exit_code == 2 and "-1 is not >= 0" in result.stderr
    result = run("spells", "--edition", "sfr-5")
    flat = " ".join(result.stderr.replace("│", " ").split())
    assert result.exit_code == 2 and "'sfr-5' is not one of 'sfr-2012', 'sfr-v4', 'tsr-1996', 'all'" in flat


def test_converted_values_reach_the_command(run):
    """Case-insensitive edition, an int bound, a path list: the same answers as typer's own conversion."""
    result = run("spells", "--edition", "SFR-V4", "--max-cost", "3", "--json")
    assert result.exit_code == 0
    import json
    rows = json.loads(result.stdout)
    assert rows and all(r["edition"] == "sfr-v4" and r["cost"] <= 3 for r in rows)
