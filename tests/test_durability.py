"""Acknowledged means durable (issue 12): every writer commits at ``synchronous=FULL`` unless asked
for ``normal`` (``REFEREE_DURABILITY`` or the store's ``durability``), a bad value is refused before a
database is opened, and a writer killed mid-run loses no entry it acknowledged."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys

import pytest

from conftest import ROOT
from referee.store import BadSetting
from referee.service import Referee
from referee.store.sqlite import SqliteStore
from support.pile import PILE

FULL, NORMAL = 2, 1  # what PRAGMA synchronous answers


def _synchronous(store: SqliteStore) -> int:
    return int(store.conn.execute("PRAGMA synchronous").fetchone()[0])


def test_full_is_the_default_and_normal_is_asked_for(tmp_path, monkeypatch):
    monkeypatch.delenv("REFEREE_DURABILITY", raising=False)
    path = str(tmp_path / "d.db")
    store = SqliteStore(path)
    assert store.durability == "full" and _synchronous(store) == FULL
    assert _synchronous(store.reopen()) == FULL
    assert _synchronous(SqliteStore(path, durability="normal")) == NORMAL
    monkeypatch.setenv("REFEREE_DURABILITY", "normal")
    quick = SqliteStore(path)
    assert quick.durability == "normal" and _synchronous(quick) == NORMAL
    assert _synchronous(quick.reopen()) == NORMAL  # an audit's other processes write nothing, but read alike
    assert _synchronous(SqliteStore(path, durability="full")) == FULL  # the parameter wins over the variable
    monkeypatch.setenv("REFEREE_DURABILITY", " FULL ")
    assert SqliteStore(path).durability == "full"
    monkeypatch.setenv("REFEREE_DURABILITY", "")
    assert SqliteStore(path).durability == "full"


@pytest.mark.parametrize("how", ["env", "parameter"])
def test_a_bad_durability_is_refused_naming_the_values_and_opens_nothing(tmp_path, monkeypatch, how):
    path = tmp_path / "never.db"
    if how == "env":
        monkeypatch.setenv("REFEREE_DURABILITY", "fast")
    with pytest.raises(BadSetting) as err:
        SqliteStore(str(path)) if how == "env" else SqliteStore(str(path), durability="fast")
    assert "full or normal" in err.value.message and "'fast'" in err.value.message
    assert ("REFEREE_DURABILITY" in err.value.message) == (how == "env")
    assert not path.exists()


def test_the_cli_refuses_a_bad_durability_with_exit_2(cli, tmp_path, monkeypatch):
    monkeypatch.setenv("REFEREE_DURABILITY", "sometimes")
    for args in (("new", "by_all_means", "--players", "a,b"), ("matches",)):
        res = cli(*args)
        assert res.code == 2, res.err
        assert len(res.err.strip().splitlines()) == 1 and "REFEREE_DURABILITY must be full or normal" in res.err
    assert not (tmp_path / "r.db").exists()


def test_the_cli_option_sets_the_durability_and_wins_over_the_variable(cli, tmp_path, monkeypatch):
    from referee.store import sqlite as sqlite_store

    opened: list[str] = []
    real = sqlite_store.SqliteStore.__init__

    def spy(self, path, *, durability=None, create=True):
        real(self, path, durability=durability, create=create)
        opened.append(self.durability)

    monkeypatch.setattr(sqlite_store.SqliteStore, "__init__", spy)
    monkeypatch.setenv("REFEREE_DURABILITY", "full")
    assert cli("--durability", "normal", "new", "by_all_means", "--players", "a,b").code == 0
    assert cli("matches").code == 0
    assert opened == ["normal", "full"]
    res = cli("--durability", "fast", "matches")
    assert res.code == 2 and "the durability must be full or normal, not 'fast'" in res.err, res.err


def test_the_server_refuses_a_bad_durability_at_start(tmp_path):
    env = {**os.environ, "REFEREE_DURABILITY": "yes"}
    db = tmp_path / "hall.db"
    out = subprocess.run([sys.executable, "-m", "cli.main", "serve", "--db", str(db), "--port", "0"],
                         cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    assert out.returncode == 2, out.stderr
    assert "REFEREE_DURABILITY must be full or normal" in out.stderr and "Traceback" not in out.stderr
    assert not db.exists()


_WRITER = """
import sys
sys.path.insert(0, 'tests')
from support.pile import PILE
from referee.service import Referee
from referee.store.sqlite import SqliteStore

store = SqliteStore(sys.argv[1])
print('synchronous', store.conn.execute('PRAGMA synchronous').fetchone()[0], flush=True)
referee = Referee(store, games=[PILE])
i = 0
while True:
    i += 1
    print(referee.submit(sys.argv[2], 'alice', f'say note=n{i}').seq, flush=True)
"""


@pytest.mark.slow
def test_a_writer_killed_mid_run_loses_no_acknowledged_entry(tmp_path):
    """A writer appends through the service and prints each seq once ``submit`` has returned (the
    acknowledgement a table gets); it is killed with SIGKILL while appending. Every seq it printed is
    in the log afterwards, and the log audits clean.

    What this does and does not show: SIGKILL ends the process, not the machine. The operating system
    keeps its page cache, so an entry written but not yet synced would survive here too; a power loss
    or an OS crash is not simulated. What it does show is that an acknowledgement comes only after
    the entry's transaction committed (never from a buffer or an open transaction), and that a kill at
    any point of an append leaves a consistent log. Syncing at each commit is ``synchronous=FULL``,
    which the writer checks it got (by default, with no durability asked for)."""
    db = str(tmp_path / "k.db")
    setup = Referee(SqliteStore(db), games=[PILE])
    m = setup.new_match("pile", ["alice", "bob"], seed=5)
    setup.submit(m.id, "alice", "start")
    setup.store.close()
    env = {k: v for k, v in os.environ.items() if k != "REFEREE_DURABILITY"}
    rng = random.Random(12)
    for _ in range(3):  # killed at three different moments
        before = Referee(SqliteStore(db), games=[PILE]).store.head(m.id)
        proc = subprocess.Popen([sys.executable, "-c", _WRITER, db, m.id], cwd=ROOT, env=env,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            assert proc.stdout is not None
            assert proc.stdout.readline().split() == ["synchronous", str(FULL)]
            acknowledged = []
            for _ in range(rng.randint(20, 80)):
                line = proc.stdout.readline()
                assert line, proc.stderr.read() if proc.stderr else ""
                acknowledged.append(int(line))
            proc.send_signal(signal.SIGKILL)
            acknowledged += [int(line) for line in proc.stdout.read().split()]  # printed before it died
        finally:
            proc.kill()
            proc.wait()
        assert proc.returncode == -signal.SIGKILL
        assert acknowledged == list(range(before + 1, before + 1 + len(acknowledged)))
        after = Referee(SqliteStore(db), games=[PILE])
        head = after.store.head(m.id)
        assert head >= acknowledged[-1]  # one more may have committed without being printed
        present = [e.seq for e in after.store.entries(m.id)]
        assert present == list(range(1, head + 1))
        report = after.audit(m.id, jobs=1)
        assert report.clean, report.findings
        after.store.close()
