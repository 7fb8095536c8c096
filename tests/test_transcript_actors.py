"""A game's other actor named like a header key (Copycat's ``table``): in the header, ``table: <intent>``
is the actor's first move and ``table: 3`` is the table number."""

from __future__ import annotations

from pathlib import Path

from referee.service import Referee
from referee.store.memory import MemoryStore
from referee.transcript import import_transcript, parse

DEMO = Path(__file__).resolve().parent.parent / "replays" / "copycat" / "thursday-club.txt"


def _bare(text: str) -> str:
    """The demo with its first move unnumbered (``table: setup …``) and a table number in the header."""
    return text.replace("1. table: setup", "table: setup", 1).replace("date: 2026-11-19", "date: 2026-11-19\ntable: 3", 1)


def test_a_bare_table_move_before_any_move_is_the_tables_move_not_the_header_key():
    text = DEMO.read_text(encoding="utf-8")
    r = Referee(MemoryStore())
    numbered = import_transcript(r, text)
    bare = import_transcript(r, _bare(text))
    assert [(p.line, p.code) for p in bare.problems] == [(p.line + 1, p.code) for p in numbered.problems]
    assert bare.accepted == numbered.accepted and bare.rejected == numbered.rejected
    info = r.match_info(bare.match_id)
    assert info.table == "3"
    # the same log: the first entry is the table's setup in both
    first = r.log(bare.match_id)[0]
    assert first.actor == "table" and first.verdict == "accepted" and first.notation.startswith("setup ")
    assert r.log(numbered.match_id)[0].notation == first.notation
    assert r.show(bare.match_id).state_hash == r.show(numbered.match_id).state_hash


def test_a_table_line_whose_first_word_is_no_intent_stays_the_table_number():
    header, lines = parse("game: copycat\nplayers: a, b\ntable: 7\na: draw_hand drawn=A1\n",
                          actor_verbs=lambda g: {"table": frozenset({"setup", "cleanup"})} if g == "copycat" else {})
    assert header.values["table"] == "7"
    assert [(x.kind, x.seat) for x in lines] == [("move", "a")]


def test_for_a_game_without_such_an_actor_table_is_only_the_header_key():
    header, lines = parse("game: by_all_means\nplayers: a, b\ntable: setup\n",
                          actor_verbs=lambda g: {})
    assert header.values["table"] == "setup" and lines == []


def test_before_the_game_is_named_a_table_line_is_the_header_key():
    header, _ = parse("table: setup street=c1\ngame: copycat\nplayers: a, b\n",
                      actor_verbs=lambda g: {"table": frozenset({"setup"})})
    assert header.values["table"] == "setup street=c1"
