"""Value classes for the engine and the scenario loader: msgspec Structs.

A Struct is declared like a dataclass, but its class is built in C: a frozen
dataclass costs about 1.4 ms to define (it compiles its generated methods),
which across the engine's classes was 40 ms of every cold ``ddref resolve``.
"""

from __future__ import annotations

from typing import Any

from msgspec import Struct, field
from msgspec.structs import asdict, force_setattr, replace

__all__ = ["Struct", "Value", "asdict", "field", "force_setattr"]


class Value(Struct, frozen=True):
    """A frozen value: compared and hashed by its fields; ``evolve`` makes a changed copy."""

    def evolve(self, **changes: Any) -> Any:
        return replace(self, **changes)
