"""Benchmark: X-Files' audit against the decode-only floor (issue 28 item 5).

Imports the longest bundled X-Files replay (``replays/xfiles_encounters/lone-agent.txt``) into a fresh
SQLite database, then times (CPU time of this process, steadier than the wall clock on a shared machine),
``--repeat`` times with the phases interleaved, and reports medians of:

* ``floor`` — plain sqlite3 fetching the match's body column and the match's own msgspec decode;
* ``fold``  — the same fetch and decode, and every accepted entry's events folded from the state after
  setup (what replaying the log to its head costs without snapshots);
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
from typing import Any

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, ROOT)
sys.path.insert(0, HERE)


def main() -> None:
    from bench_timetravel import plain_floor

    from referee.engine import core
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
        loaded = referee.load(match_id)
        decode, rules = loaded.decoder.decode, loaded.rules
        start = referee.state_at(loaded, 0)[1]

        def fold() -> Any:
            import sqlite3

            from referee.engine.protocol import Accepted

            conn = sqlite3.connect(path)
            state = start
            for (body,) in conn.execute("SELECT body FROM entries WHERE match_id = ? ORDER BY seq", (match_id,)):
                verdict = decode(body).verdict
                if isinstance(verdict, Accepted):
                    for event in verdict.events:
                        state = rules.evolve(state, event)
            conn.close()
            return state

        assert core.state_hash(fold()) == referee.show(match_id).state_hash
        floor, folds, audit = [], [], []
        for _ in range(args.repeat):
            t0 = time.process_time()
            n = plain_floor(path, match_id, decode)
            floor.append(time.process_time() - t0)
            t0 = time.process_time()
            fold()
            folds.append(time.process_time() - t0)
            t0 = time.process_time()
            report = referee.audit(match_id, jobs=1)
            audit.append(time.process_time() - t0)
            assert report.clean, report.findings
        f, o, a = statistics.median(floor), statistics.median(folds), statistics.median(audit)
        import sqlite3

        conn = sqlite3.connect(path)
        size = conn.execute("SELECT sum(length(body)) FROM entries WHERE match_id = ?", (match_id,)).fetchone()[0]
        conn.close()
        print(f"{rel}: {n} entries, {size:,} bytes of bodies; floor {f * 1000:.1f} ms ({n / f:,.0f}/s); fold {o * 1000:.1f} ms = {o / f:.1f}x "
              f"the floor; audit --jobs 1 {a * 1000:.1f} ms ({n / a:,.0f}/s) = {a / f:.1f}x the floor")
        referee.store.close()


if __name__ == "__main__":
    main()
