"""Legendary Encounters: X-Files: what the scenario files cannot say.

The rules are tested by the spec's scenarios (tests/scenarios/xfiles_encounters/, run here). This file
covers the card data's validation, match options, hidden information in every output a seat gets,
random legal play to the end of the game for every player count (live fold = replay), digital
chance, the notation of payments and declared ops, and the demo match.
"""

from __future__ import annotations

import glob
import json
import os
import random
import re
from importlib import resources
from typing import Any

import msgspec
import pytest

from conftest import ROOT
from referee.engine import core
from referee.engine.notation import format_intent, parse_intent
from referee.engine.protocol import ConfigError
from referee.export import FORMATS, export
from referee.games import find
from referee.games.xfiles_encounters import GAME
from referee.games.xfiles_encounters.data import parse_cards
from referee.games.xfiles_encounters.model import OpPoints, Pay
from referee.scenario import run_file
from referee.service import Referee
from referee.store.memory import MemoryStore
from referee.transcript import import_transcript

SCENARIOS = sorted(glob.glob(os.path.join(ROOT, "tests", "scenarios", "xfiles_encounters", "*.toml")))
REPLAYS = sorted(glob.glob(os.path.join(ROOT, "replays", "xfiles_encounters", "*.txt")))
OPTS = {"avatars": {"alice": "skinner", "bob": "mulder"}}


def fixture_text() -> str:
    return resources.files("referee.games.xfiles_encounters").joinpath(GAME.card_sets["spec_fixture"]).read_text("utf-8")


def new(players: list[str] | None = None, options: dict[str, Any] | None = None, position: dict[str, Any] | None = None,
        seed: int | None = None, cards: str = "spec_fixture") -> tuple[Referee, str]:
    r = Referee(MemoryStore(), clock=lambda: "")
    m = r.new_match("xfiles_encounters", players or ["alice", "bob"], cards=cards,
                    options=OPTS if options is None else options, position=position or {}, seed=seed)
    return r, m.id


def play(r: Referee, mid: str, seat: str, text: str, expect: str = "accepted") -> Any:
    res = r.submit(mid, seat, text)
    got = "accepted" if res.accepted else res.verdict.code
    assert got == expect, f"{seat}: {text} -> {got}: {getattr(res.verdict, 'message', '')}"
    return res


def state(r: Referee, mid: str, seat: str | None = None) -> dict[str, Any]:
    shown: dict[str, Any] = r.show(mid, seat=seat).state
    return shown


# -- the spec's scenarios --------------------------------------------------------------------------------------


def test_every_spec_scenario_has_a_file():
    spec = open("/work/shared/rules/xfiles-encounters.md", encoding="utf-8").read() \
        if os.path.exists("/work/shared/rules/xfiles-encounters.md") else ""
    wanted = {f"s{int(n):02d}" for n in re.findall(r"^### S(\d+) ", spec, re.M)} or {f"s{i:02d}" for i in range(1, 45)}
    have = {os.path.basename(p)[:3] for p in SCENARIOS}
    assert wanted <= have, f"missing scenario files: {sorted(wanted - have)}"


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: os.path.basename(p))
def test_spec_scenario(path):
    result = run_file(path)
    assert result.passed, "\n".join(f.render(path) for f in result.failures)


# -- registration, data and options ----------------------------------------------------------------------------


def test_registered_with_aliases_and_notation():
    assert find("xfiles") is GAME and find("xfiles_encounters") is GAME
    assert GAME.min_players == 1 and GAME.max_players == 5
    intent = parse_intent(GAME.intent_type, "fight target=sector.1 pay=none:2,will:1")
    assert intent.pay == (Pay("none", 2), Pay("will", 1))
    ops = parse_intent(GAME.intent_type, "manual_effect source=fx_inf_01 ops=points:attack:2,gain_doubt:bob").ops
    assert ops[0] == OpPoints(kind="attack", amount=2) and ops[0].bucket == "none"  # trailing field left off
    assert format_intent(intent) == "fight target=sector.1 pay=none:2,will:1"


def test_fixture_is_complete_and_every_card_type_validates():
    cards = parse_cards(fixture_text())
    assert sum(c.copies for c in cards.cards.values()) == 500
    demo = parse_cards(resources.files("referee.games.xfiles_encounters").joinpath("data/demo.toml").read_text("utf-8"))
    assert set(demo.cards) == set(cards.cards)
    assert all(demo.name(c) for c in demo.cards)


@pytest.mark.parametrize("patch, fragment", [
    (('name = "Grey Visitor"', 'name = "Grey Visitor"\nhealth = 3'), "health do not apply to a enemy card"),
    (('type = "strike"', 'type = "strikes"'), "type is one of"),
    (('copies = 16', 'copies = 15'), "a complete set has 40 strike cards"),
    (('trigger = "on_activate"', 'trigger = "whenever"'), "trigger is one of"),
    (('keywords = ["runner"]', 'keywords = ["sprinter"]'), "keywords is a list of"),
])
def test_card_data_errors_name_the_card_and_field(patch, fragment):
    text = fixture_text().replace(*patch, 1)
    with pytest.raises(ConfigError) as err:
        parse_cards(text)
    assert fragment in err.value.message and err.value.code == "xfiles_encounters/bad_card_data"


@pytest.mark.parametrize("options, fragment", [
    ({"avatars": {"alice": "skinner", "bob": "skinner"}}, "different avatar"),
    ({"avatars": {"alice": "skinner"}}, "missing: bob"),
    ({"seasons": [1, 5, 9]}, "standard method"),
    ({"conspiracy_method": "random", "seasons": [2, 5, 9]}, "random method"),
    ({"academy_characters": ["burks", "burks", "follmer", "pendrell"]}, "four different"),
    ({"series_game": 2, "seasons": [1, 2, 3]}, "game 2 of a series"),
    ({"season_cards_kept": "chosen"}, "needs kept_season_cards"),
    ({"season_cards_kept": "chosen", "kept_season_cards": ["fx_s1_grey"] * 2}, "stack A (season 1) keeps 8 cards"),
    ({"season_cards_kept": "chosen", "kept_season_cards": ["fx_s1_grey"] * 3}, "names fx_s1_grey 3 times"),
    ({"season_cards_kept": "chosen", "kept_season_cards": ["fx_gunmen_rig"]}, "is not a season card"),
    ({"kept_season_cards": ["fx_s1_grey"]}, "season_cards_kept=random"),
    ({"swift_failure_refund": True}, "only false is supported"),
])
def test_bad_configurations_are_refused(options, fragment):
    with pytest.raises(Exception) as err:
        new(options=options)
    assert fragment in str(err.value)


def test_every_option_is_read_by_the_rules_or_has_one_value():
    """No option value is accepted and then ignored: each option with a choice is read by the rules."""
    folder = os.path.join(ROOT, "referee", "games", "xfiles_encounters")
    source = "".join(open(os.path.join(folder, f), encoding="utf-8").read() for f in sorted(os.listdir(folder))
                     if f.endswith(".py"))
    table = source.index("OPTIONS: tuple[OptionSpec, ...] = (")
    source = source[:table] + source[source.index("\n)\n", table):]  # the table itself does not count
    for name, spec in GAME.options().items():
        if len(spec.choices) == 1:
            continue  # one supported value (first_game_roster, defeated_current_player)
        assert re.search(rf"[\"']{name}[\"']", source), f"option {name} is never read"


def test_list_and_map_options_from_the_command_line_notation():
    spec = GAME.options()
    assert spec["avatars"].parse("alice:skinner,bob:mulder") == {"alice": "skinner", "bob": "mulder"}
    assert spec["seasons"].parse("4,5,6") == [4, 5, 6]
    r, mid = new(options={"avatars": spec["avatars"].parse("alice:doggett,bob:reyes"), "seasons": [4, 5, 6]})
    s = state(r, mid)
    assert s["players"]["alice"]["avatar"] == "doggett" and s["turn"]["seat"] == "alice"
    assert [g["seasons"] for g in s["conspiracy_deck"]["segments"][:3]] == [[4], [5], [6]]


def test_setup_recorded_then_opening_draws_start_the_first_turn():
    r, mid = new(players=["alice", "bob", "cy"], options={})
    s = state(r, mid)
    # the first-game roster: Mulder, Scully, Skinner; Skinner has rank 1 and plays first
    assert [s["players"][p]["avatar"] for p in ("alice", "bob", "cy")] == ["mulder", "scully", "skinner"]
    assert s["status"] == "setup" and [i["seat"] for i in s["pending"]] == ["cy", "alice", "bob"]
    assert s["conspiracy_deck"]["count"] == 34 and s["academy_deck"]["count"] == 57
    play(r, mid, "alice", "draw cards=field_agent", "xfiles_encounters/pending_input")
    for seat in ("cy", "alice", "bob"):
        play(r, mid, seat, "draw cards=field_agent,field_agent,field_agent,strike_team,strike_team,strike_team")
    s = state(r, mid)
    assert s["status"] == "in_progress" and s["turn"]["phase"] == "conspiracy" and s["turn"]["seat"] == "cy"


def test_unknown_cards_and_seats_are_input_errors_not_verdicts():
    r, mid = new()
    for text in ("play_card card=no_such_card", "give_ally seat=zed", "manual_effect source=nowhere ops=lose_game"):
        with pytest.raises(Exception) as err:
            r.submit(mid, "alice", text)
        assert "unknown" in str(err.value)
    assert r.log(mid) == [] or all(e.kind != "intent" for e in r.log(mid))


# -- hidden information ----------------------------------------------------------------------------------------


SECRET = "fx_gunmen_decoy"  # a card only bob holds, in a match without open hands


def _outputs(r: Referee, mid: str, seat: str) -> bytes:
    parts = [json.dumps(state(r, mid, seat)), msgspec.json.encode(r.log(mid, seat=seat)).decode()]
    for fmt in FORMATS:
        parts.append(export(r, mid, fmt, seat))
    if seat != "spectator":
        parts.append(str(r.legal(mid, seat, blind=True).legal))
    return "\n".join(parts).encode("utf-8")


def test_a_hidden_hand_never_reaches_another_seat():
    position = {"status": "in_progress", "pending": [], "turn.phase": "action", "turn.seat": "alice",
                "players.alice.hand": ["field_agent", "strike_team"],
                "players.bob.hand": ["field_agent", "field_agent", "strike_team", SECRET, SECRET]}
    r, mid = new(options={**OPTS, "open_hands": False}, position=position)
    play(r, mid, "alice", "play_card card=strike_team")
    play(r, mid, "alice", "end_actions")
    play(r, mid, "alice", "cleanup")
    rules = r.load(mid).rules
    _, st = r.state_at(r.load(mid))
    assert SECRET in rules.hidden_ids(st, "alice") and SECRET not in rules.hidden_ids(st, "bob")
    name = rules.cards.name(SECRET)
    for seat in ("alice", "spectator"):
        out = _outputs(r, mid, seat)
        assert SECRET.encode() not in out and name.encode() not in out, f"{seat} sees bob's hidden card"
    assert SECRET.encode() in _outputs(r, mid, "bob")


def test_a_seeded_match_never_holds_a_hidden_identity_and_deals_private_draws():
    r, mid = new(options={**OPTS, "open_hands": False}, seed=11)
    play(r, mid, "alice", "draw")
    res = play(r, mid, "bob", "draw")
    drawn = res.intent.cards
    assert len(drawn) == 6
    seen_by_alice = msgspec.json.encode([e for e in r.log(mid, seat="alice") if e.actor == "bob"]).decode()
    assert "field_agent" not in seen_by_alice and "strike_team" not in seen_by_alice
    full = state(r, mid)
    assert all(s["card"] == "" for s in full["bureau"].values()), "hidden Bureau cards have no identity yet"
    play(r, mid, "alice", "conspire")
    assert state(r, mid)["shadows"]["5"]["card"] == ""


# -- random legal play -----------------------------------------------------------------------------------------


def _random_game(n: int, seed: int, digital: bool, steps: int = 3000) -> tuple[Referee, str, list[str]]:
    seats = ["ann", "ben", "cy", "dee", "eve"][:n]
    r = Referee(MemoryStore(), clock=lambda: "")
    m = r.new_match("xfiles_encounters", seats, cards="demo", seed=seed if digital else None)
    loaded = r.load(m.id)
    rng = random.Random(seed)
    live = []
    for _ in range(steps):
        _, st = r.state_at(loaded)
        if loaded.rules.outcome(st) is not None:
            break
        pick = loaded.rules.random_intent(st, rng)  # fights and recruits when it can, so games reach The End
        assert pick is not None, "someone can always act while the game goes on"
        seat, intent = pick
        text = format_intent(intent)
        assert parse_intent(GAME.intent_type, text) == intent
        res = r.submit(m.id, seat, text)
        assert res.accepted, f"random_intent offered {text!r} to {seat}: {res.verdict}"
        live.append(res.state_hash)
    return r, m.id, live


@pytest.mark.parametrize("n, seed, digital", [(1, 3, True), (2, 5, True), (3, 8, False), (4, 13, True), (5, 21, True)])
def test_random_legal_play_finishes_and_replays(n, seed, digital):
    r, mid, live = _random_game(n, seed, digital)
    outcome = r.show(mid).outcome
    assert outcome is not None, "the game must reach its end"
    assert outcome.kind in ("team_win", "team_loss") and (outcome.winners == () or len(outcome.winners) == n)
    fresh = Referee(MemoryStore(), snapshot_every=0)
    fresh.store.create_match(r.store.get_match(mid), list(r.store.entries(mid)))
    loaded = fresh.load(mid)
    st = loaded.initial
    for (entry, body), expected in zip(fresh.bodies(loaded), live):
        st = core.apply(loaded.rules, st, body.verdict)
        assert core.state_hash(st) == expected == entry.state_hash
    assert fresh.verify(mid) == []


def test_digital_chance_fills_draws_reveals_and_strikes():
    position = {"status": "in_progress", "pending": [], "turn.phase": "action", "turn.seat": "alice",
                "sector": ["fx_s1_grey"], "shadows.4": {"state": "hidden", "origin": "A"},
                "players.alice.hand": ["strike_team", "strike_team"]}
    r, mid = new(position=position, seed=4)
    cards = r.load(mid).rules.cards
    play(r, mid, "alice", "play_card card=strike_team")
    play(r, mid, "alice", "play_card card=strike_team")
    play(r, mid, "alice", "scan location=shadows.4")
    res = play(r, mid, "alice", "reveal")
    kind = cards[res.intent.card]
    assert kind.season == 1 or kind.type in ("informant", "leader"), "a card of stack A"
    assert state(r, mid)["shadows"]["4"]["card"] == res.intent.card or kind.has("ambush") or kind.type in ("event", "ally")
    if state(r, mid)["pending"]:
        return
    play(r, mid, "alice", "end_actions")
    res = play(r, mid, "alice", "take_strike")
    assert cards[res.intent.card].type == "strike"
    assert state(r, mid)["strike_deck"]["count"] + len(state(r, mid)["strike_discard"]) + \
        len(state(r, mid)["players"]["alice"]["wounds"]) == 40


# -- the demo match --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("path", REPLAYS, ids=lambda p: os.path.basename(p))
def test_demo_match_adjudicates_to_a_team_result(path):
    """The demo matches: a two-player team loss and a solo team win, each with refused lines."""
    r = Referee(MemoryStore())
    with open(path, encoding="utf-8") as fh:
        summary = import_transcript(r, fh.read(), path, os.path.dirname(path))
    assert summary.outcome is not None and summary.outcome.kind in ("team_win", "team_loss")
    assert summary.rejected >= 2
    md = export(r, summary.match_id, "md", "spectator")
    said = "the team won" if summary.outcome.kind == "team_win" else "everyone lost"
    assert f"| Result | {said}" in md and "draw" not in md.split("## Result")[1].lower()


# -- The End with Replication and its Clone (§5.6.1) -------------------------------------------------------------

P2 = {"status": "in_progress", "pending": [], "turn.phase": "action", "turn.seat": "alice", "season": "A",
      "players.alice.hand": ["field_agent", "strike_team", "strike_team", "strike_team", "strike_team", "strike_team"],
      "players.alice.deck": ["field_agent"] * 6, "players.bob.hand": ["field_agent"] * 6, "players.bob.deck": []}


def test_replication_places_a_clone_that_must_be_defeated_too():
    position = {**P2, "shadows.3": {"state": "hidden", "origin": "end_game"}, "shadows.5": {"state": "empty"},
                "evidence.1": {"state": "collected", "card": "fx_ev1_01"},
                "evidence.2": {"state": "collected", "card": "fx_ev2_01"},
                "conspiracy_deck.segments": [{"label": "end_game", "remaining": 0, "quota": {"end_game": 1}}]}
    r, mid = new(position=position)
    for _ in range(5):
        play(r, mid, "alice", "play_card card=strike_team")
    play(r, mid, "alice", "scan location=shadows.3")
    play(r, mid, "alice", "reveal card=clone", "xfiles_encounters/reveal_inconsistent")
    play(r, mid, "alice", "reveal card=replication")
    s = state(r, mid)
    assert s["the_end"] and s["shadows"]["4"] == {**s["shadows"]["4"], "state": "hidden", "card": "clone"}
    assert s["awaiting"] == "reveal" and s["clone_evidence"] == [{"priority": 3, "card": ""}]
    play(r, mid, "alice", "reveal card=fx_ev2_02", "xfiles_encounters/reveal_inconsistent")  # evidence.3 is priority 3
    play(r, mid, "alice", "reveal card=fx_ev3_02")
    assert state(r, mid, "bob")["shadows"]["4"]["card"] == "clone", "the Clone's identity is public"
    play(r, mid, "alice", "manual_effect source=replication ops=end_game_damage:replication:8")
    s = state(r, mid)
    assert "replication" in s["defeated_conspiracy"] and s["status"] == "in_progress", "the Clone is still in play"
    play(r, mid, "alice", "scan location=shadows.4")
    play(r, mid, "alice", "reveal card=clone")
    assert state(r, mid)["awaiting"] == "reveal"  # its set-aside evidence
    play(r, mid, "alice", "reveal card=fx_ev3_03")
    assert state(r, mid)["clone_evidence"] == [{"priority": 3, "card": "fx_ev3_03"}]
    play(r, mid, "alice", "manual_effect source=clone ops=end_game_damage:clone:6")
    assert state(r, mid)["status"] == "won" and r.show(mid).outcome.winners == ("alice", "bob")


def test_no_death_saves_a_player_before_the_end_and_skips_their_next_turn():
    position = {**P2, "sector": ["fx_s1_grey"], "players.alice.wounds": ["fx_strike_3"] * 3}
    r, mid = new(options={**OPTS, "no_death": True}, position=position)
    play(r, mid, "alice", "end_actions")
    play(r, mid, "alice", "take_strike card=fx_strike_3")
    s = state(r, mid)
    assert s["status"] == "in_progress" and s["players"]["alice"]["wounds"] == []
    assert s["players"]["alice"]["scars"] == ["fx_strike_3"] * 4 and s["players"]["alice"]["skip_next_turn"]
    assert s["turn"]["step"] == "next_turn" or s["turn"]["seat"] == "bob"


def test_evidence_phase_any_lets_a_leader_be_followed_outside_the_action_phase():
    position = {**P2, "turn.phase": "cleanup", "shadows.2": {"state": "revealed", "card": "fx_lead_01"}}
    r, mid = new(position=position)
    play(r, mid, "alice", "discover_evidence location=shadows.2", "xfiles_encounters/wrong_phase")
    r, mid = new(options={**OPTS, "evidence_phase": "any"}, position=position)
    play(r, mid, "alice", "discover_evidence location=shadows.2")
    assert state(r, mid)["audit"]["declared"] == 1


def test_bureau_revealed_before_syndicate_lays_out_five_characters_face_up():
    r, mid = new(options={**OPTS, "bureau_revealed_before_syndicate": True})
    s = state(r, mid)
    assert [i["kind"] for i in s["pending"]][:5] == ["reveal"] * 5 and s["pending"][0]["seat"] == "alice"
    play(r, mid, "alice", "reveal card=fx_syn_watcher", "xfiles_encounters/reveal_inconsistent")
    for card in ("fx_burks_lab", "fx_burks_lab", "fx_gunmen_rig", "fx_pendrell_trace", "fx_follmer_order"):
        play(r, mid, "alice", f"reveal card={card}")
    s = state(r, mid)
    assert [s["bureau"][b]["state"] for b in "12345"] == ["revealed"] * 5 and s["awaiting"] == "draw"
    r2, mid2 = new(options={**OPTS, "bureau_revealed_before_syndicate": True}, seed=9)
    for _ in range(5):
        res = play(r2, mid2, "alice", "reveal")
        assert r2.load(mid2).rules.cards[res.intent.card].type == "academy_character"


def test_a_series_game_scores_its_evidence_and_end_game():
    position = {**P2, "the_end": True, "shadows.5": {"state": "empty"}, "sector": ["fx_eg_colonization"],
                "conspiracy_deck.segments": [{"label": "end_game", "remaining": 0, "quota": {"end_game": 1}}],
                "end_game_damage.fx_eg_colonization": 5,
                "evidence.1": {"state": "collected", "card": "fx_ev1_01"},
                "evidence.2": {"state": "discovered", "card": "fx_ev2_01", "in_end_game": True},
                "evidence.3": {"state": "exposed", "card": "fx_ev3_01", "in_end_game": True}}
    r, mid = new(options={**OPTS, "series_game": 2}, position=position)
    for _ in range(4):
        play(r, mid, "alice", "play_card card=strike_team")
    play(r, mid, "alice", "fight target=sector.1")
    play(r, mid, "alice", "take_strike card=fx_strike_1")
    outcome = r.show(mid).outcome
    # game 2: two discovered (2 each), one collected (+4), the End Game 14
    assert outcome.kind == "team_win" and outcome.scores == {"alice": 22, "bob": 22}
    r2, mid2 = new(options={**OPTS, "series_game": 3})
    assert [g["seasons"] for g in state(r2, mid2)["conspiracy_deck"]["segments"]][:3] == [[7], [8], [9]]


# -- legal intents: declared effects, avoiding and cancelling ------------------------------------------------------


def test_legal_offers_declared_effects_grants_avoid_and_cancel_and_each_is_accepted():
    hand = ["fx_gunmen_decoy", "protector", "strike_team", "strike_team", "strike_team", "strike_team"]
    position = {**P2, "sector": ["fx_s1_grey"], "players.alice.hand": hand,
                "turn.grants": ["fight_player:bob", "cancel:alice"]}
    r, mid = new(position=position)
    for _ in range(4):
        play(r, mid, "alice", "play_card card=strike_team")
    offered = r.legal(mid, "alice", blind=True).legal["alice"]
    assert "fight_player seat=bob" in offered and "manual_effect source=avatar.alice ops=points:attack:0" in offered
    assert "manual_effect source=fx_s1_grey ops=points:attack:0" not in offered  # the Grey has no text
    assert r.legal(mid, "bob").legal["bob"] == ["manual_effect source=avatar.bob ops=points:attack:0"]
    play(r, mid, "alice", "play_card card=fx_gunmen_decoy")
    play(r, mid, "alice", "end_actions")
    offered = r.legal(mid, "alice", blind=True).legal["alice"]
    for text in ("avoid_strike source=fx_gunmen_decoy", "avoid_strike source=avatar.alice",
                 "take_strike card=? cancel=protector", "take_strike card=? cancel=avatar.alice"):
        assert text in offered, (text, offered)
    assert not any(t.startswith("manual_effect") for t in offered), "nothing but the answer while a strike waits"
    loaded = r.load(mid)
    st = r.state_at(loaded)[1]
    for intent in loaded.rules.legal_intents(st, "alice"):
        assert parse_intent(GAME.intent_type, format_intent(intent)) == intent
        assert loaded.rules.decide(st, "alice", intent, None).__class__.__name__ == "Accepted", intent
    declared = state(r, mid)["audit"]["declared"]
    play(r, mid, "alice", "take_strike card=fx_strike_2 cancel=avatar.alice")  # the grant is used up, not declared
    s = state(r, mid)
    assert s["turn"]["grants"] == ["fight_player:bob"] and s["strike_discard"] == ["fx_strike_2"]
    assert s["audit"]["declared"] == declared and s["players"]["alice"]["wounds"] == []


def test_legal_on_the_command_line_lists_the_declared_templates(cli):
    made = cli("new", "xfiles_encounters", "--players", "alice,bob", "--cards", "spec_fixture", "--option",
               "avatars=alice:skinner,bob:mulder")
    assert made.code == 0, made.err
    mid = made.last_line.split()[-1]
    for seat in ("alice", "bob"):
        cards = ",".join(["field_agent"] * 4 + ["strike_team"] * 2)
        assert cli("play", mid, seat, f"draw cards={cards}").code == 0
    out = cli("legal", mid, "--as", "bob", "--json")
    assert "manual_effect source=avatar.bob ops=points:attack:0" in out.json["legal"]["bob"]


# -- a series of three games, linked by --continue-from (R48, §6.4) -------------------------------------------------

SERIES = {"avatars": {"alice": "skinner", "bob": "mulder"}, "series_game": 1}
QUICK_LOSS = {**P2, "sector": ["fx_s1_grey"], "players.alice.wounds": ["fx_strike_3"] * 3,
              "players.bob.scars": ["", ""], "evidence.1": {"state": "discovered", "card": "fx_ev1_01", "leader": "fx_lead_01"}}
QUICK_WIN = {**P2, "shadows.5": {"state": "empty"}, "sector": ["fx_eg_colonization"], "the_end": True,
             "end_game_damage.fx_eg_colonization": 3,
             **{f"evidence.{p}": {"state": "collected", "card": f"fx_ev{p}_01"} for p in (1, 2, 3)}}


def _lose_quickly(r: Referee, mid: str) -> None:
    play(r, mid, "alice", "end_actions")
    play(r, mid, "alice", "take_strike card=fx_strike_3")


def _win_quickly(r: Referee, mid: str) -> None:
    for _ in range(4):
        play(r, mid, "alice", "play_card card=strike_team")
    play(r, mid, "alice", "fight target=sector.1")
    play(r, mid, "alice", "take_strike card=fx_strike_3")


def test_a_series_of_three_linked_games_carries_its_score_and_ends_with_game_three():
    r, g1 = new(options=SERIES, position=QUICK_LOSS)
    _lose_quickly(r, g1)
    assert r.show(g1).outcome.scores == {"alice": 1, "bob": 1}  # one discovered evidence in game 1
    g2 = r.new_match("xfiles_encounters", ["alice", "bob"], continue_from=g1, position=QUICK_WIN).id
    assert r.store.get_match(g2) is not None and msgspec.json.decode(r.store.get_match(g2).config)["meta"]["continues"] == g1
    _win_quickly(r, g2)
    assert r.show(g2).outcome.scores == {"alice": 33, "bob": 33}  # 1 + 3 collected x (2 + 4) + 14
    g3 = r.new_match("xfiles_encounters", ["alice", "bob"], continue_from=g2, position=QUICK_WIN).id
    options = state(r, g3)["options"]
    assert (options["series_game"], options["series_points"], options["series_previous"]) == (3, 33, "won")
    assert options["seasons"] == [7, 8, 9] and options["avatars"] == SERIES["avatars"]
    _win_quickly(r, g3)
    shown = r.show(g3)
    assert shown.outcome.scores == {"alice": 85, "bob": 85}  # 33 + 3 x (3 + 6) + 25
    assert shown.headline.startswith("series game 3 of 3 won: 85 series points; the series is won (The truth is out there) · ")
    with pytest.raises(Exception, match="game 3, the last of its series"):
        r.new_match("xfiles_encounters", ["alice", "bob"], continue_from=g3)
    # the third game replays and audits on its own: the games before it are not read
    alone = Referee(MemoryStore(), snapshot_every=0)
    alone.store.create_match(r.store.get_match(g3), list(r.store.entries(g3)))
    assert alone.verify(g3) == [] and alone.show(g3).outcome.scores == {"alice": 85, "bob": 85}


def test_the_next_game_deals_climax_cards_keeps_scars_and_this_time_ends_the_series(cli, tmp_path):
    pos = tmp_path / "loss.toml"

    def toml(v: Any) -> str:
        if isinstance(v, dict):
            return "{ " + ", ".join(f"{k} = {toml(x)}" for k, x in v.items()) + " }"
        return "[" + ", ".join(toml(x) for x in v) + "]" if isinstance(v, list) else json.dumps(v)

    pos.write_text("".join(f"{json.dumps(k)} = {toml(v)}\n" for k, v in QUICK_LOSS.items()))
    made = cli("new", "xfiles_encounters", "--players", "alice,bob", "--cards", "spec_fixture", "--option",
               "avatars=alice:skinner,bob:mulder", "--option", "series_game=1", "--option", "series_keep_scars=true",
               "--option", "series_this_time_card=true", "--position", pos)
    assert made.code == 0, made.err
    g1 = made.last_line
    unfinished = cli("new", "xfiles_encounters", "--continue-from", g1)
    assert unfinished.code == 2 and "is not over" in unfinished.err
    assert cli("play", g1, "alice", "end_actions").code == 0 and cli("play", g1, "alice", "take_strike card=fx_strike_3").code == 0
    clash = cli("new", "xfiles_encounters", "--continue-from", g1, "--option", "series_game=3")
    assert clash.code == 2 and "series_game is carried over" in clash.err
    made = cli("new", "xfiles_encounters", "--continue-from", g1)
    assert made.code == 0, made.err
    g2 = made.last_line
    s = cli("show", g2, "--json").json["state"]
    assert s["options"]["series_game"] == 2 and s["options"]["series_previous"] == "lost"
    assert s["players"]["bob"]["scars"] == ["", ""] and s["strike_deck"]["count"] == 38  # scars kept, unseen
    assert [i["location"] for i in s["pending"][:2]] == ["climax.alice", "climax.bob"]
    wrong = cli("play", g2, "alice", "reveal card=fx_gtc_skinner_1")  # a loss deals Unexpected Help
    assert wrong.code == 1 and "reveal_inconsistent" in wrong.out + wrong.err
    assert cli("play", g2, "alice", "reveal card=fx_uh_skinner_1").code == 0
    assert cli("play", g2, "bob", "reveal card=this_time_they_may_have_won").code == 0
    s = cli("show", g2, "--json").json
    assert s["state"]["players"]["alice"]["climax"] == ["fx_uh_skinner_1"] and s["state"]["status"] == "lost"
    assert s["outcome"]["reason"] == "declared_loss" and "the series is lost" in s["headline"]
    over = cli("new", "xfiles_encounters", "--continue-from", g2)
    assert over.code == 2 and "the series is lost" in over.err
    standalone = cli("new", "xfiles_encounters", "--players", "alice,bob", "--option", "series_keep_scars=true")
    assert standalone.code == 2 and "series_game=1" in standalone.err
    assert "--continue-from" in cli("new", "--help").out


def test_a_series_continues_over_a_server_with_the_previous_matchs_arbiter_token(cli, db_store):
    """``referee --server URL --token T new GAME --continue-from M``: POST /matches with continue_from,
    allowed only to M's arbiter; the seats default to M's; a spectator's token or none is refused."""
    from referee.access import Access
    from support.apps import live_server

    r = Referee(db_store)
    g1 = r.new_match("xfiles_encounters", ["alice", "bob"], cards="spec_fixture", options=SERIES, position=QUICK_LOSS).id
    _lose_quickly(r, g1)
    minted = Access(Referee(db_store))._mint(r.info(r.resolve(g1)))
    with live_server(lambda: Referee(db_store)) as server:
        url = ("--server", server.url)
        bare = cli(*url, "new", "xfiles_encounters", "--continue-from", g1[:6])
        assert bare.code != 0 and "token" in bare.err, bare.err
        seen = cli(*url, "--token", minted.spectator, "new", "xfiles_encounters", "--continue-from", g1[:6])
        assert seen.code != 0 and "may not continue this match" in seen.err, seen.err
        assert len(db_store.list_matches()) == 1  # nothing was written
        made = cli(*url, "--token", minted.arbiter, "new", "xfiles_encounters", "--continue-from", g1[:6], "--json")
        assert made.code == 0, made.err
        g2 = made.json["match"]["id"]
        assert made.json["match"]["players"] == ["alice", "bob"] and made.json["tokens"]["arbiter"]
    options = state(r, g2)["options"]
    assert (options["series_game"], options["series_points"], options["series_previous"]) == (2, 1, "lost")
    assert msgspec.json.decode(db_store.get_match(g2).config)["meta"]["continues"] == g1
