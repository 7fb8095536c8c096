"""`referee matches` at scale and tournament standings at 2,048 players, beside their floors (issue 27).

1. ``matches``: a database of N matches (default 1,000, 10,000 and 100,000) is built fast: two template
   matches are made through the CLI (the club-night replay imported: finished, 86 entries; a new By All
   Means match with a few moves: playing), then N copies of their rows (match, entries, snapshots and,
   where the schema has the table, summary; one in 20 a finished one, one in ``--forks`` (50) a fork of the
   copy before it) are written with plain sqlite3 into the store's own tables in one transaction. Each listing runs as a process of its own, its output
   piped (plain lines; the code before summaries printed its rich table there too): ``matches``,
   ``matches --status playing`` and a page (``--limit 50 --offset N/2``), their bytecode compiled once into
   a private cache as an installed package has it (``--bytecode as-is``: the environment's choice; where
   PYTHONDONTWRITEBYTECODE is set each run would compile the CLI's modules again). The floor: a Python process
   that reads the same rows with plain sqlite3 and writes them as tab-separated lines. CPU (user +
   system of the process) and wall medians of ``--repeat`` runs, interleaved, and the peak memory.
2. ``standings`` at ``--players`` (2,048): a Swiss event through the service: each round paired, its
   results recorded by the arbiter in one record (a round's tables), the last round left open with half
   its matches finished (their summaries say so, as a finished log's would); then
   ``Tournaments.standings`` (CPU, median of ``--repeat``) beside the pairing alone (``pairing.swiss`` on
   the same entrants) and beside the same standings with the Fraction tie-breaks of
   ``referee.tournament.tiebreaks`` (the definitions).

Prints the load average before and after and a JSON summary. ``--code DIR`` runs the listings with
another checkout's code (e.g. main, before summaries; it builds its own schema).

    python benchmarks/bench_matches.py
    python benchmarks/bench_matches.py --sizes 1000,10000 --players 0 --code /work/main
    python benchmarks/bench_matches.py --sizes 10000 --players 0 --dir /tmp/bm --reuse   # list the same databases again
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEMO = os.path.join(ROOT, "replays", "by_all_means", "club-night.txt")

FLOOR = r"""
import sqlite3, sys
conn = sqlite3.connect(sys.argv[1])
table = "match_summaries" if conn.execute("SELECT 1 FROM sqlite_master WHERE name='match_summaries'").fetchone() else "matches"
order = "created_at, match_id" if table == "match_summaries" else "created_at, id"
out = sys.stdout
for row in conn.execute(f"SELECT * FROM {table} ORDER BY {order}"):
    out.write("\t".join("" if v is None else v.hex() if isinstance(v, bytes) else str(v) for v in row) + "\n")
"""


#: a regular install has its bytecode compiled: the timed processes keep theirs in a cache of their own
#: (never beside the sources; set by main), warmed by the first listing before the clock, instead of
#: compiling every module of the CLI in each run where PYTHONDONTWRITEBYTECODE is set
PYCACHE: dict[str, str] = {}


def run(code: str, args: list[str]) -> tuple[float, float, int]:
    """CPU seconds (user + system), wall seconds and peak memory (KiB) of one process, its output piped away."""
    env = {**os.environ, "PYTHONPATH": code, **PYCACHE}
    if PYCACHE:
        env.pop("PYTHONDONTWRITEBYTECODE", None)
    t0 = time.perf_counter()
    proc = subprocess.Popen([sys.executable, *args], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env,
                            cwd=code)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - t0
    err = proc.stderr.read().decode() if proc.stderr else ""
    if status != 0:
        raise SystemExit(f"{args} failed: {err}")
    return usage.ru_utime + usage.ru_stime, wall, usage.ru_maxrss


def cli(code: str, *args: str) -> str:
    env = {**os.environ, "PYTHONPATH": code}
    return subprocess.run([sys.executable, "-m", "cli.main", *args], env=env, cwd=code, check=True,
                          capture_output=True, text=True).stdout


def build(code: str, path: str, n: int, forks: int = 0) -> None:
    """``n`` matches: copies of a finished and a playing template (see the module's docstring)."""
    tmpl = path + ".tmpl.db"
    for p in (path, tmpl):
        if os.path.exists(p):
            os.remove(p)
    cli(code, "import", DEMO, "--db", tmpl)
    playing = cli(code, "new", "by_all_means", "--players", "ann,ben", "--db", tmpl).strip().splitlines()[-1].split()[-1]
    cli(code, "play", playing, "ann", "draw_opening_hand", "cards=TR1,TR2,AG1,PL2", "--db", tmpl)
    src = sqlite3.connect(tmpl)
    ids = [r[0] for r in src.execute("SELECT id FROM matches ORDER BY id")]
    done = next(i for i in ids if i != playing)
    tables = [r[0] for r in src.execute("SELECT name FROM sqlite_master WHERE type='table'")]
    summaries = "match_summaries" in tables
    if summaries:  # the template's own, as its writes kept them
        cli(code, "matches", "--db", tmpl)
    rows = {}
    for mid in (done, playing):
        rows[mid] = {t: src.execute(f"SELECT * FROM {t} WHERE {'id' if t == 'matches' else 'match_id'} = ?", (mid,)).fetchall()
                     for t in ("matches", "entries", "snapshots", *(["match_summaries"] if summaries else []))}
    src.close()
    os.replace(tmpl, path)
    for suffix in ("-wal", "-shm"):
        if os.path.exists(tmpl + suffix):
            os.replace(tmpl + suffix, path + suffix)
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA synchronous=OFF")
    cols = {t: [r[1] for r in conn.execute(f"PRAGMA table_info({t})")] for t in rows[done]}
    conn.execute("BEGIN")
    for i in range(n - 2):
        mid = f"b{i:011d}"
        created = f"2026-11-{1 + i // 86_400 % 27:02d}T{i // 3600 % 24:02d}:{i // 60 % 60:02d}:{i % 60:02d}Z"
        template = rows[done] if i % 20 == 0 else rows[playing]
        forked = forks and i % forks == forks // 2 and i > 0  # a fork (at 0) of the match copied before it
        for table, found in template.items():
            names = cols[table]
            for row in found:
                values = list(row)
                values[names.index("id" if table == "matches" else "match_id")] = mid
                if "created_at" in names:
                    values[names.index("created_at")] = created
                if forked and "parent" in names:
                    values[names.index("parent")], values[names.index("fork_seq")] = f"b{i - 1:011d}", 0
                if table == "annotations":
                    continue
                conn.execute(f"INSERT INTO {table} VALUES ({','.join('?' * len(values))})", values)
    conn.execute("COMMIT")
    conn.close()


def listing(code: str, sizes: list[int], repeat: int, where: str, forks: int = 0, reuse: bool = False) -> list[dict]:
    out = []
    for n in sizes:
        path = os.path.join(where, f"matches-{n}.db")
        t0 = time.perf_counter()
        if not (reuse and os.path.exists(path)):
            build(code, path, n, forks)
        built = time.perf_counter() - t0
        runs = {"floor": ["-c", FLOOR, path], "matches": ["-m", "cli.main", "matches", "--db", path],
                "playing": ["-m", "cli.main", "matches", "--status", "playing", "--db", path],
                "page": ["-m", "cli.main", "matches", "--limit", "50", "--offset", str(n // 2), "--db", path]}
        run(code, runs["matches"])  # (a first listing builds summaries a database lacks; the page cache warms)
        got: dict[str, list[tuple[float, float, int]]] = {k: [] for k in runs}
        for _ in range(repeat):
            for k, args in runs.items():
                if k == "page" and not _pages(code):
                    continue
                got[k].append(run(code, args))
        row: dict = {"matches": n, "build_s": round(built, 1), "db_mib": round(os.path.getsize(path) / 2**20, 1)}
        floor = statistics.median(c for c, _, _ in got["floor"])
        for k, samples in got.items():
            if not samples:
                continue
            cpu = statistics.median(c for c, _, _ in samples)
            row[k] = {"cpu_s": round(cpu, 3), "wall_s": round(statistics.median(w for _, w, _ in samples), 3),
                      "peak_mib": round(max(m for _, _, m in samples) / 1024, 1),
                      **({} if k == "floor" else {"x_floor_cpu": round(cpu / floor, 2)})}
        out.append(row)
        print(json.dumps(row), file=sys.stderr)
    return out


def _pages(code: str) -> bool:
    return "--limit" in cli(code, "matches", "--help")


def standings(code: str, players: int, rounds: int, repeat: int, where: str) -> dict:
    """(With ``--code`` of a checkout before summaries, the open round's matches are all unfinished.)"""
    sys.path.insert(0, code)
    import msgspec

    from referee.service import Referee
    from referee.store.sqlite import SqliteStore
    from referee.tournament import events as ev
    from referee.tournament import standings as st
    from referee.tournament import tiebreaks as tb
    from referee.tournament.pairing import swiss
    from referee.tournament.service import Tournaments
    from schemas import Outcome

    rng = random.Random(1)
    ref = Referee(SqliteStore(os.path.join(where, f"standings-{players}.db"), durability="normal"))
    t = Tournaments(ref)
    state = t.create(f"Open {players}", "by_all_means", rounds=rounds, seed=1, players=[f"p{i:05}" for i in range(players)])
    t0 = time.perf_counter()
    for number in range(1, rounds + 1):
        paired = t.pair(state.id, tokens=False)
        state = t.load(state.id)
        results = []
        for table in paired.tables:
            x = rng.random()
            outcome = Outcome(winners=(), reason="agreed", kind="draw") if x < 0.1 else Outcome(
                winners=(table.seats[0] if x < 0.55 else table.seats[1],), reason="full_field")
            results.append((table, outcome))
        if number < rounds:
            t._append(state, [ev.ResultRecorded(round=number, table=tb_.table, outcome=o) for tb_, o in results],
                      "arbiter", "benchmark")
            state = t.load(state.id)
        elif hasattr(ref.store, "put_summaries"):  # the open round: half its matches finished, as their summaries say
            from referee.summaries import OVER

            done = []
            for table, outcome in results[::2]:
                assert table.match_id is not None
                s = ref.store.summary(table.match_id)
                assert s is not None
                done.append(msgspec.structs.replace(s, status=OVER, outcome=msgspec.json.encode(outcome)))
            ref.store.put_summaries(done)
    built = time.perf_counter() - t0
    state = t.load(state.id)
    fast, slow, pair = [], [], []
    for _ in range(repeat):
        c0 = time.process_time()
        table_now = t.standings(state.id)
        fast.append(time.process_time() - c0)
        live = t.outcomes(state)[0] if hasattr(t, "outcomes") else t.live(state)[0]
        c0 = time.process_time()
        ctx, _, _ = st.context(state, None, live)
        for name in state.tiebreaks:  # the Fraction definitions (their lines too, as explain builds them)
            if name != "head-to-head":
                for p in state.players:
                    tb.PLAIN[name](ctx, p)
        slow.append(time.process_time() - c0)
        entrants = t.entrants(state)
        c0 = time.process_time()
        swiss(entrants, set(t._met(state)), 1, state.current + 1)
        pair.append(time.process_time() - c0)
    med = statistics.median
    return {"players": players, "rounds": rounds, "open_matches": len(state.rounds[-1].tables), "build_s": round(built, 1),
            "standings_cpu_s": round(med(fast), 3), "pairing_alone_cpu_s": round(med(pair), 3),
            "standings_x_pairing": round(med(fast) / med(pair), 2),
            "fraction_tiebreaks_cpu_s (the definitions, for comparison)": round(med(slow), 3),
            "pending_tables": len(table_now.pending)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sizes", default="1000,10000,100000")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--players", type=int, default=2048, help="players of the standings run (0: skip)")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--forks", type=int, default=50, help="one copy in this many is a fork of the one before it "
                                                           "(listed under it; 0: no forks)")
    ap.add_argument("--code", default=ROOT, help="the checkout whose CLI lists the matches")
    ap.add_argument("--dir", default=None)
    ap.add_argument("--reuse", action="store_true", help="list the databases --dir already holds (built by an "
                                                          "earlier run of the same options) instead of building them")
    ap.add_argument("--bytecode", choices=("cache", "as-is"), default="cache",
                    help="cache: the listings keep their compiled bytecode in a private cache (as an installed "
                         "package has it); as-is: the environment's choice")
    args = ap.parse_args()
    where = args.dir or tempfile.mkdtemp(prefix="bench-matches-")
    if args.bytecode == "cache":
        PYCACHE["PYTHONPYCACHEPREFIX"] = os.path.join(where, "pycache")
    out: dict = {"dir": where, "code": args.code, "load_before": os.getloadavg()}
    sizes = [int(n) for n in args.sizes.split(",") if n]
    if sizes:
        out["matches"] = listing(args.code, sizes, args.repeat, where, args.forks, args.reuse)
    if args.players:
        out["standings"] = standings(args.code, args.players, args.rounds, args.repeat, where)
    out["load_after"] = os.getloadavg()
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
