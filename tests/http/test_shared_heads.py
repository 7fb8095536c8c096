"""The threads of one server process share what their services know of each match's head (issue 27,
the HTTP bench): an intent taken by one thread is not folded again by the next thread that takes one for
the same match, and a SQLite append waits for its own process's appends on a lock instead of in sleeps."""

from __future__ import annotations

import threading

from referee.history import History
from referee.httphall import Hall
from referee.service import Referee
from referee.store import open_store
from support.pile import PILE


def in_thread(fn):
    out: list = []
    t = threading.Thread(target=lambda: out.append(fn()))
    t.start()
    t.join()
    return out[0]


def test_a_thread_takes_up_the_head_another_thread_appended(db, monkeypatch):
    hall = Hall(lambda: Referee(open_store(db), games=[PILE]), admin_token=None, keepalive=15, poll=1)
    one = in_thread(hall.access)
    two = in_thread(hall.access)
    assert one is not two and one.referee.store is not two.referee.store
    m = one.referee.new_match("pile", ["alice", "bob"], seed=1)
    first = one.referee.submit(m.id, "alice", "start")
    folded: list[int] = []
    real = History.decode
    monkeypatch.setattr(History, "decode", staticmethod(lambda loaded, seq, body: folded.append(seq) or real(loaded, seq, body)))
    second = two.referee.submit(m.id, "alice", "say note=from-two")
    third = one.referee.submit(m.id, "alice", "say note=from-one")
    assert (first.seq, second.seq, third.seq) == (1, 2, 3) and folded == []
    entries = list(two.referee.store.entries(m.id))
    assert [e.prev_hash for e in entries[1:]] == [e.hash for e in entries[:-1]]
    assert two.referee.audit(m.id).clean


def test_a_store_opened_elsewhere_still_gets_its_own_fold(db):
    """What one process's threads share is not another process's (a service of its own): its head is
    stale there and is folded again from the store, chaining on."""
    hall = Hall(lambda: Referee(open_store(db), games=[PILE]), admin_token=None, keepalive=15, poll=1)
    one = in_thread(hall.access)
    other = Referee(open_store(db), games=[PILE])
    m = one.referee.new_match("pile", ["alice", "bob"], seed=1)
    one.referee.submit(m.id, "alice", "start")
    assert other.submit(m.id, "alice", "say note=elsewhere").seq == 2
    assert one.referee.submit(m.id, "alice", "say note=here").seq == 3
    assert other.audit(m.id).clean


def test_sqlite_appends_of_one_process_take_turns_on_one_lock(tmp_path):
    from referee.store.sqlite import SqliteStore

    path = str(tmp_path / "hall.db")
    a, b = SqliteStore(path), SqliteStore(path)
    assert a._writer is b._writer and SqliteStore(str(tmp_path / "other.db"))._writer is not a._writer
    ra, rb = Referee(a, games=[PILE]), Referee(b, games=[PILE])
    ids = [ra.new_match("pile", ["alice", "bob"], seed=i).id for i in range(4)]

    def play(r: Referee, mid: str) -> None:
        r.submit(mid, "alice", "start")
        for n in range(25):
            r.submit(mid, "alice", f"say note={n}")

    threads = [threading.Thread(target=play, args=(ra if i % 2 else rb, mid)) for i, mid in enumerate(ids)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert [a.head(mid) for mid in ids] == [26] * 4
    assert all(ra.audit(mid).clean for mid in ids)
