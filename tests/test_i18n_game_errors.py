"""The games' own refusals and table titles in the reader's language (issue 29): for each of the five games
a refused option (or setup), a refused starting position and the titles of its presenter's tables read
Russian under ``REFEREE_LANG=ru`` (the offending value quoted as given), English as before without it, and
what programs read (the ``--json`` error, ``show --json``) is the same bytes in both."""

from __future__ import annotations

import os
import re

import pytest

from conftest import ROOT  # noqa: F401 - cli and english are conftest's fixtures

_CYRILLIC = re.compile("[а-яё]", re.IGNORECASE)

#: game, the arguments of ``new`` after the game, the English refusal, the Russian one (exact)
OPTIONS = [
    ("android", ["-p", "a,b,c", "--option", "token_vp=foo:1"],
     "option token_vp: foo is not a token (token_vp takes haas, jinteki and conspiracy, e.g. "
     "haas:1,jinteki:1,conspiracy:2)",
     "опция token_vp: foo — не жетон (token_vp принимает haas, jinteki и conspiracy, например "
     "haas:1,jinteki:1,conspiracy:2)"),
    ("android", ["-p", "a,b,c", "--option", "map=nowhere"],
     "map 'nowhere' is not in data set 'demo' (demo)",
     "карты 'nowhere' нет в наборе данных 'demo' (demo)"),
    ("by_all_means", ["-p", "a,b", "--deck", "zed=D1"],
     "deck given for 'zed', who is not a player (a, b)",
     "колода дана для 'zed', а это не игрок партии (a, b)"),
    ("copycat", ["-p", "a,b", "--deck", "a=Q"],
     "starter set of a: one of A, B, C, D, not 'Q'",
     "стартовый набор игрока a: один из A, B, C, D, а не 'Q'"),
    ("war_of_shadows", ["-p", "a,b", "--option", "empire_order=lion,bear"],
     "option empire_order must list the five empires once each, starting with bear; got 'lion,bear'",
     "опция empire_order должна перечислить все пять империй по одному разу, начиная с bear; дано 'lion,bear'"),
    ("xfiles_encounters", ["-p", "a,b", "--option", "seasons=1,2,4"],
     "option seasons: the standard method takes 1,2,3 or 4,5,6 or 7,8,9, not (1, 2, 4)",
     "опция seasons: стандартный способ берёт 1,2,3, или 4,5,6, или 7,8,9, а не (1, 2, 4)"),
    ("xfiles_encounters", ["-p", "a,b", "--option", "series_keep_scars=true"],
     "option series_keep_scars=true acts between the games of a series (R48): give series_game=1 (then referee "
     "new --continue-from), or leave it at false",
     "опция series_keep_scars=true действует между играми серии (R48): укажите series_game=1 (затем referee new "
     "--continue-from) или оставьте false"),
]

#: game, players, the position file's text, the English refusal, the Russian one (exact)
POSITIONS = [
    ("android", "a,b,c", 'first_player = "a"\n',
     "position path 'players.a.detective': no detective 'a' (a seat is named after its detective unless the "
     "position says otherwise)",
     "путь позиции 'players.a.detective': нет детектива 'a' (игрок носит имя своего детектива, если позиция не "
     "говорит иного)"),
    ("by_all_means", "a,b", '"players.a.trust" = -1\n',
     "position: players.a.trust must be 0 or more",
     "позиция: players.a.trust должно быть 0 или больше"),
    ("copycat", "a,b", 'current = "zed"\n',
     "current: 'zed' is not a seat",
     "current: 'zed' — не игрок партии"),
    ("war_of_shadows", "a,b", '"banners.cliffspire" = { zzz = 2 }\n',
     "banners.cliffspire.zzz: 'zzz' is not an empire",
     "banners.cliffspire.zzz: 'zzz' — не империя"),
    ("xfiles_encounters", "a,b", '"players.a.hand" = ["no-such-card"]\n',
     "unknown card 'no-such-card' in the position",
     "в позиции неизвестная карта 'no-such-card'"),
]


def _run(cli, monkeypatch, lang: str | None, *args: str):
    if lang is None:
        monkeypatch.delenv("REFEREE_LANG", raising=False)
    else:
        monkeypatch.setenv("REFEREE_LANG", lang)
    return cli(*args)


def _refused_alike(cli, monkeypatch, args: list[str], english: str, russian: str) -> None:
    """``args`` is refused with ``english`` in English, ``russian`` under ``REFEREE_LANG=ru``, nothing
    written, and its ``--json`` error (on stdout, the English message) the same bytes in both."""
    en = _run(cli, monkeypatch, None, *args)
    assert en.code == 2 and en.out == "", en.err
    assert en.err.strip() == f"error: {english}"
    ru = _run(cli, monkeypatch, "ru", *args)
    assert ru.code == 2 and ru.out == "", ru.err
    assert ru.err.strip() == f"ошибка: {russian}"
    assert _CYRILLIC.search(russian)
    en_json = _run(cli, monkeypatch, None, *args, "--json")
    ru_json = _run(cli, monkeypatch, "ru", *args, "--json")
    assert en_json.code == ru_json.code == 2
    assert ru_json.out == en_json.out  # the JSON a program reads; the line a person reads stays theirs
    assert en_json.json["message"] == english and ru_json.err == ru.err
    assert _run(cli, monkeypatch, None, "matches", "--json").json == []  # nothing was written


@pytest.mark.parametrize("game,args,said_en,said_ru", OPTIONS, ids=[f"{o[0]}-{o[1][-1]}" for o in OPTIONS])
def test_a_refused_option_reads_in_russian_and_its_json_is_english(cli, english, monkeypatch, game, args, said_en,
                                                                     said_ru):
    _refused_alike(cli, monkeypatch, ["new", game, *args], said_en, said_ru)


@pytest.mark.parametrize("game,players,position,said_en,said_ru", POSITIONS, ids=[p[0] for p in POSITIONS])
def test_a_refused_position_reads_in_russian_and_its_json_is_english(cli, english, monkeypatch, tmp_path, game,
                                                                       players, position, said_en, said_ru):
    path = tmp_path / "position.toml"
    path.write_text(position, encoding="utf-8")
    _refused_alike(cli, monkeypatch, ["new", game, "-p", players, "--seed", "3", "--position", str(path)],
                   said_en, said_ru)


def test_the_xfiles_series_refusal_reads_in_russian(english):
    from referee import i18n
    from referee.engine.protocol import ConfigError
    from referee.games.xfiles_encounters import series

    class Options:
        options = {"series_game": 0}

    with pytest.raises(ConfigError) as caught:
        series.carry_over(None, Options())  # type: ignore[arg-type]
    err = caught.value
    assert err.message == ("it is not a game of a series (series_game=0): create the first game with "
                           "--option series_game=1")
    assert err.template is not None
    with i18n.speaking("ru"):
        assert i18n.gettext(err.template[0], **err.template[1]) == (
            "это не игра серии (series_game=0): создайте первую игру с --option series_game=1")


#: game, the bundled replay, the entry to show at, its tables' titles in English and in Russian
TABLES = [
    ("android", "thursday-club.txt", 12,
     ["New Angeles, the Beanstalk and Heinlein (map demo)", "Suspects", "Conspiracy", "Players", "Turn and match"],
     ["Нью-Энджелес, Бобовый стебель и Хайнлайн (карта demo)", "Подозреваемые", "Заговор", "Игроки", "Ход и партия"]),
    ("by_all_means", "club-night.txt", 20, ["Field", "Turn"], ["Поле", "Ход"]),
    ("copycat", "thursday-club.txt", 12, ["Street", "Offices: blue", "Supply and office deck"],
     ["Улица", "Офисы: синие", "Запас и колода офисов"]),
    ("war_of_shadows", "ember-coast.txt", 12, ["Map", "Council", "Round"], ["Карта", "Совет", "Раунд"]),
    ("xfiles_encounters", "lone-agent.txt", 12,
     ["Shadows and Sector", "Bureau", "Conspiracy and stacks", "Evidence", "Agents"],
     ["Тени и Сектор", "Бюро", "Заговор и стопки", "Улики", "Агенты"]),
]


@pytest.mark.parametrize("game,replay,at,titles,russian", TABLES, ids=[t[0] for t in TABLES])
def test_the_tables_titles_read_in_russian_and_show_json_is_english(cli, english, monkeypatch, game, replay, at,
                                                                     titles, russian):
    match = _run(cli, monkeypatch, None, "import", os.path.join(ROOT, "replays", game, replay)).last_line
    en = _run(cli, monkeypatch, None, "show", match, "--at", str(at))
    ru = _run(cli, monkeypatch, "ru", "show", match, "--at", str(at))
    assert en.code == ru.code == 0
    en_lines, ru_lines = [x.strip() for x in en.out.splitlines()], [x.strip() for x in ru.out.splitlines()]
    for title, said in zip(titles, russian):
        assert title in en_lines and said not in en_lines, title
        assert said in ru_lines and title not in ru_lines, said
    en_json = _run(cli, monkeypatch, None, "show", match, "--at", str(at), "--json")
    ru_json = _run(cli, monkeypatch, "ru", "show", match, "--at", str(at), "--json")
    assert ru_json.out == en_json.out
    drawn = [*en_json.json["boards"], *en_json.json["sections"]]
    assert set(titles) <= {b["title"] for b in drawn}


def test_the_http_state_answer_titles_its_tables_in_english_whatever_the_servers_language(db_store, english):
    """A server started with ``REFEREE_LANG=ru`` draws its pages in Russian, but the state it answers in JSON
    titles the boards in English, the same bytes as an English server's."""
    from referee import i18n
    from referee.games.copycat import GAME as COPYCAT
    from referee.service import Referee
    from support.apps import app_client

    def titles(lang: str) -> list[str]:
        i18n.use(lang)
        with app_client(lambda: Referee(db_store, games=[COPYCAT])) as c:
            made = c.post("/matches", json={"game": "copycat", "players": ["alice", "bob"], "seed": 3})
            assert made.status_code == 201, made.text
            mid, token = made.json()["match"]["id"], made.json()["tokens"]["arbiter"]
            state = c.get(f"/matches/{mid}/state", headers={"Authorization": f"Bearer {token}"})
            assert state.status_code == 200, state.text
            assert not _CYRILLIC.search(state.text)
            return [b["title"] for b in state.json()["boards"]]

    assert titles("ru") == titles("en")
    assert {"Street", "Supply and office deck"} <= set(titles("en"))
