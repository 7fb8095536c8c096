"""Benchmark: a hall of tables played from their seats' pages (issue 26). Starts ``referee serve`` (a fresh
SQLite file, FULL durability unless ``--durability normal``, ``--workers`` processes) on 127.0.0.1, creates
``--tables`` seeded digital matches, and for every seat of every table runs one client doing what
``/play/MATCH`` does: it opens the match's event stream (``GET /matches/{id}/events``), reads
``GET /matches/{id}/seat``, and when the seat has a move submits the first offered choice (or confirms
the move held for it) with ``expected_seq``; it reads ``/seat`` again after each of its writes and on
each event. A table stops after ``--moves`` written entries, at the game's end, or at ``--seconds``.

Measured, for every entry a seat wrote: the time from the start of its submit request to each OTHER seat
of the table receiving it as an event (p50, p99, max); entries written against entries received by
every other seat (nothing lost: equal); conflicts answered (409: two seats raced, or the game moved on).
The floor is a bare HTTP round trip on the same client, ``GET /health``, measured in the same run on
the idle server (and again while the tables play).

    python benchmarks/bench_seats.py                          # 50 tables, 20 moves each, By All Means
    python benchmarks/bench_seats.py --workers 2 --durability normal
    python benchmarks/bench_seats.py --think 2                # each seat thinks 2 s on average before it moves
    python benchmarks/bench_seats.py --tables 2 --moves 3 --json   # what tests/test_bench_seats.py runs

The seats' clients run on one asyncio loop in this one process, so one clock times both ends of every
delivery. By default each is bench_http's minimal HTTP/1.1 client on asyncio streams (a keep-alive
connection for its requests, one for its stream): the cheapest there is, so that on this 2-core machine
the server, not the clients, is what is measured. ``--client httpx`` uses httpx's asyncio client instead
(a test dependency already; it costs the client process more CPU than the server spends).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
from typing import Any

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)

from bench_http import AsyncConn, free_port, pct, tree_cpu  # noqa: E402  (the benchmarks share their helpers)

PLAYERS = {"by_all_means": 2, "war_of_shadows": 2, "xfiles_encounters": 3, "android": 3, "copycat": 3}
NAMES = ("alice", "bob", "carol", "dave")
#: how long the streams may take to deliver the last entries once every table has stopped
DRAIN = 10.0


class Table:
    """One match: its seats' tokens, the entries its seats wrote (seq -> (seat, submit start)) and what
    each seat's stream received (seat -> seq -> when)."""

    def __init__(self, mid: str, tokens: dict[str, str]) -> None:
        self.mid, self.tokens = mid, tokens
        self.written: dict[int, tuple[str, float]] = {}
        self.received: dict[str, dict[int, float]] = {seat: {} for seat in tokens}
        self.verdicts: dict[str, int] = {}
        self.conflicts = 0
        self.done = False
        self.ended = False  # the game is over

    def owed(self) -> int:
        """Deliveries still missing: (entry, other seat) pairs whose event has not arrived."""
        return sum(1 for seq, (writer, _) in self.written.items() for seat in self.tokens
                   if seat != writer and seq not in self.received[seat])


class Hall:
    def __init__(self) -> None:
        self.errors: dict[str, int] = {}
        self.seat_reads = 0
        self.submit_ms: list[float] = []  # each written entry's submit, start to answer

    def error(self, what: str) -> None:
        self.errors[what] = self.errors.get(what, 0) + 1


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


class Raw:
    """The cheap client (``--client raw``): bench_http's keep-alive HTTP/1.1 connection on asyncio streams
    for requests (one per seat, as a phone has its own), and a stream reader of the same kind."""

    def __init__(self, port: int) -> None:
        self.port = port

    def seat(self) -> Any:
        return RawSeat(self.port)

    async def close(self) -> None:
        """Each raw seat opens and closes its own connections: nothing is shared to close."""


class RawSeat:
    def __init__(self, port: int) -> None:
        self.conn = AsyncConn(port)

    async def call(self, method: str, path: str, headers: dict[str, str], body: Any = None) -> tuple[int, Any]:
        """One request; a keep-alive connection the server closed while the seat waited (uvicorn closes an
        idle one after 5 s) is opened again and the request sent once more (a write names its
        ``expected_seq``, so a repeated one that had landed is answered as a conflict, never written twice)."""
        for attempt in (1, 2):
            try:
                status, data, _ = await self.conn.call(method, path, body, headers)
                return status, data
            except (asyncio.IncompleteReadError, ConnectionError):
                if self.conn.writer is not None:
                    self.conn.writer.close()
                self.conn = AsyncConn(self.conn.port)
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")

    async def events(self, path: str, headers: dict[str, str]) -> Any:
        """The ``data:`` payloads of a server-sent event stream (chunked transfer encoding), as they come;
        raises on an answer other than 200."""
        reader, writer = await asyncio.open_connection("127.0.0.1", self.conn.port)
        try:
            lines = [f"GET {path} HTTP/1.1", "Host: 127.0.0.1", "Accept: text/event-stream"]
            writer.write(("\r\n".join(lines + [f"{k}: {v}" for k, v in headers.items()]) + "\r\n\r\n").encode())
            head = await reader.readuntil(b"\r\n\r\n")
            if int(head[9:12]) != 200:
                raise RuntimeError(f"events {int(head[9:12])}")
            buf = b""
            while True:
                size = int((await reader.readuntil(b"\r\n")).split(b";")[0], 16)
                if size == 0:
                    return
                buf = (buf + (await reader.readexactly(size + 2))[:-2]).replace(b"\r\n", b"\n")
                while b"\n\n" in buf:
                    block, buf = buf.split(b"\n\n", 1)
                    for line in block.split(b"\n"):
                        if line.startswith(b"data:"):
                            yield line[5:]
        finally:
            writer.close()


class Httpx:
    """httpx's asyncio client (``--client httpx``): one pool for every seat, as a test client would be."""

    def __init__(self, port: int) -> None:
        import httpx

        self.client = httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=httpx.Timeout(60.0, read=None),
                                        limits=httpx.Limits(max_connections=None, max_keepalive_connections=None))

    def seat(self) -> Any:
        return self

    async def close(self) -> None:
        await self.client.aclose()

    async def call(self, method: str, path: str, headers: dict[str, str], body: Any = None) -> tuple[int, Any]:
        answer = await self.client.request(method, path, headers=headers, json=body)
        return answer.status_code, answer.json() if answer.content else None

    async def events(self, path: str, headers: dict[str, str]) -> Any:
        async with self.client.stream("GET", path, headers=headers) as answer:
            if answer.status_code != 200:
                raise RuntimeError(f"events {answer.status_code}")
            async for line in answer.aiter_lines():
                if line.startswith("data:"):
                    yield line[5:]


async def listen(client: Any, table: Table, seat: str, woke: asyncio.Event, hall: Hall) -> None:
    """The page's event stream: each ``data:`` line is an entry; note when it came and wake the seat."""
    try:
        async for data in client.events(f"/matches/{table.mid}/events?after=0", auth(table.tokens[seat])):
            now = time.perf_counter()
            table.received[seat].setdefault(json.loads(data)["seq"], now)
            woke.set()
    except asyncio.CancelledError:
        raise
    except Exception as exc:  # a broken stream is counted: its missing events show as lost
        hall.error(f"events {type(exc).__name__}")


async def play(client: Any, table: Table, seat: str, woke: asyncio.Event, moves: int, deadline: float,
               hall: Hall, think: float, rng: random.Random) -> None:
    """One seat's page: read /seat; write when it has something to do (after ``think`` seconds on average,
    exponentially spread: 0 = at once); else wait for an event. A failure stops the seat and is counted."""
    try:
        await _play(client, table, seat, woke, moves, deadline, hall, think, rng)
    except Exception as exc:
        hall.error(f"seat stopped: {type(exc).__name__}")


async def _play(client: Any, table: Table, seat: str, woke: asyncio.Event, moves: int, deadline: float,
                hall: Hall, think: float, rng: random.Random) -> None:
    token = table.tokens[seat]
    while not table.done and time.monotonic() < deadline:
        woke.clear()
        status, ans = await client.call("GET", f"/matches/{table.mid}/seat", auth(token))
        hall.seat_reads += 1
        if status != 200:
            hall.error(f"seat {status}")
            await asyncio.sleep(0.5)
            continue
        if ans["result"]:
            table.done = table.ended = True
            return
        held = ans["held"]
        if held and held["confirmer"] == seat:
            path, body = "/confirmations", {"entry": held["seq"], "expected_seq": ans["seq"]}
        elif ans["moves"] and not held:
            choice = ans["moves"][0]["choices"][0]
            path, body = "/intents", {"intent": choice["intent"], "expected_seq": ans["seq"]}
        else:  # nothing to do: wait for the next event (or look again after a while, as a safety net)
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(woke.wait(), 5.0)
            continue
        if think:
            await asyncio.sleep(rng.expovariate(1 / think))
            if table.done:
                return
        start = time.perf_counter()
        status, res = await client.call("POST", f"/matches/{table.mid}{path}", auth(token), body)
        if status == 409:
            table.conflicts += 1
            continue
        if status not in (200, 201):
            hall.error(f"write {status} {res.get('code', '') if isinstance(res, dict) else ''}")
            await asyncio.sleep(0.5)
            continue
        table.written[res["seq"]] = (seat, start)
        hall.submit_ms.append((time.perf_counter() - start) * 1000)
        verdict = res.get("verdict", "confirm")
        table.verdicts[verdict] = table.verdicts.get(verdict, 0) + 1
        if len(table.written) >= moves:
            table.done = True


async def health(client: Any, n: int, gap: float = 0.0, took: list[float] | None = None) -> list[float]:
    """``n`` bare round trips (``GET /health``), in ms (appended to ``took`` as they come)."""
    took = [] if took is None else took
    for _ in range(n):
        start = time.perf_counter()
        status, _ = await client.call("GET", "/health", {})
        took.append((time.perf_counter() - start) * 1000)
        if status != 200:
            raise SystemExit(f"/health answered {status}")
        if gap:
            await asyncio.sleep(gap)
    return took


async def drive(port: int, args: argparse.Namespace, server_pid: int) -> dict[str, Any]:
    maker = Raw(port) if args.client == "raw" else Httpx(port)
    try:
        client = maker.seat()
        floor = await health(client, args.floor)
        hall, tables = Hall(), []
        players = list(NAMES[:args.players or PLAYERS.get(args.game, 2)])
        for i in range(args.tables):
            status, data = await client.call("POST", "/matches", {}, {"game": args.game, "players": players,
                                                                      "chance": "digital", "seed": args.seed * 1000 + i})
            if status != 201:
                raise SystemExit(f"creating a match: {status} {str(data)[:300]}")
            tables.append(Table(data["match"]["id"], data["tokens"]["seats"]))
        wakes = {(t.mid, s): asyncio.Event() for t in tables for s in t.tokens}
        pages = {(t.mid, s): maker.seat() for t in tables for s in t.tokens}
        listeners = [asyncio.create_task(listen(pages[t.mid, s], t, s, wakes[t.mid, s], hall))
                     for t in tables for s in t.tokens]
        # what the open pages cost the server while nobody moves (each stream waits to be woken by an append,
        # looking by itself every 10 s; each process watches the SQLite file every 50 ms)
        await asyncio.sleep(1.0)
        idle_cpu = tree_cpu(server_pid)
        await asyncio.sleep(args.idle)
        idle_cpu = (tree_cpu(server_pid) - idle_cpu) / args.idle if args.idle else float("nan")
        cpu0 = time.process_time()
        start = time.monotonic()
        deadline = start + args.seconds
        loaded: list[float] = []
        probe = asyncio.create_task(health(maker.seat(), 10**9, 0.1, loaded))
        await asyncio.gather(*(play(pages[t.mid, s], t, s, wakes[t.mid, s], args.moves, deadline, hall, args.think,
                                    random.Random(args.seed * 1000 + i)) for i, (t, s) in enumerate(
                                        (t, s) for t in tables for s in t.tokens)))
        played = time.monotonic() - start
        until = time.monotonic() + DRAIN
        while any(t.owed() for t in tables) and time.monotonic() < until:
            await asyncio.sleep(0.05)
        client_cpu = time.process_time() - cpu0
        probe.cancel()
        for task in listeners:
            task.cancel()
        await asyncio.gather(probe, *listeners, return_exceptions=True)
    finally:
        await maker.close()
    delays = [(table.received[seat][seq] - at) * 1000 for table in tables
              for seq, (writer, at) in table.written.items() for seat in table.tokens
              if seat != writer and seq in table.received[seat]]
    owed = sum(len(t.tokens) - 1 for t in tables for _ in t.written)
    verdicts: dict[str, int] = {}
    for t in tables:
        for k, v in t.verdicts.items():
            verdicts[k] = verdicts.get(k, 0) + v
    return {
        "tables": args.tables, "seats": sum(len(t.tokens) for t in tables), "seconds": round(played, 2),
        "written": sum(len(t.written) for t in tables), "verdicts": verdicts,
        "deliveries_owed": owed, "deliveries_received": len(delays), "lost": owed - len(delays),
        "conflicts": sum(t.conflicts for t in tables), "games_ended": sum(t.ended for t in tables),
        "tables_short": sum(1 for t in tables if not t.ended and len(t.written) < args.moves),
        "seat_reads": hall.seat_reads, "errors": hall.errors,
        "event_p50_ms": round(pct(delays, 50), 1), "event_p99_ms": round(pct(delays, 99), 1),
        "event_max_ms": round(max(delays, default=float("nan")), 1),
        "submit_p50_ms": round(pct(hall.submit_ms, 50), 1), "submit_p99_ms": round(pct(hall.submit_ms, 99), 1),
        "floor_p50_ms": round(pct(floor, 50), 2), "floor_p99_ms": round(pct(floor, 99), 2),
        "event_p50_x_floor": round(pct(delays, 50) / pct(floor, 50), 1) if floor and delays else float("nan"),
        "health_loaded_p50_ms": round(pct(loaded, 50), 1), "health_loaded_p99_ms": round(pct(loaded, 99), 1),
        "client_cpu_s": round(client_cpu, 2), "idle_server_cpu_per_s": round(idle_cpu, 3),
    }


def peak_rss_mib(pid: int) -> float:
    """Peak resident memory (VmHWM) summed over ``pid`` and the processes below it, in MiB (Linux)."""
    total, todo = 0, [pid]
    try:
        while todo:
            p = todo.pop()
            with open(f"/proc/{p}/status") as fh:
                total += next(int(line.split()[1]) for line in fh if line.startswith("VmHWM:"))
            for task in os.listdir(f"/proc/{p}/task"):
                with open(f"/proc/{p}/task/{task}/children") as fh:
                    todo += [int(c) for c in fh.read().split()]
    except (OSError, ValueError, StopIteration):
        return float("nan")
    return round(total / 1024, 1)


def run(args: argparse.Namespace) -> dict[str, Any]:
    port = free_port()
    with tempfile.TemporaryDirectory() as tmp:
        db, log = os.path.join(tmp, "hall.db"), os.path.join(tmp, "serve.log")
        env = {**os.environ, "PYTHONPATH": ROOT + os.pathsep + os.environ.get("PYTHONPATH", "")}
        with open(log, "wb") as out:
            server = subprocess.Popen([sys.executable, "-m", "cli.main", "--durability", args.durability, "serve",
                                       "--port", str(port), "--db", db, "--workers", str(args.workers)],
                                      cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)
        try:
            wait_up(port, server, log)
            cpu0 = tree_cpu(server.pid)
            result = asyncio.run(drive(port, args, server.pid))
            result["server_cpu_s"] = round(tree_cpu(server.pid) - cpu0, 2)
            result["server_peak_rss_mib"] = peak_rss_mib(server.pid)
        finally:
            server.terminate()
            server.wait(15)
    result["client_peak_rss_mib"] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)
    result["load_average"] = round(os.getloadavg()[0], 2)
    return result


def wait_up(port: int, server: subprocess.Popen[bytes], log: str) -> None:
    import http.client

    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if server.poll() is not None:
            with open(log) as fh:
                raise SystemExit(f"referee serve stopped: {fh.read()[-2000:]}")
        with contextlib.suppress(OSError):  # not listening yet
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
            conn.request("GET", "/health")
            if conn.getresponse().status == 200:
                return
        time.sleep(0.1)
    raise SystemExit("referee serve did not answer /health within 60 s")


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--moves", type=int, default=20, help="entries written per table before it stops")
    parser.add_argument("--seconds", type=float, default=120.0, help="the longest the tables play")
    parser.add_argument("--game", default="by_all_means", choices=sorted(PLAYERS))
    parser.add_argument("--players", type=int, default=0, choices=(0, 2, 3, 4),
                        help="seats per table (default 0: the game's usual)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--think", type=float, default=0.0,
                        help="seconds a seat thinks before it submits, on average (exponential; default 0: at once, "
                             "every table as fast as the server answers)")
    parser.add_argument("--workers", type=int, default=1, help="server processes (referee serve --workers)")
    parser.add_argument("--durability", choices=("full", "normal"), default="full")
    parser.add_argument("--client", choices=("raw", "httpx"), default="raw",
                        help="raw: bench_http's minimal client on asyncio streams (cheap, so the server is what is "
                             "measured); httpx: httpx's asyncio client")
    parser.add_argument("--idle", type=float, default=5.0,
                        help="seconds every page's stream stays open before anyone moves: the server's CPU then")
    parser.add_argument("--floor", type=int, default=200, help="bare round trips (GET /health) for the floor")
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    args = parser.parse_args()
    if args.tables < 1 or args.moves < 1 or args.seconds <= 0 or args.think < 0:
        parser.error("--tables and --moves must be 1 or more, --seconds above 0 and --think 0 or more")
    r = run(args)
    if args.json:
        print(json.dumps(r, indent=2))
        return
    print(f"{r['tables']} tables ({r['seats']} seats), {args.game}, up to {args.moves} moves each"
          + (f", {args.think:g} s to think" if args.think else ", closed loop") + ", SQLite "
          f"{args.durability.upper()}, {args.workers} worker(s); played {r['seconds']} s, load average {r['load_average']}:")
    print(f"  submit -> other seats' event  p50 {r['event_p50_ms']} ms, p99 {r['event_p99_ms']} ms, "
          f"max {r['event_max_ms']} ms (the submit's own answer: p50 {r['submit_p50_ms']} ms, p99 {r['submit_p99_ms']} ms)")
    print(f"  floor GET /health             p50 {r['floor_p50_ms']} ms (event p50 = {r['event_p50_x_floor']}x), "
          f"p99 {r['floor_p99_ms']} ms idle; "
          f"p50 {r['health_loaded_p50_ms']} ms, p99 {r['health_loaded_p99_ms']} ms while playing")
    print(f"  entries written {r['written']} {r['verdicts']}, deliveries owed {r['deliveries_owed']}, received "
          f"{r['deliveries_received']}, lost {r['lost']}; conflicts {r['conflicts']}; games ended "
          f"{r['games_ended']}; /seat reads {r['seat_reads']}; errors {r['errors']}")
    print(f"  CPU: server {r['server_cpu_s']} s, clients {r['client_cpu_s']} s; peak RSS server "
          f"{r['server_peak_rss_mib']} MiB, clients {r['client_peak_rss_mib']} MiB; the open pages while nobody moves: "
          f"server CPU {r['idle_server_cpu_per_s']} s per s")


if __name__ == "__main__":
    main()
