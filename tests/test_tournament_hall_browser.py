"""The hall page as the organiser's console and the spectators' projection (issue 25, item 4), in headless
Chromium against a live server, at a phone's size (390x844) and a laptop's (1280x800): nothing wider than
the viewport (the standings may scroll inside their own box; on a phone the tables are cards and do not);
the organiser sees each table's state and the button that pairs the next round, enabled once the round is
complete, and pairing round 2 with it works; a spectator sees no control, the standings link each
player's page with the token in the fragment, and the type grows on a hall's screen (1920x1080).
Needs Debian's chromium and chromium-driver; skips where they are absent."""

from __future__ import annotations

import time

import httpx
import pytest

from referee.http import create_app
from referee.service import Referee
from referee.store.memory import MemoryStore
from support.browser import browser, needs_chromium  # noqa: F401  (browser: the process's shared Chromium)
from support.live import LiveServer
from support.pile import PILE

pytestmark = [pytest.mark.slow, needs_chromium]

SIZES = [(390, 844), (1280, 800)]
PLAYERS = ["ann", "ben", "cy", "dee", "eve", "fay"]

#: every element reaching past the viewport's right edge (but those inside a box that scrolls sideways by
#: itself), the document's width, the viewport's, and how far the tables' own box scrolls sideways
OVERFLOW = """
const w = document.documentElement.clientWidth;
const wide = [...document.querySelectorAll("body *")].filter((el) => {
  const r = el.getBoundingClientRect();
  if (r.width === 0 || r.right <= w + 1) return false;
  return !el.closest(".scroll");
}).map((el) => el.tagName + (el.id ? "#" + el.id : "") + "." + el.className);
const box = document.querySelector("#tables-box .scroll");
return [wide, document.documentElement.scrollWidth, w, box.scrollWidth - box.clientWidth];
"""


def _active(ref: Referee, mid: str) -> str:
    return str(ref.show(mid).state["active"])


@pytest.fixture(scope="module")
def served():
    """One live server for the module's tests (each makes a tournament of its own on it), and a referee on its
    store."""
    store = MemoryStore()
    with LiveServer(create_app(lambda: Referee(store, games=[PILE]), poll=0.1, admin_token="adm")) as live:
        yield live, Referee(store, games=[PILE])


@pytest.fixture
def hall(browser, served):
    """A tournament on the live server: six players (one with a long name), round 1 paired: table 1 finished,
    table 2 waiting on a confirmation, table 3 disputed. Yields (url, tid, tokens, referee, tables, loose ends)."""
    live, ref = served
    made = httpx.post(f"{live.url}/tournaments", json={
        "name": "The Thursday club's long autumn cup <script>alert(1)</script>", "game": "pile", "rounds": 2,
        "seed": 4, "chance": "digital", "options": {"stones": "3"}, "players": PLAYERS,
        "tiebreaks": ["points", "buchholz", "buchholz-cut1", "sonneborn-berger", "progressive"]},
        headers={"Authorization": "Bearer adm"}).json()
    tid, tokens = made["tournament"], made["tokens"]
    org = {"Authorization": f"Bearer {tokens['organiser']}"}
    httpx.post(f"{live.url}/tournaments/{tid}/players/eve", headers=org, json={
        "name": "Evangelina Montgomery-Featherstonehaugh", "reason": "as entered"})
    tables = httpx.post(f"{live.url}/tournaments/{tid}/pair", json={"tokens": False}, headers=org).json()["tables"]
    for t in tables:
        ref.submit(t["match_id"], t["seats"][0], "start")
    one, two, three = (t["match_id"] for t in tables)
    ref.submit(one, _active(ref, one), "take 3")
    guesser = _active(ref, two)
    other = next(s for s in tables[1]["seats"] if s != guesser)
    held = ref.submit(two, guesser, f"guess seat={other} token=K01", blind=True).seq
    moved = ref.submit(three, _active(ref, three), "take 1").seq
    ref.annotate(three, moved, "was that their turn?", kind="disputed", by="cy")
    yield live.url, tid, tokens, ref, tables, (other, held, moved)
    browser.get("about:blank")  # the page's stream ends before the server does


def _open(driver, url: str, size: tuple[int, int], updates: int = 1) -> None:
    driver.set_window_size(*size)
    driver.get("about:blank")
    driver.get(url)
    _wait(driver, lambda: int(driver.find_element("tag name", "body").get_attribute("data-updates")) >= updates,
          "the first snapshot")


def _wait(driver, check, what: str) -> None:
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        if check():
            return
        time.sleep(0.1)
    raise AssertionError(f"{what}: {driver.find_element('tag name', 'body').text}")


def _fits(driver) -> None:
    wide, scroll, width, tables = driver.execute_script(OVERFLOW)
    assert wide == [] and scroll <= width, (wide, scroll, width)
    if width < 640:
        assert tables <= 0, tables  # a phone: the tables are cards, not a table to scroll sideways


def _css(driver, selector: str) -> list:
    return driver.find_elements("css selector", selector)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_console_and_the_projection_fit_the_screen(browser, hall, size):
    url, tid, tokens, ref, tables, _ = hall
    _open(browser, f"{url}/hall/{tid}#token={tokens['organiser']}", size)
    _fits(browser)
    assert browser.find_element("id", "console").is_displayed()
    assert [r.get_attribute("data-state") for r in _css(browser, "#pairings-body tr[data-table]")] == [
        "finished", "waiting", "disputed"]
    assert "waits for" in _css(browser, "#pairings-body tr")[1].text  # the organiser is told why
    pair = browser.find_element("id", "pair")
    assert pair.text == "Pair round 2" and not pair.is_enabled()
    assert "not complete" in browser.find_element("id", "console-note").text

    _open(browser, f"{url}/hall/{tid}#token={tokens['spectator']}", size)
    _fits(browser)
    body = browser.find_element("tag name", "body")
    assert body.get_attribute("data-role") == "spectator" and "projection" in body.get_attribute("class")
    assert not browser.find_element("id", "console").is_displayed()
    assert not [b for b in _css(browser, "button") if b.is_displayed()]  # no control for a spectator
    rows = _css(browser, "#pairings-body tr[data-table]")
    assert [r.get_attribute("data-state") for r in rows] == ["finished", "waiting", "disputed"]
    assert "waits for" not in rows[1].text
    assert all(r.find_elements("css selector", "a.watch") for r in rows)  # each table's live view
    # "standings after round 1" only once round 1 is complete
    assert browser.find_element("id", "after").text == "(no round completed yet)"
    links = [a.get_attribute("href") for a in _css(browser, "#standings-body a.player")]
    assert sorted(links) == sorted(f"{url}/hall/{tid}/players/{p}#token={tokens['spectator']}" for p in PLAYERS)
    assert [e for e in browser.get_log("browser") if e["level"] == "SEVERE" and "favicon" not in e["message"]] == []


def test_the_organiser_pairs_round_2_from_a_phone(browser, hall):
    url, tid, tokens, ref, tables, (confirmer, held, moved) = hall
    _open(browser, f"{url}/hall/{tid}#token={tokens['organiser']}", (390, 844))
    pair = browser.find_element("id", "pair")
    assert not pair.is_enabled()
    two, three = tables[1]["match_id"], tables[2]["match_id"]
    ref.confirm(two, held, by=confirmer, accept=False)
    ref.annotate(three, moved, "it was", kind="ruling", by="organiser")
    for mid in (two, three):
        while ref.result(mid) is None:
            ref.submit(mid, _active(ref, mid), "take 1")
    _wait(browser, lambda: pair.is_enabled(), "the round complete")  # the stream brought it, no reload
    assert "read from the matches' logs" in browser.find_element("id", "console-note").text
    pair.click()  # arms it
    assert "Press again" in browser.find_element("id", "console-msg").text
    assert httpx.get(f"{url}/tournaments/{tid}", headers={"Authorization": f"Bearer {tokens['spectator']}"}).json()["round"] == 1
    pair.click()
    _wait(browser, lambda: "Round 2 paired: 3 tables" in browser.find_element("id", "console-msg").text, "the pairing")
    _wait(browser, lambda: browser.find_element("id", "round").text == "round 2 (being played)", "round 2 drawn")
    shown = httpx.get(f"{url}/tournaments/{tid}/pairings", headers={"Authorization": f"Bearer {tokens['organiser']}"}).json()
    assert [r["round"] for r in shown["rounds"]] == [1, 2] and shown["rounds"][0]["closed"]
    assert browser.find_element("id", "after").text == "after round 1"
    assert not browser.find_element("id", "pair").is_enabled()  # the last round: nothing more to pair
    _fits(browser)
    # a refusal is the server's message: closing round 2 while its tables play is not offered; forced, it says why
    browser.execute_script("document.getElementById('close').disabled = false")
    close = browser.find_element("id", "close")
    close.click()
    close.click()
    _wait(browser, lambda: browser.find_element("id", "console-msg").text.startswith("Refused: round 2 table"),
          "the refusal")


def test_the_projection_is_large_on_a_halls_screen(browser, hall):
    url, tid, tokens, *_ = hall
    size = lambda: float(browser.execute_script(  # noqa: E731
        "return parseFloat(getComputedStyle(document.querySelector('#standings-body td.who')).fontSize)"))
    _open(browser, f"{url}/hall/{tid}#token={tokens['spectator']}", (1920, 1080))
    _fits(browser)
    spectator = size()
    _open(browser, f"{url}/hall/{tid}#token={tokens['organiser']}", (1920, 1080))
    assert spectator >= 24 and size() < 16, (spectator, size())
