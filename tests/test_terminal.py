"""The terminal as the people at the table read it (issue 13, item 2): ``show`` starts with where the
match stands and the board, ``--raw`` gives every field; ``replay`` tells the entries in the Markdown
export's words (``--changes`` adds the state paths); ``legal --as``; ``matches`` with status, result,
event, round and table and its filters; ``diff`` never says None; piped output is never wrapped and
never cuts an id, a code or a verb short."""

from __future__ import annotations

import os

from conftest import ROOT

DEMO = os.path.join(ROOT, "replays", "by_all_means", "club-night.txt")
WOS = os.path.join(ROOT, "replays", "war_of_shadows", "ember-coast.txt")
LONG_TITLE = "A title long enough that a table eighty columns wide would have to fold it somewhere " * 2


def _ids(cli) -> dict[str, str]:
    return {m["game"]: m["id"] for m in cli("matches", "--json").json}


def test_show_starts_with_where_the_match_stands_then_the_board(cli, monkeypatch):
    monkeypatch.delenv("COLUMNS")  # a pipe: nothing wraps whatever a terminal would be
    assert cli("import", DEMO).code == 0 and cli("import", WOS).code == 0
    ids = _ids(cli)
    lines = cli("show", ids["by_all_means"], "--at", "40", "--as", "alice").out.splitlines()
    assert lines[1] == "turn 8 · alice to act (actions step; 1 main, 1 extra left) · loyalty alice 12, bob 8"
    assert lines[2] == "Field" and "Players" in lines
    assert not any(line.strip().startswith("lot_winner") for line in lines)  # a field only --raw lists
    assert any("won the lot" in line and "alice" in line for line in lines)  # the game's sections, in words
    assert any("loyalty on the field" in line for line in lines)
    raw = cli("show", ids["by_all_means"], "--at", "40", "--as", "alice", "--raw").out
    assert "lot_winner" in raw and "draw_only_slot" in raw
    over = cli("show", ids["war_of_shadows"]).out.splitlines()
    assert over[1] == "Game over: boris won (score) — scores anna 17, boris 20, vera 19"
    assert cli("show", ids["war_of_shadows"], "--at", "40", "--json").json["headline"] == \
        "round 2 · agent place · vera next · cities bear 3, eagle 5, elephant 3, horse 5, lion 3"
    assert not any("…" in line for line in cli("show", ids["by_all_means"], "--raw").out.splitlines())


def test_show_json_is_the_same_bytes_live_and_replayed(cli, tmp_path):
    """A view's mappings are in sorted key order: the state folded live (events in memory), from setup
    and from a snapshot print the same bytes (they did not: War of Shadows' and X-Files' views kept
    insertion orders that depend on the path)."""
    from referee.service import Referee
    from referee.store.sqlite import SqliteStore

    assert cli("import", WOS).code == 0
    mid = _ids(cli)["war_of_shadows"]
    for at in (40, 70, 133):
        cold = cli("show", mid, "--at", str(at), "--json").out
        fresh = Referee(SqliteStore(str(tmp_path / "r.db")), snapshot_every=0)
        import msgspec

        again = msgspec.json.format(msgspec.json.encode(fresh.show(mid, at=at)), indent=2).decode() + "\n"
        assert cold == again


def test_replay_tells_the_entries_in_words_and_changes_on_request(cli):
    assert cli("import", DEMO).code == 0
    mid = _ids(cli)["by_all_means"]
    out = cli("replay", mid, "--from", "7", "--to", "8").out
    assert "✓ #7 bob: deploy_territory card=T09 cell=B3" in out
    assert "· bob puts Orchard Terraces on B3 (from hand)" in out  # the Markdown export's sentence (by the card's name; the id stays in the notation)
    assert "by_all_means/first_turn_draw_only" in out and "disputed: bob thought" in out
    assert "field.B3" not in out
    assert "field.B3.territory.card: — → T09" in cli("replay", mid, "--from", "7", "--to", "7", "--changes").out
    md = cli("export", mid, "--format", "md").out
    assert "bob puts Orchard Terraces on B3 (from hand)" in md
    assert cli("replay", mid, "--from", "7", "--to", "7", "--json").json[0]["words"][1] == "bob puts Orchard Terraces on B3 (from hand)"


def test_legal_as_a_seat_shows_only_what_it_may_see(cli):
    mid = cli("new", "by_all_means", "--players", "ann,ben", "--json").json["id"]
    assert cli("play", mid, "ann", "record_lot", "winner=ann").code == 0
    mine = cli("legal", mid, "--as", "ben", "--json").json
    assert mine["legal"] == {"ben": ["draw_opening_hand cards=?,?,?,?"]}  # ben's cards are not his to know yet
    assert "?" not in cli("legal", mid, "ben", "--json").out  # the arbiter's hint names cards
    both = cli("legal", mid, "ann", "--as", "ben")
    assert both.code == 2 and "name one seat" in both.err


def test_matches_shows_status_result_and_where_and_filters(cli, monkeypatch):
    monkeypatch.delenv("COLUMNS")
    assert cli("import", DEMO).code == 0 and cli("import", WOS).code == 0
    playing = cli("new", "by_all_means", "--players", "ann,ben", "--title", LONG_TITLE, "--json").json["id"]
    out = cli("matches").out
    row = next(line for line in out.splitlines() if playing in line)
    assert LONG_TITLE.strip() in row and "playing" in row  # one line, the whole title and id
    demo = next(line for line in out.splitlines() if "Lantern & Ledger club night" in line)
    assert "over: alice won (full field)" in demo and "\tLantern & Ledger club night\t2\t3\t" in demo  # round 2, table 3
    assert [m["id"] for m in cli("matches", "--status", "playing", "--json").json] == [playing]
    assert {m["game"] for m in cli("matches", "--status", "over", "--json").json} == {"by_all_means", "war_of_shadows"}
    assert [m["table"] for m in cli("matches", "--game", "wos", "--json").json] == ["2"]
    assert [m["event"] for m in cli("matches", "--event", "LEDGER", "--json").json] == ["Lantern & Ledger club night"]
    assert [m["round"] for m in cli("matches", "--round", "2", "--json").json] == ["2"]
    assert len(cli("matches", "--player", "ann", "--json").json) == 1
    bad = cli("matches", "--status", "finished")
    assert bad.code == 2 and "playing or over" in bad.err


def test_diff_says_where_a_line_ends_instead_of_none(cli):
    assert cli("import", DEMO).code == 0
    mid = _ids(cli)["by_all_means"]
    res = cli("diff", f"{mid}@10", f"{mid}@12")
    assert res.code == 1 and "None" not in res.out
    assert "A (nothing: its line ends at entry 10)" in res.out and "B alice: deploy_territory" in res.out


def test_emoji_codes_in_free_text_print_as_typed(cli):
    """rich would turn ':smile:' into a picture: free text (a title, a game's notation) prints as typed."""
    cli("new", "by_all_means", "--players", "ann,ben", "--title", "table :smile: by the window")
    assert "table :smile: by the window" in cli("matches").out
