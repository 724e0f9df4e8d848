"""SAIs that change how the defending army answers a melee attack: Surprise and Charge (no counter-attack),
Bash (back damage from its save roll).
"""

from __future__ import annotations

from ..roll import Special
from ..trace import StepError, TraceEvent, reading
from .fight import Fight


def surprise(fight: Fight, sai: str, specials: list[Special]) -> None:
    """Surprise (Late): "the defending army cannot make its counter-attack roll; however, it may make its save
    roll"."""
    if fight.counter:
        said = fight.ruleset.quotes.get("surprise-counter")
        if said:
            # 001 Surprise: "Surprise has no effect during a counter-attack."
            fight.out.trace.append(TraceEvent(what=f"{sai}: no effect in a counter-attack", after=0, rule=said,
                                              cite=fight.cite(sai)))
        else:
            # 002 Surprise: "the defending army cannot make its counter-attack roll", read with 002 Melee (the
            # defending army "may attack back ... This is called a counter-attack"): rolled in the counter-attack,
            # the army that rolled it is the defending army, and the army it strikes made the attack, which has
            # no counter-attack roll to lose
            fight.out.trace.append(reading(f"{sai}: no effect in a counter-attack: it strikes the army that made "
                                           "the attack, which makes no counter-attack roll", fight.cite(sai),
                                           fight.ruleset.cite("melee")).evolve(after=0))
        return
    fight.no_counter = sai
    fight.out.trace.append(TraceEvent(what=f"{sai}: {fight.defender} cannot counter-attack", rule=fight.ruleset.quote(
                                          "surprise", "the defending army cannot make its counter-attack roll; it "
                                          "may make its save roll"),
                                      cite=fight.cite(sai)))


def charge(fight: Fight, sai: str, specials: list[Special]) -> None:
    """Charge: "This SAI has no effect during the counter attack phase. When rolled during the Acting Player's
    Melee Attack phase, the attacking army must count Maneuver results as if they were Melee results ...
    the defending army will not make a counter attack. Instead they will make a combination melee/save roll
    ... The melee results will be damage against the attacking army, only magical saves protect".

    The maneuver results are those the roll has at the end of the racial abilities step, as the text says
    ("Maneuver becomes Melee during the Racial Abilities step of the dice modifiers"): after the modifiers that
    subtract, divide and multiply and the racial abilities (a Dwarf's doubling at a highland), before those that
    add (002 Applying Dice Modifiers), so a Wind Walk's four maneuvers stay maneuvers, as they are "ignored because
    they are applied after the Coral Elf army's racial ability" in 002's example of the modifier order."""
    cite = fight.cite(sai)
    if fight.counter:
        fight.out.trace.append(TraceEvent(what=f"{sai}: no effect in a counter-attack", after=0, rule="this SAI "
                                          "has no effect during the counter attack phase", cite=cite))
        return
    final = fight.hit.results.get("maneuver", 0)
    # the maneuvers the modifiers that add gave (Wind Walk's four) come after the racial abilities step: not melee
    added = max(0, final - fight.hit.before_add.get("maneuver", 0)) if fight.hit.before_add else 0
    moved = final - added
    fight.extra[fight.action] = fight.extra.get(fight.action, 0) + moved
    fight.no_counter, fight.charge = sai, True
    fight.out.trace.append(TraceEvent(
        what=f"{sai}: {fight.attacker}'s {moved} maneuver result(s) count as melee"
             + (f"; the {added} a modifier that adds gave come after the racial abilities step and stay maneuvers"
                if added else ""),
        before=final, after=moved, rule="the attacking army must count Maneuver results as if they were Melee results "
        "(Maneuver becomes Melee during the Racial Abilities step of the dice modifiers)", cite=cite))
    fight.out.trace.append(TraceEvent(what=f"{sai}: {fight.defender} will not counter-attack; it makes a "
                                           "combination melee/save roll instead of its save roll",
                                      rule="the save results reduce the damage; the melee results are damage "
                                      "against the attacking army, only magical saves protect", cite=cite))


def bash(fight: Fight, sai: str, specials: list[Special]) -> None:
    """Bash, in a save roll against a melee attack: "choose a unit in the attacking army that generated normal
    melee results. Bash immediately does back damage equal to the melee results of the target unit, which
    must generate saves against its own damage. The defending army gets saves equal to the amount of damage
    that the target unit generated." Each Bash rolled chooses one such unit (``targets: {bash: [unit]}``)."""
    cite, made = fight.cite(sai), _melee_by_unit(fight, sai)
    named = [u for u, _ in fight.targets(sai) or ()]
    if not named:
        named = sorted(made, key=lambda u: -made[u])[:len(specials)]
        fight.out.trace.append(TraceEvent(what=f"{sai}: targets {', '.join(named) or 'no unit'}", rule="the "
                                          "defending player chooses; none given, so the unit with the most melee",
                                          cite=cite, defaulted=True))
    if any(u not in made for u in named) or len(named) > len(specials):
        raise StepError(f"{sai} chooses one unit per Bash rolled ({len(specials)}) among the attacking units that "
                        f"generated normal melee results: {', '.join(made) or 'none'}", cite=cite, field="targets")
    for uid in named:
        damage = made[uid]
        saved = fight.roll_unit(uid, "save-melee", ("save",), f"against its own {damage} melee, bashed back",
                                sai).results.get("save", 0)
        killed = damage - saved >= fight.army("attacker").unit(uid).health
        fight.extra["save"] = fight.extra.get("save", 0) + damage
        fight.out.trace.append(TraceEvent(what=f"{sai}: {damage} damage back at {uid} - {saved} saves: "
                                               f"{'killed' if killed else 'survives'}; {fight.defender} gains "
                                               f"{damage} save(s)", before=damage, after=max(0, damage - saved),
                                          rule="back damage equal to the target unit's melee results; the defending "
                                          "army gets saves equal to that damage", cite=cite))
        if killed:
            fight.kill(uid, sai, "a unit taking damage equal to or greater than its health is killed")


def _melee_by_unit(fight: Fight, sai: str) -> dict[str, int]:
    """Each attacking unit's normal melee results (per-unit attack roll, before army modifiers)."""
    per_unit, from_sai = fight.hit.per_unit, fight.hit.sai_per_unit
    if fight.attacker in per_unit:
        raise StepError(f"{sai} chooses a unit of {fight.attacker} by its melee results: give its attack roll per "
                        "unit", cite=fight.cite(sai), field="roll")
    made = {u: r.get("melee", 0) - from_sai.get(u, {}).get("melee", 0) for u, r in per_unit.items()}
    return {u: n for u, n in made.items() if n > 0 and fight.army("attacker").unit(u) is not None}
