"""Amending a line after import (issue 24, item 2): ``referee amend MATCH LINE "text" --reason --by``
appends an audited correction (an arbiter's undo back before the line, the corrected line in its place,
the later entries played again) and never edits an entry; refused with nothing written otherwise. A
tournament table's result follows the log as a recorded entry."""

from __future__ import annotations

import os
import random

import pytest

from conftest import ROOT

DEMO = os.path.join(ROOT, "replays", "by_all_means", "club-night.txt")
BY = "Jo (arbiter)"


def typo_sheet(tmp_path) -> str:
    """The club-night demo with line 105 (the last territory) mistyped: the game is not over."""
    text = open(DEMO, encoding="utf-8").read()
    good = "alice: deploy_territory card=T14 cell=B2"
    at = text.rindex(good)
    path = tmp_path / "typo.txt"
    path.write_text(text[:at] + "alice: deploy_territory card=T41 cell=B2" + text[at + len(good):], encoding="utf-8")
    return str(path)


@pytest.fixture
def run(cli, db):
    """The CLI on the backend ``db`` names (each test runs on SQLite and on PostgreSQL)."""
    return lambda *args: cli("--db", db, *args)


def test_a_finished_match_amended_early_is_no_longer_over(run):
    mid = run("import", DEMO).last_line
    before = run("log", mid, "--json").json
    assert run("show", mid, "--json").json["outcome"] is not None
    r = run("amend", mid, "18", "alice: choose_order first=alice", "--reason", "the sheet says alice went first",
            "--by", BY, "--json")
    assert r.code == 0, r.err
    out = r.json
    assert out["entry"] == 4 and out["line"] == 18 and out["undo"] == 87 and out["seq"] == 88
    assert out["sentence"] == ("line 18 amended: was `alice: choose_order first=bob`, now `alice: choose_order "
                               f"first=alice` (the sheet says alice went first, {BY})")
    # later lines are judged again: bob's territories are now out of turn; the game no longer ends
    assert any(x["changed"] and x["was"] == "accepted" and x["verdict"] == "rejected" for x in out["replayed"])
    assert out["outcome"] is None and out["outcome_before"] is not None
    after = run("log", mid, "--json").json
    # append-only: every earlier entry is as it was, but for the marks of the undo
    assert [(e["seq"], e["notation"], e["verdict"]) for e in after[:86]] == \
        [(e["seq"], e["notation"], e["verdict"]) for e in before]
    assert after[3]["undone_by"] == 87 and after[87]["meta"]["amends"] == 4
    assert after[87]["meta"]["line"] == 18 and after[87]["meta"]["amended_by"] == BY
    # the replayed entries keep their lines: line:19 names the live one
    assert after[88]["meta"]["line"] == 19
    shown = run("show", mid, "--at", "line:19", "--json").json
    assert shown["seq"] == 89
    audited = run("audit", mid)
    assert audited.code == 0, audited.out
    text = run("log", mid).out
    assert "line 18 amended: was `alice: choose_order first=bob`, now `alice: choose_order first=alice`" in text


def test_a_typo_amended_ends_the_game(run, tmp_path):
    mid = run("import", typo_sheet(tmp_path)).last_line
    assert run("show", mid, "--json").json["outcome"] is None
    r = run("amend", mid, "line:105", "deploy_territory card=T14 cell=B2", "--reason", "the sheet says T14",
            "--by", BY)
    assert r.code == 0, r.err
    assert "line 105 amended: was `alice: deploy_territory card=T41 cell=B2`" in r.out
    assert "accepted (was rejected)" in r.out  # the play_symbols on B2 now has its territory
    assert "Result: alice won" in r.out and "(was: not over)" in r.out
    assert r.last_line == mid
    assert run("show", mid, "--json").json["outcome"]["winners"] == ["alice"]
    assert run("audit", mid).code == 0
    # amended again (the line now names the correction): it is the correction that is replaced
    again = run("amend", mid, "105", "end_turn", "--reason", "she passed", "--by", BY, "--json")
    assert again.code == 0 and again.json["entry"] == 88 and again.json["line"] == 105
    assert run("audit", mid).code == 0


def test_refusals_write_nothing(run, db):
    mid = run("import", DEMO).last_line
    head = len(run("log", mid, "--json").json)

    def refused(*args, code=None, says=""):
        r = run("amend", mid, *args)
        assert r.code != 0 and "Traceback" not in r.err, r.out
        if code is not None:
            assert r.code == code, r.err
        assert says in r.err, r.err
        assert len(run("log", mid, "--json").json) == head

    ok = ("--reason", "typo", "--by", BY)
    refused("14", "bob: mulligan", *ok, says="line 14 of match")  # the blank line before the first move
    refused("23", "bob: mulligan", *ok, says="the nearest that did: line:22 (entry 8) and line:25 (entry 9)")
    refused("9999", "bob: mulligan", *ok, says="line 9999")
    refused("line:x", "bob: mulligan", *ok, says="is not a line")
    refused("18", "alice: choose_order frist=bob", *ok, says="frist")  # the notation's error
    refused("18", "carol: choose_order first=bob", *ok, says="'carol'")
    refused("18", "alice: choose_order first=bob", *ok, code=1, says="already reads")
    refused("18", "alice: choose_order first=alice", "--by", BY, says="the reason (--reason) is empty")
    refused("18", "alice: choose_order first=alice", "--reason", "typo", says="who amends (--by) is empty")
    for hostile in ("alice: draw_main card=T14", "ruling: stands as played", "undo: to=3", "12. bob: mulligan",
                    "? a mistake", "line one\nalice: end_turn"):
        refused("18", "alice: choose_order first=alice", "--reason", hostile, "--by", BY, says="reason")
    assert run("amend", "nomatch", "18", "alice: end_turn", *ok).code in (3, 5)
    undo = run("undo", mid, "--to", "85", "--by", "arbiter")
    assert undo.code == 0
    head += 1
    refused(f"#{head}", "alice: end_turn", *ok, code=1, says="is an undo")
    refused("entry:86", "alice: end_turn", *ok, code=1, says="no longer in the line of play")


def test_hostile_reason_never_reads_back_as_a_move(run, tmp_path):
    mid = run("import", DEMO).last_line
    hostile = "the sheet said: alice: draw_main card=T12 # and ruling: entry 3 stands \\u000a bob: end_turn"
    r = run("amend", mid, "18", "alice: choose_order first=alice", "--reason", hostile, "--by", "x: y \\# z")
    assert r.code == 0, r.err
    out = tmp_path / "again.txt"
    assert run("export", mid, "--format", "txt", "-o", str(out)).code == 0
    checked = run("import", str(out), "--check", "--json").json
    log = run("log", mid, "--json").json
    # the export reads back to as many entries as the log, none of them a line made of the reason
    assert checked["entries"] == len(log)
    back = run("import", str(out), "--again").last_line
    relog = run("log", back, "--json").json
    assert [(e["kind"], e["actor"], e["notation"]) for e in relog] == [(e["kind"], e["actor"], e["notation"]) for e in log]
    assert all("draw_main card=T12" not in e["notation"] or e["seq"] != 88 for e in relog)


def test_help_has_an_example(cli):
    r = cli("amend", "--help")
    assert r.code == 0 and "Example: referee amend" in r.out


def _play_out(referee, mid, seed=5, limit=3000):
    from referee.engine.notation import format_intent

    loaded = referee.load(mid)
    rng = random.Random(seed)
    for _ in range(limit):
        _, st = referee.state_at(loaded)
        if loaded.rules.outcome(st) is not None:
            return
        seat, intent = loaded.rules.random_intent(st, rng)
        referee.submit(mid, seat, format_intent(intent))
    raise AssertionError("the random game did not end")


def test_a_closed_round_table_result_follows_the_amended_log(db):
    from referee.amend import amend
    from referee.engine.notation import format_intent
    from referee.service import Referee
    from referee.store import open_store
    from referee.tournament.service import Tournaments

    store = open_store(db)
    try:
        referee = Referee(store)
        tournaments = Tournaments(referee)
        t = tournaments.create("Club", "by_all_means", players=["alice", "bob"], cards="demo", rounds=2)
        tournaments.pair(t.id)
        mid = tournaments.load(t.id).rounds[0].tables[0].match_id
        _play_out(referee, mid)
        first = referee.show(mid).outcome
        tournaments.close_round(t.id)
        assert tournaments.load(t.id).results[(1, 1)].outcome == first
        # an organiser's correction says otherwise (a draw)
        tournaments.record_result(t.id, 1, 1, "draw", correct=True, why="the sheet said draw")
        n = tournaments.load(t.id).n
        # the first line made otherwise: the game no longer ends, the table keeps its result, nothing recorded
        loaded = referee.load(mid)
        body = loaded.decoder.decode(referee.entry_at(loaded.match, 1).body)
        other = next(format_intent(i) for i in loaded.rules.legal_intents(referee.state_at(loaded, 0)[1], body.actor)
                     if format_intent(i) != body.notation)
        done = amend(referee, mid, "entry:1", f"{body.actor}: {other}", reason="typo", by="Jo")
        assert done.outcome is None and [x.status for x in done.tables] == ["unfinished"]
        assert tournaments.load(t.id).n == n and tournaments.audit(t.id) == []
        # and back as played: the game ends as it did, and the table's result follows the log again
        back = amend(referee, mid, f"entry:{done.seq}", f"{body.actor}: {body.notation}", reason="as played", by="Jo")
        assert back.outcome == first
        [follow] = back.tables
        assert (follow.status, follow.round, follow.table, follow.record) == ("corrected", 1, 1, n + 1)
        state = tournaments.load(t.id)
        assert state.results[(1, 1)].outcome == first and state.n == n + 1
        assert tournaments.audit(t.id) == []
        standings = tournaments.standings(t.id, after_round=1)
        assert standings.rows[0].player in first.winners
    finally:
        store.close()


def test_a_corrected_transcript_imported_again_is_a_revision(run, tmp_path):
    typo = typo_sheet(tmp_path)
    mid = run("import", typo).last_line
    count = len(run("matches", "--json").json)
    same = run("import", typo, "--revise", mid, "--reason", "checked", "--by", BY)
    assert same.code == 0 and "No change" in same.out and same.last_line == mid
    head = len(run("log", mid, "--json").json)
    text = open(typo, encoding="utf-8").read().replace("card=T41", "card=T14")
    text = text.replace("bob: mulligan\n", "", 1)  # line 20 struck
    fixed = tmp_path / "fixed.txt"
    fixed.write_text(text, encoding="utf-8")
    r = run("import", str(fixed), "--revise", mid, "--reason", "the sheet, checked", "--by", BY, "--json")
    assert r.code == 0, r.err
    out = r.json
    assert out["changed"] and out["undo"] == head + 1
    assert [(c["what"], c["old_line"]) for c in out["lines"]] == [("struck", 20), ("amended", 105)]
    amended = out["lines"][1]
    assert amended["line"] == 104 and amended["was"] == "alice: deploy_territory card=T41 cell=B2"
    log = run("log", mid, "--json").json
    assert log[amended["seq"] - 1]["meta"]["amends"] == amended["entry"]
    assert log[5]["undone_by"] == head + 1  # the struck line stays in the log, undone
    assert len(run("matches", "--json").json) == count  # not a second match
    assert run("audit", mid).code == 0
    # the revised text is now this match's: importing it says so, and revising again changes nothing
    assert run("import", str(fixed)).last_line == mid and len(run("matches", "--json").json) == count
    again = run("import", str(fixed), "--revise", mid, "--reason", "again", "--by", BY)
    assert "No change" in again.out and len(run("log", mid, "--json").json) == len(log)


def test_a_revision_refuses_what_it_cannot_do(run, tmp_path):
    mid = run("import", DEMO).last_line
    head = len(run("log", mid, "--json").json)
    text = open(DEMO, encoding="utf-8").read()
    other = tmp_path / "other.txt"
    other.write_text(text.replace("players: alice, bob", "players: bob, alice"), encoding="utf-8")
    r = run("import", str(other), "--revise", mid, "--reason", "x", "--by", BY)
    assert r.code == 1 and "describes another match" in r.err and "players" in r.err
    undoing = tmp_path / "undoing.txt"
    undoing.write_text(text.replace("alice: choose_order first=bob\n",
                                                "alice: choose_order first=alice\nundo: to=3 by=arbiter\n", 1), encoding="utf-8")
    r = run("import", str(undoing), "--revise", mid, "--reason", "x", "--by", BY)
    assert r.code == 1 and "undo line" in r.err
    assert run("import", DEMO, "--revise", mid, "--reason", "x").code == 2  # no --by
    assert len(run("log", mid, "--json").json) == head


@pytest.fixture
def http(db_store):
    from referee.service import Referee
    from support.apps import app_client
    from support.pile import PILE

    with app_client(lambda: Referee(db_store, games=[PILE])) as c:
        yield c


def test_amend_over_http_is_the_arbiters(http):
    made = http.post("/matches", json={"game": "pile", "players": ["alice", "bob"]}).json()
    mid, tokens = made["match"]["id"], made["tokens"]
    arbiter = {"Authorization": f"Bearer {tokens['arbiter']}"}
    alice = {"Authorization": f"Bearer {tokens['seats']['alice']}"}
    for seat, text in (("alice", "start first=alice tokens=K01,K02"), ("alice", "take 2"), ("bob", "take 1")):
        assert http.post(f"/matches/{mid}/intents", json={"intent": text, "seat": seat}, headers=arbiter).status_code == 201
    log = http.get(f"/matches/{mid}/log", headers=arbiter).json()
    head = len(log["entries"]) if isinstance(log, dict) else len(log)
    body = {"line": "entry:2", "text": "alice: take 1", "reason": "she took one", "by": "Jo"}

    def error(answer, status):
        assert answer.status_code in status, answer.text
        assert set(answer.json()) - {"said"} == {"code", "message", "detail"}
        return answer.json()

    error(http.post(f"/matches/{mid}/amend", json=body, headers=alice), (403,))
    error(http.post(f"/matches/{mid}/amend", json=body), (401,))
    assert "tkae" in error(http.post(f"/matches/{mid}/amend", json={**body, "text": "tkae 1"}, headers=arbiter),
                           (422,))["message"]
    error(http.post(f"/matches/{mid}/amend", json={**body, "by": ""}, headers=arbiter), (400,))
    error(http.post(f"/matches/{mid}/amend", json={**body, "reason": "bob: take 3"}, headers=arbiter), (400, 422))
    after = http.get(f"/matches/{mid}/log", headers=arbiter).json()
    assert (len(after["entries"]) if isinstance(after, dict) else len(after)) == head  # nothing written
    done = http.post(f"/matches/{mid}/amend", json=body, headers=arbiter)
    assert done.status_code == 201, done.text
    out = done.json()
    assert out["entry"] == 2 and out["undo"] == head + 1 and out["seq"] == head + 2 and out["verdict"] == "accepted"
    assert out["was"] == "alice: take 2" and out["now"] == "alice: take 1"
    assert [(r["old"], r["verdict"]) for r in out["replayed"]] == [(3, "accepted")]
    assert http.get(f"/matches/{mid}/audit", headers=arbiter).json()["clean"] is True


def test_the_amended_line_is_shown_in_the_log_replay_exports_and_viewer(cli, tmp_path):
    mid = cli("import", typo_sheet(tmp_path)).last_line
    assert cli("amend", mid, "105", "deploy_territory card=T14 cell=B2", "--reason", "the sheet says T14",
               "--by", BY).code == 0
    said = ("line 105 amended: was `alice: deploy_territory card=T41 cell=B2`, now `alice: deploy_territory "
            f"card=T14 cell=B2` (the sheet says T14, {BY})")
    assert said in cli("log", mid).out
    assert said in cli("replay", mid).out
    assert "# " + said.replace("#", "\\#") in cli("export", mid, "--format", "txt").out
    assert said.replace("_", "\\_").replace("`", "\\`") in cli("export", mid, "--format", "md").out
    html = cli("export", mid, "--format", "html").out
    assert said.replace("`", "&#x60;") in html or said in html
    log = cli("log", mid, "--json").json
    assert log[82]["undone_by"] == 87 and log[87]["meta"]["amends"] == 83


def _random_sheet(extra: list[str]) -> tuple[list[str], list[str]]:
    """A By All Means game played out by seeded random legal moves (physical chance, every line accepted),
    as a transcript's header and move lines, with ``extra`` lines after the last."""
    from referee.engine.notation import format_intent
    from referee.service import Referee
    from referee.store.memory import MemoryStore

    referee = Referee(MemoryStore())
    mid = referee.new_match("by_all_means", ["alice", "bob"], cards="demo", chance="physical").id
    loaded = referee.load(mid)
    rng = random.Random(5)
    moves = []
    while loaded.rules.outcome(referee.state_at(loaded)[1]) is None:
        seat, intent = loaded.rules.random_intent(referee.state_at(loaded)[1], rng)
        assert referee.submit(mid, seat, format_intent(intent)).accepted
        moves.append(f"{seat}: {format_intent(intent)}")
    return ["game: by_all_means", "players: alice, bob", "cards: demo", ""], moves + extra


def test_an_amended_typo_ends_the_game_before_the_sheet_does(run, cli, tmp_path):
    header, moves = _random_sheet(["alice: end_turn", "bob: close_turn"])
    last = len(moves) - 3  # the move that ends the game
    # a typo in an end_turn near the end that keeps the game going past its end
    for k in range(last - 1, 0, -1):
        if not moves[k].endswith(": end_turn"):
            continue
        typo = [*moves[:k], moves[k].replace("end_turn", "end_trun"), *moves[k + 1:]]
        sheet = tmp_path / f"sheet{k}.txt"
        sheet.write_text("\n".join(header + typo) + "\n", encoding="utf-8")
        if cli("import", str(sheet), "--check", "--json").json["outcome"] is None:  # (no database needed)
            break
    else:
        pytest.fail("no typo keeps the game going")
    mid = run("import", str(sheet)).last_line
    line = len(header) + k + 1
    r = run("amend", mid, str(line), moves[k], "--reason", "the sheet says end_turn", "--by", BY, "--json")
    assert r.code == 0, r.err
    out = r.json
    assert out["outcome"] is not None and out["outcome_before"] is None
    # the game now ends at the sheet's last move: the two lines after it are refused, the match being over
    tail = out["replayed"][-2:]
    assert [x["verdict"] for x in tail] == ["rejected", "rejected"] and all("over" in x["why"] for x in tail)
    assert run("audit", mid).code == 0


def test_revising_twice_after_a_correction_that_needed_no_undo(run, tmp_path):
    """A typo in the last line but one: nothing after it changes the state, so the correction follows at the
    head without an undo; a revision after it still compares against the lines as corrected."""
    header, moves = _random_sheet([])
    seat, _, text = moves[-1].partition(": ")
    typo = [*moves[:-1], f"{seat}: x{text}"]  # an unknown verb: unreadable
    sheet = tmp_path / "sheet.txt"
    sheet.write_text("\n".join(header + typo) + "\n", encoding="utf-8")
    mid = run("import", str(sheet)).last_line
    assert run("show", mid, "--json").json["outcome"] is None
    line = len(header) + len(moves)
    r = run("amend", mid, str(line), moves[-1], "--reason", "the sheet", "--by", BY, "--json")
    assert r.code == 0, r.err
    assert r.json["undo"] is None and r.json["seq"] == len(moves) + 1 and r.json["outcome"] is not None
    fixed = tmp_path / "fixed.txt"
    fixed.write_text("\n".join(header + moves) + "\n", encoding="utf-8")
    same = run("import", str(fixed), "--revise", mid, "--reason", "the sheet", "--by", BY)
    assert same.code == 0 and "No change" in same.out
    assert run("audit", mid).code == 0


def test_amend_and_revise_are_plain_functions(tmp_path):
    """What a script calls (the club night's): the line as a number, then the corrected sheet as a revision."""
    from referee.amend import amend
    from referee.revision import revise
    from referee.service import Referee
    from referee.store.memory import MemoryStore
    from referee.transcript import import_transcript

    referee = Referee(MemoryStore())
    text = open(typo_sheet(tmp_path), encoding="utf-8").read()
    mid = import_transcript(referee, text, base_dir=os.path.dirname(DEMO)).match_id
    done = amend(referee, mid, 105, "alice: deploy_territory card=T14 cell=B2", reason="the sheet", by="Jo")
    assert done.line == 105 and done.outcome is not None
    fixed = text.replace("card=T41", "card=T14")
    assert not revise(referee, mid, fixed, reason="the sheet", by="Jo", base_dir=os.path.dirname(DEMO)).changed
    again = revise(referee, mid, text, reason="as first typed", by="Jo", base_dir=os.path.dirname(DEMO))
    assert again.changed and [(c.what, c.line, c.entry) for c in again.lines] == [("amended", 105, done.seq)]
    assert referee.audit(mid).clean


def test_unreadable_lines_after_the_amended_one_stay_in_the_line(run, tmp_path):
    """An unreadable line after the one amended is kept in the line of play, read as before, so the transcript
    the match holds is still the sheet (a revision with the corrected sheet finds no change)."""
    text = open(DEMO, encoding="utf-8").read().replace("bob: end_turn\n", "bob: end_trun\n", 1)
    sheet = tmp_path / "sheet.txt"
    sheet.write_text(text, encoding="utf-8")
    mid = run("import", str(sheet)).last_line
    r = run("amend", mid, "18", "alice: choose_order first=alice", "--reason", "typo", "--by", BY, "--json")
    assert r.code == 0, r.err
    kept = [x for x in r.json["replayed"] if x["old"] == 9]
    assert kept and kept[0]["seq"] is not None and kept[0]["verdict"] == "none"
    assert run("show", mid, "--at", "line:25", "--json").json["seq"] == kept[0]["seq"]
    fixed = tmp_path / "fixed.txt"
    fixed.write_text(text.replace("alice: choose_order first=bob", "alice: choose_order first=alice"), encoding="utf-8")
    again = run("import", str(fixed), "--revise", mid, "--reason", "typo", "--by", BY)
    assert again.code == 0 and "No change" in again.out
    assert run("audit", mid).code == 0


def test_the_correction_is_chained_and_a_fresh_fold_gives_the_same_state(cli, tmp_path):
    from support.tamper import tamper

    from referee.service import Referee
    from referee.store import open_store

    path = tmp_path / "r.db"
    mid = cli("import", DEMO).last_line
    done = cli("amend", mid, "18", "alice: choose_order first=alice", "--reason", "the sheet", "--by", BY, "--json").json
    shown = cli("show", mid, "--json").json
    store = open_store(str(path))
    try:  # folded again from setup, no snapshot read: the same state
        fresh = Referee(store, use_snapshots=False)
        assert fresh.show(mid).state_hash == shown["state_hash"]
    finally:
        store.close()
    assert cli("audit", mid).code == 0
    # the correction's reason is in the hashed entry: edited behind the referee's back, the audit fails there
    tamper(path, f"UPDATE entries SET body = CAST(REPLACE(CAST(body AS TEXT), 'the sheet', 'the shoot') AS BLOB) "
                 f"WHERE match_id = '{mid}' AND seq = {done['seq']}")
    audited = cli("audit", mid, "--json")
    assert audited.code == 1 and audited.json["findings"][0]["seq"] == done["seq"]


def test_revise_takes_no_check(run):
    mid = run("import", DEMO).last_line
    r = run("import", DEMO, "--revise", mid, "--check", "--reason", "x", "--by", BY)
    assert r.code == 2 and "--revise" in r.err
