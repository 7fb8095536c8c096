"""A player's page in headless Chromium at a desktop's and a phone's width: the chart drawn with one
point per rated match and inside the window, nothing wider than the viewport, no request anywhere
(the page is a file with no script). Skips where Chromium is absent, as tests/test_html_browser.py."""

from __future__ import annotations


import pytest

from referee.players import of_database
from referee.playerpage import page
from referee.service import Referee
from referee.store.memory import MemoryStore
from support.browser import browser, needs_chromium, wait_until  # noqa: F401  (browser: the process's shared Chromium)
from support.pile import PILE

pytestmark = [pytest.mark.slow, needs_chromium]

DESKTOP, PHONE = (1366, 900), (412, 915)


@pytest.fixture(scope="module")
def player_page(tmp_path_factory):
    ref = Referee(MemoryStore(), games=[PILE])
    rivals = ["ben", "cy", "a-very-long-player-name-that-could-push-a-phone-table-wide"]
    for i in range(12):
        seats = ["ann", rivals[i % 3]] if i % 4 else [rivals[i % 3], "ann"]
        m = ref.new_match("pile", seats, options={"stones": "2"})
        ref.submit(m.id, seats[0], f"start first={seats[0]} tokens=K01,K02")
        ref.submit(m.id, seats[0], "take 2")
    found = of_database(ref, "ann")
    path = tmp_path_factory.mktemp("player") / "ann.html"
    path.write_text(page(found, title="in the Thursday club"), encoding="utf-8")
    return path, found


@pytest.mark.parametrize("size", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_the_page_fits_and_draws_the_rating(browser, player_page, size):
    path, found = player_page
    browser.set_window_size(*size)
    browser.get("about:blank")
    browser.get(path.as_uri())
    inner, scroll, wider, dots, chart, requests = browser.execute_script("""
        const w = window.innerWidth;
        const wider = [...document.querySelectorAll('body *')].filter((e) => e.getBoundingClientRect().right > w + 1)
            .map((e) => e.tagName + '#' + e.id);
        const svg = document.getElementById('rating-chart').getBoundingClientRect();
        return [w, document.documentElement.scrollWidth, wider, document.querySelectorAll('#rating-chart circle').length,
                [svg.left, svg.right, svg.height], performance.getEntriesByType('resource').length];
    """)
    assert scroll <= inner and wider == [], wider
    assert dots == len(found.rating) == 12
    assert chart[0] >= 0 and chart[1] <= inner and chart[2] > 50  # drawn, inside the window
    assert requests == 0
    rows = browser.execute_script("return document.querySelectorAll('#matches tbody tr').length")
    assert rows == 12


def test_the_hall_shell_shows_the_page_with_the_fragments_token(browser):
    """On a real server: /hall/T/players/P#token=... fetches the page with the token and shows it; a bad
    token is said on the page, nothing of the player shown."""
    import httpx

    from referee.http import create_app
    from support.live import LiveServer

    store = MemoryStore()
    app = create_app(lambda: Referee(store, games=[PILE]), admin_token="adm")
    with LiveServer(app) as live:
        made = httpx.post(f"{live.url}/tournaments", json={"name": "Cup", "game": "pile", "players": ["ann", "ben"],
                                                           "options": {"stones": "2"}},
                          headers={"Authorization": "Bearer adm"}).json()
        tid, spec = made["tournament"], made["tokens"]["spectator"]
        org = {"Authorization": f"Bearer {made['tokens']['organiser']}"}
        (table,) = httpx.post(f"{live.url}/tournaments/{tid}/pair", json={}, headers=org).json()["tables"]
        arb = {"Authorization": f"Bearer {table['tokens']['arbiter']}"}
        first = table["seats"][0]
        for intent in (f"start first={first} tokens=K01,K02", "take 2"):
            answer = httpx.post(f"{live.url}/matches/{table['match_id']}/intents", json={"intent": intent, "seat": first},
                                headers=arb)
            assert answer.status_code == 201, answer.text
        browser.set_window_size(*PHONE)
        browser.get("about:blank")
        browser.get(f"{live.url}/hall/{tid}/players/ann#token={spec}")
        wait_until(browser, "return !!document.getElementById('rating-chart')", 10)
        dots, title, scroll, inner = browser.execute_script(
            "return [document.querySelectorAll('#rating-chart circle').length, document.querySelector('h1').textContent,"
            " document.documentElement.scrollWidth, window.innerWidth]")
        assert (dots, title) == (1, "ann") and scroll <= inner
        browser.get("about:blank")
        browser.get(f"{live.url}/hall/{tid}/players/ann#token=guess")
        wait_until(browser, "return document.body.textContent.includes('cannot show')", 10)
        text = browser.execute_script("return document.body.textContent")
        assert "cannot show the player" in text and "rating-chart" not in browser.page_source
