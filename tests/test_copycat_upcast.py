"""Copycat logs stored before its domain events still read, fold and audit the same.

``tests/fixtures/copycat-2026-11-28.db.gz`` was written by the referee whose Copycat events named state
paths (``adjusted`` / ``flag_set``): the bundled replay, every scenario file as stored steps and three
seeded random digital games (see ``tests/fixtures/make_copycat_db.py``); ``copycat-2026-11-28.json``
holds each match's head then.
"""

from __future__ import annotations

import gzip
import json
import os
import shutil

import pytest

from referee.engine import core
from referee.service import Referee
from referee.store.sqlite import SqliteStore

FIXTURES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures")
DB = os.path.join(FIXTURES, "copycat-2026-11-28.db.gz")


@pytest.fixture(scope="module")
def stored(tmp_path_factory):
    path = tmp_path_factory.mktemp("copycat-fixture") / "copycat.db"
    with gzip.open(DB, "rb") as packed, open(path, "wb") as raw:
        shutil.copyfileobj(packed, raw)
    ref = Referee(SqliteStore(str(path)), use_snapshots=False)  # every state folded from the setup
    yield ref
    ref.store.close()


def test_every_stored_copycat_match_audits_clean_with_the_same_head(stored):
    """Every verdict re-derived now equals the stored one (read through the upcaster), every state hash
    and the head are the same as when the log was written."""
    with open(os.path.join(FIXTURES, "copycat-2026-11-28.json"), encoding="utf-8") as fh:
        then = json.load(fh)
    ids = sorted(m.id for m in stored.store.list_matches())
    assert ids == sorted(then)
    for mid in ids:
        report = stored.audit(mid)
        assert report.clean, (mid, report.findings)
        assert (report.head, report.head_hash) == (then[mid]["head"], then[mid]["head_hash"])
        _, state = stored.state_at(stored.load(mid))  # the stored events, through the upcaster
        assert core.state_hash(state) == then[mid]["state_hash"]
