"""Appends announced across the processes of one SQLite file (:class:`FileNotifier`, the file's
:class:`~referee.store.base.Notifier`): the workers of ``referee serve --workers N`` share a file, and a
live stream in one process learns of another's entry from here within :data:`NOTIFY_EVERY`, instead of
at its own next look at the store (every second).

A thread of its own, on a connection of its own that only reads, reads the file's ``PRAGMA data_version``
(a number SQLite changes when another connection commits; reading it touches no page) every
:data:`NOTIFY_EVERY` seconds, and only when it moved reads the entries appended since the last it saw
(by rowid: the log is append-only, so rowids only grow) and wakes their matches. Appends of its own
process are announced too (the process's own streams are woken by them already: a second look finds
nothing new and costs one read of the head).
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Callable

#: how often the file is looked at (seconds): the most a stream in another process waits for an entry
NOTIFY_EVERY = 0.05
#: how long a look waits for a file that is being recovered or checkpointed before trying again
BUSY_WAIT = 1.0


class FileNotifier:
    """Announces every entry committed to the SQLite file at ``path`` by any connection of any process."""

    def __init__(self, path: str, every: float = NOTIFY_EVERY) -> None:
        self.path, self.every = path, every

    def listen(self, wake: Callable[[str], None], resumed: Callable[[], None] | None = None) -> Callable[[], None]:
        """Call ``wake(match_id)`` (on a thread of its own) for each match an entry is committed to from now
        on. Nothing is lost while the file cannot be read for a moment (the next look reads every entry
        after the last one seen), so ``resumed`` is never called. Returns what stops it."""
        stop = threading.Event()
        conn: sqlite3.Connection | None = None
        last = -1
        try:  # where the log ends now, read here: every entry after it is announced
            conn = self._open()
            last = _last(conn)
        except sqlite3.Error:  # the file is busy: the thread opens it, a moment later
            if conn is not None:
                conn.close()
            conn = None
        threading.Thread(target=self._run, args=(stop, wake, conn, last), name="referee-file-listen",
                         daemon=True).start()
        return stop.set

    def _open(self) -> sqlite3.Connection:
        conn = sqlite3.connect(self.path, timeout=BUSY_WAIT, isolation_level=None, check_same_thread=False)
        conn.execute("PRAGMA query_only = 1")
        return conn

    def _run(self, stop: threading.Event, wake: Callable[[str], None], conn: sqlite3.Connection | None,
             last: int) -> None:
        version, pause = -1, 0.0
        try:
            while not stop.wait(pause):
                try:
                    if conn is None:
                        conn = self._open()
                        last = _last(conn)
                    now = int(conn.execute("PRAGMA data_version").fetchone()[0])
                    if now != version:
                        rows = conn.execute("SELECT rowid, match_id FROM entries WHERE rowid > ? ORDER BY rowid",
                                            (last,)).fetchall()
                        version = now
                        if rows:
                            last = int(rows[-1][0])
                            for match_id in dict.fromkeys(str(r[1]) for r in rows):
                                wake(match_id)
                    pause = self.every
                except sqlite3.Error:  # the file is busy or away for a moment: look again a little later
                    pause = BUSY_WAIT
        finally:
            if conn is not None:
                conn.close()


def _last(conn: sqlite3.Connection) -> int:
    """The rowid of the last entry in the file (0: none)."""
    return int(conn.execute("SELECT coalesce(max(rowid), 0) FROM entries").fetchone()[0])
