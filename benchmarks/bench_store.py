"""Benchmark: the log store's paths beside plain sqlite3, in one run (issue 12).

Builds one By All Means match of ``--entries`` entries (undo-heavy random play, as
``bench_timetravel.py`` builds it; at durability ``normal``, being a bulk build), then measures, each
phase in a fresh process of its own (so that its peak memory is its own), ``--repeat`` times with the
phases interleaved, and reports medians:

appends, one entry per commit, at ``synchronous=NORMAL`` and at ``FULL``, the match's first ``--appends``
entries into a fresh database each time:

* ``plain``  — sqlite3 alone: ``BEGIN IMMEDIATE; INSERT; COMMIT`` of the same row values into a
  database with the referee's schema (the same table, keys and triggers), WAL, foreign keys on: the floor;
* ``store``  — ``SqliteStore.append`` of the same entries (its head check, one transaction each);
* ``submit`` — the same entries made again through the service: each intent submitted as it was
  typed (parsed, adjudicated, hashed, appended, a snapshot every 64) and each of the arbiter's undos
  undone again; the last entry's hash is checked equal to the original's (the same work was done).

reads of the whole match, against the plain floor:

* ``floor``  — sqlite3 fetch of the body column and the same msgspec decode (the match's decoder);
* ``audit``  — ``referee audit`` in one process (``--jobs 1``) and with ``--jobs N`` (default: as
  ``referee audit`` chooses), every verdict, hash, state hash and snapshot checked.

Ratios are to the floor of the same kind measured in the same run (appends: plain sqlite3 at the
same durability; reads: the plain fetch and decode). Prints a table and the summary as JSON.

    python benchmarks/bench_store.py                                 # 20,000 entries (a few minutes)
    python benchmarks/bench_store.py --entries 4000 --appends 1000 --repeat 3   # a quick look
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import resource
import sqlite3
import statistics
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

COLUMNS = "match_id, seq, kind, actor, verdict, code, body, prev_hash, hash, state_hash, recorded_at"


def _fresh_database(src: str, durability: str) -> tuple[str, Any]:
    """A new database beside ``src`` with the referee's schema, and the store on it."""
    from referee.store.sqlite import SqliteStore

    dst = tempfile.mktemp(suffix=".db", dir=os.path.dirname(src))
    store = SqliteStore(dst, durability=durability)
    return dst, store


def _remove(path: str) -> None:
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(path + suffix):
            os.remove(path + suffix)


def _peak_mib(who: int = resource.RUSAGE_SELF) -> float:
    """Peak RSS in MiB. Of this process, Linux's VmHWM where there is one: ``ru_maxrss`` survives an exec,
    so a phase's spawned process would report the parent's peak (the build of the match) as its own."""
    if who == resource.RUSAGE_SELF and os.path.exists("/proc/self/status"):
        with open("/proc/self/status") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return round(int(line.split()[1]) / 1024, 1)
    return round(resource.getrusage(who).ru_maxrss / 1024, 1)


def phase(kind: str, src: str, match_id: str, durability: str, count: int, jobs: int) -> dict[str, Any]:
    """One measurement, in the process it is given (a fresh one each time)."""
    from referee.service import Referee
    from referee.store.sqlite import SqliteStore

    source = SqliteStore(src, durability="normal", create=False)
    match = source.get_match(match_id)
    assert match is not None
    extra: dict[str, Any] = {}
    if kind == "plain":
        rows = sqlite3.connect(src).execute(
            f"SELECT {COLUMNS} FROM entries WHERE match_id = ? AND seq <= ? ORDER BY seq", (match_id, count)
        ).fetchall()
        dst, store = _fresh_database(src, durability)
        store.create_match(match)
        store.close()
        conn = sqlite3.connect(dst, isolation_level=None)
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute(f"PRAGMA synchronous={durability.upper()}")
        conn.execute("PRAGMA foreign_keys=ON")
        insert = f"INSERT INTO entries ({COLUMNS}) VALUES (?,?,?,?,?,?,?,?,?,?,?)"
        t0 = time.perf_counter()
        for row in rows:
            conn.execute("BEGIN IMMEDIATE")
            conn.execute(insert, row)
            conn.execute("COMMIT")
        seconds = time.perf_counter() - t0
        conn.close()
        _remove(dst)
        done = len(rows)
    elif kind == "store":
        entries = list(source.entries(match_id, 1, count))
        dst, store = _fresh_database(src, durability)
        store.create_match(match)
        t0 = time.perf_counter()
        for e in entries:
            store.append(e, expected_seq=e.seq - 1)
        seconds = time.perf_counter() - t0
        store.close()
        _remove(dst)
        done = len(entries)
    elif kind == "submit":
        from referee.engine.entries import Move, Undo

        original = Referee(source)
        loaded = original.load(match_id)
        acts = [body for _seq, body in original.folded(loaded, 1, count)]
        last = original.entry_at(match, len(acts))
        dst, store = _fresh_database(src, durability)
        again = Referee(store)
        again.create_match(loaded.game, loaded.config, title=match.title, match_id=match.id)
        t0 = time.perf_counter()
        for body in acts:
            act = body.act
            if isinstance(act, Move):
                again.submit(match_id, body.actor, body.notation)
            elif isinstance(act, Undo):
                again.undo(match_id, by=body.actor, to=act.to, reason=act.reason)
            else:
                raise SystemExit(f"entry {body.seq} is a {body.kind}: the benchmark replays intents and undos only")
        seconds = time.perf_counter() - t0
        replayed = again.entry_at(match, len(acts))
        assert last is not None and replayed is not None and replayed.hash == last.hash, "the replay diverged"
        store.close()
        _remove(dst)
        done = len(acts)
    elif kind == "floor":
        from bench_timetravel import plain_floor

        decode = Referee(source).load(match_id).decoder.decode
        t0 = time.perf_counter()
        done = plain_floor(src, match_id, decode)
        seconds = time.perf_counter() - t0
    elif kind == "audit":
        referee = Referee(source)
        referee.load(match_id)  # the game's modules imported and bound before the clock starts, as for the floor
        t0 = time.perf_counter()
        report = referee.audit(match_id, jobs=jobs)
        seconds = time.perf_counter() - t0
        assert report.clean, report.findings
        done = report.entries
        extra["children_peak_rss_mib"] = _peak_mib(resource.RUSAGE_CHILDREN)
    else:
        raise ValueError(kind)
    return {"count": done, "seconds": seconds, "per_second": done / seconds, "peak_rss_mib": _peak_mib(), **extra}


def in_fresh_process(*args: Any) -> dict[str, Any]:
    with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn")) as pool:
        return pool.submit(phase, *args).result()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--entries", type=int, default=20_000, help="entries of the match built")
    ap.add_argument("--appends", type=int, default=3_000, help="entries appended and submitted per phase")
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--jobs", type=int, default=0, help="processes for the parallel audit (0: as referee audit)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--keep", help="keep the built database at this path")
    ap.add_argument("--reuse", help="measure a database kept earlier with --keep instead of building")
    args = ap.parse_args()

    from referee.audit import default_jobs

    jobs = args.jobs or default_jobs()
    if args.reuse:
        from referee.store.sqlite import SqliteStore

        src = args.reuse
        store = SqliteStore(src, durability="normal", create=False)
        kept = [m for m in store.list_matches() if m.title == "time-travel benchmark"]
        if not kept:
            sys.exit(f"{src} holds no match built by this benchmark (build one with --keep)")
        match_id = max(kept, key=lambda m: store.head(m.id)).id
        built: dict[str, Any] = {"entries": store.head(match_id), "reused": src}
        store.close()
    else:
        from bench_timetravel import build

        src = args.keep or os.path.join(tempfile.mkdtemp(prefix="referee-store-"), "store.db")
        print(f"building a {args.entries:,}-entry by_all_means match (undo-heavy random play) ...", flush=True)
        match_id, built = build(src, "by_all_means", args.entries, 64, args.seed)
    print(f"  {built}", flush=True)
    count = min(args.appends, built["entries"])
    plan: list[tuple[str, str, int]] = [
        (kind, durability, 1) for durability in ("normal", "full") for kind in ("plain", "store", "submit")
    ] + [("floor", "-", 1), ("audit", "-", 1), ("audit", "-", jobs)]
    runs: dict[tuple[str, str, int], list[dict[str, Any]]] = {p: [] for p in plan}
    for r in range(args.repeat):
        for kind, durability, j in plan:
            runs[(kind, durability, j)].append(in_fresh_process(kind, src, match_id, durability, count, j))
        print(f"  run {r + 1}/{args.repeat} done", flush=True)

    def med(p: tuple[str, str, int], key: str) -> float:
        return statistics.median(x[key] for x in runs[p])

    rows: list[dict[str, Any]] = []
    for kind, durability, j in plan:
        p = (kind, durability, j)
        floor = ("plain", durability, 1) if kind in ("plain", "store", "submit") else ("floor", "-", 1)
        row = {
            "what": kind if kind != "audit" else f"audit --jobs {j}",
            "durability": durability,
            "count": runs[p][0]["count"],
            "per_second": round(med(p, "per_second")),
            "ratio_to_floor": round(med(p, "seconds") / med(floor, "seconds"), 2),
            "peak_rss_mib": med(p, "peak_rss_mib"),
        }
        if kind == "audit" and j > 1:
            row["children_peak_rss_mib"] = med(p, "children_peak_rss_mib")
        rows.append(row)
    print(f"\nmedians of {args.repeat} runs, each phase in its own process; ratio = time / the floor's time "
          "(appends: plain sqlite3 at the same durability; reads: plain fetch + decode)")
    print(f"{'what':16s} {'sync':7s} {'entries':>8s} {'per second':>11s} {'ratio':>7s} {'peak RSS':>10s}")
    for row in rows:
        more = f" (each other process {row['children_peak_rss_mib']} MiB)" if "children_peak_rss_mib" in row else ""
        print(f"{row['what']:16s} {row['durability']:7s} {row['count']:8,d} {row['per_second']:11,d} "
              f"{row['ratio_to_floor']:6.2f}x {row['peak_rss_mib']:7.1f} MiB{more}")
    print(json.dumps({"built": built, "repeat": args.repeat, "jobs": jobs, "rows": rows}))


if __name__ == "__main__":
    main()
