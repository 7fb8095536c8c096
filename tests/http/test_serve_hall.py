"""One app, one hall after another (referee.http.serve_hall, which the tests' apps use: tests/support/apps.py):
a new hall answers from its own store with its own tokens and admin token, nothing of the hall before it
shows, and a running app's hall is not replaced."""

from __future__ import annotations

import pytest
from litestar.testing import TestClient

from referee.http import create_app, serve_hall
from referee.httphall import Hall
from referee.service import Referee
from referee.store import open_store
from support.apps import hall_app
from support.pile import PILE


def test_a_new_hall_on_the_same_app_sees_nothing_of_the_one_before(tmp_path):
    first, second = open_store(str(tmp_path / "a.db")), open_store(str(tmp_path / "b.db"))
    app = create_app(lambda: Referee(first, games=[PILE]), admin_token="adm-a")
    with TestClient(app) as c:
        made = c.post("/matches", json={"game": "pile", "players": ["alice", "bob"]})
        assert made.status_code == 201, made.text
        mid, arbiter = made.json()["match"]["id"], made.json()["tokens"]["arbiter"]
        assert len(c.get("/matches", headers={"Authorization": "Bearer adm-a"}).json()) == 1
    assert serve_hall(app, Hall(lambda: Referee(second, games=[PILE]), admin_token="adm-b")) is app
    with TestClient(app) as c:
        assert c.get("/matches", headers={"Authorization": "Bearer adm-b"}).json() == []
        assert c.get("/matches", headers={"Authorization": "Bearer adm-a"}).status_code == 403
        gone = c.get(f"/matches/{mid}", headers={"Authorization": f"Bearer {arbiter}"})
        assert gone.status_code == 401 and gone.json()["code"] == "auth/unknown_token", gone.text
        assert c.get("/schema/openapi.json").status_code == 200
    first.close()
    second.close()


def test_a_running_apps_hall_is_not_replaced(tmp_path):
    store = open_store(str(tmp_path / "a.db"))
    app = create_app(lambda: Referee(store, games=[PILE]), admin_token="adm")
    with TestClient(app) as c:
        running = app.state.hall
        with pytest.raises(RuntimeError, match="running"):
            serve_hall(app, Hall(lambda: Referee(store, games=[PILE])))
        assert app.state.hall is running
        assert c.get("/matches", headers={"Authorization": "Bearer adm"}).status_code == 200
    assert not running.running
    store.close()


def test_the_tests_apps_are_shared_one_at_a_time(tmp_path):
    store = open_store(str(tmp_path / "a.db"))
    with hall_app(lambda: Referee(store, games=[PILE])) as one:
        with hall_app(lambda: Referee(store, games=[PILE])) as two:
            assert two is not one and two.state.hall is not one.state.hall
        hall = one.state.hall
    with hall_app(lambda: Referee(store, games=[PILE])) as again:
        assert again in (one, two) and again.state.hall is not hall
    store.close()
