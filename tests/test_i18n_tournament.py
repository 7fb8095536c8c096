"""The tournament's refusals in the reader's language (issue 29, item 5): said through the catalog, Russian
under ``REFEREE_LANG=ru``, the English message and ``--json`` as before; every template said names only
fields its call gives (a field missing would be an internal error instead of the refusal)."""

from __future__ import annotations

import glob
import json
import os

import pytest

from conftest import ROOT
from referee import i18n
from support.said import said_calls, unfilled


@pytest.fixture
def russian(monkeypatch):
    monkeypatch.setenv("REFEREE_LANG", "ru")
    yield
    i18n.use("en")


def test_every_template_the_tournament_says_is_given_its_fields():
    paths = sorted(os.path.relpath(p, ROOT) for p in glob.glob(os.path.join(ROOT, "referee", "tournament", "*.py")))
    calls = list(said_calls(paths))
    assert len(calls) > 100
    assert unfilled(calls) == []


def _tournament(cli) -> str:
    r = cli("tournament", "new", "Cup", "--game", "by_all_means")
    assert r.code == 0, r.err
    tid = r.out.strip().splitlines()[-1]
    for p in ("alice", "bob"):
        assert cli("tournament", "player", "add", tid, p).code == 0
    return tid


REFUSALS = [  # (arguments after the tournament's id, what English says, what Russian says)
    (("tournament", "result", "{t}", "9", "1", "draw"), "round 9 has not been paired (no round has been yet)",
     "жеребьёвки 9-го тура не было"),
    (("tournament", "clock", "{t}", "stop"), "no round is paired yet: there is no clock to stop",
     "часов нет, останавливать нечего"),
    (("tournament", "tokens", "{t}", "--rotate", "player:zed"),
     "--rotate player:zed: 'zed' is not a player of tournament", "не играет в турнире"),
    (("tournament", "pair", "{t}", "--manual", "alice-bob-carol"), "table 'alice-bob-carol' seats 3: a table here "
     "seats 2 players", "за столом 'alice-bob-carol' игроков: 3"),
]


@pytest.mark.parametrize("args,english_text,russian_text", REFUSALS, ids=[a[1] for a, _, _ in REFUSALS])
def test_a_tournament_refusal_reads_in_russian_and_as_before_in_english(cli, english, monkeypatch, args,
                                                                       english_text, russian_text):
    tid = _tournament(cli)
    argv = [a.format(t=tid) for a in args]
    en = cli(*argv)
    assert en.code in (2, 3) and english_text in en.err
    monkeypatch.setenv("REFEREE_LANG", "ru")
    ru = cli(*argv)
    assert ru.code == en.code and russian_text in ru.err and "ошибка" in ru.err and english_text not in ru.err


def test_the_message_http_and_json_carry_is_english_whatever_the_language(tmp_path, english):
    from referee.errors import NotFound
    from referee.service import Referee
    from referee.store.sqlite import SqliteStore
    from referee.tournament.service import Tournaments

    service = Tournaments(Referee(SqliteStore(str(tmp_path / "r.db"))))
    tid = service.create("Cup", game="by_all_means", players=["alice", "bob"]).id
    i18n.use("ru")
    with pytest.raises(NotFound) as caught:
        service.record_result(tid, 9, 1, "draw")
    assert caught.value.message == "round 9 has not been paired (no round has been yet)"
    assert caught.value.text(i18n.gettext) == "жеребьёвки 9-го тура не было (не было ещё ни одной жеребьёвки)"


def test_records_that_do_not_fold_are_refused_whole_in_the_readers_language(english):
    from referee.tournament.fold import CorruptTournament, fold
    from referee.tournament.said import corrupt

    with pytest.raises(CorruptTournament) as caught:
        fold([])
    assert str(caught.value) == "a tournament has at least its 'created' record"
    i18n.use("ru")
    err = corrupt(caught.value)
    assert err.message == "the tournament's records do not fold: a tournament has at least its 'created' record"
    assert err.text(i18n.gettext) == "записи турнира не сводятся: у турнира должна быть хотя бы запись 'created'"


def test_why_a_table_blocks_the_next_round_reads_russian_inside_the_refusal(cli, english, monkeypatch):
    tid = _tournament(cli)
    assert cli("tournament", "pair", tid).code == 0  # round 1: one table, its match not played
    en = cli("tournament", "pair", tid)
    assert en.code != 0 and "blocks the next round: the match is not finished" in en.err
    en_json = cli("tournament", "pair", tid, "--json")
    monkeypatch.setenv("REFEREE_LANG", "ru")
    ru = cli("tournament", "pair", tid)
    assert ru.code == en.code and "партия не окончена" in ru.err and "not finished" not in ru.err
    assert cli("tournament", "pair", tid, "--json").out == en_json.out


def test_show_lists_a_round_its_byes_absences_and_blocking_table_in_russian_and_as_before_in_english(
        cli, english, monkeypatch):
    r = cli("tournament", "new", "Cup", "--game", "by_all_means")
    tid = r.out.strip().splitlines()[-1]
    for p in ("alice", "bob", "carol", "dave", "eve", "fay"):
        assert cli("tournament", "player", "add", tid, p).code == 0
    paired = cli("tournament", "pair", tid, "--manual", "alice-bob,carol-dave,eve-bye,fay-absent")
    assert paired.code == 0 and paired.out.startswith("round 1; undo policy of the matches: ") and "\nbye: eve\n" in paired.out
    assert cli("tournament", "result", tid, "1", "1", "win:alice").code == 0
    en = cli("tournament", "show", tid)
    assert en.code == 0
    lines = en.out.splitlines()
    first, match = lines[-5].rsplit(" ", 1)[1], lines[-4].rsplit(" ", 1)[1]  # the tables' match ids
    assert lines[-7:] == [  # English as it always read
        "players: alice, bob, carol, dave, eve, fay", "round 1 (being played)",
        f"  table 1: alice v bob  alice won (arbiter)  match {first}",
        f"  table 2: carol v dave  no result yet  match {match}", "  bye: eve", "  absent: fay",
        f"blocks the next round: table 2 (match {match}): the match is not finished"]
    en_json = cli("tournament", "show", tid, "--json")
    monkeypatch.setenv("REFEREE_LANG", "ru")
    ru = cli("tournament", "show", tid)
    assert ru.code == 0
    assert "тур 1 (идёт)" in ru.out and "  пропуск: eve\n  отсутствует: fay\n" in ru.out
    assert f"  стол 2: carol v dave  результата ещё нет  партия {match}\n" in ru.out
    assert f"не даёт начать следующий тур: стол 2 (партия {match}): партия не окончена\n" in ru.out
    assert not any(w in ru.out for w in ("bye", "absent", "blocks", "round", "table", "no result", "tie-breaks"))
    assert cli("tournament", "show", tid, "--json").out == en_json.out
