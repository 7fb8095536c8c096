"""Recording a game by hand (issue 13, item 3): ``import --check`` writes nothing and reports every
problem; a transcript the database holds already is not written twice (unless ``--again``); a mistyped
header key is a header error; follow-on rejections are grouped under the line they follow; a pending
decision's rejection names its answers."""

from __future__ import annotations

import os
import tomllib

import pytest

from conftest import ROOT, dump  # noqa: F401 - cli is conftest's fixture

DEMO = os.path.join(ROOT, "replays", "by_all_means", "club-night.txt")
WOS = os.path.join(ROOT, "replays", "war_of_shadows", "ember-coast.txt")


def demo_text() -> str:
    with open(DEMO, encoding="utf-8") as fh:
        return fh.read()


def write(path, text: str) -> str:
    path.write_text(text, encoding="utf-8")
    return str(path)


def rows(db) -> list[str]:
    """Every row of the database, the schema included (``iterdump``)."""
    return dump(db)


# -- import --check ------------------------------------------------------------------------------------


def test_check_without_a_database_creates_none_and_reports_every_problem(cli, tmp_path):
    r = cli("import", DEMO, "--check")
    assert r.code == 0, r.err
    assert "nothing written" in r.out and "4 rejected" in r.out
    for line in (22, 77, 94, 97):  # the demo's four illegal moves, each with its line
        assert f"club-night.txt:{line}:" in r.out
    assert not os.path.exists(tmp_path / "r.db")
    strict = cli("import", DEMO, "--check", "--strict")
    assert strict.code == 1 and not os.path.exists(tmp_path / "r.db")


def test_check_on_a_database_leaves_it_unchanged_and_names_the_match_holding_it(cli, tmp_path):
    first = cli("import", DEMO)
    assert first.code == 0
    mid = first.last_line
    before = rows(tmp_path / "r.db")
    r = cli("import", DEMO, "--check", "--json")
    assert r.code == 0
    assert r.json["stored"] is False and r.json["already"] == [mid] and r.json["rejected"] == 4
    assert len(r.json["problems"]) == 4
    assert rows(tmp_path / "r.db") == before
    human = cli("import", DEMO, "--check")
    assert f"already in the database as match {mid}" in human.out
    assert rows(tmp_path / "r.db") == before


def test_check_of_a_bad_header_exits_2_and_writes_nothing(cli, tmp_path):
    cli("import", DEMO)
    before = rows(tmp_path / "r.db")
    bad = write(tmp_path / "t.txt", "game: by_all_means\nplayers: alice, bob\noption: warp=9\nbob: record_lot winner=alice\n")
    r = cli("import", bad, "--check")
    assert r.code == 2 and "t.txt:3" in r.err and "warp" in r.err
    assert rows(tmp_path / "r.db") == before


# -- the same transcript twice -------------------------------------------------------------------------


def test_importing_a_transcript_again_writes_nothing_and_names_the_match(cli, tmp_path):
    first = cli("import", DEMO)
    mid = first.last_line
    before = rows(tmp_path / "r.db")
    again = cli("import", DEMO)
    assert again.code == 0
    assert again.last_line == mid  # the match that holds it, for a script
    assert f"already in the database as match {mid}" in again.out and "nothing written" in again.out
    assert rows(tmp_path / "r.db") == before
    assert [m["id"] for m in cli("matches", "--json").json] == [mid]
    as_json = cli("import", DEMO, "--json").json
    assert as_json["stored"] is False and as_json["match_id"] == mid and as_json["already"] == [mid]
    assert rows(tmp_path / "r.db") == before


def test_the_same_transcript_is_recognised_through_line_ends_and_trailing_space(cli, tmp_path):
    mid = cli("import", DEMO).last_line
    before = rows(tmp_path / "r.db")
    text = "\ufeff" + "\r\n".join(line + "  " for line in demo_text().splitlines()) + "\r\n\r\n"
    copy = write(tmp_path / "copy.txt", text)
    r = cli("import", copy)
    assert r.code == 0 and r.last_line == mid and rows(tmp_path / "r.db") == before
    # one more comment makes another transcript
    other = write(tmp_path / "other.txt", demo_text() + "# played again next week\n")
    new = cli("import", other)
    assert new.code == 0 and new.last_line != mid


def test_again_imports_it_as_a_new_match(cli, tmp_path):
    mid = cli("import", DEMO).last_line
    r = cli("import", DEMO, "--again")
    assert r.code == 0 and r.last_line != mid and f"imported before as match {mid}; --again imported it anyway" in r.out
    ids = [m["id"] for m in cli("matches", "--json").json]
    assert sorted(ids) == sorted([mid, r.last_line])
    third = cli("import", DEMO, "--json").json  # both hold it now: the newest is named
    assert third["stored"] is False and third["already"] == [mid, r.last_line] and third["match_id"] == r.last_line


def test_other_card_data_makes_another_transcript(cli, tmp_path):
    text = "game: by_all_means\nplayers: alice, bob\ncards: {}\nbob: record_lot winner=alice\n"
    a = cli("import", write(tmp_path / "a.txt", text.format("spec"))).last_line
    b = cli("import", write(tmp_path / "b.txt", text.format("demo")))
    assert b.code == 0 and b.last_line != a


# -- mistyped header keys ------------------------------------------------------------------------------


def test_a_mistyped_header_key_is_a_header_error_and_writes_nothing(cli, tmp_path):
    cli("import", DEMO)
    before = rows(tmp_path / "r.db")
    text = demo_text().replace("title: Club night", "titel: Club night", 1)
    r = cli("import", write(tmp_path / "typo.txt", text))
    assert r.code == 2
    assert "typo.txt:" in r.err and "'titel'" in r.err and "did you mean 'title'" in r.err
    assert r.err.count("\n") == 1  # one line
    assert rows(tmp_path / "r.db") == before
    assert cli("import", write(tmp_path / "typo2.txt", text), "--check").code == 2


def test_a_mistyped_key_before_the_players_line_is_named_too(cli, tmp_path):
    text = "game: by_all_means\nplyers: alice, bob\ncards: demo\nbob: record_lot winner=alice\n"
    r = cli("import", write(tmp_path / "t.txt", text))
    assert r.code == 2 and "t.txt:2" in r.err and "did you mean 'players'" in r.err
    assert not any("INSERT INTO \"matches\"" in x for x in dump(tmp_path / "r.db"))


def test_the_first_move_by_a_seat_and_numbered_moves_still_read(cli, tmp_path):
    assert cli("import", WOS).code == 0  # numbered moves
    text = "game: by_all_means\nplayers: alice, bob\ncards: spec\n\nbob: record_lot winner=alice\n"
    assert cli("import", write(tmp_path / "t.txt", text)).code == 0
    misspelt = text.replace("bob: record_lot", "bbo: record_lot")
    r = cli("import", write(tmp_path / "u.txt", misspelt))
    assert r.code == 2 and "neither a header key nor a seat" in r.err and "did you mean 'bob'" in r.err


# -- follow-on rejections ------------------------------------------------------------------------------


def test_follow_on_rejections_are_grouped_under_the_line_they_follow(cli, tmp_path):
    # bob's opening hand holds T12 instead of T16: his deployment of T16 fails (line 32), and so does
    # his next line, built on it (line 33); later alice's start draw is refused (47), and with it the
    # two cards she meant to play from it (48, 49)
    text = demo_text().replace("bob: draw_opening_hand cards=T04,T09,T16,T09", "bob: draw_opening_hand cards=T04,T09,T12,T09")
    path = write(tmp_path / "t.txt", text)
    r = cli("import", path, "--check", "--json")
    after = {p["line"]: p["after"] for p in r.json["problems"]}
    assert after[32] is None and after[33] == 32
    assert after[47] is None and after[48] == 47 and after[49] == 47
    assert after[22] is None and after[37] is None  # another seat's rejection is its own
    human = cli("import", path, "--check")
    assert "1 more line fails because line 32 was rejected" in human.out
    assert "2 more lines fail because line 47 was rejected" in human.out
    lines = human.out.splitlines()
    cause = next(i for i, line in enumerate(lines) if "t.txt:47:" in line)
    assert "because line 47" in lines[cause + 2]  # right under the line and its text
    assert "t.txt:48:" in lines[cause + 3] and "t.txt:49:" in lines[cause + 5]


def test_follow_ons_end_when_the_seat_gets_a_line_accepted():
    from referee.transcript import follow_ons

    moves = [(10, "bob", "rejected"), (11, "alice", "accepted"), (12, "bob", "rejected"), (13, "alice", "rejected"),
             (14, "bob", "accepted"), (15, "bob", "rejected"), (16, "bob", "rejected")]
    assert follow_ons(moves) == {12: 10, 16: 15}


# -- a pending decision names its answers --------------------------------------------------------------


def test_a_pending_decision_rejection_names_the_choices():
    from referee.service import Referee
    from referee.store.memory import MemoryStore

    with open(os.path.join(ROOT, "tests", "scenarios", "by_all_means", "s06_unreliable_pr_decision.toml"), "rb") as fh:
        data = tomllib.load(fh)
    r = Referee(MemoryStore())
    game, config = r.build_config("by_all_means", data["players"], cards="spec", position=data["position"])
    mid = r.create_match(game, config).id
    assert r.submit(mid, "alice", "play_digits hand=PL1").accepted
    res = r.submit(mid, "bob", "draw_main card=TR6")
    assert res.verdict.code == "by_all_means/decision_pending"
    assert "choose option=actor_gains|target_loses" in res.verdict.message
    assert "(choose ...)" not in res.verdict.message


# -- referee cards -------------------------------------------------------------------------------------


def test_cards_lists_what_a_scorekeeper_types_for_every_card(cli):
    r = cli("cards", "by_all_means", "demo", "--json")
    assert r.code == 0
    listed = {x["typed"]: x for x in r.json["listed"]}
    assert len(listed) == 45 and r.json["cards"] == "demo"
    assert listed["T01"]["name"] == "Lantern Quay" and listed["T01"]["kind"] == "territory"
    assert "demo_south" in listed["T01"]["where"]
    # every card the demo transcript names is there
    import re

    named = set(re.findall(r"\b([A-Z]\d\d)\b", demo_text()))
    assert named - {"T12"} <= set(listed)  # T12: the misread card, in neither deck
    human = cli("cards", "by_all_means", "demo")
    assert human.code == 0 and "Lantern Quay" in human.out and "T01" in human.out
    default = cli("cards", "by_all_means", "--json").json
    assert default["cards"] == "spec" and default["listed"]


def test_cards_of_a_game_with_a_board_lists_its_places_too(cli):
    r = cli("cards", "war_of_shadows", "demo", "--json")
    kinds = {}
    for x in r.json["listed"]:
        kinds.setdefault(x["kind"], set()).add(x["typed"])
    assert "frostmere" in kinds["region"] and "bear.sheriff" in kinds["position"] and "bear_c8" in kinds["card"]
    boards = cli("cards", "war_of_shadows", "--option", "board=TM-1", "--json").json
    cards = [x for x in boards["listed"] if x["kind"] == "card"]  # the boards set has no catalogue: the
    assert len(cards) == 40 and not any(x["name"] for x in cards)  # numbered cards, typed as they are
    assert {"bear_c1", "eagle_c8"} <= {x["typed"] for x in cards}


def test_cards_errors(cli):
    assert cli("cards", "chess").code == 3
    bad = cli("cards", "by_all_means", "nosuch")
    assert bad.code == 2 and "nosuch" in bad.err


# -- referee template ----------------------------------------------------------------------------------


@pytest.mark.parametrize("game,args", [
    ("by_all_means", ["--cards", "demo"]),
    ("by_all_means", []),
    ("war_of_shadows", ["--cards", "demo", "--players", "anna,boris,vera"]),
    ("war_of_shadows", ["--cards", "TM-1", "--option", "board=TM-1"]),
])
def test_a_template_imports_as_it_is(cli, tmp_path, game, args):
    r = cli("template", game, *args)
    assert r.code == 0
    assert f"game: {game}" in r.out and "players:" in r.out and "# title:" in r.out
    moves = [line for line in r.out.splitlines() if line and not line.startswith("#") and ": " in line
             and line.split(":")[0] not in ("game", "players", "cards", "chance", "option")]
    assert moves, r.out  # the opening moves
    path = write(tmp_path / "t.txt", r.out)
    checked = cli("import", path, "--check", "--strict", "--json")
    assert checked.code == 0 and checked.json["problems"] == [] and checked.json["accepted"] == len(moves)


def test_a_template_with_its_blanks_filled_imports(cli, tmp_path):
    text = cli("template", "by_all_means", "--cards", "demo", "--players", "ann,ben").out
    filled = (text.replace("# title: the match's name, as you want to find it again", "title: Tuesday, table 2")
              .replace("# date: YYYY-MM-DD", "date: 2026-11-24"))
    r = cli("import", write(tmp_path / "t.txt", filled), "--strict", "--json")
    assert r.code == 0 and r.json["stored"]
    shown = cli("matches", "--json").json
    assert shown[0]["title"] == "Tuesday, table 2" and shown[0]["players"] == ["ann", "ben"]


def test_template_writes_a_new_file_only(cli, tmp_path):
    out = tmp_path / "new.txt"
    assert cli("template", "by_all_means", "-o", str(out)).code == 0
    assert out.read_text().startswith("# By All Means")
    out.write_text("mine")
    again = cli("template", "by_all_means", "-o", str(out))
    assert again.code == 2 and "exists" in again.err and out.read_text() == "mine"
    assert cli("template", "nosuch").code == 3
    assert cli("template", "by_all_means", "--players", "solo").code == 2


# -- piped: never wrapped, nothing cut -----------------------------------------------------------------


def test_piped_output_is_never_wrapped(tmp_path):
    import subprocess
    import sys

    env = {k: v for k, v in os.environ.items() if not k.startswith("REFEREE_")} | {"REFEREE_LANG": "en"}
    env.update(COLUMNS="40", REFEREE_DB=str(tmp_path / "r.db"))

    def run(*args: str) -> str:
        proc = subprocess.run([sys.executable, "-m", "cli", *args], cwd=ROOT, env=env, capture_output=True,
                              text=True, timeout=120)
        assert proc.returncode == 0, proc.stderr
        return proc.stdout

    checked = run("import", DEMO, "--check").splitlines()
    assert any(line.endswith("by_all_means/first_turn_draw_only: the only main action left this first turn must be "
                             "draw_main (R-SETUP Preparing the game)") for line in checked)
    listed = run("cards", "by_all_means", "demo").splitlines()
    row = next(line for line in listed if "T01" in line)
    assert "Lantern Quay" in row and "demo_south x2, demo_north" in row and "price 1/1 · digit 2 · amber" in row


def test_cards_of_a_game_without_a_listing_says_so(cli):
    from referee.games import ids

    for game_id in ids():
        r = cli("cards", game_id, "--json")
        assert r.code == 0 and r.json["game"] == game_id
        if not r.json["listed"]:
            human = cli("cards", game_id)
            assert human.code == 0 and "lists no cards" in human.out
