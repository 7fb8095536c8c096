"""Several servers over one PostgreSQL database (issue 18): a live stream at one server is woken by an
entry written through another (LISTEN/NOTIFY, not the poll), and a server killed with SIGKILL in the
middle of a load loses no acknowledged intent: the writers retry on the other server with the same
Idempotency-Key, every intent is in the log exactly once, and every match audits clean."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import threading
import time

import httpx

from conftest import ROOT
from referee.http import create_app
from referee.service import Referee
from referee.store.postgres import PostgresStore
from support.live import LiveServer, free_port
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
    app = create_app(lambda: Referee(store, games=[PILE]), keepalive=0.2, poll=60, listen_poll=60)
    other = Referee(PostgresStore(url), games=[PILE])  # another server's store: its own connections
    with LiveServer(app) as live:
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


def _start(url: str) -> tuple[subprocess.Popen[str], str]:
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-c", SERVER, url, str(port)], cwd=ROOT, text=True,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while True:
        with contextlib.suppress(httpx.TransportError):
            if httpx.get(f"{base}/health", timeout=1).status_code == 200:
                return proc, base
        assert proc.poll() is None, proc.stderr.read() if proc.stderr else "the server exited"
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.1)


def test_a_server_killed_mid_load_loses_no_acknowledged_intent(pg_server):
    url = pg_server.fresh()
    (a, url_a), (b, url_b) = _start(url), _start(url)
    try:
        tables, n = 3, 16
        made = []
        for _ in range(tables):
            answer = httpx.post(f"{url_a}/matches", json={"game": "pile", "players": ["alice", "bob"]}, timeout=30)
            assert answer.status_code == 201, answer.text
            data = answer.json()
            made.append((data["match"]["id"], data["tokens"]["arbiter"]))
        acked: dict[str, list[tuple[int, int]]] = {mid: [] for mid, _ in made}
        moved = threading.Event()

        def writer(mid: str, token: str) -> None:
            clients = [httpx.Client(base_url=url_a, timeout=10), httpx.Client(base_url=url_b, timeout=10)]
            for i in range(-1, n):
                intent = "start first=alice tokens=K01,K02" if i < 0 else f"say note=n{i}"
                body = {"intent": intent, "seat": "alice"}
                key = f"{mid}-{i}"
                turn = i % 2
                while True:
                    try:
                        answer = clients[turn].post(f"/matches/{mid}/intents", json=body,
                                                    headers={**auth(token), "Idempotency-Key": key})
                    except httpx.TransportError:
                        turn = 1  # that server is gone: the same request, the same key, the other one
                        continue
                    assert answer.status_code in (200, 201), answer.text
                    acked[mid].append((i, answer.json()["seq"]))
                    break
                if i == n // 3:
                    moved.set()
            for c in clients:
                c.close()

        threads = [threading.Thread(target=writer, args=made_one) for made_one in made]
        for t in threads:
            t.start()
        assert moved.wait(60)
        os.kill(a.pid, signal.SIGKILL)  # in the middle of the load
        for t in threads:
            t.join(120)
        a.wait(10)
        assert httpx.get(f"{url_b}/health").status_code == 200  # the other server goes on
        checker = Referee(PostgresStore(url), games=[PILE])
        for mid, _token in made:
            assert [i for i, _seq in acked[mid]] == list(range(-1, n))
            entries = list(checker.store.entries(mid))
            notes = [e.body for e in entries]
            assert len(entries) == n + 1  # each intent once: nothing lost, nothing twice
            assert [seq for _i, seq in acked[mid]] == [e.seq for e in entries]
            assert all(f"n{i}".encode() in notes[i + 1] for i in range(n))
            assert checker.audit(mid).clean
    finally:
        for proc in (a, b):
            if proc.poll() is None:
                proc.kill()
                proc.wait(10)


def test_listening_lengthens_only_the_entry_streams_fallback_poll(pg_server):
    """Over PostgreSQL the match streams are woken by NOTIFY and poll only as a fallback; the other
    pollers (a tournament's stream) keep the poll they were given."""
    from litestar.testing import TestClient

    store = PostgresStore(pg_server.fresh())
    with TestClient(create_app(lambda: Referee(store, games=[PILE]), poll=0.2, listen_poll=10)) as client:
        hall = client.app.state.hall
        assert (hall.poll, hall.entry_poll) == (0.2, 10) and hall.stop_listening is not None
    store.close()
