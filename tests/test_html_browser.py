"""The HTML viewer in a real browser: headless Chromium opens the exported page of both demo matches,
for a seat and for the arbiter, at a desktop's and a phone's width, and is driven as a reader drives it:
jumping far down from the problems list, a deep link (``game.html#59``), the keys (← → Home End n p),
the board kept in view beside the moves (desktop) or above them (phone), the board drawn as a picture
with card names, and a seat's page showing nothing of another seat's hand.

Needs Debian's chromium and chromium-driver (.ci/run installs them); skips with the reason where
they are absent."""

from __future__ import annotations

import os

import pytest

from conftest import ROOT
from referee.engine.present import WORD, named
from referee.export import export
from referee.service import Referee
from referee.store.memory import MemoryStore
from referee.transcript import import_transcript
from support.browser import browser, needs_chromium, wait_until  # noqa: F401  (browser: the process's shared Chromium)
from support.pile import PILE
from support.viewer_pages import viewer

pytestmark = [pytest.mark.slow, needs_chromium]

DESKTOP, PHONE = (1366, 900), (412, 915)

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
def demos():
    """Both demo matches exported for a seat and for the arbiter: {(game, role): (path, referee, match)} (once
    per test process: support/viewer_pages.py)."""
    return {(game, role): viewer(f"{game}/{name}", role)
            for game, name, seat in (("by_all_means", "club-night.txt", "bob"), ("war_of_shadows", "ember-coast.txt", "anna"))
            for role in (seat, "arbiter")}


def visit(browser, page, fragment="", size=DESKTOP):
    browser.set_window_size(*size)
    browser.get("about:blank")  # a new document each time, even when only the fragment differs
    browser.get(page.as_uri() + fragment)


def by(css):
    from selenium.webdriver.common.by import By

    return By.CSS_SELECTOR, css


def now(browser) -> str:
    return browser.find_element(*by("#now")).text


def rect(browser, css):
    return browser.execute_script(
        "const r = document.querySelector(arguments[0]).getBoundingClientRect();"
        "return {top: r.top, bottom: r.bottom, left: r.left, right: r.right, h: innerHeight, w: innerWidth};", css)


def on_screen(browser, css) -> bool:
    r = rect(browser, css)
    return r["top"] >= -1 and r["bottom"] <= r["h"] + 1 and r["bottom"] > r["top"]


def board_in_view(browser) -> bool:
    """The board panel is on screen: its top in the top third of the window, and most of the window's
    height (or all of the panel) showing the board."""
    r = rect(browser, "#board")
    return -1 <= r["top"] <= r["h"] / 3 and r["bottom"] - max(r["top"], 0) >= min(r["h"] * 0.45, r["bottom"] - r["top"]) - 1


def key(browser, k):
    from selenium.webdriver.common.action_chains import ActionChains

    ActionChains(browser).send_keys(k).perform()


def current(browser) -> str:
    return browser.find_element(*by("li.entry.current")).get_attribute("data-seq")


def test_step_through_a_small_match_and_read_every_field(browser, tmp_path):
    from selenium.webdriver.common.keys import Keys

    r = Referee(MemoryStore(), games=[PILE])
    s = import_transcript(r, TRANSCRIPT, "b.txt")
    path = tmp_path / "match.html"
    path.write_text(export(r, s.match_id, "html", "bob"), encoding="utf-8")
    visit(browser, path, size=PHONE)
    browser.find_element(*by("#show-details")).click()  # every field as stored, behind "details"

    def value(k):
        """The shown value of field ``k`` in the state's table (its row's second cell), read in one round trip."""
        return browser.execute_script("""
            for (const row of document.querySelectorAll('#state-body tr')) {
              const cells = row.querySelectorAll('td');
              if (cells[0].innerText.trim() === arguments[0]) return cells[1].innerText.trim();
            }
            return null;""", k)

    assert now(browser).startswith("After entry 5 of 5")  # opens at the end
    assert value("pile") == "3"
    browser.find_element(*by("#back")).click()
    browser.find_element(*by("#back")).click()
    assert now(browser).startswith("After entry 3 of 5")  # on a phone, the move itself is right below the board
    here = browser.find_element(*by("li.entry.current")).text
    assert "bob: take 5" in here and "pile/bad_count" in here
    assert value("pile") == "6"  # take 5 was rejected: nothing changed
    key(browser, Keys.ARROW_RIGHT)
    assert now(browser).startswith("After entry 4") and value("pile") == "4"
    changed = [row.find_elements(*by("td"))[0].text for row in browser.find_elements(*by("#state-body tr.changed"))]
    assert "pile" in changed
    browser.find_element(*by('li.entry[data-seq="1"] .move')).click()
    assert now(browser).startswith("After entry 1") and value("tokens.bob") == "K02" and value("tokens.alice") == "?"
    assert "K01" not in browser.page_source
    # the section in words shows the same without the toggle
    browser.find_element(*by("#show-details")).click()
    assert browser.find_element(*by('#sections td[data-key="pile"]')).text == "9"
    assert not browser.find_element(*by("#raw")).is_displayed()
    scroll, inner = browser.execute_script("return [document.documentElement.scrollWidth, window.innerWidth]")
    assert scroll <= inner  # no sideways scrolling on a phone-sized screen


@pytest.mark.parametrize("game,role", [("by_all_means", "bob"), ("by_all_means", "arbiter"),
                                       ("war_of_shadows", "anna"), ("war_of_shadows", "arbiter")])
def test_the_problems_list_links_to_each_entry_and_the_board_stays_in_view(browser, demos, game, role):
    page, r, mid = demos[(game, role)]
    visit(browser, page)
    links = browser.find_elements(*by("#problems a[data-seq]"))
    seqs = [int(a.get_attribute("data-seq")) for a in links]
    log = r.log(mid, seat=None if role == "arbiter" else role)
    expected = {e.seq for e in log if e.verdict == "rejected" or e.kind in ("ruling", "undo", "redo") or e.manual
                or any(a.kind in ("disputed", "ruling") for a in e.annotations)}
    assert expected and expected <= set(seqs), (sorted(expected - set(seqs)))
    # the problems list sits at the top of the page, above the moves and the board
    assert rect(browser, "#problems")["top"] < rect(browser, "#moves-panel")["top"]
    for seq in (seqs[-1], seqs[0], seqs[len(seqs) // 2]):  # far down first, then back up
        browser.execute_script("arguments[0].scrollIntoView()", browser.find_element(*by(f'#problems a[data-seq="{seq}"]')))
        browser.find_element(*by(f'#problems a[data-seq="{seq}"]')).click()
        assert now(browser).startswith(f"After entry {seq} of"), now(browser)
        assert current(browser) == str(seq)
        assert browser.execute_script("return location.hash") == f"#{seq}"
        assert on_screen(browser, f'li.entry[data-seq="{seq}"]')  # the move scrolled into view
        if seq == seqs[-1]:  # far down the page: the board came along
            assert browser.execute_script("return scrollY") > 1500
        assert board_in_view(browser), rect(browser, "#board")


def test_a_deep_link_opens_the_page_at_that_entry_with_its_board(browser, demos):
    page, r, mid = demos[("by_all_means", "bob")]
    visit(browser, page, "#59")
    assert now(browser).startswith("After entry 59 of 86") and current(browser) == "59"
    assert on_screen(browser, 'li.entry[data-seq="59"]') and board_in_view(browser)
    # the field as bob saw it after entry 59: a drawn grid of cards by their names, the id on hover
    b3 = browser.find_element(*by('#boards [data-cell="B3"]'))
    assert "T09" not in b3.text and "Orchard Terraces" in b3.text and "bob" in b3.text
    assert b3.find_element(*by(".card .named")).get_attribute("title") == "T09"
    assert b3.find_elements(*by(".card")) and b3.find_elements(*by(".val"))  # a card with its loyalty drawn
    # the link of an entry's number is the deep link
    assert browser.find_element(*by('li.entry[data-seq="59"] a.seq')).get_attribute("href").endswith("#59")
    visit(browser, page, "#0")
    assert now(browser).startswith("After setup")
    visit(browser, page, "#9999")  # not an entry: the page opens at the end
    assert now(browser).startswith("After entry 86 of 86")


def test_keys_step_one_entry_to_either_end_and_between_problems(browser, demos):
    from selenium.webdriver.common.keys import Keys

    page, r, mid = demos[("by_all_means", "arbiter")]
    visit(browser, page, "#40")
    key(browser, Keys.ARROW_RIGHT)
    assert current(browser) == "41" and browser.execute_script("return location.hash") == "#41"
    key(browser, Keys.ARROW_LEFT)
    key(browser, Keys.ARROW_LEFT)
    assert current(browser) == "39"
    assert on_screen(browser, 'li.entry[data-seq="39"]')
    key(browser, Keys.END)
    assert current(browser) == "86" and on_screen(browser, 'li.entry[data-seq="86"]') and board_in_view(browser)
    key(browser, Keys.HOME)
    assert now(browser).startswith("After setup")
    problems = sorted({int(a.get_attribute("data-seq")) for a in browser.find_elements(*by("#problems a[data-seq]"))})
    key(browser, "n")
    assert current(browser) == str(problems[0])
    key(browser, "n")
    assert current(browser) == str(problems[1])
    key(browser, "p")
    assert current(browser) == str(problems[0])
    key(browser, Keys.END)
    key(browser, "p")
    assert current(browser) == str(max(p for p in problems if p < 86))
    # the last change is highlighted on the board: stepping onto a deploy marks its cell
    browser.find_element(*by('li.entry[data-seq="41"] .move')).click()
    changed = [c.get_attribute("data-cell") for c in browser.find_elements(*by("#boards .changed"))]
    assert "C1" in changed


def test_the_phone_layout_puts_the_board_first_and_keeps_it_on_screen(browser, demos):
    page, r, mid = demos[("war_of_shadows", "anna")]
    visit(browser, page, "#120", size=PHONE)
    assert browser.execute_script("return innerWidth") <= 800
    board, moves = rect(browser, "#board"), rect(browser, "#moves-panel")
    assert board["left"] == pytest.approx(moves["left"], abs=2)  # one column
    assert now(browser).startswith("After entry 120 of 133")
    assert board_in_view(browser), board
    li = rect(browser, 'li.entry[data-seq="120"]')
    assert li["top"] >= rect(browser, "#board")["bottom"] - 1 and li["bottom"] <= li["h"]  # below the board, seen
    scroll, inner = browser.execute_script("return [document.documentElement.scrollWidth, window.innerWidth]")
    assert scroll <= inner
    visit(browser, page, size=PHONE)  # no link: the top of the page, the board before the moves
    assert rect(browser, "#board")["top"] < rect(browser, "#moves-panel")["top"]


def test_war_of_shadows_draws_its_map_and_council_and_a_seat_sees_its_own_hand_only(browser, demos):
    page, r, mid = demos[("war_of_shadows", "anna")]
    visit(browser, page, "#60")
    tiles = browser.find_elements(*by('#boards [data-board="Map"] [data-cell]'))
    assert len(tiles) == 15
    council = browser.find_elements(*by('#boards [data-board="Council"] .cell'))
    assert len(council) == 20 and any("agent" in c.text for c in council)
    legend = browser.find_element(*by("#legend")).text
    assert "anna" in legend and "bear" in legend
    hand = {td.get_attribute("data-seat"): td.text for td in browser.find_elements(*by('#sections td[data-key="hand"]'))}
    assert set(hand) == {"anna", "boris", "vera"} and hand["boris"] == "—" and hand["vera"] == "—"
    # internal fields wait behind the details toggle
    details = browser.find_elements(*by("#sections tr.detail"))
    assert details and not any(d.is_displayed() for d in details)
    browser.find_element(*by("#show-details")).click()
    assert all(d.is_displayed() for d in details)


def test_variations_are_listed_with_their_moves_under_the_entry_they_branch_from(browser, tmp_path):
    r = Referee(MemoryStore(), games=[PILE])
    s = import_transcript(r, TRANSCRIPT, "b.txt")
    fork = r.fork(s.match_id, at=2, name="if bob had taken 1")
    r.submit(fork.id, "bob", "take 1")
    path = tmp_path / "forked.html"
    path.write_text(export(r, s.match_id, "html", "arbiter"), encoding="utf-8")
    visit(browser, path)
    variation = browser.find_element(*by('li.entry[data-seq="2"] .variation'))
    assert "Variation from entry 2: if bob had taken 1" in variation.text and "bob: take 1" in variation.text
    variation.find_element(*by("li.entry")).click()  # a variation's move is read, not stepped to
    assert now(browser).startswith("After entry 5 of 5")


REPLAYS = sorted(os.path.join(game, name) for game in os.listdir(os.path.join(ROOT, "replays"))
                 for name in os.listdir(os.path.join(ROOT, "replays", game)) if name.endswith(".txt"))


@pytest.mark.parametrize("replay", REPLAYS)
def test_every_games_replay_opens_in_the_viewer_for_a_seat(browser, replay):
    """Every game, through its hooks alone (the viewer knows none): the page opens at the end with the
    game's headline, its boards and its sections drawn, steps back a move, and logs no script error."""
    from selenium.webdriver.common.keys import Keys

    page, r, mid = viewer(replay)  # for its first seat, exported once per test process
    loaded = r.load(mid)
    seat = loaded.config.players[0]
    browser.get_log("browser")  # drop what earlier pages logged
    visit(browser, page)
    head = r.store.head(mid)
    assert now(browser).startswith(f"After entry {head} of {head}")
    shown = r.show(mid, seat=seat)
    assert browser.find_element(*by("#headline")).text == named(loaded.rules.headline(shown.state), shown.names)
    drawn = [b.title for b in shown.boards if b.layout != "tableau"]
    assert [e.get_attribute("data-board") for e in browser.find_elements(*by("#boards .board"))] == drawn
    assert browser.find_elements(*by("#sections .section"))
    # names where a person reads: no id the game names is in the drawn text, each name has its id on hover
    read = browser.execute_script("return ['headline', 'boards', 'sections'].map(id => document.getElementById(id).innerText).join('\\n')")
    assert not {w for w in WORD.findall(read) if loaded.rules.name_of(w)}
    hover = browser.execute_script("return [...document.querySelectorAll('#board .named')].map(e => [e.title, e.textContent])")
    assert hover and all(loaded.rules.name_of(i) == n for i, n in hover)
    key(browser, Keys.ARROW_LEFT)
    assert now(browser).startswith(f"After entry {head - 1} of {head}")
    assert [e for e in browser.get_log("browser") if e["level"] == "SEVERE"] == []


def test_android_location_names_wrap_between_words_on_a_phone(browser):
    """Android's map at a phone's width: every location drawn by its name, no word of a name broken
    across lines or running out of its tile."""
    page, r, mid = viewer("android/thursday-club.txt", "arbiter")
    visit(browser, page, "#100", PHONE)
    got = browser.execute_script("""
      const out = {names: [], broken: []};
      for (const head of document.querySelectorAll('#boards .tile .rname')) {
        const tile = head.closest('.tile').getBoundingClientRect();
        out.names.push(head.textContent);
        const walk = document.createTreeWalker(head, NodeFilter.SHOW_TEXT);
        for (let n = walk.nextNode(); n; n = walk.nextNode()) {
          for (const m of n.textContent.matchAll(/\\S+/g)) {
            const range = document.createRange(); range.setStart(n, m.index); range.setEnd(n, m.index + m[0].length);
            const rects = [...range.getClientRects()].filter(q => q.width > 0);
            if (rects.length !== 1 || rects[0].right > tile.right + 1) out.broken.push(m[0]);
          }
        }
      }
      return out;""")
    names = {loaded_name for loaded_name in got["names"]}
    assert "Challenger Memorial Ferry" in names and "Old War Memorial" in names and "city_hall" not in names
    assert got["broken"] == []


def test_a_face_down_card_is_drawn_as_a_cards_back_and_stays_unnamed_for_the_other_seat(browser, tmp_path):
    """By All Means' graffiti played face down (the position and moves of the o21 scenario): alice,
    who controls it, sees the card on the back; bob sees a back with no id or name."""
    import tomllib

    with open(os.path.join(ROOT, "tests", "scenarios", "by_all_means", "o21_graffiti_free.toml"), "rb") as fh:
        scenario = tomllib.load(fh)
    r = Referee(MemoryStore())
    m = r.new_match("by_all_means", scenario["players"], cards=scenario["cards"], options=scenario["options"],
                    position=scenario["position"])
    for step in scenario["steps"]:
        assert r.submit(m.id, step["actor"], step["intent"]).accepted
    for seat, shown in (("alice", True), ("bob", False)):
        page = tmp_path / f"{seat}.html"
        page.write_text(export(r, m.id, "html", seat), encoding="utf-8")
        visit(browser, page)
        back = browser.find_element(*by('#boards [data-cell="B2"] .down'))
        assert "face down" in back.text
        assert ("Spray Ghost" in back.text) is shown and "GA1" not in back.text  # by its name, the id on hover
        assert [n.get_attribute("title") for n in back.find_elements(*by(".named"))] == (["GA1"] if shown else [])
        if not shown:
            assert "GA1" not in page.read_text(encoding="utf-8") and "Spray Ghost" not in page.read_text(encoding="utf-8")


# -- the tournament's pages (issue 25, items 4 and 5): the HTML export and the hall, at phones' and a desktop's width

SIZES = [(360, 740), (390, 844), (1366, 900)]

#: every element whose box reaches past the viewport's right edge, but those inside a box that scrolls
#: sideways by itself (a wide table in its ``.scroll``); and the document's own width against the viewport's
OVERFLOW = """
const w = document.documentElement.clientWidth;
const wide = [...document.querySelectorAll("body *")].filter((el) => {
  const r = el.getBoundingClientRect();
  if (r.width === 0 || r.right <= w + 1) return false;
  for (let p = el.parentElement; p; p = p.parentElement) if (p.classList.contains("scroll")) return false;
  return true;
}).map((el) => el.tagName + (el.id ? "#" + el.id : "") + "." + el.className);
return [wide, document.documentElement.scrollWidth, w];
"""

#: what the page fetched: every resource it asked for, as absolute URLs
FETCHED = "return performance.getEntriesByType('resource').map((e) => e.name)"


def fits(browser):
    wide, scroll, width = browser.execute_script(OVERFLOW)
    assert wide == [] and scroll <= width, (wide, scroll, width)


@pytest.fixture(scope="module")
def tournament(tmp_path_factory):
    """A Swiss of six players with long names and hostile text, every tie-break in force, round 1 with a
    result at one table and two still playing: (access, tournament id, round 1's tables)."""
    from referee.tournament.access import TournamentAccess
    from schemas.tournament import CreateTournament, PairRequest, PlayerChange, ResultRequest

    access = TournamentAccess(Referee(MemoryStore(), games=[PILE]))
    made = access.create(CreateTournament(
        name="The Thursday club's long autumn cup <script>alert(1)</script>", game="pile", rounds=3, seed=7,
        chance="digital", options={"stones": "2"}, players=["ann", "ben", "cy", "dee", "eve", "fay"],
        tiebreaks=["points", "game-points", "buchholz", "buchholz-cut1", "median-buchholz", "sonneborn-berger",
                   "omw", "gw", "ogw", "progressive"]))
    tid = made.tournament
    access.local.change_player(tid, "eve", PlayerChange(name="Evangelina Montgomery-Featherstonehaugh <script>x</script>",
                                                        reason="as entered"), by="organiser")
    tables = access.local.pair(tid, PairRequest(tokens=False)).tables
    access.local.result(tid, ResultRequest(round=1, table=tables[0].table, result=f"win:{tables[0].seats[0]}",
                                           reason="on paper"))
    return access, tid, tables


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_tournament_export_fits_the_screen_and_fetches_nothing(browser, tournament, tmp_path, size):
    access, tid, tables = tournament
    page = tmp_path / "cup.html"
    page.write_text(access.local.export(tid, "html"), encoding="utf-8")
    visit(browser, page, size=size)
    fits(browser)
    assert browser.execute_script(FETCHED) == []  # no stylesheet, font, script or picture from anywhere
    assert not browser.find_elements(*by("script"))  # hostile names stayed text
    head = browser.find_element(*by("#after")).text
    assert head == "Standings during round 1 (2 tables still playing)"
    rows = browser.find_elements(*by("#standings tr[data-player]"))
    assert len(rows) == 6 and any("<script>x</script>" in r.text for r in rows)  # a name shown as text
    # the wide standings scroll inside their own box, the page does not
    box = browser.execute_script("const s = document.querySelector('.scroll'); return [s.scrollWidth, s.clientWidth]")
    assert (box[0] > box[1]) is (size[0] < 800)
    assert browser.find_element(*by("#head")).text == access.local.audit(tid).head  # the record's head
    assert [e for e in browser.get_log("browser") if e["level"] == "SEVERE"] == []


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_hall_page_fits_the_screen_and_fetches_only_from_its_server(browser, size):
    import httpx

    from referee.http import create_app
    from support.live import LiveServer

    store = MemoryStore()
    with LiveServer(create_app(lambda: Referee(store, games=[PILE]), poll=0.1, admin_token="adm")) as live:
        made = httpx.post(f"{live.url}/tournaments", json={
            "name": "The Thursday club's long autumn cup", "game": "pile", "rounds": 2, "seed": 4, "chance": "digital",
            "options": {"stones": "3"}, "players": ["ann", "ben", "cy", "dee", "eve"],
            "tiebreaks": ["points", "buchholz", "buchholz-cut1", "sonneborn-berger", "progressive"]},
            headers={"Authorization": "Bearer adm"}).json()
        tid = made["tournament"]
        org = {"Authorization": f"Bearer {made['tokens']['organiser']}"}
        tables = httpx.post(f"{live.url}/tournaments/{tid}/pair", json={}, headers=org).json()["tables"]
        httpx.post(f"{live.url}/tournaments/{tid}/results", headers=org, json={
            "round": 1, "table": tables[0]["table"], "result": f"win:{tables[0]['seats'][0]}", "reason": "on paper"})
        browser.set_window_size(*size)
        browser.get("about:blank")
        browser.get(f"{live.url}/hall/{tid}#token={made['tokens']['spectator']}")
        wait_until(browser, "return document.body.dataset.updates !== '0'", 20)  # its first snapshot drawn
        # round 1 is still being played at one table: the standings are not yet "after round 1"
        assert browser.find_element(*by("#after")).text == "(no round completed yet)"
        assert "playing" in browser.find_element(*by("#pairings-body")).text
        fits(browser)
        assert all(url.startswith(live.url + "/") for url in browser.execute_script(FETCHED))
