"""``ddref serve``: the lookups and the scenario replay as an HTTP JSON API, and a web page for judges.

Every endpoint is a thin shell over the functions of ``ddref.answers`` (the
ones the CLI calls) and returns the JSON ``ddref ... --json`` prints. Bad
input gets the CLI's message as ``{"error": ..., "suggestions": [...]}`` with
a 4xx status (404 for a name that matches nothing, 413 for a body over
``MAX_BYTES``, 422 for an invalid scenario, whose located errors are listed
under ``errors`` as well); anything unexpected is a 500 with a one-line
message, never a traceback.

The lookup handlers are ``async`` and call the library directly: a lookup
takes a millisecond or two, and running them one at a time on the event loop
means the index's SQLite connection and the caches of index/ are only ever used
by one request at a time, with no thread pool between the socket and the answer.
A replay (POST /resolve) runs in a worker process instead, within a time limit,
so a slow or runaway one never holds up the lookups (``ddref.serving``, which
also bounds connections in time and number; ``Limits`` has the defaults).
"""

from __future__ import annotations

from engine.names import typed
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Annotated, Any, Optional

from fastapi import FastAPI, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException

from . import __version__, answers
from .cli_search import Comparable, Kind
from .errors import UserError
from .options import Edition, edition_id
from .http_answers import BodyTimedOut, error_answer, read_body, user_error_answer
from .serving import GracefulServer, Limits, ReplayPool, server_config

WEB = Path(__file__).with_name("web")
# the page loads nothing from elsewhere: no CDN, no inline script
PAGE_HEADERS = {"Content-Security-Policy": "default-src 'self'; img-src 'self' data:; frame-ancestors 'none'"}

EditionParam = Annotated[Edition, Query(description="sfr-2012 (default), sfr-v4, tsr-1996, or all.")]
AnyEditionParam = Annotated[Optional[Edition], Query(description="sfr-2012, sfr-v4, tsr-1996, or all (the default).")]


def create_app(on_ready: Callable[[], None] | None = None, *, limits: Limits = Limits(),
               replay: Callable[[bytes, str, str | None], tuple[int, bytes]] | None = None) -> FastAPI:
    """The app; ``on_ready()`` is called once it serves (and Ctrl+C stops it cleanly).

    ``replay`` answers POST /resolve in a worker process (``replay_answer`` unless a test injects another).
    """

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        await app.state.replays.start()
        try:
            if on_ready:
                on_ready()
            yield
        finally:
            await app.state.replays.close()

    app = FastAPI(
        title="ddref", version=__version__, docs_url=None, redoc_url=None, lifespan=lifespan,
        summary="Dragon Dice rules reference: cited lookups across editions and explained scenario replays.",
        description="Each endpoint answers with the JSON the matching `ddref ... --json` command prints. "
                    "Errors are `{\"error\": message, \"suggestions\": [closest names]}` with a 4xx status.",
    )
    app.state.limits = limits
    app.state.replay = replay or replay_answer
    app.state.replays = ReplayPool(limits.resolve_workers, limits.resolve_timeout, warm_replays,
                                   preload=("ddref.service", "ddref.builder", "ddref.scenario.run"))
    app.add_middleware(HeadAsGet)
    _errors(app)
    _records(app)
    _reference(app)
    _resolve(app)
    from .builder import router as builder  # the dispute builder (issue 22): /build and its endpoints
    app.include_router(builder)
    _pages(app)
    return app


class HeadAsGet:
    """HEAD answers as GET would, headers and all, without the body (FastAPI's GET routes refuse HEAD)."""

    def __init__(self, app) -> None:
        self.app = app

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http" or scope["method"] != "HEAD":
            return await self.app(scope, receive, send)

        async def headers_only(message) -> None:
            await send({**message, "body": b""} if message["type"] == "http.response.body" else message)

        await self.app({**scope, "method": "GET"}, receive, headers_only)


def _errors(app: FastAPI) -> None:
    @app.exception_handler(UserError)
    async def user_error(request: Request, exc: UserError) -> JSONResponse:
        answer = user_error_answer(exc)
        if isinstance(exc, BodyTimedOut):  # the rest of the body may still trickle in: end the connection
            answer.headers["connection"] = "close"
        return answer

    @app.exception_handler(RequestValidationError)
    async def bad_parameter(request: Request, exc: RequestValidationError) -> JSONResponse:
        return error_answer(422, "\n".join(_parameter_error(e) for e in exc.errors()))

    @app.exception_handler(HTTPException)
    async def http_error(request: Request, exc: HTTPException) -> JSONResponse:
        message = f"no such page: {request.url.path}; /docs lists the API" if exc.status_code == 404 else str(exc.detail)
        allowed = (exc.headers or {}).get("Allow")
        if exc.status_code == 405 and allowed:
            message = f"{request.url.path} does not take {request.method}; it takes {allowed}"
        answer = error_answer(exc.status_code, message)
        answer.headers.update(exc.headers or {})  # a 405's Allow
        return answer

    @app.exception_handler(MemoryError)
    async def out_of_memory(request: Request, exc: MemoryError) -> JSONResponse:
        from .errors import OUT_OF_MEMORY

        return error_answer(413, OUT_OF_MEMORY)

    @app.exception_handler(Exception)
    async def internal_error(request: Request, exc: Exception) -> JSONResponse:
        # the traceback goes to the server's log (uvicorn prints it), never to the client
        return error_answer(500, f"internal error ({type(exc).__name__}); it is a bug in ddref: "
                           "the server's log has the details for a report")


def _parameter_error(error: dict) -> str:
    """A parameter FastAPI refused, as the CLI words it: ``query parameter 'edition': ... (got 'x')``."""
    where, *name = error["loc"]
    subject = f"{where} parameter {typed('.'.join(map(str, name)))}" if name else f"the {where}"
    got = f" (got {typed(error['input'])})" if error.get("type") != "missing" and "input" in error else ""
    return f"{subject}: {error['msg']}{got}"


def _records(app: FastAPI) -> None:
    for kind, plural, one in (("spell", "spells", "A spell"), ("sai", "sais", "An SAI"),
                              ("race", "races", "A race"), ("unit", "units", "A unit")):
        app.add_api_route(f"/{plural}/{{name}}", _named(kind), methods=["GET"], tags=["records"],
                          summary=f"{one} by name, as `ddref {kind} NAME --json`")

    @app.get("/spells", tags=["records"], summary="Spells filtered, as `ddref spells --json`")
    async def spells(edition: EditionParam = Edition.sfr_2012, color: Optional[str] = None,
                     race: Optional[str] = None, max_cost: Annotated[Optional[int], Query(ge=0)] = None,
                     reserve: bool = False) -> JSONResponse:
        rows = answers.spell_list(edition, color, race, max_cost, reserve)
        return JSONResponse(answers.dumps(rows))


def _named(kind: str):
    async def record(name: str, edition: EditionParam = Edition.sfr_2012) -> JSONResponse:
        found = answers.named(kind, name, edition)
        note = getattr(found, "note", None)  # a misspelling answered with its one clear match
        return JSONResponse(answers.records_json(found, edition), headers={"X-DDref-Note": note} if note else None)

    record.__doc__ = (f"Names match in any case and spelling, by id or alias; an unknown name is a 404 "
                      f"with the closest names. `edition=all` answers a list, one {kind} per edition.")
    record.__name__ = kind
    return record


def _reference(app: FastAPI) -> None:
    @app.get("/search", tags=["reference"], summary="Ranked search, as `ddref search QUERY --json`")
    async def search(q: Annotated[str, Query(description="Words, \"phrases\", -not, and fields such as "
                                                         "type:spell color:green cost<=3.")],
                     edition: AnyEditionParam = None, type: Optional[Kind] = None,
                     limit: Annotated[int, Query(ge=1, le=200)] = 10) -> JSONResponse:
        kind = type.value if type else None
        result = answers.search(q, edition=edition_id(edition), kind=kind, limit=limit)
        return JSONResponse(answers.search_json(q, edition, kind, result))

    @app.get("/rules", tags=["reference"], summary="The table of contents, as `ddref rules --json`")
    async def rules(edition: EditionParam = Edition.sfr_2012) -> JSONResponse:
        return JSONResponse(answers.contents_json(answers.contents(edition)))

    @app.get("/rules/{target}", tags=["reference"], summary="A rule section by id, or the best match for "
                                                             "words, as `ddref rule ID --json`")
    async def rule(target: str, edition: AnyEditionParam = None) -> JSONResponse:
        return JSONResponse(answers.section_json(target, *answers.section(target, edition)))

    @app.get("/rulings", tags=["reference"], summary="FAQ rulings, as `ddref ruling QUERY --json`")
    async def rulings(q: Annotated[str, Query(description="Topic words, a ruling or topic id, a spell/SAI/race "
                                                         "name, or words of the text.")]) -> JSONResponse:
        return JSONResponse(answers.dumps(answers.rulings(q)))

    @app.get("/glossary/{term}", tags=["reference"], summary="A glossary term, as `ddref glossary TERM --json`")
    async def glossary(term: str) -> JSONResponse:
        return JSONResponse(answers.dumps(answers.glossary(term)))

    @app.get("/compare/{kind}/{name}", tags=["reference"],
             summary="Every edition side by side, as `ddref compare KIND NAME --json`")
    async def compare(kind: Comparable, name: str) -> JSONResponse:
        return JSONResponse(answers.comparison(kind.value, name).as_json())

    @app.get("/sources", tags=["reference"], summary="The documents and the corpus hash, as `ddref sources --json`")
    async def sources() -> JSONResponse:
        return JSONResponse(answers.sources_json())


_SCENARIO_BODY = {"requestBody": {"required": True, "content": {
    "application/yaml": {"schema": {"type": "string"}},
    "application/json": {"schema": {"type": "object"}},
}}}


def _resolve(app: FastAPI) -> None:
    @app.post("/resolve", tags=["scenarios"], openapi_extra=_SCENARIO_BODY,
              summary="Replay a scenario, as `ddref resolve FILE --json`")
    async def resolve(request: Request, edition: Optional[str] = None,
                      file: Annotated[str, Query(description="The name the messages and results give the "
                                                             "scenario.")] = "scenario") -> Response:
        """The body is a scenario in YAML or JSON (format version 1). An invalid one is a 422 whose
        `errors` locate each problem (line, column, field) as the CLI does. A replay that runs past the
        server's time limit is stopped: a 422 saying so."""
        edition = answers.replayable(edition)
        state = request.app.state
        status, body = await state.replays.call(state.replay, await read_body(request), file, edition)
        return Response(body, status_code=status, media_type="application/json")


def replay_answer(body: bytes, file: str, edition: str | None) -> tuple[int, bytes]:
    """POST /resolve's status and JSON body for a scenario, computed in a replay worker process."""
    from .scenario.run import parse, replay

    out_of_memory = False
    try:
        answer = JSONResponse(replay(parse(body, file, edition), edition))
    except UserError as exc:
        answer = user_error_answer(exc)
    except MemoryError:
        out_of_memory = True    # answered after this block, once the traceback has let go of what filled the memory
    if out_of_memory:
        from .errors import OUT_OF_MEMORY

        answer = error_answer(413, OUT_OF_MEMORY)
    return answer.status_code, answer.body


_WARM_UP = b"""ddref: 1
title: warm up
players: [a, b]
terrains: {home: {type: highland, face: 3, action: missile, home_of: a}}
armies: {x: {player: a, at: home, units: [{race: dwarf, health: 1, count: 2}]}}
effects: [{spell: wall-of-fog, target: home, by: b}]
steps: [{roll: {army: x, for: maneuver, roll: {maneuver: 2}}}]
"""


def warm_replays() -> None:
    """Load what a replay needs (the corpus, the ruleset), once per replay worker, so that its first
    replay is as quick as the rest: a two-unit scenario replayed."""
    replay_answer(_WARM_UP, "warm-up", None)


def _pages(app: FastAPI) -> None:
    from fastapi.openapi.docs import get_swagger_ui_html
    from swagger_ui_bundle import swagger_ui_path

    @app.get("/docs", include_in_schema=False)
    async def docs() -> Any:
        # Swagger UI from the installed package, not a CDN: a tournament's network may have no internet
        return get_swagger_ui_html(openapi_url=app.openapi_url, title="ddref API",
                                   swagger_js_url="/docs-assets/swagger-ui-bundle.js",
                                   swagger_css_url="/docs-assets/swagger-ui.css",
                                   swagger_favicon_url="/docs-assets/favicon-32x32.png")

    app.mount("/docs-assets", StaticFiles(directory=swagger_ui_path), name="docs-assets")

    async def page() -> FileResponse:
        return FileResponse(WEB / "index.html", headers=PAGE_HEADERS)

    for path in ("/", "/trace"):  # one page, two views: search, and a scenario traced
        app.add_api_route(path, page, methods=["GET"], include_in_schema=False)

    app.mount("/static", StaticFiles(directory=WEB), name="static")


# --- running it -----------------------------------------------------------------

def listen(host: str, port: int):
    """A socket listening on ``host``:``port`` (0: any free port), or a user error saying why not."""
    import errno
    import socket

    try:
        family, kind, proto, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM,
                                                             flags=socket.AI_PASSIVE)[0]
    except socket.gaierror as exc:
        raise UserError(f"cannot serve on host {typed(host)}: {exc.strerror}; try 127.0.0.1 (this machine) "
                        "or 0.0.0.0 (every network it is on)") from None
    sock = socket.socket(family, kind, proto)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind(address)
        sock.listen(128)
    except OSError as exc:
        sock.close()
        busy = "; another program uses the port: try another --port" if exc.errno == errno.EADDRINUSE else ""
        raise UserError(f"cannot listen on {host}:{port}: {exc.strerror}{busy}") from None
    return sock


def urls(host: str, port: int) -> list[str]:
    """The addresses to open: for a wildcard host, this machine's own on each network it is up on, then loopback."""
    if host not in ("0.0.0.0", "::"):
        return [f"http://{_bracketed(host)}:{port}/"]
    import socket

    import psutil

    families = (socket.AF_INET,) if host == "0.0.0.0" else (socket.AF_INET, socket.AF_INET6)
    up = {name for name, stats in psutil.net_if_stats().items() if stats.isup and "loopback" not in stats.flags}
    found = [a.address for name, addresses in psutil.net_if_addrs().items() if name in up
             for a in addresses if a.family in families and not a.address.startswith("fe80:")]
    return [f"http://{_bracketed(a)}:{port}/" for a in found] + [f"http://127.0.0.1:{port}/"]


def _bracketed(address: str) -> str:
    return f"[{address}]" if ":" in address else address


def warm_up(progress=None) -> None:
    """Build or open the search index, so the first request is as quick as the rest (replays warm their workers)."""
    answers.search("warm up", progress=progress)


def run(sock, on_ready: Callable[[], None], limits: Limits = Limits(),
        replay: Callable[[bytes, str, str | None], tuple[int, bytes]] | None = None) -> None:
    """Serve on ``sock`` within ``limits`` until SIGTERM or Ctrl+C, logging each request on stderr.

    The replay workers import the program's main module, as multiprocessing does: a script calling
    ``run`` keeps its own top-level code under ``if __name__ == "__main__":`` (``python -c`` needs none)."""
    import copy

    from uvicorn.config import LOGGING_CONFIG

    config = copy.deepcopy(LOGGING_CONFIG)
    config["handlers"]["access"]["stream"] = "ext://sys.stderr"  # stdout is the banner, or --json's line
    host, port = sock.getsockname()[:2]
    app = create_app(on_ready, limits=limits, replay=replay)
    server = GracefulServer(server_config(app, limits, host=host, port=port, log_config=config), app.state.replays)
    try:
        server.run(sockets=[sock])
    except KeyboardInterrupt:  # uvicorn stops cleanly, then raises the Ctrl+C it caught again
        pass
