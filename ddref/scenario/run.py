"""Replay a scenario through the engine and check its expectations.

The output is the results object of the scenario format: ``edition``,
``steps`` (each with results, damage, killed, terrains and trace), the final
``state`` and the ``expectations`` with expected and actual values.
"""

from __future__ import annotations

import msgspec

import operator
from functools import cache
from pathlib import Path
from typing import Any

from engine.carrying import can_carry, check_held, pairing
from engine.dragonkin import check_not_alone
from engine.special import check_placed
from engine.editions import ruleset as edition_ruleset
from engine.resolve import resolve
from engine.ruleset import Ruleset
from engine.state import GameState
from engine.trace import StepError
from engine.value import asdict
from index.corpus import records

from .build import Scenario, build
from .source import ScenarioError, ScenarioErrors, load_yaml, read_file

_COMPARE = {"==": operator.eq, "!=": operator.ne, ">=": operator.ge, "<=": operator.le,
            ">": operator.gt, "<": operator.lt}
MISSING = object()


@cache
def load_ruleset(edition: str) -> Ruleset:
    """The edition's ruleset with each spell's and SAI's corpus section, and each spell's color, cost and duration."""
    spells = [s for s in records("spell") if s.edition == edition]
    return edition_ruleset(edition).with_corpus(
        {s.id: s.source.section for s in spells},
        {s.id: s.source.section for s in records("sai") if s.edition == edition},
        {s.id: (s.color, s.cost) for s in spells},
        {s.id: s.duration for s in spells},
        {t.id: tuple(t.colors) for t in records("terrain") if t.edition == edition and t.kind == "major"},
    )


def load(path: Path, edition: str | None = None) -> Scenario:
    file = str(path)
    try:
        data = read_file(path, file)
    except ScenarioError as exc:
        raise ScenarioErrors([exc]) from None
    return parse(data, file, edition)


def parse(data: bytes | str, file: str, edition: str | None = None) -> Scenario:
    """A scenario from its text; ``file`` names it in the error messages and the results. ``edition`` (the
    --edition option) builds it exactly as ``edition: <edition>`` in the file would: every name is checked in
    that edition's catalog, not the file's."""
    try:
        parsed, locator = load_yaml(data, file)
    except ScenarioError as exc:
        raise ScenarioErrors([exc]) from None
    written = parsed.get("edition", "sfr-2012") if isinstance(parsed, dict) else None
    if edition and isinstance(parsed, dict) and written != edition:
        scenario = build({**parsed, "edition": edition}, locator, file)
        return msgspec.structs.replace(scenario, written_edition=written)
    return build(parsed, locator, file)


def replay(scenario: Scenario, edition: str | None = None, observe=None,
           resume: tuple[int, GameState, bool] | None = None) -> dict[str, Any]:
    """Resolve every step; an illegal step without expect_error is a located error (exit 2).

    ``observe(planned, before, after, result)``, if given, is called for each step as it resolves (``result`` None
    and ``after`` the state before where the step is refused): the builder's check reads each step's options from
    this one pass instead of resolving every step a second time (bench/builder_bench.py).

    ``resume=(index, state, first)``: start at ``scenario.steps[index]`` from ``state``, the state the steps before
    it left (``first``: no step before it resolved, all refused with expect_error), as a replay of those steps left
    it: the builder's check resumes from the first step an edit changed (``ddref.builder.ReplayCache``). The steps
    before ``index`` are not resolved, observed nor in the answer's ``steps`` and ``expectations``."""
    state = scenario.state
    if edition and edition != state.edition:
        state = state.evolve(edition=edition)
    start, first = 0, True
    rules = load_ruleset(state.edition)
    _check_spells_in_edition(scenario, state, rules)
    if not scenario.steps:
        # with steps, the first step is refused (engine.carrying.check_held), where expect_error can pin it
        _check_items_carried(scenario, state, rules)
        try:
            check_placed(state.terrains, rules)
        except StepError as exc:
            raise ScenarioErrors([scenario.locator.error(("terrains",), f"{exc.message} [{exc.cite}]")]) from None
    steps, checks = [], []
    players = state.players
    if resume is not None:
        start, state, first = resume
    for planned in scenario.steps[start:]:
        try:
            before = state
            if first:
                # the scenario's first state, until a step resolves: the rules leave no army holding items its
                # units cannot carry (engine.carrying.check_held)
                check_held(state, rules)
                check_placed(state.terrains, rules)     # 002 Special Terrains (engine.special)
                check_not_alone(state, rules)           # 002 Dragonkin (engine.dragonkin)
            state, result = resolve(state, planned.step, rules)
        except StepError as exc:
            if observe is not None:
                observe(planned, before, before, None)
            if planned.expect_error is None:
                # the steps before it still report (issue 20 §0): their results, and the refusal located
                steps.append({"kind": planned.kind, "rejected": exc.message, "cite": exc.cite})
                error = _step_error(scenario, planned, exc)
                partial = _result(scenario, before, steps, checks)
                partial["refused"] = {"step": planned.index, "kind": planned.kind, "cite": exc.cite,
                                      **error.as_dict()}
                raise StepRefused(error, partial) from None
            ok = planned.expect_error.lower() in exc.message.lower()
            checks.append({"step": planned.index, "key": "expect_error", "expected": planned.expect_error,
                           "actual": exc.message, "ok": ok})
            steps.append({"kind": planned.kind, "rejected": exc.message, "cite": exc.cite})
            # a refused step changes nothing: its expect reads the state as it was (state.* paths)
            checks += _check(planned.expect or {}, steps[-1], planned.index, lambda: state_json(state), players)
            continue
        first = False
        if observe is not None:
            observe(planned, before, state, result)
        data = step_json(result)
        steps.append(data)
        if planned.expect_error is not None:
            checks.append({"step": planned.index, "key": "expect_error", "expected": planned.expect_error,
                           "actual": "the step was allowed", "ok": False})
        after = state
        checks += _check(planned.expect or {}, data, planned.index, lambda: state_json(after), players)
    final = state_json(state)
    checks += _check(scenario.spec.expect or {}, final, None, lambda: final, players)
    return _result(scenario, state, steps, checks, final)


class StepRefused(ScenarioErrors):
    """A step the rules refuse, with no ``expect_error``: the located error (exit 2), and in ``result`` the
    results object of the steps that did resolve, the refused one last (``rejected``), plus ``refused``."""

    def __init__(self, error: ScenarioError, result: dict[str, Any]) -> None:
        super().__init__([error])
        self.result = result


def _result(scenario: Scenario, state: GameState, steps: list, checks: list,
            final: dict[str, Any] | None = None) -> dict[str, Any]:
    result = {"edition": state.edition, "title": scenario.spec.title, "file": scenario.file,
              "steps": steps, "state": final if final is not None else state_json(state), "expectations": checks}
    written = scenario.written_edition or scenario.state.edition
    if state.edition != written:
        # --edition overrides the scenario's edition: said in the output, which keeps the scenario's too
        result["edition_override"] = {"scenario": written, "replayed": state.edition}
    return result


def _check_spells_in_edition(scenario: Scenario, state: GameState, rules: Ruleset) -> None:
    """Replayed under another edition (--edition), a spell in play must be one of that edition's too."""
    missing = [(i, e.spell) for i, e in enumerate(state.effects) if e.spell not in rules.spell_sections]
    if missing:
        raise ScenarioErrors([scenario.locator.error(("effects", i), f"{spell} is not a spell of {state.edition}, "
                                                     f"so the scenario cannot be replayed under it")
                              for i, spell in missing])


def _check_items_carried(scenario: Scenario, state: GameState, rules: Ruleset) -> None:
    """002 Magical Items: "If not enough units in the army match the color of the magical items, the extra
    four-siders are taken out of play immediately and buried. The owner chooses which items to discard": an
    army that starts with items its units cannot carry is refused, the owner's choice being the scenario's."""
    errors = []
    for a in state.armies:
        units, items = [u for u in a.units if not u.item], [u for u in a.units if u.item]
        extra = len(items) - len(pairing(units, items, rules))
        if items and extra > 0:
            able = "; ".join(f"{i.id}: {', '.join(u.id for u in units if can_carry(u, i, rules)) or 'none'}"
                             for i in items)
            errors.append(scenario.locator.error(("armies", a.id, "units"), (
                f"{a.id} holds {len(items)} magical items but its units can carry only {len(items) - extra} (one "
                f"each, of a matching color): the extra are buried at once and the owner chooses which "
                f"[{rules.cite('magic-items')}]; move {extra} of {', '.join(i.id for i in items)} to "
                f"bua.{a.player} (units able to carry each: {able})")))
    if errors:
        raise ScenarioErrors(errors)


def _step_error(scenario: Scenario, planned, exc: StepError) -> ScenarioError:
    path = (*planned.path, exc.field) if exc.field else planned.path
    cite = f" [{exc.cite}]" if exc.cite else ""
    return scenario.locator.error(path, f"step {planned.index} ({planned.kind}) is not allowed: {exc.message}{cite}")


def step_json(result) -> dict[str, Any]:
    data = {
        "kind": result.kind, "results": result.results, "damage": result.damage, "killed": result.killed,
        "buried": result.buried, "fled": result.fled, "moved": result.moved, "terrains": result.terrains,
        "trace": [e.json() for e in result.trace],
    }
    if result.maneuver is not None:
        data["maneuver"] = result.maneuver
    if result.magic is not None:
        data["magic"] = result.magic
    if result.dragon is not None:
        data["dragon"] = result.dragon
    if result.setup is not None:
        data["setup"] = result.setup
    if result.counter is not None:
        data["counter"] = result.counter
    if result.routed is not None:   # tsr-1996 routing checked in the step: the armies routed ([] none)
        data["routed"] = result.routed
    if result.kept:     # killed, but a spell kept them from the DUA: where each went
        data["kept"] = result.kept
    # the result types each army's rolls in the step were for: the summary lists those (``results`` keeps every
    # result counted, a type rolled but not for, such as maneuvers in a save roll, included)
    data["rolled_for"] = {who: list(dict.fromkeys(t for r in rolls for t in r["for"]))
                          for who, rolls in result.every_roll.items()}
    several = {who: rolls for who, rolls in result.every_roll.items() if len(rolls) > 1}
    if several:     # an army (or unit) that rolled more than once in the step: every roll, in order
        data["rolls"] = several
    return data


def state_json(state: GameState) -> dict[str, Any]:
    return {
        "terrains": {t.id: {"face": t.face, "controlled_by": t.controlled_by} for t in state.terrains},
        "armies": {a.id: {"player": a.player, "at": a.at, "units": [u.id for u in a.units], "health": a.health}
                   for a in state.armies},
        "dua": {a.player: {"units": [u.id for u in a.units], "health": a.health} for a in state.dua},
        "bua": {a.player: {"units": [u.id for u in a.units], "health": a.health} for a in state.bua},
        "effects": [_effect(e) for e in state.effects],
        "dragons": {d.id: {"color": d.color, "at": d.at, "owner": d.owner, "form": d.form,
                           **({"tamed_by": d.tamed_by} if d.tamed_by else {})} for d in state.dragons},
        "summoning_pool": {p.player: [*p.items, *(u.id for u in p.units)] for p in state.summoning_pool},
        # the minor terrains in play, by the army they are with (002 Minor Terrains): its type and the face in effect
        "minor_terrains": {m.army: {"type": m.type, "face": m.face} for m in state.minor_terrains},
        "winner": state.winner,
        **_marches(state),
    }


def _marches(state: GameState) -> dict[str, Any]:
    """Where the marching player is in the turn, when the scenario follows the turn's phases."""
    m = state.marches
    if m is None:
        return {}
    return {"marches": {"player": state.turn_player, "marched": list(m.marched), "reserves": m.reserves}}


STATE = "state."
"""A step's ``expect`` reads the game state after the step through this prefix (``state.dua.bob.health``), with
the paths the final ``expect`` uses; the final ``expect`` accepts it too."""

# The state's collections by player or id (``state_json``): a player's area left out of the object reads as empty
EMPTY_AREA = {"dua": {"units": [], "health": 0}, "bua": {"units": [], "health": 0}, "summoning_pool": []}


def _check(expect: dict[str, Any], data: dict[str, Any], step: int | None, state: Any,
           players: tuple[str, ...] = ()) -> list[dict[str, Any]]:
    """Each expectation read from ``data`` (the step's object, or the final state), or from the state after the
    step for a ``state.`` path; ``state`` makes that object when first asked (most steps never read it)."""
    out = []
    seen = None
    for key, wanted in expect.items():
        path = str(key)
        if path.startswith(STATE) or (step is None and path == "state"):
            seen = seen if seen is not None else state()
            actual = state_lookup(seen, path[len(STATE):] if path != "state" else "", players)
        elif step is None:
            actual = state_lookup(data, path, players)
        else:
            actual = lookup(data, path)
        ok = _matches(actual, wanted) or (wanted is None and actual is MISSING and _parent_is_mapping(
            seen if path.startswith(STATE) else data, path[len(STATE):] if path.startswith(STATE) else path))
        entry = {"step": step, "key": key, "expected": wanted,
                 "actual": None if actual is MISSING else actual, "ok": ok}
        if actual is MISSING:       # the path names nothing: said so, not shown as a null that equals `null`
            entry["absent"] = True
        out.append(entry)
    return out


def _parent_is_mapping(data: Any, dotted: str) -> bool:
    """``expect: {dragons.r1: null}``: a key expected null holds when it is absent from a mapping that exists (a
    dragon slain and back in its pool, a player's army gone): the natural way to state "no longer in play". A path
    whose parent does not resolve (a misspelt collection) still fails, and so does a top-level key the object does
    not have (``dragon_nothing: null``: a misspelt field, not a collection's member)."""
    parent, _, _ = dotted.rpartition(".")
    return bool(parent) and isinstance(lookup(data, parent), dict)


def state_lookup(state: dict[str, Any], dotted: str, players: tuple[str, ...]) -> Any:
    """A dotted path into the state object, where a player's dead, buried or summoning-pool area that holds
    nothing (left out of the object) reads as that empty collection, never as missing (issue 20 §0)."""
    if not dotted:
        return state
    first, _, rest = dotted.partition(".")
    if first in EMPTY_AREA and rest:
        player, _, inner = rest.partition(".")
        area = state.get(first, {})
        if player not in area and player in players:
            empty = EMPTY_AREA[first]
            return lookup(empty, inner) if inner else empty
    return lookup(state, dotted)


def lookup(data: Any, dotted: str) -> Any:
    """A dotted path into the step or state object (list items by index). A key may itself hold dots (a unit's
    default id is ``<army>.<n>``: ``kept.OG.6``, ``results.BB.6.save``): each step tries the one-part key first,
    then keys of more parts, and keeps the first reading that reaches a value."""
    return _walk(data, dotted.split("."))


def _walk(data: Any, parts: list[str]) -> Any:
    if not parts:
        return data
    if isinstance(data, list):
        part = parts[0]
        return _walk(data[int(part)], parts[1:]) if part.isdigit() and int(part) < len(data) else MISSING
    if not isinstance(data, dict):
        return MISSING
    for n in range(1, len(parts) + 1):
        key = ".".join(parts[:n])
        if key in data:
            found = _walk(data[key], parts[n:])
            if found is not MISSING:
                return found
    return MISSING


def _matches(actual: Any, wanted: Any) -> bool:
    if actual is MISSING:
        return False
    if isinstance(wanted, dict) and wanted and all(k in _COMPARE for k in wanted):
        try:
            return all(_COMPARE[op](actual, value) for op, value in wanted.items())
        except TypeError:
            return False
    return actual == wanted


def _effect(e) -> dict[str, Any]:
    """An effect in play; ``next_turn`` only once the caster's next turn has begun."""
    data = asdict(e)
    if not e.next_turn:
        del data["next_turn"]
    if e.source is None:            # the unit whose SAI made it, for SAI effects only
        del data["source"]
    return data
