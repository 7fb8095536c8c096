"""The English pieces that were left inside Russian messages (issue 29): each read in Russian under
``REFEREE_LANG=ru`` (no English word of the old piece left), English byte-identical under ``en``, and
``--json`` the same in both. The headline's waiting entry, play's verdict lines, several suggestions'
"or", an imported undo line the notation cannot read, a continuation's and a ruling's inner refusal,
scenario run's findings, the tokens' phrases, a refused language and msgspec's words for a misfit."""

from __future__ import annotations

import re

from referee import i18n
from referee.engine.speech import N_, Said
from support.langs import in_both

_CYRILLIC = re.compile("[а-яё]", re.I)
DEMO = ("--cards", "demo", "--deck", "alice=demo_south", "--deck", "alina=demo_north", "--chance", "physical")


def _new(cli, monkeypatch):
    """A By All Means match of alice and alina (two names one typo away from each other) with the lot drawn
    and alice's opening hand (entries 1 and 2)."""
    monkeypatch.setenv("REFEREE_LANG", "en")
    made = cli("new", "by_all_means", "--players", "alice,alina", *DEMO)
    assert made.code == 0, made.err
    match = made.last_line
    assert cli("play", match, "alina", "record_lot", "winner=alice").code == 0
    assert cli("play", match, "alice", "draw_opening_hand", "cards=K03,W02,P02,K02").code == 0
    return match


# -- 1. the headline's waiting entry, and play's lines ----------------------------------------------------

HELD_POSITION = {"phase": "play", "first_player": "alice", "lot_winner": "alice", "turn.number": 5,
                 "turn.active": "alice", "turn.step": "actions", "turn.main_left": 2, "turn.extra_left": 1,
                 "players.alice.hand": ["PL6"], "players.bob.hand": ["TR1"], "players.alice.unseen": ["AG2", "GF1"],
                 "players.alice.main_archive.count": 2, "players.alice.extra_archive.count": 0,
                 "players.bob.unseen": ["TR7"], "players.bob.main_archive.count": 1,
                 "players.bob.extra_archive.count": 0}


def _held(tmp_path):
    """A match in the CLI's database whose head entry waits for bob's confirmation (a declared effect on his
    hidden hand, submitted blind as a seat would over HTTP), and that entry's result."""
    from referee.service import Referee
    from referee.store import open_store

    store = open_store(str(tmp_path / "r.db"))
    try:
        r = Referee(store, clock=lambda: "")
        mid = r.new_match("by_all_means", ["alice", "bob"], cards="spec", position=HELD_POSITION).id
        held = r.submit(mid, "alice", "play_plot card=PL6 from=hand changes=move:TR1:bob.hand:bob.utility note=Raid",
                        blind=True)
    finally:
        store.close()
    assert held.held
    return mid, held


def test_show_says_in_russian_which_entry_waits_for_a_confirmation(cli, english, monkeypatch, tmp_path):
    mid, held = _held(tmp_path)
    en, ru, json_en, json_ru = in_both(cli, monkeypatch, "show", mid)
    assert (en.code, ru.code, json_en.code, json_ru.code) == (0, 0, 0, 0)
    assert f"entry {held.seq} waits for bob to confirm it" in en.out
    assert f"запись {held.seq} ждёт подтверждения от bob" in ru.out
    assert "waits for" not in ru.out and "to confirm it" not in ru.out
    # what a script reads is English, the same bytes whatever the reader's language
    assert json_en.out == json_ru.out
    assert json_en.json["headline"].endswith(f" · entry {held.seq} waits for bob to confirm it")
    # a move while it waits is refused (recorded in English), read in Russian where play shows it
    en, ru, json_en, json_ru = in_both(cli, monkeypatch, "play", mid, "alice", "end_turn")
    assert (en.code, ru.code, json_en.code, json_ru.code) == (1, 1, 1, 1)
    assert (f"match/awaiting_confirmation: entry {held.seq} waits for bob to confirm it (or decline); nothing else "
            "is played meanwhile") in en.out
    assert (f"match/awaiting_confirmation: запись {held.seq} ждёт подтверждения от bob (или отказа); до тех пор "
            "ничего другого не играется") in ru.out and "waits" not in ru.out
    assert {**json_en.json, "seq": 0} == {**json_ru.json, "seq": 0}


def test_plays_line_for_a_held_entry_reads_in_russian(english, tmp_path):
    from cli import lines

    mid, held = _held(tmp_path)

    def said() -> str:
        return "\n".join("".join(text for text, _ in line) for line in lines.result(held))

    with i18n.speaking("en"):
        english_lines = said()
    with i18n.speaking("ru"):
        russian = said()
    assert english_lines == (f"⏸ held #{held.seq} alice: {held.notation}\n  it reads what only bob can see: bob (or "
                             f"the arbiter) confirms it with `referee confirm {mid[:8]} {held.seq} --by bob` (or "
                             "--decline); nothing else is played meanwhile")
    assert russian == (f"⏸ ждёт #{held.seq} alice: {held.notation}\n  ход опирается на то, что видит только bob: bob "
                       f"(или арбитр) подтверждает его командой `referee confirm {mid[:8]} {held.seq} --by bob` (или "
                       "--decline); до тех пор ничего другого не играется")


def test_plays_verdict_lines_read_in_russian_with_the_games_reason_and_rule(cli, english, monkeypatch):
    match = _new(cli, monkeypatch)
    en, ru, json_en, json_ru = in_both(cli, monkeypatch, "play", match, "alice", "draw_opening_hand",
                                     "cards=K03,W02,P02,K02")
    assert (en.code, ru.code, json_en.code, json_ru.code) == (1, 1, 1, 1)
    assert en.out == ("✗ rejected #3 alice: draw_opening_hand cards=K03,W02,P02,K02\n"
                      "  by_all_means/already_done: alice has already drawn the opening hand (R-SETUP Preparing the "
                      "game)\n")
    assert ru.out == ("✗ отклонено #4 alice: draw_opening_hand cards=K03,W02,P02,K02\n"
                      "  by_all_means/already_done: alice уже набрал стартовую руку (R-SETUP Подготовка к игре)\n")
    # each run appended its own rejected entry: the answers differ in their seq alone
    assert {**json_en.json, "seq": 0} == {**json_ru.json, "seq": 0}
    assert json_en.json["rejection"]["message"] == "alice has already drawn the opening hand"
    monkeypatch.setenv("REFEREE_LANG", "ru")
    accepted = cli("play", match, "alina", "draw_opening_hand", "cards=T04,T09,T16,T09")
    assert accepted.code == 0 and accepted.out.startswith("✓ принято #7 alina: draw_opening_hand")


# -- 2. several suggestions ------------------------------------------------------------------------------

def test_several_suggestions_are_joined_in_russian(cli, english, monkeypatch):
    match = _new(cli, monkeypatch)
    en, ru, json_en, json_ru = in_both(cli, monkeypatch, "play", match, "ali", "end_turn")
    assert (en.code, ru.code, json_en.code, json_ru.code) == (2, 2, 2, 2)
    assert en.err.strip() == "error: 'ali' is not a seat of this match (did you mean alice or alina?); seats: alice, alina"
    assert ru.err.strip() == ("ошибка: 'ali' не участвует в этой партии (возможно, имелось в виду alice или alina?); "
                              "места: alice, alina")
    assert json_en.out == json_ru.out and json_en.json["message"] == en.err.strip().removeprefix("error: ")


def test_a_games_recorded_hint_with_several_names_reads_or_in_russian(english):
    from referee.engine.suggest import did_you_mean
    from referee.games import find

    copycat = find("copycat")
    assert copycat is not None
    message = f"unknown card id 'C1'{did_you_mean('C1', ['C11', 'C14', 'C90'])}"
    assert message == "unknown card id 'C1' (did you mean C11 or C14?)"
    with i18n.speaking("ru"):
        read = i18n.refusal(copycat.messages, "copycat/unknown_card", message)
    assert read == "неизвестный идентификатор карты 'C1' (возможно, имелось в виду C11 или C14?)"
    with i18n.speaking("en"):
        assert i18n.refusal(copycat.messages, "copycat/unknown_card", message) == message


# -- 3. an imported undo line the notation cannot read ---------------------------------------------------

TRANSCRIPT = """game: by_all_means
players: alice, alina
cards: demo
deck: alice=demo_south, alina=demo_north
chance: physical

alina: record_lot winner=alice
undo: to=1 reason="oops
undo: too=1
"""


def test_an_imported_undo_line_the_notation_cannot_read_reads_in_russian(cli, english, monkeypatch, tmp_path):
    path = tmp_path / "night.txt"
    path.write_text(TRANSCRIPT, encoding="utf-8")
    monkeypatch.setenv("REFEREE_LANG", "ru")
    ru = cli("import", path)
    assert ru.code == 0, ru.err
    assert "transcript/bad_line: undo: незакрытая двойная кавычка в 'to=1 reason=\"oops'" in ru.out
    assert "transcript/bad_line: undo: ожидалось to=... by=... reason=..., а получено 'too=1'" in ru.out
    assert "unbalanced" not in ru.out and "expected" not in ru.out
    match = ru.last_line
    log = cli("log", match)
    assert "undo: незакрытая двойная кавычка в 'to=1 reason=\"oops'" in log.out and "unbalanced" not in log.out
    json_ru = cli("log", match, "--json").out
    monkeypatch.setenv("REFEREE_LANG", "en")
    en = cli("import", path, "--again")
    assert "transcript/bad_line: undo: unbalanced double quote in 'to=1 reason=\"oops'" in en.out
    assert "transcript/bad_line: undo: expected to=... by=... reason=..., got 'too=1'" in en.out
    assert not _CYRILLIC.search(en.out)
    assert cli("log", match, "--json").out == json_ru
    i18n.use("en")


def test_the_undo_lines_error_keeps_the_notations_template():
    from referee.errors import BadInput
    from referee.transcript import _kv

    try:
        _kv('to=1 reason="oops', ("to", "by", "reason"), "undo")
    except BadInput as exc:
        assert exc.message == "undo: unbalanced double quote in 'to=1 reason=\"oops'"
        with i18n.speaking("ru"):
            assert exc.text(i18n.gettext) == "undo: незакрытая двойная кавычка в 'to=1 reason=\"oops'"
    else:
        raise AssertionError("an unbalanced quote was read")


# -- 4. a continuation's game refusal --------------------------------------------------------------------

def test_a_continuations_game_refusal_reads_in_russian(english):
    from types import SimpleNamespace

    from referee.continuation import continuation
    from referee.engine.codes import MatchCode
    from referee.engine.protocol import ConfigError
    from referee.errors import BadInput

    def carry_over(state):
        raise ConfigError.said(MatchCode.NO_CONTINUATION, N_("a match of this game cannot be continued by another"))

    game = SimpleNamespace(id="g", capabilities=SimpleNamespace(continuation=True))
    loaded = SimpleNamespace(game=game, match=SimpleNamespace(id="m1"),
                             rules=SimpleNamespace(outcome=lambda state: "over", carry_over=carry_over))
    history = SimpleNamespace(state_at=lambda loaded: (3, "state"))
    try:
        continuation(history, loaded, game, "g", {})
    except BadInput as exc:
        assert exc.message == "match m1: a match of this game cannot be continued by another"
        with i18n.speaking("ru"):
            russian = exc.text(i18n.gettext)
        assert russian.startswith("партия m1: ") and _CYRILLIC.search(russian.removeprefix("партия m1: "))
        assert "cannot" not in russian
    else:
        raise AssertionError("the game's refusal was not raised")


# -- 5. the tokens' phrases ------------------------------------------------------------------------------

def test_the_token_phrases_read_in_russian_and_keep_their_english(english):
    from referee.access import Access
    from referee.auth import Forbidden, Unauthorized, check_admin
    from referee.service import Referee
    from referee.store.memory import MemoryStore
    from referee.tournament.access import TournamentAccess

    referee = Referee(MemoryStore())
    refused = []
    for ask in (lambda: Access(referee).authenticate(None, "m1"),
                lambda: TournamentAccess(referee).authenticate(None, "t1"),
                lambda: check_admin(None, None, Said(N_("creating a tournament"))),
                lambda: check_admin(None, None, Said(N_("reading the ratings")))):
        try:
            ask()
        except (Unauthorized, Forbidden) as exc:
            refused.append(exc)
    assert [e.message for e in refused] == [
        "send the match's token as 'Authorization: Bearer <token>' (tokens are given when the match is created)",
        "send the tournament's token as 'Authorization: Bearer <token>' (tokens are given when the tournament is "
        "created and players are added)",
        "creating a tournament is off on this server (start it with REFEREE_ADMIN_TOKEN set)",
        "reading the ratings is off on this server (start it with REFEREE_ADMIN_TOKEN set)",
    ]
    with i18n.speaking("ru"):
        assert [e.text(i18n.gettext) for e in refused] == [
            "пришлите токен партии как 'Authorization: Bearer <token>' (токены выдаются при создании партии)",
            "пришлите токен турнира как 'Authorization: Bearer <token>' (токены выдаются при создании турнира и при "
            "добавлении игроков)",
            "создание турнира: отключено на этом сервере (запустите его с заданным REFEREE_ADMIN_TOKEN)",
            "просмотр рейтингов: отключено на этом сервере (запустите его с заданным REFEREE_ADMIN_TOKEN)",
        ]


def test_the_served_routes_say_their_phrases_through_the_catalog():
    """The tournament's routes and the match gate pass phrases (Said), not bare English, to bearer and check_admin."""
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent / "referee"
    said = {"gate.py": 1, "tournament/access.py": 2, "tournament/http.py": 2}
    for name, phrases in said.items():
        text = (root / name).read_text(encoding="utf-8")
        assert not re.search(r'bearer\(\s*authorization,\s*"', text), name  # a bare English phrase
        assert not re.search(r'check_admin\((?:[^"()]|\([^()]*\))*,\s*"', text), name
        assert len(re.findall(r"(?:bearer\(authorization|admin_token),\s*Said\(N_\(", text)) == phrases, name


# -- 6. a ruling's inner refusal -------------------------------------------------------------------------

def test_a_refused_ruling_reads_the_games_reason_in_russian(cli, english, monkeypatch):
    match = _new(cli, monkeypatch)
    assert cli("play", match, "alice", "draw_opening_hand", "cards=K03,W02,P02,K02").code == 1  # entry 3, rejected
    en, ru, json_en, json_ru = in_both(cli, monkeypatch, "rule", match, "3")  # it would not stand: recorded rejected
    assert "ruling/still_illegal: even with by_all_means/already_done waived: by_all_means/already_done: alice has " \
           "already drawn the opening hand (R-SETUP Preparing the game)" in en.out
    assert "ruling/still_illegal: даже без проверки by_all_means/already_done: by_all_means/already_done: alice уже " \
           "набрал стартовую руку (R-SETUP Подготовка к игре)" in ru.out
    assert "even with" not in ru.out and "already drawn" not in ru.out
    assert {**json_en.json, "seq": 0} == {**json_ru.json, "seq": 0}
    # with play after it, the ruling is refused outright, nothing written, the game's reason inside
    assert cli("play", match, "alina", "draw_opening_hand", "cards=T04,T09,T16,T09").code == 0
    en, ru, json_en, json_ru = in_both(cli, monkeypatch, "rule", match, "3")
    assert en.err.startswith("error: entry 3 cannot stand where it was played: even with by_all_means/already_done "
                             "waived: by_all_means/already_done: alice has already drawn the opening hand; nothing "
                             "was written.")
    assert ru.err.startswith("ошибка: запись 3 нельзя засчитать там, где она сыграна: даже без проверки "
                             "by_all_means/already_done: by_all_means/already_done: alice уже набрал стартовую руку; "
                             "ничего не записано.")
    assert json_en.out == json_ru.out


# -- 7. scenario run's findings --------------------------------------------------------------------------

SCENARIO = """game = "by_all_means"
players = ["alice", "alina"]
cards = "demo"
chance = "physical"
[decks]
alice = "demo_south"
alina = "demo_north"
"""


def test_scenario_runs_findings_read_in_russian(cli, english, monkeypatch, tmp_path):
    state = tmp_path / "state.toml"
    state.write_text(SCENARIO + '[[steps]]\nactor = "alina"\nintent = "record_lot winner=alice"\n'
                     '[steps.state]\n"lot_winner" = "alina"\n"nowhere" = 1\n', encoding="utf-8")
    verdict = tmp_path / "verdict.toml"
    verdict.write_text(SCENARIO + '[[steps]]\nactor = "alina"\nintent = "record_lot winner=alice"\n'
                       '[[steps]]\nactor = "alina"\nintent = "record_lot winner=alice"\n', encoding="utf-8")
    over = tmp_path / "over.toml"
    over.write_text(SCENARIO + '[outcome]\nwinners = ["alice"]\n', encoding="utf-8")
    en, ru, json_en, json_ru = in_both(cli, monkeypatch, "scenario", "run", state, verdict, over)
    assert (en.code, ru.code) == (1, 1)
    assert f'{state}: step 1: lot_winner: expected "alina", got "alice"' in en.out
    assert f"{state}: step 1: nowhere: expected 1, got (no such path)" in en.out
    assert f'{state}: шаг 1: lot_winner: ожидалось "alina", получено "alice"' in ru.out
    assert f"{state}: шаг 1: nowhere: ожидалось 1, получено (такого пути нет)" in ru.out
    assert f"{verdict}: step 2: 'record_lot winner=alice': expected accepted, got rejected:by_all_means/" in en.out
    found = re.search(rf"{re.escape(str(verdict))}: шаг 2: 'record_lot winner=alice': ожидалось accepted, получено "
                      r"rejected:(\S+) \((.*)\)", ru.out)
    assert found is not None and _CYRILLIC.search(found[2]), ru.out
    assert f'{over}: file: outcome: expected {{"winners":["alice"]}}, but the game is not over' in en.out
    assert f'{over}: файл: outcome: ожидалось {{"winners":["alice"]}}, но игра не окончена' in ru.out
    for english_word in ("expected", "got", "no such path", "but the game"):
        assert english_word not in ru.out
    assert json_en.out == json_ru.out


# -- 8. a refused language -------------------------------------------------------------------------------

def test_a_refused_language_is_said_in_the_language_the_later_sources_name(cli, english, monkeypatch):
    english_line = "error: REFEREE_LANG 'de' is not a language the referee speaks: expected one of en, ru"
    russian_line = "ошибка: REFEREE_LANG 'de': судья не говорит на этом языке; ожидался один из: en, ru"
    monkeypatch.setenv("REFEREE_LANG", "de")
    plain = cli("matches")
    assert plain.code == 2 and plain.err.strip() == english_line
    monkeypatch.setenv("LANG", "ru_RU.UTF-8")  # the locale is Russian: the refusal is said in it
    russian = cli("matches")
    assert russian.code == 2 and russian.err.strip() == russian_line
    monkeypatch.setenv("LANG", "C")
    assert cli("matches").err.strip() == english_line
    monkeypatch.setenv("REFEREE_LANG", "ru")  # --lang refused, REFEREE_LANG read after it is Russian
    asked = cli("--lang", "de", "matches")
    assert asked.code == 2 and asked.err.strip() == ("ошибка: --lang 'de': судья не говорит на этом языке; ожидался "
                                                     "один из: en, ru")
    i18n.use("en")


def test_choose_refuses_in_the_locales_language_and_chooses_it(english):
    from referee.errors import BadInput

    for environ, said in (({"REFEREE_LANG": "xx", "LC_ALL": "ru_RU.UTF-8"}, "ru"),
                          ({"REFEREE_LANG": "xx", "LANG": "de_DE.UTF-8"}, "en"), ({"REFEREE_LANG": "xx"}, "en")):
        i18n.use("en" if said == "ru" else "ru")  # whatever was chosen before
        try:
            i18n.choose(None, environ)
        except BadInput:
            assert i18n.current() == said
        else:
            raise AssertionError("REFEREE_LANG=xx was chosen")
    i18n.use("en")


# -- 9. msgspec's words for a value that does not fit ----------------------------------------------------

def test_a_value_that_does_not_fit_reads_in_russian(cli, english, monkeypatch, tmp_path):
    (tmp_path / "pos.toml").write_text('"turn.number" = "x"\n', encoding="utf-8")
    args = ("new", "by_all_means", "--players", "alice,alina", *DEMO, "--position", tmp_path / "pos.toml")
    en, ru, json_en, json_ru = in_both(cli, monkeypatch, *args)
    assert (en.code, ru.code, json_en.code, json_ru.code) == (2, 2, 2, 2)
    assert en.err.strip() == ("error: the position does not fit the state: Expected `int`, got `str` - at "
                              "`$.turn.number`")
    assert ru.err.strip() == ("ошибка: позиция не подходит к состоянию: ожидалось значение типа `int`, получено `str` "
                              "— в `$.turn.number`")
    assert json_en.out == json_ru.out and json_en.json["message"] == en.err.strip().removeprefix("error: ")


def test_each_of_msgspecs_sentences_is_matched_and_an_unknown_one_left_as_it_is(english):
    import msgspec

    from referee.engine.messages import fitting
    from referee.errors import read

    class Thing(msgspec.Struct):
        n: int
        name: str = ""

    problems = []
    for raw in ({"n": "x"}, {}, {"n": 1, "extra": 1}):
        try:
            msgspec.convert(raw, Thing, strict=True) if "extra" not in raw else msgspec.convert(
                raw, msgspec.defstruct("Closed", [("n", int)], forbid_unknown_fields=True))
        except msgspec.ValidationError as exc:
            problems.append(str(exc))
    assert problems == ["Expected `int`, got `str` - at `$.n`", "Object missing required field `n`",
                        "Object contains unknown field `extra`"]
    with i18n.speaking("ru"):
        said = [read(fitting(p).template, i18n.gettext) for p in problems]
    assert said == ["ожидалось значение типа `int`, получено `str` — в `$.n`", "в объекте нет обязательного поля `n`",
                    "в объекте есть неизвестное поле `extra`"]
    assert [str(fitting(p)) for p in problems] == problems  # the English is the same string
    assert not hasattr(fitting("Input data was truncated"), "template")

