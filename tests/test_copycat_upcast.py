"""Copycat logs stored before its domain events still read, fold and audit the same.

``tests/fixtures/copycat-2026-11-28.db.gz`` was written by the referee whose Copycat events named state
paths (``adjusted`` / ``flag_set``): the bundled replay, every scenario file as stored steps and three
seeded random digital games (see ``tests/fixtures/make_copycat_db.py``); ``copycat-2026-11-28.json``
holds each match's head then.
"""

from __future__ import annotations

import gzip
import json
import os
import random
import re
import shutil
import sqlite3
import typing

import msgspec
import pytest
from msgspec.structs import replace

from referee.engine import core
from referee.engine.notation import format_intent, parse_intent
from referee.engine.protocol import Accepted, Rejected
from referee.errors import StorageError
from referee.games.copycat import GAME
from referee.games.copycat.fold import add, read, update_state
from referee.games.copycat.manual import COUNTERS, VOCABULARY, ZONES
from referee.games.copycat.model import (
    AdjustOp, Bought, CardPending, CardsMoved, CardUsed, CardUsedAgain, CoinsGained, Doubled, ElbowPermitsGained,
    Event, FinalRound, FreePlacementGained, FreePlacementUsed, HandLaidDown, KeptPermitsTaken, KeptPlacementsTaken,
    ManualApplied, OfficeUsed, Passed, PassLifted, PermitsKept, PlacementsGained, PlacementsKept, PurchaseDue,
    PurchaseForfeited, PurchasesGained, TurnActed, VpGained, WorkersRecruited,
)
from referee.games.copycat.upcast import RULES, Adjusted, FlagSet, upcast
from referee.service import Referee
from referee.store.memory import MemoryStore
from referee.store.sqlite import SqliteStore
from support.tamper import tamper

FIXTURES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures")
DB = os.path.join(FIXTURES, "copycat-2026-11-28.db.gz")


@pytest.fixture(scope="module")
def stored(tmp_path_factory):
    path = tmp_path_factory.mktemp("copycat-fixture") / "copycat.db"
    with gzip.open(DB, "rb") as packed, open(path, "wb") as raw:
        shutil.copyfileobj(packed, raw)
    ref = Referee(SqliteStore(str(path)), use_snapshots=False)  # every state folded from the setup
    yield ref
    ref.store.close()


def test_every_stored_copycat_match_audits_clean_with_the_same_head(stored):
    """Every verdict re-derived now equals the stored one (read through the upcaster), every state hash
    and the head are the same as when the log was written."""
    with open(os.path.join(FIXTURES, "copycat-2026-11-28.json"), encoding="utf-8") as fh:
        then = json.load(fh)
    ids = sorted(m.id for m in stored.store.list_matches())
    assert ids == sorted(then)
    for mid in ids:
        report = stored.audit(mid)
        assert report.clean, (mid, report.findings)
        assert (report.head, report.head_hash) == (then[mid]["head"], then[mid]["head_hash"])
        _, state = stored.state_at(stored.load(mid))  # the stored events, through the upcaster
        assert core.state_hash(state) == then[mid]["state_hash"]


#: the scenario matches of the fixture holding the rarer old runs (the replay and the random games hold the rest)
RARE = ("o04_third_doubling_no_effect", "o12_final_round_cleanup", "o14_elbow_scope_phase",
        "o17_team_bonus_free_placement", "o18_special_buy_not_deferred", "o21_extra_placement_scope_phase",
        "m01_declared_card_effect")


def test_old_logs_copied_into_either_store_audit_clean(stored, db_store):
    """The same stored bodies in a fresh store of each backend (SQLite, PostgreSQL) read the same."""
    with open(os.path.join(FIXTURES, "copycat-2026-11-28.json"), encoding="utf-8") as fh:
        then = json.load(fh)
    chosen = [m for m in stored.store.list_matches() if m.id in RARE or not m.title.endswith(".toml")]
    assert len(chosen) == len(RARE) + 4
    for m in chosen:
        db_store.create_match(m, list(stored.store.entries(m.id)), stored.store.annotations(m.id))
    ref = Referee(db_store)
    for m in chosen:
        report = ref.audit(m.id)
        assert report.clean, (m.id, report.findings)
        assert (report.head, report.head_hash) == (then[m.id]["head"], then[m.id]["head_hash"])


# -- each old run, upcast, folds as the old event did ---------------------------------------------------------


@pytest.fixture(scope="module")
def game():
    """Rules of a two-seat digital match and a state in its actions phase (p0's worker on an office)."""
    ref = Referee(MemoryStore())
    mid = ref.new_match("copycat", ["p0", "p1"], seed=3).id
    loaded = ref.load(mid)
    rng = random.Random(3)
    state = None
    for _ in range(200):
        _, state = ref.state_at(loaded)
        if state.phase == "actions" and state.players["p0"].hand and any("p0" in o.workers for o in state.offices.values()):
            break
        seat, intent = loaded.rules.random_intent(state, rng)
        ref.submit(mid, seat, format_intent(intent))
    assert state is not None and state.phase == "actions"
    return loaded.rules, state


def old_fold(state, event):
    """How the referee folded a retired event: its path updated in place (fold.update_state)."""
    if isinstance(event, Adjusted):
        return update_state(state, event.path, add(event.delta))
    return update_state(state, event.path, lambda _v: event.value)


def A(path, delta, why=""):  # noqa: N802 - short for the table below
    return Adjusted(path=path, delta=delta, why=why)


def F(path, value):  # noqa: N802
    return FlagSet(path=path, value=value)


P = "players.p0"
#: every run of retired events the referee wrote (tests/fixtures/copycat-2026-11-28.db.gz holds each in a
#: real log), with what it is read as now
RUNS = [
    ((A(f"{P}.workers_available", 2), A(f"{P}.extra_workers", 2), A("worker_supply.p0", -2)),
     (WorkersRecruited(seat="p0", count=2),)),
    ((A("turn.free_placements", -1), A(f"{P}.workers_available", 1)), (FreePlacementUsed(seat="p0"),)),
    ((A("turn.placements_left", 1), A("turn.free_placements", 1)), (FreePlacementGained(),)),
    ((A("turn.elbow_permits", 2), F(f"{P}.kept_permits", 0)), (KeptPermitsTaken(seat="p0", count=2),)),
    ((A("turn.placements_left", 1), F(f"{P}.kept_placements", 0)), (KeptPlacementsTaken(seat="p0", count=1),)),
    ((A(f"{P}.buys_left", -1), F("turn.buy_now", False)), (PurchaseForfeited(seat="p0"),)),
    ((A(f"{P}.coins.doublable", 3),), (CoinsGained(seat="p0", coins=3),)),
    ((A(f"{P}.coins.plain", 1),), (CoinsGained(seat="p0", coins=1, doublable=False),)),
    ((A(f"{P}.vp_pending", 2),), (VpGained(seat="p0", vp=2),)),
    ((A(f"{P}.buys_left", 1),), (PurchasesGained(seat="p0", count=1),)),
    ((F("turn.buy_now", True),), (PurchaseDue(),)),
    ((F(f"{P}.card_uses.CARD", 1),), (CardUsed(seat="p0", card="CARD"),)),
    ((F(f"{P}.card_uses.CARD", 0),), (CardPending(seat="p0", card="CARD"),)),
    ((A(f"{P}.card_uses.CARD", 1),), (CardUsedAgain(seat="p0", card="CARD"),)),
    ((F("offices.OFFICE.uses.p0", 1),), (OfficeUsed(seat="p0", office="OFFICE", times=1),)),
    ((F("offices.OFFICE.uses.p0", 2),), (OfficeUsed(seat="p0", office="OFFICE", times=2),)),
    ((F("turn.acted", True),), (TurnActed(),)),
    ((A("turn.placements_left", 1),), (PlacementsGained(count=1),)),
    ((A("turn.elbow_permits", 1),), (ElbowPermitsGained(count=1),)),
    ((F(f"{P}.kept_permits", 2),), (PermitsKept(seat="p0", count=2),)),
    ((F(f"{P}.kept_placements", 1),), (PlacementsKept(seat="p0", count=1),)),
    ((A(f"{P}.coin_doublings", 1),), (Doubled(seat="p0", what="coins"),)),
    ((A(f"{P}.token_doublings", 1),), (Doubled(seat="p0", what="tokens"),)),
    ((A(f"{P}.coin_doublings", 0, "doubling_capped"),), (Doubled(seat="p0", what="coins", capped=True),)),
    ((A(f"{P}.token_doublings", 0, "doubling_capped"),), (Doubled(seat="p0", what="tokens", capped=True),)),
    ((F(f"{P}.passed", True),), (Passed(seat="p0"),)),
    ((F(f"{P}.passed", False),), (PassLifted(seat="p0"),)),
    ((F(f"{P}.laid_down", True),), (HandLaidDown(seat="p0"),)),
    ((F("round", 11),), (FinalRound(round=11),)),
]


#: the events that took the place of adjusted and flag_set
NEW_KINDS = {
    CoinsGained, VpGained, PurchasesGained, PurchaseDue, PurchaseForfeited, CardUsed, CardPending, CardUsedAgain,
    OfficeUsed, TurnActed, PlacementsGained, ElbowPermitsGained, FreePlacementGained, FreePlacementUsed, PermitsKept,
    PlacementsKept, KeptPermitsTaken, KeptPlacementsTaken, WorkersRecruited, Doubled, Passed, PassLifted, HandLaidDown,
    FinalRound,
}


def _concrete(run, state):
    """The run with CARD and OFFICE replaced by a card in p0's hand and an office p0's worker stands on."""
    card = state.players["p0"].hand[0]
    office = next(o for o, v in state.offices.items() if "p0" in v.workers)
    swap = {"CARD": card, "OFFICE": office}

    def fix(e):
        fields = {k: swap.get(v, v) if isinstance(v, str) else v for k, v in msgspec.structs.asdict(e).items()}
        if "path" in fields:
            fields["path"] = ".".join(swap.get(p, p) for p in fields["path"].split("."))
        return type(e)(**fields)
    return tuple(fix(e) for e in run)


@pytest.mark.parametrize(("old", "new"), RUNS, ids=lambda r: "+".join(getattr(e, "path", type(e).__name__) for e in r))
def test_each_retired_run_is_read_as_its_fact_and_folds_the_same(game, old, new):
    rules, state = game
    # a state each run changes: a turn yet to act, a free placement to use, a purchase due to forfeit, a pass
    state = replace(state, turn=replace(state.turn, acted=False, free_placements=1,
                                        buy_now=F("turn.buy_now", False) in old))
    if F(f"{P}.passed", False) in old:
        state = replace(state, players={**state.players, "p0": replace(state.players["p0"], passed=True)})
    old, new = _concrete(old, state), _concrete(new, state)
    assert upcast(old) == new
    before = state_old = state_new = state
    for event in old:
        state_old = old_fold(state_old, event)
    for event in new:
        state_new = rules.evolve(state_new, event)
    assert core.state_hash(state_new) == core.state_hash(state_old)
    assert state_new != before or getattr(new[0], "capped", False)  # a capped doubling changes nothing


def _n(delta):
    return lambda value: (value or 0) + delta


def _is(value):
    return lambda _old: value


#: each new kind, and what it changes (path: how), all else untouched
CHANGES = [
    (CoinsGained(seat="p0", coins=3), {"players.p0.coins.doublable": _n(3)}),
    (CoinsGained(seat="p0", coins=1, doublable=False), {"players.p0.coins.plain": _n(1)}),
    (VpGained(seat="p0", vp=2), {"players.p0.vp_pending": _n(2)}),
    (PurchasesGained(seat="p0", count=2), {"players.p0.buys_left": _n(2)}),
    (PurchaseDue(), {"turn.buy_now": _is(True)}),
    (PurchaseForfeited(seat="p0"), {"players.p0.buys_left": _n(-1), "turn.buy_now": _is(False)}),
    (CardUsed(seat="p0", card="CARD"), {"players.p0.card_uses.CARD": _is(1)}),
    (CardPending(seat="p0", card="CARD"), {"players.p0.card_uses.CARD": _is(0)}),
    (CardUsedAgain(seat="p0", card="CARD"), {"players.p0.card_uses.CARD": _n(1)}),
    (OfficeUsed(seat="p0", office="OFFICE", times=2), {"offices.OFFICE.uses.p0": _is(2)}),
    (TurnActed(), {"turn.acted": _is(True)}),
    (PlacementsGained(count=2), {"turn.placements_left": _n(2)}),
    (ElbowPermitsGained(count=1), {"turn.elbow_permits": _n(1)}),
    (FreePlacementGained(), {"turn.placements_left": _n(1), "turn.free_placements": _n(1)}),
    (FreePlacementUsed(seat="p0"), {"turn.free_placements": _n(-1), "players.p0.workers_available": _n(1)}),
    (PermitsKept(seat="p0", count=2), {"players.p0.kept_permits": _is(2)}),
    (PlacementsKept(seat="p0", count=1), {"players.p0.kept_placements": _is(1)}),
    (KeptPermitsTaken(seat="p0", count=2), {"turn.elbow_permits": _n(2), "players.p0.kept_permits": _is(0)}),
    (KeptPlacementsTaken(seat="p0", count=1), {"turn.placements_left": _n(1), "players.p0.kept_placements": _is(0)}),
    (WorkersRecruited(seat="p0", count=2), {"players.p0.workers_available": _n(2), "players.p0.extra_workers": _n(2),
                                            "worker_supply.p0": _n(-2)}),
    (Doubled(seat="p0", what="coins"), {"players.p0.coin_doublings": _n(1)}),
    (Doubled(seat="p0", what="tokens"), {"players.p0.token_doublings": _n(1)}),
    (Doubled(seat="p0", what="coins", capped=True), {}),
    (Passed(seat="p0"), {"players.p0.passed": _is(True)}),
    (PassLifted(seat="p0"), {"players.p0.passed": _is(False)}),
    (HandLaidDown(seat="p0"), {"players.p0.laid_down": _is(True)}),
    (FinalRound(round=11), {"round": _is(11)}),
]


@pytest.mark.parametrize(("event", "changes"), CHANGES, ids=lambda x: type(x).__name__ if not isinstance(x, dict) else "")
def test_each_new_event_changes_what_it_says_and_nothing_else(game, event, changes):
    rules, state = game
    state = replace(state, turn=replace(state.turn, acted=False, free_placements=1),
                    players={**state.players, "p0": replace(state.players["p0"], kept_permits=3, kept_placements=2,
                                                            passed=isinstance(event, PassLifted))})
    (event,) = _concrete((event,), state)
    swap = {"CARD": state.players["p0"].hand[0], "OFFICE": next(o for o, v in state.offices.items() if "p0" in v.workers)}
    want = state
    for path, how in changes.items():
        want = update_state(want, ".".join(swap.get(p, p) for p in path.split(".")), how)
    after = rules.evolve(state, event)
    assert after == want
    assert (after != state) == bool(changes)


def test_every_retirement_rule_is_reached_by_a_run_above_and_every_new_kind_comes_of_one():
    firsts = {(s.tag, s.path.pattern, s.why) for rule in RULES if rule.after is None for s in rule.steps[:1]}
    reached = set()
    for old, _new in RUNS:
        rule = next(r for r in RULES if _matches_run(r, old))
        reached.add((rule.steps[0].tag, rule.steps[0].path.pattern, rule.steps[0].why))
    assert firsts == reached  # (the rule that reads a run after a Bought: its own test below)
    produced = {type(e) for _old, new in RUNS for e in new}
    assert produced == NEW_KINDS == {type(e) for e, _c in CHANGES}
    assert NEW_KINDS <= set(typing.get_args(Event))


def _matches_run(rule, old):
    if len(rule.steps) != len(old):
        return False
    from referee.games.copycat.upcast import _run

    return _run(rule, old, 0) is not None


def test_a_due_purchase_made_is_said_by_the_bought_event(game):
    """The old log's flag_set turn.buy_now=false right after a Bought is the Bought: it is dropped, and
    Bought's fold clears the due purchase."""
    rules, state = game
    bought = Bought(seat="p0", slot=1, card=state.street["1"], price=0)
    assert upcast((bought, F("turn.buy_now", False))) == (bought,)
    due = replace(state, turn=replace(state.turn, buy_now=True))
    assert rules.evolve(due, bought).turn.buy_now is False
    with pytest.raises(msgspec.ValidationError, match="flag_set turn.buy_now = false"):
        upcast((F("turn.buy_now", False),))  # anywhere else it is not a fact the referee wrote


@pytest.mark.parametrize("event", [
    A("players.p0.renamed_counter", 1),
    F("players.p0.card_uses.c01", 3),
    A("players.p0.coin_doublings", 2),
    A("turn.free_placements", 1),
    F("offices.g_vp_1.workers", True),
], ids=lambda e: e.path)
def test_an_old_event_the_upcaster_does_not_know_is_refused_by_its_path(event):
    with pytest.raises(msgspec.ValidationError, match=re.escape(event.path)):
        upcast((CardsMoved(seat="p0", cards=("c01",), from_="hand", to="play_area"), event))


def test_a_manual_effect_of_an_unknown_vocabulary_is_refused():
    applied = ManualApplied(ops=(AdjustOp(counter="players.p0.score", delta=1),), reason="r", vocabulary=2)
    with pytest.raises(msgspec.ValidationError, match="vocabulary 2"):
        upcast((applied,))
    current = replace(applied, vocabulary=VOCABULARY)
    events = (current,)
    assert upcast(events) is events


def test_a_stored_log_with_an_unknown_old_path_reads_as_corrupt_naming_it(tmp_path):
    """Where the log is read: the state is refused as a corrupt log naming the path, the audit reports the
    entry that does not decode; nothing is guessed."""
    path = tmp_path / "copycat.db"
    with gzip.open(DB, "rb") as packed, open(path, "wb") as raw:
        shutil.copyfileobj(packed, raw)
    db = sqlite3.connect(path)
    mid, seq = next((m, s) for m, s, b in db.execute(
        "select match_id, seq, body from entries order by match_id, seq") if b"players.p0.vp_pending" in bytes(b))
    db.close()
    tamper(path, "update entries set body = cast(replace(cast(body as text), 'players.p0.vp_pending', "
                 f"'players.p0.vp_later') as blob) where match_id = '{mid}' and seq = {seq}")
    ref = Referee(SqliteStore(str(path)), use_snapshots=False)
    try:
        with pytest.raises(StorageError, match=r"players\.p0\.vp_later") as caught:
            ref.state_at(ref.load(mid))
        assert caught.value.code == "log/corrupt"
        report = ref.audit(mid)
        assert not report.clean and report.findings[0].seq == seq
    finally:
        ref.store.close()


# -- the new events in words ----------------------------------------------------------------------------------


def test_every_new_event_is_said_in_words_naming_who_and_what(game):
    rules, state = game
    card = state.players["p0"].hand[0]
    said = {}
    for _old, new in RUNS:
        for event in _concrete(new, state):
            text = rules.describe_event(event)
            assert text, event
            said[type(event)] = text
            for field in ("seat", "office"):
                if hasattr(event, field):
                    assert getattr(event, field) in text, (event, text)
            if getattr(event, "card", None) == card:
                # the sentence names the card by its id, which the presentation turns into the name a
                # person reads (name_of; tests/test_names.py)
                assert card in text and rules.name_of(card) == rules.cards[card].name, text
    assert rules.describe_event(CoinsGained(seat="p0", coins=2)) == "p0 gains 2 coins"
    assert rules.describe_event(WorkersRecruited(seat="p0", count=1)) == "p0 recruits 1 worker from the spare supply"
    assert "no further doubling" in said[Doubled] or "doubled once more" in said[Doubled]


# -- the declared-effect vocabulary ---------------------------------------------------------------------------


def _holes(pattern, state):
    office = next(o for o, v in state.offices.items() if "p0" in v.workers)
    return pattern.replace("<seat>", "p0").replace("<office>", office).replace("<slot>", "3")


def test_every_vocabulary_path_names_a_field_of_the_state(game):
    """A state field a declared path names cannot be renamed unnoticed: this fails, and the fix is a new
    vocabulary version with its reading of the older paths in upcast.py."""
    _rules, state = game
    for pattern in (*ZONES, *COUNTERS):
        path = _holes(pattern, state)
        if path in ("box", "supply") or path.startswith("street."):
            continue  # the piles and the street's slots are read by their own names
        assert read(state, path.split(".")) is not None, pattern
    assert VOCABULARY == 1


@pytest.mark.parametrize("op", [
    "adjust:offices.<office>.vp_tokens:1", "adjust:worker_supply.<seat>:-1", "adjust:players.<seat>.coins.doublable:2",
    "move:CARD:players.<seat>.hand:box",
])
def test_a_declared_path_of_the_vocabulary_is_applied_and_the_vocabulary_recorded(game, op):
    rules, state = game
    op = _holes(op, state).replace("CARD", state.players["p0"].hand[0])
    verdict = rules.decide(state, "p0", parse_intent(GAME.intent_type, f"manual_effect ops={op} reason=fix"), None)
    assert isinstance(verdict, Accepted) and verdict.manual, verdict
    (applied,) = verdict.events
    assert isinstance(applied, ManualApplied) and applied.vocabulary == VOCABULARY
    assert b'"vocabulary":1' in msgspec.json.encode(applied)  # written, not left to the default


@pytest.mark.parametrize(("op", "message"), [
    ("adjust:players.<seat>.vp_later:1", "'players.p0.vp_later' is not a counter path"),
    ("adjust:players.nobody.score:1", "'players.nobody.score' is not a counter path"),
    ("adjust:offices.no_such_office.vp_tokens:1", "is not a counter path"),
    ("adjust:turn.placements_left:1", "'turn.placements_left' is not a counter path"),
    ("move:CARD:players.<seat>.pocket:box", "'players.p0.pocket' is not a zone path"),
    ("move:CARD:players.<seat>.hand:street.12", "'street.12' is not a zone path"),
])
def test_a_path_outside_the_vocabulary_is_refused_by_name(game, op, message):
    rules, state = game
    op = _holes(op, state).replace("CARD", state.players["p0"].hand[0])
    verdict = rules.decide(state, "p0", parse_intent(GAME.intent_type, f"manual_effect ops={op} reason=fix"), None)
    assert isinstance(verdict, Rejected) and verdict.code == "copycat/manual_inconsistent", verdict
    assert message in verdict.message
