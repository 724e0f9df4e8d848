"""The edition ids (no pydantic here: cheap to import for every command)."""

from __future__ import annotations

from typing import Literal

Edition = Literal["tsr-1996", "sfr-v4", "sfr-2012"]
EDITIONS: tuple[Edition, ...] = ("sfr-2012", "sfr-v4", "tsr-1996")
DEFAULT_EDITION: Edition = "sfr-2012"
