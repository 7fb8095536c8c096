"""The Chromium a test process shares (tests/support/browser.py): a module borrowing it after another gets the
same browser, started once, in a fresh tab of a 1280x800 window with nothing of the last borrower's page
(its emulated screen, the script it injected into every document, its cookies, its log); two borrowers at
once get two browsers; a browser that died is started again. Skips where Chromium is absent."""

from __future__ import annotations

import pytest

from support.browser import POOL, WINDOW, needs_chromium, shared, wait_on_page, wait_until

pytestmark = [pytest.mark.slow, needs_chromium]

PAGE = "data:text/html,<title>t</title><p id=p>hello</p>"


def test_a_later_borrower_gets_the_same_chromium_in_a_clean_tab(request):
    with shared(config=request.config) as (first,):
        started = POOL.started
        first.set_window_size(390, 844)
        first.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                              {"width": 360, "height": 640, "deviceScaleFactor": 1, "mobile": False})
        first.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": "window.__left = 1;"})
        first.get(PAGE)
        assert first.execute_script("return [window.__left, innerWidth]") == [1, 360]
        first.execute_cdp_cmd("Network.setCookie", {"name": "c", "value": "1", "domain": "example.org"})
        first.execute_script("console.error('from the last borrower')")
        first.switch_to.new_window("tab")  # a second tab left open
    with shared(config=request.config) as (again,):
        assert again is first and POOL.started == started  # not started again
        assert len(again.window_handles) == 1 and again.current_url == "about:blank"
        size = again.get_window_size()
        assert (size["width"], size["height"]) == WINDOW
        assert again.get_log("browser") == []
        assert again.execute_cdp_cmd("Storage.getCookies", {})["cookies"] == []
        again.get(PAGE)
        assert wait_until(again, "return document.getElementById('p').textContent") == "hello"
        assert again.execute_script("return [window.__left === undefined, innerWidth]") == [True, WINDOW[0]]


def test_borrowers_at_once_get_separate_chromiums_and_a_dead_one_is_replaced(request):
    with shared(config=request.config) as (a,):
        with shared(config=request.config) as (b,):
            assert b is not a and b.session_id != a.session_id
    started = POOL.started
    with shared(config=request.config) as (c,):
        assert c in (a, b) and POOL.started == started
        c.quit()  # it dies while lent
    with shared(2, config=request.config) as fresh:
        assert c not in fresh and POOL.started == started + 1
        assert all(len(x.window_handles) == 1 for x in fresh)


def test_waiting_on_a_page_names_what_it_waited_for(request):
    with shared(config=request.config) as (driver,):
        driver.get(PAGE)
        with pytest.raises(AssertionError, match=r"waiting for: return false; the page shows: 'hello'"):
            wait_until(driver, "return false", 0.2)


def test_a_wait_inside_the_page_answers_when_the_page_changes(request):
    """:func:`wait_on_page`: one round trip that answers what the condition returns once the page's document
    changes so (here 300 ms after the wait began, by a timer of the page's own), given the wait's arguments;
    a condition that never holds is an AssertionError naming it and what the page shows."""
    with shared(config=request.config) as (driver,):
        driver.get(PAGE)
        driver.execute_script("setTimeout(() => { document.body.dataset.head = '3'; }, 300)")
        got = wait_on_page(driver, "return document.body.dataset.head === arguments[0] && [arguments[1], 'seen']",
                           10, "3", "alice")
        assert got == ["alice", "seen"]
        with pytest.raises(AssertionError, match=r"timed out after 0.2 s waiting for: return false; the page: .*hello"):
            wait_on_page(driver, "return false", 0.2)
