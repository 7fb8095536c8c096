"""The organiser's console settles the seats' disagreement (issue 26, item 5), in headless Chromium against a
live server at a phone's size: two seats report different results over HTTP with their own tokens, the
console lists the table under "Results to confirm" with both sides, the second press of one side's button
records it as the organiser's result and the table turns finished; the spectators' screen shows only that
the seats reported. Needs Debian's chromium and chromium-driver; skips where they are absent."""

from __future__ import annotations

import time

import httpx
import pytest

from referee.http import create_app
from referee.service import Referee
from referee.store.memory import MemoryStore
from support.browser import needs_chromium, shared
from support.live import LiveServer
from support.pile import PILE

pytestmark = [pytest.mark.slow, needs_chromium]


def _wait(driver, check, what: str) -> None:
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        if check():
            return
        time.sleep(0.1)
    raise AssertionError(f"{what}: {driver.find_element('tag name', 'body').text}")


def test_the_console_lists_a_disagreement_and_settles_it_from_a_phone(request):
    store = MemoryStore()
    with shared(config=request.config) as (driver,):  # this process's shared Chromium
        with LiveServer(create_app(lambda: Referee(store, games=[PILE]), poll=0.1, admin_token="adm")) as live:
            made = httpx.post(f"{live.url}/tournaments", json={
                "name": "Cardboard cup", "game": "pile", "rounds": 2, "seed": 3, "players": ["ann", "ben", "cy", "dee"]},
                headers={"Authorization": "Bearer adm"}).json()
            tid, tokens = made["tournament"], made["tokens"]
            org = {"Authorization": f"Bearer {tokens['organiser']}"}
            tables = httpx.post(f"{live.url}/tournaments/{tid}/pair", json={"tokens": False}, headers=org).json()["tables"]
            a, b = tables[0]["seats"]
            for seat, said in ((a, a), (b, b)):
                answer = httpx.post(f"{live.url}/tournaments/{tid}/rounds/1/tables/1/report", json={"result": f"win:{said}"},
                                    headers={"Authorization": f"Bearer {tokens['players'][seat]}"})
                assert answer.status_code == 201, answer.text

            driver.set_window_size(390, 844)
            driver.get(f"{live.url}/hall/{tid}#token={tokens['organiser']}")
            box = driver.find_element("id", "confirm")
            _wait(driver, box.is_displayed, "the results to confirm")
            buttons = driver.find_elements("css selector", "#confirm-list button.settle")
            assert [x.text for x in buttons] == [f"{a} reported {a} won (reported by the seats)",
                                                 f"{b} reported {b} won (reported by the seats)"]
            row = driver.find_element("css selector", "#pairings-body tr[data-table='1']")
            assert row.get_attribute("data-state") == "disagree" and f"win:{b}" in row.text
            assert "to confirm" in driver.find_element("id", "console-note").text
            width = driver.execute_script("return [document.documentElement.scrollWidth, "
                                          "document.documentElement.clientWidth]")
            assert width[0] <= width[1], width  # nothing wider than the phone
            buttons[1].click()  # arms it
            assert "Press again" in driver.find_element("id", "console-msg").text
            buttons[1].click()
            _wait(driver, lambda: "recorded as the organiser's result" in driver.find_element("id", "console-msg").text,
                  "the result recorded")
            # read in one script: the live table redraws its rows, so a row found first may be gone by the read
            _wait(driver, lambda: driver.execute_script(
                "const r = document.querySelector(\"#pairings-body tr[data-table='1']\"); return r && r.dataset.state;")
                  == "finished", "table 1 finished")
            assert not driver.find_element("id", "confirm").is_displayed()
            res = httpx.get(f"{live.url}/tournaments/{tid}/pairings", headers=org).json()["rounds"][0]["tables"][0]
            assert res["source"] == "arbiter" and res["result"].startswith(f"{b} won")

            driver.get("about:blank")
            driver.get(f"{live.url}/hall/{tid}#token={tokens['spectator']}")
            _wait(driver, lambda: driver.find_element("tag name", "body").get_attribute("data-updates") != "0",
                  "the spectators' snapshot")
            assert not driver.find_element("id", "console").is_displayed()
            driver.get("about:blank")
