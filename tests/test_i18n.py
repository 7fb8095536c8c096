"""The reader's language (issue 29, its foundation): ``--lang``, ``$REFEREE_LANG``, then the locale choose
it; ``referee import`` of By All Means' club night reads in Russian (every rejection, its rule, the
summary and the result), the same in English as before, byte-identical ``--json`` either way; the
catalogs are complete (every entry translated, every entry used)."""

from __future__ import annotations

import json
import os
import re

import pytest

from conftest import ROOT  # noqa: F401 - cli is conftest's fixture
from referee import i18n
from referee.errors import BadInput

DEMO = os.path.join(ROOT, "replays", "by_all_means", "club-night.txt")
PO = os.path.join(ROOT, "referee", "locale", "ru", "LC_MESSAGES", "referee.po")

#: what the referee printed for the club night before it spoke Russian (main at 2eca485), the
#: transcript's path as {src} and the match id as {match}
ENGLISH = """\
Imported {src} as match {match} (by_all_means): 86 lines, 82 accepted, 4 rejected, 0 unreadable.
  {src}:22: (entry 8) by_all_means/first_turn_draw_only: the only main action left this first turn must be draw_main (R-SETUP Preparing the game)
      bob: deploy_territory card=T09 cell=A3
  {src}:77: (entry 59) by_all_means/agent_turned: K06 on B3 is turned (R-AGENT-DEFAULTS An agent's default abilities)
      bob: agent_attack_player agent=B3   # wanted a second hit
  {src}:94: (entry 74) by_all_means/card_not_in_archive: T12 cannot be in alice's main archive: alice's deck has no T12 (R-ARCHIVES Archives)
      alice: draw_main card=T12   # misread the card
  {src}:97: (entry 76) by_all_means/no_main_action_left: no main action left this turn (R-ACTIONS Actions)
      alice: deploy_territory card=T14 cell=B2
Lines 15–108 became entries 1–86: `line:N` names the entry read from line N wherever an entry is taken (show --at, log --from, annotate, rule, undo --to, fork --at).
Result: alice won (full field) — scores alice 18, bob 10
See it: referee show {match} · referee log {match}
{match}
"""

#: what a Russian line may hold in Latin letters: seat names, card and cell ids, codes, rule ids, notation
_MACHINE = re.compile(r"--[a-z]+|\b(?:alice|bob|[A-Z]\d+|R-[A-Z-]+|[a-z]+(?:_[a-z]+)+|[a-z_]+/[a-z_]+|by_all_means|referee"
                      r"|show|log|line:N|annotate|rule|undo|fork|N)\b")


def _import(cli, *args: str):
    r = cli(*args)
    assert r.code == 0, r.err
    return r.out.strip().splitlines()[-1], r.out


def test_club_night_in_english_is_as_before(cli, english, monkeypatch):
    monkeypatch.setenv("COLUMNS", "400")
    match, out = _import(cli, "import", DEMO)
    assert out == ENGLISH.format(src=DEMO, match=match)


def test_club_night_in_russian_reads_every_rejection_rule_and_result_in_russian(cli, english, monkeypatch):
    monkeypatch.setenv("COLUMNS", "400")
    monkeypatch.setenv("REFEREE_LANG", "ru")
    match, out = _import(cli, "import", DEMO)
    lines = out.splitlines()
    assert lines[0] == f"Файл {DEMO} импортирован как партия {match} (by_all_means): 86 строк, 82 приняты, 4 отклонены, 0 не прочитано."
    problems = [line for line in lines if line.startswith(f"  {DEMO}:")]
    assert len(problems) == 4
    for line in problems:
        said = line.split(": ", 2)[2]  # after the path and the code: the message and its rule, read by people
        assert re.search("[а-яё]", said), line
        assert not re.search("[A-Za-z]{2,}", _MACHINE.sub("", said)), f"English left in: {line}"
    assert ("(запись 74) by_all_means/card_not_in_archive: основной архив игрока alice не может содержать T12: "
            "в колоде игрока alice нет T12 (R-ARCHIVES Архивы)") in out
    assert "(R-SETUP Подготовка к игре)" in out and "(R-AGENT-DEFAULTS Способности Агента по умолчанию)" in out
    assert "Итог: победа: alice (заполненное поле) — очки: alice 18, bob 10" in lines
    assert f"Посмотреть: referee show {match} · referee log {match}" in lines
    assert any(line.startswith("Строки 15–108 стали записями 1–86: ") for line in lines)
    assert not any(re.search("[A-Za-z]{2,}", _MACHINE.sub("", line.replace(DEMO, "").replace(match, "")))
                   for line in lines if not line.startswith("      ") and line != match), out


def test_json_is_the_same_in_every_language(cli, english, monkeypatch):
    en = json.loads(cli("import", DEMO, "--json").out)
    monkeypatch.setenv("REFEREE_LANG", "ru")
    ru_out = cli("--db", "ru.db", "import", DEMO, "--json").out
    ru = json.loads(ru_out)
    assert ru["match_id"] != en["match_id"]
    en_out = json.dumps(dict(en, match_id=ru["match_id"]), indent=2, ensure_ascii=False)
    assert ru_out.strip() == en_out  # byte for byte once the id is the same


def test_lang_option_beats_the_environment(cli, english, monkeypatch):
    monkeypatch.setenv("REFEREE_LANG", "en")
    _, out = _import(cli, "--lang", "ru", "import", DEMO)
    assert "Итог:" in out
    _, out = _import(cli, "--lang", "en", "--db", "b.db", "import", DEMO)
    assert "Result:" in out and "Итог" not in out


@pytest.mark.parametrize(("explicit", "environ", "chosen"), [
    (None, {}, "en"),
    ("ru", {"REFEREE_LANG": "en", "LANG": "en_US.UTF-8"}, "ru"),
    (None, {"REFEREE_LANG": "ru", "LC_ALL": "en_US.UTF-8"}, "ru"),
    (None, {"LC_ALL": "ru_RU.UTF-8", "LC_MESSAGES": "en_US.UTF-8", "LANG": "en_US"}, "ru"),
    (None, {"LC_MESSAGES": "ru_RU.UTF-8", "LANG": "en_US.UTF-8"}, "ru"),
    (None, {"LANG": "ru_RU.UTF-8"}, "ru"),
    (None, {"LANG": "ru-RU"}, "ru"),
    (None, {"LC_ALL": "C.UTF-8", "LANG": "ru_RU.UTF-8"}, "en"),  # the first set wins, and C reads English
    (None, {"LANG": "de_DE.UTF-8"}, "en"),  # a locale without a catalog: English, not an error
    ("RU", {}, "ru"),
])
def test_the_language_is_chosen_in_order(explicit, environ, chosen):
    assert i18n.choose(explicit, environ) == chosen


@pytest.mark.parametrize(("explicit", "environ", "named"), [
    ("de", {}, "--lang 'de'"),
    (None, {"REFEREE_LANG": "klingon"}, "REFEREE_LANG 'klingon'"),
])
def test_an_unknown_language_asked_for_is_refused(explicit, environ, named):
    with pytest.raises(BadInput) as exc:
        i18n.choose(explicit, environ)
    assert exc.value.message == f"{named} is not a language the referee speaks: expected one of en, ru"


def test_an_unknown_language_is_one_line_and_exit_2_with_nothing_written(cli, english, tmp_path):
    r = cli("--lang", "xx", "import", DEMO)
    assert r.code == 2
    assert r.err == "error: --lang 'xx' is not a language the referee speaks: expected one of en, ru\n"
    assert r.out == ""
    assert not (tmp_path / "r.db").exists()


def test_english_never_opens_a_catalog(cli, english):
    i18n._catalogs.clear()
    _import(cli, "import", DEMO)
    assert i18n._catalogs == {}


def test_russian_plurals_follow_cldr(english):
    i18n.use("ru")
    forms = [i18n.ngettext("{n} line", "{n} lines", n) for n in (1, 2, 5, 11, 21, 22, 25, 0)]
    assert forms == ["1 строка", "2 строки", "5 строк", "11 строк", "21 строка", "22 строки", "25 строк", "0 строк"]


def test_a_message_no_template_matches_is_shown_as_recorded(english):
    from referee.games import get_game

    i18n.use("ru")
    game = get_game("by_all_means")
    assert i18n.refusal(game.messages, "by_all_means/agent_turned", "something else entirely") == "something else entirely"
    assert i18n.refusal(game.messages, "by_all_means/agent_turned", "K06 on B3 is turned") == "K06 на B3 повёрнут"


def test_every_catalog_entry_is_translated_and_used():
    from babel.messages.pofile import read_po

    with open(PO, "rb") as fh:
        catalog = read_po(fh, locale="ru")
    # keyed by context and English: a word that means two things ("draw") is two entries
    entries = {(m.context, m.id if isinstance(m.id, str) else m.id[0]): m for m in catalog if m.id}
    untranslated = [k for k, m in entries.items()
                    if not (all(m.string) if isinstance(m.string, tuple) else m.string) or m.fuzzy]
    assert untranslated == []
    used = {(m.context, m.id if isinstance(m.id, str) else m.id[0]) for m in i18n.extracted() if m.id}
    assert sorted(set(entries) - used) == []  # unused: in the catalog, marked nowhere
    assert sorted(used - set(entries)) == []  # marked in the code, missing from the catalog
    for m in entries.values():  # a translation names the same {fields} as its English
        fields = set(re.findall(r"\{(\w+)\}", m.id if isinstance(m.id, str) else m.id[0]))
        for s in (m.string if isinstance(m.string, tuple) else (m.string,)):
            assert set(re.findall(r"\{(\w+)\}", s)) <= fields | {"n"}, (m.id, s)


def test_the_compiled_catalog_is_the_po():
    from gettext import GNUTranslations

    from babel.messages.pofile import read_po

    with open(PO, "rb") as fh:
        catalog = read_po(fh, locale="ru")
    with open(PO[:-3] + ".mo", "rb") as fh:
        compiled = GNUTranslations(fh)
    for m in catalog:
        if m.id and isinstance(m.id, str) and m.context:
            assert compiled.pgettext(m.context, m.id) == m.string, (m.context, m.id)
        elif m.id and isinstance(m.id, str):
            assert compiled.gettext(m.id) == m.string, m.id
        elif m.id:
            assert compiled.ngettext(m.id[0], m.id[1], 5) == m.string[2], m.id


def test_every_template_of_the_game_is_in_the_catalog():
    from babel.messages.pofile import read_po

    from referee.games import get_game

    templates = get_game("by_all_means").messages.templates()
    assert templates
    with open(PO, "rb") as fh:
        ids = {m.id for m in read_po(fh, locale="ru") if m.id}
    assert [t for t in templates if t not in ids] == []


@pytest.mark.parametrize(("code", "recorded", "russian"), [
    ("card_not_in_archive", "AG3 cannot be in alice's main archive: every copy of AG3 named, but alice's deck has 2 "
     "and 2 already came out of the archives", "основной архив игрока alice не может содержать AG3: названы все копии "
     "AG3, но в колоде игрока alice их 2, и 2 уже вышли из архивов"),
    ("cell_occupied", "B2 already holds a territory (TR1 of alice)", "на B2 уже есть территория (TR1 игрока alice)"),
    ("first_territory_not_central", "the first territory on the field goes on a central cell (B2 or B3), not A1",
     "первая территория выкладывается на центральную клетку (B2 или B3), а не на A1"),
    ("wrong_draw_count", "expected 2 cards from bob's main archive, got 1",
     "основной архив игрока bob: ожидалось карт — 2, названо — 1"),
    ("archive_empty", "alice's main archive is empty (option utilize_empty_main=reject)",
     "основной архив игрока alice пуст (опция utilize_empty_main=reject)"),
])
def test_a_recorded_message_is_read_through_its_codes_templates_and_phrases(english, code, recorded, russian):
    from referee.games import get_game

    messages = get_game("by_all_means").messages
    assert i18n.refusal(messages, f"by_all_means/{code}", recorded) == recorded  # English: as recorded
    i18n.use("ru")
    assert i18n.refusal(messages, f"by_all_means/{code}", recorded) == russian
    assert i18n.refusal(messages, "by_all_means/agent_turned", recorded) == recorded  # another code's templates do not apply


def test_import_check_and_a_second_import_read_in_russian(cli, english, monkeypatch):
    monkeypatch.setenv("COLUMNS", "400")
    monkeypatch.setenv("REFEREE_LANG", "ru")
    first, _ = _import(cli, "import", DEMO)
    r = cli("import", DEMO, "--check")
    assert r.out.splitlines()[:2] == [
        f"Файл {DEMO} (by_all_means) проверен, ничего не записано: 86 строк, 82 приняты, 4 отклонены, 0 не прочитано.",
        f"Он уже есть в базе как партия {first}."]
    r = cli("import", DEMO)
    assert r.out.splitlines()[0] == (f"Файл {DEMO} уже есть в базе как партия {first}: ничего не записано (--again "
                                     "импортирует его как новую партию). В нём: 86 строк, 82 приняты, 4 отклонены, "
                                     "0 не прочитано.")


def test_a_word_that_means_two_things_is_two_entries():
    """A match's "draw" is a tie and By All Means' "draw" a card drawn; an X-Files "event" is a card
    type and the viewer's "event" a tournament: each reads its own Russian (``pgettext``)."""
    before = i18n.current()
    i18n.use("ru")
    try:
        assert i18n.pgettext("a match's result", "draw") == "ничья"
        assert i18n.gettext("draw") == "добор"
        assert i18n.pgettext("an X-Files card type", "event") == "событие"
        assert i18n.gettext("event") == "турнир"
    finally:
        i18n.use(before)
    assert i18n.pgettext("a match's result", "draw") == "draw" or before != "en"
