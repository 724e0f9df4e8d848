"""Extract race records (name, aliases, colors, racial abilities) for every edition.

Where each edition states its races:

* sfr-2012 (002): "Racial Abilities" -- one "The Coral Elves: <lore>" paragraph per race,
  then "Name: text" ability paragraphs; colors in "Basic Terms" (the aspects
  paragraph); Dragonkin in the advanced "Dragonkin" section (no named abilities).
* sfr-v4 (001): the starter only prints the two races' icon tables, each with a
  footnote naming the race and its magic colors; it states no racial abilities.
* tsr-1996 (000): "Special Abilities" -- one "Coral Elves: ..." paragraph per race;
  colors in "Basic Terms" (Elements). The FAQ (004) adds the Amazons.

Race ``spells`` stay empty: spell records name their races, the CLI joins them.
"""

from __future__ import annotations

import re

from engine.records import Ability, Race

from .context import Context
from .spells import extract as extract_spells
from .text import RACE_IDS

COLOR_WORDS = ("black", "blue", "gold", "green", "red")

# --- sfr-2012 (002) ------------------------------------------------------------------

# Race id -> the name heading its "Racial Abilities" paragraph ("The Coral Elves: ...").
NAMES_2012 = {
    "coral-elf": "Coral Elves", "dwarf": "Dwarves", "goblin": "Goblins", "lava-elf": "Lava Elves",
    "amazon": "Amazons", "firewalker": "Firewalkers", "undead": "Undead", "feral": "Feral",
    "swamp-stalker": "Swamp Stalkers", "frostwing": "Frostwings", "scalder": "Scalders",
    "treefolk": "Treefolk", "eldarim": "Eldarim",
}

# Other names each text gives a race; every one is checked against its document.
#  - Selumari: "brought forth the Selumari, the First Race" (Coral Elves lore).
#  - Vagha: "together they brought forth the Vagha" (Dwarves lore).
#  - Troggs: "the twisted, vicious race known as the Troggs" (Goblins lore); the
#    trademark line spells it "Trogs", the flavor text "Trog" ("Morehl and Trog").
#  - Morehl: "fully formed as the Morehl" (Lava Elves lore).
#  - Scaldar: the trademark line's spelling of Scalder.
# The two-letter forms ("CE") are read from "Commonly Used Abbreviations" (_abbreviations).
ALIASES_2012 = {
    "coral-elf": ("Coral Elves", "Coral Elf", "Selumari"),
    "dwarf": ("Dwarves", "Dwarf", "Vagha"),
    "goblin": ("Goblins", "Goblin", "Troggs", "Trogs", "Trog"),
    "lava-elf": ("Lava Elves", "Lava Elf", "Morehl"),
    "amazon": ("Amazons", "Amazon"),
    "firewalker": ("Firewalkers", "Firewalker"),
    "undead": ("Undead",),
    "feral": ("Feral",),
    "swamp-stalker": ("Swamp Stalkers", "Swamp Stalker"),
    "frostwing": ("Frostwings", "Frostwing"),
    "scalder": ("Scalders", "Scalder", "Scaldar"),
    "treefolk": ("Treefolk",),
    "eldarim": ("Eldarim",),
    "dragonkin": ("Dragonkin",),
}

# Paragraph labels inside a race's block that continue the previous ability, not new ones.
CONTINUATIONS = ("Note", "Example")
ABILITY = re.compile(r"([A-Z][A-Za-z' ]{1,40}): ")


def _paragraphs(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """(start, end) offsets of the blank-line separated paragraphs in text[start:end]."""
    return [(start + m.start(), start + m.end())
            for m in re.finditer(r"[^\n]+(?:\n[^\n]+)*", text[start:end])]


def _ability_label(text: str, para: tuple[int, int]) -> str | None:
    m = ABILITY.match(text, para[0], para[1])
    return m.group(1) if m and m.group(1) not in CONTINUATIONS else None


def _lore(text: str) -> str:
    """Lore as printed, less the PDF's footnote stars and page-break paragraph splits."""
    text = re.sub(r"\*\n\n(?=[a-z])", " ", text)   # "Selumari and Vagha*\n\nhad dwindled"
    return re.sub(r"\*(?=\n|$)", "", text)


def _abilities(text: str, paras: list[tuple[int, int]]) -> tuple[Ability, ...]:
    """Each "Name: text" paragraph plus any Note/Example paragraphs that follow it."""
    out: list[Ability] = []
    heads = [i for i, p in enumerate(paras) if _ability_label(text, p)]
    for n, i in enumerate(heads):
        last = (heads[n + 1] if n + 1 < len(heads) else len(paras)) - 1
        name = _ability_label(text, paras[i])
        body = text[paras[i][0] + len(name) + 2:paras[last][1]]
        out.append(Ability(name=name, text=body))
    return tuple(out)


def _colors_2012(ctx: Context, name: str) -> tuple[str, ...]:
    """Colors from Basic Terms: "Coral Elves are blue and green (air and water)".

    Amazons "are ivory" and Undead "are black and ivory": ivory is no element, so it
    is left out. Eldarim and Dragonkin are not in that sentence (see _race_2012).
    """
    text = ctx.text("002")
    para = ctx.find("002", "The following depicts the aspects of the races:")
    m = re.compile(rf"{name} are ([a-z ]+?)[(,.]").search(text, para)
    if not m:
        raise LookupError(f"002: no aspects sentence for {name}")
    return tuple(w for w in m.group(1).split() if w in COLOR_WORDS)


def _race_blocks(ctx: Context) -> dict[str, tuple[int, int]]:
    """race id -> (start, end) of its "The <Name>: ..." block in "Racial Abilities"."""
    section = ctx.find("002", "\nRacial Abilities\n\nBeyond its particular mix")
    starts = {rid: ctx.find("002", f"\nThe {name}: ", section) + 1 for rid, name in NAMES_2012.items()}
    # The Eldarim block ends where the champions' dragon powers begin (002 "Eldarim
    # Champion's Effect on Dragons"): those belong to single champion dice, not the race.
    end = ctx.find("002", "\nEldarim Champion's Effect on Dragons", starts["eldarim"])
    order = sorted(starts.values()) + [end]
    return {rid: (s, order[order.index(s) + 1]) for rid, s in starts.items()}


def _race_2012(ctx: Context, rid: str, start: int, end: int) -> Race:
    text = ctx.text("002")
    name = NAMES_2012[rid]
    paras = _paragraphs(text, start, end)
    first = next(i for i, p in enumerate(paras) if _ability_label(text, p) and i > 0)
    lore = text[start + len(f"The {name}: "):paras[first - 1][1]]
    if rid == "eldarim":
        # Not in the aspects sentence; "Eldarim of all colors are a single race" (Basic
        # Terms) and Dragonmasters "come in five different colors" (The Eldarim Champions).
        ctx.find("002", "Eldarim of all colors are a single race")
        colors = COLOR_WORDS
    else:
        colors = _colors_2012(ctx, name)
    return Race(id=rid, name=name, edition="sfr-2012", aliases=_aliases(ctx, "002", ALIASES_2012[rid]),
                colors=colors, abilities=_abilities(text, paras[first:]), spells=(),
                text=_lore(lore), source=ctx.cite("002", start))


def _dragonkin_2012(ctx: Context) -> Race:
    """The Dragonkin race (002 "Dragonkin", Advanced Rules): rules prose, no named abilities."""
    text = ctx.text("002")
    start = ctx.find("002", "The six-sided units from expansion sets are members of the race called Dragonkin.")
    end = ctx.find("002", "\nDragonkin Champion\n", start)
    # "While Dragonkin consist of each element, collectively they are of the same race."
    ctx.find("002", "While Dragonkin consist of each element", start)
    return Race(id="dragonkin", name="Dragonkin", edition="sfr-2012",
                aliases=_aliases(ctx, "002", ALIASES_2012["dragonkin"]), colors=COLOR_WORDS,
                abilities=(), spells=(), text=text[start:end].strip(), source=ctx.cite("002", start))


def _aliases(ctx: Context, doc: str, aliases: tuple[str, ...]) -> tuple[str, ...]:
    """The aliases, each checked to occur in the document (any case: 000 writes "coral elf")."""
    lowered = ctx.text(doc).lower()
    for a in aliases:
        if re.search(rf"\b{re.escape(a.lower())}\b", lowered) is None:
            raise LookupError(f"{doc}: alias {a!r} not found")
    return aliases


def _abbreviations(ctx: Context) -> dict[str, str]:
    """race id -> abbreviation, from 002 "Commonly Used Abbreviations" ("CE\tCoral Elves (race)")."""
    start = ctx.find("002", "\nCommonly Used Abbreviations\n")
    end = ctx.find("002", "\nOutline of Play\n", start)
    ids = {name: rid for rid, name in NAMES_2012.items()} | {"Dragonkin": "dragonkin"}
    rows = re.findall(r"^([A-Z]{2})\t(.+) \(race\)$", ctx.text("002")[start:end], re.M)
    return {ids[name]: abbr for abbr, name in rows}


def _sfr_2012(ctx: Context) -> list[Race]:
    races = [_race_2012(ctx, rid, s, e) for rid, (s, e) in _race_blocks(ctx).items()]
    races.append(_dragonkin_2012(ctx))
    abbr = _abbreviations(ctx)
    return [r.model_copy(update={"aliases": r.aliases + ((abbr[r.id],) if r.id in abbr else ())})
            for r in races]


# --- sfr-v4 (001) --------------------------------------------------------------------

# Footnote under each RACIAL ICONS table: "*Treefolk are a combination of Green (Water)
# and Yellow (Earth), and so can cast those colors of magic." v4 prints earth as yellow.
V4_RACES = {"treefolk": ("Treefolk", ("Treefolk",)), "firewalker": ("Firewalkers", ("Firewalkers", "Firewalker"))}
V4_COLOR = {"blue": "blue", "green": "green", "red": "red", "black": "black", "yellow": "gold", "gold": "gold"}


def _sfr_v4(ctx: Context) -> list[Race]:
    out = []
    for rid, (name, aliases) in V4_RACES.items():
        at = ctx.find("001", f"*{name} are a combination of ")
        end = ctx.find("001", "colors of magic.", at) + len("colors of magic.")
        note = ctx.text("001")[at + 1:end]
        words = re.findall(r"\b([A-Z][a-z]+) \(", note)
        colors = tuple(V4_COLOR[w.lower()] for w in words)
        out.append(Race(id=rid, name=name, edition="sfr-v4", aliases=_aliases(ctx, "001", aliases),
                        colors=colors, abilities=(), spells=(), text=note.replace("\n", " "),
                        source=ctx.cite("001", at)))
    return out


# --- tsr-1996 (000, 004) -------------------------------------------------------------

# 000 "Special Abilities": "Coral Elves: Calling themselves the Selumari, this race ...",
# "Dwarves: Also called the Vagha", "Goblins: Calling themselves the Trogs",
# "Lava Elves: Called the Morehl". Singular spellings are the text's lower-case ones.
TSR_RACES = {
    "coral-elf": ("Coral Elves", ("Coral Elves", "Coral Elf", "Selumari")),
    "dwarf": ("Dwarves", ("Dwarves", "Dwarf", "Vagha")),
    "goblin": ("Goblins", ("Goblins", "Goblin", "Trogs")),
    "lava-elf": ("Lava Elves", ("Lava Elves", "Lava Elf", "Morehl")),
}


def _colors_1996(ctx: Context, name: str) -> tuple[str, ...]:
    """000 Basic Terms, Elements: "Coral elves are blue and green (air and water)"."""
    at = ctx.find("000", "Each race of units")
    m = re.compile(rf"{name.capitalize()} are ([a-z ]+?) \(").search(ctx.text("000"), at)
    if not m:
        raise LookupError(f"000: no elements sentence for {name}")
    return tuple(w for w in m.group(1).split() if w in COLOR_WORDS)


def _race_1996(ctx: Context, rid: str) -> Race:
    name, aliases = TSR_RACES[rid]
    text = ctx.text("000")
    section = ctx.find("000", "\nSpecial Abilities\n")
    start = ctx.find("000", f"\n{name}: ", section) + 1
    end = text.index("\n", start)
    para = text[start + len(name) + 2:end]
    # The first sentence is the game rule; the rest is flavor.
    rule = para[:para.index(". ") + 1]
    return Race(id=rid, name=name, edition="tsr-1996", aliases=_aliases(ctx, "000", aliases),
                colors=_colors_1996(ctx, name), abilities=(Ability(name="Special Ability", text=rule),),
                spells=(), text=para, source=ctx.cite("000", start))


# 004 "*** AMAZONS": three rule headings, each quoting Kicker Pack 1 then clarifying.
# The FAQ does not state the Amazons' dice colors (it says they cast the terrain's colors).
AMAZON_RULES_1996 = ("Maneuvers as Missiles", "Amazonian Magic", "Amazons in Reserves")


def _amazon_1996(ctx: Context) -> Race:
    text = ctx.text("004")
    start = ctx.find("004", "*** AMAZONS")
    end = ctx.find("004", "*** MONSTERS", start)
    heads = [ctx.find("004", f"\n{h}\n", start) + 1 for h in AMAZON_RULES_1996] + [end]
    abilities = tuple(
        Ability(name=h, text=text[heads[i] + len(h):heads[i + 1]].strip())
        for i, h in enumerate(AMAZON_RULES_1996))
    return Race(id="amazon", name="Amazons", edition="tsr-1996",
                aliases=_aliases(ctx, "004", ("Amazons", "Amazon")), colors=(), abilities=abilities,
                spells=(), text=text[start + len("*** AMAZONS"):end].strip(), source=ctx.cite("004", start))


def _tsr_1996(ctx: Context) -> list[Race]:
    return [_race_1996(ctx, rid) for rid in TSR_RACES] + [_amazon_1996(ctx)]


def extract(ctx: Context) -> list[Race]:
    races = _sfr_2012(ctx) + _sfr_v4(ctx) + _tsr_1996(ctx)
    unknown = {r.id for r in races} - set(RACE_IDS)
    if unknown:
        raise ValueError(f"race ids not in RACE_IDS: {sorted(unknown)}")
    spells = ctx.extracted.get("spells") or extract_spells(ctx)
    races = [_with_spells(r, spells) for r in races]
    return sorted(races, key=lambda r: (r.edition, r.id))


def _with_spells(race: Race, spells) -> Race:
    """A race's spells: those of its edition whose spell list names it."""
    own = tuple(s.id for s in spells if s.edition == race.edition and race.id in s.lists)
    return race.model_copy(update={"spells": own})
