"""Free text refused with a message about that text (issue 23 point 7): a line break in a player's
name, a title or a tournament's name names the field and its limit, and only an annotation is told
to be written as several annotations."""

from __future__ import annotations

import pytest

from referee.errors import BadInput
from referee.inputs import check_text


@pytest.fixture
def tournament(cli):
    made = cli("tournament", "new", "Open", "--game", "by_all_means", "--players", "a,b,c", "--json")
    assert made.code == 0, made.err
    return made.json["id"]


def _refused(r, field, limit):
    assert r.code == 2 and len(r.err.splitlines()) == 1, r.err
    assert f"{field} holds LINE FEED (U+000A) at character 2" in r.err
    assert f"one line of printable characters, at most {limit}" in r.err
    assert "annotation" not in r.err


def test_a_tournament_name_with_a_line_break(cli):
    _refused(cli("tournament", "new", "a\nb", "--game", "by_all_means"), "the tournament's name", 200)
    assert cli("tournament", "list", "--json").json == []


def test_a_player_name_with_a_line_break(cli, tournament):
    _refused(cli("tournament", "player", "add", tournament, "d\ne"), "a player's name", 64)
    _refused(cli("tournament", "player", "rename", tournament, "a", "A\nLee"), "the display name", 200)
    shown = cli("tournament", "show", tournament, "--json").json
    assert [p["player"] for p in shown["players"]] == ["a", "b", "c"]


def test_a_match_title_and_seat_with_a_line_break(cli):
    _refused(cli("new", "by_all_means", "--players", "alice,bob", "--title", "a\nb"), "the title", 200)
    _refused(cli("new", "by_all_means", "--players", "a\nb,bob"), "a player name", 64)
    assert cli("matches", "--json").json == []


def test_an_annotation_is_told_to_be_several():
    with pytest.raises(BadInput) as err:
        check_text("one\ntwo", "the annotation", 10_000, hint="write several annotations for several lines")
    assert err.value.message.endswith("at most 10,000 (write several annotations for several lines)")
    with pytest.raises(BadInput) as err:
        check_text("one\ntwo", "the reason", 10_000)
    assert "annotation" not in err.value.message


def test_the_annotate_command_says_so(cli):
    mid = cli("new", "by_all_means", "--players", "alice,bob", "--cards", "spec").last_line
    r = cli("annotate", mid, "0", "one\ntwo")
    assert r.code == 2 and "several annotations for several lines" in r.err
