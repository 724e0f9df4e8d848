"""Extract dragon records: one per edition per kind of dragon, with faces and breaths.

What each edition states (read in full):

- tsr-1996 (000) "Basic Terms / Dragon": drakes (winged) and wyrms (wingless).
  "Dragon Rules": Belly, Breath (one effect per color), Claws 5, Jaws 10,
  Tail 3 and roll again, Treasure ("found only on wyrms"), Wing flies away with
  no damage ("found only on drakes"). "Dragon Slaying": 5 health, 5 automatic saves.
  Hence two records, "drake" and "wyrm", each with the faces its form bears.
- sfr-v4 starter (001) "DRAGONS": one face table (Claws six, Jaws twelve, Tail
  three, Wing five then flies away) and a single breath for every dragon
  (five health killed, no save); no drakes/wyrms, no colors: one "dragon" record.
- sfr-2012 (002) "Dragons" reference section: Claws 6, Jaws 12, Tail 3, Wing 5,
  one breath per color (black, blue, gold, green, ivory, red); the advanced
  "Hybrid Dragons", "Ivory Hybrid Dragons" and "White Dragons" sections.
  Records: elemental, ivory, hybrid, ivory-hybrid, white.
"""

from __future__ import annotations

import re

from engine.records import Breath, Dragon, DragonFace

from .context import Context
from .documents import BY_ID
from .terrains import number, rule_body, section_span, words

FACE_ORDER = ("belly", "breath", "claws", "jaws", "tail", "treasure", "wing")
_NUM = r"(\d+|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)"


def extract(ctx: Context) -> list[Dragon]:
    records = _tsr_1996(ctx, "000") + _sfr_v4(ctx, "001") + _sfr_2012(ctx, "002")
    return sorted(records, key=lambda r: (r.edition, r.id))


# ---------------------------------------------------------------- shared parsing

def face(ctx: Context, doc: str, name: str, text: str, at: int, **override) -> DragonFace:
    """A DragonFace whose numbers are read from its own rule text."""
    damage = re.search(rf"inflicts? {_NUM} points of damage", text, re.I)
    promotes = re.search(rf"\b{_NUM} units?\b[^.]*promot", text, re.I)
    fields = dict(
        face=name, text=text, source=ctx.cite(doc, at),
        damage=number(damage.group(1)) if damage else None,
        # tsr-1996 "rolls again", sfr "roll the dragon again", White "(and reroll)"
        roll_again=bool(re.search(r"rolls? (the dragon )?again|reroll", text)),
        flies_away=bool(re.search(r"flies away", text)),
        promotes=number(promotes.group(1)) if promotes and name == "treasure" else None,
    )
    fields.update(override)
    return DragonFace(**fields)


def _face_key(printed: str) -> str:
    """'Claws' -> 'claws', 'Dragons Breath' -> 'breath', 'Wings' -> 'wing', 'Tails' -> 'tail'."""
    key = printed.lower().split()[-1]
    return key if key in FACE_ORDER else key.rstrip("s")


def _ordered(faces: list[DragonFace]) -> tuple[DragonFace, ...]:
    keys = [f.face for f in faces]
    if len(set(keys)) != len(keys):
        raise ValueError(f"dragon face stated twice: {keys}")
    return tuple(sorted(faces, key=lambda f: FACE_ORDER.index(f.face)))


def _paragraph_at(text: str, at: int) -> str:
    """The rest of the line (paragraph) starting at ``at``."""
    end = text.find("\n", at)
    return text[at:end if end >= 0 else len(text)]


def _numbers(ctx: Context, doc: str, pattern: str, start: int = 0) -> tuple[int, ...]:
    m = re.compile(pattern).search(ctx.text(doc), start)
    if m is None:
        raise LookupError(f"{doc}: {pattern!r} not found")
    return tuple(number(g) for g in m.groups())


# ---------------------------------------------------------------- tsr-1996

def _tsr_1996(ctx: Context, doc: str) -> list[Dragon]:
    text = ctx.text(doc)
    edition = BY_ID[doc].edition
    # "Basic Terms / Dragon": the definition of the die and its two forms.
    at = ctx.find(doc, "Dragon: The single-color twelve-sided dice")
    definition = _paragraph_at(text, at)
    # "Dragon Slaying": "Each dragon has 5 health and 5 automatic saves".
    health, saves = _numbers(ctx, doc, rf"Each dragon has {_NUM} health and {_NUM} automatic saves")
    faces, breaths, only_on = _tsr_faces(ctx, doc)
    out = []
    for form in ("drake", "wyrm"):
        own = [f for f in faces if only_on.get(f.face, form) == form]
        out.append(Dragon(id=form, name=form.capitalize(), edition=edition, kind="elemental",
                          forms=(form,), health=health, saves=saves, faces=_ordered(own),
                          breaths=breaths, text=definition, source=ctx.cite(doc, at)))
    return out


_TSR_FACE = re.compile(r"^(Belly|Breath|Claws|Jaws|Tail|Treasure|Wing): (.*)$", re.M)
_TSR_BREATH = re.compile(r"^(Gold|Blue|Red|Green|Black)-([A-Z][A-Za-z ]+): (.*)$", re.M)


def _tsr_faces(ctx: Context, doc: str):
    """"Dragon Rules": each icon's paragraph; the breath colors follow Breath line by line."""
    start, end = section_span(ctx, doc, "Dragon Rules\n", "\nDragon Slaying\n")
    text = ctx.text(doc)
    faces, only_on = [], {}
    for m in _TSR_FACE.finditer(text, start, end):
        key = _face_key(m.group(1))
        faces.append(face(ctx, doc, key, m.group(2), m.start(2)))
        # "This icon is found only on wyrms." / "... only on drakes."
        only = re.search(r"found only on (drake|wyrm)s", m.group(2))
        if only:
            only_on[key] = only.group(1)
    breaths = tuple(Breath(color=m.group(1).lower(), name=m.group(2), text=m.group(3),
                           source=ctx.cite(doc, m.start()))
                    for m in _TSR_BREATH.finditer(text, start, end))
    _expect_colors(doc, breaths, ("black", "blue", "gold", "green", "red"))
    return faces, breaths, only_on


def _expect_colors(doc: str, breaths, expected) -> None:
    colors = sorted(b.color for b in breaths)
    if colors != sorted(expected):
        raise ValueError(f"{doc}: breath colors {colors}, expected {sorted(expected)}")


# ---------------------------------------------------------------- sfr-v4 starter

_V4_ROW = re.compile(r"^\t(Belly|Dragons Breath|Claws|Jaws|Tail|Treasure|Wing)\t(.*)$", re.M)


def _sfr_v4(ctx: Context, doc: str) -> list[Dragon]:
    text = ctx.text(doc)
    # "GET TO KNOW YOUR DICE / Twelve-sided": what a dragon is.
    at = ctx.find(doc, "Dragons - Dragons are magical creatures.")
    # "Dragon Attack Resolution" step 3: "A dragon has 5 health and 5 automatic saves".
    health, saves = _numbers(ctx, doc, rf"A dragon has {_NUM} health and {_NUM} automatic saves")
    start, end = section_span(ctx, doc, "Icon\tResult\tEffect\n", "\nSPECIAL ACTION ICONS")
    faces, breaths = [], []
    for m in _V4_ROW.finditer(text, start, end):
        key = _face_key(m.group(1))
        faces.append(face(ctx, doc, key, m.group(2), m.start(2)))
        if key == "breath":
            # The starter gives one breath, whatever the dragon's color.
            breaths.append(Breath(color=None, text=m.group(2), source=ctx.cite(doc, m.start(2))))
    return [Dragon(id="dragon", name="Dragon", edition=BY_ID[doc].edition, kind="dragon",
                   health=health, saves=saves, faces=_ordered(faces), breaths=tuple(breaths),
                   text=_paragraph_at(text, at), source=ctx.cite(doc, at))]


# ---------------------------------------------------------------- sfr-2012

_2012_FACE = re.compile(r"^(Belly|Breath|Claws|Jaws|Tail|Treasure|Wing)(?: \(dragon\))?: (.*)$", re.M)
_2012_BREATH = re.compile(r"^(Black|Blue|Gold|Green|Ivory|Red) Dragon Breath \(([^)]+)\): (.*)$", re.M)
ELEMENTAL = ("black", "blue", "gold", "green", "red")


def _sfr_2012(ctx: Context, doc: str) -> list[Dragon]:
    text = ctx.text(doc)
    edition = BY_ID[doc].edition
    # "Get to Know Your Dice / Twelve-sided": every dragon comes as a drake or a wyrm; the
    # book never ties an icon to one form, so each kind covers both.
    twelve = ctx.find(doc, "Twelve-sided: The twelve-sided dice are called dragons.")
    forms = ("drake", "wyrm")
    # "Dragon Attack Phase / Step 6": "Each dragon is worth 5-health and has 5 automatic saves".
    health, saves = _numbers(ctx, doc, rf"Each dragon is worth {_NUM}-health and has {_NUM} automatic saves")
    faces, breaths = _2012_general(ctx, doc)
    by_color = {b.color: b for b in breaths}

    def record(id_, name, kind, at, body, faces_, breaths_):
        return Dragon(id=id_, name=name, edition=edition, kind=kind, forms=forms, health=health, saves=saves,
                      faces=_ordered(faces_), breaths=tuple(breaths_), text=body, source=ctx.cite(doc, at))

    ivory_at = ctx.find(doc, "Ivory dragons: Ivory dragons are slightly different")
    hybrid_at, hybrid = _advanced(ctx, doc, "Hybrid Dragons", "\nIvory Hybrid Dragons\n")
    ivh_at, ivory_hybrid = _advanced(ctx, doc, "Ivory Hybrid Dragons", "\nWhite Dragons\n")
    # The general faces apply to every dragon; only White Dragons restates them.
    return [
        record("elemental", "Elemental Dragon", "elemental", twelve, _paragraph_at(text, twelve),
               faces, [by_color[c] for c in ELEMENTAL]),
        record("ivory", "Ivory Dragon", "ivory", ivory_at,
               rule_body(text, ivory_at, ctx.find(doc, "\nBelly", ivory_at)), faces, [by_color["ivory"]]),
        record("hybrid", "Hybrid Dragon", "hybrid", hybrid_at, hybrid, faces,
               [_combined_breath(ctx, doc, hybrid_at, "They generate one color of breath")]),
        record("ivory-hybrid", "Ivory Hybrid Dragon", "ivory-hybrid", ivh_at, ivory_hybrid, faces,
               [_combined_breath(ctx, doc, ivh_at, "They generate either an ivory breath")]),
        _white(ctx, doc, faces, forms, saves),
    ]


def _2012_general(ctx: Context, doc: str) -> tuple[list[DragonFace], list[Breath]]:
    """The "Dragons" reference section (after Dice Modifiers): faces and per-color breaths."""
    start, end = section_span(ctx, doc, "\nDragons\n\nIvory dragons:", "\nThe Eighth Face\n")
    text = ctx.text(doc)
    faces = []
    for m in _2012_FACE.finditer(text, start, end):
        body = m.group(2)
        if m.group(1) == "Breath":
            # "Every Dragon Breath (except ivory and red) contains two distinct effects" belongs with it.
            nxt = ctx.find(doc, "Every Dragon Breath", m.end())
            body += "\n\n" + _paragraph_at(text, nxt)
        faces.append(face(ctx, doc, _face_key(m.group(1)), body, m.start(2)))
    breaths = [Breath(color=m.group(1).lower(), name=m.group(2), text=m.group(3), source=ctx.cite(doc, m.start()))
               for m in _2012_BREATH.finditer(text, start, end)]
    _expect_colors(doc, breaths, ELEMENTAL + ("ivory",))
    return faces, breaths


def _advanced(ctx: Context, doc: str, heading: str, tail: str) -> tuple[int, str]:
    """An advanced-rules dragon section: (offset of its first paragraph, its rule text)."""
    head = ctx.find(doc, f"\n{heading}\n\nThese dragons are hybrids") + len(heading) + 3
    return head, rule_body(ctx.text(doc), head, ctx.find(doc, tail, head))


def _combined_breath(ctx: Context, doc: str, start: int, sentence: str) -> Breath:
    """Hybrids breathe by combining colors: one rule, not one color."""
    at = ctx.find(doc, sentence, start)
    text = ctx.text(doc)
    end = text.find("army.", at) + len("army.")
    return Breath(color=None, text=text[at:end], source=ctx.cite(doc, at))


def _white(ctx: Context, doc: str, general: list[DragonFace], forms, saves_general) -> Dragon:
    """"White Dragons": double health, doubled damage, one breath per terrain color."""
    text = ctx.text(doc)
    at = ctx.find(doc, "White dragons are much tougher than normal dragons.")
    body = _paragraph_at(text, at)
    (health,) = _numbers(ctx, doc, rf"double the health \({_NUM}\)", at)
    (saves,) = _numbers(ctx, doc, rf"A White dragon has {_NUM} autosaves", at)
    if saves != saves_general:
        raise ValueError(f"{doc}: white dragon saves {saves} differ from the general {saves_general}")
    faces = {f.face: f for f in general}  # Belly and Breath are not restated: the general rule holds
    # "Claws do 12 points, Wings do 10 points, Tails do 6 (and reroll), Jaws do a whopping 24 points!"
    for m in re.finditer(rf"(Claws|Wings|Tails|Jaws) do (?:a whopping )?{_NUM}( \(and reroll\))?( points)?", body):
        key = _face_key(m.group(1))
        # The Wing still flies away: White Dragons changes only the damage.
        faces[key] = face(ctx, doc, key, m.group(0), at + m.start(), damage=number(m.group(2)),
                          flies_away=faces[key].flies_away)
    treasure = re.search(r"Even the Treasure is twice as much, allowing (\d+) units to promote\.", body)
    faces["treasure"] = face(ctx, doc, "treasure", treasure.group(0), at + treasure.start())
    breath_at = ctx.find(doc, "White Dragon Breath (Terrain Empathy): ", at)
    breath_text = _paragraph_at(text, breath_at).split(": ", 1)[1]
    breath = Breath(color="white", name="Terrain Empathy", text=breath_text, source=ctx.cite(doc, breath_at))
    return Dragon(id="white", name="White Dragon", edition=BY_ID[doc].edition, kind="white", forms=forms,
                  health=health, saves=saves, faces=_ordered(list(faces.values())), breaths=(breath,),
                  text=body, source=ctx.cite(doc, at))
