"""The referee over HTTP (``referee serve``): a Litestar app, a veneer over :mod:`referee.access`.

This module assembles the app: the matches' routes (:mod:`referee.matchroutes`), the tournaments'
(:mod:`referee.tournament.http`) and the seat pages' (:mod:`referee.seatpage.routes`), each a router;
the hall they reach through the app's state (:mod:`referee.httphall`); request bodies read strictly
(:mod:`referee.httpbody`). Every route parses its input, calls one :class:`~referee.access.Access`
method and renders the answer; no rules and no log logic live here. Errors of every kind — domain
errors, bad tokens, Litestar's own validation errors, unknown routes and methods — become one JSON
shape, :class:`schemas.ErrorBody`, in :func:`referee.httperrors.error_response`, and nowhere else.

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
from collections.abc import Callable

import anyio
from litestar import Litestar, Router
from litestar.datastructures import State
from litestar.openapi import OpenAPIConfig
from litestar.openapi.spec import Components, SecurityScheme

from .httpbody import MAX_BODY, strict_body
from .httperrors import error_response
from .httphall import Hall
from .matchroutes import ROUTES
from .seatpage import routes as seat_http
from .service import Referee
from .tournament import http as tournament_http

#: the OpenAPI document's title: the product's name, the same in every language (the document is English)
API_TITLE = "Referee"


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
        exception_handlers={Exception: error_response},
        before_request=strict_body,
        openapi_config=OpenAPIConfig(
            title=API_TITLE,
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
