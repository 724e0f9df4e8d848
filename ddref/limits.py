"""``ddref serve``'s limits, apart from the server's code so ``ddref serve --help`` shows the defaults quickly."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Limits:
    """The server's limits; ``ddref serve --help`` documents each, with these defaults (``ddref.serving`` applies them).

    Sized for a judge's event network, a few dozen phones: each browser opens up to six connections,
    idle most of the time, so 100 open at once with the idle ones closed first leaves room for all.
    """

    resolve_timeout: float = 10.0  # seconds a replay may run, and may wait for a free worker
    resolve_workers: int = 2  # replays run at once, each in its own process
    read_timeout: float = 10.0  # seconds for a request's headers to arrive, and again for its body
    keep_alive: float = 5.0  # seconds an idle connection stays open between requests
    max_connections: int = 100  # connections open at once
    # seconds SIGTERM waits for requests in progress (replays are stopped at once) before closing them
    shutdown_grace: float = 3.0
