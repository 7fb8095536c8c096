"""``referee log`` as a user types it (issue 12 item 3, issue 13 item 2): ``--from/--to/--last`` and
``--only``; piped, a line per entry, never wrapped or cut; ``--json`` streamed in the same bytes as a
whole list; a bad range or filter refused with exit 2 and nothing printed on stdout."""

from __future__ import annotations

import json
import os

import msgspec
import pytest

from referee.service import Referee
from referee.store.sqlite import SqliteStore

DEMO = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "replays", "by_all_means", "club-night.txt")
LONG = "a remark long enough to pass any terminal's width, " * 4


@pytest.fixture
def logged(cli, tmp_path):
    """The By All Means demo (86 entries: rejected ones at 8, 59, 74 and 76, a dispute on 8), its last two
    entries undone by entry 87, and a long dispute on 76."""
    assert cli("import", DEMO).code == 0
    mid = cli("matches", "--json").json[0]["id"]
    assert cli("undo", mid, "--to", "84", "--by", "arbiter").code == 0
    assert cli("annotate", mid, "76", LONG, "--kind", "disputed", "--by", "arbiter").code == 0
    return mid, Referee(SqliteStore(str(tmp_path / "r.db")))


def seqs(out: str) -> list[int]:
    return [int(line.split()[0]) for line in out.splitlines()]


def test_ranges_pick_the_entries_asked_for(cli, logged):
    mid, _ = logged
    assert seqs(cli("log", mid, "--last", "2").out) == [86, 87]
    assert seqs(cli("log", mid, "--from", "2", "--to", "3").out) == [2, 3]
    assert seqs(cli("log", mid, "--from", "2", "--to", "40", "--last", "1").out) == [40]
    assert seqs(cli("log", mid, "--from", "80", "--to", "999").out) == list(range(80, 88))
    assert cli("log", mid, "--from", "88").out == ""
    assert [e["seq"] for e in cli("log", mid, "--last", "3", "--json").json] == [85, 86, 87]


def test_only_picks_the_problems(cli, logged):
    mid, _ = logged
    assert seqs(cli("log", mid, "--only", "rejected").out) == [8, 59, 74, 76]
    assert seqs(cli("log", mid, "--only", "undone,disputed").out) == [8, 76, 85, 86]
    assert seqs(cli("log", mid, "--only", "ruled", "--to", "50").out) == [8]
    assert seqs(cli("log", mid, "--only", "held,manual").out) == []
    bad = cli("log", mid, "--only", "rejected,oops")
    assert bad.code == 2 and bad.out == "" and "oops" in bad.err and "rejected, disputed" in bad.err


def test_piped_lines_are_whole_and_say_why(cli, logged, monkeypatch):
    mid, _ = logged
    monkeypatch.setenv("COLUMNS", "40")  # a narrow terminal's setting must not wrap a pipe
    out = cli("log", mid).out
    lines = out.splitlines()
    assert len(lines) == 87  # one per entry: nothing wrapped
    assert lines[75].split()[:4] == ["76", "alice", "rejected", "deploy_territory"]
    assert "by_all_means/no_main_action_left" in lines[75] and "(R-ACTIONS Actions)" in lines[75]
    assert LONG.strip() in lines[75] and "disputed: " in lines[75]
    assert "undone by #87" in lines[84] and "undone by #87" in lines[85] and lines[86].split()[3] == "undo"
    assert "\x1b[" not in out  # no colour codes in a pipe


def test_json_streams_the_bytes_of_the_whole_list(cli, logged):
    mid, r = logged
    want = msgspec.json.format(msgspec.json.encode(r.log(mid)), indent=2).decode() + "\n"
    assert cli("log", mid, "--json").out == want
    assert cli("log", mid, "--from", "90", "--json").out == "[]\n"
    json.loads(cli("log", mid, "--only", "rejected", "--json").out)


def test_a_bad_range_is_refused_before_anything_is_printed(cli, logged):
    mid, _ = logged
    for args in (["--from", "0"], ["--to", "-1"], ["--last", "-2"]):
        res = cli("log", mid, *args)
        assert res.code == 2 and res.out == "" and len(res.err.strip().splitlines()) == 1, (args, res)
    res = cli("log", "nosuchmatch", "--json")
    assert res.code == 3 and json.loads(res.out)["code"].startswith("match/")
