"""``referee db copy``: SQLite to PostgreSQL and back, verbatim (audit heads equal), resumable, and a
target that differs is refused, naming the match or tournament; tournaments (events, tokens) and the
digests of imported transcripts are copied too."""

from __future__ import annotations

import msgspec

from conftest import ROOT
from referee.dbcopy import copy_matches
from referee.store import StoredToken, StoredTournamentToken, open_store

OPENING = ["draw_opening_hand", "cards=TR1,TR2,AG1,PL2"]


def _hall(cli, db):
    """Two matches (one with an annotation and a token hash) and a fork of one, in ``db``."""
    ids = []
    for _ in range(2):
        made = cli("new", "by_all_means", "--players", "alice,bob", "--cards", "spec", "--db", db)
        assert made.code == 0, made.err
        ids.append(made.last_line)
    assert cli("play", ids[0], "alice", *OPENING, "--db", db).code == 0
    assert cli("play", ids[0], "bob", "draw_opening_hand", "cards=TR3,AG2,PL1,PL3", "--db", db).code in (0, 1)
    assert cli("annotate", ids[0], "1", "fine opening", "--by", "arbiter", "--db", db).code == 0
    assert cli("fork", ids[0], "--at", "1", "--db", db).code == 0
    store = open_store(db)
    store.add_tokens([StoredToken(token_hash="ab" * 32, match_id=ids[0], role="arbiter")])
    store.close()
    return ids


def _heads(cli, db):
    audit = cli("audit", "--all", "--json", "--db", db)
    assert audit.code == 0, audit.err
    return sorted((a["match_id"], a["head_hash"], a["entries"], a["annotations"]) for a in audit.json)


def test_sqlite_to_postgresql_and_back_is_verbatim(cli, tmp_path, pg_url):
    source, back = str(tmp_path / "hall.db"), str(tmp_path / "back.db")
    ids = _hall(cli, source)
    there = cli("db", "copy", source, pg_url)
    assert there.code == 0, there.err
    assert "copied 3 matches (3 new" in there.out
    assert cli("db", "copy", pg_url, back).code == 0
    heads = _heads(cli, source)
    assert len(heads) == 3 and heads == _heads(cli, pg_url) == _heads(cli, back)
    a, b = open_store(source), open_store(pg_url)
    for mid in [m.id for m in a.list_matches()]:
        assert list(b.entries(mid)) == list(a.entries(mid))
        assert b.snapshots(mid) == a.snapshots(mid) and b.tokens(mid) == a.tokens(mid)
        assert b.requests(mid) == a.requests(mid) and b.annotations(mid) == a.annotations(mid)
    assert b.find_token("ab" * 32).match_id == ids[0]
    again = cli("db", "copy", source, pg_url, "--json")
    assert again.json["up_to_date"] == 3 and again.json["entries"] == 0


def test_a_copy_resumes_where_it_stopped_and_refuses_a_target_that_differs(cli, tmp_path, pg_url):
    source = str(tmp_path / "hall.db")
    ids = _hall(cli, source)
    src, dst = open_store(source), open_store(pg_url)
    first = src.get_match(ids[0])
    # a copy cut short: the match and its first entry only
    dst.create_match(first)
    dst.append(next(src.entries(first.id)), first.fork_seq or 0)
    report = copy_matches(src, dst)
    assert report.created == 2 and report.entries == sum(src.head(m.id) - (m.fork_seq or 0) for m in src.list_matches()) - 1
    assert _heads(cli, source) == _heads(cli, pg_url)
    # the source moves on: the next copy writes just that
    assert cli("annotate", ids[0], "1", "late note", "--by", "arbiter", "--db", source).code == 0
    assert cli("play", ids[1], "alice", *OPENING, "--db", source).code == 0
    later = copy_matches(src, dst)
    assert (later.annotations, later.entries, later.created, later.up_to_date) == (1, 1, 0, 1)
    assert _heads(cli, source) == _heads(cli, pg_url)
    # a target whose log is not the source's is refused, naming the match, and left as it was
    forged = str(tmp_path / "forged.db")
    f = open_store(forged)
    f.create_match(first)
    f.append(msgspec.structs.replace(next(src.entries(first.id)), hash="f" * 64), first.fork_seq or 0)
    f.close()
    refused = cli("db", "copy", source, forged)
    assert refused.code == 5 and f"match {first.id}: entry 1" in refused.err and "not copied" in refused.err
    assert open_store(forged).head(first.id) == 1


def test_copying_from_nowhere_says_so(cli, tmp_path, pg_url):
    missing = cli("db", "copy", str(tmp_path / "absent.db"), pg_url)
    assert missing.code != 0 and "absent.db" in missing.err


# -- tournaments and transcript digests -----------------------------------------------------------------


def _cups(cli, db):
    """A tournament with two rounds' worth of records (pairing with match tokens, a result, a rename),
    and a match imported from a transcript (its digest recorded), in ``db``."""
    made = cli("tournament", "new", "Copy Cup", "--game", "by_all_means", "--rounds", "2", "--players",
               "ann,ben,cy,dee", "--db", db)
    assert made.code == 0, made.err
    tid = made.last_line.strip()
    assert cli("tournament", "pair", tid, "--db", db).code == 0
    assert cli("tournament", "result", tid, "1", "1", "draw", "--db", db).code == 0
    assert cli("tournament", "player", "rename", tid, "ann", "Ann B.", "--db", db).code in (0, 2)
    imported = cli("import", f"{ROOT}/replays/by_all_means/club-night.txt", "--db", db)
    assert imported.code in (0, 1), imported.err
    store = open_store(db)  # the tokens an HTTP creation would have answered (hashes)
    store.add_tournament_tokens([StoredTournamentToken(token_hash="cd" * 32, tournament_id=tid, role="organiser"),
                                 StoredTournamentToken(token_hash="ef" * 32, tournament_id=tid, role="player", player="ben")])
    store.close()
    return tid


def _tournament_record(cli, db, tid):
    log = cli("tournament", "log", tid, "--json", "--db", db)
    audit = cli("tournament", "audit", tid, "--json", "--db", db)
    assert log.code == 0 and audit.code in (0, 1), (log.err, audit.err)
    return log.out, audit.out


def test_tournaments_and_transcript_digests_are_copied_verbatim_both_ways(cli, tmp_path, pg_url):
    source, back = str(tmp_path / "hall.db"), str(tmp_path / "back.db")
    tid = _cups(cli, source)
    there = cli("db", "copy", source, pg_url, "--json")
    assert there.code == 0, there.err
    assert (there.json["tournaments"], there.json["tournaments_created"], there.json["transcripts"]) == (1, 1, 1)
    assert there.json["tournament_events"] > 3 and there.json["tournament_tokens"] == 2
    assert cli("db", "copy", pg_url, back).code == 0
    stores = [open_store(db) for db in (source, pg_url, back)]
    a = stores[0]
    for b in stores[1:]:
        assert b.list_tournaments() == a.list_tournaments()
        assert b.tournament_events(tid) == a.tournament_events(tid)  # bodies, hashes, clock readings
        assert b.tournament_tokens(tid) == a.tournament_tokens(tid)
        assert b.transcripts() == a.transcripts() and len(a.transcripts()) == 1
        digest, mid = a.transcripts()[0]
        assert b.find_transcript(digest) == [mid]
    for s in stores:
        s.close()
    record = _tournament_record(cli, source, tid)
    assert _tournament_record(cli, pg_url, tid) == record == _tournament_record(cli, back, tid)
    assert _heads(cli, source) == _heads(cli, pg_url) == _heads(cli, back)
    again = cli("db", "copy", source, pg_url, "--json").json
    assert (again["tournaments_created"], again["tournament_events"], again["tournament_tokens"], again["transcripts"]) == (0, 0, 0, 0)
    # importing the transcript again into the copy finds the match it holds, as in the source
    imported = cli("import", f"{ROOT}/replays/by_all_means/club-night.txt", "--db", pg_url)
    assert imported.code == 0 and "already" in imported.out + imported.err, imported.out + imported.err


def test_a_tournament_copy_resumes_and_one_that_differs_is_refused(cli, tmp_path, pg_url):
    source = str(tmp_path / "hall.db")
    tid = _cups(cli, source)
    src, dst = open_store(source), open_store(pg_url)
    cup, events = src.get_tournament(tid), src.tournament_events(tid)
    dst.create_tournament(cup, events[:1])  # a copy cut short: the row and its first event only
    report = copy_matches(src, dst)
    assert (report.tournaments_created, report.tournament_events) == (0, len(events) - 1)
    assert dst.tournament_events(tid) == events and dst.tournament_tokens(tid) == src.tournament_tokens(tid)
    # the tournament moves on in the source: the next copy writes just that
    assert cli("tournament", "result", tid, "1", "2", "draw", "--db", source).code == 0
    later = copy_matches(src, dst)
    assert later.tournament_events == 1 and dst.tournament_events(tid) == src.tournament_events(tid)
    # a target whose record is not the source's is refused, naming the tournament, and left as it was
    forged = str(tmp_path / "forged.db")
    f = open_store(forged)
    f.create_tournament(cup, [msgspec.structs.replace(events[0], hash="f" * 64)])
    f.close()
    refused = cli("db", "copy", source, forged)
    assert refused.code == 5 and f"tournament {tid}" in refused.err and "not copied" in refused.err
    assert len(open_store(forged).tournament_events(tid)) == 1
    src.close()
    dst.close()


# -- summaries ------------------------------------------------------------------------------------------


def test_summaries_are_copied_with_their_matches_and_kept_up_to_date(cli, tmp_path, db, pg_server):
    """The source on each backend, the target on the other: each match's summary arrives as the source keeps
    it (with its last entry, or with the match for a fork without entries of its own); a copy cut short before
    summaries were copied writes them on the next run; an entry played later brings its new summary."""
    target_db = pg_server.fresh() if not db.startswith("postgresql") else str(tmp_path / "target.db")
    ids = _hall(cli, db)
    src, dst = open_store(db), open_store(target_db)
    assert src.unsummarised() == []
    # a copy made before summaries were copied: the matches and their entries, no summary
    first = src.get_match(ids[0])
    dst.create_match(first)
    for entry in src.entries(first.id):
        dst.append(entry, entry.seq - 1)
    assert dst.summary(first.id) is None
    there = cli("db", "copy", db, target_db, "--json")
    assert there.code == 0, there.err
    assert there.json["summaries"] == 3 and there.json["up_to_date"] == 0
    assert dst.summaries() == src.summaries() and len(src.summaries()) == 3 and dst.unsummarised() == []
    listed = cli("matches", "--json", "--db", target_db)
    assert listed.code == 0 and listed.json == cli("matches", "--json", "--db", db).json
    assert cli("play", ids[1], "alice", *OPENING, "--db", db).code == 0
    later = cli("db", "copy", db, target_db, "--json").json
    assert (later["entries"], later["summaries"], later["up_to_date"]) == (1, 1, 2)
    assert dst.summary(ids[1]) == src.summary(ids[1]) and dst.summary(ids[1]).head == 1
    again = cli("db", "copy", db, target_db, "--json").json
    assert (again["summaries"], again["up_to_date"]) == (0, 3)
    assert _heads(cli, db) == _heads(cli, target_db)
    src.close()
    dst.close()
