"""Requests FastAPI refuses before a handler runs, answered like every other refusal.

A body that is not JSON, a field of the wrong type, a path parameter out of range: each
is a 400 ``{"code", "reason"}`` (``bad_json`` or ``bad_request``) whose reason names the
field and quotes at most :data:`SNIPPET` characters of what was sent, never FastAPI's
``{"detail"}`` 422 echoing the whole body. The OpenAPI schema documents 400, not 422.
Ids are bounded to the database's 64-bit integers, so a huge one is a 400, not a 500.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Annotated, Any

from fastapi import FastAPI, Path, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException

__all__ = ["MAX_ID", "SNIPPET", "InviteKey", "MatchId", "install", "quote", "quoted_input"]

MAX_ID = 2**31 - 1  # the largest id an Integer column holds on both backends (PostgreSQL: 32 bits)
SNIPPET = 40  # characters of a refused value quoted in a reason

# A field refused by the schema keeps the code accounts.py gives it when it refuses it.
FIELD_CODES = {
    "username": "bad_username", "password": "bad_password", "nickname": "bad_nickname",
    "lat": "bad_location", "lon": "bad_location",
}  # fmt: skip

MatchId = Annotated[int, Path(ge=1, le=MAX_ID, description="a match's id")]
# A private room's invite key as a query (``?key=``): 22 characters when made (routers/rooms.py).
InviteKey = Annotated[
    str | None, Query(max_length=64, description="a private room's invite key (its invite link's)")
]


def quote(value: Any) -> str:
    """``repr(value)``, cut to :data:`SNIPPET` characters (an ellipsis marks a cut)."""
    text = repr(value)
    return text if len(text) <= SNIPPET else text[: SNIPPET - 1] + "…"


def quoted_input(error: Mapping[str, Any]) -> str:
    """``, got <the value refused>`` (:func:`quote`: bounded) for a validation error
    that carries one; nothing for a field missing or not allowed at all. One wording for
    HTTP refusals and socket messages alike (frames.py)."""
    if error.get("type") in ("missing", "extra_forbidden") or "input" not in error:
        return ""
    return f", got {quote(error['input'])}"


def describe(exc: RequestValidationError) -> tuple[str, str]:
    """The code and reason for the first thing wrong with a request."""
    errors = exc.errors()
    if not errors:  # pragma: no cover - FastAPI always says what failed
        return "bad_request", "the request is not valid"
    first = errors[0]
    if first.get("type") == "json_invalid":
        why = (first.get("ctx") or {}).get("error", "not JSON")
        return "bad_json", f"the body is not JSON: {str(why)[:SNIPPET]}"
    raw = first.get("input")
    if isinstance(raw, bytes):  # a body not sent as JSON (text/plain, a form…): its text
        text = quote(raw.decode("utf-8", "replace"))
        return "bad_json", f"the body is not JSON (send it as application/json), got {text}"
    loc = [str(x) for x in first.get("loc", ()) if x != "body"]
    code = FIELD_CODES.get(loc[-1], "bad_request") if loc else "bad_request"
    where = ".".join(loc) or "body"
    reason = f"{where}: {first.get('msg', 'not valid')}{quoted_input(first)}"
    more = len(errors) - 1
    return code, reason + (f" (and {more} more)" if more else "")


async def _answer(_: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, RequestValidationError)
    code, reason = describe(exc)
    return JSONResponse({"code": code, "reason": reason}, status_code=400)


# Starlette's own refusals (a body it cannot read, an unknown path, a wrong method).
_HTTP_CODES = {400: "bad_json", 404: "not_found", 405: "bad_method", 413: "too_large"}


async def _http_answer(_: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, HTTPException)
    code = _HTTP_CODES.get(exc.status_code, "http_error")
    reason = str(exc.detail)[:200]
    if exc.status_code == 400:  # JSON that does not decode is refused above, in describe
        reason = f"the body could not be read as JSON: {_unreadable(exc.__cause__)}"
    return JSONResponse(
        {"code": code, "reason": reason}, status_code=exc.status_code, headers=exc.headers
    )


def _unreadable(cause: BaseException | None) -> str:
    """Why JSON that decodes could not be read (FastAPI's 400 says "There was an error
    parsing the body" and keeps the exception as its cause)."""
    if isinstance(cause, RecursionError):
        return "it nests too deeply"
    if isinstance(cause, ValueError) and "digits" in str(cause):
        return "a number in it has more than 4,300 digits"
    return f"it could not be parsed ({type(cause).__name__ if cause else 'no reason given'})"


def _without_422(app: FastAPI, build: Callable[[], dict[str, Any]]) -> Callable[[], dict[str, Any]]:
    """``app.openapi`` with FastAPI's 422 responses and their schemas taken out."""

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            schema = build()
            for path in schema.get("paths", {}).values():
                for op in path.values():
                    if isinstance(op, dict):
                        op.get("responses", {}).pop("422", None)
            parts = schema.get("components", {}).get("schemas", {})
            for name in ("HTTPValidationError", "ValidationError"):
                parts.pop(name, None)
            app.openapi_schema = schema
        return app.openapi_schema

    return openapi


def install(app: FastAPI) -> None:
    """Answer validation errors with 400 ``{code, reason}`` and document that."""
    app.add_exception_handler(RequestValidationError, _answer)
    app.add_exception_handler(HTTPException, _http_answer)
    app.openapi = _without_422(app, app.openapi)  # type: ignore[method-assign]
