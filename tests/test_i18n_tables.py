"""The words inside the games' tables in the reader's language (issue 29): for each game, a bundled replay's
tables (``show``'s boards and sections) under Russian hold, in every cell whose English has a word that is
not an id (a card, a place, a seat, a value of the view), something other than the English; the English is
what the code's own English says (the catalog left out), and ``show --json`` is the same bytes in both
languages."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from typing import Any

import pytest

from conftest import ROOT
from referee.engine import speech
from referee.engine.present import WORD
from referee.service import Referee
from referee.store.memory import MemoryStore
from referee.transcript import import_transcript
from schemas.board import Board

_LATIN_WORD = re.compile(r"[A-Za-z]{2,}")

#: game, bundled replay, the entries shown (early, in the middle, at the end)
REPLAYS = [
    ("android", "thursday-club.txt", (12, 100, None)),
    ("by_all_means", "club-night.txt", (12, 40, None)),
    ("copycat", "thursday-club.txt", (12, 100, None)),
    ("war_of_shadows", "ember-coast.txt", (12, 60, None)),
    ("xfiles_encounters", "lone-agent.txt", (12, 100, None)),
    ("xfiles_encounters", "two-agents.txt", (12, 100, None)),
]


#: the words of a game's notation an area is named by (``shadows.1``, as a player types it)
NOTATION = {"xfiles_encounters": {"sector", "shadows", "bureau", "evidence"}}


@pytest.fixture(scope="module")
def matches() -> tuple[Referee, dict[str, str]]:
    from referee import i18n

    r = Referee(MemoryStore())
    out = {}
    with i18n.speaking("en"):
        for game, replay, _at in REPLAYS:
            path = os.path.join(ROOT, "replays", game, replay)
            with open(path, encoding="utf-8") as fh:
                out[replay + game] = import_transcript(r, fh.read(), path, os.path.dirname(path)).match_id
    return r, out


def _cells(boards: tuple[Board, ...]) -> Iterator[tuple[str, str]]:
    """Every text a reader reads in a table (where it is, the text): each area's id, label, row, column,
    lines and facts' labels, in order."""
    for b in boards:
        for k, a in enumerate(b.areas):
            where = f"{b.title}[{k}]"
            if b.layout != "grid":  # a grid's cell is read by its row and column
                yield f"{where}.id", a.id
            yield f"{where}.label", a.label
            yield f"{where}.row", a.row
            yield f"{where}.col", a.col
            for n, line in enumerate(a.lines):
                yield f"{where}.lines[{n}]", line
            for n, (key, _value) in enumerate(a.facts):
                yield f"{where}.facts[{n}]", key


def _ids(value: Any, out: set[str]) -> set[str]:
    """The words of every text value of a view (cards, seats, places, empires, states as stored)."""
    if isinstance(value, dict):
        for v in value.values():
            _ids(v, out)
    elif isinstance(value, list):
        for v in value:
            _ids(v, out)
    elif isinstance(value, str):
        out.update(WORD.findall(value))
    return out


def _shown(r: Referee, mid: str, at: int | None, lang: str) -> tuple[tuple[Board, ...], dict[str, Any]]:
    from referee import i18n

    with i18n.speaking(lang):
        answer = r.show(mid, at=at)
    return _printed(answer), answer.state


def _printed(answer: Any) -> tuple[Board, ...]:
    """What ``show`` prints of a state answer: the boards but their tableaux, then the sections (the
    tableaux in words, the rest)."""
    return (*(b for b in answer.boards if b.layout != "tableau"), *answer.sections)


@pytest.mark.parametrize("game,replay,ats", REPLAYS, ids=[f"{g}-{r[:-4]}" for g, r, _ in REPLAYS])
def test_every_worded_cell_of_the_tables_reads_russian(matches, english, game, replay, ats):
    from referee import i18n

    r, mids = matches
    loaded = r.load(mids[replay + game])
    seats = set(loaded.config.players)
    for at in ats:
        en, state = _shown(r, mids[replay + game], at, "en")
        ru, _ = _shown(r, mids[replay + game], at, "ru")
        en_cells, ru_cells = list(_cells(en)), list(_cells(ru))
        assert len(en_cells) == len(ru_cells)
        ids = _ids(state, set()) | seats
        left = []
        with i18n.speaking("ru"):  # a place the data names in Russian only (an id in English) is named
            named = {w for _where, text in en_cells for w in WORD.findall(text) if loaded.rules.name_of(w)}
        for (where, said_en), (_w, said_ru) in zip(en_cells, ru_cells):
            words = [w for w in WORD.findall(said_en) if _LATIN_WORD.search(w) and w not in ids
                     and w not in NOTATION.get(game, ()) and w not in named and not w.isupper()]
            if words and said_ru == said_en:
                left.append(f"{where}: {said_en!r}")
        assert not left, f"{game} at {at}: English left in Russian tables: {left[:20]}"


@pytest.mark.parametrize("game,replay,ats", REPLAYS, ids=[f"{g}-{r[:-4]}" for g, r, _ in REPLAYS])
def test_the_english_tables_are_the_codes_own_english(matches, english, monkeypatch, game, replay, ats):
    """The tables in English are what the code says without any catalog (the untranslated path): the words
    said through the catalog changed nothing an English reader (or a program) reads."""
    r, mids = matches
    for at in ats:
        with_catalog, _ = _shown(r, mids[replay + game], at, "en")
        with monkeypatch.context() as m:
            m.setattr(speech, "_say", speech._english)
            m.setattr(speech, "_say_plural", speech._english_plural)
            m.setattr(speech, "_say_in", speech._english_in)
            m.setattr(speech, "_reader", speech._english_reader)
            answer = r.show(mids[replay + game], at=at)
        assert with_catalog == _printed(answer)


#: English labels and lines as they were before they went through the catalog (a drifted msgid shows here)
PINNED = [
    ("copycat", "thursday-club.txt", 100, ["worker supply anna", "turn placements left", "VP this round", "slot 5",
                                           "stage II", "1 VP token", "cost 3 + 1"]),
    ("war_of_shadows", "ember-coast.txt", None, ["banner supply bear", "deck size lion", "fanaticism", "score from loyalty",
                                                 "held by bear, conquered", "sheriff", "controlled by boris"]),
    ("android", "thursday-club.txt", None, ["favors.corp", "hand_origins.rachel.dark", "npc.kate.status", "banks alibi",
                                            "scene of the crime (hero: mia)", "alibis 0", "sheet"]),
    ("by_all_means", "club-night.txt", None, ["loyalty on the field", "whose turn", "utility pile"]),
    ("xfiles_encounters", "two-agents.txt", None, ["turn attack intelligence", "turn played classes will", "damage",
                                                   "16 cards", "17 in the stack", "last from season B"]),
]


@pytest.mark.parametrize("game,replay,at,texts", PINNED, ids=[p[0] for p in PINNED])
def test_the_english_words_are_as_before(matches, english, game, replay, at, texts):
    r, mids = matches
    shown = {text for _where, text in _cells(_shown(r, mids[replay + game], at, "en")[0])}
    shown |= {line for b in _shown(r, mids[replay + game], at, "en")[0] for a in b.areas for line in a.lines
              for line in line.split(", ")}
    missing = [t for t in texts if t not in shown]
    assert not missing, missing


@pytest.mark.parametrize("game,replay,ats", REPLAYS[:5], ids=[g for g, _r, _a in REPLAYS[:5]])
def test_show_json_is_the_same_bytes_in_both_languages(cli, english, monkeypatch, game, replay, ats):
    match = cli("import", os.path.join(ROOT, "replays", game, replay)).last_line
    for at in ats:
        args = ["show", match, "--json"] + ([] if at is None else ["--at", str(at)])
        monkeypatch.delenv("REFEREE_LANG", raising=False)
        en = cli(*args)
        monkeypatch.setenv("REFEREE_LANG", "ru")
        ru = cli(*args)
        assert en.code == ru.code == 0
        assert ru.out == en.out
        assert not re.search("[а-яё]", en.out, re.IGNORECASE)


#: game, replay, entry, the label of the phase's row in Russian
PHASES = [
    ("copycat", "thursday-club.txt", 40, "фаза"),
    ("by_all_means", "club-night.txt", None, "фаза"),
    ("war_of_shadows", "ember-coast.txt", 40, "фаза"),
    ("android", "thursday-club.txt", 100, "фаза"),
]


@pytest.mark.parametrize("game,replay,at,label", PHASES, ids=[p[0] for p in PHASES])
def test_the_phase_reads_in_russian_as_a_value_of_the_table(matches, english, game, replay, at, label):
    """A value the view stores as an id a person reads (the phase, By All Means' step) is said in the
    reader's words; in English it is the stored value."""
    r, mids = matches
    en, state = _shown(r, mids[replay + game], at, "en")
    ru, _ = _shown(r, mids[replay + game], at, "ru")
    en_facts = dict(f for b in en for a in b.areas for f in a.facts)
    ru_facts = dict(f for b in ru for a in b.areas for f in a.facts)
    assert en_facts["phase"] == state["phase"]
    assert re.search("[а-яё]", ru_facts[label]), ru_facts[label]


def test_the_xfiles_status_result_and_turn_phase_read_in_russian(matches, english):
    r, mids = matches
    mid = mids["two-agents.txt" + "xfiles_encounters"]
    en, state = _shown(r, mid, None, "en")
    ru, _ = _shown(r, mid, None, "ru")
    en_facts = dict(f for b in en for a in b.areas for f in a.facts)
    ru_facts = dict(f for b in ru for a in b.areas for f in a.facts)
    assert (en_facts["status"], en_facts["outcome result"], en_facts["turn phase"]) == (
        state["status"], state["outcome"]["result"], state["turn"]["phase"]) == ("lost", "lost", "strike")
    assert (ru_facts["состояние"], ru_facts["итог: результат"], ru_facts["ход: фаза"]) == ("поражение", "поражение", "удары")


def test_show_prints_a_maps_rows_and_borders_in_russian(cli, english, monkeypatch):
    """``show``'s map (printed row by row with each region's borders of a kind) says "row" and the kind of
    border in the reader's words; English as before."""
    match = cli("import", os.path.join(ROOT, "replays", "war_of_shadows", "ember-coast.txt")).last_line
    monkeypatch.delenv("REFEREE_LANG", raising=False)
    en = cli("show", match).out
    monkeypatch.setenv("REFEREE_LANG", "ru")
    ru = cli("show", match).out
    assert "row 1" in en and "sea: " in en
    assert "ряд 1" in ru and "море: " in ru
    assert "row 1" not in ru and "sea: " not in ru
