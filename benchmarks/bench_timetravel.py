"""Benchmark: time travel on one long match (issue 3).

Builds a single match of at least ``--entries`` entries (default 20,000) by seeded random legal play
with an undo-heavy pattern (a game cannot last that long on its own: whenever it ends, and at random
moments, the arbiter undoes a few entries and play goes on), snapshots every ``--every`` entries.
Then, in one run, on the same database:

* ``show --at N`` for random N, with snapshots and without (a full fold from setup): medians and the
  ratio (aim: snapshots at least 50x faster);
* ``audit`` throughput (entries re-adjudicated per second, every hash and snapshot checked) against
  the plain floor (:func:`plain_floor`: sqlite3 fetching the body column and the same msgspec decode,
  no rules, one process): ratio (aim: within 8x), in one process (``--jobs 1``) and in stretches on
  the cores available (``--jobs``, default: what ``referee audit`` uses).

    python benchmarks/bench_timetravel.py                   # 20,000 entries (a few minutes)
    python benchmarks/bench_timetravel.py --entries 3000    # a quick look
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import statistics
import sys
import tempfile
import time
from typing import Any

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)


def build(path: str, game: str, entries: int, every: int, seed: int) -> tuple[str, dict[str, Any]]:
    from referee.engine.notation import format_intent
    from referee.service import Referee
    from referee.store.sqlite import SqliteStore

    referee = Referee(SqliteStore(path, durability="normal"), snapshot_every=every)  # a bulk build
    g = referee.game(game)
    players = ["south", "north", "east", "west", "fifth"][: g.min_players]
    m = referee.new_match(game, players, seed=seed, title="time-travel benchmark")
    loaded = referee.load(m.id)
    rng = random.Random(seed)
    undos = games_ended = 0
    t0 = time.perf_counter()
    head = 0
    while head < entries:
        _, state = referee.state_at(loaded)
        over = loaded.rules.outcome(state) is not None
        if over or (head > 10 and rng.random() < 0.04):
            games_ended += over
            back = rng.randint(1, 40 if over else 4)
            timeline = referee.timeline(loaded)
            line = [s for s in timeline.line if timeline.headers[s].kind == "intent"]
            target = line[-back] - 1 if len(line) >= back else 0
            res = referee.undo(m.id, by="arbiter", to=target, reason="benchmark")
            undos += res.accepted
            head = res.seq
            continue
        options = [(s, i) for s in players for i in loaded.rules.legal_intents(state, s)]
        seat, intent = options[rng.randrange(len(options))]
        head = referee.submit(m.id, seat, format_intent(intent)).seq
    return m.id, {"entries": head, "undos": undos, "games_ended": games_ended,
                  "seconds": round(time.perf_counter() - t0, 1)}


def plain_floor(path: str, match_id: str, decode: Any) -> int:
    """The floor a read of the log is measured against: plain sqlite3 fetching the body column of the
    match's entries in order, and the same msgspec decode the referee uses (``decode``). Returns the count."""
    import sqlite3

    conn = sqlite3.connect(path)
    done = 0
    for (body,) in conn.execute("SELECT body FROM entries WHERE match_id = ? ORDER BY seq", (match_id,)):
        decode(body)
        done += 1
    conn.close()
    return done


def timed(fn: Any) -> float:
    t0 = time.perf_counter()
    fn()
    return time.perf_counter() - t0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--game", default="by_all_means")
    ap.add_argument("--entries", type=int, default=20_000)
    ap.add_argument("--every", type=int, default=64, help="snapshot every K entries")
    ap.add_argument("--probes", type=int, default=30, help="random N for show --at N")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--keep", help="keep the database at this path")
    ap.add_argument("--reuse", help="measure a database kept earlier with --keep (same --game) instead of building")
    ap.add_argument("--jobs", type=int, default=0, help="processes for the parallel audit (0: as referee audit)")
    args = ap.parse_args()

    from referee.audit import default_jobs
    from referee.service import Referee
    from referee.store.sqlite import SqliteStore
    from schemas.http import AuditAnswer

    jobs = args.jobs or default_jobs()
    if args.reuse:
        path = args.reuse
        store = SqliteStore(path, create=False)
        kept = [m for m in store.list_matches() if m.title == "time-travel benchmark" and m.game == args.game]
        if not kept:
            sys.exit(f"{path} holds no {args.game} time-travel benchmark match (build one with --keep)")
        m = max(kept, key=lambda m: store.head(m.id))
        mid, built = m.id, {"entries": store.head(m.id), "reused": path}
    else:
        path = args.keep or os.path.join(tempfile.mkdtemp(prefix="referee-tt-"), "tt.db")
        print(f"building a {args.entries:,}-entry {args.game} match (undo-heavy random play) ...", flush=True)
        mid, built = build(path, args.game, args.entries, args.every, args.seed)
    print(f"  {built}")
    rng = random.Random(args.seed)
    head = built["entries"]
    probes = [rng.randint(1, head) for _ in range(args.probes)]

    def show_at(use_snapshots: bool, n: int) -> float:
        referee = Referee(SqliteStore(path), use_snapshots=use_snapshots)
        return timed(lambda: referee.show(mid, at=n))

    with_snap = [show_at(True, n) for n in probes]
    without = [show_at(False, n) for n in probes[: max(3, args.probes // 5)]]
    floor_runs: list[float] = []
    audit_runs: dict[int, list[float]] = {1: [], jobs: []}
    for _ in range(args.repeat):
        decode = Referee(SqliteStore(path)).load(mid).decoder.decode
        floor_runs.append(timed(lambda: plain_floor(path, mid, decode)))
        for j in audit_runs:
            referee = Referee(SqliteStore(path))
            reports: list[AuditAnswer] = []
            audit_runs[j].append(timed(lambda j=j: reports.append(referee.audit(mid, jobs=j))))
            assert reports[0].clean, reports[0].findings
    floor = statistics.median(floor_runs)
    summary = {
        "built": built,
        "show_at_ms": {"with_snapshots_median": round(statistics.median(with_snap) * 1000, 2),
                       "without_median": round(statistics.median(without) * 1000, 2)},
        "random_access_speedup": round(statistics.median(without) / statistics.median(with_snap), 1),
        "floor_entries_per_second": round(head / floor),
        "audit": {f"jobs_{j}": {"entries_per_second": round(head / statistics.median(runs)),
                                "to_floor_ratio": round(statistics.median(runs) / floor, 2)}
                  for j, runs in audit_runs.items()},
        "peak_rss_mib": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
    }
    print(f"show --at N: {summary['show_at_ms']['with_snapshots_median']} ms with snapshots, "
          f"{summary['show_at_ms']['without_median']} ms without (median) -> {summary['random_access_speedup']}x")
    print(f"plain floor (sqlite3 fetch + decode) {summary['floor_entries_per_second']:,} entries/s")
    for j, fig in summary["audit"].items():
        print(f"audit --jobs {j.removeprefix('jobs_')}: {fig['entries_per_second']:,} entries/s -> "
              f"{fig['to_floor_ratio']}x the floor")
    print(f"peak RSS {summary['peak_rss_mib']} MiB")
    print(json.dumps(summary))


if __name__ == "__main__":
    main()
