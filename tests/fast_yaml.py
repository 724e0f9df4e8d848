"""YAML read the way the product reads it: libyaml's parser (``yaml.CSafeLoader``).

The suite reads the 700 bundled scenarios in many sweeps; PyYAML's pure-Python parser takes
~7 ms a file where libyaml takes ~1 ms, and both build the same data (the same YAML 1.1
resolver). Tests read YAML through ``load_yaml`` so no sweep pays the slow parser
(``test_suite_speed.py`` fails on a test that calls ``yaml.safe_load``).
"""

from __future__ import annotations

from index.corpus import parse_yaml as load_yaml  # as the corpus's YAML files are read (index.corpus.read_yaml)

__all__ = ["load_yaml"]
