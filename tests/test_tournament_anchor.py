"""Issue 23, points 4, 5 and 7 (part): a tournament's record anchored by a head hash that covers its
records and token rows, tampered data audited with findings, a round's matches written all or nothing
with the record pairing them, and a match's title and clock readings in its audit."""

from __future__ import annotations

import os
import signal
import subprocess
import sys

import pytest

from referee.games import GAMES
from referee.service import Referee
from referee.store import open_store
from referee.tournament.service import Tournaments
from support.pile import PILE

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

#: a pairing killed (SIGKILL) inside the write of its round, after the matches and tokens went in
KILLED_PAIRING = """
import os, signal, sys
from referee.games import GAMES
from referee.service import Referee
from referee.store import open_store
from referee.store.sqlite import SqliteStore
from referee.tournament.service import Tournaments
sys.path.insert(0, os.path.join(sys.argv[3], "tests"))
from support.pile import PILE

def die(*args, **kwargs):
    os.kill(os.getpid(), signal.SIGKILL)

SqliteStore._insert_tournament_event = die
try:
    from referee.store.postgres import PostgresStore
    PostgresStore._insert_tournament_events = staticmethod(die)
except ImportError:
    pass
t = Tournaments(Referee(open_store(sys.argv[1]), games=(*GAMES, PILE)))
t.pair(sys.argv[2])
"""


def service(db: str) -> Tournaments:
    return Tournaments(Referee(open_store(db), games=(*GAMES, PILE)))


def tournament_matches(t: Tournaments, tid: str) -> list[str]:
    return [m.id for m in t.store.list_matches() if t.referee.info(m).event == "Club night"
            and b'"tournament":"' + tid.encode() + b'"' in m.config]


def test_a_pairing_killed_while_it_writes_its_round_leaves_nothing(db):
    t = service(db)
    state = t.create("Club night", "pile", rounds=3, seed=5, options={"stones": "4"},
                     players=[f"p{i:03}" for i in range(100)])
    t.store.close()
    env = {**os.environ, "PYTHONPATH": ROOT}
    done = subprocess.run([sys.executable, "-c", KILLED_PAIRING, db, state.id, ROOT], env=env, cwd=ROOT,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == -signal.SIGKILL, done.stderr
    t = service(db)
    assert tournament_matches(t, state.id) == []
    assert t.load(state.id).current == 0
    assert t.audit(state.id) == []
    paired = t.pair(state.id)
    assert len(paired.tables) == 50
    assert sorted(tournament_matches(t, state.id)) == sorted(x.match_id for x in paired.tables)
    assert all(len(t.store.tokens(x.match_id)) == 4 for x in paired.tables)
    assert t.audit(state.id) == []
