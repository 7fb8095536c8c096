"""A finished match stays finished (issue 23, point 2): every role reads the seed of a digital match when
it ends, so a seat's undo, redo or move is refused from then on, and whatever reopens it (the arbiter's
undo, a ruling on the main line, a fork that plays on) draws every later chance outcome from a fresh
secret, committed in the reopening entry and shown to the other roles only when the match is over again.

The pile game's ``start`` is its chance outcome: who starts and the secret tokens dealt."""

from __future__ import annotations

import json

import msgspec
import pytest

from referee.engine import core
from referee.engine.chance import Chance
from referee.service import Referee
from support.pile import PILE, TOKENS

SEATS = ["alice", "bob"]
OLD_SEED = 7


def deal(seed: int) -> tuple[str, tuple[str, ...]]:
    """What ``start`` draws from ``seed`` (the pile game's own chance: who starts, the tokens dealt)."""
    chance = Chance(seed, core.PLAY_SALT)
    first = chance.choice(SEATS)
    return first, tuple(chance.shuffled(TOKENS)[: len(SEATS)])


#: a fresh secret whose deal differs from the old seed's (chosen, so the test is deterministic)
SECRET = next(s for s in range(7_654_321_987_654_321, 7_654_321_987_654_421) if deal(s) != deal(OLD_SEED))


def finished(store) -> tuple[Referee, str]:
    """A digital pile match of 4 stones played to its end: start, then 1 + 3 or 3 + 1."""
    r = Referee(store, games=[PILE], fresh_secret=lambda: SECRET)
    mid = r.new_match("pile", SEATS, options={"stones": "4"}, seed=OLD_SEED).id
    assert r.submit(mid, "alice", "start").accepted
    first = r.show(mid).state["active"]
    second = SEATS[1 - SEATS.index(first)]
    assert r.submit(mid, first, "take 1").accepted
    assert r.submit(mid, second, "take 3").accepted
    assert r.result(mid) is not None
    return r, mid


def test_a_seat_that_read_the_seed_cannot_undo_into_the_game(db_store):
    r, mid = finished(db_store)
    assert r.show(mid, seat="bob").seed == OLD_SEED  # the seed is revealed to every role at the end
    head = r.store.head(mid)
    for seat in SEATS:
        res = r.undo(mid, by=seat, to=1)
        assert not res.accepted and res.verdict.code == "match/over"
        assert "annotations only" in res.verdict.message and "arbiter" in res.verdict.message
        res = r.undo(mid, by=seat)  # a plain undo of the last move too
        assert not res.accepted and res.verdict.code == "match/over"
    assert r.store.head(mid) == head + 4  # refused undos are entries (the dispute's trail), nothing else changed
    assert r.result(mid) is not None and r.show(mid).state["pile"] == 0
    move = r.submit(mid, "alice", "take 1")
    assert not move.accepted and move.verdict.code == "match/over"
    r.annotate(mid, 3, "well played", by="bob")  # annotations are still taken
    assert r.audit(mid).clean


def test_the_arbiters_reopening_draws_from_a_fresh_committed_secret(db_store):
    r, mid = finished(db_store)
    res = r.undo(mid, by="arbiter", to=0, reason="a misdeal")
    assert res.accepted and r.result(mid) is None
    undo = r.log(mid)[-1]
    assert undo.kind == "undo" and undo.meta["secret"] == SECRET  # the arbiter's log shows it
    assert undo.meta["commitment"] == core.reseed_commitment(mid, res.seq, SECRET)
    start = r.submit(mid, "bob", "start")
    assert start.accepted
    drawn = (start.intent.first, start.intent.tokens)
    assert drawn == deal(SECRET) and drawn != deal(OLD_SEED)  # the old seed's deal is not what comes
    assert r.audit(mid).clean


def test_the_fresh_secret_is_hidden_until_the_match_ends_again(db_store):
    r, mid = finished(db_store)
    seq = r.undo(mid, by="arbiter", to=0).seq
    commitment = core.reseed_commitment(mid, seq, SECRET)
    for role in ("alice", "bob", "spectator"):
        said = _everything(r, mid, role)
        assert commitment in said  # every role holds the commitment from the reopening on
        assert str(SECRET) not in said, role
        assert r.log(mid, seat=role)[-1].meta.get("secret") is None
    assert str(SECRET) in _everything(r, mid, "arbiter")
    r.submit(mid, "alice", "start")
    first = r.show(mid).state["active"]
    r.submit(mid, first, "take 3")
    r.submit(mid, SEATS[1 - SEATS.index(first)], "take 1")
    assert r.result(mid) is not None  # over again: the secret is everyone's, with the seed, to check the deal with
    for role in ("alice", "spectator"):
        assert r.show(mid, seat=role).secrets == {seq: SECRET}
        assert json.loads("".join(r.export(mid, "json", role)))["match"]["secrets"] == {str(seq): SECRET}
        assert r.log(mid, seat=role)[seq - 1].meta.get("secret") is None  # a log page folds nothing: not there
    assert r.audit(mid).clean


def _everything(r: Referee, mid: str, role: str) -> str:
    """Every answer a role gets of a match (log, replay, state, every export format)."""
    seat = None if role == "arbiter" else role
    parts = [msgspec.json.encode(r.log(mid, seat=seat)).decode(), msgspec.json.encode(r.replay(mid, seat=seat)).decode(),
             msgspec.json.encode(r.show(mid, seat=seat)).decode()]
    parts += ["".join(r.export(mid, fmt, role)) for fmt in ("txt", "md", "html", "json")]
    return "\n".join(parts)


def test_a_fork_of_a_finished_match_plays_on_from_a_fresh_secret(db_store):
    r, mid = finished(db_store)
    fork = r.fork(mid, at=0, name="again")
    first = r.log(fork.id)
    assert [e.kind for e in first] == ["reopen"] and first[0].actor == "arbiter"
    assert first[0].meta["commitment"] == core.reseed_commitment(fork.id, 1, SECRET)
    start = r.submit(fork.id, "alice", "start")
    assert (start.intent.first, start.intent.tokens) == deal(SECRET) != deal(OLD_SEED)
    assert r.audit(fork.id).clean
    # a fork of a match still in play keeps its seed: it draws what the main line drew
    live = r.new_match("pile", SEATS, options={"stones": "4"}, seed=OLD_SEED).id
    branch = r.fork(live, at=0)
    assert r.log(branch.id) == []
    assert (r.submit(branch.id, "bob", "start").intent.first, ) == (deal(OLD_SEED)[0], )


def test_a_ruling_on_the_main_line_of_a_finished_match_draws_from_a_fresh_secret(db_store):
    from referee.rulings import rule

    r = Referee(db_store, games=[PILE], fresh_secret=lambda: SECRET)
    mid = r.new_match("pile", SEATS, options={"stones": "5"}, seed=OLD_SEED).id
    r.submit(mid, "alice", "start")
    first = r.show(mid).state["active"]
    second = SEATS[1 - SEATS.index(first)]
    assert not r.submit(mid, first, "take 4").accepted  # entry 2: refused (1 to 3)
    r.submit(mid, first, "take 2")
    r.submit(mid, second, "take 3")
    assert r.result(mid) is not None
    forked = rule(r, mid, 2, reason="house rule: 4 allowed")  # as a fork: it plays on from a fresh secret
    first = r.log(forked.target)[2]
    assert first.kind == "reopen" and first.meta["commitment"] == core.reseed_commitment(forked.target, 3, SECRET)
    assert forked.ruling.seq == 4 and forked.ruling.accepted and r.audit(forked.target).clean
    report = rule(r, mid, 2, reason="house rule: 4 allowed", main=True)
    undo = r.log(mid)[report.undo - 1]
    assert undo.meta["secret"] == SECRET and undo.meta["commitment"] == core.reseed_commitment(mid, report.undo, SECRET)
    assert report.ruling.accepted and r.audit(mid).clean


def test_audit_finds_a_reopening_without_its_fresh_secret_or_with_a_wrong_commitment(tmp_path):
    """A forger rewrites the reopening (and rehashes the chain after it): the audit names the entry."""
    import sqlite3

    from referee.store.sqlite import SqliteStore
    from support.tamper import tamper

    for change in ("drop", "commitment", "secret"):
        path = str(tmp_path / f"{change}.db")
        r, mid = finished(SqliteStore(path))
        seq = r.undo(mid, by="arbiter", to=0).seq
        r.submit(mid, "bob", "start")
        r.store.close()
        conn = sqlite3.connect(path)
        rows = conn.execute("SELECT seq, body, prev_hash FROM entries WHERE match_id = ? AND seq >= ? ORDER BY seq",
                            (mid, seq)).fetchall()
        conn.close()
        prev, sql = rows[0][2], []
        for s, raw, _ in rows:
            body = json.loads(raw)
            if s == seq:
                act = body["act"]
                if change == "drop":
                    body["act"] = {"type": "undo", "to": act["to"], "target": act["target"], "reason": act["reason"]}
                elif change == "commitment":
                    act["commitment"] = "0" * 64
                else:
                    act["secret"] = act["secret"] + 1
            raw = core.canonical(body) if s == seq else bytes(raw)
            digest = core.entry_hash(prev, raw)
            sql.append(f"UPDATE entries SET body = X'{raw.hex()}', prev_hash = '{prev}', hash = '{digest}' "
                       f"WHERE match_id = '{mid}' AND seq = {s};")
            prev = digest
        tamper(path, "\n".join(sql))
        report = Referee(SqliteStore(path), games=[PILE]).audit(mid)
        assert not report.clean, change
        assert (report.findings[0].seq, report.findings[0].what) == (seq, "reopening"), report.findings


def test_through_the_cli_a_seat_is_refused_and_no_other_role_reads_the_fresh_secret(cli, monkeypatch):
    import referee.games

    known = referee.games.find
    monkeypatch.setattr(referee.games, "find", lambda name: PILE if name == "pile" else known(name))
    mid = cli("new", "pile", "--players", "alice,bob", "--option", "stones=2", "--seed", str(OLD_SEED)).last_line
    assert cli("play", mid, "alice", "start").code == 0
    first = cli("show", mid, "--json").json["state"]["active"]
    assert cli("play", mid, first, "take 2").code == 0
    refused = cli("undo", mid, "--to", "1", "--by", "bob")
    assert refused.code == 1 and "match/over" in refused.out + refused.err
    assert cli("undo", mid, "--to", "0", "--by", "arbiter").code == 0
    reopening = cli("log", mid, "--json").json[-1]
    secret, commitment = str(reopening["meta"]["secret"]), reopening["meta"]["commitment"]
    assert commitment == core.reseed_commitment(mid, reopening["seq"], int(secret))
    for role in ("alice", "bob", "spectator"):
        said = [cli("log", mid, "--as", role, "--json").out, cli("show", mid, "--as", role, "--json").out,
                cli("replay", mid, "--as", role).out]
        said += [cli("export", mid, "--format", fmt, "--as", role).out for fmt in ("txt", "md", "html", "json")]
        assert commitment in said[0] and not any(secret in s for s in said), role


@pytest.mark.skipif(not __import__("referee.audit").audit.can_fork(), reason="stretches run in forked processes")
def test_an_audit_in_stretches_draws_from_the_secret_in_force_where_its_stretch_starts(tmp_path, monkeypatch):
    from referee import audit
    from referee.store.sqlite import SqliteStore

    monkeypatch.setattr(audit, "MIN_STRETCH", 20)
    monkeypatch.setattr(audit, "MIN_CHUNK", 5)
    r, mid = finished(SqliteStore(str(tmp_path / "s.db")))
    r.snapshot_every = 7
    r.undo(mid, by="arbiter", to=0)
    for i in range(60):  # the stretches after the reopening start past it
        r.submit(mid, "alice", f"say note=n{i}")
    start = r.submit(mid, "bob", "start")
    assert (start.intent.first, start.intent.tokens) == deal(SECRET)
    loaded = r.load(mid)
    bounds = audit.plan(r, loaded, r.snapshots_of(loaded.match), r.store.head(mid), 3)
    assert any(b > 5 for b in bounds[1:-1]), bounds
    single, parallel = r.audit(mid, jobs=1), r.audit(mid, jobs=3)
    assert single.clean and parallel.clean and parallel == single
