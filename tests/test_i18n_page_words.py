"""The words that arrive in the API's JSON, read in the reader's language (issue 29): click's own usage
errors under ``REFEREE_LANG=ru`` (a missing argument, an unknown option or command, a value of the wrong
type) read Russian with exit code 2, and as click writes them in English."""

from __future__ import annotations

import re

import pytest

_CYRILLIC = re.compile("[а-яё]", re.I)


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
