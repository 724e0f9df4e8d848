"""Read the corpus shipped as package data.

Every record was validated by its pydantic model (``engine.records``) when the
corpus was built, and the test suite validates every shipped row again; at run
time ddref reads the rows as read-only attribute views, which spares every
command the cost of building the models (``record_model`` names them for
whoever wants to validate).
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

import corpus

# the corpus is installed as a plain package directory (pyproject package-data);
# a path to it spares every command importing importlib.resources
ROOT = Path(corpus.__file__).parent

# the kinds whose records a lookup names exactly (index.search), and whose names the build lists for a misspelled
# whole name (index.build)
EXACT_NAME_KINDS = ("spell", "sai", "race", "unit", "glossary")

# record kind -> (file under corpus/records/, model class name in engine.records)
KINDS: dict[str, tuple[str, str]] = {
    "spell": ("spells", "Spell"),
    "sai": ("sais", "Sai"),
    "race": ("races", "Race"),
    "unit": ("units", "Unit"),
    "terrain": ("terrains", "Terrain"),
    "eighth-face": ("eighth_faces", "EighthFace"),
    "dragon": ("dragons", "Dragon"),
    "ruling": ("rulings", "Ruling"),
    "glossary": ("glossary", "GlossaryTerm"),
    "document": ("documents", "Document"),
}


class View:
    """A corpus record as attributes (JSON arrays become tuples); ``model_dump`` gives the JSON back.

    Nested values are converted when first read, so loading a kind costs one
    object per record, not one per field.
    """

    __slots__ = ("_row",)

    def __init__(self, row: dict[str, Any] | None = None, /, **fields: Any) -> None:
        self._row = dict(row or (), **fields)

    def __getattr__(self, name: str) -> Any:
        if name == "_row":  # not yet set (copy, pickle)
            raise AttributeError(name)
        try:
            value = self._row[name]
        except KeyError:
            raise AttributeError(name) from None
        if isinstance(value, (dict, list)):
            value = self._row[name] = _view(value)
        return value

    def __eq__(self, other: object) -> bool:
        return isinstance(other, View) and self.model_dump() == other.model_dump()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"View({self.model_dump()!r})"

    def fields(self) -> dict[str, Any]:
        """Every field, converted."""
        return {k: getattr(self, k) for k in self._row}

    def model_dump(self, mode: str = "json") -> dict[str, Any]:
        return {k: _plain(v) for k, v in self._row.items()}


def _view(value: Any) -> Any:
    if isinstance(value, dict):
        return View(value)
    if isinstance(value, list):
        return tuple(_view(v) for v in value)
    return value


def _plain(value: Any) -> Any:
    if isinstance(value, View):
        return value.model_dump()
    if isinstance(value, (tuple, list)):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    return value


def record_model(kind: str) -> type:
    """The pydantic model that validates records of ``kind``."""
    import engine.records

    return getattr(engine.records, KINDS[kind][1])
DOCUMENT_IDS = ("000", "001", "002", "003", "004")


def parse_yaml(text: str) -> Any:
    """YAML text, read safely with PyYAML's libyaml loader (``CSafeLoader``) when PyYAML was built with
    it, else the pure-Python one: the same data, several times faster."""
    import yaml

    return yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))


def read_yaml(path: Path) -> Any:
    """A YAML data file of the corpus (players' words, questions, conformance records), read safely."""
    return parse_yaml(path.read_text(encoding="utf-8"))


def _read_json(*parts: str) -> Any:
    return json.loads(ROOT.joinpath(*parts).read_text(encoding="utf-8"))


def rows(kind: str) -> list[dict[str, Any]]:
    """Every record of one kind as shipped JSON (for validation)."""
    return _read_json("records", f"{KINDS[kind][0]}.json")


@cache
def records(kind: str) -> tuple[View, ...]:
    """Every record of one kind, in corpus order (edition, id)."""
    return tuple(View(row) for row in rows(kind))


def section_rows() -> list[dict[str, Any]]:
    return [row for doc in DOCUMENT_IDS for row in _read_json("sections", f"{doc}.json")]


@cache
def sections() -> dict[str, View]:
    """Every rule section of every document, by id, in document order."""
    return {row["id"]: View(row) for row in section_rows()}


def source_text(doc: str) -> str:
    """A whole normalized document."""
    return ROOT.joinpath("sources", f"{doc}.txt").read_text(encoding="utf-8")


@cache
def corpus_hash() -> str:
    """A digest of every corpus data file: changes whenever the corpus does."""
    import hashlib

    digest = hashlib.sha256()
    for folder in ("sources", "sections", "records", "words", "questions"):
        if not ROOT.joinpath(folder).is_dir():
            continue
        for entry in sorted(ROOT.joinpath(folder).iterdir(), key=lambda p: p.name):
            digest.update(entry.name.encode())
            digest.update(entry.read_bytes())
    return digest.hexdigest()[:16]
