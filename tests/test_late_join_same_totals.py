"""A unit that joins a roll late counts exactly as if it had been in the roll from the start.

002 SAI General Information, Resolution: components brought into an army during a roll "are rolled immediately and
the results applied with the results of their army"; 002 Army Modifiers: "if new units join the army that is under
the influence of a effect with a duration, the new units are also affected by the effect"; 004 Regenerate B and
Ferry C: the units brought "are rolled immediately and their results are counted toward the current roll"; 004
Entangle D: the freed units "may immediately be rolled and are counted in the current roll".

So the roll is one value units join, and the one pipeline (count, unit modifiers, then the army's: subtract, divide,
multiply, racial, add) counts it whole (engine.roll ``grown``, read by engine.actions.joined_rolls
``through_pipeline``). For each way a unit joins (returned by Regenerate, ferried in, freed from an Entangle into an
attack roll or a save roll, doubled by the roll's Trumpet once it joined) and each kind of roll, under an army
modifier that a sum beside the pipeline gets wrong (the eighth face's doubling, a spell's penalty), the scenario
where the units join is replayed next to the same scenario with those units in the army from the start, rolling the
same faces, and the army's number must be the same. A late-unit path that adds its units' results to a finished
roll (after the army's modifiers) breaks the equality for the case it serves; each case also pins the number worked
out by hand, so a pipeline wrong for both does not pass either. Likewise a unit that leaves the roll before it is
finalized (002 Resolution: "any component removed from the army ... does not have its results counted in the army
total") counts as one never in it; and a structural check keeps the roll's joined units written and counted in one
place only.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from ddref.scenario.run import parse, replay

# sfr-2012: the Troll's Regenerate brings back g2 and g1 (both Goblins, as the army), who roll at once; from the start
# they are in the army and roll the same faces, the Troll then rolling nothing the roll is for
_SFR = """ddref: 1
title: a unit joins a roll, or is in it from the start
edition: sfr-2012
players: [alice, bob]
turn: {{player: {player}}}
terrains:
  coast: {{type: coastland, face: 8, eighth: city, controlled_by: goblins, frontier: true}}
  hill: {{type: highland, face: 3, action: missile, home_of: alice}}
  marsh: {{type: swampland, face: 3, action: magic, home_of: bob}}
armies:
  elves: {{player: alice, at: coast, units: [{{race: lava-elf, health: 2, count: 6}}]}}
  archers: {{player: alice, at: hill, units: [{{race: lava-elf, health: 2, count: 3}}]}}
  mages: {{player: alice, at: marsh, units: [{{race: coral-elf, health: 3, count: 3}}]}}
  goblins: {{player: bob, at: coast, units: [{{id: troll, race: goblin, health: 4}}, {{id: gob, race: goblin, health: 1}},
                                           {{id: lift, race: goblin, health: 1}}{home}]}}
dragons: [{{id: d1, color: red, form: drake, owner: alice, at: coast}}]
dua:
  bob: [{{id: g9, race: goblin, health: 1}}{dua}]
effects: [{effects}]
steps:
  - {step}
"""
_G = ", {id: g2, race: goblin, health: 2}, {id: g1, race: goblin, health: 1}"
# {own}: the army's own faces; {joins}: how the units come in (late) or nothing (from the start)
_LATE = {"own": "troll: regenerate, gob: R", "joins": ", targets: {regenerate: [g2, g1]}, unit_saves: {g2: R, g1: R 2}"}
_START = {"own": "gob: R, g2: R, g1: R 2", "joins": ""}

# kind of roll -> (whose turn, the effects in play, the step, the result type, the number checked, the number by hand)
_SFR_CASES = {
    # 1 + 1 + 2 = 4 saves, doubled at the eighth face: 8
    "melee save roll": ("alice", "", "melee: {{army: elves, target: goblins, roll: {{melee: 9}}, saves: {{goblins: "
                                     "{{{own}}}}}, counter: false{joins}}}", "save", "results.goblins.save", 8),
    "missile save roll": ("alice", "", "missile: {{army: archers, target: goblins, roll: {{missile: 9}}, saves: "
                                       "{{goblins: {{{own}}}}}{joins}}}", "save", "results.goblins.save", 8),
    "save roll step": ("bob", "", "roll: {{army: goblins, for: [save], roll: {{{own}}}{joins}}}", "save",
                       "results.goblins.save", 8),
    "save roll against spells": ("alice", "", "magic: {{army: mages, roll: {{magic: 6}}, colors: {{blue: 6}}, "
                                              "cast: [{{spell: hailstorm, target: goblins, count: 3}}], "
                                              "avoidance: {{goblins: {{{own}}}}}{sais}}}",
                                 "save", "results.goblins.save", 8),
    "roll against a dragon attack": ("bob", "", "dragon_attack: {{army: goblins, dragons: {{d1: [claws]}}, roll: "
                                                "{{{own}}}{joins}}}", "save", "results.goblins.save", 8),
    # 002 Elevate, a unit modifier, on g2: 1 + 1 x 2 + 2 = 5 saves, then the eighth face: 10
    "a unit elevated in a dragon attack": ("bob", "", "dragon_attack: {{army: goblins, dragons: {{d1: [claws]}}, "
                                                      "roll: {{{own}, lift: elevate}}{joins}, elevate: {{g2: save}}}}",
                                           "save", "results.goblins.save", 10),
    # Higher Ground, "subtract five melee results from the target army": 4 melee, less five: 0
    "melee attack roll": ("bob", "{spell: higher-ground, target: goblins, by: alice}",
                          "melee: {{army: goblins, target: elves, roll: {{{own}}}, counter: false"     # no damage:
                          "{joins}}}", "melee", "results.goblins.melee", 0),                             # no saves
    # Magic Drain, "subtract two magic results": 4 magic, less two: 2
    "magic action": ("bob", "{spell: magic-drain, target: coast, by: alice}",
                     "magic: {{army: goblins, roll: {{{own}}}{joins}, cast: []}}", "magic", "results.goblins.magic", 2),
}

# tsr-1996: the units come from the DUA (Regenerate) or the trolls' army (Ferry), or are freed from an Entangle
_TSR = """ddref: 1
title: a unit joins a roll, or is in it from the start (tsr-1996)
edition: tsr-1996
players: [a, b]
turn: {{player: {player}}}
terrains:
  swamp: {{type: swampland, face: 3, home_of: a}}
  hill: {{type: highland, face: 8, eighth: city, controlled_by: keep, home_of: b}}
  moor: {{type: highland, face: 5, action: melee}}
armies:
  trolls: {{player: a, at: swamp, units: [{{id: g0, race: goblin, health: 1}}{away}]}}
  keep: {{player: a, at: hill, units: [{{id: troll2, race: goblin, health: 4, monster: true}},
                                      {{id: ferry, race: coral-elf, health: 4, monster: true}},
                                      {{id: gob, race: goblin, health: 1}}{home}]}}
  raiders: {{player: b, at: hill, units: [{{race: dwarf, health: 2, count: 6}}]}}
  A1: {{player: a, at: moor, units: [{{id: vines1, race: goblin, health: 4, monster: true}},
                                    {{id: x1, race: goblin, health: 2}}, {{id: x2, race: goblin, health: 2}}]}}
  B1: {{player: b, at: moor, units: [{{id: s1, race: dwarf, health: 4}}, {{id: venom1, race: dwarf, health: 4,
                                                                        monster: true}}]}}
dua:
  a: [{{id: g9, race: goblin, health: 1}}{dua}]
effects: [{effects}]
steps:
{steps}
"""
_T = {"regenerate": ", {id: g2, race: goblin, health: 2}, {id: g1, race: goblin, health: 1}",
      "ferry": ", {id: g5, race: goblin, health: 1}, {id: g6, race: goblin, health: 3}"}
_REGEN_LATE = "troll2: regenerate, gob: save", ", targets: {regenerate: [g2, g1]}, unit_saves: {g2: save, g1: save 2}"
_REGEN_START = "gob: save, g2: save, g1: save 2", ""
_FERRY_LATE = "ferry: ferry, gob: save", ", targets: {ferry: [g5, g6]}, unit_saves: {g5: save, g6: save 2}"
_FERRY_START = "gob: save, g5: save, g6: save 2", ""


def _tsr_keep(step: str, late: tuple[str, str], start: tuple[str, str], where: str) -> dict[str, tuple[str, str]]:
    """The keep's roll with ``where``'s units joining it late or in it from the start."""
    units = _T[where]
    texts = {}
    for name, (own, joins), home, dua, away in (("late", late, "", units if where == "regenerate" else "",
                                                 units if where == "ferry" else ""),
                                                ("start", start, units, "", "")):
        texts[name] = dict(player="b", effects="", home=home, dua=dua, away=away,
                           steps="  - " + step.format(own=own, joins=joins))
    return texts


_MELEE = "melee: {{army: raiders, target: keep, roll: {{melee: 12}}, saves: {{keep: {{{own}}}}}, counter: false{joins}}}"
_CHARGE = ("melee: {{army: raiders, target: keep, charge: true, roll: {{melee: 12}}, saves: {{keep: {{{own}}}}}"
           "{joins}}}")
# 004 Entangle D, under Palsy on B1 (000: subtract one from every roll of the army): B1's Smite kills the Entangling
# Vines1, venom1, freed, rolls a monster's melee icon: 4 melee, less one: 3; from the start venom1 is not entangled
_FREED_LATE = """  - melee: {army: A1, target: B1, roll: {vines1: entangle}, targets: {entangle: [venom1]}, counter: false}
  - turn: {player: b}
  - melee: {army: B1, target: A1, roll: {s1: smite}, casualties: {A1: [vines1]}, unit_saves: {venom1: melee},
            saves: {A1: {x1: id, x2: id}}, counter: false}"""
_FREED_START = """  - melee: {army: A1, target: B1, roll: {vines1: melee}, saves: {B1: {s1: save}}, counter: false}
  - turn: {player: b}
  - melee: {army: B1, target: A1, roll: {s1: smite, venom1: melee}, casualties: {A1: [vines1]},
            saves: {A1: {x1: id, x2: id}}, counter: false}"""
_PALSY = "{spell: palsy, target: B1, by: a}"

# tsr-1996 case -> (the scenario's fields late, from the start; the number checked; the number by hand)
_TSR_CASES = {
    # 004 Regenerate B: 1 + 1 + 2 = 4 saves, doubled at the eighth face (000: "When rolling for saves, all save
    # results are doubled"): 8
    "Regenerate into a melee save roll": (_tsr_keep(_MELEE, _REGEN_LATE, _REGEN_START, "regenerate"),
                                          "results.keep.save", 8),
    # 004 Ferry C: g5 and g6 come from the swamp: 1 + 1 + 2 = 4 saves, doubled: 8
    "Ferry into a melee save roll": (_tsr_keep(_MELEE, _FERRY_LATE, _FERRY_START, "ferry"), "results.keep.save", 8),
    # 000 Charge: the charged army's one answer, its saves doubled: 8, against 12 damage: 4
    "Regenerate into a charged army's answer": (_tsr_keep(_CHARGE, _REGEN_LATE, _REGEN_START, "regenerate"),
                                                "damage.keep", 4),
    "Ferry into a charged army's answer": (_tsr_keep(_CHARGE, _FERRY_LATE, _FERRY_START, "ferry"), "damage.keep", 4),
    "freed into an attack roll": ({"late": dict(player="a", effects=_PALSY, home="", dua="", away="", steps=_FREED_LATE),
                                   "start": dict(player="a", effects=_PALSY, home="", dua="", away="",
                                                 steps=_FREED_START)}, "results.B1.melee", 3),
}

# tsr-1996: units freed into the defender's save roll (engine.actions.freed_saves): B12's Cantrip buys a Lightning
# Strike that kills the Entangling Vines12 (a melee: no save), ward12, freed, rolls 2 saves at once in the save roll
# at the eighth face B12 holds: 1 + 2 = 3 saves, doubled: 6; from the start ward12 is not entangled
_FREED_SAVES = """ddref: 1
title: a unit freed into a save roll, or in it from the start (tsr-1996)
edition: tsr-1996
players: [a, b]
turn: {{player: a}}
terrains:
  hill: {{type: highland, face: 3, home_of: a}}
  moor: {{type: highland, face: 3, home_of: b}}
  peak: {{type: highland, face: 8, eighth: city, controlled_by: B12}}
armies:
  A12: {{player: a, at: peak, units: [{{id: vines12, race: goblin, health: 4, monster: true}},
                                     {{id: brute12, race: goblin, health: 4, monster: true}}]}}
  B12: {{player: b, at: peak, units: [{{id: mage12, race: coral-elf, health: 3}}, {{id: ward12, race: coral-elf, health: 3}},
                                     {{id: h1, race: coral-elf, health: 1}}, {{id: h2, race: coral-elf, health: 1}}]}}
steps:
  - melee:
      army: A12
      target: B12
      roll: {{{attack}brute12: melee}}
      saves: {{B12: {{mage12: cantrip 4, h2: cantrip 1, h1: save{ward}}}}}
      cantrip: {{B12: {{colors: {{blue: 5}}, cast: [{{spell: lightning-strike, target: vines12}}], avoidance: {{vines12: melee}}}}}}
      counter: false{joins}
"""
_SAVES_LATE = dict(attack="vines12: entangle, ", ward="", joins="\n      targets: {entangle: [ward12]}\n"
                                                                "      unit_saves: {ward12: save 2}")
_SAVES_START = dict(attack="", ward=", ward12: save 2", joins="")

# sfr-2012: a Trumpet of the army's save roll doubles the Feral unit that joins it (engine.actions.joined_trumpet):
# h3's 1 save doubled: 2; from the start h3 is in the army
_TRUMPET = """ddref: 1
title: a Feral unit joins a roll with a Trumpet, or is in it from the start
edition: sfr-2012
players: [alice, bob]
turn: {{player: alice}}
terrains:
  plain: {{type: flatland, face: 3, frontier: true}}
  hill: {{type: highland, face: 3, home_of: bob}}
  marsh: {{type: swampland, face: 3, home_of: alice}}
armies:
  elves: {{player: alice, at: plain, units: [{{id: e2, race: coral-elf, health: 2}}]}}
  herd: {{player: bob, at: plain, units: [{{id: troll, race: goblin, health: 4}}, {{id: f1, race: feral, health: 2}}{home}]}}
dua:
  bob: [{{id: h9, race: feral, health: 2}}{dua}]
steps:
  - melee: {{army: elves, target: herd, roll: {{e2: melee 2}}, saves: {{herd: {{{own}f1: trumpet}}}}, counter: false{joins}}}
"""
_H3 = ", {id: h3, race: feral, health: 2}"
_TRUMPET_LATE = dict(home="", dua=_H3, own="troll: regenerate, ",
                     joins=", targets: {regenerate: [h3]}, unit_saves: {h3: save}")
_TRUMPET_START = dict(home=_H3, dua="", own="h3: save, ", joins="")


def _number(text: str, key: str) -> object:
    result = replay(parse(text, "t.yaml"))
    step = result["steps"][-1]
    assert "rejected" not in step, step
    value: object = step
    for part in key.split("."):
        value = value.get(part, 0) if isinstance(value, dict) else 0
    return value


def _sfr(kind: str, late: bool) -> str:
    player, effects, step, result, _, _ = _SFR_CASES[kind]
    fields = _LATE if late else _START
    own, joins = (fields[k].replace("R", result) for k in ("own", "joins"))
    # the save roll against spells gives its SAIs' choices under save_sais
    sais = f", save_sais: {{goblins: {{{joins.removeprefix(', ')}}}}}" if joins else ""
    return _SFR.format(player=player, effects=effects, step=step.format(own=own, joins=joins, sais=sais),
                       home="" if late else _G, dua=_G if late else "")


@pytest.mark.parametrize("kind", list(_SFR_CASES))
def test_a_returned_unit_counts_as_if_in_the_roll_from_the_start_sfr2012(kind):
    key, by_hand = _SFR_CASES[kind][4:]
    assert (_number(_sfr(kind, True), key), _number(_sfr(kind, False), key)) == (by_hand, by_hand)


@pytest.mark.parametrize("kind", list(_TSR_CASES))
def test_a_joining_unit_counts_as_if_in_the_roll_from_the_start_tsr1996(kind):
    texts, key, by_hand = _TSR_CASES[kind]
    late, start = (_number(_TSR.format(**texts[k]), key) for k in ("late", "start"))
    assert (late, start) == (by_hand, by_hand)


def test_a_unit_freed_into_a_save_roll_counts_as_if_in_it_from_the_start_tsr1996():
    late, start = (_number(_FREED_SAVES.format(**f), "results.B12.save") for f in (_SAVES_LATE, _SAVES_START))
    assert (late, start) == (6, 6)


def test_a_trumpet_doubles_a_joining_feral_as_one_in_the_roll_from_the_start_sfr2012():
    late, start = (_number(_TRUMPET.format(**f), "results.herd.save") for f in (_TRUMPET_LATE, _TRUMPET_START))
    assert (late, start) == (2, 2)


# --- the structure that keeps it so ------------------------------------------------------------------------------

_ENGINE = Path(__file__).resolve().parents[1] / "engine"
# the roll in progress's fields only its own methods write (engine.roll ``Rolling``: join, leave, keep_joined)
_ROLLING_FIELDS = {"joined", "left", "through", "joined_dice"}


def _writes(tree: ast.AST) -> list[tuple[int, str]]:
    """The assignments in ``tree`` to an attribute ``joined``, ``left`` or ``through`` of some other value
    (``x.joined = ``, ``x.joined[u] = ``, ``x.left[u] += ``, ``x.through.add(...)``; a class's own field of that name,
    ``self.left``, is its own)."""
    found = []
    for node in ast.walk(tree):
        targets = node.targets if isinstance(node, ast.Assign) else \
            [node.target] if isinstance(node, (ast.AugAssign, ast.AnnAssign)) else []
        for target in targets:
            base = target.value if isinstance(target, ast.Subscript) else target
            if isinstance(base, ast.Attribute) and base.attr in _ROLLING_FIELDS and \
                    getattr(base.value, "id", None) != "self":
                found.append((node.lineno, ast.unparse(target)))
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
                isinstance(node.func.value, ast.Attribute) and node.func.value.attr in _ROLLING_FIELDS and \
                node.func.attr in ("add", "update", "pop", "clear", "setdefault"):
            found.append((node.lineno, ast.unparse(node.func)))
    return found


def _calls(tree: ast.AST, name: str) -> list[int]:
    return [node.lineno for node in ast.walk(tree) if isinstance(node, ast.Call)
            and (getattr(node.func, "id", None) == name or getattr(node.func, "attr", None) == name)]


def test_only_the_roll_itself_is_joined_and_counted_with_its_units():
    """A unit joins a roll only through the roll's own methods (engine.roll ``Rolling.join``, ``leave``,
    ``keep_joined``), and a roll units joined is counted only by the roll itself (``Rolling.count``, the one caller of
    engine.roll ``grown``, read by engine.actions.joined_rolls ``through_pipeline``): a module that writes a roll's
    joined units or counts them with the army itself is a second path beside the pipeline, and fails here with its
    file and line."""
    beside = []
    for path in sorted(_ENGINE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        name = path.relative_to(_ENGINE.parent).as_posix()
        if name != "engine/roll.py":
            beside += [f"{name}:{line}: writes {what}" for line, what in _writes(tree)]
            beside += [f"{name}:{line}: counts a roll with its joined units (grown)" for line in _calls(tree, "grown")]
        # the joined units' results as they rolled them are read only where the roll is counted with them: a caller
        # that reads them holds them in its own number, a sum beside the pipeline (a dragon attack's once did)
        for func in ast.walk(tree):
            if isinstance(func, ast.FunctionDef) and func.name != "through_pipeline" and name != "engine/roll.py":
                beside += [f"{name}:{line}: {func.name} reads the joined units' results (theirs)"
                           for line in _calls(func, "theirs") if not _nested_def(func, line)]
    assert not beside, "\n".join(beside)


def _nested_def(func: ast.FunctionDef, line: int) -> bool:
    """Whether ``line`` of ``func`` is inside a function defined within it (walked on its own)."""
    return any(isinstance(n, ast.FunctionDef) and n is not func and n.lineno <= line <= n.end_lineno
               for n in ast.walk(func))


# --- and a unit that leaves it late counts as one never in it -----------------------------------------------------

_SCENARIOS = Path(__file__).resolve().parents[1] / "scenarios"
_LEAVERS = "units: [{id: walker, race: goblin, health: 3}, {id: c3, race: goblin, health: 3}, {id: b1,"
_STAYERS = "units: [{id: b1,"


_MOVES = "move_to: {firewalking: fey}, targets: {firewalking: [c3]}"


@pytest.mark.parametrize("name,roll,alone,moves", [
    ("sfr2012-latejoin-tidal-wave-leaver-under-evil-eye.yaml", "{walker: firewalking 3, c3: save 3, b1: maneuver 3}",
     "{b1: maneuver 3}", f",\n            save_sais: {{goblins: {{{_MOVES}}}}}"),
    ("sfr2012-latejoin-dragon-leaver-under-evil-eye.yaml", "{walker: firewalking 3, c3: save 3, b1: melee 3}",
     "{b1: melee 3}", f",\n                    {_MOVES}")], ids=["Tidal Wave's combination roll", "dragon attack"])
def test_a_unit_that_leaves_the_roll_counts_as_if_never_in_it(name, roll, alone, moves):
    """002 Resolution: "any component removed from the army by a Special or Unique resolution type SAI ... does not
    have its results counted in the army total": Firewalking takes c3 (3 saves) away from the Goblins under two Evil
    Eyes; the roll must count as the same army's roll without walker and c3 from the start: 0 saves, less two, 0 (the
    old count, taking c3's saves from the army's after the penalties and stopping at zero, said 2)."""
    text = (_SCENARIOS / name).read_text(encoding="utf-8")
    assert _LEAVERS in text and roll in text and moves in text
    without = text.replace(_LEAVERS, _STAYERS).replace(roll, alone).replace(moves, "")
    without = "\n".join(line for line in without.splitlines() if not line.lstrip().startswith("expect:"))
    assert (_number(text, "results.goblins.save"), _number(without, "results.goblins.save")) == (0, 0)


# --- a unit joins a roll in progress, never none ------------------------------------------------------------------

def test_a_unit_rolled_as_joining_needs_its_armys_roll_in_progress():
    """A unit rolled ``joined`` (engine.actions.common ``roll``) is counted only with its army's roll in progress of the
    same kind (``Rolling.join``): with none (or another kind's), its results would be counted nowhere, so the roll is
    refused as an engine defect before anything is recorded; with the army's roll in progress, it joins it."""
    from engine.actions.common import roll
    from engine.roll import Face, Roll
    from engine.steps import StepResult
    from engine.trace import StepError
    from ddref.scenario.run import load_ruleset

    scenario = parse(_sfr("save roll step", False), "t.yaml")
    state, rules = scenario.state, load_ruleset("sfr-2012")
    goblins = state.army("goblins")
    g1 = Roll(units=(("g1", (Face("save", 2),)),))
    out = StepResult(kind="roll")
    with pytest.raises(StepError, match="goblins has no roll in progress"):
        roll(state, rules, goblins, "save", ("save",), g1, out, unit="g1", joined=True)
    assert (out.results, out.trace, out.rolls) == ({}, [], {})
    roll(state, rules, goblins, "melee", ("melee",), Roll(units=(("gob", (Face("melee"),)),)), out)
    with pytest.raises(StepError, match="a melee roll in progress, not a save roll"):
        roll(state, rules, goblins, "save", ("save",), g1, out, unit="g1", joined=True)
    roll(state, rules, goblins, "save", ("save",), Roll(units=(("gob", (Face("save"),)),)), out)
    roll(state, rules, goblins, "save", ("save",), g1, out, unit="g1", joined=True)
    # gob's 1 and g1's 2, doubled at the eighth face the Goblins hold: 6
    assert out.rolls["goblins"].count("save", []) == 6


# --- a charmed unit joins the acting army's roll, even when charmed before the roll is made ----------------------

_CHARM = _SCENARIOS / "sfr2012-charm-through-army-modifiers.yaml"


@pytest.mark.parametrize("order", ["[charm, cantrip]", "[cantrip, charm]"])
def test_a_charmed_unit_joins_the_roll_whatever_the_order_of_charm_and_cantrip(order):
    """002 Charm: the charmed units "add their results to the results of the acting army", and 002 Resolution: units
    brought into an army during a roll "are rolled immediately and the results applied with the results of their
    army", so Blizzard halves theirs with the army's own: (0 + 2 + 2) halved = 2 melee, 2 damage. The acting player
    may resolve the Charm before the Cantrip (002 Resolution: special and unique SAIs "in any order the player
    chooses"), which suspends the roll before it is counted: the charmed units still join the roll (the old count
    added their 4 melee after the modifiers: 0 halved + 4 = 4)."""
    text = _CHARM.read_text(encoding="utf-8")
    for old, new in (("roll: {eye1: charm, wild.2: save}", "roll: {eye1: charm, wild.2: cantrip 2}"),
                     ("      targets: {charm: [a, c]}", f"      order: {order}\n      cantrip: {{wild: {{colors: "
                                                         "{blue: 2}, cast: []}}\n      targets: {charm: [a, c]}")):
        assert old in text
        text = text.replace(old, new)
    assert (_number(text, "results.wild.melee"), _number(text, "damage.herd")) == (2, 2)


# --- a dragon attack's roll: the joined units count in it as the roll counts them, forced kills too ---------------

_FORCED = _SCENARIOS / "sfr2012-latejoin2-dragon-forced-kill-joined.yaml"


def test_units_joining_a_dragon_attack_count_toward_a_forced_kill_as_if_in_the_roll_from_the_start():
    """002 Step 6: "if you have 10 or more melee results (5 if a dragon rolled belly) ... after applying any
    penalties, but without counting IDs ... then the dragon must be killed"; 002 Resolution: units brought in during
    the roll "are rolled immediately and the results applied with the results of their army". Under Blizzard, h1 and
    h2 brought back by Regenerate roll 2 + 2 melee with brute's 3: (3 + 4) / 2 = 3 melee, no forced kill of the
    Belly drake (5 needed), the same as with h1 and h2 in the army from the start. The old count kept the joined
    units' melee in the dragon attack's own results beside the roll: 1 + 4 = 5 forced, and refused the step."""
    text = _FORCED.read_text(encoding="utf-8")
    units = ", {id: h1, race: goblin, health: 2}, {id: h2, race: goblin, health: 2}"
    changes = (("{id: brute, race: goblin, health: 3}]}", "{id: brute, race: goblin, health: 3}" + units + "]}"),
               ("  bob: [{id: h1, race: goblin, health: 2}, {id: h2, race: goblin, health: 2}]",
                "  bob: [{id: g9, race: goblin, health: 1}]"),
               ("roll: {troll: regenerate, brute: melee 3}", "roll: {brute: melee 3, h1: melee 2, h2: melee 2}"),
               ("      targets: {regenerate: [h1, h2]}\n      unit_saves: {h1: melee 2, h2: melee 2}\n", ""),
               ("      moved: [h1, h2]\n", ""))
    start = text
    for old, new in changes:
        assert old in start
        start = start.replace(old, new)
    for key, by_hand in (("results.goblins.melee", 3), ("dragon.slain", []), ("damage.goblins", 0)):
        assert (_number(text, key), _number(start, key)) == (by_hand, by_hand)


# --- routing reads the roll the units joined ------------------------------------------------------------------------

def test_routing_reads_the_faces_units_rolled_into_the_roll_from_the_roll_itself():
    """000 Option: Routing counts the icons an army "rolls" in its save roll; 004 Regenerate B: the units brought back
    "are rolled immediately and their results are counted toward the current roll". So the faces the routing rule
    reads for them are those they rolled into the roll in progress (engine.roll ``Rolling.shown``), the one record of
    what joined it, not a second reading of the step's ``unit_saves`` (the old path: given other faces there than
    the roll holds, it counted those)."""
    from engine.actions.fight import Fight
    from engine.resolve import resolve
    from engine.roll import Face, Roll
    from ddref.scenario.run import load_ruleset
    from engine.actions.freed_sais import with_rolls

    texts, _, _ = _TSR_CASES["Regenerate into a melee save roll"]
    scenario = parse(_TSR.format(**texts["late"]), "t.yaml")
    rules = load_ruleset("tsr-1996")
    step = scenario.steps[0].step
    _, out = resolve(scenario.state, step, rules)
    assert set(out.rolls["keep"].joined) == {"g2", "g1"}
    other = step.evolve(unit_saves=tuple((u, Roll(units=((u, (Face("id"),)),))) for u, _ in step.unit_saves))
    fight = Fight(state=scenario.state, ruleset=rules, attacker="raiders", defender="keep", action="melee",
                  step=other, casualties={}, out=out)
    shown, extra = with_rolls(fight, Roll(units=(("gob", (Face("save"),)),)), ("g2", "g1"))
    assert [f.icon for _, faces in shown.units for f in faces] == ["save", "save", "save"] and len(extra) == 2
