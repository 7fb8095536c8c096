"""The server opens no path a client names (issue 23). Over HTTP card data is a bundled set's name or a
card file's text sent in the body, on every route that takes card data: ``POST /matches``, ``POST
/tournaments`` and the pairing of a tournament (``POST /tournaments/{tid}/pair``, whose matches take
the tournament's card data). A planted file, named by absolute, relative, ``~``, ``../`` and ``file://``
paths, is never opened nor even looked at (an audit hook sees every ``open``; ``os.stat`` and friends
are watched too), and the answer is the same whether the file is there or not. Creating a tournament
needs the server's admin token. Runs on both backends."""

from __future__ import annotations

import os
import sys
import uuid
from importlib import resources

import pytest

from referee.service import Referee
from referee.tournament import events as ev
from referee.store import StoredTournament, StoredTournamentEvent
from support.apps import app_client

ADMIN = "the-admin-token"
MARK = f"planted-{uuid.uuid4().hex}"
#: what the hook saw while WATCHING (paths with MARK in them)
SEEN: list[str] = []
WATCHING = [False]


def _note(what: str, path: object) -> None:
    if WATCHING[0] and isinstance(path, (str, bytes, os.PathLike)) and MARK in os.fsdecode(path):
        SEEN.append(f"{what} {os.fsdecode(path)}")


def _hook(event: str, args: tuple) -> None:
    if event in ("open", "os.listdir", "os.scandir", "glob.glob", "os.chdir") and args:
        _note(event, args[0])


sys.addaudithook(_hook)  # for the life of the process: it records only while WATCHING


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def demo_text() -> str:
    return resources.files("referee.games.by_all_means").joinpath("data/demo.toml").read_text("utf-8")


@pytest.fixture
def planted(tmp_path, monkeypatch):
    """A directory holding a file with a unique name (a valid card file: the worst case), the working
    directory and $HOME set to a directory beside it, and every way of looking at a path watched."""
    where = tmp_path / "server-files"
    where.mkdir()
    secret = where / f"{MARK}.toml"
    secret.write_text(demo_text() + '\npassword = "hunter2"\n[db]\nurl = "x"\n', encoding="utf-8")
    home = tmp_path / "home"
    home.mkdir()
    (home / f"{MARK}.toml").write_text(secret.read_text("utf-8"), encoding="utf-8")
    monkeypatch.chdir(where)
    monkeypatch.setenv("HOME", str(home))
    for name in ("stat", "lstat", "access"):
        real = getattr(os, name)

        def watched(path, *args, _real=real, _name=name, **kwargs):
            _note(f"os.{_name}", path)
            return _real(path, *args, **kwargs)

        monkeypatch.setattr(os, name, watched)
    SEEN.clear()
    WATCHING[0] = True
    yield secret
    WATCHING[0] = False


def paths(secret) -> list[str]:
    name = secret.name
    return [str(secret), name, f"./{name}", f"../{secret.parent.name}/{name}", f"~/{name}", f"file://{secret}",
            f"{secret.parent}/../{secret.parent.name}/{name}"]


@pytest.fixture
def client(db_store):
    store = db_store
    with app_client(lambda: Referee(store), admin_token=ADMIN) as c:
        yield c, store


def _refused(answer, status=422, code=None):
    assert answer.status_code == status, answer.text
    body = answer.json()
    assert set(body) - {"said"} == {"code", "message", "detail"}
    assert "password" not in answer.text and "db" not in body["message"].split() and "hunter2" not in answer.text
    if code:
        assert body["code"] == code, body
    return body


def _legacy_tournament(store, cards: str) -> str:
    """A tournament whose created record names ``cards`` and carries no card text (as the server wrote
    one before card data had to be bundled or sent)."""
    tid = f"legacy{uuid.uuid4().hex[:10]}"
    created = ev.Created(name="Old cup", game="by_all_means", format="swiss", rounds=1, tiebreaks=("points",),
                         points=ev.Points(), seed=5, cards=cards)
    records = [ev.Record(tournament=tid, n=1, by="organiser", event=created),
               *(ev.Record(tournament=tid, n=i, by="organiser", event=ev.PlayerAdded(player=p))
                 for i, p in enumerate(("ann", "ben"), start=2))]
    prev, rows = ev.root_hash(tid), []
    for r in records:
        body = ev.encode(r)
        digest = ev.chain_hash(prev, body)
        rows.append(StoredTournamentEvent(tournament_id=tid, n=r.n, kind=ev.kind(r.event), by="organiser", body=body,
                                          prev_hash=prev, hash=digest, recorded_at="2026-01-01T00:00:00Z"))
        prev = digest
    store.create_tournament(StoredTournament(id=tid, name="Old cup", created_at="2026-01-01T00:00:00Z"), rows)
    return tid


def test_the_watch_sees_an_open_and_a_look(planted):
    """The watch itself: opening the planted file, or only asking whether it exists, is seen."""
    with open(planted, encoding="utf-8"):
        pass
    assert os.path.exists(f"~/{planted.name}".replace("~", os.environ["HOME"]))
    assert [s.split()[0] for s in SEEN] == ["open", "os.stat"]


def test_no_route_that_takes_card_data_opens_a_path_it_is_given(client, planted):
    c, store = client
    for path in paths(planted):
        answers = {
            "POST /matches cards": c.post("/matches", json={"game": "by_all_means", "players": ["ann", "ben"],
                                                            "cards": path}),
            "POST /tournaments cards": c.post("/tournaments", headers=bearer(ADMIN), json={
                "name": "Cup", "game": "by_all_means", "players": ["ann", "ben"], "cards": path}),
        }
        for route, answer in answers.items():
            if len(path) > 64:  # longer than a card set's name may be: refused by the route's contract
                _refused(answer, 400, "request/invalid")
                continue
            body = _refused(answer, code="cards/not_bundled")
            assert "not bundled with by_all_means" in body["message"], (route, body)
        if len(path) <= 64:  # a path as the label of card text sent in the body: a label, never opened
            made = c.post("/matches", json={"game": "by_all_means", "players": ["ann", "ben"], "cards": path,
                                            "cards_text": demo_text()})
            assert made.status_code == 201, made.text
            cup = c.post("/tournaments", headers=bearer(ADMIN), json={
                "name": "Cup", "game": "by_all_means", "players": ["ann", "ben"], "cards": path,
                "cards_text": demo_text()})
            assert cup.status_code == 201, cup.text
            paired = c.post(f"/tournaments/{cup.json()['tournament']}/pair", json={},
                            headers=bearer(cup.json()["tokens"]["organiser"]))
            assert paired.status_code == 201, paired.text
        tid = _legacy_tournament(store, path)
        # the organiser of a tournament recorded with a file's name pairs it: refused, the file unread
        from referee.auth import hash_token
        from referee.store import StoredTournamentToken

        token = uuid.uuid4().hex
        store.add_tournament_tokens([StoredTournamentToken(token_hash=hash_token(token), tournament_id=tid,
                                                           role="organiser", player=None)])
        body = _refused(c.post(f"/tournaments/{tid}/pair", json={}, headers=bearer(token)), code="cards/not_bundled")
        assert "never read a file by its name" in body["message"]
    assert SEEN == []
    assert {t.name for t in store.list_tournaments()} == {"Old cup", "Cup"}


def test_the_answer_is_the_same_whether_the_named_file_exists_or_not(client, planted):
    c, _ = client
    gone = planted.with_name(planted.name.replace(MARK, f"missing-{MARK}"))
    for route, make in (("/matches", lambda p: {"game": "by_all_means", "players": ["ann", "ben"], "cards": p}),
                        ("/tournaments", lambda p: {"name": "Cup", "game": "by_all_means", "players": ["a", "b"],
                                                    "cards": p})):
        there = c.post(route, json=make(planted.name), headers=bearer(ADMIN)).json()
        missing = c.post(route, json=make(gone.name), headers=bearer(ADMIN)).json()
        assert there["code"] == missing["code"] == "cards/not_bundled"
        assert there["message"].replace(planted.name, "P") == missing["message"].replace(gone.name, "P")
    assert SEEN == []


def test_card_data_is_a_bundled_name_or_text_in_the_body(client):
    c, store = client
    made = c.post("/tournaments", headers=bearer(ADMIN), json={
        "name": "Cup", "game": "by_all_means", "rounds": 1, "seed": 2, "players": ["ann", "ben"],
        "cards_text": demo_text()})
    assert made.status_code == 201, made.text
    org = bearer(made.json()["tokens"]["organiser"])
    paired = c.post(f"/tournaments/{made.json()['tournament']}/pair", json={}, headers=org)
    assert paired.status_code == 201, paired.text
    table = paired.json()["tables"][0]
    config = Referee(store).load(table["match_id"]).config
    assert config.cards == "inline" and config.cards_text == demo_text()
    bundled = c.post("/tournaments", headers=bearer(ADMIN), json={
        "name": "Cup", "game": "by_all_means", "players": ["ann", "ben"], "cards": "demo"})
    assert bundled.status_code == 201, bundled.text
    bad = c.post("/tournaments", headers=bearer(ADMIN), json={
        "name": "Cup", "game": "by_all_means", "players": ["ann", "ben"], "cards_text": "this is = not [cards"})
    _refused(bad)
    assert len(store.list_tournaments()) == 2


def test_creating_a_tournament_needs_the_servers_admin_token(db_store):
    body = {"name": "Cup", "game": "by_all_means", "players": ["ann", "ben"]}
    with app_client(lambda: Referee(db_store), admin_token=ADMIN) as c:
        assert _refused(c.post("/tournaments", json=body), 401, "auth/missing")
        assert _refused(c.post("/tournaments", json=body, headers=bearer("guess")), 403, "auth/not_admin")
        match = c.post("/matches", json={"game": "by_all_means", "players": ["ann", "ben"]}).json()
        assert _refused(c.post("/tournaments", json=body, headers=bearer(match["tokens"]["arbiter"])), 403,
                        "auth/not_admin")
        assert db_store.list_tournaments() == []
        made = c.post("/tournaments", json=body, headers=bearer(ADMIN))
        assert made.status_code == 201, made.text
        org = made.json()["tokens"]["organiser"]  # a tournament's organiser is not the server's admin
        assert _refused(c.post("/tournaments", json=body, headers=bearer(org)), 403, "auth/not_admin")
        assert len(db_store.list_tournaments()) == 1
    with app_client(lambda: Referee(db_store)) as c:  # no admin token: creation over HTTP is off
        off = _refused(c.post("/tournaments", json=body, headers=bearer(ADMIN)), 403, "auth/no_admin")
        assert "creating a tournament is off" in off["message"]
        assert len(db_store.list_tournaments()) == 1


def test_the_fuzz_covers_every_route_whose_body_takes_card_data(client):
    """A route added later with card data in its body fails here until the fuzz above covers it."""
    c, _ = client
    taking = set()
    for route in c.app.routes:
        for handler in getattr(route, "route_handlers", []):
            data = handler.parsed_fn_signature.parameters.get("data")
            if data is not None and {"cards", "cards_text"} & set(data.annotation.__struct_fields__):
                taking.add(route.path)
    assert taking == {"/matches", "/tournaments"}
