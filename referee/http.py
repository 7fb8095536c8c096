"""The referee over HTTP (``referee serve``): a Litestar app, a veneer over :mod:`referee.access`.

Every route parses its input, calls one :class:`~referee.access.Access` method and renders the
answer; no rules and no log logic live here. Errors of every kind — domain errors, bad tokens,
Litestar's own validation errors, unknown routes and methods — become one JSON shape,
:class:`schemas.ErrorBody`, in :func:`_error`, and nowhere else.

Build the app with :func:`create_app`; ``referee_factory`` is called once per worker thread (each
thread gets its own :class:`Referee`, hence its own SQLite connection; SQLite serialises writers
with ``BEGIN IMMEDIATE``, one short transaction per append).

Auth: ``Authorization: Bearer <token>``, a token minted when the match was created. Roles: a seat
(acts as itself, sees its own view), the arbiter (acts for any seat, sees everything) and spectators
(read only, the public view). No token or an unknown one: 401; a token of another match or a role
that may not: 403.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import threading
import zlib
from collections.abc import AsyncIterator, Callable, Iterator
from typing import Annotated, Any, Literal

import anyio
import msgspec
from litestar import Litestar, Request, Response, Router, get, post
from litestar.datastructures import State
from litestar.exceptions import HTTPException, MethodNotAllowedException, NotFoundException, ValidationException
from litestar.openapi import OpenAPIConfig, ResponseSpec
from litestar.openapi.spec import Components, SecurityScheme
from litestar.params import FromQuery, HeaderParameter, JSONBody, PathParameter, QueryParameter
from litestar.response import ServerSentEvent, ServerSentEventMessage, Stream

from schemas import DEPTH_MAX, Annotation, ErrorBody, MatchInfo
from schemas.http import (
    LINE_PATTERN,
    AnnotateRequest,
    AuditAnswer,
    ConfirmRequest,
    CreateMatch,
    DiffAnswer,
    ForkRequest,
    GameInfo,
    Health,
    LegalAnswer,
    LogPage,
    MatchAccess,
    MatchCreated,
    RedoRequest,
    ReplayStep,
    RulingRequest,
    AmendRequest,
    StateAnswer,
    SubmitAnswer,
    SubmitIntent,
    UndoRequest,
)

from .access import Access
from .amend import Amendment
from .history import History
from .memo import HeadMemo
from .auth import AuthCode, Principal, Unauthorized, check_admin
from .errors import BadInput, RefereeError, StorageError
from .service import Referee
from .store import BadSetting, StoreError, StoreUnavailable
from .tournament import http as tournament_http
from .seatpage import routes as seat_http
from .web import ERRORS, SECURITY, error_said, pieces
from .httpcodes import EventsCode, InternalCode, RequestCode, RouteCode
from .engine.codes import InputCode, StoreCode

log = logging.getLogger("referee.http")

#: the largest request body the server reads (a card set of 1 MB, JSON-escaped, fits)
MAX_BODY = 2_000_000
#: requests that read a whole log (export, replay, audit, diff) one token may have running at once
HEAVY_PER_TOKEN = 2
#: what a 429 tells the client to wait (seconds) before it retries
RETRY_AFTER = 2
#: how long a live stream waits before it looks again at a store that did not answer (seconds)
STORE_RETRY = 1.0
#: how long /health waits for the store to answer a read before it says it is unavailable (seconds)
HEALTH_WAIT = 3.0


class TooBusy(RefereeError):
    """The token already has as many heavy requests running as it may: 429, with when to retry."""

    http_status = 429
#: Every route that reaches the store runs in a worker thread (each thread has its own Referee), never
#: on the event loop: a request waiting for the database (a lock, a restart, the retries' pauses) holds
#: its thread, while /health and the live streams of the process go on answering.
IN_THREAD = True
MAX = 2**53
Seq = Annotated[int, QueryParameter(ge=0, le=MAX)]
OptSeq = Annotated[int | None, QueryParameter(ge=0, le=MAX)]
AsRole = Annotated[str | None, QueryParameter(name="as", max_length=64, description="see as this seat / spectator")]
IdemKey = Annotated[
    str | None,
    HeaderParameter(name="Idempotency-Key", max_length=200, description="apply a retried request once"),
]
#: an entry named in a query: its number, or ``line:N``, the entry read from line N of the imported transcript
#: (as the CLI's commands take it; :meth:`Access.entry` looks the line up)
ENTRY = r"^([0-9]{1,16}|line:[0-9]{1,9})$"
ENTRY_HELP = "an entry number, or line:N for the entry read from line N of the imported transcript"
OptEntry = Annotated[str | None, QueryParameter(pattern=ENTRY, max_length=20, description=ENTRY_HELP)]
#: a first entry (1 or later), or line:N
FIRST = r"^([1-9][0-9]{0,15}|line:[0-9]{1,9})$"
MatchIdPath = Annotated[str, PathParameter(max_length=64, description="the match id (or 4+ leading characters)")]


# -- the shared parts of the app -------------------------------------------------------------------------


class Hub:
    """Wakes the live streams of a match when an entry is appended in this process, or, over a store
    that announces appends (PostgreSQL, a SQLite file), in any process (entries written by other
    processes are picked up by polling otherwise)."""

    def __init__(self) -> None:
        self.loop: asyncio.AbstractEventLoop | None = None
        self.waiters: dict[str, set[asyncio.Event]] = {}
        self.streams = 0

    def notify(self, match_id: str) -> None:  # any thread
        loop = self.loop
        if loop is not None and match_id in self.waiters:
            with contextlib.suppress(RuntimeError):  # the loop has closed: nobody waits any more
                loop.call_soon_threadsafe(self._wake, match_id)

    def _wake(self, match_id: str) -> None:
        for event in self.waiters.get(match_id, ()):
            event.set()

    def resume(self) -> None:  # any thread
        """Wake every stream (the announcements were lost for a while: each looks for what it missed)."""
        loop = self.loop
        if loop is not None:
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(self._wake_all)

    def _wake_all(self) -> None:
        for group in self.waiters.values():
            for event in group:
                event.set()

    @contextlib.contextmanager
    def watching(self, match_id: str) -> Iterator[asyncio.Event]:
        """An event set by every announcement of ``match_id`` while the block runs. A stream holds one for
        its life and clears it before it looks at the store, so an append landing between its look and
        its wait still wakes it (a waiter registered only for the wait would miss it until the poll)."""
        event = asyncio.Event()
        self.waiters.setdefault(match_id, set()).add(event)
        try:
            yield event
        finally:
            group = self.waiters.get(match_id)
            if group is not None:
                group.discard(event)
                if not group:
                    self.waiters.pop(match_id, None)


class Hall:
    """What every route reaches through ``state.hall``: one :class:`Access` per worker thread."""

    def __init__(self, referee_factory: Callable[[], Referee], *, admin_token: str | None = None,
                 keepalive: float = 15.0, poll: float = 1.0, listen_poll: float = 10.0) -> None:
        self.factory = referee_factory
        self.admin_token = admin_token
        self.keepalive = keepalive
        self.poll = poll
        self.listen_poll = listen_poll
        self.running = False  # from the app's startup to its shutdown (serve_hall refuses to replace it)
        #: how often a match's live stream looks for entries of other processes (longer over a store that
        #: announces every append: then it is only the fallback)
        self.entry_poll = poll
        self.hub = Hub()
        #: stops the listener of a store that announces appends (None: there is none)
        self.stop_listening: Callable[[], None] | None = None
        self.tokens: dict[str, Any] = {}
        #: the seat pages this process computed last, shared by its threads (:mod:`referee.memo`)
        self.memo = HeadMemo()
        #: tells this process from the other workers of one server (answered by /health)
        self.worker = secrets.token_hex(4)
        self._local = threading.local()
        #: the history whose kept heads every thread's service shares (:meth:`History.share_heads`)
        self._heads: History | None = None
        self._slots: dict[str, int] = {}
        self._slots_lock = threading.Lock()
        self._health: anyio.CapacityLimiter | None = None
        #: the writes of one match in this process, one at a time (striped: a match's lock is one of these)
        self._write_locks = [threading.Lock() for _ in range(64)]

    def health_limiter(self) -> anyio.CapacityLimiter:
        """The threads /health looks at the store from (two, apart from the requests')."""
        if self._health is None:
            self._health = anyio.CapacityLimiter(2)
        return self._health

    def access(self) -> Access:
        access: Access | None = getattr(self._local, "access", None)
        if access is None:
            access = Access(self.factory(), tokens=self.tokens, on_append=self.hub.notify, memo=self.memo)
            with self._slots_lock:  # every thread's service keeps the heads its process appended in one place
                if self._heads is None:
                    self._heads = access.referee.history
                else:
                    access.referee.history.share_heads(self._heads)
            self._local.access = access
        return access

    def principal(self, request: Request[Any, Any, Any], match_id: str) -> Principal:
        """The caller's principal for ``match_id``: its match token's; a tournament organiser's token acting
        as the arbiter of one of its tables (:func:`referee.tournament.access.acting_arbiter`); a tournament
        player's token (a slip's QR code) as the player's seat at the table playing this match
        (:func:`referee.seat.tournament_seat`)."""
        authorization = request.headers.get("authorization")
        try:
            return self.access().authenticate(authorization, match_id)
        except Unauthorized as exc:
            if exc.code != AuthCode.UNKNOWN_TOKEN:
                raise
            from .seat import tournament_seat
            from .tournament.access import acting_arbiter

            found = acting_arbiter(self.access().referee, authorization, match_id)
            if found is None:
                found = tournament_seat(self.access(), authorization, match_id)
            if found is None:
                raise
            return found

    @contextlib.contextmanager
    def writing(self, request: Request[Any, Any, Any], match_id: str) -> Iterator[Principal]:
        """The caller's principal, with this process's writes to that match held back until this one is
        done: the worker threads of one process take turns at a match (as they did when writes ran on the
        event loop) instead of racing each other to its head, losing and folding again. Other processes
        are still settled by the store (a stale writer's conflict, tried again against the new head)."""
        p = self.principal(request, match_id)
        with self._write_locks[zlib.crc32(p.match_id.encode()) % len(self._write_locks)]:
            yield p

    def take_slot(self, p: Principal) -> str:
        """One of the token's :data:`HEAVY_PER_TOKEN` slots for a request that walks a whole log
        (export, replay, audit, diff); a token holding them all gets a 429 saying when
        to retry, so one token holder cannot take the server for itself. Give it back with
        :meth:`give_slot`."""
        key = f"{p.match_id}:{p.role}:{p.seat or ''}"
        with self._slots_lock:
            if self._slots.get(key, 0) >= HEAVY_PER_TOKEN:
                raise TooBusy(
                    RequestCode.BUSY,
                    f"this token already has {HEAVY_PER_TOKEN} requests that read a whole log running (export, replay, "
                    f"audit, diff); retry in {RETRY_AFTER} s, when one of them has finished",
                    {"retry_after": RETRY_AFTER},
                )
            self._slots[key] = self._slots.get(key, 0) + 1
        return key

    def give_slot(self, key: str) -> None:
        with self._slots_lock:
            left = self._slots.get(key, 1) - 1
            if left > 0:
                self._slots[key] = left
            else:
                self._slots.pop(key, None)

    @contextlib.contextmanager
    def heavy(self, p: Principal) -> Iterator[None]:
        key = self.take_slot(p)
        try:
            yield
        finally:
            self.give_slot(key)


def _hall(request: Request[Any, Any, Any]) -> Hall:
    return request.app.state.hall  # type: ignore[no-any-return]


def _entry(hall: Hall, p: Principal, ref: int | str, what: str) -> int:
    """The entry a query names: a number, or ``line:N`` (looked up in the log the caller sees). A write's body
    is read by its :class:`Access` method, after the caller's role is checked."""
    return hall.access().entry(p, ref, what)


def _opt_entry(hall: Hall, p: Principal, ref: int | str | None, what: str) -> int | None:
    """:func:`_entry`, None passed through (left out)."""
    return None if ref is None else _entry(hall, p, ref, what)


# -- request bodies: strict JSON --------------------------------------------------------------------------

_DECODERS: dict[Any, msgspec.json.Decoder[Any]] = {}


async def _strict_body(request: Request[Any, Any, Any]) -> None:
    """Every JSON body is read strictly against its route's Struct before Litestar reads it (Litestar
    converts leniently, for query strings' sake: ``"rounds": "3"`` and ``1.0`` would pass as integers,
    ``"true"`` as a boolean). A value of the wrong JSON type is a 400 in the one error shape, naming the
    field and the type expected; malformed JSON is left to Litestar's own answer."""
    field = request.route_handler.parsed_fn_signature.parameters.get("data")
    if field is None:
        return
    body = await request.body()
    if not body:
        return
    decoder = _DECODERS.get(field.annotation)
    if decoder is None:
        decoder = _DECODERS.setdefault(field.annotation, msgspec.json.Decoder(field.annotation))
    try:
        decoder.decode(body)
    except msgspec.ValidationError as exc:
        what, _, where = str(exc).rpartition(" - at `$")
        key = where.rstrip("`").lstrip(".") if what else ""
        what, key = what or str(exc), key or "data"
        if what == f"Expected `str` matching regex '{LINE_PATTERN}'":  # a string where an entry (EntryRef) goes
            what = ("Expected `int` (an entry number) or a `str` line:N (the entry read from line N of the imported "
                    "transcript)")
        raise ValidationException(detail=f"{key if key != 'data' else 'the body'}: {what}",
                                  extra=[{"message": what, "key": key, "source": "body"}]) from None
    except msgspec.DecodeError:
        return  # not JSON at all: Litestar's own reading answers it


# -- errors: one shape for everything ------------------------------------------------------------------


def _jsonable(value: Any) -> Any:
    try:
        return msgspec.json.decode(msgspec.json.encode(value, enc_hook=str))
    except (TypeError, ValueError, msgspec.MsgspecError):
        return str(value)


def _error(request: Request[Any, Any, Any], exc: Exception) -> Response[ErrorBody]:
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


# -- routes: games and matches ---------------------------------------------------------------------------


@get("/games", responses=ERRORS, sync_to_thread=IN_THREAD, tags=["games"], summary="List the games")
def list_games(request: Request[Any, Any, Any]) -> list[GameInfo]:
    return _hall(request).access().games()


@get("/games/{game:str}", responses=ERRORS, sync_to_thread=IN_THREAD, tags=["games"], summary="Describe a game: intents and options")
def describe_game(request: Request[Any, Any, Any], game: Annotated[str, PathParameter(max_length=64)]) -> GameInfo:
    return _hall(request).access().game(game)


@post("/matches", responses=ERRORS, sync_to_thread=IN_THREAD, tags=["matches"], status_code=201,
      summary="Create a match; answers its tokens (shown once)")
def create_match(request: Request[Any, Any, Any], data: JSONBody[CreateMatch]) -> MatchCreated:
    hall = _hall(request)
    previous = hall.principal(request, data.continue_from) if data.continue_from is not None else None
    return hall.access().create_match(data, previous)


@get("/matches", responses=ERRORS, sync_to_thread=IN_THREAD, tags=["matches"], security=SECURITY,
     summary="List every match, a page at a time with limit and offset (the server's admin token only; off without one)")
def list_matches(request: Request[Any, Any, Any], limit: OptSeq = None, offset: Seq = 0) -> list[MatchInfo]:
    hall = _hall(request)
    check_admin(request.headers.get("authorization"), hall.admin_token)
    return hall.access().matches(limit=limit, offset=offset)


@get("/matches/{match_id:str}", responses=ERRORS, sync_to_thread=IN_THREAD, tags=["matches"], security=SECURITY,
     summary="The match, and who the caller is in it")
def match_info(request: Request[Any, Any, Any], match_id: MatchIdPath) -> MatchAccess:
    hall = _hall(request)
    return hall.access().info(hall.principal(request, match_id))


@get("/matches/{match_id:str}/state", responses=ERRORS, sync_to_thread=IN_THREAD, tags=["reading"], security=SECURITY,
     summary="The state as the caller may see it (now, or after entry `at`)")
def match_state(request: Request[Any, Any, Any], match_id: MatchIdPath, at: OptEntry = None,
                as_: AsRole = None) -> StateAnswer:
    hall = _hall(request)
    p = hall.principal(request, match_id)
    return hall.access().state(p, at=_opt_entry(hall, p, at, "at"), as_=as_)


@get("/matches/{match_id:str}/log", responses=ERRORS, sync_to_thread=IN_THREAD, tags=["reading"], security=SECURITY,
     summary="The log, redacted for the caller, a page at a time")
def match_log(request: Request[Any, Any, Any], match_id: MatchIdPath, offset: Seq = 0,
              limit: Annotated[int, QueryParameter(ge=1, le=1000)] = 100, as_: AsRole = None,
              start: Annotated[str | None, QueryParameter(
                  name="from", pattern=FIRST, max_length=20,
                  description="the page's first entry, instead of offset: " + ENTRY_HELP)] = None) -> LogPage:
    hall = _hall(request)  # a page costs what it shows (no fold): it takes none of the token's heavy slots
    p = hall.principal(request, match_id)
    first = _opt_entry(hall, p, start, "from")
    if first is not None:
        if offset:
            raise BadInput(InputCode.BAD_PAGE, f"give the page's start as from={start} or as offset={offset}, not both")
        offset = max(first - 1, 0)
    return hall.access().log(p, offset=offset, limit=limit, as_=as_)


@get("/matches/{match_id:str}/legal", responses=ERRORS, sync_to_thread=IN_THREAD, tags=["reading"], security=SECURITY,
     summary="Intents that would be accepted now (a seat: its own; the arbiter: any seat)")
def match_legal(request: Request[Any, Any, Any], match_id: MatchIdPath,
                seat: Annotated[str | None, QueryParameter(max_length=64)] = None) -> LegalAnswer:
    hall = _hall(request)
    return hall.access().legal(hall.principal(request, match_id), seat)


@get("/matches/{match_id:str}/replay", responses=ERRORS, sync_to_thread=IN_THREAD, tags=["reading"], security=SECURITY,
     summary="Entry by entry: the verdict and what changed, as the caller sees it (1,000 entries a request)")
def match_replay(request: Request[Any, Any, Any], match_id: MatchIdPath,
                 start: Annotated[str, QueryParameter(name="from", pattern=FIRST, max_length=20,
                                                      description="the first entry: " + ENTRY_HELP)] = "1",
                 stop: Annotated[str | None, QueryParameter(name="to", pattern=ENTRY, max_length=20,
                                                            description="the last entry: " + ENTRY_HELP)] = None,
                 as_: AsRole = None) -> list[ReplayStep]:
    hall = _hall(request)
    p = hall.principal(request, match_id)
    with hall.heavy(p):
        return hall.access().replay(p, start=_entry(hall, p, start, "from"), stop=_opt_entry(hall, p, stop, "to"),
                                    as_=as_)


@get("/matches/{match_id:str}/audit", responses=ERRORS, sync_to_thread=IN_THREAD, tags=["reading"], security=SECURITY,
     summary="Re-adjudicate the whole log and check every hash")
def match_audit(request: Request[Any, Any, Any], match_id: MatchIdPath,
                accept_rules_change: FromQuery[bool] = False) -> AuditAnswer:
    hall = _hall(request)
    p = hall.principal(request, match_id)
    with hall.heavy(p):
        return hall.access().audit(p, accept_rules_change=accept_rules_change)


@get("/matches/{match_id:str}/diff", responses=ERRORS, sync_to_thread=IN_THREAD, tags=["reading"], security=SECURITY,
     summary="How this match's state differs from one of its forks' (arbiter)")
def match_diff(request: Request[Any, Any, Any], match_id: MatchIdPath,
               other: Annotated[str, QueryParameter(max_length=64)], at: OptEntry = None,
               other_at: OptEntry = None) -> DiffAnswer:
    hall = _hall(request)
    p = hall.principal(request, match_id)
    with hall.heavy(p):
        return hall.access().diff(p, other, at=_opt_entry(hall, p, at, "at"), other_at=other_at)


@get("/matches/{match_id:str}/export", responses=ERRORS, sync_to_thread=IN_THREAD, tags=["reading"], security=SECURITY,
     summary="The match as a transcript (txt), Markdown, HTML or JSON, as the caller sees it (streamed)")
def match_export(request: Request[Any, Any, Any], match_id: MatchIdPath,
                 format: FromQuery[Literal["txt", "md", "html", "json"]] = "md", as_: AsRole = None) -> Stream:
    """Streamed: the export is written while the log is walked, through a referee (and a database
    connection) of its own, so a long match costs the memory of a piece, not of the whole text."""
    hall = _hall(request)
    p = hall.principal(request, match_id)
    key = hall.take_slot(p)
    try:
        # a referee of its own: the pieces are made in whichever worker thread is free
        chunks = Access(hall.factory(), tokens=hall.tokens).export_chunks(p, format, as_=as_)
        if format == "html":  # a page: in the reader's language (referee.pagelang), each piece as it is made
            from .i18n import speaking_each
            from .pagelang import of

            chunks = speaking_each(of(request)[0], chunks)
    except BaseException:
        hall.give_slot(key)
        raise
    media = {"txt": "text/plain; charset=utf-8", "md": "text/markdown; charset=utf-8",
             "html": "text/html; charset=utf-8", "json": "application/json"}[format]
    return Stream(pieces(chunks, lambda: hall.give_slot(key)), media_type=media)


# -- routes: writes --------------------------------------------------------------------------------------


def _written(answer: SubmitAnswer, replayed: bool) -> Response[SubmitAnswer]:
    return Response(content=answer, status_code=200 if replayed else 201,
                    headers={"Idempotent-Replayed": "true"} if replayed else {})


@post("/matches/{match_id:str}/intents", responses=ERRORS, sync_to_thread=IN_THREAD, tags=["writing"], security=SECURITY,
      summary="Submit one intent (notation or a JSON intent object); the verdict is logged either way")
def submit_intent(request: Request[Any, Any, Any], match_id: MatchIdPath, data: JSONBody[SubmitIntent],
                  idempotency_key: IdemKey = None) -> Response[SubmitAnswer]:
    hall = _hall(request)
    with hall.writing(request, match_id) as p:
        answer, replayed = hall.access().submit(p, data.intent, seat=data.seat, expected_seq=data.expected_seq,
                                                key=idempotency_key)
    return _written(answer, replayed)


@post("/matches/{match_id:str}/undo", responses=ERRORS, sync_to_thread=IN_THREAD, tags=["writing"], security=SECURITY,
      summary="Undo to entry `to` (an entry of its own; the match's undo policy decides)")
def undo(request: Request[Any, Any, Any], match_id: MatchIdPath, data: JSONBody[UndoRequest],
         idempotency_key: IdemKey = None) -> Response[SubmitAnswer]:
    hall = _hall(request)
    with hall.writing(request, match_id) as p:
        answer, replayed = hall.access().undo(p, to=data.to, reason=data.reason, expected_seq=data.expected_seq,
                                              key=idempotency_key)
    return _written(answer, replayed)


@post("/matches/{match_id:str}/redo", responses=ERRORS, sync_to_thread=IN_THREAD, tags=["writing"], security=SECURITY,
      summary="Reverse an undo (an entry of its own)")
def redo(request: Request[Any, Any, Any], match_id: MatchIdPath, data: JSONBody[RedoRequest],
         idempotency_key: IdemKey = None) -> Response[SubmitAnswer]:
    hall = _hall(request)
    with hall.writing(request, match_id) as p:
        answer, replayed = hall.access().redo(p, undo=data.undo, reason=data.reason, expected_seq=data.expected_seq,
                                              key=idempotency_key)
    return _written(answer, replayed)


@post("/matches/{match_id:str}/rulings", responses=ERRORS, sync_to_thread=IN_THREAD, tags=["writing"], security=SECURITY,
      summary="The arbiter rules that a rejected entry stands as played")
def ruling(request: Request[Any, Any, Any], match_id: MatchIdPath, data: JSONBody[RulingRequest],
           idempotency_key: IdemKey = None) -> Response[SubmitAnswer]:
    hall = _hall(request)
    with hall.writing(request, match_id) as p:
        answer, replayed = hall.access().rule_stands(p, data.entry, reason=data.reason, expected_seq=data.expected_seq,
                                                     key=idempotency_key)
    return _written(answer, replayed)


@post("/matches/{match_id:str}/amend", responses=ERRORS, sync_to_thread=IN_THREAD, tags=["writing"], security=SECURITY,
      summary="The arbiter corrects a line after import: an undo back before it, the corrected line, the later "
              "entries played again (all appended)")
def amend_line(request: Request[Any, Any, Any], match_id: MatchIdPath, data: JSONBody[AmendRequest]) -> Response[Amendment]:
    hall = _hall(request)
    with hall.writing(request, match_id) as p:
        done = hall.access().amend(p, data.line, data.text, reason=data.reason, by=data.by,
                                   expected_seq=data.expected_seq)
    return Response(content=done, status_code=201)


@post("/matches/{match_id:str}/confirmations", responses=ERRORS, sync_to_thread=IN_THREAD, tags=["writing"],
      security=SECURITY, summary="Confirm (or decline) an entry held for a confirmation (its confirmer or the arbiter)")
def confirmation(request: Request[Any, Any, Any], match_id: MatchIdPath, data: JSONBody[ConfirmRequest],
                 idempotency_key: IdemKey = None) -> Response[SubmitAnswer]:
    hall = _hall(request)
    with hall.writing(request, match_id) as p:
        answer, replayed = hall.access().confirm(p, data.entry, accept=data.accept, reason=data.reason,
                                                 expected_seq=data.expected_seq, key=idempotency_key)
    return _written(answer, replayed)


@post("/matches/{match_id:str}/annotations", responses=ERRORS, sync_to_thread=IN_THREAD, tags=["writing"], security=SECURITY,
      status_code=201, summary="Annotate entry `seq` (the entry itself never changes)")
def annotate(request: Request[Any, Any, Any], match_id: MatchIdPath,
             data: JSONBody[AnnotateRequest]) -> Annotation:
    hall = _hall(request)
    with hall.writing(request, match_id) as p:
        return hall.access().annotate(p, data.seq, data.text, kind=data.kind, audience=data.audience)


@post("/matches/{match_id:str}/fork", responses=ERRORS, sync_to_thread=IN_THREAD, tags=["writing"], security=SECURITY, status_code=201,
      summary="A new match sharing this one's history up to entry `at`, with its own tokens (arbiter)")
def fork(request: Request[Any, Any, Any], match_id: MatchIdPath, data: JSONBody[ForkRequest]) -> MatchCreated:
    hall = _hall(request)
    return hall.access().fork(hall.principal(request, match_id), at=data.at, name=data.name)


# -- live: server-sent events ----------------------------------------------------------------------------


@get("/matches/{match_id:str}/events", responses=ERRORS, tags=["reading"], security=SECURITY,
     summary="Live stream of new log entries (server-sent events), redacted for the caller",
     description="Each event is `entry` with the entry as JSON and its seq as the event id. Resume with "
                 "`Last-Event-ID` (wins) or `?after=seq`; `follow=false` sends what is there and ends. "
                 "Comments keep the connection alive.")
async def events(request: Request[Any, Any, Any], match_id: MatchIdPath, after: OptEntry = None,
                 follow: FromQuery[bool] = True, as_: AsRole = None,
                 last_event_id: Annotated[str | None, HeaderParameter(name="Last-Event-ID", max_length=32)] = None,
                 ) -> ServerSentEvent:
    hall = _hall(request)
    if last_event_id:  # a reconnecting browser repeats the URL (and its ?after=): the header wins
        if not last_event_id.strip().isdigit():
            raise BadInput(EventsCode.BAD_LAST_EVENT_ID, f"Last-Event-ID must be an entry number, not {last_event_id!r}")
        after = last_event_id.strip()

    def first_batch() -> tuple[Principal, int, int, list[Any]]:
        p = hall.principal(request, match_id)
        since = _opt_entry(hall, p, after, "after") or 0
        return (p, since, *hall.access().entries_after(p, since, as_=as_))

    # the first batch is read here, so that a bad `as` is an error answer, not a broken stream
    p, since, head, first = await anyio.to_thread.run_sync(first_batch)
    return ServerSentEvent(_stream(hall, p, since, head, first, follow, as_), retry_duration=2000)


async def _stream(hall: Hall, p: Principal, after: int, head: int, batch: list[Any], follow: bool,
                  as_: str | None) -> AsyncIterator[ServerSentEventMessage]:
    hall.hub.streams += 1
    try:
        last, known, quiet = after, head, 0.0
        while True:
            for entry in batch:
                yield ServerSentEventMessage(data=msgspec.json.encode(entry).decode(), event="entry", id=str(entry.seq))
                last = entry.seq
            if batch and last < known:  # the backlog comes a page at a time
                try:
                    known, batch = await anyio.to_thread.run_sync(lambda: hall.access().entries_after(p, last, as_=as_))
                    continue
                except (StoreError, StorageError):  # the store is away: the stream waits for it (below)
                    batch = []
            if not follow:
                return
            batch = []
            with hall.hub.watching(p.match_id) as woken:
                while not batch:
                    pause = min(hall.entry_poll, hall.keepalive)
                    woken.clear()  # what is announced from here on is looked for by the next look
                    try:  # one trip to a thread: the head, and what follows `last` when it moved
                        known, batch = await anyio.to_thread.run_sync(
                            lambda: hall.access().entries_after(p, last, as_=as_))
                        if batch:
                            break
                    except (StoreError, StorageError):
                        # the store is down or restarting: the stream stays open and looks again soon (and is
                        # woken at once when a store that announces appends is listened to again)
                        pause = min(pause, STORE_RETRY)
                    waited = anyio.current_time()
                    # woken by an append (here, or anywhere over a store that announces them), or polls;
                    # never longer than the keep-alive
                    with anyio.move_on_after(pause):
                        await woken.wait()
                    quiet += anyio.current_time() - waited
                    if quiet >= hall.keepalive:
                        quiet = 0.0
                        yield ServerSentEventMessage(comment="keep-alive", data=None)
            quiet = 0.0
    finally:
        hall.hub.streams -= 1


@get("/health", responses=ERRORS, tags=["server"],
     summary="Is the server up, can it reach its store; how many live streams are open",
     description="200 when the store answers a read within a few seconds; 503 (with Retry-After) and "
                 "`store: unavailable` when it does not. Answered at once, whatever other requests wait for.")
async def health(request: Request[Any, Any, Any]) -> Response[Health]:
    hall = _hall(request)
    store = "ok"
    with anyio.move_on_after(HEALTH_WAIT) as scope:
        try:  # a thread of its own limit, so that requests waiting for the store cannot starve it
            await anyio.to_thread.run_sync(lambda: hall.access().referee.store.head(""), abandon_on_cancel=True,
                                           limiter=hall.health_limiter())
        except (StoreError, StorageError):
            store = "unavailable"
    if scope.cancelled_caught:
        store = "unavailable"
    answer = Health(ok=store == "ok", store=store, streams=hall.hub.streams, worker=hall.worker)
    return Response(content=answer, status_code=200 if answer.ok else 503,
                    headers={} if answer.ok else {"Retry-After": str(RETRY_AFTER)})


#: the matches' routes: :func:`create_app` mounts them as a router beside the tournaments'
ROUTES = (
    list_games, describe_game, create_match, list_matches, match_info, match_state, match_log, match_legal,
    match_replay, match_audit, match_diff, match_export, submit_intent, undo, redo, ruling, amend_line, confirmation, annotate,
    fork, events, health,
)


# -- the app ---------------------------------------------------------------------------------------------


def create_app(
    referee_factory: Callable[[], Referee],
    *,
    admin_token: str | None = None,
    keepalive: float = 15.0,
    poll: float = 1.0,
    listen_poll: float = 10.0,
) -> Litestar:
    """The HTTP app. ``referee_factory`` makes a new :class:`Referee` (with its own store connection)
    and is called once per worker thread. ``admin_token`` (optional) guards the list of all matches.
    Live streams send a keep-alive comment after ``keepalive`` seconds of silence and look for entries
    written by other processes every ``poll`` seconds; over a store that announces appends (PostgreSQL's
    LISTEN/NOTIFY) they are woken by every append of any process, and look only every ``listen_poll``
    seconds (the notifications missed while its connection was being opened again)."""
    hall = Hall(referee_factory, admin_token=admin_token, keepalive=keepalive, poll=poll, listen_poll=listen_poll)
    return serve_hall(_routes_app(), hall)


def serve_hall(app: Litestar, hall: Hall) -> Litestar:
    """An app that :func:`create_app` built, given a new ``hall`` (built with :func:`create_app`'s arguments):
    everything the routes reach through the app's state is new, the routes with their parsed signatures and
    the OpenAPI schema (most of an app's cost: 0.13 to 0.3 s of CPU) are kept. For the tests (one app, a
    fresh store each); only while the app is not running, else :class:`RuntimeError`."""
    old: Hall | None = getattr(app.state, "hall", None)
    if old is not None:
        if old.running:
            raise RuntimeError("serve_hall: the app is running (replace its hall before startup or after shutdown)")
        if app.logging_config is not None:  # to sys.stderr as it is now, as a new app's (a test's capture)
            app.get_logger = app.logging_config.configure()
    app.state.hall, app.state.viewers = hall, tournament_http.ViewerCache()
    return app


async def _started(app: Litestar) -> None:
    hall: Hall = app.state.hall
    hall.hub.loop = asyncio.get_running_loop()
    access = await anyio.to_thread.run_sync(hall.access)  # open (and migrate) the store up front
    notifier = access.referee.store.notifier
    if notifier is not None:  # a shared database announces every append (PostgreSQL: LISTEN/NOTIFY)
        hall.stop_listening = notifier.listen(hall.hub.notify, hall.hub.resume)
        hall.entry_poll = max(hall.poll, hall.listen_poll)
    hall.running = True


async def _stopped(app: Litestar) -> None:
    hall: Hall = app.state.hall
    hall.running = False
    if hall.stop_listening is not None:
        hall.stop_listening()


def _routes_app() -> Litestar:
    """The app without a hall (:func:`serve_hall` gives it one)."""
    return Litestar(
        route_handlers=[Router(path="/", route_handlers=list(ROUTES)),
                        Router(path="/", route_handlers=list(tournament_http.ROUTES)),
                        Router(path="/", route_handlers=list(seat_http.ROUTES))],
        state=State({}),
        on_startup=[_started],
        on_shutdown=[_stopped],
        exception_handlers={Exception: _error},
        before_request=_strict_body,
        openapi_config=OpenAPIConfig(
            title="Referee",
            version="1",
            description="An event-sourced referee for tabletop games. Errors are always "
                        "{code, message, detail}.",
            components=Components(security_schemes={
                "BearerToken": SecurityScheme(type="http", scheme="bearer",
                                              description="a token of the match, minted when it was created"),
            }),
        ),
        request_max_body_size=MAX_BODY,
        debug=False,
    )
