"""War of Shadows: what the scenario files cannot say.

The rules themselves are tested by the spec's scenarios (tests/scenarios/war_of_shadows/, run here
too). This file covers match creation and data-file validation, hidden information in views, logs
and exports, random legal play to the end of the game for every player count (live fold = replay),
digital chance, arbiter rulings, and every match option.
"""

from __future__ import annotations

import glob
import json
import os
import random
from importlib import resources
from typing import Any

import pytest

from referee.games.war_of_shadows.data import ALL_CARDS

from conftest import ROOT
from referee.engine import core
from referee.engine.notation import format_intent, parse_intent
from referee.engine.protocol import ConfigError
from referee.errors import BadInput
from referee.export import export
from referee.games import GAMES
from referee.games.war_of_shadows import GAME
from referee.games.war_of_shadows.data import EMPIRES, SLOTS, parse_data
from referee.games.war_of_shadows.view import invariant_problems
from referee.scenario import run_file
from referee.service import Referee
from referee.store.memory import MemoryStore
from referee.transcript import import_transcript
from schemas import MatchConfig

SCENARIOS = sorted(glob.glob(os.path.join(ROOT, "tests", "scenarios", "war_of_shadows", "*.toml")))
DEMO = os.path.join(ROOT, "replays", "war_of_shadows", "ember-coast.txt")
FOUR = ["raven", "spider", "rat", "serpent"]


def _data(name: str) -> str:
    return resources.files("referee.games.war_of_shadows").joinpath(GAME.card_sets[name]).read_text("utf-8")


def new(options: dict[str, Any] | None = None, position: dict[str, Any] | None = None,
        players: list[str] | None = None, cards: str = "TM-1", seed: int | None = None) -> tuple[Referee, str]:
    r = Referee(MemoryStore(), clock=lambda: "")
    opts = {"board": "TM-1", **(options or {})} if cards in ("TM-1", "boards") else dict(options or {})
    m = r.new_match("war_of_shadows", players or FOUR, cards=cards, options=opts, position=position or {}, seed=seed)
    return r, m.id


def play(r: Referee, mid: str, seat: str, text: str, expect: str = "accepted") -> Any:
    res = r.submit(mid, seat, text)
    got = "accepted" if res.accepted else res.verdict.code
    assert got == expect, f"{seat}: {text} -> {got}: {getattr(res.verdict, 'message', '')}"
    return res


def st(r: Referee, mid: str, seat: str | None = None) -> dict[str, Any]:
    return r.show(mid, seat=seat).state


EMPIRE_PHASE = {"phase": "EMPIRE_PHASE"}


def at(empire: str, position: str, stage: str = "pending", **extra: Any) -> dict[str, Any]:
    return {"phase": "EMPIRE_PHASE", "cursor": {"empire": empire, "position": position, "stage": stage}, **extra}


# -- the spec's scenarios ----------------------------------------------------------------------------------


def test_every_spec_scenario_has_a_file():
    names = " ".join(os.path.basename(p) for p in SCENARIOS)
    for n in range(1, 39):
        assert f"sc{n:02d}" in names, f"SC-{n:02d} has no scenario file"


@pytest.mark.parametrize("path", SCENARIOS, ids=os.path.basename)
def test_spec_scenario(path):
    result = run_file(path)
    assert result.passed, "\n".join(f.render(os.path.basename(path)) for f in result.failures)


# -- registration and match creation -----------------------------------------------------------------------


def test_registered_and_described():
    assert GAME in GAMES
    info = Referee(MemoryStore()).describe_game("war_of_shadows")
    verbs = [i.verb for i in info.intents]
    assert len(verbs) == 22 and verbs[0] == "configure_match" and verbs[-1] == "final_reveal"
    assert {"TM-1", "demo", "boards"} <= set(info.card_sets)
    names = {o.name for o in info.options}
    for name in ("board", "region_agents", "keep_secrets", "to_each_their_own", "counter_intelligence", "mode",
                 "loyalty_secret_mode", "card_identity_mode", "allow_pass", "final_tie", "fort_trigger"):
        assert name in names


@pytest.mark.parametrize("players,code", [
    (["raven", "spider", "rat", "serpent", "owl"], "war_of_shadows/invalid_player_count"),
    (["raven"], "war_of_shadows/invalid_player_count"),
    (["raven", "spider", "spider"], "war_of_shadows/invalid_seating"),
])
def test_configure_match_refusals(players, code):
    """SC-02 steps 1-3: the game refuses these configurations, and so does the service (before it)."""
    config = MatchConfig(game="war_of_shadows", players=tuple(players), cards="TM-1", cards_text=_data("TM-1"))
    with pytest.raises(ConfigError) as info:
        GAME.bind(config)
    assert info.value.code == code
    with pytest.raises(BadInput):
        Referee(MemoryStore()).new_match("war_of_shadows", players, cards="TM-1")


def test_default_data_set_is_every_board_without_a_catalogue():
    r = Referee(MemoryStore())
    m = r.new_match("war_of_shadows", ["a", "b"])
    assert st(r, m.id)["board"] == "demo"
    m2 = r.new_match("war_of_shadows", ["a", "b"], options={"board": "TM-1"})
    assert st(r, m2.id)["board"] == "TM-1"
    assert r.load(m2.id).rules.catalogue is None


def test_bundled_boards_are_the_same_in_every_data_set():
    boards = parse_data(_data("boards"), "boards").boards
    assert parse_data(_data("TM-1")).boards["TM-1"] == boards["TM-1"]
    assert parse_data(_data("demo")).boards["demo"] == boards["demo"]
    demo = parse_data(_data("demo"))
    assert demo.catalogue is not None and len(demo.catalogue) == 40
    tm1 = parse_data(_data("TM-1"))
    assert tm1.catalogue is not None and tm1.catalogue["bear_c1"].abilities[2].effect == "mutual_annihilation"
    assert sum(r.cities for r in boards["TM-1"].regions) == 12


# -- data-file validation ----------------------------------------------------------------------------------

BAD_DATA = [
    ("not toml [", "war_of_shadows/invalid_board_data", "not valid TOML"),
    ('[set]\nid = "x"\n', "war_of_shadows/invalid_board_data", "holds no [[board]]"),
    ("TM1.replace('empire_order = [\"bear\"', 'empire_order = [\"lion\", \"bear\"', 1)", "war_of_shadows/invalid_board_data",
     "empire_order"),
    ("TM1.replace('[\"lion_1\", \"lion_2\"]', '[\"lion_1\", \"lion_9\"]')", "war_of_shadows/invalid_board_data",
     "land_borders: lion_1–lion_9 names an unknown region 'lion_9'"),
    ("TM1.replace('sea_borders = [[\"lion_2\", \"eagle_2\"]', 'sea_borders = [[\"lion_1\", \"lion_2\"]')",
     "war_of_shadows/invalid_board_data", "lion_1–lion_2 is both a land and a sea border"),
    ("TM1.replace('start_banners = 2', 'start_banners = 21', 1)", "war_of_shadows/invalid_board_data",
     "the bear has 22 starting banners"),
    ("TM1.replace('cities = 1', 'cities = -1', 1)", "war_of_shadows/invalid_board_data",
     "region bear_1: field cities: expected 0 or more, got -1"),
    ("TM1.replace('home = \"bear\"', 'home = \"wolf\"', 1)", "war_of_shadows/invalid_board_data",
     "region bear_1: field home"),
    ("TM1.replace('chancellor = [{ type = \"add_banners\", count = 1 }, { type = \"take_cards\", mode = \"fixed\", n = 1 }]', "
     "'chancellor = []', 1)", "war_of_shadows/invalid_board_data", "council_actions.bear.chancellor: every council position"),
    ("TM1.replace('{ type = \"add_banners\", count = 2 }', '{ type = \"add_banners\", count = 3 }', 1)",
     "war_of_shadows/invalid_board_data", "add_banners prints 1 or 2 banners, got 3"),
    ("TM1.replace('divisor = 2', 'divisor = 5', 1)", "war_of_shadows/invalid_board_data", "field divisor: expected 2 or 3"),
    ("TM1.replace('id = \"bear_c2\"', 'id = \"bear_c9\"', 1)", "war_of_shadows/invalid_card_data", "card bear_c9: field id"),
    ("TM1.replace('cost = [\"bear\", \"lion\"]', 'cost = [\"lion\", \"lion\"]', 1)", "war_of_shadows/invalid_card_data",
     "card bear_c1: ability 2: field cost: the played card pays one bear symbol"),
    ("TM1.replace('effect = { primitive = \"reinforcement\" }', 'effect = { primitive = \"teleport\" }', 1)",
     "war_of_shadows/invalid_card_data", "card lion_c1: ability 1: field effect.primitive"),
    ("TM1.replace('id = \"bear_c3\"', 'id = \"bear_c2\"', 1)", "war_of_shadows/invalid_card_data", "card bear_c2: the card is listed twice"),
    ("TM1 + '\\n[extra]\\nx = 1\\n'", "war_of_shadows/invalid_board_data", "unknown top-level key(s) extra"),
]


@pytest.mark.parametrize("source,code,fragment", BAD_DATA)
def test_data_file_errors_name_the_item_and_field(source, code, fragment):
    text = eval(source, {"TM1": _data("TM-1")}) if source.startswith("TM1") else source  # noqa: S307 - test table
    assert text != _data("TM-1")
    r = Referee(MemoryStore())
    with pytest.raises(BadInput) as info:
        r.new_match("war_of_shadows", FOUR, cards="custom", cards_text=text)
    assert info.value.code == code
    assert fragment in info.value.message, info.value.message


def test_board_option_must_name_a_board_of_the_data_set():
    with pytest.raises(BadInput) as info:
        Referee(MemoryStore()).new_match("war_of_shadows", FOUR, cards="demo", options={"board": "TM-1"})
    assert info.value.code == "war_of_shadows/invalid_board_data" and "holds demo" in info.value.message


def test_mode_option_must_agree_with_the_seed():
    with pytest.raises(BadInput) as info:
        Referee(MemoryStore()).new_match("war_of_shadows", FOUR, cards="TM-1", options={"mode": "digital"})
    assert info.value.code == "war_of_shadows/invalid_mode"
    r = Referee(MemoryStore())
    m = r.new_match("war_of_shadows", FOUR, cards="TM-1", options={"mode": "digital"}, seed=3)
    assert r.load(m.id).rules.digital


def test_empire_order_option():
    r, mid = new({"empire_order": "bear,eagle,elephant,horse,lion"}, {"phase": "AGENT_PLACE"}, players=["raven", "serpent"])
    for seat, to in (("raven", "eagle.sheriff"), ("serpent", "lion.sheriff"), ("raven", "eagle.seneschal"),
                     ("serpent", "lion.seneschal"), ("raven", "eagle.marshal"), ("serpent", "lion.marshal")):
        play(r, mid, seat, f"place_agent to={to}")
    assert st(r, mid)["cursor"]["empire"] == "eagle"  # the bear council is empty: eagle comes next here
    with pytest.raises(BadInput):
        new({"empire_order": "lion,bear,eagle,elephant,horse"})


@pytest.mark.parametrize("position,fragment", [
    ({"phase": "EMPIRE_PHASE"}, "needs cursor.empire"),
    ({"phase": "AGENT_PLACE", "banners.bear_1": {"bear": 2, "lion": 1}}, "at most one colour"),
    ({"phase": "AGENT_PLACE", "banner_supply.bear": 3}, "must add up to 20"),
    ({"phase": "AGENT_PLACE", "players.raven.hand": ["bear_c1"], "deck.bear": ["bear_c1"]}, "twice: bear_c1"),
    ({"phase": "AGENT_PLACE", "council.bear.sheriff": "owl"}, "'owl' is not a seat"),
    ({"phase": "AGENT_PLACE", "control.bear_1": "lion"}, "derived"),
    ({"phase": "AGENT_PLACE", "players.raven.wealth": 3}, "unknown position path"),
    ({"phase": "AGENT_PLACE", "region_agents.bear_1": ["raven"]}, "module region_agents"),
    ({"phase": "GAME_OVER"}, "cannot start at GAME_OVER"),
])
def test_bad_positions_are_refused_with_a_clear_message(position, fragment):
    with pytest.raises(BadInput) as info:
        new(position=position)
    assert info.value.code == "war_of_shadows/invalid_position" and fragment in info.value.message, info.value.message


# -- unknown references, rulings, determinism --------------------------------------------------------------


def test_unknown_ids_are_adjudicated_not_refused():
    r, mid = new(position={"phase": "AGENT_PLACE"})
    play(r, mid, "raven", "place_agent to=bear.kingpin", "war_of_shadows/unknown_reference")
    play(r, mid, "raven", "place_agent player=spider to=bear.sheriff", "war_of_shadows/unknown_reference")
    r2, mid2 = new(position=at("bear", "sheriff", **{"council.bear.sheriff": "raven"}))
    play(r2, mid2, "raven", "attack position=bear.sheriff from=atlantis to=lion_1 count=1",
         "war_of_shadows/unknown_reference")
    play(r2, mid2, "raven", "play_card card=bear_c1 ability=7 timing=before position=bear.sheriff effect=manual",
         "war_of_shadows/unknown_reference")


def test_an_arbiter_can_let_a_waivable_refusal_stand():
    r, mid = new(position=at("bear", "sheriff", **{"council.bear.sheriff": "raven"}))
    res = play(r, mid, "raven", "add_banners position=bear.sheriff count=1 placements=bear_1:1",
               "war_of_shadows/action_not_offered")
    ruled = r.rule_stands(mid, res.seq, reason="the printed icon was misread")
    assert ruled.accepted
    assert st(r, mid)["banners"]["bear_1"]["bear"] == 3 and st(r, mid)["cursor"]["stage"] == "done"
    assert r.verify(mid) == []


# -- hidden information --------------------------------------------------------------------------------------


def _blob(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, default=str)


def test_sc34_views():
    """SC-34: the draw is public as a count, private as ids; tokens face down except the swapped two."""
    r, mid = new(position=at("bear", "seneschal", **{"council.bear": {"sheriff": "raven", "seneschal": "spider"},
                                                      "cursor.acting_player": "spider"}))
    play(r, mid, "spider", "take_cards position=bear.seneschal variant.mode=fixed variant.n=1 cards=bear_c4")
    assert st(r, mid, "spider")["players"]["spider"]["hand"] == ["bear_c4"]
    for viewer in ("raven", "spectator"):
        view = st(r, mid, viewer)
        assert view["players"]["spider"]["hand"] is None and view["players"]["spider"]["hand_size"] == 1
        assert view["deck"]["bear"] is None and view["deck_size"]["bear"] == 7
        assert "bear_c4" not in _blob(view)
        assert "bear_c4" not in _blob(r.log(mid, seat=viewer))
        for fmt in ("md", "json", "txt", "html"):
            assert "bear_c4" not in export(r, mid, fmt, viewer)
        assert "spider drew 1 card from the bear deck" in export(r, mid, "md", viewer)
        for p in ("rat", "spider", "serpent"):
            if p != viewer:
                assert all(t == {"empire": None, "revealed": False} for t in view["players"][p]["loyalty"].values())
    assert "spider drew 1 card from the bear deck: bear_c4" in export(r, mid, "json", "spider")
    own = st(r, mid, "raven")["players"]["raven"]["loyalty"]
    assert [own[s]["empire"] for s in SLOTS] == ["lion", "elephant", "bear", "eagle", "horse"]
    assert st(r, mid, None)["players"]["spider"]["loyalty"]["fanaticism"]["empire"] == "bear"
    # a later swap by spider: exactly those two tokens become public
    r2, mid2 = new(position={"phase": "REVEAL", "first_player": "spider", "round_markers_placed": 1})
    play(r2, mid2, "spider", "swap_loyalty slot_a=fanaticism slot_b=devotion revealed.fanaticism=horse revealed.devotion=bear")
    seen = st(r2, mid2, "raven")["players"]["spider"]["loyalty"]
    assert {s: t["empire"] for s, t in seen.items() if t["empire"]} == {"fanaticism": "horse", "devotion": "bear"}


def test_loyalty_arrangements_and_deals_never_reach_another_seat():
    r, mid = new({"to_each_their_own": True}, players=["raven", "spider", "rat"])
    for p, soc in (("raven", "pale_raven"), ("spider", "humble_spider"), ("rat", "rat_cult")):
        play(r, mid, p, f"choose_society society={soc}")
    play(r, mid, "raven", "set_first_player player=raven")
    play(r, mid, "rat", "deal_fanatic_empire assignments.raven=lion assignments.spider=eagle assignments.rat=bear")
    play(r, mid, "raven", "arrange_loyalty arrangement.fanaticism=lion arrangement.devotion=elephant "
                          "arrangement.involvement=bear arrangement.indifference=eagle arrangement.opposition=horse")
    raven_view = st(r, mid, "raven")
    assert raven_view["players"]["raven"]["fanatic_dealt"] == "lion"
    assert raven_view["players"]["spider"]["fanatic_dealt"] is None
    for viewer in ("spider", "spectator"):
        log = _blob([e for e in r.log(mid, seat=viewer)])
        assert "arrangement.fanaticism=lion" not in log and "loyalty:raven:" not in log
        assert "fanatic:raven:" not in log and "assignments.raven=lion" not in log
        for fmt in ("md", "json", "txt"):
            text = export(r, mid, fmt, viewer)
            assert "arrangement.devotion=elephant" not in text and "loyalty:raven:" not in text
        assert "raven placed 5 loyalty tokens face down" in export(r, mid, "md", viewer)
    # rat's line dealt every empire: rat sees its own (a line may have been typed by the arbiter for it),
    # and the canonical notation of the rest, redacted; the referee's log shows everything
    rat = _blob(r.log(mid, seat="rat"))
    assert "assignments.rat=bear" in rat and "assignments.raven=?" in rat and "assignments.raven=lion" not in rat
    raven = _blob(r.log(mid, seat="raven"))
    assert "assignments.raven=lion" in raven and "assignments.rat=?" in raven
    assert "arrangement.fanaticism=lion" in _blob(r.log(mid))
    assert "arrangement.fanaticism=? arrangement.devotion=? arrangement.involvement=?" in _blob(r.log(mid, seat="rat"))


def test_the_demo_match_keeps_every_seat_secret_at_every_step():
    r = Referee(MemoryStore(), clock=lambda: "")
    with open(DEMO, encoding="utf-8") as fh:
        summary = import_transcript(r, fh.read(), DEMO, os.path.dirname(DEMO))
    loaded = r.load(summary.match_id)
    state = loaded.initial
    # a card named by a public fact (the audit flag of a card played) stays named after it is drawn
    # again: a view never tells where a card is now; what it must not show is a card it never saw
    seen: dict[str, set[str]] = {seat: set() for seat in loaded.config.players}
    for _entry, body in r.bodies(loaded):
        state = r.advance(loaded, state, body)
        for seat in loaded.config.players:
            hidden = loaded.rules.hidden_ids(state, seat)
            view = _blob(loaded.rules.view(state, seat))
            seen[seat] |= {c for c in ALL_CARDS if f'"{c}"' in view and c not in hidden}
            leaked = sorted(h for h in hidden if f'"{h}"' in view and h not in seen[seat])
            assert not leaked, f"{seat} sees {leaked}"
            for other in loaded.config.players:
                if other != seat and state.phase != "GAME_OVER":
                    for slot, tok in state.players[other].loyalty.items():
                        shown = loaded.rules.view(state, seat)["players"][other]["loyalty"][slot]["empire"]
                        assert shown == (tok.empire if tok.revealed else None)
    for seat in ("anna", "spectator"):
        log = r.log(summary.match_id, seat=seat)
        for e in log:
            if e.actor != seat and e.notation.startswith("arrange_loyalty"):
                # the canonical notation of the redacted intent: the slots, never an empire in them
                assert all(part.endswith("=?") for part in e.notation.split()[1:] if part.startswith("arrangement.")), e.notation
        text = export(r, summary.match_id, "md", seat)
        assert "loyalty:" not in text


def test_private_and_public_discards():
    pos = {"phase": "DISCARD", "first_player": "spider", "round_markers_placed": 1,
           "players.raven.hand": ["bear_c1", "bear_c2", "bear_c3", "lion_c1", "lion_c2", "horse_c1"]}
    for visibility, shown in (("private", False), ("public", True)):
        r, mid = new({"discard_visibility": visibility}, pos)
        play(r, mid, "raven", "discard_cards cards=lion_c2")
        text = _blob(r.log(mid, seat="spider"))
        assert ("lion_c2" in text) is shown
        assert ("lion_c2" in export(r, mid, "md", "spider")) is shown
        assert "lion_c2" in _blob(r.log(mid, seat="raven"))


# -- random legal play -----------------------------------------------------------------------------------------


def _random_game(n: int, seed: int, cards: str | None, options: dict[str, Any], digital: bool) -> tuple[Referee, str, list[str]]:
    r = Referee(MemoryStore(), snapshot_every=16)
    seats = [f"p{i}" for i in range(n)]
    kwargs: dict[str, Any] = {"options": options, "seed": seed if digital else None}
    if cards:
        kwargs["cards"] = cards
    m = r.new_match("war_of_shadows", seats, **kwargs)
    loaded = r.load(m.id)
    rng = random.Random(seed)
    hashes = []
    for _ in range(2000):
        _, state = r.state_at(loaded)
        if loaded.rules.outcome(state) is not None:
            break
        choices = [(s, i) for s in seats for i in loaded.rules.legal_intents(state, s)]
        assert choices, f"nobody can act in {state.phase}"
        seat, intent = choices[rng.randrange(len(choices))]
        text = format_intent(intent)
        assert parse_intent(GAME.intent_type, text) == intent
        res = r.submit(m.id, seat, text)
        assert res.accepted, f"legal_intents offered {seat}: {text} but got {res.verdict}"
        hashes.append(res.state_hash)
        problems = invariant_problems(loaded.rules, r.state_at(loaded)[1])
        assert problems == [], f"after {seat}: {text}: {problems}"
    return r, m.id, hashes


GAMES_TO_PLAY = [
    (n, seed, cards, options, digital)
    for n in (2, 3, 4)
    for seed, cards, options, digital in (
        (n * 10 + 1, "demo", {}, True),
        (n * 10 + 2, None, {}, False),
        (n * 10 + 3, "TM-1", {"board": "TM-1", "region_agents": True, "keep_secrets": True,
                              "to_each_their_own": True, "counter_intelligence": True}, True),
    )
] + [
    (3, 7, "demo", {"loyalty_secret_mode": "unrecorded", "counter_intelligence": True}, False),
    (4, 8, "demo", {"card_identity_mode": "counted"}, False),
    (2, 9, "demo", {"allow_pass": True, "add_banners_exact": False, "move_agent_chain": True, "during_window": "any_action",
                    "fort_trigger": "per_entering_group", "discard_exact": False, "final_tie": "first_in_turn_order",
                    "first_player_pass_timing": "end_of_round", "move_agent_subject": "occupant_only",
                    "short_deck_draw": "forbid_action"}, True),
]


@pytest.mark.parametrize("n,seed,cards,options,digital", GAMES_TO_PLAY,
                         ids=lambda v: str(v) if not isinstance(v, dict) else ("+".join(sorted(v)) or "defaults"))
def test_random_legal_play_finishes_and_replays(n, seed, cards, options, digital):
    r, mid, live = _random_game(n, seed, cards, options, digital)
    outcome = r.show(mid).outcome
    assert outcome is not None and outcome.winners, "the game must reach its end"
    assert st(r, mid)["phase"] == "GAME_OVER" and st(r, mid)["round_markers_placed"] == 4
    fresh = Referee(MemoryStore(), snapshot_every=0)
    fresh.store.create_match(r.store.get_match(mid), list(r.store.entries(mid)))
    loaded = fresh.load(mid)
    state = loaded.initial
    for (entry, body), expected in zip(fresh.bodies(loaded), live):
        state = core.apply(loaded.rules, state, body.verdict)
        assert core.state_hash(state) == expected == entry.state_hash
    assert fresh.verify(mid) == []


# -- digital chance ------------------------------------------------------------------------------------------


def test_digital_chance_is_filled_in_and_recorded():
    r, mid = new(seed=5)
    for p, soc in zip(FOUR, ("pale_raven", "humble_spider", "rat_cult", "endless_serpent")):
        play(r, mid, p, f"choose_society society={soc}")
    res = play(r, mid, "raven", "set_first_player")
    assert res.intent.player in FOUR and res.intent.method == "random"
    for p in FOUR:
        res = play(r, mid, p, "arrange_loyalty")
        assert sorted(getattr(res.intent.arrangement, s) for s in SLOTS) == sorted(EMPIRES)
    mismatch = r.submit(mid, "spider", "set_first_player player=spider")
    assert not mismatch.accepted  # already set
    first = st(r, mid)["next_player"]
    order = st(r, mid)["turn_order"]
    for i in range(8):
        seat = order[i % 4]
        play(r, mid, seat, f"place_agent to={EMPIRES[i // 4]}.{('sheriff', 'seneschal', 'marshal', 'chancellor')[i % 4]}")
    assert first == order[0]
    state = st(r, mid)
    assert f"{state['cursor']['empire']}.{state['cursor']['position']}" == "bear.sheriff"
    assert state["cursor"]["acting_player"] == order[0]
    play(r, mid, order[0], "add_banners position=bear.sheriff count=2 placements=bear_1:2")
    seat = order[1]  # the bear seneschal's agent
    wrong = r.submit(mid, seat, "take_cards position=bear.seneschal variant.mode=fixed variant.n=1 cards=bear_c1,bear_c2")
    assert wrong.verdict.code == "war_of_shadows/chance_mismatch"
    res = play(r, mid, seat, "take_cards position=bear.seneschal variant.mode=fixed variant.n=1")
    assert len(res.intent.cards) == 1 and res.intent.cards[0].startswith("bear_c")
    assert st(r, mid)["players"][seat]["hand"] == list(res.intent.cards)
    assert r.verify(mid) == []


# -- options (§8, §1.11) ---------------------------------------------------------------------------------------


def test_allow_pass():
    pos = at("bear", "sheriff", **{"council.bear.sheriff": "raven"})
    r, mid = new(position=pos)
    play(r, mid, "raven", "pass_position position=bear.sheriff", "war_of_shadows/action_required")
    r, mid = new({"allow_pass": True}, pos)
    play(r, mid, "raven", "pass_position position=bear.sheriff")
    assert st(r, mid)["cursor"]["stage"] == "done"


def test_add_banners_exact():
    pos = at("bear", "sheriff", **{"council.bear.sheriff": "raven"})
    r, mid = new({"add_banners_exact": False}, pos)
    play(r, mid, "raven", "add_banners position=bear.sheriff count=2 placements=bear_1:3", "war_of_shadows/wrong_banner_count")
    play(r, mid, "raven", "add_banners position=bear.sheriff count=2 placements=bear_1:1")
    assert st(r, mid)["banner_supply"]["bear"] == 16


def test_move_agent_subject_and_chain():
    pos = at("bear", "seneschal", **{"council.bear": {"sheriff": "raven", "chancellor": "spider"}})
    r, mid = new({"move_agent_subject": "occupant_only"}, pos)
    play(r, mid, "spider", "move_agent position=bear.seneschal destination=bear.marshal", "war_of_shadows/agent_not_found")
    r, mid = new(position=pos)  # default: the active agent (on the chancellor) moves, even onto the slot itself
    play(r, mid, "spider", "move_agent position=bear.seneschal destination=bear.seneschal")
    assert st(r, mid)["council"]["bear"]["seneschal"] == "spider" and st(r, mid)["council"]["bear"]["chancellor"] is None
    play(r, mid, "spider", "move_agent position=bear.seneschal destination=bear.marshal", "war_of_shadows/chained_move")
    r, mid = new({"move_agent_chain": True}, pos)
    play(r, mid, "spider", "move_agent position=bear.seneschal destination=bear.seneschal")
    play(r, mid, "spider", "move_agent position=bear.seneschal destination=bear.marshal")
    assert st(r, mid)["cursor"]["sub_position"] == "bear.marshal"


def test_short_deck_draw():
    bear_out = ["bear_c1", "bear_c2", "bear_c3", "bear_c4", "bear_c5", "bear_c6", "bear_c7"]
    pos = at("bear", "marshal", **{"council.bear.marshal": "raven", "players.spider.hand": bear_out,
                                   "banners.lion_1": {"bear": 1}, "banners.lion_2": {"bear": 1}})
    r, mid = new(position=pos)  # 4 cities: owed 2, the deck holds 1: draw it
    play(r, mid, "raven", "take_cards position=bear.marshal variant.mode=per_symbol variant.symbol=city variant.divisor=2 "
                          "cards=bear_c8")
    r, mid = new({"short_deck_draw": "forbid_action"}, pos)
    play(r, mid, "raven", "take_cards position=bear.marshal variant.mode=per_symbol variant.symbol=city variant.divisor=2 "
                          "cards=bear_c8", "war_of_shadows/wrong_draw_count")


def test_during_window_any_action():
    pos = at("horse", "sheriff", **{"council.horse.sheriff": "serpent", "players.serpent.hand": ["lion_c3"]})
    r, mid = new({"during_window": "any_action"}, pos)
    play(r, mid, "serpent", "play_card card=lion_c3 ability=1 timing=during position=horse.sheriff effect=manual")


def test_fort_trigger_and_fort_owner():
    pos = at("bear", "sheriff", **{"council.bear.sheriff": "raven", "banners.bear_1": {"bear": 4},
                                   "banners.bear_2": {"bear": 3}, "players.raven.hand": ["lion_c1"]})
    for trigger, attackers_left in (("once_per_combat", 1), ("per_entering_group", 0)):
        r, mid = new({"fort_trigger": trigger}, pos)
        play(r, mid, "raven", "attack position=bear.sheriff from=bear_1 to=lion_1 count=2 resolve=false")
        play(r, mid, "raven", "play_card card=lion_c1 ability=1 timing=during position=bear.sheriff "
                              "effect.primitive=reinforcement effect.from=bear_2 effect.count=2")
        assert st(r, mid)["cursor"]["combat"]["attacking"] == 3 - (1 if trigger == "per_entering_group" else 0)
        play(r, mid, "raven", "resolve_combat position=bear.sheriff")
        assert st(r, mid)["banners"]["lion_1"]["bear"] == attackers_left
    # the lion retaking its own fort: struck by default, not with fort_owner_neutral=false
    pos = at("lion", "sheriff", **{"council.lion.sheriff": "rat", "banners.lion_1": {"bear": 1},
                                   "banners.lion_2": {"lion": 3}})
    for neutral, lion_left in ((True, 1), (False, 2)):
        r, mid = new({"fort_owner_neutral": neutral}, pos)
        play(r, mid, "rat", "attack position=lion.sheriff from=lion_2 to=lion_1 count=3")
        assert st(r, mid)["banners"]["lion_1"]["lion"] == lion_left


def test_discard_exact():
    pos = {"phase": "DISCARD", "first_player": "spider", "round_markers_placed": 1,
           "players.raven.hand": ["bear_c1", "bear_c2", "bear_c3", "lion_c1", "lion_c2", "horse_c1"]}
    r, mid = new(position=pos)
    play(r, mid, "raven", "discard_cards cards=bear_c1,bear_c2", "war_of_shadows/wrong_discard_count")
    r, mid = new({"discard_exact": False}, pos)
    play(r, mid, "raven", "discard_cards cards=bear_c1,bear_c2")
    assert st(r, mid)["players"]["raven"]["hand_size"] == 4 and st(r, mid)["phase"] == "REVEAL"


FINAL = {"round": 4, "round_markers_placed": 3, "phase": "EMPIRE_PHASE",
         "cursor": {"empire": "eagle", "position": "chancellor", "stage": "done", "acting_player": "rat"},
         "council.eagle.chancellor": "rat"}


def test_final_tie():
    # spider's tokens are raven's, and both got 10 card points: the only tie at the top
    tied = {**FINAL, "players.spider.loyalty": dict(zip(SLOTS, ({"empire": e} for e in
                                                                 ("lion", "elephant", "bear", "eagle", "horse")))),
            "players.raven.bonus": 10, "players.spider.bonus": 10}
    r, mid = new(position=tied)
    play(r, mid, "rat", "end_position position=eagle.chancellor")
    assert r.show(mid).outcome.winners == ("raven", "spider") and r.show(mid).outcome.reason == "shared"
    r, mid = new({"final_tie": "first_in_turn_order"}, {**tied, "first_player": "spider"})
    play(r, mid, "rat", "end_position position=eagle.chancellor")
    outcome = r.show(mid).outcome
    assert outcome is not None and (outcome.winners, outcome.reason) == (("spider",), "first_in_turn_order") and outcome.scores


def test_region_agent_options():
    pos = {"round": 2, "round_markers_placed": 1, "phase": "AGENT_PLACE", "first_player": "raven",
           "agent_phase.collected": FOUR, "council.bear.sheriff": "raven", "council.lion.sheriff": "raven"}
    r, mid = new({"region_agents": True, "region_agent_limit_scope": "whole_board"}, pos)
    play(r, mid, "raven", "place_agent to=horse_1", "war_of_shadows/region_agent_limit")
    r, mid = new({"region_agents": True}, pos)
    play(r, mid, "raven", "place_agent to=horse_1")
    # scoring: all_players adds the agent as a city of the region's empire for everyone
    end = {**FINAL, "region_agents.horse_1": ["raven"]}
    r1, m1 = new({"region_agents": True}, end)
    r2, m2 = new({"region_agents": True, "region_agent_city_scope": "all_players"}, end)
    for rr, mm in ((r1, m1), (r2, m2)):
        play(rr, mm, "rat", "end_position position=eagle.chancellor")
    owner = {p: st(r1, m1)["players"][p]["score"] for p in FOUR}
    everyone = {p: st(r2, m2)["players"][p]["score"] for p in FOUR}
    assert owner["raven"]["region_agents"] == -1 and owner["spider"]["region_agents"] == 0  # horse: raven's opposition
    assert all(everyone[p]["region_agents"] == 0 for p in FOUR)
    assert everyone["serpent"]["base"] == owner["serpent"]["base"] + 4  # horse is serpent's fanaticism
    assert everyone["raven"]["base"] == owner["raven"]["base"] - 1


def test_ci_target_previous():
    pos = {"phase": "CI_REVEAL", "round_markers_placed": 1, "first_player": "spider"}
    r, mid = new({"counter_intelligence": True, "ci_target": "previous"}, pos)
    play(r, mid, "spider", "ci_name_empire empire=lion")  # target raven: lion is raven's fanaticism
    assert st(r, mid)["players"]["spider"]["ci_bonus"] == 4
    play(r, mid, "rat", "ci_reveal empire=lion slot=devotion", "war_of_shadows/wrong_phase")


def test_disband_destination():
    pos = at("eagle", "sheriff", **{"council.eagle.sheriff": "spider", "players.spider.hand": ["bear_c5"],
                                    "banners.lion_1": {"horse": 2}})
    custom = _data("TM-1").replace('id = "bear_c5"\nempire = "bear"\n[[card.abilities]]\nindex = 1\ncost = ["bear"]\n'
                                   'effect = { manual = true }',
                                   'id = "bear_c5"\nempire = "bear"\n[[card.abilities]]\nindex = 1\ncost = ["bear"]\n'
                                   'effect = { primitive = "disband" }')
    assert custom != _data("TM-1")
    for dest in ("adjacent_controlled_split", "supply_always"):
        r = Referee(MemoryStore())
        m = r.new_match("war_of_shadows", FOUR, cards="custom", cards_text=custom,
                        options={"board": "TM-1", "disband_destination": dest}, position=pos)
        base = "play_card card=bear_c5 ability=1 timing=before position=eagle.sheriff effect.primitive=disband " \
               "effect.region=lion_1 effect.empire=horse"
        if dest == "supply_always":
            play(r, m.id, "spider", base)
            assert st(r, m.id)["banners"]["lion_1"]["horse"] == 0 and st(r, m.id)["banner_supply"]["horse"] == 17
        else:
            play(r, m.id, "spider", base, "war_of_shadows/invalid_destination")
            play(r, m.id, "spider", base + " effect.placements=horse_2:2")
            assert st(r, m.id)["banners"]["horse_2"]["horse"] == 3
        assert {"kind": "suitability_unverified", "card": "bear_c5"} in st(r, m.id)["audit_flags"]


def test_no_catalogue_costs_are_declared_and_flagged():
    pos = at("bear", "sheriff", **{"council.bear.sheriff": "raven", "players.raven.hand": ["bear_c1", "lion_c2"]})
    r, mid = new(position=pos, cards="boards")
    play(r, mid, "raven", "play_card card=bear_c1 ability=2 timing=before position=bear.sheriff effect=manual",
         "war_of_shadows/cost_mismatch")
    play(r, mid, "raven", "play_card card=bear_c1 ability=2 timing=before position=bear.sheriff effect=manual "
                          "extra_cost_cards=lion_c2 declared_cost=bear,bear", "war_of_shadows/cost_mismatch")
    play(r, mid, "raven", "play_card card=bear_c1 ability=2 timing=before position=bear.sheriff effect=manual "
                          "extra_cost_cards=lion_c2 declared_cost=bear,lion")
    assert st(r, mid)["audit_flags"] == [{"kind": "cost_unverified", "card": "bear_c1"}]


def test_draw_rounding():
    pos = at("bear", "marshal", **{"council.bear.marshal": "raven", "banners.lion_1": {"bear": 1}})
    r, mid = new(position=pos)  # 3 cities / 2 -> 1
    play(r, mid, "raven", "take_cards position=bear.marshal variant.mode=per_symbol variant.symbol=city variant.divisor=2 "
                          "cards=bear_c1,bear_c2", "war_of_shadows/wrong_draw_count")
    r, mid = new({"draw_rounding": "ceil"}, pos)
    play(r, mid, "raven", "take_cards position=bear.marshal variant.mode=per_symbol variant.symbol=city variant.divisor=2 "
                          "cards=bear_c1,bear_c2")


def test_allow_replace_same_position():
    pos = {"round": 2, "round_markers_placed": 1, "phase": "AGENT_COLLECT", "first_player": "raven",
           "council.bear.sheriff": "raven", "council.lion.sheriff": "spider", "council.horse.sheriff": "rat",
           "council.eagle.sheriff": "serpent"}
    for allowed, expect in ((True, "accepted"), (False, "war_of_shadows/position_occupied")):
        r, mid = new({"allow_replace_same_position": allowed}, pos)
        for p, where in zip(FOUR, ("bear", "lion", "horse", "eagle")):
            play(r, mid, p, f"collect_agent from={where}.sheriff")
        play(r, mid, "raven", "place_agent to=bear.sheriff", expect)


def test_unrecorded_loyalty():
    r, mid = new({"loyalty_secret_mode": "unrecorded"}, {"phase": "REVEAL", "first_player": "raven",
                                                         "round_markers_placed": 1})
    assert st(r, mid)["players"]["raven"]["loyalty"]["fanaticism"] == {"empire": None, "revealed": False}
    play(r, mid, "raven", "swap_loyalty slot_a=fanaticism slot_b=devotion revealed.fanaticism=lion revealed.devotion=lion",
         "war_of_shadows/reveal_mismatch")
    play(r, mid, "raven", "swap_loyalty slot_a=fanaticism slot_b=devotion revealed.fanaticism=lion revealed.devotion=eagle")
    assert st(r, mid)["players"]["raven"]["loyalty"]["devotion"] == {"empire": "eagle", "revealed": True}
    # the end: everyone declares the arrangement, which must agree with what was revealed
    r, mid = new({"loyalty_secret_mode": "unrecorded"},
                 {**FINAL, "players.raven.loyalty.fanaticism": {"empire": "lion", "revealed": True}})
    play(r, mid, "rat", "end_position position=eagle.chancellor")
    assert st(r, mid)["phase"] == "FINAL_SCORING" and r.show(mid).outcome is None
    full = "arrangement.fanaticism={} arrangement.devotion={} arrangement.involvement={} arrangement.indifference={} " \
           "arrangement.opposition={}"
    play(r, mid, "raven", "final_reveal " + full.format("eagle", "lion", "bear", "horse", "elephant"),
         "war_of_shadows/reveal_mismatch")
    play(r, mid, "raven", "final_reveal " + full.format("lion", "elephant", "bear", "eagle", "horse"))
    play(r, mid, "raven", "final_reveal " + full.format("lion", "elephant", "bear", "eagle", "horse"),
         "war_of_shadows/already_arranged")
    play(r, mid, "spider", "final_reveal " + full.format("bear", "horse", "eagle", "elephant", "lion"))
    play(r, mid, "rat", "final_reveal " + full.format("eagle", "lion", "horse", "bear", "elephant"))
    play(r, mid, "serpent", "final_reveal " + full.format("horse", "bear", "elephant", "lion", "eagle"))
    assert r.show(mid).outcome.winners and st(r, mid)["phase"] == "GAME_OVER"


def test_unrecorded_counter_intelligence():
    pos = {"phase": "CI_REVEAL", "round_markers_placed": 1, "first_player": "spider"}
    r, mid = new({"counter_intelligence": True, "loyalty_secret_mode": "unrecorded"}, pos)
    play(r, mid, "spider", "ci_name_empire empire=eagle")
    assert st(r, mid)["next_player"] == "rat" and st(r, mid)["reveal_phase"]["pending_naming"]["target"] == "rat"
    play(r, mid, "rat", "ci_reveal empire=lion slot=fanaticism", "war_of_shadows/no_pending_naming")
    play(r, mid, "rat", "ci_reveal empire=eagle slot=fanaticism")
    assert st(r, mid)["players"]["spider"]["ci_bonus"] == 4
    assert st(r, mid)["players"]["rat"]["loyalty"]["fanaticism"] == {"empire": "eagle", "revealed": True}


def test_counted_cards():
    pos = at("bear", "seneschal", **{"council.bear.seneschal": "raven", "players.raven.hand": ["lion", "lion"]})
    r, mid = new({"card_identity_mode": "counted"}, pos)
    assert st(r, mid)["deck"]["lion"] == ["lion"] * 6
    play(r, mid, "raven", "take_cards position=bear.seneschal variant.mode=fixed variant.n=1 cards=2",
         "war_of_shadows/wrong_draw_count")
    play(r, mid, "raven", "take_cards position=bear.seneschal variant.mode=fixed variant.n=1 cards=1")
    assert st(r, mid)["players"]["raven"]["hand"] == ["bear", "lion", "lion"]
    play(r, mid, "raven", "play_card card=lion_c4 ability=1 timing=after position=bear.seneschal effect=manual")
    assert {"kind": "cost_unverified", "card": "lion_c4"} in st(r, mid)["audit_flags"]
    assert st(r, mid)["players"]["raven"]["hand"] == ["bear", "lion"]


def test_manual_effect_consistency_and_flags():
    pos = at("eagle", "sheriff", **{"council.eagle.sheriff": "spider", "council.lion.sheriff": "rat",
                                    "players.spider.hand": ["eagle_c3"]})
    r, mid = new(position=pos)
    play(r, mid, "spider", "play_card card=eagle_c3 ability=1 timing=before position=eagle.sheriff effect=manual")
    play(r, mid, "spider", "end_position position=eagle.sheriff", "war_of_shadows/card_resolving")
    play(r, mid, "raven", "manual_effect card=eagle_c3 deltas=note", "war_of_shadows/no_card_window")
    play(r, mid, "spider", "manual_effect card=eagle_c3 deltas=banners:eagle_2:lion:+1,banners:eagle_2:bear:+1",
         "war_of_shadows/effect_inconsistent")
    play(r, mid, "spider", "manual_effect card=eagle_c3 deltas=move_agent:spider:eagle.sheriff:lion.sheriff",
         "war_of_shadows/effect_inconsistent")  # lion.sheriff holds rat's agent
    play(r, mid, "spider", "manual_effect card=eagle_c3 deltas=move_agent:spider:eagle.sheriff:reserve")
    flags = st(r, mid)["audit_flags"]
    assert {"kind": "manual_effect", "card": "eagle_c3"} in flags and {"kind": "rule_deviation", "card": "eagle_c3"} in flags
    assert st(r, mid)["players"]["spider"]["agent_reserve"] == 9 and st(r, mid)["council"]["eagle"]["sheriff"] is None
    res = r.log(mid)[-1]
    assert res.manual


def test_sub_activation_cards_relocate_and_borrow():
    pos = at("horse", "sheriff", **{"council.horse.sheriff": "serpent", "council.eagle.seneschal": "serpent",
                                    "players.serpent.hand": ["horse_c1", "horse_c4", "eagle_c1"]})
    r, mid = new(position=pos)
    play(r, mid, "serpent", "play_card card=horse_c1 ability=2 timing=before position=horse.sheriff "
                            "extra_cost_cards=horse_c4 effect.primitive=relocate_agent effect.destination=eagle.seneschal",
         "war_of_shadows/position_occupied")
    play(r, mid, "serpent", "play_card card=horse_c1 ability=2 timing=before position=horse.sheriff "
                            "extra_cost_cards=horse_c4 effect.primitive=relocate_agent effect.destination=eagle.chancellor")
    state = st(r, mid)
    assert state["council"]["horse"]["sheriff"] is None and state["council"]["eagle"]["chancellor"] == "serpent"
    assert state["cursor"]["sub_position"] == "eagle.chancellor" and state["cursor"]["resolving_card"] == "horse_c1"
    play(r, mid, "serpent", "add_banners position=horse.sheriff count=2 placements=horse_1:2", "war_of_shadows/card_resolving")
    play(r, mid, "serpent", "add_banners position=eagle.chancellor count=1 placements=eagle_2:1")
    state = st(r, mid)
    assert state["cursor"]["resolving_card"] is None and state["cursor"]["stage"] == "done"
    assert state["cursor"]["position"] == "sheriff" and state["banners"]["eagle_2"]["eagle"] == 2
    # borrow: act at a position you control elsewhere
    r, mid = new(position=pos)
    play(r, mid, "serpent", "play_card card=eagle_c1 ability=1 timing=before position=horse.sheriff "
                            "effect.primitive=borrow_action effect.target=lion.sheriff", "war_of_shadows/not_controlled_position")
    play(r, mid, "serpent", "play_card card=eagle_c1 ability=1 timing=before position=horse.sheriff "
                            "effect.primitive=borrow_action effect.target=eagle.sheriff")
    play(r, mid, "serpent", "take_cards position=eagle.sheriff variant.mode=fixed variant.n=1 cards=eagle_c2",
         "war_of_shadows/action_not_offered")
    play(r, mid, "serpent", "add_banners position=eagle.sheriff count=2 placements=eagle_1:2")
    assert st(r, mid)["banners"]["eagle_1"]["eagle"] == 4


def test_collection_skips_a_player_without_agents_when_the_next_intent_comes():
    pos = {"round": 2, "round_markers_placed": 1, "phase": "AGENT_COLLECT", "first_player": "raven",
           "council.bear.sheriff": "spider", "council.lion.sheriff": "rat", "council.horse.sheriff": "serpent"}
    r, mid = new(position=pos)
    assert st(r, mid)["phase"] == "AGENT_COLLECT" and st(r, mid)["next_player"] == "raven"
    play(r, mid, "spider", "collect_agent from=bear.sheriff")
    assert st(r, mid)["agent_phase"]["collected"] == ["raven", "spider"]
    assert {"kind": "placement_skipped", "card": None} in st(r, mid)["audit_flags"]


# -- the demo match ------------------------------------------------------------------------------------------


def test_demo_match_adjudicates_to_a_result_with_its_refusals():
    r = Referee(MemoryStore(), clock=lambda: "")
    with open(DEMO, encoding="utf-8") as fh:
        summary = import_transcript(r, fh.read(), DEMO, os.path.dirname(DEMO))
    assert summary.outcome is not None and list(summary.outcome.winners) == ["boris"]
    codes = [p.code for p in summary.problems]
    assert codes == ["war_of_shadows/setup_incomplete", "war_of_shadows/position_occupied", "war_of_shadows/sea_border",
                     "turn/not_your_turn", "war_of_shadows/card_not_in_deck", "war_of_shadows/wrong_discard_count"]
    md = export(r, summary.match_id, "md", "spectator")
    assert "### Round 4" in md and "winner: boris" in md and "sea_border" in md
    assert r.verify(summary.match_id) == []


# -- robustness: arbitrary intents at arbitrary moments ------------------------------------------------------


def _arbitrary_intent(rng: random.Random, regions: list[str], seats: list[str]) -> Any:
    """An intent with values drawn from the real ids and some that do not exist."""
    from referee.games.war_of_shadows import model as m
    from referee.games.war_of_shadows.data import ALL_CARDS, POSITIONS

    regs = [*regions, "atlantis"]
    poss = [f"{e}.{p}" for e in EMPIRES for p in POSITIONS] + ["bear.king"]
    cards = [*ALL_CARDS, "bear_c9", "lion"]
    ch, n = rng.choice, (lambda: rng.randint(-2, 5))
    who = (lambda: ch([*seats, None, "owl"]))
    makers = [
        lambda: m.ArrangeLoyalty(player=who(), arrangement=ch(["unrecorded", None, m.Arrangement(
            **{s: ch([*EMPIRES, "wolf"]) for s in SLOTS})])),
        lambda: m.PlaceAgent(player=who(), to=ch(poss + regs)),
        lambda: m.CollectAgent(player=who(), from_=ch(poss + regs)),
        lambda: m.AddBanners(player=who(), position=ch(poss), count=n(),
                             placements=tuple(m.Placement(ch(regs), n()) for _ in range(rng.randint(0, 3)))),
        lambda: m.Attack(player=who(), position=ch(poss), from_=ch(regs), to=ch(regs), count=n(), resolve=rng.random() < .5),
        lambda: m.TakeCards(player=who(), position=ch(poss), variant=m.Variant(
            mode=ch(["fixed", "per_symbol"]), n=ch([None, 1, 2]), symbol=ch([None, "city", "moon"]), divisor=ch([None, 0, 2])),
            cards=tuple(ch(cards) for _ in range(rng.randint(0, 3)))),
        lambda: m.MoveAgent(player=who(), position=ch(poss), destination=ch(poss + regs)),
        lambda: m.PlayCard(player=who(), card=ch(cards), ability=rng.randint(0, 3), timing=ch(["before", "during", "after"]),
                           position=ch(poss), extra_cost_cards=tuple(ch(cards) for _ in range(rng.randint(0, 2))),
                           effect=ch(["manual", m.Effect(primitive=ch(["relocate_agent", "reinforcement", "move_banners",
                                                                       "disband", "borrow_action", "zap"]),
                                                         destination=ch([None, *poss]), target=ch([None, *poss]),
                                                         from_=ch([None, *regs]), to=ch([None, *regs]),
                                                         count=ch([None, -1, 1, 3]), region=ch([None, *regs]),
                                                         empire=ch([None, *EMPIRES]))]),
                           declared_cost=tuple(ch([*EMPIRES, "x"]) for _ in range(rng.randint(0, 3)))),
        lambda: m.ManualEffect(player=who(), card=ch(cards), deltas=tuple(ch([
            lambda: m.BannersDelta(ch(regs), ch(EMPIRES), n()),
            lambda: m.MoveBannersDelta(from_=ch(regs), to=ch(regs), empire=ch(EMPIRES), count=n()),
            lambda: m.DrawDelta(ch([*seats, "owl"]), ch(cards)),
            lambda: m.TransferCardDelta(ch(seats), ch(seats), ch(cards)),
            lambda: m.MoveAgentDelta(player=ch(seats), from_=ch([*poss, *regs, "reserve"]), to=ch([*poss, *regs, "reserve"])),
            lambda: m.ScoreDelta(ch(seats), n()),
        ])() for _ in range(rng.randint(0, 3)))),
        lambda: m.DiscardCards(player=who(), cards=tuple(ch(cards) for _ in range(rng.randint(0, 3)))),
        lambda: m.SwapLoyalty(player=who(), slot_a=ch([*SLOTS, "x"]), slot_b=ch(SLOTS), revealed=ch(
            [None, m.Revealed(**{s: ch(EMPIRES) for s in SLOTS if rng.random() < .4})])),
        lambda: m.CiNameEmpire(player=who(), empire=ch([*EMPIRES, "x"])),
        lambda: m.FinalReveal(player=who(), arrangement=m.Arrangement(**{s: ch(EMPIRES) for s in SLOTS})),
    ]
    return ch(makers)()


@pytest.mark.parametrize("seed,options", [
    (1, {}), (2, {"region_agents": True, "counter_intelligence": True, "to_each_their_own": True}),
    (3, {"loyalty_secret_mode": "unrecorded", "counter_intelligence": True}), (4, {"card_identity_mode": "counted"}),
])
def test_arbitrary_intents_never_raise_and_never_break_an_invariant(seed, options):
    rng = random.Random(seed)
    r = Referee(MemoryStore(), snapshot_every=0)
    seats = ["p0", "p1", "p2"]
    m = r.new_match("war_of_shadows", seats, cards="demo", options=options, seed=seed if seed % 2 else None)
    loaded = r.load(m.id)
    regions = list(loaded.rules.board.region_ids)
    accepted = 0
    for _ in range(250):
        _, state = r.state_at(loaded)
        if loaded.rules.outcome(state) is not None:
            break
        if rng.random() < 0.5:
            seat, intent = rng.choice([(s, i) for s in seats for i in loaded.rules.legal_intents(state, s)])
        else:
            seat, intent = rng.choice(seats), _arbitrary_intent(rng, regions, seats)
        res = r.submit(m.id, seat, format_intent(intent))
        accepted += res.accepted
        assert invariant_problems(loaded.rules, r.state_at(loaded)[1]) == []
    assert accepted > 50
    assert r.verify(m.id) == []


def test_invariant_checker_notices_a_broken_state():
    r, mid = new(position={"phase": "AGENT_PLACE"})
    loaded = r.load(mid)
    state = r.state_at(loaded)[1]
    assert invariant_problems(loaded.rules, state) == []
    import msgspec

    broken = msgspec.structs.replace(state, banner_supply={**state.banner_supply, "bear": 3})
    assert invariant_problems(loaded.rules, broken) == ["bear: 3 banners on the map, 3 in supply"]
