"""The tournament's HTML export and the hall's standings heading (issue 25, items 4 and 5): the export
is styled by the viewer's sheet and asks for nothing outside the page, gives each player's W-D-L as the
standings count it, names an arbiter's result once, links each table's match to the hall's live view
when a server answers it (offline: the id and the viewer command), prints the record's head and puts
hostile names on the page as text. The hall's standings are "after round N" only once round N is
complete."""

from __future__ import annotations

import html as markup
import json
import re

import pytest

from referee.service import Referee
from referee.tournament.access import Entrant, TournamentAccess
from referee.tournament.export import wdl
from referee.tournament.hall import page, snapshot
from referee.tournament.scoring import table_games
from referee.tournament.events import Points
from schemas import Outcome
from schemas.tournament import CreateTournament, PairRequest, PlayerChange, ResultRequest
from support.apps import app_client
from support.pile import PILE

HOSTILE = '<script>alert("x")</script> Eve'


@pytest.fixture
def cup(db_store):
    """A Swiss of five players (two tables and a bye each round), eve renamed to hostile text, round 1
    paired: (access, tournament id, round 1's tables)."""
    access = TournamentAccess(Referee(db_store, games=[PILE]))
    made = access.create(CreateTournament(name="<b>Cup</b> & co", game="pile", rounds=2, seed=3, chance="digital",
                                          options={"stones": "2"}, players=["ann", "ben", "cy", "dee", "eve"]))
    tid = made.tournament
    access.local.change_player(tid, "eve", PlayerChange(name=HOSTILE, reason="as entered"), by="organiser")
    paired = access.local.pair(tid, PairRequest(tokens=False))
    return access, tid, paired.tables


def _result(access, tid, rnd, table, result, **kw):
    access.local.result(tid, ResultRequest(round=rnd, table=table, result=result, reason="on paper", **kw))


def test_wdl_counts_first_alone_first_shared_and_below_first():
    pts = Points()
    two = table_games(1, 1, "m", ("a", "b"), Outcome(winners=("a",), reason="r", kind="win"), pts)
    assert [wdl([g]) for g in two] == [(1, 0, 0), (0, 0, 1)]
    draw = table_games(1, 1, "m", ("a", "b"), Outcome(winners=(), reason="r", kind="draw"), pts)
    assert [wdl([g]) for g in draw] == [(0, 1, 0), (0, 1, 0)]
    pod = table_games(1, 1, "m", ("a", "b", "c", "d"),
                      Outcome(winners=("a", "b"), reason="r", kind="ranking", ranking=(("a", "b"), ("c",), ("d",))), pts)
    assert [wdl([g]) for g in pod] == [(0, 1, 0), (0, 1, 0), (0, 0, 1), (0, 0, 1)]
    team = table_games(1, 1, "m", ("a", "b"), Outcome(winners=("a", "b"), reason="r", kind="team_win"), pts)
    lost = table_games(1, 1, "m", ("a", "b"), Outcome(winners=(), reason="r", kind="team_loss"), pts)
    assert [wdl([g]) for g in team + lost] == [(1, 0, 0), (1, 0, 0), (0, 0, 1), (0, 0, 1)]


def test_the_html_export_gives_wdl_as_the_standings_count_it_and_names_each_source_once(cup):
    access, tid, tables = cup
    t1, t2 = tables
    _result(access, tid, 1, t1.table, f"win:{t1.seats[0]}")
    _result(access, tid, 1, t2.table, "draw")
    _result(access, tid, 1, t2.table, f"win:{t2.seats[1]}", correct=True)
    _result(access, tid, 1, t2.table, "draw", correct=True)
    data = json.loads(access.local.export(tid, "json"))
    got = {r["player"]: tuple(r["wdl"]) for r in data["standings"]}
    assert got[t1.seats[0]] == (1, 0, 0) and got[t1.seats[1]] == (0, 0, 1)
    assert got[t2.seats[0]] == got[t2.seats[1]] == (0, 1, 0)
    bye = next(p for p in got if p not in t1.seats + t2.seats)
    assert got[bye] == (0, 0, 0)  # a bye is no game at a table
    for r in data["standings"]:  # every point but a bye's is a win's or a draw's (win=3, draw=1)
        w, d, _ = r["wdl"]
        assert int(r["values"]["points"]) == 3 * w + d + (3 if r["player"] == bye else 0), r
    html = access.local.export(tid, "html")
    rows = dict(re.findall(r'<tr[^>]*data-player="([^"]+)".*?<td class="n wdl">([0-9-]+)</td>', html))
    assert rows == {p: "-".join(map(str, v)) for p, v in got.items()}
    assert "(arbiter) (arbiter)" not in html and f"{t1.seats[0]} won (arbiter)<" in html
    assert "draw (arbiter) (corrected)" in html and "(correction)" not in html
    md = access.local.export(tid, "md")
    assert "(arbiter\\) (arbiter\\)" not in md and "| W-D-L |" in md


def test_the_html_export_is_the_viewers_style_inline_fits_a_phone_and_escapes_names(cup):
    from referee.tournament.style import stylesheet

    access, tid, _ = cup
    html = access.local.export(tid, "html")
    assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in html
    assert f"<style>{stylesheet()}</style>" in html and ":root{--ok:" in stylesheet()  # the viewer's sheet
    assert not re.search(r"""(src|href)=["']?(https?:)?//|@import|url\(""", html)  # nothing fetched from elsewhere
    assert html.count('<div class="scroll"><table') == 2  # standings and round 1: each scrolls in its own box
    assert "<script" not in html and "<b>Cup" not in html
    assert "&lt;b&gt;Cup&lt;/b&gt; &amp; co" in html and html.count(markup.escape(HOSTILE)) == 2  # standings, bye


def test_offline_each_match_is_named_with_the_viewer_command_and_served_it_links_to_the_hall(cup, db_store):
    access, tid, tables = cup
    offline = access.local.export(tid, "html")
    assert "<a " not in offline and "referee export MATCH --format html -o MATCH.html" in offline
    assert all(f'<span class="mid" title="referee export {t.match_id} --format html">{t.match_id}</span>' in offline
               for t in tables)
    with app_client(lambda: Referee(db_store, games=[PILE]), admin_token="adm") as c:
        made = c.post("/tournaments", json={"name": "Served", "game": "pile", "players": ["ann", "ben"]},
                      headers={"Authorization": "Bearer adm"}).json()
        org = {"Authorization": f"Bearer {made['tokens']['organiser']}"}
        paired = c.post(f"/tournaments/{made['tournament']}/pair", json={}, headers=org).json()
        served = c.get(f"/tournaments/{made['tournament']}/export", params={"format": "html"}, headers=org)
        assert served.status_code == 200, served.text
        mid = paired["tables"][0]["match_id"]
        link = f'href="http://testserver.local/hall/{made["tournament"]}/matches/{mid}"'
        assert link in served.text and "referee export MATCH" not in served.text
        assert "token" not in served.text.split("<style>")[0] + served.text.split("</style>")[1]  # no token in it
        # the live view the link opens is there
        assert c.get(f"/hall/{made['tournament']}/matches/{mid}").status_code == 200


@pytest.fixture
def knowing_pile(monkeypatch):
    """The CLI's referee knowing the test game ``pile`` too."""
    from referee.games import GAMES

    init = Referee.__init__

    def with_pile(self, store, *, games=None, **kw):
        init(self, store, games=(*GAMES, PILE) if games is None else games, **kw)

    monkeypatch.setattr(Referee, "__init__", with_pile)


def test_the_export_prints_the_head_the_audit_and_standings_print(cli, db, knowing_pile):
    made = cli("tournament", "new", "Club night", "--game", "pile", "--option", "stones=4", "--players", "ann,ben,cy",
               "--db", db)
    assert made.code == 0, made.err
    tid = made.last_line
    assert cli("tournament", "pair", tid, "--db", db, "--no-tokens").code == 0
    head = cli("tournament", "audit", tid, "--db", db, "--json").json["head"]
    assert cli("tournament", "standings", tid, "--db", db, "--json").json["head"] == head
    out = cli("tournament", "export", tid, "--db", db, "--format", "html").out
    assert f'<code id="head">{head}</code>' in out and out.count(head) == 1


def test_standings_are_after_round_n_only_once_round_n_is_complete(cup):
    access, tid, tables = cup
    who = Entrant(tournament=tid, role="spectator")
    shown = snapshot(access, who)
    assert shown["playing"] == 1 and shown["standings"].after_round == 0  # nobody has completed a round
    html = access.local.export(tid, "html")
    assert "Standings during round 1 (2 tables still playing)" in html and "after round 1" not in html
    _result(access, tid, 1, tables[0].table, f"win:{tables[0].seats[0]}")
    shown = snapshot(access, who)
    assert shown["playing"] == 1 and shown["standings"].after_round == 0  # one table still playing
    assert all(r.values["points"] == "0" for r in shown["standings"].rows)  # nothing of round 1 counted yet
    _result(access, tid, 1, tables[1].table, "draw")
    shown = snapshot(access, who)
    assert shown["playing"] is None and shown["standings"].after_round == 1  # every table has its result
    assert "Standings after round 1<" in access.local.export(tid, "html")
    access.local.pair(tid, PairRequest(tokens=False))  # round 1 closes, round 2 is being played
    shown = snapshot(access, who)
    assert shown["playing"] == 2 and shown["standings"].after_round == 1
    assert [r.round for r in shown["pairings"].rounds] == [1, 2]
    # the page says so: a round 0 reads as no round completed, not "after round 0"
    assert '"(no round completed yet)"' in page(tid) and "after round " in page(tid)
