"""Every game's headline (issue 25, item 3): one line that says, at every point of a match, whose turn it
is, which phase, and the score or the team's standing, built from a role's view alone. Each bundled replay
is walked entry by entry: at every entry and for every role the headline says what the state says (the
seat to act, the numbers), names nothing hidden from the role, and is the line the viewer shows at that
step. X-Files' series rating covers every band, 0-49 too."""

from __future__ import annotations

import html
import json
import os
import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from conftest import ROOT
from referee.export import export
from referee.games.xfiles_encounters.series import rating
from referee.redaction import View
from referee.service import Referee
from referee.store.memory import MemoryStore
from referee.transcript import import_transcript

_WORD = re.compile(r"[A-Za-z0-9_.]+")


def _imported(replay: str) -> tuple[Referee, str]:
    path = os.path.join(ROOT, "replays", replay)
    r = Referee(MemoryStore())
    with open(path, encoding="utf-8") as fh:
        return r, import_transcript(r, fh.read(), path, os.path.dirname(path)).match_id


def _walk(r: Referee, mid: str) -> Iterator[tuple[int, Any, Any]]:
    """(seq, the full state, the loaded match) after setup and after every entry."""
    loaded = r.load(mid)
    state = loaded.initial
    yield 0, state, loaded
    for entry, body in r.bodies(loaded):
        state = r.advance(loaded, state, body)
        yield entry.seq, state, loaded


def _say(headline: str, *parts: str) -> None:
    for part in parts:
        assert part in headline, f"{part!r} not in {headline!r}"


# -- what each game's headline must say, read from the referee's view of the state ----------------------------


def _by_all_means(v: dict[str, Any], h: str) -> None:
    turn = v.get("turn") or {}
    if turn.get("active") and v.get("phase") != "over":
        _say(h, f"{turn['active']} to act")
    _say(h, "loyalty " + ", ".join(f"{s} {p['loyalty_total']}" for s, p in v["players"].items()))


def _war_of_shadows(v: dict[str, Any], h: str) -> None:
    _say(h, f"round {v['round']}")
    if v["phase"] in ("GAME_OVER", "OVER"):
        _say(h, "scores " + ", ".join(f"{s} {p['score']['total']}" for s, p in v["players"].items()))
        return
    if v.get("next_player"):
        _say(h, f"{v['next_player']} next")
    _say(h, "cities " + ", ".join(f"{e} {n}" for e, n in v["cities"].items()))


def _copycat(v: dict[str, Any], h: str) -> None:
    if v["phase"] == "setup":
        _say(h, "setup")
        return
    _say(h, f"round {v['round']}", str(v["phase"]).replace("_", " "),
         "VP " + ", ".join(f"{s} {p['score']}" for s, p in v["players"].items()))
    if v.get("current"):
        _say(h, f"{v['current']} to act")
    if v["phase"] == "buying":
        _say(h, "coins " + ", ".join(f"{s} {p['coins_available']}" for s, p in v["players"].items()))


def _android(v: dict[str, Any], h: str) -> None:
    if v["phase"] == "setup":
        _say(h, f"setup step {v['setup_step']}")
        return
    order = v["turn_order"]
    _say(h, "VP " + ", ".join(f"{s} {v['players'][s]['vp']}" for s in order))
    if v["phase"] == "day":
        _say(h, f"day {v['day']} of ")
        _say(h, f"{v['pending'][0]['seat']} to " if v["pending"] else f"{v['active_seat']} to act")
        _say(h, f"{v['active_seat']} {v['time_left']}")  # the active detective's TIME left
        for seat in v["turns_done"]:
            _say(h, f" {seat} 0")


def _xfiles(v: dict[str, Any], h: str) -> None:
    states = [e["state"] for e in v["evidence"].values()]
    _say(h, f"evidence {sum(s in ('discovered', 'collected') for s in states)} of {len(states)} discovered, "
            f"{states.count('collected')} collected",
         "damage/health " + ", ".join(f"{s} {v['players'][s]['damage']}/{v['players'][s]['health']}" for s in v["seats"]),
         f"Doubts {17 - v['doubt_stack']} taken, {v['doubt_stack']} in the stack")
    if v["status"] in ("won", "lost"):
        _say(h, f"the team {v['status']}")
    elif v["turn"]["phase"] == "setup":
        _say(h, "setup")
    else:
        _say(h, f"turn {v['turn']['number']}, {v['turn']['seat']}'s {v['turn']['phase']} phase")
        if v["pending"]:
            _say(h, f"waiting on {v['pending'][0]['seat'] or v['turn']['seat']} to ")


GAMES: list[tuple[str, Callable[[dict[str, Any], str], None]]] = [
    ("by_all_means/club-night.txt", _by_all_means),
    ("war_of_shadows/ember-coast.txt", _war_of_shadows),
    ("copycat/thursday-club.txt", _copycat),
    ("android/thursday-club.txt", _android),
    ("xfiles_encounters/two-agents.txt", _xfiles),
]


@pytest.mark.parametrize(("replay", "says"), GAMES, ids=[g[0].split("/")[0] for g in GAMES])
def test_the_headline_says_where_the_match_stands_at_every_entry_and_names_nothing_hidden(replay, says):
    r, mid = _imported(replay)
    roles: list[str | None] = [None, *r.load(mid).config.players]
    seen_over = seen_mid = checked = 0
    for seq, state, loaded in _walk(r, mid):
        rules = loaded.rules
        says(View(loaded, None).state(state), rules.headline(View(loaded, None).state(state)))
        seen_over += rules.outcome(state) is not None
        seen_mid += seq > 0 and rules.outcome(state) is None
        for role in roles[1:]:
            line = rules.headline(View(loaded, role).state(state))
            assert line, f"no headline for {role} after entry {seq}"
            words = set(_WORD.findall(line)) | set(re.findall(r"[A-Za-z0-9_]+", line))
            for hidden in rules.hidden_ids(state, role):
                checked += 1
                name = rules.name_of(hidden)
                assert hidden not in words, f"{role} reads {hidden!r} after entry {seq}: {line}"
                assert not name or name not in line, f"{role} reads {name!r} ({hidden}) after entry {seq}: {line}"
    assert seen_over and seen_mid  # the walk covered the match under way and its end
    assert checked  # and there was something hidden to keep out of it


@pytest.mark.parametrize(("replay", "seat"), [("xfiles_encounters/two-agents.txt", "fox"),
                                              ("android/thursday-club.txt", "zoe")])
def test_the_viewer_shows_the_headline_of_every_step(replay, seat):
    """The viewer's frames carry the headline when it changes; rebuilt as its script does, step i shows the
    headline of the role's view after entry i."""
    r, mid = _imported(replay)
    page = export(r, mid, "html", seat)
    frames = [json.loads(html.unescape(x)) for x in
              re.findall(r'<script type="application/json" (?:id="initial"|class="state")>(.*?)</script>', page)]
    shown, h = [], ""
    for f in frames:
        h = f.get("h", h)
        shown.append(h)
    expected = [loaded.rules.headline(View(loaded, seat).state(state)) for _seq, state, loaded in _walk(r, mid)]
    assert len(shown) == len(expected) and shown == expected
    assert len(set(shown)) > 20  # the headline moves with the match


def test_show_prints_the_headline_first_and_under_the_result_at_the_end(cli, monkeypatch):
    monkeypatch.delenv("COLUMNS")
    assert cli("import", os.path.join(ROOT, "replays", "xfiles_encounters", "two-agents.txt")).code == 0
    mid = cli("matches", "--json").json[0]["id"]
    mid_game = cli("show", mid, "--at", "100", "--as", "dana").out.splitlines()
    assert mid_game[1] == ("turn 7, fox's action phase, waiting on fox to reveal at shadows.1 · evidence 0 of 3 "
                           "discovered, 0 collected · damage/health dana 0/11, fox 0/10 · Doubts 0 taken, 17 in the stack")
    over = cli("show", mid).out.splitlines()
    assert over[1].startswith("Game over: ")
    assert over[2] == ("the team lost (player defeated) · evidence 1 of 3 discovered, 1 collected · "
                       "damage/health dana 8/11, fox 10/10 defeated · Doubts 0 taken, 17 in the stack")
    assert cli("show", mid, "--json").json["headline"] == over[2]


# -- X-Files' series rating (R48, §6.4; G08 withdrawn) ---------------------------------------------------------


@pytest.mark.parametrize(("points", "words"), [(0, "Skinner wants to see you"), (49, "Skinner wants to see you"),
                                               (50, "I want to believe"), (74, "I want to believe"),
                                               (75, "The truth is out there"), (99, "The truth is out there"),
                                               (100, "Trust no one")])
def test_every_band_of_series_points_has_its_rating(points, words):
    assert rating(points) == words


P2 = {"status": "in_progress", "pending": [], "turn.phase": "action", "turn.seat": "alice", "season": "A",
      "players.alice.hand": ["field_agent", "strike_team", "strike_team", "strike_team", "strike_team", "strike_team"],
      "players.alice.deck": ["field_agent"] * 6, "players.bob.hand": ["field_agent"] * 6, "players.bob.deck": []}
LOSS = {**P2, "sector": ["fx_s1_grey"], "players.alice.wounds": ["fx_strike_3"] * 3, "players.bob.scars": ["", ""],
        "evidence.1": {"state": "discovered", "card": "fx_ev1_01", "leader": "fx_lead_01"}}


def test_a_series_under_fifty_points_ends_with_skinner_wanting_to_see_you():
    """Three games lost, one evidence discovered in each: 1 + 2 + 3 = 6 series points, the lowest band."""
    r = Referee(MemoryStore(), clock=lambda: "")
    game = r.new_match("xfiles_encounters", ["alice", "bob"], cards="spec_fixture", position=LOSS,
                       options={"avatars": {"alice": "skinner", "bob": "mulder"}, "series_game": 1}).id
    for g in (1, 2, 3):
        if g > 1:
            game = r.new_match("xfiles_encounters", ["alice", "bob"], continue_from=game, position=LOSS).id
        assert r.show(game).headline.startswith(f"series game {g} of 3, ")
        for text in ("end_actions", "take_strike card=fx_strike_3"):
            assert r.submit(game, "alice", text).accepted
    shown = r.show(game, seat="bob")
    assert shown.outcome is not None and shown.outcome.scores == {"alice": 6, "bob": 6}
    assert shown.headline.startswith("series game 3 of 3 lost: 6 series points; the series is lost "
                                     "(Skinner wants to see you) · the team lost")


def test_the_headline_says_which_entry_waits_for_a_confirmation_and_for_whom():
    """A declared effect on bob's hidden hand waits for bob: every role's headline says so at the head, and
    no more once bob has confirmed it."""
    position = {"phase": "play", "first_player": "alice", "lot_winner": "alice", "turn.number": 5,
                "turn.active": "alice", "turn.step": "actions", "turn.main_left": 2, "turn.extra_left": 1,
                "players.alice.hand": ["PL6"], "players.bob.hand": ["TR1"], "players.alice.unseen": ["AG2", "GF1"],
                "players.alice.main_archive.count": 2, "players.alice.extra_archive.count": 0,
                "players.bob.unseen": ["TR7"], "players.bob.main_archive.count": 1, "players.bob.extra_archive.count": 0}
    r = Referee(MemoryStore(), clock=lambda: "")
    mid = r.new_match("by_all_means", ["alice", "bob"], cards="spec", position=position).id
    before = r.show(mid, seat="alice").headline
    held = r.submit(mid, "alice", "play_plot card=PL6 from=hand changes=move:TR1:bob.hand:bob.utility note=Raid", blind=True)
    assert held.held
    for seat in ("alice", "bob", None):
        assert r.show(mid, seat=seat).headline == f"{before} · entry {held.seq} waits for bob to confirm it"
    assert r.show(mid, at=held.seq).headline == before  # an earlier point: the state alone
    assert r.confirm(mid, held.seq, by="bob").accepted
    assert "waits" not in r.show(mid).headline and "alice to act" in r.show(mid).headline
