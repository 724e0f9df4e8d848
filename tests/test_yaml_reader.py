"""ddref.scenario.yaml_reader: the pattern put in PyYAML's place finds exactly the characters PyYAML's own does, and
it is the one PyYAML's reader uses once primed. The import checks run in a fresh interpreter, whose imports are
its own."""

from __future__ import annotations

import re
import subprocess
import sys

from ddref.scenario.yaml_reader import PYYAML, SAME

EVERY_CHARACTER = "".join(map(chr, range(sys.maxunicode + 1)))     # every code point, the surrogates too


def test_the_quick_pattern_matches_exactly_the_code_points_pyyaml_refuses():
    theirs = [m.start() for m in re.compile(PYYAML).finditer(EVERY_CHARACTER)]
    ours = [m.start() for m in re.compile(SAME).finditer(EVERY_CHARACTER)]
    assert ours == theirs
    assert len(ours) == 29 + 6 + 26 + 2048 + 2     # C0 but tab/LF/CR, DEL..U+0084, U+0086..U+009F, surrogates, FFFE/F


def _reader_pattern(code: str) -> str:
    done = subprocess.run([sys.executable, "-c", code + "; import yaml.reader; "
                           "print(ascii(yaml.reader.Reader.NON_PRINTABLE.pattern))"],
                          capture_output=True, text=True, check=True)
    return done.stdout.strip()


def test_pyyaml_pattern_is_the_one_primed():
    """PyYAML's own pattern is still the one ``PYYAML`` names (else the primed entry would go unused)."""
    assert _reader_pattern("pass") == ascii(PYYAML)


def test_pyyaml_imported_through_the_module_uses_the_quick_pattern():
    assert _reader_pattern("from ddref.scenario.yaml_reader import yaml") == ascii(SAME)
    assert _reader_pattern("import ddref.scenario.source") == ascii(SAME)


def test_a_scenario_with_a_control_character_is_still_refused_where_it_is(tmp_path):
    from ddref.scenario.run import load
    from ddref.scenario.source import ScenarioErrors

    path = tmp_path / "bell.yaml"
    path.write_text("ddref: 1\ntitle: a \x07 bell\n", encoding="utf-8")
    try:
        load(path)
    except ScenarioErrors as exc:
        message = str(exc)
    else:
        raise AssertionError("a scenario holding a control character was accepted")
    assert message.endswith("bell.yaml:2:10: character U+0007 is not allowed in YAML; remove it")
