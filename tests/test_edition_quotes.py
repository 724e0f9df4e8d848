"""Issue 7: each edition's own words in the trace. A judge reading a tsr-1996 (sfr-v4) trace reads 000's (001's)
words beside a 000 (001) citation: no trace event citing a ``tsr-1996:`` or ``sfr-v4:`` section may carry a rule
text that is sfr-2012's, that is, a phrase found in 002 but not in the cited edition's documents."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from ddref.scenario.run import load, replay

ROOT = Path(__file__).resolve().parents[1]
SEEDS = ROOT / "corpus" / "raw"        # the five rule documents, as given
DOCUMENTS = {"tsr-1996": ("000", "004"), "sfr-v4": ("001", "003"), "sfr-2012": ("002",)}
SCENARIOS = sorted([*ROOT.glob("scenarios/tsr1996-*.yaml"), *ROOT.glob("scenarios/sfrv4-*.yaml")])
MIN_WORDS = 4       # shorter phrases ("killed and buried") are common to every edition's wording


def normal(text: str) -> str:
    """Lower case words only: whitespace, punctuation, quotes (000's Mac-Roman apostrophe included) and markup
    differences do not count."""
    text = re.sub(r"<[^>]+>", "", text.replace("\u00d5", "'"))
    return re.sub(r"[^a-z0-9]+", " ", text.lower()).strip()


def _source(edition: str) -> str:
    return normal(" ".join(p.read_text(errors="replace") for prefix in DOCUMENTS[edition]
                           for p in sorted(SEEDS.glob(f"{prefix}_*.txt"))))


def phrases(rule: str) -> list[str]:
    """The rule text's phrases: split at semicolons, quotes, ellipses and brackets."""
    return [n for p in re.split(r'[;"()]|\.\.\.', rule) if len((n := normal(p)).split()) >= MIN_WORDS]


def sfr_2012_words(rule: str, own: str, sfr: str) -> list[str]:
    """The phrases of ``rule`` that are 002's and not in the edition's own text."""
    return [p for p in phrases(rule) if p in sfr and p not in own]


def test_the_check_finds_002s_words():
    """The check can fail: 002's maneuver-tie words are not 000's, 000's own are."""
    own, sfr = _source("tsr-1996"), _source("sfr-2012")
    assert sfr_2012_words("if and only if normal damage is inflicted does the defending army roll to save", own, sfr)
    assert not sfr_2012_words("If damage is inflicted, the target army rolls for saves", own, sfr)


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.name)
def test_no_edition_event_quotes_sfr_2012(path):
    sources = {e: _source(e) for e in DOCUMENTS}
    found = []
    for step in replay(load(path))["steps"]:
        for event in step.get("trace", ()):
            edition = event["cite"].partition(":")[0]
            if edition in ("tsr-1996", "sfr-v4"):
                found += [(event["cite"], p) for p in sfr_2012_words(event["rule"], sources[edition],
                                                                     sources["sfr-2012"])]
    assert found == []
