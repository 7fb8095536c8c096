"""A starting point for every game (issue 24, item 4): ``template GAME`` gives each of the five games a
transcript that imports as it is with its opening moves (Copycat's ``table`` and Android's ``arbiter``
set-up lines, X-Files' opening draw); ``cards GAME`` lists every card of each; ``legal MATCH table`` and
``legal MATCH arbiter`` answer for the actors that are not seats; and a newcomer reaches a valid
transcript of ten moves past the opening from the output of ``template``, ``cards`` and ``legal`` alone
(the CLI run as a user runs it)."""

from __future__ import annotations

import json

import pytest

from conftest import dump  # noqa: F401 - cli is conftest's fixture

GAMES = ("by_all_means", "war_of_shadows", "copycat", "xfiles_encounters", "android")
#: the parameters of a move that name cards (each value must be one `cards` lists)
CARD_KEYS = ("card", "cards", "drawn", "light", "dark")


def _moves(text: str) -> list[str]:
    return [ln for ln in text.splitlines() if ln.strip() and not ln.lstrip().startswith("#")
            and ln.split(":", 1)[0].strip() not in ("game", "players", "cards", "chance", "option")]


def _imported(cli, path) -> dict:
    r = cli("import", str(path), "--strict", "--json")
    assert r.code == 0, r.out + r.err
    return json.loads(r.out)


@pytest.mark.parametrize("game", GAMES)
def test_the_template_imports_as_it_is_with_the_opening_moves(cli, tmp_path, game):
    r = cli("template", game)
    assert r.code == 0, r.err
    moves = _moves(r.out)
    assert moves, f"{game}: the template writes no opening move"
    (tmp_path / "t.txt").write_text(r.out, encoding="utf-8")
    summary = _imported(cli, tmp_path / "t.txt")
    assert summary["accepted"] == len(moves) and summary["rejected"] == 0 and not summary["problems"]


def test_the_opening_moves_are_typed_by_the_actors_that_type_them_at_the_table(cli):
    copycat = _moves(cli("template", "copycat").out)
    assert copycat[0].startswith("table: setup ")
    android = _moves(cli("template", "android").out)
    assert android[0].startswith("arbiter: choose_murder ")
    assert any(m.startswith("arbiter: assign_detective seat=alice ") for m in android)
    # hunches and starting cards are each seat's own to type (the others may not see them)
    assert any(m.startswith("bob: deal_hunches seat=bob ") for m in android)
    assert not any(m.startswith("arbiter: deal_hunches") for m in android)
    xfiles = _moves(cli("template", "xfiles_encounters").out)
    assert xfiles[0].startswith("alice: draw cards=")


@pytest.mark.parametrize("game,least", [("copycat", 100), ("xfiles_encounters", 150), ("android", 200)])
def test_cards_lists_every_card(cli, game, least):
    r = cli("cards", game, "--json")
    assert r.code == 0, r.err
    listed = json.loads(r.out)["listed"]
    assert len(listed) >= least
    assert all(x["typed"] and x["kind"] for x in listed)


def test_cards_lists_copycats_offices_and_xfiles_places(cli):
    copycat = {x["typed"]: x for x in json.loads(cli("cards", "copycat", "--json").out)["listed"]}
    assert copycat["A09"]["kind"] == "card" and copycat["A09"]["where"] == "starter set A"
    assert any(x["kind"] == "office" for x in copycat.values())
    xfiles = {x["typed"]: x for x in json.loads(cli("cards", "xfiles_encounters", "--json").out)["listed"]}
    assert xfiles["skinner"]["kind"] == "avatar" and "bureau.1" in xfiles and "shadows.5" in xfiles


def test_legal_answers_for_the_actors_that_are_not_seats(cli, tmp_path):
    for game, players, actor, verb in (("copycat", "ann,ben", "table", "setup"),
                                       ("android", "ann,ben,cy", "arbiter", "choose_murder")):
        r = cli("new", game, "--players", players, "--chance", "physical")
        assert r.code == 0, r.err
        match = r.out.strip().splitlines()[-1]
        r = cli("legal", match, actor, "--json")
        assert r.code == 0, r.err
        mine = json.loads(r.out)["legal"][actor]
        assert mine and all(t.startswith(verb + " ") for t in mine)
        every = json.loads(cli("legal", match, "--json").out)["legal"]
        assert every[actor] == mine  # the full list names the actor too
    r = cli("legal", match, "nobody")
    assert r.code != 0 and "not a seat" in r.err and "(and arbiter)" in r.err


def test_a_table_asking_as_itself_is_not_shown_what_it_cannot_know(cli):
    r = cli("new", "copycat", "--players", "ann,ben", "--chance", "physical")
    match = r.out.strip().splitlines()[-1]
    full = json.loads(cli("legal", match, "table", "--json").out)["legal"]["table"]
    blind = json.loads(cli("legal", match, "--as", "table", "--json").out)["legal"]["table"]
    assert len(blind) == len(full) and "?" in blind[0] and "?" not in full[0]


@pytest.mark.parametrize("game", GAMES)
def test_a_valid_ten_move_transcript_from_template_cards_and_legal_alone(cli, tmp_path, game):
    text = cli("template", game).out
    listed = {x["typed"] for x in json.loads(cli("cards", game, "--json").out)["listed"]}
    (tmp_path / "start.txt").write_text(text, encoding="utf-8")
    match = _imported(cli, tmp_path / "start.txt")["match_id"]
    added: list[str] = []
    while len(added) < 10:
        legal = json.loads(cli("legal", match, "--json").out)["legal"]
        actor = next((a for a, intents in legal.items() if intents), None)
        assert actor is not None, f"{game}: nobody can move after {added}"
        intent = legal[actor][0]
        r = cli("play", match, actor, *intent.split(" "))
        assert r.code == 0, f"{game}: {actor}: {intent}: {r.out}{r.err}"
        added.append(f"{actor}: {intent}")
    whole = text + "\n".join(added) + "\n"
    for move in _moves(whole):
        for word in move.split(":", 1)[1].split()[1:]:
            key, _, value = word.partition("=")
            if key in CARD_KEYS:  # every card a move names is one `cards` lists
                assert set(value.split(",")) <= listed, f"{game}: {move}"
    (tmp_path / "sheet.txt").write_text(whole, encoding="utf-8")
    summary = _imported(cli, tmp_path / "sheet.txt")
    assert summary["rejected"] == 0 and not summary["problems"]
    assert summary["accepted"] == len(_moves(whole)) >= 10


def test_xfiles_template_names_the_avatars_and_uncommented_they_import(cli, tmp_path):
    text = cli("template", "xfiles_encounters", "--players", "dana,fox").out
    line = next(ln for ln in text.splitlines() if ln.startswith("# option: avatars="))
    assert line.startswith("# option: avatars=dana:mulder,fox:scully ")  # the first-game roster, as the default
    chosen = text.replace(line, "option: avatars=dana:skinner,fox:reyes")
    (tmp_path / "x.txt").write_text(chosen, encoding="utf-8")
    summary = _imported(cli, tmp_path / "x.txt")
    state = json.loads(cli("show", summary["match_id"], "--json").out)["state"]
    assert state["players"]["dana"]["avatar"] == "skinner" and state["players"]["fox"]["avatar"] == "reyes"


def test_over_http_the_arbiter_asks_for_the_tables_moves_and_a_seat_may_not(db_store):
    from referee.service import Referee
    from support.apps import app_client

    with app_client(lambda: Referee(db_store)) as c:
        made = c.post("/matches", json={"game": "copycat", "players": ["ann", "ben"], "chance": "physical"}).json()
        mid, tokens = made["match"]["id"], made["tokens"]
        arbiter = {"Authorization": f"Bearer {tokens['arbiter']}"}
        ann = {"Authorization": f"Bearer {tokens['seats']['ann']}"}
        table = c.get(f"/matches/{mid}/legal", params={"seat": "table"}, headers=arbiter)
        assert table.status_code == 200
        assert [t.split(" ")[0] for t in table.json()["legal"]["table"]] == ["setup"]
        assert c.get(f"/matches/{mid}/legal", params={"seat": "table"}, headers=ann).status_code == 403
