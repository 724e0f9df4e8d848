"""FAQ rulings and glossary terms."""

from __future__ import annotations

from typing import Literal

from .common import Edition, Record, Source


class Ruling(Record):
    """One lettered ruling of the TSR FAQ (004), e.g. Charm ruling C.

    ``letter`` is the letter as printed. The FAQ prints some letters twice
    under one topic (two "E)" under Charm); the second keeps its printed
    letter and gets an id ending in ``-2``.
    """

    id: str                         # "tsr-1996:faq.monster-special-action-icons.charm.c"
    edition: Edition
    part: str                       # "MONSTER SPECIAL ACTION ICONS"
    topic: str                      # "Charm"
    letter: str                     # "C"
    text: str
    concerns: tuple[str, ...]       # record refs: "spell:wall-of-fog", "sai:charm", "race:amazon", "rule:<section id>"
    source: Source


class GlossaryTerm(Record):
    """A glossary entry ("term") or a line of an abbreviation table ("abbreviation")."""

    id: str
    term: str                       # as printed, without a trailing "(BUA)" or surrounding quotes
    edition: Edition
    kind: Literal["term", "abbreviation"]
    expansion: str | None = None    # for abbreviations: "Transmute Rock to Mud"
    text: str                       # a term's definition; an abbreviation's table line
    source: Source
    category: str | None = None     # for abbreviations, the printed kind: "spell", "race", "term", ...
    parent: str | None = None       # for a sub-entry (Army > Reserve Army): the id of the term it sits under
    aliases: tuple[str, ...] = ()   # other names the entry prints: "BUA" for Buried Unit Area
