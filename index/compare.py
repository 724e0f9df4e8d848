"""One spell, SAI or rule section across the editions: what differs (issue 4).

Pure data, no terminal: ``compare(kind, name)`` finds the record in every
edition that has it, lists the fields whose values differ, and diffs each
edition's text word by word against the first edition's (the default
edition, sfr-2012, when it has the record). ``ddref compare`` renders it.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from typing import Any

from engine.edition import EDITIONS
from engine.names import slug, typed

from .corpus import View, sections
from .lookup import NotFound, find

# kind -> the fields compared, in display order; id, edition and source
# always differ in kind or not at all, so they are shown, never compared.
FIELDS: dict[str, tuple[str, ...]] = {
    "spell": ("name", "color", "cost", "lists", "reserve", "cantrip", "duration",
              "multiplicity", "target", "text"),
    "sai": ("name", "resolution", "races", "aliases", "text"),
    "rule": ("heading", "text"),
}
KINDS = tuple(FIELDS)
OPS = ("equal", "insert", "delete")


@dataclass(frozen=True)
class Token:
    """A run of words of a word diff: in both texts, only in the new one, or only in the old one."""

    op: str   # "equal" | "insert" | "delete"
    text: str  # the words with the whitespace before each, as written in their text


@dataclass(frozen=True)
class Comparison:
    kind: str
    name: str
    records: tuple[View, ...]             # one per edition, in EDITIONS order
    fields: tuple[str, ...]               # the fields compared
    differing: tuple[str, ...]            # the fields whose values are not all equal
    diffs: tuple[tuple[str, tuple[Token, ...]], ...]  # (edition, its text against the base's), base excluded

    @property
    def editions(self) -> tuple[str, ...]:
        return tuple(r.edition for r in self.records)

    @property
    def base(self) -> str:
        """The edition every other edition's text is diffed against."""
        return self.records[0].edition

    def as_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind, "name": self.name, "editions": list(self.editions),
            "base": self.base, "fields": list(self.fields), "differing": list(self.differing),
            "records": {r.edition: r.model_dump(mode="json") for r in self.records},
            "text_diff": {ed: [{"op": t.op, "text": t.text} for t in tokens] for ed, tokens in self.diffs},
        }


def compare(kind: str, name: str) -> Comparison:
    """``kind`` spell, sai or rule; ``name`` as players write it (or a section id for a rule).

    Raises ``NotFound`` (with the closest names) when no edition has it.
    """
    if kind not in FIELDS:
        raise ValueError(f"cannot compare {typed(kind)}: expected one of {', '.join(KINDS)}")
    found = matching_sections(name) if kind == "rule" else find(kind, name, None)
    fields = FIELDS[kind]
    base = found[0]
    diffs = tuple((r.edition, word_diff(_text(base), _text(r))) for r in found[1:])
    title = base.heading if kind == "rule" else base.name
    return Comparison(kind, title, tuple(found), fields, differing_fields(found, fields), diffs)


def differing_fields(found: list[View] | tuple[View, ...], fields: tuple[str, ...]) -> tuple[str, ...]:
    """The fields whose values are not the same in every record (a missing field counts as None)."""
    return tuple(f for f in fields if len({_key(getattr(r, f, None)) for r in found}) > 1)


def _key(value: Any) -> str:
    """A hashable, order-keeping form of a field value (views and tuples included)."""
    return repr(value.model_dump() if isinstance(value, View) else value)


def _text(record: View) -> str:
    return getattr(record, "text", "") or ""


# a word (with inner apostrophes) or one punctuation mark, each with the whitespace before it
_TOKEN = re.compile(r"\s*(?:\w+(?:['\u2019]\w+)*|[^\w\s])")


def word_diff(old: str, new: str) -> tuple[Token, ...]:
    """``new`` against ``old`` word by word, as runs tagged equal, insert (only in new), delete (only in old).

    Joining the equal and insert runs gives ``new`` back; the equal and delete
    runs give ``old`` (up to whitespace), so a renderer can show either side.
    """
    a, b = _TOKEN.findall(old), _TOKEN.findall(new)
    matcher = difflib.SequenceMatcher(None, _keys(a), _keys(b), autojunk=False)
    runs: list[Token] = []
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            # new's first word has no space before it; old's may need one after a deletion
            lead = a[i1][: len(a[i1]) - len(a[i1].lstrip())] if j1 == 0 else ""
            runs.append(Token("equal", lead + "".join(b[j1:j2])))
            continue
        if i2 > i1:
            runs.append(Token("delete", "".join(a[i1:i2])))
        if j2 > j1:
            runs.append(Token("insert", "".join(b[j1:j2])))
    return tuple(runs)


def _keys(tokens: list[str]) -> list[tuple[bool, str]]:
    """What two tokens must share to be equal: the word, and whether a space comes before it
    ("re-rolled" is not "re- rolled"); a text's first word counts as spaced."""
    return [(i == 0 or t[:1].isspace(), t.strip()) for i, t in enumerate(tokens)]


def matching_sections(name: str) -> list[View]:
    """The rule section called ``name`` (a heading, or any edition's section id) in each edition,
    its text followed by its subsections'.

    Per edition the section whose heading matches best wins: the same id path
    first, then the shallowest, then the first in the document.
    """
    table = sections()
    name = name.strip()
    path = name.split(":", 1)[1] if name in table else None
    wanted = slug(table[name].heading) if name in table else slug(name)
    hits = [s for s in table.values() if slug(s.heading) == wanted or s.id.split(":", 1)[1] == wanted]
    if not hits:
        raise NotFound("rule section", name, None, _closest_headings(table.values(), wanted), [])
    chosen = []
    for edition in EDITIONS:
        mine = [s for s in hits if s.edition == edition]
        if mine:
            chosen.append(min(mine, key=lambda s: (s.id.split(":", 1)[1] != path, s.level, s.document, s.order)))
    return [_whole(s, table) for s in chosen]


def _whole(section: View, table: dict[str, View]) -> View:
    """The section as ``ddref rule`` prints it: its text then each subsection's heading and text
    (a heading-only section such as sfr-2012 Dice Modifiers has all its rules below it)."""
    below = [s for s in table.values() if s.id.startswith(section.id + ".")]
    text = "\n\n".join([section.text, *(f"{s.heading}\n{s.text}" for s in below)]).strip()
    return View({**section.fields(), "text": text, "subsections": tuple(s.id for s in below)})


def _closest_headings(pool, wanted: str, n: int = 5) -> list[str]:
    by_slug = {slug(s.heading): s.heading for s in pool}
    return [by_slug[k] for k in difflib.get_close_matches(wanted, list(by_slug), n=n, cutoff=0.6)]
