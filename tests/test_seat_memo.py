"""A seat's page is kept per seat with the head it was computed at (:mod:`referee.memo`, issue 26's
latency): the same head gives the same answer without computing it again, a new entry gives a new one,
and what is given from the memo is byte for byte what the seat would be answered without it."""

from __future__ import annotations

import msgspec
import pytest

from referee.access import Access
from referee.auth import Principal
from referee.memo import HeadMemo
from referee.seat import seat_answer
from referee.service import Referee
from referee.store import open_store
from schemas.http import CreateMatch
from support.apps import app_client

PLAYERS = ["alice", "bob"]


@pytest.fixture
def table(db):
    store = open_store(db)
    access = Access(Referee(store))
    made = access.create_match(CreateMatch(game="by_all_means", players=PLAYERS, chance="digital", seed=3))
    seats = {s: Principal(match_id=made.match.id, role="seat", seat=s) for s in PLAYERS}
    yield access, seats, made
    store.close()


def fresh(access: Access, p: Principal) -> bytes:
    """The seat's answer computed now, by a service with nothing kept."""
    return msgspec.json.encode(seat_answer(Access(access.referee, memo=HeadMemo()), p))


def tap(access: Access, p: Principal) -> None:
    """The seat plays its first offered choice."""
    answer = seat_answer(access, p)
    access.submit(p, answer.moves[0].choices[0].intent, expected_seq=answer.seq)


def test_the_same_head_is_answered_from_the_memo_and_a_new_entry_computes_again(table):
    access, seats, _ = table
    first = seat_answer(access, seats["alice"])
    hits = access.memo.hits
    again = seat_answer(access, seats["alice"])
    assert again is first and access.memo.hits == hits + 1
    assert msgspec.json.encode(again) == fresh(access, seats["alice"])
    tap(access, seats["alice"])
    moved = seat_answer(access, seats["alice"])
    assert moved is not first and moved.seq == first.seq + 1 == access.referee.store.head(first.match_id)
    assert msgspec.json.encode(moved) == fresh(access, seats["alice"])


def test_each_seat_is_kept_apart_and_matches_what_it_would_be_answered(table):
    access, seats, _ = table
    for _ in range(4):  # a few moves, each seat's page read twice at each head
        answers = {s: seat_answer(access, p) for s, p in seats.items()}
        for s, p in seats.items():
            assert seat_answer(access, p) is answers[s]
            assert answers[s].seat == s and msgspec.json.encode(answers[s]) == fresh(access, p)
        assert answers["alice"].view.state != answers["bob"].view.state  # each its own hand
        mover = next(p for s, p in seats.items() if answers[s].moves)
        tap(access, mover)


def test_an_answer_at_another_head_is_never_given_and_never_replaces_a_newer_one():
    memo = HeadMemo(size=2)
    memo.put("k", 5, "at 5")
    assert memo.get("k", 5) == "at 5" and memo.get("k", 6) is None and memo.get("k", 4) is None
    memo.put("k", 4, "at 4")  # a slow thread's older answer
    assert memo.get("k", 5) == "at 5"
    memo.put("k", 6, "at 6")
    assert memo.get("k", 6) == "at 6" and memo.get("k", 5) is None
    memo.put("j", 1, "j")
    memo.put("i", 1, "i")  # beyond the size: the least recently used key (k) goes
    assert memo.get("k", 6) is None and memo.get("j", 1) == "j" and memo.get("i", 1) == "i"


def test_a_servers_threads_share_the_memo_and_a_move_changes_the_answer(db):
    store = open_store(db)
    try:
        with app_client(lambda: Referee(open_store(db))) as client:
            made = client.post("/matches", json={"game": "by_all_means", "players": PLAYERS, "chance": "digital",
                                                 "seed": 3}).json()
            mid, tokens = made["match"]["id"], made["tokens"]["seats"]
            memo = client.app.state.hall.memo
            auth = {"Authorization": f"Bearer {tokens['alice']}"}
            first = client.get(f"/matches/{mid}/seat", headers=auth)
            hits = memo.hits
            again = client.get(f"/matches/{mid}/seat", headers=auth)
            assert again.content == first.content and memo.hits == hits + 1
            choice = first.json()["moves"][0]["choices"][0]["intent"]
            done = client.post(f"/matches/{mid}/intents", headers=auth, json={"intent": choice, "expected_seq": 0})
            assert done.status_code == 201, done.text
            moved = client.get(f"/matches/{mid}/seat", headers=auth)
            assert moved.json()["seq"] == 1 and moved.content != first.content
            p = Principal(match_id=mid, role="seat", seat="alice")
            assert moved.content == msgspec.json.encode(seat_answer(Access(Referee(store)), p))
    finally:
        store.close()
