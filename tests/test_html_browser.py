"""The HTML export in a real browser: headless Chromium opens the file, steps through entries with
the buttons and the keyboard, and the page shows the state after each one.

Needs Debian's chromium and chromium-driver (.ci/run installs them); skips with the reason where
they are absent."""

from __future__ import annotations

import shutil

import pytest

from referee.export import export
from referee.service import Referee
from referee.store.memory import MemoryStore
from referee.transcript import import_transcript
from support.pile import PILE

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver")
pytestmark = pytest.mark.skipif(
    not (CHROMIUM and DRIVER), reason="headless Chromium not installed (apt-get install chromium chromium-driver)"
)

TRANSCRIPT = """game: pile
players: alice, bob
option: stones=9
title: Browser check
alice: start first=alice tokens=K01,K02
alice: take 3
bob: take 5
bob: take 2
alice: take 1
"""


@pytest.fixture(scope="module")
def browser():
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    opts = webdriver.ChromeOptions()
    opts.binary_location = CHROMIUM
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--no-first-run", "--window-size=412,915"):
        opts.add_argument(flag)
    driver = webdriver.Chrome(service=Service(DRIVER), options=opts)
    yield driver
    driver.quit()


def test_step_through_the_exported_match(browser, tmp_path):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    r = Referee(MemoryStore(), games=[PILE])
    s = import_transcript(r, TRANSCRIPT, "b.txt")
    path = tmp_path / "match.html"
    path.write_text(export(r, s.match_id, "html", "bob"), encoding="utf-8")
    browser.get(path.as_uri())

    def title():
        return browser.find_element(By.ID, "state-title").text

    def value(key):
        for row in browser.find_elements(By.CSS_SELECTOR, "#state-body tr"):
            cells = row.find_elements(By.TAG_NAME, "td")
            if cells[0].text == key:
                return cells[1].text
        return None

    assert title().startswith("After entry 5")  # opens at the end
    assert value("pile") == "3"
    browser.find_element(By.ID, "back").click()
    browser.find_element(By.ID, "back").click()
    assert title().startswith("After entry 3 (bob: take 5)")
    assert value("pile") == "6"  # take 5 was rejected: nothing changed
    browser.find_element(By.TAG_NAME, "body").send_keys(Keys.ARROW_RIGHT)
    assert title().startswith("After entry 4") and value("pile") == "4"
    changed = [row.find_elements(By.TAG_NAME, "td")[0].text
               for row in browser.find_elements(By.CSS_SELECTOR, "#state-body tr.changed")]
    assert "pile" in changed
    browser.find_element(By.CSS_SELECTOR, 'li.entry[data-seq="1"]').click()
    assert title().startswith("After entry 1") and value("tokens.bob") == "K02" and value("tokens.alice") == "?"
    rejected = browser.find_element(By.CSS_SELECTOR, 'li.entry[data-seq="3"] .why').text
    assert "pile/bad_count" in rejected
    assert "K01" not in browser.page_source
    scroll, inner = browser.execute_script(
        "return [document.documentElement.scrollWidth, window.innerWidth]")
    assert scroll <= inner  # no sideways scrolling on a phone-sized screen
    browser.save_screenshot(str(tmp_path / "phone.png"))


def test_the_demo_match_shows_the_field_and_a_seats_view(browser, tmp_path):
    """The By All Means demo as bob sees it: the field is drawn as a grid that follows the entries,
    the players' counters are a table, and alice's draws stay hidden."""
    import os

    from selenium.webdriver.common.by import By

    from conftest import ROOT

    path = os.path.join(ROOT, "replays", "by_all_means", "club-night.txt")
    r = Referee(MemoryStore())
    s = import_transcript(r, open(path, encoding="utf-8").read(), path, os.path.dirname(path))
    page = tmp_path / "club.html"
    page.write_text(export(r, s.match_id, "html", "bob"), encoding="utf-8")
    browser.get(page.as_uri())

    def cell(name):
        return browser.find_element(By.CSS_SELECTOR, f'#boards td[data-cell="{name}"]').text

    def counter(seat, key):
        return browser.find_element(By.CSS_SELECTOR, f'#boards td[data-seat="{seat}"][data-key="{key}"]').text

    assert "T14 (alice, 3)" in cell("B2")  # the end: the twelfth territory
    browser.find_element(By.CSS_SELECTOR, 'li.entry[data-seq="7"]').click()
    assert "T09 (bob, 3) [jade,jade]" in cell("B3") and cell("B2") == "·"
    assert counter("bob", "reputation") == "4" and counter("bob", "influence") == "1"
    browser.find_element(By.ID, "back").click()
    assert cell("B3") == "·"
    # alice's opening hand: bob sees that she drew four cards, not which
    words = browser.find_element(By.CSS_SELECTOR, 'li.entry[data-seq="3"] .words').text
    assert "alice draws a card" in words and "K03" not in words
    assert "cards=?,?,?,?" in browser.find_element(By.CSS_SELECTOR, 'li.entry[data-seq="3"] .move').text
    assert counter("alice", "hand") == "—" or "hand" not in [
        td.get_attribute("data-key") for td in browser.find_elements(By.CSS_SELECTOR, '#boards td[data-seat="alice"]')]
    scroll, inner = browser.execute_script("return [document.documentElement.scrollWidth, window.innerWidth]")
    assert scroll <= inner
