"""The printed names in the reader's language (issue 29, item 3): a card's, a place's, an office's or a region's
Russian name (the card data's ``name_ru``) is what a Russian reader reads in ``replay``, ``show`` and the
viewer's page; English is the same bytes as before (the English names), ``--json`` the same bytes in either
language; a hidden card's Russian name is in no other role's output; a Russian name that is not one line of
printable text is refused with the data, and one that reads like a move stays a name (never a line of a
transcript)."""

from __future__ import annotations

import os
import re

import pytest

from conftest import ROOT, dump
from test_leaks import RU, card_names, card_of

#: one bundled replay per game (each plays the game's demo data)
REPLAYS = {"by_all_means": "replays/by_all_means/club-night.txt",
           "war_of_shadows": "replays/war_of_shadows/ember-coast.txt",
           "copycat": "replays/copycat/thursday-club.txt",
           "xfiles_encounters": "replays/xfiles_encounters/two-agents.txt",
           "android": "replays/android/thursday-club.txt"}
_CYRILLIC = re.compile("[а-яё]", re.IGNORECASE)


def _rules(game: str):
    """The game's rules bound to its demo data."""
    from referee import skeleton
    from referee.service import Referee
    from referee.store.memory import MemoryStore

    return skeleton.bound(Referee(MemoryStore()).configuration, game, cards="demo")[1]


def _names(game: str) -> dict[str, tuple[str, str]]:
    """Each id of the game's demo data (``referee cards``) that has a Russian name: (English, Russian), its
    ``name_of`` in each language."""
    from referee import i18n

    rules = _rules(game)
    out = {}
    for cid in sorted({x.typed for x in rules.listing()}):
        english = rules.name_of(cid)
        with i18n.speaking("ru"):
            russian = rules.name_of(cid)
        if english and russian and russian != english:
            out[cid] = (english, russian)
    return out


def _sentences(text: str) -> list[str]:
    """The sentences ``replay`` words the events with (its ``·`` lines), recorded notes for the audit left out."""
    lines = [line.strip()[2:] for line in text.splitlines() if line.strip().startswith("· ")]
    return [line for line in lines if not line.startswith(("отмечено для аудита", "flagged for audit"))]


def _imported(cli, game: str) -> str:
    r = cli("import", os.path.join(ROOT, REPLAYS[game]))
    assert r.code == 0, r.out + r.err
    return r.out.strip().splitlines()[-1]


@pytest.mark.parametrize("game", sorted(REPLAYS))
def test_a_russian_replay_and_show_name_the_demo_cards_in_russian(cli, english, monkeypatch, game):
    mid = _imported(cli, game)
    english_before = cli("replay", mid).out
    shown_before = cli("show", mid).out
    json_before = (cli("replay", mid, "--json").out, cli("show", mid, "--json").out)
    monkeypatch.setenv("REFEREE_LANG", "ru")
    russian = cli("replay", mid).out
    shown = cli("show", mid).out
    assert (cli("replay", mid, "--json").out, cli("show", mid, "--json").out) == json_before
    monkeypatch.delenv("REFEREE_LANG")
    # English after a Russian run: the same bytes, and no Russian name in it
    assert cli("replay", mid).out == english_before and cli("show", mid).out == shown_before
    assert not _CYRILLIC.search(english_before + shown_before)
    names = _names(game)
    assert len(names) >= 10, names
    said = "\n".join(_sentences(russian))
    used = [(en, ru) for en, ru in names.values() if ru in said]
    assert len(used) >= 2, (game, said[:2000])
    for en, ru in used:  # a name the Russian sentences give in Russian is not also given in English
        assert en in english_before, (en, ru)
        if len(en) > 3:
            assert not re.search(rf"(?<![\w.]){re.escape(en)}(?![\w.])", said), (game, en)
    assert any(ru in shown for _, ru in names.values()), shown[:2000]


def test_rulebook_names_are_kept_where_the_russian_rulebook_prints_them():
    from referee import i18n

    xfiles, android = _rules("xfiles_encounters"), _rules("android")
    with i18n.speaking("ru"):
        assert xfiles.name_of("mulder") == "Фокс Малдер" and xfiles.name_of("scully") == "Дана Скалли"
        assert xfiles.name_of("field_agent") == "Полевой агент"
        assert android.name_of("floyd") == "Флойд 2X3A7C"
        assert android.name_of("city_hall") == "City Hall"  # the Russian edition prints its places in English
    assert xfiles.name_of("mulder") == "Fox Mulder" and android.name_of("floyd") == "Floyd 2X3A7C"


def _hidden_russian(loaded, state, role: str) -> set[str]:
    """The Russian names of the cards hidden from ``role`` that no card it may see bears as words of its names."""
    from test_leaks import names_of

    hidden = set(loaded.rules.hidden_ids(state, role))
    every = card_names(loaded)
    return {n for n in names_of(loaded, hidden, every) if _CYRILLIC.search(n)}


def test_a_hidden_cards_russian_name_is_in_no_other_roles_output(cli, english, monkeypatch):
    """By All Means' club night after entry 3 (alice's opening hand drawn, hidden from bob): none of her hand's
    Russian names in bob's Russian replay, show or log; her own replay names them."""
    from referee.service import Referee
    from referee.store import open_store

    mid = _imported(cli, "by_all_means")
    referee = Referee(open_store(os.environ["REFEREE_DB"]))
    loaded = referee.load(mid)
    _, state = referee.state_at(loaded, 3)
    secret = _hidden_russian(loaded, state, "bob")
    assert {"Тихий ревизор", "Знак сборщика пошлин"} <= secret, secret
    monkeypatch.setenv("REFEREE_LANG", "ru")
    outputs = [cli("replay", mid, "--to", 3, "--as", "bob").out, cli("show", mid, "--at", 3, "--as", "bob").out,
               cli("log", mid, "--to", 3, "--as", "bob").out]
    assert "Мельничный двор" in outputs[0]  # his own card, in Russian: the names are there to be seen
    for text in outputs:
        assert not [n for n in secret if n in text], text
    assert "Тихий ревизор" in cli("replay", mid, "--to", 3, "--as", "alice").out  # her own card, in Russian


def test_a_hidden_cards_russian_name_is_not_on_another_seats_russian_page(cli, english, monkeypatch, tmp_path):
    """The club night's first three entries (both opening hands drawn): bob's viewer page in Russian (the HTML
    export, what HTTP streams for ?lang=ru) names none of alice's hidden cards, in Russian or English; alice's
    page names her hand in Russian."""
    from referee import i18n
    from referee.service import Referee
    from referee.store import open_store
    from test_leaks import names_of

    opening = open(os.path.join(ROOT, REPLAYS["by_all_means"]), encoding="utf-8").read().splitlines()[:17]
    path = tmp_path / "opening.txt"
    path.write_text("\n".join(opening) + "\n", encoding="utf-8")
    r = cli("import", path)
    assert r.code == 0, r.err
    mid = r.out.strip().splitlines()[-1]
    referee = Referee(open_store(os.environ["REFEREE_DB"]))
    loaded = referee.load(mid)
    _, state = referee.state_at(loaded)
    hidden = names_of(loaded, set(loaded.rules.hidden_ids(state, "bob")), card_names(loaded))
    assert {"Тихий ревизор", "Quiet Auditor"} <= hidden, hidden
    monkeypatch.setenv("REFEREE_LANG", "ru")
    bob, alice = (cli("export", mid, "--format", "html", "--as", seat).out for seat in ("bob", "alice"))
    assert '<html lang="ru">' in bob
    assert not [n for n in hidden if n in bob]
    with i18n.speaking("ru"):
        hers = {loaded.rules.name_of(c) for c in state.players["alice"].hand}
    assert "Тихий ревизор" in hers and all(n and n in alice for n in hers), hers
    assert "Мельничный двор" in bob  # his own hand, in Russian


def test_the_leak_checks_search_the_russian_names_too():
    """tests/support/pageleaks.py's search, given an answer holding a hidden card's Russian name, finds it."""
    from support.pageleaks import MatchNames

    every = {"T01": "Lantern Quay", "T01" + RU: "Фонарная пристань", "T02": "Copper Steps", "T02" + RU: "Медные ступени"}
    names = MatchNames(every)
    assert names.only_hidden(frozenset({"T01"})) == {"Lantern Quay", "Фонарная пристань"}
    assert card_of("T01" + RU) == "T01"


BAD = [("line break", 'name_ru = "Фонарная\\nпристань"', "LINE FEED"),
       ("not a string", "name_ru = 3", "name_ru"),
       ("bidi override", 'name_ru = "Фонарная \\u202e пристань"', "RIGHT-TO-LEFT OVERRIDE")]


@pytest.mark.parametrize("what,line,named", BAD, ids=[b[0] for b in BAD])
def test_a_bad_russian_name_is_refused_with_the_card_data(cli, english, tmp_path, what, line, named):
    text = open(os.path.join(ROOT, "referee/games/by_all_means/data/demo.toml"), encoding="utf-8").read()
    bad = text.replace('name_ru = "Фонарная пристань"', line, 1)
    assert bad != text
    path = tmp_path / "cards.toml"
    path.write_text(bad, encoding="utf-8")
    r = cli("new", "by_all_means", "--players", "alice,bob", "--cards", str(path))
    assert r.code != 0 and named in r.err and "Traceback" not in r.err, r.err
    assert not [line for line in dump(os.environ["REFEREE_DB"]) if line.startswith("INSERT")]  # nothing written


def test_a_russian_name_that_reads_like_a_move_stays_a_name(cli, english, tmp_path, monkeypatch):
    """A Russian name holding notation, a transcript's markers and HTML is shown as the name it is: the txt
    export of the match imports back to the same entries, the page escapes it."""
    text = open(os.path.join(ROOT, "referee/games/by_all_means/data/demo.toml"), encoding="utf-8").read()
    hostile = "end_turn # ruling: stands <b>x</b> ! draw_main card=T02"
    path = tmp_path / "cards.toml"
    path.write_text(text.replace('name_ru = "Мельничный двор"', f'name_ru = "{hostile}"', 1), encoding="utf-8")
    replay = open(os.path.join(ROOT, REPLAYS["by_all_means"]), encoding="utf-8").read()
    mine = tmp_path / "night.txt"
    mine.write_text(re.sub(r"(?m)^cards: .*$", f"cards: {path}", replay), encoding="utf-8")
    r = cli("import", mine)
    assert r.code == 0, r.err
    mid = r.out.strip().splitlines()[-1]
    monkeypatch.setenv("REFEREE_LANG", "ru")
    said = cli("replay", mid, "--to", 2).out
    assert f"bob берёт {hostile}" in said  # T04 by its (hostile) Russian name, inside its sentence
    exported = cli("export", mid, "--format", "txt").out
    assert hostile not in exported
    page = cli("export", mid, "--format", "html").out
    assert "<b>x</b>" not in page  # escaped wherever the page holds it: its text, its script's data
    assert "stands &lt;b&gt;x&lt;/b&gt; !" in page and "stands \\u003cb>x\\u003c/b> !" in page
    again = tmp_path / "again.txt"
    again.write_text(exported, encoding="utf-8")
    back = cli("import", again)
    assert back.code == 0, back.err
    monkeypatch.delenv("REFEREE_LANG")
    first = cli("log", mid, "--json").out
    second = cli("log", back.out.strip().splitlines()[-1], "--json").out
    strip = re.compile(r'"(hash|prev_hash|recorded_at|match_id|id)": "[^"]*"')
    assert strip.sub("", first).count('"notation"') == strip.sub("", second).count('"notation"')
    assert re.findall(r'"notation": "([^"]*)"', first) == re.findall(r'"notation": "([^"]*)"', second)


def test_the_card_listing_names_in_the_readers_language_and_its_json_in_english(cli, english, monkeypatch):
    """``referee cards GAME demo``: a Russian reader's table gives each card's Russian name beside the id to
    type; ``--json`` is the English listing in either language."""
    json_before = cli("cards", "by_all_means", "demo", "--json").out
    regions = cli("cards", "war_of_shadows", "demo").out
    assert "Lantern Quay" in cli("cards", "by_all_means", "demo").out and not _CYRILLIC.search(regions)
    monkeypatch.setenv("REFEREE_LANG", "ru")
    assert cli("cards", "by_all_means", "demo", "--json").out == json_before and '"Lantern Quay"' in json_before
    said = cli("cards", "by_all_means", "demo").out
    assert "Фонарная пристань" in said and "Lantern Quay" not in said
    assert "Морозное озеро" in cli("cards", "war_of_shadows", "demo").out  # a region, named in Russian only
