"""Line numbers and entry numbers (issue 24, item 3): every command that takes an entry also takes
``line:N`` (the entry read from line N of the imported transcript); ``log``, ``replay`` and the viewer
show each entry's source line; ``import`` prints both numbers. Through the CLI, on the By All Means demo
(club-night.txt: line 22 is the rejected ``bob: deploy_territory card=T09 cell=A3``, entry 8; line 23 is
an annotation, line 24 a ruling note, neither makes an entry; line 25 is entry 9)."""

from __future__ import annotations

import json
import os

from conftest import ROOT, dump  # noqa: F401 - cli is conftest's fixture

DEMO = os.path.join(ROOT, "replays", "by_all_means", "club-night.txt")


def _imported(cli) -> str:
    r = cli("import", DEMO)
    assert r.code == 0, r.err
    return r.out.strip().splitlines()[-1]


def _log(cli, match: str, *args: str) -> list[dict]:
    r = cli("log", match, "--json", *args)
    assert r.code == 0, r.err
    return json.loads(r.out)


def test_import_prints_each_rejected_line_with_its_entry_and_the_mapping(cli):
    r = cli("import", DEMO, "--check")
    assert r.code == 0, r.err
    for line, entry in ((22, 8), (77, 59), (94, 74), (97, 76)):
        assert f"club-night.txt:{line}: (entry {entry}) " in r.out
    assert "Lines 15–108 became entries 1–86" in r.out
    data = json.loads(cli("import", DEMO, "--check", "--json").out)
    assert [(p["line"], p["entry"]) for p in data["problems"]] == [(22, 8), (77, 59), (94, 74), (97, 76)]
    pairs = {(x["entry"], x["line"]) for x in data["entry_lines"]}
    assert (1, 15) in pairs and (8, 22) in pairs and (9, 25) in pairs and len(data["entry_lines"]) == 86


def test_line_names_the_entry_read_from_it_in_log_show_and_annotate(cli):
    match = _imported(cli)
    picked = _log(cli, match, "--from", "line:22", "--to", "line:25")
    assert [e["seq"] for e in picked] == [8, 9]
    assert [e["meta"]["line"] for e in picked] == [22, 25]
    by_line = json.loads(cli("show", match, "--at", "line:22", "--json").out)
    by_number = json.loads(cli("show", match, "--at", "8", "--json").out)
    assert by_line["seq"] == 8 and by_line["state_hash"] == by_number["state_hash"]
    r = cli("annotate", match, "line:25", "checked against the sheet")
    assert r.code == 0, r.err and "entry 9" in r.out
    notes = _log(cli, match, "--from", "9", "--to", "9")[0]["annotations"]
    assert [n["text"] for n in notes] == ["checked against the sheet"]


def test_undo_and_fork_take_a_line(cli):
    match = _imported(cli)
    r = cli("fork", match, "--at", "line:25", "--json")
    assert r.code == 0, r.err
    fork = json.loads(r.out)["id"]
    assert json.loads(cli("show", fork, "--json").out)["seq"] == 9
    r = cli("undo", match, "--to", "line:25", "--reason", "back to the sheet", "--json")
    assert r.code == 0, r.err
    undone = _log(cli, match, "--last", "1")[0]
    assert undone["kind"] == "undo" and undone["meta"].get("to", 9) == 9
    assert json.loads(cli("show", match, "--json").out)["state_hash"] == \
        json.loads(cli("show", match, "--at", "9", "--json").out)["state_hash"]


def test_a_line_that_made_no_entry_is_refused_naming_the_nearest_that_did(cli, tmp_path):
    match = _imported(cli)
    before = dump(tmp_path / "r.db")
    for args in (("annotate", match, "line:23", "x"), ("undo", match, "--to", "line:24"),
                 ("fork", match, "--at", "line:3"), ("rule", match, "line:23")):
        r = cli(*args)
        assert r.code != 0
        assert "produced no entry" in r.err and "line:" in r.err, r.err
    r = cli("annotate", match, "line:23", "x")
    assert "line:22 (entry 8)" in r.err and "line:25 (entry 9)" in r.err
    r = cli("show", match, "--at", "line:x")
    assert r.code != 0 and "line:N" in r.err
    r = cli("log", match, "--from", "abc")
    assert r.code != 0 and "is not an entry" in r.err
    assert dump(tmp_path / "r.db") == before  # nothing written by any refusal


def test_a_match_played_entry_by_entry_has_no_lines(cli):
    r = cli("new", "by_all_means", "--players", "alice,bob", "--seed", "3")
    assert r.code == 0, r.err
    match = r.out.strip().splitlines()[-1]
    r = cli("show", match, "--at", "line:1")
    assert r.code != 0 and "not imported" in r.err


def test_log_and_replay_show_the_source_line(cli):
    match = _imported(cli)
    r = cli("log", match, "--from", "8", "--to", "9")
    lines = r.out.strip().splitlines()
    assert lines[0].startswith("8 ") and lines[0].endswith("from line 22")
    assert lines[1].startswith("9 ") and lines[1].endswith("from line 25")
    r = cli("replay", match, "--from", "line:22", "--to", "line:22")
    assert r.code == 0, r.err
    assert "#8 bob: deploy_territory card=T09 cell=A3" in r.out and "(from line 22)" in r.out
    assert "#9" not in r.out


def test_the_viewer_shows_the_source_line(cli, tmp_path):
    match = _imported(cli)
    out = tmp_path / "v.html"
    r = cli("export", match, "--format", "html", "-o", str(out))
    assert r.code == 0, r.err
    text = out.read_text(encoding="utf-8")
    assert 'title="line:22 names this entry">from line 22<' in text


def test_diff_takes_a_line_after_the_at(cli):
    match = _imported(cli)
    r = cli("diff", f"{match}@line:22", f"{match}@8", "--json")
    assert r.code == 0, r.err
    assert json.loads(r.out)["same_state"] is True
    r = cli("diff", f"{match}@line:23", match)
    assert r.code != 0 and "produced no entry" in r.err


def test_stepping_through_a_replay_jumps_to_a_line(cli, monkeypatch):
    import io

    match = _imported(cli)
    monkeypatch.setattr("sys.stdin", io.StringIO("j line:25\nq\n"))
    r = cli("replay", match, "--from", "1", "--to", "12", "--step")
    assert r.code == 0, r.err
    screens = r.out.split("n next")
    assert "#1 bob: record_lot" in screens[0]
    assert "#9 bob: end_turn" in screens[1] and "(from line 25)" in screens[1]
