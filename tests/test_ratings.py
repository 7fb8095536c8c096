"""``referee ratings`` (issue 14, item 6): openskill's Weng-Lin ratings from every finished match,
reproducible from the logs; winners rise, losers fall; rankings, forks and co-operative ends."""

from __future__ import annotations

from referee.ratings import ratings
from referee.service import Referee
from referee.store.memory import MemoryStore
from support.pile import PILE


def _play(ref, players, ending="last_stone"):
    """The first seat starts and takes both stones: it wins (or places first)."""
    m = ref.new_match("pile", players, options={"stones": "2", "ending": ending})
    ref.submit(m.id, players[0], f"start first={players[0]} tokens={','.join(f'K0{i + 1}' for i in range(len(players)))}")
    ref.submit(m.id, players[0], "take 2")
    return m.id


def test_winners_rise_and_the_numbers_are_reproducible():
    ref = Referee(MemoryStore(), games=[PILE], clock=iter(f"2026-01-01T00:00:{i:02}Z" for i in range(60)).__next__)
    for _ in range(3):
        _play(ref, ["ann", "ben"])
    last = _play(ref, ["ben", "cy"])
    ref.fork(last, at=1)  # a variation, not finished: neither rated nor counted
    ref.fork(last, at=2)  # a variation that ended: counted as skipped
    ref.new_match("pile", ["ann", "dee"])  # not finished: neither rated nor counted (dee is named nowhere)
    got = ratings(ref)
    by = {r.player: r for r in got.players}
    assert got.rated == 4 and got.skipped == {"forks": 1}
    assert "dee" not in by
    assert by["ann"].mu > 25 > by["cy"].mu  # ann won all three; cy lost his one
    assert by["ann"].matches == 3 and by["ben"].matches == 4 and by["cy"].matches == 1
    assert [r.player for r in got.players][0] == "ann"
    # the same logs in a fresh store give the same numbers
    fresh = Referee(MemoryStore(), games=[PILE])
    for m in ref.store.list_matches():
        fresh.store.create_match(m, list(ref.store.entries(m.id)) if m.parent is None else [])
    assert ratings(fresh) == got


def test_rankings_ties_and_cooperative_ends():
    ref = Referee(MemoryStore(), games=[PILE])
    _play(ref, ["ann", "ben", "cy"], ending="ranking")
    _play(ref, ["ann", "ben", "cy"], ending="team_win")
    _play(ref, ["ann", "ben", "cy"], ending="draw")
    got = ratings(ref)
    assert got.rated == 2 and got.skipped == {"co-operative": 1}
    assert len({round(r.mu, 9) for r in got.players}) >= 2
