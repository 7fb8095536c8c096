"""Who is asking: the tokens of a match (minted when it is created or forked, only their hashes stored), the
:class:`~referee.auth.Principal` a bearer token names, what that role may do and which view it may ask
for (:class:`Gate`, the base of :class:`referee.access.Access`).
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from typing import Any, Protocol

from schemas import ARBITER, SPECTATOR, MatchInfo
from schemas.http import Tokens

from .auth import AuthCode, Forbidden, Principal, Unauthorized, bearer, hash_token
from .config import Loaded
from .engine.codes import StoreCode
from .errors import StorageError
from .engine.speech import Said
from .i18n import N_
from .memo import HeadMemo
from .service import Referee
from .store import AccessTokens, MatchLog, StoredToken, StoreError


class AccessRecords(MatchLog, AccessTokens, Protocol):
    """What the access layer reads and writes itself: match heads, listings and idempotency keys (the
    match log) and the matches' tokens; everything else goes through the :class:`Referee`."""


class RoleRefused(Forbidden):
    """A role may not do something: what it may not do is a catalog entry of its own (marked where it is
    named), read in the reader's language inside the refusal's."""

    def text(self, gettext: Callable[..., str]) -> str:
        if self.template is None:
            return self.message
        template, values = self.template
        what: Any = values.get("what", "")
        return gettext(template, **{**values, "what": gettext(what)})


class Gate:
    """The HTTP service's operations. Every method takes the caller's :class:`Principal`, checks
    what that role may do, calls the :class:`Referee` and returns an answer already redacted for it.
    This base holds the service and the tokens, and checks the roles."""

    def __init__(
        self,
        referee: Referee,
        *,
        tokens: dict[str, StoredToken] | None = None,
        on_append: Callable[[str], None] | None = None,
        memo: HeadMemo | None = None,
    ) -> None:
        self.referee = referee
        #: the latest seat pages computed, by match and seat (:mod:`referee.memo`; a server's threads share one)
        self.memo = memo if memo is not None else HeadMemo()
        self.store: AccessRecords = referee.store
        self._tokens = tokens if tokens is not None else {}
        self._on_append = on_append
        self._loaded: dict[str, Loaded] = {}

    def _load(self, match_id: str) -> Loaded:
        """The match bound to its rules. A principal's match id is a full id (from its token) and a
        match row never changes, so the binding is kept (the referee's own load asks the store first)."""
        loaded = self._loaded.get(match_id)
        if loaded is None:
            loaded = self.referee.load(match_id)
            if len(self._loaded) > 256:
                self._loaded.clear()
            self._loaded[loaded.match.id] = loaded
        return loaded

    # -- tokens ----------------------------------------------------------------------------------

    def _mint(self, info: MatchInfo) -> Tokens:
        """One token a seat, the arbiter's, the spectators' and one for each actor the game declares besides
        the seats and the arbiter (an actor named ``arbiter`` is the arbiter's token's)."""
        seats = {seat: secrets.token_urlsafe(24) for seat in info.players}
        others = self.referee.game(info.game).capabilities.other_actors
        actors = {a: secrets.token_urlsafe(24) for a in others if a != ARBITER and a not in seats}
        arbiter, spectator = secrets.token_urlsafe(24), secrets.token_urlsafe(24)
        rows = [StoredToken(token_hash=hash_token(t), match_id=info.id, role="seat", seat=s) for s, t in seats.items()]
        rows.append(StoredToken(token_hash=hash_token(arbiter), match_id=info.id, role="arbiter"))
        rows.append(StoredToken(token_hash=hash_token(spectator), match_id=info.id, role="spectator"))
        rows += [StoredToken(token_hash=hash_token(t), match_id=info.id, role="actor", seat=a) for a, t in actors.items()]
        try:
            self.store.add_tokens(rows)
        except StoreError as exc:
            raise StorageError.said(StoreCode.FAILED, N_("could not record the match's tokens: {problem}"),
                                    problem=str(exc)) from None
        return Tokens(seats=seats, arbiter=arbiter, spectator=spectator, actors=actors)

    def authenticate(self, authorization: str | None, match_id: str) -> Principal:
        """The principal of an ``Authorization: Bearer <token>`` header for match ``match_id`` (its
        full id, or a prefix of 4+ characters of it)."""
        token = bearer(authorization, Said(N_("send the match's token as 'Authorization: Bearer <token>' (tokens are "
                                              "given when the match is created)")))
        digest = hash_token(token)
        row = self._tokens.get(digest)
        if row is None:
            row = self.store.find_token(digest)
            if row is None:
                raise Unauthorized.said(AuthCode.UNKNOWN_TOKEN, N_("this token is not a token of any match on this server"))
            if len(self._tokens) > 100_000:
                self._tokens.clear()
            self._tokens[digest] = row
        if match_id != row.match_id and not (len(match_id) >= 4 and row.match_id.startswith(match_id)):
            raise Forbidden.said(AuthCode.OTHER_MATCH, N_("this token belongs to another match"))
        return Principal(match_id=row.match_id, role=row.role, seat=row.seat)

    @staticmethod
    def _require(p: Principal, roles: tuple[str, ...], what: str) -> None:
        """Refused unless the caller's role is one of ``roles``; ``what`` (marked ``N_``) says what it may not do
        (``may not fork the match``: marked whole, 'undo' here is not the log's word)."""
        if p.role not in roles:
            raise RoleRefused.said(AuthCode.FORBIDDEN, N_("a spectator {what} (allowed: {roles})")
                                   if p.role == "spectator" else N_("a seat {what} (allowed: {roles})")
                                   if p.role == "seat" else N_("the {seat} {what} (allowed: {roles})")
                                   if p.role == "actor" else N_("the arbiter {what} (allowed: {roles})"),
                                   seat=p.seat, what=what, roles=", ".join(roles))

    def _view_of(self, loaded: Loaded, p: Principal, as_: str | None) -> str:
        """The view a caller asks for (``as``): the arbiter may look as anyone; a seat as itself or as a
        spectator; a spectator as a spectator."""
        own = p.view
        if as_ is None or as_ == own:
            return own
        if p.role == "arbiter" or as_ == SPECTATOR:
            if as_ != ARBITER:
                self.referee.role(loaded, as_)  # an unknown seat is bad input
            return as_
        raise Forbidden.said(AuthCode.OTHER_VIEW, N_("{own} may see only its own view (or the spectators'), not {other}'s"),
                             own=own, other=as_)

    def entry(self, p: Principal, ref: int | str, what: str) -> int:
        """The entry ``ref`` names in the caller's match: a number as it is, ``line:N`` the entry read from line N
        of the imported transcript, looked up in the log the caller sees (:func:`referee.entryref.resolve`: a
        line that produced no entry is refused naming the nearest that did)."""
        if isinstance(ref, int):
            return ref
        if ref.isdigit():
            return int(ref)
        from . import entryref

        loaded = self._load(p.match_id)
        return entryref.resolve(self.referee, loaded.match.id, ref, what, seat=self._seat(p.view))

    @staticmethod
    def _seat(view: str) -> str | None:
        """The service's name for a view: None for the arbiter's full view."""
        return None if view == ARBITER else view

