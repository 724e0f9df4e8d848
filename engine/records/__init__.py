"""Pydantic models of every corpus record (no I/O: loading lives in index/)."""

from .common import DEFAULT_EDITION, EDITIONS, Color, Edition, Record, Source
from .document import Document, Section
from .race import Ability, Race, Unit
from .ruling import GlossaryTerm, Ruling
from .sai import Sai, SaiResolution
from .spell import Spell
from .world import Breath, Dragon, DragonFace, EighthFace, Terrain

__all__ = [
    "DEFAULT_EDITION", "EDITIONS", "Ability", "Breath", "Color", "Document", "Dragon",
    "DragonFace", "Edition", "EighthFace", "GlossaryTerm", "Race", "Record", "Ruling",
    "Sai", "SaiResolution", "Section", "Source", "Spell", "Terrain", "Unit",
]
