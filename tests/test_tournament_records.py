"""The records issue 14 still lacked, each against numbers worked by hand: a withdrawn pairing (void for
the standings, with who and why), a requested half-point bye, a late entry in a round-robin (the odd
field's bye number) and co-operative pod tables (teammates are not opponents for any tie-break)."""

from __future__ import annotations

from fractions import Fraction as F

import pytest

from referee.errors import BadInput
from referee.games import GAMES
from referee.service import Referee
from referee.store.memory import MemoryStore
from referee.tournament import events as ev
from referee.tournament.fold import fold
from referee.tournament.service import Tournaments
from referee.tournament.words import parse_points
from referee.tournament.standings import explain, standings
from schemas import Outcome
from support.pile import PILE

WIN = {p: Outcome(winners=(p,), reason="arbiter", kind="win") for p in "abcdef"}
DRAW = Outcome(winners=(), reason="arbiter", kind="draw")
TEAM_WIN = Outcome(winners=("a", "b", "c"), reason="arbiter", kind="team_win")


def _fold(events: list[ev.Event], why: dict[int, str] | None = None):
    return fold([ev.Record(tournament="t1", n=i, by="arbiter", why=(why or {}).get(i, ""), event=e)
                 for i, e in enumerate(events, start=1)])


def _values(state, after, tiebreaks):
    table = standings(state, after, tiebreaks=tiebreaks)
    return {r.player: dict(zip(table.tiebreaks, r.values)) for r in table.rows}, table


def test_a_half_point_bye_and_a_withdrawn_pairing_worked_by_hand():
    """Five players, Swiss, win 3 / draw 1 / loss 0 / bye 3, a half-point bye a draw's (1):

        e asked for a half-point bye in round 1 (granted before round 1 was paired)
        round 1: a beat b; c drew d; e half-point bye
        round 2: a beat c; b v e withdrawn (paired by mistake): void; d bye

    points: a 3+3 = 6, b 0, c 1+0 = 1, d 1+3 = 4, e 1 (the half-point bye; the void table adds nothing)
    played: a 2, b 1, c 2, d 1, e 0
    Buchholz (opponents' points; byes and the void table add no opponent):
        a: b 0 + c 1 = 1   b: a 6   c: d 4 + a 6 = 10   d: c 1   e: 0
    Sonneborn-Berger: a: 1x0 + 1x1 = 1   c: 1/2x4 + 0x6 = 2   d: 1/2x1 = 1/2   b, e: 0
    game points: a 1+1 = 2, b 0, c 1/2+0, d 1/2+1 (bye) = 3/2, e 1/2 (the half-point bye)
    """
    tbs = ("points", "buchholz", "sonneborn-berger", "game-points")
    state = _fold([
        ev.Created(name="Worked", game="by_all_means", format="swiss", rounds=3, tiebreaks=tbs, points=ev.Points(), seed=1),
        *[ev.PlayerAdded(player=p) for p in "abcde"],
        ev.HalfByeGranted(round=1, player="e"),
        ev.RoundPaired(round=1, tables=(ev.Table(table=1, seats=("a", "b")), ev.Table(table=2, seats=("c", "d"))),
                       half_byes=("e",)),
        ev.ResultRecorded(round=1, table=1, outcome=WIN["a"]),
        ev.ResultRecorded(round=1, table=2, outcome=DRAW),
        ev.RoundClosed(round=1, results=()),
        ev.RoundPaired(round=2, tables=(ev.Table(table=1, seats=("a", "c")), ev.Table(table=2, seats=("b", "e"))),
                       byes=("d",)),
        ev.PairingWithdrawn(round=2, table=2),
        ev.ResultRecorded(round=2, table=1, outcome=WIN["a"]),
    ], why={13: "b and e were paired by mistake"})
    got, table = _values(state, 2, tbs)
    assert {p: v["points"] for p, v in got.items()} == {"a": 6, "b": 0, "c": 1, "d": 4, "e": 1}
    assert {r.player: r.played for r in table.rows} == {"a": 2, "b": 1, "c": 2, "d": 1, "e": 0}
    assert {p: v["buchholz"] for p, v in got.items()} == {"a": 1, "b": 6, "c": 10, "d": 1, "e": 0}
    assert {p: v["sonneborn-berger"] for p, v in got.items()} == {"a": 1, "b": 0, "c": 2, "d": F(1, 2), "e": 0}
    assert {p: v["game-points"] for p, v in got.items()} == {"a": 2, "b": 0, "c": F(1, 2), "d": F(3, 2), "e": F(1, 2)}
    assert table.pending == []  # the void table is not waiting for a result
    e = explain(state, "e", 2)
    assert e.values[0][2] == ["round 1 (half-point bye): 1"]
    assert explain(state, "b", 2).corrections == ["round 2 table 2: the pairing was withdrawn (record 13): void"]
    # after round 1 alone: the half-point bye counts, nothing of round 2 does
    got1, _ = _values(state, 1, tbs)
    assert {p: v["points"] for p, v in got1.items()} == {"a": 3, "b": 0, "c": 1, "d": 1, "e": 1}
    assert parse_points("half=2").half_bye == 2 and ev.Points(draw=2).half_bye == 2


def test_cooperative_teammates_are_not_opponents_worked_by_hand():
    """Six players in pods of three, win 3 / loss 0, places 2, 1, 0:

        round 1: a, b, c beat the game together (team_win); d, e, f lost to it (team_loss)
        round 2: a > d > e (a ranking); b, c, f beat the game together

    points: a 3+2 = 5, b 3+3 = 6, c 6, d 0+1 = 1, e 0, f 0+3 = 3
    Buchholz: only the ranked table has opponents: a: d 1 + e 0 = 1; d: a 5 + e 0 = 5; e: a 5 + d 1 = 6;
        b, c, f: 0 (teammates all along; before the fix b had a 5 + c 6 + c 6 + f 3 = 20)
    opponents' match-win %: b: none (0); a: d 1/5 and e 0/5, each floored to 1/3: 1/3
    game points: a 1 (the team's win) + 1 (first of three) = 2; d 0 (the team's loss) + 1/2 = 1/2; f 0 + 1
    Sonneborn-Berger: a: 1x1 + 1x0 = 1
    """
    tbs = ("points", "buchholz", "omw", "game-points", "sonneborn-berger")
    state = _fold([
        ev.Created(name="Co-op", game="war_of_shadows", format="pods", rounds=2, tiebreaks=tbs, table_size=3,
                   points=ev.Points(places=(2, 1, 0)), seed=1),
        *[ev.PlayerAdded(player=p) for p in "abcdef"],
        ev.RoundPaired(round=1, tables=(ev.Table(table=1, seats=("a", "b", "c")), ev.Table(table=2, seats=("d", "e", "f")))),
        ev.ResultRecorded(round=1, table=1, outcome=TEAM_WIN),
        ev.ResultRecorded(round=1, table=2, outcome=Outcome(winners=(), reason="arbiter", kind="team_loss")),
        ev.RoundClosed(round=1, results=()),
        ev.RoundPaired(round=2, tables=(ev.Table(table=1, seats=("a", "d", "e")), ev.Table(table=2, seats=("b", "c", "f")))),
        ev.ResultRecorded(round=2, table=1, outcome=Outcome(winners=("a",), reason="arbiter", kind="ranking",
                                                            ranking=(("a",), ("d",), ("e",)))),
        ev.ResultRecorded(round=2, table=2, outcome=Outcome(winners=("b", "c", "f"), reason="arbiter", kind="team_win")),
    ])
    got, _ = _values(state, 2, tbs)
    assert {p: v["points"] for p, v in got.items()} == {"a": 5, "b": 6, "c": 6, "d": 1, "e": 0, "f": 3}
    assert {p: v["buchholz"] for p, v in got.items()} == {"a": 1, "b": 0, "c": 0, "d": 5, "e": 6, "f": 0}
    assert got["b"]["omw"] == 0 and got["a"]["omw"] == F(1, 3)
    assert got["a"]["game-points"] == 2 and got["d"]["game-points"] == F(1, 2) and got["f"]["game-points"] == 1
    assert got["a"]["sonneborn-berger"] == 1
    lines = explain(state, "b", 2).values[0][2]
    assert lines[0].endswith("3 (co-operative: teammates, no opponents)")


# -- over the service: what is refused, and what pairing does with them -------------------------------------


def _service():
    return Tournaments(Referee(MemoryStore(), games=(*GAMES, PILE)))


def _code(fn, *args, **kw) -> str:
    with pytest.raises(BadInput) as exc:
        fn(*args, **kw)
    return exc.value.code


def test_withdrawing_a_pairing_over_the_service():
    t = _service()
    tid = t.create("Cup", "pile", rounds=3, seed=5, options={"stones": "4"}, players=list("abcd")).id
    r1 = t.pair(tid)
    one, two = r1.tables
    t.record_result(tid, 1, 1, f"win:{one.seats[0]}")
    assert _code(t.withdraw, tid, 1, 1, why="late") == "tournament/has_result"
    assert _code(t.withdraw, tid, 1, 2) == "tournament/reason_needed"
    state = t.withdraw(tid, 1, 2, by="chief arbiter", why="paired against the wrong player")
    assert _code(t.withdraw, tid, 1, 2, why="again") == "tournament/withdrawn"
    assert _code(t.record_result, tid, 1, 2, "draw") == "tournament/withdrawn"
    last = t.records(tid)[-1]
    assert (last.by, last.why, ev.kind(last.event)) == ("chief arbiter", "paired against the wrong player",
                                                        "pairing_withdrawn")
    # table 2's match was never played, yet it holds nothing up: round 2 pairs
    assert t.blocks(tid) == [] and t.referee.show(two.match_id).outcome is None
    assert frozenset(two.seats) not in t._met(state)
    t.pair(tid)
    table = t.standings(tid, after_round=1)
    played = {r.player: (r.values[0], r.played) for r in table.rows}
    assert played[one.seats[0]] == (3, 1) and played[one.seats[1]] == (0, 1)
    assert played[two.seats[0]] == (0, 0) and played[two.seats[1]] == (0, 0)
    assert _code(t.withdraw, tid, 1, 1, why="late") == "tournament/round_closed"
    assert t.audit(tid) == []


def test_a_requested_half_point_bye_over_the_service():
    t = _service()
    tid = t.create("Cup", "pile", rounds=3, seed=5, options={"stones": "4"}, players=list("abcde")).id
    t.grant_half_bye(tid, "e", 1, why="arrives after lunch")
    assert _code(t.grant_half_bye, tid, "e", 1) == "tournament/has_half_bye"
    assert _code(t.grant_half_bye, tid, "a", 4) == "tournament/bad_round"
    r1 = t.pair(tid)
    assert r1.half_byes == ["e"] and r1.byes == [] and all("e" not in x.seats for x in r1.tables)
    assert _code(t.grant_half_bye, tid, "a", 1) == "tournament/round_paired"
    for x in r1.tables:
        t.record_result(tid, 1, x.table, "draw")
    points = {r.player: r.values[0] for r in t.standings(tid, after_round=1).rows}
    assert points == {p: 1 for p in "abcde"}  # four draws and e's half-point bye: a draw's point each
    rr = t.create("RR", "pile", format="round-robin", seed=5, players=list("abc")).id
    assert _code(t.grant_half_bye, rr, "a", 1) == "tournament/no_half_bye"


def test_a_half_point_bye_is_cancelled_by_an_event_before_its_round_is_paired():
    t = _service()
    tid = t.create("Cup", "pile", rounds=3, seed=5, options={"stones": "4"}, players=list("abcd")).id
    assert _code(t.cancel_half_bye, tid, "d", 1) == "tournament/no_half_bye"
    t.grant_half_bye(tid, "d", 1, why="exam in the morning")
    t.grant_half_bye(tid, "c", 2, why="away")
    state = t.cancel_half_bye(tid, "d", 1, by="organiser", why="the exam was moved")
    assert state.half_byes[1] == [] and state.half_byes[2] == ["c"]
    last = t.records(tid)[-1]
    assert (ev.kind(last.event), last.why) == ("half_bye_cancelled", "the exam was moved")
    assert _code(t.cancel_half_bye, tid, "d", 1) == "tournament/no_half_bye"  # cancelled once
    r1 = t.pair(tid)
    assert r1.half_byes == [] and sorted(p for x in r1.tables for p in x.seats) == list("abcd")  # d plays after all
    t.grant_half_bye(tid, "a", 3, why="a wedding")
    for x in r1.tables:
        t.record_result(tid, 1, x.table, "draw")
    t.pair(tid)
    assert _code(t.cancel_half_bye, tid, "c", 2) == "tournament/round_paired"  # round 2's byes stand once paired
    refolded = fold(t.records(tid))
    assert refolded.half_byes == {1: [], 2: ["c"], 3: ["a"]} and t.audit(tid) == []


def test_a_late_entry_takes_the_byes_berger_number_in_an_odd_round_robin():
    """Five players by Berger numbers 1-5 (drawn by lot) and the bye as number 6. FIDE's table for six:

        round 1: 1-6, 2-5, 3-4   round 2: 6-4, 5-3, 1-2   round 3: 2-6, 3-1, 4-5
        round 4: 6-5, 1-4, 2-3   round 5: 3-6, 4-2, 5-1

    In round 1 number 1 has the bye; f, entered after it, is number 6: f meets 4, 2, 5, 3 in rounds 2-5
    (never 1, whose game with the bye's number was round 1's), and every other pair is as before."""
    t = _service()
    tid = t.create("RR", "pile", format="round-robin", seed=9, options={"stones": "4"}, players=list("abcde")).id
    r1 = t.pair(tid)
    number = dict(enumerate(t.berger_order(t.load(tid)), start=1))
    assert r1.byes == [number[1]]
    assert [x.seats for x in r1.tables] == [(number[2], number[5]), (number[3], number[4])]
    t.add_player(tid, "f", why="arrived late")
    assert t.load(tid).players["f"].entered == 2
    assert _code(t.add_player, tid, "g") == "tournament/late_entry"  # the one spare number is taken
    number[6] = "f"
    expected = {2: [(6, 4), (5, 3), (1, 2)], 3: [(2, 6), (3, 1), (4, 5)], 4: [(6, 5), (1, 4), (2, 3)],
                5: [(3, 6), (4, 2), (5, 1)]}
    for rnd, pairs in expected.items():
        for x in t.load(tid).rounds[-1].tables:
            t.record_result(tid, rnd - 1, x.table, "draw")
        paired = t.pair(tid)
        assert [x.seats for x in paired.tables] == [(number[a], number[b]) for a, b in pairs], rnd
        assert paired.byes == []
    assert _code(t.pair, tid) == "tournament/all_rounds_paired"
    even = t.create("RR4", "pile", format="round-robin", seed=9, players=list("abcd")).id
    t.pair(even)
    with pytest.raises(BadInput, match="even field") as exc:
        t.add_player(even, "e")
    assert exc.value.code == "tournament/late_entry"


def test_over_http_only_the_organiser_withdraws_or_grants_and_refusals_have_the_error_shape(db_store):
    from support.apps import app_client

    store = db_store  # on each backend
    with app_client(lambda: Referee(store, games=[PILE]), admin_token="adm") as c:
        made = c.post("/tournaments", json={"name": "Cup", "game": "pile", "rounds": 2, "seed": 2,
                                            "points": {"half": 2}, "players": list("abcde")},
                      headers={"Authorization": "Bearer adm"}).json()
        tid, tokens = made["tournament"], made["tokens"]
        org, spec = ({"Authorization": f"Bearer {tokens[k]}"} for k in ("organiser", "spectator"))
        bye = {"player": "e", "round": 1, "reason": "late"}
        refused = c.post(f"/tournaments/{tid}/byes", json=bye, headers=spec)
        assert refused.status_code == 403 and refused.json()["code"] == "auth/forbidden"
        granted = c.post(f"/tournaments/{tid}/byes", json=bye, headers=org)
        assert granted.status_code == 201 and "(2 points)" in granted.json()["done"]
        paired = c.post(f"/tournaments/{tid}/pair", json={}, headers=org).json()
        assert paired["half_byes"] == ["e"]
        body = {"round": 1, "table": 1, "reason": "wrong table"}
        assert c.post(f"/tournaments/{tid}/withdrawals", json=body, headers=spec).status_code == 403
        assert c.post(f"/tournaments/{tid}/withdrawals", json=body, headers=org).status_code == 201
        again = c.post(f"/tournaments/{tid}/withdrawals", json=body, headers=org)
        assert again.status_code == 422 and set(again.json()) - {"said"} == {"code", "message", "detail"}
        assert again.json()["code"] == "tournament/withdrawn"
        shown = c.get(f"/tournaments/{tid}/pairings", headers=spec).json()["rounds"][0]
        assert shown["tables"][0]["result"] == "withdrawn" and shown["half_byes"] == ["e"]
        row = next(r for r in c.get(f"/tournaments/{tid}/standings", headers=spec).json()["rows"] if r["player"] == "e")
        assert row["values"]["points"] == "2" and row["played"] == 0
