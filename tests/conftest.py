"""Shared fixtures: the corpus as the installed package ships it."""

from __future__ import annotations

import pytest

from index.corpus import records, sections, source_text

DOCS = ("000", "001", "002", "003", "004")


@pytest.fixture(scope="session")
def texts() -> dict[str, str]:
    return {d: source_text(d) for d in DOCS}


@pytest.fixture(scope="session")
def all_sections():
    return sections()


@pytest.fixture(scope="session")
def corpus_records():
    return records
