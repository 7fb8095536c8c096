"""A seat's page (issue 26, items 1-3 and 6): ``GET /matches/{id}/seat`` answers the seat's view, its legal
moves as choices grouped by intent, the move waiting for a confirmation and whether it may take back its
last move; ``/play/{id}`` is a fixed shell that fetches it with the fragment's token.

For each of the five games a seeded digital match is played by tapping the first offered choice (of the
first seat that has one, or confirming what waits for it) until the game ends or 200 moves: every choice
offered is accepted. The answers hold nothing hidden from the seat (the byte search of tests/test_leaks.py),
and a tournament player's token (a slip's QR code) plays its own seat and nobody else's."""

from __future__ import annotations

import json
import re

import msgspec
import pytest
from litestar.testing import TestClient

from referee.games import ids
from referee.seatpage import shell
from referee.service import Referee
from referee.store.memory import MemoryStore
from support.apps import app_client
from support.pageleaks import leaks

PLAYERS = {"by_all_means": ["alice", "bob"], "war_of_shadows": ["alice", "bob"],
           "xfiles_encounters": ["alice", "bob", "carol"], "android": ["alice", "bob", "carol"],
           "copycat": ["alice", "bob", "carol"]}
MOVES = 200


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


@pytest.fixture(scope="module")
def hall():
    store = MemoryStore()
    with app_client(lambda: Referee(store)) as client:
        yield client, Referee(store)


def new_match(client: TestClient, game: str, seed: int = 7, **more) -> tuple[str, dict[str, str]]:
    made = client.post("/matches", json={"game": game, "players": PLAYERS[game], "chance": "digital", "seed": seed,
                                         **more})
    assert made.status_code == 201, made.text
    data = made.json()
    return data["match"]["id"], data["tokens"]["seats"]


def tap_through(client: TestClient, referee: Referee, mid: str, seats: dict[str, str]) -> tuple[int, dict]:
    """Tap the first offered choice (or confirm what waits) until the game ends, nobody has a move, or
    :data:`MOVES` moves; each answer is searched for what its seat may not see. Returns (moves, last answer)."""
    moves, last = 0, {}
    while moves < MOVES:
        acted = False
        for seat, token in seats.items():
            got = client.get(f"/matches/{mid}/seat", headers=auth(token))
            assert got.status_code == 200, got.text
            last = got.json()
            assert last["seat"] == seat and last["seq"] == referee.store.head(mid)
            assert not leaks(referee, mid, seat, got.text), (seat, leaks(referee, mid, seat, got.text))
            if last["result"]:
                return moves, last
            held = last["held"]
            if held and held["confirmer"] == seat:
                done = client.post(f"/matches/{mid}/confirmations", headers=auth(token),
                                   json={"entry": held["seq"], "expected_seq": last["seq"]})
            elif last["moves"]:
                choice = last["moves"][0]["choices"][0]
                assert not any(f["fill"] for f in choice["fields"])  # digital: the referee draws
                done = client.post(f"/matches/{mid}/intents", headers=auth(token),
                                   json={"intent": choice["intent"], "expected_seq": last["seq"]})
            else:
                continue
            assert done.status_code == 201, done.text
            assert done.json()["verdict"] in ("accepted", "held"), (seat, done.json())
            moves, acted = moves + 1, True
            break
        if not acted:
            return moves, last
    return moves, last


@pytest.mark.parametrize("game", ids())
def test_every_offered_choice_is_accepted(hall, game):
    client, referee = hall
    mid, seats = new_match(client, game)
    moves, last = tap_through(client, referee, mid, seats)
    assert moves >= 6, (game, moves)
    entries = referee.log(mid)
    assert len(entries) == moves and all(e.verdict in ("accepted", "held") or e.kind == "confirm" for e in entries)
    assert last["result"] or moves == MOVES or not last["moves"]


def test_choices_are_grouped_by_intent_with_each_fields_values(hall):
    client, referee = hall
    mid, seats = new_match(client, "war_of_shadows")
    got = client.get(f"/matches/{mid}/seat", headers=auth(seats["alice"])).json()
    groups = {g["verb"]: g for g in got["moves"]}
    society = groups["choose_society"]
    assert [c["intent"] for c in society["choices"]] == [f"choose_society society={v}" for v in society["values"]["society"]]
    assert len(society["values"]["society"]) == 4 and society["doc"]
    legal = client.get(f"/matches/{mid}/legal", headers=auth(seats["alice"])).json()["legal"]["alice"]
    assert [c["intent"] for g in got["moves"] for c in g["choices"]] == legal  # the same moves, as /legal gives them
    assert got["take_back"] is None and got["held"] is None and got["undo_policy"] == "any"


def test_a_physical_match_asks_for_the_chance_facts_read_off_the_table(hall):
    client, referee = hall
    mid, seats = new_match(client, "by_all_means", chance="physical")
    got = client.get(f"/matches/{mid}/seat", headers=auth(seats["alice"])).json()
    draw = next(g for g in got["moves"] if g["verb"] == "draw_opening_hand")["choices"][0]
    assert draw["intent"] == "draw_opening_hand cards=?,?,?,?"
    assert draw["fields"] == [{"key": "cards", "value": "?,?,?,?", "fill": True, "expected": draw["fields"][0]["expected"]}]
    assert "list" in draw["fields"][0]["expected"]


def test_take_back_is_offered_for_the_seats_own_last_move_where_the_policy_allows(hall):
    client, referee = hall
    for policy, offered in (("any", True), ("own_last", True), ("arbiter", False)):
        mid, seats = new_match(client, "war_of_shadows", undo=policy)
        first = client.get(f"/matches/{mid}/seat", headers=auth(seats["alice"])).json()
        done = client.post(f"/matches/{mid}/intents", headers=auth(seats["alice"]),
                           json={"intent": first["moves"][0]["choices"][0]["intent"], "expected_seq": 0})
        assert done.status_code == 201
        mine = client.get(f"/matches/{mid}/seat", headers=auth(seats["alice"])).json()
        theirs = client.get(f"/matches/{mid}/seat", headers=auth(seats["bob"])).json()
        assert mine["take_back"] == (1 if offered else None) and theirs["take_back"] is None, policy
        if offered:
            undone = client.post(f"/matches/{mid}/undo", headers=auth(seats["alice"]),
                                 json={"to": mine["take_back"] - 1, "expected_seq": mine["seq"]})
            assert undone.status_code == 201 and undone.json()["verdict"] == "accepted"


def test_a_race_is_refused_as_a_conflict_with_the_new_head(hall):
    client, referee = hall
    mid, seats = new_match(client, "war_of_shadows")
    a = client.get(f"/matches/{mid}/seat", headers=auth(seats["alice"])).json()
    b = client.get(f"/matches/{mid}/seat", headers=auth(seats["bob"])).json()
    assert client.post(f"/matches/{mid}/intents", headers=auth(seats["alice"]),
                       json={"intent": a["moves"][0]["choices"][0]["intent"], "expected_seq": a["seq"]}).status_code == 201
    late = client.post(f"/matches/{mid}/intents", headers=auth(seats["bob"]),
                       json={"intent": b["moves"][0]["choices"][0]["intent"], "expected_seq": b["seq"]})
    assert late.status_code == 409 and referee.store.head(mid) == 1


def test_calling_the_arbiter_is_a_dispute_on_the_current_move(hall):
    client, referee = hall
    mid, seats = new_match(client, "war_of_shadows")
    a = client.get(f"/matches/{mid}/seat", headers=auth(seats["alice"])).json()
    client.post(f"/matches/{mid}/intents", headers=auth(seats["alice"]), json={"intent": a["moves"][0]["choices"][0]["intent"]})
    called = client.post(f"/matches/{mid}/annotations", headers=auth(seats["bob"]),
                         json={"seq": 1, "text": "that society was mine", "kind": "disputed"})
    assert called.status_code == 201
    assert [(x.kind, x.by) for x in referee.store.annotations(mid)] == [("disputed", "bob")]


def test_only_a_seat_opens_a_seats_page(hall):
    """(or an actor's that is no seat: the arbiter's token opens the page of Copycat's table, see
    tests/test_actor_page.py); the spectators' token is refused."""
    client, referee = hall
    made = client.post("/matches", json={"game": "copycat", "players": PLAYERS["copycat"], "chance": "digital"}).json()
    mid, tokens = made["match"]["id"], made["tokens"]
    refused = client.get(f"/matches/{mid}/seat", headers=auth(tokens["spectator"]))
    assert refused.status_code == 403 and refused.json()["code"] == "auth/forbidden" and "spectator" in refused.json()["message"]
    assert client.get(f"/matches/{mid}/seat").status_code == 401
    assert client.get(f"/matches/{mid}/seat", headers=auth("nope")).json()["code"] == "auth/unknown_token"


def test_the_shell_is_the_same_bytes_for_every_match_and_loads_nothing_from_elsewhere(hall):
    client, referee = hall
    mid, seats = new_match(client, "by_all_means")
    one, other = client.get(f"/play/{mid}"), client.get("/play/zzzz")
    assert one.status_code == other.status_code == 200 and one.content == other.content == shell().encode()
    page = one.text
    assert mid not in page and not any(t in page for t in seats.values())
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:)?//""", page)  # no external asset
    assert "default-src 'none'" in one.headers["content-security-policy"] and "connect-src 'self'" in one.headers["content-security-policy"]
    assert "wakeLock" in page and "Authorization" in page and "location.hash" in page


def test_private_parts_are_marked_and_the_answer_holds_nothing_hidden(hall):
    client, referee = hall
    mid, seats = new_match(client, "by_all_means")
    for seat, token in seats.items():
        client.post(f"/matches/{mid}/intents", headers=auth(token), json={"intent": "draw_opening_hand"})
    for seat, token in seats.items():
        got = client.get(f"/matches/{mid}/seat", headers=auth(token))
        data = got.json()
        loaded = referee.load(mid)
        _, state = referee.state_at(loaded)
        hand = set(loaded.rules.hidden_ids(state, "spectator")) - set(loaded.rules.hidden_ids(state, seat))
        assert hand and hand <= set(data["secret"])  # the seat's own hand: covered until revealed
        assert f"Players|{seat}" in data["private_areas"]
        assert not leaks(referee, mid, seat, got.text)
        other = next(s for s in seats if s != seat)
        assert not hand & set(json.loads(client.get(f"/matches/{mid}/seat", headers=auth(seats[other])).text)["secret"])


def test_the_answer_is_a_struct_of_the_schema(hall):
    from schemas.seat import SeatAnswer

    client, referee = hall
    mid, seats = new_match(client, "android")
    got = client.get(f"/matches/{mid}/seat", headers=auth(seats["alice"]))
    answer = msgspec.json.decode(got.content, type=SeatAnswer)
    assert answer.players == PLAYERS["android"] and answer.chance == "digital"


def test_a_tournament_players_token_plays_its_own_seat_only():
    """The token a slip's QR code carries (a tournament player's) opens the player's seat at their own
    table: the page's answer, a move, the live stream; at another table it is refused, as is a replaced
    one. The spectators' tournament token writes nothing."""
    store = MemoryStore()
    with app_client(lambda: Referee(store), admin_token="adm") as client:
        made = client.post("/tournaments", headers=auth("adm"), json={
            "name": "Cup", "game": "war_of_shadows", "rounds": 1, "players": ["ann", "ben", "cy", "dee"]}).json()
        tid, tokens = made["tournament"], made["tokens"]
        paired = client.post(f"/tournaments/{tid}/pair", headers=auth(tokens["organiser"]), json={}).json()
        one, two = paired["tables"]
        me, other = one["seats"][0], two["seats"][0]
        mine = auth(tokens["players"][me])
        got = client.get(f"/matches/{one['match_id']}/seat", headers=mine)
        assert got.status_code == 200 and got.json()["seat"] == me
        move = got.json()["moves"][0]["choices"][0]["intent"]
        done = client.post(f"/matches/{one['match_id']}/intents", headers=mine, json={"intent": move, "expected_seq": 0})
        assert done.status_code == 201 and done.json()["actor"] == me and done.json()["verdict"] == "accepted"
        assert client.get(f"/matches/{one['match_id']}/events", headers=mine, params={"follow": "false"}).status_code == 200
        # another table's match, and another seat of this one, are not the player's
        elsewhere = client.get(f"/matches/{two['match_id']}/seat", headers=mine)
        assert elsewhere.status_code == 403 and elsewhere.json()["code"] == "auth/other_match"
        theirs = client.post(f"/matches/{one['match_id']}/intents", headers=mine,
                             json={"intent": move, "seat": one["seats"][1]})
        assert theirs.status_code == 403 and theirs.json()["code"] == "auth/other_seat"
        spectators = client.post(f"/matches/{one['match_id']}/intents", headers=auth(tokens["spectator"]), json={"intent": move})
        assert spectators.status_code == 403 and spectators.json()["code"] == "auth/forbidden"
        assert Referee(store).store.head(one["match_id"]) == 1 and Referee(store).store.head(two["match_id"]) == 0
        # the hall's table links: a player's own table also opens their seat's page
        snap = client.get(f"/tournaments/{tid}/events", headers=mine, params={"follow": "false"}).text
        data = json.loads(next(line[5:] for line in snap.splitlines() if line.startswith("data:")))
        assert data["role"] == "player" and data["player"] == me and [t["match_id"] for t in data["tables"]] == [one["match_id"]]
        hall = client.get(f"/hall/{tid}").text
        assert '"/play/" + encodeURIComponent(mid)' in hall and "t.seats.includes(snap.player)" in hall


def test_a_match_made_on_a_server_prints_each_seats_page(hall, capsys):
    from cli import render
    from schemas.http import MatchCreated

    client, referee = hall
    made = client.post("/matches", json={"game": "war_of_shadows", "players": ["alice", "bob"]})
    answer = msgspec.convert(made.json(), MatchCreated)
    render.tokens("http://hall.lan:8000/", answer)
    out = capsys.readouterr().out
    for seat, token in answer.tokens.seats.items():
        assert f"  {seat}: http://hall.lan:8000/play/{answer.match.id}#token={token}\n" in out


HELD_POSITION = {"phase": "play", "first_player": "alice", "lot_winner": "alice", "turn.number": 5,
                 "turn.active": "alice", "turn.step": "actions", "turn.main_left": 2, "turn.extra_left": 1,
                 "players.alice.hand": ["PL6"], "players.bob.hand": ["TR1"], "players.alice.unseen": ["AG2", "GF1"],
                 "players.alice.main_archive.count": 2, "players.alice.extra_archive.count": 0,
                 "players.bob.unseen": ["TR7"], "players.bob.main_archive.count": 1,
                 "players.bob.extra_archive.count": 0}
#: a declared effect taking a card from bob's hidden hand: held until bob confirms (tests/test_confirmations.py)
TAKE = "play_plot card=PL6 from=hand changes=move:TR1:bob.hand:bob.utility note=Raid"


def held_match(client: TestClient) -> tuple[str, dict[str, str]]:
    made = client.post("/matches", json={"game": "by_all_means", "players": ["alice", "bob"], "cards": "spec",
                                         "position": HELD_POSITION})
    assert made.status_code == 201, made.text
    mid, seats = made.json()["match"]["id"], made.json()["tokens"]["seats"]
    held = client.post(f"/matches/{mid}/intents", headers=auth(seats["alice"]), json={"intent": TAKE})
    assert held.json()["verdict"] == "held" and held.json()["confirmer"] == "bob"
    return mid, seats


def test_a_held_move_is_asked_of_its_confirmer_and_nothing_else_is_offered(hall):
    client, referee = hall
    mid, seats = held_match(client)
    bob = client.get(f"/matches/{mid}/seat", headers=auth(seats["bob"])).json()
    alice = client.get(f"/matches/{mid}/seat", headers=auth(seats["alice"])).json()
    assert bob["held"]["seq"] == alice["held"]["seq"] == 1 and bob["held"]["confirmer"] == "bob"
    assert bob["held"]["actor"] == "alice" and bob["moves"] == alice["moves"] == []
    assert alice["take_back"] == 1  # a held move is its mover's to take back
    declined = client.post(f"/matches/{mid}/confirmations", headers=auth(seats["bob"]),
                           json={"entry": 1, "accept": False, "expected_seq": bob["seq"]})
    assert declined.status_code == 201
    after = client.get(f"/matches/{mid}/seat", headers=auth(seats["alice"])).json()
    assert after["held"] is None and after["moves"]
