"""Undo, redo, fork, diff, replay and audit (on the test game; the same service serves every game)."""

from __future__ import annotations

import sqlite3

import pytest

from referee.errors import BadInput
from referee.service import Referee
from referee.store.sqlite import SqliteStore
from support.pile import PILE
from support.tamper import tamper


def service(path, **kw):
    return Referee(SqliteStore(str(path)), games=[PILE], **kw)


def take_turns(r, mid, counts):
    out = []
    for c in counts:
        active = r.show(mid).state["active"]
        out.append(r.submit(mid, active, f"take {c}"))
    return out


@pytest.fixture
def game(tmp_path):
    r = service(tmp_path / "r.db", snapshot_every=3)
    m = r.new_match("pile", ["alice", "bob"], options={"stones": "40"}, seed=2)
    r.submit(m.id, "alice", "start")
    take_turns(r, m.id, [1, 2, 3, 1, 2])  # entries 2..6
    return r, m.id, tmp_path / "r.db"


def test_undo_folds_back_and_keeps_the_entries_marked(game):
    r, mid, _ = game
    assert r.show(mid).state["pile"] == 31
    before5 = r.show(mid, at=4).state_hash
    res = r.undo(mid, by="alice", to=4, reason="misread the pile")
    assert res.accepted and res.seq == 7
    assert r.show(mid).state_hash == before5
    log = r.log(mid)
    assert [e.undone_by for e in log] == [None, None, None, None, 7, 7, None]
    assert log[-1].kind == "undo" and log[-1].actor == "alice"
    take_turns(r, mid, [3])
    assert r.show(mid).state["pile"] == 40 - 1 - 2 - 3 - 3


def test_redo_restores_the_undone_line_and_is_an_entry(game):
    r, mid, _ = game
    head_hash = r.show(mid).state_hash
    r.undo(mid, by="bob")  # the last accepted intent
    assert r.show(mid).state["pile"] == 33
    res = r.redo(mid, by="bob")
    assert res.accepted and r.show(mid).state_hash == head_hash
    assert [e.undone_by for e in r.log(mid)][:6] == [None] * 6
    again = r.redo(mid, by="bob", undo=7)
    assert again.verdict.code == "redo/already_redone"


def test_redo_after_new_play_is_refused_and_logged(game):
    r, mid, _ = game
    r.undo(mid, by="alice", to=4)
    take_turns(r, mid, [1])
    res = r.redo(mid, by="alice", undo=7)
    assert not res.accepted and res.verdict.code == "redo/line_moved_on"
    assert r.log(mid)[-1].verdict == "rejected"


def test_undo_policies(tmp_path):
    r = service(tmp_path / "r.db")
    for policy in ("own_last", "arbiter"):
        m = r.new_match("pile", ["alice", "bob"], seed=2, undo=policy)
        r.submit(m.id, "alice", "start")
        first, second = take_turns(r, m.id, [1, 1])
        mover = second.actor
        other = first.actor
        refused = r.undo(m.id, by=other, to=second.seq - 1)
        assert refused.verdict.code == "undo/not_allowed", policy
        if policy == "own_last":
            assert r.undo(m.id, by=mover, to=second.seq - 1).accepted
            assert r.undo(m.id, by=mover, to=0).verdict.code == "undo/not_allowed"
        else:
            assert r.undo(m.id, by=mover).verdict.code == "undo/not_allowed"
        assert r.undo(m.id, by="arbiter", to=0).accepted
        assert r.show(m.id).state["active"] is None
    with pytest.raises(BadInput, match="reserved"):
        r.new_match("pile", ["arbiter", "bob"])


def test_undo_of_an_undone_target_and_bad_targets(game):
    r, mid, _ = game
    r.undo(mid, by="alice", to=3)
    assert r.undo(mid, by="alice", to=5).verdict.code == "undo/target_undone"
    with pytest.raises(BadInput):
        r.undo(mid, by="alice", to=99)
    with pytest.raises(BadInput):
        r.undo(mid, by="carol", to=1)


def test_fork_shares_history_and_diverges(game):
    r, mid, path = game
    fork = r.fork(mid, at=4, name="what if")
    assert fork.parent == mid and fork.fork_seq == 4 and fork.head == 4
    assert r.show(fork.id).state_hash == r.show(mid, at=4).state_hash
    take_turns(r, fork.id, [3, 3])
    assert r.audit(fork.id).clean
    d = r.diff(mid, fork.id)
    assert d.diverge is not None and d.diverge.seq == 5 and not d.same_state
    assert any(c.path == "pile" for c in d.changes)
    same = r.diff(mid, fork.id, at_a=4, at_b=4)
    assert same.same_state and same.changes == [] and same.diverge is None
    # the shared history is not copied
    conn = sqlite3.connect(path)
    assert conn.execute("SELECT COUNT(*) FROM entries WHERE match_id = ?", (fork.id,)).fetchone()[0] == 2
    # fork of a fork, and undo inside a fork reaching into the parent's history
    sub = r.fork(fork.id, at=5)
    assert sub.parent == fork.id
    take_turns(r, sub.id, [1])
    assert r.undo(sub.id, by="alice", to=2).accepted
    assert r.show(sub.id).state_hash == r.show(mid, at=2).state_hash
    assert r.audit(sub.id).clean
    early = r.fork(sub.id, at=3)
    assert early.parent == mid  # history up to 3 lives in the root
    tree = [(i.id, depth) for i, depth in r.forks()]
    assert tree.index((mid, 0)) < tree.index((fork.id, 1)) < tree.index((sub.id, 2))


def test_replay_shows_what_changed(game):
    r, mid, _ = game
    steps = r.replay(mid, start=2, stop=3)
    assert [s.entry.seq for s in steps] == [2, 3]
    changes = {c.path: (c.before, c.after) for c in steps[0].changes}
    assert changes["pile"][0] - changes["pile"][1] in (1, 2, 3)


@pytest.mark.parametrize(
    "sql,what,seq",
    [
        ("UPDATE entries SET body = CAST(replace(CAST(body AS TEXT), '\"count\":3', '\"count\":2') AS BLOB) WHERE seq = 4",
         "entry_hash", 4),
        ("DELETE FROM entries WHERE seq = 3", "missing", 3),
        ("UPDATE entries SET seq = -3 WHERE seq = 3; UPDATE entries SET seq = 3 WHERE seq = 4;"
         "UPDATE entries SET seq = 4 WHERE seq = -3", "chain", 3),
        ("UPDATE entries SET verdict = 'rejected', code = 'pile/not_enough' WHERE seq = 2", "index_columns", 2),
    ],
)
def test_audit_catches_tampering(game, sql, what, seq):
    r, mid, path = game
    assert r.audit(mid).clean
    tamper(path, sql)
    report = service(path).audit(mid)
    assert not report.clean
    f = report.findings[0]
    assert (f.what, f.seq) == (what, seq), f


def test_audit_catches_a_rewritten_verdict_with_a_recomputed_chain(game):
    """A careful forger rewrites the body and recomputes every hash: re-adjudication still differs."""
    import msgspec

    from referee.engine import core

    r, mid, path = game
    loaded = r.load(mid)
    entries = list(r.entries(loaded.match))
    conn = sqlite3.connect(path)
    conn.execute("DROP TRIGGER entries_append_only_update")
    prev = loaded.match.genesis_hash
    for e in entries:
        body = msgspec.json.decode(e.body)
        if e.seq == 3:
            body["verdict"] = {"type": "rejected", "code": "pile/bad_count", "message": "forged", "rule": ""}
        raw = core.canonical(body)
        h = core.entry_hash(prev, raw)
        conn.execute("UPDATE entries SET body = ?, prev_hash = ?, hash = ?, verdict = ?, code = ? WHERE match_id = ? AND seq = ?",
                     (raw, prev, h, "rejected" if e.seq == 3 else e.verdict,
                      "pile/bad_count" if e.seq == 3 else e.code, mid, e.seq))
        prev = h
    conn.commit()
    conn.close()
    f = service(path).audit(mid).findings[0]
    assert (f.what, f.seq) == ("verdict", 3) and f.derived == "accepted"


def test_audit_fails_on_a_rules_version_change_unless_accepted(game, monkeypatch):
    r, mid, path = game
    monkeypatch.setattr(PILE, "rules_version", "2")
    report = service(path).audit(mid)
    assert not report.clean and report.findings[0].what == "rules_version"
    assert report.findings[0].recorded == "1" and "--accept-rules-change" in str(report.findings[0].derived)
    report = service(path).audit(mid, accept_rules_change=True)
    assert report.clean and "rules 1" in report.notes[0] and "rules 2" in report.notes[0]


def test_audit_checks_snapshots(game):
    r, mid, path = game
    tamper(path, "UPDATE snapshots SET state = CAST('{}' AS BLOB) WHERE seq = 3")
    f = service(path).audit(mid).findings[0]
    assert (f.what, f.seq) == ("snapshot", 3)


def test_a_ruling_lets_a_rejected_move_stand(game):
    r, mid, path = game
    active = r.show(mid).state["active"]
    bad = r.submit(mid, active, "take 5")
    assert bad.verdict.code == "pile/bad_count"
    pile = r.show(mid).state["pile"]
    ruling = r.rule_stands(mid, bad.seq, reason="house rule tonight")
    assert ruling.accepted and r.show(mid).state["pile"] == pile - 5
    assert r.log(mid)[bad.seq - 1].verdict == "rejected"  # the rejection itself is untouched
    assert r.audit(mid).clean
    with pytest.raises(BadInput):
        r.rule_stands(mid, 2)  # an accepted entry
    over = r.submit(mid, r.show(mid).state["active"], "take 40")
    still = r.rule_stands(mid, over.seq)
    assert still.verdict.code == "ruling/still_illegal"


def test_an_undo_jumping_back_past_a_snapshot_gets_one_of_its_own(tmp_path):
    r = service(tmp_path / "j.db", snapshot_every=5)
    m = r.new_match("pile", ["alice", "bob"], options={"stones": "40"}, seed=2)
    r.submit(m.id, "alice", "start")
    take_turns(r, m.id, [1, 2, 3, 1, 2, 1, 1])  # entries 2..8; a snapshot at 5
    far = r.undo(m.id, by="arbiter", to=3)  # entry 9 jumps back past the snapshot at 5
    take_turns(r, m.id, [2, 1, 1])  # entries 10 (a snapshot), 11 and 12
    short = r.undo(m.id, by="arbiter", to=11)  # entry 13: back to 11, no snapshot in between
    assert short.accepted and far.accepted
    snaps = {s.seq for s in r.snapshots_of(r.load(m.id).match)}
    assert snaps == {5, far.seq, 10}
    # a fresh service reads the jump's state from its snapshot; the same state as a fold from setup
    for at in (9, 10, 11, 12, 13):
        assert service(tmp_path / "j.db").show(m.id, at=at) == service(tmp_path / "j.db", use_snapshots=False).show(m.id, at=at)
    assert service(tmp_path / "j.db").audit(m.id).clean
    # the audit derives the jump's state itself, and checks the jump's snapshot like any other
    tamper(tmp_path / "j.db", f"UPDATE snapshots SET state = CAST('{{}}' AS BLOB) WHERE seq = {far.seq}")
    f = service(tmp_path / "j.db").audit(m.id).findings
    assert [(x.what, x.seq) for x in f] == [("snapshot", far.seq)]
