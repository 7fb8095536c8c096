"""A request that waits for the store holds its own worker thread, never the event loop (issue 23, point
8): while a write waits for a lock another connection holds, /health, reads and live streams of the same
process go on answering at once; the write ends as 503 ``store/unavailable`` with Retry-After when the
lock outlasts the store's patience (PostgreSQL's lock_timeout, SQLite's busy wait), nothing is written and
no traceback is logged. On both backends (conftest's ``db``)."""

from __future__ import annotations

import contextlib
import logging
import sqlite3
import threading
import time

import httpx
import pytest

from referee.service import Referee
from referee.store import open_store
from referee.store.postgres import is_url
from support.apps import live_server
from support.pile import PILE

PATIENCE = 1.5


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


@contextlib.contextmanager
def locked(db: str):
    """Another connection holding the log's write lock (reads go on)."""
    if is_url(db):
        import psycopg

        with psycopg.connect(db) as conn:
            conn.execute("LOCK TABLE entries IN EXCLUSIVE MODE")
            yield
            conn.rollback()
    else:
        conn = sqlite3.connect(db, isolation_level=None)
        conn.execute("BEGIN IMMEDIATE")
        try:
            yield
        finally:
            conn.execute("ROLLBACK")
            conn.close()


@pytest.mark.both_backends
def test_a_write_waiting_for_a_lock_blocks_nothing_else_and_ends_as_503(db, monkeypatch, caplog):
    from referee.store import sqlite as sq

    monkeypatch.setattr(sq, "PATIENCE", PATIENCE)
    monkeypatch.setenv("REFEREE_PG_LOCK_TIMEOUT", str(PATIENCE))
    shared = open_store(db)
    # as `referee serve` does: over SQLite a store (a connection) per worker thread, over PostgreSQL one pool
    with live_server(lambda: Referee(shared if is_url(db) else open_store(db), games=[PILE]), keepalive=0.3) as live, \
            httpx.Client(base_url=live.url, timeout=30) as client:
        made = client.post("/matches", json={"game": "pile", "players": ["alice", "bob"]}).json()
        mid, alice = made["match"]["id"], made["tokens"]["seats"]["alice"]
        spectator = made["tokens"]["spectator"]
        assert client.post(f"/matches/{mid}/intents", json={"intent": "start first=alice tokens=K01,K02"},
                           headers=auth(alice)).status_code == 201
        answers: list[httpx.Response] = []
        caplog.clear()
        with caplog.at_level(logging.WARNING, logger="referee.http"), locked(db):
            writer = threading.Thread(target=lambda: answers.append(httpx.post(
                f"{live.url}/matches/{mid}/intents", json={"intent": "take 1", "expected_seq": 1},
                headers=auth(alice), timeout=30)))
            started = time.monotonic()
            writer.start()
            time.sleep(0.2)  # (the write is now waiting for the lock; what follows must not wait with it)
            quick = []
            for path, headers in (("/health", {}), (f"/matches/{mid}/state", auth(spectator)),
                                  (f"/matches/{mid}/log", auth(spectator))):
                asked = time.monotonic()
                answer = client.get(path, headers=headers)
                quick.append((path, answer.status_code, time.monotonic() - asked))
            with client.stream("GET", f"/matches/{mid}/events", params={"follow": "false"},
                               headers=auth(spectator)) as stream:
                asked = time.monotonic()
                assert sum(1 for line in stream.iter_lines() if line.startswith("data:")) == 1
                quick.append(("events", stream.status_code, time.monotonic() - asked))
            assert all(status == 200 for _, status, _ in quick), quick
            assert max(took for _, _, took in quick) < PATIENCE / 2, quick
            writer.join(30)
        waited = time.monotonic() - started
        (answer,) = answers
        assert answer.status_code == 503, answer.text
        assert answer.headers["Retry-After"] == "2"
        assert answer.json()["code"] == "store/unavailable" and "retry" in answer.json()["message"]
        assert PATIENCE * 0.9 < waited < PATIENCE + 3
        assert not [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info]
        log = client.get(f"/matches/{mid}/log", headers=auth(spectator)).json()["entries"]
        assert [e["seq"] for e in log] == [1]  # nothing was written
        again = client.post(f"/matches/{mid}/intents", json={"intent": "take 1", "expected_seq": 1}, headers=auth(alice))
        assert again.status_code == 201  # the lock gone, the retry is taken
    shared.close()
