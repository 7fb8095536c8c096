"""Every page a person reads, in headless Chromium at a phone's size (390x844) and a desktop's (1280x800), the
spectators' projection also on a hall's screen (1920x1080): the five games' viewers, the hall as its organiser
and as a spectator, the tournament's HTML export, a player's page, the arbiter's console (an open dispute, the
round clock running) and each game's seat page mid-game, built and opened exactly as ``docs/screenshots.py``
makes the README's pictures of them (its :func:`pages` and :func:`visit`). On each: nothing wider than the
viewport (the document does not scroll sideways, and no element reaches past the right edge, save inside a box
that scrolls its own content within the viewport, which only the standings' tables of the hall and the export
do, on a phone), and nothing requested from elsewhere (the page names no http(s) address but its own origin's,
and the browser's performance entries list only the page's origin and data: or blob: addresses). A seat's page
draws its board and keeps its hand covered. Every picture the README names exists. Skips where Chromium is
absent, as tests/test_html_browser.py."""

from __future__ import annotations

import importlib.util
import os
import re
import sys
import urllib.request
from urllib.parse import urlsplit

import pytest

from conftest import ROOT
from support.browser import needs_chromium, shared

pytestmark = [pytest.mark.slow, needs_chromium, pytest.mark.xdist_group("pages_browser")]


def _screenshots():
    """docs/screenshots.py as a module (docs/ is not a package)."""
    if "screenshots" not in sys.modules:
        spec = importlib.util.spec_from_file_location("screenshots", os.path.join(ROOT, "docs", "screenshots.py"))
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules["screenshots"] = module
        spec.loader.exec_module(module)
    return sys.modules["screenshots"]


shots = _screenshots()

#: XML namespaces: names, never fetched
NAMESPACES = ("http://www.w3.org/2000/svg", "http://www.w3.org/1999/xlink", "http://www.w3.org/1999/xhtml")
URL = re.compile(r"https?://[^\s\"'<>()\\]+")

#: elements past the right edge of a screen ``arguments[0]`` px wide, outside any box that clips or scrolls its
#: content within it
WIDER = """
const w = arguments[0];
const clipped = (e) => {
  for (let a = e.parentElement; a && a !== document.documentElement; a = a.parentElement) {
    const ox = getComputedStyle(a).overflowX;
    if (ox !== 'visible' && a.getBoundingClientRect().right <= w + 1) return true;
  }
  return false;
};
const said = (e) => e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') + (e.className && e.className.baseVal === undefined
       ? '.' + String(e.className).split(' ').join('.') : '') + ' right=' + Math.round(e.getBoundingClientRect().right);
const past = [...document.querySelectorAll('body *')].filter((e) => e.getBoundingClientRect().right > w + 1);
return [past.filter((e) => !clipped(e)).map(said), past.filter(clipped).map(said)];
"""

#: the pages whose wide tables scroll sideways inside their own box on a phone (the page itself does not): the
#: standings' columns of tie-breaks do not fit 390 px. Any other page with content past the screen's edge,
#: even inside such a box, fails
SCROLLS_IN_A_BOX = {("hall-organiser", "phone"), ("hall-spectator", "phone"), ("tournament-export", "phone"),
                    ("hall-organiser-ru", "phone")}


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """Every page, as docs/screenshots.py builds them (the served ones served while the module runs)."""
    with shots.pages(str(tmp_path_factory.mktemp("pages"))) as pages:
        yield {page.name: page for page in pages}


@pytest.fixture(scope="module")
def browser(request):
    """This process's shared Chromium started with the pictures' flags (docs/screenshots.py)."""
    with shared(flags=shots.FLAGS, config=request.config) as (driver,):
        yield driver


def test_the_pictures_show_every_page():
    """The page names the test checks are the pictures' names, one of each page a person reads; each has its
    pictures in docs/screenshots, and every picture the README names exists."""
    assert len(shots.NAMES) == len(set(shots.NAMES)) == 2 * len(shots.GAMES) + 5 + len(shots.RUSSIAN)
    assert set(shots.SHOWN_AT) == set(shots.NAMES)
    assert all({"phone", "desktop"} <= set(sizes) <= set(shots.SIZES) for sizes in shots.SHOWN_AT.values())
    assert "screen" in shots.SHOWN_AT["hall-spectator"]
    folder = os.path.join(ROOT, "docs", "screenshots")
    wanted = {f"{name}-{size}.png" for name, sizes in shots.SHOWN_AT.items() for size in sizes}
    assert wanted <= set(os.listdir(folder)), sorted(wanted - set(os.listdir(folder)))
    with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as fh:
        named = set(re.findall(r"(?:\]\(|src=\")docs/screenshots/([\w.-]+\.png)", fh.read()))  # shown or linked
    assert named, "the README shows no picture"
    assert named <= wanted, sorted(named - wanted)
    # the README shows the seat page of every game on a phone, and the arbiter's console
    assert {f"seat-{game.replace('_', '-')}-phone.png" for game in shots.GAMES} | {"arbiter-phone.png"} <= named


def origin(url: str) -> str:
    parts = urlsplit(url)
    return "file://" if parts.scheme == "file" else f"{parts.scheme}://{parts.netloc}"


def source(page) -> str:
    """The page's HTML as it is written or served."""
    if page.file:
        with open(page.file, encoding="utf-8") as fh:
            return fh.read()
    with urllib.request.urlopen(page.url.split("#")[0], timeout=30) as answer:
        return answer.read().decode("utf-8")


@pytest.mark.parametrize(("name", "size"), [(name, size) for name in shots.NAMES for size in shots.SHOWN_AT[name]])
def test_the_page_fits_the_screen_and_fetches_nothing_from_elsewhere(browser, built, name, size):
    page = built[name]
    shots.visit(browser, page, size)
    width = shots.SIZES[size][0]
    inner, scroll = browser.execute_script("return [window.innerWidth, document.documentElement.scrollWidth]")
    # a phone zooms a page wider than its screen out to fit: the window is then wider than the screen
    assert inner == width, f"{name} at {size}: laid out {inner} px wide on a screen of {width}"
    assert scroll <= width, f"{name} scrolls sideways at {size}: {scroll} px wide on a screen of {width}"
    wider, boxed = browser.execute_script(WIDER, width)
    assert wider == [], f"{name} at {size}: past the right edge: {wider[:10]}"
    assert (name, size) in SCROLLS_IN_A_BOX or boxed == [], f"{name} at {size}: scrolls inside a box: {boxed[:10]}"
    assert browser.execute_script("return document.body.innerText.trim().length") > 100  # something is shown
    # nothing named or fetched from elsewhere: the page as written or served, and as drawn (with what its
    # script fetched)
    own = origin(page.url)
    for html in (source(page), browser.page_source):
        foreign = sorted({u for u in URL.findall(html) if not u.startswith(NAMESPACES) and origin(u) != own})
        assert foreign == [], f"{name} names addresses elsewhere: {foreign}"
    fetched = browser.execute_script(
        "return performance.getEntriesByType('navigation').concat(performance.getEntriesByType('resource'))"
        ".map((e) => e.name)")
    assert fetched, "the browser lists no entry for the page"
    elsewhere = [u for u in fetched if not u.startswith(("data:", "blob:")) and origin(u) != own]
    assert elsewhere == [], f"{name} fetched from elsewhere: {elsewhere}"


@pytest.mark.parametrize("name", [name for name in shots.NAMES if name.startswith("seat-")])
def test_a_seats_page_draws_its_board_and_covers_its_hand(browser, built, name):
    """Mid-game, on a phone: the board drawn by the viewer's code, moves to tap, and what only the seat sees
    covered until it is held (the page is opened as the seat to move)."""
    shots.visit(browser, built[name], "phone")
    boards, moves, revealed, shown_private = browser.execute_script(
        "return [document.querySelectorAll('#boards .board').length, document.querySelectorAll('#moves button').length,"
        " document.body.classList.contains('revealed'),"
        " [...document.querySelectorAll('#private, .private > *')].some(e => e.getClientRects().length &&"
        "   getComputedStyle(e).visibility !== 'hidden')]")
    assert boards > 0, f"{name}: no board drawn"
    assert moves > 0, f"{name}: no move offered"
    assert not revealed and not shown_private, f"{name}: the hand is shown before it is held"
