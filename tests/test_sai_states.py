"""State, movement, resurrection and magic SAIs (002 SAI List) where a scenario cannot reach the case."""

from __future__ import annotations

from ddref.scenario.run import load_ruleset
from engine.actions.sai_endings import sources_gone
from engine.expiry import turn_begins, turn_ends
from engine.sais import SaiUse, sai_use, unit_use
from engine.state import Army, Effect, GameState, Terrain, Unit
from engine.steps import StepResult

RULES = load_ruleset("sfr-2012")


def test_normal_uses_in_a_dragon_attack():
    """002 Application: "if a SAI has normal results during a melee avoidance roll, missile avoidance roll, or
    save roll, then it also works during a dragon attack" -- Vanish, Rise from the Ashes, Regenerate give saves."""
    assert sai_use("vanish", "dragon").gives == ("save",)
    assert sai_use("rise-from-the-ashes", "dragon").gives == ("save",)
    assert unit_use("regenerate", "dragon", False, {}) == SaiUse(("save",))
    assert sai_use("entangle", "dragon") is None


def test_normal_or_special_gives_one_or_the_other():
    """Regenerate "generates four save results or you may immediately bring back ..." -- not both."""
    assert unit_use("regenerate", "save-melee", False, {}) == SaiUse(("save",))
    assert unit_use("regenerate", "save-melee", False, {"regenerate": 1}) == SaiUse(special="raise")
    # a unit's own roll resolves it too (engine.actions.own_roll): "SAIs have their same effect whether the unit
    # containing the SAI is rolled individually or as part of an army" (002 Application)
    assert unit_use("regenerate", "avoid-melee", True, {"regenerate": 1}) == SaiUse(special="raise")
    assert unit_use("regenerate", "avoid-melee", True, {}) == SaiUse(("save",))
    # an army's avoidance roll and a magic action resolve it (engine.actions.sai_states.in_roll, magic_returns)
    assert unit_use("regenerate", "avoid-melee", False, {"regenerate": 1}) == SaiUse(special="raise")
    assert unit_use("regenerate", "magic", False, {"regenerate": 1}) == SaiUse(special="raise")


def test_individual_save_uses_come_first():
    """Net: "When saving against an individual targeting effect, generates four saves"; Cloak in such a roll
    "generates magic, maneuver, melee, missile or save results" (in an army save roll it adds magical saves)."""
    assert unit_use("net", "save-missile", True, {}) == SaiUse(("save",))
    assert unit_use("net", "save-missile", False, {}) is None
    assert "save" in unit_use("cloak", "save-melee", True, {}).gives
    assert unit_use("cloak", "save-melee", False, {}).special == "cloak"


def test_specials_in_a_units_own_roll_are_resolved():
    """Ferry and Teleport in a unit's own avoidance roll, the Gold Medallion in a unit's own save against a spell
    act as in its army's roll (engine.actions.own_roll); in a counter-maneuver a special result is ignored (002:
    "normal results work, but special results are ignored")."""
    assert unit_use("teleport", "avoid-melee", True, {}) == SaiUse(special="move")
    assert unit_use("ferry", "avoid-save", True, {}) == SaiUse(special="move")
    assert unit_use("ferry", "avoid-save", False, {}).special == "move"
    assert unit_use("cloak", "avoid-save", False, {}).special == "cloak"
    assert unit_use("sfr-tsr-logo-gold-medallion", "save", True, {}) == SaiUse(special="raise")
    assert unit_use("vanish", "avoid-save", True, {}) == SaiUse(("save",), special="move")
    assert unit_use("teleport", "counter-maneuver", False, {}) == SaiUse(("maneuver",))
    assert unit_use("wayfare", "counter-maneuver", False, {}) == SaiUse(("maneuver",))


def test_specials_in_an_army_save_roll_against_a_spell_are_resolved():
    """The army's save roll against a spell (kind "save", engine.actions.spells.save_roll) resolves the
    returning, moving and Cloak SAIs as the save roll of a melee or missile action does."""
    assert unit_use("cloak", "save", False, {}).special == "cloak"
    assert unit_use("vanish", "save", False, {}) == SaiUse(("save",), special="move")
    assert unit_use("sfr-tsr-logo-gold-medallion", "save", False, {}).special == "raise"
    assert unit_use("regenerate", "save", False, {"regenerate": 1}) == SaiUse(special="raise")
    assert unit_use("regenerate", "save", False, {}) == SaiUse(("save",))


def _state(*effects: Effect, at_b: str = "plain") -> GameState:
    a = Army(id="a", player="alice", at="plain", units=(Unit(id="glarer", race="goblin", health=4),))
    b = Army(id="b", player="bob", at=at_b, units=(Unit(id="u1", race="dwarf", health=1),))
    terrains = tuple(Terrain(id=t, type="flatland", colors=("gold", "green"), face=3) for t in ("plain", "hill"))
    return GameState(edition="sfr-2012", players=("alice", "bob"), turn_player="alice", terrains=terrains,
                     armies=(a, b), effects=effects)


def test_stun_ends_with_the_turn_it_was_rolled_in():
    """002 Stun: "cannot be rolled until the end of your turn" -- the end of alice's turn, not bob's."""
    stun = Effect(spell="stun", target="u1", by="alice")
    out = StepResult(kind="turn")
    assert turn_ends(_state(stun), "bob", RULES, out).effects == (stun,)
    assert turn_ends(_state(stun), "alice", RULES, out).effects == ()


def test_sleep_lasts_through_the_next_turn():
    """002 Sleep: "cannot be rolled until the end of your next turn"."""
    sleep = Effect(spell="sleep", target="u1", by="alice")
    out = StepResult(kind="turn")
    state = turn_ends(_state(sleep), "alice", RULES, out)
    assert state.effects == (sleep,)
    state = turn_begins(state, "alice", RULES, out)
    assert turn_ends(state, "alice", RULES, out).effects == ()


def test_hypnosis_ends_when_the_hypnotized_unit_leaves_the_terrain():
    """002 Hypnotic Glare: "This effect ends immediately for a unit if the hypnotized unit leaves the terrain"."""
    glare = Effect(spell="hypnotic-glare", target="u1", by="alice", source="glarer")
    out = StepResult(kind="roll")
    assert sources_gone(_state(glare), RULES, out).effects == (glare,)
    assert sources_gone(_state(glare, at_b="hill"), RULES, out).effects == ()
    assert "no longer at one terrain" in out.trace[-1].what


def test_entangle_does_not_end_when_the_target_moves():
    """002 Entangle ends only by "Killing the entangling unit" (and its duration)."""
    tangle = Effect(spell="entangle", target="u1", by="alice", source="glarer")
    assert sources_gone(_state(tangle, at_b="hill"), RULES, StepResult(kind="roll")).effects == (tangle,)


def test_no_sai_use_of_the_sfr_2012_table_is_left_not_modelled():
    """Issue 6: every SAI of 002's list behaves as written in every kind of roll its table entry names: no entry
    is ``modelled=False`` (what is still refused is a special chosen in a roll no handler reaches, unit_use)."""
    from engine.sais import SAI_USES

    assert sorted((s, k) for s, t in SAI_USES.items() for k, u in t.items() if not u.modelled) == []


def test_the_dragonkin_champions_logo_moves_a_dragon_in_a_melee_and_avoidance_rolls_only():
    """002 Dragonkin Champion's logo: "During any action or non-maneuver avoidance roll, may move a summoned dragon";
    "Dragonkin units cannot roll for magic or missile actions"."""
    logo = "sfr-tsr-logo-dragonkin-champion"
    assert unit_use(logo, "melee", False, {}) == SaiUse(special="dragon-move")
    assert unit_use(logo, "avoid-save", False, {}) == SaiUse(special="dragon-move")
    assert unit_use(logo, "avoid-maneuver", False, {}) is None
    # a unit's own melee avoidance roll is a non-maneuver avoidance roll too (engine.actions.own_roll)
    assert unit_use(logo, "avoid-melee", True, {}) == SaiUse(special="dragon-move")


_DRAGON_RAISE = """
ddref: 1
title: t
edition: sfr-2012
players: [alice, bob]
turn: {player: bob}
terrains: {plain: {type: flatland, face: 3, frontier: true}}
armies:
  goblins: {player: bob, at: plain, units: [{id: troll, race: goblin, health: 4}, {id: s1, race: goblin, health: 2}]}
dua: {bob: [{id: g2, race: goblin, health: 2}, {id: g3, race: goblin, health: 3}]}
dragons: [{id: d1, color: red, form: drake, owner: alice, at: plain}]
steps:
  - dragon_attack: {army: goblins, dragons: {d1: [claws]}, roll: {troll: regenerate, s1: save 2}, %s}
"""


def _dragon_raise(extra: str) -> str:
    """The message of the step's refusal (002 SAI List, Regenerate in the army's roll against a dragon)."""
    import pytest

    from ddref.scenario.run import parse, replay
    from ddref.scenario.source import UserError

    with pytest.raises(UserError) as caught:
        replay(parse(_DRAGON_RAISE % extra, "t.yaml"))
    return str(caught.value)


def test_regenerate_against_a_dragon_refuses_too_much_health_worth():
    """Regenerate brings back "up to four health-worth of units": 5 health-worth is refused, listing the DUA."""
    message = _dragon_raise("targets: {regenerate: [g2, g3]}, unit_saves: {g2: save, g3: save}")
    assert "up to 4 health-worth" in message and "g2 (2), g3 (3)" in message


def test_a_unit_brought_back_against_a_dragon_must_roll():
    """A unit brought back "is rolled immediately": without its roll the step is refused; a roll for a unit
    nothing brought back is refused too."""
    assert "give unit_saves.g3" in _dragon_raise("targets: {regenerate: [g3]}")
    assert "nothing was brought back" in _dragon_raise("unit_saves: {g3: save}")


def test_returning_specials_in_a_save_and_maneuver_combination_roll():
    """Tidal Wave's save and maneuver roll resolves Regenerate and the Medallions ("any non-maneuver roll": its
    save part, 002 Avoidance Rolls "just at least one"), Vanish and Cloak ("During a save roll"), Ferry,
    Teleport and Firewalking; Teleport and Firewalking also give their maneuvers ("During a maneuver or maneuver
    avoidance roll"), the Dragonkin Champion's logo moves a dragon, Trumpet doubles Feral saves (a unit's own
    roll is engine.sais._individual_use's)."""
    kind = "combination:save,maneuver"
    assert unit_use("regenerate", kind, False, {"regenerate": 1}) == SaiUse(special="raise")
    assert unit_use("regenerate", kind, False, {}) == SaiUse(("save",))
    assert unit_use("sfr-tsr-logo-silver-medallion", kind, False, {}).special == "restore"
    assert unit_use("vanish", kind, False, {}) == SaiUse(("save",), special="move")
    assert unit_use("cloak", kind, False, {}) == SaiUse(special="cloak")
    assert unit_use("ferry", kind, False, {}) == SaiUse(special="move")
    assert unit_use("teleport", kind, False, {}) == SaiUse(("maneuver",), special="move")
    assert unit_use("firewalking", kind, False, {}) == SaiUse(("maneuver",), special="move")
    assert unit_use("sfr-tsr-logo-dragonkin-champion", kind, False, {}) == SaiUse(special="dragon-move")
    assert unit_use("trumpet", kind, False, {}) == SaiUse(special="double-units")
    assert "up to 4 health-worth" in _tidal_wave_refusal()


def _tidal_wave_refusal() -> str:
    from ddref.scenario.run import parse, replay
    from ddref.scenario.source import UserError

    from pathlib import Path

    where = Path(__file__).parent.parent / "scenarios" / "sfr2012-spell-tidal-wave-regenerate.yaml"
    text = where.read_text().replace(
        '    expect_error: "up to 4 health-worth of bob\'s dead units"\n', "")
    try:
        replay(parse(text, "t.yaml"))
    except UserError as exc:
        return str(exc)
    return ""


def test_returning_specials_under_a_blue_dragon_breath():
    """Under a Blue Dragon Breath the army's roll against the dragons is a save roll ("dragon-save"), a
    non-maneuver roll (002 Application): Regenerate gives its four saves or, chosen, brings units back; the
    Medallions act; Teleport and Wayfare still move (a reading, engine.actions.dragon)."""
    assert unit_use("regenerate", "dragon-save", False, {}) == SaiUse(("save",))
    assert unit_use("regenerate", "dragon-save", False, {"regenerate": 1}) == SaiUse(special="raise")
    assert unit_use("sfr-tsr-logo-gold-medallion", "dragon-save", False, {}) == SaiUse(special="raise")
    assert unit_use("sfr-tsr-logo-silver-medallion", "dragon-save", False, {}) == SaiUse(special="restore")
    assert unit_use("teleport", "dragon-save", False, {}) == SaiUse(special="move")
    assert unit_use("wayfare", "dragon-save", False, {}) == SaiUse(special="move")


def test_no_sai_use_of_the_tsr_1996_table_is_left_not_modelled():
    """Issue 7: every SAI of 000's list and of 004's monster SAIs behaves as written in every kind of roll its table
    names: no entry is ``modelled=False``; where 004 gives it nothing (General Rules A, "during melee"; B, "during
    missile"; Dispel Magic F; Ferry and Regenerate A, "not during a maneuver roll") it is NO_EFFECT, and the trace
    quotes 004's sentence for that very roll (engine.roll: ``<sai>:no-effect:<kind>``)."""
    from engine.sais import NO_EFFECT

    tsr = load_ruleset("tsr-1996")
    assert sorted((s, k) for s, t in tsr.sai_uses.items() for k, u in t.items() if not u.modelled) == []
    quiet = [(s, k) for s, t in tsr.sai_uses.items() for k, u in t.items() if u is NO_EFFECT and k != "dragon"]
    assert ("kick", "save-melee") in quiet and ("stone", "melee") in quiet and ("ferry", "avoid-maneuver") in quiet
    assert [(s, k) for s, k in quiet if f"{s}:no-effect:{k}" not in tsr.sai_words] == []
    save, melee = tsr.sai_words["poison:no-effect:save"][0], tsr.sai_words["poison:no-effect:missile"][0]
    assert "does NOT occur during a save roll" in save and "does NOT occur" not in melee
    assert "only during a missile attack" in tsr.sai_words["swoop:no-effect:avoid-melee"][0]
    assert tsr.sai_words["dispel-magic:no-effect:magic"][0] == "Dispel icons do not count as magic for any purposes"
    # the dragon-attack rulings: each SAI's own sentence (Flame's by the key without a kind)
    assert tsr.sai_words["flame:no-effect"][0] == "During a dragon attack, Flame has no effect"
    assert tsr.sai_words["charm:no-effect:dragon"] == ("During a dragon attack, Charm has no effect",
                                                       "tsr-1996:faq.monster-special-action-icons.charm")
    # a Blue-Paralysis leaves only saves: Kick's melee against the dragon has no roll to count in
    assert tsr.sai_words["kick:no-effect:dragon-save"][1] == "tsr-1996:dragon-rules.blue-paralysis"


_QUIET = """
{ddref: 1, title: t, edition: tsr-1996, players: [a, b], turn: {player: a},
 terrains: {field: {type: flatland, face: 3, home_of: a}},
 armies: {boats: {player: a, at: field, units: [{id: drake, race: coral-elf, health: 4, monster: true},
                                               {id: e1, race: coral-elf, health: 1}]}},
 steps: [{roll: {army: boats, for: save, roll: {drake: flame, e1: save}}},
         {roll: {army: boats, for: [save, maneuver], avoidance: true, roll: {drake: stone, e1: maneuver}}}]}
"""


def test_no_effect_reads_the_rolls_own_sentence_first():
    """engine.roll: an SAI with no effect in a roll quotes ``<sai>:no-effect:<kind>`` (Flame in a save roll: General
    Rules A's save sentence), else ``<sai>:no-effect`` (Stone in a save and maneuver combination roll, which no
    per-kind key names: General Rules B), and the rest of the roll counts."""
    from ddref.scenario.run import parse, replay

    steps = replay(parse(_QUIET, "t.yaml"))["steps"]
    flame = [e for e in steps[0]["trace"] if "flame has no effect" in e["what"]]
    stone = [e for e in steps[1]["trace"] if "stone has no effect" in e["what"]]
    assert [e["rule"] for e in flame][0].endswith("Unless otherwise noted, the effect does NOT occur during a save roll")
    assert [e["rule"] for e in stone] == [load_ruleset("tsr-1996").sai_words["stone:no-effect"][0]]
    assert steps[0]["results"]["boats"] == {"save": 1} and steps[1]["results"]["boats"]["maneuver"] == 1
