"""The CLI's help in the reader's language (issue 29): every command's help and example, every option's
and argument's help, typer's panel titles and the usage line read in Russian under ``--lang ru`` or
``$REFEREE_LANG=ru``, chosen before the help is rendered (the group's ``--help`` is answered before its
options' callback runs); English is as before and opens no catalog."""

from __future__ import annotations

import os
import re

import pytest
import typer.main

from conftest import ROOT
from referee import i18n

_CYRILLIC = re.compile("[а-яё]", re.I)


def _commands():
    """Every command of the app (the groups' too), with its path, as typer builds them."""
    from cli import main

    def walk(command, path):
        yield path, command
        for name, sub in sorted(getattr(command, "commands", {}).items()):
            yield from walk(sub, (*path, name))

    return list(walk(typer.main.get_command(main.app), ()))


def test_every_help_text_of_every_command_and_option_has_its_russian(english):
    i18n.use("ru")
    missing = []
    commands = _commands()
    assert len(commands) > 50
    for path, command in commands:
        texts = [("help", command.help)] + [(p.name, p.help) for p in command.params if getattr(p, "help", None)]
        texts += [(f"{p.name} default", p.show_default) for p in command.params
                  if isinstance(getattr(p, "show_default", None), str)]
        for what, text in texts:
            if text and not _CYRILLIC.search(i18n.cleaned(text)):
                missing.append((" ".join(path), what, text[:60]))
    assert missing == []


def test_the_help_of_a_command_reads_in_russian(cli, english, monkeypatch):
    monkeypatch.setenv("REFEREE_LANG", "ru")
    r = cli("play", "--help")
    assert r.code == 0
    assert "Вызов: " in r.out and "Usage" not in r.out
    assert "Подать один ход; печатается решение." in r.out
    assert "Пример: referee play 3f9c alice draw_main card=TR6" in r.out
    for words in ("Аргументы", "Параметры", "Игрок, который подаёт ход.", "[обязательно]",
                  "Показать эту справку и выйти.", "Вывести JSON для программ вместо таблиц."):
        assert words in r.out, words
    assert not re.search(r"\b(the|of|and|Show|Example|Arguments|Options)\b", r.out), r.out


def test_the_top_help_lists_the_commands_in_russian_with_lang_before_it(cli, english):
    r = cli("--lang", "ru", "--help")  # --help is answered before the callback that reads --lang
    assert r.code == 0
    assert "Судейство настольных игр" in r.out and "Команды" in r.out
    assert "Создать партию; её id печатается отдельно в последней строке." in r.out
    assert "Турниры: участники, пары" in r.out
    assert "--lang" in r.out and "Язык, на котором читают люди" in r.out
    r = cli("--lang", "ru", "tournament", "--help")
    assert "Создать турнир; его id печатается отдельно в последней строке." in r.out


def test_a_default_shown_in_words_reads_in_russian(cli, english):
    r = cli("--lang", "ru", "audit", "--help")
    assert "[по умолчанию: (число доступных ядер, не больше 8)]" in r.out


def test_english_help_is_as_before_and_opens_no_catalog(cli, english):
    i18n._catalogs.clear()
    r = cli("play", "--help")
    assert "Usage: " in r.out and "Submit one intent; prints the verdict." in r.out
    assert "Show this message and exit." in r.out and "Arguments" in r.out
    assert i18n._catalogs == {}
    r = cli("--lang", "ru", "play", "--help")
    r = cli("--lang", "en", "play", "--help")  # a Russian help before it leaves nothing behind
    assert "Usage: " in r.out and "Arguments" in r.out and "Аргументы" not in r.out


def test_an_unknown_language_before_a_help_is_refused(cli, english):
    r = cli("--lang", "xx", "--help")
    assert r.code == 2
    assert r.err == "error: --lang 'xx' is not a language the referee speaks: expected one of en, ru\n"
    assert r.out == ""


def test_a_cli_error_reads_in_russian_with_its_code_and_english_json(cli, english):
    r = cli("--lang", "ru", "annotate", "abcd", "1", "note", "--kind", "zz")
    assert (r.code, r.out) == (2, "")
    assert r.err == ("ошибка: --kind должен быть одним из: comment, disputed, ruling, good, mistake, "
                     "а не 'zz'\n")
    en = cli("annotate", "abcd", "1", "note", "--kind", "zz", "--json")
    ru = cli("--lang", "ru", "annotate", "abcd", "1", "note", "--kind", "zz", "--json")
    assert en.code == ru.code == 2
    assert ru.out == en.out and '"input/invalid"' in en.out and "--kind must be one of" in en.out
    assert en.err == "error: --kind must be one of comment, disputed, ruling, good, mistake, not 'zz'\n"


def test_an_error_said_through_the_catalog_keeps_english_for_machines(english):
    from referee.errors import BadInput

    err = BadInput.said("cli/x", "--jobs must be 1 or more (0 = the cores available), not {jobs}", jobs=-2)
    assert err.message == "--jobs must be 1 or more (0 = the cores available), not -2" == err.text(i18n.gettext)
    i18n.use("ru")
    assert err.text(i18n.gettext) == "--jobs должен быть 1 или больше (0 — число доступных ядер), а не -2"
    assert err.message == "--jobs must be 1 or more (0 = the cores available), not -2"
    assert BadInput("cli/x", "as recorded").text(i18n.gettext) == "as recorded"  # not said through the catalog: as it is


def test_the_commands_output_reads_in_russian(cli, english, monkeypatch):
    monkeypatch.setenv("REFEREE_LANG", "ru")
    r = cli("new", "by_all_means", "--players", "alice,bob", "--seed", "7")
    assert r.code == 0, r.err
    match = r.out.strip().splitlines()[-1]
    assert r.out.startswith("Новая партия by_all_means для игроков alice, bob (правила ")
    r = cli("games")
    assert "Игры" in r.out and "наборы карт" in r.out and "Нотация одной игры: referee games GAME" in r.out
    r = cli("legal", match, "alice")
    assert r.out.startswith("После записи 0:") and re.search(r"alice: \d+ ход(а|ов)?\b", r.out), r.out
    r = cli("show", match)
    assert f"партия {match} после записи 0 (глазами referee)" in r.out and "хеш позиции" in r.out
    demo = cli("import", os.path.join(ROOT, "replays", "by_all_means", "club-night.txt")).out.strip().splitlines()[-1]
    r = cli("annotate", demo, "5", "hello")
    assert r.out == "К записи 5 добавлено примечание (comment).\n", r.err
    r = cli("audit", demo)
    assert f"✓ {demo}: 86 записей, 13 примечаний; конфигурация, каждое решение, хеш и позиция сходятся" in r.out, r.out
    assert "голова: запись 86, " in r.out
    r = cli("--lang", "en", "annotate", demo, "6", "again")
    assert r.out == "Annotated entry 6 (comment).\n"


def test_a_service_error_reads_in_russian_and_its_json_is_the_english(cli, english):
    assert cli("new", "by_all_means", "--players", "alice,bob").code == 0
    r = cli("--lang", "ru", "show", "zzzz")
    assert (r.code, r.err) == (3, "ошибка: в этой базе нет партии 'zzzz'; список партий — `referee matches`\n")
    assert cli("show", "zzzz").err == "error: no match 'zzzz' in this database; `referee matches` lists them\n"
    assert cli("--lang", "ru", "show", "zzzz", "--json").out == cli("show", "zzzz", "--json").out
    r = cli("--lang", "ru", "new", "by_all_means", "--players", "alice")
    assert r.err == "ошибка: By All Means — игра для 2 игроков, а названо 1: alice\n"
