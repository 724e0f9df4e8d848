'''The starter scenario ``ddref init`` writes: every part of the format, commented.

It is a real scenario: the test suite checks it, replays it and requires every
expectation to hold, so what a new user starts from always works.
'''

from __future__ import annotations

STARTER = """\
# yaml-language-server: $schema={schema}
# A ddref scenario (format version 1): a situation, then what happened, step by step.
#   ddref check {name}     checks it without replaying it
#   ddref resolve {name}   replays it, explaining every number with its rule
# Names (races, units, spells, SAIs, terrain types) are written like wall-of-fog or as the
# books spell them; an unknown one is an error that lists the closest names.

ddref: 1                               # the format version
title: Dwarves attack goblins on a flatland
source: a game at the club, round 3    # where the situation comes from
edition: sfr-2012                      # sfr-2012 | sfr-v4 | tsr-1996
players: [alice, bob]                  # in turn order

terrains:                              # terrain id -> the die
  plain:
    type: flatland                     # coastland | flatland | highland | swampland | feyland | wasteland
    face: 3                            # 1..8; at 8, name the army holding it in controlled_by
    action: melee                      # the action icon showing: melee | missile | magic
    home_of: alice                     # or: frontier: true

armies:                                # army id -> its player, where it is, and its units
  dwarves:
    player: alice
    at: plain                          # a terrain id, or reserve
    units:
      - Dwarf Footman                          # a catalog name: race and health from the rules (dwarves.1)
      - {{id: hulk, name: Umber Hulk, race: dwarf}}  # an id of your own
      - {{race: dwarf, health: 2, count: 2}}     # generic units: dwarves.3 and dwarves.4
  goblins:
    player: bob
    at: plain
    units: [{{race: goblin, health: 1, count: 5}}]

effects: []                            # spells in play: - {{spell: wall-of-fog, target: plain, by: bob}}

steps:
  - melee:
      army: dwarves
      target: goblins
      roll: {{melee: 5, id: 2}}          # the army's icons; id is the health-worth of ID icons
      # or per unit:  roll: {{hulk: melee 4, dwarves.1: id}}
      saves:
        goblins: {{save: 3}}
      counter: false                   # the goblins' counter-attack roll, or false
      # casualties: {{goblins: [goblins.1, goblins.2]}}   # left out: the smallest units first
    expect:                            # checked against this step's results
      results.dwarves.melee: 7
      results.goblins.save: 3
      damage.goblins: 4

expect:                                # checked against the final state
  armies.goblins.health: 1
"""


def starter(name: str, schema: str) -> str:
    """The starter scenario, naming its own file and the schema it links to."""
    return STARTER.format(name=name, schema=schema)


# --- ddref init --template KIND: a starter for each common dispute (issue 22) ----------------------------------

TEMPLATES = {
    "melee": "a melee attack, saves and damage, the counter-attack left out (the default)",
    "missile": "a missile attack: ID icons counted as missile, the target's saves, casualties",
    "maneuver": "a maneuver opposed by a counter-maneuver, a racial terrain advantage",
    "magic": "a magic action: the points split by color, two spells bought",
    "dragon-attack": "a dragon's icons against an army's combination roll; the dragon slain",
    "counter-attack": "a melee with the defender's saves, its counter-attack and the attacker's saves",
    "combination": "a combination roll for maneuvers and saves, the ID icons placed",
    "charge": "a tsr-1996 charge: melee and maneuver as damage, the charged army's saves and melee back",
}

HEADER = """\
# yaml-language-server: $schema={schema}
# A ddref scenario (format version 1): {summary}.
#   ddref check {name}     checks it without replaying it
#   ddref resolve {name}   replays it, explaining every number with its rule
# Names (races, units, spells, SAIs, terrain types) are written like wall-of-fog or as the
# books spell them; an unknown one is an error that lists the closest names.
# Every field: ddref schema. Build one by picking instead: ddref serve --open (the /build page).

ddref: 1                               # the format version
"""


def template(kind: str, name: str, schema: str) -> str:
    """The starter of a kind of dispute (one of ``TEMPLATES``), naming its own file and the schema it links to."""
    if kind == "melee":
        return starter(name, schema)
    from importlib.resources import files

    body = files(__package__).joinpath("templates", f"{kind}.yaml").read_text(encoding="utf-8")
    return HEADER.format(schema=schema, summary=TEMPLATES[kind], name=name) + body
