"""One contract suite, run against every store (in-memory, SQLite and PostgreSQL)."""

from __future__ import annotations

import sqlite3
import threading

import msgspec
import pytest

from referee.store import (
    Conflict,
    DuplicateRequest,
    StoredAnnotation,
    StoredEntry,
    StoredMatch,
    StoredRequest,
    StoredSnapshot,
    StoredToken,
    StoreError,
)
from referee.store.memory import MemoryStore
from referee.store.sqlite import SqliteStore


@pytest.fixture(params=["memory", "sqlite", "postgres"])
def store(request, tmp_path):
    if request.param == "memory":
        s = MemoryStore()
    elif request.param == "sqlite":
        s = SqliteStore(str(tmp_path / "t.db"))
    else:
        from referee.store.postgres import PostgresStore

        s = PostgresStore(request.getfixturevalue("pg_url"))
    yield s
    s.close()


@pytest.fixture(params=["sqlite", "postgres"])
def opener(request, tmp_path):
    """Opens one database again and again (separate connections, as separate processes would)."""
    if request.param == "sqlite":
        path = str(tmp_path / "t.db")
        return lambda: SqliteStore(path)
    from referee.store.postgres import PostgresStore

    url = request.getfixturevalue("pg_url")
    return lambda: PostgresStore(url)


def _match(mid="m1"):
    return StoredMatch(id=mid, game="g", rules_version="1", config=b"{}", genesis_hash="g0", created_at="t")


def _entry(seq, mid="m1", verdict="accepted"):
    return StoredEntry(match_id=mid, seq=seq, kind="intent", actor="a", verdict=verdict,
                       code=None if verdict == "accepted" else "x/y", body=f"body{seq}".encode(),
                       prev_hash=f"h{seq - 1}", hash=f"h{seq}", state_hash=f"s{seq}", recorded_at="t")


def test_create_and_read_back(store):
    store.create_match(_match())
    assert store.get_match("m1") == _match()
    assert store.get_match("nope") is None
    assert store.head("m1") == 0
    assert store.last_entry("m1") is None
    assert [m.id for m in store.list_matches()] == ["m1"]


def test_duplicate_match_is_refused(store):
    store.create_match(_match())
    with pytest.raises(StoreError):
        store.create_match(_match())


def test_append_in_order_and_read_ranges(store):
    store.create_match(_match())
    for seq in range(1, 6):
        store.append(_entry(seq), expected_seq=seq - 1)
    assert store.head("m1") == 5
    assert [e.seq for e in store.entries("m1")] == [1, 2, 3, 4, 5]
    assert [e.seq for e in store.entries("m1", 2, 4)] == [2, 3, 4]
    assert store.last_entry("m1") == _entry(5)
    assert list(store.entries("m1", 3, 3))[0].body == b"body3"


def test_index_rows_carry_bodies_of_undo_and_redo_entries_only(store):
    store.create_match(_match())
    kinds = ["intent", "undo", "intent", "redo", "ruling"]
    for seq, kind in enumerate(kinds, 1):
        store.append(msgspec.structs.replace(_entry(seq), kind=kind), expected_seq=seq - 1)
    rows = list(store.index("m1", 2, 4))
    assert [(r[0], r[1], r[4]) for r in rows] == [(2, "undo", b"body2"), (3, "intent", None), (4, "redo", b"body4")]
    assert [r[0] for r in store.index("m1")] == [1, 2, 3, 4, 5]
    assert rows[0][2:4] == (_entry(2).actor, _entry(2).verdict)


def test_stale_writer_gets_conflict_and_nothing_is_written(store):
    store.create_match(_match())
    store.append(_entry(1), expected_seq=0)
    with pytest.raises(Conflict) as info:
        store.append(_entry(1), expected_seq=0)
    assert info.value.head == 1
    with pytest.raises(Conflict):
        store.append(_entry(3), expected_seq=1)  # a gap is a conflict too
    assert [e.seq for e in store.entries("m1")] == [1]


def test_create_with_initial_entries_is_atomic(store):
    store.create_match(_match(), [_entry(1), _entry(2)])
    assert store.head("m1") == 2
    with pytest.raises(StoreError):
        store.create_match(_match("m2"), [_entry(1, "m2"), _entry(3, "m2")])
    assert store.get_match("m2") is None


def test_a_transcript_digest_finds_the_matches_imported_from_it(store):
    assert store.find_transcript("d1") == []
    store.create_match(_match("m1"), [_entry(1)], transcript="d1")
    store.create_match(_match("m2"), transcript="d2")
    store.create_match(_match("m3"), transcript="d1")
    assert store.find_transcript("d1") == ["m1", "m3"] and store.find_transcript("d2") == ["m2"]
    with pytest.raises(StoreError):  # all or nothing: a match refused leaves no digest behind
        store.create_match(_match("m4"), [_entry(2, "m4")], transcript="d3")
    assert store.find_transcript("d3") == [] and store.get_match("m4") is None


def test_snapshots_at_or_before(store):
    store.create_match(_match())
    for seq in range(1, 9):
        snap = StoredSnapshot(match_id="m1", seq=seq, state=b"S%d" % seq, state_hash=f"s{seq}") if seq % 4 == 0 else None
        store.append(_entry(seq), expected_seq=seq - 1, snapshot=snap)
    assert store.snapshot_at_or_before("m1", 3) is None
    assert store.snapshot_at_or_before("m1", 7).seq == 4
    assert store.snapshot_at_or_before("m1", 8).state == b"S8"


def _note(n: int, prev: str, digest: str, seq: int = 1, text: str = "hm") -> StoredAnnotation:
    return StoredAnnotation(match_id="m1", seq=seq, kind="comment", text=text, by="arb", recorded_at="t", n=n,
                            prev_hash=prev, hash=digest, audience="all")


def test_annotations(store):
    store.create_match(_match())
    store.append(_entry(1), expected_seq=0)
    store.add_annotation(_note(1, "root", "h1"))
    store.add_annotation(_note(2, "h1", "h2", seq=0, text="on the match"))
    assert [(a.n, a.seq, a.text, a.by, a.prev_hash, a.hash, a.audience) for a in store.annotations("m1")] == [
        (1, 1, "hm", "arb", "root", "h1", "all"), (2, 0, "on the match", "arb", "h1", "h2", "all")]


@pytest.mark.parametrize(("n", "prev"), [(2, "h1"), (4, "h2"), (3, "other")])
def test_an_annotation_out_of_its_chain_is_a_conflict(store, n, prev):
    """Annotations are chained like entries: the n-th of a match must follow the (n-1)-th by hash."""
    store.create_match(_match())
    store.add_annotation(_note(1, "root", "h1"))
    store.add_annotation(_note(2, "h1", "h2"))
    with pytest.raises(Conflict):
        store.add_annotation(_note(n, prev, "h3"))
    assert [a.n for a in store.annotations("m1")] == [1, 2]


def test_find_by_prefix(store):
    store.create_match(_match("abc123"))
    store.create_match(_match("abd456"))
    assert [m.id for m in store.find_matches("abc")] == ["abc123"]
    assert len(store.find_matches("ab")) == 2
    assert store.find_matches("a_c") == []  # LIKE wildcards are literal


def test_concurrent_writers_never_fork_the_log(store):
    store.create_match(_match())
    wins = []

    def writer(tag):
        for _ in range(50):
            head = store.head("m1")
            try:
                store.append(_entry(head + 1), expected_seq=head)
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


def test_sqlite_refuses_updates_and_deletes_of_entries(tmp_path):
    path = str(tmp_path / "t.db")
    s = SqliteStore(path)
    s.create_match(_match())
    s.append(_entry(1), expected_seq=0)
    s.close()
    conn = sqlite3.connect(path)
    with pytest.raises(sqlite3.DatabaseError, match="append-only"):
        conn.execute("UPDATE entries SET verdict = 'rejected'")
    with pytest.raises(sqlite3.DatabaseError, match="append-only"):
        conn.execute("DELETE FROM entries")
    conn.close()


def test_sqlite_rejects_a_file_that_is_not_a_database(tmp_path):
    path = tmp_path / "junk.db"
    path.write_bytes(b"this is not sqlite" * 100)
    with pytest.raises(StoreError, match="not a usable referee database"):
        SqliteStore(str(path))
    assert path.read_bytes() == b"this is not sqlite" * 100


def test_sqlite_read_only_open_does_not_create_a_file(tmp_path):
    with pytest.raises(StoreError, match="no database"):
        SqliteStore(str(tmp_path / "absent.db"), create=False)
    assert not (tmp_path / "absent.db").exists()


def test_writers_on_separate_connections_never_fork_the_log(opener):
    opener().create_match(_match())
    stores = [opener() for _ in range(3)]
    wins = []

    def writer(s, tag):
        for _ in range(40):
            head = s.head("m1")
            try:
                s.append(_entry(head + 1), expected_seq=head)
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
    store.create_match(_match("root"))
    for seq in range(1, 4):
        store.append(_entry(seq, "root"), expected_seq=seq - 1)
    fork = StoredMatch(id="f", game="g", rules_version="1", config=b"{}", genesis_hash="g0", created_at="t",
                       parent="root", fork_seq=2)
    store.create_match(fork)
    assert store.head("f") == 2
    with pytest.raises(Conflict):
        store.append(_entry(1, "f"), expected_seq=0)
    store.append(_entry(3, "f"), expected_seq=2)
    assert [e.seq for e in store.entries("f")] == [3]
    assert store.get_match("f").parent == "root" and store.head("root") == 3


# -- tokens and idempotency keys (migration 2: the HTTP service) -------------------------------------


def _token(h, mid="m1", role="seat", seat="alice"):
    return StoredToken(token_hash=h, match_id=mid, role=role, seat=seat)


def test_tokens_are_found_by_hash(store):
    store.create_match(_match())
    store.add_tokens([_token("h1"), _token("h2", role="arbiter", seat=None), _token("h3", role="spectator", seat=None)])
    assert store.find_token("h1") == _token("h1")
    assert store.find_token("h2").role == "arbiter" and store.find_token("h2").seat is None
    assert store.find_token("nope") is None


def test_tokens_are_all_or_nothing_and_unique(store):
    store.create_match(_match())
    store.add_tokens([_token("h1")])
    with pytest.raises(StoreError):
        store.add_tokens([_token("h2"), _token("h1")])
    assert store.find_token("h2") is None
    with pytest.raises(StoreError):
        store.add_tokens([_token("h9", mid="absent")])
    assert store.find_token("h9") is None


def test_an_idempotency_key_is_recorded_with_its_entry(store):
    store.create_match(_match())
    req = StoredRequest(match_id="m1", key="k1", fingerprint="f1", seq=0)
    store.append(_entry(1), expected_seq=0, request=req)
    assert store.find_request("m1", "k1") == StoredRequest(match_id="m1", key="k1", fingerprint="f1", seq=1)
    assert store.find_request("m1", "k2") is None
    with pytest.raises(DuplicateRequest):
        store.append(_entry(2), expected_seq=1, request=req)
    assert store.head("m1") == 1  # nothing written
    store.append(_entry(2), expected_seq=1)
    assert store.head("m1") == 2


def test_a_stale_append_records_no_idempotency_key(store):
    store.create_match(_match())
    store.append(_entry(1), expected_seq=0)
    with pytest.raises(Conflict):
        store.append(_entry(1), expected_seq=0, request=StoredRequest(match_id="m1", key="k", fingerprint="f", seq=0))
    assert store.find_request("m1", "k") is None


def test_idempotency_keys_belong_to_one_match(store):
    store.create_match(_match("a"))
    store.create_match(_match("b"))
    store.append(_entry(1, "a"), expected_seq=0, request=StoredRequest(match_id="a", key="k", fingerprint="f", seq=0))
    store.append(_entry(1, "b"), expected_seq=0, request=StoredRequest(match_id="b", key="k", fingerprint="g", seq=0))
    assert store.find_request("a", "k").fingerprint == "f" and store.find_request("b", "k").fingerprint == "g"


def test_concurrent_retries_of_one_key_append_once(opener):
    opener().create_match(_match())
    stores = [opener() for _ in range(4)]
    outcomes = []

    def writer(s):
        head = s.head("m1")
        try:
            s.append(_entry(head + 1), expected_seq=head,
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


def test_sqlite_migrates_a_schema_1_database(tmp_path):
    """A database written before the HTTP service (schema 1) gains the tokens and requests tables."""
    import sqlite_utils

    from referee.store import sqlite as sq

    path = str(tmp_path / "old.db")
    conn = sqlite3.connect(path, isolation_level=None)
    db = sqlite_utils.Database(conn)
    sq.MIGRATIONS[0](db)
    conn.execute("PRAGMA user_version=1")
    conn.execute("INSERT INTO matches (id, game, rules_version, config, genesis_hash, created_at) VALUES ('m1','g','1',x'7b7d','g0','t')")
    conn.close()
    s = SqliteStore(path)
    assert s.get_match("m1") is not None
    s.add_tokens([_token("h1")])
    assert s.find_token("h1") == _token("h1")
    assert s.conn.execute("PRAGMA user_version").fetchone()[0] == len(sq.MIGRATIONS)


# -- tournaments (issue 14) ------------------------------------------------------------------------


def _tevent(n, tid="t1"):
    from referee.store import StoredTournamentEvent

    return StoredTournamentEvent(tournament_id=tid, n=n, kind="k", by="org", body=f"b{n}".encode(),
                                 prev_hash=f"h{n - 1}", hash=f"h{n}", recorded_at="t")


def test_tournament_events_append_in_order_with_a_conflict_for_a_stale_writer(store):
    from referee.store import StoredTournament

    t = StoredTournament(id="t1", name="Cup", created_at="t")
    store.create_tournament(t, [_tevent(1)])
    with pytest.raises(StoreError):
        store.create_tournament(t, [_tevent(1)])
    assert store.get_tournament("t1") == t and store.get_tournament("t2") is None
    assert store.find_tournaments("t") == [t] and store.list_tournaments() == [t]
    store.append_tournament_events("t1", [_tevent(2), _tevent(3)], expected_n=1)
    with pytest.raises(Conflict):
        store.append_tournament_events("t1", [_tevent(3)], expected_n=2)
    with pytest.raises(StoreError):
        store.append_tournament_events("nope", [_tevent(1, "nope")], expected_n=0)
    assert [e.n for e in store.tournament_events("t1")] == [1, 2, 3]
    assert store.tournament_events("t1", 2) == [_tevent(1), _tevent(2)]
    assert store.tournament_events("t1")[2].body == b"b3"


def test_a_rounds_matches_and_tokens_go_in_with_its_record_or_not_at_all(store):
    from referee.store import StoredToken, StoredTournament

    store.create_tournament(StoredTournament(id="t1", name="Cup", created_at="t"), [_tevent(1)])
    store.create_match(_match("m0"))
    tok = [StoredToken(token_hash=f"h{i}", match_id=f"m{i}", role="arbiter") for i in (1, 2)]
    # a token hash already taken (or a stale record) refuses the lot: no match, token or record is written
    with pytest.raises(StoreError):
        store.append_tournament_events("t1", [_tevent(2)], expected_n=1, matches=[_match("m1"), _match("m2")],
                                       tokens=[*tok, StoredToken(token_hash="h1", match_id="m2", role="spectator")])
    with pytest.raises(Conflict):
        store.append_tournament_events("t1", [_tevent(3)], expected_n=2, matches=[_match("m1")], tokens=tok[:1])
    with pytest.raises(StoreError):  # a match that exists already
        store.append_tournament_events("t1", [_tevent(2)], expected_n=1, matches=[_match("m0"), _match("m1")])
    assert store.get_match("m1") is None and store.get_match("m2") is None and store.find_token("h1") is None
    assert [e.n for e in store.tournament_events("t1")] == [1]
    store.append_tournament_events("t1", [_tevent(2)], expected_n=1, matches=[_match("m1"), _match("m2")], tokens=tok)
    assert store.get_match("m2") == _match("m2") and store.tokens("m1") == tok[:1] and store.head("m1") == 0
    assert [e.n for e in store.tournament_events("t1")] == [1, 2]


def test_tournament_tokens(store):
    from referee.store import StoredTournament, StoredTournamentToken

    store.create_tournament(StoredTournament(id="t1", name="Cup", created_at="t"), [_tevent(1)])
    org = StoredTournamentToken(token_hash="h1", tournament_id="t1", role="organiser")
    ann = StoredTournamentToken(token_hash="h2", tournament_id="t1", role="player", player="ann")
    store.add_tournament_tokens([org, ann])
    assert store.find_tournament_token("h2") == ann and store.find_tournament_token("nope") is None
    with pytest.raises(StoreError):
        store.add_tournament_tokens([org])
    with pytest.raises(StoreError):
        store.add_tournament_tokens([StoredTournamentToken(token_hash="h3", tournament_id="nope", role="spectator")])
    assert store.find_tournament_token("h3") is None
    store.create_tournament(StoredTournament(id="t2", name="Other", created_at="t"), [])
    store.add_tournament_tokens([StoredTournamentToken(token_hash="h0", tournament_id="t2", role="organiser")])
    assert store.tournament_tokens("t1") == [org, ann] and store.tournament_tokens("nope") == []  # (by hash)


def test_transcript_digests_are_listed_and_added_for_a_copy(store):
    store.create_match(_match("m1"), transcript="d2")
    store.create_match(_match("m2"))
    store.create_match(_match("m3"), transcript="d1")
    assert store.transcripts() == [("d1", "m3"), ("d2", "m1")]
    store.add_transcript("d2", "m2")
    assert store.find_transcript("d2") == ["m1", "m2"]
    assert store.transcripts() == [("d1", "m3"), ("d2", "m1"), ("d2", "m2")]
    with pytest.raises(StoreError):
        store.add_transcript("d2", "m2")  # recorded already
    with pytest.raises(StoreError):
        store.add_transcript("d3", "nope")  # no such match
    assert store.find_transcript("d3") == [] and len(store.transcripts()) == 3
