"""A database written by an older referee still opens, replays and audits clean, with the same heads.

``tests/fixtures/legacy-2026-11-25.db`` was written by main as of 2026-11-25 (before the hardening
of issue 10): two imported demos, a digital match with an undo, a redo, an annotation and a fork, and a
digital War of Shadows match. ``legacy-2026-11-25.json`` holds what its audit said then.
"""

from __future__ import annotations

import json
import os
import shutil

import pytest

from referee.service import Referee
from referee.store.sqlite import SqliteStore

FIXTURES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures")
DB = os.path.join(FIXTURES, "legacy-2026-11-25.db")


@pytest.fixture()
def legacy(tmp_path):
    path = tmp_path / "legacy.db"
    shutil.copyfile(DB, path)
    ref = Referee(SqliteStore(str(path)))
    yield ref
    ref.store.close()


def test_every_legacy_match_audits_clean_with_the_same_head(legacy):
    with open(os.path.join(FIXTURES, "legacy-2026-11-25.json"), encoding="utf-8") as fh:
        then = json.load(fh)
    ids = sorted(m.id for m in legacy.store.list_matches())
    assert ids == sorted(then)
    for mid in ids:
        report = legacy.audit(mid)
        assert report.clean, (mid, report.findings)
        assert report.head == then[mid]["head"]
        assert report.entries_hash == then[mid]["head_hash"]


def test_legacy_matches_replay_and_export(legacy):
    for m in legacy.store.list_matches():
        assert legacy.show(m.id).seq == legacy.store.head(m.id)
        from referee.export import export

        for fmt in ("txt", "md", "html", "json"):
            assert export(legacy, m.id, fmt, "spectator")


def test_format_1_entries_read_as_typed_acts_and_new_entries_are_format_2(legacy):
    import json

    from referee.engine.entries import Move, Redo, Undo

    kinds = {}
    for m in legacy.store.list_matches():
        loaded = legacy.load(m.id)
        for entry, body in legacy.bodies(loaded):
            assert json.loads(entry.body)["format"] == 1
            kinds[body.kind] = type(body.act)
            assert body.kind == entry.kind  # the index column says the same as the typed act
    assert kinds["intent"] is Move and kinds["undo"] is Undo and kinds["redo"] is Redo
    digital = next(m for m in legacy.store.list_matches() if m.title == "digital")
    head = legacy.store.head(digital.id)
    options = legacy.legal(digital.id).legal
    seat = next(s for s in options if options[s])
    legacy.submit(digital.id, seat, options[seat][0])
    legacy.undo(digital.id, by="arbiter", reason="checking a mixed log")
    new = list(legacy.store.entries(digital.id, head + 1))
    assert [json.loads(e.body)["format"] for e in new] == [2, 2]
    assert json.loads(new[-1].body)["act"] == {"type": "undo", "to": head, "target": head, "reason": "checking a mixed log"}
    assert legacy.audit(digital.id).clean  # a log of both formats audits clean
