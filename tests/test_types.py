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
