"""A complete match of Android and of Copycat played by taps alone in headless Chromium (issue 26): a
phone per seat and one for the game's actor that is no seat (Android's arbiter, opened with the arbiter's
token; Copycat's table, with the table's token), each showing ``/play/MATCH`` from a live server. Whose
page taps next is the order of tests/support/actorplay.py (the actor that is no seat when its page offers a
move, else the first seat in seating order with something to do); it taps the first offered choice (a
fixed seed). Every tap is accepted, every page ends showing the result, the final state is what a replay
of the log gives, and no page — the other seats', the actor's, a spectator's (the match's state read with
the spectators' token) — holds a card its role may not see now. Skips without Chromium."""

from __future__ import annotations

import time

import httpx
import pytest

from referee.engine import core
from referee.http import create_app
from referee.service import Referee
from referee.store.memory import MemoryStore
from support.browser import browsers, needs_chromium  # noqa: F401  (browsers: the shared Chromiums)
from support.live import LiveServer
from support.actorplay import OFFERS, auth, leaks, replayed_state_hash, tap_page, turn_order, until
from test_seat_page_browser import PHONE, hold, open_seat

pytestmark = [pytest.mark.slow, needs_chromium]

#: the fewest seats each game takes, a fixed seed, and the most taps a match may take here
GAMES = {"android": (["alice", "bob", "carol"], 4, 120), "copycat": (["alice", "bob"], 4, 600)}
#: the wall time each match took (s), for the report
TIMES: dict[str, float] = {}


@pytest.fixture(scope="module")
def server():
    store = MemoryStore()
    with LiveServer(create_app(lambda: Referee(store), keepalive=2.0, poll=0.2)) as live:
        # the test reads the pages' own server: a page's answer at a head is computed once for both
        with httpx.Client(base_url=live.url, timeout=30) as client:
            yield live, client, Referee(store)


@pytest.fixture(scope="module")
def phones(browsers):
    """Up to three seats' phones and the table's actor page: four of this process's shared Chromiums."""
    drivers = browsers(4)
    for d in drivers:
        d.set_window_size(*PHONE)
    return drivers


def role_of(actor: str, players: list[str]) -> str | None:
    """The view a page reads (for the leak search): a seat's own, the arbiter's (None), the table's (public)."""
    return actor if actor in players else (None if actor == "arbiter" else "spectator")


def no_leaks(live, client, referee, mid, drivers, pages, players, spectator) -> None:
    """Every page's bytes (its drawn document and the answer it reads) and a spectator's (the state read
    with the spectators' token) name no card hidden from its role."""
    for actor, driver in drivers.items():
        role = role_of(actor, players)
        text = driver.page_source + client.get(f"/matches/{mid}/seat", headers=auth(pages[actor])).text
        assert not leaks(referee, mid, role, text), (actor, leaks(referee, mid, role, text))
    # (the state a spectator's page shows now: the log and the exports name cards that were shown once and
    # are hidden again now, a card exchanged face up and shuffled back into a deck)
    text = client.get(f"/matches/{mid}/state", headers=auth(spectator)).text
    assert not leaks(referee, mid, "spectator", text), leaks(referee, mid, "spectator", text)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_complete_match_by_taps_alone(server, phones, game):
    live, client, referee = server
    players, seed, bound = GAMES[game]
    made = client.post("/matches", json={"game": game, "players": players, "chance": "digital", "seed": seed}).json()
    mid, tokens = made["match"]["id"], made["tokens"]
    pages = dict(tokens["seats"])
    pages.update(tokens["actors"] or {"arbiter": tokens["arbiter"]})
    order = turn_order(list(pages), players)
    drivers = dict(zip(order, phones))
    started = time.monotonic()
    for actor in order:
        open_seat(drivers[actor], live, mid, pages[actor])
    taps = {a: 0 for a in order}
    for n in range(bound):
        head = referee.store.head(mid)
        who = None
        for actor in order:  # each page as its user sees it, once it has the table at this entry
            if until(drivers[actor], f"Number(document.body.dataset.head) === {head}", OFFERS):
                who = actor
                break
        if who is None:
            break
        tap_page(drivers[who], hold)
        verdict = until(drivers[who], f"Number(document.body.dataset.head) > {head} && !document.body.dataset.writing",
                        "[document.body.dataset.verdict, document.getElementById('verdict').textContent]")
        assert verdict[0] == "accepted", verdict
        taps[who] += 1
        if n % 60 == 30:
            no_leaks(live, client, referee, mid, drivers, pages, players, tokens["spectator"])
    else:
        raise AssertionError(f"{game} did not end within {bound} taps")
    # every page shows the result
    for actor in order:
        shown = until(drivers[actor], "document.body.dataset.over === 'yes'", "document.getElementById('result').textContent")
        assert shown.startswith("Game over: "), shown
    TIMES[game] = time.monotonic() - started
    assert referee.over(referee.load(mid)) and all(taps.values()), taps
    entries = referee.log(mid)
    assert len(entries) == sum(taps.values()) and {e.verdict for e in entries} == {"accepted"}
    # the final state is the one a replay of the log gives
    _, state = referee.state_at(referee.load(mid))
    assert replayed_state_hash(referee, mid) == core.state_hash(state)
    no_leaks(live, client, referee, mid, drivers, pages, players, tokens["spectator"])
    print(f"\n{game}: {sum(taps.values())} taps {taps} in {TIMES[game]:.1f} s")


def test_the_arbiters_console_opens_a_tables_actor_page(phones):
    """A Copycat tournament: the console lists both tables' deals waiting for the table, each linked to its
    page; the link opens the table's page with the organiser's token, whose tap deals, and the table leaves
    the console's list."""

    store = MemoryStore()
    driver = phones[0]
    with LiveServer(create_app(lambda: Referee(store), poll=0.1, admin_token="adm")) as live:
        made = httpx.post(f"{live.url}/tournaments", json={
            "name": "Cup", "game": "copycat", "players": ["ann", "ben", "cy", "dee"], "seed": 4, "chance": "digital"},
            headers={"Authorization": "Bearer adm"}).json()
        tid, organiser = made["tournament"], made["tokens"]["organiser"]
        tables = httpx.post(f"{live.url}/tournaments/{tid}/pair", json={"tokens": False},
                            headers=auth(organiser)).json()["tables"]
        driver.get("about:blank")
        driver.get(f"{live.url}/hall/{tid}/arbiter#token={organiser}")
        links = until(driver, "document.querySelectorAll('#actor-moves a').length === 2",
                      "[...document.querySelectorAll('#actor-moves a')].map(a => [a.textContent, a.getAttribute('href')])")
        assert links[0][0].startswith("table 1: ") and "1 move for the table" in links[0][0]
        assert links[0][1] == f"/play/{tables[0]['match_id']}#token={organiser}"
        driver.get(f"{live.url}{links[0][1]}")
        who = until(driver, "Number(document.body.dataset.loads || 0) > 0 && " + OFFERS,
                    "document.getElementById('who').textContent")
        assert who.endswith("the arbiter, acting for the table")
        assert tap_page(driver, hold) == "setup"
        assert until(driver, "Number(document.body.dataset.head) === 1 && !document.body.dataset.writing",
                     "document.body.dataset.verdict") == "accepted"
        assert store.head(tables[0]["match_id"]) == 1
        driver.get(f"{live.url}/hall/{tid}/arbiter#token={organiser}")
        left = until(driver, "document.querySelectorAll('#actor-moves a').length === 1",
                     "document.querySelector('#actor-moves a').textContent")
        assert left.startswith("table 2: ")
        driver.get("about:blank")
