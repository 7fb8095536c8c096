"""The events' sentences in the reader's language (issue 29): every sentence ``referee replay`` prints for the
bundled replays of all five games reads in Russian with ``REFEREE_LANG=ru`` (none is left as its English
one), English stays as it was, and what programs read (``replay --json``, the JSON export, the HTTP
answers) is the same bytes whatever the language; a count reads with Russian's plural forms."""

from __future__ import annotations

import glob
import json
import os
import re
from functools import cache

import pytest

from conftest import ROOT  # noqa: F401 - cli is conftest's fixture
from referee import i18n

REPLAYS = sorted(os.path.relpath(p, ROOT) for p in glob.glob(os.path.join(ROOT, "replays", "*", "*.txt")))
#: a sentence that reads the same in both languages (ids and numbers only); none of the demos' has yet
NEUTRAL: frozenset[str] = frozenset()
_CYRILLIC = re.compile("[а-яё]", re.IGNORECASE)


#: the English words of the games' sentences (their catalog entries in ``referee/games/*/words.py``, not the
#: tournament's words, fields left out): none may be left in a
#: Russian sentence, but in a printed name (``Bureau Specialist (tech)``, the office ``Wing A draw 3``,
#: ``Passing the Hat``), an audit flag's recorded note or a quoted text, which are the match's own words
_PRINTED = {"the", "draw", "buy", "tech", "science", "intelligence", "leadership", "will"}
_NAME = re.compile(r"[A-Z][\w'+-]*(?:\s+(?:of|the|in|to|a|on|and|with|for|says|she|wants)?\s*[A-Z0-9][\w'+-]*)*")


@cache
def _vocabulary() -> frozenset[str]:
    from babel.messages.pofile import read_po

    with open(os.path.join(ROOT, "referee", "locale", "referee.pot"), "rb") as fh:
        catalog = read_po(fh)
    words: set[str] = set()
    for m in catalog:
        if any(where.startswith("referee/games/") and where.endswith("/words.py") for where, _ in m.locations):
            for msgid in m.id if isinstance(m.id, tuple) else (m.id,):
                words |= set(re.findall(r"[a-z]{3,}", re.sub(r"\{\w+\}", "", msgid)))
    return frozenset(words)


def _english_left(sentence: str, vocabulary: frozenset[str]) -> set[str]:
    """The sentence's words that are the games' English words (see :data:`_PRINTED`)."""
    if sentence.startswith("отмечено для аудита"):
        return set()
    bare = re.sub(r"«[^»]*»", "", _NAME.sub("", sentence))
    return {w for w in re.findall(r"(?<![\w.])[a-z]{3,}(?![\w.])", bare) if w in vocabulary} - _PRINTED


def _sentences(out: str) -> list[str]:
    """The events' sentences of a replay as printed (``    · ...``)."""
    return [line[6:] for line in out.splitlines() if line.startswith("    · ")]


def _run(cli, monkeypatch, lang: str | None, *args: str) -> str:
    if lang is None:
        monkeypatch.delenv("REFEREE_LANG", raising=False)
    else:
        monkeypatch.setenv("REFEREE_LANG", lang)
    r = cli(*args)
    assert r.code == 0, r.err
    return r.out


def test_every_game_has_a_bundled_replay():
    assert {p.split(os.sep)[1] for p in REPLAYS} == {"android", "by_all_means", "copycat", "war_of_shadows",
                                                       "xfiles_encounters"}


@pytest.mark.parametrize("replay", REPLAYS)
def test_a_replay_reads_every_sentence_in_russian_and_its_json_is_the_same_bytes(cli, english, monkeypatch, replay):
    match = _run(cli, monkeypatch, None, "import", os.path.join(ROOT, replay)).strip().splitlines()[-1]
    # the English sentences: the English JSON replay's words, which an English text replay prints one a line
    # after a "·" (the same lists, checked when this was written), so the text replay runs once, in Russian
    replayed = _run(cli, monkeypatch, None, "replay", match, "--json")
    en = [w for step in json.loads(replayed) for w in step["words"]]
    ru = _sentences(_run(cli, monkeypatch, "ru", "replay", match))
    assert en and len(ru) == len(en)
    left = [(e, r) for e, r in zip(en, ru) if (r == e or not _CYRILLIC.search(r)) and r not in NEUTRAL]
    assert left == [], f"{len(left)} of {len(en)} sentences not in Russian, e.g. {left[:3]}"
    vocabulary = _vocabulary()
    english_left = [(r, _english_left(r, vocabulary)) for r in ru if _english_left(r, vocabulary)]
    assert english_left == [], f"English words left in {len(english_left)} sentences, e.g. {english_left[:3]}"
    assert _run(cli, monkeypatch, "ru", "replay", match, "--json") == replayed
    export = ("export", match, "--format", "json")
    assert _run(cli, monkeypatch, "ru", *export) == _run(cli, monkeypatch, None, *export)


def test_the_club_nights_sentences_in_russian(cli, english, monkeypatch):
    match = _run(cli, monkeypatch, None, "import", os.path.join(ROOT, "replays", "by_all_means",
                                                                  "club-night.txt")).strip().splitlines()[-1]
    ru = _sentences(_run(cli, monkeypatch, "ru", "replay", match, "--to", "7"))
    assert ru == [
        "жребий выигрывает alice",
        *[f"bob берёт {c}: основной архив → рука (стартовая рука)"
          for c in ("Мельничный двор", "Садовые террасы", "Ночной рынок", "Садовые террасы")],
        *[f"alice берёт {c}: основной архив → рука (стартовая рука)"
          for c in ("Тихий ревизор", "Знак сборщика пошлин", "Фабрика слухов", "Портовый писарь")],
        "обе стартовые руки набраны, жребий записан: выигравший жребий решает, кто начинает",
        "первым ходит bob", "далее муллиганы",
        "alice берёт Канатная слобода: основной архив → рука (муллиган)",
        "alice кладёт Портовый писарь: рука → дополнительный архив (муллиган)",
        "alice берёт муллиган", "bob берёт муллиган", "игра начинается",
        "начинается ход 1: у игрока bob действий: основных 2, дополнительных 1",
        "bob платит: репутация −2 (6 → 4) за Садовые террасы",
        "bob выкладывает Садовые террасы на B3 (из руки)",
        "bob: влияние +1 (0 → 1) — Садовые террасы выходит на поле",
    ]


def test_a_count_reads_with_russian_plural_forms(english):
    from referee.games.copycat import words
    from referee.games.copycat.model import CoinsGained
    from referee.games.war_of_shadows import words as shadows
    from referee.games.war_of_shadows.model import CardsDrawn

    def coins(n: int) -> str | None:
        return words.describe(None, CoinsGained(seat="anna", coins=n))  # type: ignore[arg-type]

    assert [coins(n) for n in (1, 2, 5)] == ["anna gains 1 coin", "anna gains 2 coins", "anna gains 5 coins"]
    with i18n.speaking("ru"):
        assert [coins(n) for n in (1, 2, 5, 11, 21, 22)] == [
            "anna получает 1 монету", "anna получает 2 монеты", "anna получает 5 монет", "anna получает 11 монет",
            "anna получает 21 монету", "anna получает 22 монеты"]

        class Tracked:
            counted = False

        drawn = [shadows.describe(Tracked(), CardsDrawn(player="vera", empire="bear", cards=("C1",) * n))  # type: ignore[arg-type]
                 for n in (1, 3, 5)]
    assert drawn == ["vera берёт 1 карту из колоды bear: C1", "vera берёт 3 карты из колоды bear: C1, C1, C1",
                     "vera берёт 5 карт из колоды bear: C1, C1, C1, C1, C1"]
    assert coins(1) == "anna gains 1 coin"  # the block ended: English again


def test_the_http_answers_are_worded_in_english_whatever_the_servers_language(db_store, english):
    """A server started with ``REFEREE_LANG=ru`` writes its pages in Russian, but its JSON (a write's answer,
    the replay, the JSON export) in English, the same bytes as an English server's."""
    from referee.games.by_all_means import GAME as BY_ALL_MEANS
    from referee.service import Referee
    from support.apps import app_client

    def answers(lang: str) -> list[str]:
        i18n.use(lang)
        with app_client(lambda: Referee(db_store, games=[BY_ALL_MEANS])) as c:
            made = c.post("/matches", json={"game": "by_all_means", "players": ["alice", "bob"], "cards": "spec"})
            assert made.status_code == 201, made.text
            mid, token = made.json()["match"]["id"], made.json()["tokens"]["arbiter"]
            auth = {"Authorization": f"Bearer {token}"}
            wrote = c.post(f"/matches/{mid}/intents", headers=auth,
                           json={"intent": "draw_opening_hand cards=TR1,TR2,AG1,PL2", "seat": "alice"})
            assert wrote.status_code == 201 and wrote.json()["verdict"] == "accepted", wrote.text
            words = wrote.json()["words"]
            assert words and not any(_CYRILLIC.search(w) for w in words), words
            replay = c.get(f"/matches/{mid}/replay", headers=auth)
            export = c.get(f"/matches/{mid}/export", params={"format": "json"}, headers=auth)
            assert replay.status_code == 200 and export.status_code == 200
            assert not _CYRILLIC.search(replay.text) and not _CYRILLIC.search(export.text)
            said = [w for step in replay.json() for w in step["words"]]
            assert said == words  # the one entry's words, as the write answered them
            return [*words, *[w for step in export.json()["steps"] for w in step["words"]]]

    assert answers("ru") == answers("en")


def test_the_club_nights_rejections_read_in_russian_in_log_replay_and_markdown(cli, english, monkeypatch):
    match = _run(cli, monkeypatch, None, "import", os.path.join(ROOT, "replays", "by_all_means",
                                                                  "club-night.txt")).strip().splitlines()[-1]
    said = ("by_all_means/card_not_in_archive: основной архив игрока alice не может содержать T12: в колоде игрока "
            "alice нет T12 (R-ARCHIVES Архивы)")
    english_said = ("by_all_means/card_not_in_archive: T12 cannot be in alice's main archive: alice's deck has no T12 "
                    "(R-ARCHIVES Archives)")
    for args in (("log", match, "--only", "rejected"), ("replay", match, "--from", "74", "--to", "74")):
        ru, en = _run(cli, monkeypatch, "ru", *args), _run(cli, monkeypatch, None, *args)
        assert said in ru and english_said not in ru, ru
        assert english_said in en and said not in en, en
    lines = _run(cli, monkeypatch, "ru", "log", match, "--only", "rejected").splitlines()
    assert lines[2].startswith("74  alice    отклонено     draw_main card=T12  — by_all_means/card_not_in_archive: ")
    assert lines[2].endswith("; ошибка: T12 is not in alice's deck at all; the card was the Pilgrim Bridge; из строки 94")
    steps = _run(cli, monkeypatch, "ru", "replay", match, "--from", "59", "--to", "59").splitlines()
    assert steps[0] == "✗ #59 bob: agent_attack_player agent=B3 (из строки 77)"
    md = _run(cli, monkeypatch, "ru", "export", match, "--format", "md")
    assert "   - bob: влияние +1 (0 → 1) — Садовые террасы выходит на поле" in md  # the Markdown a person reads
    assert "`by_all_means/first_turn_draw_only`: единственным оставшимся основным действием первого хода должно быть " \
           "draw\\_main (R-SETUP Подготовка к игре)" in md
