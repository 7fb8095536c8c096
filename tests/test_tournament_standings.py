"""Tie-breaks against a worked example computed by hand (issue 14), with a bye, a drop mid-event, a
result carrying scores and a corrected result; standings "after round N" and "as of record n".

The event: five players, Swiss, win 3 / draw 1 / loss 0 / bye 3.

    round 1: a beat b; c drew d (corrected later: c beat d); e bye
    round 2: a beat c; e beat b (scores b 4, e 7); d bye          -- then e drops
    round 3: d beat a; b beat c

After the correction: points a 6, b 3, c 3, d 6, e 6. Worked by hand below, number by number.
"""

from __future__ import annotations

from fractions import Fraction as F

import pytest

from referee.tournament import events as ev
from referee.tournament.fold import fold
from referee.tournament.standings import explain, standings
from schemas import Outcome

WIN = {p: Outcome(winners=(p,), reason="arbiter", kind="win") for p in "abcde"}
DRAW = Outcome(winners=(), reason="arbiter", kind="draw")
ALL = ("points", "game-points", "buchholz", "buchholz-cut1", "median-buchholz", "sonneborn-berger", "omw", "gw",
       "ogw", "progressive", "score")


def _records(corrected: bool = True) -> list[ev.Record]:
    events: list[ev.Event] = [
        ev.Created(name="Worked", game="by_all_means", format="swiss", rounds=3, tiebreaks=ALL,
                   points=ev.Points(win=3, draw=1, loss=0, bye=3), seed=1),
        *[ev.PlayerAdded(player=p) for p in "abcde"],
        ev.RoundPaired(round=1, tables=(ev.Table(table=1, seats=("a", "b")), ev.Table(table=2, seats=("c", "d"))),
                       byes=("e",)),
        ev.ResultRecorded(round=1, table=1, outcome=WIN["a"]),
        ev.ResultRecorded(round=1, table=2, outcome=DRAW),
        ev.RoundClosed(round=1, results=()),
        ev.RoundPaired(round=2, tables=(ev.Table(table=1, seats=("a", "c")), ev.Table(table=2, seats=("b", "e"))),
                       byes=("d",)),
        ev.ResultRecorded(round=2, table=1, outcome=WIN["a"]),
        ev.ResultRecorded(round=2, table=2, outcome=Outcome(winners=("e",), reason="arbiter", kind="win",
                                                            scores={"b": 4, "e": 7})),
        ev.RoundClosed(round=2, results=()),
        ev.PlayerDropped(player="e"),
        ev.RoundPaired(round=3, tables=(ev.Table(table=1, seats=("a", "d")), ev.Table(table=2, seats=("b", "c")))),
        ev.ResultRecorded(round=3, table=1, outcome=WIN["d"]),
        ev.ResultRecorded(round=3, table=2, outcome=WIN["b"]),
        ev.RoundClosed(round=3, results=()),
    ]
    if corrected:
        events.append(ev.ResultCorrected(round=1, table=2, outcome=WIN["c"]))
    return [ev.Record(tournament="t1", n=i, by="arbiter", why="scoresheet" if isinstance(e, ev.ResultCorrected) else "",
                      event=e) for i, e in enumerate(events, start=1)]


def _values(state, after=None, tiebreaks=ALL):
    table = standings(state, after, tiebreaks=tiebreaks)
    return {r.player: dict(zip(table.tiebreaks, r.values)) for r in table.rows}


HAND = {
    # match points: a W W L; b L L W; c W(corrected) L L; d L bye W; e bye W (dropped)
    "points": {"a": 6, "b": 3, "c": 3, "d": 6, "e": 6},
    # 1 a won game, 1/2 a drawn one; a bye counts as a won game
    "game-points": {"a": 2, "b": 1, "c": 1, "d": 2, "e": 2},
    # opponents' points: a: b3+c3+d6; b: a6+e6+c3; c: d6+a6+b3; d: c3+a6 (bye: none); e: b3
    "buchholz": {"a": 12, "b": 15, "c": 15, "d": 9, "e": 3},
    # less the lowest (one opponent: nothing cut)
    "buchholz-cut1": {"a": 9, "b": 12, "c": 12, "d": 6, "e": 3},
    # less the highest and the lowest (three opponents or more)
    "median-buchholz": {"a": 3, "b": 6, "c": 6, "d": 9, "e": 3},
    # beaten opponents' points (+ half of drawn): a: b3+c3; b: c3; c: d6; d: a6; e: b3
    "sonneborn-berger": {"a": 6, "b": 3, "c": 6, "d": 6, "e": 3},
    # match-win %: a 6/9, b 3/9, c 3/9, d 6/9, e 6/6 (floor 1/3); mean over opponents
    "omw": {"a": F(4, 9), "b": F(2, 3), "c": F(5, 9), "d": F(1, 2), "e": F(1, 3)},
    "gw": {"a": F(2, 3), "b": F(1, 3), "c": F(1, 3), "d": F(2, 3), "e": F(1)},
    "ogw": {"a": F(4, 9), "b": F(2, 3), "c": F(5, 9), "d": F(1, 2), "e": F(1, 3)},
    # running score after each round played: a 3+6+6; b 0+0+3; c 3+3+3; d 0+3+6; e 3+6
    "progressive": {"a": 15, "b": 3, "c": 9, "d": 9, "e": 9},
    # the scores outcomes carry: only round 2 table 2 has them
    "score": {"a": 0, "b": 4, "c": 0, "d": 0, "e": 7},
}


@pytest.mark.parametrize("name", list(HAND))
def test_each_tiebreak_matches_the_hand_worked_value(name):
    got = _values(fold(_records()))
    assert {p: got[p][name] for p in "abcde"} == {p: F(v) for p, v in HAND[name].items()}


def test_head_to_head_among_the_level_players():
    # 6 points: a, d, e — d beat a; 3 points: b, c — b beat c
    got = _values(fold(_records()), tiebreaks=("points", "head-to-head"))
    assert {p: got[p]["head-to-head"] for p in "abcde"} == {"a": 0, "b": 1, "c": 0, "d": 1, "e": 0}
    order = [r.player for r in standings(fold(_records()), tiebreaks=("points", "head-to-head")).rows]
    assert order[:1] == ["d"] and order[3:] == ["b", "c"]


def test_order_ranks_and_the_dropped_player():
    table = standings(fold(_records()))
    # points, then game points (a, d, e: 2 each), Buchholz 12 / 9 / 3; then c before b on Buchholz? level
    # 15 / 15 -> cut-1 12 / 12 -> median 6 / 6 -> Sonneborn-Berger c 6 > b 3
    assert [r.player for r in table.rows] == ["a", "d", "e", "c", "b"]
    assert [r.rank for r in table.rows] == [1, 2, 3, 4, 5]
    assert [r.player for r in table.rows if r.dropped] == ["e"]


def test_a_correction_changes_standings_and_shows_what_it_replaced():
    before, after = fold(_records(corrected=False)), fold(_records())
    assert _values(before)["c"]["points"] == 1 and _values(before)["d"]["points"] == 7
    assert _values(after)["c"]["points"] == 3 and _values(after)["d"]["points"] == 6
    # after round 1 alone: the draw gave c and d 1 each; the correction gives c 3, d 0
    assert (_values(before, 1)["c"]["points"], _values(before, 1)["d"]["points"]) == (1, 1)
    assert (_values(after, 1)["c"]["points"], _values(after, 1)["d"]["points"]) == (3, 0)
    e = explain(after, "d")
    assert len(e.corrections) == 1 and "draw" in e.corrections[0] and "c won" in e.corrections[0]
    # the record as it stood before the correction folds to the earlier standings, at any later time
    records = _records()
    assert _values(fold(records[:-1])) == _values(before)


def test_explanations_name_every_match_and_number():
    e = explain(fold(_records()), "a")
    values = {name: (v, lines) for name, v, lines in e.values}
    assert values["buchholz"][0] == 12
    assert values["buchholz"][1] == ["round 1 table 1 [arbiter]: b has 3", "round 2 table 1 [arbiter]: c has 3",
                                     "round 3 table 1 [arbiter]: d has 6"]
    assert values["buchholz-cut1"][1][-1] == "cut: round 1 table 1 [arbiter]: b has 3"
    assert values["sonneborn-berger"][1][0] == "round 1 table 1 [arbiter]: took 1 from b (3) = 3"


def test_pod_rankings_give_place_points_and_shares():
    from referee.tournament.scoring import table_games

    ranked = Outcome(winners=("a",), reason="most_points", kind="ranking", ranking=(("a",), ("b", "c"), ("d",)),
                     scores={"a": 12, "b": 9, "c": 9, "d": 3})
    games = {g.player: g for g in table_games(1, 1, None, ("a", "b", "c", "d"), ranked, ev.Points())}
    # places 3, 2, 1, 0 at four seats; b and c level share (2 + 1) / 2
    assert {p: g.points for p, g in games.items()} == {"a": 3, "b": F(3, 2), "c": F(3, 2), "d": 0}
    assert games["b"].against("c") == F(1, 2) and games["b"].against("d") == 1 and games["b"].against("a") == 0
    assert games["b"].game_points == F(1, 2) and games["a"].game_points == 1
    custom = {g.player: g.points for g in table_games(1, 1, None, ("a", "b", "c", "d"), ranked,
                                                      ev.Points(places=(5, 3, 1, 0)))}
    assert custom == {"a": 5, "b": 2, "c": 2, "d": 0}
    team = table_games(1, 1, None, ("a", "b", "c"), Outcome(winners=("a", "b", "c"), reason="x", kind="team_win"),
                       ev.Points())
    assert {g.points for g in team} == {3}
    lost = table_games(1, 1, None, ("a", "b", "c"), Outcome(winners=(), reason="x", kind="team_loss"), ev.Points())
    assert {g.points for g in lost} == {0}


def test_progressive_after_every_round_in_a_new_tournament():
    """The fix (issue 24 item 9): a tournament created now adds the running score after every round, played
    or not: e, who dropped after round 2, has 3 + 6 + 6, not 3 + 6; everyone who played every round keeps
    the value above. This event, recorded before the fix (no ``progressive`` in its first record), keeps 9."""
    import msgspec

    records = _records()
    now = [msgspec.structs.replace(records[0], event=msgspec.structs.replace(records[0].event, progressive="rounds")),
           *records[1:]]
    got = _values(fold(now))
    assert {p: got[p]["progressive"] for p in "abcde"} == {"a": 15, "b": 3, "c": 9, "d": 9, "e": 15}
    assert _values(fold(records))["e"]["progressive"] == 9


@pytest.mark.parametrize("progressive,expected", [("rounds", 8), ("games", 6)])
def test_progressive_counts_a_withdrawn_pairings_round(progressive, expected):
    """The issue's case: at 2/1/0, a player who wins rounds 1 and 3, round 2's pairing withdrawn, has 2 + 2 + 4
    (after every round) where the rounds with a game alone gave 2 + 4."""
    events: list[ev.Event] = [
        ev.Created(name="W", game="by_all_means", format="swiss", rounds=3, tiebreaks=("progressive",),
                   points=ev.Points(win=2, draw=1, loss=0, bye=2), seed=1, progressive=progressive),
        *[ev.PlayerAdded(player=p) for p in "ab"],
    ]
    for number in (1, 2, 3):
        events.append(ev.RoundPaired(round=number, tables=(ev.Table(table=1, seats=("a", "b")),)))
        if number == 2:
            events.append(ev.PairingWithdrawn(round=2, table=1))
        else:
            events.append(ev.ResultRecorded(round=number, table=1, outcome=WIN["a"]))
        events.append(ev.RoundClosed(round=number, results=()))
    state = fold([ev.Record(tournament="w", n=i, by="arbiter", event=e) for i, e in enumerate(events, start=1)])
    assert _values(state, tiebreaks=("progressive",))["a"]["progressive"] == expected
