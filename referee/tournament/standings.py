"""Standings after any round: every player's games (:mod:`.scoring`), ordered by the tie-breaks in
force (:mod:`.tiebreaks`), each number explainable down to the matches it came from.

Pure: the state is a folded tournament; what the logs of a round still open say now comes in as
``live`` (table -> outcome), read by the service. A closed round is read from the tournament's own
records alone, so "after round N" gives the same answer at any later time (and after a correction,
the corrected one, with what it replaced).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from schemas import Outcome

from ..outcome import words as outcome_words
from . import exact
from . import tiebreaks as tb
from .fold import Tournament
from .scoring import Game, bye_game, half_bye_game, table_games

#: a table of a round: (round, table)
TableKey = tuple[int, int]


@dataclass
class Row:
    rank: int
    player: str
    name: str
    values: tuple[Fraction, ...]
    played: int
    dropped: bool = False


@dataclass
class Standings:
    tournament: str
    after_round: int
    tiebreaks: tuple[str, ...]
    rows: list[Row]
    #: tables of rounds 1..N without a result yet
    pending: list[TableKey] = field(default_factory=list)
    #: the head of the tournament's whole record when it was read (:func:`.audit.head_hash`; '' if not taken)
    head: str = field(default="", compare=False)


def games_of(state: Tournament, after_round: int, live: Mapping[TableKey, Outcome] | None = None,
             ) -> tuple[dict[str, list[Game]], list[TableKey]]:
    """Every player's games in rounds 1..``after_round`` and the tables still without a result."""
    games: dict[str, list[Game]] = {p: [] for p in state.players}
    pending: list[TableKey] = []
    for rnd in state.rounds[:after_round]:
        for t in state.played(rnd):  # a withdrawn pairing is void: no games, nothing pending
            key = (rnd.number, t.table)
            found = state.results.get(key)
            outcome, source = (found.outcome, found.source) if found else (None, "log")
            if outcome is None and live is not None and not rnd.closed:
                outcome = live.get(key)
            if outcome is None:
                pending.append(key)
                continue
            for g in table_games(rnd.number, t.table, t.match_id, t.seats, outcome, state.config.points, source,
                                 forfeit=found is not None and found.forfeit):
                games.setdefault(g.player, []).append(g)
        for player in rnd.byes:
            games.setdefault(player, []).append(bye_game(rnd.number, player, state.config.points))
        for player in rnd.half_byes:
            games.setdefault(player, []).append(half_bye_game(rnd.number, player, state.config.points))
    return games, pending


def paired_so_far(current: int) -> str:
    """Which rounds have been paired, to end a sentence ("no round has been yet", not "rounds 1..0 have")."""
    if current == 0:
        return "no round has been yet"
    return "only round 1 has" if current == 1 else f"rounds 1..{current} have"


def context(state: Tournament, after_round: int | None = None, live: Mapping[TableKey, Outcome] | None = None,
            ) -> tuple[tb.Context, list[TableKey], int]:
    n = state.current if after_round is None else after_round
    if not 0 <= n <= state.current:
        raise ValueError(f"round {n} has not been paired: {paired_so_far(state.current)}")
    games, pending = games_of(state, n, live)
    cfg = state.config
    return tb.Context(games=games, name=state.name, after=n, progressive=cfg.progressive, unplayed=cfg.unplayed,
                      encounter=cfg.direct_encounter, draw=cfg.points.of(cfg.points.draw),
                      forfeits_meet=cfg.format == "round-robin"), pending, n


def standings(state: Tournament, after_round: int | None = None, live: Mapping[TableKey, Outcome] | None = None,
              tiebreaks: Sequence[str] | None = None) -> Standings:
    """The standings after round ``after_round`` (default: the last paired), ordered by ``tiebreaks``
    (default: those in force); players level on every one share a rank (listed by id)."""
    ctx, pending, n = context(state, after_round, live)
    names = tuple(tiebreaks or state.tiebreaks)
    players = sorted(state.players)
    # (integers: the values of .tiebreaks, without its lines; FIDE's unplayed rounds in fractions)
    keys = exact.keys(ctx.games, players, names, after=n, progressive=ctx.progressive,
                      fide=ctx.fide if ctx.unplayed == "fide" else None, encounter=ctx.encounter,
                      forfeits_meet=ctx.forfeits_meet)
    ordered = sorted(players, key=lambda p: tuple(-v for v in keys[p]))
    rows: list[Row] = []
    for i, p in enumerate(ordered):
        rank = rows[-1].rank if rows and tuple(keys[p]) == rows[-1].values else i + 1
        rows.append(Row(rank=rank, player=p, name=state.name(p), values=tuple(keys[p]),
                        played=len([g for g in ctx.games.get(p, ()) if g.played]),
                        dropped=state.players[p].dropped))
    return Standings(tournament=state.id, after_round=n, tiebreaks=names, rows=rows, pending=pending)


@dataclass
class Explanation:
    player: str
    name: str
    after_round: int
    rank: int
    #: (tie-break, value, lines)
    values: list[tuple[str, Fraction, list[str]]]
    games: list[Game]
    #: corrections of the player's results: (round, table, what it was, what it is)
    corrections: list[str]


def explain(state: Tournament, player: str, after_round: int | None = None,
            live: Mapping[TableKey, Outcome] | None = None) -> Explanation:
    """Every number of ``player``'s standing and the games it came from."""
    if player not in state.players:
        raise KeyError(player)
    table = standings(state, after_round, live)
    ctx, _, n = context(state, after_round, live)
    row = next(r for r in table.rows if r.player == player)
    values = []
    for i, name in enumerate(table.tiebreaks):
        if name == "head-to-head":
            level = [r.player for r in table.rows if r.values[:i] == row.values[:i]]
            value, lines = tb.head_to_head(ctx, player, level)
        else:
            value, lines = tb.PLAIN[name](ctx, player)
        values.append((name, value, lines))
    corrections = []
    for (rnd, t), rec in sorted(state.withdrawn.items()):
        tab = state.table(rnd, t)
        if rnd <= n and tab is not None and player in tab.seats:
            corrections.append(f"round {rnd} table {t}: the pairing was withdrawn (record {rec}): void")
    for (rnd, t), res in sorted(state.results.items()):
        tab = state.table(rnd, t)
        if rnd <= n and res.replaced and tab is not None and player in tab.seats:
            for old, source, rec in res.replaced:
                corrections.append(f"round {rnd} table {t}: {outcome_words(old)} ({source}, record {rec}) "
                                   f"was replaced by {outcome_words(res.outcome)} (record {res.n})")
    return Explanation(player=player, name=state.name(player), after_round=n, rank=row.rank, values=values,
                       games=list(ctx.games.get(player, ())), corrections=corrections)
