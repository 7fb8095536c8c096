"""Several servers over one PostgreSQL database (issue 18): a live stream at one server is woken by an
entry written through another (LISTEN/NOTIFY, not the poll), and a server killed with SIGKILL in the
middle of a 50-table load over three servers loses no acknowledged intent: the writers retry on another
server with the same Idempotency-Key, every intent is in the log exactly once, the other servers go on,
and every match audits clean."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import threading
import time

import httpx
import pytest

from conftest import ROOT
from referee.service import Referee
from referee.store.postgres import PostgresStore
from support.apps import app_client, live_server
from support.live import free_port
from support.pile import PILE
from test_live import auth, new_table

#: one server process: the test game over the database named on the command line
SERVER = """
import sys
sys.path.insert(0, 'tests')
import uvicorn
from support.pile import PILE
from referee.http import create_app
from referee.service import Referee
from referee.store.postgres import PostgresStore
store = PostgresStore(sys.argv[1])
app = create_app(lambda: Referee(store, games=[PILE]), poll=60, listen_poll=60)
uvicorn.run(app, host='127.0.0.1', port=int(sys.argv[2]), log_level='warning', access_log=False)
"""


def test_a_stream_is_woken_by_an_entry_written_through_another_process(pg_server):
    url = pg_server.fresh()
    store = PostgresStore(url)
    other = Referee(PostgresStore(url), games=[PILE])  # another server's store: its own connections
    with live_server(lambda: Referee(store, games=[PILE]), keepalive=0.2, poll=60, listen_poll=60) as live:
        mid, tokens = new_table(live)
        httpx.post(f"{live.url}/matches/{mid}/intents", json={"intent": "start first=alice tokens=K01,K02"},
                   headers=auth(tokens["alice"]))
        ids, sent, latency = [], 0.0, None
        with httpx.stream("GET", f"{live.url}/matches/{mid}/events", params={"after": 1},
                          headers=auth(tokens["bob"]), timeout=10) as stream:
            for line in stream.iter_lines():
                if line.startswith(":") and not sent:  # the stream waits: write elsewhere
                    sent = time.monotonic()
                    other.submit(mid, "alice", "take 2")
                elif line.startswith("id:"):
                    ids.append(int(line[3:]))
                    latency = time.monotonic() - sent
                    break
    store.close()
    assert ids == [2]
    assert latency is not None and latency < 3.0  # the poll is 60 s: LISTEN/NOTIFY woke it


def _start(url: str) -> subprocess.Popen[str]:
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-c", SERVER, url, str(port)], cwd=ROOT, text=True,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    proc.base = f"http://127.0.0.1:{port}"  # type: ignore[attr-defined]
    return proc


def _wait_up(proc: subprocess.Popen[str]) -> str:
    base = proc.base  # type: ignore[attr-defined]
    deadline = time.monotonic() + 60
    while True:
        with contextlib.suppress(httpx.TransportError):
            if httpx.get(f"{base}/health", timeout=1).status_code == 200:
                return base
        assert proc.poll() is None, proc.stderr.read() if proc.stderr else "the server exited"
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.1)


@pytest.mark.slow
def test_a_server_killed_during_a_50_table_load_loses_no_acknowledged_intent(pg_server):
    """50 tables, each with its own writer, over three server processes (every writer's requests go round
    the servers); one server is killed with SIGKILL once a third of the load is acknowledged. A request
    that was in flight there is sent again to another server with the same Idempotency-Key. Afterwards
    every acknowledged intent is in its log exactly once, at the seq it was answered with, the two other
    servers still answer (and accept new work), and every match of the database audits clean (what
    ``referee audit --all`` runs)."""
    url = pg_server.fresh()
    procs = [_start(url) for _ in range(3)]  # started together: they migrate nothing (the schema is there)
    try:
        bases = [_wait_up(p) for p in procs]
        tables, n = 50, 8
        victim = 0
        acked: dict[int, list[tuple[int, int]]] = {t: [] for t in range(tables)}
        made: dict[int, tuple[str, str]] = {}
        retried, at_victim = [0], [0]
        third = threading.Event()
        count = [0]
        lock = threading.Lock()
        failures: list[str] = []

        def send(clients: list[httpx.Client], turn: int, path: str, body: dict, headers: dict) -> tuple[int, httpx.Response]:
            while True:
                try:
                    return turn, clients[turn].post(path, json=body, headers=headers)
                except httpx.TransportError:  # that server is gone: the same request, the same key, the next one
                    with lock:
                        retried[0] += 1
                    turn = (turn + 1) % len(clients)

        def writer(table: int) -> None:
            clients = [httpx.Client(base_url=b, timeout=30) for b in bases]
            try:
                _, answer = send(clients, table % 3, "/matches", {"game": "pile", "players": ["alice", "bob"]}, {})
                assert answer.status_code == 201, answer.text
                mid, token = answer.json()["match"]["id"], answer.json()["tokens"]["arbiter"]
                made[table] = (mid, token)
                for i in range(-1, n):
                    intent = "start first=alice tokens=K01,K02" if i < 0 else f"say note=t{table}-{i}"
                    turn, answer = send(clients, (table + i) % 3, f"/matches/{mid}/intents",
                                        {"intent": intent, "seat": "alice"},
                                        {**auth(token), "Idempotency-Key": f"{mid}-{i}"})
                    assert answer.status_code in (200, 201), answer.text
                    acked[table].append((i, answer.json()["seq"]))
                    with lock:
                        count[0] += 1
                        at_victim[0] += turn == victim and not third.is_set()
                        if count[0] >= tables * (n + 1) // 3:
                            third.set()
            except BaseException as exc:  # noqa: BLE001 - reported by the main thread
                failures.append(f"table {table}: {exc!r}")
            finally:
                for c in clients:
                    c.close()

        threads = [threading.Thread(target=writer, args=(t,)) for t in range(tables)]
        started = time.monotonic()
        for t in threads:
            t.start()
        assert third.wait(60), failures
        os.kill(procs[victim].pid, signal.SIGKILL)  # in the middle of the load
        for t in threads:
            t.join(120)
        took = time.monotonic() - started
        assert failures == []
        assert at_victim[0] > 0 and retried[0] > 0  # it was serving, and requests in flight there were sent again
        procs[victim].wait(10)
        later = set()
        for base in bases[1:]:  # the others go on: they answer, and accept new work
            assert httpx.get(f"{base}/health", timeout=10).status_code == 200
            fresh = httpx.post(f"{base}/matches", json={"game": "pile", "players": ["a", "b"]}, timeout=30)
            assert fresh.status_code == 201
            later.add(fresh.json()["match"]["id"])
        checker = Referee(PostgresStore(url), games=[PILE])
        for table, (mid, _token) in made.items():
            assert [i for i, _seq in acked[table]] == list(range(-1, n)), table
            entries = list(checker.store.entries(mid))
            assert len(entries) == n + 1  # each intent once: nothing lost, nothing twice
            assert [seq for _i, seq in acked[table]] == [e.seq for e in entries]
            assert all(f"t{table}-{i}".encode() in entries[i + 1].body for i in range(n))
        assert len(made) == tables
        ids = [m.id for m in checker.store.list_matches()]
        # a creation the killed server committed but never answered was sent again: it left an empty
        # match nobody was told of (match creation takes no Idempotency-Key), never an entry
        known = {mid for mid, _token in made.values()} | later
        orphans = [mid for mid in ids if mid not in known]
        assert len(known) == tables + 2 and known <= set(ids), (len(known), len(ids))
        assert all(checker.store.head(mid) == 0 for mid in orphans), orphans
        reports = checker.audit_many(ids)  # what `referee audit --all` checks
        assert all(r.clean for r in reports), [r for r in reports if not r.clean][:1]
        checker.store.close()
        print(f"50 tables, {tables * (n + 1)} intents over 3 servers, one killed: {took:.1f} s, {retried[0]} resent")
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
                proc.wait(10)


def test_listening_lengthens_only_the_entry_streams_fallback_poll(pg_server):
    """Over PostgreSQL the match streams are woken by NOTIFY and poll only as a fallback; the other
    pollers (a tournament's stream) keep the poll they were given."""
    store = PostgresStore(pg_server.fresh())
    with app_client(lambda: Referee(store, games=[PILE]), poll=0.2, listen_poll=10) as client:
        hall = client.app.state.hall
        assert (hall.poll, hall.entry_poll) == (0.2, 10) and hall.stop_listening is not None
    store.close()
