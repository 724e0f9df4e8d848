"""The code's shape, computed from its imports alone (ast; no module is run): no import circle and no private name
imported across modules, except those still listed here (a ratchet: the lists only shrink, the aim is none)."""

import ast
from fnmatch import fnmatch
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("engine", "ddref", "index")

# Import circles still allowed, each as the sorted modules it is made of; a circle not listed fails, and a listed
# one that is gone fails too (remove it from here: the ratchet only tightens).
ALLOWED_CIRCLES: set[tuple[str, ...]] = set()
# Private names still imported across modules, as "importer <- module.name".
ALLOWED_PRIVATE: set[str] = set()

# engine/ read top-down (docs/architecture.md): each module imports only modules of its own layer or of the layers
# before it. Patterns are fnmatch patterns of module names without the "engine." prefix; a new module is added to its
# layer here (and to the map).
LAYERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("values and state", ("value", "names", "edition", "state", "trace", "ruleset", "rolled", "steps", "chosen", "records",
                          "records.*")),
    ("rulesets and tables", ("editions", "editions.*", "sais", "sai_attacks", "sai_doubling")),
    ("rules on the state", ("damage", "pool", "dragons", "lands", "magic", "expiry", "moves", "protection", "kings_die",
                            "galeforce", "wild_growth", "carrying", "dragonkin", "special", "minor", "taming",
                            "capture", "exchange", "faces", "multiplayer", "marches")),
    ("the roll pipeline", ("modifiers", "edition_steps", "doubling", "roll_bounds", "roll")),
    ("actions: shared values and helpers", ("actions", "actions.hooks", "actions.common", "actions.companions",
                                            "actions.destinations", "actions.select_none", "actions.sai_choices",
                                            "actions.battle", "actions.magic_rolls", "actions.routing",
                                            "actions.reserve_attack", "actions.death_magic", "actions.dragon_sais",
                                            "actions.slaying", "actions.eldarim")),
    ("actions: the roll that grows", ("actions.joined_rolls", "actions.cantrip", "actions.joined_trumpet",
                                      "actions.sai_states", "actions.own_roll", "actions.state_sais")),
    ("actions: a fight and its SAIs", ("actions.fight", "actions.strikes", "actions.delayed", "actions.illusion",
                                       "actions.answers", "actions.specials", "actions.breath", "actions.racial",
                                       "actions.initial", "actions.minor")),
    ("actions: units joining late", ("actions.freed_sais", "actions.confused_saves", "actions.freed_cantrip",
                                     "actions.freed_saves", "actions.charge_sais", "actions.charge_unfreed",
                                     "actions.charge_freed", "actions.skirmish")),
    ("actions: the step kinds", ("actions.maneuver", "actions.combat", "actions.charge", "actions.dragon",
                                 "actions.summons", "actions.sai_endings", "actions.spells", "actions.targets",
                                 "actions.sai_magic", "actions.magic_returns", "actions.magic", "actions.turn",
                                 "actions.reserves", "actions.promotion", "setup")),
    ("resolve", ("after_step", "resolve")),
)


def modules() -> dict[str, Path]:
    found = {}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            parts = path.relative_to(ROOT).with_suffix("").parts
            name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
            found[name] = path
    return found


def imports(name: str, path: Path, known: dict[str, Path]) -> list[tuple[str, str | None]]:
    """(module imported, name imported from it or None) for every import in the file, at any depth."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out += [(a.name, None) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(up + ([base] if base else []))
            for a in node.names:
                sub = f"{base}.{a.name}"
                out.append((sub, None) if sub in known else (base, a.name))
    return out


def graph() -> tuple[dict[str, set[str]], set[str]]:
    known = modules()
    edges, private = {m: set() for m in known}, set()
    for name, path in known.items():
        for module, imported in imports(name, path, known):
            if module in known and module != name:
                edges[name].add(module)
                if imported and imported.startswith("_") and not imported.startswith("__"):
                    private.add(f"{name} <- {module}.{imported}")
    return edges, private


def circles(edges: dict[str, set[str]]) -> set[tuple[str, ...]]:
    """The strongly connected components of more than one module (Tarjan's algorithm, iterative)."""
    index, low, stack, on, found, counter = {}, {}, [], set(), set(), [0]
    for root in edges:
        if root in index:
            continue
        work = [(root, iter(sorted(edges[root])))]
        index[root] = low[root] = counter[0]
        counter[0] += 1
        stack.append(root)
        on.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is None:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    part = []
                    while True:
                        m = stack.pop()
                        on.discard(m)
                        part.append(m)
                        if m == node:
                            break
                    if len(part) > 1:
                        found.add(tuple(sorted(part)))
            elif child not in index:
                index[child] = low[child] = counter[0]
                counter[0] += 1
                stack.append(child)
                on.add(child)
                work.append((child, iter(sorted(edges[child]))))
            elif child in on:
                low[node] = min(low[node], index[child])
    return found


def test_no_import_circle_but_those_still_allowed():
    found = circles(graph()[0])
    assert found - ALLOWED_CIRCLES == set(), "new import circle(s)"
    assert ALLOWED_CIRCLES - found == set(), "a circle is gone: remove it from ALLOWED_CIRCLES"


def test_no_private_name_imported_across_modules_but_those_still_allowed():
    found = graph()[1]
    assert sorted(found - ALLOWED_PRIVATE) == [], "import the public name, or make the name public (documented)"
    assert sorted(ALLOWED_PRIVATE - found) == [], "a private import is gone: remove it from ALLOWED_PRIVATE"


def test_the_checker_sees_a_circle_and_a_private_import():
    # the detector itself: a two-module circle and a three-module one are found, a chain is not
    assert circles({"a": {"b"}, "b": {"a"}, "c": {"a"}}) == {("a", "b")}
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": set()}) == {("a", "b", "c")}
    assert circles({"a": {"b"}, "b": set()}) == set()


def layer_of(module: str) -> int | None:
    """The index in LAYERS of an engine module's layer (None: in none)."""
    name = module.removeprefix("engine").removeprefix(".")
    return next((i for i, (_, patterns) in enumerate(LAYERS) if any(fnmatch(name, p) for p in patterns)), None)


def upward(edges: dict[str, set[str]]) -> list[str]:
    """The imports of engine modules that go up the layers, in words."""
    return [f"{m} ({LAYERS[layer_of(m)][0]}) imports {d} ({LAYERS[layer_of(d)][0]})"
            for m in sorted(edges) if m.startswith("engine.") and layer_of(m) is not None
            for d in sorted(edges[m]) if d.startswith("engine.") and (layer_of(d) or 0) > layer_of(m)]


def test_engine_reads_top_down():
    edges = graph()[0]
    engine = sorted(m for m in edges if m.startswith("engine."))
    assert [m for m in engine if layer_of(m) is None] == [], "add the module to its layer in LAYERS (and the map)"
    assert upward(edges) == [], "an import goes up the layers (docs/architecture.md)"


def test_the_layer_check_sees_an_import_going_up():
    # the pipeline importing an action goes up; an action importing the pipeline, or state importing value, does not
    edges = {"engine.roll": {"engine.actions.combat", "engine.state"}, "engine.actions.combat": {"engine.roll"},
             "engine.state": {"engine.value"}, "engine.value": set()}
    assert upward(edges) == ["engine.roll (the roll pipeline) imports engine.actions.combat (actions: the step kinds)"]
    assert layer_of("engine.nonesuch") is None
