"""The arbiter's console of a hall (issue 26 item 4): the desk lists each table's open dispute and held
move with its context (the entry, its verdict and rule, the notes, the entries before it as sentences, who
is waiting); the organiser's tournament token acts as the arbiter of its tables' matches on the matches'
own routes, so a ruling from the console settles a dispute (the desk empties, the log holds the ruling
entry); no other token does; the page is one fixed shell. The Chromium test settles a dispute at a
phone's size from the page itself."""

from __future__ import annotations

import time

import msgspec
import pytest

from referee.auth import Forbidden
from referee.service import Referee
from referee.tournament.access import Entrant, TournamentAccess
from referee.tournament.arbiter import desk
from schemas.tournament import CreateTournament, PairRequest
from support.browser import needs_chromium, shared
from support.pile import PILE

PLAYERS = ["ann", "ben", "cy", "dee"]


def _active(ref: Referee, mid: str) -> str:
    return str(ref.show(mid).state["active"])


def _hall(ref: Referee, tables: list) -> tuple[int, int, str]:
    """Table 1: three moves, then a refused ``take 4`` its mover disputes; table 2: a guess held for the
    other seat's confirmation. Answers (the disputed entry, the held entry, its confirmer)."""
    one, two = tables[0]["match_id"], tables[1]["match_id"]
    for t in tables:
        ref.submit(t["match_id"], t["seats"][0], "start")
    ref.submit(one, _active(ref, one), "take 1")
    ref.submit(one, _active(ref, one), "take 2")
    mover = _active(ref, one)
    refused = ref.submit(one, mover, "take 4")
    assert not refused.accepted
    ref.annotate(one, refused.seq, "our table plays the four-stone variant", kind="disputed", by=mover)
    guesser = _active(ref, two)
    other = next(s for s in tables[1]["seats"] if s != guesser)
    held = ref.submit(two, guesser, f"guess seat={other} token=K01", blind=True)
    assert held.held
    return refused.seq, held.seq, other


def _cup(store):
    access = TournamentAccess(Referee(store, games=[PILE]))
    made = access.create(CreateTournament(name="Cup", game="pile", rounds=2, seed=4, chance="digital",
                                          options={"stones": "10"}, players=PLAYERS))
    org = Entrant(tournament=made.tournament, role="organiser")
    tables = [msgspec.to_builtins(t) for t in access.pair(org, PairRequest(tokens=False)).tables]
    return access, made, org, tables


def _desk(store, who: Entrant) -> dict:
    fresh = TournamentAccess(Referee(store, games=[PILE]))
    return msgspec.json.decode(msgspec.json.encode(desk(fresh, who)))


def test_the_desk_holds_a_dispute_and_a_held_move_with_their_context(db_store):
    access, made, org, tables = _cup(db_store)
    disputed, held, confirmer = _hall(access.service.referee, tables)
    d = _desk(db_store, org)
    assert d["round"] == 1 and d["clock"] is None and d["undo"] == "own_last"
    assert [(m["table"], m["kind"], m["entry"]) for m in d["matters"]] == [(1, "dispute", disputed), (2, "held", held)]
    dispute, hold = d["matters"]
    entry = dispute["disputed"]
    assert entry["line"] == "take 4" and entry["verdict"] == "rejected" and entry["rejected_intent"]
    assert entry["rejection"] == {"code": "pile/bad_count", "message": "take 1 to 3 stones, not 4", "rule": "R-TAKE"}
    assert dispute["notes"] == [{"by": entry["actor"], "text": "our table plays the four-stone variant",
                                 "kind": "disputed"}]
    assert dispute["waiting"] == "the arbiter's ruling" and dispute["can_stand"] and dispute["after"] == 0
    # the entries before it, as sentences: each line and its verdict, the events in words
    assert [r["seq"] for r in dispute["recent"]] == [1, 2, 3]
    assert [r["verdict"] for r in dispute["recent"]] == ["accepted"] * 3
    assert any("2" in w for w in dispute["recent"][2]["words"]), dispute["recent"][2]
    assert dispute["state"] == "disputed" and dispute["names"] == dispute["seats"] == tables[0]["seats"]
    assert hold["waiting"] == f"{confirmer} to confirm it" and hold["confirmer"] == confirmer
    assert hold["disputed"]["verdict"] == "held" and hold["disputed"]["confirmer"] == confirmer
    assert hold["state"] == "waiting" and not hold["can_stand"]


def test_only_the_organiser_reads_the_desk(db_store):
    access, made, org, tables = _cup(db_store)
    for who in (Entrant(made.tournament, "spectator"), Entrant(made.tournament, "player", "ann")):
        with pytest.raises(Forbidden, match="only the organiser may open the arbiter's console"):
            desk(access, who)


@pytest.fixture
def served(db_store):
    from support.apps import app_client

    with app_client(lambda: Referee(db_store, games=[PILE]), admin_token="adm") as c:
        made = c.post("/tournaments", json={"name": "Cup", "game": "pile", "players": PLAYERS, "seed": 4,
                                            "chance": "digital", "options": {"stones": "10"}},
                      headers={"Authorization": "Bearer adm"}).json()
        org = {"Authorization": f"Bearer {made['tokens']['organiser']}"}
        tables = c.post(f"/tournaments/{made['tournament']}/pair", json={"tokens": False}, headers=org).json()["tables"]
        yield c, made, org, tables, Referee(db_store, games=[PILE])


def test_a_ruling_from_the_console_settles_the_dispute(served):
    c, made, org, tables, ref = served
    tid = made["tournament"]
    disputed, held, confirmer = _hall(ref, tables)
    one, two = tables[0]["match_id"], tables[1]["match_id"]
    got = c.get(f"/tournaments/{tid}/arbiter", headers=org)
    assert got.status_code == 200 and len(got.json()["matters"]) == 2
    # what the page does for "the move stands as played": the ruling, then the ruling annotation on the entry
    ruled = c.post(f"/matches/{one}/rulings", json={"entry": disputed, "reason": "house rule"}, headers=org)
    assert ruled.status_code == 201 and ruled.json()["verdict"] == "accepted" and ruled.json()["by"] == "arbiter"
    note = c.post(f"/matches/{one}/annotations", headers=org, json={
        "seq": disputed, "kind": "ruling", "text": f"ruled: entry {disputed} stands as played — house rule"})
    assert note.status_code == 201 and note.json()["by"] == "arbiter"
    left = c.get(f"/tournaments/{tid}/arbiter", headers=org).json()["matters"]
    assert [(m["table"], m["kind"]) for m in left] == [(2, "held")]
    log = c.get(f"/matches/{one}/log", headers=org).json()
    assert [e["kind"] for e in log["entries"]][-1] == "ruling" and log["entries"][-1]["seq"] == disputed + 1
    assert ref.show(one).state["pile"] == 10 - 1 - 2 - 4  # the four stones taken as the ruling let stand
    # the held move confirmed for its seat, by the organiser as the arbiter: nothing waits
    done = c.post(f"/matches/{two}/confirmations", json={"entry": held, "accept": False, "reason": "not seen"},
                  headers=org)
    assert done.status_code == 201
    assert c.get(f"/tournaments/{tid}/arbiter", headers=org).json()["matters"] == []
    # and a refusal is the server's, with its message (an undo to the last entry itself)
    refused = c.post(f"/matches/{one}/undo", json={"to": ref.show(one).seq}, headers=org)
    assert refused.status_code in (400, 409, 422) and "is not an earlier entry" in refused.json()["message"]
    # the page's Undo: back to before the disputed entry, whatever the seats' undo policy (own_last here)
    undone = c.post(f"/matches/{one}/undo", json={"to": disputed - 1, "reason": "replay the turn"}, headers=org)
    assert undone.status_code == 201 and undone.json()["verdict"] == "accepted" and undone.json()["by"] == "arbiter"
    assert ref.show(one).state["pile"] == 10 - 1 - 2


def test_no_other_token_acts_on_the_tables(served):
    c, made, org, tables, ref = served
    tid = made["tournament"]
    disputed, _, _ = _hall(ref, tables)
    one = tables[0]["match_id"]
    spectator = {"Authorization": f"Bearer {made['tokens']['spectator']}"}
    player = {"Authorization": f"Bearer {made['tokens']['players'][tables[0]['seats'][0]]}"}
    for who in (spectator, player):
        desk_ = c.get(f"/tournaments/{tid}/arbiter", headers=who)
        assert desk_.status_code == 403 and "only the organiser" in desk_.json()["message"]
    # the spectators' token acts on no match; a player's token is its own seat there (its slip's QR code),
    # and a seat does not rule
    ruled = c.post(f"/matches/{one}/rulings", json={"entry": disputed}, headers=spectator)
    assert ruled.status_code == 403 and "only the organiser's" in ruled.json()["message"]
    ruled = c.post(f"/matches/{one}/rulings", json={"entry": disputed}, headers=player)
    assert ruled.status_code == 403 and "a seat may not rule" in ruled.json()["message"]
    # another tournament's organiser, and a token of nothing at all
    other = c.post("/tournaments", json={"name": "Other", "game": "pile", "players": ["x", "y"]},
                   headers={"Authorization": "Bearer adm"}).json()
    theirs = {"Authorization": f"Bearer {other['tokens']['organiser']}"}
    ruled = c.post(f"/matches/{one}/rulings", json={"entry": disputed}, headers=theirs)
    assert ruled.status_code == 403 and "is no table of tournament" in ruled.json()["message"]
    nobody = c.post(f"/matches/{one}/rulings", json={"entry": disputed}, headers={"Authorization": "Bearer nope"})
    assert nobody.status_code == 401 and nobody.json()["code"] == "auth/unknown_token"
    assert c.get(f"/tournaments/{tid}/arbiter", headers=org).json()["matters"][0]["kind"] == "dispute"
    assert [e["kind"] for e in c.get(f"/matches/{one}/log", headers=org).json()["entries"]].count("ruling") == 0


def test_the_page_is_a_fixed_shell(served):
    c, made, org, tables, ref = served
    tid = made["tournament"]
    page = c.get(f"/hall/{tid}/arbiter")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert page.text == c.get(f"/hall/{tid}/arbiter", headers=org).text
    assert made["tokens"]["organiser"] not in page.text and "ann" not in page.text.split("<script>")[0]
    assert "default-src 'self'" in page.headers["content-security-policy"]
    odd = c.get("/hall/%3Cb%3E/arbiter").text
    assert "<b>" not in odd.split("<script>")[0]


# -- in Chromium ----------------------------------------------------------------------------------------------


@pytest.mark.slow
@needs_chromium
def test_the_arbiters_page_settles_a_dispute_on_a_phone(request):
    import httpx

    from referee.http import create_app
    from referee.store.memory import MemoryStore
    from support.live import LiveServer

    store = MemoryStore()
    ref = Referee(store, games=[PILE])
    with shared(config=request.config) as (driver,):  # this process's shared Chromium
        with LiveServer(create_app(lambda: Referee(store, games=[PILE]), poll=0.1, admin_token="adm")) as live:
            made = httpx.post(f"{live.url}/tournaments", json={
                "name": "Cup <i>night</i>", "game": "pile", "players": PLAYERS, "seed": 4, "chance": "digital",
                "options": {"stones": "10"}}, headers={"Authorization": "Bearer adm"}).json()
            tid = made["tournament"]
            org = {"Authorization": f"Bearer {made['tokens']['organiser']}"}
            tables = httpx.post(f"{live.url}/tournaments/{tid}/pair", json={"tokens": False}, headers=org).json()["tables"]
            disputed, held, confirmer = _hall(ref, tables)
            assert httpx.post(f"{live.url}/tournaments/{tid}/clock", json={"action": "start", "minutes": 50},
                              headers=org).status_code == 201
            driver.set_window_size(390, 844)
            driver.get(f"{live.url}/hall/{tid}/arbiter#token={made['tokens']['organiser']}")

            def wait(check, what):
                deadline = time.monotonic() + 20
                while time.monotonic() < deadline:
                    if check():
                        return
                    time.sleep(0.1)
                raise AssertionError(f"{what}: {driver.find_element('tag name', 'body').text}")

            def cards():
                return driver.find_elements("css selector", "article.matter")

            wait(lambda: len(cards()) == 2, "the two matters")
            first = cards()[0]
            assert first.get_attribute("data-kind") == "dispute" and "take 4" in first.text
            assert "R-TAKE" in first.text and "four-stone variant" in first.text and "waiting for" in first.text
            assert "left" in driver.find_element("id", "clock").text  # the round clock counts down
            # nothing past the phone's right edge
            width, wide = driver.execute_script(
                "const w = document.documentElement.clientWidth; return [document.documentElement.scrollWidth - w,"
                " [...document.querySelectorAll('body *')].filter((e) => e.getBoundingClientRect().right > w + 1)"
                ".map((e) => e.tagName + '.' + e.className)];")
            assert width <= 0 and wide == [], wide
            first.find_element("css selector", "input[type=text]").send_keys("house rule tonight")
            first.find_element("css selector", "button.rule-btn").click()
            wait(lambda: len(cards()) == 1 and cards()[0].get_attribute("data-kind") == "held", "the dispute settled")
            log = httpx.get(f"{live.url}/matches/{tables[0]['match_id']}/log", headers=org).json()["entries"]
            assert log[-1]["kind"] == "ruling" and "house rule tonight" in log[-1]["intent" if "intent" in log[-1]
                                                                                  else "notation"]
            notes = [a for a in store.annotations(tables[0]["match_id"]) if a.kind == "ruling"]
            assert notes and notes[0].text.startswith(f"ruled: entry {disputed} stands as played")
            # the held move declined for its seat: nothing waits
            cards()[0].find_element("xpath", ".//button[text()='Decline']").click()
            wait(lambda: len(cards()) == 0 and driver.find_element("id", "empty").is_displayed(), "nothing waits")
            # the clock stopped from the page; stopping it again is refused with the server's message
            driver.find_element("id", "clock-stop").click()
            wait(lambda: "(stopped)" in driver.find_element("id", "clock").text, "the clock stopped")
            driver.find_element("id", "clock-stop").click()
            wait(lambda: driver.find_element("id", "clock-msg").text.startswith("Refused: round 1's clock is not running"),
                 "the refusal")
            # the hall's console shows the clock too, and links this page
            driver.get(f"{live.url}/hall/{tid}#token={made['tokens']['organiser']}")
            wait(lambda: "(stopped)" in driver.find_element("id", "round-clock").text, "the hall's clock")
            assert driver.find_element("id", "arbiter-link").get_attribute("href").endswith(
                f"/hall/{tid}/arbiter#token={made['tokens']['organiser']}")
            driver.get("about:blank")


def test_a_dispute_over_an_accepted_move_is_settled_by_the_verdict_standing(db_store):
    access, made, org, tables = _cup(db_store)
    ref = access.service.referee
    _hall(ref, tables)
    one = tables[0]["match_id"]
    first = ref.log(one)[1]  # "take 1", accepted
    ref.annotate(one, first.seq, "that stone was already gone", kind="disputed", by=tables[0]["seats"][1])
    matters = _desk(db_store, org)["matters"]
    accepted = next(m for m in matters if m["entry"] == first.seq)
    assert accepted["disputed"]["verdict"] == "accepted" and not accepted["can_stand"]
    assert accepted["after"] == ref.show(one).seq - first.seq and [r["seq"] for r in accepted["recent"]] == [1]
    # "the verdict stands": a ruling annotation alone (what the page sends), by the organiser as the arbiter
    ref.annotate(one, first.seq, f"ruled: the verdict of entry {first.seq} stands", kind="ruling", by="arbiter")
    # the other dispute of the table (the refused take 4) and the held move are still waiting
    assert [(m["table"], m["kind"]) for m in _desk(db_store, org)["matters"]] == [(1, "dispute"), (2, "held")]
