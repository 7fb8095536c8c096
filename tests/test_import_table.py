"""A transcript reaches its table (issue 24 item 1): ``referee import sheet.txt --table T:ROUND:TABLE``, or
header lines naming a tournament's table, and the organiser's upload over HTTP attach the adjudicated match
to that paired table; standings, audit, export and the hall read its result from the log as a digital
table's. Bad input of any kind: one message, a non-zero exit (4xx over HTTP), nothing written. On both
store backends."""

from __future__ import annotations

import json
import os
import re

import pytest

from conftest import ROOT

CLUB_NIGHT = os.path.join(ROOT, "replays", "by_all_means", "club-night.txt")
PLAYERS = ("ann", "ben", "cy", "dee")


def sheet(first: str, second: str, *, meta: str = "", drop: int | None = None) -> str:
    """The bundled club night (alice beats bob, 4 lines rejected) as ``first`` v ``second``'s game, its
    event/round/table header lines replaced by ``meta``; ``drop``: leave that line out (a changed sheet)."""
    text = open(CLUB_NIGHT, encoding="utf-8").read()
    names = {"alice": first, "bob": second}
    text = re.sub(r"\b(alice|bob)\b", lambda m: names[m.group(1)], text)
    lines = [x for x in text.splitlines() if not x.startswith(("event:", "round:", "table:"))]
    if drop is not None:
        del lines[drop]
    at = next(i for i, x in enumerate(lines) if x.startswith("date:"))
    lines[at + 1:at + 1] = [m for m in meta.splitlines() if m]
    return "\n".join(lines) + "\n"


@pytest.fixture
def cup(cli, db, tmp_path):
    """A four-player Swiss cup of By All Means on ``db``, round 1 paired: (run, tournament id, tables);
    ``run.db`` is the database."""

    def run(*args):
        return cli("--db", db, *args)

    run.db = db  # type: ignore[attr-defined]

    made = run("tournament", "new", "Club", "--game", "by_all_means", "--rounds", "3", "--seed", "7",
               "--players", ",".join(PLAYERS))
    assert made.code == 0, made.err
    tid = made.last_line
    assert run("tournament", "pair", tid, "--no-tokens").code == 0
    shown = json.loads(run("tournament", "show", tid, "--json").out)
    tables = {t["table"]: t for t in shown["round"][0]["tables"]}
    return run, tid, tables


def _write(tmp_path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def _state(run, tid):
    """What a refusal must leave as it was: the tournament's record and every match."""
    log = run("tournament", "log", tid, "--json").out
    matches = run("matches", "--json").out
    return log, matches


def test_two_tables_imported_reach_the_standings_and_the_audit_stays_clean(cup, tmp_path):
    run, tid, tables = cup
    for n, t in tables.items():
        first, second = t["seats"]
        path = _write(tmp_path, f"t{n}.txt", sheet(first, second))
        done = run("import", path, "--table", f"{tid}:1:{n}")
        assert done.code == 0, done.err
        assert f"round 1 table {n}" in done.out and f"{first} won" in done.out
        assert done.last_line != t["match_id"]  # a new match, the table's from now on
    shown = json.loads(run("tournament", "show", tid, "--json").out)
    now = {t["table"]: t for t in shown["round"][0]["tables"]}
    winners = {tables[n]["seats"][0] for n in tables}
    losers = {tables[n]["seats"][1] for n in tables}
    standings = json.loads(run("tournament", "standings", tid, "--json").out)
    points = {r["player"]: r["values"]["points"] for r in standings["rows"]}
    assert {p for p, v in points.items() if v == "3"} == winners and {p for p, v in points.items() if v == "0"} == losers
    audit = run("tournament", "audit", tid)
    assert audit.code == 0 and "clean" in audit.out, audit.out
    head = standings["head"]
    assert head in audit.out
    csv = run("tournament", "export", tid, "--format", "csv").out
    assert csv.strip().splitlines()[-1] == f"head,{head}"
    for n, t in now.items():  # the table's match is the imported one: its own log gives the result
        info = json.loads(run("show", t["match_id"], "--json").out)
        assert info["outcome"]["winners"] == [tables[n]["seats"][0]]
    # the round closes from the imported logs, as from digital tables'
    assert run("tournament", "pair", tid, "--no-tokens").code == 0
    assert run("tournament", "audit", tid).code == 0
    records = json.loads(run("tournament", "log", tid, "--json").out)
    closed = next(r["event"] for r in records if r["event"]["type"] == "round_closed")
    assert {r["match_id"] for r in closed["results"]} == {t["match_id"] for t in now.values()}


def test_header_lines_naming_the_table_attach_it_and_the_same_sheet_again_writes_nothing(cup, tmp_path):
    run, tid, tables = cup
    first, second = tables[2]["seats"]
    path = _write(tmp_path, "s.txt", sheet(first, second, meta="event: Club\nround: 1\ntable: 2"))
    checked = run("import", path, "--check")
    assert checked.code == 0 and "nothing written" in checked.out and "round 1 table 2" in checked.out
    assert json.loads(run("tournament", "log", tid, "--json").out)[-1]["event"]["type"] == "round_paired"
    done = run("import", path)
    assert done.code == 0, done.err
    mid = done.last_line
    before = _state(run, tid)
    again = run("import", path)
    assert again.code == 0 and "holds this transcript already" in again.out and again.last_line == mid
    assert _state(run, tid) == before
    record = json.loads(run("tournament", "log", tid, "--json").out)[-1]
    assert record["event"]["type"] == "transcript_attached" and record["event"]["match_id"] == mid
    assert record["event"]["replaces"] == tables[2]["match_id"]
    # a header naming no tournament keeps today's behaviour: a plain match with those headers
    plain = _write(tmp_path, "p.txt", sheet(first, second, meta="event: Another night\nround: 1\ntable: 2"))
    res = run("import", plain)
    assert res.code == 0 and "Imported" in res.out and "the match of" not in res.out
    assert json.loads(run("tournament", "log", tid, "--json").out)[-1] == record


def test_header_lines_that_name_a_tournament_badly_are_refused_naming_the_line(cup, tmp_path):
    run, tid, tables = cup
    first, second = tables[1]["seats"]
    before = _state(run, tid)
    bad = run("import", _write(tmp_path, "s.txt", sheet(first, second, meta="event: Club\nround: two\ntable: 1")))
    assert bad.code == 2 and "s.txt:12: the header's event names tournament Club" in bad.err, bad.err
    assert "its round must be a round number of it, not 'two'" in bad.err
    assert run("tournament", "new", "Club", "--game", "by_all_means", "--players", "x,y").code == 0
    twice = run("import", _write(tmp_path, "s.txt", sheet(first, second, meta="event: Club\nround: 1\ntable: 1")))
    assert twice.code == 2 and "2 tournaments are called 'Club'" in twice.err, twice.err
    by_id = run("import", _write(tmp_path, "s.txt", sheet(first, second, meta=f"event: {tid}\nround: 1\ntable: 1")))
    assert by_id.code == 0 and "round 1 table 1" in by_id.out, by_id.err
    assert _state(run, tid) != before


def test_a_corrected_sheet_for_an_imported_table_is_a_revision_of_its_match(cup, tmp_path):
    """The corrected sheet imported to the same table again revises the table's match (its changed lines
    appended as corrections): no second match, the same match id at the table, the audit still clean; the
    same corrected sheet a third time changes nothing; --check of a corrected sheet writes nothing."""
    run, tid, tables = cup
    first, second = tables[1]["seats"]
    assert run("import", _write(tmp_path, "a.txt", sheet(first, second)), "--table", f"{tid}:1:1").code == 0
    mid = json.loads(run("tournament", "show", tid, "--json").out)["round"][0]["tables"][0]["match_id"]
    matches = len(json.loads(run("matches", "--json").out))
    entries = len(json.loads(run("log", mid, "--json").out))
    corrected = _write(tmp_path, "b.txt", sheet(first, second, drop=-2))  # the last close_turn struck
    before = _state(run, tid)
    assert run("import", corrected, "--table", f"{tid}:1:1", "--check").code == 0
    assert _state(run, tid) == before
    res = run("import", corrected, "--table", f"{tid}:1:1", "--by", "td")
    assert res.code == 0, res.err
    assert json.loads(run("tournament", "show", tid, "--json").out)["round"][0]["tables"][0]["match_id"] == mid
    assert len(json.loads(run("matches", "--json").out)) == matches
    log = json.loads(run("log", mid, "--json").out)
    assert len(log) > entries
    assert "corrected sheet of round 1 table 1 imported" in json.dumps(log[entries:])
    assert run("audit", mid).code == 0
    assert run("tournament", "audit", tid).code == 0
    again = _state(run, tid)
    assert run("import", corrected, "--table", f"{tid}:1:1").code == 0
    assert _state(run, tid) == again


@pytest.mark.parametrize("case", ["unknown_tournament", "unknown_round", "unknown_table", "bad_ref", "game",
                                  "seats_other", "seat_order", "disagree", "played", "arbiter", "again"])
def test_bad_input_is_one_message_and_nothing_written(cup, tmp_path, case):
    run, tid, tables = cup
    first, second = tables[1]["seats"]
    good = sheet(first, second)
    ref = f"{tid}:1:1"
    text, expect, code = good, "", 2
    if case == "unknown_tournament":
        ref, expect, code = "nope:1:1", "no tournament 'nope'", 3
    elif case == "unknown_round":
        ref, expect, code = f"{tid}:4:1", "has no round 4 paired", 3
    elif case == "unknown_table":
        ref, expect, code = f"{tid}:1:9", "round 1 has no table 9", 3
    elif case == "bad_ref":
        ref, expect = f"{tid}:one:1", "--table takes TOURNAMENT:ROUND:TABLE"
    elif case == "game":
        text, expect = good.replace("game: by_all_means", "game: copycat"), "a game of 'copycat'; Club plays by_all_means"
    elif case == "seats_other":
        stranger = next(p for p in PLAYERS if p not in (first, second))
        text = sheet(first, stranger)
        expect = f"{stranger} is not at that table; {second} is missing"
    elif case == "seat_order":
        text, expect = sheet(second, first), f"seats {first} first ({first} v {second}): write 'players: {first}, {second}'"
    elif case == "disagree":
        text = sheet(first, second, meta="event: Club\nround: 2")
        expect = f"--table {ref} names Club ({tid}) round 1 table 1, but the transcript's header says round '2'"
    elif case == "played":
        mid = tables[1]["match_id"]
        seat, intent = _a_legal_move(run, mid)
        assert run("play", mid, seat, intent).code == 0
        expect = f"is played on the system: its match {mid} has 1 entry"
    elif case == "arbiter":
        assert run("tournament", "result", tid, "1", "1", f"win:{first}").code == 0
        expect = "has a result recorded by the arbiter"
    elif case == "again":
        expect = "--again makes a second match"
    path = _write(tmp_path, "s.txt", text)
    before = _state(run, tid)
    for extra in ((), ("--check",)):
        res = run("import", path, "--table", ref, *extra, *(("--again",) if case == "again" else ()))
        assert res.code == code, (res.out, res.err)
        assert expect in res.err and res.err.count("\n") == 1 and res.out == "", res.err
    assert _state(run, tid) == before


def _a_legal_move(run, mid):
    legal = json.loads(run("legal", mid, "--json").out)
    return next((seat, xs[0]) for seat, xs in legal["legal"].items() if xs)


@pytest.mark.both_backends
def test_a_failure_between_the_match_and_the_record_leaves_neither(cup, tmp_path, monkeypatch):
    """The match, its entries, its transcript digest and the record attaching it are one transaction: the
    store failing as it writes the record (after the match's rows) leaves none of them."""
    from referee.store import open_store
    from referee.service import Referee
    from referee.tournament import attach
    from referee.tournament.service import Tournaments

    run, tid, tables = cup
    first, second = tables[2]["seats"]
    text = sheet(first, second)
    before = _state(run, tid)
    store = open_store(run.db)
    try:
        referee = Referee(store)
        t = Tournaments(referee)
        boom = RuntimeError("the disk went away")

        def failing(*args, **kwargs):
            raise boom

        name = "_insert_tournament_events" if hasattr(store, "_insert_tournament_events") else "_insert_tournament_event"
        monkeypatch.setattr(store, name, failing)
        with pytest.raises(RuntimeError):
            attach.attach_text(t, text, table=f"{tid}:1:2", source="s.txt", base_dir=str(tmp_path))
        monkeypatch.undo()
    finally:
        store.close()
    assert _state(run, tid) == before
    done = run("import", _write(tmp_path, "s.txt", text), "--table", f"{tid}:1:2")  # and it imports afterwards
    assert done.code == 0, done.err



# -- over HTTP: the organiser uploads a table's transcript ----------------------------------------------------

ADMIN = "the-server-admin-token"


def _bearer(token):
    return {"Authorization": f"Bearer {token}"}


@pytest.fixture
def hall(db_store):
    """A server on ``db_store`` with a By All Means cup of four, round 1 paired: (client, store, tid, tokens,
    tables)."""
    from referee.service import Referee
    from support.apps import app_client

    with app_client(lambda: Referee(db_store), admin_token=ADMIN) as c:
        made = c.post("/tournaments", headers=_bearer(ADMIN), json={
            "name": "Club", "game": "by_all_means", "rounds": 3, "seed": 7, "players": list(PLAYERS)}).json()
        tid, tokens = made["tournament"], made["tokens"]
        paired = c.post(f"/tournaments/{tid}/pair", json={}, headers=_bearer(tokens["organiser"]))
        assert paired.status_code == 201, paired.text
        yield c, db_store, tid, tokens, {t["table"]: t for t in paired.json()["tables"]}


def _error(answer, status, code):
    assert answer.status_code == status, answer.text
    body = answer.json()
    assert set(body) - {"said"} == {"code", "message", "detail"} and body["code"] == code, body
    return body


def _written(store, tid):
    return len(store.tournament_events(tid)), len(store.list_matches())


def test_the_organiser_uploads_a_tables_transcript_and_the_standings_and_hall_show_it(hall):
    c, store, tid, tokens, tables = hall
    org = _bearer(tokens["organiser"])
    url = f"/tournaments/{tid}/rounds/1/tables/{{}}/transcript"
    one, two = (tables[n]["seats"] for n in (1, 2))
    before = _written(store, tid)
    checked = c.post(url.format(2), json={"text": sheet(*two), "check": True}, headers=org)
    assert checked.status_code == 200 and checked.json()["checked"] and not checked.json()["attached"]
    assert _written(store, tid) == before
    done = c.post(url.format(1), json={"text": sheet(*one), "reason": "the score sheet of table 1"}, headers=org)
    assert done.status_code == 201, done.text
    body = done.json()
    assert body["attached"] and body["replaces"] == tables[1]["match_id"] and body["result"]["winners"] == [one[0]]
    assert body["result_words"].startswith(f"{one[0]} won")
    problems = body["summary"]["problems"]
    assert [p["line"] for p in problems] == [19, 74, 91, 94] and problems[0]["entry"] == 8
    again = c.post(url.format(1), json={"text": sheet(*one)}, headers=org)
    assert again.status_code == 200 and again.json()["match_id"] == body["match_id"] and not again.json()["attached"]
    plain = c.post(url.format(2), content=sheet(*two).encode(), headers={**org, "Content-Type": "text/plain"})
    assert plain.status_code == 201 and plain.json()["attached"], plain.text
    standings = c.get(f"/tournaments/{tid}/standings", headers=_bearer(tokens["spectator"])).json()
    points = {r["player"]: r["values"]["points"] for r in standings["rows"]}
    assert points == {one[0]: "3", two[0]: "3", one[1]: "0", two[1]: "0"}
    audit = c.get(f"/tournaments/{tid}/audit", headers=org).json()
    assert audit["clean"] is True and audit["head"] == standings["head"]
    snapshot = c.get(f"/tournaments/{tid}/events", params={"follow": "false"}, headers=_bearer(tokens["spectator"]))
    hall_ids = {t["match_id"] for t in json.loads(snapshot.text.split("data: ", 1)[1].split("\n", 1)[0])
                ["pairings"]["rounds"][0]["tables"]}
    assert body["match_id"] in hall_ids and tables[1]["match_id"] not in hall_ids
    record = next(r for r in c.get(f"/tournaments/{tid}/log", headers=org).json()
                  if r["event"].get("match_id") == body["match_id"])
    assert record["event"]["type"] == "transcript_attached" and record["why"] == "the score sheet of table 1"


def test_an_upload_is_the_organisers_and_bad_input_is_a_4xx_with_nothing_written(hall):
    c, store, tid, tokens, tables = hall
    org = _bearer(tokens["organiser"])
    url = f"/tournaments/{tid}/rounds/1/tables/1/transcript"
    first, second = tables[1]["seats"]
    good = sheet(first, second)
    before = _written(store, tid)
    _error(c.post(url, json={"text": good}, headers=_bearer(tokens["spectator"])), 403, "auth/forbidden")
    _error(c.post(url, json={"text": good}, headers=_bearer(tokens["players"][first])), 403, "auth/forbidden")
    _error(c.post(url, json={"text": good}), 401, "auth/missing")
    _error(c.post(url, json={"text": sheet(second, first)}, headers=org), 422, "tournament/wrong_seats")
    _error(c.post(f"/tournaments/{tid}/rounds/1/tables/7/transcript", json={"text": good}, headers=org), 404,
           "tournament/no_table")
    _error(c.post(url, json={"text": good, "check": "true"}, headers=org), 400, "request/invalid")
    _error(c.post(url, json={"text": good, "extra": 1}, headers=org), 400, "request/invalid")
    _error(c.post(url, content=b"game: by_all_means\xff", headers={**org, "Content-Type": "text/plain"}), 400,
           "request/bad_encoding")
    named = _error(c.post(url, json={"text": good.replace("cards: demo", "cards: ../cards.toml")}, headers=org), 422,
                   "cards/not_bundled")
    assert "never reads a file" in named["message"]
    assert _written(store, tid) == before


def test_import_table_in_client_mode_uploads_through_the_server(cli, db, db_store, tmp_path):
    """``referee --server URL --token ORGANISER import sheet.txt --table T:1:2`` sends the transcript to the
    server, which attaches it as a local import does; a player's token is refused with the server's code."""
    from referee.service import Referee
    from support.apps import live_server

    with live_server(lambda: Referee(db_store), admin_token=ADMIN) as server:
        url = ("--server", server.url)
        made = cli(*url, "--token", ADMIN, "tournament", "new", "Club", "--game", "by_all_means", "--seed", "7",
                   "--players", ",".join(PLAYERS), "--json")
        assert made.code == 0, made.err
        tid, tokens = made.json["tournament"], made.json["tokens"]
        org = (*url, "--token", tokens["organiser"])
        paired = cli(*org, "tournament", "pair", tid, "--json")
        first, second = paired.json["tables"][1]["seats"]
        path = _write(tmp_path, "s.txt", sheet(first, second))
        refused = cli(*url, "--token", tokens["players"][first], "import", path, "--table", f"{tid}:1:2")
        assert refused.code != 0 and "only the organiser may upload a table's transcript" in refused.err
        checked = cli(*org, "import", path, "--table", f"{tid}:1:2", "--check")
        assert checked.code == 0 and "nothing written" in checked.out, checked.err
        done = cli(*org, "import", path, "--table", f"{tid}:1:2")
        assert done.code == 0 and f"{first} won" in done.out, done.err
        shown = cli(*org, "tournament", "show", tid, "--json").json
        assert shown["round"][0]["tables"][1]["match_id"] == done.last_line
