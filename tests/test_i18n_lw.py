"""The last small modules' refusals in the reader's language (issue 29, item 5): a move line the notation
cannot read (``referee play``, an imported transcript and its log), a position, a scenario file, ``db
copy``, and the smaller refusals of the service's modules. Each reads Russian under ``REFEREE_LANG=ru``
with the offending text quoted in it, English as before under ``en``, and ``--json`` the same in both."""

from __future__ import annotations

import json
import re

import pytest

from referee import i18n
from referee.engine import notation
from referee.engine.messages import FRAMEWORK
from referee.engine.protocol import InputError
from referee.errors import BadInput
from referee.games import find
from support.langs import in_both

_CYRILLIC = re.compile("[а-яё]", re.I)

TRANSCRIPT = """game: by_all_means
players: alice, bob
cards: demo
deck: alice=demo_south, bob=demo_north
chance: physical

bob: record_lot winner=alice
bob: draw_opening_hand cards=T04,T09,T16,T09
alice: drwa_main card=K03
alice: draw_opening_hand cards=K03,W02,P02,K02 extra=1
"""


def _new(cli, monkeypatch, *extra):
    monkeypatch.setenv("REFEREE_LANG", "en")
    made = cli("new", "by_all_means", "--players", "alice,bob", "--cards", "demo", "--deck", "alice=demo_south",
               "--deck", "bob=demo_north", "--chance", "physical", *extra)
    assert made.code == 0, made.err
    return made.out.strip().splitlines()[-1]


def test_a_move_line_the_notation_cannot_read_is_refused_in_russian_by_play(cli, english, monkeypatch):
    match = _new(cli, monkeypatch)
    cases = [
        (["drwa_main", "card=K03"], "input/unknown_verb",
         "error: unknown verb 'drwa_main' (did you mean draw_main?); the closest of the 25 verbs: draw_main, "
         "draw_start_cards, draw_opening_hand, end_turn, deploy_graffiti",
         "ошибка: неизвестный глагол 'drwa_main' (возможно, имелось в виду draw_main?); ближайшие глаголы (всего их 25): "
         "draw_main, draw_start_cards, draw_opening_hand, end_turn, deploy_graffiti"),
        (["draw_main", "card=K03", "card=K02"], "input/bad_argument",
         "error: draw_main: argument card given twice", "ошибка: draw_main: аргумент card указан дважды"),
        (['card="K03'], "input/invalid", "error: unbalanced double quote in 'card=\"K03'",
         "ошибка: незакрытая двойная кавычка в 'card=\"K03'"),
        (["draw_opening_hand", "cards=K03,,K02"], "input/invalid",
         "error: argument cards: empty item in 'K03,,K02'; expected a comma-separated list (strs)",
         "ошибка: аргумент cards: пустой элемент в 'K03,,K02'; ожидался список через запятую (значения типа str)"),
    ]
    for words, code, english_said, russian in cases:
        en, ru, json_en, json_ru = in_both(cli, monkeypatch, "play", match, "alice", *words)
        assert (en.code, ru.code, json_en.code, json_ru.code) == (2, 2, 2, 2)
        assert en.err.strip() == english_said and ru.err.strip() == russian
        assert json_en.out == json_ru.out and json_en.json["code"] == code
        assert json_en.json["message"] == english_said.removeprefix("error: ")
    assert cli("log", match, "--json").json == []  # nothing written


def test_an_imported_transcripts_unreadable_lines_read_russian_in_the_import_and_the_log(cli, english, monkeypatch,
                                                                                      tmp_path):
    path = tmp_path / "night.txt"
    path.write_text(TRANSCRIPT, encoding="utf-8")
    monkeypatch.setenv("REFEREE_LANG", "ru")
    ru = cli("import", path)
    assert ru.code == 0, ru.err
    assert ("input/unknown_verb: неизвестный глагол 'drwa_main' (возможно, имелось в виду draw_main?); ближайшие "
            "глаголы (всего их 25): draw_main,") in ru.out
    assert ("input/unknown_argument: draw_opening_hand: неизвестный аргумент 'extra'; draw_opening_hand "
            "принимает: cards") in ru.out
    match = ru.out.strip().splitlines()[-1]
    log = cli("log", match)
    assert "неизвестный аргумент 'extra'; draw_opening_hand принимает: cards" in log.out
    monkeypatch.setenv("REFEREE_LANG", "en")
    en = cli("import", path, "--again")
    assert ("input/unknown_argument: draw_opening_hand: unknown argument 'extra'; draw_opening_hand takes: "
            "cards") in en.out and not _CYRILLIC.search(en.out)
    again = en.out.strip().splitlines()[-1]
    assert "unknown verb 'drwa_main' (did you mean draw_main?)" in cli("log", again).out
    json_en = cli("log", match, "--json").out
    monkeypatch.setenv("REFEREE_LANG", "ru")
    assert cli("log", match, "--json").out == json_en
    assert "unknown argument 'extra'" in json_en
    i18n.use("en")


def test_a_bad_position_is_refused_in_russian(cli, english, monkeypatch, tmp_path):
    (tmp_path / "pos.toml").write_text('"nowhere.x" = 1\n', encoding="utf-8")
    monkeypatch.setenv("REFEREE_LANG", "en")
    args = ("new", "by_all_means", "--players", "alice,bob", "--cards", "demo", "--deck", "alice=demo_south",
            "--deck", "bob=demo_north", "--chance", "physical", "--position", tmp_path / "pos.toml")
    en, ru, json_en, json_ru = in_both(cli, monkeypatch, *args)
    assert (en.code, ru.code, json_en.code, json_ru.code) == (2, 2, 2, 2)
    assert en.err.strip() == ("error: unknown position path 'nowhere.x' (no 'nowhere' in the state; see `referee "
                              "show --json` for the paths)")
    assert ru.err.strip() == ("ошибка: неизвестный путь позиции 'nowhere.x' (в состоянии нет 'nowhere'; пути "
                              "показывает `referee show --json`)")
    assert json_en.out == json_ru.out and json_en.json["message"] == en.err.strip().removeprefix("error: ")
    assert cli("matches", "--json").json == []


def test_a_scenario_files_error_reads_in_russian(cli, english, monkeypatch, tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text('game = "by_all_means"\n[[steps]]\nactor = "alice"\n', encoding="utf-8")
    unknown = tmp_path / "odd.toml"
    unknown.write_text('game = "by_all_means"\nplayers = ["alice", "bob"]\nsetps = 1\n', encoding="utf-8")
    en, ru, json_en, json_ru = in_both(cli, monkeypatch, "scenario", "run", bad, unknown)
    assert (en.code, ru.code, json_en.code, json_ru.code) == (1, 1, 1, 1)
    assert f"{bad}: file: {bad}: missing required key 'players'" in en.out
    assert f"{bad}: файл: {bad}: нет обязательного ключа 'players'" in ru.out
    assert f"{unknown}: файл: {unknown}: неизвестные ключи: setps; допустимы: card, cards, chance," in ru.out
    assert not _CYRILLIC.search(en.out)
    assert json_en.out == json_ru.out
    assert json_en.json[0]["failures"][0]["what"] == f"{bad}: missing required key 'players'"


def test_a_scenario_steps_unreadable_intent_and_bad_position_read_in_russian(cli, english, monkeypatch, tmp_path):
    head = ('game = "by_all_means"\nplayers = ["alice", "bob"]\ncards = "demo"\nchance = "physical"\n'
            '[decks]\nalice = "demo_south"\nbob = "demo_north"\n')
    step = tmp_path / "step.toml"
    step.write_text(head + '[[steps]]\nactor = "bob"\nintent = "record_lot winer=alice"\n', encoding="utf-8")
    placed = tmp_path / "placed.toml"
    placed.write_text(head + '[position]\n"nowhere.x" = 1\n', encoding="utf-8")
    en, ru, json_en, json_ru = in_both(cli, monkeypatch, "scenario", "run", step, placed)
    assert (f"{step}: step 1: intent 'record_lot winer=alice' was refused as input (input/unknown_argument): "
            "record_lot: unknown argument 'winer' (did you mean winner?); record_lot takes: winner") in en.out
    assert (f"{step}: шаг 1: ход 'record_lot winer=alice' не принят как ввод (input/unknown_argument): record_lot: "
            "неизвестный аргумент 'winer' (возможно, имелось в виду winner?); record_lot принимает: winner") in ru.out
    assert (f"{placed}: файл: не удаётся подготовить партию: неизвестный путь позиции 'nowhere.x' (в состоянии нет "
            "'nowhere'; пути показывает `referee show --json`)") in ru.out
    assert json_en.out == json_ru.out


def test_a_bad_db_copy_is_refused_in_russian_naming_the_match(cli, english, monkeypatch, tmp_path):
    source, target = str(tmp_path / "a.db"), str(tmp_path / "b.db")
    match = _new(cli, monkeypatch, "--db", source)
    assert cli("db", "copy", source, target).code == 0
    assert cli("play", match, "bob", "record_lot", "winner=alice", "--db", target).code == 0
    en, ru, json_en, json_ru = in_both(cli, monkeypatch, "db", "copy", source, target)
    assert (en.code, ru.code, json_en.code, json_ru.code) == (5, 5, 5, 5)
    assert en.err.strip() == (f"error: match {match} has 1 entries in the target and 0 in the source; nothing more "
                              "was copied (run it again once that is settled)")
    assert ru.err.startswith(f"ошибка: у партии {match} в целевой базе записей: 1, а в исходной: 0; ")
    assert json_en.out == json_ru.out and json_en.json["message"] == en.err.strip().removeprefix("error: ")


def test_the_smaller_refusals_read_in_russian_and_keep_their_english(cli, english, monkeypatch):
    match = _new(cli, monkeypatch)
    cases = [
        (("ratings", "--model", "elo"), "--model must be one of ", "--model должен быть одним из: "),
        (("export", match, "--format", "pdf"), "format must be one of ", "формат должен быть одним из: "),
        (("show", match, "--as", "alcie"), "'alcie' is not a seat of this match (did you mean alice?); seats: "
                                            "alice, bob (or spectator, arbiter)",
         "'alcie' — не место этой партии (возможно, имелось в виду alice?); места: alice, bob (или spectator, "
         "arbiter)"),
        (("player", "alcie"), "no player 'alcie' sat in any match (did you mean alice?)",
         "игрок 'alcie' не играл ни в одной партии (возможно, имелось в виду alice?)"),
        (("log", match, "--from", "0"), "a log's range starts at entry 1 or later",
         "диапазон журнала начинается с записи 1 или дальше"),
    ]
    for args, english_said, russian in cases:
        en, ru, json_en, json_ru = in_both(cli, monkeypatch, *args)
        assert en.code == ru.code != 0, (args, en.err)
        assert english_said in en.err and not _CYRILLIC.search(en.err), (args, en.err)
        assert russian in ru.err, (args, ru.err)
        if args[0] != "export":  # (export writes a file: it has no --json)
            assert json_en.out == json_ru.out and json_en.json["message"] in en.err, args


@pytest.mark.parametrize("game", ["by_all_means", "android", "xfiles_encounters"])
def test_every_refusal_of_the_notation_reads_the_same_recorded_as_live(game):
    """A line refused when typed reads, in Russian, as the same line recorded (an import's or a log's unreadable
    entry, read back through the engine's templates): every template the notation says is one FRAMEWORK holds,
    and its phrases are read inside it. The English message is the error's, as ever."""
    found = find(game)
    verbs = notation.verbs_of(found.intent_type)
    verb, info = next((v, i) for v, i in verbs.items() if len(i.params) >= 1)
    first = info.params[0].key
    lines = ["", "zzz", f"{verb[:-1]}", f"{verb} nope=1", f"{verb} {first}=1 {first}=2", f"{verb} bare1 bare2 bare3",
             f'{verb} {first}="x', f"{verb}"]
    for v, i in verbs.items():  # one line per kind of parameter the game has
        for p in i.params:
            bad = {"int": "x", "bool": "maybe", "choice": "nope", "list": "a,,b", "records": "q:q:q:q:q:q:q:q",
                   "dict": "x"}.get(p.kind)
            if bad is not None:
                lines.append(f"{v} {p.key if p.kind != 'dict' else p.key + '.k'}={bad}")
    said = 0
    for line in lines:
        try:
            notation.parse_intent(found.intent_type, line)
            continue
        except InputError as exc:
            err = exc
        assert err.template is not None, line
        assert type(err.message) is str and err.template[0].format(**err.template[1]) == err.message
        live = BadInput(err.code, err.message)
        live.__context__ = err
        with i18n.speaking("ru"):
            recorded = FRAMEWORK.render(err.code, err.message, i18n.gettext)
            assert live.text(i18n.gettext) == recorded, line
            if not err.message.startswith(f"{verb}: Expected"):  # msgspec's own words stay English
                assert _CYRILLIC.search(recorded), line
        said += 1
    assert said >= 8


def test_a_phrase_said_inside_a_refusal_is_english_in_the_message_and_never_reaches_json():
    with pytest.raises(InputError) as caught:
        notation.parse_intent(find("by_all_means").intent_type, "draw_main crad=K03")
    err = caught.value
    assert err.message == "draw_main: unknown argument 'crad' (did you mean card?); draw_main takes: card"
    assert type(err.message) is str
    assert json.loads(json.dumps({"m": err.message}))["m"] == err.message


def test_replays_step_prompt_reads_in_russian(cli, english, monkeypatch, tmp_path):
    import io

    path = tmp_path / "night.txt"
    path.write_text(TRANSCRIPT, encoding="utf-8")
    monkeypatch.setenv("REFEREE_LANG", "en")
    match = cli("import", path).out.strip().splitlines()[-1]
    said = {}
    for lang in ("en", "ru"):
        monkeypatch.setenv("REFEREE_LANG", lang)
        monkeypatch.setattr("sys.stdin", io.StringIO("n\nq\n"))
        r = cli("replay", match, "--step")
        assert r.code == 0, r.err
        said[lang] = r.out
    i18n.use("en")
    assert "1/4 — n next · b back · j N jump to entry N (j line:N: to transcript line N) · q quit" in said["en"]
    assert "2/4 — n дальше · b назад · j N к записи N (j line:N: к строке N протокола) · q выход" in said["ru"]
