"""Pairing the next round (:meth:`Tournaments.pair <referee.tournament.service.Tournaments.pair>`): the open
round closed (its results from the logs), the draw (:mod:`.pairing`: swiss, round-robin by Berger numbers,
pods) or the organiser's own pairing, a match created for each table with its tokens, and the round
recorded with them in one transaction."""

from __future__ import annotations

import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING

from schemas import TITLE_MAX

from ..engine.codes import CardsCode
from ..errors import BadInput
from ..i18n import N_
from ..service import Referee
from ..store import MatchSummary, StoredMatch, StoredToken, TournamentRecords
from . import events as ev
from . import pairing
from .codes import TournamentCode
from .fold import Tournament, evolve
from .standings import standings
from .words import parse_manual


@dataclass
class PairedTable:
    table: int
    seats: tuple[str, ...]
    match_id: str | None
    #: the match's tokens (shown once): seat -> token, and the arbiter's and spectators'
    tokens: dict[str, str]


@dataclass
class Paired:
    tournament: str
    round: int
    tables: list[PairedTable]
    byes: list[str]
    dry_run: bool = False
    half_byes: list[str] = field(default_factory=list)
    #: the undo policy the matches are created with
    undo: str = "any"


class Pairs:
    """The pairing of :class:`.service.Tournaments` (its service, store and records)."""

    referee: Referee
    store: TournamentRecords
    clock: Callable[[], str]

    if TYPE_CHECKING:  # what :class:`.service.Tournaments`, which mixes these methods in, defines

        def load(self, tournament_id: str, upto: int | None = None) -> Tournament: ...

        def _append(self, state: Tournament, events: Sequence[ev.Event], by: str, why: str, *,
                    matches: Sequence[StoredMatch] = (), tokens: Sequence[StoredToken] = (),
                    summaries: Sequence[MatchSummary] = ()) -> Tournament: ...

        def _close(self, state: Tournament) -> list[ev.Event]: ...

    def entrants(self, state: Tournament) -> list[pairing.Entrant]:
        """The active players with their scores, ranks, byes and seats so far (every closed round)."""
        table = standings(state, state.current)
        # players level on every tie-break are ordered by lot (round 1: everyone), never by name
        draw = pairing.lots(state.config.seed, state.current + 1, "rank")
        lot = {r.player: draw.random() for r in table.rows}
        rank = {r.player: i for i, r in enumerate(sorted(table.rows, key=lambda r: (r.rank, lot[r.player])))}
        score = {r.player: r.values[table.tiebreaks.index("points")] if "points" in table.tiebreaks else Fraction(0)
                 for r in table.rows}
        if "points" not in table.tiebreaks:
            from .standings import context

            ctx, _, _ = context(state, state.current)
            score = {p: ctx.points(p) for p in state.players}
        byes = {p for rnd in state.rounds for p in rnd.byes}
        seats: dict[str, list[tuple[int, int]]] = {}
        for rnd in state.rounds:
            for t in state.played(rnd):
                for i, p in enumerate(t.seats):
                    seats.setdefault(p, []).append((i, len(t.seats)))
        return [pairing.Entrant(id=p, score=score[p], rank=rank[p], had_bye=p in byes, seats=tuple(seats.get(p, ())))
                for p in state.active()]

    def _met(self, state: Tournament) -> dict[frozenset[str], int]:
        met: dict[frozenset[str], int] = {}
        for rnd in state.rounds:
            for t in state.played(rnd):  # a withdrawn pairing was not played: no rematch to avoid
                for i, a in enumerate(t.seats):
                    for b in t.seats[i + 1:]:
                        key = frozenset((a, b))
                        met[key] = met.get(key, 0) + 1
        return met

    @staticmethod
    def berger_order(state: Tournament) -> list[str]:
        """The players by Berger number: the field of round 1 in the order the lots drew, then a late entry,
        who takes the number of the odd field's bye (see :meth:`add_player`)."""
        field = sorted(p for p, x in state.players.items() if x.entered == 1)
        pairing.lots(state.config.seed, 0, "berger").shuffle(field)
        return field + [p for p, x in state.players.items() if x.entered > 1]

    @staticmethod
    def half_byes(state: Tournament, number: int) -> list[str]:
        """The players granted a half-point bye for round ``number`` who are still playing."""
        return [p for p in state.half_byes.get(number, []) if not state.players[p].dropped]

    def plan(self, state: Tournament) -> pairing.Pairing:
        """The next round's pairing as the rules and the lots give it (nothing recorded)."""
        number = state.current + 1
        cfg = state.config
        active = state.active()
        try:
            if cfg.format == "round-robin":
                # every registered player keeps a Berger number; a dropped one's opponents get a bye
                p = pairing.berger(self.berger_order(state), number)
                dropped = set(state.players) - set(active)
                tables = [t for t in p.tables if not set(t) & dropped]
                byes = [x for x in p.byes if x not in dropped] + [x for t in p.tables if set(t) & dropped
                                                                  for x in t if x not in dropped]
                return pairing.Pairing(tables=tables, byes=byes)
            away = set(self.half_byes(state, number))
            entrants = [e for e in self.entrants(state) if e.id not in away]
            if cfg.format == "pods":
                g = self.referee.game(cfg.game)
                return pairing.pods(entrants, self._met(state), cfg.seed, number, size=cfg.table_size,
                                    least=g.min_players)
            return pairing.swiss(entrants, set(self._met(state)), cfg.seed, number)
        except pairing.PairingError as exc:
            raise BadInput.said(TournamentCode.CANNOT_PAIR, exc.template, **exc.values) from None

    def pair(self, tournament_id: str, *, by: str = "organiser", why: str = "", dry_run: bool = False,
             tokens: bool = True, manual: str | None = None) -> Paired:
        """Pair the next round: close the open one (its results from the logs; refused, naming the table,
        while one blocks), draw the pairing, create a match for each table and record the round.
        ``manual``: the organiser's pairing instead of the draw (:func:`.words.parse_manual`)."""
        state = self.load(tournament_id)
        cfg = state.config
        number = state.current + 1
        if cfg.cards is not None and cfg.cards_text is None and cfg.cards not in self.referee.game(cfg.game).card_sets:
            raise BadInput.said(CardsCode.NOT_BUNDLED, N_("this tournament's card set {cards!r} is not bundled with {game}: it was recorded as a file's name, and a tournament's matches never read a file by its name (create the tournament again with --cards FILE, which keeps the file's text)"),
                                cards=cfg.cards, game=cfg.game)
        if cfg.rounds and number > cfg.rounds:
            raise BadInput.said(TournamentCode.ALL_ROUNDS_PAIRED, N_("all {rounds} rounds are paired; `tournament close` closes the last one"),
                                rounds=cfg.rounds)
        if cfg.format == "round-robin" and number > max(1, len(state.players) - 1 + len(state.players) % 2):
            raise BadInput.said(TournamentCode.ALL_ROUNDS_PAIRED, N_("every player has met every other: the round-robin is complete"))
        if cfg.format == "round-robin" and (refused := late_refusal(state, extra=0)):
            raise refused
        closing = self._close(state)
        if closing:
            evolve(state, ev.Record(tournament=state.id, n=state.n + 1, by=by, event=closing[0]))
            state.n += 1
        if len(state.active()) < 2:
            raise BadInput.said(TournamentCode.TOO_FEW_PLAYERS, N_("{n} active players: register more with `tournament player add`"),
                                n=len(state.active()))
        absent: list[str] = []
        extra_half: list[str] = []
        if manual is not None:
            entered = parse_manual(manual, state, self.half_byes(state, number),
                                   least=2 if cfg.format != "pods" else self.referee.game(cfg.game).min_players,
                                   most=cfg.table_size)
            plan = pairing.Pairing(tables=entered.tables, byes=entered.byes)
            absent, extra_half = entered.absent, entered.half
        else:
            plan = self.plan(state)
        if dry_run:
            return Paired(tournament=state.id, round=number, dry_run=True, byes=list(plan.byes),
                          tables=[PairedTable(table=i, seats=s, match_id=None, tokens={})
                                  for i, s in enumerate(plan.tables, start=1)],
                          half_byes=self.half_byes(state, number) + extra_half, undo=cfg.undo)
        state = self.load(tournament_id)  # fold again: the closing record is appended below, with the round
        made: list[PairedTable] = []
        tables, rows, token_rows, listed = [], [], [], []
        for i, seats in enumerate(plan.tables, start=1):
            title = f"{cfg.name}, round {number}, table {i}"[:TITLE_MAX]
            game, config = self.referee.new_config(
                cfg.game, list(seats), options=dict(cfg.options), cards=cfg.cards, cards_text=cfg.cards_text,
                chance=cfg.chance, undo=cfg.undo, title=title,
                meta={"tournament": state.id, "event": cfg.name, "round": str(number), "table": str(i)},
            )
            row, summary = self.referee.new_row(game, config, title=title)
            minted, minted_rows = self._mint(row.id, seats) if tokens else ({}, [])
            rows.append(row)
            listed.append(summary)
            token_rows.extend(minted_rows)
            made.append(PairedTable(table=i, seats=seats, match_id=row.id, tokens=minted))
            tables.append(ev.Table(table=i, seats=seats, match_id=row.id))
        half = self.half_byes(state, number) + extra_half
        # the matches, their tokens and the records pairing them: one transaction (a pairing killed half-way
        # leaves nothing, and pairing again makes the one set)
        self._append(state, [*closing, ev.RoundPaired(round=number, tables=tuple(tables), byes=tuple(plan.byes),
                                                      half_byes=tuple(half), absent=tuple(absent),
                                                      manual=manual is not None)], by, why,
                     matches=rows, tokens=token_rows, summaries=listed)
        return Paired(tournament=state.id, round=number, tables=made, byes=list(plan.byes), half_byes=half,
                      undo=cfg.undo)

    @staticmethod
    def _mint(match_id: str, seats: Sequence[str]) -> tuple[dict[str, str], list[StoredToken]]:
        """A table's tokens (its seats', the arbiter's, the spectators') and their rows (hashes only)."""
        from ..auth import hash_token

        minted = {seat: secrets.token_urlsafe(24) for seat in seats}
        minted["arbiter"] = secrets.token_urlsafe(24)
        minted["spectator"] = secrets.token_urlsafe(24)
        rows = [StoredToken(token_hash=hash_token(t), match_id=match_id,
                            role="seat" if s in seats else s, seat=s if s in seats else None)
                for s, t in minted.items()]
        return minted, rows


def late_refusal(state: Tournament, *, extra: int) -> BadInput | None:
    """Why a round-robin under way cannot take (``extra``) another late entry (None if it can). Berger tables
    fix every pairing of every round from the players' numbers; an odd field has one spare number, the
    bye's, so one late entry can take it: from their first round they meet whoever the bye was to meet
    (the games of the rounds before stay unplayed). An even field has none."""
    field = [p for p, x in state.players.items() if x.entered == 1]
    late = [p for p, x in state.players.items() if x.entered > 1]
    if len(late) + extra == 0:
        return None
    if len(field) % 2 == 0:
        return BadInput.said(TournamentCode.LATE_ENTRY, N_(
            "a round-robin of {n} players (an even field) has no free Berger number once round 1 is paired: a late "
            "entry would change every pairing already made; start a new round-robin"), n=len(field))
    if len(late) + extra > 1:
        return BadInput.said(TournamentCode.LATE_ENTRY, N_(
            "the round-robin's one free Berger number (the bye's) is taken by {player}: no further late entry can "
            "join it"), player=late[0])
    return None
