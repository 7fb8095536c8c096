"""A complete match of Android and of Copycat played through their pages' HTTP calls (issue 26): every
seat's page and the page of the game's actor that is no seat (Android's arbiter, opened with the arbiter's
token; Copycat's table, opened with the table's own token) read ``/seat`` and, whose turn it is, tap the
first offered choice (tests/support/actorplay.py says whose page taps next) until the game's result shows
on every page, within a bound. Every tap is accepted; the final state is what a replay of the log gives;
no page's answer names a card its role may not see.

"The first offered choice" is what a tap on the first move button of the page writes
(tests/support/actorplay.py's ``first_offered``, the same as the Chromium test's tap): the first group that
lists its moves outright, else the first value of each field a large group asks for. Played so, both games
end without help: Android in 50 taps (three seats, seed 4: the arbiter deals the set-up, resolves the end
of each day and closes the case; the seats end their turns), Copycat in 121 (two seats, the fewest it
takes: a seat's first button in the actions phase ends its turn; its eleven rounds are fixed by the rules
and no option shortens them). Neither cycles, so no seeded pick among the choices is needed."""

from __future__ import annotations

import pytest

from referee.engine import core
from referee.service import Referee
from support.actorplay import leaks, next_page, read, replayed_state_hash, tap, turn_order
from support.apps import app_client

#: the fewest seats each game takes, a fixed seed, and the most taps a match may take here
GAMES = {"android": (["alice", "bob", "carol"], 4, 120), "copycat": (["alice", "bob"], 4, 600)}


@pytest.fixture(scope="module")
def hall():
    from referee.store.memory import MemoryStore

    store = MemoryStore()
    with app_client(lambda: Referee(store)) as client:
        yield client, Referee(store)


def pages_of(game: str, tokens: dict) -> dict[str, str]:
    """The token of each page at the table: each seat's, and the actor's that is no seat (the arbiter's own
    token for Android's arbiter, the table's token for Copycat's table)."""
    pages = dict(tokens["seats"])
    pages.update(tokens["actors"] or {"arbiter": tokens["arbiter"]})
    return pages


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_complete_match_by_first_choice_taps(hall, game):
    client, referee = hall
    players, seed, bound = GAMES[game]
    made = client.post("/matches", json={"game": game, "players": players, "chance": "digital", "seed": seed})
    assert made.status_code == 201, made.text
    mid, tokens = made.json()["match"]["id"], made.json()["tokens"]
    pages = pages_of(game, tokens)
    assert len(pages) == len(players) + 1
    order = turn_order(list(pages), players)
    taps: dict[str, int] = {a: 0 for a in pages}
    for n in range(bound):
        head = referee.store.head(mid)
        who, answer = next_page(lambda a: read(client, mid, pages[a]), order)
        assert answer["seq"] == head
        if who is None:
            assert answer["result"], f"nobody has a move at entry {head} and the game is not over"
            break
        written = tap(client, mid, pages[who], answer)
        assert written["verdict"] == "accepted", (who, written)
        assert written["actor"] == who and written["seq"] == head + 1
        taps[who] += 1
        if n % 40 == 20:
            no_page_leaks(client, referee, mid, pages, players)
    else:
        raise AssertionError(f"{game} did not end within {bound} taps")
    answers = {a: read(client, mid, t) for a, t in pages.items()}
    # every page shows the result, the same words; nobody is offered a move any more
    assert len({a["result"] for a in answers.values()}) == 1 and all(not a["moves"] for a in answers.values())
    assert all(taps.values()), taps  # every page played its part, the actor that is no seat included
    # the final state is the one a replay of the log gives, and the audit finds the record clean
    loaded = referee.load(mid)
    _, state = referee.state_at(loaded)
    assert replayed_state_hash(referee, mid) == core.state_hash(state)
    assert referee.audit(mid).clean
    no_page_leaks(client, referee, mid, pages, players)
    print(f"\n{game}: {sum(taps.values())} taps {taps}")


def no_page_leaks(client, referee, mid, pages, players) -> None:
    """No page names a card its role may not see (the actor that is no seat reads its role's view)."""
    for actor, token in pages.items():
        got = client.get(f"/matches/{mid}/seat", headers={"Authorization": f"Bearer {token}"})
        role = actor if actor in players else (None if actor == "arbiter" else "spectator")
        assert not leaks(referee, mid, role, got.text), (actor, leaks(referee, mid, role, got.text))
