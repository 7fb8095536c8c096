"""Each game's refusals in the reader's language (issue 29): every game that declares its refusal
templates has each of them in the catalog, and every refusal its scenario files and bundled replays
record is read through one of its code's templates, so a Russian reader gets it in Russian. War of
Shadows' Ember Coast demo imports with every rejection in Russian and the same JSON either way.

The games' own texts too: ``referee games GAME`` shows the game's summary, each intent's description and
each option's help through the catalog, Russian under ``REFEREE_LANG=ru``, the games' English as before
under ``--lang en``; ``games --json`` is the same in every language; every such text of every game is in
the catalog; a seat's page shows its moves' descriptions in the page's language."""

from __future__ import annotations

import glob
import json
import os
import re

import pytest

from conftest import ROOT  # noqa: F401 - cli is conftest's fixture
from referee import i18n
from referee.engine.messages import NO_MESSAGES
from referee.games import get_game, ids
from support.browser import browser, needs_chromium, wait_until  # noqa: F401  (browser: the shared Chromium)

PO = os.path.join(ROOT, "referee", "locale", "ru", "LC_MESSAGES", "referee.po")
#: the games whose refusals read in Russian: all five
SPOKEN = ("by_all_means", "war_of_shadows", "copycat", "android", "xfiles_encounters")
#: framework refusals (a match that is over, a turn that is not the seat's): the engine's words, not the game's
FRAMEWORK = ("match/",)


def _recorded_refusals(game: str, monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, str]]:
    """(code, message) of every refusal the game's scenario files record."""
    from referee.scenario import run_file
    from referee.service import Referee

    seen: list[tuple[str, str]] = []
    submit = Referee.submit

    def recording(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        result = submit(self, *args, **kwargs)
        verdict = getattr(result, "verdict", None)
        if getattr(verdict, "code", None) and getattr(verdict, "message", None):
            seen.append((str(verdict.code), str(verdict.message)))
        return result

    monkeypatch.setattr(Referee, "submit", recording)
    for path in sorted(glob.glob(os.path.join(ROOT, "tests", "scenarios", game, "*.toml"))):
        run_file(path)
    return seen


@pytest.mark.parametrize("game", SPOKEN)
def test_every_template_of_the_game_is_in_the_catalog_and_translated(game):
    from babel.messages.pofile import read_po

    messages = get_game(game).messages
    assert messages is not NO_MESSAGES and messages.templates()
    with open(PO, "rb") as fh:
        translated = {m.id: m.string for m in read_po(fh, locale="ru") if m.id}
    assert [t for t in messages.templates() if not translated.get(t)] == []


@pytest.mark.parametrize("game", SPOKEN)
def test_every_refusal_of_the_games_scenarios_reads_in_russian(game, english, monkeypatch):
    refusals = [(c, m) for c, m in _recorded_refusals(game, monkeypatch) if not c.startswith(FRAMEWORK)]
    assert len(refusals) >= 30  # the scenario files refuse many intents: a broken recorder would find none
    messages = get_game(game).messages
    i18n.use("ru")
    unread = [(c, m) for c, m in refusals if i18n.refusal(messages, c, m) == m]
    assert unread == []
    # the Russian reading names the same ids the recorded message does (seat, card, region ...)
    for code, message in refusals[:200]:
        russian = i18n.refusal(messages, code, message)
        for ident in re.findall(r"\b[a-z]+_c\d\b|\b[a-z]+\.[a-z]+\b", message):
            assert ident in russian, (message, russian)


def test_ember_coast_reads_in_russian_with_the_same_json(cli, english, monkeypatch, tmp_path):
    demo = os.path.join(ROOT, "replays", "war_of_shadows", "ember-coast.txt")
    monkeypatch.setenv("COLUMNS", "400")
    out = {}
    for lang in ("en", "ru"):
        db = str(tmp_path / f"{lang}.db")
        r = cli("--db", db, "--lang", lang, "import", demo)
        assert r.code == 0, r.err
        out[lang] = r.out
        j = cli("--db", str(tmp_path / f"{lang}-json.db"), "--lang", lang, "import", demo, "--json")
        assert j.code == 0, j.err
        out[lang + ".json"] = j.out
    assert "sea_border: saltmarsh and frostmere face each other across water" in out["en"]
    assert "sea_border: saltmarsh и frostmere разделены водой: через море не атакуют" in out["ru"]
    assert "wrong_discard_count: у игрока vera карт: 7, сбросить нужно 2, а не 1" in out["ru"]
    assert "подготовка не закончена (без общества: vera; не разложены жетоны лояльности: anna, boris, vera)" in out["ru"]
    rejected = [line for line in out["ru"].splitlines() if re.search(r"\(запись \d+\) [a-z_]+/", line)]
    assert len(rejected) == 6
    for line in rejected:  # the message itself: Cyrillic, not the recorded English
        message = line.split(": ", 1)[1]
        assert re.search(r"[а-яё]", message), line
        assert not re.search(r"\b(?:the|is|not|has|holds|already)\b", message), line

    en, ru = json.loads(out["en.json"]), json.loads(out["ru.json"])
    assert ru["match_id"] != en["match_id"] and en["rejected"] == 6
    # byte for byte once the match id (new in each database) is the same
    assert out["ru.json"].strip() == json.dumps(dict(en, match_id=ru["match_id"]), indent=2, ensure_ascii=False)


# -- the games' own texts: intents' descriptions, options' help ----------------------------------------

#: every registered game, for its intents' descriptions and options' help
GAMES = ids()
_CYRILLIC = re.compile("[а-яё]", re.I)
#: a text of words, not a bare code (``B03``: an option whose help is the spec's ambiguity number alone)
_WORDS = re.compile(r"[A-Za-z]{2,}")


def _described(cli, game: str, *lang: str) -> dict:
    r = cli(*lang, "games", game, "--json")
    assert r.code == 0, r.err
    return json.loads(r.out)


def _rows(out: str) -> dict[str, list[str]]:
    """Each table row of the output by its first cell: its cells, stripped (the output is not a terminal,
    so no row is wrapped)."""
    rows = {}
    for line in out.splitlines():
        if line.startswith("│"):
            cells = [c.strip() for c in line.strip("│").split("│")]
            rows[cells[0]] = cells
    return rows


def _shown(cli, game: str, *lang: str) -> tuple[dict, dict[str, list[str]]]:
    """The game as ``games --json`` describes it (English), and the rows ``games GAME`` shows; the first
    line's summary as the row ``""``."""
    info = _described(cli, game, "--lang", "en")
    r = cli(*lang, "games", game)
    assert r.code == 0, r.err
    return info, {**_rows(r.out), "": [r.out.splitlines()[0].split(" — ", 1)[1]]}


@pytest.mark.parametrize("game", GAMES)
def test_russian_shows_every_intent_description_and_option_help_in_russian(cli, english, monkeypatch, game):
    monkeypatch.setenv("REFEREE_LANG", "ru")
    info, rows = _shown(cli, game)
    assert info["intents"] and info["options"]
    assert _CYRILLIC.search(rows[""][0]) and rows[""][0] != info["summary"]
    for verb in info["intents"]:
        shown = rows[verb["usage"]][-1]
        assert _CYRILLIC.search(shown) and shown != verb["doc"], (verb["verb"], shown)
    for option in info["options"]:
        shown = rows[option["name"]][-1]
        if _WORDS.search(option["help"]):
            assert _CYRILLIC.search(shown) and shown != option["help"], (option["name"], shown)
        else:
            assert shown == option["help"], option["name"]


@pytest.mark.parametrize("game", GAMES)
def test_english_shows_the_games_own_texts_as_before(cli, english, game):
    info, rows = _shown(cli, game, "--lang", "en")
    assert rows[""] == [info["summary"]]
    for verb in info["intents"]:
        assert rows[verb["usage"]][-1] == verb["doc"]
    for option in info["options"]:
        assert rows[option["name"]][-1] == option["help"]
    assert cli("--lang", "en", "games", game).out == cli("games", game).out  # no language asked for: English


@pytest.mark.parametrize("game", GAMES)
def test_games_json_is_the_same_in_every_language(cli, english, monkeypatch, game):
    en = cli("games", game, "--json").out
    monkeypatch.setenv("REFEREE_LANG", "ru")
    assert cli("games", game, "--json").out == en
    assert _CYRILLIC.search(cli("games", game).out)


def test_every_games_text_is_in_the_catalog():
    """An option added without its help marked, or an intent added to a game, is an entry the catalog lacks:
    update the catalog (``python -m referee.i18n update``) and translate it."""
    from referee.engine import notation

    catalog = {m.id for m in i18n.extracted() if isinstance(m.id, str)}
    missing = []
    for game_id in GAMES:
        game = get_game(game_id)
        missing += [(game_id, v.verb) for v in notation.describe(game.intent_type).values() if v.doc not in catalog]
        missing += [(game_id, o.name) for o in game.options().values() if _WORDS.search(o.help) and o.help not in catalog]
        missing += [(game_id, "summary")] if game.summary not in catalog else []
    assert missing == []


def test_the_seat_page_carries_each_games_move_descriptions_in_its_language():
    """The seat's answer carries a move's description in English (its JSON is the same in every language): the
    page's shell gives the page each game's descriptions in the page's language, none in English."""
    from referee.engine import notation
    from referee.seatpage import move_words, shell

    russian = move_words("ru")
    for game_id in GAMES:
        verbs = notation.describe(get_game(game_id).intent_type)
        assert sorted(russian[game_id]) == sorted(v for v, info in verbs.items() if info.doc)
        assert all(_CYRILLIC.search(text) for text in russian[game_id].values()), game_id
    assert move_words("en") == {} and "const MOVES = {};\n" in shell("en")
    assert "const MOVES = " + json.dumps(russian, ensure_ascii=False, sort_keys=True)[:40] in shell("ru")


@needs_chromium
@pytest.mark.slow
def test_a_seat_page_in_russian_says_what_each_move_does_in_russian(browser):  # noqa: F811
    from referee.engine import notation
    from referee.service import Referee
    from referee.store.memory import MemoryStore
    from support.apps import app_client
    from support.live import LiveServer

    english = {info.doc for info in notation.describe(get_game("by_all_means").intent_type).values()}
    with i18n.speaking("ru"):
        russian = {i18n.gettext(doc) for doc in english}
    store = MemoryStore()
    with app_client(lambda: Referee(store)) as client, LiveServer(client.app) as server:
        made = client.post("/matches", json={"game": "by_all_means", "players": ["alice", "bob"], "seed": 7}).json()
        mid, token = made["match"]["id"], made["tokens"]["seats"]["alice"]
        shown = {}
        for lang in ("ru", "en"):
            browser.get(f"{server.url}/play/{mid}?lang={lang}#token={token}")
            shown[lang] = wait_until(browser, f"return document.documentElement.lang === '{lang}' && "
                                              "[...document.querySelectorAll('#moves .doc')].map(p => p.textContent);")
    assert shown["ru"] and set(shown["ru"]) <= russian, shown["ru"]
    assert shown["en"] and set(shown["en"]) <= english, shown["en"]
