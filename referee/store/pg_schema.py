"""The PostgreSQL store's schema: its numbered migrations, what the database itself enforces, and the
checks made when a store opens a database (whose it is, and whether the role connected could switch the
append-only triggers off).

**What the database enforces** (from migration 5 on): every table the referee writes is append-only.
Triggers refuse UPDATE, DELETE and TRUNCATE of log entries, annotations, matches, snapshots, seat and
arbiter tokens, idempotency keys, tournaments, their events and tokens, and transcript digests; nothing
the referee does changes a row once written (a token is never revoked, a snapshot never rewritten).
A trigger binds every role but the tables' owner and superusers, who may drop or disable it: run the
server as a role that owns nothing (:func:`writer_grants`), and the log cannot be rewritten through it.
What no trigger can stop, a role that may INSERT adding rows; ``referee audit`` checks every hash.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .base import SUMMARY_COLS

if TYPE_CHECKING:
    import psycopg

#: the channel each committed entry is announced on (payload: ``match_id seq``)
CHANNEL = "referee_entries"
#: the accepted undos and redos (the words of the partial index and of the query it covers)
JUMP = "kind IN ('undo', 'redo') AND verdict = 'accepted'"
#: the columns of a match's row
MATCH_COLS = "id, game, rules_version, config, genesis_hash, created_at, parent, fork_seq, title"
#: a seq (or an event's number) past any there is: the end of a range left open
FAR = 2**62


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
CREATE INDEX entries_jumps ON entries (match_id, seq) INCLUDE (kind, body) WHERE {JUMP};
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



#: every table append-only (issue 23): the rows nothing in the referee changes get the triggers the log
#: has; a snapshot is written once with its entry (the append no longer overwrites one)
_APPEND_ONLY = (("matches", "matches"), ("snapshots", "snapshots"), ("tokens", "tokens"),
                ("requests", "idempotency keys"), ("tournaments", "tournaments"),
                ("tournament_tokens", "tournament tokens"), ("transcripts", "transcript digests"))
_M5_ALL_APPEND_ONLY = "".join(
    f"""
CREATE TRIGGER {table}_append_only BEFORE UPDATE OR DELETE ON {table}
    FOR EACH ROW EXECUTE FUNCTION referee_append_only('{what}');
CREATE TRIGGER {table}_no_truncate BEFORE TRUNCATE ON {table}
    FOR EACH STATEMENT EXECUTE FUNCTION referee_append_only('{what}');"""
    for table, what in _APPEND_ONLY
) + "\n" + _M3_APPEND_FUNCTION.replace("CREATE FUNCTION", "CREATE OR REPLACE FUNCTION").replace(
    "ON CONFLICT (match_id, seq) DO UPDATE SET state = EXCLUDED.state, state_hash = EXCLUDED.state_hash",
    "ON CONFLICT (match_id, seq) DO NOTHING")
assert "DO NOTHING" in _M5_ALL_APPEND_ONLY

#: each match's summary (issue 27; SQLite's migration 8): the one table whose rows are replaced, a
#: projection of the log that the audit rebuilds and compares (no trigger; not evidence). A database
#: written before has none until the service builds them (when first listed, or by `referee db summaries`)
_M6_SUMMARIES = """
CREATE TABLE match_summaries (
    match_id text COLLATE "C" PRIMARY KEY REFERENCES matches (id), game text NOT NULL, rules_version text NOT NULL,
    created_at text COLLATE "C" NOT NULL, seats text NOT NULL, status text NOT NULL, head bigint NOT NULL,
    head_hash text NOT NULL, last_activity text NOT NULL, outcome bytea, parent text, fork_seq bigint, title text,
    event text, rnd text, tbl text, seed_commitment text
);
CREATE INDEX match_summaries_listed ON match_summaries (created_at, match_id);
"""

#: numbered schema migrations (one SQL script each); ``referee_schema.version`` records how many have run
MIGRATIONS: tuple[str, ...] = (_M1_INITIAL, _M2_TOURNAMENTS, _M3_APPEND_FUNCTION, _M4_TRANSCRIPTS, _M5_ALL_APPEND_ONLY,
                               _M6_SUMMARIES)

_SET_SUMMARY = "ON CONFLICT (match_id) DO UPDATE SET " + ", ".join(
    f"{c} = EXCLUDED.{c}" for c in SUMMARY_COLS.replace(" ", "").split(",")[1:])
#: a summary written, or replacing the match's
PUT_SUMMARY = f"INSERT INTO match_summaries ({SUMMARY_COLS}) VALUES ({', '.join(['%s'] * 17)}) {_SET_SUMMARY}"
#: an append (:func:`referee_append`) that also replaces the match's summary when the entry went in: one
#: statement, so one round trip and one transaction
APPEND_SUMMARY = (
    "WITH a AS (SELECT status, head FROM referee_append(" + ", ".join(["%s"] * 17) + ")),"
    f" s AS (INSERT INTO match_summaries ({SUMMARY_COLS}) SELECT {', '.join(['%s'] * 17)} FROM a"
    f" WHERE a.status = 'appended' {_SET_SUMMARY}) SELECT status, head FROM a"
)

#: the tables a writer role inserts into, and the two whose rows it locks (``SELECT ... FOR NO KEY UPDATE``
#: needs UPDATE on a column; the triggers refuse every UPDATE all the same)
TABLES = ("matches", "entries", "snapshots", "annotations", "tokens", "requests", "tournaments",
          "tournament_events", "tournament_tokens", "transcripts", "match_summaries")
#: the one table whose rows a writer replaces (each match's summary, a projection of its log)
REPLACED = "match_summaries"
LOCKED = ("matches", "tournaments")


def _quoted(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def writer_grants(role: str, schema: str = "public") -> list[str]:
    """The statements (run by the tables' owner) that let ``role`` play, annotate and run tournaments and
    nothing more: read and add rows, lock a match's or tournament's row, draw the ids of annotations and
    digests. It owns nothing, so it can neither drop nor disable a trigger."""
    quoted = _quoted(role)
    return [
        f"GRANT USAGE ON SCHEMA {_quoted(schema)} TO {quoted}",
        f"GRANT SELECT ON referee_schema TO {quoted}",
        f"GRANT SELECT, INSERT ON {', '.join(TABLES)} TO {quoted}",
        *(f"GRANT UPDATE (id) ON {table} TO {quoted}" for table in LOCKED),
        f"GRANT UPDATE ON {REPLACED} TO {quoted}",
        f"GRANT USAGE ON SEQUENCE annotations_id_seq, transcripts_n_seq TO {quoted}",
    ]


def tables(conn: psycopg.Connection[Any]) -> list[str]:
    """The tables, views and sequences of the schema the store writes to (read from the catalog's rows)."""
    rows = conn.execute(
        "SELECT c.relname FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace"
        " WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p', 'v', 'm', 'f', 'S')"
        ' ORDER BY c.relname COLLATE "C"'
    ).fetchall()
    return [str(r[0]) for r in rows]


def exists(conn: psycopg.Connection[Any], table: str) -> bool:
    """Whether the schema the store writes to has ``table``: read from the catalog's rows (with this
    statement's snapshot), not by name lookup (``to_regclass``), whose cache can still say "no such table"
    after another server's migration committed while this one waited for the migration lock."""
    row = conn.execute(
        "SELECT EXISTS (SELECT 1 FROM pg_catalog.pg_tables WHERE schemaname = current_schema() AND tablename = %s)",
        (table,),
    ).fetchone()
    return bool(row and row[0])


def may_alter(conn: psycopg.Connection[Any]) -> str | None:
    """Why the connected role could switch the append-only triggers off (it is a superuser, or owns the
    log's table or is a member of its owner), or None when it cannot."""
    row = conn.execute(
        "SELECT current_user, r.rolsuper, t.tableowner, pg_has_role(current_user, t.tableowner, 'USAGE')"
        " FROM pg_catalog.pg_roles r LEFT JOIN pg_catalog.pg_tables t"
        " ON t.schemaname = current_schema() AND t.tablename = 'entries' WHERE r.rolname = current_user"
    ).fetchone()
    if row is None:
        return None
    user, superuser, owner, member = row
    if superuser:
        return f"role {user} is a superuser"
    if owner is not None and member:
        return f"role {user} owns the referee's tables" if owner == user else f"role {user} is a member of {owner}, which owns the referee's tables"
    return None
