"""Rulings after the fact (issue 13, item 4): ``referee rule MATCH N`` on a rejected entry that play went
on after — an old entry, a finished match — puts the move back where it was made and plays the line in
effect after it again, on a fork (the default) or on the match's own line (``--main``), with appended
entries only; a ruling that cannot apply there is refused and nothing is written. As the README says."""

from __future__ import annotations

import os

import pytest

from conftest import ROOT, dump  # noqa: F401 - cli is conftest's fixture

DEMO = os.path.join(ROOT, "replays", "by_all_means", "club-night.txt")
REASON = "both players saw the card"


@pytest.fixture
def demo(cli):
    r = cli("import", DEMO)
    assert r.code == 0
    return r.last_line


def log(cli, mid):
    return cli("log", mid, "--json").json


def test_a_ruling_on_an_old_entry_of_a_finished_match_makes_a_fork(cli, tmp_path, demo):
    before = log(cli, demo)
    assert before[7]["seq"] == 8 and before[7]["verdict"] == "rejected"
    assert cli("show", demo, "--json").json["outcome"] is not None  # the match is over
    r = cli("rule", demo, "8", "--reason", REASON)
    assert r.code == 0, r.err
    fork = r.last_line
    assert f"a fork of {demo} at 8" in r.out and "Replayed 78 entries after entry 8" in r.out
    assert "(was accepted)" in r.out  # the later entries' new verdicts are shown
    # the match itself: not one entry more, none changed (no rejected ruling left behind)
    assert log(cli, demo) == before
    forks = {m["id"]: m for m in cli("matches", "--json").json}
    assert forks[fork]["parent"] == demo and forks[fork]["fork_seq"] == 8
    fork_log = log(cli, fork)
    assert fork_log[8]["seq"] == 9 and fork_log[8]["kind"] == "ruling" and fork_log[8]["verdict"] == "accepted"
    assert len(fork_log) == 8 + 1 + 78
    # the replayed entries are the original's, in order, played again
    assert [e["notation"] for e in fork_log[9:]] == [e["notation"] for e in before[8:]]
    assert cli("audit", demo).code == 0 and cli("audit", fork).code == 0


def test_the_json_answer_lists_every_replayed_entry(cli, demo):
    r = cli("rule", demo, "8", "--json", "--name", "bob's second territory stands")
    assert r.code == 0
    out = r.json
    titles = {m["id"]: m["title"] for m in cli("matches", "--json").json}
    assert titles[out["target"]] == "bob's second territory stands"
    assert out["line"] == "fork" and out["verdict"] == "accepted" and out["seq"] == 9
    assert [x["old"] for x in out["replayed"]] == list(range(9, 87))
    assert [x["seq"] for x in out["replayed"]] == list(range(10, 88))
    changed = [x for x in out["replayed"] if x["changed"]]
    assert changed and all(x["verdict"] != x["was"] for x in changed)
    assert all(x["why"] for x in out["replayed"] if x["verdict"] == "rejected")


def test_on_the_main_line_an_undo_the_ruling_and_the_replayed_entries_are_appended(cli, demo):
    before = log(cli, demo)
    r = cli("rule", demo, "8", "--main", "--reason", REASON)
    assert r.code == 0, r.err
    after = log(cli, demo)
    # nothing before is changed: the same entries, hashes and verdicts, those after 8 marked undone
    assert [(e["seq"], e["hash"], e["verdict"]) for e in after[:86]] == [(e["seq"], e["hash"], e["verdict"]) for e in before]
    assert [e["undone_by"] for e in after[8:86]] == [87] * 78
    assert after[86]["kind"] == "undo" and after[86]["verdict"] == "accepted" and after[86]["notation"] == "undo to=8"
    assert after[87]["kind"] == "ruling" and after[87]["verdict"] == "accepted"
    assert [e["notation"] for e in after[88:]] == [e["notation"] for e in before[8:]]
    assert cli("audit", demo).code == 0
    # the same line as the fork's: the same state at the end
    fork = cli("rule", demo, "8", "--json")  # entry 8 stands on the main line now: refused
    assert fork.code == 1 and "already stands" in fork.err


def test_main_line_and_fork_reach_the_same_state(cli, tmp_path, demo):
    fork = cli("rule", demo, "8").last_line
    assert cli("rule", demo, "8", "--main").code == 0
    a, b = cli("show", fork, "--json").json, cli("show", demo, "--json").json
    assert a["state_hash"] == b["state_hash"]


def test_the_corrected_main_line_exports_and_imports_back_the_same(cli, tmp_path, demo):
    assert cli("rule", demo, "8", "--main").code == 0
    txt = tmp_path / "corrected.txt"
    assert cli("export", demo, "--format", "txt", "-o", str(txt)).code == 0
    again = cli("import", str(txt)).last_line
    key = [(e["kind"], e["actor"], e["verdict"], e["state_hash"]) for e in log(cli, demo)]
    assert [(e["kind"], e["actor"], e["verdict"], e["state_hash"]) for e in log(cli, again)] == key


def test_an_old_entry_of_an_unfinished_match(cli, tmp_path):
    with open(DEMO, encoding="utf-8") as fh:
        head = "".join(fh.readlines()[:40])
    path = tmp_path / "half.txt"
    path.write_text(head, encoding="utf-8")
    mid = cli("import", str(path)).last_line
    assert cli("show", mid, "--json").json["outcome"] is None
    r = cli("rule", mid, "8", "--json")
    assert r.code == 0 and r.json["line"] == "fork"
    assert r.json["replayed"][0]["old"] == 9


def test_a_ruling_at_the_head_is_still_the_next_entry(cli):
    r = cli("new", "by_all_means", "--players", "alice,bob", "--cards", "spec")
    mid = r.last_line
    cli("play", mid, "alice", "draw_opening_hand", "cards=TR1,TR2,AG1,PL2")
    bad = cli("play", mid, "alice", "draw_opening_hand", "cards=TR1,TR2,AG1,PL2", "--json")
    assert bad.code == 1
    ruled = cli("rule", mid, str(bad.json["seq"]), "--json")
    assert ruled.json["seq"] == bad.json["seq"] + 1  # no fork: applied where it was made
    assert [m["id"] for m in cli("matches", "--json").json] == [mid]


# -- refused, nothing written ---------------------------------------------------------------------------


def test_rulings_that_cannot_apply_are_refused_and_write_nothing(cli, tmp_path, demo):
    before = dump(tmp_path / "r.db")
    accepted = cli("rule", demo, "9")
    assert accepted.code == 2 and "not a rejected intent" in accepted.err
    for entry in ("0", "500"):
        r = cli("rule", demo, entry)
        assert r.code == 2 and "does not exist" in r.err
    assert dump(tmp_path / "r.db") == before


def test_a_move_illegal_even_when_ruled_is_refused_with_what_to_do(cli, tmp_path, demo):
    # entry 59: bob's agent on B3 attacks a second time; waived that it is turned, it has still attacked
    before = dump(tmp_path / "r.db")
    r = cli("rule", demo, "59", "--reason", "let it be")
    assert r.code == 1
    assert "agent_repeat_action" in r.err and "nothing was written" in r.err and "annotate" in r.err
    assert dump(tmp_path / "r.db") == before
    assert cli("rule", demo, "59", "--main").code == 1 and dump(tmp_path / "r.db") == before


def test_an_undone_entry_is_refused(cli, tmp_path, demo):
    assert cli("undo", demo, "--to", "5", "--by", "arbiter").code == 0
    before = dump(tmp_path / "r.db")
    r = cli("rule", demo, "8")
    assert r.code == 1 and "no longer in the line of play" in r.err and f"referee fork {demo} --at 86" in r.err
    assert dump(tmp_path / "r.db") == before


def test_the_service_refuses_a_ruling_at_the_head_on_a_changed_state(demo, tmp_path):
    from referee.errors import BadInput
    from referee.service import Referee
    from referee.store.sqlite import SqliteStore

    r = Referee(SqliteStore(str(tmp_path / "r.db")))
    head = r.store.head(r.load(demo).match.id)
    with pytest.raises(BadInput) as exc:
        r.rule_stands(demo, 8)
    assert exc.value.code == "ruling/not_last" and "nothing was" in exc.value.message
    assert r.store.head(r.load(demo).match.id) == head


def test_a_transcript_ruling_on_an_entry_play_went_on_after_is_a_problem_not_an_entry(cli, tmp_path):
    with open(DEMO, encoding="utf-8") as fh:
        lines = fh.read().splitlines()
    at = lines.index("bob: end_turn")  # the line after the disputed entry 8 (line 22)
    text = "\n".join(lines[:at + 3] + ["ruling: entry 8 stands as played — late"] + lines[at + 3:]) + "\n"
    path = tmp_path / "t.txt"
    path.write_text(text, encoding="utf-8")
    r = cli("import", str(path), "--json")
    assert r.code == 0
    problem = next(p for p in r.json["problems"] if p["code"] == "ruling/not_last")
    assert problem["line"] == at + 4 and "nothing was" in problem["message"]
    entries = log(cli, r.json["match_id"])
    assert not any(e["kind"] == "ruling" for e in entries)
