"""A complete match from the seats' pages' answers alone (issue 26), without a browser: the seats take the
taps their pages offer (``GET /matches/{id}/seat``, in the pages' order: tests/support/seatplay.py) from
set-up to the game's result, which every page then shows; the state the server answers is a replay of the
log (the audit re-adjudicates it from set-up, clean, and a fresh fold gives the same state hash).

Which offered tap is taken, per game (digital matches, the games' own options, fixed seeds):

* War of Shadows: the first offered choice ends the game (four rounds, 137 taps).
* By All Means and X-Files: the first offered choice never ends them
  (:func:`test_why_a_seeded_pick_plays_these_games`), so the test's own ``random.Random(seed)`` picks
  among what the pages offer. By All Means lists ``end_turn`` first among a turn's moves, so first-choice
  play ends every turn at once and nobody ever wins; X-Files offers the seat whose turn it is not a
  declared effect that changes nothing (``manual_effect ... ops=points:attack:0``, the template of §4.25),
  first, so after 25 taps that seat taps it for ever. Neither is a wrong order for a person, who reads the
  whole list (a page keeps its game's order: it is generated, never written per game), so the pages are
  left as they are and the test plays like a person who picks something else than the first button.

The options shorten a match where the game has one: By All Means starts with 3 trust (a player at 0 trust
loses; the default is 10). War of Shadows and X-Files have none that shortens a game; X-Files is played
with closed hands (``open_hands=false``, the same taps) so that each seat has cards the other may not see.
The Chromium test (tests/test_seat_complete_browser.py) plays these same matches through the pages, tap
for tap.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import pytest
from litestar.testing import TestClient

from referee.service import Referee
from referee.store.memory import MemoryStore
from support.apps import app_client
from support.seatplay import Pick, first, offered, play_out, same_state, seeded


class Case(NamedTuple):
    game: str
    players: tuple[str, ...]
    seed: int
    pick: Pick
    options: dict[str, Any]
    #: the taps this match takes (pinned: a change of the games or the pages shows here)
    taps: int
    result: str


CASES = {
    "by_all_means": Case("by_all_means", ("alice", "bob"), 4, seeded, {"start_trust": 3}, 24,
                         "alice won (trust)"),
    "war_of_shadows": Case("war_of_shadows", ("alice", "bob"), 3, first, {}, 137, "bob won (score)"),
    "xfiles_encounters": Case("xfiles_encounters", ("alice", "bob"), 5, seeded, {"open_hands": False}, 168,
                              "everyone lost (player defeated)"),
}
#: no complete match here takes more taps
BOUND = 250


def start(client: TestClient, case: Case) -> tuple[str, dict[str, Any]]:
    made = client.post("/matches", json={"game": case.game, "players": list(case.players), "chance": "digital",
                                         "seed": case.seed, "options": case.options})
    assert made.status_code == 201, made.text
    data = made.json()
    return data["match"]["id"], data["tokens"]


@pytest.fixture(scope="module")
def hall():
    store = MemoryStore()
    with app_client(lambda: Referee(store)) as client:
        yield client, Referee(store)


@pytest.mark.parametrize("game", sorted(CASES))
def test_the_seats_play_a_complete_match_by_the_taps_their_pages_offer(hall, game):
    client, referee = hall
    case = CASES[game]
    mid, tokens = start(client, case)
    played = play_out(client, mid, tokens["seats"], case.pick, case.seed, BOUND)
    assert played.result, (game, len(played.taps), "no result")
    assert played.result.startswith(case.result), played.result
    assert len(played.taps) == case.taps, (game, len(played.taps))
    # every page shows the result and offers nothing more; every tap was recorded as it was taken
    assert all(a["result"] == played.result and not a["moves"] and a["held"] is None for a in played.pages.values())
    assert offered(played.pages) == []
    assert referee.over(referee.load(mid))
    entries = referee.log(mid)
    assert len(entries) == len(played.taps)
    assert [e.actor for e in entries] == [t.seat for t in played.taps]
    assert all(e.verdict in ("accepted", "held") or e.kind == "confirm" for e in entries)
    same_state(referee, client, mid, tokens["arbiter"])


#: what first-choice play keeps tapping once a match is under way, where it never ends the match
NEVER_ENDS = {
    # the seat whose turn it is is offered end_turn first (the game lists it first): turns only end
    "by_all_means": {"end_turn", "close_turn"},
    # the seat off turn is offered a declared effect that changes nothing (the template of §4.25), first
    "xfiles_encounters": {"manual_effect source=avatar.alice ops=points:attack:0"},
}


@pytest.mark.parametrize("game", sorted(NEVER_ENDS))
def test_why_a_seeded_pick_plays_these_games(game):
    """First-choice play of the same match goes round in circles: after the opening, every tap is one of
    the same few moves that change nothing or only end turns."""
    store = MemoryStore()
    with app_client(lambda: Referee(store)) as client:
        case = CASES[game]
        mid, tokens = start(client, case)
        played = play_out(client, mid, tokens["seats"], first, case.seed, 60)
    assert not played.result and len(played.taps) == 60
    late = {t.intent for t in played.taps[30:]}
    assert late == NEVER_ENDS[game], late
