"""Tournaments end to end (issue 14), and Swiss pairing at scale.

1. A Swiss of By All Means (default 64 players, 6 rounds): each round paired through the service
   (closing the round before: every match's outcome read, its audit run, the results copied; then the
   pairing drawn and a digital match created for each table), every match played to its end by seeded
   random legal play through ``Referee.submit``; then the standings, an HTML export and
   ``tournament audit``.
2. A pods event of War of Shadows (default 24 players, tables of 4, 3 rounds), the same way.
3. Swiss pairing alone (``pairing.swiss``) at 64, 512 and 2,048 players over simulated rounds (random
   results, seeded): the time of each round's matching.
4. Creating a tournament with its players (``Tournaments.create``) at 1,000 and 4,096 players, CPU
   seconds, against a floor: the same number of rows written with plain ``sqlite3`` in one transaction
   (the players' growth ratio near 4.1 says creation is linear).

Prints a JSON summary (and writes the HTML standings next to the database).

    python benchmarks/bench_tournament.py
    python benchmarks/bench_tournament.py --players 16 --rounds 3 --pods 12 --sizes 64,512
    python benchmarks/bench_tournament.py --players 0 --pods 0 --sizes "" --create 1000,4096
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import tempfile
import time
from fractions import Fraction

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from referee.engine.notation import format_intent  # noqa: E402
from referee.service import Referee  # noqa: E402
from referee.store.sqlite import SqliteStore  # noqa: E402
from referee.tournament.pairing import Entrant, swiss  # noqa: E402
from referee.tournament.service import Tournaments  # noqa: E402


def play_out(ref: Referee, match_id: str, rng: random.Random, cap: int) -> int:
    """Random legal play to the end (the game's random_intent where it has one); intents submitted."""
    loaded = ref.load(match_id)
    seats = loaded.config.players
    n = 0
    while n < cap:
        _, state = ref.state_at(loaded)
        if loaded.rules.outcome(state) is not None:
            return n
        pick = loaded.rules.random_intent(state, rng)
        if pick is None:
            options = [(s, i) for s in seats for i in loaded.rules.legal_intents(state, s)]
            if not options:
                return n
            pick = options[rng.randrange(len(options))]
        seat, intent = pick
        res = ref.submit(match_id, seat, format_intent(intent))
        if not (res.accepted or res.held):
            raise SystemExit(f"{match_id}: {seat} {format_intent(intent)} was refused: {res.verdict}")
        n += 1
    return n


def event(db: str, game: str, fmt: str, players: int, rounds: int, seed: int, cap: int, html_out: str) -> dict:
    ref = Referee(SqliteStore(db, durability="normal"))
    t = Tournaments(ref)
    state = t.create(f"bench {game}", game, format=fmt, rounds=rounds, seed=seed, chance="digital",
                     players=[f"p{i:03}" for i in range(players)])
    rng = random.Random(seed)
    pair_s, play_s, intents, unfinished = [], [], 0, 0
    for _ in range(rounds):
        t0 = time.perf_counter()
        paired = t.pair(state.id, tokens=False)
        pair_s.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        for table in paired.tables:
            assert table.match_id is not None
            intents += play_out(ref, table.match_id, rng, cap)
            if ref.show(table.match_id).outcome is None:  # past the cap: the arbiter records a draw
                unfinished += 1
                t.record_result(state.id, paired.round, table.table, "draw", why="benchmark: step cap")
        play_s.append(time.perf_counter() - t0)
    t0 = time.perf_counter()
    t.close_round(state.id)
    close_s = time.perf_counter() - t0
    t0 = time.perf_counter()
    table = t.standings(state.id)
    standings_s = time.perf_counter() - t0
    t0 = time.perf_counter()
    html = t.export(state.id, "html")
    export_s = time.perf_counter() - t0
    with open(html_out, "w", encoding="utf-8") as fh:
        fh.write(html)
    t0 = time.perf_counter()
    findings = t.audit(state.id)
    audit_s = time.perf_counter() - t0
    top = table.rows[0]
    return {
        "game": game, "format": fmt, "players": players, "rounds": rounds, "matches": sum(
            len(r.tables) for r in t.load(state.id).rounds), "intents": intents, "unfinished_at_cap": unfinished,
        "pair_round_s (closing the previous round: outcomes, audits, copies; drawing; creating matches)":
            [round(x, 3) for x in pair_s],
        "play_round_s": [round(x, 2) for x in play_s], "close_last_round_s": round(close_s, 3),
        "standings_s": round(standings_s, 3), "export_html_s": round(export_s, 3), "html_bytes": len(html),
        "tournament_audit_s": round(audit_s, 2), "audit_clean": not findings,
        "winner": f"{top.player} with {top.values[0]}",
    }


def pairing_times(n: int, rounds: int, seed: int) -> dict:
    """Swiss rounds of ``n`` simulated players: random results, each round's matching timed."""
    rng = random.Random(seed)
    ids = [f"p{i:05}" for i in range(n)]
    score = {p: Fraction(0) for p in ids}
    met: set[frozenset[str]] = set()
    byes: set[str] = set()
    seats: dict[str, list[tuple[int, int]]] = {p: [] for p in ids}
    times: list[float] = []
    cpu: list[float] = []  # CPU time: what a loaded machine does not inflate
    rematches = 0
    for r in range(1, rounds + 1):
        order = sorted(ids, key=lambda p: (-score[p], p))
        entrants = [Entrant(id=p, score=score[p], rank=i, had_bye=p in byes, seats=tuple(seats[p]))
                    for i, p in enumerate(order)]
        t0, c0 = time.perf_counter(), time.process_time()
        paired = swiss(entrants, met, seed, r)
        times.append(time.perf_counter() - t0)
        cpu.append(time.process_time() - c0)
        for a, b in paired.tables:
            rematches += frozenset((a, b)) in met
            met.add(frozenset((a, b)))
            seats[a].append((0, 2))
            seats[b].append((1, 2))
            x = rng.random()
            if x < 0.45:
                score[a] += 3
            elif x < 0.9:
                score[b] += 3
            else:
                score[a] += 1
                score[b] += 1
        for p in paired.byes:
            byes.add(p)
            score[p] += 3
    return {"players": n, "rounds": rounds, "round_s": [round(x, 3) for x in times],
            "median_s": round(statistics.median(times), 3), "max_s": round(max(times), 3),
            "cpu_round_s": [round(x, 3) for x in cpu], "cpu_median_s": round(statistics.median(cpu), 3),
            "cpu_max_s": round(max(cpu), 3), "rematches": rematches}


def creation_times(where: str, n: int) -> dict:
    """``Tournaments.create`` with ``n`` players (CPU and wall seconds), and the floor: ``n + 1`` rows of
    the same size inserted with plain ``sqlite3`` in one transaction."""
    import sqlite3

    db = os.path.join(where, f"create-{n}.db")
    t = Tournaments(Referee(SqliteStore(db, durability="normal")))
    names = [f"p{i:05}" for i in range(n)]
    t0, c0 = time.perf_counter(), time.process_time()
    state = t.create(f"Open {n}", "by_all_means", rounds=5, seed=1, players=names)
    cpu, wall = time.process_time() - c0, time.perf_counter() - t0
    assert len(state.players) == n
    bodies = [(r.n, bytes(r.body)) for r in t.store.tournament_events(state.id)]
    conn = sqlite3.connect(os.path.join(where, f"floor-{n}.db"))
    conn.execute("CREATE TABLE e (n INTEGER PRIMARY KEY, body BLOB)")
    c0 = time.process_time()
    with conn:
        conn.executemany("INSERT INTO e VALUES (?, ?)", bodies)
    floor = time.process_time() - c0
    conn.close()
    return {"players": n, "cpu_s": round(cpu, 3), "wall_s": round(wall, 3), "floor_cpu_s": round(floor, 4),
            "ratio_to_floor": round(cpu / floor, 1) if floor else None}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--players", type=int, default=64)
    ap.add_argument("--rounds", type=int, default=6)
    ap.add_argument("--pods", type=int, default=24, help="players of the War of Shadows pods event (0: skip)")
    ap.add_argument("--pod-rounds", type=int, default=3)
    ap.add_argument("--sizes", default="64,512,2048", help="players of the pairing-only runs")
    ap.add_argument("--pairing-rounds", type=int, default=6)
    ap.add_argument("--cap", type=int, default=5000, help="intents a match may take before the arbiter calls it")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--create", default="1000,4096", help="players of the creation runs")
    ap.add_argument("--dir", default=None, help="where the database and HTML go (default: a temporary folder)")
    args = ap.parse_args()
    where = args.dir or tempfile.mkdtemp(prefix="bench-tournament-")
    out: dict = {"dir": where}
    if args.players:
        out["swiss_by_all_means"] = event(os.path.join(where, "swiss.db"), "by_all_means", "swiss", args.players,
                                          args.rounds, args.seed, args.cap, os.path.join(where, "swiss.html"))
    if args.pods:
        out["pods_war_of_shadows"] = event(os.path.join(where, "pods.db"), "war_of_shadows", "pods", args.pods,
                                           args.pod_rounds, args.seed, args.cap, os.path.join(where, "pods.html"))
    out["swiss_pairing"] = [pairing_times(int(n), args.pairing_rounds, args.seed) for n in args.sizes.split(",") if n]
    if args.create:
        creation_times(where, 10)  # warm-up: the game's modules and the store's first connection
    created = [creation_times(where, int(n)) for n in args.create.split(",") if n]
    if len(created) >= 2 and created[0]["cpu_s"]:
        out["create_growth (cpu, last / first)"] = round(created[-1]["cpu_s"] / created[0]["cpu_s"], 2)
    out["create"] = created
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
