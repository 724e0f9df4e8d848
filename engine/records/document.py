"""A source document and a section of its rules text."""

from __future__ import annotations

from .common import Edition, Record


class Document(Record):
    id: str            # "000" .. "004"
    file: str          # the raw file name under corpus/raw/
    edition: Edition
    title: str
    publisher: str
    year: str          # as printed: "1996", "2000-2012"
    copyright: str     # the copyright line, verbatim


class Section(Record):
    """One node of a document's section tree.

    ``id`` is ``<edition>:<slug>.<slug>...``, built from headings only, so it
    does not move when unrelated text changes.
    """

    id: str
    document: str
    edition: Edition
    heading: str
    parent: str | None
    order: int         # position in document order, 0-based
    level: int         # 1 = chapter
    text: str          # the section's own text, without its subsections
