"""index/query.py: the search query language, parsed without ever failing."""

from __future__ import annotations

import pytest
from hypothesis import given, strategies as st

from index.query import Filter, parse


def test_free_words_phrases_and_negations():
    q = parse('wall of fog "missile damage" -terrain -"dead unit"')
    assert q.words == ("wall", "of", "fog")
    assert q.phrases == ("missile damage",)
    assert q.not_words == ("terrain",) and q.not_phrases == ("dead unit",)
    assert not q.warnings


def test_fields_are_read_with_their_operators():
    q = parse("type:spell edition:v4 color:GREEN race:selumari cost<=4 cost>2 reserve:yes cantrip:n")
    assert q.filters == (
        Filter("type", ":", "spell"), Filter("edition", ":", "sfr-v4"), Filter("color", ":", "green"),
        Filter("race", ":", "selumari"), Filter("cost", "<=", "4"), Filter("cost", ">", "2"),
        Filter("reserve", ":", "yes"), Filter("cantrip", ":", "no"),
    )
    assert parse("cost:3").filters == (Filter("cost", "=", "3"),)


def test_several_values_and_negated_fields():
    q = parse("type:spell,sai -color:red")
    assert q.values("type") == ("spell", "sai")
    assert q.filters[-1] == Filter("color", ":", "red", negated=True)
    assert parse("edition:all").filters == ()


def test_name_field_takes_words_and_phrases():
    q = parse('name:fog name:"wall of"')
    assert q.name_words == ("fog",) and q.name_phrases == ("wall of",) and q.has_text


@pytest.mark.parametrize("text, says", [
    ("foo:bar fog", "unknown field 'foo'"),
    ("cost>=x", "cost needs a number"),
    ("color>=3", "color takes ':'"),
    ("reserve:maybe", "unknown reserve 'maybe'"),
    ("type:spel", "unknown type 'spel'"),
    ('"unclosed phrase', "unclosed quote"),
])
def test_what_cannot_be_understood_is_ignored_with_a_warning(text, says):
    q = parse(text)
    assert any(says in w for w in q.warnings), q.warnings


def test_unclosed_quote_still_searches_the_phrase():
    assert parse('lightning "next turn').phrases == ("next turn",)


@given(st.text(max_size=80))
def test_parsing_never_fails(text):
    q = parse(text)
    assert all(isinstance(w, str) for w in q.warnings)


@pytest.mark.parametrize("text, words", [
    ("ash storm -1", ("ash", "storm", "minus", "1")),
    ("+2 saves", ("plus", "2", "saves")),
])
def test_a_signed_number_is_a_penalty_or_bonus_not_a_negation(text, words):
    """Issue 23: "does ash storm -1 apply to SAIs" had "-1" read as "not 1"."""
    q = parse(text)
    assert q.words == words and not q.not_words


def test_story_field_is_a_yes_no_field():
    assert parse("wyrm story:yes").filters == (Filter("story", ":", "yes"),)
    assert parse("wyrm story:maybe").warnings
