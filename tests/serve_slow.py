"""A replay that can be made deliberately slow, for the tests of ``ddref serve`` under slow replays.

``ddref serve`` runs it in its replay workers (``service.run(..., replay=replay)``) in place of
``service.replay_answer``. A body whose first line is ``# spin: SECONDS [PATH]`` keeps the CPU busy
for SECONDS, as a runaway replay does (no sleep: nothing in it waits to be interrupted), after
writing the worker's pid to PATH so a test knows it runs; ``# die`` kills the worker on the spot (as the
system's out-of-memory killer would); ``# raise`` raises an unexpected exception; any other body is
replayed for real.
"""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

from ddref.service import replay_answer


def spin_body(seconds: float, marker: Path | None = None) -> bytes:
    return f"# spin: {seconds} {marker or ''}\n".encode()


def replay(body: bytes, file: str, edition: str | None) -> tuple[int, bytes]:
    if body.startswith(b"# die"):
        os.kill(os.getpid(), signal.SIGKILL)
    if body.startswith(b"# raise"):
        raise RuntimeError("boom in /some/internal/path")
    if not body.startswith(b"# spin:"):
        return replay_answer(body, file, edition)
    seconds, *marker = body.split(b"\n", 1)[0].split()[2:]
    if marker:
        Path(marker[0].decode()).write_text(str(os.getpid()))
    end, turns = time.monotonic() + float(seconds), 0
    while time.monotonic() < end:
        turns += 1
    return 200, b'{"spun": %d}' % turns
