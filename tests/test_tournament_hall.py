"""The hall page (issue 14, item 7) in headless Chromium against a live server: pairings by table and
standings appear from the tournament's event stream, and a result played in a match's log reaches the
page without a reload; each table's match opens as the live step-through view, which follows the play
(a reader who stepped back stays where they are) and shows the spectators nothing dealt in secret. Needs Debian's chromium and chromium-driver; skips where they are absent."""

from __future__ import annotations

import time

import httpx
import pytest

from referee.http import create_app
from referee.service import Referee
from support.apps import app_client
from support.live import LiveServer
from support.browser import needs_chromium, shared
from support.pile import PILE


def test_the_stream_answers_one_snapshot_and_refuses_bad_tokens(db_store):
    store = db_store  # on each backend
    with app_client(lambda: Referee(store, games=[PILE]), poll=0.05, admin_token="adm") as c:
        made = c.post("/tournaments", json={"name": "<b>Cup</b>", "game": "pile", "players": ["ann", "ben"]},
                      headers={"Authorization": "Bearer adm"}).json()
        tid = made["tournament"]
        page = c.get(f"/hall/{tid}<script>")
        assert page.status_code == 200 and "<script>alert" not in page.text and "&lt;script&gt;" in page.text
        one = c.get(f"/tournaments/{tid}/events", params={"follow": "false"},
                    headers={"Authorization": f"Bearer {made['tokens']['spectator']}"})
        assert one.status_code == 200 and "event: hall" in one.text and '"name":"<b>Cup</b>"' in one.text
        audited = c.get(f"/tournaments/{tid}/audit", headers={"Authorization": f"Bearer {made['tokens']['organiser']}"})
        assert f'"head":"{audited.json()["head"]}"' in one.text  # the page shows the record's head (issue 23)
        bad = c.get(f"/tournaments/{tid}/events", params={"follow": "false"}, headers={"Authorization": "Bearer x"})
        assert bad.status_code == 401 and bad.json()["code"] == "auth/unknown_token"


@pytest.mark.slow
@needs_chromium
def test_the_hall_page_follows_results_live(request, db_store):
    from selenium.webdriver.common.by import By

    store = db_store  # on each backend
    app = create_app(lambda: Referee(store, games=[PILE]), poll=0.1, admin_token="adm")
    with LiveServer(app) as live:
        made = httpx.post(f"{live.url}/tournaments", json={
            "name": "Hall <i>night</i>", "game": "pile", "rounds": 1, "seed": 4, "chance": "digital",
            "options": {"stones": "3"}, "players": ["ann", "ben"]}, headers={"Authorization": "Bearer adm"}).json()
        tid = made["tournament"]
        org = {"Authorization": f"Bearer {made['tokens']['organiser']}"}
        table = httpx.post(f"{live.url}/tournaments/{tid}/pair", json={}, headers=org).json()["tables"][0]
        with shared(config=request.config) as (driver,):  # this process's shared Chromium
            driver.get(f"{live.url}/hall/{tid}#token={made['tokens']['spectator']}")

            def wait(check, what):
                deadline = time.monotonic() + 20
                while time.monotonic() < deadline:
                    if check():
                        return
                    time.sleep(0.1)
                raise AssertionError(f"{what}: {driver.find_element(By.TAG_NAME, 'body').text}")

            rows = lambda: driver.find_elements(By.CSS_SELECTOR, "#standings-body tr")  # noqa: E731
            wait(lambda: len(rows()) == 2, "standings")
            # the record's head, as the organiser's audit prints it (issue 23)
            head = httpx.get(f"{live.url}/tournaments/{tid}/audit", headers=org).json()["head"]
            wait(lambda: driver.find_element(By.ID, "head").text == head, "the record's head")
            assert driver.find_element(By.ID, "title").text == "Hall <i>night</i>"  # text, not markup
            pairing = driver.find_element(By.CSS_SELECTOR, "#pairings-body tr").text
            assert " v ".join(table["seats"]) in pairing and "playing" in pairing
            arbiter = {"Authorization": f"Bearer {table['tokens']['arbiter']}"}
            mid = table["match_id"]
            httpx.post(f"{live.url}/matches/{mid}/intents", json={"intent": "start", "seat": table["seats"][0]},
                       headers=arbiter)  # a digital match: the seed says who starts; each seat is dealt a secret
            state = httpx.get(f"{live.url}/matches/{mid}/state", headers=arbiter).json()["state"]
            first, dealt = state["active"], set(state["tokens"].values())
            second = next(s for s in table["seats"] if s != first)

            # the table's match: its link opens the live step-through view, read with the hall's token
            driver.find_element(By.CSS_SELECTOR, "#pairings-body a.watch").click()
            body = lambda: driver.find_element(By.TAG_NAME, "body")  # noqa: E731
            wait(lambda: body().get_attribute("data-head") == "1", "the table's view")

            def viewer(check):
                driver.switch_to.frame(driver.find_element(By.ID, "view"))
                try:
                    return check()
                finally:
                    driver.switch_to.default_content()

            slider = lambda: driver.find_element(By.ID, "slider")  # noqa: E731
            assert viewer(lambda: "Seen as a spectator" in driver.page_source and slider().get_attribute("max") == "1")
            httpx.post(f"{live.url}/matches/{mid}/intents", json={"intent": "take 1", "seat": first}, headers=arbiter)
            wait(lambda: body().get_attribute("data-head") == "2", "the first move, live")
            assert viewer(lambda: (slider().get_attribute("value"), slider().get_attribute("max"))) == ("2", "2")
            viewer(lambda: driver.find_element(By.ID, "back").click())  # a reader steps back to entry 1...
            answer = httpx.post(f"{live.url}/matches/{mid}/intents", json={"intent": "take 2", "seat": second},
                                headers=arbiter).json()
            assert answer["outcome"] is not None
            wait(lambda: body().get_attribute("data-head") == "3", "the last move, live")
            # ...and stays there while the match goes on; nothing dealt in secret reached the page
            assert viewer(lambda: (slider().get_attribute("value"), slider().get_attribute("max"))) == ("1", "3")
            shown = viewer(lambda: driver.page_source) + driver.page_source
            assert "won" in shown and not any(secret in shown for secret in dealt)

            driver.find_element(By.ID, "back").click()  # back to the hall
            wait(lambda: f"{second} won" in driver.find_element(By.ID, "pairings-body").text, "the result")
            top = rows()[0]
            assert top.get_attribute("data-player") == second and top.find_elements(By.TAG_NAME, "td")[3].text == "3"
