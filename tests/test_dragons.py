"""Dragons (engine.dragons, engine.actions.dragon): which dragons attack which, the edition's dragon numbers
against the corpus, SAIs in the army's roll, and the cases a scenario cannot reach."""

from __future__ import annotations

import pytest

from ddref.scenario.run import load_ruleset
from engine import dragons
from engine.actions.dragon import dragon_attack
from engine.roll import Face, Roll
from engine.sais import sai_use
from engine.state import Area, Army, Dragon, GameState, Terrain, Unit
from engine.steps import DragonStep
from engine.trace import StepError
from index.corpus import records
from fast_yaml import load_yaml

RULES = load_ruleset("sfr-2012")


def dragon(did, color, at="t", form=None):
    return Dragon(id=did, color=color, at=at, owner="them", form=form)


def sides(*here):
    return ([d.id for d in here if dragons.attacks_army(d, here)],
            {d.id: [f.id for f in dragons.foes(d, here)] for d in here if dragons.foes(d, here)})


def test_step_5_examples():
    """002 Step 5, Examples 1-3: an ivory and a green dragon both attack the army; with a black dragon too,
    the black and green attack each other while the ivory attacks the army; a black dragon attacks an
    ivory/red hybrid, which attacks the army."""
    assert sides(dragon("iv", "ivory"), dragon("gr", "green")) == (["iv", "gr"], {})
    assert sides(dragon("iv", "ivory"), dragon("gr", "green"), dragon("bk", "black")) == (
        ["iv"], {"gr": ["bk"], "bk": ["gr"]})
    assert sides(dragon("ir", "ivory-red"), dragon("bk", "black")) == (["ir"], {"bk": ["ir"]})


def test_hybrid_and_white_targeting():
    """002 Hybrid Dragons: "Hybrid Dragons fight all dragons (except pure ivory dragons and ivory hybrids with a
    matching elemental color) that do not match their colors exactly. Elemental and White dragons fight all
    Hybrid Dragons"; White Dragons: "A white dragon will fight all other dragons at a terrain, except an
    ivory dragon"."""
    assert sides(dragon("rg", "red-green"), dragon("gr2", "green-red")) == (["rg", "gr2"], {})
    assert sides(dragon("rg", "red-green"), dragon("r", "red")) == ([], {"rg": ["r"], "r": ["rg"]})
    assert sides(dragon("w", "white"), dragon("iv", "ivory"), dragon("ig", "ivory-gold")) == (
        ["iv", "ig"], {"w": ["ig"]})
    assert sides(dragon("w", "white"), dragon("w2", "white")) == (["w", "w2"], {})
    # an elemental dragon matching an ivory hybrid's elemental color leaves it alone
    assert sides(dragon("g", "gold"), dragon("ig", "ivory-gold")) == (["g", "ig"], {})


def test_ruleset_dragon_faces_are_the_corpus_numbers():
    """The edition's table restates 002's dragon icons (corpus records), and a white dragon doubles them."""
    by_id = {r.id: r for r in records("dragon") if r.edition == "sfr-2012"}
    for kind, scale in (("elemental", 1), ("white", 2)):
        for face in by_id[kind].faces:
            mine = RULES.dragon_faces[face.face]
            assert (mine.damage * scale, mine.roll_again, mine.flies_away) == (
                face.damage or 0, face.roll_again, face.flies_away), (kind, face.face)
            assert mine.promotes * scale == (face.promotes or 0), (kind, face.face)
        assert RULES.dragon_health * scale == by_id[kind].health
        assert RULES.dragon_saves == by_id[kind].saves


def test_slaying_thresholds():
    state = game([], [dragon("d", "red"), dragon("w", "white")])
    assert dragons.to_slay(state.dragons[0], ("claws",), state, RULES) == 10
    assert dragons.to_slay(state.dragons[0], ("tail", "belly"), state, RULES) == 5
    assert dragons.to_slay(state.dragons[1], ("jaws",), state, RULES) == 15
    assert dragons.damage(state.dragons[1], ("tail", "jaws"), RULES) == 30


def test_sais_in_a_dragon_attack():
    """002 SAI List: "During a dragon attack, Counter generates save and melee results"; Smite and Stone give
    melee and missile; Screech does nothing there; a Dragonlord's logo counts for nothing."""
    assert sai_use("counter", "dragon").gives == ("save", "melee") and sai_use("counter", "dragon").each
    assert sai_use("smite", "dragon").gives == ("melee",)
    assert sai_use("stone", "dragon").gives == ("missile",)
    assert sai_use("screech", "dragon") is None
    assert sai_use("sfr-tsr-logo-dragonlord", "dragon") is None
    # its only other use: "During a save roll against an individual-targeting effect, the SFR/TSR logo counts
    # as four saves"; in an army's save roll it has no effect
    assert sai_use("sfr-tsr-logo-dragonlord", "save") is None
    assert sai_use("sfr-tsr-logo-dragonlord", "individual-save").gives == ("save",) * 4
    # under a Blue Dragon Breath the army's roll is a save roll: Smite gives nothing, Counter still both
    assert sai_use("smite", "dragon-save") is None
    assert sai_use("counter", "dragon-save").gives == ("save", "melee")
    # ... and the SAIs that "specifically state" a dragon-attack effect keep it (002 Step 6); Bash: not its non-melee saves
    for sai in ("decapitate", "impale", "bash", "sfr-tsr-logo-dragonkin-champion"):
        assert sai_use(sai, "dragon-save").special == "dragon-effect"


def game(units, here):
    army = Army(id="a", player="me", at="t", units=tuple(units))
    return GameState(edition="sfr-2012", players=("me", "them"), turn_player="me",
                     terrains=(Terrain(id="t", type="flatland", colors=("gold", "blue"), face=3),), armies=(army,),
                     dua=(Area(player="me"),), dragons=tuple(here))


def commons(n):
    return [Unit(id=f"u{i}", race="goblin", health=1) for i in range(n)]


@pytest.mark.parametrize("icons, words", [
    (("tail",), "every icon but the last must roll the dragon again"),
    (("jaws", "claws"), "every icon but the last must roll the dragon again"),
    (("fangs",), "a dragon's icons are"),
    (("wing",), "is a wyrm, which is wingless"),
])
def test_illegal_dragon_rolls(icons, words):
    state = game(commons(5), [dragon("d", "red", form="wyrm")])
    with pytest.raises(StepError, match=words):
        dragon_attack(state, DragonStep(army="a", dragons=(("d", icons),), roll=Roll(counts=(("save", 1),))), RULES)


def test_a_dragon_that_rolls_must_be_given_and_the_army_must_roll():
    state = game(commons(5), [dragon("d", "red")])
    with pytest.raises(StepError, match="give dragons.d"):
        dragon_attack(state, DragonStep(army="a", roll=Roll(counts=(("save", 1),))), RULES)
    with pytest.raises(StepError, match="give roll"):
        dragon_attack(state, DragonStep(army="a", dragons=(("d", ("claws",)),)), RULES)
    with pytest.raises(StepError, match="no dragon is at"):
        dragon_attack(game(commons(5), [dragon("d", "red", at="elsewhere")]), DragonStep(army="a"), RULES)


def test_slay_needs_enough_results_of_one_type():
    """"Melee and missile results cannot be combined to kill the same dragon"."""
    state = game(commons(5), [dragon("d", "red")])
    step = DragonStep(army="a", dragons=(("d", ("claws",)),),
                      roll=Roll(counts=(("melee", 6), ("missile", 6), ("save", 6))), slay=(("d", "melee"),))
    with pytest.raises(StepError, match="need 10 melee results; the army has 6"):
        dragon_attack(state, step, RULES)
    after, out = dragon_attack(state, step.evolve(slay=()), RULES)
    assert out.dragon["slain"] == [] and after.dragons == state.dragons


def test_white_dragon_slain_by_a_dragonslayer_must_be_rolled():
    slayer = Unit(id="ds", race="eldarim", health=4, name="Dragonslayer")
    state = game([slayer, *commons(3)], [dragon("w", "white")])
    step = DragonStep(army="a", eldarim=(("ds", "sfr-tsr-logo-dragonslayer"),))
    with pytest.raises(StepError, match="roll the dragon"):
        dragon_attack(state, step, RULES)
    after, out = dragon_attack(state, step.evolve(dragons=(("w", ("claws",)),)), RULES)
    assert out.dragon["slain"] == ["w"] and after.pool("them").items == ("dragon:white",)
    assert after.army("a").unit("ds") is not None


def test_hybrid_breath_is_its_owners_pick_and_both_army_effects_apply():
    """002 Hybrid Dragons: "one color of breath against 5 health of the defending army (dragon's owner picks
    which breath), and both colors of army breath effects against the army"."""
    state = game(commons(8), [dragon("h", "gold-green")])
    step = DragonStep(army="a", dragons=(("h", ("breath",)),), breath=(("h", "green"),),
                      breath_saves=tuple((f"u{i}", Roll(units=((f"u{i}", ()),))) for i in range(5)),
                      breath_burial=tuple((f"u{i}", Roll(units=((f"u{i}", ()),))) for i in range(5)),
                      roll=Roll(counts=(("save", 1),)))
    after, out = dragon_attack(state, step, RULES)
    assert sorted(e.spell for e in after.effects) == ["gold-dragon-breath", "green-dragon-breath"]
    assert len(out.killed) == 5 and out.buried == [f"u{i}" for i in range(5)]
    with pytest.raises(StepError, match="breathes gold or green, not red"):
        dragon_attack(state, step.evolve(breath=(("h", "red"),)), RULES)


SCENARIO = """\
ddref: 1
title: a dragon attack with mistakes
players: [me, them]
terrains: {t: {type: flatland, face: 3}}
armies: {a: {player: me, at: t, units: [{race: goblin, health: 1, count: 3}]}}
dragons: [{id: red1, color: red, owner: them, at: t}]
steps:
  - dragon_attack:
      army: a
      dragons: {red2: [clawz], red1: [jawz]}
      roll: {save: 1}
      slay: {red1: magic}
"""


def test_bad_dragon_attack_input_is_located_with_suggestions():
    from ddref.scenario.run import parse
    from ddref.scenario.source import ScenarioErrors

    with pytest.raises(ScenarioErrors) as caught:
        parse(SCENARIO, "bad.yaml")
    text = "\n".join(str(e) for e in caught.value.errors)
    assert "bad.yaml:12:20" in text and "expected one of 'melee' or 'missile'" in text
    with pytest.raises(ScenarioErrors) as caught:
        parse(SCENARIO.replace("      slay: {red1: magic}\n", ""), "bad.yaml")
    text = "\n".join(str(e) for e in caught.value.errors)
    assert "unknown dragon 'red2'" in text and "red1" in text
    assert "unknown dragon icon 'clawz'" in text and "claws" in text
    assert "unknown dragon icon 'jawz'" in text and "jaws" in text


def test_a_breath_in_play_can_be_written_and_lasts_until_the_armys_next_turn():
    """002 Black Dragon Breath: "The target army ignores all its ID results until the beginning of its next turn"
    (a unit's own roll against an individual-targeting effect is not affected)."""
    from ddref.scenario.run import parse, replay

    text = """\
ddref: 1
title: a black breath already in play
players: [me, them]
turn: {player: them}
terrains: {t: {type: flatland, face: 3}}
armies: {a: {player: me, at: t, units: [{race: goblin, health: 2, count: 3}]}}
effects: [{spell: black-dragon-breath, target: a, by: me}]
steps:
  - roll: {army: a, for: save, roll: {a.1: id, a.2: save}}
    expect: {results.a.save: 1}
  - turn: {player: me}
  - roll: {army: a, for: save, roll: {a.1: id, a.2: save}}
    expect: {results.a.save: 3}
"""
    result = replay(parse(text, "breath.yaml"))
    assert all(c["ok"] for c in result["expectations"]), result["expectations"]


def test_dragons_attack_an_army_on_its_owners_turn():
    """002: "A dragon attacks any armies at its terrain at the beginning of their respective turns"."""
    state = game(commons(5), [dragon("d", "red")]).evolve(turn_player="them")
    with pytest.raises(StepError, match="at the beginning of its owner's turn"):
        dragon_attack(state, DragonStep(army="a", dragons=(("d", ("claws",)),), roll=Roll(counts=(("save", 1),))),
                      RULES)


def test_a_dragon_whose_target_was_slain_by_a_logo_attacks_nothing():
    """A black dragon attacks the ivory/red hybrid, which attacks the army (002 Step 5, Example 3); a Dragonslayer
    slays the hybrid first: the black dragon has nothing left to fight, and no dragon attacks the army."""
    slayer = Unit(id="ds", race="eldarim", health=4, name="Dragonslayer")
    state = game([slayer, *commons(3)], [dragon("ir", "ivory-red"), dragon("bk", "black")])
    after, out = dragon_attack(state, DragonStep(army="a", eldarim=(("ds", "sfr-tsr-logo-dragonslayer"),),
                                                 dragons=(("bk", ("jaws",)),)), RULES)
    assert out.dragon["slain"] == ["ir"] and [d.id for d in after.dragons] == ["bk"]
    assert after.pool("them").items == ("dragon:ivory-red",)
    assert any("ir is gone" in e.what for e in out.trace)


@pytest.fixture
def dragon_sai_entries(monkeypatch):
    """Decapitate, Impale and Bash as the SAI table gives them in a dragon attack (their entries belong to the
    SAI table's developers; the effect on the dragon is engine.actions.dragon_sais)."""
    from engine import sais

    for name in ("decapitate", "impale", "bash"):
        monkeypatch.setitem(sais.SAI_USES, name, {"dragon": sais.SaiUse(special="dragon-effect")})


def test_decapitate_slays_a_dragon_that_rolled_jaws_and_the_army_still_saves_against_it(dragon_sai_entries):
    """002 Decapitate: "During a dragon attack, choose any dragon that rolls a Jaws icon to be slain. Otherwise it
    inflicts three melee results on the dragon. Note: If a dragon is slain by a Decapitate, the army must still
    save against any damage from that dragon." """
    hero = Unit(id="h", race="goblin", health=3)
    state = game([hero, *commons(12)], [dragon("d1", "red"), dragon("d2", "red")])
    step = DragonStep(army="a", dragons=(("d1", ("jaws",)), ("d2", ("claws",))),
                      roll=Roll(units=(("h", (Face("decapitate"),)), ("u0", (Face("save"),)))))
    after, out = dragon_attack(state, step, RULES)
    assert out.dragon["slain"] == ["d1"] and out.damage["a"] == 17
    # no dragon rolled Jaws: three melee results, which with 7 melee slay the Claws dragon (10)
    step = step.evolve(dragons=(("d1", ("claws",)), ("d2", ("claws",))),
                       roll=Roll(units=(("h", (Face("decapitate"),)), ("u0", (Face("melee", 4),)),
                                        ("u1", (Face("melee", 3),)))))
    after, out = dragon_attack(state, step, RULES)
    assert out.results["a"]["melee"] == 10 and out.dragon["slain"] == ["d1"]


def test_impale_and_bash_on_dragons(dragon_sai_entries):
    """002 Impale: "Otherwise it inflicts three missile results on the dragon"; Bash: "target one dragon that did
    normal damage. Bash immediately does back damage equal to the melee results of the target dragon. The
    defending army gets saves equal to the amount of damage that the target dragon generated." """
    hero, brute = Unit(id="h", race="goblin", health=3), Unit(id="b", race="goblin", health=3)
    state = game([hero, brute, *commons(5)], [dragon("d1", "red"), dragon("d2", "red")])
    step = DragonStep(army="a", dragons=(("d1", ("jaws",)), ("d2", ("tail", "claws"))),
                      roll=Roll(units=(("h", (Face("impale"),)), ("b", (Face("bash"),)))),
                      sai_dragons=(("h", "d2"),))
    with pytest.raises(StepError, match="cannot act on d2; it may act on d1"):
        dragon_attack(state, step, RULES)
    after, out = dragon_attack(state, step.evolve(sai_dragons=(("b", "d2"),)), RULES)
    # Impale slays d1 (Jaws); Bash on d2 (Tail and Claws, 9 damage): 9 saves, and 9 back damage do not reach the
    # 10 that slay it; the army saves 9 of the 21 damage
    assert out.results["a"]["save"] == 9 and out.damage["a"] == 12
    assert out.dragon["slain"] == ["d1"]
    # Bash cannot act on the dragon Impale has slain
    with pytest.raises(StepError, match="cannot act on d1; it may act on d2"):
        dragon_attack(state, step.evolve(sai_dragons=(("b", "d1"),)), RULES)
    # a Bash on a Jaws dragon: its 12 back damage reach the 10 that slay it, and the army gets 12 saves
    alone = game([brute, *commons(5)], [dragon("d1", "red")])
    after, out = dragon_attack(alone, DragonStep(army="a", dragons=(("d1", ("jaws",)),),
                                                 roll=Roll(units=(("b", (Face("bash"),)),))), RULES)
    assert out.dragon["slain"] == ["d1"] and out.damage["a"] == 0


def test_resist_fear_lets_dragonkin_roll_up_to_the_health_of_eldarim_of_their_color():
    """002 Dragonkin: "During a dragon attack, the Dragonkin of the same color as the attacking dragon(s) are not
    rolled"; Eldarim, Resist Fear: "Pick dragonkin up to the health of Eldarim with the matching color to roll"
    (engine.dragonkin, in the army's roll against the attack, whose kind is "dragon")."""
    kin = [Unit(id=f"k{i}", race="dragonkin", health=2, color="red") for i in range(2)]
    acolyte = Unit(id="e", race="eldarim", health=2, color="red")
    state = game([*kin, acolyte, *commons(10)], [dragon("d", "red")])
    step = DragonStep(army="a", dragons=(("d", ("claws",)),),
                      roll=Roll(units=(("k0", (Face("save", 2),)), ("k1", (Face("save", 2),)))))
    with pytest.raises(StepError, match="Resist Fear lets 2 health of red Eldarim bring no more than 2"):
        dragon_attack(state, step, RULES)
    after, out = dragon_attack(state, step.evolve(roll=Roll(units=(("k0", (Face("save", 2),)),))), RULES)
    assert out.results["a"]["save"] == 4        # its 2 saves and its 2 automatic saves
    with pytest.raises(StepError, match="does not battle the dragons here"):
        dragon_attack(game([*kin, *commons(10)], [dragon("d", "red")]), step, RULES)


def test_a_controlled_dragon_rolled_with_the_army():
    """002 SFR Logo (Dragoncrusader): "if there is another dragon at that terrain the controlled dragon can be
    rolled, adding the dragon's damage to the army's melee damage. Any breaths from the controlled dragon are
    directed toward another dragon"."""
    crusader = Unit(id="dc", race="eldarim", health=4, name="Dragoncrusader")
    state = game([crusader, *commons(8)], [dragon("c1", "red"), dragon("c2", "red"), dragon("c3", "red")])
    step = DragonStep(army="a", eldarim=(("dc", "sfr-logo-dragoncrusader"),), logo_targets=(("dc", "c1"),),
                      dragons=(("c1", ("tail", "breath")), ("c2", ("claws",)), ("c3", ("claws",))),
                      fights=(("c1", "c3"),), roll=Roll(counts=(("melee", 7), ("save", 12))))
    after, out = dragon_attack(state, step, RULES)
    # c1's Tail (3) makes 10 melee with the army's 7; its breath leaves c3 without saves: 10 slay c2 (10) or c3 (5)
    assert out.results["a"]["melee"] == 10 and out.dragon["damage"] == 12
    assert out.dragon["slain"] == ["c3"]
    with pytest.raises(StepError, match="no other dragon is at its terrain"):
        dragon_attack(game([crusader], [dragon("c1", "red")]),
                      DragonStep(army="a", eldarim=(("dc", "sfr-logo-dragoncrusader"),), dragons=(("c1", ("claws",)),)),
                      RULES)


def test_every_dragon_citation_exists():
    from index.corpus import sections

    known = sections()
    cited = [f.cite for f in RULES.dragon_faces.values()] + [b.cite for b in RULES.breaths.values()]
    cited += [g.cite for g in RULES.dragon_logos.values()] + [s for s, _ in RULES.breath_effects.values()]
    cited += [RULES.sai_sections[s] for s in RULES.dragon_logos]
    assert [c for c in cited if c not in known] == []


def test_an_edition_without_a_dragon_table_says_so():
    state = game(commons(3), [dragon("d", "red")])
    with pytest.raises(StepError, match="not modelled for sfr-v4 yet"):
        dragon_attack(state, DragonStep(army="a"), RULES.evolve(edition="sfr-v4", dragon_faces={}))


def test_every_dragon_logo_and_breath_color_is_played_in_a_bundled_scenario():
    """Issue 6: a scenario per Eldarim champion logo (and the Dragonkin Champion's), and per breath color."""
    from pathlib import Path

    import yaml

    steps = [s.get("dragon_attack") or {} for p in sorted(Path(__file__).parents[1].glob("scenarios/*.yaml"))
             for s in load_yaml(p.read_text(encoding="utf-8")).get("steps") or []]
    rolled = {str(face) for s in steps for faces in (s.get("eldarim") or {}, s.get("roll") or {})
              for face in faces.values()}
    assert sorted({*RULES.dragon_logos, "sfr-tsr-logo-dragonkin-champion"} - rolled) == []
    breathed = {c for s in steps for c in (s.get("breath_targets") or {})}
    assert sorted(set(RULES.breaths) - breathed) == []


def test_treasure_may_promote_none():
    """002 Step 4: "If a dragon rolled a Treasure icon, you may promote a unit now": an empty choice promotes none;
    no choice takes engine.exchange's default."""
    state = game(commons(3), [dragon("d", "red")]).evolve(dua=(Area(player="me", units=(
        Unit(id="big", race="goblin", health=2),)),))
    step = DragonStep(army="a", dragons=(("d", ("treasure",)),), roll=Roll(counts=(("save", 0),)))
    _, out = dragon_attack(state, step, RULES)
    assert out.dragon["promoted"] == ["big"]
    _, out = dragon_attack(state, step.evolve(treasure=()), RULES)
    assert out.dragon["promoted"] == []


def _elevated(choices=()):
    """Three goblins against a red drake's Claws (6 damage): u0 rolls Elevate, u1 two saves, u2 three missile."""
    state = game(commons(3), [dragon("d", "red")])
    roll = Roll(units=(("u0", (Face(icon="elevate"),)), ("u1", (Face(icon="save", count=2),)),
                       ("u2", (Face(icon="missile", count=3),))))
    step = DragonStep(army="a", dragons=(("d", ("claws",)),), roll=roll, choices=choices)
    return dragon_attack(state, step, RULES)[1]


def test_elevate_doubles_one_units_missile_or_save_results_in_a_dragon_attack():
    """002 Elevate: "During a dragon attack, Elevate doubles one unit's missile or save results": the owner's pick;
    none given, the unit and result gaining the most (u2's 3 missile), marked defaulted; never both."""
    out = _elevated()
    assert (out.results["a"]["missile"], out.results["a"]["save"]) == (6, 2)
    assert any(e.defaulted and "elevate" in e.what.lower() for e in out.trace)
    out = _elevated((("elevate", (("u1", 1),)), ("elevate:save", (("u1", 1),))))
    assert (out.results["a"]["missile"], out.results["a"]["save"]) == (3, 4)
    with pytest.raises(StepError, match="missile or save results, not both"):
        _elevated((("elevate", (("u2", 1),)), ("elevate:save", (("u2", 1),)), ("elevate:missile", (("u2", 1),))))


def test_a_dragon_staff_rolls_with_the_army_but_summon_dragon_does_nothing_in_a_dragon_attack():
    """002 Summon Dragon: "During a magic action, choose any dragon of a matching color ... and immediately summon
    it"; 002 Artifacts: "each icon counts as four points of effect". In the army's roll against a dragon attack a
    Dragon Staff's Summon Dragon has no use (the SAI names only the magic action); its ID counts four results."""
    assert sai_use("summon-dragon", "dragon") is None and sai_use("summon-dragon", "dragon-save") is None
    staff = Unit(id="staff", race=None, name="Dragon Staff", health=4, color="gold", item=True, monster=True)
    state = game([*commons(2), staff], [dragon("d", "red")])
    for face, saves in (("summon-dragon", 0), ("id", 4)):
        roll = Roll(units=(("u0", (Face(icon="save"),)), ("staff", (Face(icon=face),))))
        step = DragonStep(army="a", dragons=(("d", ("claws",)),), roll=roll, choices=(("ids", (("save", 4),)),))
        out = dragon_attack(state, step, RULES)[1]
        assert out.results["a"]["save"] == 1 + saves


def test_moved_units_non_id_results_do_not_force_a_kill_but_the_armys_still_do():
    """002 Step 6 "10 or more melee results ... without counting IDs ... then the dragon must be killed", with SAI
    Resolution "any component removed from the army by a Special ... SAI ... does not have its results counted":
    a mover's non-ID melee leaves the forced count; what the army keeps still forces a kill."""
    from types import SimpleNamespace

    from engine.actions import slaying
    from engine.steps import StepResult
    answer = SimpleNamespace(non_id={"f2": {"melee": 5}, "f3": {"melee": 10}})
    who = Army(id="a", player="me", at="t", units=())
    results = {"melee": 10, "missile": 0, "save": 0, "forced_melee": 15, "forced_missile": 0}
    slaying.leave(results, answer, ["f2"], RULES, who, StepResult(kind="dragon_attack"))
    assert results["forced_melee"] == 10
    red = dragon("red", "red")
    with pytest.raises(StepError, match="must then be killed"):
        slaying._check_forced(RULES, [red], {"red": 10}, {}, results)


def test_flurry_rolls_again_only_when_its_points_go_to_melee():
    """002 Flurry: "During a dragon attack, Flurry generates melee results and roll the magic item again ... or
    generates save results": a reroll after a Flurry sent to save is refused; sent to melee it counts."""
    state = game(commons(2), [dragon("d", "red")])
    roll = Roll(units=(("u0", (Face(icon="flurry", count=2), Face(icon="melee"))), ("u1", (Face(icon="save"),))))
    step = DragonStep(army="a", dragons=(("d", ("claws",)),), roll=roll, choices=(("flurry", (("save", 2),)),))
    with pytest.raises(StepError, match="only its melee results roll the magic item again"):
        dragon_attack(state, step, RULES)
    step = DragonStep(army="a", dragons=(("d", ("claws",)),), roll=roll, choices=(("flurry", (("melee", 2),)),),
                      casualties=(("a", ("u0", "u1")),))
    assert dragon_attack(state, step, RULES)[1].results["a"]["melee"] == 3


def test_elevate_under_a_blue_breath_doubles_saves_only():
    """002 Elevate "During a dragon attack, Elevate doubles one unit's missile or save results", and Blue Dragon
    Breath "the army can only make a save roll": Elevate doubles the unit's saves; its missile is refused."""
    from engine.state import Effect
    state = game(commons(3), [dragon("d", "red")])
    state = state.evolve(effects=(*state.effects, Effect(spell=next(s for s, (_, how) in RULES.breath_effects.items()
                                                                    if how == "save-only"), target="a", by="them")))
    roll = Roll(units=(("u0", (Face(icon="elevate"),)), ("u1", (Face(icon="save", count=2),)),
                       ("u2", (Face(icon="missile", count=3),))))

    def attack(choices):
        step = DragonStep(army="a", dragons=(("d", ("claws",)),), roll=roll, choices=choices,
                          casualties=(("a", ("u0", "u2")),))
        return dragon_attack(state, step, RULES)[1]
    out = attack((("elevate", (("u1", 1),)),))
    assert (out.results["a"]["save"], out.results["a"]["missile"]) == (4, 0)
    with pytest.raises(StepError, match="not its missile"):
        attack((("elevate", (("u2", 1),)), ("elevate:missile", (("u2", 1),))))


def test_summon_dragon_takes_only_non_ivory_tamed_dragons_of_its_color():
    """002 Dragon Taming: "A non-ivory dragon controlled by a DL/DM can be summoned ... away from that control";
    002 Ivory Dragons: "No other effect can move an ivory dragon"."""
    from engine.actions.summons import tamed_dragons
    state = game(commons(1), [dragon("r", "red"), dragon("ir", "ivory-red"), dragon("g", "green")])
    state = state.evolve(dragons=tuple(d.evolve(tamed_by="dl") for d in state.dragons))
    assert list(tamed_dragons(state, lambda c: "red" in c)) == ["r"]
    untamed = state.evolve(dragons=tuple(d.evolve(tamed_by=None) for d in state.dragons))
    assert list(tamed_dragons(untamed, lambda c: "red" in c)) == []
