"""YAML read the way the product reads it: libyaml's parser (``yaml.CSafeLoader``).

The suite reads the 700 bundled scenarios in many sweeps; PyYAML's pure-Python parser takes
~7 ms a file where libyaml takes ~1 ms, and both build the same data (the same YAML 1.1
resolver). Tests read YAML through ``load_yaml`` so no sweep pays the slow parser
(``test_suite_speed.py`` fails on a test that calls ``yaml.safe_load``).
"""

from __future__ import annotations

from typing import Any

import yaml

from index.corpus import yaml_loader

LOADER = yaml_loader()  # as the corpus's YAML files are read (index.corpus.read_yaml)


def load_yaml(text: str) -> Any:
    return yaml.load(text, Loader=LOADER)
