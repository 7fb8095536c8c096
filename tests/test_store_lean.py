"""The store's lean paths (issue 12): an append that does only what it must, and reads of the columns a
reader needs, with the same answers and the same refusals as before, on every store."""

from __future__ import annotations

import sqlite3
import threading
import time

import msgspec
import pytest

from referee.store import Conflict, DuplicateRequest, StoredRequest, StoreError
from referee.store.memory import MemoryStore
from referee.store.sqlite import SqliteStore
from support.store_contract import a_match, a_note, an_entry


@pytest.fixture(params=["memory", "sqlite"])
def store(request, tmp_path):
    s = MemoryStore() if request.param == "memory" else SqliteStore(str(tmp_path / "t.db"))
    yield s
    s.close()


def _filled(store, kinds=("intent", "undo", "intent", "redo", "undo", "intent")):
    store.create_match(a_match())
    for seq, kind in enumerate(kinds, 1):
        verdict = "rejected" if seq == 5 else "accepted"
        store.append(msgspec.structs.replace(an_entry(seq, verdict=verdict), kind=kind), expected_seq=seq - 1)


def test_lean_reads_give_what_the_full_rows_hold(store):
    _filled(store)
    full = list(store.entries("m1"))
    assert list(store.bodies("m1")) == [(e.seq, e.body) for e in full]
    assert list(store.audit_rows("m1")) == [
        (e.seq, e.kind, e.actor, e.verdict, e.code, e.body, e.prev_hash, e.hash, e.state_hash) for e in full]
    assert [seq for seq, _ in store.bodies("m1", 2, 4)] == [2, 3, 4]
    assert [row[0] for row in store.audit_rows("m1", 5)] == [5, 6]
    assert list(store.bodies("m1", 7)) == [] and list(store.audit_rows("m1", 3, 2)) == []


def test_jumps_are_the_accepted_undos_and_redos(store):
    _filled(store)
    assert list(store.jumps("m1")) == [(2, "undo", b"body2"), (4, "redo", b"body4")]  # 5 was refused
    assert list(store.jumps("m1", 3, 6)) == [(4, "redo", b"body4")]


def test_annotations_on_a_range_of_entries(store):
    _filled(store)
    store.add_annotation(a_note(1, "root", "h1", seq=3))
    store.add_annotation(a_note(2, "h1", "h2", seq=0))
    store.add_annotation(a_note(3, "h2", "h3", seq=5))
    assert [a.n for a in store.annotations_on("m1", 1, 5)] == [1, 3]
    assert [a.n for a in store.annotations_on("m1", 0, 0)] == [2]
    assert store.annotations_on("m1", 6, 9) == []


def test_an_append_to_no_match_is_refused_and_writes_nothing(store):
    store.create_match(a_match())
    for request in (None, StoredRequest(match_id="ghost", key="k", fingerprint="f", seq=0)):
        with pytest.raises(StoreError, match="no match ghost"):
            store.append(an_entry(1, "ghost"), expected_seq=0, request=request)
    assert store.find_request("ghost", "k") is None
    assert store.get_match("ghost") is None


def test_a_used_key_is_named_before_a_stale_seq(store):
    """The checks keep their order: no match, then a key used already, then the head."""
    store.create_match(a_match())
    req = StoredRequest(match_id="m1", key="k", fingerprint="f", seq=0)
    store.append(an_entry(1), expected_seq=0, request=req)
    with pytest.raises(DuplicateRequest):
        store.append(an_entry(1), expected_seq=0, request=req)
    with pytest.raises(Conflict) as info:
        store.append(an_entry(5), expected_seq=1)
    assert info.value.head == 1 and store.head("m1") == 1


def test_an_append_is_four_statements(tmp_path):
    """BEGIN IMMEDIATE, one check (the match, its head), the insert, COMMIT: plain sqlite3's three and
    the check. No busy-timeout switching, no second look at the match, nothing read back."""
    s = SqliteStore(str(tmp_path / "t.db"))
    s.create_match(a_match())
    s.append(an_entry(1), expected_seq=0)
    seen: list[str] = []
    s.conn.set_trace_callback(seen.append)
    s.append(an_entry(2), expected_seq=1)
    s.conn.set_trace_callback(None)
    assert len(seen) == 4, seen
    assert seen[0] == "BEGIN IMMEDIATE" and seen[1].startswith("SELECT") and seen[2].startswith("INSERT INTO entries")
    assert seen[3] == "COMMIT"


def test_a_body_stored_as_text_is_read_as_bytes(tmp_path):
    path = str(tmp_path / "t.db")
    s = SqliteStore(path)
    s.create_match(a_match())
    conn = sqlite3.connect(path)
    conn.execute("INSERT INTO entries (match_id, seq, kind, actor, verdict, code, body, prev_hash, hash, state_hash,"
                 " recorded_at) VALUES ('m1', 1, 'undo', 'a', 'accepted', NULL, 'text body', 'h0', 'h1', 's1', 't')")
    conn.commit()
    conn.close()
    assert list(s.bodies("m1")) == [(1, b"text body")]
    assert next(s.audit_rows("m1"))[5] == b"text body"
    assert next(s.index("m1"))[4] == b"text body"
    assert list(s.jumps("m1")) == [(1, "undo", b"text body")]
    assert next(s.entries("m1")).body == b"text body"


def test_a_writer_waits_for_another_connections_write_lock(tmp_path):
    """Another connection holds the write lock for a while: an append waits for it (in short steps),
    then goes in; a reader is not held up at all."""
    path = str(tmp_path / "t.db")
    s = SqliteStore(path)
    s.create_match(a_match())
    other = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    other.execute("BEGIN IMMEDIATE")
    released = threading.Event()

    def release() -> None:
        time.sleep(0.3)
        other.execute("COMMIT")
        released.set()

    threading.Thread(target=release).start()
    assert s.head("m1") == 0 and not released.is_set()  # reading while the lock is held
    s.append(an_entry(1), expected_seq=0)
    assert released.is_set() and s.head("m1") == 1
    other.close()
