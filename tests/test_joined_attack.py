"""Units a Regenerate (or Medallion, tsr-1996 Ferry) brings into a skirmish roll use its SAIs there (002 Resolution:
they "are rolled immediately and the results applied with the results of their army"; 004 Regenerate B): in the
attack roll, after the army's own specials, as a freed unit's (engine.actions.freed_sais); in the save roll, with the
army's own (engine.actions.combat ``_with_brought_sais``). The bundled scenarios' situations with other steps."""

from __future__ import annotations

from pathlib import Path

import pytest

from ddref.scenario.run import parse, replay
from ddref.scenario.source import UserError

_ROOT = Path(__file__).parents[1] / "scenarios"


def _play(name: str, steps: str, edit: tuple[str, str] = ("", "")) -> dict:
    """The bundled scenario's situation (``edit``: a text and its replacement in it) with ``steps``: the last step's
    result."""
    text = (_ROOT / name).read_text()
    assert edit[0] in text
    situation = text[:text.index("\nsteps:") + 1].replace(*edit)
    return replay(parse(situation + "steps:\n" + steps, "t.yaml"))["steps"][-1]


_SFR = "sfr2012-sai-joined-attack-specials.yaml"
_KICK = """  - melee: {army: goblins, target: elves, roll: {troll: regenerate, k1: kick 3, w1: melee 2},
            targets: {regenerate: [g3], kick: [e5, e6]}, unit_saves: {g3: kick 3, e5: save 3, e6: melee},
            saves: {elves: {e4: save 2}}, counter: false}
"""


def test_a_returned_unit_s_kick_takes_the_next_target_else_adds_to_the_first_s():
    """k1's Kick (3) on e5, which saves 3; g3, brought back, kicks (3): the next unit named, e6 (melee: no save,
    killed); e5 named alone, g3's 3 are added to k1's on e5, which saves 3 against 6: killed."""
    out = _play(_SFR, _KICK)
    assert out["killed"] == ["e6"]
    assert any(e["what"] == "kick: 3 damage - 3 saves on e5: survives" for e in out["trace"])
    out = _play(_SFR, _KICK.replace("kick: [e5, e6]", "kick: [e5]").replace(", e6: melee", ""))
    assert out["killed"] == ["e5"]
    assert any(e["what"] == "kick of g3: 3 damage added to the first kick's 3 on e5" for e in out["trace"])
    assert any(e["what"] == "kick: 6 damage - 3 saves on e5: killed" for e in out["trace"])


def test_a_returned_unit_s_smite_alone_damages_the_army_with_no_saves():
    """No Smite of the army's own: g2's 2-point Smite, brought back by the Troll, kills e3 (2 health), no saves; w1's
    2 melee are saved."""
    out = _play(_SFR, """  - melee: {army: goblins, target: elves, roll: {troll: regenerate, w1: melee 2},
            targets: {regenerate: [g2]}, unit_saves: {g2: smite 2}, casualties: {elves: [e3]},
            saves: {elves: {e4: save 2}}, counter: false}
""")
    assert out["killed"] == ["e3"] and out["damage"]["elves"] == 2
    assert any(e["what"] == "smite: 2 damage to elves, no saves" for e in out["trace"])


def test_a_poison_target_the_returned_unit_s_poison_does_not_take_is_an_error():
    """p1's Poison (1) takes e7, the rest of targets.poison left to g4's Poison; g4 rolls a save instead, so e8 is
    taken by no Poison: the error names the unit left."""
    steps = """  - melee: {army: goblins, target: elves, roll: {troll: regenerate, p1: poison, w1: melee 2},
            targets: {regenerate: [g4], poison: [e7, e8]}, unit_saves: {g4: save, e7: save},
            saves: {elves: {e4: save 2}}, counter: false}
"""
    with pytest.raises(UserError, match="e8 past that is left to the same SAI rolled by a unit brought into goblins's "
                                        "roll, and none took it"):
        _play(_SFR, steps)


def test_a_returned_unit_s_counter_in_the_save_roll_hits_back():
    """The Troll's Regenerate brings g7 into the Goblins' save roll against e5's 3 melee: its 2-point Counter gives 2
    saves (1 damage: p1 killed) and 2 hits back at the Elves, no saves: e4 (2 health) killed. Rolled as a plain save
    roll, its hits were lost."""
    out = _play(_SFR, """  - turn: {player: alice}
  - melee: {army: elves, target: goblins, roll: {e5: melee 3}, saves: {goblins: {troll: regenerate}},
            targets: {regenerate: [g7]}, unit_saves: {g7: counter 2}, casualties: {elves: [e4]}, counter: false}
""")
    assert out["damage"] == {"elves": 2, "goblins": 1} and out["killed"] == ["e4", "p1"]
    assert any(e["what"] == "counter: 2 damage back at elves, 0 magical save(s)" for e in out["trace"])


_TSR = "tsr1996-sai-joined-attack-specials.yaml"


@pytest.mark.parametrize(("returned", "routed"), [("y3: save 2", False), ("y3: melee 2", True)])
def test_a_unit_returned_into_the_save_roll_counts_its_icons_for_routing(returned, routed):
    """B1 shows two IDs; y5, brought back by TrollsB's Regenerate, rolls 2 save icons (B1 holds: A1 cannot pursue)
    or 2 melee (no save icon: routed, A1 pursues, the vale turned down)."""
    steps = f"""  - turn: {{player: b}}
  - turn: {{player: a}}
  - melee: {{army: A1, target: B1, roll: {{m1: melee 2}}, saves: {{B1: {{trollsb: regenerate, y1: id, y2: id}}}},
            targets: {{regenerate: [y3]}}, unit_saves: {{{returned}}}, pursue: true}}
"""
    dua = ("\ndua:\n", "\ndua:\n  b: [{id: y5, race: goblin, health: 2}]\n")
    steps = steps.replace("y3", "y5")
    if routed:
        assert _play(_TSR, steps, dua)["terrains"]["vale"]["face"] == 4
    else:
        with pytest.raises(UserError, match="B1 was not routed, so A1 cannot pursue it"):
            _play(_TSR, steps, dua)


_TRUMPET = "sfr2012-sai-joined-trumpet.yaml"


@pytest.mark.parametrize(("h2", "saves"), [("trumpet", 4), ("save", 3)])
def test_a_returned_unit_s_trumpet_in_the_save_roll_doubles_the_army_s_ferals(h2, saves):
    """e1 and e2 make 4 melee hits on the Herd; in its save roll the Troll's Regenerate brings back h2, a Feral: its
    Trumpet doubles f1's 2 saves (4, no damage); its 1 save instead adds to f1's undoubled 2 (3, 1 damage)."""
    out = _play(_TRUMPET, f"""  - turn: {{player: alice}}
  - melee: {{army: elves, target: herd, roll: {{e1: melee 2, e2: melee 2}}, saves: {{herd: {{troll: regenerate, f1: save 2}}}},
            targets: {{regenerate: [h2]}}, unit_saves: {{h2: {h2}}}, counter: false}}
""")
    assert out["results"]["herd"]["save"] == saves
    assert out["damage"]["herd"] == 4 - saves


def test_a_unit_named_in_an_army_s_roll_is_checked_when_the_step_resolves():
    """A unit of the player's that is not in the army at the start may roll with it in a later step (it may have
    joined it: a Regenerate, a Teleport); one that has not joined is refused when the step resolves, and a unit the
    scenario does not know at all when it is read, with a did-you-mean."""
    steps = """  - melee: {army: goblins, target: elves, roll: {troll: melee 2, g2: melee 2}, saves: {elves: {e1: save 2}},
            counter: false}
"""
    with pytest.raises(UserError, match="unit g2 is not in army goblins when this step resolves"):
        _play(_SFR, steps)
    with pytest.raises(UserError, match=r"unit 'troll2' is not in army goblins; did you mean: troll\?"):
        _play(_SFR, steps.replace("g2: melee 2", "troll2: melee 2"))
