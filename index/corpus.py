"""Load the corpus shipped as package data, validated by the record models."""

from __future__ import annotations

import hashlib
import json
from functools import cache
from importlib.resources import files
from typing import Any

from engine.records import (
    Document, Dragon, EighthFace, GlossaryTerm, Race, Record, Ruling, Sai, Section, Spell,
    Terrain, Unit,
)

# record kind -> (file under corpus/records/, model)
KINDS: dict[str, tuple[str, type[Record]]] = {
    "spell": ("spells", Spell),
    "sai": ("sais", Sai),
    "race": ("races", Race),
    "unit": ("units", Unit),
    "terrain": ("terrains", Terrain),
    "eighth-face": ("eighth_faces", EighthFace),
    "dragon": ("dragons", Dragon),
    "ruling": ("rulings", Ruling),
    "glossary": ("glossary", GlossaryTerm),
    "document": ("documents", Document),
}
DOCUMENT_IDS = ("000", "001", "002", "003", "004")


def _read_json(*parts: str) -> Any:
    return json.loads(files("corpus").joinpath(*parts).read_text(encoding="utf-8"))


@cache
def records(kind: str) -> tuple[Record, ...]:
    """Every record of one kind, in corpus order (edition, id)."""
    name, model = KINDS[kind]
    return tuple(model.model_validate(row) for row in _read_json("records", f"{name}.json"))


@cache
def sections() -> dict[str, Section]:
    """Every rule section of every document, by id, in document order."""
    out: dict[str, Section] = {}
    for doc in DOCUMENT_IDS:
        for row in _read_json("sections", f"{doc}.json"):
            section = Section.model_validate(row)
            out[section.id] = section
    return out


def source_text(doc: str) -> str:
    """A whole normalized document."""
    return files("corpus").joinpath("sources", f"{doc}.txt").read_text(encoding="utf-8")


@cache
def corpus_hash() -> str:
    """A digest of every corpus data file: changes whenever the corpus does."""
    digest = hashlib.sha256()
    root = files("corpus")
    for folder in ("sources", "sections", "records"):
        for entry in sorted(root.joinpath(folder).iterdir(), key=lambda p: p.name):
            digest.update(entry.name.encode())
            digest.update(entry.read_bytes())
    return digest.hexdigest()[:16]
