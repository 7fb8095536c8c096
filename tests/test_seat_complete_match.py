"""A complete match from the seats' pages' answers alone (issue 26), without a browser: the seats take the
taps their pages offer (``GET /matches/{id}/seat``, in the pages' order: tests/support/seatplay.py) from
set-up to the game's result, which every page then shows; the state the server answers is a replay of the
log (the audit re-adjudicates it from set-up, clean, and a fresh fold gives the same state hash).

Which offered tap is taken, per game (digital matches, the games' own options, fixed seeds):

* War of Shadows: the first offered choice ends the game (four rounds, 137 taps).
* By All Means and X-Files: the first offered choice never ends them, so the test's own
  ``random.Random(seed)`` picks among what the pages offer. By All Means lists ``end_turn`` first among a
  turn's moves, so first-choice play ends every turn at once and nobody ever wins (400 taps of
  end_turn/close_turn); X-Files offers a seat whose turn it is not a declared effect that changes nothing
  (``manual_effect ... ops=points:attack:0``, the template of §4.25), so the first seat taps it for ever.
  Neither is a wrong order for a person (the pages keep each game's order, generated, never per game; a
  person reads the whole list), so the page is left as it is and the test plays like a person who picks
  something else than the first button.

The options shorten a match where the game has one: By All Means starts with 3 trust (a player at 0 trust
loses; the default is 10). War of Shadows and X-Files have none that shortens a game; X-Files is played
with closed hands (``open_hands=false``, the same taps) so that each seat has cards the other may not see. The Chromium test
(tests/test_seat_complete_browser.py) plays these same matches through the pages, tap for tap.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import pytest
from litestar.testing import TestClient

from referee.http import create_app
from referee.service import Referee
from referee.store.memory import MemoryStore
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
    with TestClient(create_app(lambda: Referee(store))) as client:
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


def test_first_choice_play_ends_no_turn_of_by_all_means():
    """Why By All Means is played by a seeded pick: the first offered choice of the seat whose turn it is
    is ``end_turn`` (the game lists it first), so first-choice play only ends turns."""
    store = MemoryStore()
    with TestClient(create_app(lambda: Referee(store))) as client:
        case = CASES["by_all_means"]._replace(pick=first)
        mid, tokens = start(client, case)
        played = play_out(client, mid, tokens["seats"], first, case.seed, 40)
    assert not played.result and len(played.taps) == 40
    late = {t.intent for t in played.taps[10:]}
    assert late == {"end_turn", "close_turn"}, late
