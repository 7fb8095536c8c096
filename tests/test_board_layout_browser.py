"""The placed maps in a real browser (issue 25, item 2): headless Chromium opens the viewer of Android's
and War of Shadows' demo matches on a phone (390x844, and 360 px wide), and a desktop (1280x800). Nothing
is wider than the window; the map's areas lie where the game placed them (two neighbours' boxes touch, a row's areas
side by side, the rows in order); its borders are drawn as lines where there is room; every area's name
fits its tile. Needs Debian's chromium and chromium-driver; skips with the reason where they are absent."""

from __future__ import annotations

import pytest

from support.browser import browser, needs_chromium  # noqa: F401  (browser: the process's shared Chromium)
from support.viewer_pages import viewer

pytestmark = [pytest.mark.slow, needs_chromium]

PHONE, DESKTOP, NARROW = (390, 844), (1280, 800), (360, 740)
GAMES = {"android": ("thursday-club.txt", "arbiter"), "war_of_shadows": ("ember-coast.txt", "anna")}


@pytest.fixture(scope="module")
def pages():
    """Each game's demo match exported as its viewer: {game: (path, the map board as the referee drew it)} (the
    page once per test process: support/viewer_pages.py)."""
    found = {}
    for game, (name, role) in GAMES.items():
        page, r, mid = viewer(f"{game}/{name}", role)
        found[game] = (page, next(b for b in r.show(mid, seat=role).boards if b.layout == "map"))
    return found


def _open(browser, page, size):
    browser.set_window_size(*size)
    browser.get("about:blank")
    browser.get(page.as_uri())
    # the board panel shows all of the map (on a phone it is a scrolled pane of 58% of the screen)
    browser.execute_script("const b = document.getElementById('board'); b.style.maxHeight = 'none'; b.style.position = 'static';")


def _boxes(browser) -> dict:
    return browser.execute_script("""
      const out = {};
      for (const t of document.querySelectorAll('#boards .map [data-cell]')) {
        const r = t.getBoundingClientRect(), n = t.querySelector('.rname');
        out[t.dataset.cell] = {left: r.left, right: r.right, top: r.top, bottom: r.bottom,
                               fits: n.scrollWidth <= n.clientWidth + 1 && n.getBoundingClientRect().right <= r.right + 1};
      }
      return out;""")


def _wider(browser) -> list:
    """Every element reaching past the window's right edge or wider than it, and the page's own width."""
    return browser.execute_script("""
      const w = window.innerWidth, out = [];
      for (const e of document.querySelectorAll('body *')) {
        const r = e.getBoundingClientRect();
        if (r.width > 0 && (r.right > w + 0.5 || r.width > w)) out.push(e.tagName + '.' + e.className + ' ' + Math.round(r.right));
      }
      if (document.documentElement.scrollWidth > w) out.push('page ' + document.documentElement.scrollWidth);
      return out;""")


def _beside(a, b, gap=20):
    """``b`` to the right of ``a`` on the same line, the two boxes touching but for the grid's gap."""
    return abs(a["top"] - b["top"]) < 1 and 0 <= b["left"] - a["right"] <= gap


def _below(a, b, gap=20):
    return abs(a["left"] - b["left"]) < 1 and 0 <= b["top"] - a["bottom"] <= gap


@pytest.mark.parametrize("size", [PHONE, DESKTOP, NARROW], ids=["phone", "desktop", "narrow-phone"])
def test_war_of_shadows_map_lies_as_its_board_at_both_sizes(browser, pages, size):
    page, board = pages["war_of_shadows"]
    _open(browser, page, size)
    assert _wider(browser) == []
    boxes = _boxes(browser)
    assert set(boxes) == {a.id for a in board.areas}
    assert _beside(boxes["frostmere"], boxes["ironvale"]) and _below(boxes["frostmere"], boxes["pinehold"])
    assert _beside(boxes["cliffspire"], boxes["saltmarsh"]) and _below(boxes["stormcrag"], boxes["cliffspire"])
    assert all(b["fits"] for b in boxes.values()), [k for k, b in boxes.items() if not b["fits"]]
    lines = browser.execute_script("""return [...document.querySelectorAll('#boards .map > svg line')]
                                      .map(l => l.dataset.kind || '')""")
    assert sorted(lines) == sorted(link.kind for link in board.links) and lines.count("sea") == 3


def test_androids_city_lies_as_the_map_on_a_desktop(browser, pages):
    page, board = pages["android"]
    _open(browser, page, DESKTOP)
    assert _wider(browser) == []
    boxes = _boxes(browser)
    assert set(boxes) == {a.id for a in board.areas}
    at = {a.id: (a.x, a.y) for a in board.areas}
    bean = ("root", "midway", "castle_club", "challenger_memorial_ferry", "starport_kaguya")
    for upper, lower in zip(bean, bean[1:]):  # the Beanstalk's stops one under the other
        assert at[lower][1] == at[upper][1] + 1 and _below(boxes[upper], boxes[lower]), (upper, lower)
    assert at["starlight_crusade"] == (at["old_war_memorial"][0] + 1, at["old_war_memorial"][1])
    assert _beside(boxes["old_war_memorial"], boxes["starlight_crusade"])
    assert all(b["fits"] for b in boxes.values()), [k for k, b in boxes.items() if not b["fits"]]
    kinds = browser.execute_script("return [...document.querySelectorAll('#boards .map > svg line')].map(l => l.dataset.kind)")
    assert kinds == ["beanstalk"] * 4


@pytest.mark.parametrize("size", [PHONE, NARROW], ids=["phone", "narrow-phone"])
def test_androids_city_is_drawn_row_by_row_on_a_phone(browser, pages, size):
    """Twelve columns would not fit a phone: the map is drawn a row at a time, each row's locations side
    by side in order, the rows in order, with their qualities and VP."""
    page, board = pages["android"]
    _open(browser, page, size)
    assert _wider(browser) == []
    boxes = _boxes(browser)
    assert browser.execute_script("return document.querySelector('#boards .map').classList.contains('rows')")
    placed = sorted(board.areas, key=lambda a: (a.y, a.x))
    for a, b in zip(placed, placed[1:]):
        if a.y == b.y:  # the same row: b after a, beside it or at the start of the next line
            assert _beside(boxes[a.id], boxes[b.id]) or boxes[b.id]["top"] >= boxes[a.id]["bottom"]
        else:  # the next row starts below everything of the row before
            assert boxes[b.id]["top"] >= max(boxes[x.id]["bottom"] for x in placed if x.y == a.y)
    assert _beside(boxes["old_war_memorial"], boxes["starlight_crusade"])
    assert all(b["fits"] for b in boxes.values()), [k for k, b in boxes.items() if not b["fits"]]
    crusade = browser.execute_script(
        "return document.querySelector('#boards .map [data-cell=\"starlight_crusade\"] .rlabel').innerText")
    assert crusade == "D1, religious, normal, major, trauma bank (-1 VP each)"
    assert not browser.execute_script("return document.querySelectorAll('#boards .map svg').length")


def test_a_map_is_laid_out_again_when_the_window_narrows(browser, pages):
    """Turned from a desktop's width to a phone's, Android's city goes from the grid to rows (and back)."""
    from selenium.webdriver.support.ui import WebDriverWait

    page, _board = pages["android"]
    _open(browser, page, DESKTOP)
    is_rows = "return document.querySelector('#boards .map').classList.contains('rows')"
    assert not browser.execute_script(is_rows)
    browser.set_window_size(*PHONE)
    WebDriverWait(browser, 10).until(lambda b: b.execute_script(is_rows))
    assert _wider(browser) == []
    browser.set_window_size(*DESKTOP)
    WebDriverWait(browser, 10).until(lambda b: not b.execute_script(is_rows))
    assert browser.execute_script("return document.querySelectorAll('#boards .map > svg line').length") == 4
