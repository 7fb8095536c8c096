"""The match log's contract (:class:`referee.store.MatchLog`): matches, append-only entries with optimistic
concurrency, their snapshots and idempotency keys, on every backend."""

from __future__ import annotations

import threading

import msgspec
import pytest

from referee.store import Conflict, DuplicateRequest, MatchLog, StoredMatch, StoredRequest, StoredSnapshot, StoreError
from support.store_contract import (  # noqa: F401 - fixtures
    a_match,
    an_entry,
    assert_implements,
    opener,
    recorder_methods,
    store,
)


def test_every_backend_implements_the_recorder(store):
    assert_implements(store, MatchLog)


def test_the_recorders_share_out_the_store():
    """Each method of the store is in exactly one recorder; :class:`Store` itself adds only its life
    (reopen, close) and the notifier it declares."""
    from referee.store import AccessTokens, Annotations, MatchSummaries, Store, TournamentLog, TranscriptIndex

    recorders = (MatchLog, MatchSummaries, Annotations, AccessTokens, TournamentLog, TranscriptIndex)
    names = [n for r in recorders for n in recorder_methods(r)]
    assert len(names) == len(set(names)) == 39
    assert recorder_methods(Store) == ["close", "reopen"] and isinstance(vars(Store)["notifier"], property)
    assert set(Store.__mro__) >= set(recorders)


def test_create_and_read_back(store):
    store.create_match(a_match())
    assert store.get_match("m1") == a_match()
    assert store.get_match("nope") is None
    assert store.head("m1") == 0
    assert store.last_entry("m1") is None
    assert [m.id for m in store.list_matches()] == ["m1"]


def test_duplicate_match_is_refused(store):
    store.create_match(a_match())
    with pytest.raises(StoreError):
        store.create_match(a_match())


def test_append_in_order_and_read_ranges(store):
    store.create_match(a_match())
    for seq in range(1, 6):
        store.append(an_entry(seq), expected_seq=seq - 1)
    assert store.head("m1") == 5
    assert [e.seq for e in store.entries("m1")] == [1, 2, 3, 4, 5]
    assert [e.seq for e in store.entries("m1", 2, 4)] == [2, 3, 4]
    assert store.last_entry("m1") == an_entry(5)
    assert list(store.entries("m1", 3, 3))[0].body == b"body3"


def test_index_rows_carry_bodies_of_undo_and_redo_entries_only(store):
    store.create_match(a_match())
    kinds = ["intent", "undo", "intent", "redo", "ruling"]
    for seq, kind in enumerate(kinds, 1):
        store.append(msgspec.structs.replace(an_entry(seq), kind=kind), expected_seq=seq - 1)
    rows = list(store.index("m1", 2, 4))
    assert [(r[0], r[1], r[4]) for r in rows] == [(2, "undo", b"body2"), (3, "intent", None), (4, "redo", b"body4")]
    assert [r[0] for r in store.index("m1")] == [1, 2, 3, 4, 5]
    assert rows[0][2:4] == (an_entry(2).actor, an_entry(2).verdict)


def test_stale_writer_gets_conflict_and_nothing_is_written(store):
    store.create_match(a_match())
    store.append(an_entry(1), expected_seq=0)
    with pytest.raises(Conflict) as info:
        store.append(an_entry(1), expected_seq=0)
    assert info.value.head == 1
    with pytest.raises(Conflict):
        store.append(an_entry(3), expected_seq=1)  # a gap is a conflict too
    assert [e.seq for e in store.entries("m1")] == [1]


def test_create_with_initial_entries_is_atomic(store):
    store.create_match(a_match(), [an_entry(1), an_entry(2)])
    assert store.head("m1") == 2
    with pytest.raises(StoreError):
        store.create_match(a_match("m2"), [an_entry(1, "m2"), an_entry(3, "m2")])
    assert store.get_match("m2") is None


def test_snapshots_at_or_before(store):
    store.create_match(a_match())
    for seq in range(1, 9):
        snap = StoredSnapshot(match_id="m1", seq=seq, state=b"S%d" % seq, state_hash=f"s{seq}") if seq % 4 == 0 else None
        store.append(an_entry(seq), expected_seq=seq - 1, snapshot=snap)
    assert store.snapshot_at_or_before("m1", 3) is None
    assert store.snapshot_at_or_before("m1", 7).seq == 4
    assert store.snapshot_at_or_before("m1", 8).state == b"S8"


def test_snapshots_of_a_match_at_once(store):
    """``snapshots`` reads all of a match's snapshots in seq order, its own only (an audit checks them
    all with one read)."""
    store.create_match(a_match())
    store.create_match(a_match("m2"))
    for seq in range(1, 10):
        snap = StoredSnapshot(match_id="m1", seq=seq, state=b"S%d" % seq, state_hash=f"s{seq}") if seq % 3 == 0 else None
        store.append(an_entry(seq), expected_seq=seq - 1, snapshot=snap)
    store.append(an_entry(1, "m2"), expected_seq=0,
                 snapshot=StoredSnapshot(match_id="m2", seq=1, state=b"T1", state_hash="t1"))
    assert [(s.seq, s.state, s.state_hash) for s in store.snapshots("m1")] == [
        (3, b"S3", "s3"), (6, b"S6", "s6"), (9, b"S9", "s9")]
    assert [s.match_id for s in store.snapshots("m2")] == ["m2"]
    assert store.snapshots("nobody") == []


def test_find_by_prefix(store):
    store.create_match(a_match("abc123"))
    store.create_match(a_match("abd456"))
    assert [m.id for m in store.find_matches("abc")] == ["abc123"]
    assert len(store.find_matches("ab")) == 2
    assert store.find_matches("a_c") == []  # LIKE wildcards are literal


def test_concurrent_writers_never_fork_the_log(store):
    store.create_match(a_match())
    wins = []

    def writer(tag):
        for _ in range(50):
            head = store.head("m1")
            try:
                store.append(an_entry(head + 1), expected_seq=head)
                wins.append(tag)
            except Conflict:
                pass

    threads = [threading.Thread(target=writer, args=(i,)) for i in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    seqs = [e.seq for e in store.entries("m1")]
    assert seqs == list(range(1, len(seqs) + 1))
    assert len(seqs) == len(wins)


def test_writers_on_separate_connections_never_fork_the_log(opener):
    opener().create_match(a_match())
    stores = [opener() for _ in range(3)]
    wins = []

    def writer(s, tag):
        for _ in range(40):
            head = s.head("m1")
            try:
                s.append(an_entry(head + 1), expected_seq=head)
                wins.append(tag)
            except Conflict:
                pass

    threads = [threading.Thread(target=writer, args=(s, i)) for i, s in enumerate(stores)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    seqs = [e.seq for e in stores[0].entries("m1")]
    assert seqs == list(range(1, len(seqs) + 1)) and len(seqs) == len(wins) >= 40


def test_a_fork_starts_after_its_fork_point(store):
    store.create_match(a_match("root"))
    for seq in range(1, 4):
        store.append(an_entry(seq, "root"), expected_seq=seq - 1)
    fork = StoredMatch(id="f", game="g", rules_version="1", config=b"{}", genesis_hash="g0", created_at="t",
                       parent="root", fork_seq=2)
    store.create_match(fork)
    assert store.head("f") == 2
    with pytest.raises(Conflict):
        store.append(an_entry(1, "f"), expected_seq=0)
    store.append(an_entry(3, "f"), expected_seq=2)
    assert [e.seq for e in store.entries("f")] == [3]
    assert store.get_match("f").parent == "root" and store.head("root") == 3


def test_an_idempotency_key_is_recorded_with_its_entry(store):
    store.create_match(a_match())
    req = StoredRequest(match_id="m1", key="k1", fingerprint="f1", seq=0)
    store.append(an_entry(1), expected_seq=0, request=req)
    assert store.find_request("m1", "k1") == StoredRequest(match_id="m1", key="k1", fingerprint="f1", seq=1)
    assert store.find_request("m1", "k2") is None
    with pytest.raises(DuplicateRequest):
        store.append(an_entry(2), expected_seq=1, request=req)
    assert store.head("m1") == 1  # nothing written
    store.append(an_entry(2), expected_seq=1)
    assert store.head("m1") == 2


def test_a_stale_append_records_no_idempotency_key(store):
    store.create_match(a_match())
    store.append(an_entry(1), expected_seq=0)
    with pytest.raises(Conflict):
        store.append(an_entry(1), expected_seq=0, request=StoredRequest(match_id="m1", key="k", fingerprint="f", seq=0))
    assert store.find_request("m1", "k") is None


def test_idempotency_keys_belong_to_one_match(store):
    store.create_match(a_match("a"))
    store.create_match(a_match("b"))
    store.append(an_entry(1, "a"), expected_seq=0, request=StoredRequest(match_id="a", key="k", fingerprint="f", seq=0))
    store.append(an_entry(1, "b"), expected_seq=0, request=StoredRequest(match_id="b", key="k", fingerprint="g", seq=0))
    assert store.find_request("a", "k").fingerprint == "f" and store.find_request("b", "k").fingerprint == "g"


def test_concurrent_retries_of_one_key_append_once(opener):
    opener().create_match(a_match())
    stores = [opener() for _ in range(4)]
    outcomes = []

    def writer(s):
        head = s.head("m1")
        try:
            s.append(an_entry(head + 1), expected_seq=head,
                     request=StoredRequest(match_id="m1", key="same", fingerprint="f", seq=0))
            outcomes.append("appended")
        except DuplicateRequest:
            outcomes.append("duplicate")
        except Conflict:
            outcomes.append("conflict")

    threads = [threading.Thread(target=writer, args=(s,)) for s in stores]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert outcomes.count("appended") == 1
    assert stores[0].head("m1") == 1 and stores[0].find_request("m1", "same").seq == 1
