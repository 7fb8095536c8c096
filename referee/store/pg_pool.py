"""The PostgreSQL store's connections (:class:`.postgres.PostgresStore`): a small pool of its own, opened
in the threads that need them, and the first line of a driver's error (what a refusal quotes)."""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import psycopg


class Busy(Exception):
    """Every connection the pool may open is in use, and none came back in time."""


class Pool:
    """At most ``size`` connections in use at once. A connection is taken from the idle ones, or opened
    (in the caller's thread, so that a failure to connect is the caller's error, in the server's words)
    when none is idle; it goes back to the idle ones after use unless it was broken or left inside a
    transaction. ``first`` is an open connection to start with (the one the schema was checked on)."""

    def __init__(self, connect: Callable[[], psycopg.Connection[Any]], size: int, *,
                 first: psycopg.Connection[Any] | None = None, timeout: float = 30.0) -> None:
        self._connect = connect
        self._size = size
        self._timeout = timeout
        self._slots = threading.BoundedSemaphore(size)
        self._lock = threading.Lock()
        self._idle: list[psycopg.Connection[Any]] = [first] if first is not None else []
        self._closed = False

    @contextlib.contextmanager
    def connection(self) -> Iterator[psycopg.Connection[Any]]:
        if not self._slots.acquire(timeout=self._timeout):
            raise Busy(f"all {self._size} connections stayed in use for {self._timeout:g} s")
        try:
            with self._lock:
                conn = self._idle.pop() if self._idle else None
            if conn is None:
                conn = self._connect()
            try:
                yield conn
            finally:
                self._put(conn)
        finally:
            self._slots.release()

    def _put(self, conn: psycopg.Connection[Any]) -> None:
        from psycopg.pq import TransactionStatus

        reusable = not conn.broken and not conn.closed and conn.info.transaction_status == TransactionStatus.IDLE
        with self._lock:
            if reusable and not self._closed and len(self._idle) < self._size:
                self._idle.append(conn)
                return
        conn.close()

    def check(self) -> None:
        """Close the idle connections that no longer answer (the server restarted, say)."""
        with self._lock:
            idle, self._idle = self._idle, []
        alive = []
        for conn in idle:
            try:
                conn.execute("SELECT 1")
                alive.append(conn)
            except Exception:  # noqa: BLE001 - whatever is wrong with it, it goes
                conn.close()
        with self._lock:
            self._idle.extend(alive)

    def close(self) -> None:
        with self._lock:
            self._closed = True
            idle, self._idle = self._idle, []
        for conn in idle:
            conn.close()


def first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__
