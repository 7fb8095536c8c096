"""A player's history (issue 25, item 6): ``referee player NAME`` and the hall's player page. The
numbers are checked against wins, draws and losses counted here from the matches' outcomes; the
page's chart has one point per rated match; hostile names are text; a token that may not read a
player's page is refused. Both backends where a store is involved."""

from __future__ import annotations

import json
import re

import pytest

from referee.errors import NotFound
from referee.players import history, of_database, result_of
from referee.playerpage import page
from referee.ratings import ratings
from referee.service import Referee
from referee.store.memory import MemoryStore
from referee.summaries import listing
from referee.summaries import outcome as outcome_of
from support.apps import app_client
from support.pile import PILE

ADMIN = "adm"
HOSTILE = "<script>x</script>"


def bearer(token):
    return {"Authorization": f"Bearer {token}"}


def _play(ref, players, ending="last_stone"):
    """The first seat starts and takes both stones: it wins (or places first; all level on a draw)."""
    m = ref.new_match("pile", players, options={"stones": "2", "ending": ending})
    ref.submit(m.id, players[0], f"start first={players[0]} tokens={','.join(f'K0{i + 1}' for i in range(len(players)))}")
    ref.submit(m.id, players[0], "take 2")
    return m.id


def _club(store):
    ref = Referee(store, games=[PILE], clock=iter(f"2026-01-01T00:{i // 60:02}:{i % 60:02}Z" for i in range(900)).__next__)
    for _ in range(3):
        _play(ref, ["ann", "ben"])
    _play(ref, ["ben", "ann"])
    _play(ref, ["ann", "ben"], ending="draw")
    _play(ref, ["ann", "ben", "cy"], ending="ranking")
    last = _play(ref, ["cy", "ann"])
    ref.fork(last, at=2)  # a variation that ended: not a match played
    ref.new_match("pile", ["ann", "dee"])  # still being played
    return ref


def _counted(ref, player):
    """W-D-L counted here, straight from each finished, unforked match's outcome."""
    w = d = loss = 0
    for s in ref.store.summaries():
        o = outcome_of(s)
        if s.parent is not None or o is None or player not in s.seats:
            continue
        if o.how == "draw":
            d += 1
        elif player in (o.winners or ()) or (o.how == "ranking" and player in o.ranking[0]):
            w += 1
        else:
            loss += 1
    return w, d, loss


def test_results_and_rating_agree_with_counts_made_independently(db_store):
    ref = _club(db_store)
    got = of_database(ref, "ann")
    w, d, loss = _counted(ref, "ann")
    assert (w, d, loss) == (4, 1, 2)  # three wins and the ranking as first; the draw; ben's and cy's wins
    (rec,) = got.games
    assert (rec.wins, rec.draws, rec.losses, rec.played) == (w, d, loss, w + d + loss)
    assert rec.win_rate == round(w / (w + d + loss), 4)
    assert [m.result for m in got.matches].count("playing") == 1 and len(got.matches) == 8
    assert all(m.match_id != ref.store.list_matches()[-2].id for m in got.matches)  # the fork is left out
    # the rating's last point is what `referee ratings` prints; one point per rated match (the draw too)
    now = {r.player: r for r in ratings(ref).players}["ann"]
    assert len(got.rating) == now.matches == 7
    assert got.rating[-1].ordinal == round(now.ordinal, 4)
    assert history(listing(ref), "ann") == got  # the same summaries, the same history


def test_cooperative_tables_and_results():
    ref = Referee(MemoryStore(), games=[PILE])
    mid = _play(ref, ["ann", "ben"], ending="team_win")
    s = ref.store.summary(mid)
    assert result_of(outcome_of(s), s.seats, "ben") == "win"
    got = of_database(ref, "ben")
    assert got.rating == [] and got.games[0].wins == 1  # co-operative: counted as a result, not rated
    (m,) = got.matches
    assert (m.opponents, m.partners) == ([], ["ann"])  # a teammate, not an opponent
    assert "with ann" in page(got)


def test_unknown_player_is_refused_with_suggestions():
    ref = _club(MemoryStore())
    with pytest.raises(NotFound) as err:
        of_database(ref, "anne")
    assert "'anne'" in err.value.message and "did you mean ann?" in err.value.message
    with pytest.raises(NotFound) as err:
        of_database(ref, "zed")
    assert "did you mean" not in err.value.message


def test_the_command_json_plain_lines_and_refusal(cli, tmp_path):
    from referee.store import open_store

    store = open_store(str(tmp_path / "r.db"))
    _club(store)
    store.close()
    as_json = cli("player", "ann", "--json")
    assert as_json.code == 0, as_json.err
    body = json.loads(as_json.out)
    assert set(body) == {"player", "game", "events", "matches", "games", "rating", "model"}
    assert set(body["matches"][0]) == {"match_id", "game", "opponents", "partners", "result", "score", "event", "round", "table",
                                       "last_activity"}
    assert body["games"] == [{"game": "pile", "played": 7, "wins": 4, "draws": 1, "losses": 2, "win_rate": 0.5714}]
    plain = cli("player", "ann")
    assert plain.code == 0 and "record pile: 4-1-2 (W-D-L) of 7, win rate 57.1%" in plain.out
    assert plain.out.count("\nmatch ") == 8
    unknown = cli("player", "anne")
    assert unknown.code == 3 and unknown.err == "error: no player 'anne' sat in any match (did you mean ann?)\n"
    assert unknown.out == ""
    assert cli("player", "ann", "--game", "nope").code == 3
    assert "Example: referee player" in cli("player", "--help").out


def test_the_page_is_deterministic_escaped_and_charts_each_rated_match():
    ref = _club(MemoryStore())
    got = of_database(ref, "ann")
    html = page(got, title="in <b>", display=HOSTILE)
    assert html == page(got, title="in <b>", display=HOSTILE)
    assert len(re.findall(r"<circle ", html)) == len(got.rating) == 7
    assert HOSTILE not in html and "&lt;script&gt;" in html and "<b>" not in html
    assert "http" not in html.replace('lang="en"', "")  # nothing fetched from anywhere
    assert '<meta name="viewport"' in html


@pytest.fixture
def hall(db_store):
    with app_client(lambda: Referee(db_store, games=[PILE]), admin_token=ADMIN) as c:
        made = c.post("/tournaments", json={"name": "Hall cup", "game": "pile", "rounds": 2, "seed": 3,
                                            "chance": "digital", "options": {"stones": "2"},
                                            "players": ["ann", "ben", "cy"]}, headers=bearer(ADMIN))
        assert made.status_code == 201, made.text
        body = made.json()
        added = c.post(f"/tournaments/{body['tournament']}/players", json={"player": "eve", "name": HOSTILE},
                       headers=bearer(body["tokens"]["organiser"]))
        assert added.status_code == 201, added.text
        yield c, body


def _play_out(client, table):
    h = bearer(table["tokens"]["arbiter"])
    mid = table["match_id"]
    for _ in range(20):
        if client.get(f"/matches/{mid}/state", headers=h).json()["outcome"] is not None:
            return
        legal = client.get(f"/matches/{mid}/legal", headers=h).json()["legal"]
        seat, intent = next((s, i) for s, xs in legal.items() for i in xs if i.startswith(("take", "start")))
        assert client.post(f"/matches/{mid}/intents", json={"intent": intent, "seat": seat}, headers=h).status_code == 201
    raise AssertionError("the match did not end")


def test_hall_player_page_access_and_escaping(hall):
    from urllib.parse import quote

    c, made = hall
    tid, tokens = made["tournament"], made["tokens"]
    paired = c.post(f"/tournaments/{tid}/pair", json={}, headers=bearer(tokens["organiser"])).json()
    for table in paired["tables"]:
        _play_out(c, table)
    spec = bearer(tokens["spectator"])
    got = c.get(f"/tournaments/{tid}/players/eve/page", headers=spec)  # eve's shown name is hostile
    assert got.status_code == 200, got.text
    assert HOSTILE not in got.text and "&lt;script&gt;x&lt;/script&gt;" in got.text
    body = c.get(f"/tournaments/{tid}/players/eve", headers=spec).json()
    assert len(body["matches"]) == 1 and len(re.findall("<circle ", got.text)) == len(body["rating"])
    assert "<script" not in got.text  # the page needs no script
    typed = '"><img src=x onerror=alert(1)>'  # a hostile name typed into the URL (no slash: a path is split at one)
    bad = quote(typed, safe="")
    shell = c.get(f"/hall/{tid}/players/{bad}")
    assert shell.status_code == 200 and typed not in shell.text and "\\u003cimg" in shell.text
    assert c.get(f"/tournaments/{tid}/players/{bad}", headers=spec).status_code == 404
    # who may read it: the organiser and the spectators any player's; a player their own only
    assert c.get(f"/tournaments/{tid}/players/ann/page", headers=bearer(tokens["players"]["ann"])).status_code == 200
    assert c.get(f"/tournaments/{tid}/players/ann/page", headers=bearer(tokens["players"]["ben"])).status_code == 403
    assert c.get(f"/tournaments/{tid}/players/ann/page").status_code == 401
    assert c.get(f"/tournaments/{tid}/players/ann/page", headers=bearer("guess")).status_code == 401
    other = c.post("/tournaments", json={"name": "Other", "game": "pile", "players": ["p", "q"]}, headers=bearer(ADMIN))
    assert c.get(f"/tournaments/{tid}/players/ann/page",
                 headers=bearer(other.json()["tokens"]["spectator"])).status_code == 403
    missing = c.get(f"/tournaments/{tid}/players/anne", headers=spec)
    assert missing.status_code == 404 and "did you mean ann?" in missing.json()["message"]


def test_the_command_draws_tables_for_a_person(cli, tmp_path, monkeypatch):
    import sys

    from referee.store import open_store

    store = open_store(str(tmp_path / "r.db"))
    _club(store)
    store.close()
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True, raising=False)
    shown = cli("player", "ann")
    assert shown.code == 0, shown.err
    assert "Results per game" in shown.out and "4-1-2" in shown.out and "57.1%" in shown.out
    assert shown.out.count("pile") >= 9  # the record's row and each match's
    assert "after 7 rated matches" in shown.out
