"""The ranking's statistics (issue 23): what the BM25F scores are computed over."""

from __future__ import annotations

import ast
from array import array
from pathlib import Path

import pytest

from index import cache
from index.build import TEXT_FIELDS, _posting_rows
from index.search import search


def _doc(body: str) -> dict:
    return {f: "" for f in TEXT_FIELDS} | {"body": body}


def _scores(rows, term: str) -> dict[int, float]:
    row = next(r for r in rows if r["term"] == f"all:{term}")
    return dict(zip(array("I", row["docs"]), array("f", row["scores"])))


def test_a_words_rarity_counts_records_not_their_copies_in_each_edition():
    """One spell printed in three editions (one hit) holding "palsy" is as rare a match as one rule
    section holding "mire": both are one record of the corpus. Counted per document, the
    spell's word would weigh less for being printed three times."""
    docs = [_doc("palsy army"), _doc("palsy army"), _doc("palsy army"), _doc("mire army")]
    docs += [_doc(f"filler{n} army") for n in range(20)]
    groups = ["spell:palsy"] * 3 + ["rule:mire"] + [f"rule:{n}" for n in range(20)]
    rows = list(_posting_rows(docs, groups))
    palsy, mire = _scores(rows, "palsi"), _scores(rows, "mire")
    assert set(palsy) == {0, 1, 2} and set(mire) == {3}
    assert palsy[0] == mire[3]


def _index_imports(module: Path) -> set[str]:
    """The modules of the index package that ``module`` imports (``from .x import ...``), anywhere in it."""
    tree = ast.parse(module.read_text(encoding="utf-8"))
    return {f"{node.module}.py" for node in ast.walk(tree)
            if isinstance(node, ast.ImportFrom) and node.level == 1 and node.module}


def test_every_module_that_builds_the_index_is_part_of_its_key():
    """A change to the code that decides the index's documents, terms or scores must build a new
    index (an old cache would otherwise keep the old ranking): every module the build reaches is in
    ``BUILDERS``, whose source the index key digests. (``search`` is imported by the build for a
    constant only, ``store`` by ``spelling`` for a type: both read the index, neither fills it.)"""
    here = Path(cache.__file__).parent
    reached, todo = set(), ["build.py"]
    while todo:
        name = todo.pop()
        if name not in reached:
            reached.add(name)
            todo += _index_imports(here / name) - {"search.py", "store.py"}
    assert reached <= set(cache.BUILDERS), reached - set(cache.BUILDERS)


def test_a_change_to_the_build_code_changes_the_index_key(monkeypatch):
    before = cache.index_key()
    real = Path.read_bytes
    monkeypatch.setattr(Path, "read_bytes",
                        lambda self: real(self) + (b"\n# changed\n" if self.name == "build.py" else b""))
    assert cache.index_key() != before


@pytest.mark.parametrize("typed, written", [
    ("8th face", "eighth face"),
    ("4 health monster", "four health monster"),
    ("dmg to a dragon", "damage to a dragon"),
    ("colour of magic", "color of magic"),
    ("3rd turn", "third turn"),
])
def test_two_spellings_of_one_word_find_the_same(typed, written):
    """Spellings that are the same word (weight 1 in index.synonyms) are one term, as rare as its
    most common spelling: the rarer spelling ("8th", which Create Mountain prints once) does not
    outrank the texts that use the common one."""
    def top(query):
        return [f"{h.kind}:{h.id}" for h in search(query).hits[:3]]

    assert top(typed) == top(written)


@pytest.mark.parametrize("plural, singular, meaning", [
    ("SAIs", "SAI", "Special Action Icon"),
    ("DUAs", "DUA", "Dead Unit Area"),
    ("BUAs", "BUA", "Buried Unit Area"),
    ("AMs", "AM", "Amazons"),
])
def test_an_abbreviation_in_the_plural_stands_for_what_it_does(plural, singular, meaning):
    """Players write "SAIs" and "DUAs": the plural expands as the singular does ("what goes in BUAs")."""
    found, one = search(plural), search(singular)
    assert f"{plural} ({meaning})" in found.understood
    assert found.hits[0].id == one.hits[0].id  # what it stands for comes first, as for the singular
    asked = search(f"what goes in {plural}")
    assert f"{plural} ({meaning})" in asked.understood


def test_a_two_letter_abbreviation_in_the_plural_still_needs_capitals():
    assert "Amazons" not in search("ams").understood


def test_a_questions_plain_english_words_weigh_less_than_the_books_words():
    """A word English uses far more than the books ("go", "things") frames a question more than it says
    what the question is about: in a question its own spelling weighs less; the books' words
    ("missile", "terrain") and any word of a lookup keep their whole weight."""
    from index.query import parse
    from index.search import PLAIN_FLOOR, searcher

    s = searcher()
    specific = s.db.specificity(["terrain", "missile", "go", "things", "notaword"])
    assert specific["terrain"] > 2 and specific["missile"] > 2  # tenfold and more likelier in the books
    assert specific["go"] < -1 and specific["things"] < -1
    assert "notaword" not in specific
    plain = {g.word: g.plain for g in s._plan(parse("where do whole missile volleys go at a terrain")).groups}
    assert plain["missile"] == plain["terrain"] == 1.0
    assert plain["go"] == PLAIN_FLOOR and PLAIN_FLOOR <= plain["whole"] < 1.0
    assert all(g.plain == 1.0 for g in s._plan(parse("go whole")).groups)  # a lookup: as typed


def test_a_long_body_is_cut_into_passages_from_each_sentence():
    """Each passage starts at a sentence and runs on to PASSAGE_TERMS terms; a body shorter than one
    and a half passages, and a hidden one (story, front matter), has none."""
    from index.build import PASSAGE_TERMS, _passages

    sentence = " ".join(f"word{n}" for n in range(10)) + "."
    long_body = " ".join(sentence.replace("word", f"s{i}word") for i in range(12))  # 120 terms
    docs = [_doc(long_body) | {"hidden": "no"}, _doc(sentence) | {"hidden": "no"},
            _doc(long_body) | {"hidden": "yes"}]
    found = _passages(docs)
    assert {n for n, _ in found} == {0}
    assert found[0][1][0] == "s0word0" and found[1][1][0] == "s1word0"  # one from each sentence
    assert all(len(window) <= PASSAGE_TERMS for _, window in found)
    assert all(len(window) >= PASSAGE_TERMS // 2 for _, window in found)


def test_a_sections_one_answering_sentence_lifts_it_over_short_texts(monkeypatch):
    """A question answered by one sentence of a long section ("ties go to the acting army" in the
    maneuver section) lifts the section PASSAGE_SHARE of the way up to its best passage's score. (Asked
    in words no question of the tuning half uses: those would find the section by its asked field.)"""
    import index.search
    from index.query import parse

    s = index.search.searcher()
    plan = s._plan(parse("maneuver totals are equal, which army wins"))
    (answer,), = s.db.query("SELECT docnum FROM search_docs WHERE key = ?",
                            ("rule/sfr-2012/sfr-2012:the-turn-sequence.first-march.maneuver",))
    lifted = s._ranked(plan, None)[answer][0]
    monkeypatch.setattr(index.search, "PASSAGE_SHARE", 0.0)
    alone = s._ranked(plan, None)[answer][0]
    assert lifted > alone
    assert index.search.search("maneuver totals are equal, which army wins").hits[0].id == "sfr-2012:the-turn-sequence.first-march.maneuver"


def test_what_a_two_word_phrase_stands_for_keeps_its_own_rarity():
    """"shoots back" stands for Volley: "volley" is matched at its own IDF, not at the IDF of "shoot"
    (a spelling of the same word would be; the phrase is not one), so the more texts say "shoot",
    the less Volley would otherwise score for the phrase that names it."""
    from index.query import parse
    from index.search import searcher

    s = searcher()
    group = next(g for g in s._plan(parse("shoots back")).groups if "vollei" in g.stems)
    assert group.standing == {"vollei"}
    volley = s._postings("all", "vollei", None)
    assert s._group_scores(group, set(volley), False) == pytest.approx(volley)


@pytest.mark.parametrize("typed, meant", [
    ("shoots back", "vollei"), ("shooting back", "vollei"), ("shot back", "vollei"),
    ("ran away", "flee"), ("went back", "return"), ("knocked out", "elimin"), ("wiping out", "elimin"),
    ("shut down", "negat"), ("pulling back", "retreat"),
])
def test_a_two_word_phrase_is_read_in_every_form_of_its_verb(typed, meant):
    """index.synonyms.PHRASES names a verb once; its inflections and irregular forms mean the same."""
    from index.query import parse
    from index.search import searcher

    assert any(meant in g.stems for g in searcher()._plan(parse(typed)).groups)


def test_a_racial_spell_is_found_by_its_race():
    """A racial spell's document names its race (the books list each spell under its race): a
    player asks for "dwarf spell ..." where the spell's text never says "dwarf"."""
    from index.documents import documents

    context = {d["key"]: d["context"] for d in documents() if d["type"] == "spell"}
    assert {"Dwarf", "racial", "spell"} <= set(context["spell/sfr-2012/create-mountain"].split())
    assert "racial" not in context["spell/sfr-2012/open-grave"]  # a basic spell names no race
    assert search("dwarf spell to make a terrain count as highland").hits[0].id == "create-mountain"


def test_in_a_question_the_glossary_lines_after_the_best_one_weigh_less(monkeypatch):
    """One definition answers a question; the one-line entries of its neighbouring terms (Out of
    Play, Buried Unit Area, Buried, Any Unit in Play, Summoning Pool) had taken every first place
    from the rules that answer."""
    import index.search as ranking

    def glossary_lines(query):
        return sum(h.kind == "glossary" for h in ranking.search(query).hits[:5])

    query = "what is buried unit area and out of play for units"
    monkeypatch.setattr(ranking, "FAMILY_AGAIN", 1.0)
    without = glossary_lines(query)
    assert without >= 4
    monkeypatch.undo()
    assert glossary_lines(query) < without
    assert ranking.search(query).hits[0].kind == "glossary"  # the best definition keeps its place


def test_in_a_question_the_rulings_of_one_topic_after_the_best_one_weigh_less(monkeypatch):
    """The FAQ answers one topic in several rulings (Dispel Magic a to g); one answers a question, and the
    others had filled the first screen ahead of the SAI they are about."""
    import index.search as ranking

    query = "does my monster get to block magic aimed at its army"  # worded as no tuning question is
    topic = ("ruling", "tsr-1996:faq.monster-special-action-icons.dispel-magic")

    def first_three():
        return [(h.kind, h.id.rpartition(".")[0] if h.kind == "ruling" else h.id) for h in ranking.search(query).hits[:3]]

    monkeypatch.setattr(ranking, "FAMILY_AGAIN", 1.0)
    assert first_three().count(topic) >= 2
    monkeypatch.undo()
    assert first_three().count(topic) == 1
    assert ("sai", "dispel-magic") in first_three()


def test_a_ruling_that_matches_a_word_its_topics_better_rulings_do_not_keeps_its_place():
    """Charm (E) has two rulings; the second alone speaks of dragon attacks. Asked about Charm when a dragon
    attacks, it is the answer, and the family weight (every ruling of a topic after the best x0.7) had put it
    fifth, behind rulings of the same topic that match no word the first does not."""
    hits = search("does charm take over units during a dragon attack").hits
    assert "tsr-1996:faq.monster-special-action-icons.charm.e-2" in [h.id for h in hits[:3]]


@pytest.mark.parametrize("query", ["can a spell like ash storm lower my smite damage",
                                   "does mirage halve what my volley icons shoot"])  # worded as no tuning question is
def test_a_question_naming_a_spell_and_an_sai_finds_the_general_rule_of_both(monkeypatch, query):
    """Whether a spell's modifier touches an SAI's results is settled by the SAIs' general rules
    (sfr-2012:special-action-icons-general-information: a result generated by an SAI cannot be modified by
    spells), which name neither record; the records named had taken the first screen."""
    import index.search as ranking

    general = {"sfr-2012:special-action-icons-general-information",
               "sfr-2012:special-action-icons-general-information.resolution",
               "tsr-1996:special-rules.special-action-icons"}

    def first_general():
        return next((i for i, h in enumerate(ranking.search(query, limit=20).hits, 1) if h.id in general), 99)

    found = first_general()
    assert found <= 3
    monkeypatch.setattr(ranking, "KIND_NAMED_WEIGHT", 0.0)
    assert first_general() > found


@pytest.mark.parametrize("question, section", [
    ("an SAI that says it works in any roll, does that include a counter-maneuver",
     "sfr-2012:special-action-icons-general-information.application"),  # "During any roll: ... maneuver roll"
    ("which SAI results can a spell modify", "sfr-2012:special-action-icons-general-information"),
])
def test_a_question_asking_for_an_sai_finds_the_rules_every_sai_follows(question, section):
    """A question asking for an SAI is answered by an SAI or by the SAIs' general rules, which name
    none: those sections share the SAI's preference (index.search.GENERAL_RULES). Without it the first
    answers here ranked 6th and below the tenth."""
    from index.search import GENERAL_RULES, searcher

    assert {searcher().general_of[n] for n in _docnums(section)} == {"sai"}
    assert section in [h.id for h in search(question).hits[:3]]
    assert set(GENERAL_RULES) == {"sai"}  # the spells' general rules were measured and left out


def _docnums(section: str) -> list[int]:
    from index.search import searcher

    return [n for (n,) in searcher().db.query("SELECT docnum FROM search_docs WHERE section = ? AND type = 'rule'",
                                              (section,))]


@pytest.mark.parametrize("question, race", [
    ("what can treefolk do at a highland", "treefolk"),  # "Treefolk may, when at any terrain, ..."
    ("what is special about eldarim", "eldarim"),
])
def test_a_race_named_by_one_word_in_a_question_is_what_it_asks_about(question, race):
    """A race's one-word name (Treefolk, Eldarim) is no English word, so a question naming it asks about
    the race, as one naming a record by two words does: its record leads (7th and 4th without)."""
    first = search(question).hits[0]
    assert (first.kind, first.id) == ("race", race)


def test_a_two_letter_name_in_lower_case_names_nothing():
    """"am i stuck" is not Amazons (AM): a two-letter name counts only in capitals, in the names a
    query's words run into as in the abbreviations it expands."""
    from index.query import parse
    from index.search import searcher

    s = searcher()
    assert "race/sfr-2012/amazon" not in s._plan(parse("am i stuck with melee only there")).named
    assert "race/sfr-2012/amazon" in s._plan(parse("can AM shoot from reserves")).named


def test_following_terms_are_indexed_as_pairs_in_their_order():
    """The pair scope holds each two terms that follow each other, stop words left out as a query's
    are: "the dead unit area" is "dead unit" and "unit area", never "unit dead"."""
    from index.analysis import pair_term
    from index.build import _field_frequencies

    found = _field_frequencies([_doc("the dead unit area"), _doc("a unit, dead")], "body", pairs=True)
    assert set(found) == {pair_term("dead", "unit"), pair_term("unit", "area"), pair_term("unit", "dead")}
    assert set(found[pair_term("dead", "unit")]) == {0} and set(found[pair_term("unit", "dead")]) == {1}


def test_a_questions_words_in_a_texts_order_lift_that_text(monkeypatch):
    """"magic items" in that order in the Magical Items section ("magical items ... worth 1 health")
    lifts it into the first three for a question its words alone ranked 6th (PAIR_WEIGHT)."""
    import index.search

    question, section = "do magic items count toward my army's health", "sfr-2012:magical-items"
    assert section in [h.id for h in search(question).hits[:3]]
    monkeypatch.setattr(index.search, "PAIR_WEIGHT", 0.0)
    assert section not in [h.id for h in search(question).hits[:3]]
