"""``referee serve --workers N`` over one PostgreSQL database (issue 18): the command's own processes (N
uvicorn workers on one socket, each with its store and its LISTEN connection) accept intents through
every worker into one log, and a live stream held by one worker is woken by an entry written through
another (LISTEN/NOTIFY: the fallback poll over PostgreSQL is 10 s)."""

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
from support.live import free_port

WORKERS = 3
SLOW_POLL = 600


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


@contextlib.contextmanager
def serving(url: str):
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("REFEREE_")} | {"REFEREE_LANG": "en"}
    # streams look for missed appends only every 10 minutes: an entry that arrives sooner came by NOTIFY,
    # however long the machine takes to open the stream
    env |= {"REFEREE_LISTEN_POLL": str(SLOW_POLL), "REFEREE_STREAM_KEEPALIVE": str(SLOW_POLL)}
    proc = subprocess.Popen([sys.executable, "-m", "cli", "serve", "--port", str(port), "--db", url, "--workers",
                             str(WORKERS)], cwd=ROOT, env=env, text=True, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, start_new_session=True)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            with contextlib.suppress(httpx.TransportError):
                if httpx.get(f"{base}/health", timeout=2).status_code == 200:
                    break
            assert proc.poll() is None, proc.stderr.read() if proc.stderr else "referee serve exited"
            assert time.monotonic() < deadline, "referee serve did not start"
            time.sleep(0.2)
        yield base
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGTERM)  # the supervisor and its workers (a session of their own)
        try:
            proc.wait(15)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(10)


def pinned(base: str) -> dict[str, httpx.Client]:
    """A client held on a connection to each worker: keep-alive keeps a client on the process that
    accepted its connection, and /health says which one that is."""
    clients: dict[str, httpx.Client] = {}
    for _ in range(200):
        c = httpx.Client(base_url=base, timeout=30)
        worker = c.get("/health").json()["worker"]
        if worker in clients:
            c.close()
            continue
        clients[worker] = c
        if len(clients) == WORKERS:
            return clients
    raise AssertionError(f"reached {len(clients)} of {WORKERS} workers")


def on_worker(base: str, clients: dict[str, httpx.Client], worker: str) -> httpx.Client:
    """The client held on ``worker``, connected anew if its connection went idle long enough for the server
    to close it (uvicorn closes a kept-alive connection after 5 s: a loaded machine gets there)."""
    c = clients[worker]
    if c.get("/health").json()["worker"] == worker:
        return c
    c.close()
    for _ in range(200):
        c = httpx.Client(base_url=base, timeout=30)
        if c.get("/health").json()["worker"] == worker:
            clients[worker] = c
            return c
        c.close()
    raise AssertionError(f"no connection reached worker {worker} again")


def test_referee_serve_with_workers_over_postgresql(pg_server):
    url = pg_server.fresh()
    with serving(url) as base:
        clients = pinned(base)
        try:
            any_client = next(iter(clients.values()))
            made = any_client.post("/matches", json={"game": "by_all_means", "players": ["alice", "bob"],
                                                     "seed": 3}).json()
            mid, tokens = made["match"]["id"], made["tokens"]
            arbiter = auth(tokens["arbiter"])
            answered: list[tuple[str, int]] = []
            for _ in range(2):  # intents through every worker in turn
                for worker in list(clients):
                    c = on_worker(base, clients, worker)
                    legal = c.get(f"/matches/{mid}/legal", headers=arbiter).json()["legal"]
                    seat, intent = next((s, xs[0]) for s, xs in sorted(legal.items()) if xs)
                    answer = c.post(f"/matches/{mid}/intents", json={"intent": intent, "seat": seat}, headers=arbiter)
                    assert answer.status_code == 201, answer.text
                    assert answer.json()["verdict"] == "accepted", answer.text
                    assert c.get("/health").json()["worker"] == worker  # answered by that process
                    answered.append((worker, answer.json()["seq"]))
            assert {w for w, _ in answered} == set(clients)
            assert [seq for _, seq in answered] == list(range(1, 2 * WORKERS + 1))  # one log, no fork
            # (the first client may have been closed and replaced by on_worker: its connection went idle)
            first = on_worker(base, clients, next(iter(clients)))
            log = first.get(f"/matches/{mid}/log", params={"limit": 100}, headers=arbiter).json()["entries"]
            assert [e["seq"] for e in log] == list(range(1, 2 * WORKERS + 1))

            # the live feed: a stream held by one worker, an entry written through another
            held_by, other = list(clients)[:2]
            reader = on_worker(base, clients, held_by)
            head = answered[-1][1]
            seen: list[tuple[int, float]] = []

            def follow() -> None:
                with reader.stream("GET", f"/matches/{mid}/events", params={"after": head},
                                   headers=auth(tokens["spectator"])) as stream:
                    for line in stream.iter_lines():
                        if line.startswith("id:"):
                            seen.append((int(line[3:]), time.monotonic()))
                            return

            follower = threading.Thread(target=follow, daemon=True)
            opening = time.monotonic()  # the stream opens after this: its first fallback poll comes SLOW_POLL s later
            follower.start()
            deadline = time.monotonic() + 30
            while True:  # wait until that worker holds the stream (then nothing comes from a backlog)
                with httpx.Client(base_url=base, timeout=10) as c:
                    health = c.get("/health").json()
                if health["worker"] == held_by and health["streams"] == 1:
                    break
                assert time.monotonic() < deadline, "the stream did not open"
                time.sleep(0.05)
            writer = on_worker(base, clients, other)
            legal = writer.get(f"/matches/{mid}/legal", headers=arbiter).json()["legal"]
            seat, intent = next((s, xs[0]) for s, xs in sorted(legal.items()) if xs)
            sent = time.monotonic()
            answer = writer.post(f"/matches/{mid}/intents", json={"intent": intent, "seat": seat}, headers=arbiter)
            assert answer.status_code == 201, answer.text
            follower.join(90)
            assert seen and seen[0][0] == head + 1
            # woken by NOTIFY from the other process: the entry arrived before the stream's first fallback
            # poll or keep-alive could have run (SLOW_POLL s after it opened; with the default 10 s poll a
            # stream that took long to open under load could not tell the two apart)
            assert seen[0][1] < opening + SLOW_POLL - 30, (seen[0][1] - opening, seen[0][1] - sent)
        finally:
            for c in clients.values():
                c.close()
