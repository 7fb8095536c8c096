"""Each match's summary kept as its log changes (issue 27): written with every entry, match, fork, import
and round, always equal to the one rebuilt from the log; a crash of the write leaves neither; the audit
finds a summary row changed behind the referee's back; an older database gets its summaries when first
listed or by ``referee db summaries``; ``referee matches`` reads them, pages and prints plain lines."""

from __future__ import annotations

import os
import shutil

import msgspec
import pytest

from referee.errors import BadInput, StorageError
from referee.service import Referee
from referee.store import open_store
from referee.store.memory import MemoryStore
from referee.summaries import OVER, PLAYING, outcome, rebuild

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEMO = os.path.join(ROOT, "replays", "by_all_means", "club-night.txt")
LEGACY = os.path.join(ROOT, "tests", "fixtures", "legacy-2026-11-25.db")


def _same_as_rebuilt(r: Referee, mid: str) -> None:
    kept = r.store.summary(mid)
    assert kept is not None
    fresh = Referee(r.store)  # no cached state: from the log alone
    assert kept == rebuild(fresh, mid)


def test_every_write_keeps_the_summary_equal_to_the_log(db_store):
    r = Referee(db_store, clock=iter(f"2026-11-28T09:{i // 60:02}:{i % 60:02}Z" for i in range(10_000)).__next__)
    m = r.new_match("by_all_means", ["alice", "bob"], seed=7, meta={"event": "club", "round": "2", "table": "5"})
    first = r.store.summary(m.id)
    assert first is not None and (first.status, first.head, first.head_hash) == (PLAYING, 0, r.load(m.id).match.genesis_hash)
    assert (first.event, first.round, first.table, first.seats) == ("club", "2", "5", ("alice", "bob"))
    assert first.seed_commitment == m.seed_commitment and first.last_activity == first.created_at
    r.submit(m.id, "alice", "draw_opening_hand")
    with pytest.raises(BadInput):  # refused at parsing: no entry, the summary stays
        r.submit(m.id, "bob", "nonsense_verb")
    assert r.store.summary(m.id).head == 1  # type: ignore[union-attr]
    assert r.submit(m.id, "bob", "end_turn").verdict.__class__.__name__ == "Rejected"  # recorded, changes nothing
    _same_as_rebuilt(r, m.id)
    r.submit(m.id, "bob", "draw_opening_hand")
    kept = r.store.summary(m.id)
    last = r.entry_at(r.load(m.id).match, 3)
    assert kept is not None and last is not None
    assert (kept.head, kept.head_hash, kept.last_activity) == (3, last.hash, last.recorded_at)
    _same_as_rebuilt(r, m.id)
    r.undo(m.id, by="arbiter", to=1)
    _same_as_rebuilt(r, m.id)
    fork = r.fork(m.id, at=1, name="what if")
    forked = r.store.summary(fork.id)
    assert forked is not None and (forked.parent, forked.fork_seq, forked.head, forked.title) == (m.id, 1, 1, "what if")
    _same_as_rebuilt(r, fork.id)


def test_a_finished_import_is_summarised_over_with_its_outcome(cli):
    assert cli("import", DEMO).code == 0
    listed = cli("matches", "--json").json
    assert [(m["status"], m["result"]["winners"]) for m in listed] == [("over", ["alice"])]
    r = Referee(open_store("r.db"))
    kept = r.store.summary(listed[0]["id"])
    assert kept is not None and kept.status == OVER and outcome(kept) == r.show(kept.match_id).outcome
    _same_as_rebuilt(r, kept.match_id)
    r.store.close()


def _refuse_summaries(db: str) -> None:
    """A database that refuses every summary write (a trigger), as a crash inside the append would."""
    if db.startswith("postgresql://"):
        import psycopg

        with psycopg.connect(db, autocommit=True) as conn:
            conn.execute("CREATE FUNCTION no_summary() RETURNS trigger LANGUAGE plpgsql AS "
                         "$$ BEGIN RAISE EXCEPTION 'disk on fire'; END $$")
            conn.execute("CREATE TRIGGER no_summary BEFORE INSERT OR UPDATE ON match_summaries "
                         "FOR EACH ROW EXECUTE FUNCTION no_summary()")
        return
    import sqlite3

    conn = sqlite3.connect(db, isolation_level=None)
    for op in ("INSERT", "UPDATE"):
        conn.execute(f"CREATE TRIGGER no_summary_{op.lower()} BEFORE {op} ON match_summaries "
                     "BEGIN SELECT RAISE(ABORT, 'disk on fire'); END")
    conn.close()


def test_an_entry_whose_summary_cannot_be_written_is_not_written_either(db):
    r = Referee(open_store(db))
    m = r.new_match("by_all_means", ["alice", "bob"], seed=7)
    r.submit(m.id, "alice", "draw_opening_hand")
    before = r.store.summary(m.id)
    r.store.close()
    _refuse_summaries(db)
    r = Referee(open_store(db))
    with pytest.raises(StorageError):
        r.submit(m.id, "bob", "draw_opening_hand")
    assert r.store.head(m.id) == 1 and r.store.summary(m.id) == before
    with pytest.raises(StorageError):  # nor a match
        r.new_match("by_all_means", ["alice", "bob"], seed=8)
    assert [x.id for x in r.store.list_matches()] == [m.id]
    r.store.close()


def test_audit_finds_a_summary_changed_behind_the_referees_back(cli, db):
    r = Referee(open_store(db))
    m = r.new_match("by_all_means", ["alice", "bob"], seed=7)
    r.submit(m.id, "alice", "draw_opening_hand")
    r.store.close()
    assert cli("audit", m.id, "--db", db).code == 0
    kept = Referee(open_store(db)).store.summary(m.id)
    assert kept is not None
    forged = msgspec.structs.replace(kept, status=OVER, outcome=b'{"winners":["bob"],"reason":"forged"}')
    s = open_store(db)
    s.put_summaries([forged])  # as a tool writing the table directly would
    s.close()
    report = cli("audit", m.id, "--db", db, "--json")
    assert report.code != 0
    found = report.json["findings"]
    assert [(f["what"], f["recorded"], f["derived"].split(" (")[0]) for f in found] == [
        ("summary", "status over", "status playing")]
    assert cli("matches", "--db", db, "--json").json[0]["status"] == "over"  # listings trust the row: audit is the check
    s = open_store(db)
    s.put_summaries([msgspec.structs.replace(kept, status=OVER, outcome=b'{"winners":')])
    s.close()
    broken = cli("matches", "--db", db)
    assert broken.code == 5 and "referee db summaries" in broken.err
    assert cli("audit", m.id, "--db", db, "--json").json["findings"][0]["what"] == "summary"
    fixed = cli("db", "summaries", "--db", db, "--json")
    assert fixed.code == 0 and fixed.json == {"matches": 1, "rebuilt": [m.id]}
    assert cli("audit", m.id, "--db", db).code == 0
    assert cli("db", "summaries", "--db", db, "--json").json == {"matches": 1, "rebuilt": []}


def test_an_older_database_gets_its_summaries_when_first_listed(tmp_path):
    path = tmp_path / "legacy.db"
    shutil.copyfile(LEGACY, path)
    r = Referee(open_store(str(path)))
    ids = sorted(m.id for m in r.store.list_matches())
    assert r.store.unsummarised() == ids and r.store.summaries() == []
    listed = r.matches()
    assert sorted(i.id for i in listed) == ids and r.store.unsummarised() == []
    for mid in ids:
        _same_as_rebuilt(r, mid)
        assert r.store.summary(mid).head == r.store.head(mid)  # type: ignore[union-attr]
    r.store.close()


def test_matches_pages_and_prints_plain_lines_when_piped(cli):
    made = [cli("new", "by_all_means", "--players", "ann,ben", "--title", f"t{i}", "--json").json["id"]
            for i in range(5)]
    listed = [m["id"] for m in cli("matches", "--json").json]
    assert sorted(listed) == sorted(made)
    assert [m["id"] for m in cli("matches", "--limit", "2", "--json").json] == listed[:2]
    assert [m["id"] for m in cli("matches", "--limit", "2", "--offset", "2", "--json").json] == listed[2:4]
    assert [m["id"] for m in cli("matches", "--offset", "4", "--json").json] == listed[4:]
    assert cli("matches", "--offset", "9", "--json").json == []
    assert cli("matches", "--limit", "-1").code == 2
    out = cli("matches", "--limit", "3").out.splitlines()
    assert out[0].startswith("# id\tgame\tplayers\tentries\tstatus") and out[-1].startswith("# created*")
    rows = [line.split("\t") for line in out[1:-1]]
    assert [row[0] for row in rows] == listed[:3]
    assert all(row[1:5] == ["by_all_means", "ann, ben", "0", "playing"] for row in rows)


def test_a_title_with_tabs_stays_on_its_line(cli):
    mid = cli("new", "by_all_means", "--players", "ann,ben", "--title", "a\ttab", "--json").json["id"]
    out = cli("matches").out.splitlines()
    assert len(out) == 3 and out[1].split("\t")[0] == mid and "a tab" in out[1]


def test_memory_store_summaries_match_the_service():
    r = Referee(MemoryStore())
    m = r.new_match("by_all_means", ["alice", "bob"], seed=7)
    r.submit(m.id, "alice", "draw_opening_hand")
    assert [i.id for i in r.matches()] == [m.id] and r.matches()[0].head == 1


def test_open_round_standings_read_summaries_not_the_matches(db_store, monkeypatch):
    """A finished table of the round being played counts in the standings from its match's summary: no
    match is shown (bound and folded) to read it."""
    from referee.tournament.service import Tournaments
    from schemas import Outcome

    r = Referee(db_store)
    t = Tournaments(r)
    cup = t.create("Cup", "by_all_means", rounds=2, seed=1, players=["ann", "ben", "cat", "dan"])
    paired = t.pair(cup.id, tokens=False)
    first = paired.tables[0]
    assert first.match_id is not None and r.store.summary(first.match_id) is not None  # written with the round
    won = Outcome(winners=(first.seats[1],), reason="full_field")
    kept = r.store.summary(first.match_id)
    r.store.put_summaries([msgspec.structs.replace(kept, status=OVER, outcome=msgspec.json.encode(won))])

    def no_show(*_a, **_k):
        raise AssertionError("a match was shown")

    monkeypatch.setattr(Referee, "show", no_show)
    table = t.standings(cup.id)
    points = {row.player: row.values[0] for row in table.rows}
    assert points[first.seats[1]] == 3 and points[first.seats[0]] == 0
    assert table.pending == [(1, paired.tables[1].table)]


def test_a_page_of_matches_reads_only_its_page_with_forks_under_their_parents(cli, monkeypatch):
    """``matches --limit`` asks the store for the page alone (forks placed under their parents by its
    query): as many summaries are read as are listed, and the page is that of the whole listing."""
    from referee.store import base

    made = [cli("new", "by_all_means", "--players", "ann,ben", "--title", f"t{i}", "--json").json["id"] for i in range(4)]
    assert cli("play", made[0], "ann", "draw_opening_hand").code in (0, 1)  # an entry either way
    fork = cli("fork", made[0], "--at", "1", "--json")
    assert fork.code == 0, fork.err
    whole = cli("matches", "--json").json
    assert [m["depth"] for m in whole].count(1) == 1 and whole[[m["id"] for m in whole].index(made[0]) + 1]["depth"] == 1
    read: list[str] = []
    real = base.summary_from_row
    monkeypatch.setattr(base, "summary_from_row", lambda r: read.append(r[0]) or real(r))
    page = cli("matches", "--limit", "2", "--offset", "1", "--json").json
    assert page == whole[1:3] and len(read) == 2
    assert cli("matches", "--status", "playing", "--json").json == [m for m in whole if m["status"] == "playing"]
