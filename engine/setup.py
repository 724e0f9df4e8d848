"""Starting the game: the force each player brings, their armies, the order of play, starting distances.

Each edition says it differently (002 Starting the Game; 000 Playing the Game; 001 Setting Up the
Game), so the numbers and policies are a ``SetupRules`` value in each ruleset; this module applies them
and reports every problem of a set-up at once, the way a judge checks a table before the first turn.
"""

from __future__ import annotations

from . import pool
from .names import slug
from .ruleset import Ruleset, SetupRules
from .sais import sai_use
from .special import check_placed
from .state import Army, GameState, Unit
from .steps import SetupStep, StepResult
from .trace import StepError, TraceEvent, reading, told


def setup(state: GameState, step: SetupStep, ruleset: Ruleset) -> tuple[GameState, StepResult]:
    """Check the force, the dragons and the armies of every player; roll order of play and distances."""
    rules = ruleset.setup
    if rules is None:
        raise StepError(f"the {ruleset.edition} set-up rules are not modelled yet: ddref checks a set-up under "
                        "sfr-2012 only", cite=ruleset.cite("turn-sequence"))
    out = StepResult(kind="setup")
    problems: list[str] = []
    report = {"force": step.force, "players": {}}
    for player in step.players:
        report["players"][player] = _player(state, step, rules, player, out, problems)
    if rules.players_per_terrain is not None:
        _crowded(state, step, rules, out, problems)
    if step.order:
        report["order"] = _order(step, rules, out)
    _battlefield(state, step, rules, out, problems)
    try:
        check_placed(state.terrains, ruleset, game=True)    # 002 Special Terrains: one per game
    except StepError as exc:
        problems.append(exc.message)
    if step.terrain_rolls:
        state, report["starting_faces"] = _distances(state, step, rules, out, problems)
    out.setup = report
    if problems:
        raise StepError("the set-up breaks the rules: " + "; ".join(problems), cite=rules.cites["force"])
    return state, out


# --- the force and its armies ----------------------------------------------------------------------


def _player(state: GameState, step: SetupStep, rules: SetupRules, player: str, out: StepResult,
            problems: list[str]) -> dict:
    armies = [a for a in state.armies if a.player == player]
    units = [u for a in armies for u in a.units]
    force = _force(state, step, rules, player, out, problems)
    health = sum(u.health for u in units)
    cost = _cost(units, rules, player, out)
    if cost != force:
        problems.append(f"{player} brings {cost} health of components for a force of {force}")
    _dragonkin(state, rules, player, units, cost, out, problems)
    _kings_die(rules, player, units, problems)
    cap = force // 2
    _champions(rules, player, units, required_dragons(rules, step.force), out, problems)
    placed = [a for a in armies if a.at != "reserve"]
    if not _in_reserve(state, rules, player, placed, [a for a in armies if a.at == "reserve" and a.units], out,
                       problems):
        _armies(rules, player, placed, cap, out, problems)
        _home_and_horde(state, rules, player, placed, out, problems)
    else:
        _armies(rules, player, placed, cap, out, problems, expected=2)
    # magic point values count only against a cap on magic users (002; 000 and 001 have none)
    magic = {u.id: v for u in units if rules.magic_cap and (v := _magic_points(u, step, rules)) is not None}
    users = sum(u.health for u in units if u.id in magic)
    if magic:
        out.trace.append(TraceEvent(
            what=f"{player}: magic point values " + ", ".join(f"{k} {v}" for k, v in magic.items()),
            rule=rules.quotes["magic-points"], cite=rules.cites["force"]))
    if rules.magic_cap:
        out.trace.append(TraceEvent(what=f"{player}: {users} health of magic users, at most {cap}", before=users,
                                    after=cap, rule=rules.quotes["magic-users"], cite=rules.cites["force"]))
        if users > cap:
            problems.append(f"{player} has {users} health of magic users, more than half the force ({cap})")
    minors = _minor_terrains(state, rules, player, out, problems)
    return {"health": health, "cost": cost, "force": force, "army_cap": cap, "magic_users": users, "magic_points": magic,
            **({"minor_terrains": minors} if minors is not None else {})}


def _cost(units: list[Unit], rules: SetupRules, player: str, out: StepResult) -> int:
    """What the components cost of the force: their health, but for magical items where the edition prices them
    otherwise (002 Magical Items: an uncommon costs 2, "a second uncommon for a cost of only 1 health. So a pair of
    uncommons cost 3 health"; a rare, worth 3 health, costs 2). Reading, traced: every pair of uncommons costs 3
    (the book prices "a pair"), not only the first pair."""
    items = [u for u in units if u.item]
    cost = sum(u.health for u in units if not u.item)
    pairs = rules.item_pair_cost is not None
    uncommons = [u for u in items if u.health == 2] if pairs else []
    cost += sum(rules.item_costs.get(u.health, u.health) for u in items if u not in uncommons)
    if uncommons:
        n = len(uncommons)
        paired = (n // 2) * rules.item_pair_cost + (n % 2) * 2
        cost += paired
        if n > 1:
            out.trace.append(reading(f"{player}'s {n} uncommon magical items cost {paired} health "
                                     f"({n // 2} pair(s) at {rules.item_pair_cost})", rules.cites["items"],
                                     rules.cites["force"]).evolve(before=2 * n, after=paired))
    if any(rules.item_costs.get(u.health, u.health) != u.health for u in items):
        what = f"{player}'s magical items cost " + ", ".join(
            f"{u.id} {rules.item_costs.get(u.health, u.health)}" for u in items if u not in uncommons)
        other = rules.cites.get("item-costs-read-with")
        # 002 contradicts itself: Basic Terms prices "rare items [at] 3 health points", Magical Items "rare worth 3
        # health and cost two points of health". Reading, traced: the Magical Items section, the one about items,
        # sets their price.
        out.trace.append(reading(f"{what}: {rules.quotes['item-costs']}", rules.cites["items"], other) if other
                         else TraceEvent(what=what, rule=rules.quotes["item-costs"], cite=rules.cites["items"]))
    return cost


def _dragonkin(state: GameState, rules: SetupRules, player: str, units: list[Unit], cost: int, out: StepResult,
               problems: list[str]) -> None:
    """002 Dragonkin: one health of Dragonkin, in the summoning pool, per full three health of components."""
    if rules.dragonkin_per is None:
        return
    placed = [u.id for u in units if u.race == "dragonkin"]
    if placed:
        problems.append(f"{player} places dragonkin in an army ({', '.join(placed)}): Dragonkin are not in any army "
                        "before play starts (they wait in the summoning pool)")
    kin = sum(u.health for u in state.pool(player).units if u.race == "dragonkin")
    most = cost // rules.dragonkin_per
    out.trace.append(TraceEvent(what=f"{player} brings {kin} health of dragonkin, at most {most}", before=kin,
                                after=most, rule=rules.quotes["dragonkin"], cite=rules.cites["dragonkin"]))
    if kin > most:
        problems.append(f"{player} brings {kin} health of dragonkin, more than the {most} allowed (one per full "
                        f"{rules.dragonkin_per} health of components)")


def _kings_die(rules: SetupRules, player: str, units: list[Unit], problems: list[str]) -> None:
    if rules.kings_die_cap is None:
        return
    kings = [u.id for u in units if u.name and slug(u.name) == "kings-die"]
    if len(kings) > rules.kings_die_cap:
        problems.append(f"{player} brings {len(kings)} Kings' Dice ({', '.join(kings)}): "
                        + rules.quotes["kings-die"])


def _champions(rules: SetupRules, player: str, units: list[Unit], need: int, out: StepResult,
               problems: list[str]) -> None:
    """002 The Eldarim Champions: at most one of each champion (of each color where the die has one) per 24
    health of battle size, the required number of dragons; the most in one army is the same number, so the
    force-wide count decides both."""
    if not rules.champion_caps:
        return
    counts: dict[str, int] = {}
    for u in units:
        name = slug(u.name) if u.name else None
        if name not in rules.champion_caps:
            continue
        key = f"{u.color} {name}" if rules.champion_caps[name] and u.color else name
        counts[key] = counts.get(key, 0) + 1
    for key, n in counts.items():
        out.trace.append(TraceEvent(what=f"{player} brings {n} {key}(s), at most {need}", before=n, after=need,
                                    rule=rules.quotes["champions"], cite=rules.cites["champions"]))
        if n > need:
            problems.append(f"{player} brings {n} {key}s, more than the {need} allowed (one per 24 health of "
                            "battle size)")


def _minor_terrains(state: GameState, rules: SetupRules, player: str, out: StepResult,
                    problems: list[str]) -> int | None:
    """The minor terrain dice the player brought: those in their summoning pool and those in play with their
    armies (002 Minor Terrains: "up to four"); None where the edition sets no limit."""
    if rules.minor_terrain_cap is None:
        return None
    mine = {a.id for a in state.armies if a.player == player}
    brought = sum(1 for item in state.pool(player).items if item.startswith(f"{pool.MINOR}:")) + \
        sum(1 for m in state.minor_terrains if m.army in mine)
    cap = rules.minor_terrain_cap
    out.trace.append(TraceEvent(what=f"{player} brings {brought} minor terrain(s), at most {cap}", before=brought,
                                after=cap, rule=rules.quotes["minor-terrains"], cite=rules.cites["minor-terrains"]))
    if brought > cap:
        problems.append(f"{player} brings {brought} minor terrains, more than the {cap} a player may bring")
    return brought


def _force(state: GameState, step: SetupStep, rules: SetupRules, player: str, out: StepResult, problems: list[str]) -> int:
    """The player's force after the dragon rule: 002 requires exactly the number; 000 allows fewer, each
    missing dragon reducing the starting forces by 3 health."""
    force, cite = step.force, rules.cites["dragons"]
    if rules.fixed_force is not None and force != rules.fixed_force:
        problems.append(f"this edition's game is played with {rules.fixed_force} health-worth of units, "
                        f"not {force}")
    brought = _brought(state, step, rules, player, out)
    need = required_dragons(rules, force)
    out.trace.append(TraceEvent(what=f"{player} brings {brought} dragon(s); {need} required", before=brought,
                                after=need, rule=rules.quotes["dragons"], cite=cite))
    if brought == need:
        return force
    if rules.missing_dragon_cost and brought < need:
        less = force - rules.missing_dragon_cost * (need - brought)
        out.trace.append(TraceEvent(what=f"{player}'s starting forces reduced to {less} health", before=force,
                                    after=less, rule=rules.quotes["missing-dragon"], cite=cite))
        return less
    problems.append(f"{player} brings {brought} dragon(s) where the rules require exactly {need}")
    return force


def _brought(state: GameState, step: SetupStep, rules: SetupRules, player: str, out: StepResult) -> int:
    """The dragons the player brought: as the step says, or those in their summoning pool, where 002 White
    Dragons: "a white dragon replaces 2 normal dragons"."""
    if step.dragons is not None:
        return dict(step.dragons).get(player, 0)
    kinds = [pool.kind(d[0]) for item in state.pool(player).items if (d := pool.parse(item))]
    whites = kinds.count("white")
    if whites:
        out.trace.append(TraceEvent(what=f"{player}'s {whites} white dragon(s) count as {2 * whites}",
                                    before=whites, after=2 * whites, rule=rules.quotes["white"],
                                    cite=rules.cites["white"]))
    return len(kinds) + whites


def required_dragons(rules: SetupRules, force: int) -> int:
    if rules.fixed_dragons is not None:
        return rules.fixed_dragons
    return -(-force // 24) if rules.dragons == "per-24" else 1 + force // 25


def _in_reserve(state: GameState, rules: SetupRules, player: str, placed: list[Army], reserve: list[Army],
                out: StepResult, problems: list[str]) -> bool:
    """000 Place Armies: "It's possible in a game with four or more players that the player at the end of the turn
    order may have no legal spot to place one of his armies. If this happens, that player must start with that army
    in reserve." True when the player's one army in the reserve area starts there by that rule: two armies placed,
    and no terrain left where the third could go (one without an army of the player's and with fewer than
    ``players_per_terrain`` players' armies; for a horde, another player's home terrain). Which army it is: the home
    army always has its home terrain; an army placed at another player's home terrain is read as the horde (000:
    "each player places his horde at the home terrain of another player and his campaign army at any other terrain"),
    so the one in reserve is the campaign army; else it is the horde."""
    cap = rules.players_per_terrain
    if cap is None or len(placed) != 2 or len(reserve) != 1:
        return False
    cite, rule = rules.cites["placing"], rules.quotes["reserve-start"]
    mine = {a.at for a in placed}
    homes = {t.id: t.home_of for t in state.terrains if t.home_of}
    own = next((t for t, p in homes.items() if p == player), None)
    if own not in mine:
        problems.append(f"{reserve[0].id} starts in reserve, but {player}'s home army has {player}'s home terrain")
        return True
    other = next(a.at for a in placed if a.at != own)
    horde_placed = homes.get(other) not in (None, player)

    def fits(t) -> bool:
        players = {a.player for a in state.armies if a.at == t.id}
        return t.id not in mine and len(players) < cap and (horde_placed or homes.get(t.id) not in (None, player))
    spots = [t.id for t in state.terrains if fits(t)]
    kind = "campaign army" if horde_placed else "horde"
    if spots:
        problems.append(f"{reserve[0].id} starts in reserve, but {', '.join(spots)} is a legal spot for {player}'s "
                        f"{kind}")
    else:
        out.trace.append(TraceEvent(what=f"{reserve[0].id} ({player}'s {kind}) starts in reserve: no legal spot is "
                                         "left for it", rule=rule, cite=cite))
    return True


def _battlefield(state: GameState, step: SetupStep, rules: SetupRules, out: StepResult, problems: list[str]) -> None:
    """002 Step 3, Set the Battlefield: "Players must choose one of the two terrain dice they brought and place it in
    front of themselves to be their home terrain. Then, players place their second terrain die in the center of the
    playing area as their proposed frontier terrain"; Step 4: "The other proposed frontier terrain dice are not used
    and are out of the game" (000 Set the Battlefield and Determine Order of Play alike). Where the scenario names
    the home terrains: one home terrain per player, one frontier, and no other terrain in play."""
    if not rules.home_and_horde or not any(t.home_of for t in state.terrains):
        return
    cite = rules.cites["battlefield"]
    for player in step.players:
        homes = [t.id for t in state.terrains if t.home_of == player]
        if len(homes) != 1:
            problems.append(f"{player} has {len(homes)} home terrains ({', '.join(homes) or 'none'}): each player "
                            "places one of the two terrains they brought as their home terrain")
    frontiers = [t.id for t in state.terrains if t.frontier]
    if len(frontiers) != 1:
        problems.append(f"{len(frontiers)} frontier terrains ({', '.join(frontiers) or 'none'}): one of the proposed "
                        "frontier terrains is selected, the others are out of the game")
    other = [t.id for t in state.terrains if not t.home_of and not t.frontier]
    if other:
        problems.append(f"{', '.join(other)} is neither a home terrain nor the frontier: the game is played on the "
                        "players' home terrains and the one frontier terrain")
    out.trace.append(TraceEvent(what=f"the battlefield: {len(state.terrains) - len(other)} terrains, one home each "
                                     "and the frontier", rule=rules.quotes["battlefield"], cite=cite))


def _home_and_horde(state: GameState, rules: SetupRules, player: str, placed: list[Army], out: StepResult,
                    problems: list[str]) -> None:
    """002 Step 5, Place Armies: "1) the home army is placed at the player's home terrain, 2) the horde army is
    placed at another player's home terrain, 3) the campaign army is placed at any other terrain where the player
    does not already have an army" (000 Place Armies and 003 Multiplayer Games alike). Checked where the scenario
    names the home terrains: one of the player's armies must stand at their own home terrain, and one at another
    player's. (An army starting in reserve under 000's rule is checked by ``_in_reserve``.)"""
    if not rules.home_and_horde:
        return
    cite, rule = rules.cites["placing"], rules.quotes["home-and-horde"]
    homes = {t.id: t.home_of for t in state.terrains if t.home_of}
    own = [t for t, p in homes.items() if p == player]
    others = [t for t, p in homes.items() if p != player]
    at = {a.at: a.id for a in placed}
    if own and not any(t in at for t in own):
        problems.append(f"{player} has no army at their home terrain {own[0]} ({rule})")
    elif own:
        out.trace.append(TraceEvent(what=f"{at[own[0]]} stands at {player}'s home terrain {own[0]} (home army)",
                                    rule=rule, cite=cite))
    horde = next((t for t in others if t in at), None)
    if others and horde is None:
        # each edition's own words (``rule``: 002 Step 5, 000 Place Armies), issue 20
        problems.append(f"{player} has no army at another player's home terrain ({', '.join(others)}) ({rule})")
    elif horde is not None:
        out.trace.append(TraceEvent(what=f"{at[horde]} stands at {homes[horde]}'s home terrain {horde} (horde)",
                                    rule=rule, cite=cite))


def _armies(rules: SetupRules, player: str, armies: list[Army], cap: int, out: StepResult,
            problems: list[str], expected: int = 3) -> None:
    cite = rules.cites["armies"]
    if len(armies) != expected:
        problems.append(f"{player} starts with {len(armies)} armies at terrains; the game starts with three "
                        "(home, campaign, horde)")
    # two armies of one player at one terrain never get here: the scenario's loader refuses them, all of a
    # player's units at one place being one army (ddref.scenario.build._check_one_army_a_place)
    for a in armies:
        health = sum(u.health for u in a.units)
        out.trace.append(TraceEvent(what=f"{a.id}: {health} health at the start, at most {cap}", before=health,
                                    after=cap, rule=rules.quotes["armies"], cite=cite))
        if health > cap:
            problems.append(f"{a.id} has {health} health at the start, more than half the force ({cap})")
        if not a.units:
            problems.append(f"{a.id} is empty: each army must start with at least "
                            + ("1-health of units" if rules.army_minimum == "health" else "one unit"))


def _crowded(state: GameState, step: SetupStep, rules: SetupRules, out: StepResult, problems: list[str]) -> None:
    """000 Place Armies: "no more than three armies belonging to different players can occupy a terrain die"."""
    cap = rules.players_per_terrain
    for t in state.terrains:
        players = sorted({a.player for a in state.armies if a.at == t.id and a.player in step.players})
        if len(players) > cap:
            problems.append(f"{t.id} holds armies of {len(players)} players ({', '.join(players)}), more than {cap}")
            out.trace.append(TraceEvent(what=f"{t.id}: armies of {len(players)} players", before=len(players),
                                        after=cap, rule=rules.quotes["placing"], cite=rules.cites["placing"]))


def _magic_points(unit: Unit, step: SetupStep, rules: SetupRules) -> int | None:
    """A component's magic point value (002 Step 1), None for a component that is not a magic user."""
    faces = dict(dict(step.magic_faces).get(unit.id, ()))
    record, unit_class = dict(step.catalog).get(unit.id, ("", ""))
    if (exception := rules.magic_point_exceptions.get(record)) is not None:
        return exception
    if unit.monster or unit_class == "artifact":
        if not faces:
            return None
        points = sum(n * (1 if icon == "magic" else 2) for icon, n in faces.items() if _makes_magic(icon))
        return min(points, rules.magic_point_cap) if points else None
    magical = any(_makes_magic(icon) for icon in faces) or unit_class.endswith("magic")
    return unit.health if magical else None


def _makes_magic(icon: str) -> bool:
    """A magic icon, or an SAI that can generate magic (Cantrip, Create Fireminions, ...)."""
    if icon == "magic":
        return True
    use = sai_use(icon, "magic")
    return use is not None and "magic" in use.gives


# --- order of play and starting distances ----------------------------------------------------------


def _order_sai(rules: SetupRules, what: str, cite: str) -> TraceEvent:
    """What an SAI rolled for the order of play counts: the edition's words, or its reading of them (sfr-2012)."""
    other = rules.cites.get("order-sais-read-with")
    if other:
        return reading(f"{what}: {rules.quotes['order-sais']}", rules.cites.get("order-sais", cite), other)
    return TraceEvent(what=what, rule=rules.quotes["order-sais"], cite=rules.cites.get("order-sais", cite))


def _order(step: SetupStep, rules: SetupRules, out: StepResult) -> dict:
    """Each player's horde roll: maneuver and ID results (and, where the edition says so, SAIs only for the
    maneuver results they generate). The most chooses to play first or to pick the frontier; ties reroll."""
    cite = rules.cites["order"]
    totals = {}
    for player, counts in step.order:
        total = 0
        for icon, n in counts:
            use = sai_use(icon, "maneuver") if icon not in ("maneuver", "id") else None
            counted = n if icon in ("maneuver", "id") else (n if use and "maneuver" in use.gives else 0)
            total += counted
            if icon not in ("maneuver", "id"):
                out.trace.append(_order_sai(rules, f"{player}: {icon} {n} counts {counted}", cite)
                                 .evolve(before=n, after=counted))
        totals[player] = total
    top = max(totals.values())
    tied = sorted(p for p, t in totals.items() if t == top)
    low = [p for p, t in totals.items() if t == min(totals.values())]
    first = tied[0] if len(tied) == 1 else None
    out.trace.append(TraceEvent(
        what=(f"{first} rolled the most maneuver results ({top})" if first else
              f"{' and '.join(tied)} tie with {top}: they roll again"), after=top,
        rule=rules.quotes["order"], cite=cite))
    # "The remaining players will take their turn in decreasing order" (002 Step 4)
    return {"totals": totals, "first": first, "tied": tied if first is None else [],
            "last": low[0] if len(low) == 1 and len(totals) > 1 else None}


def _distances(state: GameState, step: SetupStep, rules: SetupRules, out: StepResult,
               problems: list[str]) -> tuple[GameState, dict]:
    cite = rules.cites["distances"]
    faces = {}
    for tid, rolls in step.terrain_rolls:
        if any(r != 8 for r in rolls[:-1]) or rolls[-1] == 8:
            problems.append(f"{tid}: only an 8 is rolled again, and the last roll cannot be an 8 "
                            f"(got {told(rolls)})")
            continue
        face = 6 if rules.seven_to_six and rolls[-1] == 7 else rolls[-1]
        out.trace.append(TraceEvent(
            what=f"{tid} starts at face {face}", before=list(rolls), after=face,
            rule=rules.quotes["distances"], cite=cite))
        faces[tid] = face
        state = state.with_terrain(state.terrain(tid).evolve(face=face))
    return state, faces
