"""Benchmark: ``audit --jobs 1`` of each game against the plain decode floor, in one run (issue 27).

For each game, builds one match of ``--entries`` entries by seeded random legal play with undos
(``bench_timetravel.build``: snapshots every ``--every`` entries, durability ``normal``) into one
SQLite database, then measures, ``--repeat`` times with the games and phases interleaved, medians:

* ``floor``   — plain sqlite3 fetching the body column of the match's entries and the same msgspec
  decode the referee uses (``bench_timetravel.plain_floor``), in this process;
* ``inproc``  — ``Referee.audit(match, jobs=1)`` in this process (the game bound before the clock);
* ``process`` — ``referee audit MATCH --jobs 1 --db FILE`` as a whole process (start-up, binding,
  the audit and its output);
* ``hashes``  — the hashing no audit can skip, alone, in this process: the entry hash of every body
  and the canonical bytes and sha256 of every state the audit derives, the bytes put together as the
  audit's walk does (``core.StateEncoder``: a field the move left as it was is not encoded again; the
  states captured from one audit before the clock). Beside the floor it shows how much of the aim the
  hashes alone take.

Times are CPU seconds (this process's, or the audit process's), so that a loaded machine skews them
less than wall time would; the load average is printed beside them.

Ratios are to the floor measured in the same round. Also: the peak RSS of this process (the builds
and in-process audits) and the largest of the audit processes', and the load average before and after.

    python benchmarks/bench_audit.py                          # 3,000 entries per game
    python benchmarks/bench_audit.py --entries 800 --repeat 3 --games by_all_means,copycat
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from typing import Any

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

GAMES = ("by_all_means", "war_of_shadows", "copycat", "android", "xfiles_encounters")


def _peak_mib(who: int) -> float:
    return round(resource.getrusage(who).ru_maxrss / 1024, 1)


def _children_cpu() -> float:
    use = resource.getrusage(resource.RUSAGE_CHILDREN)
    return use.ru_utime + use.ru_stime


def _hashed(referee: Any, path: str, match_id: str) -> tuple[list[tuple[str, bytes]], list[Any]]:
    """What the audit of ``match_id`` hashes: each entry's previous hash and body (plain sqlite3), and the
    states it derives (captured from one audit, by watching what it asks the canonical bytes of)."""
    import sqlite3

    from referee.engine import core

    conn = sqlite3.connect(path)
    bodies = [(prev, bytes(body)) for prev, body in conn.execute(
        "SELECT prev_hash, CAST(body AS BLOB) FROM entries WHERE match_id = ? ORDER BY seq", (match_id,))]
    conn.close()
    states: list[Any] = []
    encode = core.StateEncoder.encode

    def watched(self: Any, state: Any) -> bytes:
        if not states or states[-1] is not state:
            states.append(state)
        return encode(self, state)

    core.StateEncoder.encode = watched  # type: ignore[method-assign]
    try:
        referee.audit(match_id, jobs=1)
    finally:
        core.StateEncoder.encode = encode  # type: ignore[method-assign]
    return bodies, states


def _hash_all(bodies: list[tuple[str, bytes]], states: list[Any]) -> None:
    """The hashes as the audit takes them: each entry's, and each state's from its canonical bytes put
    together by a fresh :class:`referee.engine.core.StateEncoder` (as one audit's walk has)."""
    from referee.engine import core

    for prev, body in bodies:
        core.entry_hash(prev, body)
    if states:
        encode = core.StateEncoder(type(states[0])).encode
        for state in states:
            core.sha256_hex(encode(state))


def main() -> None:
    from bench_timetravel import build, plain_floor

    from referee.service import Referee
    from referee.store.sqlite import SqliteStore

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", default=",".join(GAMES))
    ap.add_argument("--entries", type=int, default=3000)
    ap.add_argument("--every", type=int, default=64, help="snapshot every K entries")
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--keep", help="database file to build into (and keep); one that exists: its matches measured again")
    args = ap.parse_args()
    games = [g for g in args.games.split(",") if g]
    path = args.keep or os.path.join(tempfile.mkdtemp(prefix="referee-audit-"), "audit.db")
    load_before = os.getloadavg()
    built: dict[str, tuple[str, dict[str, Any]]] = {}
    if args.keep and os.path.exists(path):  # the matches built before into that file, measured again
        store = SqliteStore(path, durability="normal", create=False)
        for m in store.list_matches():
            if m.game in games:
                built[m.game] = (m.id, {"entries": store.head(m.id)})
        store.close()
    for game in games:
        if game not in built:
            built[game] = build(path, game, args.entries, args.every, args.seed)
    referee = Referee(SqliteStore(path, durability="normal", create=False))
    # a regular install has its bytecode compiled: the audit processes keep theirs in a cache of their
    # own (never beside the sources), warmed by one run before the clock
    env = {**os.environ, "PYTHONPATH": ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""),
           "PYTHONPYCACHEPREFIX": os.path.join(os.path.dirname(path), "pycache")}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    for game in games:
        subprocess.run([sys.executable, "-m", "cli.main", "audit", built[game][0], "--jobs", "1", "--db", path],
                       check=True, capture_output=True, env=env, cwd=ROOT)
    hashed = {game: _hashed(referee, path, built[game][0]) for game in games}
    runs: dict[str, dict[str, list[float]]] = {g: {"floor": [], "inproc": [], "process": [], "hashes": []} for g in games}
    for _ in range(args.repeat):
        for game in games:
            mid = built[game][0]
            decode = referee.load(mid).decoder.decode
            t0 = time.process_time()
            plain_floor(path, mid, decode)
            runs[game]["floor"].append(time.process_time() - t0)
            t0 = time.process_time()
            _hash_all(*hashed[game])
            runs[game]["hashes"].append(time.process_time() - t0)
            t0 = time.process_time()
            report = referee.audit(mid, jobs=1)
            runs[game]["inproc"].append(time.process_time() - t0)
            assert report.clean, report.findings
            c0 = _children_cpu()
            subprocess.run([sys.executable, "-m", "cli.main", "audit", mid, "--jobs", "1", "--db", path],
                           check=True, capture_output=True, env=env, cwd=ROOT)
            runs[game]["process"].append(_children_cpu() - c0)
    summary: dict[str, Any] = {"entries": args.entries, "every": args.every, "repeat": args.repeat,
                               "load_before": [round(x, 2) for x in load_before], "games": {}}
    print(f"{'game':<20}{'entries':>8}{'floor ms':>10}{'in-proc ms':>12}{'x':>7}{'process ms':>12}{'x':>7}"
          f"{'hashes ms':>11}{'x':>6}")
    for game in games:
        med = {k: statistics.median(v) for k, v in runs[game].items()}
        fig = {
            "entries": built[game][1]["entries"],
            "floor_ms": round(med["floor"] * 1000, 1),
            "inproc_ms": round(med["inproc"] * 1000, 1),
            "process_ms": round(med["process"] * 1000, 1),
            "inproc_x": round(med["inproc"] / med["floor"], 1),
            "process_x": round(med["process"] / med["floor"], 1),
            "hashes_ms": round(med["hashes"] * 1000, 1),
            "hashes_x": round(med["hashes"] / med["floor"], 1),
        }
        summary["games"][game] = fig
        print(f"{game:<20}{fig['entries']:>8}{fig['floor_ms']:>10}{fig['inproc_ms']:>12}{fig['inproc_x']:>7}"
              f"{fig['process_ms']:>12}{fig['process_x']:>7}{fig['hashes_ms']:>11}{fig['hashes_x']:>6}")
    summary["peak_rss_mib"] = _peak_mib(resource.RUSAGE_SELF)
    summary["children_peak_rss_mib"] = _peak_mib(resource.RUSAGE_CHILDREN)
    summary["load_after"] = [round(x, 2) for x in os.getloadavg()]
    print(json.dumps(summary, indent=1))


if __name__ == "__main__":
    main()
