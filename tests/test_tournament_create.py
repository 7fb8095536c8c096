"""Creating a tournament with its players (issue 23): one transaction whatever the number of players,
no record read back per player (creation was quadratic: 4,096 players took minutes), and a bad name
anywhere in the list leaves nothing written. Runs on both backends."""

from __future__ import annotations

import pytest

from referee.errors import BadInput
from referee.games import GAMES
from referee.service import Referee
from referee.tournament.service import Tournaments
from support.pile import PILE


class Counting:
    """The store, counting the calls of the methods creation could repeat per player."""

    WATCHED = ("tournament_events", "append_tournament_events", "create_tournament", "get_tournament")

    def __init__(self, store):
        self.store = store
        self.calls = dict.fromkeys(self.WATCHED, 0)

    def __getattr__(self, name):
        attr = getattr(self.store, name)
        if name in self.WATCHED:
            def counted(*args, **kwargs):
                self.calls[name] += 1
                return attr(*args, **kwargs)
            return counted
        return attr


@pytest.mark.parametrize("players", [3, 300])
def test_creation_costs_one_write_and_no_reads_whatever_the_players(db_store, players):
    store = Counting(db_store)
    t = Tournaments(Referee(store, games=(*GAMES, PILE)))
    names = [f"p{i:04}" for i in range(players)]
    state = t.create("Open", "pile", rounds=2, players=names)
    assert store.calls == {"tournament_events": 0, "append_tournament_events": 0, "create_tournament": 1,
                           "get_tournament": 0}
    assert state.n == players + 1 and list(state.players) == names
    again = t.load(state.id)  # what was stored folds to what creation answered
    assert again.n == players + 1 and list(again.players) == names
    assert [p.entered for p in again.players.values()] == [1] * players
    assert t.audit(state.id) == []


@pytest.mark.parametrize("players, why", [
    (["ann", "ben", "ann"], "'ann' is already registered"),
    (["ann", "ben", "x y"], "player name 'x y' is not usable"),
    (["ann", "arbiter"], "player name 'arbiter' is not usable"),
])
def test_a_bad_player_anywhere_in_the_list_leaves_nothing_written(db_store, players, why):
    t = Tournaments(Referee(db_store, games=(*GAMES, PILE)))
    with pytest.raises(BadInput, match=why):
        t.create("Open", "pile", rounds=2, players=players)
    assert db_store.list_tournaments() == []
