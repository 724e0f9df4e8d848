"""The dispute builder of ``ddref serve`` (issue 22): the page at ``/build`` and the three small endpoints behind it.

The page keeps the scenario being built as plain data (the scenario format's own fields, as JSON) and asks the
server for everything that needs the rules:

- ``GET /build/catalog``: what the pickers offer for an edition (terrain types, races and their units with size
  and health, spells, SAIs, icons, colors, dragons, step kinds), read from the corpus.
- ``POST /build/check``: the scenario as data -> its YAML, the loader's located errors (the same ones ``ddref
  check`` and ``ddref resolve`` print, with their did-you-mean), and the legal options of the choices of each step
  (the units of every army, dead and buried units, dragons) as the engine's state stands before that step.
- ``POST /build/parse``: a YAML scenario -> its data, to fill the form from a paste, an upload or a shared link.

Resolving is the existing ``POST /resolve``. These routes live here, not in ``ddref.service``, and the app includes
them with ``app.include_router``.
"""

from __future__ import annotations

from engine.names import typed
from functools import cache
from pathlib import Path
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse, JSONResponse, Response

from .errors import UserError
from .http_answers import read_body, user_error_answer

WEB = Path(__file__).with_name("web")
# as the other pages: nothing loaded from elsewhere, no inline script
PAGE_HEADERS = {"Content-Security-Policy": "default-src 'self'; img-src 'self' data:; frame-ancestors 'none'"}
EDITIONS = ("sfr-2012", "sfr-v4", "tsr-1996")
FILE = "scenario.yaml"   # the name the YAML the page shows is checked under: errors say "scenario.yaml:12:5"

router = APIRouter()


class BadRequest(UserError):
    status = 400


@router.get("/build", include_in_schema=False)
async def page() -> FileResponse:
    return FileResponse(WEB / "build.html", headers=PAGE_HEADERS)


@router.get("/build/catalog", tags=["builder"], summary="What the dispute builder's pickers offer for an edition")
async def catalog_route(edition: str = "sfr-2012") -> JSONResponse:
    """Terrain types, eighth faces, races with their units (size, health), items, spells, SAIs, the icons a
    unit's face may show, colors, dragon colors and faces, and the step kinds the engine resolves."""
    if edition not in EDITIONS:
        from .scenario.source import did_you_mean
        raise BadRequest(f"unknown edition {typed(edition)}; expected one of: {', '.join(EDITIONS)}"
                         f"{did_you_mean(edition, EDITIONS)}", did_you_mean_names(edition, EDITIONS))
    return JSONResponse(catalog(edition))


@router.get("/build/schema", tags=["builder"], summary="The scenario format's JSON Schema, that the builder draws")
async def schema_route() -> Response:
    """``ddref schema``: every field of the format with its description; the page draws a control for each field it
    has no special picker for from it, so that any field of the format can be written on the page."""
    return Response(_schema_json(), media_type="application/json")


@cache
def _schema_json() -> bytes:
    import json

    from .scenario.schema import scenario_schema

    return json.dumps(scenario_schema()).encode()


def did_you_mean_names(name: str, names) -> list[str]:
    import difflib
    return difflib.get_close_matches(name, list(names), n=3, cutoff=0.5)


@router.post("/build/check", tags=["builder"], summary="Check the builder's scenario: YAML, errors, options")
async def check_route(request: Request, steps: str | None = None) -> JSONResponse:
    """The body is the scenario as JSON. The answer: ``yaml`` (the scenario as the page shows and downloads it),
    ``errors`` (each with ``path``, ``line``, ``column`` and the loader's ``message``), and ``options``: the
    state before each step (``steps[i]``) and at the start (``initial``), for the pickers of the choices.
    ``?steps=0,4,7`` asks for the options of those steps only (the others are null): the page's opened steps."""
    wanted = _step_numbers(steps)
    # a check replays the scenario: it runs in a replay worker as POST /resolve does, never on the event loop
    status, body = await request.app.state.replays.call(check_answer, await read_body(request), wanted)
    return Response(body, status_code=status, media_type="application/json")


def _step_numbers(steps: str | None) -> set[int] | None:
    if steps is None or steps == "all":
        return None
    try:
        return {int(n) for n in steps.split(",") if n.strip()}
    except ValueError:
        raise BadRequest(f"steps is a list of step numbers from 0 (steps=0,4,7) or 'all'; got {typed(steps)}") from None


def check_answer(body: bytes, wanted: set[int] | None = None) -> tuple[int, bytes]:
    """POST /build/check's status and JSON body, computed in a replay worker process."""
    try:
        answer = JSONResponse(check(_json_body(body), wanted))
    except UserError as exc:
        answer = user_error_answer(exc)
    return answer.status_code, answer.body


# A check runs as long as a replay of its scenario; past SLOW_REPLAY a worker is demoted and retires (ddref.serving),
# and with it goes the cache of the states its last check left (ReplayCache): a check of 1,000 steps (0.3 to 0.7 s)
# then replayed in full on every edit, each on a fresh worker. The page's user waits on the check as a judge does on
# a lookup; past this it is demoted as any replay.
check_answer.slow_after = 2.0


@router.post("/build/parse", tags=["builder"], summary="A YAML scenario as data, to fill the builder's form")
async def parse_route(request: Request) -> JSONResponse:
    """The body is a scenario in YAML. An unreadable one is a 422 whose ``errors`` locate the problem."""
    from .scenario.source import MAX_BYTES, ScenarioError, ScenarioErrors, format_path, load_yaml

    body = await request.body()
    if len(body) > MAX_BYTES:
        raise BadRequest(f"the scenario is too large ({len(body):,} bytes); the limit is {MAX_BYTES:,} bytes")
    try:
        data, where = load_yaml(body, FILE)
    except ScenarioError as exc:
        raise ScenarioErrors([exc]) from None
    too_large = [ScenarioError(f"the number {value} is larger than the builder page can hold "
                               f"({JS_SAFE_INTEGER:,}); no count in a game comes near it",
                               file=FILE, line=where.at(path)[0], column=where.at(path)[1], path=format_path(path))
                 for path, value in _huge_integers(data, ())]
    if too_large:   # the page's JSON numbers would round it (a roll of 10**26 came back as "got 1e+26")
        raise ScenarioErrors(too_large)
    return JSONResponse({"scenario": data})


JS_SAFE_INTEGER = 2**53 - 1   # the largest whole number a browser's JSON keeps exactly


def _huge_integers(value: Any, path: tuple) -> list[tuple[tuple, int]]:
    """Each whole number of ``value`` a browser cannot hold exactly, with its path (the depth is the loader's
    MAX_DEPTH at most, so this recursion is bounded)."""
    if isinstance(value, bool):
        return []
    if isinstance(value, int):
        return [(path, value)] if abs(value) > JS_SAFE_INTEGER else []
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    return [found for key, v in items for found in _huge_integers(v, (*path, key))]


def _json_body(body: bytes) -> dict[str, Any]:
    import json

    from .scenario.source import MAX_BYTES

    if len(body) > MAX_BYTES:
        raise BadRequest(f"the scenario is too large ({len(body):,} bytes); the limit is {MAX_BYTES:,} bytes")
    try:
        data = json.loads(body or b"null")
    except ValueError as exc:
        raise BadRequest(f"the body is not JSON: {exc}") from None
    except RecursionError:   # the decoder recurses: a body nested past the interpreter's limit
        data = None
        _too_deep()
    if not isinstance(data, dict):
        raise BadRequest("the body is the scenario as a JSON object: {\"ddref\": 1, \"title\": ...}")
    _check_depth(data)
    return data


def _check_depth(data: Any) -> None:
    """Refuse a body nested deeper than a scenario file may be (``MAX_DEPTH``), as ``/build/parse`` and
    ``/resolve`` do, before the YAML writer recurses into it (a RecursionError there was a 500)."""
    from .scenario.source import MAX_DEPTH

    level = [data]
    for _ in range(MAX_DEPTH + 1):
        level = [v for c in level for v in (c.values() if isinstance(c, dict) else c)
                 if isinstance(v, (dict, list))]
        if not level:
            return
    _too_deep()


def _too_deep() -> None:
    from .scenario.source import MAX_DEPTH, ScenarioError, ScenarioErrors

    raise ScenarioErrors([ScenarioError(f"nesting is deeper than {MAX_DEPTH} levels", file=FILE)])


# --- the YAML the page shows ---------------------------------------------------------------------------------

def to_yaml(data: dict[str, Any]) -> str:
    """The scenario as YAML: block style at the top, each leaf mapping or list on one line, keys in the order
    the form wrote them."""
    import yaml

    return yaml.dump(data, Dumper=_dumper(), sort_keys=False, allow_unicode=True, width=100,
                     default_flow_style=False)


@cache
def _dumper():
    """libyaml's emitter when PyYAML has it (a few times faster: the page asks on every change), with the
    representers that put leaf mappings and lists on one line."""
    import yaml

    base = getattr(yaml, "CSafeDumper", yaml.SafeDumper)

    class Dumper(base):
        pass

    def flow_leaves(dumper, value):
        leaf = all(not isinstance(v, (dict, list)) for v in value.values())
        return dumper.represent_mapping("tag:yaml.org,2002:map", value, flow_style=leaf and len(value) <= 6)

    def flow_lists(dumper, value):
        leaf = all(not isinstance(v, (dict, list)) for v in value)
        return dumper.represent_sequence("tag:yaml.org,2002:seq", value, flow_style=leaf)

    Dumper.add_representer(dict, flow_leaves)
    Dumper.add_representer(list, flow_lists)
    return Dumper


# --- checking ----------------------------------------------------------------------------------------------------

def check(data: dict[str, Any], wanted: set[int] | None = None) -> dict[str, Any]:
    """The scenario's YAML, its errors as the loader and the engine word them, and the options of each step.

    The errors are those of ``ddref resolve`` itself: the loader's, then the replay's (a step the rules refuse,
    located at its field); the options are read from the same replay, each step on the state the steps before it
    left, a refused step leaving it unchanged. ``wanted``: the steps whose options the page draws (its opened
    steps); the others are null, which keeps the answer small for a scenario of a thousand steps."""
    from .scenario import run
    from .scenario.source import ScenarioErrors

    text = to_yaml(data)
    answer: dict[str, Any] = {"yaml": text, "errors": [], "options": None}
    try:
        scenario = run.parse(text, FILE)
    except ScenarioErrors as exc:
        answer["errors"] = _unique(e.as_dict() for e in exc.errors)
        return answer
    options = StepOptions(scenario, wanted)
    try:
        REPLAYS.replay(scenario, options.seen)
    except ScenarioErrors as exc:
        answer["errors"] = _unique(e.as_dict() for e in exc.errors)
    answer["options"] = options.finish()
    return answer


class ReplayCache:
    """The states of the last scenario checked, to replay the next check from the first step its edit changed.

    The page checks the whole scenario on every edit, and a replay of a thousand steps was most of the check's time
    (bench/builder_bench.py --steps 1000). For each step the replay resolved this keeps what it saw (the state before
    and after, the engine's result), keyed by a digest of everything the replay up to that step reads: the initial
    state the loader built from the header (setting, armies, terrains, effects: everything before ``steps``), then
    each step as built (its number, kind, step, expect, expect_error). The next check replays only from the first
    step whose digest differs, handing the steps before it to ``observe`` as the replay would have: its answer is
    byte for byte a full replay's (tests/test_builder_cache.py). The engine's states are frozen values, so keeping
    them costs references only. One scenario is kept (per replay worker process); a lock guards it, and a replay runs
    outside the lock on a snapshot, so concurrent checks never see each other's half-written entries."""

    def __init__(self) -> None:
        import threading

        self._lock = threading.Lock()
        # (digest of the header and steps 0..i, state before step i, state after, result, first after) per step
        self._entries: list[tuple[bytes, Any, Any, Any, bool]] = []

    def clear(self) -> None:
        with self._lock:
            self._entries = []

    def replay(self, scenario, observe) -> None:
        """``run.replay(scenario, observe=observe)``, from the first step not in the cache."""
        from .scenario import run

        digests = _step_digests(scenario)
        with self._lock:
            entries = self._entries
        kept = 0
        if digests is not None:
            while kept < min(len(entries), len(digests)) and entries[kept][0] == digests[kept]:
                kept += 1
        resume = None
        first = True
        for planned, (_, before, after, result, first) in zip(scenario.steps, entries[:kept]):
            observe(planned, before, after, result)
        if kept:
            resume = (kept, entries[kept - 1][2], first)
        seen = list(entries[:kept])

        def record(planned, before, after, result) -> None:
            was_first = seen[-1][4] if seen else True
            seen.append((digests[len(seen)] if digests is not None else b"", before, after, result,
                         was_first and result is None))
            observe(planned, before, after, result)

        try:
            run.replay(scenario, observe=record, resume=resume)
        except run.StepRefused:
            # the refused step stops the replay: the next check resolves it again (its error is located anew)
            seen.pop()
            raise
        finally:
            if digests is not None:
                with self._lock:
                    self._entries = seen
                _untrack()


def _untrack() -> None:
    """Keep the cache out of the cyclic garbage collector's passes. Held states and results are objects the
    collector walks on each full pass: with a thousand steps held, a check spent 0.3 s in the collector (0.1 s
    without the cache). ``gc.freeze`` moves every object alive now out of its reach; reference counting still frees
    those that hold no cycles when the next check replaces them, and every ``UNFREEZE_EVERY`` checks the frozen are handed back
    and collected once, so that any cycle among them is not kept for the worker's life."""
    import gc

    global _frozen_checks
    _frozen_checks += 1
    if _frozen_checks >= UNFREEZE_EVERY:
        _frozen_checks = 0
        gc.unfreeze()
        gc.collect()
    gc.freeze()


UNFREEZE_EVERY = 50
_frozen_checks = 0


REPLAYS = ReplayCache()


def _step_digests(scenario) -> list[bytes] | None:
    """For each step, a digest of the scenario's initial state and of each step up to it as built (None where a
    value cannot be encoded: that check replays in full)."""
    import hashlib

    import msgspec

    encode = msgspec.msgpack.Encoder().encode   # in insertion order: an order the engine reads is kept
    try:
        chain = hashlib.blake2b(encode(scenario.state), digest_size=20)
        out = []
        for planned in scenario.steps:
            chain.update(encode((planned.index, planned.kind, planned.step, planned.expect, planned.expect_error,
                                 planned.path)))
            out.append(chain.copy().digest())
    except (TypeError, msgspec.EncodeError):
        return None
    return out


def step_options(scenario, wanted: set[int] | None = None) -> dict[str, Any]:
    """The state at the start and before each step, as the pickers offer it (``wanted``: only those steps')."""
    return StepOptions(scenario, wanted).finish()


class StepOptions:
    """Each step's options, gathered while the replay resolves it (``seen``); ``finish`` resolves the steps the
    replay did not reach (those after a refused step), each on the state the steps before it left."""

    def __init__(self, scenario, wanted: set[int] | None) -> None:
        from .scenario.run import load_ruleset

        self.scenario = scenario
        self.wanted = wanted
        self.rules = load_ruleset(scenario.state.edition)
        self.state = scenario.state
        self.steps: list[dict[str, Any] | None] = []

    def seen(self, planned, before, after, result) -> None:
        if self.wanted is None or len(self.steps) in self.wanted:
            here = state_options(before)
            if result is None:   # refused: what the roll allows without the refused choices
                result = _without_choices(before, planned.step, self.rules)
            here.update(step_choices(planned.step, result, self.rules, before.edition))
        else:
            here = None
        self.steps.append(here)
        self.state = after

    def finish(self) -> dict[str, Any]:
        from engine.resolve import resolve
        from engine.trace import StepError

        for planned in self.scenario.steps[len(self.steps):]:
            try:
                after, result = resolve(self.state, planned.step, self.rules)
            except StepError:
                # refused: the steps after it are offered the state it found (the best guess while it is fixed)
                after, result = self.state, None
            self.seen(planned, self.state, after, result)
        return {"initial": state_options(self.scenario.state), "steps": self.steps}


def step_choices(step, result, rules, edition: str) -> dict[str, Any]:
    """The choices of a step the engine lists from its resolution: a magic action's splits by color, and the
    spells each Cantrip rolled in the step could buy (by army, or freed unit)."""
    from engine.actions.magic import buyable, maximal_splits
    from engine.steps import MagicStep

    found: dict[str, Any] = {}
    if result is None:
        return found
    if isinstance(step, MagicStep):
        splits = maximal_splits(result, step.army)
        if splits is not None:
            found["splits"] = splits
    if result.dragon_choices:
        found["dragon"] = result.dragon_choices
    if result.cantrips:
        cards = spell_cards(edition)
        found["cantrip"] = {key: [{"spell": spell, "color": color} for spell, color in buyable(result, key, cards, rules)]
                            for key in result.cantrips}
    return found


@cache
def spell_cards(edition: str) -> tuple:
    """The edition's spells as the engine's cards (as the loader makes them, ddref.scenario.build)."""
    from engine.steps import SpellCard
    from index.corpus import records

    return tuple(SpellCard(id=r.id, name=r.name, color=r.color, cost=r.cost, lists=tuple(r.lists),
                           reserve=bool(r.reserve), multiplicity=tuple(r.multiplicity), target=r.target,
                           cantrip=r.cantrip is not False)
                 for r in sorted(records("spell"), key=lambda r: r.name) if r.edition == edition)


def _without_choices(state, step, rules):
    """A refused magic step resolved once more without its split and spells (a dragon attack without its slay and
    breath choices), so that the pickers still list what the roll allows while a choice is refused (None where that
    is refused too)."""
    from engine.resolve import resolve
    from engine.steps import DragonStep, MagicStep
    from engine.trace import StepError

    if isinstance(step, MagicStep):
        bare = step.evolve(colors=None, cast=())
    elif isinstance(step, DragonStep):
        bare = step.evolve(slay=None, breath_targets=())
    else:
        return None
    try:
        return resolve(state, bare, rules)[1]
    except StepError:
        return None


def _unique(errors) -> list[dict[str, Any]]:
    """Each error once: a pydantic union can report one problem for each of its members."""
    return list({(e["path"], e["message"]): e for e in errors}.values())


def state_options(state) -> dict[str, Any]:
    """What a step's pickers may offer, as the state stands: each army's units, the dead and buried units,
    the dragons, terrains and players; an army's magic colors are its units' races' (002 Magic Action)."""
    colors = race_colors(state.edition)

    def unit(u) -> dict[str, Any]:
        return {"id": u.id, "label": u.label, "health": u.health, "race": u.race, "item": u.item}

    def army_colors(a) -> list[str]:
        found = {c for u in a.units for c in ((u.color,) if u.color else colors.get(u.race, ()))}
        if not found and a.at != "reserve":     # Amazons: the colors of their terrain (002 Amazons, Magic Use)
            found = set(next((t.colors for t in state.terrains if t.id == a.at), ()))
        return sorted(found)

    return {
        "players": list(state.players),
        "terrains": [t.id for t in state.terrains],
        "armies": {a.id: {"player": a.player, "at": a.at, "units": [unit(u) for u in a.units],
                          "colors": army_colors(a)} for a in state.armies},
        "dua": {a.player: [unit(u) for u in a.units] for a in state.dua},
        "bua": {a.player: [unit(u) for u in a.units] for a in state.bua},
        "dragons": [{"id": d.id, "color": d.color, "at": d.at} for d in state.dragons],
        "effects": [f"{e.spell}@{e.target}" for e in state.effects],
    }


@cache
def race_colors(edition: str) -> dict[str, tuple[str, ...]]:
    from index.corpus import records

    found = {r.id: tuple(r.colors) for r in records("race") if r.edition == "sfr-2012"}
    found.update({r.id: tuple(r.colors) for r in records("race") if r.edition == edition})
    return found


# --- the catalog -------------------------------------------------------------------------------------------------

@cache
def catalog(edition: str) -> dict[str, Any]:
    from engine.magic import COLORS
    from engine.state import RESULT_TYPES
    from index.corpus import records

    from .scenario.model import STEP_KINDS, TerrainIn

    def mine(kind: str) -> list:
        return sorted((r for r in records(kind) if r.edition == edition), key=lambda r: r.name)

    # sfr-v4 defines two races and leans on sfr-2012 for the rest, as the loader does (ddref.scenario.build)
    races = mine("race")
    units = mine("unit")
    if edition == "sfr-v4":
        have = {r.id for r in races}
        races += [r for r in records("race") if r.edition == "sfr-2012" and r.id not in have]
        units += [u for u in records("unit") if u.edition == "sfr-2012" and u.race not in have]
    terrain_fields = TerrainIn.model_fields
    return {
        "edition": edition,
        "terrain_types": [t.id for t in mine("terrain") if t.kind == "major"]
        or [t.id for t in records("terrain") if t.edition == "sfr-2012" and t.kind == "major"],
        "eighth": list(terrain_fields["eighth"].annotation.__args__[0].__args__),
        "special": list(terrain_fields["special"].annotation.__args__[0].__args__),
        "races": [{"id": r.id, "name": r.name, "colors": list(r.colors)} for r in sorted(races, key=lambda r: r.name)],
        "units": [{"id": u.id, "name": u.name, "race": u.race, "size": u.size, "health": u.health,
                   "class": u.unit_class} for u in units],
        "spells": [{"id": s.id, "name": s.name, "color": s.color, "cost": s.cost} for s in mine("spell")],
        "sais": [{"id": s.id, "name": s.name} for s in mine("sai")],
        "results": list(RESULT_TYPES),
        "icons": ["id", *RESULT_TYPES, *(s.id for s in mine("sai"))],
        "colors": list(COLORS),
        "dragon_colors": ["black", "blue", "gold", "green", "red", "ivory", "white"],
        "dragon_faces": sorted({f.face for d in mine("dragon") for f in d.faces}),
        "steps": list(STEP_KINDS),
    }
