"""What a store does when its database is someone else's, stalls, or is written by a role that should not
be trusted with the log (issue 23, point 8): a foreign database is refused unless adopted, every table is
append-only in PostgreSQL, a writer role plays but cannot switch the triggers off, and a wait for a lock
or a slow statement ends as :class:`StoreUnavailable` (the server's 503), on SQLite as on PostgreSQL."""

from __future__ import annotations

import itertools
import os
import sqlite3
import time

import pytest

from referee.service import Referee
from referee.store import StoreError, StoreUnavailable, StoredToken
from referee.store.base import StoredRequest, StoredSnapshot, StoredTournament, StoredTournamentEvent, \
    StoredTournamentToken
from referee.store.pg_schema import writer_grants
from referee.store.postgres import PostgresStore
from support.pg import dump
from support.pile import PILE
from support.store_contract import a_match, a_note, an_entry

_roles = itertools.count(1)


def _schema(url: str) -> str:
    return url.rsplit("%3D", 1)[1]


def _other_tables(pg_server) -> str:
    import psycopg

    url = pg_server.fresh(empty=True)
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("CREATE TABLE invoices (id serial PRIMARY KEY, amount integer)")
        conn.execute("INSERT INTO invoices (amount) VALUES (12)")
    return url


# -- a database the referee did not create --------------------------------------------------------------


def test_a_database_holding_another_applications_tables_is_refused(pg_server, monkeypatch):
    monkeypatch.setenv("REFEREE_PG_ADOPT", "0")  # (recorded: restored after the test)
    url = _other_tables(pg_server)
    before = dump(url)
    with pytest.raises(StoreError) as refused:
        PostgresStore(url)
    message = str(refused.value)
    assert "not a referee database and is not empty" in message and "invoices" in message
    assert "REFEREE_PG_ADOPT=1" in message and "search_path" in message
    assert dump(url) == before  # no referee_schema, no table of ours


def test_the_cli_refuses_a_foreign_database_and_writes_nothing(cli, pg_server, monkeypatch):
    monkeypatch.setenv("REFEREE_PG_ADOPT", "0")  # (recorded: restored after the test)
    url = _other_tables(pg_server)
    before = dump(url)
    monkeypatch.setenv("REFEREE_DB", url)
    made = cli("new", "by_all_means", "--players", "alice,bob", "--cards", "spec")
    assert made.code != 0 and "invoices" in made.err and "REFEREE_PG_ADOPT" in made.err
    assert dump(url) == before


def test_a_foreign_database_is_adopted_when_told(pg_server, monkeypatch):
    url = _other_tables(pg_server)
    monkeypatch.setenv("REFEREE_PG_ADOPT", "1")
    s = PostgresStore(url)
    s.create_match(a_match())
    assert s.get_match("m1") == a_match()
    s.close()
    monkeypatch.setenv("REFEREE_PG_ADOPT", "0")
    PostgresStore(url).close()  # adopted once, it is the referee's: opened without being told again
    assert dict(dump(url))["invoices"] == [(1, 12)]


def test_an_empty_database_is_created_without_being_told(pg_server, monkeypatch):
    monkeypatch.setenv("REFEREE_PG_ADOPT", "0")  # (recorded: restored after the test)
    PostgresStore(pg_server.fresh(empty=True)).close()


# -- every table append-only -----------------------------------------------------------------------------


def _fill(s: PostgresStore) -> None:
    """A row in every table the referee writes."""
    s.create_match(a_match(), transcript="d1")
    s.append(an_entry(1), expected_seq=0, snapshot=StoredSnapshot(match_id="m1", seq=1, state=b"{}", state_hash="s1"),
             request=StoredRequest(match_id="m1", key="k1", fingerprint="f", seq=1))
    s.add_annotation(a_note(1, "root", "h1"))
    s.add_tokens([StoredToken(token_hash="t1", match_id="m1", role="arbiter")])
    s.create_tournament(StoredTournament(id="c1", name="Cup", created_at="t"),
                        [StoredTournamentEvent(tournament_id="c1", n=1, kind="created", by="org", body=b"{}",
                                               prev_hash="", hash="e1", recorded_at="t")])
    s.append_tournament_events("c1", [StoredTournamentEvent(tournament_id="c1", n=2, kind="x", by="org", body=b"{}",
                                                            prev_hash="e1", hash="e2", recorded_at="t")], 1)
    s.add_tournament_tokens([StoredTournamentToken(token_hash="tt1", tournament_id="c1", role="organiser")])


TABLES = ("matches", "entries", "snapshots", "annotations", "tokens", "requests", "tournaments",
          "tournament_events", "tournament_tokens", "transcripts")


@pytest.mark.parametrize("sql", ["UPDATE {t} SET {c} = {c}", "DELETE FROM {t}", "TRUNCATE {t} CASCADE"])
def test_every_table_the_referee_writes_is_append_only(pg_url, sql):
    import psycopg

    s = PostgresStore(pg_url)
    _fill(s)
    before = dump(pg_url)
    with psycopg.connect(pg_url, autocommit=True) as conn:
        for table in TABLES:
            column = "match_id" if table in ("entries", "snapshots", "annotations", "tokens", "requests",
                                             "transcripts") else "tournament_id" if table.startswith("tournament_") \
                else "id"
            with pytest.raises(psycopg.errors.RaiseException, match="append-only"):
                conn.execute(sql.format(t=table, c=column))
    assert dump(pg_url) == before
    s.close()


# -- least privilege -------------------------------------------------------------------------------------


def _writer(pg_server, url: str) -> str:
    """A role that owns nothing, granted what :func:`writer_grants` says; its URL for the same schema."""
    import psycopg

    role = f"writer_{os.getpid()}_{next(_roles)}"
    with psycopg.connect(url, autocommit=True) as conn:  # as the owner (here the superuser)
        conn.execute(f"CREATE ROLE {role} LOGIN")
        for statement in writer_grants(role, _schema(url)):
            conn.execute(statement)
    return url.replace("postgresql://postgres@", f"postgresql://{role}@")


def test_a_writer_role_plays_a_match_and_cannot_rewrite_the_log(pg_server, pg_url):
    import psycopg

    owner = PostgresStore(pg_url)
    assert "superuser" in (owner.may_alter() or "")
    owner.close()
    url = _writer(pg_server, pg_url)
    store = PostgresStore(url)
    assert store.may_alter() is None
    r = Referee(store, games=[PILE], snapshot_every=2)
    game, config = r.build_config("pile", ["alice", "bob"], options={"stones": "15"}, seed=11)
    m = r.create_match(game, config)
    r.submit(m.id, "alice", "start")
    for i in range(4):
        r.submit(m.id, r.show(m.id).state["active"], f"take {1 + i % 2}")
    r.undo(m.id, by="arbiter")
    r.annotate(m.id, 2, "checked", by="arbiter")
    store.add_tokens([StoredToken(token_hash="t1", match_id=m.id, role="arbiter")])
    store.create_match(a_match(), transcript="d1")
    store.create_tournament(StoredTournament(id="c1", name="Cup", created_at="t"), [])
    store.append_tournament_events("c1", [StoredTournamentEvent(tournament_id="c1", n=1, kind="x", by="org",
                                                                body=b"{}", prev_hash="", hash="e1", recorded_at="t")], 0)
    assert r.audit(m.id).clean and store.head(m.id) == 6
    store.close()
    before = dump(pg_url)
    with psycopg.connect(url, autocommit=True) as conn:
        for sql in ("ALTER TABLE entries DISABLE TRIGGER entries_append_only", "DROP TRIGGER entries_append_only ON entries",
                    "ALTER TABLE entries DISABLE TRIGGER ALL", "SET session_replication_role = replica",
                    "DELETE FROM entries", "UPDATE entries SET actor = 'mallory'", "TRUNCATE entries CASCADE",
                    "UPDATE matches SET title = 'x'", "DROP TABLE tokens CASCADE", "CREATE TABLE x (y int)"):
            with pytest.raises(psycopg.Error, match="append-only|must be (the )?owner|permission denied"):
                conn.execute(sql)
    assert dump(pg_url) == before


def test_a_writer_role_cannot_migrate_and_says_who_can(pg_server):
    import psycopg

    url = pg_server.fresh(empty=True)
    with psycopg.connect(url, autocommit=True) as conn:
        from referee.store.pg_schema import MIGRATIONS

        conn.execute(MIGRATIONS[0])
        conn.execute("CREATE TABLE referee_schema (version integer NOT NULL)")
        conn.execute("INSERT INTO referee_schema (version) VALUES (1)")
    role = f"writer_{os.getpid()}_{next(_roles)}"
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(f"CREATE ROLE {role} LOGIN")
        conn.execute(f"GRANT USAGE ON SCHEMA {_schema(url)} TO {role}")
        conn.execute(f"GRANT SELECT ON referee_schema TO {role}")
    with pytest.raises(StoreError, match="referee db migrate"):
        PostgresStore(url.replace("postgresql://postgres@", f"postgresql://{role}@"))


# -- waits that end --------------------------------------------------------------------------------------


def test_a_lock_held_elsewhere_ends_as_unavailable_after_the_lock_timeout(pg_url):
    import psycopg

    s = PostgresStore(pg_url, lock_timeout=0.3)
    s.create_match(a_match())
    with psycopg.connect(pg_url) as locker:  # a transaction holding the table while the store writes
        locker.execute("LOCK TABLE entries IN EXCLUSIVE MODE")
        started = time.monotonic()
        with pytest.raises(StoreUnavailable, match="lock wait timed out"):
            s.append(an_entry(1), expected_seq=0)
        assert time.monotonic() - started < 2  # one wait, not one per retry
        assert s.head("m1") == 0  # reads go on meanwhile
    s.append(an_entry(1), expected_seq=0)
    assert s.head("m1") == 1
    s.close()


def test_a_statement_that_runs_too_long_ends_as_unavailable(pg_url):
    s = PostgresStore(pg_url, statement_timeout=0.2)
    with pytest.raises(StoreUnavailable, match="statement timed out"):
        s._one("SELECT pg_sleep(2)", ())
    assert s.head("m1") == 0  # the connection is usable again
    s.close()


def test_the_timeouts_come_from_the_environment_and_a_bad_one_is_named(pg_url, monkeypatch):
    monkeypatch.setenv("REFEREE_PG_STATEMENT_TIMEOUT", "0.2")
    s = PostgresStore(pg_url)
    assert s._one("SHOW statement_timeout", ()) == ("200ms",)
    assert s._one("SHOW lock_timeout", ()) == ("5s",)
    s.close()
    monkeypatch.setenv("REFEREE_PG_LOCK_TIMEOUT", "soon")
    with pytest.raises(StoreError, match="REFEREE_PG_LOCK_TIMEOUT must be a number of seconds.*'soon'"):
        PostgresStore(pg_url)


def test_a_sqlite_database_locked_too_long_is_unavailable_not_a_crash(tmp_path, monkeypatch):
    from referee.store import sqlite as sq

    monkeypatch.setattr(sq, "PATIENCE", 0.2)
    s = sq.SqliteStore(str(tmp_path / "r.db"))
    s.create_match(a_match())
    other = sqlite3.connect(str(tmp_path / "r.db"), isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    with pytest.raises(StoreUnavailable, match="locked"):
        s.append(an_entry(1), expected_seq=0)
    other.execute("ROLLBACK")
    other.close()
    s.append(an_entry(1), expected_seq=0)
    assert s.head("m1") == 1
    s.close()


# -- the commands: migrate as the owner, grant a writer, serve warns when run as the owner -------------


def _serve_warning(url: str) -> str:
    """What ``referee serve`` says on stderr before it serves (it is stopped once it says it serves)."""
    import signal
    import subprocess
    import sys

    from conftest import ROOT
    from support.live import free_port

    env = {k: v for k, v in os.environ.items() if not k.startswith("REFEREE_")} | {"REFEREE_LANG": "en"}
    proc = subprocess.Popen([sys.executable, "-m", "cli", "serve", "--port", str(free_port()), "--db", url], cwd=ROOT,
                            env=env, text=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    try:
        assert proc.stdout is not None and "serving" in proc.stdout.readline()
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        _, err = proc.communicate(timeout=20)
    return err


def test_an_owner_migrates_grants_a_writer_and_serve_warns_only_when_run_as_the_owner(cli, pg_server):
    import psycopg

    url = pg_server.fresh(empty=True)
    migrated = cli("db", "migrate", "--db", url)
    assert migrated.code == 0 and "(schema 6)" in migrated.out
    role = f"writer_{os.getpid()}_{next(_roles)}"
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(f"CREATE ROLE {role} LOGIN")
    granted = cli("db", "grant", role, "--db", url)
    assert granted.code == 0 and f"{role} may now read and add rows" in granted.out
    assert cli("db", "grant", role, "--db", url, "--json").json == {"role": role, "grants": 7}  # (again: no change)
    assert cli("db", "migrate", "--db", url, "--json").json["schema"] == 6
    assert cli("db", "grant", "nobody_at_all", "--db", url).code != 0
    assert "nobody_at_all" in cli("db", "grant", "nobody_at_all", "--db", url).err
    writer = url.replace("postgresql://postgres@", f"postgresql://{role}@")
    made = cli("new", "by_all_means", "--players", "alice,bob", "--cards", "spec", "--db", writer, "--json")
    assert made.code == 0, made.err
    played = cli("play", made.json["id"], "alice", "draw_opening_hand", "cards=TR1,TR2,AG1,PL2", "--db", writer)
    assert played.code == 0, played.err
    assert cli("matches", "--db", writer, "--json").json[0]["head"] == 1
    assert "superuser, so this server could switch the log's append-only triggers off" in _serve_warning(url)
    assert "warning" not in _serve_warning(writer)


def test_db_copy_into_a_foreign_database_is_refused_unless_adopted(cli, pg_server, tmp_path, monkeypatch):
    monkeypatch.setenv("REFEREE_PG_ADOPT", "0")  # (recorded: restored after the test)
    source = str(tmp_path / "club.db")
    assert cli("new", "by_all_means", "--players", "alice,bob", "--seed", "3", "--db", source).code == 0
    url = _other_tables(pg_server)
    before = dump(url)
    refused = cli("db", "copy", source, url)
    assert refused.code != 0 and "invoices" in refused.err and "--adopt-database" in refused.err
    assert dump(url) == before
    copied = cli("db", "copy", source, url, "--adopt-database")
    assert copied.code == 0 and "copied 1 matches" in copied.out
    assert dict(dump(url))["invoices"] == [(1, 12)]
