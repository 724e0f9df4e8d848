"""What every extractor is given: the normalized texts and their section trees."""

from __future__ import annotations

import bisect
from dataclasses import dataclass, field

from engine.records import Section, Source

from .documents import BY_ID


@dataclass
class Context:
    texts: dict[str, str]                      # document id -> normalized text
    sections: dict[str, list[Section]]         # document id -> sections in document order
    starts: dict[str, list[int]] = field(default_factory=dict)  # document id -> start offset per section
    extracted: dict[str, list] = field(default_factory=dict)    # record file -> records built so far

    def text(self, doc: str) -> str:
        return self.texts[doc]

    def section_at(self, doc: str, offset: int) -> Section:
        """The deepest section whose span holds ``offset`` (sections are contiguous)."""
        i = bisect.bisect_right(self.starts[doc], offset) - 1
        return self.sections[doc][max(i, 0)]

    def cite(self, doc: str, offset: int) -> Source:
        return Source(edition=BY_ID[doc].edition, document=doc, section=self.section_at(doc, offset).id)

    def find(self, doc: str, needle: str, start: int = 0) -> int:
        """Offset of ``needle`` in a document; a missing needle is a build error, never silent."""
        i = self.texts[doc].find(needle, start)
        if i < 0:
            raise LookupError(f"{doc}: {needle!r} not found after offset {start}")
        return i
