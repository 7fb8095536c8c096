"""Tournaments over real matches (issue 14): results come from the match logs, a round is blocked by an
unfinished match, an open dispute or a pending confirmation (naming the table) until settled; an
arbiter's result and a correction are records; closing and reopening the database, or folding the
records again, gives the same standings; pairing is repeatable; the audit checks results against logs."""

from __future__ import annotations

import random

import pytest

from referee.engine.notation import format_intent
from referee.errors import BadInput, NotFound
from referee.games import GAMES
from referee.service import Referee
from referee.store.sqlite import SqliteStore
from referee.tournament.fold import fold
from referee.tournament.service import Tournaments
from referee.tournament.standings import standings
from support.pile import PILE


def _service(path):
    return Tournaments(Referee(SqliteStore(str(path)), games=(*GAMES, PILE)))


def _finish(ref, match_id, rng, *, stop_before_end=False):
    loaded = ref.load(match_id)
    while True:
        _, state = ref.state_at(loaded)
        if loaded.rules.outcome(state) is not None:
            return
        options = [(s, i) for s in loaded.config.players for i in loaded.rules.legal_intents(state, s)
                   if type(i).__name__ in ("Take", "Start")]
        seat, intent = options[rng.randrange(len(options))]
        if stop_before_end and type(intent).__name__ == "Take" and state.pile <= 3:
            return
        ref.submit(match_id, seat, format_intent(intent))


def _new(t, players=7, **kw):
    args = dict(rounds=3, seed=11, options={"stones": "4"}, chance="digital", players=[f"p{i}" for i in range(players)])
    return t.create("Club night", "pile", **(args | kw))


def test_results_come_from_the_logs_and_block_until_settled(tmp_path):
    t = _service(tmp_path / "t.db")
    ref = t.referee
    rng = random.Random(3)
    state = _new(t)
    preview = t.pair(state.id, dry_run=True)
    r1 = t.pair(state.id)
    assert [x.seats for x in r1.tables] == [x.seats for x in preview.tables] and r1.byes == preview.byes
    assert len(r1.tables) == 3 and len(r1.byes) == 1
    assert set(r1.tables[0].tokens) == {*r1.tables[0].seats, "arbiter", "spectator"}
    info = ref.match_info(r1.tables[2].match_id)  # `referee matches --event/--round` finds the tournament's
    assert (info.event, info.round, info.table) == ("Club night", "1", "3")
    with pytest.raises(BadInput, match=r"round 1 table 1 \(match .*\) blocks the next round: the match is not finished"):
        t.pair(state.id)
    for x in r1.tables:
        _finish(ref, x.match_id, rng)
    # a dispute on table 2 blocks, naming it; a ruling annotation on that entry settles it
    m2 = r1.tables[1].match_id
    ref.annotate(m2, 2, "was that legal?", kind="disputed", by="p1")
    with pytest.raises(BadInput, match="round 1 table 2 .* open dispute on entry 2"):
        t.pair(state.id)
    ref.annotate(m2, 2, "it was", kind="ruling", by="arbiter")
    r2 = t.pair(state.id)
    loaded = t.load(state.id)
    assert loaded.rounds[0].closed
    copied = {k: v for k, v in loaded.results.items() if k[0] == 1}
    assert all(v.source == "log" and v.outcome == ref.show(v.match_id).outcome for v in copied.values())
    # no rematch in round 2
    met = {frozenset(x.seats) for x in r1.tables}
    assert not [x for x in r2.tables if frozenset(x.seats) in met]
    # table 1 of round 2 is played off the system: the arbiter's result settles it
    _finish(ref, r2.tables[1].match_id, rng)
    _finish(ref, r2.tables[2].match_id, rng)
    with pytest.raises(BadInput, match="round 2 table 1"):
        t.close_round(state.id)
    a, b = r2.tables[0].seats
    t.record_result(state.id, 2, 1, f"win:{a}", by="arbiter", why="played on paper")
    with pytest.raises(BadInput, match="has a result already"):
        t.record_result(state.id, 2, 1, f"win:{b}")
    with pytest.raises(BadInput, match="needs a reason"):
        t.record_result(state.id, 2, 1, f"win:{b}", correct=True)
    _, before, after = t.record_result(state.id, 2, 1, "draw", correct=True, why="misread")
    assert before.rows != after.rows
    t.close_round(state.id)
    assert t.audit(state.id) == []
    final = t.standings(state.id)
    after1 = t.standings(state.id, after_round=1)
    records = t.records(state.id)
    t.store.close()

    # closing and reopening the database, and folding the records afresh, give the same standings
    again = _service(tmp_path / "t.db")
    assert again.standings(state.id) == final
    assert again.standings(state.id, after_round=1) == after1
    assert standings(fold(records)) == final
    assert again.export(state.id, "json") == again.export(state.id, "json")
    # a record edited behind the referee's back shows in the audit
    again.store.conn.execute("DROP TRIGGER tournament_events_append_only_update")
    again.store.conn.execute("UPDATE tournament_events SET body = replace(body, 'misread', 'MISREAD') "
                             "WHERE tournament_id = ?", (state.id,))
    assert any("hash does not follow" in f for f in again.audit(state.id))


def test_a_round_paired_twice_is_paired_the_same(tmp_path):
    plans = []
    for i in range(2):
        t = _service(tmp_path / f"{i}.db")
        state = _new(t, players=9, tournament_id="same")
        plans.append([(x.seats, x.table) for x in t.pair(state.id, tokens=False).tables])
    assert plans[0] == plans[1]


def test_drops_late_entries_and_pods(tmp_path):
    t = _service(tmp_path / "p.db")
    rng = random.Random(5)
    state = t.create("Pods", "pile", format="pods", rounds=2, seed=2, options={"stones": "5"}, chance="digital",
                     players=[f"p{i}" for i in range(10)])
    r1 = t.pair(state.id, tokens=False)
    assert sorted(len(x.seats) for x in r1.tables) == [3, 3, 4]
    for x in r1.tables:
        _finish(ref := t.referee, x.match_id, rng)
    t.drop(state.id, "p0", why="went home")
    t.add_player(state.id, "late", why="arrived")
    with pytest.raises(BadInput, match="already registered"):
        t.add_player(state.id, "late")
    r2 = t.pair(state.id, tokens=False)
    seated = [p for x in r2.tables for p in x.seats]
    assert "p0" not in seated and "late" in seated
    rows = {r.player: r for r in t.standings(state.id).rows}
    assert rows["p0"].dropped and rows["late"].played == 0
    for x in r2.tables:
        _finish(ref, x.match_id, rng)
    t.close_round(state.id)
    assert t.audit(state.id) == []
    with pytest.raises(BadInput, match="all 2 rounds are paired"):
        t.pair(state.id)


def test_bad_input_is_refused_and_writes_nothing(tmp_path):
    t = _service(tmp_path / "b.db")
    with pytest.raises(BadInput, match="'bogus' is not a tie-break"):
        t.create("X", "pile", tiebreaks=["points", "bogus"])
    with pytest.raises(BadInput, match="format must be"):
        t.create("X", "pile", format="knockout")
    assert t.store.list_tournaments() == []
    state = _new(t)
    with pytest.raises(NotFound):
        t.load("nope")
    with pytest.raises(BadInput, match="not usable"):
        t.add_player(state.id, "bad name")
    with pytest.raises(NotFound):
        t.drop(state.id, "ghost")
    with pytest.raises(NotFound, match="has not been paired"):
        t.record_result(state.id, 1, 1, "draw")
    assert t.load(state.id).n == 8
