"""What every route of ``ddref serve`` answers with: the JSON error bodies, and a request body read within the
server's size and time limits. Shared by the service (``ddref.service``) and the dispute builder
(``ddref.builder``), so neither imports the other's internals."""

from __future__ import annotations

from typing import Any

from fastapi import Request
from fastapi.responses import JSONResponse

from .errors import UserError
from .scenario.source import MAX_BYTES, ScenarioError, ScenarioErrors


class TooLarge(UserError):
    """A request body over ``MAX_BYTES``: HTTP 413."""

    status = 413


class BodyTimedOut(UserError):
    """A request body that did not arrive within ``Limits.read_timeout``: HTTP 408."""

    status = 408


def error_answer(status: int, message: str, suggestions: list[str] = (), **extra: Any) -> JSONResponse:
    return JSONResponse({"error": message, "suggestions": list(suggestions), **extra}, status_code=status)


def user_error_answer(exc: UserError) -> JSONResponse:
    located = exc.errors if isinstance(exc, ScenarioErrors) else [exc] if isinstance(exc, ScenarioError) else []
    extra = {"errors": [e.as_dict() for e in located]} if located else {}
    if getattr(exc, "result", None) is not None:     # a refused step: the steps before it (StepRefused)
        extra["result"] = exc.result
    return error_answer(exc.status, str(exc), exc.suggestions, **extra)


async def read_body(request: Request) -> bytes:
    """The request body, refused (413) past ``MAX_BYTES`` before it is all read, and (408) when it is
    not all there within the server's read timeout (a client trickling bytes holds no connection long)."""
    import asyncio

    limit = f"the limit is {MAX_BYTES // 1024 // 1024} MiB ({MAX_BYTES:,} bytes)"
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > MAX_BYTES:
        raise TooLarge(f"the scenario is too large ({int(declared):,} bytes); {limit}")
    chunks, size = [], 0
    timeout = request.app.state.limits.read_timeout
    try:
        async with asyncio.timeout(timeout):
            async for chunk in request.stream():
                size += len(chunk)
                if size > MAX_BYTES:
                    raise TooLarge(f"the scenario is too large (more than {MAX_BYTES:,} bytes); {limit}")
                chunks.append(chunk)
    except TimeoutError:
        raise BodyTimedOut(f"the request's body did not all arrive within {timeout:g} s ({size:,} bytes came); "
                           "`ddref serve --read-timeout` sets the limit") from None
    return b"".join(chunks)
