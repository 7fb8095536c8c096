"""By All Means beyond what scenario files can say: card data validation, digital chance, positions,
hidden information in every output a seat can get, and whole random games that finish and audit
clean. The rules themselves are tested as scenario files (tests/scenarios/by_all_means/)."""

from __future__ import annotations

import glob
import json
import os
import random

import msgspec

import pytest

from conftest import ROOT
from referee.engine.notation import format_intent
from referee.errors import BadInput
from referee.export import FORMATS, export
from referee.games.by_all_means.data import parse_card_set
from referee.games.by_all_means.legal import random_intent
from referee.scenario import run_file
from referee.service import Referee
from referee.store.memory import MemoryStore
from referee.engine.protocol import ConfigError

SCENARIOS = sorted(glob.glob(os.path.join(ROOT, "tests", "scenarios", "by_all_means", "*.toml")))
DEMO_DECKS = {"alice": "demo_south", "bob": "demo_north"}


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: os.path.basename(p))
def test_scenario(path):
    result = run_file(path)
    assert result.passed, "\n".join(f.render(path) for f in result.failures)


def test_every_spec_scenario_has_a_file():
    names = {os.path.basename(p)[:3] for p in SCENARIOS}
    assert {f"s{n:02d}" for n in range(1, 41)} <= names


# -- card data ----------------------------------------------------------------------------------------

CARD = """
[[card]]
id = "TR1"
name = "Old Harbor"
type = "territory"
price_hand = 2
price_buffer = 1
loyalty = 3
"""


@pytest.mark.parametrize(
    "text,expected",
    [
        (CARD.replace("price_hand = 2", 'price_hand = "two"'), "TR1: price_hand must be an integer or '-'"),
        (CARD.replace('type = "territory"', 'type = "building"'), "TR1: type must be one of"),
        (CARD.replace("loyalty = 3\n", ""), "TR1: loyalty is required for a territory"),
        (CARD + CARD, "TR1: the id appears twice"),
        (CARD.replace('"TR1"', '"B2"'), "B2: id must not look like a cell name"),
        (CARD + 'symbols = ["s9"]\n', "TR1: symbols has 's9'"),
        (CARD + "colour = 3\n", "TR1: unknown field(s) colour"),
        (CARD + '[[combination]]\npair = ["s1", "s6"]\neffect = "expose"\n', "combination #1: pair must be two of the active symbols"),
        (CARD + '[[combination]]\npair = ["s1", "s2"]\neffect = "fireball"\n', "combination #1: effect must be one of"),
        ("[[card]\n", "not valid TOML"),
    ],
)
def test_card_data_errors_name_the_card_and_the_field(text, expected):
    with pytest.raises(ConfigError) as info:
        parse_card_set(text)
    assert info.value.code == "by_all_means/cards_invalid"
    assert expected in info.value.message


@pytest.mark.parametrize(
    "decks,expected",
    [
        ({"alice": "nope"}, "alice: no deck 'nope'"),
        ({"alice": "demo_south", "bob": "spec_deck"}, "no deck 'spec_deck'"),
    ],
)
def test_a_bad_deck_is_refused_at_creation(decks, expected):
    r = Referee(MemoryStore())
    with pytest.raises(BadInput) as info:
        r.new_match("by_all_means", ["alice", "bob"], cards="demo", decks=decks)
    assert info.value.code == "by_all_means/deck_invalid" and expected in info.value.message
    assert r.matches() == []


def test_deck_size_and_copy_limits(tmp_path):
    text = open(os.path.join(ROOT, "referee", "games", "by_all_means", "data", "spec.toml"), encoding="utf-8").read()
    three = text + '\n[[deck]]\nid = "triple"\ncards = [' + ", ".join(['"TR1"'] * 3 + ['"TR2"'] * 37) + "]\n"
    f = tmp_path / "cards.toml"
    f.write_text(three)
    r = Referee(MemoryStore())
    with pytest.raises(BadInput) as info:
        r.new_match("by_all_means", ["alice", "bob"], cards=str(f), decks={"alice": "triple", "bob": "triple"})
    assert "3 copies of TR1; at most 2" in info.value.message or "37 copies of TR2" in info.value.message
    # option max_copies=3 lets TR1 through but not 37 TR2
    with pytest.raises(BadInput) as info:
        r.new_match("by_all_means", ["alice", "bob"], cards=str(f), decks={"alice": "triple", "bob": "triple"},
                    options={"max_copies": "3"})
    assert "37 copies of TR2" in info.value.message


def test_bundled_sets_cover_the_card_format():
    base = os.path.join(ROOT, "referee", "games", "by_all_means", "data")
    spec = parse_card_set(open(os.path.join(base, "spec.toml"), encoding="utf-8").read())
    assert len(spec.cards) == 20 and len(spec.decks["spec_deck"]) == 40 and not spec.combinations
    demo = parse_card_set(open(os.path.join(base, "demo.toml"), encoding="utf-8").read())
    types = {c.type for c in demo.cards.values()}
    assert types == {"territory", "agent", "graffiti_agent", "graffiti", "plot"}
    assert {k for c in demo.cards.values() for k in c.keywords} == {"operative", "utilization", "discard_this"}
    assert {a.kind for c in demo.cards.values() for a in c.abilities} == {
        "static", "on_enter", "on_leave", "activated", "activated_free", "trigger"}
    assert len(demo.combinations) == 15 and {c.effect for c in demo.combinations} == {
        "slander", "info_leak", "expose", "mutual_strike", "blackmail", "boost_potential", "restoration", "foresight",
        "download", "power_management", "inspire", "intimidate", "sabotage", "destroy_plans", "remove_agent"}
    assert all(len(d) == 40 for d in demo.decks.values()) and len(demo.decks) >= 2


# -- positions ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "position,expected",
    [
        ({"field.B2.graffiti": {"card": "GF1", "owner": "alice", "controller": "alice", "face": "up"}}, "a graffiti needs a territory"),
        ({"players.alice.unseen": ["TR1"]}, "players.alice.unseen has 1 cards but the archives hold 25 + 15"),
        ({"field.A1.agent.revealed": True}, "is derived from the rest of the state (read-only)"),
        ({"players.alice.colour": "red"}, "unknown position path 'players.alice.colour'"),
        ({"players.alice.hand": ["ZZ9"]}, "unknown card 'ZZ9'"),
        ({"field.A1.territory.loyalty": 3}, "field.A1.territory is empty; give the whole record"),
        ({"players.alice.reputation": -1}, "players.alice.reputation must be 0 or more"),
    ],
)
def test_a_position_breaking_the_invariants_is_refused(position, expected):
    r = Referee(MemoryStore())
    with pytest.raises(BadInput) as info:
        r.new_match("by_all_means", ["alice", "bob"], position=position)
    assert expected in info.value.message, info.value.message


# -- digital chance -------------------------------------------------------------------------------------


def test_digital_chance_fills_draws_from_the_ordered_archive_and_refuses_other_values():
    r = Referee(MemoryStore())
    m = r.new_match("by_all_means", ["alice", "bob"], seed=11)
    top = r.show(m.id).state["players"]["alice"]["main_archive"]["cards"][:4]
    assert len(top) == 4
    wrong = [c for c in ("TR1", "TR2", "TR3", "TR4", "TR5") if c not in top][:1] + top[:3]
    res = r.submit(m.id, "alice", "draw_opening_hand cards=" + ",".join(wrong))
    assert res.verdict.code == "by_all_means/chance_mismatch"
    res = r.submit(m.id, "alice", "draw_opening_hand")
    assert res.accepted and res.intent.cards == tuple(top)
    assert r.show(m.id).state["players"]["alice"]["hand"] == sorted(top)
    # the generator is the match's: a new process (a fresh service on the same rows) agrees
    again = Referee(MemoryStore())
    again.store.create_match(r.store.get_match(m.id), list(r.store.entries(m.id)))
    assert again.audit(m.id).clean


def test_physical_chance_checks_typed_draws_against_the_unseen_pool():
    r = Referee(MemoryStore())
    m = r.new_match("by_all_means", ["alice", "bob"], cards="demo", decks=DEMO_DECKS)
    res = r.submit(m.id, "alice", "draw_opening_hand cards=T06,T01,T01,T02")  # T06 is not in demo_south
    assert res.verdict.code == "by_all_means/card_not_in_archive" and "alice's deck has no T06" in res.verdict.message
    res = r.submit(m.id, "alice", "draw_opening_hand cards=T01,T01,T01,T02")
    assert res.verdict.code == "by_all_means/card_not_in_archive"
    assert r.submit(m.id, "alice", "draw_opening_hand cards=T01,T01,T02,K01").accepted


# -- hidden information ---------------------------------------------------------------------------------


def _random_match(play_seed: int, steps: int, **kw):
    r = Referee(MemoryStore())
    m = r.new_match("by_all_means", ["alice", "bob"], cards="demo", decks=DEMO_DECKS, **kw)
    loaded = r.load(m.id)
    rng = random.Random(play_seed)
    for _ in range(steps):
        _, state = r.state_at(loaded)
        if loaded.rules.outcome(state) is not None:
            break
        pick = random_intent(loaded.rules, state, ("alice", "bob"), rng)
        assert pick is not None
        res = r.submit(m.id, pick[0], format_intent(pick[1]))
        assert res.accepted, (format_intent(pick[1]), res.verdict)
    return r, m.id


def _outputs(r: Referee, mid: str, seat: str) -> dict[str, bytes]:
    out = {
        "show": msgspec.json.encode(r.show(mid, seat=seat)),
        "log": json.dumps([e for e in (json.loads(json.dumps(_plain(x))) for x in r.log(mid, seat=seat))]).encode(),
    }
    for fmt in FORMATS:
        out[f"export.{fmt}"] = export(r, mid, fmt, seat).encode()
    for n in (5, 20):
        out[f"show@{n}"] = msgspec.json.encode(r.show(mid, at=n, seat=seat))
    return out


def _plain(x):
    import msgspec

    return msgspec.to_builtins(x)


@pytest.mark.parametrize("seed", [3, 8])
def test_no_output_shows_a_seat_the_other_seats_hidden_cards(seed):
    r, mid = _random_match(seed, 60, seed=seed)
    loaded = r.load(mid)
    _, final = r.state_at(loaded)
    for seat, other in (("alice", "bob"), ("bob", "alice")):
        # the two demo decks differ: a card only the other seat's deck has, and that is hidden from this
        # seat now, was never public (cards do not go from public zones back to hidden ones), so this
        # seat's outputs must never name it
        rules = loaded.rules
        hidden = rules.hidden_ids(final, seat) & (set(rules.decks[other]) - set(rules.decks[seat]))
        assert hidden, "the test needs a card the seat cannot see"
        for name, data in _outputs(r, mid, seat).items():
            for cid in hidden:
                assert f'"{cid}"'.encode() not in data and f"={cid}".encode() not in data, (seat, name, cid)
        # every card the other seat drew is '?' in this seat's log, in the typed line and the events
        for e in r.log(mid, seat=seat):
            if e.actor == other and e.kind == "intent":
                for ev in e.events:
                    if ev["type"] == "card_moved" and ev["dst"] == f"{other}.hand" and ev["src"].endswith("_archive"):
                        assert ev["card"] == "?", (seat, e.seq, ev)
                if e.notation.startswith(("draw_main", "draw_start_cards", "draw_opening_hand", "agent_draw")):
                    assert "?" in e.notation or e.verdict == "rejected", e.notation
        # and no archive order reaches any seat
        view = r.show(mid, seat=seat).state
        assert all("cards" not in p["main_archive"] and "unseen" not in p for p in view["players"].values())
        assert "hand" not in view["players"][other] and "hand_count" in view["players"][other]


def test_a_face_down_graffiti_agent_is_hidden_from_the_opponent_until_it_flips():
    r = Referee(MemoryStore())
    pos = {
        "phase": "play", "first_player": "alice", "turn.number": 5, "turn.active": "alice", "turn.step": "actions",
        "turn.main_left": 2, "turn.extra_left": 1, "players.alice.hand": ["GA2"],
        "field.B2.territory": {"card": "TR1", "owner": "bob", "controller": "bob", "loyalty": 3},
    }
    for seat in ("alice", "bob"):
        pos.update({f"players.{seat}.unseen": ["AG2", "GF1", "PL6", "TR6", "TR7", "TR8"],
                    f"players.{seat}.main_archive.count": 4, f"players.{seat}.extra_archive.count": 2})
    m = r.new_match("by_all_means", ["alice", "bob"], position=pos)
    assert r.submit(m.id, "alice", "deploy_graffiti card=GA2 from=hand cell=B2").accepted
    bob_view = r.show(m.id, seat="bob").state
    assert bob_view["field"]["B2"]["graffiti"]["card"] == "?" and bob_view["field"]["B2"]["graffiti"]["face"] == "down"
    assert r.show(m.id, seat="alice").state["field"]["B2"]["graffiti"]["card"] == "GA2"
    bob_log = r.log(m.id, seat="bob")
    assert "GA2" not in json.dumps([_plain(e) for e in bob_log])
    assert "GA2" not in export(r, m.id, "md", "bob") and "GA2" not in export(r, m.id, "html", "spectator")
    # the territory leaves: the graffiti agent flips face up and everyone sees it
    assert r.submit(m.id, "alice", 'declare_effect source=GA2 changes=B2.loyalty-4 note="test"').accepted
    assert r.submit(m.id, "alice", "end_turn").accepted
    assert r.submit(m.id, "bob", "close_turn").accepted
    seen = r.show(m.id, seat="bob").state["field"]["B2"]
    assert seen["territory"] is None and seen["agent"]["card"] == "GA2"


# -- whole games ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("seed,chance", [(1, "digital"), (2, "digital"), (5, "physical"), (9, "physical")])
def test_random_games_finish_and_audit_clean(seed, chance):
    kw = {"seed": seed} if chance == "digital" else {"chance": "physical"}
    r, mid = _random_match(seed, 2000, **kw)
    outcome = r.show(mid).outcome
    assert outcome is not None and outcome.reason in ("influence", "trust", "full_field", "draw_simultaneous", "draw_full_field")
    report = r.audit(mid)
    assert report.clean, report.findings
    assert report.entries == len(r.log(mid)) > 40


def test_audit_of_the_demo_catches_a_forged_draw_with_a_recomputed_chain(tmp_path):
    """The demo match in SQLite; a forger changes the card alice drew (T14 -> T13) inside the typed
    line, the intent *and* its events, and recomputes the hash chain. Every entry hash checks out, so
    only re-adjudication can tell: the state the forged draw folds to is not the recorded one."""
    import sqlite3

    import msgspec

    from referee.engine import core
    from referee.store.sqlite import SqliteStore
    from referee.transcript import import_transcript

    path = str(tmp_path / "r.db")
    r = Referee(SqliteStore(path))
    replay = os.path.join(ROOT, "replays", "by_all_means", "club-night.txt")
    mid = import_transcript(r, open(replay, encoding="utf-8").read(), replay, os.path.dirname(replay)).match_id
    assert r.audit(mid).clean
    loaded = r.load(mid)
    entries = list(r.entries(loaded.match))
    forged = next(e.seq for e in entries if b'"draw_main"' in e.body and b"T14" in e.body)
    conn = sqlite3.connect(path)
    conn.execute("DROP TRIGGER entries_append_only_update")
    prev = loaded.match.genesis_hash
    for e in entries:
        raw = e.body
        if e.seq == forged:
            body = msgspec.json.decode(e.body)
            body["notation"] = body["notation"].replace("T14", "T13")
            body["intent"]["card"] = "T13"
            for ev in body["verdict"]["events"]:
                if ev.get("card") == "T14":
                    ev["card"] = "T13"
            raw = core.canonical(body)
        h = core.entry_hash(prev, raw)
        conn.execute("UPDATE entries SET body = ?, prev_hash = ?, hash = ? WHERE match_id = ? AND seq = ?",
                     (raw, prev, h, mid, e.seq))
        prev = h
    conn.commit()
    conn.close()
    report = Referee(SqliteStore(path)).audit(mid)
    assert not report.clean
    f = report.findings[0]
    assert f.seq == forged and f.what in ("verdict", "state_hash"), f
