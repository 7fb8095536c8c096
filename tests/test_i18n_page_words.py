"""The words that arrive in the API's JSON, read in the page's language (issue 29). The JSON stays English
and the same bytes in both languages (the hall's snapshot, the arbiter's desk, a seat's answer); a page
says what a person reads of it in its own language: a result, the sides asked to confirm one and a
refusal (recorded on a seat's page or the desk) through ``POST /pages/words``, which says them with the
CLI's and the viewer's code; why a table holds up the next round from its code, in the page script's own
words (the hall's). Click's own usage errors under ``REFEREE_LANG=ru`` (a missing argument, an unknown
option or command, a value of the wrong type) read Russian with exit code 2, and as click writes them in
English."""

from __future__ import annotations

import re
from typing import Any

import msgspec
import pytest

from referee import pagelang
from referee.i18n import speaking
from referee.service import Referee
from referee.store.memory import MemoryStore
from referee.tournament.access import Entrant, TournamentAccess
from referee.tournament.arbiter import desk
from referee.tournament.hall import snapshot
from schemas.tournament import CreateTournament, PairRequest, ReportRequest, ResultRequest
from support.apps import app_client
from support.browser import browser, needs_chromium, wait_until  # noqa: F401  (browser: the shared Chromium)

_CYRILLIC = re.compile("[а-яё]", re.I)
RU = {"Accept-Language": "ru-RU,ru;q=0.9"}
EN = {"Accept-Language": "en-GB,en;q=0.9"}


def _json(value: Any) -> Any:
    return msgspec.json.decode(msgspec.json.encode(value))


@pytest.fixture(scope="module")
def cup() -> Any:
    """A By All Means tournament of six, round 1 paired: table 1's first mover's move refused and disputed;
    table 2's seats reported different results; table 3's result recorded by the organiser. Served."""
    store = MemoryStore()
    access = TournamentAccess(Referee(store))
    made = access.create(CreateTournament(name="Cup", game="by_all_means", rounds=2, seed=5,
                                          players=["ann", "ben", "cy", "dee", "eve", "fay"]))
    tid = made.tournament
    org = Entrant(tournament=tid, role="organiser")
    tables = access.pair(org, PairRequest(tokens=False)).tables
    ref = access.service.referee
    one = tables[0]
    refused = ref.submit(one.match_id, one.seats[0], f"choose_order first={one.seats[1]}")
    assert not refused.accepted
    ref.annotate(one.match_id, refused.seq, "it is our order phase", kind="disputed", by=one.seats[0])
    a, b = tables[1].seats
    for seat, result in ((a, f"win:{a}"), (b, f"win:{b}")):
        access.report(Entrant(tournament=tid, role="player", player=seat), 1, 2, ReportRequest(result=result, seat=seat))
    c, _ = tables[2].seats
    access.local.result(tid, ResultRequest(round=1, table=3, result=f"win:{c}", reason="the sheet"))
    with app_client(lambda: Referee(store)) as client:
        yield client, access, tid, made.tokens, tables


def _words(client, body: dict[str, Any], lang: str) -> dict[str, Any]:
    r = client.post(f"/pages/words?lang={lang}", json=body)
    assert r.status_code == 200, r.text
    return r.json()  # type: ignore[no-any-return]


def test_a_results_words_read_russian_for_every_kind_and_english_as_before():
    from referee import i18n
    from referee.outcome import words
    from schemas import Outcome

    cases = [
        (None, "not finished", "не окончена"),
        (Outcome(winners=("ann",), reason="influence", scores={"ann": 3, "ben": 1}),
         "ann won (influence) — scores ann 3, ben 1", "победа: ann (влияние) — очки: ann 3, ben 1"),
        (Outcome(winners=(), reason="full_field"), "draw (full field)", "ничья (заполненное поле)"),
        (Outcome(winners=("a", "b", "c"), reason="end_game_defeated", kind="team_win"),
         "the team won (end game defeated): a, b and c", "команда победила (Финал побеждён): a, b и c"),
        (Outcome(winners=(), reason="player_defeated", kind="team_loss"), "everyone lost (player defeated)",
         "проиграли все (игрок повержен)"),
        (Outcome(winners=("a",), reason="case_closed", kind="ranking", ranking=(("a",), ("b", "c"), ("d",)),
                 scores={"a": 12, "b": 9, "c": 9, "d": 1}),
         "1st a (12), 2nd b and c (9), 4th d (1) — case closed",
         "1-е место: a (12), 2-е место: b и c (9), 4-е место: d (1) — дело закрыто"),
    ]
    for outcome, english, russian in cases:
        assert words(outcome) == english  # the transcript's and the exports' English
        with speaking("en"):
            assert words(outcome, i18n.gettext) == english
        with speaking("ru"):
            assert words(outcome, i18n.gettext) == russian
            assert words(outcome) == english  # no gettext given: English whatever the language


def test_the_hall_and_the_desk_are_the_same_json_in_both_languages(cup):
    client, access, tid, tokens, _ = cup
    org = Entrant(tournament=tid, role="organiser")
    with speaking("ru"):
        ru = _json(snapshot(access, org, now="2026-11-28T12:00:00Z")), _json(desk(access, org, now="2026-11-28T12:00:00Z"))
    with speaking("en"):
        en = _json(snapshot(access, org, now="2026-11-28T12:00:00Z")), _json(desk(access, org, now="2026-11-28T12:00:00Z"))
    assert ru == en
    organiser = {"Authorization": f"Bearer {tokens.organiser}"}
    for path in (f"/tournaments/{tid}/arbiter", f"/tournaments/{tid}/pairings", f"/tournaments/{tid}/standings"):
        got = [client.get(path, headers={**organiser, **h}).content for h in (RU, EN, {})]
        assert got[0] == got[1] == got[2], path


def test_a_finished_tables_result_and_the_sides_to_confirm_read_russian(cup):
    client, access, tid, _, tables = cup
    snap = _json(snapshot(access, Entrant(tournament=tid, role="organiser")))
    finished = next(t for t in snap["tables"] if t["table"] == 3)
    c = tables[2].seats[0]
    assert finished["state"] == "finished" and finished["result"] == f"{c} won (arbiter)"
    sides = snap["console"]["to_confirm"][0]["sides"]
    outcomes = [finished["outcome"]] + [s["outcome"] for s in sides]
    body = {"outcomes": outcomes}
    # English: the JSON's own words, each
    assert _words(client, body, "en")["outcomes"] == [finished["result"]] + [s["result"] for s in sides]
    ru = _words(client, body, "ru")
    a, b = tables[1].seats
    assert ru == {"lang": "ru", "outcomes": [f"победа: {c} (арбитр)", f"победа: {a} (по сообщениям игроков)",
                                               f"победа: {b} (по сообщениям игроков)"],
                  "refusals": [], "texts": [], "errors": []}
    # the page asks for them: its script words each result and side through pagewords.js
    page = client.get(f"/hall/{tid}?lang=ru").text
    assert "function outcomeWords(" in page and "outcomeWords(t.outcome, t.result, redraw)" in page
    assert "outcomeWords(side.outcome, side.result, redraw)" in page


def test_why_a_table_holds_up_the_round_is_a_code_the_hall_words_in_russian(cup):
    from referee.tournament.console import WHY

    client, access, tid, _, tables = cup
    snap = _json(snapshot(access, Entrant(tournament=tid, role="organiser")))
    rows = {t["table"]: t for t in snap["tables"]}
    assert rows[1]["state"] == "disputed" and rows[1]["why_code"] == "dispute" and rows[1]["why_values"] == {"entry": 1}
    assert rows[1]["why"] == "an open dispute on entry 1 (a ruling annotation on it settles it)"
    a, b = tables[1].seats
    assert rows[2]["why_code"] == "disagree"
    assert rows[2]["why_values"] == {"sides": [{"players": [a], "result": f"win:{a}"}, {"players": [b], "result": f"win:{b}"}]}
    assert rows[2]["why"] == f"results disagree: {a} reported win:{a}; {b} reported win:{b}"
    assert rows[3]["why_code"] == "" and rows[3]["why"] == ""
    # the hall's script words every code with the same catalog entry as the English sentence: Russian in its table
    page = client.get(f"/hall/{tid}", headers=RU).text
    script = page.split("<script>")[1]
    words = pagelang.table("ru", script)
    for code, english in WHY.items():
        assert f'gettext("{english}"' in script, code
        assert _CYRILLIC.search(str(words[english])), (code, words.get(english))
    assert words[WHY["dispute"]].format(entry=1) == "открытый спор по записи 1 (его закрывает решение арбитра, записанное к ней)"
    assert words["results disagree: {sides}"] == "результаты расходятся: {sides}"
    # a spectator's snapshot holds no why, in any form; of the reports only that each seat made one (a code the
    # page words)
    public = _json(snapshot(access, Entrant(tournament=tid, role="spectator")))
    assert all("why" not in t and "why_code" not in t for t in public["tables"])
    assert [r["result"] for r in public["tables"][1]["reports"]] == ["reported", "reported"]
    assert 'REPORTED = {reported: gettext("reported"), agreed: gettext("agreed")}' in script
    assert (words["reported"], words["agreed"]) == ("сообщил результат", "согласен")


def test_a_refusal_on_the_desk_and_on_a_seats_page_reads_russian(cup):
    client, access, tid, _, tables = cup
    d = _json(desk(access, Entrant(tournament=tid, role="organiser")))
    assert d["game"] == "by_all_means"
    rejection = d["matters"][0]["disputed"]["rejection"]
    assert rejection["code"] == "by_all_means/wrong_phase"
    asked = {"refusals": [{"game": d["game"], **rejection}]}
    assert _words(client, asked, "en")["refusals"] == [{"message": rejection["message"], "rule": rejection["rule"]}]
    said = _words(client, asked, "ru")["refusals"][0]
    assert said["message"] == "choose_order относится к фазе order; партия в фазе opening"
    assert said["rule"] == "R-SETUP Подготовка к игре"
    # a seat's write answer carries the same rejection: its page asks for it in its language before saying it
    seat_page, desk_page = client.get(f"/play/{tables[0].match_id}?lang=ru").text, client.get(f"/hall/{tid}/arbiter?lang=ru").text
    assert "function askWords(" in seat_page and "refusalSaid(d.rejection)" in seat_page
    assert "function refusalWords(" in desk_page and "refusalWords(d.game, e.rejection, redraw)" in desk_page


def test_the_page_words_refuse_a_bad_request_clearly(cup):
    client = cup[0]
    bad = client.post("/pages/words?lang=xx", json={"texts": ["state"]})
    assert bad.status_code == 422 and "lang='xx' is not a language the pages speak" in bad.json()["message"]
    unknown = client.post("/pages/words", json={"text": ["state"]})
    assert unknown.status_code == 400 and "unknown field `text`" in unknown.json()["message"]
    big = client.post("/pages/words", json={"texts": ["x"] * 201})
    assert big.status_code == 400
    # a game it does not know: the refusal as given; a text with no catalog entry: as given
    r = client.post("/pages/words", json={"refusals": [{"game": "chess", "code": "c/x", "message": "no"}],
                                         "texts": ["no such entry", "state"]}, headers=RU).json()
    assert r == {"lang": "ru", "outcomes": [], "refusals": [{"message": "no", "rule": ""}],
                 "texts": ["no such entry", "состояние"], "errors": []}


@pytest.mark.parametrize(("args", "russian", "english_"), [
    (("show",), "Ошибка: Не указан аргумент 'match'.", "Error: Missing argument 'match'."),
    (("log", "x", "--limit", "3"), "Ошибка: Нет такого параметра: --limit (возможно, вы имели в виду: --last)",
     "Error: No such option: --limit (Possible options: --last)"),
    (("showw",), "Ошибка: Нет команды 'showw'. Может быть, 'show'?", "Error: No such command 'showw'. Did you mean 'show'?"),
    (("serve", "--port", "x"), "Ошибка: Неверное значение '--port': нужно целое число, а это не число",
     "Error: Invalid value for '--port': Input should be a valid integer"),
])
def test_a_usage_error_of_click_reads_russian_and_exits_2(cli, english, monkeypatch, args, russian, english_):
    r = cli(*args)
    assert r.code == 2
    assert english_ in r.err and "Usage: " in r.err and "for help." in r.err and not _CYRILLIC.search(r.err)
    monkeypatch.setenv("REFEREE_LANG", "ru")
    r = cli(*args)
    assert r.code == 2
    assert russian in r.err, r.err
    assert "Вызов: " in r.err and "Справка: '" in r.err
    assert not re.search(r"\b(Error|Usage|Missing|such|Try|Invalid|Input)\b", r.err), r.err


@needs_chromium
@pytest.mark.slow
def test_the_hall_and_a_seats_page_say_them_in_russian_in_chromium(cup, browser):  # noqa: F811
    """The organiser's hall under ?lang=ru: the finished table's result, why the disputed table holds up the
    round and the sides to confirm read Russian; a seat's page under ?lang=ru: a refused move's reason and
    its rule read Russian. The same pages in English as before."""
    from support.live import LiveServer

    client, access, tid, tokens, tables = cup
    cells = ("const rows = {}; for (const tr of document.querySelectorAll('#pairings-body tr[data-table]')) "
             "rows[tr.dataset.table] = [tr.children[3].textContent, (tr.querySelector('.because') || {}).textContent || ''];"
             "const sides = [...document.querySelectorAll('#confirm-list button')].map((b) => b.textContent);")
    c, (a, b) = tables[2].seats[0], tables[1].seats
    with LiveServer(client.app) as server:
        browser.get(f"{server.url}/hall/{tid}?lang=ru#token={tokens.organiser}")
        got = wait_until(browser, cells + "return rows['3'] && rows['3'][0].startsWith('победа') && sides.length === 2 "
                                          "&& sides[0].includes('сообщениям') && [rows, sides];")
        rows, sides = got
        assert rows["3"][0].startswith(f"победа: {c} (арбитр)")
        assert rows["1"][1] == "открытый спор по записи 1 (его закрывает решение арбитра, записанное к ней)"
        assert rows["2"][1] == f"результаты расходятся: по словам {a}: win:{a}; по словам {b}: win:{b}"
        assert sides[0].endswith(f"победа: {a} (по сообщениям игроков)")
        browser.get("about:blank")
        browser.get(f"{server.url}/hall/{tid}?lang=en#token={tokens.organiser}")
        rows, sides = wait_until(browser, cells + "return rows['3'] && rows['3'][0] && sides.length === 2 && [rows, sides];")
        assert rows["3"][0].startswith(f"{c} won (arbiter)") and rows["1"][1].startswith("an open dispute on entry 1")
        assert sides[0].endswith(f"{a} won (reported by the seats)")

        made = client.post("/matches", json={"game": "by_all_means", "players": ["alice", "bob"], "chance": "physical"}).json()
        mid, alice = made["match"]["id"], made["tokens"]["seats"]["alice"]
        for lang, words in (("ru", "правило: R-SETUP Подготовка к игре"), ("en", "rule: R-SETUP")):
            browser.get("about:blank")
            browser.get(f"{server.url}/play/{mid}?lang={lang}#token={alice}")
            wait_until(browser, "return Number(document.body.dataset.loads || 0) > 0")
            browser.execute_script("""const g = '#moves .group[data-verb="draw_opening_hand"] ';
                document.querySelector(g + 'input[data-key="cards"]').value = 'AG1,AG2,AG3';
                document.querySelector(g + 'input[data-key="cards"]').dispatchEvent(new Event('input'));
                document.querySelector(g + 'button.choice').click();""")
            text = wait_until(browser, "return document.body.dataset.verdict === 'rejected' && "
                                       "document.getElementById('verdict').textContent;")
            assert words in text, text
            assert ("expected 4 cards" in text) == (lang == "en"), text
            assert bool(_CYRILLIC.search(text)) == (lang == "ru"), text
