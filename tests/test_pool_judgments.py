"""Pooled judgments of the relevance set (issue 23, tools/pool_judgments.py): a judge's answers land
under their question, checked, in place, and count as answers for the figures and the asked field."""

from __future__ import annotations

import yaml

from fast_yaml import load_yaml

import index.documents as documents
from index.documents import answering_refs
from tools.check_relevance_set import answers_to, shown
from tools.pool_judgments import main, merge

SET = """\
# a comment that must survive
- q: which elf bunch floats about in the sea
  expect:
    - race:coral-elf@sfr-2012
  why: "sfr-2012:coral-elves: the coral elves"
  quote: "Coral"

# another comment
- q: who owns the bones pile after a battle
  expect:
    - glossary:dead-unit-area@sfr-2012
  why: "sfr-2012:glossary-of-dragon-dice-terms.dead-unit-area-dua: the DUA"
  quote: "dead"
"""
POOL = [
    {"pair": "p1", "q": "who owns the bones pile after a battle", "ref": "glossary:killed-and-buried@sfr-2012"},
    {"pair": "p2", "q": "who owns the bones pile after a battle", "ref": "spell:wall-of-fog@sfr-2012"},
]
YES = {"pair": "p1", "answers": True, "why": "killing puts a unit in the DUA",
       "quote": "killing a unit (putting it in the DUA)"}


def _files(tmp_path, judged):
    questions, pool, said = tmp_path / "set.yaml", tmp_path / "pool.yaml", tmp_path / "judged.yaml"
    questions.write_text(SET, encoding="utf-8")
    pool.write_text(yaml.safe_dump(POOL), encoding="utf-8")
    said.write_text(yaml.safe_dump(judged), encoding="utf-8")
    return questions, pool, said


def test_judgments_land_under_their_question_with_the_comments_kept(tmp_path):
    questions, pool, said = _files(tmp_path, [YES, {"pair": "p2", "answers": "no"}])  # as a judge may write it
    assert merge(pool, said, (questions,)) == []
    text = questions.read_text(encoding="utf-8")
    assert "# a comment that must survive" in text and "# another comment" in text
    first, second = load_yaml(text)
    assert "also" not in first and "not_answering" not in first
    assert second["also"] == [{"ref": "glossary:killed-and-buried@sfr-2012", "why": YES["why"], "quote": YES["quote"]}]
    assert second["not_answering"] == ["spell:wall-of-fog@sfr-2012"]
    # a judge's answer answers: for the figures, and as the asked field of the record
    assert "glossary:killed-and-buried@sfr-2012" in answers_to(second)
    assert "spell:wall-of-fog@sfr-2012" not in answers_to(second)
    assert answering_refs(second) == ["glossary:dead-unit-area@sfr-2012", "glossary:killed-and-buried@sfr-2012"]


def test_a_second_round_adds_to_the_judgments(tmp_path):
    questions, pool, said = _files(tmp_path, [{"pair": "p2", "answers": False}])
    assert merge(pool, said, (questions,)) == []
    said.write_text(yaml.safe_dump([YES]), encoding="utf-8")
    assert merge(pool, said, (questions,)) == []
    second = load_yaml(questions.read_text(encoding="utf-8"))[1]
    assert [a["ref"] for a in second["also"]] == ["glossary:killed-and-buried@sfr-2012"]
    assert second["not_answering"] == ["spell:wall-of-fog@sfr-2012"]


def test_a_pair_judged_again_takes_its_new_judgment(tmp_path):
    questions, pool, said = _files(tmp_path, [YES, {"pair": "p2", "answers": False}])
    assert merge(pool, said, (questions,)) == []
    said.write_text(yaml.safe_dump([{"pair": "p1", "answers": False}, {**YES, "pair": "p2", "quote": "Wall of Fog"}]),
                    encoding="utf-8")
    assert merge(pool, said, (questions,)) == []
    second = load_yaml(questions.read_text(encoding="utf-8"))[1]
    assert [a["ref"] for a in second["also"]] == ["spell:wall-of-fog@sfr-2012"]
    assert second["not_answering"] == ["glossary:killed-and-buried@sfr-2012"]


def test_a_yes_must_quote_the_record_and_nothing_is_written_otherwise(tmp_path):
    questions, pool, said = _files(tmp_path, [{**YES, "quote": "the dead are sent to the graveyard"},
                                              {"pair": "p2", "answers": False}])
    problems = merge(pool, said, (questions,))
    assert len(problems) == 1 and "p1" in problems[0]
    assert questions.read_text(encoding="utf-8") == SET
    said.write_text(yaml.safe_dump([{"pair": "p9", "answers": True}]), encoding="utf-8")
    assert merge(pool, said, (questions,)) and questions.read_text(encoding="utf-8") == SET


def test_the_asked_field_files_a_question_under_the_judged_answers_too(tmp_path, monkeypatch):
    folder = tmp_path / "corpus" / documents.QUESTIONS_DIR
    folder.mkdir(parents=True)
    entry = load_yaml(SET)[1] | {"also": [{"ref": "glossary:killed-and-buried@sfr-2012", "why": "w", "quote": "q"}]}
    (folder / "tuning.yaml").write_text(yaml.safe_dump([entry]), encoding="utf-8")
    monkeypatch.setattr("index.corpus.ROOT", tmp_path / "corpus")
    asked = documents.asked_questions()
    assert asked["glossary/killed-and-buried"] == asked["glossary/dead-unit-area"] == [entry["q"]]


def test_a_missing_or_broken_file_is_a_message_not_a_traceback(tmp_path, capsys):
    broken = tmp_path / "broken.yaml"
    broken.write_text("pairs: [", encoding="utf-8")
    assert main(["merge", str(tmp_path / "missing.yaml"), str(broken)]) == 2
    assert main(["merge", str(broken), str(broken)]) == 2
    assert capsys.readouterr().err.count("pool_judgments: ") == 2


def test_a_pair_shows_its_reader_the_text_of_its_hit():
    """The race Dragonkin has no racial abilities: its pairs once showed an empty text, which a reader
    could only judge no. A pair shows what the record's hit shows (``shown``), which is never empty."""
    assert "six-sided units from expansion sets" in shown()["race:dragonkin@sfr-2012"][1]


def test_a_yes_may_quote_any_text_its_reader_was_shown(tmp_path):
    """A reader quotes the text the pool shows, which is the search's: a race's abilities (its section
    holds only its story) and a unit's size and class (generated, not in the books' words). The merge
    finds such quotes in the record's text as the relevance checker does."""
    questions, pool, said = _files(tmp_path, [
        {"pair": "p1", "answers": "yes", "why": "negation spares SAI magic",
         "quote": "subtracted from the acting army's non-SAI generated magic results"},
        {"pair": "p2", "answers": "yes", "why": "its size", "quote": "uncommon (medium) cavalry unit"}])
    pool.write_text(yaml.safe_dump([
        {"pair": "p1", "q": "who owns the bones pile after a battle", "ref": "race:frostwing@sfr-2012"},
        {"pair": "p2", "q": "who owns the bones pile after a battle", "ref": "unit:amazon-battle-rider@sfr-2012"},
    ]), encoding="utf-8")
    assert merge(pool, said, (questions,)) == []
    assert [a["ref"] for a in load_yaml(questions.read_text(encoding="utf-8"))[1]["also"]] == \
        ["race:frostwing@sfr-2012", "unit:amazon-battle-rider@sfr-2012"]
