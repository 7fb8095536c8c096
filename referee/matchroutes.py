"""The matches' routes of the HTTP app (:mod:`referee.http` mounts them): games, matches, reading, writing,
the live stream of a match's entries and the server's health. Every route parses its input, calls one
:class:`~referee.access.Access` method through the hall (:mod:`referee.httphall`) and renders the
answer; no rules and no log logic live here."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Annotated, Any, Literal

import anyio
import msgspec
from litestar import Request, Response, get, post
from litestar.params import FromQuery, HeaderParameter, JSONBody, PathParameter, QueryParameter
from litestar.response import ServerSentEvent, ServerSentEventMessage, Stream

from schemas import Annotation, MatchInfo
from schemas.http import (
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
from .auth import Principal, check_admin
from .engine.codes import InputCode
from .errors import BadInput, StorageError
from .httpcodes import EventsCode
from .httphall import RETRY_AFTER, Hall, hall_of
from .i18n import N_
from .store import StoreError
from .web import ERRORS, SECURITY, pieces

#: how long a live stream waits before it looks again at a store that did not answer (seconds)
STORE_RETRY = 1.0
#: how long /health waits for the store to answer a read before it says it is unavailable (seconds)
HEALTH_WAIT = 3.0

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


def _entry(hall: Hall, p: Principal, ref: int | str, what: str) -> int:
    """The entry a query names: a number, or ``line:N`` (looked up in the log the caller sees). A write's body
    is read by its :class:`Access` method, after the caller's role is checked."""
    return hall.access().entry(p, ref, what)


def _opt_entry(hall: Hall, p: Principal, ref: int | str | None, what: str) -> int | None:
    """:func:`_entry`, None passed through (left out)."""
    return None if ref is None else _entry(hall, p, ref, what)


# -- routes: games and matches ---------------------------------------------------------------------------


@get("/games", responses=ERRORS, sync_to_thread=IN_THREAD, tags=["games"], summary="List the games")
def list_games(request: Request[Any, Any, Any]) -> list[GameInfo]:
    return hall_of(request).access().games()


@get("/games/{game:str}", responses=ERRORS, sync_to_thread=IN_THREAD, tags=["games"], summary="Describe a game: intents and options")
def describe_game(request: Request[Any, Any, Any], game: Annotated[str, PathParameter(max_length=64)]) -> GameInfo:
    return hall_of(request).access().game(game)


@post("/matches", responses=ERRORS, sync_to_thread=IN_THREAD, tags=["matches"], status_code=201,
      summary="Create a match; answers its tokens (shown once)")
def create_match(request: Request[Any, Any, Any], data: JSONBody[CreateMatch]) -> MatchCreated:
    hall = hall_of(request)
    previous = hall.principal(request, data.continue_from) if data.continue_from is not None else None
    return hall.access().create_match(data, previous)


@get("/matches", responses=ERRORS, sync_to_thread=IN_THREAD, tags=["matches"], security=SECURITY,
     summary="List every match, a page at a time with limit and offset (the server's admin token only; off without one)")
def list_matches(request: Request[Any, Any, Any], limit: OptSeq = None, offset: Seq = 0) -> list[MatchInfo]:
    hall = hall_of(request)
    check_admin(request.headers.get("authorization"), hall.admin_token)
    return hall.access().matches(limit=limit, offset=offset)


@get("/matches/{match_id:str}", responses=ERRORS, sync_to_thread=IN_THREAD, tags=["matches"], security=SECURITY,
     summary="The match, and who the caller is in it")
def match_info(request: Request[Any, Any, Any], match_id: MatchIdPath) -> MatchAccess:
    hall = hall_of(request)
    return hall.access().info(hall.principal(request, match_id))


@get("/matches/{match_id:str}/state", responses=ERRORS, sync_to_thread=IN_THREAD, tags=["reading"], security=SECURITY,
     summary="The state as the caller may see it (now, or after entry `at`)")
def match_state(request: Request[Any, Any, Any], match_id: MatchIdPath, at: OptEntry = None,
                as_: AsRole = None) -> StateAnswer:
    hall = hall_of(request)
    p = hall.principal(request, match_id)
    return hall.access().state(p, at=_opt_entry(hall, p, at, "at"), as_=as_)


@get("/matches/{match_id:str}/log", responses=ERRORS, sync_to_thread=IN_THREAD, tags=["reading"], security=SECURITY,
     summary="The log, redacted for the caller, a page at a time")
def match_log(request: Request[Any, Any, Any], match_id: MatchIdPath, offset: Seq = 0,
              limit: Annotated[int, QueryParameter(ge=1, le=1000)] = 100, as_: AsRole = None,
              start: Annotated[str | None, QueryParameter(
                  name="from", pattern=FIRST, max_length=20,
                  description="the page's first entry, instead of offset: " + ENTRY_HELP)] = None) -> LogPage:
    hall = hall_of(request)  # a page costs what it shows (no fold): it takes none of the token's heavy slots
    p = hall.principal(request, match_id)
    first = _opt_entry(hall, p, start, "from")
    if first is not None:
        if offset:
            raise BadInput.said(InputCode.BAD_PAGE, N_("give the page's start as from={start} or as offset={offset}, not both"),
                                start=start, offset=offset)
        offset = max(first - 1, 0)
    return hall.access().log(p, offset=offset, limit=limit, as_=as_)


@get("/matches/{match_id:str}/legal", responses=ERRORS, sync_to_thread=IN_THREAD, tags=["reading"], security=SECURITY,
     summary="Intents that would be accepted now (a seat: its own; the arbiter: any seat)")
def match_legal(request: Request[Any, Any, Any], match_id: MatchIdPath,
                seat: Annotated[str | None, QueryParameter(max_length=64)] = None) -> LegalAnswer:
    hall = hall_of(request)
    return hall.access().legal(hall.principal(request, match_id), seat)


@get("/matches/{match_id:str}/replay", responses=ERRORS, sync_to_thread=IN_THREAD, tags=["reading"], security=SECURITY,
     summary="Entry by entry: the verdict and what changed, as the caller sees it (1,000 entries a request)")
def match_replay(request: Request[Any, Any, Any], match_id: MatchIdPath,
                 start: Annotated[str, QueryParameter(name="from", pattern=FIRST, max_length=20,
                                                      description="the first entry: " + ENTRY_HELP)] = "1",
                 stop: Annotated[str | None, QueryParameter(name="to", pattern=ENTRY, max_length=20,
                                                            description="the last entry: " + ENTRY_HELP)] = None,
                 as_: AsRole = None) -> list[ReplayStep]:
    hall = hall_of(request)
    p = hall.principal(request, match_id)
    with hall.heavy(p):
        return hall.access().replay(p, start=_entry(hall, p, start, "from"), stop=_opt_entry(hall, p, stop, "to"),
                                    as_=as_)


@get("/matches/{match_id:str}/audit", responses=ERRORS, sync_to_thread=IN_THREAD, tags=["reading"], security=SECURITY,
     summary="Re-adjudicate the whole log and check every hash")
def match_audit(request: Request[Any, Any, Any], match_id: MatchIdPath,
                accept_rules_change: FromQuery[bool] = False) -> AuditAnswer:
    hall = hall_of(request)
    p = hall.principal(request, match_id)
    with hall.heavy(p):
        return hall.access().audit(p, accept_rules_change=accept_rules_change)


@get("/matches/{match_id:str}/diff", responses=ERRORS, sync_to_thread=IN_THREAD, tags=["reading"], security=SECURITY,
     summary="How this match's state differs from one of its forks' (arbiter)")
def match_diff(request: Request[Any, Any, Any], match_id: MatchIdPath,
               other: Annotated[str, QueryParameter(max_length=64)], at: OptEntry = None,
               other_at: OptEntry = None) -> DiffAnswer:
    hall = hall_of(request)
    p = hall.principal(request, match_id)
    with hall.heavy(p):
        return hall.access().diff(p, other, at=_opt_entry(hall, p, at, "at"), other_at=other_at)


@get("/matches/{match_id:str}/export", responses=ERRORS, sync_to_thread=IN_THREAD, tags=["reading"], security=SECURITY,
     summary="The match as a transcript (txt), Markdown, HTML or JSON, as the caller sees it (streamed)")
def match_export(request: Request[Any, Any, Any], match_id: MatchIdPath,
                 format: FromQuery[Literal["txt", "md", "html", "json"]] = "md", as_: AsRole = None) -> Stream:
    """Streamed: the export is written while the log is walked, through a referee (and a database
    connection) of its own, so a long match costs the memory of a piece, not of the whole text."""
    hall = hall_of(request)
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
    hall = hall_of(request)
    with hall.writing(request, match_id) as p:
        answer, replayed = hall.access().submit(p, data.intent, seat=data.seat, expected_seq=data.expected_seq,
                                                key=idempotency_key)
    return _written(answer, replayed)


@post("/matches/{match_id:str}/undo", responses=ERRORS, sync_to_thread=IN_THREAD, tags=["writing"], security=SECURITY,
      summary="Undo to entry `to` (an entry of its own; the match's undo policy decides)")
def undo(request: Request[Any, Any, Any], match_id: MatchIdPath, data: JSONBody[UndoRequest],
         idempotency_key: IdemKey = None) -> Response[SubmitAnswer]:
    hall = hall_of(request)
    with hall.writing(request, match_id) as p:
        answer, replayed = hall.access().undo(p, to=data.to, reason=data.reason, expected_seq=data.expected_seq,
                                              key=idempotency_key)
    return _written(answer, replayed)


@post("/matches/{match_id:str}/redo", responses=ERRORS, sync_to_thread=IN_THREAD, tags=["writing"], security=SECURITY,
      summary="Reverse an undo (an entry of its own)")
def redo(request: Request[Any, Any, Any], match_id: MatchIdPath, data: JSONBody[RedoRequest],
         idempotency_key: IdemKey = None) -> Response[SubmitAnswer]:
    hall = hall_of(request)
    with hall.writing(request, match_id) as p:
        answer, replayed = hall.access().redo(p, undo=data.undo, reason=data.reason, expected_seq=data.expected_seq,
                                              key=idempotency_key)
    return _written(answer, replayed)


@post("/matches/{match_id:str}/rulings", responses=ERRORS, sync_to_thread=IN_THREAD, tags=["writing"], security=SECURITY,
      summary="The arbiter rules that a rejected entry stands as played")
def ruling(request: Request[Any, Any, Any], match_id: MatchIdPath, data: JSONBody[RulingRequest],
           idempotency_key: IdemKey = None) -> Response[SubmitAnswer]:
    hall = hall_of(request)
    with hall.writing(request, match_id) as p:
        answer, replayed = hall.access().rule_stands(p, data.entry, reason=data.reason, expected_seq=data.expected_seq,
                                                     key=idempotency_key)
    return _written(answer, replayed)


@post("/matches/{match_id:str}/amend", responses=ERRORS, sync_to_thread=IN_THREAD, tags=["writing"], security=SECURITY,
      summary="The arbiter corrects a line after import: an undo back before it, the corrected line, the later "
              "entries played again (all appended)")
def amend_line(request: Request[Any, Any, Any], match_id: MatchIdPath, data: JSONBody[AmendRequest]) -> Response[Amendment]:
    hall = hall_of(request)
    with hall.writing(request, match_id) as p:
        done = hall.access().amend(p, data.line, data.text, reason=data.reason, by=data.by,
                                   expected_seq=data.expected_seq)
    return Response(content=done, status_code=201)


@post("/matches/{match_id:str}/confirmations", responses=ERRORS, sync_to_thread=IN_THREAD, tags=["writing"],
      security=SECURITY, summary="Confirm (or decline) an entry held for a confirmation (its confirmer or the arbiter)")
def confirmation(request: Request[Any, Any, Any], match_id: MatchIdPath, data: JSONBody[ConfirmRequest],
                 idempotency_key: IdemKey = None) -> Response[SubmitAnswer]:
    hall = hall_of(request)
    with hall.writing(request, match_id) as p:
        answer, replayed = hall.access().confirm(p, data.entry, accept=data.accept, reason=data.reason,
                                                 expected_seq=data.expected_seq, key=idempotency_key)
    return _written(answer, replayed)


@post("/matches/{match_id:str}/annotations", responses=ERRORS, sync_to_thread=IN_THREAD, tags=["writing"], security=SECURITY,
      status_code=201, summary="Annotate entry `seq` (the entry itself never changes)")
def annotate(request: Request[Any, Any, Any], match_id: MatchIdPath,
             data: JSONBody[AnnotateRequest]) -> Annotation:
    hall = hall_of(request)
    with hall.writing(request, match_id) as p:
        return hall.access().annotate(p, data.seq, data.text, kind=data.kind, audience=data.audience)


@post("/matches/{match_id:str}/fork", responses=ERRORS, sync_to_thread=IN_THREAD, tags=["writing"], security=SECURITY, status_code=201,
      summary="A new match sharing this one's history up to entry `at`, with its own tokens (arbiter)")
def fork(request: Request[Any, Any, Any], match_id: MatchIdPath, data: JSONBody[ForkRequest]) -> MatchCreated:
    hall = hall_of(request)
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
    hall = hall_of(request)
    if last_event_id:  # a reconnecting browser repeats the URL (and its ?after=): the header wins
        if not last_event_id.strip().isdigit():
            raise BadInput.said(EventsCode.BAD_LAST_EVENT_ID, N_("Last-Event-ID must be an entry number, not {last_event_id!r}"),
                                last_event_id=last_event_id)
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
    hall = hall_of(request)
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

