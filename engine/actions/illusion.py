"""tsr-1996's Illusion (004 Monster Special Action Icons), a late special result of a melee attack.

"During melee, choose four health worth of the enemy units to be attacked by the rest of their army. A) The attack
on the enemy units by the rest of the army is resolved in a seperate roll after the current round of melee is
resolved. This is an exception to the "Resolved First" rule of special action icons. After the dead are removed from
the current melee, the caster of the illusion selects his four health of units to be attacked by the rest of their
army. B) The affected four health worth of units DO NOT counterattack against their own army. They do, however, have
the chance to roll saves against the damage caused by "friendly fire."" (002's Illusion is another effect.)

The separate roll is each unit's own roll (``unit_saves``): the rest of the army's melee, the chosen units' saves.
"""

from __future__ import annotations

from ..damage import default_casualties
from ..roll import Special
from ..trace import TraceEvent
from . import strikes
from .fight import Fight


def friendly_fire(fight: Fight, sai: str, specials: list[Special]) -> None:
    """Once the attack's dead are removed, the acting player's four health of defending units are attacked by the
    rest of their army (melee), and roll saves; they do not counter-attack."""
    rule, cite = fight.ruleset.words(f"{sai}:attack", "the chosen units are attacked by the rest of their army",
                                     fight.cite(sai))
    defender = fight.army()
    targets = strikes.chosen(fight, sai, specials)
    rest = [u.id for u in defender.units if u.id not in targets and not u.item]
    fight.out.trace.append(TraceEvent(what=f"{sai}: after the dead are removed, {', '.join(rest) or 'nobody'} of "
                                           f"{defender.id} attack {', '.join(targets)} in a separate roll",
                                      rule=rule, cite=cite))
    hits = sum(fight.roll_unit(u, "melee", ("melee",), f"in {sai}'s attack", sai).results.get("melee", 0)
               for u in rest)
    saves = sum(fight.roll_unit(u, "save", ("save",), f"against {sai}'s attack", sai).results.get("save", 0)
                for u in targets)
    dealt = max(0, hits - saves)
    words, where = fight.ruleset.words(f"{sai}:saves", "the chosen units roll saves and do not counter-attack", cite)
    fight.out.trace.append(TraceEvent(what=f"{sai}: {hits} melee - {saves} saves: {dealt} damage to "
                                           f"{', '.join(targets)}; they make no counter-attack", before=hits,
                                      after=dealt, rule=words, cite=where))
    pool = [u for u in defender.units if u.id in targets]
    listed = fight.casualties.get(defender.id, [])
    named = [u for u in listed if u in targets]
    listed[:] = [u for u in listed if u not in named]
    for uid in named or default_casualties(pool, dealt):
        fight.kill(uid, sai, words)
