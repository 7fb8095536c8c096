"""The shared store: one PostgreSQL database, through psycopg 3 (issue 18).

The same contract as :mod:`referee.store.sqlite`, for a hall with several server processes over one
database. Every table is append-only in the database too, against any role but the tables' owner and
superusers (triggers; see :mod:`.pg_schema` for exactly what they hold). An append is one transaction:
it locks the match's row (so the appends of one match are serialised by the database, whichever
process or machine sends them), reads the head, inserts the entry (its ``(match_id, seq)`` is the primary key), the idempotency key and the
snapshot, and commits; a stale writer gets :class:`Conflict` and nothing is written.

The schema is created and migrated when a store is opened (under an advisory lock, so that servers
starting together migrate once); ``referee_schema`` records its version. A database (schema) that holds
tables the referee did not create is refused unless adopted. Text columns that are sorted
on use the "C" collation, so that matches are listed in the same (byte) order as on SQLite.

**Durability.** ``full`` (the default) commits with ``synchronous_commit=on``: an acknowledged entry
is in the server's write-ahead log on disk. ``normal`` uses ``synchronous_commit=off``: a crash of the
database server can lose the last acknowledged commits (the database stays consistent).

**Connections.** A store keeps a small pool of its own (:class:`.pg_pool.Pool`): a connection is opened when a
statement needs one and none is idle, in the thread that needs it, and kept for the next statement. The
connection the schema was checked on is the pool's first, so a command of the CLI opens one connection
in all. A dropped connection is tried again (three times, 50 ms then 200 ms apart) on a fresh one (the
pool's idle connections are checked first, so that a restarted server costs one retry). A retried append can never write an entry twice: its seq is checked against the head and is the
primary key, and an idempotency key is unique in its match (a retry of a committed append gets
:class:`Conflict`, or :class:`DuplicateRequest` when it carries a key, which the service answers with
the first reply).
"""

from __future__ import annotations

import contextlib
import os
import re
import threading
import time
import weakref
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

from .pg_summaries import PostgresSummaries
from .pg_pool import Busy, Pool, first_line
from .pg_schema import (APPEND_SUMMARY, CHANNEL, FAR, JUMP, MATCH_COLS, MIGRATIONS, PUT_SUMMARY, exists, may_alter, tables,
                        writer_grants)
from .pg_tournaments import PostgresTournaments
from .base import (
    N_,
    annotation_from_row,
    entry_from_row,
    like_prefix,
    match_from_row,
    summary_row,
    AuditRow,
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

__all__ = ["CHANNEL", "MIGRATIONS", "PostgresStore", "is_url", "shown"]

if TYPE_CHECKING:
    import psycopg

T = TypeVar("T")

#: what a ``--db`` value or ``$REFEREE_DB`` starts with to name a PostgreSQL database
URL_PREFIXES = ("postgresql://", "postgres://")
#: how long a statement may run, and wait for a lock, before the database gives up on it (seconds;
#: ``$REFEREE_PG_STATEMENT_TIMEOUT``, ``$REFEREE_PG_LOCK_TIMEOUT``; 0: no limit): the request then answers
#: "store unavailable, retry" instead of holding a worker thread (and a connection) for as long as a lock lasts
STATEMENT_TIMEOUT_ENV, LOCK_TIMEOUT_ENV = "REFEREE_PG_STATEMENT_TIMEOUT", "REFEREE_PG_LOCK_TIMEOUT"
STATEMENT_TIMEOUT, LOCK_TIMEOUT = 30.0, 5.0
#: set to 1 to let the referee add its tables to a database (schema) that already holds others
ADOPT_ENV = "REFEREE_PG_ADOPT"


def is_url(db: str) -> bool:
    return db.startswith(URL_PREFIXES)


def shown(url: str) -> str:
    """The URL with its password (in the authority or as a ``password=`` parameter) hidden."""
    url = re.sub(r"^([a-z]+://[^/@:]*:)[^/@]*@", r"\1***@", url)
    return re.sub(r"([?&]password=)[^&]*", r"\1***", url)


_ENTRY_COLS = "match_id, seq, kind, actor, verdict, code, body, prev_hash, hash, state_hash, recorded_at"
_AUDIT_COLS = "seq, kind, actor, verdict, code, body, prev_hash, hash, state_hash"
_ANNOTATION_COLS = 'match_id, seq, kind, text, "by", recorded_at, n, prev_hash, hash, audience'


#: the advisory lock that servers starting together take to migrate one at a time
_MIGRATION_LOCK = 0x7265_6665


class PostgresStore(PostgresSummaries, PostgresTournaments):
    """A PostgreSQL database named by a ``postgresql://`` URL. ``durability``: ``full`` or ``normal``
    (default: ``$REFEREE_DURABILITY``, else ``full``). ``create=False`` refuses a database without the
    referee's schema instead of creating it; a database (schema) without it that holds other tables is
    refused unless ``adopt`` (default: ``$REFEREE_PG_ADOPT`` is 1). ``pool``: the most connections the
    store opens at once. ``statement_timeout``, ``lock_timeout``: seconds (see :data:`STATEMENT_TIMEOUT`)."""

    def __init__(self, url: str, *, durability: str | None = None, create: bool = True, pool: int = 8,
                 connect_timeout: int = 10, adopt: bool | None = None, statement_timeout: float | None = None,
                 lock_timeout: float | None = None) -> None:
        from .sqlite import durability_level

        level = durability_level(durability)
        statement = _seconds(STATEMENT_TIMEOUT_ENV, statement_timeout, STATEMENT_TIMEOUT)
        lock = _seconds(LOCK_TIMEOUT_ENV, lock_timeout, LOCK_TIMEOUT)
        self.adopt = os.environ.get(ADOPT_ENV, "") == "1" if adopt is None else adopt
        try:
            import psycopg
        except ImportError:
            raise StoreError.said(N_("{database} is a PostgreSQL database, and the PostgreSQL driver is not "
                                     "installed: pip install 'referee[postgres]' (psycopg 3)"),
                                  database=shown(url)) from None
        self.url = url
        self.durability = level
        self._psycopg = psycopg
        # the URL's own options (a search_path, say) are kept, and win over the timeouts' defaults
        options = f"-c statement_timeout={round(statement * 1000)} -c lock_timeout={round(lock * 1000)}"
        try:
            given = psycopg.conninfo.conninfo_to_dict(url).get("options")
        except psycopg.ProgrammingError as exc:
            raise StoreError.said(N_("{database} is not a usable PostgreSQL URL: {reason}"),
                                  database=shown(url), reason=first_line(exc)) from None
        if given:
            options = f"{options} {given}"
        options += " -c synchronous_commit=" + ("on" if level == "full" else "off")
        self._kwargs: dict[str, Any] = {"autocommit": True, "options": options, "connect_timeout": connect_timeout}
        try:
            first = psycopg.connect(url, **self._kwargs)
        except psycopg.OperationalError as exc:
            raise StoreUnavailable.said(N_("cannot use the PostgreSQL database {database}: {reason}"),
                                        database=shown(url), reason=first_line(exc)) from None
        except psycopg.Error as exc:
            raise StoreError.said(N_("cannot use the PostgreSQL database {database}: {reason}"),
                                  database=shown(url), reason=first_line(exc)) from None
        try:
            self._migrate(first, create)
        except BaseException as exc:
            first.close()
            if isinstance(exc, psycopg.errors.InsufficientPrivilege):
                raise StoreError.said(N_("cannot migrate the PostgreSQL database {database} to schema {schema}: "
                                         "{reason}; run `referee db migrate` as the role that owns its tables"),
                                      database=shown(url), schema=len(MIGRATIONS), reason=first_line(exc)) from None
            if isinstance(exc, psycopg.OperationalError):
                raise StoreUnavailable.said(N_("cannot use the PostgreSQL database {database}: {reason}"),
                                            database=shown(url), reason=first_line(exc)) from None
            if isinstance(exc, psycopg.Error):
                raise StoreError.said(N_("cannot use the PostgreSQL database {database}: {reason}"),
                                      database=shown(url), reason=first_line(exc)) from None
            raise
        kwargs = self._kwargs  # (not self: the pool must not keep the store alive)
        self.pool = Pool(lambda: psycopg.connect(url, **kwargs), max(1, pool), first=first)
        # closed with the store, or when it is collected, or at exit
        self._finalizer = weakref.finalize(self, self.pool.close)
        #: match rows read so far (they never change)
        self._matches: dict[str, StoredMatch] = {}

    # -- schema ---------------------------------------------------------------------------------------

    def _migrate(self, conn: psycopg.Connection[Any], create: bool) -> None:
        version = self._version(conn)
        if version is not None and version == len(MIGRATIONS):
            return
        if version is None and not create:
            raise StoreError.said(N_("no referee database at {database}; create a match first (referee new ...)"),
                                  database=shown(self.url))
        with conn.transaction():
            conn.execute("SELECT pg_advisory_xact_lock(%s)", (_MIGRATION_LOCK,))
            version = self._version(conn)
            if version is None:
                others = tables(conn)
                if "matches" in others:
                    raise StoreError.said(N_("{database} holds tables that are not a referee database"),
                                          database=shown(self.url))
                if others and not self.adopt:
                    listed = ", ".join(others[:5]) + (f" and {len(others) - 5} more" if len(others) > 5 else "")
                    raise StoreError.said(N_("{database} is not a referee database and is not empty (it holds "
                                             "{tables}); the referee creates its tables only in an empty database or "
                                             "schema: name one (e.g. ?options=-csearch_path%3Dreferee for a schema of"
                                             " its own), or let it add them beside the tables there "
                                             "(--adopt-database, or {variable}=1)"),
                                          database=shown(self.url), tables=listed, variable=ADOPT_ENV)
                conn.execute("CREATE TABLE referee_schema (version integer NOT NULL)")
                conn.execute("INSERT INTO referee_schema (version) VALUES (0)")
                version = 0
            if version > len(MIGRATIONS):
                raise StoreError.said(N_("{database} was written by a newer referee (schema {version}); upgrade "
                                         "referee"), database=shown(self.url), version=version)
            for number in range(version, len(MIGRATIONS)):
                conn.execute(MIGRATIONS[number])  # our own constant SQL
            conn.execute("UPDATE referee_schema SET version = %s", (len(MIGRATIONS),))

    @staticmethod
    def _version(conn: psycopg.Connection[Any]) -> int | None:
        if not exists(conn, "referee_schema"):
            return None
        row = conn.execute("SELECT version FROM referee_schema").fetchone()
        return int(row[0]) if row else 0

    def schema_version(self) -> int:
        version = self._run(self._version)
        return version or 0

    def grant_writer(self, role: str) -> int:
        """Let ``role`` read and add rows, and nothing more (:func:`.pg_schema.writer_grants`, in the store's
        schema; run as the tables' owner). Returns how many statements it ran."""

        def work(conn: psycopg.Connection[Any]) -> int:
            with conn.transaction():
                row = conn.execute("SELECT current_schema()").fetchone()
                statements = writer_grants(role, str(row[0]) if row else "public")
                for statement in statements:
                    conn.execute(statement)  # (the role's name is quoted as an identifier)
            return len(statements)

        return self._run(work)

    def may_alter(self) -> str | None:
        """Why the role connected could switch the append-only triggers off, or None (see :mod:`.pg_schema`)."""
        return self._run(may_alter)

    # -- running statements ---------------------------------------------------------------------------

    def _run(self, work: Callable[[psycopg.Connection[Any]], T]) -> T:
        """``work(conn)`` on a connection of the pool; tried again on a fresh connection when the one it
        had was dropped (a connection error, not a refusal by the database). A database that cannot be
        reached, or a statement or lock wait that timed out, raises :class:`StoreUnavailable`."""
        psycopg = self._psycopg
        for attempt in range(3):
            try:
                with self.pool.connection() as conn:
                    return work(conn)
            except Busy as exc:
                raise StoreUnavailable.said(N_("the PostgreSQL database {database} is busy: {reason}"),
                                            database=shown(self.url), reason=str(exc)) from None
            except psycopg.OperationalError as exc:
                state = exc.sqlstate or ""
                if attempt == 2 or not (state == "" or state.startswith(("08", "57P"))):  # not a lost connection
                    said = {"57014": N_("the PostgreSQL database {database} is a statement timed out: {reason}"),
                            "55P03": N_("the PostgreSQL database {database} is a lock wait timed out: {reason}")}.get(
                        state, N_("the PostgreSQL database {database} is unavailable: {reason}"))
                    raise StoreUnavailable.said(said, database=shown(self.url), reason=first_line(exc)) from None
                time.sleep((0.05, 0.2)[attempt])
                with contextlib.suppress(psycopg.Error):
                    self.pool.check()  # the other idle connections went with it (a restart): drop them all
            except psycopg.errors.CharacterNotInRepertoire as exc:
                raise StoreError.said(N_("PostgreSQL cannot store this text: {reason}"), reason=first_line(exc)) from None
            except psycopg.errors.UntranslatableCharacter as exc:
                raise StoreError.said(N_("PostgreSQL cannot store this text: {reason}"), reason=first_line(exc)) from None
            except psycopg.DataError as exc:
                raise StoreError.said(N_("PostgreSQL refused the data: {reason}"), reason=first_line(exc)) from None
            except psycopg.InterfaceError as exc:  # a connection closed under it
                if attempt == 2:
                    raise StoreUnavailable.said(N_("the PostgreSQL database {database} is unavailable: {reason}"),
                                                database=shown(self.url), reason=first_line(exc)) from None
            except psycopg.Error as exc:
                raise StoreError.said(N_("the PostgreSQL database {database} refused: {reason}"),
                                      database=shown(self.url), reason=first_line(exc)) from None
        raise AssertionError("unreachable")

    def _all(self, sql: str, params: Sequence[Any]) -> list[Any]:
        return self._run(lambda conn: conn.execute(sql, params).fetchall())

    def _one(self, sql: str, params: Sequence[Any]) -> Any:
        return self._run(lambda conn: conn.execute(sql, params).fetchone())

    def _pages(self, cols: str, match_id: str, start: int, stop: int | None, seq_at: int = 0) -> Iterator[Any]:
        stop_ = stop if stop is not None else FAR
        low = start
        sql = f"SELECT {cols} FROM entries WHERE match_id = %s AND seq >= %s AND seq <= %s ORDER BY seq LIMIT 2000"
        while low <= stop_:
            rows = self._all(sql, (match_id, low, stop_))
            yield from rows
            if len(rows) < 2000:
                return
            low = rows[-1][seq_at] + 1

    # -- matches --------------------------------------------------------------------------------------


    def create_match(
        self, match: StoredMatch, entries: Sequence[StoredEntry] = (),
        annotations: Sequence[StoredAnnotation] = (), transcript: str | None = None,
        summary: MatchSummary | None = None,
    ) -> None:
        for i, e in enumerate(entries, start=(match.fork_seq or 0) + 1):
            if e.seq != i or e.match_id != match.id:
                raise StoreError.said(N_("initial entries must be numbered on from the match's start"))
        _same_match(summary, match.id)
        unique = self._psycopg.errors.UniqueViolation

        def work(conn: psycopg.Connection[Any]) -> None:
            try:
                with conn.transaction():
                    conn.execute(
                        f"INSERT INTO matches ({MATCH_COLS}) VALUES (%s,%s,%s,%s,%s,%s,%s,%s,%s)",
                        (match.id, match.game, match.rules_version, match.config, match.genesis_hash,
                         match.created_at, match.parent, match.fork_seq, match.title),
                    )
                    if entries:
                        with conn.cursor() as cur:
                            cur.executemany(self._INSERT_ENTRY, [self._entry_row(e) for e in entries])
                    for a in annotations:
                        self._insert_annotation(conn, a)
                    if transcript is not None:
                        conn.execute("INSERT INTO transcripts (digest, match_id) VALUES (%s, %s)", (transcript, match.id))
                    if summary is not None:
                        conn.execute(PUT_SUMMARY, summary_row(summary))
            except unique:
                raise StoreError.said(N_("match {match} already exists"), match=match.id) from None

        self._run(work)

    def find_transcript(self, digest: str) -> list[str]:
        """The ids of the matches imported from a transcript with this digest, in the order they were written."""
        return [r[0] for r in self._all("SELECT match_id FROM transcripts WHERE digest = %s ORDER BY n", (digest,))]

    def transcripts(self) -> list[tuple[str, str]]:
        return [(r[0], r[1]) for r in self._all('SELECT digest, match_id FROM transcripts ORDER BY digest COLLATE "C", n', ())]

    def add_transcript(self, digest: str, match_id: str) -> None:
        errors = self._psycopg.errors

        def work(conn: psycopg.Connection[Any]) -> None:
            try:
                conn.execute("INSERT INTO transcripts (digest, match_id) VALUES (%s, %s)", (digest, match_id))
            except errors.ForeignKeyViolation:
                raise StoreError.said(N_("no match {match}"), match=match_id) from None
            except errors.UniqueViolation:
                raise StoreError.said(N_("match {match} is already recorded with transcript {digest}"),
                                      match=match_id, digest=digest) from None

        self._run(work)

    def get_match(self, match_id: str) -> StoredMatch | None:
        # a match's row never changes once written (there is no update): kept after the first read
        found = self._matches.get(match_id)
        if found is None:
            row = self._one(f"SELECT {MATCH_COLS} FROM matches WHERE id = %s", (match_id,))
            if row is None:
                return None
            found = self._matches.setdefault(match_id, match_from_row(row))
        return found

    def find_matches(self, prefix: str) -> list[StoredMatch]:
        like = like_prefix(prefix)
        # ILIKE: like SQLite's LIKE, a typed prefix matches whatever the case of its ASCII letters
        rows = self._all(f"SELECT {MATCH_COLS} FROM matches WHERE id ILIKE %s ORDER BY id", (like,))
        return [match_from_row(r) for r in rows]

    def list_matches(self) -> list[StoredMatch]:
        return [match_from_row(r) for r in self._all(f"SELECT {MATCH_COLS} FROM matches ORDER BY created_at, id", ())]

    # -- entries --------------------------------------------------------------------------------------

    _INSERT_ENTRY = f"INSERT INTO entries ({_ENTRY_COLS}) VALUES (%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s)"

    @staticmethod
    def _entry_row(e: StoredEntry) -> tuple[Any, ...]:
        return (e.match_id, e.seq, e.kind, e.actor, e.verdict, e.code, e.body, e.prev_hash, e.hash,
                e.state_hash, e.recorded_at)


    def head(self, match_id: str) -> int:
        row = self._one(
            "SELECT COALESCE((SELECT MAX(seq) FROM entries WHERE match_id = %s),"
            " (SELECT fork_seq FROM matches WHERE id = %s), 0)", (match_id, match_id),
        )
        return int(row[0])

    def last_entry(self, match_id: str) -> StoredEntry | None:
        row = self._one(f"SELECT {_ENTRY_COLS} FROM entries WHERE match_id = %s ORDER BY seq DESC LIMIT 1", (match_id,))
        return entry_from_row(row) if row else None

    _APPEND = "SELECT status, head FROM referee_append(" + ", ".join(["%s"] * 17) + ")"
    def append(
        self, entry: StoredEntry, expected_seq: int, snapshot: StoredSnapshot | None = None,
        request: StoredRequest | None = None, summary: MatchSummary | None = None,
    ) -> None:
        """One statement, so one round trip and one transaction (``referee_append``, migration 3; with a
        summary, a statement that also replaces the match's summary when the entry went in)."""
        mid = entry.match_id
        _same_match(summary, mid)
        errors = self._psycopg.errors
        params = (*self._entry_row(entry)[:1], expected_seq, *self._entry_row(entry)[1:],
                  request.key if request else None, request.fingerprint if request else None,
                  snapshot.seq if snapshot else None, snapshot.state if snapshot else None,
                  snapshot.state_hash if snapshot else None)
        sql = self._APPEND
        if summary is not None:
            sql, params = APPEND_SUMMARY, (*params, *summary_row(summary))

        def work(conn: psycopg.Connection[Any]) -> tuple[str, int]:
            try:
                row = conn.execute(sql, params).fetchone()
            except errors.UniqueViolation as exc:  # a race the row lock did not cover: the same answers
                if request is not None and "requests" in str(exc):
                    raise DuplicateRequest(mid, request.key) from None
                raise Conflict(mid, expected_seq, self.head(mid)) from None
            assert row is not None
            return str(row[0]), int(row[1])

        status, head = self._run(work)
        if status == "no_match":
            raise StoreError.said(N_("no match {match}"), match=mid)
        if status == "duplicate":
            raise DuplicateRequest(mid, request.key if request else "")
        if status == "conflict":
            raise Conflict(mid, expected_seq, head)

    def entries(self, match_id: str, start: int = 1, stop: int | None = None) -> Iterator[StoredEntry]:
        return map(entry_from_row, self._pages(_ENTRY_COLS, match_id, start, stop, seq_at=1))

    def bodies(self, match_id: str, start: int = 1, stop: int | None = None) -> Iterator[tuple[int, bytes]]:
        return self._pages("seq, body", match_id, start, stop)

    def audit_rows(self, match_id: str, start: int = 1, stop: int | None = None) -> Iterator[AuditRow]:
        return self._pages(_AUDIT_COLS, match_id, start, stop)

    def index(self, match_id: str, start: int = 1, stop: int | None = None) -> Iterator[IndexRow]:
        return self._pages(
            "seq, kind, actor, verdict, CASE WHEN kind IN ('undo', 'redo') OR verdict = 'held' THEN body END",
            match_id, start, stop,
        )

    def jumps(self, match_id: str, start: int = 1, stop: int | None = None) -> Iterator[tuple[int, str, bytes]]:
        rows = self._all(
            f"SELECT seq, kind, body FROM entries WHERE match_id = %s AND seq >= %s AND seq <= %s AND {JUMP}"
            " ORDER BY seq", (match_id, start, stop if stop is not None else FAR),
        )
        return iter(rows)

    def snapshot_at_or_before(self, match_id: str, seq: int) -> StoredSnapshot | None:
        row = self._one(
            "SELECT match_id, seq, state, state_hash FROM snapshots WHERE match_id = %s AND seq <= %s"
            " ORDER BY seq DESC LIMIT 1", (match_id, seq),
        )
        if not row:
            return None
        return StoredSnapshot(match_id=row[0], seq=row[1], state=bytes(row[2]), state_hash=row[3])

    # -- annotations ----------------------------------------------------------------------------------

    @staticmethod
    def _insert_annotation(conn: psycopg.Connection[Any], a: StoredAnnotation) -> None:
        conn.execute(
            f"INSERT INTO annotations ({_ANNOTATION_COLS}) VALUES (%s,%s,%s,%s,%s,%s,%s,%s,%s,%s)",
            (a.match_id, a.seq, a.kind, a.text, a.by, a.recorded_at, a.n, a.prev_hash, a.hash, a.audience),
        )

    def add_annotation(self, annotation: StoredAnnotation) -> None:
        a = annotation

        def work(conn: psycopg.Connection[Any]) -> None:
            with conn.transaction():
                if conn.execute("SELECT 1 FROM matches WHERE id = %s FOR NO KEY UPDATE", (a.match_id,)).fetchone() is None:
                    raise StoreError.said(N_("no match {match}"), match=a.match_id)
                row = conn.execute("SELECT n, hash FROM annotations WHERE match_id = %s ORDER BY n DESC LIMIT 1",
                                   (a.match_id,)).fetchone()
                count, last = (row[0] or 0, row[1]) if row else (0, None)
                if a.n != count + 1 or (last is not None and a.prev_hash != last):
                    raise Conflict(a.match_id, a.n - 1, count, what="annotation")
                self._insert_annotation(conn, a)

        self._run(work)

    def annotations(self, match_id: str) -> list[StoredAnnotation]:
        rows = self._all(f"SELECT {_ANNOTATION_COLS} FROM annotations WHERE match_id = %s ORDER BY n, id", (match_id,))
        return [annotation_from_row(r) for r in rows]

    def annotations_on(self, match_id: str, start: int, stop: int) -> list[StoredAnnotation]:
        rows = self._all(
            f"SELECT {_ANNOTATION_COLS} FROM annotations WHERE match_id = %s AND seq >= %s AND seq <= %s ORDER BY n, id",
            (match_id, start, stop),
        )
        return [annotation_from_row(r) for r in rows]

    # -- tokens and idempotency keys ------------------------------------------------------------------

    def add_tokens(self, tokens: Sequence[StoredToken]) -> None:
        errors = self._psycopg.errors

        def work(conn: psycopg.Connection[Any]) -> None:
            try:
                with conn.transaction():
                    for t in tokens:
                        conn.execute("INSERT INTO tokens (token_hash, match_id, role, seat) VALUES (%s,%s,%s,%s)",
                                     (t.token_hash, t.match_id, t.role, t.seat))
            except errors.ForeignKeyViolation:
                missing = next(t.match_id for t in tokens if self.get_match(t.match_id) is None)
                raise StoreError.said(N_("no match {match}"), match=missing) from None
            except errors.IntegrityError as exc:
                raise StoreError.said(N_("token refused: {reason}"), reason=first_line(exc)) from None

        self._run(work)

    def find_token(self, token_hash: str) -> StoredToken | None:
        row = self._one("SELECT token_hash, match_id, role, seat FROM tokens WHERE token_hash = %s", (token_hash,))
        return StoredToken(token_hash=row[0], match_id=row[1], role=row[2], seat=row[3]) if row else None

    def find_request(self, match_id: str, key: str) -> StoredRequest | None:
        row = self._one("SELECT match_id, key, fingerprint, seq FROM requests WHERE match_id = %s AND key = %s",
                        (match_id, key))
        return StoredRequest(match_id=row[0], key=row[1], fingerprint=row[2], seq=row[3]) if row else None

    def snapshots(self, match_id: str) -> list[StoredSnapshot]:
        rows = self._all("SELECT match_id, seq, state, state_hash FROM snapshots WHERE match_id = %s ORDER BY seq",
                         (match_id,))
        return [StoredSnapshot(match_id=r[0], seq=r[1], state=bytes(r[2]), state_hash=r[3]) for r in rows]

    def tokens(self, match_id: str) -> list[StoredToken]:
        rows = self._all("SELECT token_hash, match_id, role, seat FROM tokens WHERE match_id = %s"
                         ' ORDER BY token_hash COLLATE "C"', (match_id,))
        return [StoredToken(token_hash=r[0], match_id=r[1], role=r[2], seat=r[3]) for r in rows]

    def requests(self, match_id: str) -> list[StoredRequest]:
        rows = self._all('SELECT match_id, key, fingerprint, seq FROM requests WHERE match_id = %s ORDER BY seq, key COLLATE "C"',
                         (match_id,))
        return [StoredRequest(match_id=r[0], key=r[1], fingerprint=r[2], seq=r[3]) for r in rows]


    @property
    def notifier(self) -> Notifier:
        return self  # it announces appends itself (:meth:`listen`)

    def listen(self, wake: Callable[[str], None], resumed: Callable[[], None] | None = None) -> Callable[[], None]:
        """Call ``wake(match_id)`` (on a thread of its own) whenever an entry of any match is committed,
        by any process on any machine (LISTEN on :data:`CHANNEL`, which a trigger notifies on each
        insert). A dropped connection is opened again (100 ms doubling to 1 s); returns what stops it.
        Notifications sent while it was away are lost: ``resumed()`` is called each time it listens again
        after a drop, so that the caller looks at once for what it missed."""
        psycopg = self._psycopg
        stop = threading.Event()

        def run() -> None:
            delay, dropped = 0.1, False
            while not stop.is_set():
                try:
                    with psycopg.connect(self.url, **self._kwargs) as conn:
                        conn.execute(f"LISTEN {CHANNEL}")
                        delay = 0.1
                        if dropped and resumed is not None:
                            resumed()
                        dropped = True
                        while not stop.is_set():
                            for note in conn.notifies(timeout=1.0):
                                wake(note.payload.rsplit(" ", 1)[0])
                except psycopg.Error:
                    dropped = True
                    stop.wait(delay)
                    delay = min(delay * 2, 1.0)

        threading.Thread(target=run, name="referee-listen", daemon=True).start()
        return stop.set

    # -- life -----------------------------------------------------------------------------------------

    def reopen(self) -> PostgresStore:
        return PostgresStore(self.url, durability=self.durability, create=False)

    def close(self) -> None:
        self._finalizer()


def _same_match(summary: MatchSummary | None, match_id: str) -> None:
    if summary is not None and summary.match_id != match_id:
        raise StoreError.said(N_("a summary of match {summary_match} cannot be written with match {match}"),
                              summary_match=summary.match_id, match=match_id)


def _seconds(env: str, given: float | None, default: float) -> float:
    """A timeout in seconds: ``given``, else ``$env`` (a number), else ``default``; 0 is no limit."""
    if given is None:
        text = os.environ.get(env, "").strip()
        if not text:
            return default
        try:
            value = float(text)
        except ValueError:
            value = -1.0
        if not 0 <= value <= 86_400:  # (NaN too)
            raise StoreError.said(N_("{env} must be a number of seconds from 0 (no limit) to 86400, not {text}"),
                                  env=env, text=repr(text))
        return value
    if not 0 <= given <= 86_400:
        raise StoreError.said(N_("a timeout must be from 0 (no limit) to 86400 seconds, not {given}"), given=repr(given))
    return given
