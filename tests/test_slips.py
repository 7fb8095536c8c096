"""``referee tournament slips T --round N`` (issue 24, item 7): one printable page a table (HTML, print
CSS), with the table, its seats and players, the match id, the game's template with the seats and the
table filled in, and per seat a QR code (segno) of the seat's page on the hall, the token in the URL's
fragment, never its query. Player names are text, never markup; bad input writes nothing and issues
nothing. In headless Chromium (slow): each table prints as one page, at a phone's and a desktop's width."""

from __future__ import annotations

import base64
import re

import pytest

from referee.service import Referee
from referee.tournament import slips
from support.apps import app_client
from support.browser import needs_chromium, shared

HOSTILE = "<script>alert(1)</script>"


@pytest.fixture()
def paired(cli, db, monkeypatch):
    """A tournament of 5 (one with a hostile name), round 1 paired: two tables and a bye."""
    monkeypatch.setenv("REFEREE_DB", db)
    made = cli("tournament", "new", "Club <b>Cup</b>", "--game", "by_all_means", "--rounds", "2", "--seed", "3",
               "--players", "ann,ben,cy,dee,eve")
    tid = made.out.strip().splitlines()[-1]
    assert cli("tournament", "player", "rename", tid, "ann", HOSTILE).code == 0
    assert cli("tournament", "pair", tid, "--no-tokens").code == 0
    return tid


def _codes(page: str) -> dict[str, str]:
    """The QR codes (inline SVG) of the page, by the seat's player."""
    return {m.group(1): m.group(2) for m in re.finditer(r'data-seat="([^"]+)">(<svg.*?</svg>)', page)}


def test_a_page_a_table_with_its_seats_sheet_and_qr_codes(cli, db_store, paired, tmp_path):
    tid = paired
    out = tmp_path / "r1.html"
    made = cli("tournament", "slips", tid[:6], "--round", "1", "--base-url", "http://hall.lan:8000", "-o", out)
    assert made.code == 0 and out.exists(), made.err
    page = out.read_text(encoding="utf-8")
    shown = cli("tournament", "show", tid, "--json").json
    tables = shown["round"][0]["tables"]
    assert page.count('<section class="slip"') == len(tables) == 2
    assert "@media print" in page and "break-after:page" in page
    # hostile text is text: the name escaped wherever it stands, the event's markup too
    assert HOSTILE not in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in page and "<b>Cup" not in page
    assert "<script" not in page  # the page runs nothing
    for t in tables:
        part = page.split(f'data-table="{t["table"]}"', 1)[1].split("</section>", 1)[0]
        assert t["match_id"] in part
        assert f"players: {', '.join(t['seats'])}" in part  # the template with the seats filled in
        assert f"round: 1\ntable: {t['table']}" in part and "event: Club &lt;b&gt;Cup&lt;/b&gt;" in part
        assert part.count("<svg") == len(t["seats"])
    # each seat's QR code is the one of its page on the hall, its token in the fragment
    log = cli("tournament", "log", tid, "--json").json
    issued = log[-1]["event"]
    assert issued["type"] == "tokens_issued" and log[-1]["why"] == "slips for round 1"
    assert sorted(i["player"] for i in issued["issued"]) == sorted(p for t in tables for p in t["seats"])
    qrs = _codes(page)
    assert sorted(qrs) == sorted(p for t in tables for p in t["seats"])
    assert "?token" not in page and "token=" not in page  # no token as text, none in a query
    # every seat's token in force is the one the slips issued (the codes themselves: the next test)
    rows = {r.player: r.token_hash for r in db_store.tournament_tokens(tid) if r.role == "player"}
    assert {rows[p] for t in tables for p in t["seats"]} <= {i["hash"] for i in issued["issued"]}
    assert slips.seat_url("http://h:1/", "t1", "m 2", "a/b") == "http://h:1/play/m%202#token=a%2Fb"
    assert slips.seat_url("http://h:1/", "t1", None, "a/b") == "http://h:1/hall/t1#token=a%2Fb"


def test_the_qr_code_carries_a_token_the_hall_takes(cli, db_store, paired, tmp_path, monkeypatch):
    """The codes are made from seat URLs whose fragment holds the seat's new token: caught as they are
    encoded, each is the seat's page (issue 26), and its token reads that table over HTTP as the seat."""
    seen: list[str] = []
    real = slips.qr_svg
    monkeypatch.setattr(slips, "qr_svg", lambda url: seen.append(url) or real(url))
    out = tmp_path / "r1.html"
    assert cli("tournament", "slips", paired, "--round", "1", "-o", out).code == 0
    page = out.read_text(encoding="utf-8")
    tables = cli("tournament", "show", paired, "--json").json["round"][0]["tables"]
    assert len(seen) == 4
    with app_client(lambda: Referee(db_store)) as c:
        for url, (t, p) in zip(seen, [(t, p) for t in tables for p in t["seats"]]):
            where, _, fragment = url.partition("#")
            assert "?" not in url and where == f"http://127.0.0.1:8000/play/{t['match_id']}"
            assert fragment.startswith("token=") and real(url) in page
            token = fragment[len("token="):]
            me = c.get(f"/tournaments/{paired}", headers={"Authorization": f"Bearer {token}"})
            assert me.status_code == 200 and me.json()["you"] == {"role": "player", "player": p}
            assert c.get(where.replace("http://127.0.0.1:8000", "")).status_code == 200  # the page is served
            seat = c.get(f"/matches/{t['match_id']}/seat", headers={"Authorization": f"Bearer {token}"})
            assert seat.status_code == 200 and seat.json()["seat"] == p  # and opens as the player's seat
        # printing again issues new ones: the codes of the first print stop working
        assert cli("tournament", "slips", paired, "--round", "1", "-o", tmp_path / "again.html").code == 0
        old = seen[0].partition("#token=")[2]
        assert c.get(f"/tournaments/{paired}", headers={"Authorization": f"Bearer {old}"}).status_code == 401
    assert cli("tournament", "audit", paired).code == 0


def test_bad_input_writes_nothing_and_issues_nothing(cli, paired, tmp_path):
    records = len(cli("tournament", "log", paired, "--json").json)
    for words, why in ((["--round", "2"], "round 2 of tournament"), (["--round", "0"], "is not paired"),
                       (["--round", "x"], "valid integer"), (["--round", "1", "--base-url", "hall"],
                                                                    "is not an http(s) address")):
        out = cli("tournament", "slips", paired, *words, "-o", tmp_path / "s.html")
        assert out.code == 2 and why in out.err, (words, out.err)
        assert not (tmp_path / "s.html").exists()
    (tmp_path / "there.html").write_text("keep")
    out = cli("tournament", "slips", paired, "--round", "1", "-o", tmp_path / "there.html")
    assert out.code == 2 and (tmp_path / "there.html").read_text() == "keep"
    assert cli("tournament", "slips", "nope", "--round", "1", "-o", tmp_path / "s.html").code == 3
    assert len(cli("tournament", "log", paired, "--json").json) == records  # no token issued


@pytest.mark.slow
@needs_chromium
def test_each_table_prints_as_one_page_in_chromium(request, cli, paired, tmp_path):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.print_page_options import PrintOptions

    out = tmp_path / "r1.html"
    assert cli("tournament", "slips", paired, "--round", "1", "-o", out).code == 0
    with shared(config=request.config) as (driver,):  # this process's shared Chromium
        for size in ((412, 915), (1366, 900)):  # a phone's width and a desktop's
            driver.set_window_size(*size)
            driver.get(out.as_uri())
            sections = driver.find_elements(By.CSS_SELECTOR, "section.slip")
            assert len(sections) == 2
            for s in sections:
                assert s.is_displayed() and len(s.find_elements(By.CSS_SELECTOR, ".strip svg")) == 2
                assert s.find_element(By.CSS_SELECTOR, ".strip svg").size["width"] > 40
                assert s.size["width"] <= size[0]  # no sideways scrolling on a phone
            for paper in ((21.0, 29.7), (21.59, 27.94)):  # A4 and letter, in cm
                po = PrintOptions()
                po.page_width, po.page_height = paper
                pdf = base64.b64decode(driver.print_page(po))
                pages = len(re.findall(rb"/Type\s*/Page[^s]", pdf))
                assert pages == 2, (size, paper, pages)


def test_a_tournament_with_a_card_file_gets_its_sheets_from_the_kept_text(cli, db, monkeypatch, tmp_path):
    """The template is made with the card file's text the tournament kept (the file itself may be gone)."""
    import os

    from conftest import ROOT

    monkeypatch.setenv("REFEREE_DB", db)
    mine = tmp_path / "mine.toml"
    with open(os.path.join(ROOT, "referee", "games", "by_all_means", "data", "demo.toml"), encoding="utf-8") as fh:
        mine.write_text(fh.read(), encoding="utf-8")
    made = cli("tournament", "new", "Cup", "--game", "by_all_means", "--cards", mine, "--players", "ann,ben")
    tid = made.out.strip().splitlines()[-1]
    mine.unlink()
    assert cli("tournament", "pair", tid, "--no-tokens").code == 0
    out = tmp_path / "s.html"
    done = cli("tournament", "slips", tid, "--round", "1", "-o", out)
    assert done.code == 0, done.err
    assert "cards: mine.toml" in out.read_text(encoding="utf-8")
