"""Benchmark: build a database of complete matches by seeded random legal play, then measure, in one
run and on the same rows:

* ``append``  — entries appended per second through the store alone (the rows are already built);
* ``submit``  — intents per second through the service (parse + adjudicate + hash + append);
* ``fold``    — intents re-adjudicated per second when every match is folded again from setup
                (framework checks + the game's ``decide`` + ``evolve`` for every entry);
* ``floor``   — the decode-only floor: reading and decoding the same rows with no rules.

Figures are medians of ``--repeat`` runs, each phase in a fresh process so that its peak memory
(max RSS) is its own. The headline is the ratio fold / floor.

    python benchmarks/bench_log.py --matches 1000            # the issue's figure (minutes)
    python benchmarks/bench_log.py --matches 50 --repeat 3   # a quick look
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
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


def _service(path: str, **kw: Any) -> Any:
    from referee.service import Referee
    from referee.store.sqlite import SqliteStore

    return Referee(SqliteStore(path), **kw)


def random_play(referee: Any, match_id: str, rng: random.Random, cap: int) -> int:
    """Play random legal intents (all seats' options pooled) until the game ends or ``cap``."""
    from referee.engine.notation import format_intent

    loaded = referee.load(match_id)
    rules = loaded.rules
    n = 0
    while n < cap:
        _, state = referee.state_at(loaded)
        if rules.outcome(state) is not None:
            break
        options = [(seat, i) for seat in loaded.config.players for i in rules.legal_intents(state, seat)]
        if not options:
            break
        seat, intent = options[rng.randrange(len(options))]
        referee.submit(match_id, seat, format_intent(intent))
        n += 1
    return n


def build(path: str, game: str, matches: int, cap: int) -> dict[str, Any]:
    referee = _service(path, snapshot_every=0)
    players = ["south", "north", "east", "west", "fifth"][: referee.game(game).min_players]
    t0 = time.perf_counter()
    total = finished = 0
    for i in range(matches):
        m = referee.new_match(game, players, seed=i)
        total += random_play(referee, m.id, random.Random(i), cap)
        finished += referee.show(m.id).outcome is not None
    return {"intents": total, "matches": matches, "finished": finished, "seconds": time.perf_counter() - t0}


def _phase(kind: str, src: str, game: str, out: Any) -> None:
    from referee.engine import core
    from referee.store.sqlite import SqliteStore

    referee = _service(src)
    ids = [m.id for m in referee.store.list_matches()]
    count = 0
    t0 = time.perf_counter()
    if kind == "floor":
        loaded_all = [referee.load(mid) for mid in ids]
        t0 = time.perf_counter()
        for loaded in loaded_all:
            for _entry, _body in referee.bodies(loaded):
                count += 1
        t0_adj = t0
    elif kind == "fold":
        loaded_all = [referee.load(mid) for mid in ids]
        t0 = time.perf_counter()
        for loaded in loaded_all:
            state = loaded.initial
            for entry, body in referee.bodies(loaded):
                if body.intent is not None and body.actor is not None:
                    chance = core.chance_for(loaded.config, f"seq:{entry.seq}")
                    _, verdict = core.adjudicate(loaded.rules, state, body.actor, body.intent, chance)
                    state = core.apply(loaded.rules, state, verdict)
                count += 1
        t0_adj = t0
    elif kind == "append":
        rows = {mid: (referee.store.get_match(mid), list(referee.store.entries(mid))) for mid in ids}
        dst = tempfile.mktemp(suffix=".db", dir=os.path.dirname(src))
        store = SqliteStore(dst)
        t0_adj = time.perf_counter()
        for mid, (match, entries) in rows.items():
            store.create_match(match)
            for e in entries:
                store.append(e, expected_seq=e.seq - 1)
                count += 1
        store.close()
        for suffix in ("", "-wal", "-shm"):
            if os.path.exists(dst + suffix):
                os.remove(dst + suffix)
    elif kind == "submit":
        rows = []
        for mid in ids:
            loaded = referee.load(mid)
            rows.append((loaded, [(b.actor, b.notation or "") for _e, b in referee.bodies(loaded) if b.actor]))
        dst = tempfile.mktemp(suffix=".db", dir=os.path.dirname(src))
        target = _service(dst)
        t0_adj = time.perf_counter()
        for loaded, moves in rows:
            c = loaded.config
            m = target.create_match(loaded.game, c)
            for actor, text in moves:
                target.submit(m.id, actor, text)
                count += 1
        target.store.close()
        for suffix in ("", "-wal", "-shm"):
            if os.path.exists(dst + suffix):
                os.remove(dst + suffix)
    else:
        raise ValueError(kind)
    seconds = time.perf_counter() - t0_adj
    rss_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    out.put({"kind": kind, "count": count, "seconds": seconds, "per_second": count / seconds if seconds else 0.0,
             "peak_rss_mib": round(rss_kib / 1024, 1)})


def measure(kind: str, src: str, game: str) -> dict[str, Any]:
    ctx = mp.get_context("spawn")
    q = ctx.Queue()
    p = ctx.Process(target=_phase, args=(kind, src, game, q))
    p.start()
    result = q.get()
    p.join()
    return result


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--game", default="by_all_means")
    ap.add_argument("--matches", type=int, default=1000)
    ap.add_argument("--cap", type=int, default=3000, help="most intents per match")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--keep", help="keep the built database at this path")
    args = ap.parse_args()

    workdir = tempfile.mkdtemp(prefix="referee-bench-")
    src = args.keep or os.path.join(workdir, "bench.db")
    print(f"building {args.matches} {args.game} matches by seeded random legal play ...", flush=True)
    built = build(src, args.game, args.matches, args.cap)
    print(f"  {built['intents']} intents, {built['finished']}/{built['matches']} finished, {built['seconds']:.1f} s")
    results: dict[str, list[dict[str, Any]]] = {}
    for _ in range(args.repeat):
        for kind in ("floor", "fold", "append", "submit"):
            results.setdefault(kind, []).append(measure(kind, src, args.game))
    summary: dict[str, Any] = {"game": args.game, "built": built}
    print(f"\nmedians of {args.repeat} runs (each phase in its own process):")
    for kind, runs in results.items():
        med = statistics.median(r["per_second"] for r in runs)
        rss = statistics.median(r["peak_rss_mib"] for r in runs)
        summary[kind] = {"per_second": round(med, 1), "peak_rss_mib": rss, "count": runs[0]["count"]}
        print(f"  {kind:7s} {med:12,.0f} entries/s   peak RSS {rss:7.1f} MiB")
    floor = summary["floor"]["per_second"]
    summary["ratio_fold_to_floor"] = round(floor / summary["fold"]["per_second"], 2)
    print(f"\nfold is {summary['ratio_fold_to_floor']}x slower than the decode-only floor")
    print(json.dumps(summary))


if __name__ == "__main__":
    main()
