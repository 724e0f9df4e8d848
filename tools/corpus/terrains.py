"""Extract terrain and eighth-face records from the three rule books.

What each edition states (read in full):

- tsr-1996 (000) "Basic Terms / Elements": the four terrain types and their two
  elements; "The Eighth Face / Special Icons": City, Standing Stones, Temple, Tower.
- sfr-v4 starter (001): "TERRAIN - EIGHTH FACE" gives the four icons, but the
  starter never names a terrain type nor its colors, so it yields no Terrain.
- sfr-2012 (002) "Basic Terms": six terrain types (Feylands and Wastelands
  added); "The Eighth Face"; advanced rules "Minor Terrains" (Bridge, Knoll,
  Village, Woods, each with one Disaster Face icon) and "Special Terrains"
  (Castle, Dragon's Lair, Grove, Vortex, frontier only).
"""

from __future__ import annotations

import re

from engine.records import EighthFace, Terrain

from .context import Context
from .documents import BY_ID
from .text import slug

ICONS = ("City", "Standing Stones", "Temple", "Tower")  # the four eighth-face icons, every edition
COLORS = {"black", "blue", "gold", "green", "red"}

# Terrain types each edition names; an edition stating fewer or more is a build error.
MAJOR = {
    "000": ("Coastland", "Flatland", "Highland", "Swampland"),
    "002": ("Coastland", "Flatland", "Highland", "Swampland", "Feyland", "Wasteland"),
}

NUMBER_WORDS = {
    "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
    "seven": 7, "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12,
}


# ---------------------------------------------------------------- helpers

def words(text: str) -> str:
    """One line of text: the sources wrap paragraphs across page breaks."""
    return re.sub(r"\s+", " ", text).strip()


def number(token: str) -> int:
    """'12' or 'twelve' -> 12 (sfr-v4 spells its numbers out)."""
    token = token.lower()
    return int(token) if token.isdigit() else NUMBER_WORDS[token]


def rule_body(text: str, start: int, end: int) -> str:
    """The rule paragraphs in text[start:end], without the examples that follow them.

    A paragraph opening in lower case continues the previous one across a page
    break (sfr-2012 Temple, Ivory dragons), so it is joined with a space.
    """
    paras: list[str] = []
    for para in re.split(r"\n\s*\n", text[start:end]):
        para = words(para)
        if not para:
            continue
        if para.startswith("Example"):
            break
        if paras and para[0].islower():
            paras[-1] += " " + para
        else:
            paras.append(para)
    return "\n\n".join(paras)


def section_span(ctx: Context, doc: str, head: str, tail: str) -> tuple[int, int]:
    """Offsets of the text between two anchors (anchors chosen to skip tables of contents)."""
    start = ctx.find(doc, head)
    return start, ctx.find(doc, tail, start + len(head))


# ---------------------------------------------------------------- terrains

def extract(ctx: Context) -> list[Terrain]:
    records = (
        _major(ctx, "000", "Each terrain consists of two elements.")
        # sfr-v4 (001) names no terrain type: nothing to extract.
        + _major(ctx, "002", "The following depicts the elements of the terrains:")
        + _minor(ctx, "002")
        + _special(ctx, "002")
    )
    return sorted(records, key=lambda r: (r.edition, r.id))


# "Coastland is blue and green (air and water)", "Feylands are green and red (water and fire)"
_ELEMENTS = re.compile(r"\b([A-Z][a-z]+land)s? (?:is|are) ([a-z]+) and ([a-z]+) \([a-z]+ and [a-z]+\)")


def _major(ctx: Context, doc: str, anchor: str) -> list[Terrain]:
    """Terrain types from the paragraph that gives each one's two elements."""
    text = ctx.text(doc)
    start = ctx.find(doc, anchor)
    end = text.find("\n", start)
    out = []
    for m in _ELEMENTS.finditer(text, start, end):
        name, colors = m.group(1), (m.group(2), m.group(3))
        if not set(colors) <= COLORS:
            raise ValueError(f"{doc}: {name} has unknown colors {colors}")
        # sfr-2012 prints the newer types in the plural ("Feylands are ..."): the name is the singular.
        out.append(Terrain(id=slug(name), name=name, edition=BY_ID[doc].edition,
                           kind="major", colors=colors, text=m.group(0), source=ctx.cite(doc, m.start())))
    _expect(doc, "terrain types", [t.name for t in out], MAJOR[doc])
    return out


# "Flood: This Disaster Face icon is found on the minor terrain with a Bridge ID icon. ..."
_DISASTER = re.compile(r"^(\w+): This Disaster Face icon is found on the minor terrain with an? (\w+) ID icon\..*$",
                       re.M)


def _minor(ctx: Context, doc: str) -> list[Terrain]:
    """sfr-2012 Advanced Rules / Minor Terrains: one die per Disaster Face icon."""
    start, end = section_span(ctx, doc, "Minor Terrains\n\nThe smaller", "\nSpecial Terrains\n")
    text = ctx.text(doc)
    # The icon table pairs each die (ID row) with its disaster; the paragraphs must agree.
    table = re.search(r"\t(.+)\nID\nDisaster\t(.+)\n", text[start:end])
    paired = dict(zip(table.group(1).split("\t"), (d.strip() for d in table.group(2).split("\t"))))
    out = []
    for m in _DISASTER.finditer(text, start, end):
        disaster, die = m.group(1), m.group(2)
        if paired.get(die) != disaster:
            raise ValueError(f"{doc}: {die}/{disaster} disagrees with the minor terrain icon table {paired}")
        # The minor terrain's colors are never stated per die: they must match the major terrain.
        out.append(Terrain(id=slug(die), name=die, edition=BY_ID[doc].edition, kind="minor",
                           colors=(), disaster=disaster, text=m.group(0), source=ctx.cite(doc, m.start())))
    _expect(doc, "minor terrains", [t.name for t in out], tuple(paired))
    return out


def _special(ctx: Context, doc: str) -> list[Terrain]:
    """sfr-2012 Advanced Rules / Special Terrains: gold-ink, frontier-only terrains."""
    start, end = section_span(ctx, doc, "Special Terrains\n\nWith the expansion", "\nDragonkin\n")
    text = ctx.text(doc)
    listed = re.search(r"There are four special terrains: (.+?)\. They come in all six color combinations\.",
                       text[start:end]).group(1)
    names = [n.strip() for n in re.split(r",|\band\b", listed) if n.strip()]
    out = []
    for name in names:
        at = ctx.find(doc, f"\n{name}: ", start) + 1
        if at > end:
            raise LookupError(f"{doc}: no rule paragraph for special terrain {name}")
        body = text[at:text.find("\n", at)]
        # "They come in all six color combinations": no colors belong to the terrain itself.
        out.append(Terrain(id=slug(name), name=name, edition=BY_ID[doc].edition, kind="special",
                           colors=(), frontier_only=True, text=body, source=ctx.cite(doc, at)))
    _expect(doc, "special terrains", names, ("Castle", "Dragon's Lair", "Grove", "Vortex"))
    return out


def _expect(doc: str, what: str, found, expected) -> None:
    if sorted(found) != sorted(expected):
        raise ValueError(f"{doc}: {what} {tuple(found)}, expected {tuple(expected)}")


# ---------------------------------------------------------------- eighth faces

# Where each edition lists the icons' rules: (first anchor, anchor just past the list).
EIGHTH_FACE_SPANS = {
    "000": ("The special icons that appear on the eighth face", "\nSpecial Rules\n"),   # "Special Icons"
    "001": ("Eighth Face icons\n", "\nRecruit a Unit\n"),                               # "TERRAIN - EIGHTH FACE"
    "002": ("Eighth Face Icons: The Special Location Icons", "\nMonsters\n"),           # "The Eighth Face"
}


def extract_eighth_faces(ctx: Context) -> list[EighthFace]:
    records = [face for doc in EIGHTH_FACE_SPANS for face in _eighth_faces(ctx, doc)]
    return sorted(records, key=lambda r: (r.edition, r.id))


def _eighth_faces(ctx: Context, doc: str) -> list[EighthFace]:
    """Each icon's rule: "City: If your army ..." (000, 002) or "City:" then its paragraph (001)."""
    start, end = section_span(ctx, doc, *EIGHTH_FACE_SPANS[doc])
    text = ctx.text(doc)
    # m.end() is where the rule itself starts, after "City:" and the blank line of 001's layout.
    heads = {name: re.compile(rf"^{re.escape(name)}:\s+", re.M).search(text, start, end) for name in ICONS}
    missing = [name for name, m in heads.items() if m is None]
    if missing:
        raise LookupError(f"{doc}: eighth face icons without a rule: {missing}")
    ordered = sorted(heads.items(), key=lambda kv: kv[1].start())
    out = []
    for i, (name, m) in enumerate(ordered):
        stop = ordered[i + 1][1].start() if i + 1 < len(ordered) else end
        out.append(EighthFace(id=slug(name), name=name, edition=BY_ID[doc].edition,
                              text=rule_body(text, m.end(), stop), source=ctx.cite(doc, m.end())))
    return out
