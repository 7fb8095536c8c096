"""Transcripts in, exports out: annotations and rulings survive, txt round-trips, md/html/json are
built only from the role's view (searched byte by byte for hidden ids), json matches its schema."""

from __future__ import annotations

import json
import os

import jsonschema
import pytest

from conftest import ROOT
from referee.export import export
from referee.service import Referee
from referee.store.memory import MemoryStore
from referee.transcript import import_transcript
from support.pile import PILE

TRANSCRIPT = """# Friday pile game, table 2
game: pile
players: alice, bob
option: stones=12
title: Friday pile
event: Club night
round: 3

alice: start first=alice tokens=K01,K02
! fair start
1. alice: take 3   # greedy
bob: take 5
ruling: stands as played — house rule tonight
bob: take 1
? why only one
alice: take 1
undo: by=alice reason="misheard the count"
alice: take 2
disputed: bob thinks alice counted wrong
# a comment after the last move
"""


@pytest.fixture
def imported():
    r = Referee(MemoryStore(), games=[PILE])
    summary = import_transcript(r, TRANSCRIPT, "friday.txt")
    return r, summary


def entries(r, mid):
    return [(e.kind, e.actor, e.notation, e.verdict, e.state_hash) for e in r.log(mid)]


def test_import_keeps_annotations_rulings_and_undos(imported):
    r, s = imported
    log = r.log(s.match_id)
    kinds = [e.kind for e in log]
    assert kinds == ["intent", "intent", "intent", "ruling", "intent", "intent", "undo", "intent"]
    assert log[2].verdict == "rejected" and log[3].verdict == "accepted"  # the ruling let it stand
    assert r.show(s.match_id).state["pile"] == 12 - 3 - 5 - 2
    assert log[5].undone_by == 7
    notes = {(a.seq, a.kind, a.text) for e in log for a in e.annotations}
    assert (1, "good", "fair start") in notes and (5, "mistake", "why only one") in notes
    assert (8, "disputed", "bob thinks alice counted wrong") in notes and (8, "comment", "a comment after the last move") in notes
    assert log[1].meta["comment"] == "greedy" and log[1].meta["number"] == 1
    assert [p.line for p in s.problems] == [12, 14]  # the rejected take 5, bob out of turn


def test_txt_export_round_trips(imported):
    r, s = imported
    again = import_transcript(r, export(r, s.match_id, "txt"), "again.txt")
    assert entries(r, again.match_id) == entries(r, s.match_id)
    assert again.state_hash == s.state_hash
    a = [(x.seq, x.kind, x.text) for e in r.log(s.match_id) for x in e.annotations]
    b = [(x.seq, x.kind, x.text) for e in r.log(again.match_id) for x in e.annotations]
    assert a == b


def test_markdown_reads_like_an_account(imported):
    r, s = imported
    md = export(r, s.match_id, "md")
    assert md.startswith("# Friday pile")
    assert "| Event | Club night |" in md and "| Round | 3 |" in md
    assert "alice takes 3 stones" in md
    assert "**rejected** `pile/bad_count`: take 1 to 3 stones, not 5 (R-TAKE)" in md
    assert "~~" in md and "undone by entry 7" in md
    assert "> ! fair start" in md and "> disputed: bob thinks alice counted wrong" in md


@pytest.mark.parametrize("fmt", ["txt", "md", "html", "json"])
def test_no_export_leaks_another_seats_token(imported, fmt):
    r, s = imported
    as_bob = export(r, s.match_id, fmt, "bob").encode()
    as_spectator = export(r, s.match_id, fmt, "spectator").encode()
    assert b"K01" not in as_bob and b"K02" in as_bob
    assert b"K01" not in as_spectator and b"K02" not in as_spectator
    full = export(r, s.match_id, fmt, "arbiter").encode()
    assert b"K01" in full and b"K02" in full


def test_json_export_matches_the_published_schema(imported):
    r, s = imported
    with open(os.path.join(ROOT, "schemas", "match-export.schema.json"), encoding="utf-8") as fh:
        schema = json.load(fh)
    doc = json.loads(export(r, s.match_id, "json"))
    jsonschema.validate(doc, schema)
    assert doc["format"] == "referee-match/1" and len(doc["steps"]) == 8
    assert doc["steps"][0]["state"]["tokens"] == {"alice": "K01", "bob": "K02"}


def test_published_schema_is_current(capsys):
    """``python -m schemas --check``'s own function, in this process (a Python started for it cost more than
    the check)."""
    from schemas.__main__ import main

    assert main(["--check"]) == 0, capsys.readouterr().err


def test_html_is_self_contained(imported):
    r, s = imported
    page = export(r, s.match_id, "html")
    assert page.startswith("<!doctype html>")
    # the SVG namespace's name is an identifier the script creates map lines in, not an address it fetches
    fetched = page.replace("'http://www.w3.org/2000/svg'", "")
    for needle in ("http://", "https://", "<link", "src="):
        assert needle not in fetched
    assert 'name="viewport"' in page and 'id="slider"' in page


def test_variations_show_forks(imported):
    r, s = imported
    fork = r.fork(s.match_id, at=3, name="if bob had taken 2")
    r.submit(fork.id, "bob", "take 2")
    md = export(r, s.match_id, "md")
    assert "## Variation from entry 3: if bob had taken 2" in md and "bob takes 2 stones" in md
