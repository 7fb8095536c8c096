"""The README is executable: its two set-up commands (each in a virtual environment) are what CI runs, and every `referee` command it
shows under "What you can do with it" runs (on the bundled demo match) without a usage error, a
traceback or an internal error."""

from __future__ import annotations

import os
import re
import shlex

import pytest

from cli.main import run
from conftest import ROOT

README = open(os.path.join(ROOT, "README.md"), encoding="utf-8").read()


def _block_after(heading: str) -> list[str]:
    part = README.split(heading, 1)[1]
    block = part.split("```bash", 1)[1].split("```", 1)[0]
    return [line for line in block.strip().splitlines() if line.strip()]


def test_the_readme_opens_with_the_two_commands_ci_runs():
    first = README.split("```bash", 1)[1].split("```", 1)[0].strip().splitlines()
    # each makes (or reuses) a virtual environment and runs only what is in it: a system Python that
    # refuses `pip install` (PEP 668, Debian and Ubuntu) is used for `-m venv` alone
    assert first == [
        "python3 -m venv .venv && .venv/bin/python -m pip install . && .venv/bin/referee import replays/by_all_means/club-night.txt",
        'python3 -m venv .venv && .venv/bin/python -m pip install ".[test]" && .venv/bin/python -m pytest -n auto',
    ]
    ci = open(os.path.join(ROOT, ".ci", "run"), encoding="utf-8").read()
    # CI makes its own environment (python3 -m venv, activated: `python` is the environment's) and runs
    # the test command's install and pytest in it, after the one package a fresh Debian lacks for venv
    assert 'python3 -m venv "$venv"' in ci and '. "$venv/bin/activate"' in ci
    assert 'python -m pip install -q ".[test]" && python -m pytest -n auto' in ci
    assert "apt-get install -y -qq python3-venv" in ci and "sudo apt-get install python3-venv" in README


def test_every_command_shown_runs(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("REFEREE_DB", str(tmp_path / "r.db"))
    monkeypatch.setenv("COLUMNS", "200")
    monkeypatch.chdir(ROOT)

    def call(words: list[str]) -> tuple[int, str]:
        capsys.readouterr()
        try:
            run(words)
            code = 0
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else 1
        out, err = capsys.readouterr()
        return code, out + err

    code, out = call(["import", "replays/by_all_means/club-night.txt"])
    assert code == 0
    demo = out.strip().splitlines()[-1]
    ids = {"3f9c": demo}
    lines = [re.sub(r"\s+#.*$", "", line) for line in _block_after("## What you can do with it")]
    for line in lines:
        words = shlex.split(line)
        assert words[0] == "referee"
        if words[1] == "serve":
            continue  # runs until interrupted: tests/http covers it
        words = [ids.get(w.split("@")[0], w.split("@")[0]) + ("@" + w.split("@")[1] if "@" in w else "") for w in words[1:]]
        if words[0] == "import":
            words[1] = "replays/by_all_means/club-night.txt"
        if "-o" in words:
            words[words.index("-o") + 1] = str(tmp_path / "game.html")
        code, out = call(words)
        assert code in (0, 1), (line, code, out)
        assert "Traceback" not in out and "internal error" not in out, (line, out)
        if words[0] in ("fork",):
            ids["a71b"] = out.strip().splitlines()[-1]
    assert (tmp_path / "game.html").exists()
