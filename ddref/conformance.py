"""The conformance records (issue 20): every normative statement of every rule section, and how ddref treats it.

The records live in ``corpus/conformance/<document>.yaml``, one file per rule document. Each file lists
every section of its document, in the corpus order, with the hash of the section's text (so a changed rule
text says which entries must be re-checked) and the section's statements::

    document: '002'
    edition: sfr-2012
    sections:
    - id: sfr-2012:the-turn-sequence.first-march.maneuver
      hash: 3f0c9a1b2d4e           # sha256 of the section's text, first 12 hex digits
      statements:
      - s: 7                       # the sentence's 1-based index in sentences(section text)
        says: "If the total number of maneuver results ... the acting army's maneuver succeeds."
        status: modelled           # modelled | reading | refused | not-a-rule | open
        scenarios: [sfr2012-maneuver-ties.yaml#1]   # file under scenarios/ and its step (1-based, or 'final')
        note: ties go to the acting army

``open`` is transitional: a normative statement not yet shown to be modelled by a scenario step (or found
wrong: ``corpus/conformance/defects.md`` lists those). ``reading`` records carry ``cites``: the passage read
and the one it is read with. A section with no normative statement has one ``not-a-rule`` record.

This module reads and checks the records; it imports only yaml, so ``ddref coverage`` and ``ddref rule``
stay quick. ``tests/test_conformance.py`` replays the scenario steps the records name.
"""

from __future__ import annotations

from engine.names import typed
import hashlib
import json
import re
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import corpus

ROOT = Path(corpus.__file__).parent
RECORDS_DIR = ROOT / "conformance"
SECTIONS_DIR = ROOT / "sections"
DOCUMENTS = ("000", "001", "002", "003", "004")
STATUSES = ("modelled", "reading", "refused", "not-a-rule", "open")
NEEDS_SCENARIO = ("modelled", "reading")
SECTION_ID = re.compile(r"\b(?:tsr-1996|sfr-v4|sfr-2012):[a-z0-9][a-z0-9.-]*[a-z0-9]")

# words that make a sentence normative: what may, must, cannot, counts as, doubles, expires, is immune,
# is chosen by whom, in what order (issue 20); a sentence without any is description or flavour
NORMATIVE = re.compile(
    r"\b(may|must|cannot|can(?:'t| not)?|could|only|counts?(?: as)?|counted|doubles?|doubled|halve[sd]?|"
    r"triples?|expires?|immune|chooses?|chosen|choice|selects?|order|before|after|until|instead|"
    r"each|every|all|any|no|not|none|never|unless|except|if|when|whenever|while|during|"
    r"adds?|subtracts?|reduces?|increases?|kills?|killed|buries|buried|moves?|returns?|"
    r"generates?|rolls?|rerolls?|wins?|loses?|controls?|gains?|takes?|applies|apply|ignored?|"
    r"per|at least|at most|up to|maximum|minimum|limit|lasts?|remains?|is considered|are considered)\b",
    re.IGNORECASE)

_ABBREVIATIONS = re.compile(r"\b(e\.g|i\.e|etc|vs|cf|no|pt|pts|st|mr|dr|fig|approx)\.$", re.IGNORECASE)
_END = re.compile(r"(?<=[.!?])[\"'\u201d\u2019)\]]*\s+(?=[\"'\u201c\u2018(\[]?[A-Z0-9])")


class RecordError(ValueError):
    """A conformance record that does not hold: the message names the file, the section and the field."""


def sentences(text: str) -> list[str]:
    """The section text cut into sentences: paragraphs and list items first, then sentence ends.

    Deterministic, so a record's ``s`` stays the same sentence as long as the text does (its hash)."""
    return [s for _, s in paragraph_sentences(text)]


def paragraph_sentences(text: str) -> list[tuple[int, str]]:
    """``(paragraph number, sentence)`` for each sentence of the text, in order."""
    out: list[tuple[int, str]] = []
    for n, block in enumerate(re.split(r"\n\s*\n|\n(?=\s*(?:[-*\u2022]|\d+[.)])\s)", text or "")):
        block = " ".join(block.split())
        start = 0
        for m in _END.finditer(block):
            if _ABBREVIATIONS.search(block[start:m.start()].strip()):
                continue
            if block[start:m.start()].strip():
                out.append((n, block[start:m.end()].strip()))
            start = m.end()
        if block[start:].strip():
            out.append((n, block[start:].strip()))
    return out


def rule_sentences(text: str) -> list[int]:
    """The 1-based indexes of the sentences that state a rule: normative words, outside an example."""
    out, example = [], None
    for i, (para, sentence) in enumerate(paragraph_sentences(text), 1):
        if re.match(r"(?:For )?Examples?\b", sentence):
            example = para
        elif example is not None and para != example:
            example = None
        if example is None and is_normative(sentence):
            out.append(i)
    return out


def is_normative(sentence: str) -> bool:
    return NORMATIVE.search(sentence) is not None


def text_hash(text: str) -> str:
    return hashlib.sha256((text or "").encode("utf-8")).hexdigest()[:12]


@dataclass(frozen=True)
class Record:
    edition: str
    section: str
    document: str
    status: str
    s: int | None = None
    says: str | None = None
    scenarios: tuple[tuple[str, int | str], ...] = ()
    note: str = ""
    cites: tuple[str, ...] = ()

    def json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "edition": self.edition, "section": self.section, "status": self.status,
            "sentence": self.s, "says": self.says,
            "scenarios": [{"file": f, "step": s} for f, s in self.scenarios], "note": self.note,
        }
        if self.cites:
            data["cites"] = list(self.cites)
        return data


@dataclass
class Section:
    id: str
    document: str
    edition: str
    heading: str
    text: str
    order: int
    records: list[Record] = field(default_factory=list)


@cache
def corpus_sections() -> dict[str, dict[str, Any]]:
    """Every rule section of the five documents, by id, in document order."""
    out: dict[str, dict[str, Any]] = {}
    for doc in DOCUMENTS:
        for row in json.loads((SECTIONS_DIR / f"{doc}.json").read_text(encoding="utf-8")):
            out[row["id"]] = row
    return out


def _load_yaml(path: Path) -> Any:
    import yaml

    from index.corpus import read_yaml

    try:
        return read_yaml(path)
    except yaml.YAMLError as exc:
        raise RecordError(f"{path}: not valid YAML: {exc}") from None


def parse_ref(ref: Any, where: str) -> tuple[str, int | str]:
    """``file.yaml#3`` (a step, 1-based) or ``file.yaml#final`` (the scenario's final expect)."""
    m = re.fullmatch(r"([\w.-]+\.yaml)#(\d+|final)", str(ref))
    if not m:
        raise RecordError(f"{where}: scenario {typed(ref)} is not 'FILE.yaml#STEP' (STEP a number from 1, or 'final')")
    return m.group(1), (int(m.group(2)) if m.group(2).isdigit() else "final")


@cache
def load(check_hashes: bool = False) -> dict[str, Section]:
    """Every section with its records, by id; a malformed record raises RecordError naming where it is.

    ``check_hashes`` also refuses a section whose text changed since its records were checked."""
    table = corpus_sections()
    out: dict[str, Section] = {}
    for doc in DOCUMENTS:
        path = RECORDS_DIR / f"{doc}.yaml"
        if not path.exists():
            raise RecordError(f"{path}: missing (every rule document has its conformance records)")
        data = _load_yaml(path) or {}
        for i, entry in enumerate(data.get("sections") or []):
            where = f"{path.name}: sections[{i}]"
            sid = entry.get("id") if isinstance(entry, dict) else None
            row = table.get(sid)
            if row is None or row["document"] != doc:
                raise RecordError(f"{where}: {typed(sid)} is not a section of document {doc}")
            if sid in out:
                raise RecordError(f"{where}: section {sid} listed twice")
            where = f"{path.name}: {sid}"
            if check_hashes and entry.get("hash") != text_hash(row["text"]):
                raise RecordError(f"{where}: the section's text changed (hash {text_hash(row['text'])}, records "
                                  f"checked against {entry.get('hash')}): re-check its statements, then update hash")
            sec = Section(sid, doc, row["edition"], row["heading"], row["text"], row["order"])
            said = sentences(row["text"])
            for j, st in enumerate(entry.get("statements") or []):
                sec.records.append(_record(st, sec, said, f"{where}: statements[{j}]"))
            if not sec.records:
                raise RecordError(f"{where}: no statements (a section with no rule has one 'not-a-rule' record)")
            out[sid] = sec
    return out


def _record(st: Any, sec: Section, said: list[str], where: str) -> Record:
    if not isinstance(st, dict):
        raise RecordError(f"{where}: expected a mapping with status, s, says, scenarios, note")
    unknown = set(st) - {"s", "says", "status", "scenarios", "note", "cites"}
    if unknown:
        raise RecordError(f"{where}: unknown field(s) {', '.join(sorted(unknown))}")
    status = st.get("status")
    if status not in STATUSES:
        raise RecordError(f"{where}: status {typed(status)} is not one of {', '.join(STATUSES)}")
    s, says = st.get("s"), st.get("says")
    if s is not None:
        if not isinstance(s, int) or not 1 <= s <= len(said):
            raise RecordError(f"{where}: s {typed(s)} is not a sentence index of the section (1..{len(said)})")
        if says is not None and " ".join(str(says).split()) != said[s - 1]:
            raise RecordError(f"{where}: says does not match sentence {s}: {typed(said[s - 1])}")
        says = said[s - 1]
    refs = tuple(parse_ref(r, where) for r in st.get("scenarios") or ())
    if status in NEEDS_SCENARIO and not refs:
        raise RecordError(f"{where}: a {status} statement names the scenario step(s) that exercise it")
    note = str(st.get("note") or "")
    if status == "refused" and not note:
        raise RecordError(f"{where}: a refused statement says why it cannot be modelled (note)")
    cites = tuple(st.get("cites") or ())
    if status == "reading":
        table = corpus_sections()
        if len(cites) < 2 or any(c not in table for c in cites):
            raise RecordError(f"{where}: a reading cites both passages, the rule read and the one it is read with "
                              f"(two section ids), got {', '.join(map(str, cites)) or 'none'}")
    return Record(sec.edition, sec.id, sec.document, status, s, says, refs, note, cites)


def missing_sections() -> list[str]:
    """Section ids of the corpus that have no conformance records."""
    have = load()
    return [sid for sid in corpus_sections() if sid not in have]


def records(edition: str | None = None, status: str | None = None) -> list[Record]:
    out = [r for sec in load().values() for r in sec.records]
    if edition:
        out = [r for r in out if r.edition == edition]
    if status:
        out = [r for r in out if r.status == status]
    return out


def counts(recs: list[Record]) -> dict[str, int]:
    c = dict.fromkeys(STATUSES, 0)
    for r in recs:
        c[r.status] += 1
    return c


def section_coverage(section_id: str) -> dict[str, Any] | None:
    """The records of one section, for ``ddref rule`` and its HTTP twin: counts and statements (None when the
    records cannot be read, so a rule lookup never fails on them)."""
    try:
        sec = load().get(section_id)
    except RecordError:
        return None
    if sec is None:
        return None
    return {"counts": counts(sec.records), "records": [r.json() for r in sec.records]}
