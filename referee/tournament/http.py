"""The tournament routes of ``referee serve`` (``/tournaments``): a veneer over
:class:`referee.tournament.access.TournamentAccess`, mounted by :func:`referee.http.create_app`.

Creating a tournament needs the server's admin token and answers the tournament's tokens once
(organiser, spectators, one per player); every other route takes one of those as
``Authorization: Bearer <token>``. Errors are the service's
one JSON shape (``referee.http``'s handler); what both routers share is in :mod:`referee.web`.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable
from typing import Annotated, Any

import anyio
import msgspec
from litestar import Request, Response, get, post
from litestar.params import FromQuery, HeaderParameter, JSONBody, PathParameter, QueryParameter
from litestar.response import ServerSentEvent, ServerSentEventMessage, Stream

from schemas.players import PlayerHistory
from schemas.tournament import (
    AddPlayer,
    AuditResult,
    ClockRequest,
    CloseRequest,
    CreateTournament,
    Explained,
    HalfByeRequest,
    HallClock,
    PairedRound,
    Pairings,
    PairRequest,
    PlayerAdded,
    PlayerChange,
    RatingsAnswer,
    RecordRow,
    Recorded,
    ReportAnswer,
    ReportRequest,
    ResultAnswer,
    ResultRequest,
    StandingsAnswer,
    TableImported,
    TiebreaksRequest,
    TournamentCreated,
    TournamentShown,
    TranscriptUpload,
    WithdrawRequest,
)

from ..auth import Principal, check_admin
from ..errors import BadInput, StorageError
from ..engine.speech import Said
from ..i18n import N_
from ..store import StoreError
from ..web import ERRORS, SECURITY, pieces
from .access import Entrant, TournamentAccess
from ..httpcodes import EventsCode

TidPath = Annotated[str, PathParameter(max_length=64, description="the tournament id (or 4+ leading characters)")]
MidPath = Annotated[str, PathParameter(max_length=64, description="a table's match id (or 4+ leading characters)")]
PlayerPath = Annotated[str, PathParameter(max_length=64, description="the player's id")]
OptRound = Annotated[int | None, QueryParameter(ge=0, le=100_000)]
LastEventId = Annotated[str | None, HeaderParameter(name="Last-Event-ID", max_length=32)]


def _access(request: Request[Any, Any, Any]) -> TournamentAccess:
    return TournamentAccess(request.app.state.hall.access().referee)


def _who(request: Request[Any, Any, Any], tid: str) -> tuple[TournamentAccess, Entrant]:
    access = _access(request)
    return access, access.authenticate(request.headers.get("authorization"), tid)


class ViewerCache:
    """The viewers of tables' matches last rendered, by (match, role, head, annotations): a hall of screens
    following a table as spectators costs one rendering each time the match changes, not one a screen."""

    def __init__(self, size: int = 32) -> None:
        self.pages: OrderedDict[tuple[str, str, int, int, str], bytes] = OrderedDict()
        self.size = size
        self.lock = threading.Lock()

    def get(self, key: tuple[str, str, int, int, str]) -> bytes | None:
        with self.lock:
            page = self.pages.get(key)
            if page is not None:
                self.pages.move_to_end(key)
            return page

    def put(self, key: tuple[str, str, int, int, str], page: bytes) -> None:
        with self.lock:
            self.pages[key] = page
            self.pages.move_to_end(key)
            while len(self.pages) > self.size:
                self.pages.popitem(last=False)


#: the longest log whose viewer is rendered whole and kept (longer ones stream, a piece at a time)
VIEWER_CACHED_MAX = 3000



@post("/tournaments", responses=ERRORS, sync_to_thread=True, tags=["tournaments"], status_code=201,
      security=SECURITY, summary="Create a tournament (the server's admin token); answers its tokens (shown once)",
      description="Needs the server's admin token (REFEREE_ADMIN_TOKEN; without one, creating tournaments over "
                  "HTTP is off). `cards` names a card set bundled with the game; a card file is sent whole as "
                  "`cards_text`: the server never reads a file a client names.")
def create_tournament(request: Request[Any, Any, Any], data: JSONBody[CreateTournament]) -> TournamentCreated:
    check_admin(request.headers.get("authorization"), request.app.state.hall.admin_token,
                Said(N_("creating a tournament")))
    return _access(request).create(data)


@get("/tournaments/{tid:str}", responses=ERRORS, sync_to_thread=True, tags=["tournaments"], security=SECURITY,
     summary="The tournament: settings, players, and who the caller is")
def show_tournament(request: Request[Any, Any, Any], tid: TidPath) -> TournamentShown:
    access, who = _who(request, tid)
    return access.show(who)


@post("/tournaments/{tid:str}/players", responses=ERRORS, sync_to_thread=True, tags=["tournaments"],
      security=SECURITY, status_code=201, summary="Register a player (organiser); answers the player's token")
def add_player(request: Request[Any, Any, Any], tid: TidPath, data: JSONBody[AddPlayer]) -> PlayerAdded:
    access, who = _who(request, tid)
    return access.add_player(who, data)


@post("/tournaments/{tid:str}/players/{player:str}", responses=ERRORS, sync_to_thread=True,
      tags=["tournaments"], security=SECURITY, summary="Drop, reinstate or rename a player (organiser)")
def change_player(request: Request[Any, Any, Any], tid: TidPath, player: PlayerPath,
                  data: JSONBody[PlayerChange]) -> Recorded:
    access, who = _who(request, tid)
    return access.change_player(who, player, data)


@post("/tournaments/{tid:str}/pair", responses=ERRORS, sync_to_thread=True, tags=["tournaments"],
      security=SECURITY, summary="Pair the next round (organiser): its matches, seats and tokens")
def pair_round(request: Request[Any, Any, Any], tid: TidPath, data: JSONBody[PairRequest]) -> PairedRound:
    access, who = _who(request, tid)
    return access.pair(who, data)


@post("/tournaments/{tid:str}/close", responses=ERRORS, sync_to_thread=True, tags=["tournaments"],
      security=SECURITY, summary="Close the round being played (organiser): results copied from the logs")
def close_round(request: Request[Any, Any, Any], tid: TidPath, data: JSONBody[CloseRequest]) -> Recorded:
    access, who = _who(request, tid)
    return access.close(who, data.reason)


@post("/tournaments/{tid:str}/results", responses=ERRORS, sync_to_thread=True, tags=["tournaments"],
      security=SECURITY, summary="An arbiter's result or a correction (organiser)")
def record_result(request: Request[Any, Any, Any], tid: TidPath, data: JSONBody[ResultRequest]) -> ResultAnswer:
    access, who = _who(request, tid)
    return access.result(who, data)


@post("/tournaments/{tid:str}/tiebreaks", responses=ERRORS, sync_to_thread=True, tags=["tournaments"],
      security=SECURITY, summary="Change the tie-breaks (organiser)")
def set_tiebreaks(request: Request[Any, Any, Any], tid: TidPath, data: JSONBody[TiebreaksRequest]) -> Recorded:
    access, who = _who(request, tid)
    return access.tiebreaks(who, data.tiebreaks, data.reason)


@post("/tournaments/{tid:str}/withdrawals", responses=ERRORS, sync_to_thread=True, tags=["tournaments"],
      security=SECURITY, status_code=201,
      summary="Withdraw a table's pairing before its result (organiser): its match is void for the standings")
def withdraw(request: Request[Any, Any, Any], tid: TidPath, data: JSONBody[WithdrawRequest]) -> Recorded:
    access, who = _who(request, tid)
    return access.withdraw(who, data)


@post("/tournaments/{tid:str}/byes", responses=ERRORS, sync_to_thread=True, tags=["tournaments"],
      security=SECURITY, status_code=201,
      summary="Grant a player's half-point bye for a round not yet paired (organiser)")
def half_bye(request: Request[Any, Any, Any], tid: TidPath, data: JSONBody[HalfByeRequest]) -> Recorded:
    access, who = _who(request, tid)
    return access.half_bye(who, data)


@post("/tournaments/{tid:str}/clock", responses=ERRORS, sync_to_thread=True, tags=["tournaments"],
      security=SECURITY, summary="Start, stop or resume the round clock (organiser)",
      description="`{\"action\": \"start\", \"minutes\": 50}` starts the clock of the round being played (again: "
                  "it starts over); `stop` keeps the time left; `resume` runs it on. Each is a record of the "
                  "tournament with the server's time in it. Answers the clock as the pages show it (HallClock).")
def round_clock(request: Request[Any, Any, Any], tid: TidPath, data: JSONBody[ClockRequest]) -> HallClock:
    access, who = _who(request, tid)
    return access.clock(who, data)


@get("/tournaments/{tid:str}/clock", responses=ERRORS, sync_to_thread=True, tags=["tournaments"],
     security=SECURITY, summary="The round clock (any of the tournament's tokens); null before it is started")
def round_clock_shown(request: Request[Any, Any, Any], tid: TidPath) -> HallClock | None:
    access, who = _who(request, tid)
    return access.clock_shown(who)


@get("/tournaments/{tid:str}/arbiter", responses=ERRORS, sync_to_thread=True, tags=["tournaments"],
      security=SECURITY, summary="The arbiter's desk (organiser): each table's open disputes and held moves",
      description="For the round being played: each table's open dispute (an entry with a `disputed` annotation "
                  "and no `ruling` after it) and move held for a confirmation, with the entry (its line, verdict, "
                  "refusal and rule), the dispute's notes, the entries before it as sentences, who is waiting, and "
                  "whether it is a rejected move that a ruling may let stand; the round clock; the tournament's "
                  "undo policy. The organiser's token acts as the arbiter of the tables' matches on the matches' "
                  "own routes (rulings, annotations, undo, confirmations).")
def arbiter_desk(request: Request[Any, Any, Any], tid: TidPath) -> dict[str, Any]:
    from .arbiter import desk

    access, who = _who(request, tid)
    return desk(access, who)


@get("/hall/{tid:str}/arbiter", responses=ERRORS, sync_to_thread=False, tags=["tournaments"],
     summary="The arbiter's console of the hall (open it with #token=<the organiser's token>)")
def arbiter_page(request: Request[Any, Any, Any], tid: TidPath) -> Response[str]:
    from ..pagelang import of
    from .arbiter import page

    return Response(content=page(tid, *of(request)), media_type="text/html; charset=utf-8",
                    headers={"Content-Security-Policy": "default-src 'self'; script-src 'unsafe-inline'; "
                             "style-src 'unsafe-inline'", "Referrer-Policy": "no-referrer"})


RoundPath = Annotated[int, PathParameter(ge=1, le=100_000, description="the round")]
TablePath = Annotated[int, PathParameter(ge=1, le=100_000, description="the table")]


@post("/tournaments/{tid:str}/rounds/{rnd:int}/tables/{table:int}/transcript", responses=ERRORS, tags=["tournaments"],
      security=SECURITY, status_code=201,
      summary="A table's transcript (organiser): adjudicated and attached as the table's match",
      description="The body is the transcript as plain text (`?check=true` adjudicates and writes nothing), "
                  "or JSON `{\"text\": ..., \"check\": false, \"reason\": \"\"}`. "
                  "The transcript must be of the tournament's game with the table's players in its seat order; "
                  "its card set one bundled with the game. Answers the match id, the import's summary (problems "
                  "with their lines) and the table's result; 201 when a match was attached, 200 when checked or "
                  "when the table holds this transcript already.")
async def upload_transcript(request: Request[Any, Any, Any], tid: TidPath, rnd: RoundPath, table: TablePath,
                            check: FromQuery[bool] = False) -> Response[TableImported]:
    body = await request.body()
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()

    def work() -> TableImported:  # in a worker thread: that thread's own store connection
        access, who = _who(request, tid)
        access.organiser(who, "upload a table's transcript")
        return access.upload(who, rnd, table, _upload(kind, body, check))

    answer = await anyio.to_thread.run_sync(work)
    return Response(content=answer, status_code=201 if answer.attached else 200)


def _upload(kind: str, body: bytes, check: bool) -> TranscriptUpload:
    """The upload as JSON (``application/json``) or the plain-text transcript itself."""
    from litestar.exceptions import ValidationException

    if kind == "application/json":
        try:
            return msgspec.json.decode(body, type=TranscriptUpload)
        except (msgspec.ValidationError, msgspec.DecodeError) as exc:
            message, _, at = str(exc).partition(" - at `$.")
            raise ValidationException(detail=f"{at.rstrip('`')}: {message}" if at else message,
                                      extra=[{"message": message, "key": at.rstrip("`") or "body"}]) from None
    return TranscriptUpload(text=body.decode("utf-8"), check=check)


@post("/tournaments/{tid:str}/rounds/{rnd:int}/tables/{table:int}/report", responses=ERRORS, sync_to_thread=True,
      tags=["tournaments"], security=SECURITY, status_code=201,
      summary="A seat's report of its table's result (that player's token)",
      description="For a game played on cardboard without move entry: the body is the result in the words of "
                  "`/results` (`{\"result\": \"win:ann\", \"scores\": {...}}`; `seat`, if sent, must be the "
                  "token's player). When every seat has reported the same result it counts (source `reported`); "
                  "reports that differ wait for the organiser's `/results`. A table with a result refuses "
                  "reports (`tournament/has_result`); another seat's, the organiser's or the spectators' token: 403.")
def report_result(request: Request[Any, Any, Any], tid: TidPath, rnd: RoundPath, table: TablePath,
                  data: JSONBody[ReportRequest]) -> ReportAnswer:
    access, who = _who(request, tid)
    return access.report(who, rnd, table, data)


@get("/tournaments/{tid:str}/pairings", responses=ERRORS, sync_to_thread=True, tags=["tournaments"],
     security=SECURITY, summary="Every round's tables and results (a player's token: their own)")
def pairings(request: Request[Any, Any, Any], tid: TidPath, round_: Annotated[
        int | None, QueryParameter(name="round", ge=1, le=100_000)] = None) -> Pairings:
    access, who = _who(request, tid)
    return access.pairings(who, round_)


@get("/tournaments/{tid:str}/standings", responses=ERRORS, sync_to_thread=True, tags=["tournaments"],
     security=SECURITY, summary="Standings (after_round, as_of a record; explain: one player's workings)")
def standings(request: Request[Any, Any, Any], tid: TidPath,
              after_round: OptRound = None,
              as_of: Annotated[int | None, QueryParameter(ge=1, le=10**9)] = None,
              explain: Annotated[str | None, QueryParameter(max_length=64)] = None) -> StandingsAnswer | Explained:
    access, who = _who(request, tid)
    return access.standings(who, after_round, as_of, explain)


@get("/tournaments/{tid:str}/export", responses=ERRORS, sync_to_thread=True, tags=["tournaments"],
     security=SECURITY, summary="Standings and tables as md, html, json or csv")
def export(request: Request[Any, Any, Any], tid: TidPath,
           format_: Annotated[str, QueryParameter(name="format", max_length=8)] = "md",
           after_round: OptRound = None) -> Response[str]:
    from ..i18n import speaking
    from ..pagelang import of

    access, who = _who(request, tid)
    lang = of(request)[0] if format_ == "html" else "en"  # a page reads the reader's language; data stays English
    with speaking(lang):
        text = access.export(who, format_, after_round, hall=str(request.base_url).rstrip("/"))
    media = {"html": "text/html", "json": "application/json", "csv": "text/csv"}.get(format_, "text/markdown")
    return Response(content=text, media_type=f"{media}; charset=utf-8")


@get("/tournaments/{tid:str}/audit", responses=ERRORS, sync_to_thread=True, tags=["tournaments"],
     security=SECURITY, summary="Audit every match and check every result against its log (organiser)")
def audit(request: Request[Any, Any, Any], tid: TidPath,
          expect_head: Annotated[str | None, QueryParameter(max_length=64)] = None) -> AuditResult:
    access, who = _who(request, tid)
    return access.audit(who, expect_head)


@get("/tournaments/{tid:str}/log", responses=ERRORS, sync_to_thread=True, tags=["tournaments"],
     security=SECURITY, summary="Every record of the tournament: what, who, why (organiser)")
def records(request: Request[Any, Any, Any], tid: TidPath) -> list[RecordRow]:
    access, who = _who(request, tid)
    return access.log(who)


@get("/ratings", responses=ERRORS, sync_to_thread=True, tags=["tournaments"], security=SECURITY,
     summary="Player ratings from every finished match on the server (the server's admin token)",
     description="The numbers `referee ratings` prints over the same database (openskill's Weng-Lin model), "
                 "from finished matches only. They name the seats of every finished match on the server, "
                 "so they need the server's admin token, as the list of every match does (without one "
                 "configured: off). Two computations at once are allowed; a third is told to retry (429).")
def ratings(request: Request[Any, Any, Any],
            game: Annotated[str | None, QueryParameter(max_length=64)] = None,
            model: Annotated[str, QueryParameter(max_length=64)] = "plackett-luce") -> RatingsAnswer:
    from ..ratings import answer

    hall = request.app.state.hall
    check_admin(request.headers.get("authorization"), hall.admin_token, Said(N_("reading the ratings")))
    with hall.heavy(Principal(match_id="*", role="ratings")):
        return answer(hall.access().referee, game=game, model=model)


@get("/hall/{tid:str}", responses=ERRORS, sync_to_thread=False, tags=["tournaments"], include_in_schema=True,
     summary="The hall page: the organiser's console or the spectators' screen, by the token "
             "(open it with #token=<a tournament token>)")
def hall_page(request: Request[Any, Any, Any], tid: TidPath) -> Response[str]:
    from ..pagelang import of
    from .hall import page

    return Response(content=page(tid, *of(request)), media_type="text/html; charset=utf-8",
                    headers={"Content-Security-Policy": "default-src 'self'; script-src 'unsafe-inline'; "
                             "style-src 'unsafe-inline'", "Referrer-Policy": "no-referrer"})


@get("/tournaments/{tid:str}/events", responses=ERRORS, tags=["tournaments"], security=SECURITY,
     summary="Live pairings, table states and standings (server-sent events)",
     description="Each event is `hall`: the token's `role` (a player's token: and `player`), the tournament's "
                 "name, its pairings, each table of the last round paired with its `state` (playing, waiting, "
                 "disputed, finished, withdrawn), result and source, and the standings after the last completed "
                 "round (as the token may see them; a player's own tables only), the round `clock` (HallClock; "
                 "null before it is started) and each table's `past_time` (not finished when the time was up). "
                 "The organiser's alone holds "
                 "`console` (whether the round is complete, the next round, whether it may be paired or "
                 "closed), each table's `why` and the pairing's `blocks`. Sent first and then each time it "
                 "changes; `follow=false` sends one and ends. A reconnecting client's `Last-Event-ID` (an "
                 "event's number) numbers the events on from it; anything else is 422.")
async def hall_events(request: Request[Any, Any, Any], tid: TidPath, follow: FromQuery[bool] = True,
                      last_event_id: LastEventId = None) -> ServerSentEvent:
    hall = request.app.state.hall
    start = _resumed(last_event_id)

    def snapshot() -> bytes:
        access, who = _who(request, tid)
        from .hall import snapshot as shown

        return msgspec.json.encode(shown(access, who))

    first = await anyio.to_thread.run_sync(snapshot)  # a bad token is an error answer, not a broken stream
    return ServerSentEvent(_live(hall, snapshot, first, follow, start=start), retry_duration=2000)


@get("/hall/{tid:str}/matches/{mid:str}", responses=ERRORS, sync_to_thread=False, tags=["tournaments"],
     summary="A table's match as the live step-through view (open it with #token=<a tournament token>)")
def table_page(request: Request[Any, Any, Any], tid: TidPath, mid: MidPath) -> Response[str]:
    from ..pagelang import of
    from .hall import table_page

    return Response(content=table_page(tid, mid, *of(request)), media_type="text/html; charset=utf-8", headers={
        "Content-Security-Policy": "default-src 'self'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; "
                                   "frame-src 'self' blob:", "Referrer-Policy": "no-referrer"})


@get("/tournaments/{tid:str}/matches/{mid:str}/viewer", responses=ERRORS, sync_to_thread=True,
     tags=["tournaments"], security=SECURITY,
     summary="A table's match as the HTML step-through viewer, as the token's role may see it (streamed)",
     description="The organiser's token sees the match as its arbiter, a player's token at that table as "
                 "their seat, any other tournament token as a spectator (the public view only).")
def table_viewer(request: Request[Any, Any, Any], tid: TidPath, mid: MidPath) -> Response[Any]:
    from ..access import Access
    from ..i18n import speaking_each
    from ..pagelang import of

    lang, _ = of(request)
    access, who = _who(request, tid)
    p = access.table_principal(who, mid)
    hall = request.app.state.hall
    media = "text/html; charset=utf-8"
    # everyone reading the table as the same role at the same entry in the same language shares one rendering
    head = int(access.store.head(p.match_id))
    cache_key = (p.match_id, p.name, head, len(access.store.annotations(p.match_id)), lang)
    viewers: ViewerCache = request.app.state.viewers
    page = viewers.get(cache_key)
    if page is not None:
        return Response(content=page, media_type=media)
    key = hall.take_slot(p)
    if head > VIEWER_CACHED_MAX:  # a long log streams, a piece at a time, and is not kept
        try:
            chunks = speaking_each(lang, Access(hall.factory(), tokens=hall.tokens).export_chunks(p, "html"))
        except BaseException:
            hall.give_slot(key)
            raise
        return Stream(pieces(chunks, lambda: hall.give_slot(key)), media_type=media)
    try:
        page = "".join(speaking_each(lang, Access(hall.factory(), tokens=hall.tokens).export_chunks(p, "html"))).encode("utf-8")
    finally:
        hall.give_slot(key)
    viewers.put(cache_key, page)
    return Response(content=page, media_type=media)


@get("/tournaments/{tid:str}/matches/{mid:str}/events", responses=ERRORS, tags=["tournaments"],
     security=SECURITY, summary="When a table's match changes (server-sent events)",
     description="Each event is `table`: the match id, its last entry and the number of annotations the "
                 "token may read, sent first and then each time they change (the live view fetches the "
                 "viewer again). `follow=false` sends one and ends. `Last-Event-ID` as for the tournament's "
                 "events.")
async def table_events(request: Request[Any, Any, Any], tid: TidPath, mid: MidPath,
                       follow: FromQuery[bool] = True, last_event_id: LastEventId = None) -> ServerSentEvent:
    hall = request.app.state.hall
    start = _resumed(last_event_id)

    def who() -> Any:
        access, entrant = _who(request, tid)
        return access.table_principal(entrant, mid)

    p = await anyio.to_thread.run_sync(who)  # a bad token or table: an error answer, not a broken stream

    def snapshot() -> bytes:  # in whichever worker thread is free: that thread's own store connection
        head, notes = _access(request).table_head(p)
        return msgspec.json.encode({"match_id": p.match_id, "head": head, "notes": notes})

    first = await anyio.to_thread.run_sync(snapshot)
    return ServerSentEvent(_live(hall, snapshot, first, follow, event="table", start=start), retry_duration=2000)


def _player_history(request: Request[Any, Any, Any], tid: str, pid: str) -> tuple[Any, str, str]:
    """A tournament player's history as the token may read it: the organiser's and the spectators' any
    player's, a player's their own (as their pairings are); with the tournament's name and the player's."""
    from ..auth import AuthCode, Forbidden
    from ..players import of_tournament

    access, who = _who(request, tid)
    if who.role == "player" and who.player != pid:
        raise Forbidden.said(AuthCode.FORBIDDEN, N_("a player's token reads that player's own page only"))
    referee = request.app.state.hall.access().referee
    found = of_tournament(referee, who.tournament, pid)
    state = access.service.load(who.tournament)
    return found, state.config.name, state.name(pid)


@get("/tournaments/{tid:str}/players/{pid:str}", responses=ERRORS, sync_to_thread=True, tags=["tournaments"],
     security=SECURITY, summary="A player's history in the tournament: matches, W-D-L per game, rating over time",
     description="What `referee player NAME --json` answers, over this tournament's tables alone (rated over "
                 "them alone). The organiser's and the spectators' tokens read any player's; a player's "
                 "token its own.")
def player_history(request: Request[Any, Any, Any], tid: TidPath, pid: PlayerPath) -> PlayerHistory:
    return _player_history(request, tid, pid)[0]  # type: ignore[no-any-return]


@get("/tournaments/{tid:str}/players/{pid:str}/page", responses=ERRORS, sync_to_thread=True, tags=["tournaments"],
     security=SECURITY, summary="A player's history as an HTML page with the rating drawn as an SVG chart")
def player_page_html(request: Request[Any, Any, Any], tid: TidPath, pid: PlayerPath) -> Response[str]:
    from ..i18n import gettext, speaking
    from ..pagelang import of
    from ..playerpage import page

    lang = of(request)[0]
    found, name, display = _player_history(request, tid, pid)
    with speaking(lang):
        title = gettext("in {tournament}", tournament=name)
    return Response(content=page(found, title=title, display=display, lang=lang), media_type="text/html; charset=utf-8")


@get("/hall/{tid:str}/players/{pid:str}", responses=ERRORS, sync_to_thread=False, tags=["tournaments"],
     summary="A player's page in the hall (open it with #token=<a tournament token>)")
def player_page(request: Request[Any, Any, Any], tid: TidPath, pid: PlayerPath) -> Response[str]:
    from ..pagelang import of
    from ..playerpage import shell

    return Response(content=shell(tid, pid, *of(request)), media_type="text/html; charset=utf-8",
                    headers={"Content-Security-Policy": "default-src 'self'; script-src 'unsafe-inline'; "
                             "style-src 'unsafe-inline'", "Referrer-Policy": "no-referrer"})


#: the tournaments' routes: :func:`referee.http.create_app` mounts them as a router beside the matches'
ROUTES = (
    create_tournament, show_tournament, add_player, change_player, pair_round, close_round, record_result,
    set_tiebreaks, withdraw, half_bye, pairings, standings, export, audit, records, ratings, hall_page,
    hall_events, table_page, table_viewer, table_events, upload_transcript, player_history, player_page_html,
    player_page, report_result, round_clock, round_clock_shown, arbiter_desk, arbiter_page,
)


def _resumed(last_event_id: str | None) -> int:
    """The number of the last snapshot a reconnecting client saw (``Last-Event-ID``; 0 for none), or
    BadInput (422) for a header that is not one, as the match's ``/events`` answers."""
    if not last_event_id:
        return 0
    text = last_event_id.strip()
    if not (text.isascii() and text.isdigit()):
        raise BadInput.said(EventsCode.BAD_LAST_EVENT_ID, N_("Last-Event-ID must be the number of an event, not {last_event_id!r}"),
                            last_event_id=last_event_id)
    return int(text)


async def _live(hall: Any, snapshot: Callable[[], bytes], first: bytes, follow: bool, *, event: str = "hall",
                start: int = 0) -> AsyncIterator[ServerSentEventMessage]:
    """The first snapshot, then a new one whenever it differs (looked for every ``hall.poll`` seconds:
    results arrive in the matches' logs, written by any process); keep-alive comments in between.
    Each snapshot is whole, so a client resuming after event ``start`` gets the current one first,
    numbered on from ``start``."""
    hall.hub.streams += 1
    try:
        last, n, quiet = first, start + 1, 0.0
        yield ServerSentEventMessage(data=first.decode(), event=event, id=str(n))
        while follow:
            await anyio.sleep(hall.poll)
            try:
                now = await anyio.to_thread.run_sync(snapshot)
            except (StoreError, StorageError):  # the store is down or restarting: the stream stays open
                now = last
            if now != last:
                last, n, quiet = now, n + 1, 0.0
                yield ServerSentEventMessage(data=now.decode(), event=event, id=str(n))
                continue
            quiet += hall.poll
            if quiet >= hall.keepalive:
                quiet = 0.0
                yield ServerSentEventMessage(comment="keep-alive", data=None)
    finally:
        hall.hub.streams -= 1
