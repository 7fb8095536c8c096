"""The shared store: one PostgreSQL database, through psycopg 3 (issue 18).

The same contract as :mod:`referee.store.sqlite`, for a hall with several server processes over one
database. Append-only is enforced by the database itself: triggers refuse UPDATE, DELETE and TRUNCATE
of ``entries`` and ``annotations``. An append is one transaction: it locks the match's row (so the
appends of one match are serialised by the database, whichever process or machine sends them), reads
the head, inserts the entry (its ``(match_id, seq)`` is the primary key), the idempotency key and the
snapshot, and commits; a stale writer gets :class:`Conflict` and nothing is written.

The schema is created and migrated when a store is opened (under an advisory lock, so that servers
starting together migrate once); ``referee_schema`` records its version. Text columns that are sorted
on use the "C" collation, so that matches are listed in the same (byte) order as on SQLite.

**Durability.** ``full`` (the default) commits with ``synchronous_commit=on``: an acknowledged entry
is in the server's write-ahead log on disk. ``normal`` uses ``synchronous_commit=off``: a crash of the
database server can lose the last acknowledged commits (the database stays consistent).

**Connections.** A store keeps a small pool of its own (:class:`_Pool`): a connection is opened when a
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
import re
import threading
import time
import weakref
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

from .base import (
    annotation_from_row,
    entry_from_row,
    like_prefix,
    match_from_row,
    tournament_from_row,
    AuditRow,
    Conflict,
    DuplicateRequest,
    IndexRow,
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
)

if TYPE_CHECKING:
    import psycopg

T = TypeVar("T")

#: what a ``--db`` value or ``$REFEREE_DB`` starts with to name a PostgreSQL database
URL_PREFIXES = ("postgresql://", "postgres://")
#: the channel each committed entry is announced on (payload: ``match_id seq``)
CHANNEL = "referee_entries"


def is_url(db: str) -> bool:
    return db.startswith(URL_PREFIXES)


def shown(url: str) -> str:
    """The URL with its password (in the authority or as a ``password=`` parameter) hidden."""
    url = re.sub(r"^([a-z]+://[^/@:]*:)[^/@]*@", r"\1***@", url)
    return re.sub(r"([?&]password=)[^&]*", r"\1***", url)


_ENTRY_COLS = "match_id, seq, kind, actor, verdict, code, body, prev_hash, hash, state_hash, recorded_at"
_AUDIT_COLS = "seq, kind, actor, verdict, code, body, prev_hash, hash, state_hash"
_MATCH_COLS = "id, game, rules_version, config, genesis_hash, created_at, parent, fork_seq, title"
_ANNOTATION_COLS = 'match_id, seq, kind, text, "by", recorded_at, n, prev_hash, hash, audience'
#: the accepted undos and redos (the words of the partial index and of the query it covers)
_JUMP = "kind IN ('undo', 'redo') AND verdict = 'accepted'"
_FAR = 2**62


_M1_INITIAL = f"""
CREATE TABLE matches (
    id text COLLATE "C" PRIMARY KEY, game text NOT NULL, rules_version text NOT NULL, config bytea NOT NULL,
    genesis_hash text NOT NULL, created_at text COLLATE "C" NOT NULL, parent text, fork_seq bigint, title text
);
CREATE TABLE entries (
    match_id text COLLATE "C" NOT NULL REFERENCES matches (id), seq bigint NOT NULL, kind text NOT NULL,
    actor text, verdict text NOT NULL, code text, body bytea NOT NULL, prev_hash text NOT NULL,
    hash text NOT NULL, state_hash text NOT NULL, recorded_at text, PRIMARY KEY (match_id, seq)
);
CREATE INDEX entries_jumps ON entries (match_id, seq) INCLUDE (kind, body) WHERE {_JUMP};
CREATE TABLE snapshots (
    match_id text COLLATE "C" NOT NULL REFERENCES matches (id), seq bigint NOT NULL, state bytea NOT NULL,
    state_hash text NOT NULL, PRIMARY KEY (match_id, seq)
);
CREATE TABLE annotations (
    id bigserial PRIMARY KEY, match_id text COLLATE "C" NOT NULL REFERENCES matches (id), seq bigint NOT NULL,
    kind text NOT NULL, text text NOT NULL, "by" text, recorded_at text, n bigint NOT NULL, prev_hash text,
    hash text, audience text NOT NULL DEFAULT 'all', UNIQUE (match_id, n)
);
CREATE INDEX annotations_seq ON annotations (match_id, seq);
CREATE TABLE tokens (
    token_hash text PRIMARY KEY, match_id text COLLATE "C" NOT NULL REFERENCES matches (id), role text NOT NULL,
    seat text
);
CREATE INDEX tokens_match ON tokens (match_id);
CREATE TABLE requests (
    match_id text COLLATE "C" NOT NULL REFERENCES matches (id), key text NOT NULL, fingerprint text NOT NULL,
    seq bigint NOT NULL, PRIMARY KEY (match_id, key)
);
CREATE FUNCTION referee_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION '% are append-only', TG_ARGV[0];
END $$;
CREATE TRIGGER entries_append_only BEFORE UPDATE OR DELETE ON entries
    FOR EACH ROW EXECUTE FUNCTION referee_append_only('log entries');
CREATE TRIGGER entries_no_truncate BEFORE TRUNCATE ON entries
    FOR EACH STATEMENT EXECUTE FUNCTION referee_append_only('log entries');
CREATE TRIGGER annotations_append_only BEFORE UPDATE OR DELETE ON annotations
    FOR EACH ROW EXECUTE FUNCTION referee_append_only('annotations');
CREATE TRIGGER annotations_no_truncate BEFORE TRUNCATE ON annotations
    FOR EACH STATEMENT EXECUTE FUNCTION referee_append_only('annotations');
CREATE FUNCTION referee_announce() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('{CHANNEL}', NEW.match_id || ' ' || NEW.seq);
    RETURN NULL;
END $$;
CREATE TRIGGER entries_announce AFTER INSERT ON entries FOR EACH ROW EXECUTE FUNCTION referee_announce();
"""

#: tournaments (issue 14): a row each, their append-only chained events, their tokens (hashes)
_M2_TOURNAMENTS = """
CREATE TABLE tournaments (id text COLLATE "C" PRIMARY KEY, name text NOT NULL, created_at text COLLATE "C" NOT NULL);
CREATE TABLE tournament_events (
    tournament_id text COLLATE "C" NOT NULL REFERENCES tournaments (id), n bigint NOT NULL, kind text NOT NULL,
    "by" text NOT NULL, body bytea NOT NULL, prev_hash text NOT NULL, hash text NOT NULL, recorded_at text NOT NULL,
    PRIMARY KEY (tournament_id, n)
);
CREATE TRIGGER tournament_events_append_only BEFORE UPDATE OR DELETE ON tournament_events
    FOR EACH ROW EXECUTE FUNCTION referee_append_only('tournament events');
CREATE TRIGGER tournament_events_no_truncate BEFORE TRUNCATE ON tournament_events
    FOR EACH STATEMENT EXECUTE FUNCTION referee_append_only('tournament events');
CREATE TABLE tournament_tokens (
    token_hash text PRIMARY KEY, tournament_id text COLLATE "C" NOT NULL REFERENCES tournaments (id),
    role text NOT NULL, player text
);
"""

#: an append in one round trip (an append is the hot path of a hall): the match's row locked, the key and
#: the head checked, the entry, its idempotency key and its snapshot written; the answer says which
_M3_APPEND_FUNCTION = """
CREATE FUNCTION referee_append(
    p_match text, p_expected bigint, p_seq bigint, p_kind text, p_actor text, p_verdict text, p_code text,
    p_body bytea, p_prev text, p_hash text, p_state_hash text, p_recorded text,
    p_key text, p_fingerprint text, p_snap_seq bigint, p_snap_state bytea, p_snap_hash text
) RETURNS TABLE (status text, head bigint) LANGUAGE plpgsql AS $$
DECLARE
    v_fork bigint;
    v_head bigint;
BEGIN
    SELECT fork_seq INTO v_fork FROM matches WHERE id = p_match FOR NO KEY UPDATE;
    IF NOT FOUND THEN
        RETURN QUERY SELECT 'no_match'::text, 0::bigint;
        RETURN;
    END IF;
    IF p_key IS NOT NULL AND EXISTS (SELECT 1 FROM requests WHERE match_id = p_match AND key = p_key) THEN
        RETURN QUERY SELECT 'duplicate'::text, 0::bigint;
        RETURN;
    END IF;
    SELECT MAX(seq) INTO v_head FROM entries WHERE match_id = p_match;
    v_head := COALESCE(v_head, v_fork, 0);
    IF v_head <> p_expected OR p_seq <> p_expected + 1 THEN
        RETURN QUERY SELECT 'conflict'::text, v_head;
        RETURN;
    END IF;
    INSERT INTO entries (match_id, seq, kind, actor, verdict, code, body, prev_hash, hash, state_hash, recorded_at)
        VALUES (p_match, p_seq, p_kind, p_actor, p_verdict, p_code, p_body, p_prev, p_hash, p_state_hash, p_recorded);
    IF p_key IS NOT NULL THEN
        INSERT INTO requests (match_id, key, fingerprint, seq) VALUES (p_match, p_key, p_fingerprint, p_seq);
    END IF;
    IF p_snap_seq IS NOT NULL THEN
        INSERT INTO snapshots (match_id, seq, state, state_hash) VALUES (p_match, p_snap_seq, p_snap_state, p_snap_hash)
            ON CONFLICT (match_id, seq) DO UPDATE SET state = EXCLUDED.state, state_hash = EXCLUDED.state_hash;
    END IF;
    RETURN QUERY SELECT 'appended'::text, p_seq;
END $$;
"""

#: the digest of the transcript each imported match was read from (issue 13; SQLite's migration 5 on the
#: scorekeeper's branch): importing the same transcript again finds the match; ``n`` keeps write order
_M4_TRANSCRIPTS = """
CREATE TABLE transcripts (
    n bigserial PRIMARY KEY, digest text NOT NULL, match_id text COLLATE "C" NOT NULL REFERENCES matches (id),
    UNIQUE (digest, match_id)
);
"""

#: numbered schema migrations (one SQL script each); ``referee_schema.version`` records how many have run
MIGRATIONS: tuple[str, ...] = (_M1_INITIAL, _M2_TOURNAMENTS, _M3_APPEND_FUNCTION, _M4_TRANSCRIPTS)

#: the advisory lock that servers starting together take to migrate one at a time
_MIGRATION_LOCK = 0x7265_6665


class PostgresStore:
    """A PostgreSQL database named by a ``postgresql://`` URL. ``durability``: ``full`` or ``normal``
    (default: ``$REFEREE_DURABILITY``, else ``full``). ``create=False`` refuses a database without the
    referee's schema instead of creating it. ``pool``: the most connections the store opens at once."""

    def __init__(self, url: str, *, durability: str | None = None, create: bool = True, pool: int = 8,
                 connect_timeout: int = 10) -> None:
        from .sqlite import durability_level

        level = durability_level(durability)
        try:
            import psycopg
        except ImportError:
            raise StoreError(
                f"{shown(url)} is a PostgreSQL database, and the PostgreSQL driver is not installed: "
                "pip install 'referee[postgres]' (psycopg 3)"
            ) from None
        self.url = url
        self.durability = level
        self._psycopg = psycopg
        options = "-c synchronous_commit=" + ("on" if level == "full" else "off")
        try:  # the URL's own options (a search_path, say) are kept
            given = psycopg.conninfo.conninfo_to_dict(url).get("options")
        except psycopg.ProgrammingError as exc:
            raise StoreError(f"{shown(url)} is not a usable PostgreSQL URL: {_first_line(exc)}") from None
        if given:
            options = f"{given} {options}"
        self._kwargs: dict[str, Any] = {"autocommit": True, "options": options, "connect_timeout": connect_timeout}
        try:
            first = psycopg.connect(url, **self._kwargs)
        except psycopg.Error as exc:
            raise StoreError(f"cannot use the PostgreSQL database {shown(url)}: {_first_line(exc)}") from None
        try:
            self._migrate(first, create)
        except BaseException as exc:
            first.close()
            if isinstance(exc, psycopg.Error):
                raise StoreError(f"cannot use the PostgreSQL database {shown(url)}: {_first_line(exc)}") from None
            raise
        kwargs = self._kwargs  # (not self: the pool must not keep the store alive)
        self.pool = _Pool(lambda: psycopg.connect(url, **kwargs), max(1, pool), first=first)
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
            raise StoreError(f"no referee database at {shown(self.url)}; create a match first (referee new ...)")
        with conn.transaction():
            conn.execute("SELECT pg_advisory_xact_lock(%s)", (_MIGRATION_LOCK,))
            version = self._version(conn)
            if version is None:
                if _exists(conn, "matches"):
                    raise StoreError(f"{shown(self.url)} holds tables that are not a referee database")
                conn.execute("CREATE TABLE referee_schema (version integer NOT NULL)")
                conn.execute("INSERT INTO referee_schema (version) VALUES (0)")
                version = 0
            if version > len(MIGRATIONS):
                raise StoreError(f"{shown(self.url)} was written by a newer referee (schema {version}); upgrade referee")
            for number in range(version, len(MIGRATIONS)):
                conn.execute(MIGRATIONS[number])  # our own constant SQL
            conn.execute("UPDATE referee_schema SET version = %s", (len(MIGRATIONS),))

    @staticmethod
    def _version(conn: psycopg.Connection[Any]) -> int | None:
        if not _exists(conn, "referee_schema"):
            return None
        row = conn.execute("SELECT version FROM referee_schema").fetchone()
        return int(row[0]) if row else 0

    def schema_version(self) -> int:
        version = self._run(self._version)
        return version or 0

    # -- running statements ---------------------------------------------------------------------------

    def _run(self, work: Callable[[psycopg.Connection[Any]], T]) -> T:
        """``work(conn)`` on a connection of the pool; tried again on a fresh connection when the one it
        had was dropped (a connection error, not a refusal by the database)."""
        psycopg = self._psycopg
        for attempt in range(3):
            try:
                with self.pool.connection() as conn:
                    return work(conn)
            except _Busy as exc:
                raise StoreError(f"the PostgreSQL database {shown(self.url)} is busy: {exc}") from None
            except psycopg.OperationalError as exc:
                if attempt == 2 or isinstance(exc, psycopg.errors.QueryCanceled):
                    raise StoreError(f"the PostgreSQL database {shown(self.url)} failed: {_first_line(exc)}") from None
                time.sleep((0.05, 0.2)[attempt])
                with contextlib.suppress(psycopg.Error):
                    self.pool.check()  # the other idle connections went with it (a restart): drop them all
            except psycopg.errors.CharacterNotInRepertoire as exc:
                raise StoreError(f"PostgreSQL cannot store this text: {_first_line(exc)}") from None
            except psycopg.errors.UntranslatableCharacter as exc:
                raise StoreError(f"PostgreSQL cannot store this text: {_first_line(exc)}") from None
            except psycopg.DataError as exc:
                raise StoreError(f"PostgreSQL refused the data: {_first_line(exc)}") from None
        raise AssertionError("unreachable")

    def _all(self, sql: str, params: Sequence[Any]) -> list[Any]:
        return self._run(lambda conn: conn.execute(sql, params).fetchall())

    def _one(self, sql: str, params: Sequence[Any]) -> Any:
        return self._run(lambda conn: conn.execute(sql, params).fetchone())

    def _pages(self, cols: str, match_id: str, start: int, stop: int | None, seq_at: int = 0) -> Iterator[Any]:
        stop_ = stop if stop is not None else _FAR
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
    ) -> None:
        for i, e in enumerate(entries, start=(match.fork_seq or 0) + 1):
            if e.seq != i or e.match_id != match.id:
                raise StoreError("initial entries must be numbered on from the match's start")
        unique = self._psycopg.errors.UniqueViolation

        def work(conn: psycopg.Connection[Any]) -> None:
            try:
                with conn.transaction():
                    conn.execute(
                        f"INSERT INTO matches ({_MATCH_COLS}) VALUES (%s,%s,%s,%s,%s,%s,%s,%s,%s)",
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
            except unique:
                raise StoreError(f"match {match.id} already exists") from None

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
                raise StoreError(f"no match {match_id}") from None
            except errors.UniqueViolation:
                raise StoreError(f"match {match_id} is already recorded with transcript {digest}") from None

        self._run(work)

    def get_match(self, match_id: str) -> StoredMatch | None:
        # a match's row never changes once written (there is no update): kept after the first read
        found = self._matches.get(match_id)
        if found is None:
            row = self._one(f"SELECT {_MATCH_COLS} FROM matches WHERE id = %s", (match_id,))
            if row is None:
                return None
            found = self._matches.setdefault(match_id, match_from_row(row))
        return found

    def find_matches(self, prefix: str) -> list[StoredMatch]:
        like = like_prefix(prefix)
        # ILIKE: like SQLite's LIKE, a typed prefix matches whatever the case of its ASCII letters
        rows = self._all(f"SELECT {_MATCH_COLS} FROM matches WHERE id ILIKE %s ORDER BY id", (like,))
        return [match_from_row(r) for r in rows]

    def list_matches(self) -> list[StoredMatch]:
        return [match_from_row(r) for r in self._all(f"SELECT {_MATCH_COLS} FROM matches ORDER BY created_at, id", ())]

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
        request: StoredRequest | None = None,
    ) -> None:
        """One statement, so one round trip and one transaction (``referee_append``, migration 3)."""
        mid = entry.match_id
        errors = self._psycopg.errors
        params = (*self._entry_row(entry)[:1], expected_seq, *self._entry_row(entry)[1:],
                  request.key if request else None, request.fingerprint if request else None,
                  snapshot.seq if snapshot else None, snapshot.state if snapshot else None,
                  snapshot.state_hash if snapshot else None)

        def work(conn: psycopg.Connection[Any]) -> tuple[str, int]:
            try:
                row = conn.execute(self._APPEND, params).fetchone()
            except errors.UniqueViolation as exc:  # a race the row lock did not cover: the same answers
                if request is not None and "requests" in str(exc):
                    raise DuplicateRequest(mid, request.key) from None
                raise Conflict(mid, expected_seq, self.head(mid)) from None
            assert row is not None
            return str(row[0]), int(row[1])

        status, head = self._run(work)
        if status == "no_match":
            raise StoreError(f"no match {mid}")
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
            f"SELECT seq, kind, body FROM entries WHERE match_id = %s AND seq >= %s AND seq <= %s AND {_JUMP}"
            " ORDER BY seq", (match_id, start, stop if stop is not None else _FAR),
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
                    raise StoreError(f"no match {a.match_id}")
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
                raise StoreError(f"no match {missing}") from None
            except errors.IntegrityError as exc:
                raise StoreError(f"token refused: {_first_line(exc)}") from None

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

    # -- tournaments ---------------------------------------------------------------------------------

    _TOURNAMENT_EVENT_COLS = 'tournament_id, n, kind, "by", body, prev_hash, hash, recorded_at'

    @staticmethod
    def _insert_tournament_events(conn: psycopg.Connection[Any], events: Sequence[StoredTournamentEvent]) -> None:
        if events:
            with conn.cursor() as cur:
                cur.executemany(
                    f"INSERT INTO tournament_events ({PostgresStore._TOURNAMENT_EVENT_COLS}) VALUES (%s,%s,%s,%s,%s,%s,%s,%s)",
                    [(e.tournament_id, e.n, e.kind, e.by, e.body, e.prev_hash, e.hash, e.recorded_at) for e in events],
                )

    def create_tournament(self, tournament: StoredTournament, events: Sequence[StoredTournamentEvent]) -> None:
        for i, e in enumerate(events, start=1):
            if e.n != i or e.tournament_id != tournament.id:
                raise StoreError("a tournament's first events must be numbered 1, 2, ...")
        unique = self._psycopg.errors.UniqueViolation

        def work(conn: psycopg.Connection[Any]) -> None:
            try:
                with conn.transaction():
                    conn.execute("INSERT INTO tournaments (id, name, created_at) VALUES (%s,%s,%s)",
                                 (tournament.id, tournament.name, tournament.created_at))
                    self._insert_tournament_events(conn, events)
            except unique:
                raise StoreError(f"tournament {tournament.id} already exists") from None

        self._run(work)


    def get_tournament(self, tournament_id: str) -> StoredTournament | None:
        row = self._one("SELECT id, name, created_at FROM tournaments WHERE id = %s", (tournament_id,))
        return tournament_from_row(row) if row else None

    def find_tournaments(self, prefix: str) -> list[StoredTournament]:
        like = like_prefix(prefix)
        rows = self._all("SELECT id, name, created_at FROM tournaments WHERE id ILIKE %s ORDER BY id", (like,))
        return [tournament_from_row(r) for r in rows]

    def list_tournaments(self) -> list[StoredTournament]:
        return [tournament_from_row(r) for r in self._all("SELECT id, name, created_at FROM tournaments ORDER BY created_at, id", ())]

    def append_tournament_events(self, tournament_id: str, events: Sequence[StoredTournamentEvent],
                                 expected_n: int, matches: Sequence[StoredMatch] = (),
                                 tokens: Sequence[StoredToken] = ()) -> None:
        for i, e in enumerate(events, start=expected_n + 1):
            if e.n != i or e.tournament_id != tournament_id:
                raise StoreError(f"tournament events must be numbered on from {expected_n + 1}")
        unique = self._psycopg.errors.UniqueViolation

        def work(conn: psycopg.Connection[Any]) -> None:
            try:
                with conn.transaction():
                    if conn.execute("SELECT 1 FROM tournaments WHERE id = %s FOR NO KEY UPDATE",
                                    (tournament_id,)).fetchone() is None:
                        raise StoreError(f"no tournament {tournament_id}")
                    row = conn.execute("SELECT COALESCE(MAX(n), 0) FROM tournament_events WHERE tournament_id = %s",
                                       (tournament_id,)).fetchone()
                    last = int(row[0]) if row else 0
                    if last != expected_n:
                        raise Conflict(tournament_id, expected_n, last, what="tournament event")
                    with conn.cursor() as cur:  # a round's matches and tokens with the record pairing them
                        cur.executemany(f"INSERT INTO matches ({_MATCH_COLS}) VALUES (%s,%s,%s,%s,%s,%s,%s,%s,%s)",
                                        [(m.id, m.game, m.rules_version, m.config, m.genesis_hash, m.created_at,
                                          m.parent, m.fork_seq, m.title) for m in matches])
                        cur.executemany("INSERT INTO tokens (token_hash, match_id, role, seat) VALUES (%s,%s,%s,%s)",
                                        [(t.token_hash, t.match_id, t.role, t.seat) for t in tokens])
                    self._insert_tournament_events(conn, events)
            except unique as exc:
                if matches or tokens:
                    raise StoreError(f"the round's matches or tokens were refused: {_first_line(exc)}") from None
                raise Conflict(tournament_id, expected_n, expected_n + 1, what="tournament event") from None

        self._run(work)

    def tournament_events(self, tournament_id: str, stop: int | None = None) -> list[StoredTournamentEvent]:
        rows = self._all(
            f"SELECT {self._TOURNAMENT_EVENT_COLS} FROM tournament_events WHERE tournament_id = %s AND n <= %s ORDER BY n",
            (tournament_id, stop if stop is not None else _FAR),
        )
        return [StoredTournamentEvent(tournament_id=r[0], n=r[1], kind=r[2], by=r[3], body=bytes(r[4]), prev_hash=r[5],
                                      hash=r[6], recorded_at=r[7]) for r in rows]

    def add_tournament_tokens(self, tokens: Sequence[StoredTournamentToken]) -> None:
        errors = self._psycopg.errors

        def work(conn: psycopg.Connection[Any]) -> None:
            try:
                with conn.transaction():
                    for t in tokens:
                        conn.execute("INSERT INTO tournament_tokens (token_hash, tournament_id, role, player)"
                                     " VALUES (%s,%s,%s,%s)", (t.token_hash, t.tournament_id, t.role, t.player))
            except errors.ForeignKeyViolation:
                raise StoreError("no such tournament") from None
            except errors.IntegrityError as exc:
                raise StoreError(f"token refused: {_first_line(exc)}") from None

        self._run(work)

    def find_tournament_token(self, token_hash: str) -> StoredTournamentToken | None:
        row = self._one("SELECT token_hash, tournament_id, role, player FROM tournament_tokens WHERE token_hash = %s",
                        (token_hash,))
        return StoredTournamentToken(token_hash=row[0], tournament_id=row[1], role=row[2], player=row[3]) if row else None

    def tournament_tokens(self, tournament_id: str) -> list[StoredTournamentToken]:
        rows = self._all("SELECT token_hash, tournament_id, role, player FROM tournament_tokens WHERE tournament_id = %s"
                         ' ORDER BY token_hash COLLATE "C"', (tournament_id,))
        return [StoredTournamentToken(token_hash=r[0], tournament_id=r[1], role=r[2], player=r[3]) for r in rows]

    # -- the live feed across processes -----------------------------------------------------------

    def listen(self, wake: Callable[[str], None]) -> Callable[[], None]:
        """Call ``wake(match_id)`` (on a thread of its own) whenever an entry of any match is committed,
        by any process on any machine (LISTEN on :data:`CHANNEL`, which a trigger notifies on each
        insert). A dropped connection is opened again (100 ms doubling to 5 s); returns what stops it.
        Notifications sent while it was away are lost: the caller still looks now and then."""
        psycopg = self._psycopg
        stop = threading.Event()

        def run() -> None:
            delay = 0.1
            while not stop.is_set():
                try:
                    with psycopg.connect(self.url, **self._kwargs) as conn:
                        conn.execute(f"LISTEN {CHANNEL}")
                        delay = 0.1
                        while not stop.is_set():
                            for note in conn.notifies(timeout=1.0):
                                wake(note.payload.rsplit(" ", 1)[0])
                except psycopg.Error:
                    stop.wait(delay)
                    delay = min(delay * 2, 5.0)

        threading.Thread(target=run, name="referee-listen", daemon=True).start()
        return stop.set

    # -- life -----------------------------------------------------------------------------------------

    def reopen(self) -> PostgresStore:
        return PostgresStore(self.url, durability=self.durability, create=False)

    def close(self) -> None:
        self._finalizer()


class _Busy(Exception):
    """Every connection the pool may open is in use, and none came back in time."""


class _Pool:
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
            raise _Busy(f"all {self._size} connections stayed in use for {self._timeout:g} s")
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


def _exists(conn: psycopg.Connection[Any], table: str) -> bool:
    """Whether the schema the store writes to has ``table``: read from the catalog's rows (with this
    statement's snapshot), not by name lookup (``to_regclass``), whose cache can still say "no such table"
    after another server's migration committed while this one waited for the migration lock."""
    row = conn.execute(
        "SELECT EXISTS (SELECT 1 FROM pg_catalog.pg_tables WHERE schemaname = current_schema() AND tablename = %s)",
        (table,),
    ).fetchone()
    return bool(row and row[0])


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__
