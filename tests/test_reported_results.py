"""Results reported by the seats (issue 26, item 5): a table played on cardboard without move entry gets its
result when every seat has reported the same one (a ``result_reported`` record each, then ``result_agreed``);
reports that differ go to the organiser's console, whose result settles the table; the standings, the
export and the audit count an agreed result as an organiser's. Each test runs on SQLite and PostgreSQL."""

from __future__ import annotations

import json

import msgspec
import pytest

from referee.errors import BadInput
from referee.service import Referee
from referee.store import open_store
from referee.tournament import events as ev
from referee.tournament.access import Entrant, TournamentAccess
from referee.tournament.api import LocalTournaments
from referee.tournament.hall import snapshot
from schemas.tournament import CreateTournament, PairRequest, ReportRequest, ResultRequest


def _cup(store, game: str = "by_all_means", players=("ann", "ben", "cy", "dee"), **extra):
    api = LocalTournaments(Referee(store))
    state = api.create_state(CreateTournament(name="Cardboard cup", game=game, rounds=2, seed=7,
                                              players=list(players), **extra))
    paired = api.pair(state.id, PairRequest(tokens=False))
    return api, state.id, paired.tables


def _report(api, tid, rnd, table, seat, result, **kw):
    return api.report(tid, rnd, table, ReportRequest(result=result, seat=seat, **kw), by="scorekeeper")


def _points(api, tid) -> dict[str, str]:
    return {r.player: r.values["points"] for r in api.standings(tid, after_round=1).rows}


def _table(api, tid, number):
    return next(t for t in api.pairings(tid, 1).rounds[0].tables if t.table == number)


def test_two_seats_agree_and_the_result_counts_and_survives_a_restart(db, db_store):
    api, tid, tables = _cup(db_store)
    a, b = tables[0].seats
    first = _report(api, tid, 1, 1, a, f"win:{a}")
    assert first.written and not first.agreed and not first.disagree and first.waiting == [b]
    assert _table(api, tid, 1).result is None and _points(api, tid)[a] == "0"
    done = _report(api, tid, 1, 1, b, f"win:{a}")
    assert done.agreed and done.written and done.result and done.result.startswith(f"{a} won")
    assert _points(api, tid)[a] == "3" and done.standings is not None
    row = _table(api, tid, 1)
    assert row.source == "reported" and [r.player for r in row.reports] == [a, b]
    kinds = [r.event["type"] for r in api.log(tid)][-3:]
    assert kinds == ["result_reported", "result_reported", "result_agreed"]
    assert api.audit(tid).clean
    exported = json.loads(api.export(tid, "json", after_round=1))
    found = next(t for t in exported["rounds"][0]["tables"] if t["table"] == 1)
    assert found["source"] == "reported"
    assert "reported by the seats" in api.export(tid, "md", after_round=1)

    again = LocalTournaments(Referee(open_store(db)))  # another process opens the database: the same record
    assert _points(again, tid) == _points(api, tid) and _table(again, tid, 1).source == "reported"
    assert again.audit(tid).clean and again.audit(tid).head == api.audit(tid).head


def test_a_seat_changes_its_report_and_an_unchanged_one_writes_nothing(db_store):
    api, tid, tables = _cup(db_store)
    a, b = tables[0].seats
    _report(api, tid, 1, 1, a, f"win:{a}")
    same = _report(api, tid, 1, 1, a, f"win:{a}")
    assert not same.written and same.records == api.show(tid).records
    split = _report(api, tid, 1, 1, b, f"win:{b}")
    assert split.disagree and not split.agreed
    changed = _report(api, tid, 1, 1, a, f"win:{b}", reason="I misread the sheet")  # the latest counts
    assert changed.agreed and _points(api, tid)[b] == "3" and _points(api, tid)[a] == "0"
    assert [r.event["type"] for r in api.log(tid)].count("result_reported") == 3
    assert api.audit(tid).clean


def test_a_disagreement_goes_to_the_organiser_who_settles_it(db_store):
    api, tid, tables = _cup(db_store)
    a, b = tables[1].seats
    _report(api, tid, 1, 2, a, f"win:{a}")
    access = TournamentAccess(Referee(db_store))
    snap = msgspec.to_builtins(snapshot(access, Entrant(tournament=tid, role="organiser")))
    state = next(t for t in snap["tables"] if t["table"] == 2)
    assert (state["state"], state["why"]) == ("playing", f"{a} reported win:{a}; waiting for {b}")
    assert snap["console"]["to_confirm"] == []
    _report(api, tid, 1, 2, b, f"win:{b}")
    row = _table(api, tid, 2)
    assert row.disagree and row.result is None
    assert any(x.table == 2 and "disagree" in x.why for x in api.pairings(tid).blocks)
    snap = msgspec.to_builtins(snapshot(access, Entrant(tournament=tid, role="organiser")))
    state = next(t for t in snap["tables"] if t["table"] == 2)
    assert state["state"] == "disagree" and f"{a} reported win:{a}" in state["why"]
    [confirm] = snap["console"]["to_confirm"]
    assert (confirm["round"], confirm["table"]) == (1, 2)
    assert [(s["typed"], s["players"]) for s in confirm["sides"]] == [(f"win:{a}", [a]), (f"win:{b}", [b])]
    # a spectator sees that both reported, nothing of what; no console
    public = msgspec.to_builtins(snapshot(access, Entrant(tournament=tid, role="spectator")))
    seen = next(t for t in public["tables"] if t["table"] == 2)
    assert seen["state"] == "playing" and [r["result"] for r in seen["reports"]] == ["reported", "reported"]
    assert "console" not in public and f"win:{a}" not in json.dumps(public)

    settled = api.result(tid, ResultRequest(round=1, table=2, result=confirm["sides"][1]["typed"],
                                            reason="the slips say so"), by="organiser")
    assert any(c.player == a and c.rank_after > 1 for c in settled.changed)
    assert _table(api, tid, 2).source == "arbiter" and _points(api, tid)[b] == "3"
    snap = msgspec.to_builtins(snapshot(access, Entrant(tournament=tid, role="organiser")))
    assert snap["console"]["to_confirm"] == []
    with pytest.raises(BadInput) as refused:
        _report(api, tid, 1, 2, a, f"win:{b}")
    assert refused.value.code == "tournament/has_result" and "corrects it" in refused.value.message
    assert api.audit(tid).clean


def test_a_pod_of_three_agrees_on_its_placing(db_store):
    api, tid, tables = _cup(db_store, game="war_of_shadows", players=("ann", "ben", "cy"), format="pods",
                            table_size=3)
    [table] = tables
    x, y, z = table.seats
    for seat in (x, y):
        assert not _report(api, tid, 1, 1, seat, f"rank:{z}>{x}>{y}").agreed
    done = _report(api, tid, 1, 1, z, f"rank:{z}>{x}>{y}")
    assert done.agreed
    points = _points(api, tid)
    assert (points[z], points[x], points[y]) == ("2", "1", "0")
    assert api.audit(tid).clean


def test_reports_are_refused_with_a_clear_code_and_nothing_written(db_store):
    api, tid, tables = _cup(db_store)
    a, b = tables[0].seats
    other = tables[1].seats[0]
    n = api.show(tid).records
    for args, code in [((1, 1, other, f"win:{a}"), "tournament/not_seated"),
                       ((1, 1, a, "win:nobody"), "tournament/bad_result"),
                       ((2, 1, a, f"win:{a}"), "tournament/no_table"),
                       ((1, 9, a, f"win:{a}"), "tournament/no_table")]:
        with pytest.raises(Exception) as refused:
            _report(api, tid, *args)
        assert getattr(refused.value, "code", None) == code, (args, refused.value)
    assert api.show(tid).records == n
    _report(api, tid, 1, 1, a, "draw")
    _report(api, tid, 1, 1, b, "draw")
    with pytest.raises(BadInput) as refused:
        _report(api, tid, 1, 1, a, f"win:{a}")
    assert refused.value.code == "tournament/has_result" and "agreed by the seats" in refused.value.message
    # the organiser corrects an agreed result, as any other
    fixed = api.result(tid, ResultRequest(round=1, table=1, result=f"win:{a}", correct=True, reason="misread"),
                       by="organiser")
    assert fixed.records == api.show(tid).records and _points(api, tid)[a] == "3"


def test_the_audit_finds_an_agreement_the_reports_do_not_make(db_store):
    api, tid, tables = _cup(db_store)
    a, b = tables[0].seats
    _report(api, tid, 1, 1, a, f"win:{a}")
    service = api.service
    state = service.load(tid)
    forged = msgspec.structs.replace(state.reports[(1, 1)][a][0])
    service.append(state, [ev.ResultAgreed(round=1, table=1, outcome=forged, reports=(state.n,))], "someone", "")
    found = api.audit(tid).findings
    assert any("round 1 table 1: agreed on reports" in f for f in found), found
    # and a report written behind the service's back after the table's result counted
    state = service.load(tid)
    service.append(state, [ev.ResultReported(round=1, table=1, player=b, outcome=forged)], "someone", "")
    found = api.audit(tid).findings
    assert any("a result reported after the table's result counted" in f for f in found), found


def test_the_cli_reports_locally_and_shows_the_reports(cli, db, monkeypatch):
    monkeypatch.setenv("REFEREE_DB", db)
    made = cli("tournament", "new", "Paper night", "--game", "by_all_means", "--rounds", "1", "--seed", "7",
               "--players", "ann,ben", "--json")
    assert made.code == 0, made.err
    tid = made.json["tournament"] if "tournament" in made.json else made.json["id"]
    assert cli("tournament", "pair", tid, "--no-tokens").code == 0
    seats = cli("tournament", "show", tid, "--json").json["round"][0]["tables"][0]["seats"]
    a, b = seats
    one = cli("tournament", "report", tid, "--round", "1", "--table", "1", "--seat", a, f"win:{a}")
    assert one.code == 0 and f"waiting for {b}" in one.out, one.err
    two = cli("tournament", "report", tid, "--round", "1", "--table", "1", "--seat", b, f"win:{b}")
    assert two.code == 0 and "results disagree" in two.out
    shown = cli("tournament", "show", tid)
    assert f"results disagree: {a}: win:{a}; {b}: win:{b}" in shown.out
    fixed = cli("tournament", "report", tid, "--round", "1", "--table", "1", "--seat", b, f"win:{a}", "--json")
    assert fixed.code == 0 and fixed.json["agreed"] and fixed.json["result"].startswith(f"{a} won")
    late = cli("tournament", "report", tid, "--round", "1", "--table", "1", "--seat", b, f"win:{b}")
    assert late.code == 2 and "result counts already" in late.err and "Traceback" not in late.err
    assert cli("tournament", "audit", tid).code == 0


def test_the_readme_walk_runs_as_typed(cli, db, monkeypatch):
    """The commands under "Results reported by the seats", as typed (5e1a: the id `tournament new` prints)."""
    import os
    import re
    import shlex

    from conftest import ROOT

    monkeypatch.setenv("REFEREE_DB", db)
    with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as f:
        text = f.read()
    block = text.split("* **Results reported by the seats.**", 1)[1].split("```bash", 1)[1].split("```", 1)[0]
    tid = "5e1a"
    outs = []
    for line in (re.sub(r"\s+#.*$", "", x) for x in block.strip().splitlines()):
        words = [w.replace("5e1a", tid) for w in shlex.split(line)]
        assert words[0] == "referee"
        done = cli(*words[1:])
        assert done.code == 0 and "Traceback" not in done.err, (line, done.out, done.err)
        outs.append(done.out)
        if words[1:3] == ["tournament", "new"]:
            tid = done.out.strip().splitlines()[-1]
    assert "table 1: dee v cy" in outs[1] and "table 2: ann v ben" in outs[1]
    assert "waiting for cy" in outs[2] and "the seats agree: the result counts" in outs[3]
    assert "results disagree" in outs[5] and "results disagree: ann: win:ann; ben: win:ben" in outs[6]
    assert "clean" in outs[-1]


def test_client_mode_reports_with_a_players_token_only(cli, db, db_store, monkeypatch):
    from support.apps import live_server

    monkeypatch.setenv("REFEREE_DB", db)
    with live_server(lambda: Referee(db_store), admin_token="adm") as server:
        url = ("--server", server.url)
        made = cli(*url, "--token", "adm", "tournament", "new", "Phones", "--game", "by_all_means", "--rounds", "1",
                   "--seed", "7", "--players", "ann,ben", "--json")
        assert made.code == 0, made.err
        tid, tokens = made.json["tournament"], made.json["tokens"]
        assert cli(*url, "--token", tokens["organiser"], "tournament", "pair", tid).code == 0
        a, b = cli("tournament", "show", tid, "--json").json["round"][0]["tables"][0]["seats"]
        wrong = cli(*url, "--token", tokens["players"][a], "tournament", "report", tid, "--round", "1", "--table", "1",
                    "--seat", b, f"win:{a}")
        assert wrong.code == 2 and f"not {b}'s" in wrong.err and "Traceback" not in wrong.err, (wrong.code, wrong.err)
        org = cli(*url, "--token", tokens["organiser"], "tournament", "report", tid, "--round", "1", "--table", "1",
                  "--seat", a, f"win:{a}")
        assert org.code == 2 and "organiser" in org.err
        for seat in (a, b):
            done = cli(*url, "--token", tokens["players"][seat], "tournament", "report", tid, "--round", "1",
                       "--table", "1", "--seat", seat, f"win:{a}", "--json")
            assert done.code == 0, done.err
        assert done.json["agreed"] and done.json["seat"] == b
        # the reads through the server print what they print locally
        here = cli("tournament", "show", tid, "--json").json
        there = cli(*url, "--token", tokens["organiser"], "tournament", "show", tid, "--json").json
        assert here["round"] == there["round"] and here["round"][0]["tables"][0]["source"] == "reported"
