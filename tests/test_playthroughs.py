"""Whole games pinned: every bundled replay, one seeded random game of every game and every match of the
stored fixture database, recomputed and compared with its checked-in playthrough under
tests/playthroughs/ (see tests/support/playthroughs.py; regenerate with
``python -m tests.support.playthroughs --write``)."""

from __future__ import annotations

import json
import os

import pytest

from support import playthroughs as pt

SOURCES = pt.sources()

#: both tests of a source read one computation: under xdist the module's tests go to one worker
#: (``--dist loadgroup``, pyproject.toml), which computes each source once, when a test first asks for it
pytestmark = pytest.mark.xdist_group("playthroughs")


class Computed(dict[str, str]):
    def __missing__(self, name: str) -> str:
        self[name] = pt.compute(next(s for s in SOURCES if s.name == name))
        return self[name]


@pytest.fixture(scope="module")
def computed() -> dict[str, str]:
    return Computed()


@pytest.mark.parametrize("source", SOURCES, ids=lambda s: s.name)
def test_playthrough_is_the_checked_in_one(source, computed):
    path = pt.path_of(source)
    assert os.path.exists(path), f"no {os.path.relpath(path, pt.ROOT)}: run {pt.COMMAND}"
    with open(path, encoding="utf-8") as fh:
        recorded = fh.read()
    now = computed[source.name]
    if now != recorded:
        pytest.fail(pt.first_difference(source.name, recorded, now), pytrace=False)


def test_every_checked_in_playthrough_has_a_source():
    files = sorted(f for f in os.listdir(pt.OUT) if f.endswith(".txt"))
    assert files == sorted(os.path.basename(pt.path_of(s)) for s in SOURCES), f"run {pt.COMMAND}"


def test_every_replay_and_every_game_is_covered():
    from referee.games import GAMES

    replays = sorted(os.path.relpath(os.path.join(d, f), pt.ROOT).replace(os.sep, "/")
                     for d, _, files in os.walk(os.path.join(pt.ROOT, "replays")) for f in files if f.endswith(".txt"))
    assert replays and sorted(s.replay for s in SOURCES if s.replay) == replays
    assert sorted(s.game for s in SOURCES if s.kind == "random") == sorted(g.id for g in GAMES)
    with open(os.path.join(pt.ROOT, "tests", "fixtures", "legacy-2026-11-25.json"), encoding="utf-8") as fh:
        assert sorted(s.ref for s in SOURCES if s.kind == "fixture") == sorted(json.load(fh))


@pytest.mark.parametrize("source", SOURCES, ids=lambda s: s.name)
def test_a_playthrough_pins_refusals_and_a_whole_game(source, computed):
    """What makes a playthrough worth pinning: a replay shows the referee refusing something; a random
    game runs to its end or its move cap (not stuck at setup), its probes of earlier moves are refused
    and it holds an undo and a redo."""
    rows = [line.split("\t") for line in computed[source.name].splitlines() if line[:1].isdigit()]
    assert [int(r[0]) for r in rows] == list(range(1, len(rows) + 1))
    assert all(len(r) == len(pt.COLUMNS) for r in rows)
    refused = [r for r in rows if r[3] == "rejected"]
    assert all(r[4] != "-" for r in refused)
    assert all((r[5] == "-") == (r[3] != "accepted") for r in rows if r[2] == "intent")
    lines = computed[source.name].splitlines()
    if source.kind == "fixture":  # what the database holds, and its audit: clean, except the one match whose
        # digital draws were keyed by entry number under War of Shadows rules 1 (issue 23: chance keyed by
        # the deck's history since rules 2), which the new rules draw otherwise at its first draw
        audit = lines.pop()
        if source.ref == "1f9541bbebec":
            assert audit.startswith("audit (rules changes accepted)\tentry 2: verdict"), audit
        else:
            assert audit == "audit (rules changes accepted)\tclean"
    *_, outcome, head = lines
    assert outcome.startswith("outcome\t")
    if source.kind == "random":  # played to the cap or to the end
        assert refused and (len(rows) >= pt.MOVES or outcome != "outcome\t-")
        assert {"undo", "redo"} <= {r[2] for r in rows if r[3] == "accepted"}
    elif source.kind == "replay":
        assert refused and outcome != "outcome\t-", "a replay records a finished game and a refusal"
    head = head.split("\t")
    assert head[:3] == ["head", rows[-1][0], rows[-1][6]] and len(head[3]) == 64


def test_a_changed_verdict_is_named_by_its_entry(computed):
    name = "by_all_means.club-night"
    lines = computed[name].splitlines()
    i = next(n for n, line in enumerate(lines) if line.startswith("7\t"))
    cells = lines[i].split("\t")
    cells[3:5] = ["rejected", "by_all_means/wrong_phase"]
    changed = "\n".join([*lines[:i], "\t".join(cells), *lines[i + 1:]]) + "\n"
    report = pt.first_difference(name, changed, computed[name])
    assert report.splitlines()[0] == f"{name}: first difference at entry 7"
    assert "recorded: 7\t" in report and "by_all_means/wrong_phase" in report
    assert f"now:      {lines[i]}" in report
    assert pt.COMMAND in report
    # a file cut short: named by the first entry it lacks
    report = pt.first_difference(name, "\n".join(lines[:i]) + "\n", computed[name])
    assert report.splitlines()[0] == f"{name}: first difference at entry 7"
    assert "(the file ends here)" in report


def test_the_command_writes_checks_and_removes_stale_files(tmp_path, monkeypatch):
    one = next(s for s in SOURCES if s.kind == "replay" and s.game == "by_all_means")
    monkeypatch.setattr(pt, "OUT", str(tmp_path))
    monkeypatch.setattr(pt, "sources", lambda: [one])
    (tmp_path / "gone.txt").write_text("an old game\n")
    said: list[str] = []
    assert pt.main(["--check"], said.append) == 1
    assert any("no file" in s for s in said) and any("gone.txt" in s for s in said)
    assert (tmp_path / "gone.txt").exists()  # --check changes nothing
    said.clear()
    assert pt.main(["--write"], said.append) == 0
    assert not (tmp_path / "gone.txt").exists()
    path = tmp_path / f"{one.name}.txt"
    assert path.read_text(encoding="utf-8") == pt.compute(one)
    said.clear()
    assert pt.main(["--check"], said.append) == 0 and said == []
    assert pt.main(["--write"], said.append) == 0 and said == []  # nothing to rewrite
    path.write_text(path.read_text(encoding="utf-8").replace("\taccepted\t", "\trejected\t", 1), encoding="utf-8")
    assert pt.main(["--check", "by_all_means"], said.append) == 1
    assert said[0].startswith(f"{one.name}: first difference at entry 1")


@pytest.mark.parametrize("argv", [[], ["--write", "--check"], ["--writ"], ["--check", "no_such_game"]])
def test_the_command_refuses_bad_arguments(argv):
    said: list[str] = []
    assert pt.main(argv, said.append) == 2
    assert len(said) == 1 and ("usage:" in said[0] or "no playthrough named no_such_game" in said[0])


def test_a_difference_after_the_entries_is_named_for_what_it_is(computed):
    name = "copycat.random"
    lines = computed[name].splitlines()
    cut = "\n".join(lines[:-1]) + "\n"
    assert pt.first_difference(name, cut, computed[name]).splitlines()[0] == f"{name}: first difference at the head line"
    other = computed[name].replace("\noutcome\t", "\noutcome\t{}", 1)
    report = pt.first_difference(name, other, computed[name])
    assert report.splitlines()[0] == f"{name}: first difference at the outcome"
    assert "in all 2 lines removed or added" in report
    fixture = next(s.name for s in SOURCES if s.kind == "fixture" and s.ref != "1f9541bbebec")
    audited = computed[fixture].replace("\tclean\n", "\tentry 3: verdict\n")
    assert pt.first_difference(fixture, audited, computed[fixture]).splitlines()[0].endswith("at the audit")
    header = computed[name].replace("rules version", "rules version 0 +", 1)
    assert "first difference at line 1 (the header)" in pt.first_difference(name, header, computed[name])


def test_a_game_that_cannot_be_played_through_is_reported_and_the_others_still_written(tmp_path, monkeypatch):
    good = next(s for s in SOURCES if s.kind == "replay" and s.game == "by_all_means")
    broken = pt.Source("no_such_game.random", "no_such_game", "random")
    monkeypatch.setattr(pt, "OUT", str(tmp_path))
    monkeypatch.setattr(pt, "sources", lambda: [broken, good])
    said: list[str] = []
    assert pt.main(["--write"], said.append) == 1
    assert said[0].startswith("no_such_game.random: could not be played through: ")
    assert (tmp_path / f"{good.name}.txt").exists() and not (tmp_path / "no_such_game.random.txt").exists()


@pytest.mark.parametrize("name", ["xfiles_encounters.two-agents", "by_all_means.random"])
def test_the_store_does_not_change_a_playthrough(name, db_store, computed):
    """Played in a database (SQLite, PostgreSQL: snapshots, committed writes) instead of memory, the
    playthrough is the same, line for line."""
    source = next(s for s in SOURCES if s.name == name)
    assert pt.compute(source, lambda: db_store) == computed[name]


def test_a_rule_that_judges_otherwise_shows_at_its_entry(monkeypatch, computed):
    """By All Means refusing every end_turn: the replay's playthrough differs first at the replay's first
    end_turn, and a fixture match's audit line names the entry whose verdict it now derives otherwise."""
    from referee.engine.protocol import Rejected
    from referee.games.by_all_means.rules import ByAllMeansRules

    replay = next(s for s in SOURCES if s.name == "by_all_means.club-night")
    recorded = computed[replay.name]  # computed before the patch: the worker may not have computed it yet
    decide = ByAllMeansRules.decide

    def refuse_end_turn(self, state, seat, intent, *rest):
        if type(intent).__name__ == "EndTurn":
            return Rejected("by_all_means/test", "refused by the test", "0")
        return decide(self, state, seat, intent, *rest)

    monkeypatch.setattr(ByAllMeansRules, "decide", refuse_end_turn)
    first = next(line.split("\t")[0] for line in recorded.splitlines() if line.endswith("\tend_turn"))
    report = pt.first_difference(replay.name, recorded, pt.compute(replay)).splitlines()
    assert report[0] == f"{replay.name}: first difference at entry {first}"
    assert "\trejected\tby_all_means/test\t" in report[2]
    fixture = next(s for s in SOURCES if s.kind == "fixture" and s.game == "by_all_means")
    now = pt.compute(fixture)
    assert now.splitlines()[-1].startswith("audit (rules changes accepted)\tentry ")
    assert now.splitlines()[-1].endswith(": verdict")
