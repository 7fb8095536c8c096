"""Setup (§4.1–4.5): the state a match starts from, and the setup intents — each society chosen, the
first player set, the fanatic empires dealt (module to_each_their_own) and every loyalty arrangement
laid. When the last of them is in, setup completes and round 1 starts; until then G2 names what is
still missing (:func:`still_missing`).
"""

from __future__ import annotations

from collections import Counter

from .codes import Code
from .data import AGENTS, ALL_CARDS, BANNERS_PER_EMPIRE, CARDS_PER_EMPIRE, EMPIRES, POSITIONS, SLOTS, card_empire
from .fold import fanatic_id, token_id
from .model import (
    ArrangeLoyalty,
    Arrangement,
    ChooseSociety,
    DealFanaticEmpire,
    FanaticEmpireDealt,
    FirstPlayerSet,
    LoyaltyArranged,
    Player,
    SetFirstPlayer,
    SetupCompleted,
    SocietyChosen,
    State,
)
from .queries import Queries
from .rounds import start_round
from .txn import R_DEAL, R_FIRST, R_LOYALTY, R_SOCIETY, Tx


def initial_state(rules: Queries) -> State:
    """The state after match creation (§1.12): SETUP, supplies, decks and starting banners placed."""
    banners = {r.id: {e: 0 for e in EMPIRES} for r in rules.board.regions}
    supply = {e: BANNERS_PER_EMPIRE for e in EMPIRES}
    for r in rules.board.regions:
        if r.start_banners and r.start_banner_empire:
            banners[r.id][r.start_banner_empire] += r.start_banners
            supply[r.start_banner_empire] -= r.start_banners
    deck = {
        e: tuple([e] * CARDS_PER_EMPIRE) if rules.counted else tuple(sorted(c for c in ALL_CARDS if card_empire(c) == e))
        for e in EMPIRES
    }
    return State(
        seats=rules.players,
        banners=banners,
        banner_supply=supply,
        deck=deck,
        council={e: {p: None for p in POSITIONS} for e in EMPIRES},
        region_agents={r.id: () for r in rules.board.regions},
        players={p: Player(agent_reserve=AGENTS) for p in rules.players},
    )


def still_missing(rules: Queries, state: State) -> str:
    """What setup still lacks (for G2's message)."""
    missing = []
    no_society = [p for p in rules.players if state.players[p].society is None]
    if no_society:
        missing.append("no society: " + ", ".join(no_society))
    if state.first_player is None:
        missing.append("no first player")
    if rules.modules["to_each_their_own"] and not state.fanatic_deal_recorded:
        missing.append("no fanatic deal")
    unarranged = [p for p in rules.players if not state.players[p].loyalty]
    if unarranged:
        missing.append("loyalty not arranged: " + ", ".join(unarranged))
    return "; ".join(missing) or "nothing missing"


def choose_society(tx: Tx, intent: ChooseSociety) -> None:
    rules = tx.rules
    s = tx.state
    player = intent.player or tx.seat
    tx.require(s.phase == "SETUP", Code.WRONG_PHASE, f"societies are chosen during setup; the game is in {s.phase}", R_SOCIETY)
    have = s.players[player].society
    tx.require(have is None, Code.ALREADY_CHOSEN, f"{player} already plays {have}", R_SOCIETY)
    taken = [p for p in rules.players if s.players[p].society == intent.society]
    tx.require(not taken, Code.SOCIETY_TAKEN, f"{intent.society} is already taken by {', '.join(taken)}", R_SOCIETY)
    tx.emit(SocietyChosen(player=player, society=intent.society))
    maybe_complete_setup(tx)


def set_first_player(tx: Tx, intent: SetFirstPlayer) -> None:
    rules = tx.rules
    s = tx.state
    tx.require(s.phase == "SETUP", Code.WRONG_PHASE, f"the first player is set during setup; the game is in {s.phase}", R_FIRST)
    tx.require(intent.player in rules.players, Code.UNKNOWN_REFERENCE,
               f"set_first_player needs player=<one of {', '.join(rules.players)}>, got {intent.player!r}", R_FIRST)
    tx.require(s.first_player is None, Code.ALREADY_SET, f"the first player is already {s.first_player}", R_FIRST)
    assert intent.player is not None
    tx.emit(FirstPlayerSet(player=intent.player, method=intent.method))
    maybe_complete_setup(tx)


def deal_fanatic_empire(tx: Tx, intent: DealFanaticEmpire) -> None:
    rules = tx.rules
    s = tx.state
    tx.needs_module("to_each_their_own", "deal_fanatic_empire", R_DEAL)
    tx.require(s.phase == "SETUP", Code.WRONG_PHASE, f"the deal happens during setup; the game is in {s.phase}", R_DEAL)
    names = list(intent.assignments)
    ok = sorted(names) == sorted(rules.players)
    tx.require(ok, Code.UNKNOWN_REFERENCE,
               f"assignments must name every seated player exactly once ({', '.join(rules.players)}), got "
               f"{', '.join(names) or 'none'}", R_DEAL)
    empires = list(intent.assignments.values())
    dup = sorted(e for e, n in Counter(empires).items() if n > 1)
    tx.require(not dup, Code.DEAL_NOT_DISTINCT,
               f"one token set deals distinct empires, but {', '.join(dup)} was dealt twice", R_DEAL)
    tx.require(not s.fanatic_deal_recorded, Code.ALREADY_SET, "the fanatic empires were already dealt", R_DEAL)
    for p in rules.players:
        tx.emit(FanaticEmpireDealt(player=p, token=fanatic_id(p, intent.assignments[p])))
    maybe_complete_setup(tx)


def arrange_loyalty(tx: Tx, intent: ArrangeLoyalty) -> None:
    rules = tx.rules
    s = tx.state
    player = intent.player or tx.seat
    tx.require(s.phase == "SETUP", Code.WRONG_PHASE, f"loyalty is arranged during setup; the game is in {s.phase}", R_LOYALTY)
    tx.require(s.players[player].society is not None, Code.SETUP_INCOMPLETE,
               f"{player} has no society yet: choose_society first", R_LOYALTY)
    tx.require(not s.players[player].loyalty, Code.ALREADY_ARRANGED, f"{player}'s loyalty tokens are already laid", R_LOYALTY)
    if rules.modules["to_each_their_own"]:
        tx.check(s.fanatic_deal_recorded, Code.DEAL_REQUIRED,
                 "with to_each_their_own the fanatic empires are dealt first (deal_fanatic_empire)", R_DEAL)
    arrangement = intent.arrangement
    if rules.unrecorded:
        tx.require(arrangement == "unrecorded", Code.INVALID_LOYALTY_ARRANGEMENT,
                   "this match does not record arrangements (loyalty_secret_mode=unrecorded): write arrangement=unrecorded",
                   R_LOYALTY)
        tx.emit(LoyaltyArranged(player=player, tokens=()))
    else:
        empires = [getattr(arrangement, slot) for slot in SLOTS] if isinstance(arrangement, Arrangement) else []
        ok = len(empires) == 5 and sorted(e or "" for e in empires) == sorted(EMPIRES)
        tx.require(ok, Code.INVALID_LOYALTY_ARRANGEMENT,
                   "the arrangement must put each of the 5 empires in exactly one of the 5 slots "
                   "(arrangement.fanaticism=… arrangement.devotion=… arrangement.involvement=… "
                   "arrangement.indifference=… arrangement.opposition=…)", R_LOYALTY)
        if rules.modules["to_each_their_own"]:
            tx.check(empires[0] == s.players[player].fanatic_dealt, Code.FANATIC_MISMATCH,
                     "the fanaticism slot must hold the empire dealt to this player", R_DEAL)
        tx.emit(LoyaltyArranged(player=player, tokens=tuple(token_id(player, e) for e in empires if e)))
    maybe_complete_setup(tx)


def maybe_complete_setup(tx: Tx) -> None:
    rules = tx.rules
    s = tx.state
    if s.phase != "SETUP":
        return
    if any(s.players[p].society is None or not s.players[p].loyalty for p in rules.players):
        return
    if s.first_player is None or (rules.modules["to_each_their_own"] and not s.fanatic_deal_recorded):
        return
    tx.emit(SetupCompleted())
    start_round(tx, 1)
