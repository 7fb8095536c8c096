"""The SQLite store's schema (:class:`.sqlite.SqliteStore`): its numbered migrations, built with
sqlite-utils (imported by the store only when a database needs one), and the column lists its queries
share."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import sqlite_utils
    import sqlite_utils.db

#: the columns of a match's row
MATCH_COLS = "id, game, rules_version, config, genesis_hash, created_at, parent, fork_seq, title"


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
JUMP = "kind IN ('undo', 'redo') AND verdict = 'accepted'"


def _m4_jumps_index(db: sqlite_utils.Database) -> None:
    """A partial index of the accepted undos and redos (issue 12): a log page's undone-by marks come
    from the jumps after it, which are then read from this index alone, bodies included (it covers
    :meth:`SqliteStore.jumps`: no row of the table is visited, and an undo's body is a few dozen bytes)."""
    db.conn.execute(f"CREATE INDEX entries_jumps ON entries (match_id, seq, kind, verdict, body) WHERE {JUMP}")


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
