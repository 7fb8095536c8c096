"""The embedded default store: one SQLite file through sqlite-utils, WAL, foreign keys on.

Append-only is enforced twice: the class has no update or delete, and triggers in the database
refuse UPDATE and DELETE on ``entries`` (so a stray tool cannot rewrite history by accident; audit
catches anything done behind SQLite's back). Each append is ``BEGIN IMMEDIATE`` → an insert that
takes place only if the match exists and its head is the one the writer expects → ``COMMIT``: one
short transaction of three statements (plus one each for an idempotency key and a snapshot), and a
stale writer gets :class:`Conflict`.

**Durability.** An append returns once its transaction is committed. At the default durability,
``full`` (``PRAGMA synchronous=FULL``), the commit has reached the disk first: an entry the referee
acknowledged survives a crash of the process, of the operating system and a power loss. ``normal``
(``synchronous=NORMAL``, for bulk imports and benchmarks) leaves the last commits in the operating
system's cache for a while: they survive the process being killed, but an OS crash or a power loss
can lose the last acknowledged entries (the database stays consistent: it is as if they had never
been appended). ``REFEREE_DURABILITY`` sets it where a store is opened without saying.
"""

from __future__ import annotations

import os
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from typing import Any, Literal, TypeVar

from .sqlite_schema import JUMP, MATCH_COLS, MIGRATIONS
from .sqlite_summaries import SqliteSummaries
from .sqlite_tournaments import SqliteTournaments
from .base import (
    N_,
    annotation_from_row,
    entry_from_row,
    like_prefix,
    match_from_row,
    AuditRow,
    BadSetting,
    Conflict,
    DuplicateRequest,
    IndexRow,
    MatchSummary,
    Notifier,
    StoredAnnotation,
    StoredEntry,
    StoredMatch,
    StoredRequest,
    StoredSnapshot,
    StoredToken,
    StoreError,
    StoreUnavailable,
)

_ENTRY_COLS = "match_id, seq, kind, actor, verdict, code, body, prev_hash, hash, state_hash, recorded_at"
#: a body as bytes even in a database where it was stored as text
_BODY = "CAST(body AS BLOB)"
#: the columns of :data:`AuditRow`
_AUDIT_COLS = f"seq, kind, actor, verdict, code, {_BODY}, prev_hash, hash, state_hash"

T = TypeVar("T")

#: how commits reach the disk (see the module's docstring); ``full`` is the default
Durability = Literal["full", "normal"]
DURABILITIES: tuple[Durability, ...] = ("full", "normal")
#: the environment variable that sets the durability of a store opened without one
DURABILITY_ENV = "REFEREE_DURABILITY"


def durability_level(value: str | None = None) -> Durability:
    """The durability asked for: ``value`` if given, else ``$REFEREE_DURABILITY`` if set, else ``full``.
    Anything else is refused (:class:`BadSetting`, naming the values allowed), before a database is
    opened."""
    given, value = value is not None, value if value is not None else os.environ.get(DURABILITY_ENV) or "full"
    for level in DURABILITIES:
        if value.strip().lower() == level:
            return level
    raise BadSetting.said("input/durability", N_(  # (DURABILITIES: full, normal)
        "the durability must be full or normal, not {value!r} (full: every acknowledged entry is on disk; normal: "
        "faster, an OS crash or power loss can lose the last ones)") if given else N_(
        "{variable} must be full or normal, not {value!r} (full: every acknowledged entry is on disk; normal: "
        "faster, an OS crash or power loss can lose the last ones)"), variable=DURABILITY_ENV, value=value)


def _busy(exc: sqlite3.OperationalError) -> bool:
    """Another connection holds a lock this one needs (SQLITE_BUSY or SQLITE_LOCKED, extended or not)."""
    return getattr(exc, "sqlite_errorcode", 0) & 0xFF in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED)


_writers: dict[str, threading.Lock] = {}
_writers_lock = threading.Lock()


def _writer(path: str) -> threading.Lock:
    """The lock this process's connections to the file at ``path`` take turns at its write lock with: an
    append waits here, woken as soon as the one before it commits, instead of trying BEGIN IMMEDIATE in
    sleeps (:func:`_patiently`) against its own process; other processes are still waited for that way."""
    key = os.path.realpath(path)
    with _writers_lock:
        found = _writers.get(key)
        if found is None:
            found = _writers[key] = threading.Lock()
        return found


#: how long (seconds) a statement waits for another connection's lock before the store gives up on it
#: (:class:`StoreUnavailable`: the server answers 503 with Retry-After)
PATIENCE = 30.0


def _patiently(attempt: Callable[[], T], patience: float | None = None) -> T:
    """``attempt()``, tried again while another connection holds a lock it needs, in short steps (50 us
    doubling to 2 ms, ``patience`` seconds in all) rather than SQLite's busy handler, whose first waits
    are 1, 2, 5, 10 ms: two server processes take turns at the write lock every fraction of a millisecond."""
    delay, deadline = 0.00005, 0.0
    while True:
        try:
            return attempt()
        except sqlite3.OperationalError as exc:
            if not _busy(exc):
                raise
            now = time.monotonic()
            if not deadline:
                deadline = now + (PATIENCE if patience is None else patience)
            elif now > deadline:
                raise StoreUnavailable.said(N_("the SQLite database is locked by another connection ({reason}); it "
                                               "did not let go in time"), reason=str(exc)) from None
        time.sleep(delay)
        delay = min(delay * 2, 0.002)


class SqliteStore(SqliteSummaries, SqliteTournaments):
    """A SQLite file. ``durability``: ``full`` or ``normal`` (default: ``$REFEREE_DURABILITY``, else
    ``full``; see the module's docstring)."""

    def __init__(self, path: str, *, durability: str | None = None, create: bool = True) -> None:
        level = durability_level(durability)
        if not create and not os.path.exists(path):
            raise StoreError.said(N_("no database at {path}; create a match first (referee new ...) or pass --db"), path=path)
        self.path = path
        self.durability: Durability = level
        try:
            conn = sqlite3.connect(path, isolation_level=None, timeout=30.0, check_same_thread=False)
            wal = conn.execute("PRAGMA journal_mode=WAL").fetchone()[0] == "wal"
            conn.execute(f"PRAGMA synchronous={level.upper()}")
            if level == "full":
                conn.execute("PRAGMA fullfsync=ON")  # macOS: through the drive's own cache too (a no-op elsewhere)
            conn.execute("PRAGMA foreign_keys=ON")
            self.conn = conn
            # one connection may be shared by threads (a server's workers): its statements are
            # serialised here; separate connections (processes) are serialised by BEGIN IMMEDIATE.
            self._lock = threading.RLock()
            self._writer = _writer(path)
            self._migrate()
            if wal:
                # From here on a lock is waited for by _patiently, in short steps, not by SQLite's busy
                # handler: set once (not around each BEGIN). In WAL mode a reader never waits for a
                # writer; it could only meet a lock while another connection recovers or closes the WAL.
                conn.execute("PRAGMA busy_timeout=0")
        except sqlite3.DatabaseError as exc:
            raise StoreError.said(N_("{path} is not a usable referee database ({reason})"), path=path, reason=str(exc)) from None

    def _migrate(self) -> None:
        version = self.conn.execute("PRAGMA user_version").fetchone()[0]
        if version > len(MIGRATIONS):
            raise StoreError.said(N_("{path} was written by a newer referee (schema {version}); upgrade referee"),
                                  path=self.path, version=version)
        if version == len(MIGRATIONS):
            return
        # sqlite-utils builds the schema; it is imported only here, so that day-to-day commands
        # on an existing database start fast (its import alone costs ~0.2 s).
        import sqlite_utils

        db = sqlite_utils.Database(self.conn)
        conn = self.conn
        self._begin_write()
        try:
            version = conn.execute("PRAGMA user_version").fetchone()[0]
            if version == 0 and "matches" in db.table_names():
                raise StoreError.said(N_("{path} holds tables that are not a referee database"), path=self.path)
            for number in range(version, len(MIGRATIONS)):
                MIGRATIONS[number](db)
            conn.execute(f"PRAGMA user_version={len(MIGRATIONS)}")
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise

    def _all(self, sql: str, params: Sequence[Any]) -> list[Any]:
        """The rows of one query (the connection's lock held; a lock of another connection waited for)."""
        execute = self.conn.execute
        with self._lock:
            return _patiently(lambda: execute(sql, params).fetchall())

    def _one(self, sql: str, params: Sequence[Any]) -> Any:
        execute = self.conn.execute
        with self._lock:
            return _patiently(lambda: execute(sql, params).fetchone())

    def _pages(self, cols: str, match_id: str, start: int, stop: int | None, seq_at: int = 0) -> Iterator[Any]:
        """Rows ``cols`` (``seq`` the one at ``seq_at``) of entries ``start..stop`` in seq order, read
        2,000 at a time (the lock is not held while the caller works on them)."""
        stop_ = stop if stop is not None else 2**62
        low = start
        sql = f"SELECT {cols} FROM entries WHERE match_id = ? AND seq >= ? AND seq <= ? ORDER BY seq LIMIT 2000"
        while low <= stop_:
            rows = self._all(sql, (match_id, low, stop_))
            yield from rows
            if len(rows) < 2000:
                return
            low = rows[-1][seq_at] + 1

    # -- matches -----------------------------------------------------------------------------

    def create_match(
        self, match: StoredMatch, entries: Sequence[StoredEntry] = (),
        annotations: Sequence[StoredAnnotation] = (), transcript: str | None = None,
        summary: MatchSummary | None = None,
    ) -> None:
        with self._lock:
            self._create_match(match, entries, annotations, transcript, summary)

    def _create_match(
        self, match: StoredMatch, entries: Sequence[StoredEntry], annotations: Sequence[StoredAnnotation],
        transcript: str | None, summary: MatchSummary | None = None,
    ) -> None:
        conn = self.conn
        self._begin_write()
        try:
            if conn.execute("SELECT 1 FROM matches WHERE id = ?", (match.id,)).fetchone():
                raise StoreError.said(N_("match {match} already exists"), match=match.id)
            conn.execute(
                f"INSERT INTO matches ({MATCH_COLS}) VALUES (?,?,?,?,?,?,?,?,?)",
                (match.id, match.game, match.rules_version, match.config, match.genesis_hash,
                 match.created_at, match.parent, match.fork_seq, match.title),
            )
            for i, e in enumerate(entries, start=(match.fork_seq or 0) + 1):
                if e.seq != i or e.match_id != match.id:
                    raise StoreError.said(N_("initial entries must be numbered on from the match's start"))
                self._insert(e)
            for a in annotations:
                self._insert_annotation(a)
            if transcript is not None:
                conn.execute("INSERT INTO transcripts (digest, match_id) VALUES (?, ?)", (transcript, match.id))
            if summary is not None:
                self._put_summary(summary, match.id)
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise

    def get_match(self, match_id: str) -> StoredMatch | None:
        row = self._one(f"SELECT {MATCH_COLS} FROM matches WHERE id = ?", (match_id,))
        return match_from_row(row) if row else None

    def find_matches(self, prefix: str) -> list[StoredMatch]:
        like = like_prefix(prefix)
        rows = self._all(f"SELECT {MATCH_COLS} FROM matches WHERE id LIKE ? ESCAPE '\\' ORDER BY id", (like,))
        return [match_from_row(r) for r in rows]

    def find_transcript(self, digest: str) -> list[str]:
        rows = self._all(
            "SELECT match_id FROM transcripts WHERE digest = ? ORDER BY rowid", (digest,))
        return [r[0] for r in rows]

    def transcripts(self) -> list[tuple[str, str]]:
        return [(r[0], r[1]) for r in self._all("SELECT digest, match_id FROM transcripts ORDER BY digest, rowid", ())]

    def add_transcript(self, digest: str, match_id: str) -> None:
        with self._lock:
            conn = self.conn
            self._begin_write()
            try:
                if not conn.execute("SELECT 1 FROM matches WHERE id = ?", (match_id,)).fetchone():
                    raise StoreError.said(N_("no match {match}"), match=match_id)
                conn.execute("INSERT INTO transcripts (digest, match_id) VALUES (?, ?)", (digest, match_id))
                conn.execute("COMMIT")
            except sqlite3.IntegrityError:
                conn.execute("ROLLBACK")
                raise StoreError.said(N_("match {match} is already recorded with transcript {digest}"),
                                      match=match_id, digest=digest) from None
            except BaseException:
                conn.execute("ROLLBACK")
                raise

    def list_matches(self) -> list[StoredMatch]:
        rows = self._all(f"SELECT {MATCH_COLS} FROM matches ORDER BY created_at, id", ())
        return [match_from_row(r) for r in rows]

    # -- entries -----------------------------------------------------------------------------

    _HEAD_SQL = (
        "SELECT COALESCE((SELECT MAX(seq) FROM entries WHERE match_id = ?1),"
        " (SELECT fork_seq FROM matches WHERE id = ?1), 0)"
    )
    #: an append's one check, in its transaction: a row only if the match exists, with its head (and,
    #: for an append with an idempotency key, whether the match used that key already)
    _APPEND_CHECK = (
        "SELECT COALESCE((SELECT MAX(seq) FROM entries WHERE match_id = ?1), fork_seq, 0) FROM matches WHERE id = ?1"
    )
    _KEYED_APPEND_CHECK = (
        "SELECT COALESCE((SELECT MAX(seq) FROM entries WHERE match_id = ?1), fork_seq, 0),"
        " EXISTS (SELECT 1 FROM requests WHERE match_id = ?1 AND key = ?2) FROM matches WHERE id = ?1"
    )
    _INSERT_ENTRY = f"INSERT INTO entries ({_ENTRY_COLS}) VALUES (?,?,?,?,?,?,?,?,?,?,?)"

    def head(self, match_id: str) -> int:
        return int(self._one(self._HEAD_SQL, (match_id,))[0] or 0)

    def last_entry(self, match_id: str) -> StoredEntry | None:
        row = self._one(f"SELECT {_ENTRY_COLS} FROM entries WHERE match_id = ? ORDER BY seq DESC LIMIT 1", (match_id,))
        return entry_from_row(row) if row else None

    def _begin_write(self) -> None:
        """BEGIN IMMEDIATE, waiting for another connection's write in short steps (:func:`_patiently`)."""
        execute = self.conn.execute
        _patiently(lambda: execute("BEGIN IMMEDIATE"))

    def _insert(self, e: StoredEntry) -> None:
        self.conn.execute(
            self._INSERT_ENTRY,
            (e.match_id, e.seq, e.kind, e.actor, e.verdict, e.code, e.body, e.prev_hash, e.hash,
             e.state_hash, e.recorded_at),
        )

    def append(
        self, entry: StoredEntry, expected_seq: int, snapshot: StoredSnapshot | None = None,
        request: StoredRequest | None = None, summary: MatchSummary | None = None,
    ) -> None:
        with self._lock, self._writer:
            self._append(entry, expected_seq, snapshot, request, summary)

    def _append(
        self, entry: StoredEntry, expected_seq: int, snapshot: StoredSnapshot | None,
        request: StoredRequest | None = None, summary: MatchSummary | None = None,
    ) -> None:
        conn = self.conn
        mid = entry.match_id
        self._begin_write()
        try:
            if request is None:
                row = conn.execute(self._APPEND_CHECK, (mid,)).fetchone()
            else:
                row = conn.execute(self._KEYED_APPEND_CHECK, (mid, request.key)).fetchone()
            if row is None:
                raise StoreError.said(N_("no match {match}"), match=mid)
            if request is not None and row[1]:
                raise DuplicateRequest(mid, request.key)
            head = row[0]
            if head != expected_seq or entry.seq != expected_seq + 1:
                raise Conflict(mid, expected_seq, head)
            self._insert(entry)
            if request is not None:
                conn.execute(
                    "INSERT INTO requests (match_id, key, fingerprint, seq) VALUES (?,?,?,?)",
                    (mid, request.key, request.fingerprint, entry.seq),
                )
            if snapshot is not None:
                conn.execute(
                    "INSERT OR REPLACE INTO snapshots (match_id, seq, state, state_hash) VALUES (?,?,?,?)",
                    (snapshot.match_id, snapshot.seq, snapshot.state, snapshot.state_hash),
                )
            if summary is not None:
                self._put_summary(summary, mid)
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise

    def entries(self, match_id: str, start: int = 1, stop: int | None = None) -> Iterator[StoredEntry]:
        return map(entry_from_row, self._pages(_ENTRY_COLS, match_id, start, stop, seq_at=1))

    def bodies(self, match_id: str, start: int = 1, stop: int | None = None) -> Iterator[tuple[int, bytes]]:
        return self._pages(f"seq, {_BODY}", match_id, start, stop)

    def audit_rows(self, match_id: str, start: int = 1, stop: int | None = None) -> Iterator[AuditRow]:
        return self._pages(_AUDIT_COLS, match_id, start, stop)

    def index(self, match_id: str, start: int = 1, stop: int | None = None) -> Iterator[IndexRow]:
        return self._pages(
            "seq, kind, actor, verdict, CASE WHEN kind IN ('undo', 'redo') OR verdict = 'held' THEN CAST(body AS BLOB) END",
            match_id, start, stop,
        )

    def jumps(self, match_id: str, start: int = 1, stop: int | None = None) -> Iterator[tuple[int, str, bytes]]:
        rows = self._all(
            f"SELECT seq, kind, {_BODY} FROM entries WHERE match_id = ? AND seq >= ? AND seq <= ? AND {JUMP} "
            "ORDER BY seq",
            (match_id, start, stop if stop is not None else 2**62),
        )
        return iter(rows)

    def snapshot_at_or_before(self, match_id: str, seq: int) -> StoredSnapshot | None:
        row = self._one(
            "SELECT match_id, seq, state, state_hash FROM snapshots WHERE match_id = ? AND seq <= ? "
            "ORDER BY seq DESC LIMIT 1",
            (match_id, seq),
        )
        if not row:
            return None
        return StoredSnapshot(match_id=row[0], seq=row[1], state=bytes(row[2]), state_hash=row[3])

    # -- annotations -------------------------------------------------------------------------

    def add_annotation(self, annotation: StoredAnnotation) -> None:
        with self._lock:
            self._add_annotation(annotation)

    def _add_annotation(self, annotation: StoredAnnotation) -> None:
        conn = self.conn
        self._begin_write()
        try:
            if not conn.execute("SELECT 1 FROM matches WHERE id = ?", (annotation.match_id,)).fetchone():
                raise StoreError.said(N_("no match {match}"), match=annotation.match_id)
            row = conn.execute("SELECT n, hash FROM annotations WHERE match_id = ? ORDER BY n DESC LIMIT 1",
                               (annotation.match_id,)).fetchone()
            count, last = (row[0] or 0, row[1]) if row else (0, None)
            if annotation.n != count + 1 or (last is not None and annotation.prev_hash != last):
                raise Conflict(annotation.match_id, annotation.n - 1, count, what="annotation")
            self._insert_annotation(annotation)
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise

    def _insert_annotation(self, a: StoredAnnotation) -> None:
        self.conn.execute(
            "INSERT INTO annotations (match_id, seq, kind, text, by, recorded_at, n, prev_hash, hash, audience) "
            "VALUES (?,?,?,?,?,?,?,?,?,?)",
            (a.match_id, a.seq, a.kind, a.text, a.by, a.recorded_at, a.n, a.prev_hash, a.hash, a.audience),
        )

    _ANNOTATION_COLS = "match_id, seq, kind, text, by, recorded_at, n, prev_hash, hash, audience"

    def annotations(self, match_id: str) -> list[StoredAnnotation]:
        rows = self._all(f"SELECT {self._ANNOTATION_COLS} FROM annotations WHERE match_id = ? ORDER BY n, id", (match_id,))
        return [annotation_from_row(r) for r in rows]

    def annotations_on(self, match_id: str, start: int, stop: int) -> list[StoredAnnotation]:
        rows = self._all(
            f"SELECT {self._ANNOTATION_COLS} FROM annotations WHERE match_id = ? AND seq >= ? AND seq <= ? ORDER BY n, id",
            (match_id, start, stop),
        )
        return [annotation_from_row(r) for r in rows]

    # -- tokens and idempotency keys (the HTTP service) -----------------------------------------

    def add_tokens(self, tokens: Sequence[StoredToken]) -> None:
        with self._lock:
            conn = self.conn
            self._begin_write()
            try:
                for t in tokens:
                    if not conn.execute("SELECT 1 FROM matches WHERE id = ?", (t.match_id,)).fetchone():
                        raise StoreError.said(N_("no match {match}"), match=t.match_id)
                    conn.execute(
                        "INSERT INTO tokens (token_hash, match_id, role, seat) VALUES (?,?,?,?)",
                        (t.token_hash, t.match_id, t.role, t.seat),
                    )
                conn.execute("COMMIT")
            except sqlite3.IntegrityError as exc:
                conn.execute("ROLLBACK")
                raise StoreError.said(N_("token refused: {reason}"), reason=str(exc)) from None
            except BaseException:
                conn.execute("ROLLBACK")
                raise

    def find_token(self, token_hash: str) -> StoredToken | None:
        row = self._one("SELECT token_hash, match_id, role, seat FROM tokens WHERE token_hash = ?", (token_hash,))
        return StoredToken(token_hash=row[0], match_id=row[1], role=row[2], seat=row[3]) if row else None

    def find_request(self, match_id: str, key: str) -> StoredRequest | None:
        row = self._one(
            "SELECT match_id, key, fingerprint, seq FROM requests WHERE match_id = ? AND key = ?", (match_id, key)
        )
        return StoredRequest(match_id=row[0], key=row[1], fingerprint=row[2], seq=row[3]) if row else None


    def snapshots(self, match_id: str) -> list[StoredSnapshot]:
        rows = self._all("SELECT match_id, seq, state, state_hash FROM snapshots WHERE match_id = ? ORDER BY seq", (match_id,))
        return [StoredSnapshot(match_id=r[0], seq=r[1], state=bytes(r[2]), state_hash=r[3]) for r in rows]

    def tokens(self, match_id: str) -> list[StoredToken]:
        rows = self._all("SELECT token_hash, match_id, role, seat FROM tokens WHERE match_id = ? ORDER BY token_hash",
                         (match_id,))
        return [StoredToken(token_hash=r[0], match_id=r[1], role=r[2], seat=r[3]) for r in rows]

    def requests(self, match_id: str) -> list[StoredRequest]:
        rows = self._all("SELECT match_id, key, fingerprint, seq FROM requests WHERE match_id = ? ORDER BY seq, key",
                         (match_id,))
        return [StoredRequest(match_id=r[0], key=r[1], fingerprint=r[2], seq=r[3]) for r in rows]

    @property
    def notifier(self) -> Notifier | None:
        """A file's other processes' appends are announced by watching it (:mod:`.sqlite_notify`); a
        database in one connection's memory has no other process."""
        from .sqlite_notify import FileNotifier

        return None if self.path in ("", ":memory:") else FileNotifier(self.path)

    def reopen(self) -> SqliteStore:
        return SqliteStore(self.path, durability=self.durability, create=False)

    def close(self) -> None:
        self.conn.close()
