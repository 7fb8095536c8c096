"""FIDE's tie-break exercise (issue 24 item 9), entered through the tournament service as an organiser
would, and every published value it gives for the tie-breaks the referee has, under the FIDE settings.

The exercise: IA Mario Held, "Exercises in Tie-Breaking" (FIDE Arbiters' Commission, arbiters.fide.com
news 9119, Rev. 2403220900, for C.07 as approved in 2023). Its crosstables are transcribed below as
rounds; its answers as the dicts under them. Players are numbered as in the paper.

* Swiss: 16 players, 5 rounds, chess scoring (1, 1/2, 0), with full-point byes (the pairing's odd
  player), half-point byes on request, forfeits (11 won round 4 from 9, 12 won round 3 from 14), an
  absence (14 in round 4) and a withdrawal (12 after round 3).
* Round robin: 6 players, 5 rounds; 6 won round 4 from 5 by forfeit.

Answers reproduced: Buchholz, Buchholz cut-1, Sonneborn-Berger and the progressive score of all 16
players (exercises 1-8, 11-12, 32), the direct-encounter ranks of exercises 23, 24 and 26, the round
robin's Sonneborn-Berger (exercise 14), and the direct-encounter ranks of the same Swiss played on to 9
rounds (exercise 25). The paper's other exercises use tie-breaks the referee does not offer (average of
opponents' Buchholz, fore Buchholz, cut Sonneborn-Berger and progressive, ratings, Koya, wins and
colours).
"""

from __future__ import annotations

from fractions import Fraction as F

import pytest

from referee.errors import BadInput
from referee.games import GAMES
from referee.service import Referee
from referee.store import open_store
from referee.tournament.fold import fold
from referee.tournament.service import Tournaments
from referee.tournament.standings import standings
from referee.tournament.words import parse_points
from support.pile import PILE

# Each round: tables as "WHITE-BLACK RESULT" (1-0, 0-1, =; +/- and -/+ a forfeit), then players alone:
# "N-bye" (full point), "N-half" (half-point bye), "N-absent".
SWISS = [
    "1-9 1-0, 10-2 0-1, 3-11 =, 12-4 0-1, 13-5 1-0, 14-6 1-0, 7-15 1-0, 16-8 =",
    "13-1 =, 2-7 1-0, 6-3 0-1, 15-5 1-0, 8-14 1-0, 9-10 0-1, 16-11 1-0, 4-half, 12-bye",
    "1-2 =, 3-8 1-0, 4-13 1-0, 5-11 1-0, 16-7 1-0, 15-10 1-0, 12-14 +/-, 6-bye, 9-half",
    "15-1 0-1, 2-16 1-0, 4-3 =, 7-5 =, 10-6 0-1, 8-13 1-0, 11-9 +/-, 14-absent, 12-absent",
    "1-4 =, 3-2 =, 5-10 1-0, 6-8 1-0, 11-7 1-0, 14-13 1-0, 15-16 0-1, 9-bye, 12-absent",
]
# exercise 25: the same event played on to 9 rounds (2 beat 3 in round 5 there; 12 came back in round 6)
SWISS_9 = SWISS[:4] + [
    SWISS[4].replace("3-2 =", "3-2 0-1"),
    "6-1 =, 2-4 =, 16-3 0-1, 14-5 1-0, 10-7 1-0, 11-8 =, 13-9 0-1, 15-12 1-0",
    "3-1 =, 2-6 0-1, 4-16 =, 9-5 0-1, 7-13 1-0, 8-15 =, 12-10 0-1, 14-11 1-0",
    "1-16 =, 15-2 =, 3-14 1-0, 6-4 =, 5-8 0-1, 7-9 1-0, 11-10 0-1, 13-12 =",
    "8-1 0-1, 2-5 =, 10-3 0-1, 4-15 1-0, 16-6 0-1, 14-7 0-1, 9-12 =, 11-13 =",
]
ROUND_ROBIN = [
    "1-5 =, 6-2 0-1, 3-4 1-0",
    "1-2 1-0, 5-4 1-0, 3-6 1-0",
    "3-1 0-1, 2-5 1-0, 6-4 =",
    "4-1 1-0, 2-3 =, 5-6 -/+",
    "6-1 0-1, 4-2 0-1, 5-3 0-1",
]

POINTS = {1: 3.5, 2: 4, 3: 3.5, 4: 3.5, 5: 2.5, 6: 3, 7: 1.5, 8: 2.5, 9: 1.5, 10: 1, 11: 2.5, 12: 2, 13: 1.5,
          14: 2, 15: 2, 16: 3.5}
# exercises 1-4
BUCHHOLZ = {1: 12.5, 2: 13, 3: 15.5, 4: 15, 5: 8.5, 6: 12, 7: 14.5, 8: 13.5, 9: 9, 10: 13, 11: 13.5, 12: 11.5,
            13: 14, 14: 11, 15: 12, 16: 12.5}
# exercises 5-8
BUCHHOLZ_CUT1 = {1: 11, 2: 12, 3: 13, 4: 11.5, 5: 7.5, 6: 11, 7: 12.5, 8: 12, 9: 7.5, 10: 11.5, 11: 12, 12: 9.5,
                 13: 12, 14: 9, 15: 11, 16: 11}
# exercises 11-12
SONNEBORN_BERGER = {1: 8, 2: 9.5, 3: 10.5, 4: 9.75, 5: 4.25, 6: 6.5, 7: 3.25, 8: 5.25, 9: 2.25, 10: 1.5, 11: 5.75,
                    12: 4, 13: 4.25, 14: 4.5, 15: 3.5, 16: 7.25}
# exercise 32
PROGRESSIVE = {1: 11, 2: 13, 3: 11, 4: 11.5, 5: 5, 6: 6, 7: 6, 8: 8.5, 9: 2.5, 10: 4, 11: 5.5, 12: 7, 13: 7, 14: 6,
               15: 7, 16: 10.5}
# exercises 23 and 24: the ranks by points, then direct encounter
DIRECT_ENCOUNTER_RANKS = {1: 2, 3: 2, 4: 2, 16: 2, 5: 7, 8: 7, 11: 7}
# exercise 25: after 9 rounds, the ranks by points, then direct encounter (1, 2, 4 and 6 all met)
SWISS_9_DIRECT_ENCOUNTER_RANKS = {1: 3, 2: 5, 3: 1, 4: 3, 5: 9, 6: 2, 7: 6, 8: 6, 9: 14, 10: 9, 11: 13, 12: 14, 13: 16,
                                  14: 9, 15: 9, 16: 6}
# exercise 14 and 26 (round robin)
RR_SONNEBORN_BERGER = {1: 9.25, 2: 6.25, 3: 6.25, 4: 4.25, 5: 3.25, 6: 2.25}
RR_DIRECT_ENCOUNTER_RANKS = {1: 1, 2: 2, 3: 2, 4: 6, 5: 5, 6: 4}

FIDE = ("points", "buchholz", "buchholz-cut1", "sonneborn-berger", "progressive")


def _service(db: str) -> Tournaments:
    return Tournaments(Referee(open_store(db), games=(*GAMES, PILE)))


def _enter(t: Tournaments, rounds: list[str], n: int, fmt: str, **settings: str) -> str:
    """The event entered as an organiser enters a published one: registered players, each round's pairing
    typed in (``pair --manual``), each table's result by the arbiter (``result``, ``--forfeit``)."""
    state = t.create("Exercise", "pile", format=fmt, rounds=len(rounds), points=parse_points("win=1,draw=0.5,loss=0"),
                     options={"stones": "4"}, players=[f"p{i}" for i in range(1, n + 1)], **settings)
    tid = state.id
    for number, text in enumerate(rounds, start=1):
        items = [x.strip() for x in text.split(",")]
        if number == 2 and fmt == "swiss":  # 4 asked for round 2's half-point bye before it was paired
            t.grant_half_bye(tid, "p4", 2)
            items.remove("4-half")
        if number == 4 and fmt == "swiss":  # 12 withdrew after round 3: dropped, no longer paired
            t.drop(tid, "p12", why="withdrew")
        if number == 6:  # and came back for round 6
            t.undrop(tid, "p12", why="back")
        if "12-absent" in items:
            items.remove("12-absent")
        tables = [x.split()[0] for x in items if " " in x]
        alone = [x for x in items if " " not in x]
        manual = ",".join("-".join(f"p{s}" for s in table.split("-")) for table in tables)
        manual += "".join(f",p{x.split('-')[0]}-{x.split('-')[1]}" for x in alone)
        paired = t.pair(tid, manual=manual, tokens=False)
        assert [tuple(x.seats) for x in paired.tables] == [tuple(f"p{s}" for s in tb.split("-")) for tb in tables]
        for i, item in enumerate(x for x in items if " " in x):
            white, black = (f"p{s}" for s in item.split()[0].split("-"))
            result = item.split()[1]
            if result in ("+/-", "-/+"):
                t.record_result(tid, number, i + 1, f"win:{white if result == '+/-' else black}", forfeit=True)
            else:
                t.record_result(tid, number, i + 1, "draw" if result == "=" else f"win:{white if result == '1-0' else black}")
    t.close_round(tid)
    return tid


@pytest.fixture(scope="module")
def swiss(module_db):
    t = _service(module_db)
    return t, _enter(t, SWISS, 16, "swiss", unplayed="fide", direct_encounter="fide")


@pytest.fixture(scope="module")
def round_robin(module_db):
    t = _service(module_db)
    return t, _enter(t, ROUND_ROBIN, 6, "round-robin", unplayed="fide", direct_encounter="fide")


def _values(t: Tournaments, tid: str, names: tuple[str, ...]) -> dict[int, dict[str, F]]:
    table = standings(t.load(tid), tiebreaks=names)
    return {int(r.player[1:]): dict(zip(names, r.values)) for r in table.rows}


@pytest.mark.parametrize("name,published", [("points", POINTS), ("buchholz", BUCHHOLZ),
                                            ("buchholz-cut1", BUCHHOLZ_CUT1), ("sonneborn-berger", SONNEBORN_BERGER),
                                            ("progressive", PROGRESSIVE)])
def test_every_published_swiss_value(swiss, name, published):
    t, tid = swiss
    got = _values(t, tid, FIDE)
    assert {p: got[p][name] for p in published} == {p: F(v) for p, v in published.items()}


def test_direct_encounter_leaves_players_level_who_did_not_all_meet(swiss):
    t, tid = swiss
    table = standings(t.load(tid), tiebreaks=("points", "head-to-head"))
    ranks = {int(r.player[1:]): r.rank for r in table.rows}
    assert {p: ranks[p] for p in DIRECT_ENCOUNTER_RANKS} == DIRECT_ENCOUNTER_RANKS


def test_direct_encounter_after_nine_rounds(module_db):
    t = _service(module_db)
    tid = _enter(t, SWISS_9, 16, "swiss", unplayed="fide", direct_encounter="fide")
    table = standings(t.load(tid), tiebreaks=("points", "head-to-head"))
    assert {int(r.player[1:]): r.rank for r in table.rows} == SWISS_9_DIRECT_ENCOUNTER_RANKS


def test_the_round_robin(round_robin):
    t, tid = round_robin
    got = _values(t, tid, ("points", "sonneborn-berger"))
    assert {p: v["sonneborn-berger"] for p, v in got.items()} == {p: F(v) for p, v in RR_SONNEBORN_BERGER.items()}
    table = standings(t.load(tid), tiebreaks=("points", "head-to-head"))
    # 4, 5 and 6 did not all play (6 won from 5 by forfeit) but a round robin's pairings were fixed in advance
    assert {int(r.player[1:]): r.rank for r in table.rows} == RR_DIRECT_ENCOUNTER_RANKS


def test_the_settings_are_recorded_and_explained(swiss):
    t, tid = swiss
    cfg = t.load(tid).config
    assert (cfg.unplayed, cfg.direct_encounter, cfg.progressive, cfg.points.unit) == ("fide", "fide", "rounds", 2)
    lines = dict((n, ls) for n, _, ls in t.explain(tid, "p11").values)
    assert any("won by forfeit: a dummy opponent with p11's own 2.5" in line for line in lines["buchholz"])
    lines = dict((n, ls) for n, _, ls in t.explain(tid, "p4").values)
    assert any("p12 has 3 (2 round(s) after leaving counted as draws)" in line for line in lines["buchholz"])
    assert any(line.startswith("cut: round 2: half-point bye") for line in lines["buchholz-cut1"])
    # the explanation's numbers are the standings' numbers
    explained = t.explain(tid, "p4").values  # the tie-breaks in force: a Swiss's defaults
    assert [(n, v) for n, v, _ in explained] == [("points", F(7, 2)), ("buchholz-cut1", F(23, 2)), ("buchholz", F(15)),
                                                 ("sonneborn-berger", F(39, 4)), ("progressive", F(23, 2))]


def test_the_defaults_give_what_they_gave_before(module_db):
    """Under ``simple`` and ``partial`` a bye or a forfeit is points and no opponent, and head-to-head counts
    the games some of the level players played: the values the issue found different from FIDE's."""
    t = _service(module_db)
    tid = _enter(t, SWISS, 16, "swiss")
    got = _values(t, tid, FIDE)
    assert got[11]["buchholz"] == 11 and got[4]["buchholz"] == F(21, 2)  # no value for the forfeit, the half bye
    assert got[12]["progressive"] == 7  # a new tournament counts every round (12 left after round 3)
    table = standings(t.load(tid), tiebreaks=("points", "head-to-head"))
    assert {int(r.player[1:]): r.rank for r in table.rows if int(r.player[1:]) in (1, 3, 4, 16)} == {4: 2, 1: 3, 3: 3,
                                                                                                       16: 5}


def test_progressive_of_a_tournament_recorded_before_the_fix(swiss):
    """A tournament recorded before the fix keeps its standings (``progressive`` ``games``): 12's rounds 4
    and 5, without a game, add nothing there; a new tournament adds the running score after each."""
    import msgspec

    t, tid = swiss
    records = t.records(tid)
    old = msgspec.structs.replace(records[0].event, progressive="games")
    state = fold([msgspec.structs.replace(records[0], event=old), *records[1:]])
    assert _values_of(state)[12] == 3 and _values_of(t.load(tid))[12] == 7


def _values_of(state) -> dict[int, F]:
    return {int(r.player[1:]): r.values[0] for r in standings(state, tiebreaks=("progressive",)).rows}


# -- refusals: one message, nothing written ------------------------------------------------------------------


@pytest.mark.parametrize("text,says", [
    ("win=1,draw=x", "'x' is not a number of points"),
    ("win=1,draw=1/0", "is not a number of points"),
    ("win=-1", "is not a number of points"),
    ("win=1.5.2", "is not a number of points"),
    ("draw=1/3000", "finer than 1/1000"),
    ("win=1,win=2", "win is given twice"),
    ("tie=1", "expected win=N"),
])
def test_bad_points_are_refused(text, says):
    with pytest.raises(BadInput, match=says):
        parse_points(text)


def test_fractional_points_are_kept_exactly():
    assert parse_points("win=1,draw=0.5,loss=0") == parse_points("win=1,draw=1/2") == \
        parse_points("win=1,draw=0.5,loss=0,bye=1")
    p = parse_points("win=1,draw=0.5")
    assert (p.win, p.draw, p.loss, p.bye, p.unit) == (2, 1, 0, 2, 2) and p.of(p.half_bye) == F(1, 2)
    assert parse_points("win=3,draw=1") == parse_points("win=3,draw=1,loss=0,bye=3")  # whole numbers: as before


@pytest.fixture
def fresh(db):
    t = _service(db)
    state = t.create("Refusals", "pile", rounds=3, options={"stones": "4"}, players=["a", "b", "c", "d", "e"])
    return t, state.id


@pytest.mark.parametrize("manual,says", [
    ("a-b,c-d,zed-bye,e-bye", "'zed' in 'zed-bye' is not a player of Refusals"),
    ("a-b,c-d,a-bye,e-half", "a is named twice: in 'a-b' and 'a-bye'"),
    ("a-b,c-d", "the pairing leaves out e"),
    ("a-b-c,d-e", "table 'a-b-c' seats 3: a table here seats 2"),
    ("a-b,c-d,e-maybe", "'maybe' in 'e-maybe' is not a player"),
    ("", "--manual names the round's tables"),
])
def test_a_bad_manual_pairing_is_refused_and_nothing_is_written(fresh, manual, says):
    t, tid = fresh
    before = len(t.records(tid))
    with pytest.raises(BadInput, match=says):
        t.pair(tid, manual=manual, tokens=False)
    assert len(t.records(tid)) == before and list(t.referee.store.list_matches()) == []


def test_a_manual_pairing_names_no_dropped_player_and_respects_granted_half_byes(fresh):
    t, tid = fresh
    t.drop(tid, "e")
    with pytest.raises(BadInput, match="e in 'e-bye' has dropped"):
        t.pair(tid, manual="a-b,c-d,e-bye", tokens=False)
    t.grant_half_bye(tid, "d", 1)
    with pytest.raises(BadInput, match="d in 'c-d' has a half-point bye for this round already"):
        t.pair(tid, manual="a-b,c-d", tokens=False)
    paired = t.pair(tid, manual="b-a,c-absent", tokens=False)
    rnd = t.load(tid).round(1)
    assert [x.seats for x in paired.tables] == [("b", "a")] and paired.half_byes == ["d"]
    assert (rnd.absent, rnd.half_byes, rnd.byes) == (("c",), ("d",), ())
    assert t.records(tid)[-1].event.manual is True  # type: ignore[union-attr]
    from referee.tournament.api import LocalTournaments

    shown = LocalTournaments(t.referee).pairings(tid).rounds[0]
    assert (shown.absent, shown.half_byes, shown.byes) == (["c"], ["d"], [])


def test_bad_forfeits_and_settings_are_refused(fresh):
    t, tid = fresh
    t.pair(tid, manual="a-b,c-d,e-bye", tokens=False)
    before = len(t.records(tid))
    with pytest.raises(BadInput, match="a forfeit is won by a player at the table \\(a, b\\) or by nobody"):
        t.record_result(tid, 1, 1, "draw", forfeit=True)
    with pytest.raises(BadInput, match="not 'win:c'"):
        t.record_result(tid, 1, 1, "win:c", forfeit=True)
    assert len(t.records(tid)) == before
    t.record_result(tid, 1, 2, "none", forfeit=True)  # a double forfeit: both lose, neither played
    rows = {r.player: r for r in standings(t.load(tid)).rows}
    assert (rows["c"].values[0], rows["c"].played, rows["d"].values[0]) == (0, 0, 0)
    for kw, says in (({"unplayed": "fid"}, "--unplayed is simple .* or fide"),
                     ({"direct_encounter": "all"}, "--direct-encounter is partial .* or fide")):
        with pytest.raises(BadInput, match=says):
            t.create("Bad", "pile", options={"stones": "4"}, **kw)


# -- the README's commands ------------------------------------------------------------------------------------


def _readme_block() -> list[str]:
    import os
    import re

    from conftest import ROOT

    readme = open(os.path.join(ROOT, "README.md"), encoding="utf-8").read()
    part = readme.split("**Chess scoring and FIDE's tie-break rules**", 1)[1]
    block = part.split("```bash", 1)[1].split("```", 1)[0]
    return [re.sub(r"\s+#.*$", "", line).strip() for line in block.strip().splitlines() if line.strip()]


def test_the_readme_chess_commands_run_as_shown(cli):
    import shlex

    lines = _readme_block()
    first = cli(*shlex.split(lines[0])[1:])
    assert first.code == 0, first.err
    tid = first.last_line
    outs = []
    for line in lines[1:]:
        res = cli(*[tid if w == "5e1a" else w for w in shlex.split(line)[1:]])
        assert res.code == 0, (line, res.out, res.err)
        outs.append(res.out)
    assert "table 1: ann v ben" in outs[0] and "bye: eve" in outs[0]
    explained = outs[-1]
    # ann won by forfeit: 1 point, and a dummy opponent with her own 1 for Buchholz (no game against ben)
    assert "round 1: won by forfeit: a dummy opponent with ann's own 1" in explained
    shown = cli("tournament", "show", tid)
    assert "unplayed rounds: fide; direct encounter: fide; progressive: after every round" in shown.out
    bad = cli("tournament", "new", "X", "--game", "by_all_means", "--points", "win=1,draw=half")
    assert bad.code == 2 and "'half' is not a number of points" in bad.err
    twice = cli("tournament", "pair", tid, "--manual", "ann-ben,ann-cy,dee-eve")
    assert twice.code == 2 and "ann is named twice" in twice.err


# -- over HTTP -------------------------------------------------------------------------------------------------


def test_the_settings_manual_pairings_and_forfeits_over_http(db_store):
    from support.apps import app_client

    admin = {"Authorization": "Bearer admin-token"}
    with app_client(lambda: Referee(db_store, games=[PILE]), admin_token="admin-token") as client:
        body = {"name": "Chess night", "game": "pile", "rounds": 2, "options": {"stones": "4"},
                "points": {"win": 2, "draw": 1}, "points_unit": 2, "unplayed": "fide", "direct_encounter": "fide",
                "players": ["ann", "ben", "cy"]}
        made = client.post("/tournaments", json=body, headers=admin)
        assert made.status_code == 201, made.text
        tid = made.json()["tournament"]
        org = {"Authorization": f"Bearer {made.json()['tokens']['organiser']}"}
        shown = client.get(f"/tournaments/{tid}", headers=org).json()
        from referee.tournament.service import Tournaments as T

        points = T(Referee(db_store, games=[PILE])).load(tid).config.points
        assert (points.win, points.draw, points.loss, points.bye, points.unit) == (2, 1, 0, 2, 2)
        assert (shown["unplayed"], shown["direct_encounter"], shown["progressive"]) == ("fide", "fide", "rounds")
        bad = client.post(f"/tournaments/{tid}/pair", json={"manual": "ann-ben,ann-cy", "tokens": False}, headers=org)
        assert bad.status_code == 422 and bad.json()["code"] == "tournament/bad_pairing", bad.text
        paired = client.post(f"/tournaments/{tid}/pair", json={"manual": "ann-ben,cy-bye", "tokens": False},
                             headers=org)
        assert paired.status_code == 201, paired.text
        assert paired.json()["tables"][0]["seats"] == ["ann", "ben"] and paired.json()["byes"] == ["cy"]
        done = client.post(f"/tournaments/{tid}/results", json={"round": 1, "table": 1, "result": "win:ben",
                                                                "forfeit": True}, headers=org)
        assert done.status_code in (200, 201), done.text
        rows = {r["player"]: r for r in client.get(f"/tournaments/{tid}/standings", headers=org).json()["rows"]}
        assert (rows["ben"]["played"], rows["cy"]["played"]) == (0, 0)
        assert client.post("/tournaments", json={**body, "points_unit": 0}, headers=admin).status_code == 400
        assert client.post("/tournaments", json={**body, "points_unit": 3000}, headers=admin).status_code == 400
