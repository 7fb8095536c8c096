"""The end of the game and final scoring (§4.24, §5): after round 4 every face-down token is revealed
(or, with ``loyalty_secret_mode=unrecorded``, declared by ``final_reveal``), each player scores cities
times loyalty (plus the region-agent, keep-secrets, counter-intelligence and declared bonuses), and
the winner is found through the tie-breaks (fewest swaps, most cards, then the ``final_tie`` option).
"""

from __future__ import annotations


from .data import MULTIPLIER, SLOTS
from .model import GameEnded, LoyaltyRevealed, PhaseChanged, ScoreComputed, State, WinnerDeclared
from .queries import Queries
from .txn import Tx


def game_end(tx: Tx) -> None:
    """After the last round: the game ends, every face-down token is turned up (or, unrecorded, each
    player's ``final_reveal`` is awaited) and the game is scored."""
    rules = tx.rules
    s = tx.state
    unrevealed = tuple(
        (p, sum(1 for t in s.players[p].loyalty.values() if not t.revealed)) for p in rules.players
    )
    tx.emit(GameEnded(unrevealed=unrevealed))
    if rules.unrecorded:
        tx.emit(PhaseChanged(phase="FINAL_SCORING"))
        return
    for p in rules.players:
        for slot in SLOTS:
            tok = tx.state.players[p].loyalty.get(slot)
            if tok is not None and not tok.revealed and tok.empire is not None:
                tx.emit(LoyaltyRevealed(player=p, slot=slot, empire=tok.empire, why="game_end"))
    score(tx)


def score_of(rules: Queries, state: State, seat: str) -> dict[str, int]:
    """The §5 breakdown for one player from a state whose tokens are all known."""
    cities = rules.cities(state)
    pl = state.players[seat]
    if rules.modules["region_agents"] and rules.options["region_agent_city_scope"] == "all_players":
        for r in rules.board.region_ids:
            owner = rules.control(state, r)
            if owner is not None:
                cities[owner] += len(state.region_agents[r])
    slot_of = {t.empire: slot for slot, t in pl.loyalty.items() if t.empire is not None}
    base = sum(MULTIPLIER[slot] * cities[t.empire] for slot, t in pl.loyalty.items() if t.empire is not None)
    region_points = 0
    if rules.modules["region_agents"] and rules.options["region_agent_city_scope"] == "owner_only":
        for r in rules.board.region_ids:
            if seat in state.region_agents[r]:
                owner = rules.control(state, r)
                if owner is not None and owner in slot_of:
                    region_points += MULTIPLIER[slot_of[owner]]
    secrets = (pl.unrevealed_at_end or 0) if rules.modules["keep_secrets"] else 0
    total = base + region_points + secrets + pl.ci_bonus + pl.bonus
    return {"base": base, "region_agents": region_points, "keep_secrets": secrets, "ci_bonus": pl.ci_bonus,
            "bonus": pl.bonus, "total": total}


def score(tx: Tx) -> None:
    """Every player's §5 score, then the winners through the tie-breaks."""
    rules = tx.rules
    totals: dict[str, int] = {}
    for p in rules.players:
        sc = score_of(rules, tx.state, p)
        totals[p] = sc["total"]
        tx.emit(ScoreComputed(player=p, **sc))
    s = tx.state
    best = max(totals.values())
    tied = [p for p in rules.players if totals[p] == best]
    reason = "score"
    if len(tied) > 1:
        fewest = min(s.players[p].swaps_made for p in tied)
        narrowed = [p for p in tied if s.players[p].swaps_made == fewest]
        if len(narrowed) < len(tied):
            reason = "fewest_swaps"
        tied = narrowed
    if len(tied) > 1:
        most = max(len(s.players[p].hand) for p in tied)
        narrowed = [p for p in tied if len(s.players[p].hand) == most]
        if len(narrowed) < len(tied):
            reason = "most_cards"
        tied = narrowed
    if len(tied) > 1:
        reason = str(rules.options["final_tie"])
        if reason == "first_in_turn_order":
            tied = [next(p for p in rules.turn_order(s) if p in tied)]
    tx.emit(WinnerDeclared(winners=tuple(tied), reason=reason))
