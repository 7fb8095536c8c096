"""The `referee` command as a user types it: exit codes, one-line errors, nothing written on bad
input, --json on every read command, and hidden cards kept out of a seat's output."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys

import pytest

from cli.main import run
from conftest import ROOT, Result, dump  # noqa: F401 - cli is conftest's fixture

SCEN = os.path.join(ROOT, "tests", "scenarios", "by_all_means")


def new_match(cli, *extra):
    r = cli("new", "by_all_means", "--players", "alice,bob", "--cards", "spec", *extra)
    assert r.code == 0, r.err
    return r.last_line


OPENING = ["draw_opening_hand", "cards=TR1,TR2,AG1,PL2"]


def test_games_lists_and_describes(cli):
    r = cli("games", "--json")
    assert r.code == 0 and "by_all_means" in [g["id"] for g in r.json]
    r = cli("games", "by_all_means", "--json")
    verbs = {i["verb"]: i for i in r.json["intents"]}
    assert "draw_main" in verbs and "card=" in verbs["draw_main"]["usage"]
    assert {o["name"] for o in r.json["options"]} >= {"field_orientation", "simultaneous_win"}
    human = cli("games", "by_all_means")
    assert "play_symbols" in human.out and "reaction_window" in human.out


def test_new_prints_the_id_alone_on_the_last_line(cli):
    mid = new_match(cli)
    assert mid.isalnum() and len(mid) >= 8
    r = cli("matches", "--json")
    assert [m["id"] for m in r.json] == [mid]


def test_play_exit_codes_and_verdicts(cli):
    mid = new_match(cli)
    ok = cli("play", mid, "alice", *OPENING)
    assert ok.code == 0 and "accepted" in ok.out
    again = cli("play", mid, "alice", *OPENING, "--json")
    assert again.code == 1
    assert again.json["verdict"] == "rejected" and again.json["rejection"]["code"] == "by_all_means/already_done"
    log = cli("log", mid, "--json").json
    assert [e["verdict"] for e in log] == ["accepted", "rejected"]


@pytest.mark.parametrize(
    "args,code,fragment",
    [
        (["play", "zzzzzz", "alice", *OPENING], 3, "no match"),
        (["play", "{mid}", "carol", *OPENING], 2, "not a seat"),
        (["play", "{mid}", "alice", "draw_opening_hand", "cards"], 2, "not key=value"),
        (["play", "{mid}", "alice", "draw_openng_hand", "cards=TR1"], 2, "unknown verb"),
        (["play", "{mid}", "alice", "draw_opening_hand", "cards=TR1,NOPE9,AG1,PL2"], 2, "NOPE9"),
        (["play", "{mid}", "alice", "draw_main", "card=TR1", "--expect-seq", "7"], 4, "reload"),
        (["new", "by_all_means", "--players", "alice,bob", "--option", "field_orientation=5x5"], 2, "field_orientation"),
        (["new", "by_all_means", "--players", "alice,bob", "--option", "nonsense=1"], 2, "no option"),
        (["new", "by_all_means", "--players", "alice"], 2, "players"),
        (["new", "by_all_means", "--players", "alice,bob", "--cards", "missing.toml"], 2, "missing.toml"),
        (["new", "by_all_means", "--players", "alice,bob", "--position", "missing.toml"], 2, "cannot read"),
        (["new", "chess", "--players", "alice,bob"], 3, "unknown game"),
        (["import", "missing.txt"], 2, "cannot read"),
        (["show", "{mid}", "--at", "99"], 2, "does not exist"),
        (["show", "{mid}", "--as", "carol"], 2, "not a seat"),
        (["annotate", "{mid}", "9", "hello"], 2, "does not exist"),
    ],
)
def test_bad_input_gives_one_line_and_writes_nothing(cli, tmp_path, args, code, fragment):
    mid = new_match(cli)
    cli("play", mid, "alice", *OPENING)
    before = dump(tmp_path / "r.db")
    r = cli(*[a.replace("{mid}", mid) for a in args])
    assert r.code == code, (r.out, r.err)
    assert fragment in r.err
    assert len(r.err.strip().splitlines()) == 1
    assert dump(tmp_path / "r.db") == before


def test_a_bad_card_file_is_named_with_the_field(cli, tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text('[set]\nid = "x"\nname = "X"\nversion = 1\n[[card]]\nid = "TR4"\nname = "R"\ntype = "territory"\nprice_hand = "two"\nprice_buffer = 1\nsymbols = []\nloyalty = 2\n')
    r = cli("new", "by_all_means", "--players", "alice,bob", "--cards", str(bad))
    assert r.code == 2 and "TR4" in r.err and "price_hand" in r.err
    assert not os.path.exists(tmp_path / "r.db") or dump(tmp_path / "r.db") == dump(tmp_path / "r.db")


def test_read_commands_do_not_create_a_database(cli, tmp_path):
    r = cli("show", "abcdef")
    assert r.code == 5 and "no database" in r.err
    assert not (tmp_path / "r.db").exists()


def test_json_errors_have_the_error_shape(cli):
    r = cli("show", "zzzzzz", "--json", "--db", "nowhere.db")
    assert r.code == 5
    assert set(r.json) == {"code", "message", "detail"}


def test_show_as_a_seat_hides_the_other_hand(cli):
    mid = new_match(cli)
    cli("play", mid, "alice", *OPENING)
    cli("play", mid, "bob", "draw_opening_hand", "cards=TR3,TR3,GA1,GF1")
    full = cli("show", mid, "--json").json
    assert full["state"]["players"]["bob"]["hand"] == ["GA1", "GF1", "TR3", "TR3"]
    as_alice = cli("show", mid, "--as", "alice", "--json").out + cli("log", mid, "--as", "alice", "--json").out
    for card in ("GA1", "GF1", "TR3"):
        assert card not in as_alice
    assert "TR1" in as_alice  # her own hand
    human = cli("show", mid, "--as", "alice")
    assert human.code == 0 and "GA1" not in human.out


def test_show_at_n_and_state_hashes_are_stable_across_processes(cli, tmp_path):
    mid = new_match(cli, "--seed", "3")
    cli("play", mid, "alice", "draw_opening_hand")
    cli("play", mid, "bob", "draw_opening_hand")
    h = cli("show", mid, "--json").json["state_hash"]
    at0 = cli("show", mid, "--at", "0", "--json").json
    assert at0["seq"] == 0 and at0["state_hash"] != h
    out = subprocess.run([sys.executable, "-m", "cli", "show", mid, "--json"], cwd=ROOT, capture_output=True,
                         text=True, env={**os.environ, "REFEREE_DB": str(tmp_path / "r.db")})
    assert json.loads(out.stdout)["state_hash"] == h


def test_import_keeps_every_line_and_reports_every_problem(cli, tmp_path):
    t = tmp_path / "t.txt"
    t.write_text(
        "game: by_all_means\nplayers: alice, bob\ncards: spec\n\n"
        "alice: draw_opening_hand cards=TR1,TR2,AG1,PL2\n"
        "bob: draw_opening_hand cards=TR3,TR3,TR3,GF1   # three TR3? the deck has two\n"
        "bob: draw_opening_hand cards=TR3,TR3,GA1,GF1\n"
        "carol: record_lot winner=bob\n"
        "alice: record_lot winner=\n"
        "this line is nonsense\n"
        "alice: record_lot winner=bob\n"
        "alice: choose_order first=alice   # bob won the lot: not alice's choice\n"
        "alice: choose_order first=ZZ9\n"
        "alice: draw_main card=ZZ9\n"
    )
    r = cli("import", str(t), "--json")
    assert r.code == 0  # adjudicated and kept; --strict turns problems into exit 1
    assert cli("import", str(t), "--strict").code == 1
    s = r.json
    assert s["lines"] == 10 and s["entries"] == 10 and s["accepted"] == 3 and s["rejected"] == 2
    assert [p["line"] for p in s["problems"]] == [6, 8, 9, 10, 12, 13, 14]
    codes = [p["code"] for p in s["problems"]]
    assert codes[0] == "by_all_means/card_not_in_archive"  # an impossible draw
    assert codes[1] == "match/unknown_seat"  # an unknown player
    assert codes[4] == "turn/not_your_turn"  # an illegal move
    assert codes[5] == codes[6] == "input/unknown_reference"  # an unknown seat name and an unknown card
    assert "ZZ9" in s["problems"][6]["message"]
    log = cli("log", s["match_id"], "--json").json
    assert [e["kind"] for e in log].count("unparsed") == 5
    assert log[1]["meta"]["comment"].startswith("three TR3")


def test_import_with_a_bad_header_writes_nothing(cli, tmp_path):
    t = tmp_path / "t.txt"
    t.write_text("game: by_all_means\nplayers: alice, bob\noption: warp=9\nalice: record_lot winner=bob\n")
    r = cli("import", str(t))
    assert r.code == 2 and "t.txt:3" in r.err and "warp" in r.err
    assert not os.path.exists(tmp_path / "r.db")  # no database is even created


def test_scenario_run_reports_file_step_and_difference(cli, tmp_path):
    good = tmp_path / "good.toml"
    good.write_text(
        'game = "by_all_means"\ntitle = "t"\nplayers = ["alice", "bob"]\ncards = "spec"\n'
        '[[steps]]\nactor = "alice"\nintent = "draw_opening_hand cards=TR1,TR2,AG1,PL2"\nexpect = "accepted"\n'
        '[steps.state]\n"players.alice.main_archive.count" = 21\n'
    )
    assert cli("scenario", "run", str(good)).code == 0
    bad = tmp_path / "bad.toml"
    bad.write_text(good.read_text().replace("= 21", "= 20"))
    r = cli("scenario", "run", str(good), str(bad))
    assert r.code == 1
    assert "bad.toml: step 1: players.alice.main_archive.count: expected 20, got 21" in r.out
    assert "1 passed, 1 failed" in r.out


def test_annotate_and_audit(cli):
    mid = new_match(cli)
    cli("play", mid, "alice", *OPENING)
    assert cli("annotate", mid, "1", "fine opening", "--kind", "good", "--by", "arbiter").code == 0
    log = cli("log", mid, "--json").json
    assert log[0]["annotations"][0]["text"] == "fine opening"
    r = cli("audit", mid, "--json")
    assert r.code == 0 and r.json["clean"] is True


#: the commands whose output is a document in a format of its own (--format json) or no answer at all
NO_JSON = {"export", "serve", "template", "tournament export", "tournament slips"}


def _leaves():
    """Every command a person can type, subcommands of groups (tournament player add...) included."""
    import click
    import typer.main

    from cli.main import app

    def walk(cmd, path, ctx):
        if hasattr(cmd, "list_commands"):
            for name in cmd.list_commands(ctx):
                sub = cmd.get_command(ctx, name)
                yield from walk(sub, [*path, name], click.Context(sub, info_name=name, parent=ctx))
        else:
            yield path, cmd

    root = typer.main.get_command(app)
    return list(walk(root, [], click.Context(root, info_name="referee")))


def test_every_command_has_help_with_an_example_and_every_answer_json(cli):
    leaves = _leaves()
    assert len(leaves) >= 38 and ["tournament", "player", "add"] in [p for p, _ in leaves]
    for path, cmd in leaves:
        r = cli(*path, "--help")
        assert r.code == 0 and "Example:" in r.out, path
        opts = {o for p in cmd.params for o in getattr(p, "opts", [])}
        assert ("--json" in opts) != (" ".join(path) in NO_JSON), path


def test_ctrl_c_exits_130_not_0(cli, monkeypatch):
    """typer hands an interrupted command back as a return code: a script must still see it."""
    from referee.service import Referee

    mid = new_match(cli)

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(Referee, "audit_many", interrupted)
    r = cli("audit", mid)
    assert r.code == 130 and "interrupted" in r.err and "✓" not in r.out
