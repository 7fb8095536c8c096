"""An audit by several processes says exactly what a single pass says (referee/audit.py)."""

from __future__ import annotations

import pytest

from referee import audit
from referee.service import Referee
from referee.store.memory import MemoryStore
from referee.store.sqlite import SqliteStore
from support.pile import PILE
from support.tamper import tamper

pytestmark = pytest.mark.skipif(not audit.can_fork(), reason="stretches run in forked processes (Linux)")


def service(path, **kw):
    return Referee(SqliteStore(str(path)), games=[PILE], **kw)


def build(r: Referee, entries: int) -> str:
    """A pile match of ``entries`` entries with undo, redo, rejections and restarted games."""
    m = r.new_match("pile", ["alice", "bob"], options={"stones": "30"}, seed=5)
    r.submit(m.id, "alice", "start")
    i = 0
    while r.store.head(m.id) < entries:
        i += 1
        st = r.show(m.id)
        if st.outcome is not None:
            r.undo(m.id, by="arbiter", to=r.store.head(m.id) - 5, reason="again")
        elif i % 11 == 0:
            r.undo(m.id, by="arbiter", to=r.store.head(m.id) - 3 - i % 4, reason="what if")
        elif i % 23 == 0:
            r.redo(m.id, by="arbiter")
        elif i % 13 == 0:
            r.submit(m.id, "alice" if st.state["active"] == "bob" else "bob", "take 1")  # out of turn
        else:
            r.submit(m.id, st.state["active"], f"take {1 + i % 3}")
    return m.id


@pytest.fixture(scope="module")
def built_long_match(tmp_path_factory):
    """The 150-entry match :func:`long_match` hands out, built once a module (~0.4 s of CPU each time, and
    two dozen tests take it): ``(database file, match id)``, never opened for writing after the build."""
    path = tmp_path_factory.mktemp("long") / "a.db"
    r = service(path, snapshot_every=7)
    mid = build(r, 150)
    r.store.close()
    return path, mid


@pytest.fixture
def long_match(built_long_match, tmp_path, monkeypatch):
    """A copy of the built match's database (SQLite's backup: every page, snapshots included), each test
    its own to tamper with."""
    import sqlite3

    monkeypatch.setattr(audit, "MIN_STRETCH", 20)
    monkeypatch.setattr(audit, "MIN_CHUNK", 5)
    built, mid = built_long_match
    path = tmp_path / "a.db"
    source, target = sqlite3.connect(built), sqlite3.connect(path)
    try:
        source.backup(target)
    finally:
        source.close()
        target.close()
    return service(path, snapshot_every=7), mid, path


def test_the_log_really_is_cut_into_stretches_at_snapshots(long_match):
    r, mid, _ = long_match
    loaded = r.load(mid)
    head = r.store.head(mid)
    snaps = r.snapshots_of(loaded.match)
    bounds = audit.plan(r, loaded, snaps, head, 4)
    assert len(bounds) > 5 and bounds[0] == 0 and bounds[-1] == head
    assert set(bounds[1:-1]) <= {s.seq for s in snaps}, bounds  # each inner boundary is a snapshot
    assert bounds == sorted(set(bounds))
    kinds = {e.kind for e in r.log(mid)}
    assert {"undo", "redo", "intent"} <= kinds


@pytest.mark.parametrize("jobs", [2, 3, 4])
def test_a_clean_log_gives_the_same_report_in_stretches(long_match, jobs):
    r, mid, path = long_match
    single = service(path).audit(mid)
    assert single.clean and single.entries == r.store.head(mid)
    seen: list[tuple[int, int]] = []
    parallel = service(path).audit(mid, progress=lambda done, total: seen.append((done, total)), jobs=jobs)
    assert parallel == single
    assert seen[-1] == (single.head, single.head)
    assert [d for d, _ in seen] == sorted(d for d, _ in seen)


@pytest.mark.parametrize(
    "sql",
    [
        # a body edited early, in the middle, late
        "UPDATE entries SET body = CAST(replace(CAST(body AS TEXT), '\"seq\":', '\"seq\": ') AS BLOB) WHERE seq = 9",
        "UPDATE entries SET body = CAST(replace(CAST(body AS TEXT), '\"seq\":', '\"seq\": ') AS BLOB) WHERE seq = 80",
        "UPDATE entries SET body = CAST(replace(CAST(body AS TEXT), '\"seq\":', '\"seq\": ') AS BLOB) WHERE seq = 140",
        # an entry deleted, entries reordered, a verdict changed, in a later stretch
        "DELETE FROM entries WHERE seq = 101",
        "UPDATE entries SET seq = -1 WHERE seq = 120; UPDATE entries SET seq = 120 WHERE seq = 121;"
        "UPDATE entries SET seq = 121 WHERE seq = -1",
        "UPDATE entries SET verdict = 'rejected', code = 'pile/not_enough' WHERE seq = 111",
        # the entry a stretch would start from, and the snapshot it would start from
        "DELETE FROM entries WHERE seq = 77",
        "UPDATE snapshots SET state = CAST('{}' AS BLOB) WHERE seq = 77",
        "UPDATE entries SET state_hash = 'x' WHERE seq = 77",
        # the last but one entry gone, and two findings at once (the earlier one is the report)
        "DELETE FROM entries WHERE seq = (SELECT max(seq) - 1 FROM entries)",
        "DELETE FROM entries WHERE seq = 130; DELETE FROM entries WHERE seq = 30",
    ],
)
def test_tampering_gives_the_same_first_finding_in_stretches(long_match, sql):
    r, mid, path = long_match
    tamper(path, sql)
    single = service(path).audit(mid)
    assert not single.clean
    for jobs in (2, 4):
        assert service(path).audit(mid, jobs=jobs) == single, jobs


def test_a_store_in_memory_is_audited_in_one_pass(monkeypatch):
    monkeypatch.setattr(audit, "MIN_STRETCH", 20)
    monkeypatch.setattr(audit, "MIN_CHUNK", 5)
    r = Referee(MemoryStore(), games=[PILE], snapshot_every=7)
    mid = build(r, 80)
    loaded = r.load(mid)
    assert audit.plan(r, loaded, r.snapshots_of(loaded.match), r.store.head(mid), 4) == [0, r.store.head(mid)]
    assert r.audit(mid, jobs=4).clean


def test_short_logs_are_not_cut(tmp_path):
    r = service(tmp_path / "s.db", snapshot_every=7)
    mid = build(r, 60)
    loaded = r.load(mid)
    head = r.store.head(mid)
    assert audit.plan(r, loaded, r.snapshots_of(loaded.match), head, 8) == [0, head]


def test_a_fork_is_audited_in_stretches_through_its_parent(long_match):
    r, mid, path = long_match
    fork = r.fork(mid, at=90, name="branch")
    for _ in range(40):
        st = r.show(fork.id)
        if st.outcome is not None:
            r.undo(fork.id, by="arbiter", to=r.store.head(fork.id) - 4)
        else:
            r.submit(fork.id, st.state["active"], "take 1")
    single = service(path).audit(fork.id)
    assert single.clean and single.entries == r.store.head(fork.id)
    loaded = r.load(fork.id)
    bounds = audit.plan(r, loaded, r.snapshots_of(loaded.match), r.store.head(fork.id), 4)
    assert len(bounds) > 2
    assert service(path).audit(fork.id, jobs=4) == single
    tamper(path, f"UPDATE entries SET verdict = 'rejected' WHERE match_id = '{fork.id}' AND seq = 120")
    assert service(path).audit(fork.id, jobs=4) == service(path).audit(fork.id)


def test_the_snapshots_along_a_fork_are_the_ones_a_step_back_finds(long_match):
    """snapshots_of reads each match of the line once and gives what stepping back from the head with
    snapshot() (one read per snapshot) gives: the fork's own after its fork point, then its parent's."""
    r, mid, _path = long_match
    fork = r.fork(mid, at=90, name="branch")
    for _ in range(70):
        st = r.show(fork.id)
        if st.outcome is not None:
            r.undo(fork.id, by="arbiter", to=r.store.head(fork.id) - 4)
        else:
            r.submit(fork.id, st.state["active"], "take 1")
    m = r.load(fork.id).match
    stepped, seq = [], r.store.head(fork.id)
    while (snap := r.snapshot(m, seq)) is not None:
        stepped.append(snap)
        seq = snap.seq - 1
    got = r.snapshots_of(m)
    assert got == stepped
    assert {s.match_id for s in got} == {mid, fork.id} and all(s.seq <= 90 for s in got if s.match_id == mid)


@pytest.mark.parametrize("broken", ["seq % 2 = 0", "1 = 1"])
def test_far_undo_targets_fold_only_from_snapshots_that_check_out(long_match, monkeypatch, broken):
    """With a tiny window every undo refolds from a snapshot; broken snapshots are passed over (and
    reported), never trusted and never a crash."""
    r, mid, path = long_match
    monkeypatch.setattr(audit, "WINDOW", 2)
    assert service(path).audit(mid).clean
    tamper(path, f"UPDATE snapshots SET state = CAST('{{}}' AS BLOB) WHERE {broken}")
    report = service(path).audit(mid)
    assert [f.what for f in report.findings] == ["snapshot"]
    assert report.entries == r.store.head(mid)  # every entry was still re-adjudicated
    assert service(path).audit(mid, jobs=3) == report


def test_a_clean_audit_names_the_head_that_fixes_the_log(long_match):
    """Deleting the last entries leaves a consistent, shorter log: only the head kept elsewhere
    shows it."""
    r, mid, path = long_match
    before = service(path).audit(mid)
    last = r.entry_at(r.load(mid).match, before.head)
    assert before.entries_hash == last.hash and before.head_hash != last.hash  # the head seals more
    tamper(path, f"DELETE FROM entries WHERE seq = {before.head}")
    # the match's summary still names the deleted head: the audit says so
    assert [f.what for f in service(path).audit(mid).findings] == ["summary"]
    # a forger who also drops the summary (a projection, not evidence) leaves a clean, shorter log
    tamper(path, f"DELETE FROM match_summaries WHERE match_id = '{mid}'")
    after = service(path).audit(mid)
    assert after.clean and after.head == before.head - 1
    assert after.head_hash != before.head_hash


def test_many_matches_are_audited_side_by_side_with_the_reports_of_one_pass(tmp_path, monkeypatch):
    monkeypatch.setattr(audit, "MIN_STRETCH", 40)
    monkeypatch.setattr(audit, "MIN_CHUNK", 5)
    path = tmp_path / "m.db"
    r = service(path, snapshot_every=7)
    ids = [build(r, n) for n in (30, 50, 100, 25, 60, 35)]  # 100 is long enough for stretches
    tamper(path, f"UPDATE entries SET verdict = 'rejected' WHERE match_id = '{ids[4]}' AND seq = 20")
    one_by_one = [service(path).audit(mid) for mid in ids]
    assert [rep.clean for rep in one_by_one] == [True, True, True, True, False, True]
    seen: list[tuple[int, int]] = []
    together = service(path).audit_many(ids, lambda d, t: seen.append((d, t)), jobs=3)
    assert together == one_by_one
    total = sum(rep.head for rep in one_by_one)
    assert seen[-1] == (total, total) and [d for d, _ in seen] == sorted(d for d, _ in seen)


def test_a_process_that_takes_no_part_leaves_its_chunks_to_the_others(long_match, monkeypatch):
    """Chunks are taken as processes get to them: when one process fails outright, the others and the
    parent check what it left, and the report does not change."""
    r, mid, path = long_match
    single = service(path).audit(mid)
    real_work = audit._work

    def failing(history, loaded, bounds, want, board, me, first, tick):
        if me != 0:
            raise RuntimeError("this process dies")
        return real_work(history, loaded, bounds, want, board, me, first, tick)

    monkeypatch.setattr(audit, "_work", failing)
    assert service(path).audit(mid, jobs=3) == single
    tamper(path, "UPDATE entries SET verdict = 'rejected', code = 'pile/not_enough' WHERE seq = 111")
    assert service(path).audit(mid, jobs=3) == service(path).audit(mid, jobs=1)


def test_the_board_hands_out_the_middle_of_the_longest_free_run():
    import multiprocessing

    board = audit._Board(multiprocessing.get_context("fork"), 10, 2)
    for k in (0, 5):
        board.taken[k] = 1
    assert board.take(1) and not board.take(1) and not board.take(5)
    # free: 2-4 (after a taken chunk: its owner goes on there) and 6-9 (longest): start in its middle
    assert board.take_far() == 8
    assert board.take(6)
    board.found(6)  # something found in chunk 6: nothing after it is handed out
    assert not board.take(7) and not board.take(9)
    assert board.take_far() == 3
    assert board.take_far() == 2 and board.take_far() == 4 and board.take_far() is None


@pytest.mark.parametrize("kind", ["undo", "redo"])
def test_an_undo_or_redo_back_to_a_state_hashed_before_is_still_checked(long_match, kind):
    """A jump back to a state the walk derived reuses that state's hash instead of hashing it again:
    the hash recorded for the jump is checked against it all the same, and so is its snapshot."""
    r, mid, path = long_match
    seq = next(e.seq for e in r.store.entries(mid) if e.kind == kind and e.verdict == "accepted")
    tamper(path, f"UPDATE entries SET state_hash = '{'0' * 64}' WHERE match_id = '{mid}' AND seq = {seq}")
    report = service(path).audit(mid)
    assert [(f.what, f.seq) for f in report.findings] == [("state_hash", seq)]
    assert service(path).audit(mid, jobs=3) == report


def test_the_snapshot_an_undo_writes_is_compared_with_the_state_it_jumps_to(tmp_path, monkeypatch):
    """An undo past the last snapshot gets one of its own; its state's hash was reused, its bytes are
    still compared with the stored snapshot's."""
    path = tmp_path / "u.db"
    r = service(path, snapshot_every=5)
    m = r.new_match("pile", ["alice", "bob"], options={"stones": "30"}, seed=5)
    r.submit(m.id, "alice", "start")
    for i in range(6):
        r.submit(m.id, r.show(m.id).state["active"], "take 1")
    undo = r.undo(m.id, by="arbiter", to=2, reason="again")
    assert undo.accepted and [s.seq for s in r.store.snapshots(m.id)] == [5, undo.seq]
    assert service(path).audit(m.id).clean
    tamper(path, f"UPDATE snapshots SET state = CAST('{{}}' AS BLOB) WHERE match_id = '{m.id}' AND seq = {undo.seq}")
    report = service(path).audit(m.id)
    assert [(f.what, f.seq) for f in report.findings] == [("snapshot", undo.seq)]
