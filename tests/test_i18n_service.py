"""The service's refusals in the reader's language (issue 29, item 5): the match service's (referee/service.py and
the modules split from it), the HTTP access layer's, and continuation's, history's, entry references', revision's,
rulings' and diff's are said through the catalog: Russian under ``REFEREE_LANG=ru``, the English message (what
``--json`` and HTTP carry) byte-identical whatever the language; and every template said is given its fields."""

from __future__ import annotations

import re

import pytest

from referee import i18n
from support.said import said_calls, unfilled

#: the modules whose refusals this covers (issue 29's list for the service layer)
MODULES = ("referee/service.py", "referee/appending.py", "referee/moves.py", "referee/acts.py", "referee/access.py",
           "referee/gate.py", "referee/safewrites.py", "referee/continuation.py", "referee/history.py",
           "referee/entryref.py", "referee/revision.py", "referee/rulings.py", "referee/changes.py")
CYRILLIC = re.compile("[А-Яа-яЁё]")


def test_every_template_the_service_says_is_given_its_fields():
    calls = list(said_calls(MODULES))
    assert {path for path, *_ in calls} == set(MODULES)  # each module says some
    assert len(calls) >= 70
    assert unfilled(calls) == []


def test_the_field_check_finds_a_template_missing_its_field():
    calls = [("x.py", 1, "entry {entry} of match {match}", {"entry"}), ("x.py", 2, "{seat!r} waits", {"seat"})]
    assert unfilled(calls) == [("x.py", 1, "entry {entry} of match {match}")]


@pytest.fixture
def matches(cli, english):
    """(a match just created, no move played; one with alice's first move accepted as entry 1)."""
    def new() -> str:
        r = cli("new", "by_all_means", "--players", "alice,bob", "--seed", "1")
        assert r.code == 0, r.err
        return r.last_line

    fresh, played = new(), new()
    assert cli("play", played, "alice", "draw_opening_hand").code == 0
    return fresh, played


REFUSALS = [  # (arguments, exit code, English, Russian; {fresh} and {played} the two matches)
    (("undo", "{fresh}", "--by", "alice"), 2, "match {fresh} has no accepted or held move to undo",
     "в партии {fresh} нет принятого или отложенного хода, который можно отменить"),
    (("redo", "{fresh}", "--by", "bob"), 2, "match {fresh} has no undo in effect to redo",
     "в партии {fresh} нет действующей отмены, которую можно вернуть"),
    (("play", "{fresh}", "alic", "draw_opening_hand"), 2,
     "'alic' is not a seat of this match (did you mean alice?); seats: alice, bob",
     "'alic' не участвует в этой партии (возможно, имелось в виду alice?); места: alice, bob"),
    (("undo", "{fresh}", "--by", "zed"), 2, "'zed' is not a seat of this match; seats: alice, bob (or arbiter)",
     "'zed' не участвует в этой партии; места: alice, bob (или arbiter)"),
    (("rule", "{played}", "1"), 2, "entry 1 is not a rejected intent; only a rejection can be ruled to stand",
     "запись 1 — не отклонённый ход; засчитать решением арбитра можно только отклонённый"),
    (("rule", "{played}", "7"), 2, "entry 7 does not exist: match {played} has entries 1..1",
     "записи 7 нет: в партии {played} записи 1..1"),
    (("confirm", "{played}", "1", "--by", "bob"), 2,
     "entry 1 does not wait for a confirmation (nothing waits for a confirmation)",
     "запись 1 не ждёт подтверждения (подтверждения ничто не ждёт)"),
    (("play", "{played}", "bob", "draw_opening_hand", "--expect-seq", "5"), 4,
     "match {played} is at entry 1, not 5; reload and submit again",
     "партия {played} на записи 1, а не 5; обновите и отправьте ход снова"),
    (("new", "by_all_means", "--continue-from", "{played}"), 2,
     "match {played} is not over: only a finished match is continued",
     "партия {played} не окончена: продолжить можно только оконченную партию"),
    (("fork", "{fresh}", "--at", "3"), 2, "--at 3 is not an entry of match {fresh} (0..0)",
     "--at 3 — не запись партии {fresh} (0..0)"),
    (("undo", "{played}", "--by", "alice", "--to", "line:x"), 2,
     "--to: 'line:x' is not a transcript line: write line:N with N the line's number in the file (e.g. line:23)",
     "--to: 'line:x' — не строка протокола: напишите line:N, где N — номер строки в файле (например, line:23)"),
    (("replay", "{played}", "--from", "3", "--to", "9"), 2, "--from 3 --to 9 is not a range of entries 1..1",
     "--from 3 --to 9 — не диапазон записей 1..1"),
]


@pytest.mark.parametrize("args,code,english_text,russian_text", REFUSALS,
                         ids=[f"{a[0]}-{n}" for n, (a, *_) in enumerate(REFUSALS)])
def test_a_service_refusal_reads_in_russian_and_its_json_stays_english(cli, matches, monkeypatch, args, code,
                                                                       english_text, russian_text):
    fresh, played = matches
    argv = [a.format(fresh=fresh, played=played) for a in args]
    english_text, russian_text = (t.format(fresh=fresh, played=played) for t in (english_text, russian_text))
    en, en_json = cli(*argv), cli(*argv, "--json")
    assert en.code == en_json.code == code and f"error: {english_text}" in en.err
    monkeypatch.setenv("REFEREE_LANG", "ru")
    ru, ru_json = cli(*argv), cli(*argv, "--json")
    assert ru.code == code and f"ошибка: {russian_text}" in ru.err and english_text not in ru.err
    assert CYRILLIC.search(russian_text)
    # what a script reads is the English message, byte for byte, whatever the reader's language
    assert ru_json.code == code and ru_json.out == en_json.out and en_json.json["message"] == english_text
    monkeypatch.setenv("REFEREE_LANG", "en")
    assert cli(*argv).err == en.err  # and nothing was written by the refusals: the same refusal again


def test_the_http_access_layers_refusals_read_in_russian_and_keep_their_english(english):
    from referee.access import Access
    from referee.auth import Forbidden, Principal, Unauthorized
    from referee.service import Referee
    from referee.store.memory import MemoryStore

    access = Access(Referee(MemoryStore()))
    spectator = Principal(match_id="m1", role="spectator")
    with pytest.raises(Unauthorized) as token:
        access.authenticate("Bearer not-a-token", "m1")
    with pytest.raises(Forbidden) as undo:
        access.undo(spectator)
    with pytest.raises(Forbidden) as fork:
        access.fork(Principal(match_id="m1", role="seat", seat="alice"), at=1)
    assert token.value.message == "this token is not a token of any match on this server"
    assert undo.value.message == "a spectator may not undo (allowed: seat, arbiter)"
    assert fork.value.message == "a seat may not fork the match (allowed: arbiter)"
    with i18n.speaking("ru"):
        assert token.value.text(i18n.gettext) == "этот токен не принадлежит ни одной партии на этом сервере"
        # what a role may not do is read in Russian inside the refusal ("undo" here is a verb, not the log's word)
        assert undo.value.text(i18n.gettext) == "зритель не может отменять ходы (можно: seat, arbiter)"
        assert fork.value.text(i18n.gettext) == "игрок не может делать ответвление партии (можно: arbiter)"
    with i18n.speaking("en"):
        assert undo.value.text(i18n.gettext) == undo.value.message
