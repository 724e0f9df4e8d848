"""The options several commands share: which edition, and JSON output."""

from __future__ import annotations

from enum import Enum
from typing import Annotated, Optional

import typer


class Edition(str, Enum):
    sfr_2012 = "sfr-2012"
    sfr_v4 = "sfr-v4"
    tsr_1996 = "tsr-1996"
    all = "all"


EditionOpt = Annotated[
    Edition,
    typer.Option("--edition", "-e", metavar="EDITION", case_sensitive=False,
                 help="sfr-2012 (default), sfr-v4, tsr-1996, or all."),
]
# for commands that cover every edition unless told otherwise
AnyEditionOpt = Annotated[
    Optional[Edition],
    typer.Option("--edition", "-e", metavar="EDITION", case_sensitive=False,
                 help="sfr-2012, sfr-v4, tsr-1996, or all (the default)."),
]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print the answer as JSON data.")]


def edition_id(choice: Edition | None) -> str | None:
    """The edition id, or None for every edition."""
    return None if choice is None or choice is Edition.all else choice.value
