"""Benchmark: issue 27's leftovers in instructions (valgrind's cachegrind: a figure a loaded machine does not
move), each a difference of two counted processes of one tree (``--root``: this one, or an export of an
older commit, ``git archive COMMIT | tar -x -C DIR``, to compare):

* ``post``  — one ``POST /matches/{id}/intents`` over the app (Litestar's TestClient, a memory store): a
  seeded By All Means match of 200 moves is recorded (``bench_submit.record``), its lines posted as the
  arbiter, the first 20 to warm every path; (I(20 + N) - I(20)) / N;
* ``bind``  — binding one more By All Means configuration of the bundled ``spec`` card set (a seed of its
  own: a binding of its own), the card set's parse kept as the code keeps it, and, beside it, dropped
  before each bind (what a parse per bind would cost);
* ``audit`` — ``Referee.audit`` of a 3,000-entry Copycat match by random play with undos
  (``bench_timetravel.build``, as ``bench_audit.py`` builds it, into ``--db``): the process auditing
  once less the same process loading the match only.

Bytecode is compiled into a private cache first (a warm-up run of each), so no count includes compiling.

    python benchmarks/bench_leftovers_ir.py                       # all three, this tree
    python benchmarks/bench_leftovers_ir.py --only audit --root /tmp/before --db /tmp/cc.db
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def child(kind: str, arg: str, db: str) -> None:
    """One counted process of ``kind`` (``post`` N, ``bind`` cached|uncached:N, ``audit`` run|load)."""
    if kind == "post":
        import logging

        import bench_submit as b
        from litestar.testing import TestClient

        from referee.http import create_app
        from referee.service import Referee
        from referee.store.memory import MemoryStore

        logging.disable(logging.INFO)
        n = int(arg)
        _, _, lines, _, _ = b.record("by_all_means", 200)
        store = MemoryStore()
        with TestClient(create_app(lambda: Referee(store))) as client:
            made = client.post("/matches", json={"game": "by_all_means", "players": ["p0", "p1"], "seed": b.SEED})
            mid, auth = made.json()["match"]["id"], {"Authorization": f"Bearer {made.json()['tokens']['arbiter']}"}
            for seat, text in lines[: 20 + n]:
                answer = client.post(f"/matches/{mid}/intents", json={"intent": text, "seat": seat}, headers=auth)
                assert answer.status_code == 201, answer.text
    elif kind == "bind":
        import msgspec

        from referee import binding
        from referee.games.by_all_means import data
        from referee.service import Referee
        from referee.store.memory import MemoryStore

        mode, count = arg.split(":")
        game, config = Referee(MemoryStore()).build_config("by_all_means", ["ann", "bob"], seed=1, cards="spec")
        binding.bind(game, config)
        for i in range(int(count)):
            if mode == "uncached":
                data.parse_card_set.cache_clear()
            binding.bind(game, msgspec.structs.replace(config, seed=100 + i))
    elif kind == "audit":
        from bench_timetravel import build

        from referee.service import Referee
        from referee.store.sqlite import SqliteStore

        if not os.path.exists(db):
            mid, _ = build(db, "copycat", 3000, 64, 7)
            with open(db + ".id", "w", encoding="utf-8") as fh:
                fh.write(mid)
        with open(db + ".id", encoding="utf-8") as fh:
            mid = fh.read()
        referee = Referee(SqliteStore(db, durability="normal", create=False))
        referee.load(mid)
        if arg == "run":
            assert referee.audit(mid, jobs=1).clean


def counted(root: str, kind: str, arg: str, db: str, env: dict[str, str]) -> int:
    argv = [sys.executable, os.path.abspath(__file__), "--child", kind, arg, "--root", root, "--db", db]
    subprocess.run(argv, check=True, capture_output=True, env=env)  # compiles the bytecode, builds the match
    out = subprocess.run(["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null",
                          *argv], capture_output=True, text=True, env=env, check=True)
    refs = re.search(r"I\s+refs:\s+([\d,]+)", out.stderr)
    if refs is None:
        raise SystemExit(f"no count from valgrind for {kind} {arg}: {out.stderr[-500:]}")
    return int(refs.group(1).replace(",", ""))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--child", nargs=2, help=argparse.SUPPRESS)
    ap.add_argument("--root", default=ROOT, help="the tree to measure (default: this one)")
    ap.add_argument("--db", default=os.path.join(tempfile.gettempdir(), "referee-leftovers-copycat.db"),
                    help="the Copycat match's database (built on first use, then reused)")
    ap.add_argument("--only", choices=("post", "bind", "audit"))
    ap.add_argument("--posts", type=int, default=150)
    ap.add_argument("--binds", type=int, default=20)
    args = ap.parse_args()
    if args.child:
        sys.path[:0] = [args.root, os.path.join(args.root, "benchmarks")]
        child(args.child[0], args.child[1], args.db)
        return
    env = {**os.environ, "PYTHONPYCACHEPREFIX": os.path.join(tempfile.gettempdir(), "referee-leftovers-pycache")}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    root = os.path.abspath(args.root)
    print(f"tree {root}")
    if args.only in (None, "post"):
        base, more = (counted(root, "post", str(n), args.db, env) for n in (0, args.posts))
        print(f"post: {(more - base) / args.posts:,.0f} instructions a POST /intents")
    if args.only in (None, "bind"):
        base, kept, dropped = (counted(root, "bind", a, args.db, env)
                               for a in ("cached:0", f"cached:{args.binds}", f"uncached:{args.binds}"))
        print(f"bind: {(kept - base) / args.binds:,.0f} instructions a binding (card set kept), "
              f"{(dropped - base) / args.binds:,.0f} parsing it each time")
    if args.only in (None, "audit"):
        load, run = (counted(root, "audit", a, args.db, env) for a in ("load", "run"))
        print(f"audit: {run - load:,} instructions, Copycat, 3,000 entries")


if __name__ == "__main__":
    main()
