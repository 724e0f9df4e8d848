"""The ranking's statistics (issue 23): what the BM25F scores are computed over."""

from __future__ import annotations

from array import array

from index.build import TEXT_FIELDS, _posting_rows


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
