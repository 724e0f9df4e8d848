"""The JSON Schema of the scenario format, for editors (``ddref schema``).

It is generated from the pydantic models of ``ddref.scenario.model``, so it
cannot drift from what the loader accepts, and completed where the models
leave a field open:

- ``steps``: each step is one kind key (roll, maneuver, melee, missile,
  magic) with that kind's fields, plus ``expect`` or ``expect_error``;
- fields the loader checks against a fixed list (result types, magic
  colors) get that list as an ``enum``;
- names the corpus knows (spells, races, units, terrain types) are offered
  as suggestions: ``anyOf`` the known ids or any string, because the loader
  also accepts the books' spelling in any case (``Wall of Fog``) and says
  which names are unknown, with a did-you-mean, when the file is checked.
"""

from __future__ import annotations

from typing import Any

from pydantic.json_schema import models_json_schema

from engine.magic import COLOR_ALIASES, COLORS
from engine.state import RESULT_TYPES
from index.corpus import records

from .model import STEP_KINDS, ScenarioIn, step_models

DIALECT = "https://json-schema.org/draft/2020-12/schema"
STEP_EXTRAS = {
    "expect": {"type": ["object", "null"], "description": "Dotted paths into the step's results -> expected values, "
                                                "or a comparison such as {'>=': 3}; 'state.' paths read the game "
                                                "state after the step (state.dua.bob.health, state.effects), a "
                                                "player's empty area reading as empty."},
    "expect_error": {"type": ["string", "null"], "description": "The step must be rejected with a message containing "
                                                      "these words (a rule the step breaks; it changes nothing)."},
}


def scenario_schema() -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of a scenario file."""
    models = [(ScenarioIn, "validation"), *((m, "validation") for m in step_models().values())]
    refs, schema = models_json_schema(models, ref_template="#/$defs/{model}")
    defs = schema["$defs"]
    top = defs.pop(ScenarioIn.__name__)
    top["properties"]["steps"]["items"] = _step_schema(refs)
    _fixed_lists(defs)
    _suggest_names(defs)
    return {"$schema": DIALECT, **top, "$defs": defs}


def _step_schema(refs: dict) -> dict[str, Any]:
    kinds = []
    for kind, model in step_models().items():
        ref = refs[(model, "validation")]
        # the loader reads a kind key left empty (``- reserves:``, null) as the step with its defaults, which is a
        # step only where no field is required: there the schema takes null too (ddref.scenario.build._step)
        if not any(f.is_required() for f in model.model_fields.values()):
            ref = {"anyOf": [ref, {"type": "null"}]}
        kinds.append({"type": "object", "title": f"{kind} step", "required": [kind],
                      "properties": {kind: ref, **STEP_EXTRAS}, "additionalProperties": False})
    return {"description": f"One step: exactly one of {', '.join(STEP_KINDS)}, with optional expect "
                           "or expect_error.", "oneOf": kinds}


def _fixed_lists(defs: dict[str, Any]) -> None:
    """The values the loader compares exactly: result types and magic colors."""
    result = {"enum": list(RESULT_TYPES)}
    roll_for = defs["RollStepIn"]["properties"]["for"]
    roll_for["anyOf"] = [{"type": "string", **result}, {"type": "array", "items": result, "minItems": 1}]
    for name in ("penalties", "ids", "counts_as", "penalties_by_race"):
        _keys(defs["RollStepIn"]["properties"][name], result)
    for model in ("MissileStepIn", "MeleeStepIn"):      # army id -> {result type: n}
        for option in defs[model]["properties"]["penalties"].get("anyOf", []):
            if option.get("type") == "object":
                _keys(option["additionalProperties"], result)
                option["additionalProperties"]["additionalProperties"]["minimum"] = 0     # as the loader checks
    _keys(defs["MagicStepIn"]["properties"]["colors"], {"enum": [*COLORS, *COLOR_ALIASES]})
    color = defs["CastIn"]["properties"]["color"]
    color["anyOf"] = [{"type": "string", "enum": [*COLORS, *COLOR_ALIASES]}, {"type": "null"}]


def _keys(prop: dict[str, Any], names: dict[str, Any]) -> None:
    """Restrict the keys of an optional mapping field."""
    for option in prop.get("anyOf", [prop]):
        if option.get("type") == "object":
            option["propertyNames"] = names


_NAMED = {
    ("EffectIn", "spell"): "spell", ("CastIn", "spell"): "spell",
    ("UnitIn", "race"): "race", ("UnitIn", "name"): "unit", ("TerrainIn", "type"): "terrain",
}


def _suggest_names(defs: dict[str, Any]) -> None:
    known = {kind: _ids(kind) for kind in set(_NAMED.values())}
    for (model, field), kind in _NAMED.items():
        prop = defs[model]["properties"][field]
        suggestion = {"anyOf": [{"enum": known[kind]}, {"type": "string"}]}
        if "anyOf" in prop:  # optional: keep null allowed
            prop["anyOf"] = [*suggestion["anyOf"], {"type": "null"}]
        else:
            prop.pop("type", None)
            prop.update(suggestion)


def _ids(kind: str) -> list[str]:
    rows = records(kind)
    if kind == "terrain":
        rows = [r for r in rows if r.kind == "major"]
    return sorted({r.id for r in rows})
