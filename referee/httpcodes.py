"""The codes of the HTTP front ends' own refusals, a ``StrEnum`` per scope as :mod:`referee.engine.codes`
gives the framework's (a token's are :class:`referee.auth.AuthCode`, a tournament's
:class:`referee.tournament.codes.TournamentCode`): the request before a route reads it, the route, a bug,
a stream of events resumed, and a client's reading of a server's answer. A code never changes."""

from __future__ import annotations

from enum import StrEnum


class RequestCode(StrEnum):
    """An HTTP request before a route reads it (its size, encoding, shape), and an idempotency key."""

    BAD_ENCODING = "request/bad_encoding"
    BAD_KEY = "request/bad_key"
    BUSY = "request/busy"
    INVALID = "request/invalid"
    KEY_REUSED = "request/key_reused"
    TOO_DEEP = "request/too_deep"
    TOO_LARGE = "request/too_large"


class RouteCode(StrEnum):
    """No route for the path, or not for the method."""

    METHOD_NOT_ALLOWED = "route/method_not_allowed"
    NOT_FOUND = "route/not_found"


class InternalCode(StrEnum):
    """A bug: what a front end answers when the referee raised what it should not."""

    ERROR = "internal/error"


class EventsCode(StrEnum):
    """A stream of events resumed from the id a client names (``Last-Event-ID``)."""

    BAD_LAST_EVENT_ID = "events/bad_last_event_id"


class HttpCode(StrEnum):
    """What a client makes of a server's answer."""

    NO_REASON = "http/no_reason"


#: every scope, by its prefix
SCOPES: dict[str, type[StrEnum]] = {
    "request": RequestCode,
    "route": RouteCode,
    "internal": InternalCode,
    "events": EventsCode,
    "http": HttpCode,
}
