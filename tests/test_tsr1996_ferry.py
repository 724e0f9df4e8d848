"""tsr-1996 Ferry (004 Monster Special Action Icons: Ferry) where a scenario cannot reach the case: the rolls in
which it acts (scenarios/tsr1996-faq-ferry*.yaml replay what it does there) and the refusals that remain."""

from __future__ import annotations

import pytest

from ddref.scenario.run import load_ruleset
from engine.actions.sai_states import in_saves
from engine.roll import Outcome, Special
from engine.sais import NO_EFFECT, SaiUse, unit_use
from engine.state import Army, GameState, Terrain, Unit
from engine.steps import AttackStep, SaiChoices, StepResult
from engine.trace import StepError

TSR = load_ruleset("tsr-1996")
FETCH = SaiUse(special="fetch")


def _use(kind: str, individual: bool = False) -> SaiUse | None:
    return unit_use("ferry", kind, individual, {}, TSR.sai_uses)


@pytest.mark.parametrize("kind", ["dragon", "dragon-save"])
def test_ferry_performs_normally_in_a_dragon_attack(kind):
    """004 Ferry D: "During a dragon attack, the Ferry performs normally" -- in the army's roll against the dragons,
    and in its save roll under a Blue-Paralysis (000: "can only roll for saves")."""
    assert _use(kind) == FETCH


def test_ferry_in_actions_and_saves_but_not_maneuvers():
    """004 Ferry A: "Ferry is effective during any action--including melee, magic, missiles, and saves--but not
    during a maneuver roll"."""
    assert [_use(k) for k in ("melee", "missile", "magic", "save", "save-melee", "save-missile")] == [FETCH] * 6
    # no effect there: engine.roll traces it with Ferry A's words (the table's NO_EFFECT, read by sai_use as None)
    assert TSR.sai_uses["ferry"]["maneuver"] is NO_EFFECT
    assert [_use(k) for k in ("maneuver", "counter-maneuver", "avoid-maneuver")] == [None] * 3
    assert TSR.sai_words["ferry:no-effect:avoid-maneuver"][0].startswith("Ferry is effective during any action")


@pytest.mark.parametrize("kind,individual", [("save", True), ("avoid-melee", False), ("avoid-save", False),
                                             ("avoid-magic", False), ("avoid-save", True)])
def test_ferry_in_an_avoidance_roll_and_a_units_own_roll(kind, individual):
    """Ferry A: "effective during any action--including melee, magic, missiles, and saves": an army's non-maneuver
    avoidance roll (a save, or a roll against a spell) and the monster's own roll against a spell aimed at it
    (engine.actions.own_roll) fetch units like its army's save roll."""
    assert _use(kind, individual) == FETCH


def _state() -> GameState:
    boats = Army(id="boats", player="a", at="coast", units=(Unit(id="gulls", race="coral-elf", health=4, monster=True),
                                                            Unit(id="e2", race="coral-elf", health=2)))
    camp = Army(id="camp", player="a", at="hill", units=(Unit(id="e3", race="coral-elf", health=3),))
    terrains = (Terrain(id="coast", type="coastland", colors=("blue", "green"), face=3),
                Terrain(id="hill", type="highland", colors=("red", "gold"), face=3))
    return GameState(edition="tsr-1996", players=("a", "b"), turn_player="b", terrains=terrains, armies=(boats, camp))


def _saves(step: AttackStep) -> tuple[GameState, int, StepResult]:
    state, out = _state(), StepResult(kind="melee")
    answer = Outcome(results={"save": 1}, trace=[], per_unit={"e2": {"save": 1}},
                     specials=[Special(sai="ferry", unit="gulls", points=4, effect="fetch")])
    state, change = in_saves(state, TSR, answer, state.army("boats"), step, out)
    return state, change, out


def test_the_monster_that_stays_leaves_the_army_and_the_totals():
    """004 Ferry: "It may stay there": the Gulls join camp at the hill; their Ferry icon was no result of the save
    roll, so e2's 1 save is unchanged; the trace quotes 004."""
    state, change, out = _saves(SaiChoices(move_to=(("ferry", "hill"),)))
    assert [u.id for u in state.army("boats").units] == ["e2"]
    assert [u.id for u in state.army("camp").units] == ["e3", "gulls"]
    assert (change, out.moved) == (0, ["gulls"])
    assert [e.rule for e in out.trace if "stays there" in e.what] == [
        "Immediately move this monster to another terrain, if desired. It may stay there"]


@pytest.mark.parametrize("step,words", [
    (SaiChoices(move_to=(("ferry", "hill"),), targets=(("ferry", (("e3", None),)),)), "not both"),
    (SaiChoices(move_to=(("ferry", "reserve"),)), "(legal: hill)"),
    (SaiChoices(move_to=(("ferry", "coast"),)), "(legal: hill)"),
])
def test_illegal_stays_are_refused_with_the_legal_choices(step, words):
    """Staying and returning are the two branches of 004's "or"; "another terrain" is neither the reserve area nor
    the monster's own terrain."""
    with pytest.raises(StepError, match=words.replace("(", r"\(").replace(")", r"\)")):
        _saves(step)


def test_a_unit_named_twice_to_ferry_back_is_refused_not_a_crash():
    """004 Ferry returns "with four health of six-sided units": e3 named twice is one unit taken twice, refused with
    the legal units (it was an internal error, the second move finding e3 gone; found by duplicating list entries)."""
    with pytest.raises(StepError, match=r"\[e3, e3\] is not such a choice \(each unit once\); legal units: "
                                        r"e3 \(3, at hill\)"):
        _saves(SaiChoices(targets=(("ferry", (("e3", None), ("e3", None))),)))
