"""Benchmark: what an attacker holding a spectator's token can make the server spend.

One By All Means match of ``--entries`` entries (default 20,000; built by seeded random legal play
with undos, as ``bench_timetravel.py`` builds its match, or reused with ``--db PATH``), then, each in
its own process so that its peak memory is its own, ``--runs`` times (medians reported):

* the spectator's export of the match through the service layer (``referee.export.export``), as
  json, md and html: time and peak RSS of the process;
* the same over HTTP: ``referee serve``'s app (uvicorn, one worker, a free port on 127.0.0.1, a fresh
  server process per measurement) with a spectator token minted for the match in the database
  (``Access._mint``): ``GET /matches/{id}/export?format=json`` timed to the last byte, one request
  alone and three at once (threads), and the server's peak RSS (``VmHWM``) after them;
* log pages over HTTP as the spectator: ``?offset=0&limit=100`` and the last page;
* importing a transcript with one 1 MB move line (and 100 KB, 300 KB: linear or worse?), on a fresh
  database, with a timeout (a refusal — a ``RefereeError`` — is reported as such, with its time);
* the floor: reading the match's ``body`` column with plain ``sqlite3`` and decoding each body with
  ``msgspec.json.decode`` (no project code); the export times are also given as ratios to it.

    python benchmarks/bench_hostile.py --quick                          # 2,000 entries, 1 run
    python benchmarks/bench_hostile.py --db /tmp/bench_hostile_20k.db   # builds it once, then reuses it
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import json
import os
import resource
import shutil
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from typing import Any

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, ROOT)
sys.path.insert(0, HERE)

TITLE = "time-travel benchmark"  # what bench_timetravel.build() names its match
RESULT = "RESULT "


def peak_rss_mib() -> float:
    """This process's peak resident set, in MiB: ``VmHWM`` of its own address space. Not
    ``ru_maxrss``: on Linux that survives fork and exec, so a phase process would report its parent's
    peak whenever the parent had been bigger (the HTTP client holding three exports, say)."""
    own = proc_status_mib(os.getpid(), "VmHWM")
    return own if own is not None else round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)


def proc_status_mib(pid: int, key: str) -> float | None:
    """``VmHWM`` (peak) or ``VmRSS`` (now) of another process, in MiB."""
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith(key + ":"):
                    return round(int(line.split()[1]) / 1024, 1)
    except OSError:
        return None
    return None


def med(values: list[float]) -> float | None:
    return statistics.median(values) if values else None


# -- the match -----------------------------------------------------------------------------------------


def find_match(path: str) -> tuple[str, int]:
    """(id, head) of the benchmark match in a database: the longest one titled as the builder titles it
    (or the longest match of all)."""
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        rows = conn.execute(
            "SELECT m.id, m.title, (SELECT max(seq) FROM entries e WHERE e.match_id = m.id) FROM matches m"
        ).fetchall()
    finally:
        conn.close()
    if not rows:
        raise SystemExit(f"{path} holds no match")
    titled = [r for r in rows if r[1] == TITLE] or rows
    best = max(titled, key=lambda r: r[2] or 0)
    return best[0], int(best[2] or 0)


def build_match(path: str, entries: int, seed: int) -> tuple[str, dict[str, Any]]:
    """bench_timetravel's build(), with a progress line every 15 s (read from the file by a thread)."""
    from bench_timetravel import build

    done = threading.Event()
    t0 = time.perf_counter()

    def progress() -> None:
        while not done.wait(15):
            with contextlib.suppress(sqlite3.Error):
                conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=5)
                try:
                    n = conn.execute("SELECT max(seq) FROM entries").fetchone()[0] or 0
                finally:
                    conn.close()
                rate = n / max(time.perf_counter() - t0, 1e-9)
                eta = (entries - n) / rate if rate else float("nan")
                print(f"  ... {n:,} / {entries:,} entries after {time.perf_counter() - t0:.0f} s "
                      f"({rate:.0f}/s, ~{eta:.0f} s to go)", flush=True)

    watcher = threading.Thread(target=progress, daemon=True)
    watcher.start()
    try:
        return build(path, "by_all_means", entries, 64, seed)
    finally:
        done.set()
        watcher.join(1)


def mint_spectator(path: str, match_id: str) -> str:
    """A spectator token for an existing match, recorded in the database (only its hash is stored)."""
    from referee.access import Access
    from referee.service import Referee
    from referee.store.sqlite import SqliteStore

    store = SqliteStore(path, create=False)
    try:
        referee = Referee(store)
        stored = store.get_match(match_id)
        if stored is None:
            raise LookupError(f"no match {match_id} in {path}")
        info = referee.info(stored)
        minted = Access(referee)._mint(info)
        # the spectator's token first; the seats' for requests from several token holders at once
        return ",".join([minted.spectator, *minted.seats.values()])
    finally:
        store.close()


# -- phases run in their own process (``--phase``) -----------------------------------------------------


def phase_export(db: str, match_id: str, fmt: str) -> dict[str, Any]:
    from referee.export import export_chunks
    from referee.service import Referee
    from referee.store.sqlite import SqliteStore

    referee = Referee(SqliteStore(db, create=False))
    before = peak_rss_mib()
    t0 = time.perf_counter()
    size = 0
    # as `referee export` writes it: piece by piece, as the log is walked (never the whole text at once)
    for piece in export_chunks(referee, match_id, fmt, "spectator"):
        size += len(piece.encode())
    took = time.perf_counter() - t0
    peak = peak_rss_mib()
    return {"seconds": took, "bytes": size, "rss_before_mib": before, "peak_rss_mib": peak}


def phase_floor(db: str, match_id: str) -> dict[str, Any]:
    import msgspec

    decode = msgspec.json.decode
    conn = sqlite3.connect(db)
    before = peak_rss_mib()
    t0 = time.perf_counter()
    n = 0
    for (body,) in conn.execute("SELECT body FROM entries WHERE match_id = ? ORDER BY seq", (match_id,)):
        decode(body)
        n += 1
    took = time.perf_counter() - t0
    conn.close()
    return {"seconds": took, "entries": n, "rss_before_mib": before, "peak_rss_mib": peak_rss_mib()}


def phase_import(size: int) -> dict[str, Any]:
    from referee.errors import RefereeError
    from referee.service import Referee
    from referee.store.sqlite import SqliteStore
    from referee.transcript import import_transcript

    tmp = tempfile.mkdtemp(prefix="referee-hostile-import-")
    try:
        referee = Referee(SqliteStore(os.path.join(tmp, "import.db")))
        text = "game: by_all_means\nplayers: alice, bob\n\nalice: draw_main card=" + "A" * size + "\n"
        before = peak_rss_mib()
        t0 = time.perf_counter()
        try:
            summary = import_transcript(referee, text, "big.txt")
        except RefereeError as exc:
            took = time.perf_counter() - t0
            return {"seconds": took, "outcome": f"refused: {exc.code}: {exc.message[:200]}",
                    "rss_before_mib": before, "peak_rss_mib": peak_rss_mib()}
        took = time.perf_counter() - t0
        problems = list(summary.problems)
        codes = sorted({pr.code for pr in problems})
        outcome = (f"imported: {summary.entries} entries, accepted {summary.accepted}, rejected {summary.rejected}, "
                   f"{len(problems)} problem(s)" + (f" ({', '.join(codes)})" if codes else ""))
        return {"seconds": took, "outcome": outcome, "rss_before_mib": before, "peak_rss_mib": peak_rss_mib()}
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def run_phase(argv: list[str], timeout: float) -> dict[str, Any]:
    """Run ``--phase ...`` in a fresh interpreter; its result, or {"error": ...}/{"timeout": ...}."""
    cmd = [sys.executable, os.path.abspath(__file__), *argv]
    t0 = time.perf_counter()
    try:
        proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return {"timeout": timeout, "outcome": f"timed out after {timeout:g} s"}
    lines = [ln for ln in proc.stdout.splitlines() if ln.startswith(RESULT)]
    if proc.returncode != 0 or not lines:
        tail = (proc.stderr or proc.stdout).strip().splitlines()[-6:]
        return {"error": f"exit {proc.returncode} after {time.perf_counter() - t0:.1f} s: " + " | ".join(tail)}
    return json.loads(lines[-1][len(RESULT):])


# -- HTTP ----------------------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


SERVE = ("import sys\n"
         "from cli.serve import serve\n"
         "serve('127.0.0.1', int(sys.argv[1]), sys.argv[2], workers=1, log_level='warning')\n")


class Server:
    """``referee serve`` (cli.serve.serve: uvicorn, one worker, so the process started is the server)
    over ``db`` on a free port; stopped on exit, whatever happened."""

    def __init__(self, db: str) -> None:
        self.db = db
        self.port = free_port()
        self.proc: subprocess.Popen[bytes] | None = None
        self.log = tempfile.NamedTemporaryFile(prefix="referee-hostile-serve-", suffix=".log", delete=False)

    def __enter__(self) -> Server:
        env = {k: v for k, v in os.environ.items() if k != "REFEREE_ADMIN_TOKEN"}
        self.proc = subprocess.Popen([sys.executable, "-c", SERVE, str(self.port), self.db], cwd=ROOT, env=env,
                                     stdout=subprocess.DEVNULL, stderr=self.log)
        deadline = time.monotonic() + 60
        while True:
            with contextlib.suppress(OSError, http.client.HTTPException):
                if request(self.port, "/health", None, 5)[0] == 200:
                    return self
            if self.proc.poll() is not None or time.monotonic() > deadline:
                self.stop()
                raise RuntimeError(f"the server did not start: {self.tail()}")
            time.sleep(0.1)

    def tail(self) -> str:
        with contextlib.suppress(OSError), open(self.log.name, errors="replace") as f:
            return " | ".join(f.read().strip().splitlines()[-6:])
        return ""

    def hwm(self) -> float | None:
        return proc_status_mib(self.proc.pid, "VmHWM") if self.proc else None

    def rss(self) -> float | None:
        return proc_status_mib(self.proc.pid, "VmRSS") if self.proc else None

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)
        self.log.close()
        with contextlib.suppress(OSError):
            os.unlink(self.log.name)

    def __exit__(self, *exc: Any) -> None:
        self.stop()


def request(port: int, path: str, token: str | None, timeout: float, keep: bool = True) -> tuple[int, bytes | int, float]:
    """(status, body, seconds from sending to the last byte) of one GET on a new connection. With
    ``keep=False`` the body is read in 1 MiB chunks and only its length is returned (the client
    keeps no copy of a big answer)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        t0 = time.perf_counter()
        conn.request("GET", path, headers=headers)
        answer = conn.getresponse()
        if keep or answer.status != 200:
            body: bytes | int = answer.read()
        else:
            body = 0
            while chunk := answer.read(1 << 20):
                body += len(chunk)
        return answer.status, body, time.perf_counter() - t0
    finally:
        conn.close()


def _size(body: bytes | int) -> int:
    return body if isinstance(body, int) else len(body)


def http_export_once(db: str, mid: str, token: str, timeout: float) -> dict[str, Any]:
    token = token.split(",")[0]
    with Server(db) as server:
        idle = server.hwm()
        status, body, took = request(server.port, f"/matches/{mid}/export?format=json", token, timeout, keep=False)
        if status != 200:
            raise RuntimeError(f"export answered {status}: {body!r:.300}")
        return {"seconds": took, "bytes": _size(body), "server_idle_hwm_mib": idle, "server_peak_mib": server.hwm(),
                "server_rss_after_mib": server.rss()}


def http_export_concurrent(db: str, mid: str, token: str, timeout: float, n: int = 3) -> dict[str, Any]:
    """Three exports at once, from three token holders (the spectators' and each seat's token): one
    token may have only two whole-log requests running (see http_export_same_token)."""
    tokens = token.split(",")
    with Server(db) as server:
        idle = server.hwm()
        barrier = threading.Barrier(n + 1)
        results: list[Any] = [None] * n

        def one(i: int) -> None:
            barrier.wait()
            try:
                results[i] = request(server.port, f"/matches/{mid}/export?format=json", tokens[i % len(tokens)],
                                     timeout, keep=False)
            except Exception as exc:  # reported below
                results[i] = exc

        threads = [threading.Thread(target=one, args=(i,)) for i in range(n)]
        for t in threads:
            t.start()
        barrier.wait()
        t0 = time.perf_counter()
        for t in threads:
            t.join()
        wall = time.perf_counter() - t0
        bad = [r for r in results if isinstance(r, Exception) or r[0] != 200]
        if bad:
            raise RuntimeError(f"{len(bad)} of {n} concurrent exports failed: {bad[0]!r:.300}")
        return {"wall_seconds": wall, "each_seconds": [r[2] for r in results], "bytes": _size(results[0][1]),
                "server_idle_hwm_mib": idle,
                "server_peak_mib": server.hwm(), "server_rss_after_mib": server.rss()}


def http_export_same_token(db: str, mid: str, token: str, timeout: float, n: int = 3) -> dict[str, Any]:
    """Three exports at once with one token: two are served, the third is told to retry (429)."""
    token = token.split(",")[0]
    with Server(db) as server:
        barrier = threading.Barrier(n + 1)
        results: list[Any] = [None] * n

        def one(i: int) -> None:
            barrier.wait()
            try:
                results[i] = request(server.port, f"/matches/{mid}/export?format=json", token, timeout, keep=False)
            except Exception as exc:  # reported below
                results[i] = exc

        threads = [threading.Thread(target=one, args=(i,)) for i in range(n)]
        for t in threads:
            t.start()
        barrier.wait()
        for t in threads:
            t.join()
        codes = sorted(r[0] if not isinstance(r, Exception) else -1 for r in results)
        return {"served": codes.count(200), "busy_429": codes.count(429), "server_peak_mib": server.hwm()}


def http_log_pages(db: str, mid: str, token: str, timeout: float, repeat: int = 5) -> dict[str, Any]:
    token = token.split(",")[0]
    with Server(db) as server:
        status, body, cold = request(server.port, f"/matches/{mid}/log?offset=0&limit=100", token, timeout)
        if status != 200:
            raise RuntimeError(f"log answered {status}: {body!r:.300}")
        assert isinstance(body, bytes)
        page = json.loads(body)
        total = int(page["total"])
        last = max(0, total - 100)
        first_ms: list[float] = []
        last_ms: list[float] = []
        for _ in range(repeat):
            for offset, out in ((0, first_ms), (last, last_ms)):
                status, body, took = request(server.port, f"/matches/{mid}/log?offset={offset}&limit=100", token, timeout)
                if status != 200:
                    raise RuntimeError(f"log answered {status}: {body!r:.300}")
                out.append(took)
        return {"cold_first_seconds": cold, "first_seconds": statistics.median(first_ms),
                "last_seconds": statistics.median(last_ms), "total": total, "page_bytes": _size(body),
                "server_peak_mib": server.hwm()}


# -- the report ----------------------------------------------------------------------------------------


def fmt_s(seconds: float | None) -> str:
    if seconds is None:
        return "—"
    return f"{seconds * 1000:.1f} ms" if seconds < 1 else f"{seconds:.2f} s"


def fmt_mib(value: float | None) -> str:
    return "—" if value is None else f"{value:,.0f} MiB"


def fmt_bytes(n: float | None) -> str:
    if n is None:
        return "—"
    return f"{n / 1e6:.1f} MB" if n >= 1e5 else f"{n / 1e3:.1f} kB"


def summarise(runs: list[dict[str, Any]], keys: tuple[str, ...]) -> dict[str, Any]:
    """Medians over the runs that worked, and the errors of those that did not."""
    ok = [r for r in runs if "error" not in r and "timeout" not in r]
    out: dict[str, Any] = {"runs": len(runs), "ok": len(ok)}
    for k in keys:
        vals = [r[k] for r in ok if r.get(k) is not None]
        if vals and isinstance(vals[0], (int, float)):
            out[k] = statistics.median(vals)
        elif vals:
            out[k] = vals[-1]
    problems = [r.get("error") or r.get("outcome") for r in runs if "error" in r or "timeout" in r]
    if problems:
        out["problems"] = problems
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--entries", type=int, default=20_000, help="entries of the match to build")
    ap.add_argument("--db", help="the database: reused if it exists, else built there and kept")
    ap.add_argument("--runs", type=int, default=3, help="repeats of every measurement (medians)")
    ap.add_argument("--quick", action="store_true", help="2,000 entries, 1 run, smaller import lines")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--import-sizes", default="100000,300000,1000000", help="move-line lengths to import")
    ap.add_argument("--import-timeout", type=float, default=120.0)
    ap.add_argument("--timeout", type=float, default=1800.0, help="for every other phase and HTTP request")
    ap.add_argument("--json-out", help="also write the figures here as JSON")
    ap.add_argument("--phase", help=argparse.SUPPRESS)
    ap.add_argument("--match", help=argparse.SUPPRESS)
    ap.add_argument("--fmt", help=argparse.SUPPRESS)
    ap.add_argument("--size", type=int, help=argparse.SUPPRESS)
    args = ap.parse_args()

    if args.phase:
        if args.phase == "export":
            res = phase_export(args.db, args.match, args.fmt)
        elif args.phase == "floor":
            res = phase_floor(args.db, args.match)
        elif args.phase == "import":
            res = phase_import(args.size)
        else:
            raise SystemExit(f"unknown phase {args.phase}")
        print(RESULT + json.dumps(res), flush=True)
        return

    if args.quick:
        args.entries, args.runs = 2_000, 1
        if args.import_sizes == ap.get_default("import_sizes"):
            args.import_sizes = "10000,30000,100000"
    sizes = [int(s) for s in args.import_sizes.split(",") if s.strip()]

    tmpdir = None
    if args.db and os.path.exists(args.db):
        db = args.db
        mid, head = find_match(db)
        built: dict[str, Any] = {"entries": head, "reused": db}
        print(f"reusing {db}: match {mid}, {head:,} entries", flush=True)
    else:
        if args.db:
            db = args.db
        else:
            tmpdir = tempfile.mkdtemp(prefix="referee-hostile-")
            db = os.path.join(tmpdir, "hostile.db")
        print(f"building a {args.entries:,}-entry by_all_means match (undo-heavy random play) in {db} ...", flush=True)
        mid, built = build_match(db, args.entries, args.seed)
        built["db"] = db
        print(f"  built: {built}", flush=True)
    head = int(built["entries"])

    figures: dict[str, Any] = {"match": mid, "entries": head, "built": built, "runs": args.runs}
    try:
        # e. the floor
        print("floor: plain sqlite3 + msgspec.json.decode of every body ...", flush=True)
        floor_runs = [run_phase(["--phase", "floor", "--db", db, "--match", mid], args.timeout) for _ in range(args.runs)]
        figures["floor"] = summarise(floor_runs, ("seconds", "entries", "peak_rss_mib"))
        print(f"  {figures['floor']}", flush=True)
        floor = figures["floor"].get("seconds")

        # a. local exports
        for fmt in ("json", "md", "html"):
            print(f"local export as spectator, {fmt} ...", flush=True)
            runs = [run_phase(["--phase", "export", "--db", db, "--match", mid, "--fmt", fmt], args.timeout)
                    for _ in range(args.runs)]
            figures[f"export_{fmt}"] = summarise(runs, ("seconds", "bytes", "rss_before_mib", "peak_rss_mib"))
            print(f"  {figures[f'export_{fmt}']}", flush=True)

        # b, c. HTTP
        token = None
        try:
            token = mint_spectator(db, mid)
        except Exception as exc:
            figures["http_error"] = f"could not mint a spectator token: {exc!r}"
            print(f"  {figures['http_error']}", flush=True)
        if token:
            for name, fn, keys in (
                ("http_export", http_export_once,
                 ("seconds", "bytes", "server_idle_hwm_mib", "server_peak_mib", "server_rss_after_mib")),
                ("http_export_x3", http_export_concurrent,
                 ("wall_seconds", "each_median_seconds", "server_idle_hwm_mib", "server_peak_mib", "server_rss_after_mib")),
                ("http_export_same_token", http_export_same_token, ("served", "busy_429", "server_peak_mib")),
                ("http_log", http_log_pages,
                 ("cold_first_seconds", "first_seconds", "last_seconds", "total", "page_bytes", "server_peak_mib")),
            ):
                print(f"HTTP: {name} ...", flush=True)
                runs = []
                for _ in range(args.runs):
                    try:
                        r = fn(db, mid, token, args.timeout)
                        if "each_seconds" in r:
                            r["each_median_seconds"] = statistics.median(r["each_seconds"])
                        runs.append(r)
                    except Exception as exc:
                        runs.append({"error": f"{type(exc).__name__}: {exc}"})
                figures[name] = summarise(runs, keys)
                print(f"  {figures[name]}", flush=True)

        # d. imports of a long move line
        figures["import"] = {}
        gave_up = False
        for size in sizes:
            print(f"import of a transcript with one {size:,}-character move line ...", flush=True)
            if gave_up:
                figures["import"][str(size)] = {"outcome": "skipped (a shorter line timed out)"}
                continue
            runs = []
            for _ in range(args.runs):
                r = run_phase(["--phase", "import", "--size", str(size)], args.import_timeout)
                runs.append(r)
                if "timeout" in r or "error" in r:
                    break
            s = summarise(runs, ("seconds", "outcome", "rss_before_mib", "peak_rss_mib"))
            if any("timeout" in r for r in runs):
                s["outcome"] = f"timed out after {args.import_timeout:g} s"
                gave_up = True
            figures["import"][str(size)] = s
            print(f"  {s}", flush=True)
    finally:
        if tmpdir:
            shutil.rmtree(tmpdir, ignore_errors=True)

    report(figures, floor)
    if args.json_out:
        with open(args.json_out, "w") as f:
            json.dump(figures, f, indent=2)
        print(f"(figures written to {args.json_out})")


def report(fig: dict[str, Any], floor: float | None) -> None:
    def ratio(seconds: float | None) -> str:
        if not (seconds and floor):
            return "—"
        r = seconds / floor
        return f"{r:.1f}x" if r < 10 else f"{r:,.0f}x"

    def problems(d: dict[str, Any]) -> str:
        return ("; ".join(str(p) for p in d.get("problems", [])))[:300]

    rows: list[tuple[str, str, str, str, str]] = []
    fl = fig.get("floor", {})
    rows.append(("floor: plain sqlite3 read + msgspec.json.decode of every body", fmt_s(fl.get("seconds")), "1x",
                 fmt_mib(fl.get("peak_rss_mib")), f"{fl.get('entries', '?')} bodies {problems(fl)}".strip()))
    for f in ("json", "md", "html"):
        d = fig.get(f"export_{f}", {})
        rows.append((f"local export, spectator, {f} (service layer)", fmt_s(d.get("seconds")), ratio(d.get("seconds")),
                     fmt_mib(d.get("peak_rss_mib")),
                     f"output {fmt_bytes(d.get('bytes'))}; process RSS before {fmt_mib(d.get('rss_before_mib'))} {problems(d)}".strip()))
    if "http_error" in fig:
        rows.append(("HTTP", "—", "—", "—", fig["http_error"]))
    d = fig.get("http_export")
    if d:
        rows.append(("HTTP GET /export?format=json as spectator, one request (to last byte)", fmt_s(d.get("seconds")),
                     ratio(d.get("seconds")), fmt_mib(d.get("server_peak_mib")),
                     f"server VmHWM; idle {fmt_mib(d.get('server_idle_hwm_mib'))}, RSS after "
                     f"{fmt_mib(d.get('server_rss_after_mib'))}; body {fmt_bytes(d.get('bytes'))} {problems(d)}".strip()))
    d = fig.get("http_export_x3")
    if d:
        rows.append(("HTTP export json, three requests at once (three tokens)", f"{fmt_s(d.get('wall_seconds'))} all, "
                     f"{fmt_s(d.get('each_median_seconds'))} each", ratio(d.get("wall_seconds")),
                     fmt_mib(d.get("server_peak_mib")),
                     f"server VmHWM; idle {fmt_mib(d.get('server_idle_hwm_mib'))}, RSS after "
                     f"{fmt_mib(d.get('server_rss_after_mib'))} {problems(d)}".strip()))
    d = fig.get("http_export_same_token")
    if d:
        rows.append(("HTTP export json, three at once with one token", "—", "—", fmt_mib(d.get("server_peak_mib")),
                     f"{d.get('served', '?')} served, {d.get('busy_429', '?')} told to retry (429) {problems(d)}".strip()))
    d = fig.get("http_log")
    if d:
        rows.append(("HTTP GET /log?offset=0&limit=100 as spectator", fmt_s(d.get("first_seconds")),
                     ratio(d.get("first_seconds")), fmt_mib(d.get("server_peak_mib")),
                     f"first request on a fresh server {fmt_s(d.get('cold_first_seconds'))}; "
                     f"{d.get('total', '?')} entries visible {problems(d)}".strip()))
        rows.append((f"HTTP GET /log?offset={max(0, int(d.get('total') or 100) - 100)}&limit=100 (last page)",
                     fmt_s(d.get("last_seconds")), ratio(d.get("last_seconds")), "(same server)",
                     f"page {fmt_bytes(d.get('page_bytes'))}"))
    for size, d in fig.get("import", {}).items():
        what = f"import_transcript, one move line of {int(size):,} chars"
        if "seconds" in d and not str(d.get("outcome", "")).startswith(("timed", "skipped")):
            rows.append((what, fmt_s(d.get("seconds")), "—", fmt_mib(d.get("peak_rss_mib")),
                         f"{d.get('outcome', '')}; process RSS before {fmt_mib(d.get('rss_before_mib'))} {problems(d)}".strip()))
        else:
            rows.append((what, "—", "—", "—", f"{d.get('outcome', '')} {problems(d)}".strip()))

    print()
    print(f"match {fig['match']}: {fig['entries']:,} entries; medians of {fig['runs']} run(s), each phase in its own process")
    print()
    print("| what | time | to floor | peak memory | notes |")
    print("|---|---|---|---|---|")
    for r in rows:
        print("| " + " | ".join(c.replace("|", "\\|") for c in r) + " |")


if __name__ == "__main__":
    main()
