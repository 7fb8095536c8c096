"""Benchmark: a tournament hall over HTTP. Starts ``referee serve``'s app on 127.0.0.1 (a free port,
its own process, a fresh SQLite file), then drives ``--tables`` tables at once for ``--seconds``:

each table creates a match, then loops: it picks a random legal intent — from its own copy of the
match by default (``--moves local``: the table keeps the match as a scorekeeper's laptop would, and
checks that its copy reaches the server's verdict and state hash every time), or by asking
``GET /matches/{id}/legal`` as the arbiter (``--moves server``) — then ``POST /matches/{id}/intents``
with ``expected_seq`` and an ``Idempotency-Key``. When a match ends the table starts another. Afterwards every match is audited
and its log compared with what the table was told: every answered entry must be in the log exactly
once, at its seq (lost and duplicated entries must both be zero).

Reports accepted intents per second, p50/p99 latency of the intent POSTs and of all requests, and
the checks; with ``--runs N`` the figures are medians of N runs (a fresh server and database each).

    python benchmarks/bench_http.py                        # 50 tables, 20 s, the test game
    python benchmarks/bench_http.py --game by_all_means --seconds 10 --runs 3
    python benchmarks/bench_http.py --postgres temp --servers 2  # two servers over one PostgreSQL database
    python benchmarks/bench_http.py --matrix --seconds 10        # 50/200 tables: SQLite x2, PostgreSQL x1/2/4

The tables are driven from one asyncio loop, one keep-alive HTTP/1.1 connection each (a minimal
client on asyncio streams: the cheapest there is, so that the server is what is measured and no
client thread waits for the GIL while the clock runs). Traffic goes to 127.0.0.1 only.
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Callable
from typing import Any

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

CREATE = {
    "pile": {"game": "pile", "players": ["alice", "bob"], "options": {"stones": 1_000_000}, "seed": 1},
    "by_all_means": {"game": "by_all_means", "players": ["alice", "bob"], "seed": 1},
}


def _games(name: str) -> list[Any]:
    if name == "pile":
        sys.path.insert(0, os.path.join(ROOT, "tests"))
        from support.pile import PILE

        return [PILE]
    from referee.games import GAMES

    return [g for g in GAMES if g.id == name or name in g.aliases]


def app() -> Any:
    """The HTTP app over one SQLite file or PostgreSQL URL (``BENCH_DB``, ``BENCH_GAME``), one Referee per
    thread (over PostgreSQL: one store, and so one connection pool, for the process, as ``referee serve``)."""
    from referee.http import create_app
    from referee.service import Referee
    from referee.store.sqlite import SqliteStore

    db, games = os.environ["BENCH_DB"], _games(os.environ["BENCH_GAME"])
    if db.startswith("postgresql://"):
        from referee.store.postgres import PostgresStore

        shared = PostgresStore(db, pool=16)
        made = create_app(lambda: Referee(shared, games=games))
    else:
        made = create_app(lambda: Referee(SqliteStore(db), games=games))
    if os.environ.get("BENCH_PROFILE"):
        made.on_shutdown.append(_profile_worker(os.environ["BENCH_PROFILE"]))
    return made


def _profile_worker(folder: str) -> Callable[[], None]:
    """Profile this server worker (every thread, CPU time) with yappi from now on; the function returned
    (run when the app shuts down) writes its function statistics in pstats' format to ``folder``
    (``--profile``: the benchmark only)."""
    try:
        import yappi  # type: ignore[import-not-found]
    except ImportError:
        raise SystemExit("--profile needs yappi in the servers' Python (pip install yappi)") from None
    yappi.set_clock_type("cpu")
    yappi.start()

    def dump() -> None:
        yappi.stop()
        yappi.get_func_stats().save(os.path.join(folder, f"worker-{os.getpid()}.prof"), type="pstat")

    return dump


def profile_report(folder: str, top: int = 45) -> None:
    """The servers' profiles (``--profile``) merged: the functions by their own and by inclusive time."""
    import pstats

    files = sorted(os.path.join(folder, f) for f in os.listdir(folder) if f.endswith(".prof"))
    if not files:
        print(f"no profile was written in {folder}")
        return
    stats = pstats.Stats(*files)
    stats.sort_stats("tottime").print_stats(top)
    stats.sort_stats("cumulative").print_stats(top)


def serve(port: int, db: str, game: str, workers: int) -> None:
    """The server process(es): as ``referee serve`` runs it (uvicorn, one or more worker processes)."""
    import uvicorn

    os.environ["BENCH_DB"], os.environ["BENCH_GAME"] = db, game
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    uvicorn.run("bench_http:app", factory=True, host="127.0.0.1", port=port, log_level="warning",
                access_log=False, proxy_headers=False, server_header=False, workers=workers)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Conn:
    def __init__(self, port: int) -> None:
        self.port = port
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)

    def call(self, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None) -> tuple[int, Any, float]:
        data = None if body is None else json.dumps(body).encode()
        hdrs = {"Content-Type": "application/json", **(headers or {})} if data is not None else dict(headers or {})
        for attempt in (1, 2):
            start = time.perf_counter()
            try:
                self.conn.request(method, path, body=data, headers=hdrs)
                answer = self.conn.getresponse()
                raw = answer.read()
            except (ConnectionError, http.client.HTTPException, OSError):
                self.conn.close()
                self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
                if attempt == 2:
                    raise
                continue
            took = time.perf_counter() - start
            return answer.status, json.loads(raw) if raw else None, took
        raise AssertionError("unreachable")


class AsyncConn:
    """One keep-alive HTTP/1.1 connection on asyncio streams: the cheapest client there is, so that
    the server is what is measured (and no client thread waits for the GIL while the clock runs)."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.reader: Any = None
        self.writer: Any = None

    async def call(self, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None) -> tuple[int, Any, float]:
        import asyncio

        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)
        data = b"" if body is None else json.dumps(body).encode()
        lines = [f"{method} {path} HTTP/1.1", "Host: 127.0.0.1", f"Content-Length: {len(data)}"]
        if body is not None:
            lines.append("Content-Type: application/json")
        lines += [f"{k}: {v}" for k, v in (headers or {}).items()]
        start = time.perf_counter()
        self.writer.write(("\r\n".join(lines) + "\r\n\r\n").encode() + data)
        head = await self.reader.readuntil(b"\r\n\r\n")
        status = int(head[9:12])
        length = 0
        for line in head.split(b"\r\n")[1:]:
            name, _, value = line.partition(b":")
            if name.strip().lower() == b"content-length":
                length = int(value)
        raw = await self.reader.readexactly(length) if length else b""
        took = time.perf_counter() - start
        return status, json.loads(raw) if raw else None, took


class Tables:
    def __init__(self) -> None:
        self.post_ms: list[float] = []
        self.all_ms: list[float] = []
        self.accepted = 0
        self.rejected = 0
        self.errors: dict[str, int] = {}
        self.matches: list[tuple[str, str, dict[int, str]]] = []  # (id, arbiter token, seq -> notation)

    def error(self, what: str) -> None:
        self.errors[what] = self.errors.get(what, 0) + 1


async def _new_match(conn: AsyncConn, game: str, out: Tables) -> tuple[str, dict[str, str], dict[int, str]] | None:
    """Create a match for a table: (id, the arbiter's auth header, seq -> answered notation), or None."""
    status, created, took = await conn.call("POST", "/matches", CREATE[game])
    out.all_ms.append(took * 1000)
    if status != 201:
        out.error(f"create {status}")
        return None
    mid, arbiter = created["match"]["id"], created["tokens"]["arbiter"]
    answered: dict[int, str] = {}
    out.matches.append((mid, arbiter, answered))
    return mid, {"Authorization": f"Bearer {arbiter}"}, answered


#: intents per second per table (0 = as fast as the server answers: a closed loop)
PACE = 0.0


async def _pace(rate: float) -> None:
    """Keep a table to ``rate`` intents per second on average (exponential gaps: tables at a real
    hall do not submit in lockstep)."""
    import asyncio

    await asyncio.sleep(random.expovariate(rate))


async def table_local(port: int, game: str, deadline: float, out: Tables, seed: int) -> None:
    """A table that chooses its moves itself, the way a scorekeeper does: it keeps its own copy of
    the match's state (same game, configuration and seed, so the same chance), picks a random legal
    intent there (the game's ``random_intent`` where it has one, else one of ``legal_intents``),
    submits it, and folds the server's answer into its copy. One request per intent; the copy must
    reach the server's verdict and state hash every time (a mismatch is an error)."""
    from referee.engine import core
    from referee.engine.notation import format_intent
    from referee.engine.protocol import Accepted
    from referee.service import Referee
    from referee.store.memory import MemoryStore

    rng = random.Random(seed)
    conn = AsyncConn(port)
    spec = CREATE[game]
    builder = Referee(MemoryStore(), games=_games(game))
    g, config = builder.build_config(spec["game"], spec["players"], options=spec.get("options", {}), seed=spec.get("seed"))
    seats = tuple(config.players)
    while time.monotonic() < deadline:
        made = await _new_match(conn, game, out)
        if made is None:
            return
        mid, auth, answered = made
        rules = g.bind(config)
        state = rules.setup(core.chance_for(config, "setup"))
        head = 0
        sample = rules.random_intent
        while time.monotonic() < deadline:
            if PACE:
                await _pace(PACE)
            if rules.outcome(state) is not None:
                break
            if sample is not None:
                pick = sample(state, rng)
            else:
                options = [(s, i) for s in seats for i in rules.legal_intents(state, s)]
                pick = options[rng.randrange(len(options))] if options else None
            if pick is None:
                break
            seat, intent = pick
            text = format_intent(intent)
            body = {"intent": text, "seat": seat, "expected_seq": head}
            status, res, took = await conn.call("POST", f"/matches/{mid}/intents", body,
                                                {**auth, "Idempotency-Key": uuid.uuid4().hex})
            out.post_ms.append(took * 1000)
            out.all_ms.append(took * 1000)
            if status not in (200, 201):
                out.error(f"intent {status} {res.get('code') if isinstance(res, dict) else ''}")
                break
            answered[res["seq"]] = res["intent"]
            head = res["seq"]
            _, verdict = core.adjudicate(rules, state, seat, intent, core.play_chance(config))
            state = core.apply(rules, state, verdict)
            if isinstance(verdict, Accepted) != (res["verdict"] == "accepted") or core.state_hash(state) != res["state_hash"]:
                out.error("copy differs from the server")
                break
            if res["verdict"] == "accepted":
                out.accepted += 1
            else:
                out.rejected += 1


async def table(port: int, game: str, deadline: float, out: Tables, seed: int) -> None:
    rng = random.Random(seed)
    conn = AsyncConn(port)
    while time.monotonic() < deadline:
        made = await _new_match(conn, game, out)
        if made is None:
            return
        mid, auth, answered = made
        while time.monotonic() < deadline:
            status, legal, took = await conn.call("GET", f"/matches/{mid}/legal", headers=auth)
            out.all_ms.append(took * 1000)
            if status != 200:
                out.error(f"legal {status}")
                break
            options = [(seat, text) for seat, texts in legal["legal"].items() for text in texts]
            if not options:
                break  # the game is over (or stuck): a new match
            seat, text = options[rng.randrange(len(options))]
            body = {"intent": text, "seat": seat, "expected_seq": legal["seq"]}
            status, res, took = await conn.call("POST", f"/matches/{mid}/intents", body,
                                                {**auth, "Idempotency-Key": uuid.uuid4().hex})
            out.post_ms.append(took * 1000)
            out.all_ms.append(took * 1000)
            if status not in (200, 201):
                out.error(f"intent {status} {res.get('code') if isinstance(res, dict) else ''}")
                continue
            answered[res["seq"]] = res["intent"]
            if res["verdict"] == "accepted":
                out.accepted += 1
            else:
                out.rejected += 1


async def drive(ports: list[int], game: str, tables: int, seconds: float, seed: int, moves: str = "local") -> tuple[Tables, float]:
    """``tables`` tables for ``seconds``, table i talking to the server on ``ports[i % len(ports)]``."""
    import asyncio

    out = Tables()
    start = time.monotonic()
    play = table_local if moves == "local" else table
    await asyncio.gather(*(play(ports[i % len(ports)], game, start + seconds, out, seed * 1000 + i) for i in range(tables)))
    return out, time.monotonic() - start


def pct(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def check(port: int, out: Tables) -> dict[str, int]:
    """Audit every match and compare its log with what the table was answered."""
    conn = Conn(port)
    lost = duplicated = unclean = 0
    for mid, arbiter, answered in out.matches:
        auth = {"Authorization": f"Bearer {arbiter}"}
        status, report, _ = conn.call("GET", f"/matches/{mid}/audit", headers=auth)
        if status != 200 or not report["clean"]:
            unclean += 1
        entries: list[dict[str, Any]] = []
        while True:
            status, page, _ = conn.call("GET", f"/matches/{mid}/log?offset={len(entries)}&limit=1000", headers=auth)
            entries += page["entries"]
            if not page["entries"] or len(entries) >= page["total"]:
                break
        logged: dict[int, int] = {}
        for e in entries:
            logged[e["seq"]] = logged.get(e["seq"], 0) + 1
        duplicated += sum(n - 1 for n in logged.values()) + sum(1 for s in logged if s not in answered)
        lost += sum(1 for seq in answered if logged.get(seq) != 1)
        # an entry at the right seq must be the intent that was answered for it
        by_seq = {e["seq"]: e for e in entries}
        lost += sum(1 for seq, text in answered.items() if seq in by_seq and by_seq[seq]["notation"] != text
                    and not by_seq[seq]["notation"].startswith(text.split(" ")[0]))
    return {"matches": len(out.matches), "lost": lost, "duplicated": duplicated, "unclean": unclean}


def tree_cpu(pid: int) -> float:
    """CPU seconds (user + system) used so far by process ``pid`` and every process below it (Linux's
    /proc; NaN elsewhere): the servers' own cost, which a busy machine stretches less than their rate."""
    tick = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
    total, todo = 0.0, [pid]
    try:
        while todo:
            p = todo.pop()
            with open(f"/proc/{p}/stat") as fh:
                fields = fh.read().rpartition(")")[2].split()
            total += (int(fields[11]) + int(fields[12])) / tick
            for task in os.listdir(f"/proc/{p}/task"):
                with open(f"/proc/{p}/task/{task}/children") as fh:
                    todo += [int(c) for c in fh.read().split()]
    except (OSError, ValueError, IndexError):
        return float("nan")
    return total


def run_once(args: argparse.Namespace, seed: int, postgres: Any = None) -> dict[str, Any]:
    """One run: ``args.servers`` server processes (each with ``args.workers`` workers) over one fresh
    database, a SQLite file or (``postgres``: a :class:`tests.support.pg.Server`) a PostgreSQL database."""
    ports = [free_port() for _ in range(args.servers)]
    servers: list[subprocess.Popen[bytes]] = []
    with tempfile.TemporaryDirectory() as tmp:
        if postgres is not None:
            db = postgres.fresh()
        else:
            db = os.path.join(tmp, "hall.db")
            from referee.store.sqlite import SqliteStore

            SqliteStore(db).close()  # created and migrated before the workers start
        try:
            for port in ports:
                servers.append(subprocess.Popen(
                    [sys.executable, os.path.abspath(__file__), "--serve", "--port", str(port), "--db", db, "--game",
                     args.game, "--workers", str(args.workers)], cwd=ROOT))
            deadline = time.monotonic() + 60
            for port in ports:
                while True:
                    with contextlib.suppress(OSError):  # not listening yet
                        if Conn(port).call("GET", "/health")[0] == 200:
                            break
                    if time.monotonic() > deadline or any(s.poll() is not None for s in servers):
                        raise SystemExit("a server did not start")
                    time.sleep(0.1)
            import asyncio

            server_cpu, client_cpu = sum(tree_cpu(s.pid) for s in servers), time.process_time()
            out, elapsed = asyncio.run(drive(ports, args.game, args.tables, args.seconds, seed, args.moves))
            server_cpu = sum(tree_cpu(s.pid) for s in servers) - server_cpu
            client_cpu = time.process_time() - client_cpu
            checks = check(ports[-1], out)
        finally:
            for server in servers:
                server.terminate()
            for server in servers:  # (a profiled worker writes its profile first: slow on a loaded machine)
                server.wait(120 if args.profile else 10)
    return {
        "tables": args.tables, "seconds": round(elapsed, 2),
        "accepted_per_s": round(out.accepted / elapsed, 1),
        "intents_per_s": round((out.accepted + out.rejected) / elapsed, 1),
        "requests_per_s": round(len(out.all_ms) / elapsed, 1),
        "post_p50_ms": round(pct(out.post_ms, 50), 2), "post_p99_ms": round(pct(out.post_ms, 99), 2),
        "post_p90_ms": round(pct(out.post_ms, 90), 2), "post_max_ms": round(max(out.post_ms, default=0), 2),
        "all_p50_ms": round(pct(out.all_ms, 50), 2), "all_p99_ms": round(pct(out.all_ms, 99), 2),
        "server_cpu_ms_per_intent": round(server_cpu * 1000 / max(1, out.accepted + out.rejected), 3),
        "client_cpu_ms_per_intent": round(client_cpu * 1000 / max(1, out.accepted + out.rejected), 3),
        "accepted": out.accepted, "rejected": out.rejected, "errors": out.errors, **checks,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--game", default="pile", choices=sorted(CREATE))
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--workers", type=int, default=1, help="server worker processes (referee serve --workers)")
    parser.add_argument("--moves", default="local", choices=("local", "server"),
                        help="local: each table picks legal moves from its own copy of the match (one request per "
                             "intent); server: it asks GET /legal before every intent (two requests per intent)")
    parser.add_argument("--rate", type=float, default=0.0,
                        help="intents per second per table (--moves local; default 0: as fast as the server answers)")
    parser.add_argument("--servers", type=int, default=1,
                        help="separate server processes over the one database, on their own ports; the tables are "
                             "spread over them (a hall of several `referee serve`)")
    parser.add_argument("--postgres", default="", metavar="temp|URL",
                        help="a PostgreSQL database instead of a SQLite file: 'temp' starts a throw-away server "
                             "(the system's binaries, fsync on: commits flushed as in production; as root, run "
                             "as the postgres user), each run in a fresh schema")
    parser.add_argument("--matrix", action="store_true",
                        help="issue 18's comparison in one run: 50 and 200 tables, SQLite with 2 servers and "
                             "PostgreSQL (temp) with 1, 2 and 4, one table of results")
    parser.add_argument("--durability", choices=("full", "normal"), default="",
                        help="the SQLite store's durability in the servers (synchronous=FULL or NORMAL; "
                             "default: $REFEREE_DURABILITY, else full)")
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    parser.add_argument("--profile", metavar="DIR", default="",
                        help="profile every server worker with yappi (CPU time, all threads), write worker-PID.prof "
                             "files in DIR and print the merged profile after the run")
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--port", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--db", default="", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        serve(args.port, args.db, args.game, args.workers)
        return
    if args.durability:
        os.environ["REFEREE_DURABILITY"] = args.durability  # the servers' stores (they inherit it)
    global PACE
    PACE = args.rate
    if args.profile:
        try:
            import yappi  # noqa: F401  (the servers run this Python)
        except ImportError:
            raise SystemExit("--profile needs yappi in this Python (pip install yappi)") from None
        os.makedirs(args.profile, exist_ok=True)
        os.environ["BENCH_PROFILE"] = os.path.abspath(args.profile)  # the servers' workers (they inherit it)
    if args.matrix:
        matrix(args)
        return
    with _postgres(args.postgres) as postgres:
        runs = [run_once(args, seed, postgres) for seed in range(1, args.runs + 1)]
    keys = ("accepted_per_s", "intents_per_s", "requests_per_s", "post_p50_ms", "post_p99_ms", "all_p50_ms", "all_p99_ms",
            "server_cpu_ms_per_intent", "client_cpu_ms_per_intent")
    result = {k: statistics.median(r[k] for r in runs) for k in keys}
    result.update({k: sum(r[k] for r in runs) for k in ("lost", "duplicated", "unclean", "matches", "accepted", "rejected")})
    result["runs"] = runs
    if args.json:
        print(json.dumps(result, indent=2))
        return
    print(f"{args.tables} tables, {args.seconds:g} s, game {args.game}, "
          f"{'PostgreSQL' if args.postgres else 'SQLite ' + os.environ.get('REFEREE_DURABILITY', 'full').upper()}, {args.servers} server(s) of {args.workers} worker(s), "
          f"moves chosen {'by each table' if args.moves == 'local' else 'from GET /legal'}"
          + (f", each table at {args.rate:g} intents/s" if args.rate else ", closed loop")
          + f", {args.runs} run(s) (medians):")
    print(f"  accepted intents/s  {result['accepted_per_s']:>9}   (all intents/s {result['intents_per_s']}, requests/s {result['requests_per_s']})")
    print(f"  intent POST latency p50 {result['post_p50_ms']} ms, p99 {result['post_p99_ms']} ms")
    print(f"  CPU per intent      servers {result['server_cpu_ms_per_intent']} ms, "
          f"tables (this process) {result['client_cpu_ms_per_intent']} ms; load average {os.getloadavg()[0]:.2f}")
    print(f"  all requests        p50 {result['all_p50_ms']} ms, p99 {result['all_p99_ms']} ms")
    print(f"  matches {result['matches']}, audited unclean {result['unclean']}, lost {result['lost']}, "
          f"duplicated {result['duplicated']}, errors {[r['errors'] for r in runs]}")
    if args.profile:
        profile_report(args.profile)


@contextlib.contextmanager
def _postgres(how: str) -> Any:
    """Where the PostgreSQL runs go: None (SQLite), a started throw-away server, or a given URL."""
    if not how:
        yield None
        return
    sys.path.insert(0, os.path.join(ROOT, "tests"))
    if how != "temp":
        class Given:
            def fresh(self) -> str:
                return how

        yield Given()
        return
    from support.pg import Server

    server = Server()
    why = server.why_not()
    if why:
        raise SystemExit(f"no PostgreSQL for the benchmark: {why}")
    server.start(durable=True)
    try:
        yield server
    finally:
        server.stop()


def matrix(args: argparse.Namespace) -> None:
    """50 and 200 tables: SQLite with 2 servers, PostgreSQL with 1, 2 and 4 (issue 18), one after another."""
    rows = []
    with _postgres("temp") as postgres:
        for tables in (50, 200):
            for name, servers in (("SQLite", 2), ("PostgreSQL", 1), ("PostgreSQL", 2), ("PostgreSQL", 4)):
                run = argparse.Namespace(**{**vars(args), "tables": tables, "servers": servers})
                result = run_once(run, 1, postgres if name == "PostgreSQL" else None)
                rows.append((tables, name, servers, result))
                print(f"{tables:>4} tables  {name:<10} {servers} server(s): {result['accepted_per_s']:>7} accepted/s, "
                      f"POST p50 {result['post_p50_ms']} ms, p99 {result['post_p99_ms']} ms; lost {result['lost']}, "
                      f"duplicated {result['duplicated']}, unclean {result['unclean']}, errors {result['errors']}",
                      flush=True)
    if args.json:
        print(json.dumps([{"tables": t, "store": n, "servers": k, **r} for t, n, k, r in rows], indent=2))


if __name__ == "__main__":
    main()
