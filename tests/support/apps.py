"""The tests' HTTP apps, built once a process and reused: building a Litestar app of the referee's routes
costs 0.13 to 0.3 s of CPU (parsing every route's signature), and the suite serves about a hundred halls.
:func:`hall_app` hands out an idle app given a new hall (:func:`referee.http.serve_hall`: a fresh referee
factory, tokens, streams and caches, as :func:`referee.http.create_app` with the same arguments has),
or builds one when every app is in use (a test that runs two at once); it takes the app back when the
block ends, unless the app is still running."""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable, Iterator
from typing import Any

from litestar import Litestar

_idle: list[Litestar] = []
_lock = threading.Lock()


@contextlib.contextmanager
def hall_app(referee_factory: Callable[[], Any], **options: Any) -> Iterator[Litestar]:
    """An app serving a new hall of ``referee_factory`` (``options``: :func:`referee.http.create_app`'s)."""
    from referee.http import create_app, serve_hall
    from referee.httphall import Hall

    with _lock:
        app = _idle.pop() if _idle else None
    app = create_app(referee_factory, **options) if app is None else serve_hall(app, Hall(referee_factory, **options))
    try:
        yield app
    finally:
        if not app.state.hall.running:
            with _lock:
                _idle.append(app)


@contextlib.contextmanager
def app_client(referee_factory: Callable[[], Any], **options: Any) -> Iterator[Any]:
    """A Litestar TestClient (started: the app's startup has run) of :func:`hall_app`'s app."""
    from litestar.testing import TestClient

    with hall_app(referee_factory, **options) as app, TestClient(app) as c:
        yield c


@contextlib.contextmanager
def live_server(referee_factory: Callable[[], Any], **options: Any) -> Iterator[Any]:
    """A real server (:class:`support.live.LiveServer`, started) of :func:`hall_app`'s app."""
    from support.live import LiveServer

    with hall_app(referee_factory, **options) as app, LiveServer(app) as server:
        yield server
