"""Android through the ``referee`` command: a declared effect on another seat's hand waits for that seat's
confirmation (played, confirmed and declined with the CLI over a server, each seat with its own token,
and no hidden card id in any other role's output), and ``referee cards android`` lists the data set's
public names."""

from __future__ import annotations

import json

import pytest

from referee.service import Referee
from support.apps import live_server

POSITION = """
[position]
phase = "day"
"players.raymond.hand" = ["raymond.L01"]
"players.rachel.hand" = ["louis.D03", "rachel.L01", "rachel.L02"]
"players.louis.hand" = ["caprice.D02", "louis.L04"]
"""
#: rachel's and louis's cards: raymond, caprice and the spectator never see them named
HIDDEN = ("louis.D03", "rachel.L01", "rachel.L02", "caprice.D02", "louis.L04")


def test_a_declared_effect_on_another_hand_is_held_then_confirmed_or_declined_with_the_cli(cli, tmp_path, db_store):
    (tmp_path / "pos.toml").write_text(POSITION, encoding="utf-8")
    with live_server(lambda: Referee(db_store)) as server:  # on each backend
        made = cli("--server", server.url, "new", "android", "--players", "raymond,rachel,louis,caprice",
                   "--cards", "FX-1", "--position", "pos.toml", "--json")
        assert made.code == 0, made.err
        mid, tokens = made.json["match"]["id"], made.json["tokens"]
        as_ = {s: ("--server", server.url, "--token", t) for s, t in tokens["seats"].items()}
        as_["spectator"] = ("--server", server.url, "--token", tokens["spectator"])
        outputs: dict[str, list[str]] = {"raymond": [], "caprice": [], "spectator": []}

        def run(who, *args, code=0):
            done = cli(*as_[who], *args)
            assert done.code == code, (args, done.out, done.err)
            if who in outputs:
                outputs[who].append(done.out + done.err)
            return done

        # raymond takes rachel.L02 from rachel's hand: held for rachel, nothing else is played meanwhile
        shown = run("raymond", "play", mid, "raymond", "manual_effect", "deltas=card:rachel.L02:raymond.hand",
                    "note=pickpocket").out
        assert "held" in shown and "rachel" in shown, shown
        held = run("raymond", "log", mid, "--json").json[-1]
        assert held["verdict"] == "held" and held["meta"]["confirmer"] == "rachel", held
        blocked = run("raymond", "play", mid, "raymond", "end_turn", code=1)
        assert "match/awaiting_confirmation" in blocked.out
        run("raymond", "confirm", mid, str(held["seq"]), "--by", "rachel", code=2)  # only rachel (or the arbiter)
        done = run("rachel", "confirm", mid, str(held["seq"]), "--by", "rachel", "--json").json
        assert done["verdict"] == "accepted", done
        # a card put into louis's hand waits for louis; he declines, and nothing changes
        run("raymond", "play", mid, "raymond", "manual_effect", "deltas=card:raymond.L01:louis.hand")
        held = run("raymond", "log", mid, "--json").json[-1]
        assert held["verdict"] == "held" and held["meta"]["confirmer"] == "louis", held
        declined = run("louis", "confirm", mid, str(held["seq"]), "--by", "louis", "--decline", "--reason", "not_now",
                       "--json").json
        assert declined["seq"] == held["seq"] + 1
        mine = run("raymond", "show", mid, "--json").json["state"]["players"]
        assert mine["raymond"]["hand"] == ["raymond.L01", "rachel.L02"] or sorted(mine["raymond"]["hand"]) == [
            "rachel.L02", "raymond.L01"]
        assert mine["rachel"]["hand_count"] == 2 and mine["louis"]["hand_count"] == 2
        # a card of raymond's own (or face up) moves at once; play goes on
        run("raymond", "play", mid, "raymond", "manual_effect", "deltas=card:raymond.L01:bottom")
        run("raymond", "play", mid, "raymond", "end_turn")
        for who in outputs:
            for args in (("show", mid, "--json"), ("show", mid), ("log", mid), ("log", mid, "--json"),
                         ("export", mid, "--format", "md"), ("export", mid, "--format", "json"), ("replay", mid)):
                run(who, *args)
        seen = {who: "\n".join(texts) for who, texts in outputs.items()}
        for who, text in seen.items():
            leaked = [c for c in HIDDEN if c in text and not (who == "raymond" and c == "rachel.L02")]
            assert not leaked, (who, leaked)
        assert "rachel.L02" not in seen["caprice"] and "rachel.L02" not in seen["spectator"]
        assert "rachel.L02" in seen["raymond"]  # the card he took is his now


def test_the_cards_command_lists_the_public_data_of_the_data_set(cli):
    listed = cli("cards", "android", "FX-1", "--json")
    assert listed.code == 0, listed.err
    rows = listed.json["listed"]
    kinds = {r["kind"] for r in rows}
    assert {"district", "location", "detective", "deck", "lead", "npc", "plot", "special card", "suspect", "murder",
            "twilight card", "event", "puzzle piece", "evidence token"} <= kinds, kinds
    by_id = {r["typed"]: r for r in rows}
    assert by_id["city_hall"]["name"] == "City Hall" and "political_favor bank" in by_id["city_hall"]["note"]
    assert by_id["raymond"]["name"] == "Raymond Flint" and by_id["noise"]["note"] == "strong physical, weak testimony"
    assert by_id["raymond.L05"]["where"] == "raymond.light" and by_id["raymond.L05"]["note"] == "cost 2"
    assert "old_war_memorial" in by_id["kate_says_she_wants_to_testify"]["note"]
    assert by_id["F1"]["where"] == "favor pile" and by_id["plus_2"]["note"] == "11 in the pile, value +2"
    assert {"physical.raymond", "testimony.noise", "raymond.light", "evil_at_the_estates", "raymond.memory_3"} <= set(by_id)
    human = cli("cards", "android", "FX-1")
    assert human.code == 0 and "City Hall" in human.out and "Evil at the Estates" in human.out
    demo = cli("cards", "android", "--json")
    assert demo.code == 0 and len(demo.json["listed"]) > 50
    bad = cli("cards", "android", "FX-1", "--option", "map=nowhere")
    assert bad.code == 2 and "nowhere" in bad.err and "Traceback" not in bad.err


@pytest.fixture(autouse=True)
def _no_color(monkeypatch):
    monkeypatch.setenv("NO_COLOR", "1")


_ = json
