"""A choice given in a step that nothing uses is refused, never silently ignored (issue 21 §3; gl-8 of
corpus/conformance/defects.md): for every choice field of every step kind that rolls (built from engine.steps' own
fields, so a new field without a probe here fails), a well-formed entry the step cannot use (an SAI not rolled, a
unit that made no such roll, a penalty no roll took) is refused, naming the field."""

from __future__ import annotations

import msgspec
import pytest

from ddref.scenario.run import parse, replay
from engine import steps

HEAD = """\
ddref: 1
title: unused choices
players: [a, b]
turn: {player: a}
terrains:
  t: {type: flatland, face: 3, action: melee, home_of: a}
  h: {type: highland, face: 3, action: magic, home_of: b}
  m: {type: coastland, face: 3, action: missile, frontier: true}
armies:
  five: {player: a, at: t, units: [{race: goblin, health: 1, count: 5}]}
  mages: {player: a, at: h, units: [{race: lava-elf, health: 2, count: 3}]}
  archers: {player: a, at: m, units: [{race: goblin, health: 1, count: 3}]}
  foe: {player: b, at: t, units: [{id: f1, race: dwarf, health: 2}, {id: f2, race: dwarf, health: 2}]}
  foe2: {player: b, at: h, units: [{id: g1, race: dwarf, health: 2}]}
  foe3: {player: b, at: m, units: [{id: k1, race: dwarf, health: 2}, {id: k2, race: dwarf, health: 2}]}
dua:
  a: [{id: d1, race: goblin, health: 1}]
  b: [{id: d2, race: dwarf, health: 1}]
dragons:
  - {id: r1, color: red, owner: b, at: t}
summoning_pool:
  a: [{minor-terrain: flatland}]
"""

# each step kind's step, legal as written; a probe adds one choice field to it
BASE = {
    steps.MeleeStep: "melee: {army: five, target: foe, roll: {melee: 2}, saves: {foe: {save: 0}}, counter: false, "
                     "casualties: {foe: [f1]}",
    steps.MissileStep: "missile: {army: archers, target: foe3, roll: {missile: 2}, saves: {foe3: {save: 0}}, "
                       "casualties: {foe3: [k1]}",
    steps.MagicStep: "magic: {army: mages, roll: {magic: 2}, colors: {red: 2}, cast: []",
    steps.ManeuverStep: "maneuver: {army: five, direction: up, roll: {maneuver: 2}, counter: {foe: {maneuver: 0}}",
    steps.RollStep: "roll: {army: five, for: melee, roll: {melee: 2}",
    steps.DragonStep: "dragon_attack: {army: five, dragons: {r1: [claws]}, roll: {save: 4}, "
                      "casualties: {five: [five.1, five.2]}",
    # a minor terrain is brought in by a maneuver first (the probe is on the last step)
    steps.MinorStep: "maneuver: {army: five, minor_terrain: flatland}\n  - minor: {army: five, roll: melee",
}

# the fields that are the step itself (what acts, what it rolls, what it is for), not an owner's choice among options
INPUTS = {"army", "target", "roll", "saves", "counter", "counter_saves", "wanted", "direction", "dragons", "cast",
          "colors", "face", "choose", "charge", "pursue", "minor_terrain", "castle", "casualties",
          # derived by the loader from saves (refused at step time by engine.actions.combat.check_savers)
          "other_savers",
          # tsr-1996's charge and Death Magic: refused in sfr-2012 by their own rules
          "rerolls", "death_magic"}

# (step kind, field) -> a well-formed entry nothing in the base step can use
ENTRIES = {
    "move_to": "{wayfare: m}", "targets": "{slay: [f2]}", "discard": "[zz]", "stepped": "{f2: d2}",
    "sacrifice": "{f2: zz}", "burial": "{f2: save}", "ashes": "{f2: save}", "resist_burial": "{f2: save}",
    "move_dragons": "{r1: h}", "doubles": "{f2: melee}", "unit_ids": "{f2: {save: 1}}", "unit_saves": "{d1: save}",
    "rise": "[d1]", "counter_order": "[slay]", "order": "[slay]", "cantrip": "{five: {colors: {red: 1}, cast: []}}",
    "fleeing": "{foe2: [g1]}", "dispel": "{g1: melee}", "save_sais": "{foe2: {move_to: {ferry: m}}}",
    "attune_color": "red", "negation": "{foe: {save: 1}}", "breath_sais": "{f1: {move_to: {ferry: m}}}",
    "sai_dragons": "{f1: r1}", "logo_targets": "{f1: r1}", "slay": "{r1: melee}", "fights": "{r1: r1}",
    "breath": "{r1: red}", "breath_targets": "{red: [f1]}", "breath_saves": "{f1: save}",
    "breath_burial": "{f1: save}", "eldarim": "{f1: melee}", "treasure": "{f1: d2}", "promote": "{f1: d2}",
    "summon": "{five.1: {dragon: r1, to: t}}",
}
# where the YAML names the field otherwise, or the entry differs by step kind
BY_KIND = {
    (steps.MeleeStep, "penalties"): ("penalties", "{foe: {save: 1}}"),
    (steps.MissileStep, "penalties"): ("penalties", "{foe3: {save: 1}}"),
    (steps.MissileStep, "targets"): ("targets", "{slay: [k2]}"),
    (steps.MissileStep, "stepped"): ("stepped", "{k2: d2}"),
    (steps.MissileStep, "sacrifice"): ("sacrifice", "{k2: zz}"),
    (steps.MissileStep, "burial"): ("burial", "{k2: save}"),
    (steps.MissileStep, "ashes"): ("ashes", "{k2: save}"),
    (steps.MissileStep, "resist_burial"): ("resist_burial", "{k2: save}"),
    (steps.MissileStep, "doubles"): ("doubles", "{k2: missile}"),
    (steps.MissileStep, "cantrip"): ("cantrip", "{archers: {colors: {red: 1}, cast: []}}"),
    (steps.RollStep, "choices"): ("penalties", "{melee: 1}"),
    (steps.DragonStep, "choices"): ("penalties", "{save: 1}"),
    (steps.MagicStep, "choices"): ("choices", "{foe2: {penalties: {save: 1}}}"),
    (steps.MagicStep, "avoidance"): ("avoidance", "{foe2: {save: 1}}"),
    (steps.ManeuverStep, "avoidance"): ("avoidance", "{maneuver: 1}"),
    (steps.MinorStep, "avoidance"): ("avoidance", "{maneuver: 1}"),
    (steps.RollStep, "avoidance"): None,    # true/false: the kind of roll, not a choice among options
    (steps.ManeuverStep, "action"): None,   # the new face's icon, used by the base step's success: see below
}


def _probes():
    for kind, base in BASE.items():
        for f in msgspec.structs.fields(kind):
            if f.name in INPUTS:
                continue
            probe = BY_KIND.get((kind, f.name), (f.name, ENTRIES.get(f.name)))
            if probe is None:
                continue
            yield pytest.param(kind, f.name, base, probe, id=f"{kind.__name__}.{f.name}")


@pytest.mark.parametrize("kind, field, base, probe", list(_probes()))
def test_a_choice_nothing_uses_is_refused(kind, field, base, probe):
    name, entry = probe
    assert entry is not None, f"{kind.__name__}.{field} is a choice field with no probe here: add one (ENTRIES)"
    text = HEAD + "steps:\n  - " + base + f", {name}: {entry}}}\n    expect_error: never-matches\n"
    done = replay(parse(text, "s.yaml"))["steps"][-1]
    assert "rejected" in done, f"{kind.__name__}.{field}: {name}: {entry} was accepted, silently ignored"


@pytest.mark.parametrize("kind", list(BASE))
def test_the_base_steps_are_legal(kind):
    """The probes' base steps are allowed as written, so each probe's refusal is its entry's."""
    done = replay(parse(HEAD + "steps:\n  - " + BASE[kind] + "}\n", "s.yaml"))["steps"][-1]
    assert "rejected" not in done


def test_a_new_faces_icon_given_to_a_maneuver_that_fails_is_refused():
    """``action:`` states the icon on the face a maneuver turns the terrain to; a failed maneuver turns nothing."""
    step = "maneuver: {army: five, direction: up, roll: {maneuver: 0}, counter: {foe: {maneuver: 2}}, action: magic}"
    done = replay(parse(HEAD + "steps:\n  - " + step + "\n    expect_error: never-matches\n", "s.yaml"))["steps"][-1]
    assert "the maneuver failed" in done["rejected"]
