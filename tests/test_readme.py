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


def _caller(capsys):
    """``call(words) -> (exit code, stdout + stderr)``: the CLI run in process, as a person types it."""

    def call(words: list[str]) -> tuple[int, str]:
        capsys.readouterr()
        try:
            run(words)
            code = 0
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else 1
        out, err = capsys.readouterr()
        return code, out + err

    return call


def test_every_command_shown_runs(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("REFEREE_DB", str(tmp_path / "r.db"))
    monkeypatch.setenv("COLUMNS", "200")
    monkeypatch.chdir(ROOT)

    call = _caller(capsys)

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


def test_the_scorekeepers_walk_for_one_table_runs(tmp_path, monkeypatch, capsys):
    """The walk under "A table played on paper", command by command as typed (its ids are placeholders, as
    above): the sheet the template writes is filled in with a game played at table 2 by seeded random legal
    moves, one card misspelt; the check names that line, `amend` corrects it (the line and text as this
    sheet has them), and the standings and a clean audit follow."""
    from test_club_night import mistype, played

    monkeypatch.setenv("REFEREE_DB", str(tmp_path / "r.db"))
    monkeypatch.setenv("COLUMNS", "200")
    monkeypatch.chdir(tmp_path)

    call = _caller(capsys)

    lines = [re.sub(r"\s+#.*$", "", line) for line in _block_after("* **A table played on paper.**")]
    ids: dict[str, str] = {}
    seen: list[str] = []
    typo: tuple[int, str, str] | None = None
    for line in lines:
        words = shlex.split(line)
        assert words[0] == "referee"
        words = [w.replace("5e1a", ids.get("5e1a", "5e1a")).replace("7c2d", ids.get("7c2d", "7c2d")) for w in words[1:]]
        what = " ".join(words[:2]) if words[0] == "tournament" else words[0]
        if what == "amend":  # the line and its text as this sheet has them
            assert typo is not None and re.fullmatch(r"line:\d+", words[2]) and ": " in words[3], line
            words[2], words[3] = f"line:{typo[0]}", typo[1]
        code, out = call(words)
        assert code == 0, (line, out)
        assert "Traceback" not in out and "internal error" not in out, (line, out)
        seen.append(what)
        if what == "tournament new":
            ids["5e1a"] = out.strip().splitlines()[-1]
        elif what == "tournament pair":
            assert "table 2: cy v gus" in out, out
        elif what == "template":
            # the scorekeeper writes the game below the template's header; one card id misspelt
            head = (tmp_path / "sheet.txt").read_text(encoding="utf-8").split("\n\n", 1)[0].splitlines()
            game = played(("cy", "gus"), seed=2)
            k, wrong = mistype(game.moves, 0)
            moves = [*game.moves[:k], wrong, *game.moves[k + 1:]]
            (tmp_path / "sheet.txt").write_text("\n".join([*head, "", *moves]) + "\n", encoding="utf-8")
            typo = (len(head) + 2 + k, game.moves[k], game.winners[0])
        elif what == "import" and "--check" in words:
            assert typo is not None and "nothing written" in out and f"sheet.txt:{typo[0]}:" in out, out
        elif what == "import":
            ids["7c2d"] = out.strip().splitlines()[-1]
        elif what == "amend":
            assert typo is not None and f"Result: {typo[2]} won" in out, out
        elif what == "tournament audit":
            assert "clean" in out, out
    assert seen == ["tournament new", "tournament pair", "tournament slips", "template", "import", "import", "amend",
                    "tournament standings", "tournament audit"]
    assert (tmp_path / "round1.html").exists()


def test_the_russian_run_of_the_demos_prints_what_the_readme_shows(tmp_path, monkeypatch, capsys):
    """The commands under "## In Russian", as typed (``REFEREE_LANG=ru`` before each, ``MATCH`` the id the import
    prints): each runs, and every line of the output shown after them (the match id aside, a line cut at
    ``…`` compared up to it) is in what they print; the HTML export names the cards in Russian."""
    monkeypatch.setenv("REFEREE_DB", str(tmp_path / "r.db"))
    monkeypatch.setenv("COLUMNS", "100")
    monkeypatch.chdir(ROOT)
    call = _caller(capsys)
    part = README.split("## In Russian", 1)[1]
    shown = part.split("```text", 1)[1].split("```", 1)[0].strip().splitlines()
    printed, match = "", "MATCH"
    try:
        for line in _block_after("## In Russian"):
            env, _, command = line.partition(" referee ")
            assert env == "REFEREE_LANG=ru", line
            monkeypatch.setenv("REFEREE_LANG", "ru")
            words = [match if w == "MATCH" else w for w in shlex.split(command)]
            if "-o" in words:
                words[words.index("-o") + 1] = str(tmp_path / "MATCH.html")
            code, out = call(words)
            assert code == 0 and "Traceback" not in out, (line, out)
            printed += out
            if words[0] == "import":
                match = out.strip().splitlines()[-1]
    finally:
        from referee import i18n

        i18n.use("en")
    printed = printed.replace(match, "56e83422381a")
    for line in shown:
        assert line.split("…")[0] in printed, line
    page = (tmp_path / "MATCH.html").read_text(encoding="utf-8")
    assert '<html lang="ru">' in page and "Садовые террасы" in page
