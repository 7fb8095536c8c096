"""Every recorded match in replays/ imports, exports in all four formats and round-trips."""

from __future__ import annotations

import glob
import json
import os

import pytest

from conftest import ROOT
from referee.export import FORMATS, export
from referee.service import Referee
from referee.store.memory import MemoryStore
from referee.transcript import import_transcript

REPLAYS = sorted(glob.glob(os.path.join(ROOT, "replays", "*", "*.txt")))


def test_there_are_replays():
    assert REPLAYS, "replays/<game>/*.txt holds the recorded demo matches"


@pytest.mark.parametrize("path", REPLAYS, ids=lambda p: os.path.relpath(p, ROOT))
def test_replay_imports_exports_and_round_trips(path):
    r = Referee(MemoryStore())
    with open(path, encoding="utf-8") as fh:
        text = fh.read()
    summary = import_transcript(r, text, path, os.path.dirname(path))
    assert summary.outcome is not None, f"{path} should record a finished game"
    assert summary.rejected >= 1, f"{path} should show the referee rejecting something"
    unparsed = [p for p in summary.problems if not p.code.startswith(summary.game + "/") and "/" in p.code
                and p.code.split("/")[0] in ("input", "transcript", "match")]
    assert unparsed == [], f"{path}: lines the referee could not read: {unparsed}"
    made = {(fmt, role): export(r, summary.match_id, fmt, role) for fmt in FORMATS for role in ("arbiter", "spectator")}
    assert all(made.values())
    again = import_transcript(r, made["txt", "arbiter"], "again.txt", os.path.dirname(path))
    a = [(e.kind, e.actor, e.notation, e.verdict, e.state_hash) for e in r.log(summary.match_id)]
    b = [(e.kind, e.actor, e.notation, e.verdict, e.state_hash) for e in r.log(again.match_id)]
    assert a == b
    assert json.loads(made["json", "arbiter"])["outcome"] is not None
