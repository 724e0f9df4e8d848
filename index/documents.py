"""The corpus as search documents: one flat row per searchable record or rule section.

A document has the fields the whoosh schema (``index.build``) declares: a
``title`` (the name players say), ``names`` (aliases, abbreviations, the
race of a unit), ``context`` (the headings above a section, a ruling's
topic), ``body`` (the rules text), ``story`` (a section's fiction, see
``index.story``: searched only with ``story:yes``), ``tags`` (the words of its
kind: "spell", "special action icon"), the facets the query language filters
on, and ``hidden``: "yes" for front matter (title pages, credits, a table of
contents) and sections of story alone, which the search leaves out unless asked
with ``story:yes`` (``ddref rule`` prints them as any other).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from .corpus import View, read_yaml, records, sections
from .story import split

# search type -> corpus kind ("rule" is a section, not a record)
TYPES: dict[str, str] = {
    "spell": "spell", "sai": "sai", "rule": "section", "ruling": "ruling",
    "glossary": "glossary", "race": "race", "unit": "unit",
}

FRONT_MATTER = ("front-matter", "credits")  # last part of a section id: the books' title pages and credits

TAGS = {
    "spell": "spell magic", "sai": "sai special action icon", "rule": "rule",
    "ruling": "ruling faq clarification", "glossary": "glossary term definition",
    "race": "race", "unit": "unit die",
}


def key(type_: str, edition: str, id_: str) -> str:
    """The unique key of a document: ``spell/sfr-2012/wall-of-fog``."""
    return f"{type_}/{edition}/{id_}"


def documents() -> Iterator[dict[str, Any]]:
    """Every search document, in corpus order, with its players' words (``players_words``) and the
    players' questions it answers (``asked_questions``)."""
    said, asked = players_words(), asked_questions()
    for d in _all_documents():
        d["words"] = " ; ".join(said.get(f"{d['type']}/{d['id']}", ()))
        d["asked"] = " ; ".join(asked.get(f"{d['type']}/{d['id']}", ()))
        yield d


def _all_documents() -> Iterator[dict[str, Any]]:
    yield from _spells()
    yield from _sais()
    yield from _races()
    yield from _units()
    yield from _rulings()
    yield from _glossary()
    yield from _rules()


WORDS_DIR = "words"  # corpus/words/<kind>.yaml: record id -> the ways players ask for it
QUESTIONS_DIR = "questions"  # corpus/questions/*.yaml: players' questions, each with the records answering it


def players_words() -> dict[str, list[str]]:
    """``type/id`` -> the phrases a player at the table would use to ask for what that record answers.

    Authored data (corpus/words/, one file per kind: ``spell.yaml``, ``sai.yaml``, ``rule.yaml``,
    ``glossary.yaml``, ``race.yaml``, ``ruling.yaml``), each entry written from the record's own rule text: the
    books say "missile", players say "bowmen shoot"; the books say "promote", players "grow into a
    bigger unit". A spell's or SAI's entry holds for every edition that prints it under that id; a
    rule section's is keyed by its section id. Searched as the ``words`` field (``index.build``).
    """
    from .corpus import ROOT

    found: dict[str, list[str]] = {}
    folder = ROOT / WORDS_DIR
    for path in sorted(folder.glob("*.yaml")) if folder.is_dir() else ():
        type_ = path.stem
        for id_, phrases in (read_yaml(path) or {}).items():
            found[f"{type_}/{id_}"] = [str(p) for p in phrases]
    return found


def answering_refs(question: dict) -> list[str]:
    """The refs (``kind:id@edition``) a relevance-set question is answered by: its writer's
    (``expect``), then those judges later found answering among the ranking's hits (``also``,
    tools/pool_judgments.py)."""
    return [*question["expect"], *(a["ref"] for a in question.get("also", ()))]


def asked_questions() -> dict[str, list[str]]:
    """``type/id`` -> the players' questions the record answers: the relevance set's tuning half.

    Each question of ``corpus/questions/`` (``q``) was written as players ask at the table, and
    the records answering it (``expect``, refs ``kind:id@edition``) were found by reading the
    rule text, the answering words quoted. A record is searched by the questions it is known to
    answer, as a search engine learns from its users' queries (doc2query written by people):
    a new question worded like an old one finds the old one's answer. Only the tuning half is
    here; the held-out half (tests/relevance/heldout.yaml), which measures the ranking, never
    is (tests/test_asked.py). A question is every edition's of the record it names, as a players'
    phrase is (an edition it names would otherwise lead the record's hit in a lookup of its name,
    where the editions are shown in their usual order). Searched as the ``asked`` field
    (``index.build``).
    """
    from .corpus import ROOT

    asked: dict[str, list[str]] = {}
    folder = ROOT / QUESTIONS_DIR
    for path in sorted(folder.glob("*.yaml")) if folder.is_dir() else ():
        for q in read_yaml(path) or ():
            for ref in answering_refs(q):
                type_, rest = ref.split(":", 1)
                said = asked.setdefault(f"{type_}/{rest.rsplit('@', 1)[0]}", [])
                if q["q"] not in said:  # one record in several editions
                    said.append(q["q"])
    return asked


def _doc(type_: str, record: View, title: str, body: str, *, names: str = "", context: str = "",
         section: str | None = None, story: str = "", hidden: bool = False, **facets: Any) -> dict[str, Any]:
    section = section or record.source.section
    return {
        "key": key(type_, record.edition, record.id), "type": type_, "id": record.id,
        "edition": record.edition, "title": title, "names": names, "context": context,
        "body": body, "story": story, "hidden": "yes" if hidden else "no", "tags": TAGS[type_], "section": section,
        "color": "", "race": "", "cost": None, "reserve": "", "cantrip": "", **facets,
    }


def _yes_no(value: bool | None) -> str:
    return {True: "yes", False: "no"}.get(value, "unknown")


def _spells() -> Iterator[dict[str, Any]]:
    race_names = _race_names()
    for s in records("spell"):
        racial = " ".join(race_names.get(r, r) + " racial spell" for r in s.lists if r != "basic")
        yield _doc("spell", s, s.name, s.text, names=" ".join(getattr(s, "aliases", ())),
                   context=f"{s.color} magic {s.duration} {racial}".rstrip(), color=s.color, race=" ".join(s.lists),
                   cost=s.cost, reserve=_yes_no(s.reserve), cantrip=_yes_no(s.cantrip))


def _sais() -> Iterator[dict[str, Any]]:
    for s in records("sai"):
        yield _doc("sai", s, s.name, s.text, names=" ".join(s.aliases), context=s.heading or "",
                   race=" ".join(s.races))


def _races() -> Iterator[dict[str, Any]]:
    for r in records("race"):
        # a race with no racial abilities (Dragonkin; v4's Firewalkers and Treefolk) is described by its
        # own text, which for those is rules, not story: its hit would otherwise show no text at all
        body = " ".join(f"{a.name}: {a.text}" for a in r.abilities) or r.text
        yield _doc("race", r, r.name, body, names=" ".join(r.aliases), color=" ".join(r.colors), race=r.id)


def _race_names() -> dict[str, str]:
    return {r.id: " ".join(dict.fromkeys((r.name, *r.aliases))) for r in records("race")}


# The sizes' other names: "The smallest six-sided units (called commons) have 1 health ... medium ...
# (called uncommons) ... largest ... (called rares)" (tsr-1996:basic-terms.health); sfr-v4's race tables
# head their columns SMALL 1-HEALTH, MEDIUM 2-HEALTH, LARGE 3-HEALTH (sfr-v4:racial-icons).
SIZE_WORDS = {"common": "small", "uncommon": "medium", "rare": "large"}


def _units() -> Iterator[dict[str, Any]]:
    race_names = _race_names()
    for u in records("unit"):
        klass = u.unit_class.replace("-", " ")
        size = f"{u.size} ({SIZE_WORDS[u.size]})" if u.size in SIZE_WORDS else u.size
        body = f"{size} {klass} unit, {u.health} health." + (f" Icons: {', '.join(u.icons)}." if u.icons else "")
        yield _doc("unit", u, u.name, body, names=race_names.get(u.race or "", ""), context=klass,
                   race=u.race or "")


def _rulings() -> Iterator[dict[str, Any]]:
    for r in records("ruling"):
        yield _doc("ruling", r, f"{r.topic} ({r.letter})", r.text, context=r.part.title(),
                   section=r.source.section)


def _glossary() -> Iterator[dict[str, Any]]:
    for g in records("glossary"):
        names = " ".join((*g.aliases, g.expansion or ""))
        yield _doc("glossary", g, g.term, g.text or g.expansion or "", names=names)


def _rules() -> Iterator[dict[str, Any]]:
    table = sections()
    for s in table.values():
        rules, story = split(s.text)
        yield _doc("rule", s, s.heading, rules, story=story, context=" ".join(_ancestors(s, table)),
                   section=s.id, hidden=_front_matter(s) or (bool(story) and not rules.strip()))


def _front_matter(section: View) -> bool:
    """A title page, the credits, or a table of contents: no rule is written there."""
    return section.id.rpartition(":")[2].split(".")[-1] in FRONT_MATTER or section.text.strip() == "Table of Contents"


def _ancestors(section: View, table: dict[str, View]) -> list[str]:
    """The headings above a section, outermost first."""
    found: list[str] = []
    parent = section.parent
    while parent and parent in table:
        found.insert(0, table[parent].heading)
        parent = table[parent].parent
    return found
