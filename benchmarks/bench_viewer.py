"""Benchmark: each game's HTML viewer for a long match (issue 25, item 7): its size in bytes, the time the
referee takes to write it, and the time headless Chromium takes to open it at a phone's size and a
desktop's.

Per game, two matches: the bundled demo in ``replays/`` (a real game as people played it) and a long one
of ``--entries`` entries (default 2,000) built by seeded random legal play with undos
(``bench_timetravel.build``: whenever a game ends, and at random moments, the arbiter undoes a few entries
and play goes on, so the log is as long as asked). Each is exported as the viewer for its first seat:

* ``bytes`` — the page's size;
* ``export_ms`` — ``referee export MATCH --format html --as SEAT`` in process (a new Referee each run),
  wall time, and ``export_cpu_ms`` its CPU time (steadier on a shared machine);
* ``phone_ms`` / ``desktop_ms`` — Chromium opening the file at 390x844 and 1280x800 until its load event
  is over (the viewer draws the last entry's board in its load handler), as the browser times it
  (``loadEventEnd`` of the navigation entry).

Medians of ``--repeat`` runs. JSON on the last line.

    python benchmarks/bench_viewer.py                          # every game, 2,000 entries
    python benchmarks/bench_viewer.py --games copycat --entries 500 --repeat 3
"""

from __future__ import annotations

import argparse
import json
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

GAMES = ("by_all_means", "war_of_shadows", "xfiles_encounters", "android", "copycat")
SIZES = {"phone": (390, 844, True), "desktop": (1280, 800, False)}


def demo(referee: Any, game: str) -> str:
    """The game's first bundled transcript, imported: its match id."""
    from referee.transcript import import_transcript

    folder = os.path.join(ROOT, "replays", game)
    name = sorted(f for f in os.listdir(folder) if f.endswith(".txt"))[0]
    with open(os.path.join(folder, name), encoding="utf-8") as fh:
        mid: str = import_transcript(referee, fh.read(), os.path.join(folder, name), folder).match_id
    return mid


def load_ms(driver: Any, path: str, size: str) -> float:
    """Chromium opening the page at ``size``: the navigation's load event end, in ms."""
    width, height, mobile = SIZES[size]
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile})
    driver.get("about:blank")
    driver.get("file://" + path)
    ms: float = driver.execute_script("return performance.getEntriesByType('navigation')[0].loadEventEnd")
    return ms


def measure(db: str, mid: str, path: str, driver: Any, repeat: int) -> dict[str, Any]:
    from referee.export import export
    from referee.service import Referee
    from referee.store.sqlite import SqliteStore

    referee = Referee(SqliteStore(db))
    seat = referee.load(mid).config.players[0]
    entries = referee.store.head(mid)
    referee.store.close()
    runs, cpu = [], []
    for _ in range(repeat):
        fresh = Referee(SqliteStore(db))
        t0, c0 = time.perf_counter(), time.process_time()
        page = export(fresh, mid, "html", seat)
        runs.append(time.perf_counter() - t0)
        cpu.append(time.process_time() - c0)
        fresh.store.close()
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(page)
    out: dict[str, Any] = {"entries": entries, "seat": seat, "bytes": os.path.getsize(path),
                           "export_ms": round(statistics.median(runs) * 1000, 1),
                           "export_cpu_ms": round(statistics.median(cpu) * 1000, 1)}
    for size in SIZES:
        out[f"{size}_ms"] = round(statistics.median(load_ms(driver, path, size) for _ in range(repeat)), 1)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", default=",".join(GAMES))
    ap.add_argument("--entries", type=int, default=2000, help="entries of the long match")
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()

    from bench_timetravel import build

    from referee.service import Referee
    from referee.store.sqlite import SqliteStore
    from tests.support.browser import chromium

    driver = chromium("--disable-background-networking", "--disable-component-update", "--disable-sync")
    figures: dict[str, Any] = {}
    try:
        with tempfile.TemporaryDirectory(prefix="referee-viewer-") as work:
            db = os.path.join(work, "viewer.db")
            for game in args.games.split(","):
                referee = Referee(SqliteStore(db, durability="normal"))
                shown = demo(referee, game)
                referee.store.close()
                t0 = time.perf_counter()
                long_mid, built = build(db, game, args.entries, 64, args.seed)
                print(f"{game}: built {built['entries']:,} entries in {time.perf_counter() - t0:.0f} s", flush=True)
                figures[game] = {kind: measure(db, mid, os.path.join(work, f"{game}-{kind}.html"), driver, args.repeat)
                                 for kind, mid in (("demo", shown), ("long", long_mid))}
    finally:
        driver.quit()
    print(f"\nthe viewer for the first seat, median of {args.repeat} runs:")
    print(f"  {'game':18s} {'match':5s} {'entries':>8s} {'bytes':>11s} {'export ms':>10s} {'(CPU)':>7s} {'phone ms':>9s} {'desktop ms':>11s}")
    for game, kinds in figures.items():
        for kind, f in kinds.items():
            print(f"  {game:18s} {kind:5s} {f['entries']:>8,} {f['bytes']:>11,} {f['export_ms']:>10.1f} {f['export_cpu_ms']:>7.1f} "
                  f"{f['phone_ms']:>9.1f} {f['desktop_ms']:>11.1f}")
    print(json.dumps({"repeat": args.repeat, "entries": args.entries, "games": figures}))


if __name__ == "__main__":
    main()
