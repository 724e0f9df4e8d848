"""How ``ddref serve`` stays answering under slow, runaway and hostile clients (issue 19, section 3).

Three mechanisms, each independent of the routes in ``ddref.service``:

- **Replays run in worker processes** (``ReplayPool``), never on the event loop:
  a lookup or a search is answered while a replay runs. A replay that runs past
  its time limit is stopped by killing its process (SIGKILL) and starting a fresh
  one. A process is the only thing that truly stops: a thread cannot be killed,
  and a cooperative deadline checked between the engine's steps would not stop
  a single costly step, the YAML parse, or a huge-integer conversion, all of
  which hold the interpreter for as long as they run (and a CPU-bound thread
  would slow every lookup through the GIL besides). The workers are forked from
  a forkserver that has imported the engine once, so replacing a killed one
  costs milliseconds; a worker dies with the server, even a killed one (a chain
  of parent-death signals through the forkserver), and
  runs in a session of its own, and a replay past half a second drops to a
  low CPU priority (``_demote``), its worker replaced once it is done.
- **Connections are bounded in time and number** (``GuardedH11``): a request's
  headers must arrive within ``read_timeout`` of its first byte (or of the
  connection opening), else a 408; a connection idle between requests closes
  after ``keep_alive``; past ``max_connections`` open at once, the connection idle
  the longest from the client holding the most connections is closed to make
  room, so a client holding hundreds of half-open connections only ever evicts
  its own. Only when every connection is busy with a request does a new request
  get a 503.
- **Every error is JSON**: the 400 for bytes that are not HTTP, the 408, the 503
  of the connection limit, as the API's own ``{"error": ..., "suggestions": []}``.

SIGTERM or Ctrl+C kills the replay workers at once (``GracefulServer``): a replay
in progress answers 503 "the server is stopping" and the server exits promptly.
"""

from __future__ import annotations

import asyncio
import collections
import json
import logging
import multiprocessing
import os
import signal
import sys
import traceback
from collections.abc import Callable
from typing import Any

import h11
import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

from .errors import UserError
from .limits import Limits

log = logging.getLogger("uvicorn.error")


# A replay running longer than this (most take milliseconds) yields the CPU to everything else: the
# lookups a judge waits for come first (see _demote).
SLOW_REPLAY = 0.5
# Its niceness then, and its session's: with an idle core it still runs at full speed; on a contended
# machine it gets about a ninth of a normal share (19, tried too, starved a 4.5-second replay past the
# 10-second limit on a 2-core machine at load 8; 10 let two of three finish, and kept lookups' p99 at 29 ms).
DEMOTED_NICENESS = 10


def json_error(message: str) -> bytes:
    """The API's error body: ``{"error": message, "suggestions": []}``."""
    return json.dumps({"error": message, "suggestions": []}, ensure_ascii=False).encode()


# --- replays in worker processes ----------------------------------------------------

class ReplayTimedOut(UserError):
    """A replay that ran past the time limit and was stopped: 422, for the same scenario would again."""

    status = 422


class Unavailable(UserError):
    """No worker free in time, or the server stopping: 503, worth trying again later."""

    status = 503


class ReplayFailed(UserError):
    """An exception inside a replay other than the scenario's own errors: a bug, a 500."""

    status = 500


class WorkerDied(UserError):
    """A worker process ended while replaying (killed by the system, out of memory, a crash): 500."""

    status = 500


def die_with_parent() -> None:
    """Ask Linux to SIGKILL this process when its parent ends: a worker's is the forkserver, whose own is the
    server (``ddref._forkserver_guard``)."""
    if not sys.platform.startswith("linux"):
        return
    try:
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


def _own_session() -> None:
    """Run in a session of its own. Linux's autogroup scheduler shares the CPU between sessions first: a
    worker in the server's session spends the session's share, and on a busy machine the server then waits
    for the CPU behind other sessions' work (with a 5-second replay running, a lookup's p50 went from 2 ms
    to 12-36 ms); in its own session it spends its own."""
    try:
        os.setsid()
    except OSError:
        pass


def _demote(signum=None, frame=None) -> None:
    """A low CPU priority for this worker and its session, for a replay past ``SLOW_REPLAY`` seconds
    (a SIGALRM handler): on a laptop of two cores a 5-second replay then leaves the lookups the CPU they
    need. A process cannot raise its priority again, so the worker retires after this replay."""
    global _demoted
    _demoted = True
    try:
        os.setpriority(os.PRIO_PROCESS, 0, DEMOTED_NICENESS)
        with open("/proc/self/autogroup", "w") as group:  # the session's share (Linux's autogroup)
            group.write(str(DEMOTED_NICENESS))
    except OSError:
        pass


_demoted = False


def _worker_main(conn, warm: Callable[[], None] | None) -> None:
    """A worker: run each ``(function, args)`` received, send back ``("ok", result)`` or ``("error", name)``."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl+C reaches the whole process group: the server decides
    die_with_parent()
    _own_session()
    signal.signal(signal.SIGALRM, _demote)
    if warm:
        try:
            warm()
        except Exception:  # noqa: BLE001 - a worker that cannot warm up still replays (slower the first time)
            traceback.print_exc(file=sys.stderr)
    conn.send(("ready", None))
    while True:
        try:
            function, args = conn.recv()
        except (EOFError, OSError):  # the server closed its end: nothing more to do
            return
        except Exception as exc:  # noqa: BLE001 - a job this process cannot unpickle
            traceback.print_exc(file=sys.stderr)
            conn.send(("error", type(exc).__name__))
            continue
        # a function may allow itself longer (``slow_after``): the builder's check, whose cache a retiring worker loses
        signal.setitimer(signal.ITIMER_REAL, getattr(function, "slow_after", SLOW_REPLAY))
        try:
            reply = ("ok", function(*args))
        except BaseException as exc:  # noqa: BLE001 - reported to the client as a 500, the traceback logged
            traceback.print_exc(file=sys.stderr)
            reply = ("error", type(exc).__name__)
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
        kind = "retiring-" if _demoted else ""  # demoted: the pool replaces this worker
        try:
            conn.send((kind + reply[0], reply[1]))
        except Exception as exc:  # noqa: BLE001 - a result that cannot be sent
            traceback.print_exc(file=sys.stderr)
            conn.send((kind + "error", type(exc).__name__))
        if _demoted:
            return


class _Worker:
    def __init__(self, process, conn) -> None:
        self.process, self.conn = process, conn
        self.ready = False
        self.reply: asyncio.Future | None = None  # set while a job runs


class ReplayPool:
    """``size`` worker processes; ``await call(function, *args)`` runs one job in one of them, within ``timeout``."""

    def __init__(self, size: int, timeout: float, warm: Callable[[], None] | None = None,
                 preload: tuple[str, ...] = ()) -> None:
        self.size, self.timeout, self.warm, self.preload = max(1, size), timeout, warm, preload
        self.stopping = False
        self.broken = ""  # why the last worker could not start
        self._failed_starts = 0  # workers in a row that died before they were ready
        self._workers: list[_Worker] = []
        self._idle: collections.deque[_Worker] = collections.deque()
        self._waiting: collections.deque[asyncio.Future] = collections.deque()
        self._ended: list = []  # killed processes not yet reaped
        self._loop: asyncio.AbstractEventLoop | None = None
        self._ready: asyncio.Event | None = None

    # -- life cycle --

    async def start(self, wait: float = 60.0) -> None:
        """Start the workers and wait (at most ``wait`` seconds) until each has warmed up."""
        self._loop = asyncio.get_running_loop()
        self._ready = asyncio.Event()
        method = "forkserver" if "forkserver" in multiprocessing.get_all_start_methods() else "spawn"
        self._context = multiprocessing.get_context(method)
        if method == "forkserver":
            self._context.set_forkserver_preload(["ddref._forkserver_guard", *self.preload])
        for _ in range(self.size):
            self._spawn()
        if not self._workers:
            return
        try:
            async with asyncio.timeout(wait):
                await self._ready.wait()
        except TimeoutError:
            log.warning("the replay workers are not ready after %.0f s; replays wait for them", wait)

    def kill(self) -> None:
        """Stop now (safe in a signal handler): kill every worker; replays in progress answer 503."""
        self.stopping = True
        for worker in list(self._workers):
            self._signal(worker.process)
        if self._loop is not None and not self._loop.is_closed():
            self._loop.call_soon_threadsafe(self._refuse_waiting)

    async def close(self) -> None:
        """Kill the workers and reap them."""
        self.kill()
        self._refuse_waiting()
        for worker in list(self._workers):
            self._drop(worker)
        for process in self._ended:
            await asyncio.to_thread(process.join, 5)
        self._ended.clear()

    # -- running a job --

    async def call(self, function: Callable, *args: Any) -> Any:
        """``function(*args)`` in a worker; ``ReplayTimedOut`` past the limit, ``Unavailable`` with none free."""
        worker = await self._acquire()
        worker.reply = self._loop.create_future()
        try:
            worker.conn.send((function, args))
            async with asyncio.timeout(self.timeout):
                kind, value = await worker.reply
        except TimeoutError:
            self._replace(worker)
            raise ReplayTimedOut(
                f"the replay ran longer than this server's limit of {self.timeout:g} s and was stopped; "
                "run it with `ddref resolve FILE` instead (`ddref serve --resolve-timeout` sets the limit)") from None
        except (WorkerDied, OSError) as exc:
            self._replace(worker)
            if self.stopping:
                raise Unavailable("the server is stopping; the replay was not finished") from None
            raise exc if isinstance(exc, WorkerDied) else WorkerDied(
                f"the replay's process could not be reached ({exc.strerror}); try again") from None
        except BaseException:  # cancelled: the worker's result would go to no one
            self._replace(worker)
            raise
        worker.reply = None
        if kind.startswith("retiring-"):  # it ran demoted to the lowest priority: a fresh one takes its place
            kind = kind.removeprefix("retiring-")
            self._replace(worker)
        else:
            self._release(worker)
        if kind == "error":
            raise ReplayFailed(f"internal error ({value}) in the replay; it is a bug in ddref: "
                               "the server's log has the details for a report")
        return value

    async def _acquire(self) -> _Worker:
        if self.stopping:
            raise Unavailable("the server is stopping")
        if not self._workers:
            raise Unavailable(f"replays are unavailable: {self.broken or 'no replay worker process'}; "
                              "the server's log has the details")
        if self._idle:
            return self._idle.popleft()
        waiter = self._loop.create_future()
        self._waiting.append(waiter)
        try:
            async with asyncio.timeout(self.timeout):
                return await waiter
        except BaseException as exc:
            if waiter in self._waiting:
                self._waiting.remove(waiter)
            elif waiter.done() and not waiter.cancelled() and waiter.exception() is None:
                self._release(waiter.result())  # handed a worker just as the wait ended: hand it on
            if isinstance(exc, TimeoutError):
                raise Unavailable(
                    f"all {self.size} replay workers stayed busy for {self.timeout:g} s; try again in a moment "
                    "(`ddref serve --resolve-workers` sets how many replays run at once)") from None
            raise

    def _release(self, worker: _Worker) -> None:
        if self.stopping or worker not in self._workers:
            return
        while self._waiting:
            waiter = self._waiting.popleft()
            if not waiter.done():
                waiter.set_result(worker)
                return
        self._idle.append(worker)

    def _refuse_waiting(self) -> None:
        while self._waiting:
            waiter = self._waiting.popleft()
            if not waiter.done():
                waiter.set_exception(Unavailable("the server is stopping"))

    # -- the processes --

    def _spawn(self) -> None:
        """Start a worker; one that cannot start (no memory, no processes left) is logged, not raised."""
        parent, child = self._context.Pipe()
        process = self._context.Process(target=_worker_main, args=(child, self.warm), daemon=True,
                                        name="ddref-replay")
        try:
            process.start()
        except Exception as exc:  # noqa: BLE001 - OSError, or the forkserver's EOFError/ValueError under load: logged
            self.broken = f"a replay worker process could not start ({type(exc).__name__}: {exc})"
            log.error("%s", self.broken)
            parent.close()
            return
        finally:
            child.close()
        worker = _Worker(process, parent)
        self._workers.append(worker)
        self._loop.add_reader(parent.fileno(), self._readable, worker)

    def _readable(self, worker: _Worker) -> None:
        try:
            kind, value = worker.conn.recv()
        except (EOFError, OSError):
            self._loop.remove_reader(worker.conn.fileno())
            if worker.reply is not None and not worker.reply.done():
                worker.reply.set_exception(WorkerDied(
                    "the replay's process ended unexpectedly (killed, or out of memory); the server's log may "
                    "say more, and `ddref resolve FILE` runs the same replay on its own"))
            elif worker in self._workers and worker.ready:  # died while idle: replace it
                self._replace(worker)
            elif worker in self._workers:  # died while starting: replace it, unless they all do
                self._failed_starts += 1
                if self._failed_starts < 3:
                    self._replace(worker)
                else:
                    self._give_up(worker)
            return
        if kind == "ready":
            worker.ready = True
            self._failed_starts = 0
            self._release(worker)
            if all(w.ready for w in self._workers):
                self._ready.set()
        elif worker.reply is not None and not worker.reply.done():
            worker.reply.set_result((kind, value))

    def _give_up(self, worker: _Worker) -> None:
        """Stop replacing workers that die as they start (a broken install): replays answer 503 saying so."""
        self._drop(worker)
        self.broken = "the replay worker processes end as they start"
        if not self._workers:
            log.error("replays are unavailable: %s; the lines above say why", self.broken)
            self._ready.set()
            while self._waiting:
                waiter = self._waiting.popleft()
                if not waiter.done():
                    waiter.set_exception(Unavailable(f"replays are unavailable: {self.broken}"))

    def _replace(self, worker: _Worker) -> None:
        """Kill ``worker``'s process (it may be running away) and start another in its place."""
        if self._drop(worker) and not self.stopping:  # (a worker is replaced once, whoever notices first)
            self._spawn()

    def _drop(self, worker: _Worker) -> bool:
        """Kill and forget ``worker``; False if it was gone already."""
        if worker not in self._workers:
            return False
        self._workers.remove(worker)
        if worker in self._idle:
            self._idle.remove(worker)
        try:
            self._loop.remove_reader(worker.conn.fileno())
        except (OSError, ValueError):
            pass
        self._signal(worker.process)
        worker.conn.close()
        self._ended.append(worker.process)
        self._ended = [p for p in self._ended if p.exitcode is None]  # reaped without waiting
        return True

    @staticmethod
    def _signal(process) -> None:
        try:
            if process.pid:
                os.kill(process.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass


# --- connections bounded in time and number -----------------------------------------------

def _raw_response(status: int, reason: str, message: str) -> bytes:
    body = json_error(message)
    return (f"HTTP/1.1 {status} {reason}\r\ncontent-type: application/json\r\ncontent-length: {len(body)}\r\n"
            "connection: close\r\n\r\n").encode() + body


async def _over_capacity(scope, receive, send) -> None:
    """The answer to a request when every one of ``max_connections`` connections is busy."""
    await send({"type": "http.response.start", "status": 503, "headers": [
        (b"content-type", b"application/json"), (b"connection", b"close"), (b"retry-after", b"1")]})
    await send({"type": "http.response.body", "body": json_error(
        "the server is at its connection limit, every connection busy with a request; try again in a moment "
        "(`ddref serve --max-connections` sets the limit)")})


class GuardedH11(H11Protocol):
    """uvicorn's HTTP/1.1 protocol with a header deadline, JSON errors and idle-first eviction.

    ``limits`` is set on a subclass made per server (``protocol(limits)``).
    """

    limits: Limits = Limits()

    def connection_made(self, transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self.busy = False
        self.idle_since = self.loop.time()
        self._headers_due: asyncio.TimerHandle | None = None
        self._last_cycle = None
        self._arm_header_deadline()
        if len(self.connections) > self.limits.max_connections:
            self._make_room()

    def connection_lost(self, exc) -> None:
        self._disarm_header_deadline()
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if not self.busy and self._headers_due is None:
            self._arm_header_deadline()  # the first bytes of the next request on a kept-alive connection
        super().data_received(data)

    def handle_events(self) -> None:
        if len(self.connections) > self.limits.max_connections:
            self._make_room()
        # the app this request gets, should its headers complete in this call
        self.app = _over_capacity if len(self.connections) > self.limits.max_connections else self.config.loaded_app
        super().handle_events()
        if self.cycle is not self._last_cycle:  # a request's headers arrived: it is now the app's
            self._last_cycle = self.cycle
            self.busy = True
            self._disarm_header_deadline()

    def on_response_complete(self) -> None:
        self.busy = False
        self.idle_since = self.loop.time()
        super().on_response_complete()  # may start a pipelined request: handle_events marks it busy

    def send_400_response(self, msg: str) -> None:
        self._disarm_header_deadline()
        event = h11.Response(status_code=400, reason=b"Bad Request", headers=[
            (b"content-type", b"application/json"), (b"connection", b"close")])
        body = json_error("the request is not valid HTTP/1.1 (a request line, headers under 16 KiB, a blank line)")
        for output in (self.conn.send(event), self.conn.send(h11.Data(data=body)), self.conn.send(h11.EndOfMessage())):
            self.transport.write(output)
        self.transport.close()

    # -- the header deadline --

    def _arm_header_deadline(self) -> None:
        self._headers_due = self.loop.call_later(self.limits.read_timeout, self._headers_late)

    def _disarm_header_deadline(self) -> None:
        if self._headers_due is not None:
            self._headers_due.cancel()
            self._headers_due = None

    def _headers_late(self) -> None:
        self._headers_due = None
        if self.busy or self.transport.is_closing():
            return
        self.transport.write(_raw_response(408, "Request Timeout", (
            f"the request's headers did not arrive within {self.limits.read_timeout:g} s; "
            "`ddref serve --read-timeout` sets the limit")))
        self._close()

    # -- the connection limit --

    def _make_room(self) -> None:
        """Close the connection idle the longest among those of the client holding the most connections."""
        idle = [c for c in self.connections if c is not self and not getattr(c, "busy", True)]
        if not idle:
            return
        held = collections.Counter(c.client[0] if c.client else None for c in self.connections)
        victim = max(idle, key=lambda c: (held[c.client[0] if c.client else None], -c.idle_since))
        victim._close()

    def _close(self) -> None:
        self._disarm_header_deadline()
        self._unset_keepalive_if_required()
        self.connections.discard(self)  # counted out now; connection_lost follows on the next loop turn
        if not self.transport.is_closing():
            self.transport.close()


def protocol(limits: Limits) -> type[GuardedH11]:
    """The protocol class for one server, with its limits."""
    return type("GuardedH11", (GuardedH11,), {"limits": limits})


class GracefulServer(uvicorn.Server):
    """uvicorn's server, whose SIGTERM/Ctrl+C also kills the replay workers so a replay in progress ends now."""

    def __init__(self, config: uvicorn.Config, pool: ReplayPool) -> None:
        super().__init__(config)
        self.pool = pool

    def handle_exit(self, sig: int, frame) -> None:
        super().handle_exit(sig, frame)
        self.pool.kill()


def server_config(app, limits: Limits, **options: Any) -> uvicorn.Config:
    """uvicorn's configuration with ``limits``: HTTP/1.1 by the guarded protocol, uvicorn's own limit off."""
    return uvicorn.Config(app, http=protocol(limits), timeout_keep_alive=limits.keep_alive,
                          timeout_graceful_shutdown=limits.shutdown_grace, limit_concurrency=None,
                          server_header=False, **options)
