"""The routes of a seat's page, mounted by :func:`referee.http.create_app`: the shell (``/play/{match}``)
and the one answer it reads (``/matches/{match}/seat``, :func:`referee.seat.seat_answer`); with them the
pages' words (``/pages/words``, :mod:`referee.pagewords`), which this page and the hall's ask, and a match's
(``/matches/{match}/words``, :mod:`referee.matchwords`), which this page and the arbiter's desk ask."""

from __future__ import annotations

from typing import Annotated, Any

from litestar import Request, Response, get
from litestar.params import PathParameter, QueryParameter

from schemas.pages import MatchWordsAnswer
from schemas.seat import SeatAnswer

from ..pagewords import page_words
from ..web import ERRORS, SECURITY

MatchIdPath = Annotated[str, PathParameter(max_length=64, description="the match id (or 4+ leading characters)")]

#: the page loads nothing from elsewhere and talks to this server only
POLICY = ("default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; connect-src 'self'; "
          "img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")


@get("/matches/{match_id:str}/seat", responses=ERRORS, sync_to_thread=True, tags=["reading"], security=SECURITY,
     summary="A seat's page in one answer: its view, its legal moves as choices by intent, the move waiting "
             "for a confirmation, whether it may take back its last move, the head")
def seat(request: Request[Any, Any, Any], match_id: MatchIdPath) -> SeatAnswer:
    from ..seat import seat_answer

    hall = request.app.state.hall
    return seat_answer(hall.access(), hall.principal(request, match_id))


@get("/matches/{match_id:str}/words", responses=ERRORS, sync_to_thread=True, tags=["reading"], security=SECURITY,
     summary="What the match's pages show of its JSON in the page's language (?lang=, else Accept-Language), for "
             "the token's own view: the view's headline and sections' titles after entry `at` (default: now), and "
             "the words of entries `from`..`to` (at most 50); the JSON itself stays English")
def words(request: Request[Any, Any, Any], match_id: MatchIdPath,
          at: Annotated[int | None, QueryParameter(ge=0, le=2**62,
                                                   description="the entry the view is after (default: the head)")] = None,
          start: Annotated[int, QueryParameter(name="from", ge=1, le=2**62, description="the first entry worded")] = 1,
          stop: Annotated[int, QueryParameter(name="to", ge=0, le=2**62,
                                              description="the last entry worded (0: none)")] = 0,
          ) -> MatchWordsAnswer:
    from ..matchwords import match_words
    from ..pagelang import of

    hall = request.app.state.hall
    return match_words(hall.access(), hall.principal(request, match_id), of(request)[0], at=at, start=start, stop=stop)


@get("/play/{match_id:str}", responses=ERRORS, sync_to_thread=False, tags=["reading"],
     summary="A seat's page (open it with #token=<the seat's token>): phone first, live")
def play(request: Request[Any, Any, Any], match_id: MatchIdPath) -> Response[str]:
    from ..pagelang import of
    from . import shell

    return Response(content=shell(*of(request)), media_type="text/html; charset=utf-8",
                    headers={"Content-Security-Policy": POLICY, "Referrer-Policy": "no-referrer",
                             "Cache-Control": "no-cache"})


ROUTES = (seat, words, play, page_words)
