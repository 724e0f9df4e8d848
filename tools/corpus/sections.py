"""Split a normalized document into its section tree, following an outline.

Each document has an outline in ``tools/corpus/outlines/<doc>.txt``: one
heading per line, indented two spaces per level, in document order.

* ``Heading``          a line of the text that is exactly this heading (so a
                       table-of-contents line, which ends in a page number,
                       is never taken for it);
* ``Heading:``         an inline heading: a paragraph that opens with "Heading:";
* ``Heading...``       a line that opens with this text;
* ``X = Shown``        match X, but call the section "Shown";
* ``@name``            a generator: every paragraph of the parent's span that
                       matches the named pattern (``GENERATORS``) becomes a child;
                       an indented block under it applies inside each child.

Explicit headings are searched in order, each after the previous one, so a
heading that also occurs earlier (in a table of contents, say) is found at
its real place; a heading that cannot be found is a build error.

Ids are ``<edition>:<slug>.<slug>...`` from the headings alone, so they stay put
when text around them changes. Documents that share an edition with another
get a prefix (003 ``multiplayer``, 004 ``faq``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from engine.records import Document, Section

from .text import slug

OUTLINES = Path(__file__).with_name("outlines")
ID_PREFIX = {"003": "multiplayer", "004": "faq"}

# Generators: a pattern whose group 1 is the heading of the generated child.
_INLINE_EXCLUDED = r"(?!(?:Example|Examples|Note|Important|EXAMPLE|Exceptions?) ?:)"
GENERATORS = {
    # a paragraph "Heading: text" (not an example or a note)
    "inline": re.compile(_INLINE_EXCLUDED + r"^([A-Z][A-Za-z0-9'&/ ()-]{1,48}?) ?:(?=\s)", re.M),
    # 002 racial abilities: "The Coral Elves: <lore>"
    "race": re.compile(r"^The ([A-Z][a-z]+(?: [A-Z][a-z]+)?): ", re.M),
    # 002 spell entries: "Name" followed by "Casting Cost: N"
    "spell": re.compile(r"^([^\n]+)\n(?=Casting Cost: \d+\n)", re.M),
    # 002 SAI list entries: "Name: Timing (rolls)"
    "sai": re.compile(
        r"^([A-Z][A-Za-z/ ()-]+?): (?=(?:Instant |Delayed|Late |Conditional|Normal|Special|Unique))", re.M
    ),
    # 004 lettered rulings are records, not sections; FAQ topics are listed explicitly.
    # 002 glossary: "Term: definition"
    "term": re.compile(r"^(?!This |The exception)\"?([A-Z0-9][^:\n]{0,90}?)\"?: ", re.M),
    # 001 SAI table rows: "<tab>Bullseye: During a missile action, ..."
    "tabbed": re.compile(r"^\t([A-Z][A-Za-z ]+): ", re.M),
    # 001 spell table rows: "<cost><tab>[X]<tab>[X]<tab>Hailstorm (Any): ..."
    "v4spell": re.compile(r"^\d+\t[X\t]*([A-Z][A-Za-z' ]+?) \(", re.M),
}


@dataclass
class Node:
    """One outline entry (explicit heading or generator) and its children."""

    raw: str
    level: int
    children: list[Node] = field(default_factory=list)

    @property
    def generator(self) -> str | None:
        return self.raw[1:] if self.raw.startswith("@") else None

    @property
    def inline(self) -> bool:
        """An inline or prefix heading opens a paragraph that belongs to its section."""
        return self.raw.partition(" = ")[0].endswith((":", "..."))

    @property
    def shown(self) -> str:
        match, _, shown = self.raw.partition(" = ")
        return (shown or match).rstrip(":").removesuffix("...").strip()

    @property
    def pattern(self) -> re.Pattern[str]:
        match = self.raw.partition(" = ")[0]
        if match.endswith("..."):
            return re.compile(r"^" + re.escape(match[:-3]), re.M)
        if self.inline:
            return re.compile(r"^" + re.escape(match) + r"(?=[ \t\n])", re.M)
        return re.compile(r"^" + re.escape(match) + r"$", re.M)


def parse_outline(text: str) -> list[Node]:
    roots: list[Node] = []
    stack: list[Node] = []
    for line in text.splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        indent = len(line) - len(line.lstrip(" "))
        if indent % 2:
            raise ValueError(f"outline: odd indentation in {line!r}")
        node = Node(raw=line.strip(), level=indent // 2 + 1)
        while stack and stack[-1].level >= node.level:
            stack.pop()
        if stack:
            if node.level != stack[-1].level + 1:
                raise ValueError(f"outline: {line!r} skips a level")
            stack[-1].children.append(node)
        elif node.level != 1:
            raise ValueError(f"outline: {line!r} has no parent")
        else:
            roots.append(node)
        stack.append(node)
    return roots


@dataclass
class Heading:
    start: int          # where the section begins (the heading line or paragraph)
    body: int           # where its text begins
    level: int
    shown: str


def _explicit(nodes: list[Node], text: str, pos: int, out: list[tuple[Heading, Node]]) -> int:
    """Find every explicit heading in order; returns the position after the last."""
    for node in nodes:
        if node.generator:
            out.append((Heading(-1, -1, node.level, ""), node))  # placeholder, expanded later
            continue
        m = node.pattern.search(text, pos)
        if not m:
            raise LookupError(f"outline heading {node.raw!r} not found after offset {pos}")
        # an inline heading keeps its paragraph as text; a heading line does not
        body = m.start() if node.inline else (text.find("\n", m.start()) + 1 or len(text))
        out.append((Heading(m.start(), body, node.level, node.shown), node))
        pos = _explicit(node.children, text, m.end(), out)
    return pos


def _generate(node: Node, text: str, start: int, end: int) -> list[Heading]:
    pattern = GENERATORS[node.generator]
    found = [m for m in pattern.finditer(text, start, end)]
    heads = []
    for i, m in enumerate(found):
        heads.append(Heading(m.start(), m.start(), node.level, m.group(1).strip()))
        child_end = found[i + 1].start() if i + 1 < len(found) else end
        for sub in node.children:
            heads.extend(_generate(sub, text, m.end(), child_end))
    return heads


def _headings(doc: Document, text: str) -> list[Heading]:
    outline = OUTLINES / f"{doc.id}.txt"
    if not outline.exists():
        return []
    roots = parse_outline(outline.read_text(encoding="utf-8"))
    found: list[tuple[Heading, Node]] = []
    _explicit(roots, text, 0, found)
    heads: list[Heading] = []
    for i, (head, node) in enumerate(found):
        if not node.generator:
            heads.append(head)
            continue
        parent = next(h for h, n in reversed(found[:i]) if not n.generator and n.level < node.level)
        # a generator's span ends at the next explicit sibling or higher heading
        nxt = [h.start for h, n in found[i + 1:] if not n.generator and n.level <= node.level]
        heads.extend(_generate(node, text, parent.body, nxt[0] if nxt else len(text)))
    heads.sort(key=lambda h: h.start)
    return heads


def split_sections(doc: Document, text: str) -> list[tuple[Section, int]]:
    """The document's sections in order, each with its start offset.

    A front-matter section (the text before the first heading) opens every
    document, so that every offset belongs to some section.
    """
    heads = _headings(doc, text)
    prefix = ID_PREFIX.get(doc.id)
    front = Heading(0, 0, 1, doc.title)
    if heads and heads[0].start == 0:
        front = None
    spans: list[tuple[Section, int]] = []
    path: list[tuple[int, str]] = []  # (level, id) of open ancestors
    used: set[str] = set()
    ordered = ([front] if front else []) + heads
    for order, head in enumerate(ordered):
        end = ordered[order + 1].start if order + 1 < len(ordered) else len(text)
        level = head.level + (1 if prefix else 0)
        if head is front:
            level, local = 1, prefix or "front-matter"
        else:
            local = slug(head.shown)
        while path and path[-1][0] >= level:
            path.pop()
        if prefix and not path and head is not front:
            path = [(1, f"{doc.edition}:{prefix}")]
        parent = path[-1][1] if path else None
        sid = f"{parent}.{local}" if parent else f"{doc.edition}:{local}"
        sid = _unique(sid, used)
        section = Section(
            id=sid, document=doc.id, edition=doc.edition, heading=head.shown, parent=parent,
            order=order, level=level, text=text[head.body:end].strip(),
        )
        spans.append((section, head.start))
        path.append((level, sid))
    return spans


def _unique(sid: str, used: set[str]) -> str:
    base, n = sid, 2
    while sid in used:
        sid, n = f"{base}-{n}", n + 1
    used.add(sid)
    return sid
