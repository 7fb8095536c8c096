"""Errors said below the front ends, in the reader's language (issue 29, item 5): the store marks its
messages (its own ``N_``, it reads no catalog) and keeps the template, as a game's ``ConfigError.said``
does; the service's and the CLI's errors that wrap one (``raise StorageError(code, str(exc)) from None``)
read it through the catalog, English as before. Also amend's, an import's and a refused text's."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from conftest import ROOT
from referee import i18n
from referee.errors import StorageError
from referee.store import BadSetting, StoreError, open_store
from referee.store.sqlite import durability_level


def _wrapped(exc: StoreError) -> StorageError:
    try:
        try:
            raise exc
        except StoreError as inner:
            raise StorageError("store/failed", str(inner)) from None
    except StorageError as outer:
        return outer


def test_a_store_error_keeps_its_english_and_reads_russian_through_the_error_that_wraps_it(tmp_path):
    missing = str(tmp_path / "none.db")
    with pytest.raises(StoreError) as caught:
        open_store(missing, create=False)
    assert str(caught.value) == f"no database at {missing}; create a match first (referee new ...) or pass --db"
    err = _wrapped(caught.value)
    assert err.message == str(caught.value)
    with i18n.speaking("ru"):
        assert err.text(i18n.gettext) == f"по пути {missing} базы нет; сначала создайте партию (referee new ...) или укажите --db"
    with i18n.speaking("en"):
        assert err.text(i18n.gettext) == err.message


def test_an_error_wrapping_another_message_is_not_read_as_the_store_said_it():
    err = _wrapped(StoreError.said("no match {match}", match="m1"))
    other = StorageError("store/failed", "something else")
    other.__context__ = err.__context__
    with i18n.speaking("ru"):
        assert err.text(i18n.gettext) == "партии m1 нет"
        assert other.text(i18n.gettext) == "something else"


def test_a_bad_durability_is_refused_in_the_readers_language(monkeypatch):
    with pytest.raises(BadSetting) as caught:
        durability_level("fast")
    assert caught.value.message.startswith("the durability must be full or normal, not 'fast' (full: ")
    monkeypatch.setenv("REFEREE_DURABILITY", "x")
    with pytest.raises(BadSetting) as env:
        durability_level()
    assert env.value.message.startswith("REFEREE_DURABILITY must be full or normal, not 'x' (full: ")
    env_ = dict(os.environ, REFEREE_LANG="ru", PYTHONPATH=ROOT)
    env_.pop("REFEREE_DURABILITY", None)
    done = subprocess.run([sys.executable, "-m", "cli.main", "--db", os.devnull + "-none.db", "--durability", "fast",
                           "matches"], capture_output=True, text=True, env=env_, cwd=ROOT)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith("ошибка: надёжность записи должна быть full или normal, а не 'fast' (full: ")


def _ru(args: list[str], tmp_path) -> tuple[int, str, str]:
    env = dict(os.environ, REFEREE_LANG="ru", PYTHONPATH=ROOT)
    env.pop("REFEREE_DURABILITY", None)
    done = subprocess.run([sys.executable, "-m", "cli.main", "--db", str(tmp_path / "m.db"), *args],
                          capture_output=True, text=True, env=env, cwd=ROOT)
    return done.returncode, done.stdout, done.stderr


def test_a_refused_text_and_an_amend_reason_read_in_russian_and_keep_their_english():
    from referee.amend import check_reason
    from referee.errors import BadInput
    from referee.inputs import check_text

    with pytest.raises(BadInput) as empty:
        check_text(" ", "the reason", 10, required=True)
    with pytest.raises(BadInput) as seated:
        check_reason("bob: x", ("bob",))
    assert empty.value.message == "the reason is empty"
    assert seated.value.message.startswith("the reason 'bob: x' reads as a transcript line (bob: …); say why")
    with i18n.speaking("ru"):
        assert empty.value.text(i18n.gettext) == "the reason: пусто"
        assert seated.value.text(i18n.gettext).startswith("причина 'bob: x' читается как строка протокола (bob: …)")


def test_an_imported_header_and_a_games_deck_are_refused_in_russian(tmp_path):
    sheet = tmp_path / "sheet.txt"
    sheet.write_text("game: by_all_means\nplayrs: alice, bob\n", encoding="utf-8")
    code, out, err = _ru(["import", str(sheet)], tmp_path)
    assert code == 2 and out == ""
    assert err == f"ошибка: {sheet}:2: 'playrs' — не поле заголовка (может быть, 'players'?): поля заголовка — " \
                  "game, players, cards, deck, decks, option, options, seed, chance, result, undo, title, event, " \
                  "date, round, table; ничего не записано\n"
    code, out, err = _ru(["new", "by_all_means", "--players", "alice,bob", "--deck", "alice=zzz"], tmp_path)
    assert code == 2 and err.endswith("ошибка: alice: в наборе карт spec нет колоды 'zzz' (колоды: spec_deck)\n")
