"""Extract unit records: every named die of every race, plus items, for every edition.

Where each edition names its dice:

* sfr-2012 (002): "Icons of Each Race" (one ID icon table per race; the legible
  tab-separated ones are parsed here, the flattened ones are transcribed in
  data/units_002.yaml and checked against the text), "The Eldarim Champions",
  "Dragonkin", "Dragonkin Champion", "Magical Items", "Artifacts", "Medallions".
* sfr-v4 (001): "RACIAL ICONS", one table per race, each followed by a footnote
  naming the race ("*Treefolk are a combination of ...").
* tsr-1996 (000, 004): no unit tables; only the few dice the text names with their
  race and size, and the two monsters 004 rules on by name (see TSR_UNITS).

``icons`` holds SAI ids only where the document gives one die's SAIs; the race tables
list SAIs per race, so race units leave it empty. Each icon is resolved against the 002
"Special Action Icon (SAI) List" (see _SaiList), so it names an SAI record.
"""

from __future__ import annotations

import re
from pathlib import Path

import yaml

from engine.records import Unit

from .context import Context
from .documents import BY_ID
from .text import slug

DATA = Path(__file__).parent / "data" / "units_002.yaml"

# 002 Basic Terms, Health: commons 1, uncommons 2, rares 3, champions and monsters 4.
# The same scale holds for four-sided items ("commons cost 1 point of health ...").
HEALTH = {"common": 1, "uncommon": 2, "rare": 3, "monster": 4, "champion": 4}

# Face names in the champions' icon rows that are not SAIs (002 Basic Terms, Icons).
NOT_SAI = {"ID", "Magic", "Maneuver", "Melee", "Missile", "Save"}

# Race tables of 002 that kept their tab-separated rows: race id -> heading line.
TAB_TABLES_2012 = {
    "dwarf": "Dwarf icons", "lava-elf": "Lava Elf icons", "amazon": "Amazons icons",
    "firewalker": "Firewalker icons", "undead": "Undead icons", "frostwing": "Frostwing icons",
    "scalder": "Scalder icons",
}

# 002 Dragonkin table rows. Dragonkin roll no magic or missile ("Dragonkin units cannot
# roll for magic or missile actions"; normal icons: Maneuver, Melee), so the Heavy and
# Light rows are the melee classes; Mount is its own class.
DRAGONKIN_CLASS = {"Heavy": "heavy-melee", "Light": "light-melee", "Mount": "mount"}

# 001 RACIAL ICONS column headings: "SMALL 1-HEALTH" ... "MONSTER 4-HEALTH". v4 calls
# the sizes small/medium/large; they are the dice 002 calls common/uncommon/rare
# (same names, same health).
V4_SIZE = {"SMALL": "common", "MEDIUM": "uncommon", "LARGE": "rare", "MONSTER": "monster"}
V4_RACES = (("treefolk", "Treefolk"), ("firewalker", "Firewalkers"))

# tsr-1996: the only dice 000 and 004 name together with their race and size.
# (name, race, unit_class, size, document, quote stating it, SAIs the text puts on the die)
# - 000 never gives the crossbowman's class, hence "other".
# - 004 rules on the Sprite Swarm ("Monsters" > "Sprite Swarm": its ID icon) and the Gargoyle ("Dispel Magic": "A
#   Gargoyle is targeted by a Lightning Strike. First, the Gargoyle may roll a dispel attempt", so its die bears a
#   Dispel Magic face), both monsters, "worth 4 health each" (General Rules A); neither 000 nor 004 says which race
#   they belong to, so their race is None (a scenario may give one). The Gargoyle's icons are the one SAI 004 puts
#   on it, not its whole die.
# - 000's "dwarf mammoth rider" has no stated size: left out of this edition.
TSR_UNITS = (
    ("Crossbowman", "dwarf", "other", "common", "000",
     'an icon of a dwarf wearing a feathered cap on a common die identifies it as a "crossbowman."', ()),
    ("Umber Hulk", "dwarf", "monster", "monster", "004", "Umber Hulks are Dwarven monsters.", ()),
    ("Coral Giant", "coral-elf", "monster", "monster", "004", "Coral Giants are Coral Elf monsters.", ()),
    ("Centaur", "amazon", "monster", "monster", "004", "Centaurs are Amazon monsters.", ()),
    ("Sprite Swarm", None, "monster", "monster", "004",
     "The ID icon of the Sprite Swarm counts as four points of effect", ()),
    ("Gargoyle", None, "monster", "monster", "004",
     "A Gargoyle is targeted by a Lightning Strike. First, the Gargoyle may roll a dispel attempt",
     ("dispel-magic",)),
)

TAB_LINE = re.compile(r"^[^\n]*\t[^\n]*$", re.M)


def _unit(ctx: Context, doc: str, race: str | None, name: str, unit_class: str, size: str,
          health: int, at: int, icons: tuple[str, ...] = ()) -> Unit:
    uid = slug(name) if race is None else f"{race}-{slug(name)}"
    return Unit(id=uid, name=name, edition=BY_ID[doc].edition, race=race, unit_class=unit_class,
                size=size, health=health, icons=icons, source=ctx.cite(doc, at))


def _grid(ctx: Context, doc: str, start: int, end: int) -> list[tuple[str, str, str, int]]:
    """Cells of a tab-separated table in text[start:end] as (row label, column heading, name, offset).

    The first tab line is the heading row (its first cell is the "ID Icons" corner or
    empty); empty cells are skipped.
    """
    text = ctx.text(doc)
    header: list[str] | None = None
    out = []
    for m in TAB_LINE.finditer(text, start, end):
        cells = m.group(0).split("\t")
        if header is None:
            header = [c.strip() for c in cells[1:]]
            continue
        if len(cells) - 1 > len(header):
            raise ValueError(f"{doc}: row wider than its heading at {m.start()}: {cells}")
        at = m.start() + len(cells[0]) + 1
        for heading, cell in zip(header, cells[1:]):
            if cell.strip():
                out.append((cells[0].strip(), heading, cell.strip(), at + cell.index(cell.strip())))
            at += len(cell) + 1
    return out


def _require(ctx: Context, doc: str, needle: str, start: int, end: int) -> int:
    """Offset of ``needle`` in text[start:end]: a stated fact this extractor relies on."""
    at = ctx.find(doc, needle, start)
    if at >= end:
        raise LookupError(f"{doc}: {needle!r} not between {start} and {end}")
    return at


# --- sfr-2012 race tables --------------------------------------------------------------

def _icon_blocks(ctx: Context) -> dict[str, tuple[int, int]]:
    """Race table heading ("Dwarf icons") -> its (start, end) in 002 "Icons of Each Race"."""
    text = ctx.text("002")
    heads = [(m.group(0), m.start()) for m in re.finditer(r"^[A-Z][A-Za-z ]+ icons$", text, re.M)]
    end = ctx.find("002", "\nCommonly Used Abbreviations\n", heads[-1][1])
    bounds = [s for _, s in heads[1:]] + [end]
    return {h: (s, e) for (h, s), e in zip(heads, bounds)}


def _tab_table_2012(ctx: Context, rid: str, start: int, end: int) -> list[Unit]:
    stop = _require(ctx, "002", "\nNormal Action Icons", start, end)
    units = []
    for label, heading, name, at in _grid(ctx, "002", start, stop):
        size = heading.lower()
        # The Monster column is alphabetical in every table, not sorted by row class.
        cls = "monster" if size == "monster" else slug(label)
        units.append(_unit(ctx, "002", rid, name, cls, size, HEALTH[size], at))
    if len(units) != 20:  # each of these tables prints 5 class rows x 4 sizes, all named
        raise ValueError(f"002: {rid} icon table has {len(units)} names, expected 20")
    return units


def _reading_order(table: dict) -> list[tuple[str, str, str | None]]:
    """(class, size, name) of a curated table in the order its cells run in the text."""
    grid, sizes = table["grid"], table["sizes"]
    if table["read"] == "rows":
        return [(c, s, names[i]) for c, names in grid.items() for i, s in enumerate(sizes)]
    return [(c, s, grid[c][i]) for i, s in enumerate(sizes) for c in grid]


def _cell(text: str, name: str, start: int, end: int) -> int:
    """Offset of ``name`` as a whole table cell (its own line, or between tabs) in text[start:end]."""
    m = re.compile(rf"(?:^|\t) ?({re.escape(name)}) ?(?=\t|$)", re.M).search(text, start, end)
    if not m:
        raise LookupError(f"002: cell {name!r} not found in order between {start} and {end}")
    return m.start(1)


def _curated_2012(ctx: Context, blocks: dict[str, tuple[int, int]]) -> list[Unit]:
    """Units of data/units_002.yaml, each found in its table block in the stated reading order."""
    data = yaml.safe_load(DATA.read_text(encoding="utf-8"))
    text = ctx.text("002")
    units = []
    for rid, table in data["tables"].items():
        pos, end = blocks[table["heading"]]
        for cls, size, name in _reading_order(table):
            if name is None:      # empty in the source; see the YAML comment
                continue
            at = _cell(text, name, pos, end)
            pos = at + len(name)
            cls = "monster" if size == "monster" else cls
            units.append(_unit(ctx, "002", rid, name, cls, size, HEALTH[size], at))
    for x in data["extras"]:
        at = ctx.find("002", x["quote"])
        if x["name"] not in x["quote"]:
            raise ValueError(f"units_002.yaml: {x['name']!r} is not in its quote")
        units.append(_unit(ctx, "002", x["race"], x["name"], x["unit_class"], x["size"],
                           HEALTH[x["size"]], at))
    return units


# --- sfr-2012 champions, dragonkin and items --------------------------------------------

class _SaiList:
    """Entry names of 002 "Special Action Icon (SAI) List", to turn a printed face into an SAI id.

    Some SAIs differ per die and are listed with the die in brackets: "Breath (Dragonkin
    Champion)", "SFR/TSR Logo (Dragonlord)". A face printed on that die takes that
    entry's id (slug of the whole entry name, as the SAI records use). Logos match by
    die alone: the champions' table prints "SFR/TSR logo" for the Dragonhunter, whose
    list entry is "SFR Logo (Dragonhunter)".
    """

    def __init__(self, ctx: Context):
        text = ctx.text("002")
        start = ctx.find("002", "Special Action Icon (SAI) List\n")
        end = ctx.find("002", "\nAdvanced Rules\n", start)
        names = re.findall(r"^([A-Z][^:\n]*?): ", text[start:end], re.M)
        self.plain = {slug(n) for n in names if "(" not in n}
        self.per_die = {}
        for n in names:
            m = re.fullmatch(r"(.+?) \((.+)\)", n)
            if m:
                self.per_die[(self._key(m.group(1)), m.group(2))] = slug(n)

    @staticmethod
    def _key(face: str) -> str:
        return "logo" if "logo" in face.lower() else slug(face)

    def resolve(self, face: str, die: str) -> str:
        if (self._key(face), die) in self.per_die:
            return self.per_die[(self._key(face), die)]
        if slug(face) not in self.plain:
            raise LookupError(f"002: {face!r} on {die} is not in the SAI list")
        return slug(face)

    def icons(self, faces: list[str], die: str) -> tuple[str, ...]:
        return tuple(self.resolve(f.strip(), die) for f in faces if f.strip() and f.strip() not in NOT_SAI)


def _eldarim_champions(ctx: Context, sai: _SaiList) -> list[Unit]:
    """002 "The Eldarim Champions": an icon row per pair ("Dragonlord / Dragonmaster"),
    then one description per champion, each stating it is a 4-health unit."""
    text = ctx.text("002")
    start = ctx.find("002", "\nThe Eldarim Champions\n")
    end = ctx.find("002", "\nDragonlord\n\nDragonlords are", start)
    units = []
    for m in re.compile(r"^(\w+) / (\w+)\n\n([^\n]+)$", re.M).finditer(text, start, end):
        for name in m.group(1, 2):
            icons = sai.icons(m.group(3).split("\t"), name)
            at = ctx.find("002", f"\n{name}\n\n", end) + 1
            para_end = text.index("\n\n", at + len(name) + 2)
            _require(ctx, "002", "4-health unit", at, para_end)
            units.append(_unit(ctx, "002", "eldarim", name, "champion", "champion", 4, at, icons))
    if len(units) != 6:
        raise ValueError(f"002: expected 6 Eldarim champions, found {len(units)}")
    return units


def _dragonkin(ctx: Context, sai: _SaiList) -> list[Unit]:
    """002 "Dragonkin" table (Heavy/Light/Mount x Common/Uncommon/Rare) and "Dragonkin Champion"."""
    text = ctx.text("002")
    start = ctx.find("002", "\nDragonkin\n\n\tCommon")
    stop = ctx.find("002", "\tNormal Action Icons", start)
    units = [_unit(ctx, "002", "dragonkin", name, DRAGONKIN_CLASS[label], col.lower(),
                   HEALTH[col.lower()], at)
             for label, col, name, at in _grid(ctx, "002", start, stop)]
    # "The Dragonkin Champion functions with all of the rules of the smaller Dragonkin,
    # but with four health and four automatic saves"; its faces are listed one per line.
    champ = ctx.find("002", "\nDragonkin Champion\n\nThe Dragonkin Champion functions", stop) + 1
    para_end = text.index("\n\n", champ + len("Dragonkin Champion") + 2)
    _require(ctx, "002", "with four health", champ, para_end)
    faces_end = ctx.find("002", "\nMagical Items\n", champ)
    faces = [ln for ln in text[para_end:faces_end].split("\n") if ln.strip()]
    units.append(_unit(ctx, "002", "dragonkin", "Dragonkin Champion", "champion", "champion", 4,
                       champ, sai.icons(faces, "Dragonkin Champion")))
    return units


def _magical_items(ctx: Context, sai: _SaiList) -> list[Unit]:
    """002 "Magical Items": rows by action (Maneuver ... Save) x Common/Uncommon/Rare.

    The "Special Action Icons" row under the table gives one SAI per action row, in row
    order (Wayfare, Decapitate, Impale, Attune, Bash); "Like rare six-siders, the large
    four-siders also bear a special action icon on one face", so it goes on the rare.
    """
    text = ctx.text("002")
    start = ctx.find("002", "\nMagical Items\n\n\tCommon")
    stop = ctx.find("002", "\nSpecial Action Icons\n", start)
    _require(ctx, "002", "the large four-siders also bear a special action icon", stop,
             ctx.find("002", "\nArtifacts\n", stop))
    cells = _grid(ctx, "002", start, stop)
    rows = list(dict.fromkeys(label for label, *_ in cells))
    sai_line = TAB_LINE.search(text, stop + 1)
    sais = [c.strip() for c in sai_line.group(0).split("\t") if c.strip()]
    if len(sais) != len(rows):
        raise ValueError(f"002: {len(sais)} item SAIs for {len(rows)} item rows")
    sai_of = dict(zip(rows, sais))
    return [_unit(ctx, "002", None, name, "item", col.lower(), HEALTH[col.lower()], at,
                  (sai.resolve(sai_of[label], name),) if col == "Rare" else ())
            for label, col, name, at in cells]


def _artifacts(ctx: Context, sai: _SaiList) -> list[Unit]:
    """002 "Artifacts": a heading row "Blade Golem (Melee) ..." and, under "SAI", one SAI per column."""
    text = ctx.text("002")
    start = ctx.find("002", "\nArtifacts\n\n\t") + 1
    _require(ctx, "002", "artifacts are worth 4-health each", start, ctx.find("002", "\nPromotional Dice\n", start))
    head = TAB_LINE.search(text, start)
    sai_at = ctx.find("002", "\nSAI\n", head.end())
    sai_line = TAB_LINE.search(text, sai_at + 1)
    names = [(m.group(1), head.start() + m.start(1))
             for m in re.finditer(r"([^\t()]+?) \(\w+\)", head.group(0))]
    sais = [c.strip() for c in sai_line.group(0).split("\t") if c.strip()]
    if len(names) != len(sais):
        raise ValueError(f"002: {len(names)} artifacts but {len(sais)} artifact SAIs")
    return [_unit(ctx, "002", None, n.strip(), "artifact", "artifact", 4, at, (sai.resolve(s, n.strip()),))
            for (n, at), s in zip(names, sais)]


def _medallions(ctx: Context, sai: _SaiList) -> list[Unit]:
    """002 "Medallions": "4-point magical items that come in three colors: bronze, silver or gold".

    The section prints no name per medallion; the SAI list names each one with its own
    logo SAI ("SFR/TSR Logo (Gold Medallion)"). The section's icon list (SFR/TSR Logo,
    Flurry, Sortie, Wayfare) is not split per medallion, so only the logo is recorded.
    """
    text = ctx.text("002")
    at = ctx.find("002", "\nMedallions\n\nMedallions are metallic") + 1
    _require(ctx, "002", "4-point magical items that come in three colors: bronze, silver or gold", at,
             text.index("\n\n", at + len("Medallions") + 2))
    names = sorted(set(re.findall(r"SFR/TSR Logo \(([A-Z][a-z]+ Medallion)\):", text)))
    if len(names) != 3:
        raise ValueError(f"002: expected 3 medallions in the SAI list, found {names}")
    return [_unit(ctx, "002", None, n, "medallion", "medallion", 4, at, (sai.resolve("SFR/TSR Logo", n),))
            for n in names]


def _sfr_2012(ctx: Context) -> list[Unit]:
    blocks = _icon_blocks(ctx)
    units = []
    for rid, heading in TAB_TABLES_2012.items():
        units += _tab_table_2012(ctx, rid, *blocks[heading])
    sai = _SaiList(ctx)
    return (units + _curated_2012(ctx, blocks) + _eldarim_champions(ctx, sai) + _dragonkin(ctx, sai)
            + _magical_items(ctx, sai) + _artifacts(ctx, sai) + _medallions(ctx, sai))


# --- sfr-v4 and tsr-1996 ---------------------------------------------------------------

def _sfr_v4(ctx: Context) -> list[Unit]:
    """001 RACIAL ICONS: two tables, each ending at its race's footnote."""
    start = ctx.find("001", "\nRACIAL ICONS\n")
    units = []
    for rid, name in V4_RACES:
        foot = ctx.find("001", f"\n*{name} are a combination of ", start)
        for label, heading, unit, at in _grid(ctx, "001", start, foot):
            word, health = re.fullmatch(r"(\w+) (\d)-HEALTH", heading).groups()
            size = V4_SIZE[word]
            cls = "monster" if size == "monster" else slug(label)
            units.append(_unit(ctx, "001", rid, unit, cls, size, int(health), at))
        start = foot + 1
    return units


def _tsr_1996(ctx: Context) -> list[Unit]:
    # 004 MONSTERS, General Rules: "A) Monsters are worth 4 health each."
    ctx.find("004", "Monsters are worth 4 health each.")
    out = []
    for name, race, cls, size, doc, quote, icons in TSR_UNITS:
        at = ctx.find(doc, quote)
        out.append(_unit(ctx, doc, race, name, cls, size, HEALTH[size], at, icons))
    return out


def extract(ctx: Context) -> list[Unit]:
    units = _sfr_2012(ctx) + _sfr_v4(ctx) + _tsr_1996(ctx)
    return sorted(units, key=lambda u: (u.edition, u.id))
