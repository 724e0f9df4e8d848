"""Where output goes: rich consoles for people, plain JSON for scripts."""

from __future__ import annotations

import json
import sys
from typing import Any

from rich.console import Console

# rich honors NO_COLOR and drops styling when stdout is not a terminal.
out = Console(highlight=False)
err = Console(stderr=True, highlight=False)


def print_json(data: Any) -> None:
    sys.stdout.write(json.dumps(data, indent=2, ensure_ascii=False) + "\n")


def dump(records: list, as_list: bool) -> Any:
    """Records as JSON data: one object, or a list when several (or asked for)."""
    rows = [r.model_dump(mode="json") for r in records]
    return rows if as_list or len(rows) != 1 else rows[0]
