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
from types import SimpleNamespace
from typing import Any

import corpus

# the corpus is installed as a plain package directory (pyproject package-data);
# a path to it spares every command importing importlib.resources
ROOT = Path(corpus.__file__).parent

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


class View(SimpleNamespace):
    """A corpus record as attributes (JSON arrays become tuples); ``model_dump`` gives the JSON back."""

    def model_dump(self, mode: str = "json") -> dict[str, Any]:
        return _plain(self)


def _view(value: Any) -> Any:
    if isinstance(value, dict):
        return View(**{k: _view(v) for k, v in value.items()})
    if isinstance(value, list):
        return tuple(_view(v) for v in value)
    return value


def _plain(value: Any) -> Any:
    if isinstance(value, View):
        return {k: _plain(v) for k, v in vars(value).items()}
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    return value


def record_model(kind: str) -> type:
    """The pydantic model that validates records of ``kind``."""
    import engine.records

    return getattr(engine.records, KINDS[kind][1])
DOCUMENT_IDS = ("000", "001", "002", "003", "004")


def _read_json(*parts: str) -> Any:
    return json.loads(ROOT.joinpath(*parts).read_text(encoding="utf-8"))


def rows(kind: str) -> list[dict[str, Any]]:
    """Every record of one kind as shipped JSON (for validation)."""
    return _read_json("records", f"{KINDS[kind][0]}.json")


@cache
def records(kind: str) -> tuple[View, ...]:
    """Every record of one kind, in corpus order (edition, id)."""
    return tuple(_view(row) for row in rows(kind))


def section_rows() -> list[dict[str, Any]]:
    return [row for doc in DOCUMENT_IDS for row in _read_json("sections", f"{doc}.json")]


@cache
def sections() -> dict[str, View]:
    """Every rule section of every document, by id, in document order."""
    return {row["id"]: _view(row) for row in section_rows()}


def source_text(doc: str) -> str:
    """A whole normalized document."""
    return ROOT.joinpath("sources", f"{doc}.txt").read_text(encoding="utf-8")


@cache
def corpus_hash() -> str:
    """A digest of every corpus data file: changes whenever the corpus does."""
    import hashlib

    digest = hashlib.sha256()
    for folder in ("sources", "sections", "records"):
        for entry in sorted(ROOT.joinpath(folder).iterdir(), key=lambda p: p.name):
            digest.update(entry.name.encode())
            digest.update(entry.read_bytes())
    return digest.hexdigest()[:16]
