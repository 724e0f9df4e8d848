"""Build the index into a folder: the SQLite database and the whoosh index.

``build_into(folder, progress)`` writes

- ``whoosh/``: one document per spell, SAI, race, unit, FAQ ruling, glossary
  term and rule section (``index.documents``), its text fields analyzed by
  ``index.analysis``;
- ``ddref.db`` (sqlite-utils): every record kind as a table of its own
  (``spells``, ``sais``, ... ``sections``, nested fields as JSON), and the
  tables the query side reads: ``search_docs`` (each whoosh document's facets
  and text), ``postings`` (per term, the BM25F impact in each document, read
  from whoosh's postings), ``names`` (every name slug of every record),
  ``aliases``, ``vocab`` and ``deletes`` (spelling), and ``meta``.

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

from .analysis import analyzer, quiet_whoosh, words
from .corpus import KINDS, corpus_hash, records, rows, section_rows
from .documents import documents
from .spelling import deletes

Progress = Callable[[int, int, str], None]  # (done, total, stage)
DB_NAME = "ddref.db"
WHOOSH_DIR = "whoosh"
MIN_VOCAB_LEN = 3


def schema():
    """The whoosh schema: text fields share one analyzer; facets are exact."""
    with quiet_whoosh():
        from whoosh.fields import ID, KEYWORD, NUMERIC, STORED, TEXT, Schema

    text = analyzer()
    return Schema(
        key=ID(stored=True, unique=True), type=ID(stored=True), id=STORED, edition=ID(stored=True),
        title=TEXT(analyzer=text), names=TEXT(analyzer=text),
        context=TEXT(analyzer=text), body=TEXT(analyzer=text), tags=TEXT(analyzer=text),
        story=TEXT(analyzer=text), hidden=ID,
        section=STORED, color=KEYWORD(lowercase=True), race=KEYWORD(lowercase=True),
        cost=NUMERIC(int, signed=False), reserve=ID, cantrip=ID,
    )


def build_into(folder: Path, progress: Progress | None = None) -> dict[str, Any]:
    """Write a complete index into ``folder`` (which must be empty); return its manifest."""
    started = time.perf_counter()
    docs = list(documents())
    steps = _Steps(progress or _silent, len(docs))
    db = _build_db(folder / DB_NAME, docs, steps)
    with quiet_whoosh():  # whoosh loads its codec modules while it writes and reads
        _build_whoosh(folder / WHOOSH_DIR, docs, steps)
        steps.reach("ranking tables", steps.ranked)
        _build_ranking(db, folder / WHOOSH_DIR, docs)
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
    """Progress in units of about equal time: one per document added to whoosh, and the other
    phases weighed in documents (measured: the tables take ~40% of the adding, the commit ~50%,
    the ranking tables ~35%)."""

    def __init__(self, report: Progress, docs: int) -> None:
        self.report = report
        self.tables = docs * 40 // 100
        self.added = self.tables + docs
        self.ranked = self.added + docs // 2
        self.total = self.ranked + docs * 35 // 100

    def reach(self, stage: str, done: int) -> None:
        self.report(done, self.total, stage)


def _counts(docs: list[dict[str, Any]]) -> dict[str, dict[str, int]]:
    """Searchable documents per kind and edition."""
    found: dict[str, Counter] = {}
    for d in docs:
        found.setdefault(d["type"], Counter())[d["edition"]] += 1
    return {kind: dict(by_edition) for kind, by_edition in found.items()}


# -- SQLite -------------------------------------------------------------------

def _build_db(path: Path, docs: list[dict[str, Any]], steps: _Steps):
    """The record tables, names, aliases and spelling tables (the ranking tables come after whoosh)."""
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
    vocab = _vocab(docs)
    db["vocab"].insert_all(({"word": w, "freq": n} for w, n in vocab.items()), pk="word")
    # 25,000 rows: plain executemany, without sqlite-utils' per-row dict handling
    db.execute("CREATE TABLE deletes (del TEXT, word TEXT, PRIMARY KEY (del, word)) WITHOUT ROWID")
    db.conn.executemany("INSERT OR IGNORE INTO deletes VALUES (?, ?)",
                        ((d, w) for w in vocab for d in deletes(w)))
    db.execute("CREATE TABLE english (word TEXT PRIMARY KEY) WITHOUT ROWID")
    db.conn.executemany("INSERT OR IGNORE INTO english VALUES (?)", ((w,) for w in english_words()))
    db.execute("CREATE TABLE name_deletes (del TEXT, key TEXT, PRIMARY KEY (del, key)) WITHOUT ROWID")
    db.conn.executemany("INSERT OR IGNORE INTO name_deletes VALUES (?, ?)", _name_deletes())
    db.conn.commit()
    return db


def english_words() -> Iterable[str]:
    """Every word of a maintained English spelling dictionary: the query side never "corrects" one.

    The dictionary is pyspellchecker's English word list (about 160,000 words, kept
    with that package and checked against the SCOWL lists it is built from); only
    the build reads it, into the ``english`` table, so a search imports nothing.
    """
    import gzip
    from importlib.resources import files

    data = files("spellchecker").joinpath("resources", "en.json.gz").read_bytes()
    return (w for w in json.loads(gzip.decompress(data)) if w.isalpha())


def _name_deletes() -> Iterable[tuple[str, str]]:
    """(one-deletion variant, name key) of every record name and alias of five letters or more,
    for a lookup that misspells a whole name ("lightening strik" is "lightning strike")."""
    from .search import EXACT_NAME_KINDS

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


def _vocab(docs: list[dict[str, Any]]) -> Counter:
    """Every word of the searchable text with its frequency: what misspellings are corrected to."""
    found: Counter = Counter()
    for d in docs:
        for field in ("title", "names", "context", "body"):
            found.update(w for w in words(d[field]) if len(w) >= MIN_VOCAB_LEN and w.isalpha())
    return found


# -- whoosh and the ranking tables ---------------------------------------------

# BM25F (Robertson & Zaragoza, "The Probabilistic Relevance Framework: BM25 and Beyond", 2009):
# each field's term frequency, normalized by that field's length and weighted, is summed into one
# pseudo-frequency, saturated once with K1 and multiplied by the term's IDF. A word in the name
# counts as several in the body, but many fields holding a common word never add up past the
# saturation, and a rare word outweighs a common one by its IDF.
FIELD_WEIGHTS = {"title": 3.0, "names": 2.0, "context": 0.6, "body": 1.0, "tags": 0.5}
LENGTH_NORM = {"title": 0.5, "names": 0.5, "context": 0.5, "body": 0.75, "tags": 0.0}  # b per field
SCOPES = {"all": ("title", "names", "context", "body", "tags"), "name": ("title", "names"), "story": ("story",)}
TEXT_FIELDS = {**FIELD_WEIGHTS, "story": 1.0}
LENGTH_NORM["story"] = 0.75
K1 = 1.2


def _build_whoosh(path: Path, docs: list[dict[str, Any]], steps: _Steps) -> None:
    from whoosh import index

    path.mkdir()
    ix = index.create_in(str(path), schema())
    writer = ix.writer(limitmb=256)
    step = max(1, len(docs) // 50)
    for n, doc in enumerate(docs, 1):
        writer.add_document(**{k: v for k, v in doc.items() if v is not None and v != ""})
        if n % step == 0:
            steps.reach("search index", steps.tables + n)
    steps.reach("writing the search index", steps.added)
    writer.commit(optimize=True)


def _build_ranking(db, whoosh_path: Path, docs: list[dict[str, Any]]) -> None:
    """Tables the query side ranks from: each document's facets, and per term its BM25F impacts.

    The impacts (a score per document per term, the fields combined) are read
    from whoosh's postings once here, so a query adds up a few arrays instead
    of walking postings in pure Python.
    """
    from whoosh import index

    with index.open_dir(str(whoosh_path)).reader() as reader:
        if [reader.stored_fields(n)["key"] for n in range(len(docs))] != [d["key"] for d in docs]:
            raise RuntimeError("whoosh document numbers do not follow the corpus order")
        groups, owners = _groups(docs)
        db["search_docs"].insert_all((_doc_row(n, d, groups[n], owners[n]) for n, d in enumerate(docs)), pk="docnum")
        db["postings"].insert_all(_posting_rows(reader, len(docs)), pk="term")


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


def _posting_rows(reader, count: int) -> Iterable[dict[str, Any]]:
    """One row per term and scope ("all" the ranked fields, the "name" fields, the "story"): the
    documents holding the term and their BM25F scores for it."""
    per_field = {f: _field_frequencies(reader, f, count) for f in TEXT_FIELDS}
    for scope, fields in SCOPES.items():
        every = sorted({t for f in fields for t in per_field[f]})
        for term in every:
            pseudo: dict[int, float] = {}
            for f in fields:
                for docnum, tf in per_field[f].get(term, {}).items():
                    pseudo[docnum] = pseudo.get(docnum, 0.0) + tf
            idf = math.log(1 + (count - len(pseudo) + 0.5) / (len(pseudo) + 0.5))
            nums = sorted(pseudo)
            scores = [idf * pseudo[n] * (K1 + 1) / (pseudo[n] + K1) for n in nums]
            yield {"term": f"{scope}:{term}", "docs": array("I", nums).tobytes(),
                   "scores": array("f", scores).tobytes()}


def _field_frequencies(reader, field: str, count: int) -> dict[str, dict[int, float]]:
    """term -> {docnum: the term's frequency in ``field``, weighted and normalized by the field's length}."""
    weight, b = TEXT_FIELDS[field], LENGTH_NORM[field]
    avg = max(reader.field_length(field) / max(count, 1), 1e-9)
    lengths = [reader.doc_field_length(n, field, 0) for n in range(count)]
    found: dict[str, dict[int, float]] = {}
    for term in reader.lexicon(field):
        found[term.decode()] = {n: weight * tf / (1 - b + b * lengths[n] / avg)
                                for n, tf in reader.postings(field, term).items_as("weight")}
    return found
