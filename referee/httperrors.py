"""One JSON shape for every error of the HTTP app (:class:`schemas.ErrorBody`): domain errors, bad tokens,
Litestar's own validation errors, unknown routes and methods, a store that did not answer, a bug.
:func:`error_response` is the app's one exception handler."""

from __future__ import annotations

import logging
from typing import Any

import msgspec
from litestar import Request, Response
from litestar.exceptions import HTTPException, MethodNotAllowedException, NotFoundException, ValidationException

from schemas import DEPTH_MAX, ErrorBody

from .engine.codes import StoreCode
from .errors import BadInput, RefereeError, StorageError
from .httpbody import MAX_BODY
from .httpcodes import InternalCode, RequestCode, RouteCode
from .httphall import RETRY_AFTER
from .store import BadSetting, StoreError, StoreUnavailable
from .web import error_said

log = logging.getLogger("referee.http")


def _jsonable(value: Any) -> Any:
    try:
        return msgspec.json.decode(msgspec.json.encode(value, enc_hook=str))
    except (TypeError, ValueError, msgspec.MsgspecError):
        return str(value)


def error_response(request: Request[Any, Any, Any], exc: Exception) -> Response[ErrorBody]:
    headers: dict[str, str] = {}
    if isinstance(exc, BadSetting):  # a store's setting that the operator gave (e.g. the durability): bad input
        exc = BadInput(exc.code, exc.message)
    if isinstance(exc, StorageError) and isinstance(exc.__context__, StoreUnavailable):
        exc = exc.__context__  # the service's words for a store that did not answer: said as such
    if isinstance(exc, StoreError):  # the store cannot be used now (down, restarting, a lock or statement timed out)
        unavailable = isinstance(exc, StoreUnavailable)
        log.warning("store %s on %s %s: %s", "unavailable" if unavailable else "failed", request.method,
                    request.url.path, exc)
        status = 503
        body = ErrorBody(code=StoreCode.UNAVAILABLE if unavailable else StoreCode.FAILED,
                         message=(f"the store did not answer (down, restarting or busy); retry in {RETRY_AFTER} s "
                                  "(a write retried with its Idempotency-Key is applied once)"
                                  if unavailable else f"the store failed: {exc}"),
                         detail={"retry_after": RETRY_AFTER})
    elif isinstance(exc, RefereeError):
        status = 422 if isinstance(exc, BadInput) else exc.http_status
        body = ErrorBody(code=exc.code, message=exc.message, detail=_jsonable(exc.detail), said=error_said(exc))
        if status == 401:
            headers["WWW-Authenticate"] = "Bearer"
        if status == 429:
            headers["Retry-After"] = str(exc.detail.get("retry_after", RETRY_AFTER))
    elif isinstance(exc, RecursionError):
        status = 400
        body = ErrorBody(code=RequestCode.TOO_DEEP, message="the request nests too deeply to read; "
                         f"nothing the referee takes nests more than {DEPTH_MAX} levels")
    elif isinstance(exc, UnicodeError):
        status = 400
        body = ErrorBody(code=RequestCode.BAD_ENCODING, message=f"the request is not valid UTF-8 text: {exc}")
    elif isinstance(exc, ValidationException):
        status = 400
        body = ErrorBody(code=RequestCode.INVALID, message=f"the request does not fit this route: {exc.detail}",
                         detail={"errors": _jsonable(exc.extra or [])})
    elif isinstance(exc, NotFoundException):
        status = 404
        body = ErrorBody(code=RouteCode.NOT_FOUND, message=f"no route {request.url.path}; see /schema for the API")
    elif isinstance(exc, MethodNotAllowedException):
        status = 405
        body = ErrorBody(code=RouteCode.METHOD_NOT_ALLOWED, message=f"{request.method} is not allowed on {request.url.path}")
        headers.update(exc.headers or {})
    elif isinstance(exc, HTTPException) and exc.status_code == 413:
        status = 413
        body = ErrorBody(code=RequestCode.TOO_LARGE, message=f"the request body is larger than {MAX_BODY:,} bytes; "
                         "a card set goes in cards_text (at most 1,000,000 bytes)", detail={"limit": MAX_BODY})
    elif isinstance(exc, HTTPException):
        status = exc.status_code if 400 <= exc.status_code < 600 else 500
        body = ErrorBody(code=f"http/{status}", message=str(exc.detail), detail={"extra": _jsonable(exc.extra)} if exc.extra else {})
        headers.update(exc.headers or {})
    else:
        log.exception("internal error on %s %s", request.method, request.url.path)
        status = 500
        body = ErrorBody(code=InternalCode.ERROR, message=f"a bug in referee ({type(exc).__name__}); please report it")
    if status == 503:
        headers["Retry-After"] = str(RETRY_AFTER)
    return Response(content=body, status_code=status, headers=headers)
