"""Check a relevance set's ground truth against the corpus, without any search.

    python -m tools.check_relevance_set [tests/relevance/heldout.yaml | corpus/questions/tuning.yaml | new.yaml]

What it checks (nothing here runs or imports the ranking, so a set can be
written and checked blind to how the search ranks it):

- every entry has q, expect, why and quote, and only the known keys;
- every expected ref ``kind:id@edition`` exists in the corpus (a record, or a
  rule section for ``rule:<section id>``), and obeys the question's own
  edition/type filters;
- no ref is a record's own section listed next to that record (it is implied);
- ``why`` starts with an existing section id;
- every stretch of ``quote`` ("..." and [bracketed] words left out) occurs,
  case and whitespace normalised, in the text of the section named in ``why``;
- the answers found later by judging the ranking's unlisted hits (``also``: each a
  ref, why and quote, the quote in that ref's own text) and the hits judged not to
  answer (``not_answering``, refs) exist, obey the filters and are not listed twice;
- no question repeats one of the tuning half (corpus/questions/tuning.yaml) or the held-out
  half (tests/relevance/heldout.yaml) (normalised text),
  nor nearly repeats another question of the set or of those files (the same
  words, compared as sets, with a Jaccard similarity of 0.8 or more).

Exits 1 and lists the problems when any check fails.
"""

from __future__ import annotations

import re
import sys
from functools import cache
from pathlib import Path


from index.corpus import read_yaml, records, sections
from index.documents import QUESTIONS_DIR, answering_refs, documents

ROOT = Path(__file__).resolve().parent.parent
# The tuning half is corpus data: the index searches its questions as the "asked" field of the
# records that answer them (index.documents.asked_questions). The held-out half never is.
TUNING_FILE = ROOT / "corpus" / QUESTIONS_DIR / "tuning.yaml"
HELDOUT_FILE = ROOT / "tests" / "relevance" / "heldout.yaml"
HALF_FILES = {"tuning": TUNING_FILE, "held-out": HELDOUT_FILE}
# A second blind set, never tuned on and never in the index either, not pooled (docs/search.md, twentieth pass)
FRESH_FILE = ROOT / "tests" / "relevance" / "fresh.yaml"
SET_FILES = {**HALF_FILES, "fresh": FRESH_FILE}  # every set the figures are measured on
UNSEEN_FILES = (HELDOUT_FILE, FRESH_FILE)  # the sets the ranking never sees: none of their misses is listed
EXISTING = tuple(SET_FILES.values())
EDITIONS = ("sfr-2012", "sfr-v4", "tsr-1996")
RECORD_KINDS = ("spell", "sai", "race", "unit", "ruling", "glossary")
KINDS = (*RECORD_KINDS, "rule")
KEYS = {"q", "edition", "type", "expect", "why", "quote", "also", "not_answering"}
ALSO_KEYS = {"ref", "why", "quote"}
NAME_FIELD = {"spell": "name", "sai": "name", "race": "name", "unit": "name", "glossary": "term", "ruling": "topic"}
NEAR = 0.8
# stricter, for what the index searches against the held-out half (tests/test_asked.py, test_players_words.py):
# a tuning question or a players' phrase this close to a held-out question would answer it from the index
LEAK = 0.6


def flat(text: str) -> str:
    return " ".join(re.findall(r"[a-z0-9]+", text.lower()))


def norm_q(q: str) -> str:
    return " ".join(q.lower().split())


def words(q: str) -> frozenset[str]:
    return frozenset(re.findall(r"[a-z0-9']+", q.lower()))


def similar(a: frozenset[str], b: frozenset[str], at: float) -> bool:
    """Whether two texts' word sets have a Jaccard similarity of ``at`` or more (never for an empty one)."""
    return bool(a and b) and len(a & b) / len(a | b) >= at


def nearly_repeating(texts, questions, at: float = LEAK) -> list[str]:
    """The ``texts`` nearly repeating one of ``questions`` (``similar`` at ``at``), sorted."""
    asked = [words(q) for q in questions]
    return sorted(t for t in set(texts) if any(similar(words(t), q, at) for q in asked))


def quoted_pieces(quote: str) -> list[str]:
    return [flat(p) for p in re.split(r"\.\.\.|\[[^\]]*\]", quote) if len(flat(p)) > 3]


def parse_ref(ref: str) -> tuple[str, str, str]:
    """``kind:id@edition`` -> (kind, id, edition); a rule's id is its section id."""
    kind, _, rest = ref.partition(":")
    rid, _, edition = rest.rpartition("@")
    return kind, rid, edition


def unseen_questions() -> list[str]:
    """The questions of the sets the ranking never sees (``UNSEEN_FILES``): nothing the index searches
    may nearly repeat one (tests/test_asked.py, tests/test_players_words.py)."""
    return [q["q"] for path in UNSEEN_FILES for q in read_yaml(path)]


def answers_to(question: dict, judged: bool = True) -> set[str]:
    """Every ref that answers the question: the expected ones (its writer's, and unless ``judged`` is
    false those a judge found answering later, ``also``), their own sections, and the records whose
    own section is expected (the race Dragonkin for the section "Dragonkin")."""
    expected = set(answering_refs(question) if judged else question["expect"])
    own, owned_by = own_sections(), _owners()
    return expected | {own[r] for r in expected if r in own} | {owned_by[r] for r in expected if r in owned_by}


@cache
def _owners() -> dict[str, str]:
    """A record's own section -> the record (``own_sections`` turned around)."""
    return {section: record for record, section in own_sections().items()}


@cache
def shown() -> dict[str, tuple[str, str]]:
    """Ref -> the title and the text search shows for its hit (``index.documents``; no index is built
    and nothing is ranked): what a reader of a pooled pair judges (tools/pool_judgments.py)."""
    return {f"{d['type']}:{d['id']}@{d['edition']}": (d["title"], d["body"]) for d in documents()}


@cache
def ref_text(ref: str) -> str:
    """The words a ref stands for, and so where a quote of it is looked for: the text its hit shows (a
    race's abilities, a unit's size and class, a section's cleaned text), a record's own text, and the
    text of the section it cites. A reader judging a pooled pair quotes what it is shown."""
    kind, rid, edition = parse_ref(ref)
    known = sections()
    hit_text = shown().get(ref, ("", ""))[1]
    if kind == "rule":
        return f"{hit_text} | {known[rid].text}" if rid in known else ""
    record = next((r for r in records(kind) if r.id == rid and r.edition == edition), None)
    if record is None:
        return ""
    section = known.get(record.source.section)
    return f"{getattr(record, 'text', '') or ''} | {hit_text} | {section.text if section else ''}"


def corpus_refs() -> set[tuple[str, str, str]]:
    """Every ref the relevance set may name: each record, and each rule section."""
    refs = {(kind, r.id, r.edition) for kind in RECORD_KINDS for r in records(kind)}
    refs |= {("rule", sid, s.edition) for sid, s in sections().items()}
    return refs


def bare_heading(heading: str) -> str:
    """"Dead Unit Area (DUA)", "Belly (dragon)": the name without its parenthesis, in lower case."""
    return re.sub(r"\s*\(.*?\)\s*$", "", heading).strip().lower()


@cache
def own_sections() -> dict[str, str]:
    """record ref -> ref of the section it cites, where that section is headed with its name."""
    known = sections()
    found = {}
    for kind, name in NAME_FIELD.items():
        for r in records(kind):
            section = known.get(r.source.section)
            if section is not None and bare_heading(section.heading) == bare_heading(getattr(r, name)):
                found[f"{kind}:{r.id}@{r.edition}"] = f"rule:{section.id}@{section.edition}"
    return found


def _ref_problems(question: dict, ref: str, known: set[tuple[str, str, str]]) -> list[str]:
    """A ref that is not in the corpus (``known``: ``corpus_refs``), or outside the question's filters."""
    kind, rid, edition = parse_ref(ref)
    found = [] if (kind, rid, edition) in known else [f"ref not in the corpus: {ref}"]
    if question.get("edition", edition) != edition or question.get("type", kind) != kind:
        found.append(f"ref outside the question's filters: {ref}")
    return found


def judged_problems(question: dict, known: set[tuple[str, str, str]]) -> list[str]:
    """What is wrong with a question's judged refs: each ``also`` entry with exactly a ref, a why and
    a quote found in that ref's own text; those and the ``not_answering`` refs real refs within the
    question's filters; no ref listed twice, nor both expected and judged."""
    found = []
    for also in question.get("also", ()):
        if set(also) != ALSO_KEYS or not all(str(also[k]).strip() for k in ALSO_KEYS):
            found.append(f"an also entry needs exactly {sorted(ALSO_KEYS)}")
            continue
        text = flat(ref_text(also["ref"]))
        found += [f"quote not in {also['ref']}: {p!r}" for p in quoted_pieces(also["quote"]) if p not in text]
    judged = [*answering_refs(question), *question.get("not_answering", ())]
    for ref in judged[len(question["expect"]):]:
        found += _ref_problems(question, ref, known)
    if len(set(judged)) != len(judged):
        found.append("a ref is listed twice")
    return found


def check(path: Path, questions: list[dict]) -> list[str]:
    """The problems of ``questions``, the set read from ``path``."""
    known_sections = sections()
    known = corpus_refs()
    own = own_sections()

    problems: list[str] = []
    for i, q in enumerate(questions):
        where = f"#{i + 1} {q.get('q')!r}"
        if set(q) - KEYS:
            problems.append(f"{where}: unknown keys {sorted(set(q) - KEYS)}")
        if not all(str(q.get(k, "")).strip() for k in ("q", "why", "quote")) or not q.get("expect"):
            problems.append(f"{where}: q, expect, why and quote are all required")
            continue
        if q.get("edition", EDITIONS[0]) not in EDITIONS or q.get("type", KINDS[0]) not in KINDS:
            problems.append(f"{where}: unknown edition or type filter")
        for ref in q["expect"]:
            problems += [f"{where}: {p}" for p in _ref_problems(q, ref, known)]
            if ref in {own.get(r) for r in q["expect"]}:
                problems.append(f"{where}: own section listed next to its record: {ref}")
        problems += [f"{where}: {p}" for p in judged_problems(q, known)]
        sid = q["why"].split(": ", 1)[0]
        if sid not in known_sections:
            problems.append(f"{where}: why does not start with a section id: {sid!r}")
            continue
        text = flat(known_sections[sid].text)
        pieces = quoted_pieces(q["quote"])
        if not pieces:
            problems.append(f"{where}: the quote has no words")
        problems += [f"{where}: quote not in {sid}: {p!r}" for p in pieces if p not in text]

    existing = []
    for other in EXISTING:
        if other.resolve() != path.resolve():      # the set checked is compared with the others, not itself
            existing += [q["q"] for q in read_yaml(other)]
    exact = {norm_q(q) for q in existing}
    problems += [f"repeats an existing question: {q['q']!r}" for q in questions if norm_q(q["q"]) in exact]
    seen: dict[str, str] = {}
    for q in questions:
        if norm_q(q["q"]) in seen:
            problems.append(f"asked twice in the set: {q['q']!r}")
        seen[norm_q(q["q"])] = q["q"]
    mine = [(q["q"], words(q["q"])) for q in questions]
    others = [(q, words(q)) for q in existing]
    for i, (text, w) in enumerate(mine):
        for other, ow in mine[i + 1:] + others:
            if norm_q(text) != norm_q(other) and similar(w, ow, NEAR):
                problems.append(f"near-duplicate: {text!r} ~ {other!r}")
    return problems


def main(argv: list[str]) -> int:
    path = Path(argv[0]) if argv else HELDOUT_FILE
    questions = read_yaml(path)
    problems = check(path, questions)
    count = len(questions)
    for p in problems:
        print(p)
    print(f"{path.name}: {count} questions, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
