"""A submit reads what it needs from the head (issue 27, item 4): what waits for a confirmation from the
head entry alone when it answers, and, after an append in the same process, the head just written (its
hash, what waits after it) without reading it back. Another writer's appends make the kept head unused,
and a writer whose head went stale between reading and appending gets a conflict: never a forked chain."""

from __future__ import annotations

import pytest

from referee.errors import ConflictError
from referee.history import History
from referee.service import Referee
from referee.store import open_store
from referee.store.memory import MemoryStore
from support.pile import PILE


def service(path=None):
    return Referee(open_store(path) if path else MemoryStore(), games=[PILE])


class Reads:
    """Counts the entry bodies a History decodes and the whole entries the store reads."""

    def __init__(self, monkeypatch, store):
        self.decodes = self.entries = 0
        real_decode, real_entries = History.decode, store.entries

        def decode(loaded, seq, body):
            self.decodes += 1
            return real_decode(loaded, seq, body)

        def entries(*args, **kw):
            self.entries += 1
            return real_entries(*args, **kw)

        monkeypatch.setattr(History, "decode", staticmethod(decode))
        monkeypatch.setattr(store, "entries", entries)


def test_a_submit_after_a_submit_reads_no_entry_back(monkeypatch):
    r = service()
    m = r.new_match("pile", ["alice", "bob"], seed=1)
    first = r.submit(m.id, "alice", "start")
    reads = Reads(monkeypatch, r.store)
    second = r.submit(m.id, "alice", "say note=hi")
    assert second.accepted and second.seq == first.seq + 1
    assert (reads.decodes, reads.entries) == (0, 0)
    assert r.store.last_entry(m.id).prev_hash == r.store.entries(m.id, 1, 1).__next__().hash
    assert r.audit(m.id).clean


def test_a_fresh_service_asks_the_head_alone_when_it_acted(monkeypatch):
    """In a new process (nothing kept) the head's index columns answer: an accepted move waits for
    nothing, so no body is decoded; a rejected head sends the reading back to the entries before it."""
    r = service()
    m = r.new_match("pile", ["alice", "bob"], seed=1)
    r.submit(m.id, "alice", "start")
    r.submit(m.id, "alice", "say note=hi")
    fresh = Referee(r.store, games=[PILE])
    loaded = fresh.load(m.id)
    reads = Reads(monkeypatch, r.store)
    assert fresh.open_hold(loaded) is None and reads.decodes == 0
    assert not r.submit(m.id, "bob", "take 99").accepted
    fresh = Referee(r.store, games=[PILE])
    assert fresh.open_hold(fresh.load(m.id)) is None and reads.decodes == 2  # entries 2 and 1 (the rejection is read from its index columns)


def test_another_writers_append_makes_the_kept_head_unused(db):
    a, b = service(db), service(db)
    m = a.new_match("pile", ["alice", "bob"], seed=1)
    a.submit(m.id, "alice", "start")
    b.submit(m.id, "alice", "say note=from-b")  # a's kept head (entry 1) is stale now
    third = a.submit(m.id, "alice", "say note=from-a")
    assert third.seq == 3
    entries = list(a.store.entries(m.id))
    assert entries[2].prev_hash == entries[1].hash
    assert a.audit(m.id).clean and b.audit(m.id).clean


def test_a_head_gone_stale_before_the_append_is_a_conflict_then_a_retry_chains_on(db, monkeypatch):
    """Between a's reading the head and its append, b appends: the store refuses a's append (it names a
    head that is no longer the head), nothing is written, and a's next try chains to b's entry."""
    a, b = service(db), service(db)
    m = a.new_match("pile", ["alice", "bob"], seed=1)
    a.submit(m.id, "alice", "start")
    real_append = a.store.append
    raced = []

    def append(entry, *args, **kw):
        if not raced:
            raced.append(b.submit(m.id, "alice", "say note=from-b").seq)
        return real_append(entry, *args, **kw)

    monkeypatch.setattr(a.store, "append", append)
    with pytest.raises(ConflictError) as info:
        a.submit(m.id, "alice", "say note=from-a")
    assert info.value.code == "match/stale_seq" and raced == [2]
    assert a.store.head(m.id) == 2
    again = a.submit(m.id, "alice", "say note=from-a")  # what the HTTP layer's retry does
    assert again.seq == 3
    entries = list(a.store.entries(m.id))
    assert [e.seq for e in entries] == [1, 2, 3] and entries[2].prev_hash == entries[1].hash
    assert b.audit(m.id).clean


def test_on_sqlite_a_submit_after_a_submit_reads_the_head_once_and_no_entry(tmp_path):
    """Before its write transaction, the second submit reads the store's head once (whether another
    writer appended) and no entry: not the head's hash, not what waits after it, not the reseeds."""
    from referee.store.sqlite import SqliteStore

    store = SqliteStore(str(tmp_path / "s.db"))
    r = Referee(store, games=[PILE])
    m = r.new_match("pile", ["alice", "bob"], seed=1)
    r.submit(m.id, "alice", "start")
    seen: list[str] = []
    store.conn.set_trace_callback(seen.append)
    try:
        assert r.submit(m.id, "alice", "say note=hi").accepted
    finally:
        store.conn.set_trace_callback(None)
    before = seen[:seen.index("BEGIN IMMEDIATE")]
    reads = [s for s in before if "FROM entries" in s]
    assert len(reads) == 1 and "MAX(seq)" in reads[0], before
