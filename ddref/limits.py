"""``ddref serve``'s limits, apart from the server's code so ``ddref serve --help`` shows the defaults quickly."""

from __future__ import annotations


class Limits:
    """The server's limits; ``ddref serve --help`` documents each, with these defaults (``ddref.serving`` applies them).

    Sized for a judge's event network, a few dozen phones: each browser opens up to six connections,
    idle most of the time, so 100 open at once with the idle ones closed first leaves room for all.
    (A plain class, not a dataclass: building one costs ``ddref``'s every start half a millisecond.)
    """

    resolve_timeout = 10.0  # seconds a replay may run, and may wait for a free worker
    resolve_workers = 2  # replays run at once, each in its own process
    read_timeout = 10.0  # seconds for a request's headers to arrive, and again for its body
    keep_alive = 5.0  # seconds an idle connection stays open between requests
    max_connections = 100  # connections open at once
    shutdown_grace = 3.0  # seconds SIGTERM waits for requests in progress (replays are stopped at once)

    def __init__(self, **changes: float) -> None:
        for name, value in changes.items():
            if name.startswith("_") or not hasattr(Limits, name):
                raise TypeError(f"Limits has no {name!r}")
            setattr(self, name, value)
