"""Benchmark: how long the ``referee`` command takes as a whole process — what a person at the table
waits for each time they type ``referee play`` — beside the floor of any Python program that uses
msgspec and sqlite3, ``python -c 'import msgspec, sqlite3'``, in the same run:

* ``play``        — ``referee play MATCH alice draw_opening_hand`` (accepted; a fresh match each run);
* ``show``        — ``referee show MATCH`` of a short match (its boards drawn by rich, written to a pipe);
* ``show --json`` — ``referee show MATCH --json`` of the same match;
* ``--help``      — ``referee --help`` (every command's help line, typer's rich panels);
* ``log``         — ``referee log MATCH`` of the same short match (a rich table).

The commands and the floor run in turns (round robin, the order rotated each round) so that a busy
machine slows them alike. For each: the median wall time, the median CPU time (user + system, less
noisy than wall time on a shared machine) and the peak RSS, and both times as ratios to the floor's.

The ``referee`` command measured is the console script beside this Python (what ``pip install .``
made), or ``--referee PATH``; the floor runs under that script's Python. Bytecode is compiled once
into a private cache before the timed runs (``pip install .`` compiles it at install; an editable
install under ``PYTHONDONTWRITEBYTECODE`` would otherwise compile the project's modules on every
run); ``--bytecode as-is`` keeps the environment's choice. The report says whether the ``referee``
measured is an editable install (whose import finder costs every Python start in that environment,
the floor's included).

    python benchmarks/bench_startup.py                 # 15 rounds
    python benchmarks/bench_startup.py --runs 31 --json-out startup.json
    python benchmarks/bench_startup.py --referee venv/bin/referee --before old-venv/bin/referee
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from typing import Any

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

FLOOR = "import msgspec, sqlite3"


def launcher(given: str | None) -> tuple[list[str], str]:
    """The command that runs ``referee`` and the Python it runs under."""
    script = given or shutil.which("referee", path=os.path.dirname(sys.executable))
    if script is None:
        return [sys.executable, "-m", "cli"], sys.executable
    python = sys.executable
    with open(script, "rb") as fh:
        first = fh.readline().decode(errors="replace").strip()
    if first.startswith("#!") and os.path.exists(first[2:].split()[0]):
        python = first[2:].split()[0]
    return [script], python


def prepare(path: str, matches: int) -> tuple[list[str], str]:
    """A database with ``matches`` fresh matches (one per ``play`` run) and a short one to read, made
    in a process of its own: this one stays small, so that the peak RSS a child reports (which counts
    what it was forked from) is its own."""
    out = subprocess.run([sys.executable, __file__, "--prepare", path, str(matches)], capture_output=True,
                         text=True, check=True)
    fresh, short = json.loads(out.stdout)
    return fresh, short


def _prepare(path: str, matches: int) -> None:
    from referee.service import Referee
    from referee.store.sqlite import SqliteStore

    referee = Referee(SqliteStore(path, create=True))
    fresh = [referee.new_match("by_all_means", ["alice", "bob"], seed=i).id for i in range(matches)]
    short = referee.new_match("by_all_means", ["alice", "bob"], seed=matches, title="read me").id
    referee.submit(short, "alice", "draw_opening_hand")
    referee.submit(short, "bob", "draw_opening_hand")
    referee.store.close()
    print(json.dumps([fresh, short]))


def run_once(argv: list[str], env: dict[str, str]) -> dict[str, float]:
    """One whole process: wall time, CPU time (its own rusage) and peak RSS."""
    t0 = time.perf_counter()
    proc = subprocess.Popen(argv, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE)
    stderr = proc.stderr.read() if proc.stderr is not None else b""
    _pid, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - t0
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.stderr is not None:
        proc.stderr.close()
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} exited {proc.returncode}: {stderr.decode(errors='replace')}")
    return {"wall_ms": wall * 1000, "cpu_ms": (usage.ru_utime + usage.ru_stime) * 1000,
            "rss_mib": usage.ru_maxrss / 1024}


def install_kind(python: str, env: dict[str, str]) -> dict[str, Any]:
    code = ("import sys, cli\n"
            "print(cli.__file__)\n"
            "print(any(m.startswith('__editable__') for m in sys.modules))\n")
    out = subprocess.run([python, "-c", code], env=env, capture_output=True, text=True, cwd=tempfile.gettempdir())
    lines = out.stdout.split("\n")
    return {"cli_from": lines[0] if lines else "?", "editable": len(lines) > 1 and lines[1] == "True"}


def main() -> None:
    if sys.argv[1:2] == ["--prepare"]:
        _prepare(sys.argv[2], int(sys.argv[3]))
        return
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=15, help="rounds (each command once per round; medians)")
    ap.add_argument("--referee", help="the referee console script to measure (default: the one beside this Python)")
    ap.add_argument("--before", help="another referee console script (an install of an earlier version) to "
                                     "measure in the same rounds, as 'before'")
    ap.add_argument("--bytecode", choices=("cache", "as-is"), default="cache",
                    help="cache: compile bytecode once into a private cache first (as an installed package has it)")
    ap.add_argument("--json-out", help="also write the figures here as JSON")
    args = ap.parse_args()

    base, python = launcher(args.referee)
    work = tempfile.mkdtemp(prefix="bench-startup-")
    db = os.path.join(work, "startup.db")
    env = dict(os.environ, COLUMNS="100", REFEREE_DB=db)
    env.pop("REFEREE_SERVER", None)
    env.pop("REFEREE_TOKEN", None)
    # each script runs the code it was installed with: a PYTHONPATH (a checkout put first, as the tests
    # do) would make every script, --before's too, import that checkout instead
    env.pop("PYTHONPATH", None)
    if args.bytecode == "cache":
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = os.path.join(work, "pycache")
    warm = 2
    referees = {"": base} | ({"before ": launcher(args.before)[0]} if args.before else {})
    fresh, short = prepare(db, (args.runs + warm) * len(referees))
    plays = iter(fresh)

    commands: dict[str, Any] = {"floor": lambda: [python, "-c", FLOOR]}
    for label, ref in referees.items():
        commands |= {
            f"{label}play": lambda ref=ref: [*ref, "play", next(plays), "alice", "draw_opening_hand"],
            f"{label}show": lambda ref=ref: [*ref, "show", short],
            f"{label}show --json": lambda ref=ref: [*ref, "show", short, "--json"],
            f"{label}--help": lambda ref=ref: [*ref, "--help"],
            f"{label}log": lambda ref=ref: [*ref, "log", short],
        }
    names = list(commands)
    for _ in range(warm):
        for name in names:
            run_once(commands[name](), env)
    samples: dict[str, list[dict[str, float]]] = {name: [] for name in names}
    for r in range(args.runs):
        for name in names[r % len(names):] + names[: r % len(names)]:
            samples[name].append(run_once(commands[name](), env))
    shutil.rmtree(work, ignore_errors=True)

    def med(name: str, key: str) -> float:
        return statistics.median(s[key] for s in samples[name])

    floor_wall, floor_cpu = med("floor", "wall_ms"), med("floor", "cpu_ms")
    figures = {
        name: {
            "wall_ms": round(med(name, "wall_ms"), 1),
            "cpu_ms": round(med(name, "cpu_ms"), 1),
            "wall_ratio": round(med(name, "wall_ms") / floor_wall, 2),
            "cpu_ratio": round(med(name, "cpu_ms") / floor_cpu, 2),
            "peak_rss_mib": round(max(s["rss_mib"] for s in samples[name]), 1),
        }
        for name in names
    }
    summary = {
        "runs": args.runs, "referee": " ".join(base), "before": args.before, "python": python,
        "bytecode": args.bytecode, **install_kind(python, env), "floor": f"python -c '{FLOOR}'", "commands": figures,
    }
    print(f"medians of {args.runs} rounds ({summary['referee']}, editable install: {summary['editable']}):")
    for name, fig in figures.items():
        print(f"  {name:19s} wall {fig['wall_ms']:7.1f} ms ({fig['wall_ratio']:4.2f}x)   "
              f"cpu {fig['cpu_ms']:7.1f} ms ({fig['cpu_ratio']:4.2f}x)   peak RSS {fig['peak_rss_mib']:5.1f} MiB")
    if args.json_out:
        with open(args.json_out, "w", encoding="utf-8") as fh:
            json.dump(summary, fh, indent=2)
    print(json.dumps(summary))


if __name__ == "__main__":
    main()
