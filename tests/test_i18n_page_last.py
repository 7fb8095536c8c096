"""The last English a Russian reader met (issue 29): a server's refusal read by the CLI in client mode
(``referee --server URL ...``) reads in the reader's language, rebuilt through the catalog from the error
answer's ``said`` as a local refusal is, and as the server gave it where ``said`` cannot be read back; the
``--json`` error stays the server's English. The live table view and the player's page word the server's
refusals through ``POST /pages/words`` as the seat's page and the desk do."""

from __future__ import annotations

import io
import json
import re
import urllib.error

import pytest

from referee import i18n
from referee.service import Referee
from referee.store.memory import MemoryStore
from support.apps import live_server
from support.browser import browser, needs_chromium, wait_until  # noqa: F401  (browser: the shared Chromium)

_CYRILLIC = re.compile("[а-яё]", re.I)


@pytest.fixture(scope="module")
def server():
    """A live server with one War of Shadows match: (its URL, the match id, alice's token)."""
    import urllib.request

    with live_server(lambda: Referee(MemoryStore())) as live:
        req = urllib.request.Request(live.url + "/matches", method="POST", headers={"Content-Type": "application/json"},
                                     data=json.dumps({"game": "war_of_shadows", "players": ["alice", "bob"]}).encode())
        with urllib.request.urlopen(req) as answer:
            made = json.load(answer)
        yield live.url, made["match"]["id"], made["tokens"]["seats"]["alice"]


@pytest.mark.parametrize("args, english, russian", [
    (("play", "{mid}", "bob", "pass"), "error: alice's token cannot act for bob", "ошибка: токен alice не может действовать за bob"),
    (("show", "nope"), "error: this token belongs to another match", "ошибка: этот токен относится к другой партии"),
])
def test_a_servers_refusal_reads_in_the_readers_language_and_its_json_stays_english(cli, monkeypatch, server, args,
                                                                                   english, russian):
    url, mid, token = server
    argv = ("--server", url, "--token", token, *(a.format(mid=mid) for a in args))
    said = {}
    for lang in ("en", "ru"):
        monkeypatch.setenv("REFEREE_LANG", lang)
        said[lang] = cli(*argv)
        assert said[lang].code == 2 and said[lang].out == ""
        json_run = cli(*argv, "--json")
        said[lang + "-json"] = json.loads(json_run.out)
    assert said["en"].err.strip() == english
    assert said["ru"].err.strip() == russian
    assert said["en-json"] == said["ru-json"] and "said" not in said["en-json"]  # the server's English, unchanged
    assert said["ru-json"]["message"] == english.removeprefix("error: ")


def test_a_phrase_inside_a_servers_refusal_reads_in_the_readers_language_too(cli, monkeypatch, server):
    url, mid, token = server
    monkeypatch.setenv("REFEREE_LANG", "ru")
    got = cli("--server", url, "--token", token, "play", mid, "alice", "frob", "x=1")
    assert got.code == 2 and got.err.startswith("ошибка: неизвестный глагол 'frob'; ")
    assert "verbs" not in got.err and _CYRILLIC.search(got.err.split(";")[1])


def _refusal(status: int, body: dict) -> urllib.error.HTTPError:
    return urllib.error.HTTPError("http://x/", status, "refused", {}, io.BytesIO(json.dumps(body).encode()))  # type: ignore[arg-type]


SAID = {"template": "{own}'s token cannot act for {seat}", "values": {"own": "alice", "seat": "bob"}}


@pytest.mark.parametrize("said", [
    {"template": "no such entry of the catalog {x}", "values": {"x": "1"}},  # says another message
    {"template": "{own.__class__}'s token cannot act for {seat}", "values": {"own": "alice", "seat": "bob"}},
    {"template": "{own}'s token cannot act for {seat}", "values": {"own": "alice"}},  # a field without its value
    {"template": "{own}'s token cannot act for {seat}", "values": {"own": {"x": 1}, "seat": "bob"}},
    {"template": "{own}'s token cannot act for {seat}", "values": {"own": "eve", "seat": "bob"}},  # not the message
    {"template": "{own}'s token cannot act for {seat", "values": {"own": "alice", "seat": "bob"}},  # malformed
])
def test_a_said_that_cannot_be_read_back_leaves_the_message_as_the_server_gave_it(said):
    from cli.client import _error

    err = _error(_refusal(403, {"code": "auth/seat", "message": "alice's token cannot act for bob", "said": said}))
    with i18n.speaking("ru"):
        assert err.text(i18n.gettext) == "alice's token cannot act for bob"
    assert err.template is None


def test_a_servers_failure_reads_its_message_in_the_readers_language_inside_the_cli_s_own():
    from cli.client import _error

    err = _error(_refusal(500, {"code": "x/y", "message": "alice's token cannot act for bob", "said": SAID}))
    assert err.message == "the referee server failed (500): alice's token cannot act for bob"
    with i18n.speaking("ru"):
        text = err.text(i18n.gettext)
    assert "токен alice не может действовать за bob" in text and "failed" not in text
    plain = _error(_refusal(403, {"code": "x/y", "message": "alice's token cannot act for bob"}))
    with i18n.speaking("ru"):
        assert plain.text(i18n.gettext) == "alice's token cannot act for bob"  # no said: as given


# -- the live table view and the player's page: a server's refusal said in the page's language -------------


def _pages(lang: str) -> dict[str, str]:
    from referee.playerpage import shell
    from referee.tournament.hall import table_page

    return {"table": table_page("t1", "m1", lang), "player": shell("t1", "alice", lang)}


def _words(page: str) -> dict[str, object]:
    found = re.search(r"WORDS = (\{.*?\});\n", page)
    assert found, "the page has no words table"
    return json.loads(found.group(1))


@pytest.mark.parametrize("which, line, russian", [
    ("table", "cannot show the match: {why}", "не удаётся показать партию: {why}"),
    ("player", "cannot show the player: {why}", "не удаётся показать игрока: {why}"),
])
def test_the_live_view_and_the_player_page_word_a_servers_refusal_in_the_pages_language(which, line, russian):
    ru, en = _pages("ru")[which], _pages("en")[which]
    for page in (ru, en):
        assert "async function errorSaid(" in page  # the page-words script is loaded
        assert "await errorSaid(await res.json())" in page  # and the refusal is said through it
        assert "(await res.json()).message" not in page  # never shown as the JSON words it
    assert _words(ru)[line] == russian and _words(en) == {}


@pytest.mark.slow
def test_the_live_view_and_the_player_page_scripts_parse_as_written():
    """Each page's script, as the server writes it, is valid JavaScript (node --check)."""
    import shutil
    import subprocess

    node = shutil.which("node")
    if node is None:
        pytest.skip("no node")
    for name, page in _pages("ru").items():
        script = page.split('<script>\n"use strict";\n', 1)[1].rsplit("</script>", 1)[0]
        done = subprocess.run([node, "--check", "-"], input='"use strict";\n' + script, capture_output=True,
                              text=True, timeout=60)
        assert done.returncode == 0, (name, done.stderr)


@needs_chromium
@pytest.mark.slow
def test_a_russian_player_page_says_a_bad_tokens_refusal_in_russian_in_chromium(browser):  # noqa: F811
    import httpx

    from referee.http import create_app
    from support.live import LiveServer
    from support.pile import PILE

    app = create_app(lambda: Referee(MemoryStore(), games=[PILE]), admin_token="adm")
    with LiveServer(app) as live:
        made = httpx.post(f"{live.url}/tournaments", json={"name": "Cup", "game": "pile", "players": ["ann", "ben"],
                                                           "options": {"stones": "2"}},
                          headers={"Authorization": "Bearer adm"}).json()
        browser.get("about:blank")
        browser.get(f"{live.url}/hall/{made['tournament']}/players/ann?lang=ru#token=guess")
        wait_until(browser, "return document.getElementById('status').textContent.includes(':')", 10)
        wait_until(browser, "return !document.getElementById('status').textContent.includes('this token')", 10)
        text = browser.execute_script("return document.getElementById('status').textContent")
    head, _, why = text.partition(": ")
    assert head == "не удаётся показать игрока" and _CYRILLIC.search(why) and "token" not in why, text
