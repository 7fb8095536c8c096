import json
import os
import sqlite3
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
if HERE not in sys.path:
    sys.path.insert(0, HERE)


class Result:
    def __init__(self, code, out, err):
        self.code, self.out, self.err = code, out, err

    @property
    def json(self):
        return json.loads(self.out)

    @property
    def last_line(self):
        return self.out.strip().splitlines()[-1]


@pytest.fixture
def cli(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("REFEREE_DB", str(tmp_path / "r.db"))
    monkeypatch.setenv("COLUMNS", "200")
    monkeypatch.chdir(tmp_path)

    def call(*args):
        from cli.main import run

        capsys.readouterr()
        try:
            run([str(a) for a in args])
            code = 0
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else 1
        out, err = capsys.readouterr()
        assert "Traceback" not in out + err
        assert code != 70, err
        return Result(code, out, err)

    return call


def dump(path) -> list[str]:
    if not os.path.exists(path):
        return []
    conn = sqlite3.connect(path)
    try:
        return list(conn.iterdump())
    finally:
        conn.close()
