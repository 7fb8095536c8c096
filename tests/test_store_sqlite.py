"""What only the SQLite store does: its file, its triggers and its migrations."""

from __future__ import annotations

import sqlite3

import pytest

from referee.store import StoreError
from referee.store.sqlite import SqliteStore
from support.store_contract import a_match, a_token, an_entry


def test_sqlite_refuses_updates_and_deletes_of_entries(tmp_path):
    path = str(tmp_path / "t.db")
    s = SqliteStore(path)
    s.create_match(a_match())
    s.append(an_entry(1), expected_seq=0)
    s.close()
    conn = sqlite3.connect(path)
    with pytest.raises(sqlite3.DatabaseError, match="append-only"):
        conn.execute("UPDATE entries SET verdict = 'rejected'")
    with pytest.raises(sqlite3.DatabaseError, match="append-only"):
        conn.execute("DELETE FROM entries")
    conn.close()


def test_sqlite_rejects_a_file_that_is_not_a_database(tmp_path):
    path = tmp_path / "junk.db"
    path.write_bytes(b"this is not sqlite" * 100)
    with pytest.raises(StoreError, match="not a usable referee database"):
        SqliteStore(str(path))
    assert path.read_bytes() == b"this is not sqlite" * 100


def test_sqlite_read_only_open_does_not_create_a_file(tmp_path):
    with pytest.raises(StoreError, match="no database"):
        SqliteStore(str(tmp_path / "absent.db"), create=False)
    assert not (tmp_path / "absent.db").exists()


def test_sqlite_migrates_a_schema_1_database(tmp_path):
    """A database written before the HTTP service (schema 1) gains the tokens and requests tables."""
    import sqlite_utils

    from referee.store import sqlite_schema as sq

    path = str(tmp_path / "old.db")
    conn = sqlite3.connect(path, isolation_level=None)
    db = sqlite_utils.Database(conn)
    sq.MIGRATIONS[0](db)
    conn.execute("PRAGMA user_version=1")
    conn.execute("INSERT INTO matches (id, game, rules_version, config, genesis_hash, created_at) VALUES ('m1','g','1',x'7b7d','g0','t')")
    conn.close()
    s = SqliteStore(path)
    assert s.get_match("m1") is not None
    s.add_tokens([a_token("h1")])
    assert s.find_token("h1") == a_token("h1")
    assert s.conn.execute("PRAGMA user_version").fetchone()[0] == len(sq.MIGRATIONS)
