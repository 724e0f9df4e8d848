"""Build the index into a folder: the SQLite database the search reads.

``build_into(folder, progress)`` writes ``ddref.db`` (sqlite-utils): every
record kind as a table of its own (``spells``, ``sais``, ... ``sections``,
nested fields as JSON), and the tables the query side reads: ``search_docs``
(one document per spell, SAI, race, unit, FAQ ruling, glossary term and rule
section, ``index.documents``: its facets, text, and the group it is shown in),
``postings`` (per term, its BM25F score in each document, and in each passage
of a long section), ``passages`` (each passage's document), ``names`` (every
name slug of every record), ``aliases``, ``vocab``, ``deletes``, ``english``
and ``name_deletes`` (spelling), and ``meta``.

The term frequencies and field lengths behind the BM25F scores are counted
from the documents' text fields as ``index.analysis`` analyzes them (whoosh's
analyzer, which tests/test_index_analysis.py checks it against); no whoosh
index is written, nothing at query time reads one.

``index.cache`` decides where and when; this module only fills the folder it
is given.
"""

from __future__ import annotations

import json
import math
import re
import time
from array import array
from collections import Counter
from datetime import datetime, timezone
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from engine.names import slug

from .analysis import PAIR_SCOPE, pair_term, terms, words
from .corpus import EXACT_NAME_KINDS, KINDS, corpus_hash, records, rows, section_rows
from .documents import documents
from .spelling import deletes
from .synonyms import synonyms_of

Progress = Callable[[int, int, str], None]  # (done, total, stage)
DB_NAME = "ddref.db"
WHOOSH_DIR = "whoosh"  # no longer written: index.cache still names the folder
MIN_VOCAB_LEN = 3


def build_into(folder: Path, progress: Progress | None = None) -> dict[str, Any]:
    """Write a complete index into ``folder`` (which must be empty); return its manifest."""
    started = time.perf_counter()
    docs = list(documents())
    steps = _Steps(progress or _silent, len(docs))
    vocab, english = _vocab(docs), english_frequencies()
    for d in docs:
        d["asked"] = _spelled(d["asked"], vocab, english)
    db = _build_db(folder / DB_NAME, docs, vocab, english, steps)
    steps.reach("ranking tables", steps.ranked)
    _build_ranking(db, docs)
    manifest = {
        "hash": corpus_hash(), "built_at": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "seconds": round(time.perf_counter() - started, 3), "counts": _counts(docs),
    }
    db["meta"].insert_all(({"key": k, "value": json.dumps(v)} for k, v in manifest.items()), pk="key")
    db.conn.commit()
    db.conn.close()
    steps.reach("done", steps.total)
    return manifest


def _silent(done: int, total: int, stage: str) -> None:
    pass


class _Steps:
    """Progress in units of about equal time, weighed in documents (measured: the record, name and
    spelling tables take about as long as the ranking tables)."""

    def __init__(self, report: Progress, docs: int) -> None:
        self.report = report
        self.tables = docs
        self.ranked = docs
        self.total = 2 * docs

    def reach(self, stage: str, done: int) -> None:
        self.report(done, self.total, stage)


def _counts(docs: list[dict[str, Any]]) -> dict[str, dict[str, int]]:
    """Searchable documents per kind and edition."""
    found: dict[str, Counter] = {}
    for d in docs:
        found.setdefault(d["type"], Counter())[d["edition"]] += 1
    return {kind: dict(by_edition) for kind, by_edition in found.items()}


# -- SQLite -------------------------------------------------------------------

def _build_db(path: Path, docs: list[dict[str, Any]], vocab: Counter, english: dict[str, int], steps: _Steps):
    """The record tables, names, aliases and spelling tables (the ranking tables come after)."""
    import sqlite_utils

    db = sqlite_utils.Database(path)
    db.conn.execute("PRAGMA journal_mode=OFF")
    db.conn.execute("PRAGMA synchronous=OFF")
    for step, (kind, (table, _model)) in enumerate(KINDS.items()):
        steps.reach(f"table {table}", step * steps.tables // (len(KINDS) + 1))
        _kind_table(db, kind, table)
    db["sections"].insert_all(section_rows(), pk="id")
    steps.reach("names and spelling", len(KINDS) * steps.tables // (len(KINDS) + 1))
    db["names"].insert_all(_name_rows(), pk=("kind", "key", "record"))
    db["aliases"].insert_all(_alias_rows(), pk="key", replace=True)
    db["vocab"].insert_all(({"word": w, "freq": n} for w, n in vocab.items()), pk="word")
    # 25,000 rows: plain executemany, without sqlite-utils' per-row dict handling
    db.execute("CREATE TABLE deletes (del TEXT, word TEXT, PRIMARY KEY (del, word)) WITHOUT ROWID")
    db.conn.executemany("INSERT OR IGNORE INTO deletes VALUES (?, ?)",
                        ((d, w) for w in vocab for d in deletes(w)))
    db.execute("CREATE TABLE english (word TEXT PRIMARY KEY, specific REAL) WITHOUT ROWID")
    db.conn.executemany("INSERT OR IGNORE INTO english VALUES (?, ?)", _specificity(english, vocab))
    db.execute("CREATE TABLE name_deletes (del TEXT, key TEXT, PRIMARY KEY (del, key)) WITHOUT ROWID")
    db.conn.executemany("INSERT OR IGNORE INTO name_deletes VALUES (?, ?)", _name_deletes())
    db.conn.commit()
    return db


def _specificity(english: dict[str, int], vocab: Counter) -> Iterable[tuple[str, float]]:
    """(word, how much likelier it is in the books than in English, as a log10 ratio) for every English
    word: "terrain" 3.9 and "missile" 2.8 are the books' words, "go" -2.4 and "things" -1.3 are the
    language's ("where do my dead units go"). The books' count is smoothed by one, so a word they never
    use scores by its English frequency alone."""
    english_total, books_total = sum(english.values()) or 1, sum(vocab.values()) or 1
    for word, n in english.items():
        yield word, round(math.log10(((vocab.get(word, 0) + 1) / books_total) / (max(n, 1) / english_total)), 3)


def english_frequencies() -> dict[str, int]:
    """pyspellchecker's English word list with each word's frequency (alphabetic words only)."""
    import gzip
    from importlib.resources import files

    data = files("spellchecker").joinpath("resources", "en.json.gz").read_bytes()
    return {w: n for w, n in json.loads(gzip.decompress(data)).items() if w.isalpha()}


def english_words() -> Iterable[str]:
    """Every word of a maintained English spelling dictionary: the query side never "corrects" one.

    The dictionary is pyspellchecker's English word list (about 160,000 words, kept
    with that package and checked against the SCOWL lists it is built from); only
    the build reads it, into the ``english`` table, so a search imports nothing.
    """
    return iter(english_frequencies())


def _name_deletes() -> Iterable[tuple[str, str]]:
    """(one-deletion variant, name key) of every record name and alias of five letters or more,
    for a lookup that misspells a whole name ("lightening strik" is "lightning strike")."""
    for kind in EXACT_NAME_KINDS:
        for record in records(kind):
            name = getattr(record, "name", None) or getattr(record, "term", None) or record.id
            for shown in (name, *getattr(record, "aliases", ())):
                key = slug(shown).replace("-", "")
                if len(key) >= 5:
                    yield from ((d, key) for d in deletes(key))


def _kind_table(db, kind: str, table: str) -> None:
    """One sqlite-utils table per record kind; nested fields stored as JSON."""
    data = rows(kind)
    pk = ("edition", "id") if data and "edition" in data[0] and kind != "ruling" else "id"
    db[table].insert_all(data, pk=pk, alter=True)


def record_key(kind: str, row: dict[str, Any]) -> str:
    """``kind/edition/id``: for the kinds that are searched, also the search document's key."""
    return f"{kind}/{row.get('edition') or ''}/{row['id']}"


def _name_rows() -> Iterable[dict[str, Any]]:
    """Every slug (and hyphen-less slug) each record answers to, as ``index.lookup.keys`` says."""
    from .lookup import keys

    for kind in KINDS:
        for record in records(kind):
            row = record.model_dump()
            shown = getattr(record, "name", None) or getattr(record, "term", None) or record.id
            for k in sorted(keys(record)):
                yield {"kind": kind, "key": k, "record": record_key(kind, row),
                       "edition": row.get("edition"), "shown": shown}


def _alias_rows() -> Iterable[dict[str, Any]]:
    """Alias or abbreviation (compact slug) -> the name it stands for, for query expansion."""
    for g in records("glossary"):
        if g.expansion:
            yield {"key": slug(g.term).replace("-", ""), "alias": g.term, "expansion": g.expansion}
        for alias in g.aliases:
            yield {"key": slug(alias).replace("-", ""), "alias": alias, "expansion": g.term}
    for kind in ("race", "sai", "spell"):
        for r in records(kind):
            for alias in getattr(r, "aliases", ()):
                if slug(alias) != slug(r.name):
                    yield {"key": slug(alias).replace("-", ""), "alias": alias, "expansion": r.name}


def _spelled(text: str, vocab: Counter, english: dict[str, int]) -> str:
    """``text`` without the words a query would correct (in neither the books' vocabulary nor English,
    and no synonym's): the players' questions keep their typos ("missles"), and a typo in the index
    would be a known word, never corrected again."""
    return " ".join(w for w in words(text) if not w.isalpha() or w in vocab or w in english or synonyms_of(w))


def _vocab(docs: list[dict[str, Any]]) -> Counter:
    """Every word of the searchable text with its frequency: what misspellings are corrected to."""
    found: Counter = Counter()
    for d in docs:
        for field in ("title", "names", "context", "body", "words"):
            found.update(w for w in words(d[field]) if len(w) >= MIN_VOCAB_LEN and w.isalpha())
    return found


# -- whoosh and the ranking tables ---------------------------------------------

# BM25F (Robertson & Zaragoza, "The Probabilistic Relevance Framework: BM25 and Beyond", 2009):
# each field's term frequency, normalized by that field's length and weighted, is summed into one
# pseudo-frequency, saturated once with K1 and multiplied by the term's IDF. A word in the name
# counts as several in the body, but many fields holding a common word never add up past the
# saturation, and a rare word outweighs a common one by its IDF.
# "words" is the players' words written for a record (corpus/words/, ``index.documents.players_words``):
# how a player asks for what it answers, in words the books do not use (x1.2 since the rule sections'
# players' questions of the tenth pass: a plateau from 1.0 to 1.5, docs/search.md).
# "asked" is the players' questions a record answers (corpus/questions/, ``index.documents.asked_questions``),
# x1.0: cross-validated on the tuning half, a plateau from 0.6 to 2.0 (docs/search.md, fourteenth pass). Not
# in the spelling vocabulary (``_vocab``): the questions keep their typos, which must still be corrected.
FIELD_WEIGHTS = {"title": 3.0, "names": 2.0, "context": 0.6, "body": 1.0, "tags": 0.5, "words": 1.2, "asked": 1.0}
LENGTH_NORM = {"title": 0.5, "names": 0.5, "context": 0.5, "body": 0.75, "tags": 0.0, "words": 0.5,  # b per field
               "asked": 0.5}
SCOPES = {"all": ("title", "names", "context", "body", "tags", "words", "asked"), "name": ("title", "names"),
          "story": ("story",)}
# The pair scope (PAIR_SCOPE): every two terms that follow each other in a field of the "all" scope (its stop words
# left out, as a query's are), scored as BM25F terms of their own. A question's words in the order a text
# has them say more than the same words apart: the ordered pairs of the sequential dependence model
# (Metzler and Croft, "A Markov random field model for term dependencies", SIGIR 2005). index.search
# adds them to a question's score at PAIR_WEIGHT.
TEXT_FIELDS = {**FIELD_WEIGHTS, "story": 1.0}
LENGTH_NORM["story"] = 0.75
K1 = 1.2


def _build_ranking(db, docs: list[dict[str, Any]]) -> None:
    """Tables the query side ranks from: each document's facets and group, and per term its BM25F
    scores, so a query adds up a few arrays instead of walking postings in pure Python."""
    groups, owners = _groups(docs)
    db["search_docs"].insert_all((_doc_row(n, d, groups[n], owners[n]) for n, d in enumerate(docs)), pk="docnum")
    idf: dict[str, float] = {}
    db["postings"].insert_all(_posting_rows(docs, groups, idf), pk="term")
    passages = _passages(docs)
    db["passages"].insert_all(({"pnum": p, "docnum": n} for p, (n, _) in enumerate(passages)), pk="pnum")
    db["postings"].insert_all(_passage_rows(docs, passages, idf), pk="term")


def _bare(heading: str) -> str:
    """A heading without a closing parenthesis: "Dead Unit Area (DUA)" is "dead unit area"."""
    return re.sub(r"\s*\(.*?\)\s*$", "", heading).strip().lower()


def _groups(docs: list[dict[str, Any]]) -> tuple[list[str], list[int]]:
    """Per document, the group it is shown in, and the document number of the record it belongs to.

    One hit per record across editions: a spell, SAI, race or unit of the same name in several
    editions is one group; a record's own rule section (the section it cites, headed with its
    name) belongs to the record, and a rule section to the sections of the other editions with
    the same heading, when that heading is used once in each edition ("Tower", "Jaws").
    """
    owner_of: dict[tuple[str, str], int] = {}
    for n, d in enumerate(docs):
        if d["type"] != "rule":
            owner_of.setdefault((d["section"], _bare(d["title"])), n)
    owners = [owner_of.get((d["id"], _bare(d["title"])), n) if d["type"] == "rule" else n
              for n, d in enumerate(docs)]
    headings = Counter((d["edition"], _bare(d["title"])) for n, d in enumerate(docs)
                       if d["type"] == "rule" and owners[n] == n)
    groups = []
    for n, d in enumerate(docs):
        compact = slug(_bare(d["title"])).replace("-", "")
        if d["type"] in ("spell", "sai", "race", "unit"):
            groups.append(f"{d['type']}:{compact}")
        elif d["type"] == "rule" and owners[n] == n and headings[(d["edition"], _bare(d["title"]))] == 1 and compact:
            groups.append(f"rule:{compact}")
        else:
            groups.append(d["key"])
    return [groups[owners[n]] for n in range(len(docs))], owners


def _doc_row(docnum: int, doc: dict[str, Any], group: str, owner: int) -> dict[str, Any]:
    return {"docnum": docnum, "key": doc["key"], "type": doc["type"], "id": doc["id"],
            "edition": doc["edition"], "title": doc["title"], "section": doc["section"], "body": " ".join(doc["body"].split()),
            "story": " ".join(doc["story"].split()), "hidden": doc["hidden"] == "yes", "grp": group, "owner": owner,
            "names": doc["names"], "context": doc["context"],
            "colors": f" {doc['color']} ", "races": f" {doc['race']} ", "cost": doc["cost"],
            "reserve": doc["reserve"], "cantrip": doc["cantrip"]}


def _posting_rows(docs: list[dict[str, Any]], groups: list[str],
                  idfs: dict[str, float] | None = None) -> Iterable[dict[str, Any]]:
    """One row per term and scope ("all" the ranked fields, the "name" fields, the "story"): the
    documents holding the term and their BM25F scores for it.

    A term's IDF counts records, not documents: the hit groups of ``_groups`` (a spell in three
    editions, with its own rule sections, is one), as the search shows them. Counted per
    document, a word of every spell's text ("casting", "target") would look three times as
    common as a word said once in one rule section, though a reader meets each once. The IDF of
    each term of the "all" scope is left in ``idfs`` for the passages (``_passage_rows``).
    """
    per_field = {f: _field_frequencies(docs, f) for f in TEXT_FIELDS}
    pairs = {f"{PAIR_SCOPE}:{f}": _field_frequencies(docs, f, pairs=True) for f in SCOPES["all"]}
    per_field |= pairs
    count = len(set(groups))
    for scope, fields in (*SCOPES.items(), (PAIR_SCOPE, tuple(pairs))):
        every = sorted({t for f in fields for t in per_field[f]})
        for term in every:
            pseudo: dict[int, float] = {}
            for f in fields:
                for docnum, tf in per_field[f].get(term, {}).items():
                    pseudo[docnum] = pseudo.get(docnum, 0.0) + tf
            df = len({groups[n] for n in pseudo})  # records holding the term
            idf = math.log(1 + (count - df + 0.5) / (df + 0.5))
            if scope == "all" and idfs is not None:
                idfs[term] = idf
            yield _bm25_row(f"{scope}:{term}", pseudo, idf)


def _bm25_row(term: str, pseudo: dict[int, float], idf: float) -> dict[str, Any]:
    """A postings row: the numbers holding ``term`` and their saturated pseudo-frequencies times its IDF."""
    nums = sorted(pseudo)
    return {"term": term, "docs": array("I", nums).tobytes(),
            "scores": array("f", [idf * pseudo[n] * (K1 + 1) / (pseudo[n] + K1) for n in nums]).tobytes(),
            "idf": idf}


# Passage-level evidence (Callan, "Passage-level evidence in document retrieval", SIGIR 1994): a long
# section answers a question in one or two of its sentences, but its length normalization weighs each
# of its words down, so a short text holding two of the question's words outranks the section holding
# all of them in one sentence ("dragonkin carrying magic items": Wayfare over the Dragonkin section's
# "cannot carry magical items"). Each long body is also cut into passages of PASSAGE_TERMS terms, one
# starting at each sentence, scored as BM25 documents of their own (the section's heading counted
# with each, as its title is); a question's best passage pulls the section's score up (index.search).
PASSAGE_TERMS = 40
SENTENCE_END = re.compile(r"(?<=[.!?:;])\s+|\n\s*\n")


def _passages(docs: list[dict[str, Any]]) -> list[tuple[int, tuple[str, ...]]]:
    """(docnum, terms) of every passage: in each searchable body longer than one and a half passages,
    from each sentence, it and the sentences after it up to PASSAGE_TERMS terms (the last ones
    shorter than half a passage are left out: the one before holds them)."""
    found: list[tuple[int, tuple[str, ...]]] = []
    for n, d in enumerate(docs):
        sentences = [t for t in map(terms, SENTENCE_END.split(d["body"] or "")) if t]
        if d["hidden"] == "yes" or sum(map(len, sentences)) <= PASSAGE_TERMS * 1.5:
            continue
        for i in range(len(sentences)):
            window: list[str] = []
            for sentence in sentences[i:]:
                window += sentence
                if len(window) >= PASSAGE_TERMS:
                    break
            if i and len(window) < PASSAGE_TERMS // 2:
                break
            found.append((n, tuple(window)))
    return found


def _passage_rows(docs: list[dict[str, Any]], passages: list[tuple[int, tuple[str, ...]]],
                  idfs: dict[str, float]) -> Iterable[dict[str, Any]]:
    """The "passage" scope's postings: per term, the passages holding it (in their text or their
    section's title, weighted as the title is in the section) with their BM25 scores, at the
    term's IDF over the records (as in ``_posting_rows``)."""
    title = _field_frequencies(docs, "title")
    in_title: dict[int, dict[str, float]] = {}
    for term, found in title.items():
        for n, tf in found.items():
            in_title.setdefault(n, {})[term] = tf
    b = LENGTH_NORM["body"]
    avg = sum(len(t) for _, t in passages) / max(len(passages), 1)
    pseudo: dict[str, dict[int, float]] = {}
    for p, (n, window) in enumerate(passages):
        norm = FIELD_WEIGHTS["body"] / (1 - b + b * len(window) / avg)
        found = {term: tf * norm for term, tf in Counter(window).items()}
        for term, tf in in_title.get(n, {}).items():
            found[term] = found.get(term, 0.0) + tf
        for term, tf in found.items():
            pseudo.setdefault(term, {})[p] = tf
    for term, found in pseudo.items():
        if term in idfs:
            yield _bm25_row(f"passage:{term}", found, idfs[term])


def _field_frequencies(docs: list[dict[str, Any]], field: str,
                       pairs: bool = False) -> dict[str, dict[int, float]]:
    """term -> {docnum: the term's frequency in ``field``, weighted and normalized by the field's length}.

    The terms are ``index.analysis.terms``, the analysis the query side applies (and which
    tests/test_index_analysis.py checks against whoosh's analyzer over the whole corpus); with ``pairs``,
    each two following terms as one (``pair_term``), weighted and normalized as the field's terms are.
    """
    weight, b = TEXT_FIELDS[field], LENGTH_NORM[field]
    analyzed = [terms(d[field]) if d[field] else () for d in docs]
    if pairs:
        analyzed = [tuple(map(pair_term, t, t[1:])) for t in analyzed]
    holding = [len(a) for a in analyzed if a]  # the average length over the documents that have the field
    avg = max(sum(holding) / max(len(holding), 1), 1e-9)
    found: dict[str, dict[int, float]] = {}
    for n, found_terms in enumerate(analyzed):
        if not found_terms:
            continue
        norm = weight / (1 - b + b * len(found_terms) / avg)
        for term, tf in Counter(found_terms).items():
            found.setdefault(term, {})[n] = tf * norm
    return found
