"""The product type-checks: ``mypy --strict`` over referee, cli and schemas (configured in
pyproject.toml) finds nothing. Run with the suite, so CI runs it too."""

from __future__ import annotations

import os

import pytest

from conftest import ROOT


def test_mypy_strict_is_clean():
    api = pytest.importorskip("mypy.api", reason="mypy is in the test extras: pip install '.[test]'")
    cwd = os.getcwd()
    os.chdir(ROOT)
    try:
        out, err, code = api.run(["--config-file", os.path.join(ROOT, "pyproject.toml")])
    finally:
        os.chdir(cwd)
    assert code == 0, out + err


def test_the_local_service_and_the_server_client_both_implement_the_referee_api(tmp_path):
    """The CLI talks to a referee through ``referee.api.RefereeApi`` alone, whether it is the service
    over a local database or a server over HTTP: mypy --strict finds that both classes implement it,
    and (the control) that a class lacking one of its methods does not."""
    api = pytest.importorskip("mypy.api", reason="mypy is in the test extras: pip install '.[test]'")
    snippet = tmp_path / "conforms.py"
    snippet.write_text(
        "from cli.client import RemoteReferee\n"
        "from referee.api import RefereeApi\n"
        "from referee.service import Referee\n"
        "from referee.store.memory import MemoryStore\n"
        "from schemas.http import StateAnswer\n"
        "\n"
        "local: RefereeApi = Referee(MemoryStore())\n"
        "remote: RefereeApi = RemoteReferee('http://127.0.0.1:9', 'token')\n"
        "\n"
        "\n"
        "class ShowsOnly:\n"
        "    def show(self, match_id: str, *, at: int | None = None, seat: str | None = None) -> StateAnswer:\n"
        "        raise NotImplementedError\n"
        "\n"
        "\n"
        "lacking: RefereeApi = ShowsOnly()\n",
        encoding="utf-8",
    )
    cwd = os.getcwd()
    os.chdir(ROOT)
    try:
        out, err, _code = api.run(["--config-file", os.path.join(ROOT, "pyproject.toml"), str(snippet)])
    finally:
        os.chdir(cwd)
    errors = [line for line in out.splitlines() if ": error:" in line]
    # (the line is named by the file's name: a cached run may name the temporary folder of an earlier one)
    assert errors and all("conforms.py:16: error:" in line for line in errors), out + err
    assert '"ShowsOnly"' in errors[0] and '"RefereeApi"' in errors[0], errors

