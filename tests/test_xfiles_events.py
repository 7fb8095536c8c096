"""X-Files' events as domain facts (issue 28 item 5): stored logs in the older vocabulary (every event
carrying its state-path ``changes``) still decode, fold to the same state hashes and audit clean.

``tests/fixtures/xfiles-paths-2026-11-28.db`` was written by the referee before the change
(``tests/fixtures/make_xfiles_paths_db.py``): the two-agents replay imported and a digital match with an
undo; ``xfiles-paths-2026-11-28.json`` holds its heads and every entry's state hash then.
"""

from __future__ import annotations

import json
import os
import shutil

import pytest

from referee.engine import core
from referee.service import Referee
from referee.store.sqlite import SqliteStore

FIXTURES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures")
OLD = os.path.join(FIXTURES, "xfiles-paths-2026-11-28")


@pytest.fixture()
def old_log(tmp_path):
    path = tmp_path / "old.db"
    shutil.copyfile(OLD + ".db", path)
    ref = Referee(SqliteStore(str(path)))
    yield ref
    ref.store.close()


def test_old_vocabulary_logs_audit_clean_with_the_same_heads(old_log):
    with open(OLD + ".json", encoding="utf-8") as fh:
        then = json.load(fh)
    assert sorted(m.id for m in old_log.store.list_matches()) == sorted(then)
    for mid, was in then.items():
        report = old_log.audit(mid)
        assert report.clean, (mid, report.findings)
        assert (report.head, report.head_hash) == (was["head"], was["head_hash"])


def test_old_vocabulary_logs_fold_to_the_same_state_hashes(old_log):
    """Every entry's state, folded from the stored events, hashes as it did when written."""
    with open(OLD + ".json", encoding="utf-8") as fh:
        then = json.load(fh)
    for mid, was in then.items():
        loaded = old_log.load(mid)
        hashes = []
        for seq in range(1, was["head"] + 1):
            _, state = old_log.state_at(loaded, seq)
            hashes.append(core.state_hash(state))
        assert hashes == was["state_hashes"], mid
