"""FAQ rulings and glossary terms."""

from __future__ import annotations

from typing import Literal

from .common import Edition, Record, Source


class Ruling(Record):
    id: str                         # "tsr-1996:faq.monster-special-action-icons.charm.c"
    edition: Edition
    part: str                       # "MONSTER SPECIAL ACTION ICONS"
    topic: str                      # "Charm"
    letter: str                     # "C"
    text: str
    concerns: tuple[str, ...]       # record refs: "spell:wall-of-fog", "sai:charm", "race:amazon", "rule:<section id>"
    source: Source


class GlossaryTerm(Record):
    id: str
    term: str
    edition: Edition
    kind: Literal["term", "abbreviation"]
    expansion: str | None = None    # for abbreviations: "Transmute Rock to Mud"
    text: str
    source: Source
