"""Ranked full-text search in the query language of ``index.query``.

Ranking, in order of weight:

1. a record whose name is the whole query ("wall of fog", "TRtM") comes first;
2. documents matching more of the query's words come before those matching
   fewer (a word matches through any of its spellings: itself, a correction
   of a misspelling, or the name an alias or abbreviation stands for);
3. BM25F over the fields, a word in the name counting most.

Scores come from the ``postings`` table that the build derived from whoosh's
postings (per term, the documents and their impacts), so a query is a few
indexed reads and a sum, without importing whoosh or walking its postings in
pure Python; a quoted phrase is checked by a regular expression on the few
documents holding all its words.
"""

from __future__ import annotations

import difflib
import heapq
import re
import sqlite3
from array import array
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.names import slug

from .analysis import stop_words, terms
from .query import Filter, Query, parse
from .snippet import phrase_pattern, snippet, variants
from .spelling import corrections
from .store import Progress, Store, forget, store
from .synonyms import SYNONYMS

EXACT_NAME_KINDS = ("spell", "sai", "race", "unit", "glossary")
CORRECTION_WEIGHT = 0.8
SYNONYM_WEIGHT = 0.9
SINGLE_WORD_NAMES = ("spell", "sai", "race")  # a one-word name of these kinds ranks its record up
SLACK = 5  # extra candidates fetched, for the sections shown as their records
MATCHED = 1000.0  # rank added per query word a document matches (BM25F scores stay far below)
EXACT = 1e6  # rank added to a record named by the whole query
NAMED = MATCHED  # rank added per word of a run of the query that names a record ("acting army")
MAX_ALIAS_WORDS = 4
TYPE_ORDER = ("spell", "sai", "race", "unit", "glossary", "ruling", "rule")
EDITION_ORDER = ("sfr-2012", "sfr-v4", "tsr-1996")
PHRASE_FIELDS = ("title", "names", "context", "body")
NAME_FIELDS = ("title", "names")


@dataclass(frozen=True)
class Hit:
    """One ranked answer (the API the CLI and the relevance tests code against)."""

    kind: str  # "spell" | "sai" | "rule" | "ruling" | "glossary" | "race" | "unit"
    id: str  # the record id; for kind "rule" the section id
    edition: str  # sfr-2012 | sfr-v4 | tsr-1996
    title: str  # spell/SAI/race/unit name, section heading, ruling "Topic (A)", glossary term
    snippet: str  # plain text (about 180 characters) around the best match
    highlights: tuple[tuple[int, int], ...]  # (start, end) offsets into snippet of matched words
    score: float  # the BM25F score (the rank also counts the query words matched)
    source: str  # the section id the record cites (for a rule: its own id)


@dataclass(frozen=True)
class SearchResult:
    hits: tuple[Hit, ...]
    warnings: tuple[str, ...]  # each names what part of the query was ignored and why
    understood: str  # the query as understood, normalized: corrections and alias meanings shown


@dataclass
class _Group:
    """One query word (or alias) and every spelling that counts as matching it, with its weight."""

    word: str
    stems: dict[str, float]
    phrases: list[tuple[str, ...]] = field(default_factory=list)
    scope: str = "all"  # or "name": the title and aliases only


@dataclass
class _Plan:
    """A parsed query turned into what to look up."""

    query: Query
    groups: list[_Group]
    exact: set[str]
    warnings: list[str]
    named: dict[str, int] = field(default_factory=dict)  # record key -> words of the query naming it
    corrections: dict[str, list[str]] = field(default_factory=dict)
    expansions: dict[str, str] = field(default_factory=dict)
    ignored: set[Filter] = field(default_factory=set)  # fields whose value was not understood


class Searcher:
    """Searches over one built index's database."""

    def __init__(self, db: Store) -> None:
        self.db = db
        self.colors = {c for (cs,) in db.query("SELECT DISTINCT colors FROM search_docs") for c in cs.split()}

    def search(self, text: str, edition: str | None = None, kind: str | None = None,
               limit: int = 10) -> SearchResult:
        """Hits for ``text``; ``edition`` and ``kind`` hold as well as the query's own fields."""
        plan = self._plan(parse(text))
        allowed = self._allowed(plan, edition, (kind,) if kind else ())
        if not plan.query.has_text:
            ranked = (self._listing(allowed) if allowed is not None else [])[:limit]
            rows = self._hit_rows(ranked)
        else:
            ranked = self._ranked(plan, allowed, limit + SLACK)
            rows = self._hit_rows(ranked)
            ranked = _without_own_sections(ranked, rows)[:limit]
        return SearchResult(self._hits(ranked, rows, plan), tuple(plan.warnings), understood(plan))

    # -- reading the query --------------------------------------------------------

    def _plan(self, query: Query) -> _Plan:
        plan = _Plan(query, [], set(), list(query.warnings))
        words = [w.lower() for w in query.words]
        slots = self._word_groups(words, plan)
        self._aliases(query.words, slots, plan)
        plan.groups = [g for g in slots if g is not None]
        plan.groups += [_Group(p, {}, [terms(p)]) for p in query.phrases if terms(p)]
        plan.groups += [_Group(p, {}, [terms(p)], "name") for p in query.name_phrases if terms(p)]
        plan.groups += [_Group(w, dict.fromkeys(terms(w), 1.0), [], "name") for w in query.name_words if terms(w)]
        plan.exact = self._exact(query, plan.expansions)
        plan.named = {k: n for k, n in self._named(words).items() if k not in plan.exact}
        if not query.has_text and not query.filters:
            plan.warnings.append("empty query: give some words or a field such as type:spell")
        return plan

    def _word_groups(self, words: list[str], plan: _Plan) -> list[_Group | None]:
        """A group per free word (None for a stop word): its stem, its synonyms, and the corrections
        of a word the corpus does not have (or of two words it writes as one)."""
        known = self.db.known(words, {s for w in words for s in terms(w)})
        slots: list[_Group | None] = []
        for word in words:
            group = _Group(word, dict.fromkeys(terms(word), 1.0)) if terms(word) else None
            for synonym in SYNONYMS.get(word, ()) if group else ():
                for stem in terms(synonym):
                    group.stems.setdefault(stem, SYNONYM_WEIGHT)
            slots.append(group)
        joined = self._joined(words, slots, known, plan)
        for i, (word, group) in enumerate(zip(words, slots)):
            unknown = word not in known and not set(terms(word)) <= known
            if group and unknown and i not in joined and word not in SYNONYMS and not word.isdigit():
                self._correct(group, plan)
        return slots

    def _joined(self, words: list[str], slots: list[_Group | None], known: set[str], plan: _Plan) -> set[int]:
        """Two neighbouring words that the books write as one ("bulls eye"): both match it."""
        pairs = {words[i] + words[i + 1]: i for i in range(len(words) - 1) if slots[i] and slots[i + 1]}
        found: set[int] = set()
        for word in self.db.known(pairs) - known:
            i = pairs[word]
            for stem in terms(word):
                slots[i].stems.setdefault(stem, 1.0)
                slots[i + 1].stems.setdefault(stem, 1.0)
            plan.corrections[f"{words[i]} {words[i + 1]}"] = [word]
            found |= {i, i + 1}
        return found

    def _correct(self, group: _Group, plan: _Plan) -> None:
        fixed = corrections(self.db, group.word)
        if fixed:
            plan.corrections[group.word] = fixed
        for alternative in fixed:
            for stem in terms(alternative):
                group.stems.setdefault(stem, CORRECTION_WEIGHT)

    def _aliases(self, words: tuple[str, ...], slots: list[_Group | None], plan: _Plan) -> None:
        """Let an alias or abbreviation ("TRtM", "Vagha", "coral elf") also match what it stands for.

        The expansion joins the group of the alias's last word; two-letter
        abbreviations (AM, DW, LE) count only when written in capitals.
        """
        grams = _runs(words)
        for key, (alias, expansion) in self.db.aliases(grams).items():
            i, n = grams[key]
            if n == 1 and len(key) <= 2 and words[i] != words[i].upper():
                continue
            expanded = terms(expansion)
            last = slots[i + n - 1]
            if last is None:
                last = slots[i + n - 1] = _Group(words[i + n - 1].lower(), {})
            plan.expansions[alias] = expansion
            if len(expanded) == 1:
                last.stems.setdefault(expanded[0], 1.0)
            elif expanded:
                last.phrases.append(expanded)

    def _exact(self, query: Query, expansions: dict[str, str]) -> set[str]:
        """Keys of the records named exactly by the whole query (or by what its alias stands for)."""
        names = [" ".join(query.words), *expansions.values()] if query.words else []
        names += [*query.name_phrases, " ".join(query.name_words)]
        keys = {slug(n).replace("-", "") for n in names} - {""}
        return {record for _kind, _key, record in self.db.names_of(EXACT_NAME_KINDS, keys)}

    def _named(self, words: list[str]) -> dict[str, int]:
        """Keys of the records named by a run of two or more of the query's words, or by one word for
        the kinds in SINGLE_WORD_NAMES ("acting army", "health worth", "undead"), with the run's length."""
        runs = _runs(words)
        named: dict[str, int] = {}
        for kind, key, record in self.db.names_of(EXACT_NAME_KINDS, runs):  # record keys are document keys
            _i, n = runs[key]
            if n > 1 or kind in SINGLE_WORD_NAMES:
                named[record] = max(named.get(record, 0), n)
        return named

    # -- which documents may answer -----------------------------------------------

    def _allowed(self, plan: _Plan, edition: str | None, types: tuple[str, ...]) -> set[int] | None:
        """Document numbers passing the filters (None: no filter at all)."""
        query = plan.query
        wheres: list[str] = []
        params: list[Any] = []
        for negated in (False, True):
            by_field: dict[str, list[tuple[str, list]]] = {}
            for f in query.filters:
                if f.negated == negated:
                    clause = self._facet(f, plan.warnings)
                    if clause is None:
                        plan.ignored.add(f)
                    else:
                        by_field.setdefault(f.field, []).append(clause)
            for clauses in by_field.values():
                sql = " OR ".join(c for c, _ in clauses)
                wheres.append(f"NOT ({sql})" if negated else f"({sql})")
                params += [p for _, ps in clauses for p in ps]
        if edition:
            wheres.append("edition = ?")
            params.append(edition)
        if types:
            wheres.append(f"type IN ({','.join('?' * len(types))})")
            params += list(types)
        if not wheres:
            return None
        return {n for (n,) in self.db.query(f"SELECT docnum FROM search_docs WHERE {' AND '.join(wheres)}", params)}

    def _facet(self, f: Filter, warnings: list[str]) -> tuple[str, list] | None:
        if f.field == "cost":
            return f"cost {f.op} ?", [int(f.value)]
        if f.field == "color":
            if f.value not in self.colors:
                warnings.append(f"unknown color {f.value!r} ignored{_did_you_mean(f.value, self.colors)}")
                return None
            return "instr(colors, ?) > 0", [f" {f.value} "]
        if f.field == "race":
            ids = self._races(f.value, warnings)
            return ("(" + " OR ".join(["instr(races, ?) > 0"] * len(ids)) + ")", [f" {i} " for i in ids]) \
                if ids else None
        return f"{f.field} = ?", [f.value]

    def _races(self, name: str, warnings: list[str]) -> list[str]:
        if name == "basic":
            return ["basic"]
        ids = sorted({r.split("/")[-1] for r in self.db.named("race", slug(name).replace("-", ""))})
        if not ids:
            warnings.append(f"unknown race {name!r} ignored{_did_you_mean(name, self.db.shown_names('race'))}")
        return ids

    def _listing(self, allowed: set[int]) -> list[tuple[int, float]]:
        """Every allowed document in a stable order (a query of fields only)."""
        rows = self._docs(allowed, "type, edition, title")
        rows.sort(key=lambda r: (TYPE_ORDER.index(r["type"]), EDITION_ORDER.index(r["edition"]),
                                 r["title"].lower()))
        return [(r["docnum"], 0.0) for r in rows]

    # -- ranking --------------------------------------------------------------------

    def _ranked(self, plan: _Plan, allowed: set[int] | None, limit: int) -> list[tuple[int, float]]:
        """The best ``limit`` documents with their scores."""
        required = self._required(plan.query, allowed)
        if required is not None and not required:
            return []
        candidates = required if required is not None else allowed
        # one number per document ranks it: MATCHED per query word matched, plus the BM25F score
        rank: defaultdict[int, float] = defaultdict(float)
        score: defaultdict[int, float] = defaultdict(float)
        for group in _distinct(plan.groups):
            for n, s in self._group_scores(group, candidates).items():
                rank[n] += MATCHED + s
                score[n] += s
        for n in self._exact_docnums(plan.exact, candidates):
            rank[n] += EXACT
        for n, words in self._named_docnums(plan.named, candidates).items():
            rank[n] += NAMED * words
        for n in self._banned(plan.query):
            rank.pop(n, None)
        top = heapq.nlargest(limit, rank, key=rank.__getitem__)
        return [(n, score[n]) for n in top]

    def _group_scores(self, group: _Group, candidates: set[int] | None) -> dict[int, float]:
        """Per document, the best score among the group's spellings (a phrase needs all its words)."""
        if len(group.stems) == 1 and not group.phrases and 1.0 in group.stems.values():
            return self._postings(group.scope, next(iter(group.stems)), candidates)
        best: dict[int, float] = {}
        for stem, weight in group.stems.items():
            _merge_max(best, self._postings(group.scope, stem, candidates), weight)
        for phrase in group.phrases:
            _merge_max(best, self._all_of(group.scope, phrase, candidates), 1.0)
        return best

    def _all_of(self, scope: str, stems: tuple[str, ...], candidates: set[int] | None) -> dict[int, float]:
        """Documents holding every one of ``stems``, scored by their sum."""
        found = self._postings(scope, stems[0], candidates)
        for stem in stems[1:]:
            more = self._postings(scope, stem, candidates)
            found = {n: s + more[n] for n, s in found.items() if n in more}
        return found

    def _postings(self, scope: str, stem: str, candidates: set[int] | None) -> dict[int, float]:
        row = self.db.query("SELECT docs, scores FROM postings WHERE term = ?", (f"{scope}:{stem}",))
        if not row:
            return {}
        docs, scores = array("I"), array("f")
        docs.frombytes(row[0][0])
        scores.frombytes(row[0][1])
        if candidates is None:
            return dict(zip(docs, scores))
        return {n: s for n, s in zip(docs, scores) if n in candidates}

    def _required(self, query: Query, allowed: set[int] | None) -> set[int] | None:
        """Documents holding every quoted phrase and every name: word (None when nothing is required)."""
        required = allowed
        for phrase in query.phrases:
            required = self._phrase_docs(terms(phrase), PHRASE_FIELDS, required)
        for phrase in query.name_phrases:
            required = self._phrase_docs(terms(phrase), NAME_FIELDS, required)
        for word in query.name_words:
            for stem in terms(word):
                docs = set(self._postings("name", stem, required))
                required = docs if required is None else required & docs
        return None if required is allowed else required

    def _phrase_docs(self, stems: tuple[str, ...], fields: tuple[str, ...], within: set[int] | None) -> set[int]:
        """Documents where ``stems`` stand in a row in one of ``fields``.

        The postings narrow the search to the documents holding every word;
        a regular expression over their text then checks the order.
        """
        scope = "name" if fields == NAME_FIELDS else "all"
        candidates = within
        for stem in stems:
            candidates = set(self._postings(scope, stem, candidates))
            if not candidates:
                return set()
        if len(stems) == 1 or candidates is None:
            return candidates or set()
        regex = phrase_pattern(stems, stop_words())
        return {row["docnum"] for row in self._docs(candidates, ", ".join(fields))
                if any(terms(m.group(0)) == stems for m in regex.finditer(" | ".join(row[f] or "" for f in fields)))}

    def _banned(self, query: Query) -> set[int]:
        banned: set[int] = set()
        for word in query.not_words:
            for stem in terms(word):
                banned.update(self._postings("all", stem, None))
        for phrase in query.not_phrases:
            banned |= self._phrase_docs(terms(phrase), PHRASE_FIELDS, None)
        return banned

    def _named_docnums(self, named: dict[str, int], candidates: set[int] | None) -> dict[int, int]:
        if not named:
            return {}
        found = dict(self.db.query(
            f"SELECT docnum, key FROM search_docs WHERE key IN ({','.join('?' * len(named))})", list(named)))
        return {n: named[key] for n, key in found.items() if candidates is None or n in candidates}

    def _exact_docnums(self, keys: set[str], candidates: set[int] | None) -> set[int]:
        if not keys:
            return set()
        found = {n for (n,) in self.db.query(
            f"SELECT docnum FROM search_docs WHERE key IN ({','.join('?' * len(keys))})", list(keys))}
        return found if candidates is None else found & candidates

    # -- hits -------------------------------------------------------------------------

    def _docs(self, docnums, columns: str) -> list[dict[str, Any]]:
        docnums = list(docnums)
        if not docnums:
            return []
        cursor = self.db.conn.execute(
            f"SELECT docnum, {columns} FROM search_docs WHERE docnum IN ({','.join('?' * len(docnums))})", docnums)
        names = [d[0] for d in cursor.description]
        return [dict(zip(names, row)) for row in cursor.fetchall()]

    def _hit_rows(self, ranked: list[tuple[int, float]]) -> dict[int, dict[str, Any]]:
        return {r["docnum"]: r for r in self._docs([n for n, _ in ranked], "type, id, edition, title, section, body")}

    def _hits(self, ranked: list[tuple[int, float]], rows: dict[int, dict[str, Any]], plan: _Plan) -> tuple[Hit, ...]:
        query = plan.query
        stems = [s for g in plan.groups for s in g.stems] + [t for g in plan.groups for p in g.phrases for t in p]
        stems += [t for p in (*query.phrases, *query.name_phrases, *query.name_words) for t in terms(p)]
        prefixes = variants(stems)
        hits = []
        for n, score in ranked:
            row = rows[n]
            text, marks = snippet(row["body"], prefixes)
            hits.append(Hit(kind=row["type"], id=row["id"], edition=row["edition"], title=row["title"],
                            snippet=text, highlights=tuple(marks), score=round(score, 3), source=row["section"]))
        return tuple(hits)


def _runs(words: Sequence[str]) -> dict[str, tuple[int, int]]:
    """Every run of up to MAX_ALIAS_WORDS query words as a name slug without hyphens (how names
    and aliases are keyed) -> (where it starts, how many words), the first of equal runs."""
    found: dict[str, tuple[int, int]] = {}
    for n in range(1, MAX_ALIAS_WORDS + 1):
        for i in range(len(words) - n + 1):
            found.setdefault(slug(" ".join(words[i:i + n])).replace("-", ""), (i, n))
    return found


def _without_own_sections(ranked: list[tuple[int, float]], rows: dict[int, dict[str, Any]]) -> list:
    """The ranking with each record and its own rule section (the section the record cites, headed
    with its name: a spell's entry, a glossary entry) shown once, as the record, at the better of
    their two places. The record's hit names the section, for ``ddref rule``."""
    owner: dict[tuple[str, str], int] = {}
    for n, _score in ranked:
        if rows[n]["type"] != "rule":
            owner.setdefault((rows[n]["section"], _bare(rows[n]["title"])), n)
    scores = dict(ranked)
    kept: dict[int, float] = {}
    for n, score in ranked:
        row = rows[n]
        if row["type"] == "rule":
            n = owner.get((row["id"], _bare(row["title"])), n)
        kept.setdefault(n, scores[n])
    return list(kept.items())


def _bare(heading: str) -> str:
    """A heading without a closing parenthesis: "Dead Unit Area (DUA)" is "dead unit area"."""
    return re.sub(r"\s*\(.*?\)\s*$", "", heading).strip().lower()


def _distinct(groups: list[_Group]) -> list[_Group]:
    """The groups with a word repeated in the query counted once ("acting army and marching army")."""
    seen: dict[tuple, _Group] = {}
    for g in groups:
        seen.setdefault((g.scope, tuple(sorted(g.stems)), tuple(g.phrases)), g)
    return list(seen.values())


def _merge_max(best: dict[int, float], found: dict[int, float], weight: float) -> None:
    for n, s in found.items():
        s *= weight
        if s > best.get(n, 0.0):
            best[n] = s


def _did_you_mean(value: str, known) -> str:
    close = difflib.get_close_matches(value, sorted(known), n=3, cutoff=0.6)
    return f"; did you mean: {', '.join(close)}?" if close else f" (known: {', '.join(sorted(known))})"


_searchers: dict[int, Searcher] = {}


MAX_QUERY_CHARS = 1000


class QueryTooLong(ValueError):
    """A search query over ``MAX_QUERY_CHARS`` characters (the message is for the user)."""


def searcher(progress: Progress | None = None) -> Searcher:
    """The searcher over the current store (see ``index.store.store``), made once per store."""
    db = store(progress)
    found = _searchers.get(id(db))
    if found is None or found.db is not db:
        found = _searchers[id(db)] = Searcher(db)
    return found


def search(query: str, *, edition: str | None = None, kind: str | None = None, limit: int = 10,
           progress: Progress | None = None) -> SearchResult:
    """Search the corpus: ``search("lightening strik", edition="sfr-2012", kind="spell")``.

    ``edition`` None searches every edition, ``kind`` None every kind; the
    query's own ``edition:`` and ``type:`` fields must hold as well.
    ``progress(done, total, stage)`` hears about the index build when the
    index is missing or stale. A query longer than ``MAX_QUERY_CHARS`` raises
    ``QueryTooLong``: judges' questions are a line, and a longer text only
    makes the query plan (and SQLite's expression tree) grow.
    """
    if len(query) > MAX_QUERY_CHARS:
        raise QueryTooLong(f"the query is too long ({len(query):,} characters); the limit is "
                           f"{MAX_QUERY_CHARS:,}: ask with fewer words")
    try:
        return searcher(progress).search(query, edition, kind, limit)
    except sqlite3.DatabaseError:
        forget(store())  # damaged after it was opened: built again, once
        return searcher(progress).search(query, edition, kind, limit)


def understood(plan: _Plan) -> str:
    """The query as it was read, in the query language: corrected words, alias meanings, the fields
    understood (what was ignored is left out; the warnings name it)."""
    query, fixes = plan.query, plan.corrections
    meanings = {alias.lower(): meaning for alias, meaning in plan.expansions.items()}
    parts = []
    for i, word in enumerate(query.words):
        joined = fixes.get(f"{word} {query.words[i + 1]}".lower()) if i + 1 < len(query.words) else None
        if joined or (i and fixes.get(f"{query.words[i - 1]} {word}".lower())):
            parts += joined or []  # two words the books write as one: "bulls eye" -> bullseye
            continue
        fixed, meaning = fixes.get(word.lower()), meanings.get(word.lower())
        parts.append(fixed[0] if fixed else f"{word} ({meaning})" if meaning else word)
    parts += [f'"{p}"' for p in query.phrases]
    parts += [f"name:{w}" for w in query.name_words] + [f'name:"{p}"' for p in query.name_phrases]
    parts += [f"-{w}" for w in query.not_words] + [f'-"{p}"' for p in query.not_phrases]
    parts += [f"{'-' if f.negated else ''}{f.field}{':' if f.op == ':' else f.op}{f.value}"
              for f in query.filters if f not in plan.ignored]
    return " ".join(parts)
