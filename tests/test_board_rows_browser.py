"""X-Files' mat and Copycat's street and offices in the viewer on a phone (issue 25 item 2): at 390x844
the page draws the game's row boards, every card by its name, and no element runs past the viewport's
right edge (the board panel, which scrolls by itself, included). Headless Chromium; marked slow."""

from __future__ import annotations

import pytest

from support.browser import browser, needs_chromium, wait_until  # noqa: F401  (browser: the process's shared Chromium)
from support.viewer_pages import replay as shared_replay
from support.viewer_pages import viewer

pytestmark = [pytest.mark.slow, needs_chromium]

PHONE = (390, 844)

#: every element whose box reaches past the viewport's right edge, but those inside a wide table's ``.scroll``
#: box (the board panel is not one: a board wider than the phone fails); and the document's own width against the viewport's
OVERFLOW = """
const w = document.documentElement.clientWidth;
const wide = [...document.querySelectorAll("body *")].filter((el) => {
  const r = el.getBoundingClientRect();
  if (r.width === 0 || r.right <= w + 1) return false;
  for (let p = el.parentElement; p; p = p.parentElement) if (p.classList.contains("scroll")) return false;
  return true;
}).map((el) => el.tagName + (el.id ? "#" + el.id : "") + "." + el.className);
return [wide, document.documentElement.scrollWidth, w];
"""


@pytest.mark.parametrize("replay,titles", [
    ("copycat/thursday-club.txt", ["Street", "Offices: blue", "Offices: yellow", "Offices: green"]),
    ("xfiles_encounters/lone-agent.txt", ["Shadows and Sector", "Bureau", "Conspiracy and stacks", "Evidence"]),
    ("xfiles_encounters/two-agents.txt", ["Shadows and Sector", "Bureau", "Conspiracy and stacks", "Evidence"]),
])
def test_the_boards_fit_a_phone_and_show_names(browser, replay, titles):
    r, mid = shared_replay(replay)  # imported and exported once per test process (support/viewer_pages.py)
    loaded = r.load(mid)
    head = r.store.head(mid)
    for role in (loaded.config.players[0], "arbiter"):
        page, _, _ = viewer(replay, role)
        browser.set_window_size(*PHONE)
        browser.get("about:blank")
        browser.get(page.as_uri() + f"#{head // 2}")
        for at in (head // 2, head):  # opened at the middle, then stepped to the end by its link (no reload)
            browser.execute_script("location.hash = arguments[0]", f"#{at}")
            wait_until(browser, "return document.getElementById('now').textContent.startsWith(arguments[0])", 30,
                       f"After entry {at} of {head}")
            drawn = browser.execute_script("return [...document.querySelectorAll('#boards .board')].map(b => b.dataset.board)")
            if titles[0] == "Street":  # the street, the offices a row per colour, the supply
                assert drawn[0] == "Street" and drawn[-1] == "Supply and office deck", drawn
                assert set(titles) <= set(drawn) and all(t.startswith("Offices: ") for t in drawn[1:-1]), drawn
            else:
                assert drawn == titles, (role, at, drawn)
            wide, scroll, width = browser.execute_script(OVERFLOW)
            assert wide == [] and scroll <= width, (role, at, wide, scroll, width)
            # each card drawn on the boards by its printed name, the id on hover
            hover = browser.execute_script("return [...document.querySelectorAll('#boards .card .named')].map(e => [e.title, e.textContent])")
            assert hover and all(loaded.rules.name_of(i) == n for i, n in hover), (role, at)
