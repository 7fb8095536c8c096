"""Benchmark: X-Files' audit against the decode-only floor (issue 28 item 5).

Imports the longest bundled X-Files replay (``replays/xfiles_encounters/lone-agent.txt``) into a fresh
SQLite database, then times, ``--repeat`` times with the phases interleaved, and reports medians of:

* ``floor`` — plain sqlite3 fetching the match's body column and the match's own msgspec decode;
* ``audit`` — ``Referee.audit`` in one process (``jobs=1``): every verdict re-derived, every hash and
  state hash checked (which folds every event).

    python benchmarks/bench_xfiles_audit.py --repeat 5
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, ROOT)
sys.path.insert(0, HERE)


def main() -> None:
    from bench_timetravel import plain_floor

    from referee.service import Referee
    from referee.store.sqlite import SqliteStore
    from referee.transcript import import_transcript

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    rel = "replays/xfiles_encounters/lone-agent.txt"
    with tempfile.TemporaryDirectory(prefix="bench-xfiles-") as tmp:
        path = os.path.join(tmp, "x.db")
        referee = Referee(SqliteStore(path))
        with open(os.path.join(ROOT, rel), encoding="utf-8") as fh:
            match_id = import_transcript(referee, fh.read(), rel, os.path.dirname(os.path.join(ROOT, rel))).match_id
        decode = referee.load(match_id).decoder.decode
        floor, audit = [], []
        for _ in range(args.repeat):
            t0 = time.perf_counter()
            n = plain_floor(path, match_id, decode)
            floor.append(time.perf_counter() - t0)
            t0 = time.perf_counter()
            report = referee.audit(match_id, jobs=1)
            audit.append(time.perf_counter() - t0)
            assert report.clean, report.findings
        f, a = statistics.median(floor), statistics.median(audit)
        print(f"{rel}: {n} entries; floor {f * 1000:.1f} ms ({n / f:,.0f}/s), audit --jobs 1 {a * 1000:.1f} ms "
              f"({n / a:,.0f}/s) = {a / f:.1f}x the floor")
        referee.store.close()


if __name__ == "__main__":
    main()
