"""Ranked full-text search in the query language of ``index.query``.

The scoring model is BM25F (``index.build``): per query word, each document's
field-weighted, length-normalized term frequency saturated once and times the
word's IDF, so a rare word counts for more than a common one and a word in
a name for more than one in the body. A document's score is the sum over the
query's words, each word scoring by its best spelling: itself, a synonym, a
correction. (A factor for the share of the query's words a document matches
was tried and dropped: it over-rewards matching a rare filler word.)

A query is read either as a lookup (a few words naming something: "wall of
fog", "TRtM", "coral elf trooper") or as a question ("which SAI stops the
defender from counter attacking"): a first word that asks, a question mark, or
four words that are not stop words. Only a lookup ranks up the records its
words name; a question is ranked by what its words say. Either way a record
named by the whole query comes first. Words a player says for a kind of record
("spell", "SAI") or for an edition ("TSR", "1996", "old rules", "v4", "2012",
"new rules") prefer that kind or edition instead of being searched for.
In a question, a word English uses more than the books ("go", "put") weighs
less than the books' words, and a unit record counts half (units answer lookups).
Without an edition named, a section of the starter rules (sfr-v4) that no other edition
shares counts x0.85: the summary's short restatement does not outrank the full rules.
In a question, a long section's score moves part of the way up to the score of its best
passage (``index.build``), so the sentence that answers counts for what it says.

Hits are grouped: one hit per record across editions (with its own rule
section), and one per rule heading across editions, listing the editions it
was found in. Story text and front matter are left out unless ``story:yes``.
The whole ranking is computed before the list is cut, so the first k hits are
the same whatever the limit.

Scores come from the ``postings`` table that the build derived from whoosh's
postings (per term, the documents and their BM25F scores), so a query is a
few indexed reads and a sum, without importing whoosh; a quoted phrase is
checked by a regular expression on the few documents holding all its words.
"""

from __future__ import annotations

import difflib
import heapq
import sqlite3
from array import array
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.names import slug, typed

from .analysis import PAIR_SCOPE, pair_term, stem, stop_words, terms
from .corpus import EXACT_NAME_KINDS
from .query import Filter, Query, parse
from .snippet import phrase_pattern, snippet, variants
from .spelling import corrections, deletes, distance
from .store import Progress, Store, forget, store
from .synonyms import SYNONYMS, phrase as phrase_of, synonyms_of, weight

CORRECTION_WEIGHT = 0.8
STORY_WEIGHT = 0.7  # story text, searched with story:yes, counts less than rules text
SINGLE_WORD_NAMES = ("spell", "sai", "race")  # a one-word name of these kinds ranks its record up (lookups)
EXACT = 1e6  # rank added to a record named by the whole query
NAMED_LOOKUP = 1.0  # a lookup: rank x (1 + NAMED_LOOKUP x words of the run naming the record)
NAMED_QUESTION = 0.15  # a question: the same for runs of two words or more, weaker
# a race's one-word name is not an English word the way an SAI's (Fly, Charge) or a spell's is, so in a
# question it names the race too ("can dragonkin be pulled back into the reserves": the Dragonkin record,
# whose text is the race's rules; issue 23, nineteenth pass)
QUESTION_SINGLE_WORD_NAMES = ("race",)
KIND_PREFERENCE = 1.6  # rank x this for the kind of record the query asks for ("which SAI ...")
# the sections whose rules hold for every record of a kind: a question asking for that kind ("an SAI that
# says during any action, can I use it on my save roll") is answered by one of its records or by them, so
# they share its KIND_PREFERENCE (2012 "Special Action Icons - General Information": Application,
# Resolution, Targeting; v4 "Special Action Icons (SAIs)"; 1996 "Special Action Icons" and the FAQ's
# "Monster Special Action Icons: General Rules"). The spells' (2012 "Spell Attributes") were measured and
# left out: "which spell ..." asks for a spell by its effect (docs/search.md, nineteenth pass)
GENERAL_RULES = {"sai": ("sfr-2012:special-action-icons-general-information", "sfr-v4:special-action-icons-sais",
                         "tsr-1996:special-rules.special-action-icons",
                         "tsr-1996:faq.monster-special-action-icons.general-rules")}
EDITION_PREFERENCE = 2.5  # rank x this for the edition the query names ("old TSR rules")
# in a question, every hit of a family after its best one (``Searcher.family``): glossary lines (issue 23,
# tenth pass), the FAQ's rulings of one topic (eleventh pass)
FAMILY_AGAIN = 0.7
KIND_NAMED_WEIGHT = 2.0  # in a question naming a spell and an SAI, the weight of the words "spell" and "SAI"
UNIT_IN_QUESTION = 0.5  # a unit record (a name, a line of icons) answers a lookup, rarely a question
# the 2-Player Starter Rules restate the full game in short sections, which BM25's length normalization
# favours: unless a query names an edition, a section of the starter's own (no other edition has its
# heading or record) counts this much less, so the full rules' own wording answers before the summary's
STARTER_EDITION, STARTER_WEIGHT = "sfr-v4", 0.85
# a question's score for a long section moves this share of the way up to its best passage's, when that
# is higher (index.build: passage-level evidence): the section saying the answer in one sentence is not
# outranked by a short text saying two of the question's words. All the way (a section scores as its best
# passage, Callan's MaxPsg) since the twelfth pass of issue 23; 0.4 before, when sections had fewer players' words
PASSAGE_SHARE = 1.0
# a question's score gains this times the score of each two of its words following each other that a text
# has in that order (index.build's PAIR_SCOPE, the sequential dependence model's ordered pairs): the weight
# cross-validated on the tuning half, from 0.1 to 0.4 (docs/search.md, twentieth pass)
PAIR_WEIGHT = 0.2
MAX_ALIAS_WORDS = 4
# a question's word that English uses more than the books do ("go", "put", "things") frames the question
# more than it says what it is about: its own spelling weighs less (its synonyms, the books' words, do not)
SPECIFIC, PLAIN_SLOPE, PLAIN_FLOOR = 0.5, 0.3, 0.4
QUESTION_WORDS = 4  # a query of this many words that are not stop words is a question
MAX_NAME_EDITS = 2  # a lookup this close to a record's whole name is that name ("lightening strik")
TYPE_ORDER = ("spell", "sai", "race", "unit", "glossary", "ruling", "rule")
EDITION_ORDER = ("sfr-2012", "sfr-v4", "tsr-1996")
PHRASE_FIELDS = ("title", "names", "context", "body")
NAME_FIELDS = ("title", "names")

# the first word of a question ("how does charge work", "can amazons cast spells in reserve")
ASKING = frozenset(
    "what whats how can cant could does doesnt do dont did is isnt are arent was which who when why where "
    "should will would if am may must has have".split()
)
# words naming a kind of record: in a question they prefer that kind instead of being searched for
KIND_WORDS = {"spell": "spell", "spells": "spell", "sai": "sai", "sais": "sai", "icon": "sai", "icons": "sai",
              "race": "race", "races": "race", "ruling": "ruling", "rulings": "ruling", "faq": "ruling",
              "mean": "glossary", "means": "glossary", "meaning": "glossary", "definition": "glossary",
              "define": "glossary"}
# words that frame a question rather than say what it is about
FILLER = frozenset("work works working happen happens thing things way ways anything something still also "
                   "need needs use using let lets make makes making really actually exactly".split())
RELATIVE = frozenset("that which who whose where when while if".split())  # "sai that shoots back": a description
ASKING_FOR = frozenset("which what whats any some".split())  # "which SAI", "any spell"
KIND_FOLLOWERS = frozenset("that which to where who for lets letting gives giving makes making".split())
# ("spell that", "SAI where", "icon to"; not "a spell with a duration", which is about spells)
# words naming an edition, alone or before a word of EDITION_NOUNS ("old rules", "new edition")
EDITION_WORDS = {"tsr": "tsr-1996", "1996": "tsr-1996", "v4": "sfr-v4", "2012": "sfr-2012",
                 "sfr2012": "sfr-2012", "sfrv4": "sfr-v4", "tsr1996": "tsr-1996"}
EDITION_ADJECTIVES = {"old": "tsr-1996", "original": "tsr-1996", "revised": "tsr-1996", "new": "sfr-2012",
                      "current": "sfr-2012", "starter": "sfr-v4"}
EDITION_NOUNS = frozenset("rules rule edition editions version rulebook book game games".split())


@dataclass(frozen=True)
class Hit:
    """One ranked answer (the API the CLI and the relevance tests code against)."""

    kind: str  # "spell" | "sai" | "rule" | "ruling" | "glossary" | "race" | "unit"
    id: str  # the record id; for kind "rule" the section id
    edition: str  # sfr-2012 | sfr-v4 | tsr-1996: the edition shown (the best-matching one)
    title: str  # spell/SAI/race/unit name, section heading, ruling "Topic (A)", glossary term
    snippet: str  # plain text (about 180 characters) around the sentence holding most query words
    highlights: tuple[tuple[int, int], ...]  # (start, end) offsets into snippet of matched words
    score: float  # the BM25F score of the edition shown
    source: str  # the section id the record cites (for a rule: its own id)
    editions: tuple[str, ...] = ()  # every edition this hit stands for, the shown one first
    members: tuple[tuple[str, str], ...] = ()  # (edition, id) of the same record or heading in each of them


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
    phrases: list[tuple[tuple[str, ...], float]] = field(default_factory=list)
    scope: str = "all"  # or "name": the title and aliases only
    plain: float = 1.0  # the weight of the word's own stems: less for a word of English more than of the books
    standing: set[str] = field(default_factory=set)  # stems a two-word phrase stands for ("shoots back": volley)


@dataclass
class _Plan:
    """A parsed query turned into what to look up."""

    query: Query
    groups: list[_Group]  # the words' groups in the query's order (``sequence``), then its phrases' and fields'
    exact: set[str]
    warnings: list[str]
    named: dict[str, int] = field(default_factory=dict)  # record key -> words of the query naming it
    corrections: dict[str, list[str]] = field(default_factory=dict)
    expansions: dict[str, str] = field(default_factory=dict)
    ignored: set[Filter] = field(default_factory=set)  # fields whose value was not understood
    question: bool = False
    kinds: set[str] = field(default_factory=set)  # kinds of record the query's words prefer
    editions: set[str] = field(default_factory=set)  # editions the query's words prefer
    hints: set[str] = field(default_factory=set)  # the words read as a kind or edition (lower case)
    sequence: int = 0  # how many of ``groups`` are the query's words, in its order
    renamed: str = ""  # a misspelled whole name, as the record is named
    story: bool = False  # story:yes
    meant: set[str] = field(default_factory=set)  # records named by what the query's abbreviation stands for
    misspelled: bool = False  # a word is in neither the corpus nor the English dictionary
    edition_filtered: bool = False  # the one edition the query's words name held every hit
    # a FAQ ruling's document -> the query's groups it matches, one bit each (``_grouped``)
    matched: dict[int, int] = field(default_factory=dict)


class Searcher:
    """Searches over one built index's database."""

    def __init__(self, db: Store) -> None:
        self.db = db
        self.colors = {c for (cs,) in db.query("SELECT DISTINCT colors FROM search_docs") for c in cs.split()}
        rows = db.query("SELECT docnum, type, edition, grp, owner, hidden, section FROM search_docs ORDER BY docnum")
        self.kind = [r[1] for r in rows]
        self.edition = [r[2] for r in rows]
        self.group = [r[3] for r in rows]
        self.owner = [r[4] for r in rows]
        self.hidden = {r[0] for r in rows if r[5]}
        # a rule section or ruling of a kind's general rules (GENERAL_RULES) -> that kind
        self.general_of = {r[0]: kind for r in rows if r[1] in ("rule", "ruling")
                           for kind, sections in GENERAL_RULES.items()
                           if any(r[6] == s or r[6].startswith(s + ".") for s in sections)}
        # the family a document's group belongs to in a question (``_grouped``): every glossary line is
        # one (one definition answers), the FAQ's rulings of one topic another (``...dispel-magic.a`` to ``.g``)
        self.family: list[str | None] = [
            "glossary" if self.kind[o] == "glossary" else g.rpartition(".")[0] if self.kind[o] == "ruling" else None
            for g, o in zip(self.group, self.owner)]
        editions_of: dict[str, set[str]] = {}
        for r in rows:
            editions_of.setdefault(r[3], set()).add(r[2])
        self.shared = {g for g, es in editions_of.items() if len(es) > 1}
        self._passage_doc: dict[int, int] | None = None  # passage number -> document, read at the first question

    def search(self, text: str, edition: str | None = None, kind: str | None = None,
               limit: int = 10) -> SearchResult:
        """Hits for ``text``; ``edition`` and ``kind`` hold as well as the query's own fields."""
        plan = self._plan(parse(text))
        allowed = self._allowed(plan, edition, (kind,) if kind else ())
        if not plan.story and allowed is not None:
            allowed -= self.hidden
        if not plan.query.has_text:
            ranked = [(n, 0.0, ((self.edition[n], n),)) for n, _ in self._listing(allowed)][:limit] \
                if allowed is not None else []
        else:
            scored = self._ranked(plan, allowed)
            if len(plan.editions) == 1:  # "old TSR rules": that edition's hits, when it has any
                named = {n: r for n, r in scored.items() if self.edition[n] in plan.editions}
                if named:
                    scored, plan.edition_filtered = named, True
                    allowed = {n for n in (range(len(self.kind)) if allowed is None else allowed)
                               if self.edition[n] in plan.editions}
            ranked = self._grouped(scored, allowed, plan, limit)
        rows = self._hit_rows([n for _, _, members in ranked for _, n in members])
        return SearchResult(self._hits(ranked, rows, plan), tuple(plan.warnings), understood(plan))

    # -- reading the query --------------------------------------------------------

    def _plan(self, query: Query) -> _Plan:
        plan = _Plan(query, [], set(), list(query.warnings))
        plan.story = "yes" in query.values("story")
        words = [w.lower() for w in query.words]
        plan.question = _is_question(words, query)
        keep = self._hints(words, plan)
        kept = [words[i] for i in keep]
        slots = self._word_groups(kept, plan)
        self._aliases([query.words[i] for i in keep], slots, plan)
        plan.groups = [g for g in slots if g is not None]
        plan.sequence = len(plan.groups)
        plan.groups += [_Group(p, {}, [(terms(p), 1.0)]) for p in query.phrases if terms(p)]
        plan.groups += [_Group(p, {}, [(terms(p), 1.0)], "name") for p in query.name_phrases if terms(p)]
        plan.groups += [_Group(w, dict.fromkeys(terms(w), 1.0), [], "name") for w in query.name_words if terms(w)]
        plan.exact = self._exact(query, kept, plan)
        plan.named = {k: n for k, n in self._named([query.words[i] for i in keep]).items() if k not in plan.exact}
        if plan.question and {key.partition("/")[0] for key in plan.named} >= {"spell", "sai"}:
            # "does the ash storm -1 come off the saves i got from a fly icon": how a spell and an SAI meet
            # is settled by the general rules of both (sfr-2012:special-action-icons-general-information,
            # "any result ... generated by an SAI, cannot be modified by spells"), which name neither
            plan.groups += [_Group(kind, dict.fromkeys(terms(kind), KIND_NAMED_WEIGHT),
                                   [(terms(p), KIND_NAMED_WEIGHT) for p in phrases])
                            for kind, phrases in (("spell", ()), ("sai", ("special action icon",)))]
        if not query.has_text and not query.filters:
            plan.warnings.append("empty query: give some words or a field such as type:spell")
        return plan

    def _hints(self, words: list[str], plan: _Plan) -> list[int]:
        """Where the query's words are, less those naming an edition (always) or a kind of record
        (in a question), which become preferences; all of them when nothing else would be left."""
        kept: list[int] = []
        for i, word in enumerate(words):
            following = words[i + 1] if i + 1 < len(words) else ""
            previous = words[i - 1] if i else ""
            if word in EDITION_WORDS:
                plan.editions.add(EDITION_WORDS[word])
            elif word in EDITION_ADJECTIVES and (following in EDITION_NOUNS or following in EDITION_WORDS):
                plan.editions.add(EDITION_ADJECTIVES[word])
            elif word in EDITION_NOUNS and (previous in EDITION_ADJECTIVES or previous in EDITION_WORDS):
                pass
            elif plan.question and word in FILLER:
                continue  # "how does charge work", "let one unit ...": the question's frame, not its subject
            elif plan.question and word in KIND_WORDS and _asks_for_kind(i, words):
                plan.kinds.add(KIND_WORDS[word])
            else:
                kept.append(i)
                continue
            plan.hints.add(word)
        if not [i for i in kept if terms(words[i])]:
            plan.editions.clear()
            plan.kinds.clear()
            plan.hints.clear()
            return list(range(len(words)))
        return kept

    def _word_groups(self, words: list[str], plan: _Plan) -> list[_Group | None]:
        """A group per free word (None for a stop word): its stem, its synonyms, and the corrections
        of a word that neither the corpus nor the English dictionary has (or of two words the books
        write as one)."""
        known = self.db.known(words, {s for w in words for s in terms(w)})
        slots: list[_Group | None] = []
        taken = False  # the word was the second of a two-word phrase ("shoots back")
        for i, word in enumerate(words):
            group = _Group(word, dict.fromkeys(terms(word), 1.0)) \
                if (terms(word) or (word.isdigit() and synonyms_of(word))) and not taken else None  # "4": "four"
            phrase = phrase_of(word, words[i + 1] if i + 1 < len(words) else "")
            if group:
                for synonym in synonyms_of(word):
                    _add(group, synonym, weight(word, synonym) if word in SYNONYMS else
                         weight(stem(word), synonym))
                for synonym in phrase:
                    _add(group, synonym, 1.0)
                    group.standing.update(terms(synonym))
            taken = bool(group and phrase)
            slots.append(group)
        joined = self._joined(words, slots, known, plan)
        unknown = [w for i, (w, g) in enumerate(zip(words, slots))
                   if g and i not in joined and w not in known and not set(terms(w)) <= known
                   and not synonyms_of(w) and w.isalpha()]
        english = self.db.english(unknown) if unknown else set()
        for i, (word, group) in enumerate(zip(words, slots)):
            if word in unknown and word not in english:
                plan.misspelled = True
                self._correct(group, plan)
        if plan.question:
            specific = self.db.specificity(w for w, g in zip(words, slots) if g)
            for word, group in zip(words, slots):
                if group and word in specific:
                    group.plain = _plainness(specific[word])
        return slots

    def _joined(self, words: list[str], slots: list[_Group | None], known: set[str], plan: _Plan) -> set[int]:
        """Two neighbouring words that the books write as one ("bulls eye"): both match it."""
        pairs = {words[i] + words[i + 1]: i for i in range(len(words) - 1) if slots[i] and slots[i + 1]}
        found: set[int] = set()
        for word in self.db.known(pairs) - known:
            i = pairs[word]
            for s in terms(word):
                slots[i].stems.setdefault(s, 1.0)
                slots[i + 1].stems.setdefault(s, 1.0)
            plan.corrections[f"{words[i]} {words[i + 1]}"] = [word]
            found |= {i, i + 1}
        return found

    def _correct(self, group: _Group, plan: _Plan) -> None:
        fixed = corrections(self.db, group.word)
        if fixed:
            plan.corrections[group.word] = fixed
        for alternative in fixed:
            for s in terms(alternative):
                group.stems.setdefault(s, CORRECTION_WEIGHT)

    def _aliases(self, words: Sequence[str], slots: list[_Group | None], plan: _Plan) -> None:
        """Let an alias or abbreviation ("TRtM", "Vagha", "coral elf") also match what it stands for.

        The expansion joins the group of the alias's last word; two-letter
        abbreviations (AM, DW, LE) count only when written in capitals. An
        abbreviation in the plural ("SAIs", "DUAs") stands for what it does.
        """
        grams = _runs(words)
        # an abbreviation in the plural ("SAIs", "DUAs") stands for what its singular does
        singular = {k[:-1]: k for k in grams if k.endswith("s") and len(k) >= 3 and k[:-1] not in grams}
        found = self.db.aliases([*grams, *singular])
        for bare, (alias, expansion) in found.items():
            key = singular.get(bare, bare)
            if key != bare and key in found:
                continue  # the plural is a name of its own
            i, n = grams[key]
            typed = words[i] if key == bare else words[i][:-1]
            if n == 1 and _lower_case_abbreviation(bare, typed):
                continue
            expanded = terms(expansion)
            last = slots[i + n - 1]
            if last is None:
                last = slots[i + n - 1] = _Group(words[i + n - 1].lower(), {})
            plan.expansions[alias if key == bare else " ".join(words[i:i + n])] = expansion
            if len(expanded) == 1:
                last.stems.setdefault(expanded[0], 1.0)
            elif expanded:
                last.phrases.append((expanded, 1.0))

    def _exact(self, query: Query, words: list[str], plan: _Plan) -> set[str]:
        """Keys of the records named exactly by the whole query (or by what its alias stands for),
        or, for a lookup that names nothing exactly, by a name it misspells."""
        whole = slug(" ".join(words)).replace("-", "")
        # what an alias stands for, when the alias is the whole query ("DUA", "Vagha")
        meant = {slug(e).replace("-", "") for a, e in plan.expansions.items() if slug(a).replace("-", "") == whole}
        names = [" ".join(words)] if words else []
        names += [*query.name_phrases, " ".join(query.name_words)]
        keys = ({slug(n).replace("-", "") for n in names} | meant) - {""}
        rows = self.db.names_of(EXACT_NAME_KINDS, keys)
        found = {record for _kind, _key, record in rows}
        plan.meant = {record for _kind, key, record in rows if key in meant}  # "DUA": Dead Unit Area first
        if found or plan.question or not words or query.phrases or not plan.misspelled:
            return found  # (a name is looked for only when a word is neither the books' nor English)
        wanted = slug(" ".join(words)).replace("-", "")
        if len(wanted) < 5 or len(wanted) > 40:
            return found
        close = sorted((distance(wanted, k), k) for k in self.db.near_names(deletes(wanted)))
        close = [k for d, k in close if d <= min(MAX_NAME_EDITS, len(wanted) // 5) and d == close[0][0]]
        if close:
            rows = self.db.names_of(EXACT_NAME_KINDS, close)
            found = {record for _kind, _key, record in rows}
            plan.renamed = next((shown for (shown,) in self.db.query(
                "SELECT shown FROM names WHERE key = ? LIMIT 1", (close[0],))), "")
        return found

    def _named(self, words: list[str]) -> dict[str, int]:
        """Keys of the records named by a run of two or more of the query's words, or by one word for
        the kinds in SINGLE_WORD_NAMES ("acting army", "health worth", "undead"), with the run's length.
        A two-letter abbreviation names only in capitals, as in ``_aliases`` ("DW"; not "am i stuck")."""
        runs = _runs(words)
        named: dict[str, int] = {}
        for kind, key, record in self.db.names_of(EXACT_NAME_KINDS, runs):  # record keys are document keys
            i, n = runs[key]
            if n == 1 and _lower_case_abbreviation(key, words[i]):
                continue
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
                if f.negated == negated and f.field != "story":
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
                warnings.append(f"unknown color {typed(f.value)} ignored{_did_you_mean(f.value, self.colors)}")
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
            warnings.append(f"unknown race {typed(name)} ignored{_did_you_mean(name, self.db.shown_names('race'))}")
        return ids

    def _listing(self, allowed: set[int]) -> list[tuple[int, float]]:
        """Every allowed document in a stable order (a query of fields only)."""
        rows = self._docs(allowed, "type, edition, title")
        rows.sort(key=lambda r: (TYPE_ORDER.index(r["type"]), EDITION_ORDER.index(r["edition"]),
                                 r["title"].lower()))
        return [(r["docnum"], 0.0) for r in rows]

    # -- ranking --------------------------------------------------------------------

    def _ranked(self, plan: _Plan, allowed: set[int] | None) -> dict[int, tuple[float, float]]:
        """Every matching document: (its rank, its BM25F score)."""
        required = self._required(plan.query, allowed)
        if required is not None and not required:
            return {}
        candidates = required if required is not None else allowed
        score: defaultdict[int, float] = defaultdict(float)
        scores = [self._group_scores(group, candidates, plan.story) for group in _distinct(plan.groups)]
        for found in scores:
            for n, s in found.items():
                score[n] += s
        if plan.question:
            plan.matched = {n: sum(1 << bit for bit, found in enumerate(scores) if n in found)
                            for n in score if self.kind[n] == "ruling"}
        rank = dict(score)
        if plan.question:
            self._lift_by_passages(plan, rank)
            self._add_pairs(plan, rank, candidates)
        for n in self._exact_docnums(plan.exact, candidates):
            rank[n] = rank.get(n, 0.0) + EXACT
        for n in self._exact_docnums(plan.meant, candidates):  # what an abbreviation stands for leads it
            rank[n] += EXACT
        named = self._named_docnums(plan.named, candidates)
        for n, words in named.items():
            if n in rank and not plan.question:
                rank[n] *= 1 + NAMED_LOOKUP * words
            elif n in rank and (words > 1 or self.kind[n] in QUESTION_SINGLE_WORD_NAMES):
                rank[n] *= 1 + NAMED_QUESTION * words
        starter = not plan.editions
        for n in rank:      # one pass: a unit record in a question; a starter-only section, no edition named
            if plan.question and self.kind[n] == "unit" and named.get(n, 0) < 2:  # not the unit asked about
                rank[n] *= UNIT_IN_QUESTION
            if starter and self.edition[n] == STARTER_EDITION and self.group[n] not in self.shared:
                rank[n] *= STARTER_WEIGHT
        if plan.kinds or plan.editions:
            for n in rank:
                if plan.kinds and (self.kind[n] in plan.kinds or self.kind[self.owner[n]] in plan.kinds
                                   or self.general_of.get(n) in plan.kinds):
                    rank[n] *= KIND_PREFERENCE
                if plan.editions and self.edition[n] in plan.editions:
                    rank[n] *= EDITION_PREFERENCE
        for n in self._banned(plan.query) | (set() if plan.story else self.hidden):
            rank.pop(n, None)
        return {n: (r, score.get(n, 0.0)) for n, r in rank.items()}

    def _lift_by_passages(self, plan: _Plan, rank: dict[int, float]) -> None:
        """Move each ranked section's score PASSAGE_SHARE of the way up to its best passage's score
        for the query's words (a passage scores as a document does: its words' best spellings)."""
        if self._passage_doc is None:
            self._passage_doc = dict(self.db.query("SELECT pnum, docnum FROM passages"))
        summed: defaultdict[int, float] = defaultdict(float)
        for group in _distinct(plan.groups):
            if group.scope == "all":
                for p, s in self._group_scores(group, None, False, "passage").items():
                    summed[p] += s
        best: dict[int, float] = {}
        for p, s in summed.items():
            n = self._passage_doc[p]
            if n in rank and s > best.get(n, rank[n]):
                best[n] = s
        for n, s in best.items():
            rank[n] += PASSAGE_SHARE * (s - rank[n])

    def _add_pairs(self, plan: _Plan, rank: dict[int, float], candidates: set[int] | None) -> None:
        """Add PAIR_WEIGHT times the score of every two following words of the question that a text has
        in that order, each word by its own spellings (weight 1: "8th" and "eighth")."""
        words = [g for g in plan.groups[:plan.sequence] if g.scope == "all"]
        for first, second in zip(words, words[1:]):
            found: dict[int, float] = {}
            for a in (s for s, w in first.stems.items() if w >= 1.0):
                for b in (s for s, w in second.stems.items() if w >= 1.0):
                    _merge_max(found, self._postings(PAIR_SCOPE, pair_term(a, b), candidates), 1.0)
            for n, s in found.items():
                if n in rank:
                    rank[n] += PAIR_WEIGHT * s

    def _grouped(self, ranked: dict[int, tuple[float, float]], allowed: set[int] | None, plan: _Plan,
                 limit: int) -> list[tuple[int, float, tuple[tuple[str, int], ...]]]:
        """The best ``limit`` hits: per group (a record across editions with its own sections, or a
        heading across editions), the best document shown, the others as its editions. The order
        is total (rank, then document number), so the first k hits never depend on ``limit``."""
        groups: dict[str, list[int]] = {}
        for n in ranked:
            groups.setdefault(self.group[n], []).append(n)
        best = {g: max((ranked[n][0], -n) for n in docs) for g, docs in groups.items()}
        if plan.question:  # one of a family answers; the others crowd the answers of other kinds out
            families: dict[str, list[str]] = {}
            for g, docs in groups.items():
                if (family := self.family[docs[0]]) is not None:
                    families.setdefault(family, []).append(g)
            for members in families.values():
                said = 0  # the query's groups its better members match
                for i, g in enumerate(sorted(members, key=best.__getitem__, reverse=True)):
                    # a ruling matching a word of the question that no better ruling of its topic matches
                    # answers something else ("charm ... when a dragon attacks": Charm (E), the second
                    # ruling E, is the one naming dragon attacks), so it keeps its place
                    words = 0  # (glossary lines have none: each answers its own word)
                    for n in groups[g]:
                        words |= plan.matched.get(n, 0)
                    if i and not words & ~said:
                        best[g] = (best[g][0] * FAMILY_AGAIN, best[g][1])
                    said |= words
        hits = []
        for g in heapq.nlargest(limit, best, key=best.__getitem__):
            docs = sorted(groups[g], key=lambda n: (-ranked[n][0], n))
            members: dict[str, int] = {}
            for n in docs:  # best first: per edition, the record (rather than its own section)
                shown = self.owner[n] if allowed is None or self.owner[n] in allowed else n
                members.setdefault(self.edition[n], shown)
            if plan.editions:
                members = dict(sorted(members.items(), key=lambda m: m[0] not in plan.editions))
            lead = next(iter(members.values()))
            hits.append((lead, ranked.get(lead, ranked[docs[0]])[1], tuple(members.items())))
        return hits

    def _group_scores(self, group: _Group, candidates: set[int] | None, story: bool,
                      scope: str = "") -> dict[int, float]:
        """Per document (per passage for ``scope`` "passage"), the best score among the group's
        spellings (a phrase needs all its words)."""
        best: dict[int, float] = {}
        scope = scope or group.scope
        # spellings that are the same word ("8th" and "eighth", "4" and "four": weight 1) are one term, as
        # rare as its most common spelling: the rarer spelling does not outrank the word the books use
        # (what a two-word phrase stands for is not a spelling of its first word: it keeps its own rarity)
        idf = self._idfs(scope, [t for t, w in group.stems.items() if w >= 1.0 and t not in group.standing])
        floor = min(idf.values(), default=0.0)
        own = terms(group.word) if group.plain < 1.0 else ()
        for s, w in group.stems.items():
            if s in idf:
                w *= floor / idf[s]
            if s in own:
                w *= group.plain
            _merge_max(best, self._postings(scope, s, candidates), w)
            if story and scope == "all":
                _merge_max(best, self._postings("story", s, candidates), w * STORY_WEIGHT)
        for phrase, w in group.phrases:
            _merge_max(best, self._all_of(scope, phrase, candidates), w)
        return best

    def _all_of(self, scope: str, stems: tuple[str, ...], candidates: set[int] | None) -> dict[int, float]:
        """Documents holding every one of ``stems``, scored by their sum."""
        found = self._postings(scope, stems[0], candidates)
        for s in stems[1:]:
            more = self._postings(scope, s, candidates)
            found = {n: v + more[n] for n, v in found.items() if n in more}
        return found

    def _idfs(self, scope: str, stems: list[str]) -> dict[str, float]:
        """The IDF of each of ``stems`` that is indexed (none asked for fewer than two)."""
        if len(stems) < 2:
            return {}
        keys = [f"{scope}:{s}" for s in stems]
        return {t.partition(":")[2]: idf for t, idf in self.db.query(
            f"SELECT term, idf FROM postings WHERE term IN ({','.join('?' * len(keys))})", keys) if idf}

    def _postings(self, scope: str, term: str, candidates: set[int] | None) -> dict[int, float]:
        """The documents holding ``term`` (among ``candidates``) with their BM25F scores for it."""
        row = self.db.query("SELECT docs, scores FROM postings WHERE term = ?", (f"{scope}:{term}",))
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
            for s in terms(word):
                docs = set(self._postings("name", s, required))
                required = docs if required is None else required & docs
        return None if required is allowed else required

    def _phrase_docs(self, stems: tuple[str, ...], fields: tuple[str, ...], within: set[int] | None) -> set[int]:
        """Documents where ``stems`` stand in a row in one of ``fields``.

        The postings narrow the search to the documents holding every word;
        a regular expression over their text then checks the order.
        """
        scope = "name" if fields == NAME_FIELDS else "all"
        candidates = within
        for s in stems:
            candidates = set(self._postings(scope, s, candidates))
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
            for s in terms(word):
                banned.update(self._postings("all", s, None))
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

    def _hit_rows(self, docnums: list[int]) -> dict[int, dict[str, Any]]:
        return {r["docnum"]: r for r in self._docs(set(docnums), "type, id, edition, title, section, body, story")}

    def _hits(self, ranked, rows: dict[int, dict[str, Any]], plan: _Plan) -> tuple[Hit, ...]:
        query = plan.query
        stems = [s for g in plan.groups for s in g.stems] + [t for g in plan.groups for p, _ in g.phrases for t in p]
        stems += [t for p in (*query.phrases, *query.name_phrases, *query.name_words) for t in terms(p)]
        prefixes = variants(stems)
        hits = []
        for n, score, members in ranked:
            row = rows[n]
            text, marks = snippet(row["body"] or row["story"], prefixes)
            if plan.story and row["story"] and row["body"]:  # story:yes: the story when it matches better
                told = snippet(row["story"], prefixes)
                if len(told[1]) > len(marks):
                    text, marks = told
            hits.append(Hit(kind=row["type"], id=row["id"], edition=row["edition"], title=row["title"],
                            snippet=text, highlights=tuple(marks), score=round(score, 3), source=row["section"],
                            editions=tuple(e for e, _ in members),
                            members=tuple((e, rows[m]["id"]) for e, m in members)))
        return tuple(hits)


def _is_question(words: list[str], query: Query) -> bool:
    """A question ("which SAI stops ...", "can amazons cast in reserve?") rather than a lookup that
    names something ("wall of fog", "coral elf trooper", "TRtM")."""
    if not words:
        return False
    return words[0] in ASKING or bool(RELATIVE.intersection(words[1:])) or \
        sum(1 for w in words if terms(w)) >= QUESTION_WORDS


def _plainness(specific: float) -> float:
    """The weight of a question word's own stems by how much likelier the word is in the books than in
    English (a log10 ratio): 1 from SPECIFIC up, less by PLAIN_SLOPE per tenfold below, at least
    PLAIN_FLOOR ("go" -2.4: 0.4; "take" -0.5: 0.7; "kill" 0.0: 0.85; "missile" 2.8: 1)."""
    return 1.0 if specific >= SPECIFIC else max(PLAIN_FLOOR, 1.0 - PLAIN_SLOPE * (SPECIFIC - specific))


def _asks_for_kind(i: int, words: list[str]) -> bool:
    """Whether the kind word ``words[i]`` names what the question asks for ("which SAI ...",
    "spell that ...", "sai where ...") rather than what it is about ("how do I pay for a spell")."""
    previous = words[i - 1] if i else ""
    following = words[i + 1] if i + 1 < len(words) else ""
    return i == 0 or previous in ASKING_FOR or following in KIND_FOLLOWERS or KIND_WORDS[words[i]] == "glossary"


def _lower_case_abbreviation(key: str, typed: str) -> bool:
    """Whether a one-word name or alias ``key`` of two letters was typed in lower case: AM, DW and LE
    name only in capitals ("am i stuck" is no Amazon), in the aliases a query expands as in the names
    its words run into."""
    return len(key) <= 2 and typed != typed.upper()


def _add(group: _Group, synonym: str, w: float) -> None:
    found = terms(synonym)
    if len(found) == 1:
        if group.stems.get(found[0], 0.0) < w:
            group.stems[found[0]] = w
    elif found:
        group.phrases.append((found, w))


def _runs(words: Sequence[str]) -> dict[str, tuple[int, int]]:
    """Every run of up to MAX_ALIAS_WORDS query words as a name slug without hyphens (how names
    and aliases are keyed) -> (where it starts, how many words), the first of equal runs."""
    found: dict[str, tuple[int, int]] = {}
    for n in range(1, MAX_ALIAS_WORDS + 1):
        for i in range(len(words) - n + 1):
            found.setdefault(slug(" ".join(words[i:i + n])).replace("-", ""), (i, n))
    return found


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
    parts = [plan.renamed.lower()] if plan.renamed else []
    for i, word in enumerate(query.words):
        if plan.renamed and word.lower() not in plan.hints:
            continue  # a misspelled whole name, shown as the record is named
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
    if plan.edition_filtered:  # the edition words were read as the edition they name
        parts = [p for p in parts if p.lower() not in plan.hints] + [f"edition:{e}" for e in sorted(plan.editions)]
    return " ".join(parts)
