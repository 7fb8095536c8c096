"""What the two routers of ``referee serve`` share (the matches' in :mod:`referee.http`, the
tournaments' in :mod:`referee.tournament.http`): the error answers every route documents (and what one
said through the catalog adds, :func:`error_said`), the bearer security scheme it names, and how an
export is streamed in pieces. Below both, so neither imports the other's module."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import msgspec
from litestar.openapi import ResponseSpec

from schemas import ErrorBody, ErrorSaid

SECURITY: list[dict[str, list[str]]] = [{"BearerToken": []}]
#: an export is sent in pieces of about this many bytes as the log is walked (never built whole)
EXPORT_CHUNK = 64 * 1024

_WHY = {
    400: "the request does not fit the route (types, ranges, JSON)",
    401: "no token, or a token of no match",
    403: "a token of another match, or a role that may not do this",
    404: "no such match, game or route",
    409: "stale expected_seq: the log moved on (detail.head is the current head)",
    413: "the request body is larger than the server reads",
    422: "bad input: the referee could not use it (nothing was written)",
    429: "this token already has its share of whole-log requests running: retry after Retry-After seconds",
    503: "the store is unavailable (down, restarting, or a lock or statement timed out): retry after Retry-After seconds",
}
#: the error answers (one JSON shape, :class:`schemas.ErrorBody`) every route documents
ERRORS = {status: ResponseSpec(data_container=ErrorBody, description=why) for status, why in _WHY.items()}


def error_said(exc: Exception) -> ErrorSaid | msgspec.UnsetType:
    """What an error answer adds to its English message when the message was said through the catalog
    (:meth:`referee.errors.RefereeError.kept`): the template and its values, a value said through a
    template of its own (a phrase) as such; absent otherwise, and when they do not say the very message."""
    from .errors import read

    kept = getattr(exc, "kept", None)
    said = kept() if callable(kept) else None
    if said is None:
        return msgspec.UNSET
    try:  # only what says the very message (nothing beyond it: a message changed after it was said has none)
        if read(said, _english) != getattr(exc, "message", None):
            return msgspec.UNSET
    except (KeyError, ValueError, IndexError, TypeError, AttributeError):
        return msgspec.UNSET
    return ErrorSaid(template=said[0], values={k: _plain(v) for k, v in said[1].items()})


def _english(template: str, **values: Any) -> str:
    return template.format(**values)


def _plain(value: Any) -> Any:
    said = getattr(value, "template", None) if isinstance(value, str) else None
    if said is not None:
        return {"template": said[0], "values": {k: _plain(v) for k, v in said[1].items()}}
    return value if value is None or isinstance(value, (str, int, float, bool)) else str(value)


def pieces(chunks: Iterator[str], done: Callable[[], None]) -> Iterator[bytes]:
    """The export's text in pieces of about :data:`EXPORT_CHUNK` bytes; ``done`` (giving the token's
    slot back) is called when the last is sent (or the client goes away and the stream is closed)."""
    try:
        buffer: list[bytes] = []
        size = 0
        for chunk in chunks:
            data = chunk.encode("utf-8")
            buffer.append(data)
            size += len(data)
            if size >= EXPORT_CHUNK:
                yield b"".join(buffer)
                buffer, size = [], 0
        if buffer:
            yield b"".join(buffer)
    finally:
        done()
