"""Benchmark: ``submit`` beside the rules alone in instructions (valgrind's cachegrind), per intent — a
figure a loaded machine does not move, where ``bench_submit.py``'s CPU times move with the load.

For each game, ``bench_submit.record`` plays the seeded match once; then the same process is counted under
cachegrind, doing after that recording ``--reps`` runs of one kind: the rules alone (``rules``: decide and
fold the recorded intents), the same with the state hash of every state after (``hashed``: what every
entry must record beside the rules), ``Referee.submit`` of every line on a memory store (``memory``), and
each run's fixed cost, the same runs over no intents (``rules0``: binding the rules and the setup;
``memory0``: creating and binding the match). A kind's instructions less its fixed runs', over ``--reps``
times the intents, is its cost per intent. Bytecode is compiled into a private cache first, and every
process warms the same paths first, so no count includes compiling or a first use.

    python benchmarks/bench_submit_ir.py                          # every game, 200 moves, 2 reps
    python benchmarks/bench_submit_ir.py --games copycat --moves 50 --reps 1
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
from collections.abc import Callable

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
sys.path.insert(0, os.path.join(ROOT, "benchmarks"))

KINDS = ("rules0", "rules", "hashed", "memory0", "memory")


def child(game_id: str, moves: int, kind: str, reps: int) -> None:
    """One counted process: the recording, then ``reps`` runs of ``kind``."""
    import bench_submit as b

    from referee.engine import core
    from referee.engine.protocol import Accepted
    from referee.store.memory import MemoryStore

    game, config, lines, intents, expected = b.record(game_id, moves)

    def hashed() -> str:
        rules = game.bind(config)
        state = rules.setup(core.chance_for(config, "setup"))
        chance = core.play_chance(config)
        for seat, intent in intents:
            verdict = rules.decide(state, seat, intent, chance)
            if isinstance(verdict, Accepted):
                state = core.apply(rules, state, verdict)
            core.state_hash(state)
        return core.state_hash(state)

    runs: dict[str, Callable[[], str]] = {"rules": lambda: b.run_rules(game, config, intents)[2], "hashed": hashed,
            "memory": lambda: b.run_service(game, config, lines, MemoryStore())[2],
            "rules0": lambda: (b.run_rules(game, config, []), expected)[1],
            "memory0": lambda: (b.run_service(game, config, [], MemoryStore()), expected)[1]}
    runs["hashed"]()  # every kind pays the same first-use costs first
    runs["memory"]()
    for _ in range(reps):
        if runs[kind]() != expected:
            raise SystemExit(f"{game_id}: {kind} ended on another state than the recording")
    print(f"intents {len(lines)}")


def counted(game_id: str, moves: int, kind: str, reps: int, env: dict[str, str]) -> tuple[int, int]:
    """(instructions, intents) of one :func:`child` under cachegrind."""
    out = subprocess.run(
        ["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null", sys.executable,
         os.path.abspath(__file__), "--child", game_id, str(moves), kind, str(reps)],
        capture_output=True, text=True, env=env, check=True)
    refs = re.search(r"I\s+refs:\s+([\d,]+)", out.stderr)
    n = re.search(r"intents (\d+)", out.stdout)
    if refs is None or n is None:
        raise SystemExit(f"no count from valgrind for {game_id} {kind}: {out.stderr[-500:]}")
    return int(refs.group(1).replace(",", "")), int(n.group(1))


def main() -> None:
    if sys.argv[1:2] == ["--child"]:
        child(sys.argv[2], int(sys.argv[3]), sys.argv[4], int(sys.argv[5]))
        return
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", default="by_all_means,copycat,war_of_shadows,android,xfiles_encounters")
    ap.add_argument("--moves", type=int, default=200)
    ap.add_argument("--reps", type=int, default=2)
    args = ap.parse_args()
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""),
               PYTHONPYCACHEPREFIX=tempfile.mkdtemp(prefix="bench-submit-ir-"), PYTHONHASHSEED="0")
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    print(f"{'game':<18} {'n':>4} {'rules':>9} {'state hash':>11} {'submit':>9}   (instructions per intent)")
    for game_id in args.games.split(","):
        subprocess.run([sys.executable, os.path.abspath(__file__), "--child", game_id, str(args.moves), "rules0", "0"],
                       env=env, check=True, capture_output=True)  # compiles the bytecode once
        got = {kind: counted(game_id, args.moves, kind, args.reps, env) for kind in KINDS}
        n = got["rules"][1]
        fixed = {"rules": "rules0", "hashed": "rules0", "memory": "memory0"}
        per = {k: (got[k][0] - got[f][0]) / args.reps / n for k, f in fixed.items()}
        hash_cost = per["hashed"] - per["rules"]
        print(f"{game_id:<18} {n:>4} {per['rules'] / 1e3:>8.0f}k {hash_cost / 1e3:>7.0f}k ({hash_cost / per['rules']:.2f}x) "
              f"{per['memory'] / 1e3:>7.0f}k = {per['memory'] / per['rules']:.2f}x the rules")


if __name__ == "__main__":
    main()
