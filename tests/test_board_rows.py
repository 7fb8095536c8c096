"""Boards as the table looks (issue 25 item 2) for X-Files and Copycat, drawn with the shared row and
tableau layouts from one role's view: X-Files' mat (the Sector and the Shadows in order with each threat's
strength and markers, the Bureau's characters with their costs, the scheme's stacks, the evidence, each
agent's area) and Copycat's street in slot order and offices grouped by colour. Checked against the
bundled replays, at every entry, and through ``referee show``."""

from __future__ import annotations

import os
import re
from typing import Any

import msgspec
import pytest

from conftest import ROOT
from referee.engine.present import WORD, board_strings
from referee.games.copycat.data import COLORS
from referee.games.copycat.effects import surcharge
from referee.games.copycat.present import headquarters
from referee.service import Referee
from referee.store.memory import MemoryStore
from referee.transcript import import_transcript
from schemas.board import Board

REPLAYS = {"copycat": "copycat/thursday-club.txt", "two": "xfiles_encounters/two-agents.txt",
           "lone": "xfiles_encounters/lone-agent.txt"}
XFILES_TITLES = [("Shadows and Sector", "row"), ("Bureau", "row"), ("Conspiracy and stacks", "row"),
                 ("Evidence", "row"), ("Agents", "tableau")]


@pytest.fixture(scope="module")
def matches() -> tuple[Referee, dict[str, str]]:
    r = Referee(MemoryStore())
    out = {}
    for key, rel in REPLAYS.items():
        path = os.path.join(ROOT, "replays", rel)
        with open(path, encoding="utf-8") as fh:
            out[key] = import_transcript(r, fh.read(), path, os.path.dirname(path)).match_id
    return r, out


def views(r: Referee, mid: str, seat: str | None, step: int = 1) -> list[tuple[int, Any, dict[str, Any]]]:
    """(entry, state, the role's view) after every ``step``-th entry of the match, and at its end."""
    loaded = r.load(mid)
    head = r.store.head(mid)
    out = []
    for n in [*range(0, head, step), head]:
        _, state = r.state_at(loaded, n)
        out.append((n, state, loaded.rules.view(state, seat)))
    return out


def board(boards: tuple[Board, ...], title: str) -> Board:
    return next(b for b in boards if b.title == title)


# -- X-Files ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("key", ["two", "lone"])
def test_xfiles_mat_is_the_sector_then_the_shadows_then_the_deck_and_the_bureau_in_slot_order(matches, key):
    r, mids = matches
    loaded = r.load(mids[key])
    seat = loaded.config.players[0]
    for n, _state, view in views(r, mids[key], seat, 7):
        boards = loaded.rules.boards(view)
        assert [(b.title, b.layout) for b in boards] == XFILES_TITLES, n
        ids = [a.id for a in board(boards, "Shadows and Sector").areas]
        sector = [f"sector.{k}" for k in range(1, len(view["sector"]) + 1)] or ["sector"]
        assert ids == [*sector, *(f"shadows.{s}" for s in "12345"), "Conspiracy deck"], n
        assert [a.id for a in board(boards, "Bureau").areas] == [
            *(f"bureau.{s}" for s in "12345"), "Academy deck", "Special Agents"]
        assert [a.id for a in board(boards, "Evidence").areas][:3] == ["evidence.1", "evidence.2", "evidence.3"]
        assert [a.id for a in board(boards, "Agents").areas] == list(view["seats"])
        # each Sector card where the view has it, leftmost first
        for k, card in enumerate(view["sector"], 1):
            area = board(boards, "Shadows and Sector").areas[k - 1]
            assert area.lines[0] == card if card else area.pieces[0].face_down


@pytest.mark.parametrize("key", ["two", "lone"])
def test_xfiles_threats_show_their_strength_and_markers_and_characters_their_cost(matches, key):
    r, mids = matches
    loaded = r.load(mids[key])
    cards = loaded.rules.cards.cards
    seen = {"enemy": 0, "end_game": 0, "character": 0, "hidden": 0}
    for n, _state, view in views(r, mids[key], None, 3):
        boards = loaded.rules.boards(view)
        drawn = {a.id: a for b in boards for a in b.areas}
        played = view["turn"]["played_classes"]
        places = [(f"shadows.{s}", view["shadows"][s]) for s in "12345"]
        places += [(f"sector.{k}", {"state": "revealed" if c else "hidden", "card": c})  # "": a reveal pending
                   for k, c in enumerate(view["sector"], 1)]
        for where, slot in places:
            area = drawn[where]
            if slot["state"] == "hidden":
                seen["hidden"] += 1
                assert area.pieces[0].face_down and area.lines[0].startswith("face down"), (n, where)
                continue
            if slot["state"] != "revealed":
                continue
            c = cards[slot["card"]]
            chips = [p.name for p in area.pieces if not p.card]
            assert area.pieces[0].card == c.id and area.lines[0] == c.id
            if c.type in ("enemy", "syndicate_agent") and not c.fight_star:
                seen["enemy"] += 1
                now = max(c.fight - 2 * sum(played[cls] for cls in c.vulnerability), 0)
                assert chips[0].startswith(f"fight {c.fight} ") and (now == c.fight or f"({now} this turn)" in chips[0])
            if c.type == "end_game":
                seen["end_game"] += 1
                assert chips[:2] == [f"defense {c.defense}", f"damage {view['end_game_damage'].get(c.id, 0)}/{c.health}"]
            for keyword in c.keywords:
                assert keyword.replace("_", " ") in " ".join(area.lines), (n, where, keyword)
            for how in ("attached", "beneath"):
                for other in slot.get(how, ()):
                    assert f"{how} {other}" in area.lines
        for s in "12345":
            slot = view["bureau"][s]
            if slot["state"] == "revealed":
                seen["character"] += 1
                c = cards[slot["card"]]
                area = drawn[f"bureau.{s}"]
                assert area.pieces[0].card == c.id and area.pieces[1].name == f"cost {c.cost}"
                assert area.lines == (c.id, ", ".join([f"cost {c.cost}", *area.pieces[2].name.split(", ")])
                                      if len(area.pieces) > 2 else f"cost {c.cost}")
    if key == "lone":  # the lone agent's evening reaches the End Game and recruits from the Bureau
        assert seen["enemy"] and seen["end_game"] and seen["character"] and seen["hidden"], seen
    else:
        assert seen["enemy"] and seen["hidden"], seen


def test_xfiles_evidence_and_the_stacks_follow_the_view(matches):
    r, mids = matches
    loaded = r.load(mids["lone"])
    for n, _state, view in views(r, mids["lone"], "dana", 11):
        boards = loaded.rules.boards(view)
        for p in "123":
            e = view["evidence"][p]
            area = next(a for a in board(boards, "Evidence").areas if a.id == f"evidence.{p}")
            assert area.label == f"priority {p}" and area.lines[0].startswith(e["state"])
            if e["card"]:
                assert area.pieces[0].card == e["card"] and not area.pieces[0].face_down
            else:
                assert area.pieces[0].face_down and area.pieces[0].card == "?"
            assert (f"lead {e['leader']}" in area.lines) == bool(e["leader"])
        stacks = {a.id: a.lines for a in board(boards, "Conspiracy and stacks").areas}
        assert stacks["Belief"] == (f"{view['belief_stack']} in the stack",)
        assert stacks["Doubt"] == (f"{view['doubt_stack']} in the stack",)
        left = [int(stacks[name][0].split()[0]) for name in ("season A", "season B", "season C", "End Game")]
        assert sum(left) == view["conspiracy_deck"]["count"], n
        assert stacks["Strikes"][0] == f"{view['strike_deck']['count']} in the deck"


def test_xfiles_agents_show_damage_against_health_and_a_closed_hand_as_its_count(matches):
    r, mids = matches
    loaded = r.load(mids["two"])
    # the first position where both agents hold cards
    _, state, view = next((n, st, v) for n, st, v in views(r, mids["two"], "fox")
                          if all(p["hand"] for p in v["players"].values()))
    agents = {a.id: dict(a.facts) for a in board(loaded.rules.boards(view), "Agents").areas}
    for seat in ("dana", "fox"):
        p = view["players"][seat]
        assert agents[seat]["damage"].startswith(f"{p['damage']}/{p['health']}")
        assert agents[seat]["deck"] == str(len(p["deck"]))
        assert agents[seat]["hand"].startswith(f"{len(p['hand'])} card")
    dana = view["players"]["dana"]["hand"]
    assert dana and all(c in agents["dana"]["hand"] for c in dana)  # hands are open by default (§1.8)
    # with closed hands another seat's hand is its count alone, the seat's own still by its cards
    closed = msgspec.structs.replace(state, options={**state.options, "open_hands": False})
    shown = {a.id: dict(a.facts) for a in board(loaded.rules.boards(loaded.rules.view(closed, "fox")), "Agents").areas}
    assert shown["dana"]["hand"] == f"{len(dana)} card{'' if len(dana) == 1 else 's'}"
    fox = view["players"]["fox"]["hand"]
    assert fox and all(c in shown["fox"]["hand"] for c in fox)


@pytest.mark.parametrize("key", ["two", "lone", "copycat"])
def test_a_seats_boards_hold_no_hidden_card(matches, key):
    """No card hidden from the seat is named on its boards: no hidden id among their words."""
    r, mids = matches
    loaded = r.load(mids[key])
    for seat in loaded.config.players:
        for n, state, view in views(r, mids[key], seat, 13):
            hidden = loaded.rules.hidden_ids(state, seat)
            words = {w for t in board_strings(loaded.rules.boards(view)) for w in WORD.findall(t)}
            assert not words & hidden, (seat, n, sorted(words & hidden)[:5])


# -- Copycat ----------------------------------------------------------------------------------------------


def test_copycats_street_is_in_numeric_slot_order_with_each_cards_price(matches):
    r, mids = matches
    loaded = r.load(mids["copycat"])
    for n, _state, view in views(r, mids["copycat"], "anna", 31):
        street = board(loaded.rules.boards(view), "Street")
        ids = [a.id for a in street.areas]
        assert ids == [f"slot {k}" for k in range(1, 12)]
        assert ids.index("slot 2") < ids.index("slot 10")  # numbers, not text
        for k, a in enumerate(street.areas, 1):
            card = view["street"][str(k)]
            if card is None:
                assert a.pieces == () and a.lines == ()
                continue
            c = loaded.rules.cards[card]
            extra = surcharge(k)
            price = f"cost {c.cost}" + (f" + {extra}" if extra else "")
            assert a.pieces[0].card == card and a.pieces[1].name == price and a.lines[0] == card


def test_copycats_offices_are_grouped_by_colour_in_board_order_with_their_workers(matches):
    r, mids = matches
    loaded = r.load(mids["copycat"])
    rules = loaded.rules
    order = list(rules.office_order)
    checked = 0
    for n, _state, view in views(r, mids["copycat"], "ben", 29):
        groups = [b for b in rules.boards(view) if b.title.startswith("Offices: ")]
        colours = [b.title.removeprefix("Offices: ").replace("-", "_") for b in groups]
        assert colours == [c for c in COLORS if c in colours]  # the colours in their phases' order
        drawn = [a.id for b in groups for a in b.areas]
        assert sorted(drawn) == sorted(view["offices"])  # each office once
        for colour, b in zip(colours, groups):
            ids = [a.id for a in b.areas]
            assert all(rules.offices[oid].color == colour for oid in ids)
            assert ids == sorted(ids, key=order.index)
        # the other order: every office in one row, in the board's order
        (whole,) = headquarters(rules, view, by_colour=False)
        assert [a.id for a in whole.areas] == sorted(view["offices"], key=order.index)
        for b in groups:
            for a in b.areas:
                o = view["offices"][a.id]
                workers = [p for p in a.pieces if p.kind == "worker"]
                assert [(p.name, p.owner) for p in workers] == [(s, s) for s in o["workers"]]
                assert (f"{o['vp_tokens']} VP token" in " ".join(a.lines)) == bool(o["vp_tokens"])
                checked += bool(o["workers"] or o["vp_tokens"])
    assert checked


# -- referee show -----------------------------------------------------------------------------------------


def test_show_draws_copycats_street_in_slot_order_and_its_offices_by_colour(cli):
    path = os.path.join(ROOT, "replays", REPLAYS["copycat"])
    mid = cli("import", path).last_line.split()[0]
    got = cli("show", mid, "--as", "anna", "--at", 40)
    assert got.code == 0, got.err
    heads = re.findall(r"slot (\d+)", got.out)
    assert heads[:11] == [str(k) for k in range(1, 12)]
    titles = [line.strip() for line in got.out.splitlines() if line.strip().startswith("Offices: ")]
    assert titles == ["Offices: blue", "Offices: yellow", "Offices: green"]
    assert "worker anna" in got.out and "cost 2 + 1" in got.out
    assert not re.search(r"\b(b_draw_1|y_buy_2|g_vp_1|c2[0-9])\b", got.out)  # offices and cards by their names


@pytest.mark.parametrize("key", ["two", "lone"])
def test_show_draws_the_xfiles_mat(cli, matches, key):
    r, mids = matches
    loaded = r.load(mids[key])
    path = os.path.join(ROOT, "replays", REPLAYS[key])
    mid = cli("import", path).last_line.split()[0]
    seat = loaded.config.players[0]
    head = r.store.head(mids[key])
    for at in (head // 3, head):
        got = cli("show", mid, "--as", seat, "--at", at)
        assert got.code == 0, got.err
        titles = [line.strip() for line in got.out.splitlines()]
        order = [titles.index(t) for t, _ in XFILES_TITLES]  # each board's title on a line of its own
        assert order == sorted(order)
        assert "shadows.1" in got.out and got.out.index("shadows.1") < got.out.index("shadows.5")
        assert "damage" in got.out and "hand" in got.out
        view = r.show(mids[key], at=at, seat=seat).state
        for slot in view["shadows"].values():
            if slot["state"] == "revealed":
                name = loaded.rules.name_of(slot["card"]) or slot["card"]
                assert name in got.out


@pytest.mark.parametrize("key", ["copycat", "two", "lone"])
def test_show_to_a_pipe_draws_these_boards_without_rich(matches, monkeypatch, key):
    """The boards' texts stay within what ``cli.boards`` is sure how to draw (no "×"), so ``referee show``
    to a pipe keeps its fast path, and writes what rich would."""
    from referee.engine.present import named, named_boards
    from test_show_plain import _both

    for name in ("COLUMNS", "LINES", "TERM", "COLORTERM", "NO_COLOR", "FORCE_COLOR", "TTY_COMPATIBLE", "TTY_INTERACTIVE"):
        monkeypatch.delenv(name, raising=False)
    r, mids = matches
    loaded = r.load(mids[key])
    head = r.store.head(mids[key])
    for seat in (loaded.config.players[0], None):
        for at in (head // 2, head):
            data = r.show(mids[key], at=at, seat=seat)
            data = msgspec.structs.replace(data, boards=named_boards(data.boards, data.names),
                                           sections=named_boards(data.sections, data.names),
                                           headline=named(data.headline, data.names))
            rich_text, written = _both(data)
            assert written == rich_text, (seat, at)


def test_xfiles_sections_keep_the_options_and_draw_cursors_behind_details(matches):
    r, mids = matches
    loaded = r.load(mids["two"])
    view = r.show(mids["two"], seat="fox").state
    agents, rest = loaded.rules.sections(view)
    assert agents.title == "Agents" and rest.layout == "list"
    shown = {k for a in rest.areas for k, _ in a.facts}
    hidden = {k for a in rest.areas for k, _ in a.details}
    assert "turn number" in shown and "turn phase" in shown
    assert not any(k.startswith(("options", "draws")) for k in shown)
    assert any(k.startswith("options.") for k in hidden) and any(k.startswith("draws.") for k in hidden)
    drawn = {key for b in loaded.rules.boards(view) for key in b.covers}
    assert set(rest.covers) == set(view) - drawn  # every other field is still there, in words or details


def test_copycats_players_read_in_words_with_their_step_flags_behind_details(matches):
    r, mids = matches
    loaded = r.load(mids["copycat"])
    view = r.show(mids["copycat"], at=40, seat="anna").state
    players = board(loaded.rules.boards(view), "Players")
    for a in players.areas:
        p = view["players"][a.id]
        facts, details = dict(a.facts), dict(a.details)
        assert facts["VP"] == str(p["score"]) and facts["coins"] == str(p["coins_available"])
        assert facts["workers"] == str(p["workers_available"])
        assert details["drawn_this_round"] == ("true" if p["drawn_this_round"] else "false")
        assert not any(k.startswith(("coins.", "card_uses", "done", "passed")) for k in facts)
