"""The pages in Russian (issue 29, item 2): each page the server serves (the hall, a table's live view, the
arbiter's console, a seat's page, the viewer of ``/matches/{id}/export?format=html``) is written in the
language of its request: ``?lang=`` (the page's switch), else ``Accept-Language`` (q-values weigh), else
English. ``<html lang>`` says which; the page's words and its script's (the JSON table the server embeds)
read Russian with no English word left but the declared language-neutral tokens; in English the page is
the same bytes however English was chosen and its script's table is empty (its own words). Concurrent
requests in both languages each get their own; the API's JSON does not change; the switch keeps the
token's fragment (Chromium)."""

from __future__ import annotations

import html
import json
import re
import threading
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from referee.service import Referee
from referee.store.memory import MemoryStore
from support.apps import app_client, live_server
from support.browser import browser, needs_chromium, wait_until  # noqa: F401  (browser: the shared Chromium)

TID, MID = "t1", "m1"
SHELLS = {"hall": f"/hall/{TID}", "arbiter": f"/hall/{TID}/arbiter", "table": f"/hall/{TID}/matches/{MID}",
          "seat": f"/play/{MID}", "player": f"/hall/{TID}/players/ann"}
RU = {"Accept-Language": "ru-RU,ru;q=0.9,en-US;q=0.8,en;q=0.7"}
EN = {"Accept-Language": "en-GB,en;q=0.9"}

#: what a Russian page may hold in Latin letters: ids and seat names, the switch's "English", the keys'
#: names, the tie-breaks' and the token's technical words, placeholders of a table's sentences, codes and
#: the notation, the game's name (a proper name) and a command the console names (`tournament result`)
NEUTRAL = re.compile(
    r"\{[a-z_]+\}|#token=[^\s)]*|/hall/\S*|line:\{?n\}?|\b(?:English|Home|End|QR|n p|By All Means|alice|bob|ann|tournament result|"
    rf"{TID}|{MID}|[0-9a-f]{{12}}|[a-z_]+/[a-z_]+|draw_opening_hand|record_lot|[A-Z]\d+)\b")


def english_left(text: str) -> list[str]:
    """The Latin words of ``text`` once the language-neutral tokens are taken out."""
    return re.findall(r"[A-Za-z]{2,}", NEUTRAL.sub(" ", text))


def shown(page: str) -> str:
    """What a person reads of a page's HTML: its text and its titles, labels and placeholders (no style, no
    script, no JSON of the viewer's frames)."""
    body = re.sub(r"<style>.*?</style>|<script\b.*?</script>", " ", page, flags=re.S)
    said = re.findall(r'(?:title|aria-label|placeholder)="([^"]*)"', body)
    return html.unescape(" ".join([re.sub(r"<[^>]+>", " ", body), *said]))


def table_of(page: str) -> dict[str, Any]:
    """The script's words the server embedded in ``page`` (its ``WORDS`` table)."""
    found = re.search(r"WORDS = (\{.*?\});\n", page)
    assert found, "no words table in the page"
    return json.loads(found.group(1))  # type: ignore[no-any-return]


@pytest.fixture(scope="module")
def hall() -> Iterator[tuple[Any, str, dict[str, str]]]:
    """A served hall with one By All Means match: a refused move, then a move the seat may make."""
    store = MemoryStore()
    with app_client(lambda: Referee(store)) as client:
        made = client.post("/matches", json={"game": "by_all_means", "players": ["alice", "bob"], "seed": 7}).json()
        mid = made["match"]["id"]
        tokens = {**made["tokens"]["seats"], "arbiter": made["tokens"]["arbiter"]}
        alice = {"Authorization": f"Bearer {tokens['alice']}"}
        refused = client.post(f"/matches/{mid}/intents", json={"intent": "choose_order first=bob", "seat": "alice"},
                              headers=alice)
        assert refused.json()["verdict"] == "rejected", refused.text
        client.post(f"/matches/{mid}/intents", json={"intent": "draw_opening_hand", "seat": "alice"}, headers=alice)
        yield client, mid, tokens


@pytest.mark.parametrize("name", sorted(SHELLS))
def test_each_page_in_russian_has_no_english_left(hall, name):
    client, _, _ = hall
    page = client.get(SHELLS[name], headers=RU)
    assert page.status_code == 200
    text = page.text
    assert '<html lang="ru">' in text and 'const LANG = "ru", LANGQ = ""' in text
    assert re.search("[а-яё]", shown(text))
    assert english_left(shown(text)) == [], shown(text)
    words = table_of(text)
    assert words, "the script's words are not in the page"
    for english, russian in words.items():
        for form in russian if isinstance(russian, list) else [russian]:
            assert english_left(form) == [], (english, form)
    # the words a sheet writes (CSS content) are written again after it in Russian
    css = {"hall": 'table.tables td.n::before{content:"стол "}',
           "seat": 'body:not(.revealed) .private::after{content:"скрыто: удерживайте, чтобы увидеть"}'}
    if name in css:
        assert css[name] + "</style>" in text
    # a three-form plural where the script counts (hall, arbiter)
    assert all(len(v) == 3 for v in words.values() if isinstance(v, list))


@pytest.mark.parametrize("name", sorted(SHELLS))
def test_in_english_a_page_is_the_same_bytes_however_english_is_chosen(hall, name):
    client, _, _ = hall
    pages = [client.get(SHELLS[name], headers=h).content for h in ({}, EN, {"Accept-Language": "de-DE,fr;q=0.9"},
                                                                    {"Accept-Language": "ru;q=0, en;q=0.1"})]
    assert len(set(pages)) == 1
    text = pages[0].decode()
    assert '<html lang="en">' in text and "WORDS = {};" in text and "English</b>" in text
    assert not re.search("[а-яё]", shown(text).replace("Русский", ""))


def test_accept_language_weighs_q_values_and_lang_wins(hall):
    client, _, _ = hall
    lang = lambda r: re.search(r'<html lang="(\w+)">', r.text).group(1)  # noqa: E731
    assert lang(client.get(SHELLS["hall"], headers={"Accept-Language": "en;q=0.5, ru;q=0.8"})) == "ru"
    assert lang(client.get(SHELLS["hall"], headers={"Accept-Language": "ru;q=0.4, en"})) == "en"
    assert lang(client.get(SHELLS["hall"], headers={"Accept-Language": "ru_RU"})) == "ru"
    assert lang(client.get(SHELLS["hall"] + "?lang=en", headers=RU)) == "en"
    asked = client.get(SHELLS["seat"] + "?lang=ru", headers=EN)
    assert lang(asked) == "ru" and 'LANGQ = "?lang=ru"' in asked.text  # chosen by the switch: links carry it


def test_a_language_the_pages_do_not_speak_is_refused_clearly(hall):
    client, _, _ = hall
    r = client.get(SHELLS["hall"] + "?lang=de")
    assert r.status_code == 422
    body = r.json()
    assert body["code"] == "input/bad_argument"
    assert body["message"] == "lang='de' is not a language the pages speak: expected one of en, ru"


def test_the_switch_links_the_other_language_and_keeps_the_fragment(hall):
    client, _, _ = hall
    ru = client.get(SHELLS["arbiter"], headers=RU).text
    assert '<a href="?lang=en" hreflang="en" lang="en">English</a>' in ru and '<b lang="ru" aria-current="true">Русский</b>' in ru
    assert 'a.href = a.getAttribute("href") + location.hash' in ru  # the token in the fragment goes along
    en = client.get(SHELLS["arbiter"] + "?lang=en", headers=RU).text
    assert '<a href="?lang=ru" hreflang="ru" lang="ru">Русский</a>' in en and '<html lang="en">' in en


def test_the_viewer_in_russian_and_the_api_json_unchanged(hall):
    client, mid, tokens = hall
    arbiter = {"Authorization": f"Bearer {tokens['arbiter']}"}
    ru = client.get(f"/matches/{mid}/export?format=html", headers={**arbiter, **RU}).text
    en = client.get(f"/matches/{mid}/export?format=html", headers={**arbiter, **EN}).text
    assert '<html lang="ru">' in ru and '<html lang="en">' in en
    assert en == client.get(f"/matches/{mid}/export?format=html", headers=arbiter).text
    # the viewer's own words (its header, controls, keys, problems): no English left
    problems = '<nav id="problems"' + ru.split('<nav id="problems"')[1].split("</nav>")[0]
    chrome = ru.split("<ol>")[0] + problems.split("<ol>")[0] + " ".join(re.findall(r'<span class="tag \w+">[^<]*</span>', ru))
    assert english_left(shown(chrome).replace("id объектов", "")) == [], shown(chrome)
    # the refusal it lists, read through the game's templates (its codes and phase ids as recorded)
    assert "by_all_means/wrong_phase: choose_order относится к фазе order" in ru
    assert "Как видит: арбитр (всё)" in ru and "Итог: " in ru and "Проблемы и споры (" in ru
    assert all(english_left(str(v)) == [] for v in table_of(ru).values())
    assert "Seen as the arbiter (everything)" in en and "Problems and disputes (" in en and "WORDS = {};" in en
    for path in (f"/matches/{mid}/state", f"/matches/{mid}/log", f"/matches/{mid}/seat"):
        who = arbiter if path.endswith(("state", "log")) else {"Authorization": f"Bearer {tokens['alice']}"}
        assert client.get(path, headers={**who, **RU}).content == client.get(path, headers={**who, **EN}).content


def test_concurrent_requests_each_get_their_own_language():
    """Sixteen requests at once on a real server, Russian and English interleaved, for the viewer (written in
    a worker thread, a piece at a time) and the hall: each answer is in its own request's language."""
    store = MemoryStore()
    with live_server(lambda: Referee(store)) as server, httpx.Client(base_url=server.url, timeout=60) as c:
        made = c.post("/matches", json={"game": "by_all_means", "players": ["alice", "bob"], "seed": 3}).json()
        mid = made["match"]["id"]
        # a token runs two whole-log reads at once: four tokens, two exports each
        tokens = [made["tokens"]["arbiter"], made["tokens"]["spectator"], *made["tokens"]["seats"].values()]
        got: dict[int, tuple[str, str]] = {}
        start = threading.Barrier(16)

        def ask(i: int) -> None:
            want = ("ru", "en")[i % 2]
            path = f"/matches/{mid}/export?format=html" if i % 4 < 2 else SHELLS["hall"]
            with httpx.Client(base_url=server.url, timeout=60) as own:
                start.wait()
                r = own.get(path, headers={"Authorization": f"Bearer {tokens[i // 4]}", "Accept-Language": want})
            got[i] = (want, r.text)

        threads = [threading.Thread(target=ask, args=(i,)) for i in range(16)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(90)
    assert len(got) == 16
    for want, text in got.values():
        assert f'<html lang="{want}">' in text
        assert ("Как видит:" in text or "Турнир" in text) == (want == "ru")
        assert bool(re.search("[а-яё]", shown(text).replace("Русский", ""))) == (want == "ru")


@needs_chromium
@pytest.mark.slow
def test_a_page_in_russian_in_chromium_and_its_switch(hall, browser):  # noqa: F811
    """The hall page opened with ?lang=ru and a token the server refuses: the script's words are Russian
    (the refusal's sentence is the server's own, English, inside them); the switch's English link opens the
    page in English with the token still in the fragment."""
    from support.live import LiveServer

    client, _, _ = hall
    with LiveServer(client.app) as server:
        browser.get(f"{server.url}/hall/{TID}?lang=ru#token=nobody")
        status = wait_until(browser, "const s = document.getElementById('status').textContent; "
                                     "return s.startsWith('не удаётся следить') && s;")
        assert browser.execute_script("return document.documentElement.lang") == "ru"
        assert status.startswith("не удаётся следить: ")  # the server's refusal follows, as it sent it
        assert browser.execute_script("return document.getElementById('title').textContent") == f"Турнир {TID}"
        assert browser.execute_script("return document.querySelector('#tables-box h2').textContent").startswith("Столы")
        link = browser.find_element("css selector", "#langs a[hreflang=en]")
        assert link.get_attribute("href").endswith(f"/hall/{TID}?lang=en#token=nobody")
        link.click()
        wait_until(browser, "return document.documentElement.lang === 'en' && "
                            "document.getElementById('status').textContent.startsWith('cannot follow')")
        assert browser.execute_script("return location.hash") == "#token=nobody"


def test_every_word_a_script_asks_for_is_in_the_catalog():
    """What the server embeds (pagelang.script_words: the scripts' gettext/ngettext calls) is what Babel
    extracts into the catalog from each page's script (a call it cannot read would be left English)."""
    from importlib.resources import files

    from babel.messages.extract import extract_from_file

    from babel.messages.pofile import read_po

    from referee.i18n import DOMAIN, LOCALE_DIR
    from referee.pagelang import script_words

    with (LOCALE_DIR / f"{DOMAIN}.pot").open("rb") as fh:  # the template (test_i18n: it is what the code marks)
        catalog = read_po(fh)
    for package, name in (("referee", "playerpage.js"), ("referee.tournament", "hall.js"), ("referee.tournament", "follow.js"),
                          ("referee.tournament", "table.js"), ("referee.tournament", "arbiter.js"),
                          ("referee.viewer", "viewer.js"), ("referee.seatpage", "seat.js")):
        path = files(package).joinpath(name)
        babel = {m[1] if isinstance(m[1], str) else tuple(m[1])
                 for m in extract_from_file("javascript", str(path), keywords={"gettext": None, "ngettext": (1, 2)})}
        ours = {k[0] if len(k) == 1 else k for k in script_words(path.read_text(encoding="utf-8"))}
        assert ours == babel, (name, ours ^ babel)
        assert all(catalog.get(k if isinstance(k, str) else k[0]) is not None for k in ours), name


def test_a_players_page_in_russian():
    """The page the hall's player page fetches (a pure function of the history) in Russian: its words, the
    results' words, a Russian plural under the chart; in English as before."""
    from referee.playerpage import page
    from schemas.players import EventPlayed, GameRecord, PlayedMatch, PlayerHistory, RatingPoint

    played = [PlayedMatch(match_id=f"m{i}", game="by_all_means", opponents=["bob"], partners=[], result=r,
                          score=None, event="Autumn", round=str(i), table="1", last_activity="2026-11-26")
              for i, r in enumerate(("win", "loss", "draw", "playing"), start=1)]
    history = PlayerHistory(player="ann", game=None, events=[EventPlayed(name="Autumn", matches=4)], matches=played,
                            games=[GameRecord(game="by_all_means", played=3, wins=1, draws=1, losses=1, win_rate=1 / 3)],
                            rating=[RatingPoint(match_id=f"m{i}", date="2026-11-26", ordinal=float(i), mu=25.0,
                                                sigma=8.0) for i in (1, 2)], model="plackett_luce")
    ru = page(history, title="в турнире Autumn", lang="ru")
    assert '<html lang="ru">' in ru and "2 рейтинговые партии" in ru and ">победа<" in ru and ">поражение<" in ru
    left = english_left(NEUTRAL.sub(" ", shown(ru)).replace("Autumn", "").replace("by_all_means", "")
                        .replace("openskill plackett_luce", "").replace("mu", "").replace("sigma", ""))
    assert left == [], shown(ru)
    en = page(history, title="in Autumn")
    assert '<html lang="en">' in en and "2 rated matches" in en and ">win<" in en and "Results per game" in en


def test_the_tournament_export_in_russian(db_store):
    """The tournament's HTML export (``referee --lang ru tournament export --format html``, or over HTTP with
    the reader's language): its words, the tie-breaks' names, the rounds' headings and a result's source in
    Russian; the Markdown and the English HTML as before."""
    from referee.i18n import speaking
    from referee.tournament.access import TournamentAccess
    from schemas.tournament import CreateTournament, PairRequest, ResultRequest
    from support.pile import PILE

    access = TournamentAccess(Referee(db_store, games=[PILE]))
    tid = access.create(CreateTournament(name="Cup", game="pile", rounds=2, seed=3, chance="digital",
                                         options={"stones": "2"}, players=["ann", "ben", "cy", "dee"])).tournament
    access.local.pair(tid, PairRequest(tokens=False))
    access.local.result(tid, ResultRequest(round=1, table=1, result="draw", reason="on paper"))
    english = access.local.export(tid, "html")
    with speaking("ru"):
        russian = access.local.export(tid, "html")
        markdown = access.local.export(tid, "md")
    assert markdown == access.local.export(tid, "md")  # the Markdown is the code's English in any language
    assert '<html lang="en">' in english and "Standings" in english and "Round 1 (being played)" in english
    assert '<html lang="ru">' in russian and "Тур 1 (идёт)" in russian and "Турнирная таблица" in russian
    assert "ничья (арбитр)" in russian and "идёт игра" in russian  # outcome.words says a draw in Russian too
    text = re.sub(r"\b[0-9a-f]{12,64}\b|\bid\b", " ", NEUTRAL.sub(" ", shown(russian)))  # ids, the head's hash
    for neutral in ("referee export MATCH --format html -o MATCH.html", "--format html", "referee export", "Cup", "pile", "swiss", "ann", "ben", "cy", "dee", "referee tournament audit", "--expect-head",
                    "HEAD", "referee export MATCH --format html -o MATCH.html", "MATCH", "own_last"):
        text = text.replace(neutral, " ")
    assert english_left(text) == [], shown(russian)
