"""What PostgreSQL adds to the store contract (the contract suites, tests/test_store_<recorder>.py,
run on it too): the database itself refuses edits of the log, the schema is versioned, an unreachable
server is named with its password hidden, the CLI selects it by URL, and a match's hashes are
byte-identical on both backends."""

from __future__ import annotations

import time

import pytest

from referee.service import Referee
from referee.store import StoreError, open_store
from referee.store.postgres import MIGRATIONS, PostgresStore, shown
from referee.store.sqlite import SqliteStore
from support.pile import PILE
from support.store_contract import a_match, a_note, an_entry


@pytest.fixture
def pg(pg_url):
    s = PostgresStore(pg_url)
    yield s
    s.close()


@pytest.mark.parametrize("table", ["entries", "annotations"])
@pytest.mark.parametrize("sql", ["UPDATE {t} SET seq = seq + 1", "DELETE FROM {t}", "TRUNCATE {t} CASCADE"])
def test_the_database_refuses_to_edit_the_log(pg, pg_url, table, sql):
    import psycopg

    pg.create_match(a_match())
    pg.append(an_entry(1), expected_seq=0)
    pg.add_annotation(a_note(1, "root", "h1"))
    with psycopg.connect(pg_url, autocommit=True) as conn:
        with pytest.raises(psycopg.errors.RaiseException, match="append-only"):
            conn.execute(sql.format(t=table))
    assert [e.seq for e in pg.entries("m1")] == [1] and len(pg.annotations("m1")) == 1


def test_the_schema_version_is_recorded_and_a_newer_one_refused(pg, pg_url):
    import psycopg

    assert pg.schema_version() == len(MIGRATIONS)
    with psycopg.connect(pg_url, autocommit=True) as conn:
        conn.execute("UPDATE referee_schema SET version = version + 1")
    with pytest.raises(StoreError, match=r"newer referee \(schema"):
        PostgresStore(pg_url)


def test_a_database_of_other_tables_is_refused_and_left_alone(pg_server):
    import psycopg

    url = pg_server.fresh(empty=True)
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("CREATE TABLE matches (x int)")
    with pytest.raises(StoreError, match="not a referee database"):
        PostgresStore(url)
    with psycopg.connect(url, autocommit=True) as conn:
        assert conn.execute("SELECT to_regclass('referee_schema')").fetchone()[0] is None


def test_a_read_only_open_does_not_create_the_schema(pg_server):
    url = pg_server.fresh(empty=True)
    with pytest.raises(StoreError, match="no referee database"):
        open_store(url, create=False)
    open_store(url).close()
    open_store(url, create=False).close()


def test_an_unreachable_server_is_named_with_its_password_hidden(pg_server):  # (the driver is needed)
    url = "postgresql://hall:s3cret@127.0.0.1:1/referee"
    with pytest.raises(StoreError) as info:
        PostgresStore(url, connect_timeout=2)
    assert "postgresql://hall:***@127.0.0.1:1/referee" in str(info.value)
    assert "s3cret" not in str(info.value)
    assert shown("postgres://u@h/db?password=pw&sslmode=require") == "postgres://u@h/db?password=***&sslmode=require"


def test_the_cli_selects_postgresql_by_url(cli, pg_url, monkeypatch):
    monkeypatch.setenv("REFEREE_DB", pg_url)
    made = cli("new", "by_all_means", "--players", "alice,bob", "--cards", "spec")
    assert made.code == 0, made.err
    mid = made.last_line
    assert cli("play", mid, "alice", "draw_opening_hand", "cards=TR1,TR2,AG1,PL2").code == 0
    assert [m["id"] for m in cli("matches", "--json").json] == [mid]
    audit = cli("audit", "--all", "--json")
    assert audit.code == 0, audit.err
    bad = cli("matches", "--db", "postgresql://hall:s3cret@127.0.0.1:1/referee")
    assert bad.code != 0 and "127.0.0.1:1" in bad.err and "s3cret" not in bad.out + bad.err


def _play(store):
    """The same match, with a fixed id and clock, on ``store``: accepted and rejected intents, an undo,
    a snapshot every two entries and an annotation."""
    r = Referee(store, games=[PILE], clock=lambda: "2026-01-01T00:00:00Z", snapshot_every=2)
    game, config = r.build_config("pile", ["alice", "bob"], options={"stones": "15"}, seed=11)
    m = r.create_match(game, config, match_id="same-match-on-both")
    r.submit(m.id, "alice", "start")
    for i in range(6):
        seat = r.show(m.id).state["active"]
        r.submit(m.id, seat, f"take {1 + i % 2}")
        r.submit(m.id, seat, "take 9")  # rejected: too many
    r.undo(m.id, by="arbiter")
    r.annotate(m.id, 2, "checked", by="arbiter")
    return r, m.id


def test_a_match_is_byte_identical_on_both_backends(tmp_path, pg_url):
    a, mid = _play(SqliteStore(str(tmp_path / "r.db")))
    b, _ = _play(PostgresStore(pg_url))
    rows = list(a.store.entries(mid))
    assert len(rows) > 10 and {e.verdict for e in rows} >= {"accepted", "rejected"}
    assert list(b.store.entries(mid)) == rows
    assert b.store.get_match(mid) == a.store.get_match(mid)
    assert b.store.annotations(mid) == a.store.annotations(mid)
    assert b.store.snapshot_at_or_before(mid, 10) == a.store.snapshot_at_or_before(mid, 10)
    ra, rb = a.audit(mid), b.audit(mid)
    assert ra.clean and rb.clean and ra.head_hash and rb.head_hash == ra.head_hash


def test_a_schema_1_database_is_migrated_on_open(pg_server):
    """A database written by the first PostgreSQL store (schema 1: no tournaments, appends in several
    statements) gains the tournament tables and the one-statement append, and keeps its log."""
    import psycopg

    from referee.store import postgres

    url = pg_server.fresh(empty=True)
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(postgres.MIGRATIONS[0])
        conn.execute("CREATE TABLE referee_schema (version integer NOT NULL)")
        conn.execute("INSERT INTO referee_schema (version) VALUES (1)")
        conn.execute("INSERT INTO matches (id, game, rules_version, config, genesis_hash, created_at)"
                     " VALUES ('m1', 'g', '1', '\\x7b7d', 'g0', 't')")
    s = PostgresStore(url)
    assert s.schema_version() == len(MIGRATIONS) == 6
    s.append(an_entry(1), expected_seq=0)
    assert s.get_match("m1") == a_match() and s.head("m1") == 1
    assert s.unsummarised() == ["m1"] and s.summaries() == []  # built when first listed
    assert s.list_tournaments() == [] and s.find_transcript("d") == []
    s.close()


def test_a_dropped_connection_is_retried_and_writes_once(pg, pg_url, monkeypatch):
    import psycopg

    from referee.store import postgres

    waits = []
    monkeypatch.setattr(postgres.time, "sleep", waits.append)

    pg.create_match(a_match())
    pg.append(an_entry(1), expected_seq=0)
    with psycopg.connect(pg_url, autocommit=True) as admin:
        # every connection of the pool (and of whatever else is connected to the tests' database)
        pids = [r[0] for r in admin.execute("SELECT pid FROM pg_stat_activity WHERE datname = current_database()"
                                            " AND pid <> pg_backend_pid()")]
        assert pids
        admin.execute("SELECT pg_terminate_backend(pid) FROM unnest(%s::int[]) AS pid", (pids,))
        deadline = time.monotonic() + 10
        while admin.execute("SELECT 1 FROM pg_stat_activity WHERE pid = ANY(%s)", (pids,)).fetchone():
            assert time.monotonic() < deadline, "the backends did not go"
    pg.append(an_entry(2), expected_seq=1)  # on a fresh connection
    assert waits == [0.05]  # one retry, after the backoff's first step
    assert [e.seq for e in pg.entries("m1")] == [1, 2]


def test_servers_starting_together_on_an_empty_database_migrate_it_once(pg_server):
    """Six stores opened at once on an empty database: one migrates, the others wait for its lock and
    then find the schema (a name lookup cached before the wait used to call it "not a referee database")."""
    import threading

    url = pg_server.fresh(empty=True)
    errors, stores = [], []

    def open_one():
        try:
            stores.append(PostgresStore(url))
        except StoreError as exc:
            errors.append(exc)

    threads = [threading.Thread(target=open_one) for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == [] and len(stores) == 6
    assert {s.schema_version() for s in stores} == {len(MIGRATIONS)}
    for s in stores:
        s.close()


def test_a_transcript_digest_finds_the_matches_imported_from_it(pg):
    """Ahead of the scorekeeper's store change (issue 13): PostgreSQL keeps transcript digests too."""
    pg.create_match(a_match("m1"), [an_entry(1)], transcript="d1")
    pg.create_match(a_match("m2"), transcript="d2")
    pg.create_match(a_match("m3"), transcript="d1")
    assert pg.find_transcript("d1") == ["m1", "m3"] and pg.find_transcript("d2") == ["m2"]
    with pytest.raises(StoreError):  # all or nothing
        pg.create_match(a_match("m4"), [an_entry(2, "m4")], transcript="d3")
    assert pg.find_transcript("d3") == [] and pg.get_match("m4") is None
