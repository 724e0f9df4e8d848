"""Split a normalized document into its section tree. (First cut: one root section.)"""

from engine.records import Document, Section


def split_sections(doc: Document, text: str) -> list[tuple[Section, int]]:
    root = Section(id=f"{doc.edition}:doc-{doc.id}", document=doc.id, edition=doc.edition,
                   heading=doc.title, parent=None, order=0, level=1, text=text)
    return [(root, 0)]
