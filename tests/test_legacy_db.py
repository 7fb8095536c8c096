"""A database written by an older referee still opens, replays and audits with the same heads (clean,
but for the rules changes since, which audit reports as such).

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


#: the one legacy match whose log folds differently under today's rules: a digital War of Shadows match,
#: whose draws rules 1 salted with the entry number (rules 2 derives them from each deck's history)
REDRAWN = "1f9541bbebec"


def test_every_legacy_match_audits_with_the_same_head(legacy):
    """Both games' rules changed since (By All Means and War of Shadows rules 2: digital chance from the
    seed and each deck's history): audit says so for every match, and re-adjudicated under the new
    rules the matches whose chance was typed at the table, and those that drew nothing the change
    alters, still audit clean; the digital War of Shadows match is reported at its first draw."""
    with open(os.path.join(FIXTURES, "legacy-2026-11-25.json"), encoding="utf-8") as fh:
        then = json.load(fh)
    ids = sorted(m.id for m in legacy.store.list_matches())
    assert ids == sorted(then)
    for mid in ids:
        report = legacy.audit(mid)
        assert not report.clean
        assert [(f.what, f.recorded) for f in report.findings] == [("rules_version", "1")]
        assert (report.rules_version, report.current_rules_version) == ("1", "2")
        accepted = legacy.audit(mid, accept_rules_change=True)
        for r in (report, accepted):
            assert r.head == then[mid]["head"]
            assert r.entries_hash == then[mid]["head_hash"]
        if mid == REDRAWN:
            assert [(f.seq, f.derived) for f in accepted.findings] == [(2, "rejected war_of_shadows/chance_mismatch")]
        else:
            assert accepted.clean, (mid, accepted.findings)


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
    assert legacy.audit(digital.id, accept_rules_change=True).clean  # a log of both formats audits clean
