"""A complete match by taps alone in headless Chromium (issue 26): By All Means, War of Shadows and X-Files,
each played from set-up to the result by two seat pages (``/play/MATCH``) against a real server.

Each tap is the one tests/test_seat_complete_match.py takes (the same match, seed, options and pick).
Where that is the first offered choice (War of Shadows), the pages alone say it: once both show the head,
the first page in seating order that offers anything gets its first button tapped until a move is made.
Where the test's own seeded generator picks among what the pages offer, it picks from the pages' answers
and the test finds that move on the acting seat's page. Either way a field is picked at a time where the
page asks, "Hold to see your hand" is held where the move names a hidden card, and the test then waits
on the page's own state (the head it shows, the write finished), never on a clock. Every tap is accepted (or held, and confirmed by a tap on the other
page); every page ends showing the result; the state the server answers is the replay's. The other seat's
page and a spectator's (its ``/play`` page and the match's HTML viewer, the spectators' token's view) are
searched, whenever they show the head, for every card hidden from them: none is there.
Skips without Chromium."""

from __future__ import annotations

import functools
import random
import time

import httpx
import pytest

from referee.http import create_app
from referee.service import Referee
from referee.store.memory import MemoryStore
from support.actorplay import OFFERS
from support.browser import browsers, needs_chromium, wait_on_page  # noqa: F401  (browsers: the shared Chromiums)
from support.live import LiveServer
from support.seatplay import Tap, answers, auth, first, offered, same_state
from test_seat_complete_match import CASES, start

pytestmark = [pytest.mark.slow, needs_chromium]

PHONE = (412, 915)
#: the pages are searched for hidden cards every this many taps, halfway and at the end (the HTML viewer
#: halfway and at the end: it is the whole log, 1-2 s to export late in a match)
SEARCH_EVERY = 20
#: what each game's match took, for the report: game -> (taps, seconds)
FIGURES: dict[str, tuple[int, float]] = {}


@pytest.fixture(scope="module")
def server():
    """The live server the pages read, and the test's client of that same server: what the test reads (the
    seats' answers, to pick a tap) is what the pages read, computed once a head for both (the server keeps
    each page's answer at the head it was computed at, referee/memo.py)."""
    store = MemoryStore()
    with LiveServer(create_app(lambda: Referee(store), keepalive=2.0, poll=0.2)) as live:
        with httpx.Client(base_url=live.url, timeout=30) as client:
            yield live, client, Referee(store)


@pytest.fixture(scope="module")
def phones(browsers):
    """Two seats' phones and a spectator's: three of this process's shared Chromiums, side by side."""
    drivers = browsers(3)
    for d in drivers:
        d.set_window_size(*PHONE)
    yield drivers
    if FIGURES:
        print("\ncomplete matches by taps:", ", ".join(f"{g} {n} taps in {s:.1f} s" for g, (n, s) in FIGURES.items()))


def wait_for(driver, script: str, timeout: float = 30.0):
    """What ``script`` returns once it is something true, waited for inside the page (one round trip)."""
    return wait_on_page(driver, script, timeout)


#: the page shows entry ``arguments[0]`` and is not writing
AT_HEAD = "Number(document.body.dataset.head) === arguments[0] && !document.body.dataset.writing"


def at_head(driver, seq: int) -> None:
    """Wait until the page shows entry ``seq`` and is not writing."""
    wait_on_page(driver, f"return {AT_HEAD}", 30.0, seq)


def seen_at_head(driver, seq: int) -> tuple[bool, bool]:
    """Wait until the page shows entry ``seq`` and is not writing; then (it shows the result, it offers
    something to tap), read in the same round trip."""
    over, offered = wait_on_page(driver, f"return {AT_HEAD} && [document.body.dataset.over === 'yes', {OFFERS}]",
                                 30.0, seq)
    return over, offered


def verdict_after(driver, seq: int) -> str:
    """Wait until the page shows entry ``seq + 1`` (its tap's) and is not writing; the verdict it shows must be
    accepted or held (its text is the failure's message)."""
    verdict, text = wait_on_page(
        driver, f"return {AT_HEAD} && [document.body.dataset.verdict, document.getElementById('verdict').textContent]",
        30.0, seq + 1)
    assert verdict in ("accepted", "held"), text
    return str(verdict)


def hold(driver) -> None:
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By

    button = driver.find_element(By.ID, "reveal")
    ActionChains(driver).click_and_hold(button).pause(0.4).release().perform()
    wait_for(driver, "return document.body.classList.contains('revealed')")


def open_page(driver, live: LiveServer, mid: str, token: str) -> None:
    driver.get("about:blank")
    driver.get(f"{live.url}/play/{mid}#token={token}")
    wait_for(driver, "return Number(document.body.dataset.loads || 0) > 0 || !!document.body.dataset.stopped "
                     "|| document.getElementById('who').textContent.startsWith('This page cannot')")


#: finds ``tap`` on the page and taps it, or the field pick leading to it; says what it did
TAP = """
const [verb, intent, fields, confirms] = arguments;
let b = null, what = 'move';
if (confirms) b = document.querySelector('#held button.confirm');
else {
  const g = [...document.querySelectorAll('#moves .group')].find(x => x.dataset.verb === verb);
  if (g) {
    b = [...g.querySelectorAll('button.choice')].find(x => x.dataset.intent === intent) || null;
    const row = b ? null : g.querySelector('.field button.pick');
    if (row) { what = 'pick'; b = [...g.querySelectorAll('.field button.pick')].find(
      x => x.dataset.key === row.dataset.key && x.dataset.value === fields[row.dataset.key]) || null; }
  }
}
if (!b) return 'missing';
if (b.classList.contains('private') && !document.body.classList.contains('revealed')) return 'covered';
b.click();
return what;"""


#: taps the first button the page offers (a confirmation, a move, or the first value of the field it asks
#: for); says what it was, and the move's notation
TOP = """
const b = document.querySelector('#held button.confirm, #moves button.choice, #moves button.pick:not(.on)');
if (!b) return ['none', ''];
if (b.classList.contains('private') && !document.body.classList.contains('revealed')) return ['covered', ''];
b.click();
return [b.classList.contains('pick') ? 'pick' : b.classList.contains('confirm') ? 'confirm' : 'move', b.dataset.intent || ''];"""


def tap_top(driver, seat: str, seq: int) -> Tap:
    """Tap the first offered move on ``seat``'s page (picking the first value of each field it asks for,
    holding the hand where covered); the tap made."""
    for _ in range(16):
        did, intent = driver.execute_script(TOP)
        if did == "covered":
            hold(driver)
        elif did == "none":
            raise AssertionError(f"{seat}'s page offers nothing")
        elif did == "confirm":
            return Tap(seat=seat, entry=seq)
        elif did == "move":
            return Tap(seat=seat, intent=intent)
    raise AssertionError(f"{seat}'s page did not list a move after 16 picks")


def tap_on(driver, tap: Tap) -> None:
    """Tap ``tap`` on its seat's page: fields picked until the move is listed, the hand held where covered."""
    for _ in range(16):
        did = driver.execute_script(TAP, tap.verb, tap.intent, dict(tap.fields), tap.confirms)
        if did == "covered":
            hold(driver)
        elif did == "missing":
            raise AssertionError(f"the page does not offer {tap}")
        elif did == "move":
            return
    raise AssertionError(f"{tap} was not reached by picking its fields")


def hidden_from(referee: Referee, mid: str):
    """role -> a search for the cards hidden from that role now (ids, and names only hidden cards bear), as
    the leak tests search (tests/test_leaks.py)."""
    from test_leaks import _naming, card_names, names_of

    loaded = referee.load(mid)
    _, state = referee.state_at(loaded)
    every = card_names(loaded)

    @functools.cache
    def search(role: str):
        hidden = set(loaded.rules.hidden_ids(state, role))
        return _naming(hidden | names_of(loaded, hidden, every))

    return search


def search_pages(referee: Referee, client: httpx.Client, mid: str, tokens: dict, pages: dict, spectator,
                 viewer: bool) -> tuple[int, int]:
    """Every page searched for what is hidden from its role now, once it shows the head: each seat's page
    for the other seats' hidden cards, the spectator's /play page (and, with ``viewer``, the match's HTML
    viewer as the spectators' token gets it) for every hidden card. Returns how many texts were searched,
    and how many seat pages showed a card hidden from another seat (their own hand: the search finds what
    it looks for)."""
    head = referee.store.head(mid)
    texts: list[tuple[str, str]] = []
    for seat, driver in pages.items():
        at_head(driver, head)
        texts.append((seat, driver.execute_script("return document.documentElement.outerHTML")))
    texts.append(("spectator", spectator.execute_script("return document.documentElement.outerHTML")))
    if viewer:
        page = client.get(f"/matches/{mid}/export", params={"format": "html"}, headers=auth(tokens["spectator"]))
        assert page.status_code == 200, page.text
        texts.append(("spectator", page.text))
    search = hidden_from(referee, mid)
    for role, text in texts:
        found = search(role)(text)
        assert found is None, (role, found.group(0))
    own = sum(1 for seat, text in texts[:len(pages)] for other in pages if other != seat and search(other)(text))
    return len(texts), own


@pytest.mark.parametrize("game", sorted(CASES))
def test_two_seat_pages_play_a_complete_match_by_taps(server, phones, game):
    live, client, referee = server
    case = CASES[game]
    began = time.monotonic()
    mid, tokens = start(client, case)
    seats = tokens["seats"]
    pages = dict(zip(case.players, phones[:2]))
    for seat, driver in pages.items():
        open_page(driver, live, mid, seats[seat])
    spectator = phones[2]
    open_page(spectator, live, mid, tokens["spectator"])
    rng, taps, searched, own = random.Random(case.seed), [], 0, 0
    while True:
        if case.pick is first:
            # the first offered choice: read off the pages alone (both at the head), tapped on the first
            # page in seating order that offers anything
            seq = referee.store.head(mid)
            seen = {s: seen_at_head(d, seq) for s, d in pages.items()}
            if seen[case.players[0]][0]:
                break
            seat = next((s for s, (_, offered) in seen.items() if offered), None)
            assert seat is not None and len(taps) < case.taps, (game, len(taps), "the match did not end as the HTTP test's did")
            driver = pages[seat]
            tap = tap_top(driver, seat, seq)
        else:
            now = answers(client, mid, seats)
            if any(a["result"] for a in now.values()):
                break
            offer = offered(now)
            assert offer and len(taps) < case.taps, (game, len(taps), "the match did not end as the HTTP test's did")
            tap = case.pick(offer, rng)
            driver, seq = pages[tap.seat], now[tap.seat]["seq"]
            at_head(driver, seq)
            tap_on(driver, tap)
        verdict_after(driver, seq)
        taps.append(tap)
        if len(taps) % SEARCH_EVERY == 0 or len(taps) == case.taps // 2:
            n, k = search_pages(referee, client, mid, tokens, pages, spectator, len(taps) == case.taps // 2)
            searched, own = searched + n, own + k
    seconds = time.monotonic() - began
    # the same match as the HTTP test's, tap for tap
    assert len(taps) == case.taps, (game, len(taps))
    assert [e.actor for e in referee.log(mid)] == [t.seat for t in taps]
    # every page ends showing the result, and offers nothing more
    result = answers(client, mid, seats)[case.players[0]]["result"]
    assert result.startswith(case.result), result
    for driver in pages.values():
        wait_for(driver, "return document.body.dataset.over === 'yes'")
        assert driver.execute_script("return document.getElementById('result').textContent") == f"Game over: {result}"
        assert not driver.execute_script("return !!document.querySelector('#moves button, #held button')")
    n, k = search_pages(referee, client, mid, tokens, pages, spectator, True)
    searched, own = searched + n, own + k
    assert searched >= 8, searched
    # the search finds what it looks for: a seat's page shows cards hidden from the other seat (its hand;
    # X-Files' ids are card types, hidden only where no public zone holds a copy: a hand's types are not)
    assert own >= 1 or game == "xfiles_encounters", own
    same_state(referee, client, mid, tokens["arbiter"])
    FIGURES[game] = (len(taps), seconds)
