"""Issue 21: the trace as an argument two players accept.

Class checks over every bundled scenario (parts that add up, quoted words found in the section cited, no Python
repr in any line or message) and the cases the issue names (SAI results a modifier does not touch, the rules that
do not apply where a player expects them, a reading with both citations, less noise by default)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from ddref.scenario.run import load, parse, replay
from ddref.scenario.source import ScenarioErrors
from engine.trace import told
from index.corpus import sections

ROOT = Path(__file__).resolve().parents[1]
SCENARIOS = sorted((ROOT / "scenarios").glob("*.yaml"))


@pytest.fixture(scope="module")
def replays():
    return {path.name: replay(load(path)) for path in SCENARIOS}


def _events(replays):
    for name, result in replays.items():
        for step in result["steps"]:
            for event in step.get("trace", []):
                yield name, step, event


def _step(replays, name: str, index: int) -> dict:
    return replays[name]["steps"][index - 1]


# --- parts a modifier does not touch ---------------------------------------------------------------------------


def test_a_spell_modifier_shows_the_sai_results_it_leaves_untouched(replays):
    """002 SAI General Information: Transmute Rock to Mud's -6 reaches the 4 normal maneuvers, never the 3 from
    Fly: the line says 4 -> 0 and 3 untouched, not a pooled 7 -> 3."""
    step = _step(replays, "sfr2012-sai-results-and-modifiers.yaml", 1)
    event = next(e for e in step["trace"] if "transmute-rock-to-mud" in e["what"])
    assert (event["before"], event["after"]) == (7, 3)
    assert event["parts"] == [{"part": "normal", "before": 4, "after": 0},
                              {"part": "from fly", "before": 3, "after": 3, "untouched": True}]


def test_the_eighth_face_and_racial_doubling_show_the_sai_part_they_double(replays):
    """002's Leopard Rider: 3 Rend doubled for the eighth face (6), then for swampland (12): the parts name Rend."""
    step = _step(replays, "sfr2012-sai-results-and-modifiers.yaml", 3)
    doubled = [e for e in step["trace"] if e["what"].endswith("maneuver doubled")]
    assert [(e["before"], e["after"]) for e in doubled] == [(3, 6), (6, 12)]
    assert [e["parts"] for e in doubled] == [[{"part": "from rend", "before": 3, "after": 6}],
                                             [{"part": "from rend", "before": 6, "after": 12}]]
    fire = _step(replays, "sfr2012-sai-results-and-modifiers.yaml", 4)
    event = next(e for e in fire["trace"] if e["what"].endswith("save doubled"))
    assert event["parts"] == [{"part": "normal", "before": 4, "after": 8},
                              {"part": "from create-fireminions", "before": 4, "after": 8}]


def test_every_split_line_adds_up(replays):
    """Class check: in every bundled scenario, a line's normal and SAI (or ID and other) parts add up to its
    before and after; a conversion's last part is the result it made."""
    seen = 0
    for name, _, e in _events(replays):
        parts = e.get("parts")
        if not parts:
            continue
        seen += 1
        names = [p["part"] for p in parts]
        if names[0] in ("normal", "ID") or names[0].startswith("from "):
            assert sum(p["before"] for p in parts) == e["before"], (name, e)
            assert sum(p["after"] for p in parts) == e["after"], (name, e)
            assert all(p["before"] == p["after"] for p in parts if p.get("untouched")), (name, e)
        else:   # a conversion: the results converted, then those they became
            assert (parts[-1]["before"], parts[-1]["after"]) == (e["before"], e["after"]), (name, e)
            assert parts[0]["before"] - parts[0]["after"] == e["after"] - e["before"], (name, e)
    assert seen > 10


def test_the_text_view_prints_the_parts(run):
    out = " ".join(run("resolve", str(ROOT / "scenarios" / "sfr2012-sai-results-and-modifiers.yaml")).stdout.split())
    assert "maneuver -6 4 normal -> 0, 3 from fly untouched: 7 -> 3" in out


# --- what did not apply -----------------------------------------------------------------------------------------


def test_the_eighth_face_and_army_spells_say_they_do_not_reach_a_unit_s_own_save(replays):
    """002 The Eighth Face: "When a unit requires save results to avoid an individual-targeting effect, these
    results are not doubled"; 002 Applying Dice Modifiers: Stoneskin "[does] not protect the unit when it is
    targeted individually". Bullseye's target rolls alone: both are said, once each, in its roll."""
    step = _step(replays, "sfr2012-sai-bullseye.yaml", 1)
    said = [e for e in step["trace"] if e.get("kind") == "not-applied"]
    whats = [e["what"] for e in said]
    assert "eighth face at front: rare's own save not doubled" in whats
    assert "stoneskin on shields does not reach rare's own save roll" in whats
    assert len(whats) == len(set(whats))
    assert {e["cite"] for e in said} >= {"sfr-2012:the-eighth-face", "sfr-2012:dice-modifiers.applying-dice-modifiers"}


def test_a_terrain_spell_says_it_does_not_cut_missiles_fired_in(replays):
    """Ash Storm on the target's terrain changes rolls made there, not the archers' missiles fired in from plain
    (002's 17-saves example: 30 missiles halved by the Wall of Fog only, 15)."""
    step = _step(replays, "sfr2012-modifiers-coral-elf-17-saves.yaml", 1)
    said = [e for e in step["trace"] if e.get("kind") == "not-applied"]
    assert [e["what"] for e in said] == ["ash-storm on coast does not cut archers' missiles, rolled at plain and "
                                         "fired into coast"]
    assert step["results"]["archers"]["missile"] == 15


def test_a_racial_ability_off_its_terrain_is_said_in_the_full_trace(replays):
    """Goblins at a highland: their swampland Terrain Advantage is said not to apply (a detail line: every roll
    off the terrain would say it), and the conversion in the coral elves' roll shows both results."""
    said = [e for _, _, e in _events({"x": replays["sfr2012-maneuver-ties-and-counters.yaml"]})
            if e.get("kind") == "not-applied" and "Terrain Advantage" in e["what"]]
    assert said and all(e.get("detail") for e in said)
    assert "not a swampland" in said[0]["what"]
    coral = _step(replays, "sfr2012-modifiers-coral-elf-17-saves.yaml", 1)
    event = next(e for e in coral["trace"] if "count as save" in e["what"])
    assert event["parts"] == [{"part": "maneuver", "before": 6, "after": 0}, {"part": "save", "before": 6, "after": 12}]


def test_a_cantrip_in_a_simultaneous_roll_is_a_not_applied_line(replays):
    step = next(s for s in replays["sfr2012-sai-cantrip-outside-magic.yaml"]["steps"]
                if any("Cantrip ignored" in e["what"] for e in s.get("trace", [])))
    event = next(e for e in step["trace"] if "Cantrip ignored" in e["what"])
    assert event["kind"] == "not-applied"


# --- quotes and readings ----------------------------------------------------------------------------------------


def _norm(text: str) -> str:
    text = text.replace("\u2019", "'").replace("\u2018", "'").replace("\u201c", '"').replace("\u201d", '"')
    return re.sub(r"\s+", " ", text.replace("\u2013", "-").replace("\u2014", "-")).lower()


QUOTED = re.compile(r"\"([^\"]{12,})\"|(?<![\w])'([^']{12,}?)'(?![\w])")
CITED = re.compile(r"\b((?:sfr-2012|tsr-1996|sfr-v4)[:][a-z0-9.\-]+[a-z0-9])")


def test_every_quoted_text_occurs_in_the_section_cited(replays):
    """Class check: every quoted passage (12 characters or more, in double or single quotes, "..." marking an
    elision) of every trace line of every bundled scenario is in the text of the section the line cites, the
    second citation of a reading, or a section the line names next to it. Another edition's words are a
    reading (both citations), never a quotation."""
    texts = {k: _norm(v.text) for k, v in sections().items()}
    bad, checked = [], 0
    for name, _, e in _events(replays):
        for field in ("what", "rule"):
            for m in QUOTED.finditer(e[field]):
                cites = [e["cite"], *CITED.findall(e.get("also") or ""), *CITED.findall(e[field])]
                where = " ".join(t for k, t in texts.items() if any(k == c or k.startswith(c + ".") for c in cites))
                pieces = [p.strip(" .,;") for p in re.split(r"\.\.\.|\u2026", _norm(m.group(1) or m.group(2)))]
                checked += 1
                if not all(p in where for p in pieces if p):
                    bad.append((name, e["cite"], m.group(0)[:90]))
    assert checked > 250
    assert not bad, sorted(set(bad))[:20]


def test_tsr_1996_counter_is_read_with_002_s_magical_saves_not_quoted_as_000(replays):
    """004 Counter: the attacking army "may not roll saves against it"; the engine lets spells' saves protect as
    002 Counter says ("Only magical saves protect against this damage"): a reading citing both."""
    events = [e for _, _, e in _events({k: v for k, v in replays.items() if k.startswith("tsr1996")})
              if "damage back at" in e["what"] and e["cite"].endswith("counter")]
    assert events
    for e in events:
        assert e["kind"] == "reading" and e["also"] == "sfr-2012:special-action-icon-sai-list.counter"
        assert e["cite"].startswith("tsr-1996:")


def test_readings_carry_both_citations(replays):
    """Every line that says it is a reading is marked as one, with its second citation."""
    readings = [(name, e) for name, _, e in _events(replays) if e["what"].startswith("reading: ")]
    assert len(readings) > 50
    # a reading of why a rule did not apply is marked not-applied, still with both citations
    assert [(name, e["what"]) for name, e in readings
            if e.get("kind") not in ("reading", "not-applied") or not e.get("also")] == []


# --- less noise by default --------------------------------------------------------------------------------------


def test_the_default_view_folds_each_unit_s_count_into_the_army_line(run):
    path = str(ROOT / "scenarios" / "sfr2012-sai-results-and-modifiers.yaml")
    short = " ".join(run("resolve", path).stdout.split())
    full = " ".join(run("resolve", path, "--verbose").stdout.split())
    assert "3-point fly gives 3 maneuver" not in short and "3-point fly gives 3 maneuver" in full
    assert "stuck: maneuver counted (3 from fly) = 7" in short
    data = json.loads(run("resolve", path, "--json").stdout)
    details = [e for e in data["steps"][0]["trace"] if e.get("detail")]
    assert [e["what"] for e in details] == ["stuck: 4 maneuver icon(s)", "stuck: 3-point fly gives 3 maneuver"]


def test_a_per_unit_count_names_each_unit_s_share(replays):
    step = _step(replays, "sfr2012-sai-results-and-modifiers.yaml", 5)
    counted = next(e for e in step["trace"] if e["what"].startswith("goblins: melee counted"))
    assert counted["what"] == "goblins: melee counted (3 from double-strike)" and counted["after"] == 5


def test_maneuver_comparisons_have_no_arrows(run, replays):
    step = _step(replays, "sfr2012-maneuver-ties-and-counters.yaml", 2)
    event = next(e for e in step["trace"] if " vs " in e["what"])
    assert event["kind"] == "comparison" and "before" not in event and "after" not in event
    out = run("resolve", str(ROOT / "scenarios" / "sfr2012-maneuver-ties-and-counters.yaml")).stdout
    line = next(x for x in out.splitlines() if " vs " in x)
    assert "->" not in line


# --- messages ---------------------------------------------------------------------------------------------------

REPR = re.compile(r"\[('[^']*'|\"[^\"]*\")(, ('[^']*'|\"[^\"]*\"|\d+))*\]|\{('[^']*'|\"[^\"]*\"): |combination:"
                  r"|(?<![.:] )(?<!^)\b(None|True|False)\b|<\w[\w.]* object|\b\w+\(\w+=|\bset\(\)"
                  r"|\bdict_(keys|values|items)\(")


def test_told_writes_values_as_a_scenario_does():
    assert told({"missile": 4, "save": 1}) == "{missile: 4, save: 1}"
    assert told(["a", "b"]) == "[a, b]" and told(("a",)) == "[a]" and told(None) == "none"
    assert not REPR.search(told({"x": [None, "y"]}))


def test_no_python_repr_in_any_trace_line_or_refusal(replays):
    """Class check over every bundled scenario: no trace line, rule or refusal prints a Python value."""
    bad = [(name, text[:120]) for name, result in replays.items() for step in result["steps"]
           for text in (step.get("rejected", ""), *(e[f] for e in step.get("trace", []) for f in ("what", "rule")))
           if text and REPR.search(text)]
    assert not bad, bad[:10]


BASE = """\
ddref: 1
title: wrong on purpose
edition: sfr-2012
players: [me, them]
terrains:
  field: {type: flatland, face: 3, action: melee, home_of: me}
armies:
  hitters: {player: me, at: field, units: [{id: h1, race: dwarf, health: 1}, {id: h2, race: dwarf, health: 2}]}
  mixed: {player: them, at: field, units: [{id: one, race: goblin, health: 1}, {id: big, race: goblin, health: 3}]}
"""

WRONG = {
    "casualties over the damage": BASE + """steps:
  - melee: {army: hitters, target: mixed, roll: {melee: 1}, saves: {mixed: {save: 0}}, casualties: {mixed: [big]}}
""",
    "casualties naming a stranger": BASE + """steps:
  - melee: {army: hitters, target: mixed, roll: {melee: 1}, saves: {mixed: {save: 0}}, casualties: {mixed: [nobody]}}
""",
    "a player misspelled where it is declared": BASE.replace("players: [me, them]", "players: [me, thme]"),
    "a terrain misspelled": BASE.replace("at: field, units: [{id: one", "at: feild, units: [{id: one"),
    "a Flurry roll without its next face": BASE + """steps:
  - roll: {army: hitters, for: [melee, save], roll: {h1: melee, h2: [flurry]}}
""",
    "an unknown unit name": BASE.replace("{id: h1, race: dwarf, health: 1}", "{id: h1, name: Footmann, race: dwarf}")
    + """effects:
  - {spell: burning-hands, target: h1, by: me}
steps:
  - roll: {army: hitters, for: melee, roll: {h1: melee 2}}
""",
}


@pytest.mark.parametrize("name", list(WRONG))
def test_no_python_repr_in_the_messages_of_wrong_scenarios(name):
    """The same class check over scenarios wrong on purpose: every message, and every trace line of a step
    that is refused and expected to be."""
    try:
        result = replay(parse(WRONG[name], f"{name}.yaml"))
    except ScenarioErrors as exc:
        messages = [e.message for e in exc.errors]
    else:
        messages = [s.get("rejected", "") for s in result["steps"]] + [
            e[f] for s in result["steps"] for e in s.get("trace", []) for f in ("what", "rule")]
    assert messages
    assert not [m for m in messages if REPR.search(m)], messages


def test_a_casualty_list_over_the_damage_says_so():
    with pytest.raises(ScenarioErrors) as info:
        replay(parse(WRONG["casualties over the damage"], "w.yaml"))
    message = " ".join(str(info.value).split())
    assert "casualties [big] names 3 health-worth for 1 damage, more than it can take" in message
    assert "legal choices include: [one]" in message


def test_one_unknown_unit_name_is_one_error_not_a_cascade():
    """A unit whose name is unknown stays in its army under its id: the effect and the roll naming it are not
    reported again (they were three more errors over valid entries)."""
    with pytest.raises(ScenarioErrors) as info:
        parse(WRONG["an unknown unit name"], "w.yaml")
    assert [e.path for e in info.value.errors] == ["armies.hitters.units[0].name"]
    assert info.value.errors[0].message.startswith("unknown unit named 'Footmann' of the dwarf race in sfr-2012; "
                                                 "did you mean: Footman")


# --- the format: every roll, casualties per source, units kept from the DUA ----------------------------------------


def test_an_army_saving_against_two_spells_keeps_both_rolls_in_order(replays):
    """Fearful Flames twice at foe1 (its avoidance: [{save: 1}, {save: 1}]): two save rolls in one magic step,
    both kept under ``rolls`` in order; ``results`` holds the last, as before."""
    step = _step(replays, "sfr2012-magic-eldarim-colors.yaml", 5)
    assert step["rolls"]["foe1"] == [{"for": ["save"], "save": 1}, {"for": ["save"], "save": 1}]
    assert step["results"]["foe1"] == {"save": 1}
    melee = _step(replays, "sfr2012-counting-and-melee-example.yaml", 2)   # attack, then save against the counter
    assert [r["for"] for r in melee["rolls"]["ours"]] == [["melee"], ["save"]]


def test_casualties_named_per_source_go_to_that_source(replays):
    """The Smite takes the units named for it (v4, v5, v6), the melee damage its own (v1, v2); Open Grave keeps
    the melee's from the DUA: listed under ``kept`` with where they went."""
    step = _step(replays, "sfr2012-casualties-per-source.yaml", 1)
    assert step["killed"] == ["v4", "v5", "v6"]
    assert step["kept"] == {"v1": "them-reserve", "v2": "them-reserve"}
    refused = _step(replays, "sfr2012-casualties-per-source.yaml", 2)
    assert refused["rejected"].endswith("victims.slay [v9] (no slay damage to victims in this step)")


def test_defaulted_marks_only_a_real_choice(replays):
    """Two damage on four 3-health units takes no unit, on 1+1+3 health the two 1-health units: nothing to
    choose, no (defaulted). Three damage on more 1-health units than that: the owner had a choice, marked."""
    forced = _step(replays, "sfr2012-damage-allocation.yaml", 3)
    event = next(e for e in forced["trace"] if "removes" in e["what"])
    assert event["what"] == "melee damage: giants removes no unit" and not event.get("defaulted")
    left = _step(replays, "sfr2012-damage-allocation.yaml", 4)     # 1+1+3 left: only the two 1-health units
    event = next(e for e in left["trace"] if "removes" in e["what"])
    assert event["what"] == "melee damage: mixed removes one, two" and not event.get("defaulted")
    chosen = _step(replays, "sfr2012-modifiers-wall-of-fog-dust-devil-16-to-4.yaml", 1)   # 3 of four 1-health
    event = next(e for e in chosen["trace"] if "removes" in e["what"])
    assert event.get("defaulted")
    no_points = next(e for _, _, e in _events({"x": replays["sfr2012-dragon-taming-summoned-away.yaml"]})
                     if e["what"] == "magic points: no points")
    assert not no_points.get("defaulted")


def test_phase_headings_only_when_something_happens(replays):
    """alice's first turn: nothing in her Initial Effects phase, its heading a detail line; bob's Feralization
    promotes and recruits: the heading stays (sfr2012-game-two-turns, steps 3 and 9)."""
    quiet = _step(replays, "sfr2012-game-two-turns.yaml", 3)
    busy = _step(replays, "sfr2012-game-two-turns.yaml", 9)
    heading = [e for e in quiet["trace"] if e["what"] == "alice's Initial Effects phase"]
    assert heading and heading[0].get("detail")
    heading = [e for e in busy["trace"] if e["what"] == "bob's Initial Effects phase"]
    assert heading and not heading[0].get("detail")
    tsr = [e for _, _, e in _events({k: v for k, v in replays.items() if k.startswith("tsr1996")})
           if e["what"].startswith("the beginning of ") and "the dragons attack" in e["what"]]
    assert tsr and any(e.get("detail") for e in tsr)


def _splits(listing: str) -> list[dict[str, int]]:
    if listing.strip() == "no points":          # a roll that gave nothing to split (all its magic ignored)
        return []
    return [{c: int(n) for n, c in (part.split() for part in split.split(", "))} for split in listing.split("; ")]


def test_the_largest_splits_are_the_maximal_ones_and_all_of_them(replays):
    """002's Goblin and Dwarf example: 'any of the following types of magic' lists six splits; a split the roll
    does not allow is refused listing exactly those six. Class check: in every bundled refusal, no split listed is
    contained in another (it was the first six by size, smaller ones included, larger ones cut)."""
    step = _step(replays, "sfr2012-magic-colors-goblin-dwarf.yaml", 7)
    listed = _splits(step["rejected"].split("the largest are: ")[1])
    book = [{"gold": 3}, {"gold": 2, "red": 1}, {"gold": 2, "black": 1}, {"red": 2, "gold": 1},
            {"red": 2, "black": 1}, {"gold": 1, "red": 1, "black": 1}]
    assert sorted(map(sorted, map(dict.items, listed))) == sorted(map(sorted, map(dict.items, book)))
    seen = 0
    for name, result in replays.items():
        for s in result["steps"]:
            if "the largest are: " not in s.get("rejected", ""):
                continue
            seen += 1
            listed = _splits(s["rejected"].split("the largest are: ")[1])
            inside = [(a, b) for a in listed for b in listed
                      if a != b and all(n <= b.get(c, 0) for c, n in a.items())]
            assert not inside, (name, inside[:2])
    assert seen >= 10


WILDING = """\
ddref: 1
title: Wilding in a melee step
edition: sfr-2012
players: [me, them]
terrains:
  field: {type: flatland, face: 3, action: melee, home_of: me}
armies:
  ferals: {player: me, at: field, units: [{id: f1, race: feral, health: 1}, {id: f2, race: feral, health: 2}]}
  foes: {player: them, at: field, units: [{id: x1, race: goblin, health: 1}, {id: x2, race: goblin, health: 3}]}
effects:
  - {spell: wilding, target: ferals, by: me}
steps:
  - melee:
      army: ferals
      target: foes
      roll: {f1: melee, f2: melee 3}
      saves: {foes: {save: 0}}
      counter: false
      doubles: {f1: melee}
"""


def test_the_component_wilding_doubles_is_the_owner_s_field_in_a_melee_step():
    """002 Wilding: "one component in the target army may double its melee or save results. Select the component
    after the army's roll is made": named (doubles: {f1: melee}), f1's 1 melee becomes 2 (5 in all, not the
    default's 7 from f2); traced as the owner's choice, not a default."""
    step = replay(parse(WILDING, "w.yaml"))["steps"][0]
    assert step["results"]["ferals"]["melee"] == 5
    chosen = next(e for e in step["trace"] if "chosen to double" in e["what"])
    assert chosen["what"] == "wilding: f1 (melee) chosen to double" and not chosen.get("defaulted")
    default = replay(parse(WILDING.replace("      doubles: {f1: melee}\n", ""), "w.yaml"))["steps"][0]
    assert default["results"]["ferals"]["melee"] == 7
    assert next(e for e in default["trace"] if "chosen to double" in e["what"]).get("defaulted")


LEAVING = """\
ddref: 1
title: Leaving to a chosen army
edition: sfr-2012
players: [alice, bob]
turn: {player: bob}
terrains:
  plain: {type: flatland, face: 3, action: melee, home_of: alice}
  hill: {type: highland, face: 3, action: melee, home_of: bob}
  vale: {type: coastland, face: 2, action: magic, frontier: true}
armies:
  trees: {player: alice, at: hill, units: [{id: t1, race: treefolk, health: 2}, {id: t2, race: treefolk, health: 2}]}
  first: {player: alice, at: plain, units: [{id: f1, race: feral, health: 1}]}
  second: {player: alice, at: vale, units: [{id: s1, race: feral, health: 1}]}
  orcs: {player: bob, at: hill, units: [{id: o1, race: goblin, health: 4}]}
effects:
  - {spell: leaving, target: alice, by: alice}
steps:
  - melee: {army: orcs, target: trees, roll: {melee: 2}, saves: {trees: {save: 0}}, counter: false, casualties: {trees: {to: second}}}
"""


def test_where_leaving_sends_casualties_is_the_owner_s_field():
    """002 Leaving: the casualties go to another of the owner's armies at a terrain, the owner's pick:
    casualties: {trees: {to: second}} sends t1 to second (not the first army written, the default); an army that is
    not such an army is refused, listing those; a to: that no spell used is refused, never ignored."""
    step = replay(parse(LEAVING, "w.yaml"))["steps"][0]
    assert step["kept"] == {"t1": "second"} and step["killed"] == []
    default = replay(parse(LEAVING.replace(", casualties: {trees: {to: second}}", ""), "w.yaml"))["steps"][0]
    assert default["kept"] == {"t1": "first"}
    with pytest.raises(ScenarioErrors, match=r"not orcs \(legal: first, second\)"):
        replay(parse(LEAVING.replace("to: second", "to: orcs"), "w.yaml"))
    with pytest.raises(ScenarioErrors, match="casualties.trees.to names where a spell sends trees' casualties, but "
                                             "none did in this step"):
        replay(parse(LEAVING.replace("  - {spell: leaving, target: alice, by: alice}\n", "")
                     .replace("effects:\n", "effects: []\n"), "w.yaml"))


def test_the_summary_lists_the_result_types_the_step_rolled_for(run, replays):
    """002's 17-saves example: the elves roll for saves; their 12 maneuver icons count only as the Coral Elves'
    saves, the 4 left are no result of this roll: the summary says 17 save, --verbose (and --json) keep all."""
    step = _step(replays, "sfr2012-modifiers-coral-elf-17-saves.yaml", 1)
    assert step["rolled_for"] == {"archers": ["missile"], "elves": ["save"]}
    path = str(ROOT / "scenarios" / "sfr2012-modifiers-coral-elf-17-saves.yaml")
    lines = [" ".join(x.split()) for x in run("resolve", path).stdout.splitlines()]
    assert "elves 17 save" in lines
    verbose = [" ".join(x.split()) for x in run("resolve", path, "--verbose").stdout.splitlines()]
    assert "elves 4 maneuver, 17 save" in verbose
