"""Issue 7: each edition's own words in the trace. A judge reading a tsr-1996 (sfr-v4) trace reads 000's (001's)
words beside a 000 (001) citation: no trace event citing a ``tsr-1996:`` or ``sfr-v4:`` section may carry a rule
text that is sfr-2012's, that is, a phrase found in 002 but not in the cited edition's documents."""

from __future__ import annotations

import re
from functools import cache
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


@cache
def _replayed(path: Path) -> dict:
    """Each scenario replayed once for both checks below (the trace events, the refusals)."""
    return replay(load(path))


@cache
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
    for step in _replayed(path)["steps"]:
        for event in step.get("trace", ()):
            edition = event["cite"].partition(":")[0]
            if edition in ("tsr-1996", "sfr-v4"):
                found += [(event["cite"], p) for p in sfr_2012_words(event["rule"], sources[edition],
                                                                     sources["sfr-2012"])]
    assert found == []


def _refusals(path: Path) -> list[dict]:
    return [step for step in _replayed(path)["steps"] if "rejected" in step]


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.name)
def test_no_edition_refusal_cites_or_quotes_another_edition(path):
    """Issue 20: a refusal is a rule too. A tsr-1996 (sfr-v4) step refused must cite 000/004's (001/003's) own
    section, not the sfr-2012 section the ruleset falls back to, and word the rule without 002's phrases (before:
    sfr-v4's magic split refusals cited 002 Doubling Magic, its spell-target and multiple-casting refusals 002's
    Spell Attributes, its Cantrip-in-a-maneuver refusal 002 Unique Resolution, its Accelerated Growth refusal 002's
    Undead Stepped Damage)."""
    edition = "tsr-1996" if path.name.startswith("tsr1996-") else "sfr-v4"
    sources = {e: _source(e) for e in DOCUMENTS}
    found = []
    for step in _refusals(path):
        if step["cite"] and not step["cite"].startswith(f"{edition}:"):
            found.append((step["cite"], step["rejected"]))
        if "sfr-2012:" not in step["rejected"]:     # a refusal naming the 002 passage it reads with may quote it
            found += [(step["cite"], p) for p in sfr_2012_words(step["rejected"], sources[edition],
                                                                 sources["sfr-2012"])]
    assert found == []


@pytest.mark.parametrize("edition,words", [
    ("sfr-2012", "a missile reaches the same terrain, or one terrain away"),
    ("tsr-1996", "Missile attacks can target enemy armies at the same terrain, or can reach from any home terrain to "
                 "the frontier"),
    ("sfr-v4", "You cannot ... attack from one Home Terrain to the other Home Terrain"),
])
def test_the_missile_range_refusal_words_each_editions_own_rule(tmp_path, edition, words):
    """The range a missile reaches, refused from one home terrain to the other, in the edition's own words: 002's
    "one terrain away" is not 001's rule (001 Missile Resolution forbids only home to home) nor 000's words."""
    from ddref.scenario.run import StepRefused, parse

    text = f"""\
ddref: 1
title: range
edition: {edition}
players: [a, b]
turn: {{player: a}}
terrains:
  ah: {{type: highland, face: 4, action: missile, home_of: a}}
  bh: {{type: coastland, face: 4, action: missile, home_of: b}}
  fr: {{type: flatland, face: 4, action: melee, frontier: true}}
armies:
  bows: {{player: a, at: ah, units: [{{race: dwarf, health: 1, count: 4}}]}}
  foes: {{player: b, at: bh, units: [{{race: goblin, health: 1, count: 4}}]}}
  mid: {{player: b, at: fr, units: [{{race: goblin, health: 1, count: 4}}]}}
steps:
  - missile: {{army: bows, target: foes, roll: {{missile: 2}}}}
"""
    with pytest.raises(StepRefused) as refused:
        replay(parse(text, "s.yaml"))
    message = str(refused.value)
    assert "out of range" in message and words in message
    others = {"sfr-2012": "one terrain away", "tsr-1996": "can reach from any home terrain",
              "sfr-v4": "other Home Terrain"}
    assert all(w not in message for e, w in others.items() if e != edition)
