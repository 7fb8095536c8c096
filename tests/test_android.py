"""Android: what the scenario files cannot say.

The rules are tested by the spec's scenarios (tests/scenarios/android/, run here too). This file
covers match creation (SC-03's refused creations) and data validation, hidden information in views,
logs and exports (searched byte for byte), random legal play to the end for 3, 4 and 5 seats (live
fold = replay, audit clean), digital chance recorded in the log, positions, and declared effects.
"""

from __future__ import annotations

import glob
import json
import os
import random
import re
from typing import Any

import pytest

from conftest import ROOT
from referee.engine import core
from referee.engine.notation import format_intent, parse_intent
from referee.engine.protocol import ConfigError
from referee.errors import RefereeError
from referee.export import export
from referee.games.android import GAME
from referee.scenario import run_file
from referee.service import Referee
from referee.store.memory import MemoryStore
from schemas import MatchConfig

SCENARIOS = sorted(glob.glob(os.path.join(ROOT, "tests", "scenarios", "android", "*.toml")))
FOUR = ["raymond", "rachel", "louis", "caprice"]


def fx1_text() -> str:
    from importlib import resources

    return resources.files("referee.games.android").joinpath(GAME.card_sets["FX-1"]).read_text("utf-8")


def play(r: Referee, mid: str, seat: str, text: str, expect: str = "accepted") -> Any:
    res = r.submit(mid, seat, text)
    got = "accepted" if res.accepted else res.verdict.code
    assert got == expect, f"{seat}: {text} -> {got}: {getattr(res.verdict, 'message', '')}"
    return res


def test_there_is_a_scenario_for_every_spec_scenario():
    found = (re.match(r"sc(\d+)", os.path.basename(p)) for p in SCENARIOS)
    numbers = {int(m.group(1)) for m in found if m}
    assert numbers == set(range(1, 32)), sorted(set(range(1, 32)) - numbers)


@pytest.mark.parametrize("path", SCENARIOS, ids=os.path.basename)
def test_spec_scenario(path):
    result = run_file(path)
    assert not result.failures, "\n".join(f"step {f.step}: {f.what}" for f in result.failures)


# -- SC-03 step 1: refused creations ---------------------------------------------------------------------------

@pytest.mark.parametrize("seats,code", [
    (["floyd", "louis"], "android/setup/invalid_player_count"),
    (["a", "b", "c", "d", "e", "f"], "android/setup/invalid_player_count"),
    (["floyd", "louis", "floyd"], "android/setup/invalid_seating"),
])
def test_sc03_refused_creations(seats, code):
    config = MatchConfig(game="android", players=tuple(seats), cards="FX-1", cards_text=fx1_text())
    with pytest.raises(ConfigError) as exc:
        GAME.bind(config)
    assert exc.value.code == code
    # through the service the framework's own seat checks refuse it first, with nothing created
    r = Referee(MemoryStore())
    with pytest.raises(RefereeError):
        r.new_match("android", seats, cards="FX-1")
    assert r.store.list_matches() == [] if hasattr(r.store, "list_matches") else True


def test_a_data_set_without_a_map_or_with_a_bad_reference_is_refused():
    text = fx1_text()
    with pytest.raises(ConfigError) as exc:
        GAME.bind(MatchConfig(game="android", players=("a", "b", "c"), cards="x", cards_text=text.replace("[[map]]", "[[mapx]]", 1)))
    assert exc.value.code == "android/setup/invalid_data" and "map" in exc.value.message
    bad = text.replace('crime_scene = "rockvil_estates"', 'crime_scene = "nowhere"')
    with pytest.raises(ConfigError) as exc:
        GAME.bind(MatchConfig(game="android", players=("a", "b", "c"), cards="x", cards_text=bad))
    assert "murder evil_at_the_estates" in exc.value.message and "crime_scene" in exc.value.message
    with pytest.raises(ConfigError) as exc:
        GAME.bind(MatchConfig(game="android", players=("a", "b", "c"), cards="FX-1", cards_text=text, options={"map": "nope"}))
    assert "FX-1" in exc.value.message
    # an effect the referee applies only where it is printed: an alibi is an event's, a favor a location's
    for old, new, where in (('effect = "own_good_baggage"', 'effect = "alibi"', "location wyldside.ability"),
                            ('effect = "alibi"', 'effect = "gain_favor"', "kate_says_she_wants_to_testify.grants")):
        with pytest.raises(ConfigError) as exc:
            GAME.bind(MatchConfig(game="android", players=("a", "b", "c"), cards="x", cards_text=text.replace(old, new, 1)))
        assert where in exc.value.message and "expected one of" in exc.value.message


def test_a_position_that_breaks_an_invariant_is_refused_naming_the_path():
    r = Referee(MemoryStore())
    with pytest.raises(RefereeError) as exc:
        r.new_match("android", FOUR, cards="FX-1", position={"banks.alibi": 5})
    assert exc.value.code == "android/setup/invalid_position" and "banks.alibi" in exc.value.message
    with pytest.raises(RefereeError) as exc:
        r.new_match("android", FOUR, cards="FX-1", position={"players.raymond.hand_count": 2})
    assert "derived" in exc.value.message


@pytest.mark.parametrize("position,path", [
    ({"players.raymond.twilight": 6}, "players.raymond.twilight"), ({"day": 7}, "day"), ({"time_left": -1}, "time_left"),
    ({"active_seat": "nobody"}, "active_seat"), ({"turn_order": ["raymond", "louis", "rachel", "caprice"]}, "turn_order"),
    ({"players.raymond.hero_markers_free": 5}, "players.raymond.hero_markers_free"),
    ({"players.raymond.warrant_supply": 2, "players.raymond.warrants": ["haas_bioroid"]}, "players.raymond.warrant_supply"),
    ({"players.louis.npc_favors.mr_li": 3, "players.louis.npc.mr_li.favor_supply": 3}, "players.louis.npc.mr_li.favor_supply"),
    ({"puzzle.markers.raymond": "gold"}, "puzzle.markers.raymond"), ({"players.raymond.location": "nowhere"}, "players.raymond.location"),
    ({"players.raymond.plot": {"current": "rachel.plot_a"}}, "players.raymond.plot.current"),
    ({"players.raymond.hand": ["raymond.L99"]}, "players.raymond.hand"),
    ({"suspects.noise.files.physical": [{"kind": "plus_9", "face_up": False, "placed_by": "rachel"}]}, "suspects.noise.files.physical.0"),
    ({"puzzle.placed.r9c9": {"piece": "S1", "rotation": 0}}, "puzzle.placed.r9c9"),
])
def test_a_position_another_author_gets_wrong_is_refused_naming_the_path(position, path):
    """Found by the fresh scenario files: each was accepted (or, for a seat that does not exist, raised)."""
    r = Referee(MemoryStore())
    with pytest.raises(RefereeError) as exc:
        r.new_match("android", FOUR, cards="FX-1", position={"phase": "day", **position})
    assert exc.value.code == "android/setup/invalid_position" and f"'{path}'" in exc.value.message, exc.value.message


# -- hidden information ------------------------------------------------------------------------------------------

SC01 = os.path.join(ROOT, "tests", "scenarios", "android", "sc01_standard_setup.toml")


def _setup_match() -> tuple[Referee, str]:
    """SC-01's setup (physical), then a few moves: raymond draws, follows his lead, draws evidence."""
    import tomllib

    steps = tomllib.loads(open(SC01, encoding="utf-8").read())["steps"]
    r = Referee(MemoryStore(), clock=lambda: "")
    mid = r.new_match("android", FOUR, cards="FX-1").id
    for s in steps:
        play(r, mid, s["actor"], s["intent"])
    play(r, mid, "raymond", "draw_twilight_card deck=raymond.light card=raymond.L07")
    play(r, mid, "raymond", "move to=a_plus_athletic_club")
    play(r, mid, "raymond", "follow_lead lead=physical.raymond")
    play(r, mid, "caprice", "move_lead lead=physical.raymond to=starport_kaguya")
    play(r, mid, "raymond", "draw_evidence token=plus_5")
    return r, mid


def test_hidden_ids_never_reach_another_seat_in_any_answer():
    r, mid = _setup_match()
    # louis's memory card, the set-aside event, the boxed ones and raymond's hand are hidden from rachel
    hidden = {"raymond.memory_4", "raymond.memory_1", "raymond.memory_3", "fx_estates_specific_2",
              "fx_estates_specific_1", "fx_estates_specific_3", "raymond.L07", "raymond.L01", "rachel.D01", "louis.L01"}
    loaded = r.load(mid)
    _seq, state = r.state_at(loaded)
    assert hidden <= loaded.rules.hidden_ids(state, "rachel")
    answers = [json.dumps(r.show(mid, seat="rachel").state), *(export(r, mid, fmt, "rachel") for fmt in ("txt", "md", "html", "json"))]
    answers.append(json.dumps([e.notation for e in r.log(mid, seat="rachel")]))
    for text in answers:
        for x in hidden:
            assert not re.search(rf"(?<![\w.]){re.escape(x)}(?!\w)", text), f"rachel sees {x}"
        # raymond's drawn +5 is his alone: to rachel it is never a drawn kind, a typed token or a word
        for told in ("token=plus_5", '"kind": "plus_5"', '"drawn_evidence": "plus_5"', "(plus_5)"):
            assert told not in text
        assert "vinnie_the_strangler innocent=noise" not in text and "guilty=vinnie_the_strangler" not in text
    seen = r.show(mid, seat="rachel").state
    assert seen["players"]["raymond"]["hunches"] == {"guilty": "?", "innocent": "?"}
    assert seen["players"]["rachel"]["memory_card"] == "raymond.memory_2"
    assert seen["players"]["raymond"]["hand"] == ["?"] * 4
    assert seen["players"]["raymond"]["drawn_evidence"] == "?"
    assert seen["pending"][0]["kind"] == "?"
    assert seen["events"]["specific"] == "?" and set(seen["box"]) == {"?"}
    # the owner and the arbiter see it
    mine = r.show(mid, seat="raymond").state
    assert mine["players"]["raymond"]["drawn_evidence"] == "plus_5" and "raymond.L07" in mine["players"]["raymond"]["hand"]
    assert "token=plus_5" in export(r, mid, "txt", "raymond") and "raymond.memory_4" in export(r, mid, "txt", "arbiter")


def test_what_is_redacted_does_not_depend_on_the_hidden_truth():
    """Two setups differing only in hidden facts look the same to a third seat, byte for byte."""
    def seen(memory: str, hunch: str) -> str:
        r = Referee(MemoryStore(), clock=lambda: "")
        mid = r.new_match("android", FOUR, cards="FX-1", position={
            "players.rachel.memory_card": memory, "players.rachel.hunches": {"guilty": hunch, "innocent": "noise"}}).id
        return json.dumps(r.show(mid, seat="louis").state, sort_keys=True)

    assert seen("raymond.memory_2", "eve_5va3tc") == seen("raymond.memory_3", "thomas_haas")


# -- random legal play to the end ------------------------------------------------------------------------------

def _random_game(n: int, seed: int, cards: str = "demo", options: dict[str, Any] | None = None) -> tuple[Referee, str, int]:
    r = Referee(MemoryStore(), snapshot_every=11)
    seats = [f"s{i}" for i in range(n)]
    mid = r.new_match("android", seats, seed=seed, cards=cards, options=options or {}).id
    loaded = r.load(mid)
    rng = random.Random(seed)
    for steps in range(4000):
        _, state = r.state_at(loaded)
        if loaded.rules.outcome(state) is not None:
            return r, mid, steps
        options = [(s, i) for s in seats for i in loaded.rules.legal_intents(state, s)]
        assert options, f"nobody can act in phase {state.phase}"
        ends = [o for o in options if format_intent(o[1]) == "end_turn"]
        seat, intent = ends[0] if ends and rng.random() < 0.2 else options[rng.randrange(len(options))]
        text = format_intent(intent)
        assert parse_intent(GAME.intent_type, text) == intent
        res = r.submit(mid, seat, text)
        assert res.accepted, (text, res.verdict)
    raise AssertionError("the game did not end")


ALTERNATIVES = {"auto_end_turn": True, "reach_check": "explicit", "bank_limits": "unlimited"}


@pytest.mark.parametrize("n,seed,cards,options", [(3, 1, "demo", None), (4, 2, "demo", None), (5, 3, "demo", None),
                                                   (4, 4, "FX-1", None), (5, 8, "FX-1", None), (3, 5, "FX-1", ALTERNATIVES)])
def test_random_legal_play_reaches_the_end_and_replays(n, seed, cards, options):
    r, mid, steps = _random_game(n, seed, cards, options)
    assert steps > 50
    out = r.show(mid).outcome
    assert out is not None and out.reason == "case_closed" and out.kind == "ranking"
    fresh = Referee(MemoryStore(), snapshot_every=0)
    fresh.store.create_match(r.store.get_match(mid), list(r.store.entries(mid)))
    assert fresh.show(mid).state_hash == r.show(mid).state_hash
    assert r.audit(mid).clean
    case = r.show(mid).state["case"]
    assert set(case["totals"]) == set(r.show(mid).state["active_suspects"])


def test_digital_setup_records_every_drawn_outcome():
    r = Referee(MemoryStore(), clock=lambda: "")
    mid = r.new_match("android", FOUR, seed=7, cards="FX-1").id
    play(r, mid, "arbiter", "choose_murder murder=evil_at_the_estates")
    for s in FOUR:
        play(r, mid, "arbiter", f"assign_detective seat={s} detective={s}")
    for verb in ("deal_hunches", "select_starting_plot", "draw_starting_cards", "set_aside_specific_event"):
        play(r, mid, "arbiter", verb)
    play(r, mid, "arbiter", "choose_first_player seat=raymond")
    play(r, mid, "rachel", "draw_rachel_extra_cards sources=rachel.light,caprice.dark")
    play(r, mid, "arbiter", "deal_memory_cards")
    full = r.show(mid).state
    guilty = [full["players"][s]["hunches"]["guilty"] for s in FOUR]
    innocent = [full["players"][s]["hunches"]["innocent"] for s in FOUR]
    assert len(set(guilty)) == 4 and len(set(innocent)) == 4 and set(guilty) <= set(full["active_suspects"])
    assert full["players"]["caprice"]["plot"]["current"] != "caprice.descent_into_madness"
    assert full["events"]["specific"] in ("fx_estates_specific_1", "fx_estates_specific_2", "fx_estates_specific_3")
    mem = [full["players"][s]["memory_card"] for s in ("rachel", "louis", "caprice")]
    assert len(set(mem)) == 3 and all(mem)
    loaded = r.load(mid)
    recorded = [body.intent for _e, body in r.bodies(loaded)]
    assert any(getattr(i, "dealt", ()) for i in recorded) and any(getattr(i, "deal", ()) for i in recorded)
    assert any(getattr(i, "drawn", ()) for i in recorded) and any(getattr(i, "picks", ()) for i in recorded)
    # a new process folds the log to the same state: nothing is re-drawn
    fresh = Referee(MemoryStore())
    fresh.store.create_match(r.store.get_match(mid), list(r.store.entries(mid)))
    assert fresh.show(mid).state_hash == r.show(mid).state_hash == core.state_hash(r.state_at(r.load(mid))[1])


def test_a_seat_may_not_type_a_chance_outcome_in_a_digital_match():
    r = Referee(MemoryStore())
    mid = r.new_match("android", FOUR, seed=3, cards="FX-1").id
    play(r, mid, "arbiter", "choose_murder murder=evil_at_the_estates")
    for s in FOUR:
        play(r, mid, "arbiter", f"assign_detective seat={s} detective={s}")
    # fx_suspect_6 is not in this game: the generator never deals it, so the typed outcome differs
    res = r.submit(mid, "raymond", "deal_hunches seat=raymond guilty=fx_suspect_6 innocent=fx_suspect_6")
    assert not res.accepted and res.verdict.code == "android/chance_mismatch"
    with pytest.raises(RefereeError) as exc:  # typed by the seat itself over HTTP: refused before adjudication
        r.submit(mid, "raymond", "deal_hunches seat=raymond guilty=noise innocent=noise", blind=True)
    assert exc.value.code == "input/chance_typed"


def test_declared_effects_are_flagged_and_three_hits_kill():
    r = Referee(MemoryStore())
    mid = r.new_match("android", FOUR, cards="FX-1").id  # a position-less match starts in setup
    assert r.show(mid).state["phase"] == "setup" and r.show(mid).state["setup_step"] == 1
    r2 = Referee(MemoryStore())
    mid2 = r2.new_match("android", FOUR, cards="FX-1", position={"phase": "day"}).id
    play(r2, mid2, "raymond", "manual_effect deltas=hit:noise:+3,vp:raymond:+2 note=declared")
    s = r2.show(mid2).state
    assert s["suspects"]["noise"]["alive"] is False and s["players"]["raymond"]["vp"] == 2
    assert [f["kind"] for f in s["audit_flags"]] == ["manual_effect"]
    play(r2, mid2, "raymond", "manual_effect deltas=cancel_last_action", "android/manual/inconsistent")
    play(r2, mid2, "arbiter", "manual_effect deltas=warrant:rachel:jinteki:place")
    assert r2.show(mid2).state["players"]["rachel"]["warrants"] == ["jinteki"]


def test_the_board_draws_the_city_with_the_detectives_and_leads():
    r, mid = _setup_match()
    boards = r.show(mid, seat="rachel").boards
    city = boards[0]
    assert city.layout == "map" and len(city.areas) == 23
    areas = {a.id: a for a in city.areas}
    assert "detective raymond (raymond)" in areas["a_plus_athletic_club"].lines
    assert "lead physical (raymond)" in areas["starport_kaguya"].lines
    assert any("scene of the crime" in x for x in areas["rockvil_estates"].lines)
    assert any(b.title == "Suspects" for b in boards)
    assert r.show(mid, seat="rachel").headline == ("day 1 of 6 · raymond to evidence placement · TIME raymond 3, rachel 6, louis 6, "
                                                   "caprice 6 · VP raymond 0, rachel 0, louis 0, caprice 0")


# -- match options (spec §7.3): each reading other than the default, on FX-1 --------------------------------------

def _opt(options: dict[str, Any], position: dict[str, Any] | None = None) -> tuple[Referee, str]:
    r = Referee(MemoryStore(), clock=lambda: "")
    mid = r.new_match("android", FOUR, cards="FX-1", options=options, position={"phase": "day", **(position or {})}).id
    return r, mid


def test_option_dark_card_timing_any_other_turn():
    pos = {"players.caprice.hand": ["rachel.D03"]}
    r, mid = _opt({}, pos)
    play(r, mid, "caprice", "play_dark_card card=rachel.D03", "android/twilight/dark_card_timing")
    r, mid = _opt({"dark_card_timing": "any_other_turn"}, pos)
    play(r, mid, "caprice", "play_dark_card card=rachel.D03")
    assert r.show(mid).state["players"]["caprice"]["twilight"] == -1


def test_option_overpay_clamp():
    pos = {"players.raymond.hand": ["raymond.L05"], "players.raymond.twilight": 4}
    r, mid = _opt({}, pos)
    play(r, mid, "raymond", "play_light_card card=raymond.L05", "android/twilight/cannot_pay")
    r, mid = _opt({"overpay": "clamp"}, pos)
    play(r, mid, "raymond", "play_light_card card=raymond.L05")
    assert r.show(mid).state["players"]["raymond"]["twilight"] == 5


def test_option_jump_when_holding_allow():
    pos = {"players.raymond.location": "rockvil_estates"}
    r, mid = _opt({}, pos)
    play(r, mid, "raymond", "get_a_jump", "android/scene/already_yours")
    r, mid = _opt({"jump_when_holding": "allow"}, pos)
    play(r, mid, "raymond", "get_a_jump")
    s = r.show(mid).state
    assert s["time_left"] == 5 and s["scene"]["hero"] == "raymond" and s["players"]["raymond"]["hero_markers_free"] == 3


def test_option_ability_limit_one_per_round():
    pos = {"players.raymond.abilities_used": ["napd"]}
    r, mid = _opt({}, pos)
    play(r, mid, "raymond", "use_location_ability location=city_hall")
    r, mid = _opt({"ability_limit": "one_per_round"}, pos)
    play(r, mid, "raymond", "use_location_ability location=city_hall", "android/ability/already_used_this_round")


def test_option_warrant_scope_any():
    pos = {"players.raymond.location": "rockvil_estates"}
    r, mid = _opt({}, pos)
    play(r, mid, "raymond", "move to=jinteki")
    assert r.show(mid).state["time_left"] == 3  # caprice's warrant does not help raymond
    r, mid = _opt({"warrant_scope": "any"}, pos)
    play(r, mid, "raymond", "move to=jinteki")
    assert r.show(mid).state["time_left"] == 5


def test_option_killer_tie_and_dead_can_be_killer():
    T = {"kind": "plus_3", "face_up": False, "placed_by": "rachel"}
    pos = {"day": 6, "turns_done": ["raymond", "rachel", "louis"], "active_seat": "caprice",
           "end_of_day_queue": [], "suspects.noise.files.document": [T], "suspects.eve_5va3tc.files.document": [],
           "suspects.eve_5va3tc.files.physical": [T]}
    for options, killer in (({}, "none"), ({"killer_tie": "all_tied"}, ["eve_5va3tc", "noise"])):
        r, mid = _opt(options, pos)
        play(r, mid, "caprice", "end_turn")
        play(r, mid, "raymond", "resolve_plots")
        assert r.show(mid).state["case"]["killer"] == killer
    dead = {**pos, "suspects.eve_5va3tc.files.physical": [], "suspects.noise.alive": False, "suspects.noise.hits": 3,
            "banks.hit": 10}
    for options, killer in (({}, "none"), ({"dead_can_be_killer": True}, "noise")):
        r, mid = _opt(options, dead)
        play(r, mid, "caprice", "end_turn")
        play(r, mid, "raymond", "resolve_plots")
        assert r.show(mid).state["case"]["killer"] == killer


def test_option_single_token_discard_and_perjury_timing():
    T = lambda k: {"kind": k, "face_up": False, "placed_by": "rachel"}  # noqa: E731
    # noise: strong physical, weak testimony; a single +4 in the strong file
    pos = {"day": 6, "turns_done": ["raymond", "rachel", "louis"], "active_seat": "caprice",
           "suspects.noise.files.physical": [T("plus_4")]}
    for options, total in (({}, 0), ({"single_token_discard": False}, 4)):
        r, mid = _opt(options, pos)
        play(r, mid, "caprice", "end_turn")
        play(r, mid, "raymond", "resolve_plots")
        assert r.show(mid).state["case"]["totals"]["noise"] == total


def test_option_lead_without_destination_stay():
    # every other business location holds a lead or is the origin: physical.raymond cannot move anywhere
    business = ["haas_bioroid", "humanity_labor", "jinteki", "starport_kaguya", "melange_mining"]
    leads = {"leads.testimony.thomas_haas": "haas_bioroid", "leads.document.caprice": "humanity_labor",
             "leads.physical.rachel": "jinteki", "leads.document.rachel": "starport_kaguya",
             "leads.physical.caprice": "melange_mining", "players.raymond.location": "a_plus_athletic_club"}
    assert len(business) == 5
    for options, where in (({}, "box"), ({"lead_without_destination": "stay"}, "a_plus_athletic_club")):
        r, mid = _opt(options, leads)
        play(r, mid, "raymond", "follow_lead lead=physical.raymond")
        s = r.show(mid).state
        assert s["leads"]["physical"]["raymond"] == where and s["pending"][0]["step"] == "lead_use"
        assert s["audit_flags"][-1]["kind"] == "lead_without_destination"


def test_option_dig_deeper_and_markers():
    r, mid = _opt({}, {"players.raymond.location": "a_plus_athletic_club"})
    play(r, mid, "raymond", "follow_lead lead=physical.raymond")
    play(r, mid, "caprice", "move_lead lead=physical.raymond to=haas_bioroid")
    play(r, mid, "raymond", "dig_deeper")
    s = r.show(mid).state
    assert s["puzzle"]["markers"]["raymond"] == "favor" and s["audit_flags"][-1]["kind"] == "default_rule"


def test_option_end_of_day_actor_any():
    pos = {"day": 2, "turns_done": ["raymond", "rachel", "louis"], "active_seat": "caprice"}
    r, mid = _opt({"end_of_day_actor": "any"}, pos)
    play(r, mid, "caprice", "end_turn")
    play(r, mid, "rachel", "resolve_general_event card=fx_general_05")
    assert r.show(mid).state["day"] == 3


def test_no_option_value_is_accepted_and_ignored():
    """Every option's values are built or refused at creation naming the option and what it takes."""
    r = Referee(MemoryStore(), clock=lambda: "")
    for options, words in (({"reach_check": "explicit"}, ["reach_check=explicit", "reach list", "demo"]),
                           ({"token_vp": "haas:2,gold:3"}, ["token_vp", "gold", "haas, jinteki and conspiracy"]),
                           ({"empty_evidence_pile": "allow"}, ["empty_evidence_pile", "reject"]),
                           ({"auto_end_turn": "sometimes"}, ["auto_end_turn", "true or false"])):
        with pytest.raises(RefereeError) as exc:
            r.new_match("android", ["a", "b", "c"], cards="demo" if "reach_check" in options else "FX-1", options=options)
        assert all(w in exc.value.message for w in words), exc.value.message
    for name, spec in GAME.options().items():  # a choice offered is a choice built: one match per value
        for value in spec.choices:
            seed = 1 if (name, value) == ("mode", "digital") else None
            r.new_match("android", ["a", "b", "c"], cards="FX-1", options={name: value}, seed=seed)


def test_option_token_vp_and_bank_limits_unlimited():
    pos = {"day": 6, "turns_done": ["raymond", "rachel", "louis"], "active_seat": "caprice",
           "players.rachel.tokens.haas": 2, "banks.haas": 4}
    r, mid = _opt({"token_vp": "haas:3"}, pos)
    play(r, mid, "caprice", "end_turn")
    play(r, mid, "raymond", "resolve_plots")
    play(r, mid, "arbiter", "close_case")
    assert r.show(mid).outcome.scores["rachel"] == 6
    empty = {"players.raymond.favors.political": 12, "banks.political_favor": 0}
    r, mid = _opt({}, empty)
    play(r, mid, "raymond", "use_location_ability location=city_hall", "android/bank/empty")
    r, mid = _opt({"bank_limits": "unlimited"}, empty)
    play(r, mid, "raymond", "use_location_ability location=city_hall")
    s = r.show(mid).state
    assert s["players"]["raymond"]["favors"]["political"] == 13 and s["banks"]["political_favor"] == -1


# -- «Отмена»: cancel_last_action (§4.30) ------------------------------------------------------------------------

def test_cancel_last_action_undoes_the_effect_but_keeps_the_cost():
    r, mid = _opt({}, {})
    play(r, mid, "raymond", "move to=a_plus_athletic_club")
    play(r, mid, "raymond", "manual_effect deltas=cancel_last_action note=cancelled")
    s = r.show(mid).state
    assert s["players"]["raymond"]["location"] == "city_hall" and s["time_left"] == 5 and s["free_draw_window"] is None
    play(r, mid, "raymond", "manual_effect deltas=cancel_last_action", "android/manual/inconsistent")  # nothing left
    play(r, mid, "raymond", "draw_twilight_card deck=raymond.light card=raymond.L09")
    assert r.show(mid, seat="rachel").state["last_action"]["card"] == "?"
    play(r, mid, "raymond", "manual_effect deltas=cancel_last_action")
    s = r.show(mid).state
    assert "raymond.L09" not in s["players"]["raymond"]["hand"] and "raymond.L09" in s["decks"]["raymond"]["light"]["face_down"]
    assert s["time_left"] == 4
    play(r, mid, "raymond", "move to=a_plus_athletic_club")
    play(r, mid, "raymond", "follow_lead lead=physical.raymond")
    play(r, mid, "raymond", "manual_effect deltas=cancel_last_action")
    s = r.show(mid).state
    assert s["pending"] == [] and s["leads"]["physical"]["raymond"] == "a_plus_athletic_club" and s["time_left"] == 2
    play(r, mid, "raymond", "use_location_ability location=a_plus_athletic_club", "android/ability/not_major_location")
    play(r, mid, "raymond", "end_turn")
    play(r, mid, "rachel", "move to=rockvil_estates")
    play(r, mid, "rachel", "get_a_jump")
    play(r, mid, "arbiter", "manual_effect deltas=cancel_last_action")
    s = r.show(mid).state
    assert s["scene"]["hero"] == "raymond" and s["players"]["rachel"]["hero_markers_free"] == 3
    play(r, mid, "rachel", "draw_twilight_card deck=rachel.light card=rachel.L09")
    play(r, mid, "rachel", "discard_twilight_card card=rachel.L09")
    play(r, mid, "rachel", "manual_effect deltas=cancel_last_action", "android/manual/inconsistent")


def test_a_declared_result_that_breaks_a_base_rule_is_flagged():
    r, mid = _opt({}, {})
    play(r, mid, "raymond", "manual_effect deltas=lead:physical.raymond:jinteki")
    assert [f["kind"] for f in r.show(mid).state["audit_flags"]] == ["rule_deviation", "manual_effect"]


def test_a_seat_cancelling_an_effect_on_another_hand_waits_for_that_seat():
    r, mid = _opt({}, {"players.raymond.hand": ["raymond.L05"], "players.louis.hand": ["louis.L01"]})
    play(r, mid, "raymond", "play_light_card card=raymond.L05 deltas=card:raymond.L09:louis.hand")  # the arbiter's CLI
    held = r.submit(mid, "raymond", "manual_effect deltas=cancel_last_action", blind=True)
    assert held.held and held.verdict.confirmer == "louis"
    own = r.submit(mid, "raymond", "manual_effect deltas=favor:raymond:corp:+1", blind=True)
    assert own.verdict.code == "match/awaiting_confirmation"
    assert r.confirm(mid, held.seq, by="louis").accepted
    assert r.show(mid).state["players"]["louis"]["hand"] == ["louis.L01"]
    assert r.submit(mid, "raymond", "manual_effect deltas=favor:raymond:corp:+1", blind=True).accepted  # nothing held


def test_the_seat_a_declared_card_goes_to_sees_it_and_may_confirm_it_knowingly():
    r, mid = _opt({}, {"players.raymond.hand": ["raymond.L05"], "players.louis.hand": ["louis.L01"]})
    held = r.submit(mid, "raymond", "manual_effect deltas=card:raymond.L09:louis.hand,favor:raymond:corp:+1", blind=True)
    assert held.held and held.verdict.confirmer == "louis"

    def line(seat: str) -> str:
        return next(e.notation for e in r.log(mid, seat=seat) if e.seq == held.seq)

    assert "card:raymond.L09:louis.hand" in line("louis") and "card:raymond.L09:louis.hand" in line("raymond")
    assert "raymond.L09" not in line("caprice") and "card:?:louis.hand" in line("caprice")
    assert r.confirm(mid, held.seq, by="louis").accepted
    import msgspec
    for seat, sees in (("louis", True), ("rachel", False)):
        text = msgspec.json.encode([msgspec.to_builtins(e) for e in r.log(mid, seat=seat)]).decode()
        assert ("raymond.L09" in text) is sees, seat
