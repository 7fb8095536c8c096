"""Seat pages in headless Chromium against a real server (issue 26): two seats of a match play moves by
taps alone (the first offered choice, a fixed seed), the other page follows live through the match's
event stream, a racing submit is answered "the game moved on" with the new table, the hand stays
covered until held, and nothing is fetched from anywhere but the server. Skips without Chromium."""

from __future__ import annotations

import time

import pytest
from litestar.testing import TestClient

from referee.http import create_app
from referee.service import Referee
from referee.store.memory import MemoryStore
from support.browser import browsers, needs_chromium, wait_on_page  # noqa: F401  (browsers: the shared Chromiums)
from support.live import LiveServer

pytestmark = [pytest.mark.slow, needs_chromium]

PHONE = (412, 915)


@pytest.fixture(scope="module")
def server():
    store = MemoryStore()
    with LiveServer(create_app(lambda: Referee(store), keepalive=2.0, poll=0.2)) as live:
        with TestClient(create_app(lambda: Referee(store))) as client:
            yield live, client, Referee(store)


#: a stand-in for the Screen Wake Lock API (headless Chromium refuses the real one): it counts what the page asks
WAKE = """
window.__wake = {requests: 0, held: false};
Object.defineProperty(navigator, 'wakeLock', {configurable: true, value: {request: async (kind) => {
  window.__wake.requests += 1; window.__wake.held = true;
  const sentinel = new EventTarget();
  sentinel.release = async () => { window.__wake.held = false; sentinel.dispatchEvent(new Event('release')); };
  return sentinel; }}});
"""


@pytest.fixture(scope="module")
def phones(browsers):
    drivers = browsers(2)  # two of this process's shared Chromiums, side by side
    for d in drivers:
        d.set_window_size(*PHONE)
        d.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": WAKE})
    return drivers


def wait_for(driver, script: str, timeout: float = 20.0):
    """What ``script`` returns once it is something true, waited for inside the page (one round trip)."""
    return wait_on_page(driver, script, timeout)


def head(driver) -> int:
    return int(driver.execute_script("return Number(document.body.dataset.head || -1)"))


def tap_first(driver) -> str:
    """Tap the first offered move: hold the reveal if it is covered; pick fields until moves are listed."""
    for _ in range(12):
        kind, text = driver.execute_script("""
            const b = document.querySelector('#held button.confirm') || document.querySelector('#moves button.choice')
                || document.querySelector('#moves button.pick:not(.on)');
            if (!b) return ['none', ''];
            if (b.classList.contains('private') && !document.body.classList.contains('revealed')) return ['covered', ''];
            const what = b.classList.contains('pick') ? 'pick' : 'move';
            const t = b.dataset.intent || b.textContent; b.click(); return [what, t];""")
        if kind == "covered":
            hold(driver)
            continue
        if kind != "pick":
            return text
    raise AssertionError("no move offered")


def hold(driver) -> None:
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By

    button = driver.find_element(By.ID, "reveal")
    ActionChains(driver).click_and_hold(button).pause(0.6).release().perform()
    wait_for(driver, "return document.body.classList.contains('revealed')")


def open_seat(driver, live: LiveServer, mid: str, token: str) -> None:
    driver.get("about:blank")
    driver.get(f"{live.url}/play/{mid}#token={token}")
    wait_for(driver, "return Number(document.body.dataset.loads || 0) > 0")


@pytest.mark.parametrize("game", ["by_all_means", "war_of_shadows"])
def test_two_seats_play_by_taps_and_follow_each_other_live(server, phones, game):
    live, client, referee = server
    made = client.post("/matches", json={"game": game, "players": ["alice", "bob"], "chance": "digital",
                                         "seed": 11}).json()
    mid, seats = made["match"]["id"], made["tokens"]["seats"]
    alice, bob = phones
    open_seat(alice, live, mid, seats["alice"])
    open_seat(bob, live, mid, seats["bob"])
    assert "you are alice" in alice.execute_script("return document.getElementById('who').textContent")
    played = 0
    for _ in range(8):
        before = referee.store.head(mid)
        for driver in (alice, bob):
            wait_for(driver, f"return Number(document.body.dataset.head) === {before}")
            offered = driver.execute_script(
                "return !!document.querySelector('#moves button.choice, #moves button.pick, #held button.confirm')")
            if offered:
                tap_first(driver)
                wait_for(driver, f"return Number(document.body.dataset.head) > {before}")
                verdict = driver.execute_script("return document.body.dataset.verdict")
                assert verdict in ("accepted", "held"), driver.execute_script("return document.getElementById('verdict').textContent")
                played += 1
                break
        else:
            break
        # the other page follows through the event stream, without a reload
        now = referee.store.head(mid)
        for driver in (alice, bob):
            wait_for(driver, f"return Number(document.body.dataset.head) === {now}")
    assert played >= 6, played
    assert [e.verdict for e in referee.log(mid)] == ["accepted"] * played
    # phone first: nothing is wider than the phone's screen
    for driver in (alice, bob):
        inner, scroll = driver.execute_script("return [window.innerWidth, document.documentElement.scrollWidth]")
        assert scroll <= inner, (inner, scroll)
    # the screen is kept on while the game runs
    assert all(d.execute_script("return window.__wake.held && window.__wake.requests >= 1") for d in (alice, bob))
    # the hand is covered while the phone lies on the table, shown while held
    for driver in (alice, bob):
        driver.execute_script("document.body.classList.remove('revealed')")
        covered = driver.execute_script("""
            const p = [...document.querySelectorAll('.private')];
            return p.length > 0 && p.every(e => [...e.children].every(c => getComputedStyle(c).visibility === 'hidden'));""")
        assert covered
        hold(driver)
        assert driver.execute_script(
            "return [...document.querySelectorAll('.private > *')].some(c => getComputedStyle(c).visibility === 'visible')")
    # nothing was fetched but the server's own answers
    for driver in (alice, bob):
        elsewhere = driver.execute_script(
            f"return performance.getEntriesByType('resource').map(e => e.name).filter(n => !n.startsWith({live.url!r}))")
        assert elsewhere == []


def test_a_racing_submit_is_told_the_game_moved_on(server, phones):
    live, client, referee = server
    made = client.post("/matches", json={"game": "war_of_shadows", "players": ["alice", "bob"], "chance": "digital",
                                         "seed": 5}).json()
    mid, seats = made["match"]["id"], made["tokens"]["seats"]
    alice, bob = phones
    open_seat(alice, live, mid, seats["alice"])
    open_seat(bob, live, mid, seats["bob"])
    # bob's page has the table at entry 0; alice moves first (another phone, a moment earlier), and bob taps
    # before his page has heard of it: both in one script on bob's page (alice's move a synchronous request
    # with her token), so the page cannot hear of the move between them, however slow the machine is
    bob.execute_script("window.__stale = true")
    moved = bob.execute_script("""
        const r = new XMLHttpRequest();
        r.open('POST', '/matches/' + arguments[0] + '/intents', false);
        r.setRequestHeader('Authorization', 'Bearer ' + arguments[1]);
        r.setRequestHeader('Content-Type', 'application/json');
        r.send(JSON.stringify({intent: 'choose_society society=pale_raven', expected_seq: 0}));
        if (Number(document.body.dataset.head) !== 0) return 'bob heard';
        document.querySelector('#moves button.choice').click();
        return r.status;""", mid, seats["alice"])
    assert moved == 201, moved
    # bob's submit names entry 0 and is refused, nothing written
    wait_for(bob, "return document.body.dataset.verdict === 'moved'")
    text = bob.execute_script("return document.getElementById('verdict').textContent")
    assert "moved on" in text
    wait_for(bob, "return Number(document.body.dataset.head) === 1")
    assert referee.store.head(mid) == 1
    assert bob.execute_script("return window.__stale") is True  # the same page: updated in place, not reloaded


def test_a_phone_that_lost_its_connection_catches_up(server, phones):
    """Offline (asleep, out of the hall's wifi) while the other seat moves: back online, the page has the
    moves without being reloaded."""
    live, client, referee = server
    made = client.post("/matches", json={"game": "war_of_shadows", "players": ["alice", "bob"], "chance": "digital",
                                         "seed": 8}).json()
    mid, seats = made["match"]["id"], made["tokens"]["seats"]
    alice, bob = phones
    open_seat(bob, live, mid, seats["bob"])
    bob.execute_script("window.__same = true")
    bob.execute_cdp_cmd("Network.enable", {})
    bob.execute_cdp_cmd("Network.emulateNetworkConditions",
                        {"offline": True, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})
    try:
        hd = {"Authorization": f"Bearer {seats['alice']}"}
        for intent in ("choose_society society=pale_raven", "set_first_player"):
            assert client.post(f"/matches/{mid}/intents", headers=hd, json={"intent": intent}).status_code == 201
        time.sleep(1.5)
        assert head(bob) == 0  # it heard nothing meanwhile
    finally:
        bob.execute_cdp_cmd("Network.emulateNetworkConditions",
                            {"offline": False, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})
    wait_for(bob, "return Number(document.body.dataset.head) === 2", timeout=40)
    assert bob.execute_script("return window.__same") is True


def test_the_game_over_shows_the_result_and_lets_the_screen_sleep(server, phones):
    live, client, referee = server
    made = client.post("/matches", json={"game": "war_of_shadows", "players": ["alice", "bob"], "chance": "digital",
                                         "seed": 8}).json()
    mid, tokens = made["match"]["id"], made["tokens"]
    alice = phones[0]
    open_seat(alice, live, mid, tokens["seats"]["alice"])
    assert alice.execute_script("return window.__wake.held")
    # the seats play it out through the API, the first legal move each time (137 moves with this seed)
    moves = 0
    while referee.load(mid) and not referee.over(referee.load(mid)) and moves < 400:
        for seat in ("alice", "bob"):
            legal = referee.legal(mid, seat, blind=True).legal[seat]
            if legal:
                client.post(f"/matches/{mid}/intents", headers={"Authorization": f"Bearer {tokens['seats'][seat]}"},
                            json={"intent": legal[0]})
                moves += 1
                break
        else:
            break
    assert referee.over(referee.load(mid)), moves
    wait_for(alice, "return document.body.dataset.over === 'yes'", timeout=40)
    assert alice.execute_script("return document.getElementById('result').textContent").startswith("Game over: ")
    assert not alice.execute_script("return window.__wake.held")


def test_a_held_move_is_confirmed_by_a_tap_and_a_move_taken_back(server, phones):
    from test_seat_page import TAKE, held_match

    live, client, referee = server
    mid, seats = held_match(client)
    alice, bob = phones
    open_seat(bob, live, mid, seats["bob"])
    open_seat(alice, live, mid, seats["alice"])
    assert "Waiting for bob" in alice.execute_script("return document.getElementById('held').textContent")
    assert "Raid" in bob.execute_script("return document.getElementById('held').textContent")
    bob.execute_script("document.querySelector('#held button.confirm').click()")
    wait_for(bob, "return Number(document.body.dataset.head) === 2")
    assert bob.execute_script("return document.body.dataset.verdict") == "accepted"
    wait_for(alice, "return Number(document.body.dataset.head) === 2 && !document.getElementById('takeback').hidden")
    assert [e.kind for e in referee.log(mid)] == ["intent", "confirm"] and TAKE
    # alice takes her move back by a tap: an undo entry back before it
    alice.execute_script("document.getElementById('takeback').click()")
    wait_for(alice, "return Number(document.body.dataset.head) === 3")
    assert alice.execute_script("return document.body.dataset.verdict") == "accepted"
    assert referee.log(mid)[-1].kind == "undo" and referee.log(mid)[-1].actor == "alice"
    wait_for(bob, "return Number(document.body.dataset.head) === 3")


def test_a_physical_match_takes_what_the_table_shows_and_a_refusal_names_its_rule(server, phones):
    from selenium.webdriver.common.by import By

    live, client, referee = server
    made = client.post("/matches", json={"game": "by_all_means", "players": ["alice", "bob"], "chance": "physical"}).json()
    mid, seats = made["match"]["id"], made["tokens"]["seats"]
    alice = phones[0]
    open_seat(alice, live, mid, seats["alice"])

    def draw(cards: str) -> None:
        box = alice.find_element(By.CSS_SELECTOR, '#moves .group[data-verb="draw_opening_hand"] input[data-key="cards"]')
        box.clear()
        box.send_keys(cards)
        alice.execute_script("""document.querySelector('#moves .group[data-verb="draw_opening_hand"] button.choice').click()""")

    draw("AG1,AG2,AG3")  # three cards where four are drawn: refused, with the rule
    wait_for(alice, "return Number(document.body.dataset.head) === 1")
    text = alice.execute_script("return document.getElementById('verdict').textContent")
    assert alice.execute_script("return document.body.dataset.verdict") == "rejected"
    assert "expected 4 cards" in text and "rule: R-SETUP" in text
    draw("AG1,AG2,AG3,AG4")  # a card the set does not have: said, nothing written
    wait_for(alice, "return document.getElementById('verdict').textContent.includes(\"unknown card 'AG4'\")")
    assert referee.store.head(mid) == 1 and alice.execute_script("return document.body.dataset.verdict") == "rejected"
    draw("AG1, AG2, AG3, GF1")
    wait_for(alice, "return Number(document.body.dataset.head) === 2")
    assert alice.execute_script("return document.body.dataset.verdict") == "accepted"
    assert referee.log(mid)[-1].notation == "draw_opening_hand cards=AG1,AG2,AG3,GF1"
    # call the arbiter on the current entry: a dispute, by alice
    alice.execute_script("document.getElementById('dispute').open = true")
    alice.find_element(By.ID, "dispute-text").send_keys("bob saw my cards")
    alice.execute_script("document.getElementById('dispute-send').click()")
    wait_for(alice, "return document.getElementById('verdict').textContent.includes('arbiter is called')")
    assert [(a.seq, a.kind, a.by, a.text) for a in referee.store.annotations(mid)] == [(2, "disputed", "alice", "bob saw my cards")]


@pytest.mark.parametrize("game", ["xfiles_encounters", "android", "copycat"])
def test_the_three_seat_games_are_played_by_taps_too(server, phones, game):
    """The other games' pages, generated alike: whichever seat has a move opens its page and taps the first
    offered choice; every tap is accepted (or held for its confirmer, whose page confirms it)."""
    live, client, referee = server
    players = ["alice", "bob", "carol"]
    made = client.post("/matches", json={"game": game, "players": players, "chance": "digital", "seed": 4}).json()
    mid, seats = made["match"]["id"], made["tokens"]["seats"]
    phone, at = phones[0], None
    played = 0
    for _ in range(8):
        before = referee.store.head(mid)
        who = next((s for s in players if client.get(f"/matches/{mid}/seat", headers={
            "Authorization": f"Bearer {seats[s]}"}).json()["moves"]), None)
        if who is None:
            break
        if who != at:
            open_seat(phone, live, mid, seats[who])
            at = who
        wait_for(phone, f"return Number(document.body.dataset.head) === {before}")
        tap_first(phone)
        wait_for(phone, f"return Number(document.body.dataset.head) > {before}")
        assert phone.execute_script("return document.body.dataset.verdict") in ("accepted", "held"), \
            phone.execute_script("return document.getElementById('verdict').textContent")
        played += 1
    assert played >= 4, played
    assert all(e.verdict in ("accepted", "held") for e in referee.log(mid))
