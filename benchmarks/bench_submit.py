"""Benchmark: what ``submit`` costs beside the rules alone, per intent, in one run (issue 27).

For each game, a digital match (fixed seed, two seats or the game's minimum) is played by the game's
``random_intent`` for at most ``--moves`` moves through a memory store; the lines typed are kept. Then,
in rounds (the order rotated each round, so a busy machine slows them alike), the same lines are:

* ``rules``  — the floor: the intents, parsed beforehand, decided and folded by the rules alone
  (``decide`` with the match's chance, then the state after: ``applied`` or ``evolve`` per event);
* ``memory`` — ``Referee.submit`` of each line on a memory store (parsed, adjudicated, hashed, appended);
* ``sqlite`` — the same on a SQLite store (a fresh file; durability ``--durability``, default normal).

Each run starts from a match already bound (``load``): what is timed is the submits alone. Every run
must end on the state hash the recording ended on (the same work was done). Reported: the median CPU
time per intent (process time: less noisy than wall time on a shared machine) and the median wall
time, and each service's CPU as a ratio to the floor's of the same round.

``--profile`` runs the memory store's submits once more under cProfile and prints the share of the
whole that the steps of a submit take (inclusive time): finding an open hold, parsing, adjudicating,
building the entry and its hashes, reading the previous hash, the store's append, the answer.

    python benchmarks/bench_submit.py                       # every game, 9 rounds
    python benchmarks/bench_submit.py --games by_all_means --moves 400 --rounds 15 --profile
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
from collections.abc import Callable
from typing import Any

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

SEED = 2711

#: the steps of a submit the profile names: (label, the function's module file suffix and name)
STEPS = (
    ("open_hold (finding a hold)", "referee/history.py", "open_hold"),
    ("parse (notation)", "referee/service.py", "parse"),
    ("  of it split_words", "referee/engine/notation.py", "split_words"),
    ("state_at (head state)", "referee/history.py", "state_at"),
    ("adjudicate (the rules)", "referee/engine/core.py", "adjudicate"),
    ("prev_hash_at (reading the head)", "referee/service.py", "prev_hash_at"),
    ("make_entry (entry, hashes, fold)", "referee/service.py", "make_entry"),
    ("_append (the store)", "referee/service.py", "_append"),
    ("format_intent (the answer)", "referee/engine/notation.py", "format_intent"),
    ("event_words (the answer)", "referee/service.py", "event_words"),
)


def record(game_id: str, moves: int) -> tuple[Any, Any, list[tuple[str, str]], list[tuple[str, Any]], str]:
    """Play a seeded random game: (game, configuration, the (seat, line) typed, the (seat, intent) as
    recorded (its chance filled in), the final state hash)."""
    from referee.engine.notation import format_intent
    from referee.service import Referee
    from referee.store.memory import MemoryStore

    referee = Referee(MemoryStore())
    game = referee.game(game_id)
    seats = [f"p{i}" for i in range(max(game.min_players, min(2, game.max_players)))]
    match_id = referee.new_match(game.id, seats, seed=SEED).id
    loaded = referee.load(match_id)
    rng = random.Random(SEED)
    lines: list[tuple[str, str]] = []
    state_hash = ""
    for _ in range(moves):
        _, state = referee.state_at(loaded)
        if loaded.rules.outcome(state) is not None:
            break
        pick = loaded.rules.random_intent(state, rng)
        if pick is None:
            break
        seat, intent = pick
        text = format_intent(intent)
        state_hash = referee.submit(match_id, seat, text).state_hash
        lines.append((seat, text))
    recorded = [(body.actor, body.intent) for _seq, body in referee.folded(loaded, 1, len(lines))]
    return game, loaded.config, lines, recorded, state_hash


def run_rules(game: Any, config: Any, intents: list[tuple[str, Any]]) -> tuple[float, float, str]:
    """The floor: decide and fold the intents as recorded by the rules alone."""
    from referee.engine import core
    from referee.engine.protocol import Accepted

    rules = game.bind(config)
    state = rules.setup(core.chance_for(config, "setup"))
    chance = core.play_chance(config)
    c0, w0 = time.process_time(), time.perf_counter()
    for seat, intent in intents:
        verdict = rules.decide(state, seat, intent, chance)
        if isinstance(verdict, Accepted):
            state = core.apply(rules, state, verdict)
    cpu, wall = time.process_time() - c0, time.perf_counter() - w0
    return cpu, wall, core.state_hash(state)


def run_service(game: Any, config: Any, lines: list[tuple[str, str]], store: Any,
                profile: Any = None) -> tuple[float, float, str]:
    """``Referee.submit`` of every line on ``store`` (a match of the same configuration, bound first)."""
    from referee.service import Referee

    referee = Referee(store)
    match_id = referee.create_match(game, config).id
    referee.load(match_id)
    state_hash = ""
    if profile is not None:
        profile.enable()
    c0, w0 = time.process_time(), time.perf_counter()
    for seat, text in lines:
        state_hash = referee.submit(match_id, seat, text).state_hash
    cpu, wall = time.process_time() - c0, time.perf_counter() - w0
    if profile is not None:
        profile.disable()
    return cpu, wall, state_hash


def shares(profile: Any) -> list[tuple[str, float]]:
    """The inclusive share of the whole profiled run each step of :data:`STEPS` took."""
    import pstats

    stats = pstats.Stats(profile)
    table: dict[tuple[str, int, str], Any] = stats.stats  # type: ignore[attr-defined]
    total = max(ct for (_f, _l, name), (_cc, _nc, _tt, ct, _callers) in table.items() if name == "submit")
    out = []
    for label, suffix, func in STEPS:
        ct = sum(v[3] for (f, _l, name), v in table.items() if name == func and f.endswith(suffix))
        out.append((label, ct / total))
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", default="by_all_means,copycat,war_of_shadows,android,xfiles_encounters",
                    help="comma-separated game ids")
    ap.add_argument("--moves", type=int, default=300, help="at most this many moves per game")
    ap.add_argument("--rounds", type=int, default=9)
    ap.add_argument("--durability", default="normal", choices=("off", "normal", "full"))
    ap.add_argument("--profile", action="store_true", help="also profile the memory store's submits")
    ap.add_argument("--json-out", help="write the summary as JSON here")
    args = ap.parse_args(argv)

    from referee.store.memory import MemoryStore
    from referee.store.sqlite import SqliteStore

    tmp = tempfile.mkdtemp(prefix="bench-submit-")
    summary: dict[str, Any] = {"load": os.getloadavg(), "durability": args.durability, "games": {}}
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(f"{'game':<18} {'n':>4} {'rules µs':>9} {'memory µs':>10} {'sqlite µs':>10} "
          f"{'memory/rules':>13} {'sqlite/rules':>13}   (CPU medians; wall in the JSON)")
    for game_id in args.games.split(","):
        game, config, lines, intents, expected = record(game_id, args.moves)
        runs: dict[str, list[tuple[float, float]]] = {"rules": [], "memory": [], "sqlite": []}
        ratios: dict[str, list[float]] = {"memory": [], "sqlite": []}
        counter = iter(range(1_000_000))

        def sqlite_store() -> Any:
            return SqliteStore(os.path.join(tmp, f"{game_id}-{next(counter)}.db"), durability=args.durability)

        kinds: dict[str, Callable[[], tuple[float, float, str]]] = {
            "rules": lambda: run_rules(game, config, intents),
            "memory": lambda: run_service(game, config, lines, MemoryStore()),
            "sqlite": lambda: run_service(game, config, lines, sqlite_store()),
        }
        order = list(kinds)
        for r in range(args.rounds):
            got: dict[str, float] = {}
            for kind in order[r % 3:] + order[:r % 3]:
                cpu, wall, state_hash = kinds[kind]()
                if state_hash != expected:
                    raise SystemExit(f"{game_id}: {kind} ended on another state than the recording")
                runs[kind].append((cpu, wall))
                got[kind] = cpu
            for kind in ratios:
                ratios[kind].append(got[kind] / got["rules"])
        n = len(lines)

        def med(kind: str, i: int) -> float:
            return statistics.median(x[i] for x in runs[kind]) / n * 1e6

        row: dict[str, Any] = {
            "intents": n,
            **{f"{k}_cpu_us": round(med(k, 0), 1) for k in runs},
            **{f"{k}_wall_us": round(med(k, 1), 1) for k in runs},
            **{f"{k}_over_rules": round(statistics.median(v), 2) for k, v in ratios.items()},
        }
        summary["games"][game_id] = row
        print(f"{game_id:<18} {n:>4} {row['rules_cpu_us']:>9} {row['memory_cpu_us']:>10} {row['sqlite_cpu_us']:>10} "
              f"{row['memory_over_rules']:>12}x {row['sqlite_over_rules']:>12}x")
        if args.profile:
            import cProfile

            profile = cProfile.Profile()
            run_service(game, config, lines, MemoryStore(), profile)
            row["profile"] = {label: round(share, 3) for label, share in shares(profile)}
            for label, share in shares(profile):
                print(f"    {label:<36} {share:6.1%}")
    summary["load_after"] = os.getloadavg()
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    if args.json_out:
        with open(args.json_out, "w") as fh:
            json.dump(summary, fh, indent=2)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
