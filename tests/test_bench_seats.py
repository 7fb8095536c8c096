"""benchmarks/bench_seats.py keeps working: 2 tables of By All Means, 3 moves each, against a real
``referee serve``; every entry a seat wrote reaches the other seat's event stream, and the figures are
there (a latency for every delivery, the floor measured)."""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys

import pytest

#: a real server and 4 clients: ~18 s of wall on this machine, so CI's `-m slow` run keeps it
pytestmark = pytest.mark.slow

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def test_two_tables_lose_nothing():
    done = subprocess.run([sys.executable, os.path.join(ROOT, "benchmarks", "bench_seats.py"), "--tables", "2",
                           "--moves", "3", "--floor", "20", "--idle", "0", "--json"],
                          cwd=ROOT, env={**os.environ, "PYTHONPATH": ROOT}, capture_output=True, text=True, timeout=180)
    assert done.returncode == 0, done.stderr[-2000:]
    r = json.loads(done.stdout)
    assert r["tables"] == 2 and r["seats"] == 4 and r["errors"] == {}
    assert r["written"] >= 6  # each table writes 3 (two seats racing may write one more before it stops)
    assert r["deliveries_owed"] == r["written"] and r["deliveries_received"] == r["written"] and r["lost"] == 0
    assert sum(r["verdicts"].values()) == r["written"]
    assert r["tables_short"] == 0
    for key in ("event_p50_ms", "event_p99_ms", "submit_p50_ms", "floor_p50_ms", "floor_p99_ms"):
        assert math.isfinite(r[key]) and r[key] > 0, key
    assert r["event_p50_ms"] <= r["event_p99_ms"] <= r["event_max_ms"]
