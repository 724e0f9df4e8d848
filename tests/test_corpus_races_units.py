"""Race and unit records (tools/corpus/races.py, units.py) checked against the
normalized documents they come from. Every expected number below was counted in the
documents by hand (002 Racial Abilities / Icons of Each Race, 001 RACIAL ICONS,
000 Special Abilities, 004 AMAZONS and MONSTERS)."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import pytest

from engine.records import Race, Unit
from tools.corpus import races as races_mod
from tools.corpus import units as units_mod
from tools.corpus.text import RACE_IDS, slug
from fast_yaml import load_yaml

RACES_PER_EDITION = {"sfr-2012": 14, "sfr-v4": 2, "tsr-1996": 5}
UNITS_PER_EDITION = {"sfr-2012": 272, "sfr-v4": 40, "tsr-1996": 6}
# 002: 20 per full race table; Feral's table lost its names (Tiger-Folk is named in the
# SAI rules); Eldarim 12 six-siders (3 cells empty) + 6 champions; Dragonkin 9 + champion;
# None = 15 magical items + 5 artifacts + 3 medallions.
UNITS_PER_RACE_2012 = {
    "coral-elf": 20, "dwarf": 20, "goblin": 20, "lava-elf": 20, "amazon": 20, "firewalker": 20,
    "undead": 20, "feral": 1, "swamp-stalker": 20, "frostwing": 20, "scalder": 20,
    "treefolk": 20, "eldarim": 18, "dragonkin": 10, None: 23,
}
ABILITIES_2012 = {
    "coral-elf": ["Terrain Advantage"], "dwarf": ["Terrain Advantage"],
    "goblin": ["Terrain Advantage"], "lava-elf": ["Terrain Advantage"],
    "amazon": ["Terrain Advantage", "Magic Use", "Reserve Attack"],
    "firewalker": ["Terrain Flight", "Flaming Shields"],
    "undead": ["Stepped Damage", "Resist Burial", "Double Magic"],
    "feral": ["Feralization"], "swamp-stalker": ["Terrain Advantage", "Mutation"],
    "frostwing": ["Magic Negation", "Magic Use"], "scalder": ["Scorching Touch", "Intangibility"],
    "treefolk": ["Double Maneuvers", "Replanting"], "eldarim": ["Resist Fear", "Sacrifice Dragonkin"],
    "dragonkin": [],
}
# 000 writes "crossbowman" in lower case inside quotes; the record capitalizes it.
CASE_FOLDED_NAMES = {("tsr-1996", "Crossbowman")}


@pytest.fixture(scope="module")
def races(ctx) -> list[Race]:
    return races_mod.extract(ctx)


@pytest.fixture(scope="module")
def units(ctx) -> list[Unit]:
    return units_mod.extract(ctx)


def _race(races, edition, rid) -> Race:
    found = [r for r in races if r.edition == edition and r.id == rid]
    assert len(found) == 1, (edition, rid)
    return found[0]


def _unit(units, edition, uid) -> Unit:
    found = [u for u in units if u.edition == edition and u.id == uid]
    assert len(found) == 1, (edition, uid)
    return found[0]


def _grid(units, race) -> dict[tuple[str, str], str]:
    return {(u.unit_class, u.size): u.name for u in units if u.edition == "sfr-2012" and u.race == race}


# --- shape -----------------------------------------------------------------------------

def test_records_validate_and_round_trip(races, units):
    for r in races:
        assert Race.model_validate(r.model_dump(mode="json")) == r
    for u in units:
        assert Unit.model_validate(u.model_dump(mode="json")) == u


def test_sorted_and_unique_per_edition(races, units):
    for records in (races, units):
        keys = [(r.edition, r.id) for r in records]
        assert keys == sorted(keys)
        assert len(set(keys)) == len(keys)


def test_counts(races, units):
    assert Counter(r.edition for r in races) == RACES_PER_EDITION
    assert Counter(u.edition for u in units) == UNITS_PER_EDITION
    assert Counter(u.race for u in units if u.edition == "sfr-2012") == UNITS_PER_RACE_2012
    assert Counter(u.race for u in units if u.edition == "sfr-v4") == {"treefolk": 20, "firewalker": 20}


def test_ids(races, units):
    assert {r.id for r in races} <= set(RACE_IDS)
    assert {r.id for r in races if r.edition == "sfr-2012"} == set(RACE_IDS)
    for u in units:
        assert u.id == (slug(u.name) if u.race is None else f"{u.race}-{slug(u.name)}")
        assert u.source.edition == u.edition


def test_sources_cite_the_right_document(races, units):
    docs = {"sfr-2012": {"002"}, "sfr-v4": {"001"}, "tsr-1996": {"000", "004"}}
    for r in [*races, *units]:
        assert r.source.document in docs[r.edition], r.id
        assert r.source.section.startswith(f"{r.edition}:"), r.id


# --- races -----------------------------------------------------------------------------

def test_race_abilities_2012(races):
    got = {r.id: [a.name for a in r.abilities] for r in races if r.edition == "sfr-2012"}
    assert got == ABILITIES_2012


def test_ability_texts_occur_in_source(ctx, races):
    for r in races:
        text = ctx.text(r.source.document)
        for a in r.abilities:
            assert a.text and a.text in text, (r.edition, r.id, a.name)
            assert a.name.lower() in text.lower()   # 000: "a unique special ability"


def test_race_text_comes_from_source(ctx, races):
    for r in races:
        head = re.sub(r"\s+", " ", r.text[:80])
        assert head in re.sub(r"\s+", " ", ctx.text(r.source.document)), (r.edition, r.id)


def test_ability_spot_checks(races):
    coral = _race(races, "sfr-2012", "coral-elf").abilities[0]
    assert coral.text == ("Coral Elves may, when at a Coastland terrain, count maneuver results "
                          "as if they were save results.")
    reserve = _race(races, "sfr-2012", "amazon").abilities[2]
    assert reserve.name == "Reserve Attack" and reserve.text.endswith(
        "it must be completed before the second action is conducted.")   # its Note joins it
    mutation = _race(races, "sfr-2012", "swamp-stalker").abilities[1]
    assert "Example: At the beginning of a turn" in mutation.text
    dwarf_1996 = _race(races, "tsr-1996", "dwarf").abilities
    assert [a.text for a in dwarf_1996] == [
        "Also called the Vagha, the dwarves double their maneuver results when in highland terrain."]
    assert [a.name for a in _race(races, "tsr-1996", "amazon").abilities] == [
        "Maneuvers as Missiles", "Amazonian Magic", "Amazons in Reserves"]
    assert _race(races, "sfr-v4", "treefolk").abilities == ()   # 001 states none


def test_race_text_is_lore_without_pdf_artifacts(races):
    stalkers = _race(races, "sfr-2012", "swamp-stalker").text
    assert stalkers.startswith("Though Nature had returned to Esfah")
    assert "the Selumari and Vagha had dwindled in numbers" in stalkers
    assert "*" not in stalkers
    assert "Terrain Advantage" not in stalkers


@pytest.mark.parametrize("edition,rid,colors", [
    ("sfr-2012", "coral-elf", ("blue", "green")),
    ("sfr-2012", "dwarf", ("gold", "red")),
    ("sfr-2012", "goblin", ("gold", "black")),
    ("sfr-2012", "lava-elf", ("red", "black")),
    ("sfr-2012", "firewalker", ("blue", "red")),
    ("sfr-2012", "feral", ("gold", "blue")),
    ("sfr-2012", "swamp-stalker", ("green", "black")),
    ("sfr-2012", "frostwing", ("blue", "black")),
    ("sfr-2012", "scalder", ("red", "green")),
    ("sfr-2012", "treefolk", ("gold", "green")),
    ("sfr-2012", "amazon", ()),                  # "Amazons are ivory"
    ("sfr-2012", "undead", ("black",)),          # "black and ivory"
    ("sfr-2012", "eldarim", ("black", "blue", "gold", "green", "red")),
    ("sfr-v4", "treefolk", ("green", "gold")),   # "Green (Water) and Yellow (Earth)"
    ("sfr-v4", "firewalker", ("blue", "red")),
    ("tsr-1996", "coral-elf", ("blue", "green")),
    ("tsr-1996", "lava-elf", ("red", "black")),
    ("tsr-1996", "amazon", ()),                  # 004 does not state them
])
def test_colors(races, edition, rid, colors):
    assert _race(races, edition, rid).colors == colors


@pytest.mark.parametrize("edition,alias,rid", [
    ("sfr-2012", "Selumari", "coral-elf"), ("tsr-1996", "Selumari", "coral-elf"),
    ("sfr-2012", "Vagha", "dwarf"), ("tsr-1996", "Vagha", "dwarf"),
    ("sfr-2012", "Troggs", "goblin"), ("sfr-2012", "Trogs", "goblin"), ("tsr-1996", "Trogs", "goblin"),
    ("sfr-2012", "Morehl", "lava-elf"), ("tsr-1996", "Morehl", "lava-elf"),
    ("sfr-2012", "Coral Elf", "coral-elf"), ("sfr-2012", "Coral Elves", "coral-elf"),
    ("sfr-2012", "Scaldar", "scalder"), ("sfr-2012", "CE", "coral-elf"), ("sfr-2012", "DK", "dragonkin"),
    ("sfr-v4", "Firewalker", "firewalker"),
])
def test_aliases(races, edition, alias, rid):
    owners = [r.id for r in races if r.edition == edition and alias in r.aliases]
    assert owners == [rid]


def test_aliases_occur_in_source(ctx, races):
    for r in races:
        text = ctx.text(r.source.document).lower()
        for a in r.aliases:
            assert re.search(rf"\b{re.escape(a.lower())}\b", text), (r.edition, r.id, a)


# --- units -----------------------------------------------------------------------------

def test_unit_names_occur_in_source(ctx, units):
    for u in units:
        text = ctx.text(u.source.document)
        if (u.edition, u.name) in CASE_FOLDED_NAMES:
            assert u.name.lower() in text.lower()
        else:
            assert u.name in text, (u.edition, u.id)


def test_curated_names_occur_in_their_tables(ctx):
    """Every name in data/units_002.yaml is a whole cell of its race's table in 002."""
    data = load_yaml(units_mod.DATA.read_text(encoding="utf-8"))
    text = ctx.text("002")
    for rid, table in data["tables"].items():
        start = text.index(f"\n{table['heading']}\n")
        end = text.index("\nCommonly Used Abbreviations\n")
        nxt = re.compile(r"^[A-Z][A-Za-z ]+ icons$", re.M).search(text, start + 2, end)
        block = text[start:nxt.start() if nxt else end]
        names = [n for row in table["grid"].values() for n in row if n]
        assert len(names) == len(set(names))
        for n in names:
            assert re.search(rf"(?:^|\t) ?{re.escape(n)} ?(?:\t|$)", block, re.M), (rid, n)
    for x in data["extras"]:
        assert x["name"] in x["quote"] and x["quote"] in text


def test_health_matches_size(units):
    health = {"common": 1, "uncommon": 2, "rare": 3, "monster": 4, "champion": 4,
              "artifact": 4, "medallion": 4}
    for u in units:
        assert u.health == health[u.size], u.id


def test_race_tables_are_full_grids(units):
    """Each full 002 race table: 5 class rows x common/uncommon/rare, plus 5 monsters."""
    for race, n in UNITS_PER_RACE_2012.items():
        if n != 20:
            continue
        mine = [u for u in units if u.edition == "sfr-2012" and u.race == race]
        assert Counter(u.size for u in mine) == {"common": 5, "uncommon": 5, "rare": 5, "monster": 5}
        six = Counter(u.unit_class for u in mine if u.size != "monster")
        assert len(six) == 5 and set(six.values()) == {3}, race
        assert {u.unit_class for u in mine if u.size == "monster"} == {"monster"}


def test_coral_elf_table(units):   # one cell per line, read row by row
    g = _grid(units, "coral-elf")
    assert g[("heavy-melee", "uncommon")] == "Trooper"
    assert [g[("heavy-melee", s)] for s in ("common", "uncommon", "rare")] == ["Fighter", "Trooper", "Protector"]
    assert [g[("cavalry", s)] for s in ("common", "uncommon", "rare")] == ["Horseman", "Knight", "Eagle Knight"]
    assert g[("magic", "rare")] == "Enchanter"
    monsters = {u.name for u in units if u.edition == "sfr-2012" and u.race == "coral-elf" and u.size == "monster"}
    assert monsters == {"Coral Giant", "Gryphon", "Leviathan", "Sprite Swarm", "Tako"}


def test_goblin_table(units):      # one cell per line, read column by column
    g = _grid(units, "goblin")
    assert [g[(c, "common")] for c in ("heavy-melee", "light-melee", "cavalry", "missile", "magic")] == [
        "Thug", "Mugger", "Wardog Rider", "Pelter", "Trickster"]
    assert g[("cavalry", "rare")] == "Leopard Rider"   # "A Goblin Leopard Rider" (SAI rules)
    assert g[("heavy-melee", "rare")] == "Marauder"
    assert g[("magic", "uncommon")] == "Hedge Wizard"


def test_swamp_stalker_table(units):
    g = _grid(units, "swamp-stalker")
    assert [g[("cavalry", s)] for s in ("common", "uncommon", "rare")] == ["Bog Runner", "Marsh Swimmer", "Wave Rider"]
    assert g[("magic", "rare")] == "Swamp Wizard"


def test_dwarf_table(units):       # tab-separated rows
    g = _grid(units, "dwarf")
    assert g[("missile", "common")] == "Crossbowman"
    assert g[("light-melee", "rare")] == "Skirmisher"
    monsters = {u.name for u in units if u.edition == "sfr-2012" and u.race == "dwarf" and u.size == "monster"}
    assert monsters == {"Androsphinx", "Behemoth", "Gargoyle", "Roc", "Umber Hulk"}


def test_undead_and_frostwing_classes(units):
    g = _grid(units, "undead")
    assert [g[("skirmisher", s)] for s in ("common", "uncommon", "rare")] == ["Wraith", "Spectre", "Ghost"]
    assert g[("heavy-magic", "rare")] == "Lich"
    assert g[("light-magic", "common")] == "Ghoul"
    f = _grid(units, "frostwing")
    assert f[("light-missile", "common")] == "Attacker"
    assert f[("heavy-missile", "rare")] == "Devastator"


def test_eldarim(units):
    g = _grid(units, "eldarim")
    assert g[("heavy-melee", "common")] == "Follower"
    assert [g[("shieldbearer", s)] for s in ("common", "uncommon", "rare")] == ["Warder", "Escort", "Bodyguard"]
    assert [g[("magic", s)] for s in ("common", "uncommon", "rare")] == ["Spellbinder", "Enthraller", "Sorcerer"]
    assert g[("cavalry", "uncommon")] == "Racer" and ("cavalry", "rare") not in g
    assert g[("missile", "common")] == "Toxophilite" and ("missile", "uncommon") not in g
    champions = {u.name: u for u in units if u.edition == "sfr-2012" and u.unit_class == "champion"}
    assert set(champions) == {"Dragonlord", "Dragonmaster", "Dragonslayer", "Dragonhunter",
                              "Dragoncrusader", "Dragonzealot", "Dragonkin Champion"}
    for c in champions.values():
        assert c.health == 4 and c.size == "champion"
    assert champions["Dragonlord"].race == "eldarim"
    assert champions["Dragonlord"].icons == ("smite", "sneak-attack", "fly", "cantrip", "sfr-tsr-logo-dragonlord")
    assert champions["Dragonhunter"].icons[-1] == "sfr-logo-dragonhunter"
    assert champions["Dragonzealot"].icons == ("bash", "sneak-attack", "fly", "sfr-logo-dragonzealot")
    assert champions["Dragonkin Champion"].race == "dragonkin"
    assert champions["Dragonkin Champion"].icons == (
        "breath-dragonkin-champion", "fly", "smite", "sfr-tsr-logo-dragonkin-champion", "belly")


def test_feral_only_names_the_text_gives(units):
    feral = [u for u in units if u.race == "feral"]
    assert [(u.name, u.unit_class, u.size) for u in feral] == [("Tiger-Folk", "heavy-melee", "rare")]


def test_dragonkin(units):
    g = _grid(units, "dragonkin")
    assert [g[("heavy-melee", s)] for s in ("common", "uncommon", "rare")] == ["Dragontroop", "Dragonhero", "Dragonchamp"]
    assert [g[("light-melee", s)] for s in ("common", "uncommon", "rare")] == ["Dragonscout", "Dragonsentry", "Dragonspy"]
    assert [g[("mount", s)] for s in ("common", "uncommon", "rare")] == ["Dragonfoal", "Dragonmount", "Dragonsteed"]


def test_items(units):
    items = {u.name: u for u in units if u.edition == "sfr-2012" and u.race is None}
    vorpal = items["Vorpal Sword"]
    assert (vorpal.unit_class, vorpal.size, vorpal.health, vorpal.icons) == ("item", "rare", 3, ("decapitate",))
    assert (items["Speed Slippers"].size, items["Speed Slippers"].health) == ("common", 1)
    assert items["Ring of Stars"].size == "uncommon" and items["Ring of Stars"].icons == ()
    assert items["Mithril Shield"].icons == ("bash",)
    assert items["Seven-league Boots"].icons == ("wayfare",)
    assert sum(u.unit_class == "item" for u in items.values()) == 15
    artifacts = {n: u.icons for n, u in items.items() if u.unit_class == "artifact"}
    assert artifacts == {"Blade Golem": ("flurry",), "Dragon Staff": ("summon-dragon",),
                         "Flying Carpet": ("elevate",), "Mantlet": ("sortie",), "Trebuchet": ("crush",)}
    medallions = {n for n, u in items.items() if u.unit_class == "medallion"}
    assert medallions == {"Bronze Medallion", "Silver Medallion", "Gold Medallion"}


def test_v4_tables_match_2012(units):
    """001 prints Treefolk and Firewalker tables the 2012 rules also print (Treefolk from
    the curated transcription, Firewalker parsed): the two must agree cell for cell."""
    for race in ("treefolk", "firewalker"):
        v4 = {(u.unit_class, u.size, u.name) for u in units if u.edition == "sfr-v4" and u.race == race}
        sfr = {(u.unit_class, u.size, u.name) for u in units if u.edition == "sfr-2012" and u.race == race}
        assert v4 == sfr and len(v4) == 20


def test_tsr_1996_units(units):
    got = {(u.id, u.race, u.unit_class, u.size, u.health, u.source.document)
           for u in units if u.edition == "tsr-1996"}
    assert got == {
        ("dwarf-crossbowman", "dwarf", "other", "common", 1, "000"),
        ("dwarf-umber-hulk", "dwarf", "monster", "monster", 4, "004"),
        ("coral-elf-coral-giant", "coral-elf", "monster", "monster", 4, "004"),
        ("amazon-centaur", "amazon", "monster", "monster", 4, "004"),
        # 004 rules on them by name (Sprite Swarm; Dispel Magic's Gargoyle) and gives no race
        ("sprite-swarm", None, "monster", "monster", 4, "004"),
        ("gargoyle", None, "monster", "monster", 4, "004"),
    }
    by_id = {u.id: u for u in units if u.edition == "tsr-1996"}
    # the Gargoyle's die bears a Dispel Magic face (004 Dispel Magic B); each cites the 004 ruling naming it
    assert by_id["gargoyle"].icons == ("dispel-magic",)
    assert by_id["gargoyle"].source.section == "tsr-1996:faq.monster-special-action-icons.dispel-magic"
    assert by_id["sprite-swarm"].source.section == "tsr-1996:faq.monsters.sprite-swarm"


def test_icons_name_sai_records(ctx, units):
    """Every icon is an SAI of the 002 SAI list (so it joins with the SAI records)."""
    sai = units_mod._SaiList(ctx)
    known = sai.plain | set(sai.per_die.values())
    for u in units:
        assert set(u.icons) <= known, u.id


def test_committed_records_are_current(races, units):
    """corpus/records/{races,units}.json are what the extractors produce (rebuild with
    ``python -m tools.corpus.build --only races`` / ``--only units``)."""
    records = Path(__file__).resolve().parents[1] / "corpus" / "records"
    for name, got in (("races", races), ("units", units)):
        committed = json.loads((records / f"{name}.json").read_text(encoding="utf-8"))
        assert committed == [r.model_dump(mode="json") for r in got], name
