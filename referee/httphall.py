"""The shared parts of the matches' HTTP app (:mod:`referee.http`): the hub that wakes a match's live
streams when an entry is appended, and the hall every route reaches through the app's state (one
:class:`~referee.access.Access` per worker thread, a match's writes taking turns in this process, the
slots of the requests that read a whole log)."""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import threading
import zlib
from collections.abc import Callable, Iterator
from typing import Any

import anyio
from litestar import Request

from .access import Access
from .auth import AuthCode, Principal, Unauthorized
from .errors import RefereeError
from .history import History
from .httpcodes import RequestCode
from .i18n import N_
from .memo import HeadMemo
from .service import Referee

#: requests that read a whole log (export, replay, audit, diff) one token may have running at once
HEAVY_PER_TOKEN = 2
#: what a 429 tells the client to wait (seconds) before it retries
RETRY_AFTER = 2


class TooBusy(RefereeError):
    """The token already has as many heavy requests running as it may: 429, with when to retry."""

    http_status = 429


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
                busy = TooBusy.said(RequestCode.BUSY, N_(
                    "this token already has {running} requests that read a whole log running (export, replay, audit, "
                    "diff); retry in {retry_after} s, when one of them has finished"),
                    running=HEAVY_PER_TOKEN, retry_after=RETRY_AFTER)
                busy.detail = {"retry_after": RETRY_AFTER}
                raise busy
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


def hall_of(request: Request[Any, Any, Any]) -> Hall:
    """The hall of the app serving ``request``."""
    return request.app.state.hall  # type: ignore[no-any-return]
