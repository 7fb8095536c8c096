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


def _demo_cards() -> str:
    from importlib import resources

    return resources.files("referee.games.by_all_means").joinpath("data/demo.toml").read_text("utf-8")


def test_the_cli_reads_a_card_file_once_and_keeps_its_text(cli, tmp_path, monkeypatch):
    """``tournament new --cards FILE`` reads the file when the tournament is created; its matches take the
    text kept with the tournament (the file may be gone by then); a name that is neither bundled nor a
    file is refused, nothing written."""
    cards = tmp_path / "house.toml"
    cards.write_text(_demo_cards(), encoding="utf-8")
    made = cli("tournament", "new", "Cup", "--game", "by_all_means", "--rounds", "1", "--cards", str(cards),
               "--players", "ann,ben", "--json")
    assert made.code == 0, made.err
    cards.unlink()
    paired = cli("tournament", "pair", made.json["id"], "--json")
    assert paired.code == 0, paired.err
    from referee.store.sqlite import SqliteStore

    ref = Referee(SqliteStore(str(tmp_path / "r.db")))
    config = ref.load(paired.json["tables"][0]["match_id"]).config
    assert (config.cards, config.cards_text) == ("house.toml", _demo_cards())
    missing = cli("tournament", "new", "Cup", "--game", "by_all_means", "--cards", "nowhere.toml", "--json")
    assert missing.code == 2 and missing.json["code"] == "cards/not_bundled", missing.out
    assert len(cli("tournament", "list", "--json").json) == 1


def test_the_cli_sends_a_card_files_text_and_the_admin_token_to_a_server(cli, db_store, tmp_path):
    from support.apps import live_server

    cards = tmp_path / "house.toml"
    cards.write_text(_demo_cards(), encoding="utf-8")
    with live_server(lambda: Referee(db_store), admin_token="adm") as server:
        url = ("--server", server.url)
        args = ("tournament", "new", "Cup", "--game", "by_all_means", "--cards", str(cards), "--players", "ann,ben",
                "--json")
        refused = cli(*url, *args)
        assert refused.code != 0 and "admin token" in refused.err, (refused.out, refused.err)
        made = cli(*url, "--token", "adm", *args)
        assert made.code == 0, made.err
    state = Tournaments(Referee(db_store)).load(made.json["tournament"])
    assert (state.config.cards, state.config.cards_text) == ("house.toml", _demo_cards())
