"""Copycat's chance facts in a digital match: a seat typing its own intents may not type a draw, at the
top of an intent or nested in its effect arguments (``args.then.drawn``), and the refusal says nothing
about the hidden cards; the log keeps the refused line for its writer and the arbiter."""

from __future__ import annotations

import json
import random
import re

import pytest

from referee.errors import BadInput
from referee.service import Referee
from referee.store.memory import MemoryStore
from support.apps import app_client

SEATS = ["anna", "ben", "cleo"]


def digital() -> tuple[Referee, str]:
    r = Referee(MemoryStore())
    m = r.new_match("copycat", SEATS, seed=41, cards="spec_fixture")
    assert r.submit(m.id, "table", "setup").accepted
    return r, m.id


def refused(r: Referee, mid: str, text: str) -> str:
    with pytest.raises(BadInput) as err:
        r.submit(mid, "anna", text, blind=True)
    assert err.value.code == "input/chance_typed", text
    return err.value.message


def test_a_nested_draw_is_refused_like_a_top_level_one_and_kept_in_the_log():
    r, mid = digital()
    deck = r.show(mid).state["players"]["anna"]["deck"]  # what anna cannot see: her deck's cards
    guesses = {
        "draw_hand drawn={}": "drawn",
        "play_card card=c20 args.drawn={}": "args.drawn",
        "use_office office=a1_reuse args.target_card=c20 args.then.drawn={}": "args.then.drawn",
        "activate_card card=c34 args.target_card=c31 args.then.target_office=a1_reuse args.then.then.drawn={}":
            "args.then.then.drawn",
        "use_office office=a1_reuse args.target_card=c31 args.then.refill={}": "args.then.refill",
    }
    head = r.store.head(mid)
    for pattern, path in guesses.items():
        right, wrong = pattern.format(",".join(deck[:2])), pattern.format("c52,c53")
        said = {refused(r, mid, right), refused(r, mid, wrong)}
        assert len(said) == 1, "a right and a wrong guess get the same answer"
        message = said.pop()
        assert f"draws {path}:" in message
        assert not re.search(r"\b([A-D]\d\d|c\d\d|d\d)\b", message), message
        head += 2
        assert r.store.head(mid) == head, "the refusal is an entry"
    entries = r.log(mid)[1:]
    assert {(e.kind, e.actor, e.rejection.code if e.rejection else None) for e in entries} == {
        ("unparsed", "anna", "input/chance_typed")}
    seen_by_ben = json.dumps([e.notation for e in r.log(mid, seat="ben")] + [json.dumps(r.show(mid, seat="ben").state)])
    assert not any(card in seen_by_ben for card in deck), "ben sees no card anna typed"
    assert "args.then.drawn=" + ",".join(deck[:2]) in r.log(mid, seat="anna")[5].notation  # her own line
    # nothing changed: leaving the fact out, the referee draws it
    assert r.submit(mid, "anna", "draw_hand", blind=True).accepted
    assert r.audit(mid).clean


def test_over_http_a_nested_draw_is_422_and_the_legal_list_leaves_it_out(db_store):
    store = db_store  # on each backend
    with app_client(lambda: Referee(store)) as c:
        made = c.post("/matches", json={"game": "copycat", "players": SEATS, "seed": 5,
                                        "cards": "spec_fixture"}).json()
        mid, tokens = made["match"]["id"], made["tokens"]
        anna = {"Authorization": f"Bearer {tokens['seats']['anna']}"}
        assert c.post(f"/matches/{mid}/intents", json={"intent": "setup"}, headers=anna).status_code == 201
        typed = c.post(f"/matches/{mid}/intents", headers=anna,
                       json={"intent": "use_office office=a1_reuse args.target_card=c20 args.then.drawn=A09,A10"})
        assert typed.status_code == 422 and typed.json()["code"] == "input/chance_typed"
        assert "A09" not in typed.json()["message"] and "A10" not in typed.json()["message"]
        log = c.get(f"/matches/{mid}/log", headers={"Authorization": f"Bearer {tokens['seats']['ben']}"}).json()
        assert [e["kind"] for e in log["entries"]] == ["intent", "unparsed"]
        assert "A09" not in json.dumps(log["entries"][1])
        legal = c.get(f"/matches/{mid}/legal", headers=anna).json()["legal"]["anna"]
        assert "draw_hand" in legal and not any("drawn=" in t for t in legal)


def test_a_digital_match_shuffles_each_deck_once_and_draws_from_its_top():
    r, mid = digital()
    full = r.show(mid).state
    decks = {s: full["players"][s]["deck"] for s in SEATS}
    assert any(d != sorted(d) for d in decks.values()), "a deck is an ordered list, shuffled from the seed"
    band2 = full["supply"]["bands"][0]["cards"]
    assert band2 != sorted(band2), "the band is an ordered list, shuffled from the seed"
    for s in SEATS:
        assert r.submit(mid, s, "draw_hand", blind=True).accepted
        after = r.show(mid).state["players"][s]
        assert after["hand"] == sorted(decks[s][:5]) and after["deck"] == decks[s][5:], "the top five, in order"
    # the same seed deals the same piles (and the same hashes)
    again, mid2 = digital()
    assert again.show(mid2).state["players"]["anna"]["deck"] == decks["anna"]
    assert again.store.head(mid2) == 1 and r.log(mid)[0].state_hash == again.log(mid2)[0].state_hash
    # what the arbiter sees of the setup's orders no seat sees
    laid = r.log(mid, seat="anna")[0].events[0]
    assert laid["decks"] == {s: "?" for s in SEATS} and set(laid["bands"]) == {"?"}
    # a clean-up refills the street from the top of band II and draws the top office card of department 1
    m = r.new_match("copycat", SEATS, seed=41, cards="spec_fixture", position={
        "phase": "cleanup", "round": 1})
    pos = r.show(m.id).state
    res = r.submit(m.id, "table", "cleanup")
    assert res.accepted
    now = r.show(m.id).state
    assert [now["street"][str(i)] for i in (10, 11)] == pos["supply"]["bands"][0]["cards"][:2]
    top = pos["office_deck"]["bands"][0]["cards"][0]
    assert top in now["offices"]


def test_a_reshuffled_discard_pile_becomes_an_ordered_deck_recorded_for_replay():
    r = Referee(MemoryStore())
    m = r.new_match("copycat", SEATS, seed=9, cards="spec_fixture", position={
        "phase": "planning", "players.anna.deck": ["A09", "A10"],
        "players.anna.discard": ["A11", "A12", "A13", "A14", "A15", "A16"]})
    assert r.submit(m.id, "anna", "draw_hand", blind=True).accepted
    full = r.show(m.id).state["players"]["anna"]
    assert {"A09", "A10"} <= set(full["hand"]) and len(full["hand"]) == 5 and full["discard"] == []
    assert len(full["deck"]) == 3 and not set(full["deck"]) & set(full["hand"])
    drawn = r.log(m.id)[0].events[0]
    assert drawn["type"] == "cards_drawn" and drawn["new_deck"] == full["deck"], "the new order is in the log"
    assert r.log(m.id, seat="anna")[0].events[0]["new_deck"] == ["?"] * 3, "not even anna sees her deck's order"
    assert r.audit(m.id).clean


BUILT = {"elbow_scope": "phase", "donation_payment_offices": "gain_coins,trash_for_coins",
         "garden_party_in_phase2": "true", "team_bonus_mode": "free_placement", "special_buy_deferred": "false",
         "cards_only_with_placement": "false", "reused_card_destination": "box", "extra_placement_scope": "phase",
         "order_choice_final": "false", "lay_down_before_buy": "false"}


def test_the_other_readings_play_whole_games_that_replay():
    from referee.engine.notation import format_intent

    r = Referee(MemoryStore())
    m = r.new_match("copycat", SEATS, seed=17, options=BUILT)
    loaded = r.load(m.id)
    rng = random.Random(17)
    for _ in range(4000):
        _, state = r.state_at(loaded)
        if loaded.rules.outcome(state) is not None:
            break
        options = [(s, i) for s in SEATS for i in loaded.rules.legal_intents(state, s)]
        busy = [o for o in options if type(o[1]).__name__ not in ("EndTurn", "Pass")]
        pool = busy if busy and rng.random() < 0.8 else options
        seat, intent = pool[rng.randrange(len(pool))]
        assert r.submit(m.id, seat, format_intent(intent)).accepted
    _, state = r.state_at(loaded)
    assert loaded.rules.outcome(state) is not None
    assert r.verify(m.id) == []


@pytest.mark.parametrize("name,value", [("short_draw", "strict"), ("empty_supply", "end_game"), ("keep_scope", "any"),
                                        ("trash_before_lay_down", "false")])
def test_a_reading_not_built_is_refused_at_creation_naming_what_is(name, value):
    r = Referee(MemoryStore())
    with pytest.raises(BadInput) as err:
        r.new_match("copycat", SEATS, options={name: value})
    assert err.value.code == "match/bad_option" and name in err.value.message and "takes one of" in err.value.message


def test_the_deal_is_the_seeds_whatever_entry_lays_it_out():
    r, mid = digital()
    other = Referee(MemoryStore())
    m = other.new_match("copycat", SEATS, seed=41, cards="spec_fixture")
    assert other.submit(m.id, "anna", "draw_hand").verdict.code == "copycat/wrong_phase"  # entry 1, rejected
    assert other.submit(m.id, "table", "setup").accepted  # entry 2
    mine, theirs = r.show(mid).state, other.show(m.id).state
    assert mine["players"] == theirs["players"] and mine["supply"] == theirs["supply"] and mine["street"] == theirs["street"]


@pytest.mark.parametrize("seats,seed", [(2, 5), (3, 41), (4, 8)])
def test_an_intent_that_draws_nothing_fills_to_itself(seats: int, seed: int):
    """``model.DRAWS_NOTHING`` lets a digital match skip filling those intents: along random digital games, a
    full fill of each of them (as the seat whose turn it is and as every other seat) is the intent itself,
    never a refusal, so skipping it changes no verdict."""
    from referee.engine import core
    from referee.engine.notation import format_intent
    from referee.games.copycat.model import DRAWS_NOTHING
    from referee.games.copycat.txn import rng_chooser

    r = Referee(MemoryStore())
    names = SEATS[:seats] if seats <= len(SEATS) else [*SEATS, "dora"][:seats]
    mid = r.new_match("copycat", names, seed=seed, cards="spec_fixture").id
    loaded = r.load(mid)
    rules, rng = loaded.rules, random.Random(seed)
    chance = core.play_chance(loaded.config)
    assert chance is not None
    tried: set[str] = set()
    for _ in range(400):
        _, state = r.state_at(loaded)
        if rules.outcome(state) is not None:
            break
        pick = rules.random_intent(state, rng)
        if pick is None:
            break
        seat, intent = pick
        if isinstance(intent, DRAWS_NOTHING):
            for who in names:
                filled = rules.fill(state, who, intent, rng_chooser(chance), chance)
                assert filled == intent, (who, intent, filled)
            tried.add(type(intent).__name__)
        r.submit(mid, seat, format_intent(intent))
    assert {"PlaceWorker", "EndTurn", "Buy"} <= tried, tried
