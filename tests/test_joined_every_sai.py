"""Every SAI of an edition's table, rolled by a unit a Regenerate brings into each kind of roll, is resolved: the step
works, or it asks for a choice the scenario left out; it is never refused as not modelled, never an internal error
(002 Resolution: brought-in components "are rolled immediately and the results applied with the results of their
army"; 002 Application: "SAIs have their same effect whether the unit containing the SAI is rolled individually or
as part of an army")."""

from __future__ import annotations

from pathlib import Path

import pytest

from ddref.scenario.run import parse, replay
from ddref.scenario.source import UserError
from engine.editions.tsr1996_faq import SAI_USES as TSR_SAIS
from engine.sais import SAI_USES as SFR_SAIS

_SITUATION = """ddref: 1
title: a returned unit's SAI
edition: {edition}
players: [alice, bob]
turn: {{player: {player}}}
terrains:
  plain: {{type: flatland, face: 3, action: {action}, frontier: true}}
  hill: {{type: highland, face: 3, home_of: bob}}
  marsh: {{type: swampland, face: 3, action: magic, home_of: alice}}
  coast: {{type: coastland, face: 5, action: magic}}
armies:
  elves: {{player: alice, at: plain, units: [{{id: e1, race: coral-elf, health: 2}}, {{id: e2, race: coral-elf, health: 2}},
                                            {{id: e3, race: coral-elf, health: 1}}]}}
  mages: {{player: alice, at: marsh, units: [{{race: coral-elf, health: 3, count: 3}}]}}
  goblins: {{player: bob, at: plain, units: [{{id: troll, race: goblin, health: 4, monster: true}},
                                            {{id: w1, race: goblin, health: 2}}]}}
  wavers: {{player: bob, at: coast, units: [{{id: troll2, race: goblin, health: 4, monster: true}},
                                           {{id: c1, race: goblin, health: 1}}]}}
dragons: [{{id: d1, color: red, form: drake, owner: alice, at: coast}}]
dua:
  bob: [{{id: g2, race: goblin, health: 4, monster: true}}]
steps:
  - {step}
"""
# the returned unit's choices and roll, the end of every step below
_JOINS = "targets: {regenerate: [g2]}, unit_saves: {g2: SAI}}"


def _skirmish(action: str) -> dict[str, tuple[str, str, str]]:
    """A melee or missile action's attack roll (Bob's Goblins) and save roll (theirs, against Alice's Elves)."""
    counter = ", counter: false" if action == "melee" else ""
    return {action: ("bob", action, f"{action}: {{army: goblins, target: elves, roll: {{troll: regenerate, w1: "
                                    f"{action} 2}}, saves: {{elves: {{e1: save}}}}{counter}, {_JOINS}"),
            f"save-{action}": ("alice", action, f"{action}: {{army: elves, target: goblins, roll: {{e1: {action} 2, "
                                                f"e2: {action} 2}}, saves: {{goblins: {{troll: regenerate, w1: save}}}}"
                                                f"{counter}, {_JOINS}")}


# the roll a returned unit joins -> (the player whose turn it is, the terrain's action, the step)
_ROLLS = {
    **_skirmish("melee"), **_skirmish("missile"),
    "magic": ("bob", "melee", f"magic: {{army: wavers, roll: {{troll2: regenerate, c1: magic}}, {_JOINS}"),
    "save against spells": ("alice", "melee", "magic: {army: mages, roll: {magic: 6}, colors: {blue: 6}, "
                                              "cast: [{spell: hailstorm, target: wavers, count: 3}], "
                                              "avoidance: {wavers: {troll2: regenerate, c1: save}}, "
                                              f"save_sais: {{wavers: {{{_JOINS}}}}}"),
    "dragon attack": ("bob", "melee", "dragon_attack: {army: wavers, dragons: {d1: [claws]}, "
                                      f"roll: {{troll2: regenerate, c1: save}}, {_JOINS}"),
}


def _refused(scenarios: dict[str, str]) -> list[str]:
    """SAI -> a scenario rolling it: the SAIs whose step is refused as not modelled (or without a rule); any other
    refusal asks for a choice the scenario left out, and an internal error fails the test."""
    refused = []
    for sai, text in scenarios.items():
        try:
            replay(parse(text, "t.yaml"))
        except UserError as exc:
            if "not modelled" in str(exc) or "no rule for this" in str(exc):
                refused.append(f"{sai}: {exc}")
    return refused


@pytest.mark.parametrize("kind", list(_ROLLS))
@pytest.mark.parametrize("edition", ["sfr-2012", "tsr-1996"])
def test_every_sai_of_a_returned_unit_is_resolved(edition, kind):
    player, action, step = _ROLLS[kind]
    refused = _refused({sai: _SITUATION.format(edition=edition, player=player, action=action,
                                                step=step.replace("SAI", sai))
                        for sai in sorted(SFR_SAIS if edition == "sfr-2012" else TSR_SAIS)})
    assert not refused, "\n".join(refused)


_FREED = """  - melee: {army: A1, target: B1, roll: {vines1: entangle}, targets: {entangle: [venom1]}, counter: false}
  - turn: {player: b}
  - melee: {army: B1, target: A1, roll: {s1: smite, p1: ARMY}, casualties: {A1: [vines1]},
            unit_saves: {venom1: SAI}, counter: false}
"""


@pytest.mark.parametrize("army", ["melee", "SAI"], ids=["alone", "after the army's own"])
def test_every_sai_of_a_unit_freed_from_an_entangle_is_resolved(army):
    """tsr-1996, 004 Entangle D: the units freed "may immediately be rolled and are counted in the current roll": a
    freed unit's SAI, alone or after the army's identical one, is resolved or asks for a choice."""
    text = (Path(__file__).parents[1] / "scenarios" / "tsr1996-sai-joined-freed-late.yaml").read_text()
    head = text[:text.index("\nsteps:") + 1] + "steps:\n"
    refused = _refused({sai: head + _FREED.replace("ARMY", army).replace("SAI", sai) for sai in sorted(TSR_SAIS)})
    assert not refused, "\n".join(refused)
