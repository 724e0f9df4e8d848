"""Shared pieces of every corpus record: editions, sources, the base model."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

from ..edition import DEFAULT_EDITION, EDITIONS, Edition  # noqa: F401  (re-exported)

# The five magic colors. sfr-v4 prints "yellow" for earth magic: that is gold.
Color = Literal["black", "blue", "gold", "green", "red"]


class Record(BaseModel):
    """Base of every corpus record: frozen, strict about unknown fields."""

    model_config = ConfigDict(frozen=True, extra="forbid")


class Source(Record):
    """Where a record comes from: its edition, document and rule section.

    ``section`` is a stable section id such as
    ``sfr-2012:black-death-spells.ashes-to-ashes``; ``ddref rule`` prints it.
    """

    edition: Edition
    document: Literal["000", "001", "002", "003", "004"]
    section: str
