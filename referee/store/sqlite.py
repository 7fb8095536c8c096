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
from typing import TYPE_CHECKING, Any, Literal, TypeVar

from .sqlite_summaries import PUT_SUMMARY, SqliteSummaries
from .base import (
    N_,
    check_new_matches,
    annotation_from_row,
    entry_from_row,
    like_prefix,
    match_from_row,
    summary_row,
    tournament_from_row,
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
    StoredTournament,
    StoredTournamentEvent,
    StoredTournamentToken,
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


if TYPE_CHECKING:
    import sqlite_utils
    import sqlite_utils.db


def _table(db: sqlite_utils.Database, name: str) -> sqlite_utils.db.Table:
    """A table of the database (sqlite-utils types ``db[name]`` as a table or a view)."""
    import sqlite_utils.db

    table = db[name]
    assert isinstance(table, sqlite_utils.db.Table)
    return table


def _m1_initial(db: sqlite_utils.Database) -> None:
    _table(db, "matches").create(
        {
            "id": str,
            "game": str,
            "rules_version": str,
            "config": bytes,
            "genesis_hash": str,
            "created_at": str,
            "parent": str,
            "fork_seq": int,
            "title": str,
        },
        pk="id",
        not_null={"game", "rules_version", "config", "genesis_hash", "created_at"},
    )
    _table(db, "entries").create(
        {
            "match_id": str,
            "seq": int,
            "kind": str,
            "actor": str,
            "verdict": str,
            "code": str,
            "body": bytes,
            "prev_hash": str,
            "hash": str,
            "state_hash": str,
            "recorded_at": str,
        },
        pk=("match_id", "seq"),
        foreign_keys=[("match_id", "matches", "id")],
        not_null={"kind", "verdict", "body", "prev_hash", "hash", "state_hash"},
    )
    _table(db, "snapshots").create(
        {"match_id": str, "seq": int, "state": bytes, "state_hash": str},
        pk=("match_id", "seq"),
        foreign_keys=[("match_id", "matches", "id")],
    )
    _table(db, "annotations").create(
        {"id": int, "match_id": str, "seq": int, "kind": str, "text": str, "by": str, "recorded_at": str},
        pk="id",
        foreign_keys=[("match_id", "matches", "id")],
    )
    _table(db, "annotations").create_index(["match_id", "seq"])
    for op in ("UPDATE", "DELETE"):
        db.execute(
            f"CREATE TRIGGER entries_append_only_{op.lower()} BEFORE {op} ON entries "
            "BEGIN SELECT RAISE(ABORT, 'log entries are append-only'); END"
        )


def _m2_tokens_and_requests(db: sqlite_utils.Database) -> None:
    """Bearer tokens of the HTTP service (sha256 hashes only) and idempotency keys of appends."""
    _table(db, "tokens").create(
        {"token_hash": str, "match_id": str, "role": str, "seat": str},
        pk="token_hash",
        foreign_keys=[("match_id", "matches", "id")],
        not_null={"match_id", "role"},
    )
    _table(db, "tokens").create_index(["match_id"])
    _table(db, "requests").create(
        {"match_id": str, "key": str, "fingerprint": str, "seq": int},
        pk=("match_id", "key"),
        foreign_keys=[("match_id", "matches", "id")],
        not_null={"fingerprint", "seq"},
    )


def _m3_annotation_chain(db: sqlite_utils.Database) -> None:
    """Annotations become append-only and chained like entries (issue 10): each gets its place in the
    match's chain (``n``), the hash of the one before and its own, and an audience. Annotations written
    before are sealed here, in the order they were written, so an audit from now on notices any edit."""
    from referee.engine.hashing import annotation_hash, annotations_root

    conn = db.conn
    for column, kind in (("n", "INTEGER"), ("prev_hash", "TEXT"), ("hash", "TEXT"), ("audience", "TEXT NOT NULL DEFAULT 'all'")):
        conn.execute(f"ALTER TABLE annotations ADD COLUMN {column} {kind}")
    rows = conn.execute("SELECT id, match_id, seq, kind, text, by FROM annotations ORDER BY match_id, id").fetchall()
    last: dict[str, tuple[int, str]] = {}
    for id_, match_id, seq, kind, text, by in rows:
        n, prev = last.get(match_id, (0, annotations_root(match_id)))
        digest = annotation_hash(prev, match_id=match_id, n=n + 1, seq=seq, kind=kind, text=text, by=by or "", audience="all")
        conn.execute("UPDATE annotations SET n = ?, prev_hash = ?, hash = ? WHERE id = ?", (n + 1, prev, digest, id_))
        last[match_id] = (n + 1, digest)
    conn.execute("CREATE UNIQUE INDEX annotations_chain ON annotations (match_id, n)")
    for op in ("UPDATE", "DELETE"):
        conn.execute(
            f"CREATE TRIGGER annotations_append_only_{op.lower()} BEFORE {op} ON annotations "
            "BEGIN SELECT RAISE(ABORT, 'annotations are append-only'); END"
        )


#: what makes an entry one that :meth:`SqliteStore.jumps` reads (the same words in its query and in the
#: partial index below, so that SQLite sees the query is covered by the index)
_JUMP = "kind IN ('undo', 'redo') AND verdict = 'accepted'"


def _m4_jumps_index(db: sqlite_utils.Database) -> None:
    """A partial index of the accepted undos and redos (issue 12): a log page's undone-by marks come
    from the jumps after it, which are then read from this index alone, bodies included (it covers
    :meth:`SqliteStore.jumps`: no row of the table is visited, and an undo's body is a few dozen bytes)."""
    db.conn.execute(f"CREATE INDEX entries_jumps ON entries (match_id, seq, kind, verdict, body) WHERE {_JUMP}")


def _m5_tournaments(db: sqlite_utils.Database) -> None:
    """Tournaments (issue 14): a row each, and their append-only, chained events."""
    conn = db.conn
    conn.execute("CREATE TABLE tournaments (id TEXT PRIMARY KEY, name TEXT NOT NULL, created_at TEXT NOT NULL)")
    conn.execute(
        "CREATE TABLE tournament_events (tournament_id TEXT NOT NULL REFERENCES tournaments(id), n INTEGER NOT NULL,"
        " kind TEXT NOT NULL, by TEXT NOT NULL, body BLOB NOT NULL, prev_hash TEXT NOT NULL, hash TEXT NOT NULL,"
        " recorded_at TEXT NOT NULL, PRIMARY KEY (tournament_id, n))"
    )
    for op in ("UPDATE", "DELETE"):
        conn.execute(
            f"CREATE TRIGGER tournament_events_append_only_{op.lower()} BEFORE {op} ON tournament_events "
            "BEGIN SELECT RAISE(ABORT, 'tournament events are append-only'); END"
        )


def _m6_tournament_tokens(db: sqlite_utils.Database) -> None:
    """Bearer tokens of tournaments (their sha256 hashes): the organiser's, the spectators', each player's."""
    db.conn.execute(
        "CREATE TABLE tournament_tokens (token_hash TEXT PRIMARY KEY, tournament_id TEXT NOT NULL"
        " REFERENCES tournaments(id), role TEXT NOT NULL, player TEXT)"
    )


def _m7_transcripts(db: sqlite_utils.Database) -> None:
    """The digest of the transcript each imported match was read from (issue 13): importing the same
    transcript again finds the match that holds it. Not evidence (no hash covers it): a lookup."""
    db.conn.execute(
        "CREATE TABLE transcripts (digest TEXT NOT NULL, match_id TEXT NOT NULL REFERENCES matches(id), "
        "PRIMARY KEY (digest, match_id))"
    )


def _m8_summaries(db: sqlite_utils.Database) -> None:
    """Each match's summary (issue 27; see MatchSummary): built for old matches when first listed."""
    db.conn.execute(
        "CREATE TABLE match_summaries (match_id TEXT PRIMARY KEY REFERENCES matches(id), game TEXT NOT NULL,"
        " rules_version TEXT NOT NULL, created_at TEXT NOT NULL, seats TEXT NOT NULL, status TEXT NOT NULL,"
        " head INTEGER NOT NULL, head_hash TEXT NOT NULL, last_activity TEXT NOT NULL, outcome BLOB, parent TEXT,"
        " fork_seq INTEGER, title TEXT, event TEXT, rnd TEXT, tbl TEXT, seed_commitment TEXT)")
    db.conn.execute("CREATE INDEX match_summaries_listed ON match_summaries (created_at, match_id)")


MIGRATIONS: tuple[Callable[[sqlite_utils.Database], None], ...] = (
    _m1_initial, _m2_tokens_and_requests, _m3_annotation_chain, _m4_jumps_index, _m5_tournaments,
    _m6_tournament_tokens, _m7_transcripts, _m8_summaries,
)
"""Numbered schema migrations; ``PRAGMA user_version`` records how many have run."""


class SqliteStore(SqliteSummaries):
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

    _MATCH_COLS = "id, game, rules_version, config, genesis_hash, created_at, parent, fork_seq, title"

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
                f"INSERT INTO matches ({self._MATCH_COLS}) VALUES (?,?,?,?,?,?,?,?,?)",
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
        row = self._one(f"SELECT {self._MATCH_COLS} FROM matches WHERE id = ?", (match_id,))
        return match_from_row(row) if row else None

    def find_matches(self, prefix: str) -> list[StoredMatch]:
        like = like_prefix(prefix)
        rows = self._all(f"SELECT {self._MATCH_COLS} FROM matches WHERE id LIKE ? ESCAPE '\\' ORDER BY id", (like,))
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
        rows = self._all(f"SELECT {self._MATCH_COLS} FROM matches ORDER BY created_at, id", ())
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
            f"SELECT seq, kind, {_BODY} FROM entries WHERE match_id = ? AND seq >= ? AND seq <= ? AND {_JUMP} "
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

    # -- tournaments ---------------------------------------------------------------------------------

    _TOURNAMENT_EVENT_COLS = "tournament_id, n, kind, by, body, prev_hash, hash, recorded_at"

    def _insert_tournament_event(self, e: StoredTournamentEvent) -> None:
        self.conn.execute(
            f"INSERT INTO tournament_events ({self._TOURNAMENT_EVENT_COLS}) VALUES (?,?,?,?,?,?,?,?)",
            (e.tournament_id, e.n, e.kind, e.by, e.body, e.prev_hash, e.hash, e.recorded_at),
        )

    def create_tournament(self, tournament: StoredTournament, events: Sequence[StoredTournamentEvent]) -> None:
        with self._lock:
            conn = self.conn
            self._begin_write()
            try:
                if conn.execute("SELECT 1 FROM tournaments WHERE id = ?", (tournament.id,)).fetchone():
                    raise StoreError.said(N_("tournament {tournament} already exists"), tournament=tournament.id)
                conn.execute("INSERT INTO tournaments (id, name, created_at) VALUES (?,?,?)",
                             (tournament.id, tournament.name, tournament.created_at))
                for i, e in enumerate(events, start=1):
                    if e.n != i or e.tournament_id != tournament.id:
                        raise StoreError.said(N_("a tournament's first events must be numbered 1, 2, ..."))
                    self._insert_tournament_event(e)
                conn.execute("COMMIT")
            except BaseException:
                conn.execute("ROLLBACK")
                raise

    def get_tournament(self, tournament_id: str) -> StoredTournament | None:
        row = self._one("SELECT id, name, created_at FROM tournaments WHERE id = ?", (tournament_id,))
        return tournament_from_row(row) if row else None

    def find_tournaments(self, prefix: str) -> list[StoredTournament]:
        like = like_prefix(prefix)
        rows = self._all("SELECT id, name, created_at FROM tournaments WHERE id LIKE ? ESCAPE '\\' ORDER BY id", (like,))
        return [tournament_from_row(r) for r in rows]

    def list_tournaments(self) -> list[StoredTournament]:
        return [tournament_from_row(r) for r in self._all("SELECT id, name, created_at FROM tournaments ORDER BY created_at, id", ())]

    def append_tournament_events(self, tournament_id: str, events: Sequence[StoredTournamentEvent],
                                 expected_n: int, matches: Sequence[StoredMatch] = (),
                                 tokens: Sequence[StoredToken] = (),
                                 summaries: Sequence[MatchSummary] = (),
                                 entries: Sequence[StoredEntry] = (),
                                 annotations: Sequence[StoredAnnotation] = (),
                                 transcripts: Sequence[tuple[str, str]] = ()) -> None:
        check_new_matches(matches, entries, annotations, transcripts, summaries)
        with self._lock:
            conn = self.conn
            self._begin_write()
            try:
                row = conn.execute(
                    "SELECT (SELECT COALESCE(MAX(n), 0) FROM tournament_events WHERE tournament_id = ?1)"
                    " FROM tournaments WHERE id = ?1", (tournament_id,),
                ).fetchone()
                if row is None:
                    raise StoreError.said(N_("no tournament {tournament}"), tournament=tournament_id)
                if row[0] != expected_n:
                    raise Conflict(tournament_id, expected_n, row[0], what="tournament event")
                for i, e in enumerate(events, start=expected_n + 1):
                    if e.n != i or e.tournament_id != tournament_id:
                        raise StoreError.said(N_("tournament events must be numbered on from {n}"), n=expected_n + 1)
                for m in matches:
                    conn.execute(f"INSERT INTO matches ({self._MATCH_COLS}) VALUES (?,?,?,?,?,?,?,?,?)",
                                 (m.id, m.game, m.rules_version, m.config, m.genesis_hash, m.created_at, m.parent,
                                  m.fork_seq, m.title))
                conn.executemany("INSERT INTO tokens (token_hash, match_id, role, seat) VALUES (?,?,?,?)",
                                 [(t.token_hash, t.match_id, t.role, t.seat) for t in tokens])
                for entry in entries:
                    self._insert(entry)
                for a in annotations:
                    self._insert_annotation(a)
                conn.executemany("INSERT INTO transcripts (digest, match_id) VALUES (?, ?)", transcripts)
                conn.executemany(PUT_SUMMARY, [summary_row(summary) for summary in summaries])
                for e in events:
                    self._insert_tournament_event(e)
                conn.execute("COMMIT")
            except sqlite3.IntegrityError as exc:
                conn.execute("ROLLBACK")
                raise StoreError.said(N_("the round's matches or tokens were refused: {reason}"), reason=str(exc)) from None
            except BaseException:
                conn.execute("ROLLBACK")
                raise

    def tournament_events(self, tournament_id: str, stop: int | None = None) -> list[StoredTournamentEvent]:
        rows = self._all(
            "SELECT tournament_id, n, kind, by, CAST(body AS BLOB), prev_hash, hash, recorded_at FROM tournament_events"
            " WHERE tournament_id = ? AND n <= ? ORDER BY n",
            (tournament_id, stop if stop is not None else 2**62),
        )
        return [StoredTournamentEvent(tournament_id=r[0], n=r[1], kind=r[2], by=r[3], body=bytes(r[4]), prev_hash=r[5],
                                      hash=r[6], recorded_at=r[7]) for r in rows]

    def add_tournament_tokens(self, tokens: Sequence[StoredTournamentToken]) -> None:
        with self._lock:
            conn = self.conn
            self._begin_write()
            try:
                for t in tokens:
                    if not conn.execute("SELECT 1 FROM tournaments WHERE id = ?", (t.tournament_id,)).fetchone():
                        raise StoreError.said(N_("no tournament {tournament}"), tournament=t.tournament_id)
                    conn.execute("INSERT INTO tournament_tokens (token_hash, tournament_id, role, player) VALUES (?,?,?,?)",
                                 (t.token_hash, t.tournament_id, t.role, t.player))
                conn.execute("COMMIT")
            except sqlite3.IntegrityError as exc:
                conn.execute("ROLLBACK")
                raise StoreError.said(N_("token refused: {reason}"), reason=str(exc)) from None
            except BaseException:
                conn.execute("ROLLBACK")
                raise

    def find_tournament_token(self, token_hash: str) -> StoredTournamentToken | None:
        row = self._one("SELECT token_hash, tournament_id, role, player FROM tournament_tokens WHERE token_hash = ?",
                        (token_hash,))
        return StoredTournamentToken(token_hash=row[0], tournament_id=row[1], role=row[2], player=row[3]) if row else None

    def tournament_tokens(self, tournament_id: str) -> list[StoredTournamentToken]:
        rows = self._all("SELECT token_hash, tournament_id, role, player FROM tournament_tokens WHERE tournament_id = ?"
                         " ORDER BY token_hash", (tournament_id,))
        return [StoredTournamentToken(token_hash=r[0], tournament_id=r[1], role=r[2], player=r[3]) for r in rows]

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
