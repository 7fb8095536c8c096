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
from referee.store.postgres import PostgresStore  # psycopg itself is imported only on connecting
PostgresStore._insert_tournament_events = staticmethod(die)
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


# -- the record anchored: tampering with the triggers dropped -------------------------------------------

def _connect(db: str):
    """A connection to the database behind the referee's back, the tournament tables' triggers off."""
    if db.startswith("postgresql://"):
        import psycopg

        conn = psycopg.connect(db, autocommit=True)
        # every table the referee writes has an append-only trigger: the owner switches them all off
        tables = conn.execute("SELECT tablename FROM pg_tables WHERE schemaname = current_schema() "
                              "ORDER BY tablename").fetchall()
        for (table,) in tables:
            conn.execute(f'ALTER TABLE "{table}" DISABLE TRIGGER USER')
        return conn, "%s"
    import sqlite3

    conn = sqlite3.connect(db, isolation_level=None)
    for op in ("update", "delete"):
        conn.execute(f"DROP TRIGGER IF EXISTS tournament_events_append_only_{op}")
    return conn, "?"


def rewrite(db: str, tid: str, edit) -> None:
    """Replace the tournament's records by ``edit(records)`` (a list of :class:`Record`), numbered and
    chained afresh, as a forger who knows the hashing would."""
    import msgspec

    from referee.tournament import events as ev

    store = open_store(db)
    rows = store.tournament_events(tid)
    store.close()
    records = edit([ev.decode(r.body) for r in rows])
    conn, p = _connect(db)
    conn.execute(f"DELETE FROM tournament_events WHERE tournament_id = {p}", (tid,))
    prev = ev.root_hash(tid)
    for n, record in enumerate(records, start=1):
        body = ev.encode(msgspec.structs.replace(record, n=n))
        digest = ev.chain_hash(prev, body)
        conn.execute("INSERT INTO tournament_events (tournament_id, n, kind, by, body, prev_hash, hash, recorded_at) "
                     f"VALUES ({', '.join([p] * 8)})", (tid, n, ev.kind(record.event), record.by, body, prev, digest, "t"))
        prev = digest
    conn.close()


def run_sql(db: str, sql: str, *params) -> None:
    conn, p = _connect(db)
    conn.execute(sql.replace("?", p), params)
    conn.close()


def _played(db: str) -> tuple[str, str]:
    """A tournament with tokens, round 1 played and closed (one table's result recorded by hand and
    corrected), round 2 paired; its id and its head."""
    from referee.auth import hash_token
    from referee.store import StoredTournamentToken
    from test_tournament_service import _finish

    import random

    t = service(db)
    state = t.create("Club night", "pile", rounds=3, seed=11, options={"stones": "4"}, chance="digital",
                     players=["ann", "ben", "cy", "dee"])
    t.store.add_tournament_tokens([
        StoredTournamentToken(token_hash=hash_token(f"secret-{who}"), tournament_id=state.id,
                              role="player" if who in state.players else who, player=who if who in state.players else None)
        for who in ("organiser", "spectator", "ann", "ben", "cy", "dee")])
    r1 = t.pair(state.id)
    _finish(t.referee, r1.tables[0].match_id, random.Random(1))
    a, b = r1.tables[1].seats
    t.record_result(state.id, 1, 2, f"win:{a}", why="played on paper")
    t.record_result(state.id, 1, 2, f"win:{b}", correct=True, why="misread")
    t.pair(state.id)
    assert t.audit(state.id) == []
    head = t.head(state.id)
    t.store.close()
    return state.id, head


@pytest.fixture
def cli(cli, monkeypatch):
    """The CLI, its referee knowing the test game ``pile`` too."""
    init = Referee.__init__

    def knowing_pile(self, store, *, games=None, **kw):
        init(self, store, games=(*GAMES, PILE) if games is None else games, **kw)

    monkeypatch.setattr(Referee, "__init__", knowing_pile)
    return cli


def _audit(cli, db, tid, *more):
    res = cli("tournament", "audit", tid, "--db", db, *more)
    assert res.code in (0, 1), (res.code, res.out, res.err)
    return res


@pytest.mark.parametrize("tamper", ["changed correction", "deleted correction", "deleted last record",
                                    "token made organiser"])
def test_a_rewritten_and_rehashed_record_fails_the_audit_against_the_head_kept(cli, db, tamper):
    from referee.tournament import events as ev

    tid, head = _played(db)
    before = _audit(cli, db, tid)
    assert before.code == 0 and f"head {head} (" in before.out
    if tamper == "changed correction":
        def edit(records):
            return [_other_winner(r) if isinstance(r.event, ev.ResultCorrected) else r for r in records]
        rewrite(db, tid, edit)
    elif tamper == "deleted correction":
        rewrite(db, tid, lambda records: [r for r in records if not isinstance(r.event, ev.ResultCorrected)])
    elif tamper == "deleted last record":
        rewrite(db, tid, lambda records: records[:-1])
    else:
        from referee.auth import hash_token

        run_sql(db, "UPDATE tournament_tokens SET role = 'organiser', player = NULL WHERE token_hash = ?",
                hash_token("secret-ann"))
    plain = _audit(cli, db, tid)
    assert f"head {head} (" not in plain.out  # the head printed now is another
    if tamper in ("changed correction", "deleted correction"):  # consistent in itself: only the head kept tells
        assert plain.code == 0
    if tamper == "deleted last record":  # round 2's matches name tables no record pairs now
        assert plain.code == 1 and "which no record of it pairs" in plain.out
    if tamper == "token made organiser":
        assert plain.code == 1 and "2 tokens of the organiser" in plain.out
    kept = _audit(cli, db, tid, "--expect-head", head)
    assert kept.code == 1 and "the head is " in kept.out and f"not {head} as expected" in kept.out
    as_json = cli("tournament", "audit", tid, "--db", db, "--expect-head", head, "--json")
    assert as_json.code == 1 and as_json.json["clean"] is False and as_json.json["head"] != head


def _other_winner(record):
    """The correction's outcome turned round: the other player wins."""
    import msgspec

    e = record.event
    winner = e.outcome.winners[0]
    other = next(p for p in ("ann", "ben", "cy", "dee") if p != winner)
    return msgspec.structs.replace(record, event=msgspec.structs.replace(
        e, outcome=msgspec.structs.replace(e.outcome, winners=(other,))))


@pytest.mark.parametrize("tamper", ["result copied from a missing entry", "records that do not fold",
                                    "a record that cannot be read", "a record renumbered",
                                    "a table's match that cannot be read", "a seat's token made the arbiter's"])
def test_tampered_records_are_findings_not_errors(cli, db, tamper):
    from referee.tournament import events as ev

    tid, head = _played(db)
    if tamper == "result copied from a missing entry":
        import msgspec

        def edit(records):
            out = []
            for r in records:
                if isinstance(r.event, ev.RoundClosed):
                    results = tuple(msgspec.structs.replace(x, seq=202) if x.seq is not None else x
                                    for x in r.event.results)
                    r = msgspec.structs.replace(r, event=msgspec.structs.replace(r.event, results=results))
                out.append(r)
            return out
        rewrite(db, tid, edit)
        want = "entry 202"
    elif tamper == "records that do not fold":
        rewrite(db, tid, lambda records: records[1:])  # the first record (created) removed
        want = "the records do not fold"
    elif tamper == "a record that cannot be read":
        run_sql(db, "UPDATE tournament_events SET body = ? WHERE tournament_id = ? AND n = 3", b"{not json", tid)
        want = "record 3: cannot be read"
    elif tamper == "a record renumbered":
        run_sql(db, "DELETE FROM tournament_events WHERE tournament_id = ? AND n = 3", tid)
        want = "record 3: missing"
    else:
        t = service(db)
        table = t.load(tid).rounds[0].tables[0]
        t.store.close()
        mid = table.match_id
        if tamper == "a table's match that cannot be read":
            run_sql(db, "UPDATE matches SET config = ? WHERE id = ?", b"{broken", mid)
            want = f"round 1 table 1 (match {mid}): the match's record cannot be read"
        else:
            run_sql(db, "UPDATE tokens SET role = 'arbiter', seat = NULL WHERE match_id = ? AND seat = ?", mid,
                    table.seats[0])
            want = f"round 1 table 1 (match {mid}): its tokens are arbiter, arbiter, seat {table.seats[1]}, spectator"
    res = _audit(cli, db, tid)
    assert res.code == 1 and want in res.out, res.out
    # the tournament's head covers its records and its own tokens; a match's row is its own audit's
    assert (f"head {head} (" in res.out) == tamper.startswith(("a table's match", "a seat's"))


def test_a_match_that_names_a_table_the_tournament_does_not_hold_is_a_finding(db):
    t = service(db)
    state = t.create("Club night", "pile", rounds=3, seed=5, options={"stones": "4"}, players=["a", "b", "c", "d"])
    stray = t.referee.new_match("pile", ["a", "b"], options={"stones": "4"}, title="Club night, round 1, table 1",
                                meta={"tournament": state.id, "event": "Club night", "round": "1", "table": "1"})
    assert t.audit(state.id) == [f"match {stray.id}: names round 1 table 1 of this tournament, which no record of "
                                 "it pairs (a pairing that was not recorded)"]


def test_the_head_is_printed_by_standings_every_export_and_the_audit_locally_and_through_a_server(cli, db, db_store):
    from referee.auth import hash_token
    from referee.store import StoredTournamentToken
    from support.apps import live_server

    made = cli("tournament", "new", "Club night", "--game", "pile", "--option", "stones=4", "--players", "ann,ben,cy",
               "--db", db)
    assert made.code == 0, made.err
    tid = made.last_line
    db_store.add_tournament_tokens([StoredTournamentToken(token_hash=hash_token("org-secret"), tournament_id=tid,
                                                          role="organiser")])
    audited = cli("tournament", "audit", tid, "--db", db, "--json").json
    head = audited["head"]
    assert audited["clean"] and audited["records"] == 4 and len(head) == 64
    assert f"head {head} (" in cli("tournament", "standings", tid, "--db", db).out
    assert cli("tournament", "standings", tid, "--db", db, "--json").json["head"] == head
    assert json_loads(cli("tournament", "export", tid, "--db", db, "--format", "json").out)["head"] == head
    assert cli("tournament", "export", tid, "--db", db, "--format", "csv").out.splitlines()[-1] == f"head,{head}"
    assert f"Head: `{head}`" in cli("tournament", "export", tid, "--db", db, "--format", "md").out
    assert f'<code id="head">{head}</code>' in cli("tournament", "export", tid, "--db", db, "--format", "html").out
    with live_server(lambda: Referee(db_store, games=(*GAMES, PILE))) as server:
        org = ("--server", server.url, "--token", "org-secret")
        there = cli(*org, "tournament", "audit", tid, "--expect-head", head)
        assert there.code == 0 and f"clean\nhead {head} (4 records)" in there.out, there.err
        assert cli(*org, "tournament", "standings", tid, "--json").json["head"] == head
        assert cli(*org, "tournament", "export", tid, "--format", "csv").out.endswith(f"head,{head}\n")
        # a spectators' token slipped into the table behind the server's back changes the head
        run_sql(db, "INSERT INTO tournament_tokens (token_hash, tournament_id, role, player) VALUES (?, ?, ?, NULL)",
                hash_token("extra"), tid, "spectator")
        moved = cli(*org, "tournament", "audit", tid, "--expect-head", head)
        assert moved.code == 1 and f"not {head} as expected" in moved.out
        bad = cli(*org, "tournament", "audit", tid, "--expect-head", "x" * 65)
        assert bad.code == 2 and "expect_head" in bad.err
    assert cli("tournament", "audit", tid, "--db", db, "--expect-head", head).code == 1


def json_loads(text):
    import json

    return json.loads(text)


# -- point 7 (part): a match's title and its clock readings --------------------------------------------

def test_an_edited_title_of_an_untitled_match_fails_the_audit_and_a_forks_name_moves_the_head(cli, db):
    r = Referee(open_store(db))
    plain = r.new_match("by_all_means", ["alice", "bob"], seed=3)
    fork = r.fork(plain.id, at=0, name="what if")
    heads = {m: r.audit(m).head_hash for m in (plain.id, fork.id)}
    assert r.audit(fork.id).notes == ["the title 'what if' is covered by the head only (a fork's name): "
                                      "compare the head kept"]
    r.store.close()
    conn, p = _connect(db)
    conn.execute(f"UPDATE matches SET title = 'Final, table 1' WHERE id = {p}", (plain.id,))
    conn.execute(f"UPDATE matches SET title = 'Final, table 2' WHERE id = {p}", (fork.id,))
    conn.close()
    edited = cli("audit", plain.id, "--db", db, "--json")
    assert edited.code == 1 and edited.json["findings"][0] == {
        "seq": 0, "what": "title", "recorded": "Final, table 1", "derived": "(no title)"}
    # a fork's name is in no configuration: the head covers it, and --expect-head says it moved
    renamed = cli("audit", fork.id, "--db", db, "--expect-head", heads[fork.id], "--json")
    assert renamed.code == 1 and renamed.json["findings"] == [{
        "seq": 0, "what": "head", "recorded": renamed.json["head_hash"],
        "derived": f"{heads[fork.id]} (expected: the record changed since that head was printed)"}]
    shown = cli("audit", fork.id, "--db", db, "--expect-head", heads[fork.id])
    assert shown.code == 1 and "head differs" in shown.out
    assert cli("audit", "--all", "--db", db, "--expect-head", heads[fork.id]).code == 2


def test_a_kept_head_catches_a_cut_at_the_end_of_a_match(cli, db):
    r = Referee(open_store(db))
    m = r.new_match("by_all_means", ["alice", "bob"], seed=3, title="Club, table 1")
    r.submit(m.id, "alice", "end_turn")  # an entry, accepted or not
    r.annotate(m.id, 1, "kept by the arbiter", by="arbiter")
    r.annotate(m.id, 1, "and a second note", by="arbiter")
    head = r.audit(m.id).head_hash
    r.store.close()
    assert cli("audit", m.id, "--db", db, "--expect-head", head).code == 0
    conn, p = _connect(db)
    if db.startswith("postgresql://"):
        conn.execute("ALTER TABLE annotations DISABLE TRIGGER USER")
    else:
        conn.execute("DROP TRIGGER IF EXISTS annotations_append_only_delete")
    conn.execute(f"DELETE FROM annotations WHERE match_id = {p} AND n = 2", (m.id,))
    conn.close()
    assert cli("audit", m.id, "--db", db).code == 0  # the chain alone cannot tell a cut at its end
    assert cli("audit", m.id, "--db", db, "--expect-head", head).code == 1


def test_clock_readings_are_marked_as_no_evidence(cli, db):
    import msgspec

    from schemas import Annotation, EntryView, ExportMatch, MatchInfo

    for struct, name in ((MatchInfo, "created_at"), (EntryView, "recorded_at"), (Annotation, "recorded_at"),
                         (ExportMatch, "created_at")):
        field = msgspec.json.schema(struct)["$defs"][struct.__name__]["properties"][name]
        assert "not evidence" in field["description"], (struct, name)
    r = Referee(open_store(db))
    m = r.new_match("by_all_means", ["alice", "bob"], seed=3)
    r.store.close()
    conn, p = _connect(db)
    conn.execute(f"UPDATE matches SET created_at = '1999-01-01T00:00:00Z' WHERE id = {p}", (m.id,))
    conn.close()
    assert cli("audit", m.id, "--db", db).code == 0  # no hash covers a clock reading: the audit says nothing
    listed = cli("matches", "--db", db)
    assert "created*" in listed.out and "a clock reading kept for people; no hash covers it, not evidence" in listed.out


def test_audit_match_expect_head_through_a_server(cli, db_store):
    import httpx

    from support.apps import live_server

    with live_server(lambda: Referee(db_store)) as server:
        made = httpx.post(f"{server.url}/matches", json={"game": "by_all_means", "players": ["alice", "bob"],
                                                         "title": "Club, table 2"}).json()
        mid, arbiter = made["match"]["id"], made["tokens"]["arbiter"]
        there = ("--server", server.url, "--token", arbiter)
        head = cli(*there, "audit", mid, "--json").json["head_hash"]
        assert cli(*there, "audit", mid, "--expect-head", head).code == 0
        cli(*there, "play", mid, "alice", "end_turn")  # the record moves on (accepted or refused, an entry):
        assert cli(*there, "audit", mid).code == 0  # clean, and the head kept no longer fits
        moved = cli(*there, "audit", mid, "--expect-head", head, "--json")
        assert moved.code == 1 and moved.json["findings"][-1]["what"] == "head"
