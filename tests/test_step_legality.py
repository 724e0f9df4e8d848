"""Choices legal or illegal by the rules are checked when the step resolves, so expect_error can pin them; errors
of form (unknown field, wrong type, unknown name) stay load errors (issue 20 §0)."""

from __future__ import annotations

import pytest

from ddref.scenario.run import parse, replay
from ddref.scenario.source import ScenarioErrors

HEAD = """\
ddref: 1
title: legality at the step
players: [me, them]
turn: {player: me}
terrains:
  hill: {type: highland, face: 4, action: melee, home_of: me}
  vale: {type: flatland, face: 4, frontier: true}
  moor: {type: swampland, face: 4}
armies:
  first: {player: me, at: hill, units: [{id: a2, race: feral, health: 2}, {race: feral, health: 1, count: 8}]}
  second: {player: me, at: vale, units: [{id: b1, race: feral, health: 1}, {race: feral, health: 1, count: 4}]}
  foe: {player: them, at: hill, units: [{race: goblin, health: 1, count: 4}]}
  other: {player: them, at: vale, units: [{race: goblin, health: 1, count: 4}]}
  items: {player: me, at: moor, units: [{id: e1, race: coral-elf, health: 2}%s]}
dua:
  me: [{id: dead3, race: feral, health: 3}, {id: dead2, race: feral, health: 2}]
dragons:
  - {id: gold1, color: gold, owner: them, at: hill, form: wyrm}
effects:
  - {spell: palsy, target: foe, by: me}
steps:
"""

# each a rule the loader used to refuse (no expect_error could pin it); now the step is refused with the rule
MOVED = [
    # a penalty placed on a result not rolled for (002 Modifiers and combination rolls)
    ("roll: {army: foe, for: [save, maneuver], roll: {save: 2}, penalties: {melee: 1}}",
     "penalties placed on melee", "sfr-2012:dice-modifiers.modifiers-and-combination-rolls"),
    ("roll: {army: foe, for: [save, maneuver], roll: {id: 1}, ids: {magic: 1}}",
     "ID icons placed on magic", "sfr-2012:dice-modifiers.modifiers-and-combination-rolls"),
    # an illegal promotion in a dragon attack: a unit of another army (002 Dragon Attacks, Promotion)
    ("dragon_attack: {army: first, dragons: {gold1: [claws]}, roll: {melee: 10, save: 6}, promote: {b1: dead2}}",
     "b1 is not a unit of first", None),
    ("dragon_attack: {army: first, dragons: {gold1: [treasure]}, roll: {save: 0}, treasure: {b1: dead2}}",
     "b1 is not a unit of first", None),
    # saves of an army that does not roll them (002 Melee)
    ("melee: {army: first, target: foe, roll: {melee: 2}, saves: {foe: {save: 0}, other: {save: 2}}}",
     "only the defending army (foe) rolls saves here", "sfr-2012:the-turn-sequence.first-march.melee"),
    # penalties laid on a race the army lacks (002 Applying Dice Modifiers)
    ("roll: {army: foe, for: save, roll: {save: 2}, penalties_by_race: {save: {dwarf: 1}}}",
     "dwarf rolled nothing in foe", "sfr-2012:dice-modifiers.applying-dice-modifiers"),
    # an item no unit can carry (002 Magical Items)
    ("roll: {army: items, for: save, roll: {save: 1}}",
     "items holds 2 magical items but its units can carry only 1", "sfr-2012:magical-items"),
]


@pytest.mark.parametrize("body, words, cite", MOVED, ids=[m[1] for m in MOVED])
def test_a_rule_is_checked_when_the_step_resolves_and_expect_error_pins_it(body, words, cite):
    extra = ", {id: foil, name: Flicker Foil, color: blue}, {id: blade, name: Dawn Blade, color: green}"
    head = HEAD % (extra if "items" in body else "")
    out = replay(parse(head + f"  - {body}\n    expect_error: {words!r}\n", "s.yaml"))
    check = out["expectations"][0]
    assert check["ok"], check
    if cite:
        assert out["steps"][0]["cite"] == cite


@pytest.mark.parametrize("body, words", [
    ("roll: {army: foe, for: save, roll: {save: 2}, penalties: {melle: 1}}", "unknown result type 'melle'"),
    ("dragon_attack: {army: first, dragons: {gold1: [claws]}, roll: {save: 6}, promote: {nobody: dead2}}",
     "unknown unit 'nobody'"),
    ("melee: {army: first, target: foe, roll: {melee: 2}, saves: {foes: {save: 0}}}", "unknown army 'foes'"),
    ("roll: {army: foe, for: save, roll: {save: 2}, penalties_by_race: {save: {dwarfs: 1}}}", "dwarf"),
    ("roll: {army: foe, for: save, roll: {save: 2}, penalties: {save: one}}", "expected an integer"),
])
def test_errors_of_form_stay_load_errors(body, words):
    with pytest.raises(ScenarioErrors) as exc:
        replay(parse(HEAD % "" + f"  - {body}\n    expect_error: x\n", "s.yaml"))
    assert words in str(exc.value) and "is not allowed" not in str(exc.value)
