"""The page of a game's actor that is no seat (issue 26): ``/play/MATCH`` opened with the arbiter's token
speaks for Android's ``arbiter`` (or the one other actor a game declares: Copycat's ``table``) and reads
the arbiter's view, covered like a hand; a match mints a token for each declared actor besides the
arbiter (``tokens.actors``), which acts as that actor only and reads the spectators' view. Its moves are
the actor's legal moves, offered and submitted as a seat's are. A seat's token cannot act as the arbiter;
no page names a card its role may not see; the arbiter's console links to the tables whose such actor has
moves waiting. Runs on both stores."""

from __future__ import annotations

import msgspec
import pytest

from referee.service import Referee
from referee.tournament.access import Entrant, TournamentAccess
from referee.tournament.arbiter import desk
from schemas.tournament import CreateTournament, PairRequest
from support.actorplay import auth, leaks, next_page, read, tap, turn_order
from support.apps import app_client


@pytest.fixture
def hall(db_store):
    with app_client(lambda: Referee(db_store)) as client:
        yield client, Referee(db_store)


def new_match(client, game: str, players: list[str], seed: int = 4) -> tuple[str, dict]:
    made = client.post("/matches", json={"game": game, "players": players, "chance": "digital", "seed": seed})
    assert made.status_code == 201, made.text
    return made.json()["match"]["id"], made.json()["tokens"]


def listed(answer: dict) -> list[str]:
    return [c["intent"] for g in answer["moves"] for c in g["choices"]]


def test_android_arbiters_page_lists_its_moves_and_submits_one(hall):
    client, referee = hall
    mid, tokens = new_match(client, "android", ["alice", "bob", "carol"])
    assert tokens["actors"] == {}  # Android's other actor is the arbiter: the arbiter's own token speaks for it
    page = read(client, mid, tokens["arbiter"])
    assert (page["seat"], page["role"]) == ("arbiter", "arbiter")
    assert listed(page) == referee.legal(mid, "arbiter", blind=True).legal["arbiter"]
    assert [g["verb"] for g in page["moves"]] == ["choose_murder"]
    written = tap(client, mid, tokens["arbiter"], page)
    assert written["verdict"] == "accepted" and written["actor"] == "arbiter"
    entry = referee.log(mid)[-1]
    assert entry.actor == "arbiter" and entry.meta.get("by") == "arbiter"
    # the next step is the detectives', offered a field at a time (the seat, then the detective)
    page = read(client, mid, tokens["arbiter"])
    assert page["seq"] == 1 and {g["verb"] for g in page["moves"]} == {"assign_detective"}
    assert set(page["moves"][0]["values"]["seat"]) == {"alice", "bob", "carol"}


def test_copycat_tables_page_lists_its_moves_and_submits_one(hall):
    client, referee = hall
    players = ["alice", "bob"]
    mid, tokens = new_match(client, "copycat", players)
    table = tokens["actors"]["table"]
    assert set(tokens["actors"]) == {"table"} and table not in (*tokens["seats"].values(), tokens["arbiter"])
    page = read(client, mid, table)
    assert (page["seat"], page["role"]) == ("table", "actor") and listed(page) == ["setup"]
    # the arbiter's token opens the same actor's page (Copycat's one other actor), reading everything
    assert (read(client, mid, tokens["arbiter"])["seat"], read(client, mid, tokens["arbiter"])["role"]) == ("table", "arbiter")
    written = tap(client, mid, table, page)
    assert written["verdict"] == "accepted" and written["actor"] == written["by"] == "table"
    # the seats play the round out (first choices) until the clean-up, which is the table's again
    pages = {**tokens["seats"], "table": table}
    order = turn_order(list(pages), players)
    for _ in range(60):
        who, answer = next_page(lambda a: read(client, mid, pages[a]), order)
        if who == "table":
            break
        assert who is not None
        tap(client, mid, pages[who], answer)
    assert who == "table" and listed(answer) == ["cleanup"]
    assert tap(client, mid, table, answer)["verdict"] == "accepted"
    assert [e.actor for e in referee.log(mid) if e.actor == "table"] == ["table", "table"]


def test_the_tables_token_acts_as_the_table_only_and_reads_the_public_view(hall):
    client, referee = hall
    mid, tokens = new_match(client, "copycat", ["alice", "bob"])
    table = auth(tokens["actors"]["table"])
    client.post(f"/matches/{mid}/intents", headers=table, json={"intent": "setup"})
    head = referee.store.head(mid)
    for_seat = client.post(f"/matches/{mid}/intents", headers=table, json={"intent": "draw_hand", "seat": "alice"})
    assert for_seat.status_code == 403 and for_seat.json()["code"] == "auth/other_seat"
    assert "table's token cannot act for alice" in for_seat.json()["message"]
    other_view = client.get(f"/matches/{mid}/state", params={"as": "alice"}, headers=table)
    assert other_view.status_code == 403 and other_view.json()["code"] == "auth/other_view"
    undo = client.post(f"/matches/{mid}/undo", headers=table, json={"to": 0})
    assert undo.status_code == 403 and "the table may not undo" in undo.json()["message"]
    assert referee.store.head(mid) == head  # nothing written
    state = client.get(f"/matches/{mid}/state", headers=table).json()
    assert state["as"] == "spectator"


def test_a_seats_token_cannot_act_as_the_arbiter(hall):
    client, referee = hall
    mid, tokens = new_match(client, "android", ["alice", "bob", "carol"])
    alice = auth(tokens["seats"]["alice"])
    refused = client.post(f"/matches/{mid}/intents", headers=alice,
                          json={"intent": "choose_murder murder=evil_at_the_estates", "seat": "arbiter", "expected_seq": 0})
    assert refused.status_code == 403 and refused.json()["code"] == "auth/other_seat"
    assert "alice's token cannot act for arbiter" in refused.json()["message"]
    assert referee.store.head(mid) == 0
    page = read(client, mid, tokens["seats"]["alice"])  # a seat's token opens its own seat's page only
    assert (page["seat"], page["role"]) == ("alice", "seat")
    # nor the table's: a seat's token does not speak for Copycat's table
    mid, tokens = new_match(client, "copycat", ["alice", "bob"])
    refused = client.post(f"/matches/{mid}/intents", headers=auth(tokens["seats"]["bob"]),
                          json={"intent": "setup", "seat": "table"})
    assert refused.status_code == 403 and referee.store.head(mid) == 0


def test_no_actors_page_names_a_card_its_role_may_not_see(hall):
    """The arbiter's page holds its view and nothing more: every id it names is one the arbiter's own
    state answer names, and what the spectators may not see is listed as covered (``secret``) until held.
    The table's page names nothing hidden from the spectators."""
    client, referee = hall
    players = ["alice", "bob", "carol"]
    mid, tokens = new_match(client, "android", players)
    pages = {**tokens["seats"], "arbiter": tokens["arbiter"]}
    order = turn_order(list(pages), players)
    for _ in range(16):  # the set-up: hunches, plots and starting cards dealt
        who, answer = next_page(lambda a: read(client, mid, pages[a]), order)
        tap(client, mid, pages[who], answer)
    got = client.get(f"/matches/{mid}/seat", headers=auth(tokens["arbiter"]))
    assert not leaks(referee, mid, None, got.text)
    loaded = referee.load(mid)
    _, state = referee.state_at(loaded)
    hidden = loaded.rules.hidden_ids(state, "spectator")
    own = client.get(f"/matches/{mid}/state", headers=auth(tokens["arbiter"])).text
    named = {x for x in hidden if x in got.text}
    assert named and all(x in own for x in named)
    assert named <= set(got.json()["secret"])  # covered on the page until held
    for seat in players:  # and each seat's page names none of another seat's hidden cards
        text = client.get(f"/matches/{mid}/seat", headers=auth(tokens["seats"][seat])).text
        assert not leaks(referee, mid, seat, text), seat
    # Copycat's table, once the hands are drawn: none of them on its page
    mid, tokens = new_match(client, "copycat", ["alice", "bob"])
    pages = {**tokens["seats"], "table": tokens["actors"]["table"]}
    order = turn_order(list(pages), ["alice", "bob"])
    for _ in range(5):
        who, answer = next_page(lambda a: read(client, mid, pages[a]), order)
        tap(client, mid, pages[who], answer)
    loaded = referee.load(mid)
    _, state = referee.state_at(loaded)
    assert state.players["alice"].hand  # a hand is held
    text = client.get(f"/matches/{mid}/seat", headers=auth(pages["table"])).text
    assert not leaks(referee, mid, "spectator", text)
    assert read(client, mid, pages["table"])["secret"] == []


def test_the_arbiters_console_links_to_a_tables_actor_page_while_it_has_moves(db_store):
    access = TournamentAccess(Referee(db_store))
    made = access.create(CreateTournament(name="Cup", game="copycat", rounds=1, seed=4, chance="digital",
                                          players=["ann", "ben", "cy", "dee"]))
    org = Entrant(tournament=made.tournament, role="organiser")
    tables = [msgspec.to_builtins(t) for t in access.pair(org, PairRequest(tokens=False)).tables]

    def waiting() -> list[dict]:
        fresh = TournamentAccess(Referee(db_store))
        return msgspec.json.decode(msgspec.json.encode(desk(fresh, org)))["actor_moves"]

    first = waiting()
    assert [(w["table"], w["actor"], w["moves"]) for w in first] == [(1, "table", 1), (2, "table", 1)]
    assert first[0]["page"] == f"/play/{tables[0]['match_id']}" and first[0]["names"]
    # the table deals at table 1: its link goes until the clean-up
    access.service.referee.submit(tables[0]["match_id"], "table", "setup")
    assert [w["table"] for w in waiting()] == [2]
    # the organiser's token opens that page, as the arbiter acting for the table
    with app_client(lambda: Referee(db_store)) as client:
        page = read(client, tables[1]["match_id"], made.tokens.organiser)
        assert (page["seat"], page["role"], listed(page)) == ("table", "arbiter", ["setup"])
