"""Benchmark: what a page of the log costs as the log grows (issue 12, item 3).

Builds one By All Means match per size (default 1,000 / 10,000 / 50,000 entries) by seeded random
legal play with undos (``bench_timetravel.build``: whenever a game ends, and at random moments, the
arbiter undoes a few entries and play goes on), with an annotation every ~100 entries (some of them
private to a seat). Then, per size, in a process of its own (so that its peak memory is its own):

* ``service`` — ``Referee.log`` of a page of 100 entries at the start, the middle and the end of the
  log, as the arbiter and as a seat: *cold* (a new Referee and store connection each time, as a CLI
  command meets it) and *warm* (the same Referee again, as a server thread meets it);
* ``http`` — ``GET /matches/{id}/log?offset=..&limit=100`` through the Litestar app (TestClient), the
  arbiter's token: the first request of a fresh app (cold) and the next ones (warm);
* ``stream`` — ``Referee.log_stream`` of the whole log (what ``referee log`` prints), entries/s;
* ``jumps_after`` — the accepted undos and redos from each page's first entry on: what its undone-by
  marks are worked out from (a cold page reads them; the store finds them by scanning the rows after
  the page).

Figures are medians of ``--repeat`` runs, in milliseconds; the ratios are the largest size's over the
smallest's (the aim: within 2x). JSON on the last line.

    python benchmarks/bench_pages.py                             # 1k / 10k / 50k (builds for minutes)
    python benchmarks/bench_pages.py --sizes 1000,5000 --repeat 5
    python benchmarks/bench_pages.py --keep /tmp/pages.db        # keep the built matches ...
    python benchmarks/bench_pages.py --reuse /tmp/pages.db       # ... and measure them again
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
from collections.abc import Callable
from typing import Any

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

PAGE = 100
TITLE = "time-travel benchmark"  # what bench_timetravel.build names its matches


def _store(path: str) -> Any:
    from referee.store.sqlite import SqliteStore

    return SqliteStore(path, durability="normal")


def build(path: str, game: str, sizes: list[int], seed: int) -> dict[int, str]:
    """One match per size (random legal play with undos), annotated every ~100 entries."""
    from bench_timetravel import build as build_match

    from referee.service import Referee

    os.environ.setdefault("REFEREE_DURABILITY", "normal")  # a bulk build: no fsync per entry
    out: dict[int, str] = {}
    for i, size in enumerate(sizes):
        t0 = time.perf_counter()
        mid, built = build_match(path, game, size, 64, seed + i)
        referee = Referee(_store(path))
        players = referee.load(mid).config.players
        rng = random.Random(seed + i)
        for n, seq in enumerate(range(rng.randint(1, 100), built["entries"] + 1, 100)):
            audience = "all" if n % 3 else players[n % len(players)]
            referee.annotate(mid, seq, f"note {n} on entry {seq}", by="arbiter", audience=audience)
        print(f"  {size:,}: match {mid}, {built} ({time.perf_counter() - t0:.0f} s)", flush=True)
        out[size] = mid
    return out


def find(path: str, game: str, sizes: list[int]) -> dict[int, str]:
    """The matches a kept database holds for each size: the shortest at least that long."""
    store = _store(path)
    kept = sorted(((store.head(m.id), m.id) for m in store.list_matches() if m.title == TITLE and m.game == game))
    out = {}
    for size in sizes:
        fit = [(head, mid) for head, mid in kept if head >= size]
        if not fit:
            sys.exit(f"{path} holds no {game} match of {size:,} entries or more (build with --keep)")
        out[size] = fit[0][1]
    return out


def _median_ms(runs: list[float]) -> float:
    return round(statistics.median(runs) * 1000, 2)


def _timed(fn: Callable[[], Any]) -> float:
    t0 = time.perf_counter()
    fn()
    return time.perf_counter() - t0


def _phase(path: str, mid: str, repeat: int, out: Any) -> None:
    """Every figure of one match, in this (fresh) process."""
    import logging

    from litestar.testing import TestClient

    from referee.access import hash_token
    from referee.http import create_app
    from referee.service import Referee
    from referee.store import StoredToken

    logging.getLogger("httpx").setLevel(logging.WARNING)  # no line per request
    referee = Referee(_store(path))
    loaded = referee.load(mid)
    head = referee.store.head(mid)
    seat = loaded.config.players[0]
    token = f"bench-{mid}"
    if referee.store.find_token(hash_token(token)) is None:
        referee.store.add_tokens([StoredToken(token_hash=hash_token(token), match_id=mid, role="arbiter")])
    starts = {"start": 1, "middle": head // 2 - PAGE // 2, "end": head - PAGE + 1}
    figures: dict[str, Any] = {"entries": head}
    service: dict[str, Any] = {}
    for where, start in starts.items():
        for role in (None, seat):
            cold, warm = [], []
            for _ in range(repeat):
                fresh = Referee(_store(path))
                cold.append(_timed(lambda: fresh.log(mid, seat=role, start=start, stop=start + PAGE - 1)))
                warm.append(_timed(lambda: fresh.log(mid, seat=role, start=start, stop=start + PAGE - 1)))
                fresh.store.close()
            service[f"{where}/{role or 'arbiter'}"] = {"cold_ms": _median_ms(cold), "warm_ms": _median_ms(warm)}
    figures["service"] = service
    http: dict[str, Any] = {}
    headers = {"Authorization": f"Bearer {token}"}
    for where, start in starts.items():
        url = f"/matches/{mid}/log?offset={start - 1}&limit={PAGE}"
        cold, warm = [], []
        for _ in range(repeat):
            with TestClient(create_app(lambda: Referee(_store(path)))) as client:
                cold.append(_timed(lambda: client.get(url, headers=headers).raise_for_status()))
                for _ in range(3):
                    warm.append(_timed(lambda: client.get(url, headers=headers).raise_for_status()))
        http[where] = {"cold_ms": _median_ms(cold), "warm_ms": _median_ms(warm)}
    figures["http"] = http
    # what a page's marks cost: the accepted undos and redos from its first entry on
    figures["jumps_after"] = {where: len(referee.jumps(loaded, start, head)) for where, start in starts.items()}
    fresh = Referee(_store(path))
    seconds = _timed(lambda: sum(1 for _ in fresh.log_stream(mid)))
    figures["stream_whole_log"] = {"seconds": round(seconds, 3), "entries_per_second": round(head / seconds)}
    figures["peak_rss_mib"] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)
    out.put(figures)


def measure(path: str, mid: str, repeat: int) -> dict[str, Any]:
    ctx = mp.get_context("spawn")
    q = ctx.Queue()
    p = ctx.Process(target=_phase, args=(path, mid, repeat, q))
    p.start()
    result: dict[str, Any] = q.get()
    p.join()
    return result


def ratios(by_size: dict[int, dict[str, Any]]) -> dict[str, float]:
    """Largest size's figure over the smallest's, for every figure measured."""
    lo, hi = by_size[min(by_size)], by_size[max(by_size)]
    out = {}
    for part in ("service", "http"):
        for key, fig in lo[part].items():
            for kind, ms in fig.items():
                out[f"{part} {key} {kind}"] = round(hi[part][key][kind] / ms, 2) if ms else 0.0
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--game", default="by_all_means")
    ap.add_argument("--sizes", default="1000,10000,50000", help="entries per match, comma-separated")
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--keep", help="keep the built database at this path")
    ap.add_argument("--reuse", help="measure a database kept earlier with --keep instead of building")
    args = ap.parse_args()
    sizes = sorted(int(s) for s in args.sizes.split(","))

    if args.reuse:
        path = args.reuse
        mids = find(path, args.game, sizes)
    else:
        path = args.keep or os.path.join(tempfile.mkdtemp(prefix="referee-pages-"), "pages.db")
        print(f"building {args.game} matches of {', '.join(f'{s:,}' for s in sizes)} entries ...", flush=True)
        mids = build(path, args.game, sizes, args.seed)
    by_size = {size: measure(path, mid, args.repeat) for size, mid in mids.items()}
    print(f"\npage of {PAGE}, median of {args.repeat} runs, ms (cold / warm):")
    for size, fig in by_size.items():
        print(f"  {fig['entries']:>7,} entries   peak RSS {fig['peak_rss_mib']} MiB   undos/redos after the page "
              f"{fig['jumps_after']}   whole log streamed {fig['stream_whole_log']['entries_per_second']:,} entries/s")
        for part in ("service", "http"):
            for key, f in fig[part].items():
                print(f"    {part:7s} {key:16s} {f['cold_ms']:9.2f} / {f['warm_ms']:9.2f}")
    summary = {"game": args.game, "page": PAGE, "repeat": args.repeat,
               "sizes": {str(size): fig for size, fig in by_size.items()}, "ratio_largest_to_smallest": ratios(by_size)}
    worst = max(summary["ratio_largest_to_smallest"].items(), key=lambda kv: kv[1])
    print(f"\nworst ratio {max(sizes):,} / {min(sizes):,}: {worst[1]}x ({worst[0]})")
    print(json.dumps(summary))


if __name__ == "__main__":
    main()
