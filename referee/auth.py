"""Tokens and who they speak for, below both HTTP front ends (matches and tournaments).

A token is a secret minted once (``secrets.token_urlsafe``) and stored only as its sha256 hash
(:func:`hash_token`). A request names it as ``Authorization: Bearer <token>`` (:func:`bearer`). A
match's token names a :class:`Principal` (a seat, the arbiter, the spectators); a tournament's names an
entrant of :mod:`referee.tournament.access`; the server's admin token (:func:`check_admin`) guards what
is everyone's business on the server. No usable token is :class:`Unauthorized` (401), a token that may
not do this is :class:`Forbidden` (403).
"""

from __future__ import annotations

import hashlib
import hmac
from dataclasses import dataclass
from enum import StrEnum

from .engine.speech import Said
from .errors import RefereeError
from .i18n import N_


class AuthCode(StrEnum):
    """A bearer token: missing or malformed, of no match or tournament, or of a role that may not do this."""

    FORBIDDEN = "auth/forbidden"
    MALFORMED = "auth/malformed"
    MISSING = "auth/missing"
    NO_ADMIN = "auth/no_admin"
    NOT_ADMIN = "auth/not_admin"
    OTHER_MATCH = "auth/other_match"
    OTHER_SEAT = "auth/other_seat"
    OTHER_TOURNAMENT = "auth/other_tournament"
    OTHER_VIEW = "auth/other_view"
    REVOKED = "auth/revoked"
    UNKNOWN_TOKEN = "auth/unknown_token"


class Unauthorized(RefereeError):
    """No usable bearer token: 401."""

    http_status = 401


class Forbidden(RefereeError):
    """A valid token that may not do this (another match's, or a role that may not): 403."""

    http_status = 403


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


@dataclass(frozen=True)
class Principal:
    """Who a token speaks for: a seat of one match, its arbiter, its spectators, or an actor of its game
    that is no seat (role ``actor``, the actor named in ``seat``: Copycat's ``table``)."""

    match_id: str
    role: str  # "seat" | "arbiter" | "spectator" | "actor"
    seat: str | None = None

    @property
    def name(self) -> str:
        """The seat's (or actor's) name, or ``arbiter`` / ``spectator``: the ``by`` recorded."""
        return self.seat if self.role in ("seat", "actor") and self.seat is not None else self.role

    @property
    def view(self) -> str:
        """The view the token reads: the seat's own, the arbiter's (everything) or the spectators'; an actor
        that is no seat holds no hand and reads the spectators' view."""
        return "spectator" if self.role == "actor" else self.name


def bearer(authorization: str | None, missing: str) -> str:
    """The token of an ``Authorization: Bearer <token>`` header; ``missing`` tells a caller without one
    which token to send."""
    if not authorization:
        refused = Unauthorized(AuthCode.MISSING, str(missing))
        # a phrase said through the catalog (``referee.engine.speech.Said``) reads in the reader's language
        refused.template = getattr(missing, "template", None)
        raise refused
    scheme, _, token = authorization.strip().partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise Unauthorized.said(AuthCode.MALFORMED, N_("the Authorization header must be 'Bearer <token>'"))
    return token.strip()


def check_admin(authorization: str | None, admin_token: str | None, what: str | None = None) -> None:
    """Server-wide operations (listing every match, creating a tournament, the ratings) need the server's
    admin token; without one configured they are off (match ids, players and titles are not everyone's
    business; a tournament's creation costs the server a record and a token per player). ``what``: the
    operation, as a phrase (``referee.engine.speech.Said``, to read in the reader's language)."""
    if admin_token is None:
        raise Forbidden.said(AuthCode.NO_ADMIN, N_("{what} is off on this server (start it with REFEREE_ADMIN_TOKEN "
                                                   "set)"), what=Said(N_("listing every match")) if what is None
                             else what)
    scheme, _, token = (authorization or "").strip().partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise Unauthorized.said(AuthCode.MISSING, N_("send the server's admin token as 'Authorization: Bearer <token>'"))
    if not hmac.compare_digest(hash_token(token.strip()), hash_token(admin_token)):
        raise Forbidden.said(AuthCode.NOT_ADMIN, N_("this token is not the server's admin token"))
