"""Benchmark: ``submit`` on the memory store against the rules alone, per game, in one run (issue 27, item 4).

A stop-gap beside ``bench_submit.py`` (which another branch adds): for each game, seeded random legal
play (``--moves`` intents over as many matches as it takes, each played to its end or ``--per-match``
intents) is recorded once; then, ``--repeat`` times, interleaved, medians of CPU time:

* ``rules``  — the rules alone: each recorded intent (as the log holds it, chance filled in) adjudicated
  and applied to the state before it (``core.adjudicate`` and ``core.apply``), nothing else;
* ``submit`` — ``Referee.submit`` of each intent's notation into a fresh match of a fresh service on a
  ``MemoryStore`` (parsing, the head, adjudication, the entry and its hashes, the append).

    python benchmarks/bench_submit_head.py --moves 1500 --repeat 5
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time
from typing import Any

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

GAMES = ("by_all_means", "war_of_shadows", "copycat", "android", "xfiles_encounters")


def record(game: str, moves: int, per_match: int, seed: int) -> list[tuple[str, list[tuple[str, str, Any]]]]:
    """Matches of seeded random legal play: (match seed, [(seat, notation, recorded intent)])."""
    from referee.engine.notation import format_intent
    from referee.service import Referee
    from referee.store.memory import MemoryStore

    rng = random.Random(seed)
    out: list[tuple[str, list[tuple[str, str, Any]]]] = []
    total = 0
    while total < moves:
        referee = Referee(MemoryStore())
        g = referee.game(game)
        players = ["south", "north", "east", "west", "fifth"][: g.min_players]
        match_seed = rng.randrange(2**31)
        m = referee.new_match(game, players, seed=match_seed, title="submit benchmark")
        loaded = referee.load(m.id)
        played: list[tuple[str, str, Any]] = []
        while total < moves and len(played) < per_match:
            _, state = referee.state_at(loaded)
            if loaded.rules.outcome(state) is not None:
                break
            options = [(s, i) for s in players for i in loaded.rules.legal_intents(state, s)]
            if not options:
                break
            seat, intent = options[rng.randrange(len(options))]
            text = format_intent(intent)
            res = referee.submit(m.id, seat, text)
            played.append((seat, text, res.intent))
            total += 1
        out.append((str(match_seed), played))
    return out


def run_rules(game: str, matches: list[tuple[str, list[tuple[str, str, Any]]]]) -> float:
    from referee.engine import core
    from referee.service import Referee
    from referee.store.memory import MemoryStore

    referee = Referee(MemoryStore())
    g = referee.game(game)
    players = ["south", "north", "east", "west", "fifth"][: g.min_players]
    prepared = []
    for match_seed, played in matches:
        m = referee.new_match(game, players, seed=int(match_seed), title="submit benchmark")
        loaded = referee.load(m.id)
        prepared.append((loaded, played))
    t0 = time.process_time()
    for loaded, played in prepared:
        state = loaded.initial
        chance = core.play_chance(loaded.config, loaded.config.seed)
        for seat, _text, intent in played:
            _, verdict = core.adjudicate(loaded.rules, state, seat, intent, chance, awaiting=None, confirmed=True)
            state = core.apply(loaded.rules, state, verdict)
    return time.process_time() - t0


def run_submit(game: str, matches: list[tuple[str, list[tuple[str, str, Any]]]]) -> float:
    from referee.service import Referee
    from referee.store.memory import MemoryStore

    referee = Referee(MemoryStore())
    g = referee.game(game)
    players = ["south", "north", "east", "west", "fifth"][: g.min_players]
    prepared = []
    for match_seed, played in matches:
        m = referee.new_match(game, players, seed=int(match_seed), title="submit benchmark")
        referee.load(m.id)
        prepared.append((m.id, played))
    t0 = time.process_time()
    for mid, played in prepared:
        for seat, text, _intent in played:
            referee.submit(mid, seat, text)
    return time.process_time() - t0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", default=",".join(GAMES))
    ap.add_argument("--moves", type=int, default=1500)
    ap.add_argument("--per-match", type=int, default=300)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--seed", type=int, default=11)
    args = ap.parse_args()
    games = [g for g in args.games.split(",") if g]
    load_before = os.getloadavg()
    recorded = {g: record(g, args.moves, args.per_match, args.seed) for g in games}
    runs: dict[str, dict[str, list[float]]] = {g: {"rules": [], "submit": []} for g in games}
    for _ in range(args.repeat):
        for g in games:
            runs[g]["rules"].append(run_rules(g, recorded[g]))
            runs[g]["submit"].append(run_submit(g, recorded[g]))
    summary: dict[str, Any] = {"moves": args.moves, "repeat": args.repeat,
                               "load_before": [round(x, 2) for x in load_before], "games": {}}
    print(f"{'game':<20}{'intents':>8}{'rules us':>10}{'submit us':>11}{'x':>7}")
    for g in games:
        n = sum(len(p) for _s, p in recorded[g])
        rules, submit = (statistics.median(runs[g][k]) for k in ("rules", "submit"))
        fig = {"intents": n, "rules_us": round(rules / n * 1e6, 1), "submit_us": round(submit / n * 1e6, 1),
               "x": round(submit / rules, 2)}
        summary["games"][g] = fig
        print(f"{g:<20}{n:>8}{fig['rules_us']:>10}{fig['submit_us']:>11}{fig['x']:>7}")
    summary["load_after"] = [round(x, 2) for x in os.getloadavg()]
    print(json.dumps(summary))


if __name__ == "__main__":
    main()
