"""The tournament's state, folded from its records: pure, deterministic, total over every event tag.

:func:`fold` reads records in order and never looks anything up: the players, the rounds and their
tables, each table's result as recorded (a closed round's copy of its match's outcome, an arbiter's
result, a correction), the tie-breaks in force. What a match's log says *now*, for a round still being
played, is given to the standings by the caller (:mod:`referee.tournament.service`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from schemas import Outcome

from ..i18n import N_
from .events import (
    ClockResumed,
    ClockStarted,
    ClockStopped,
    Created,
    HalfByeCancelled,
    HalfByeGranted,
    PairingWithdrawn,
    PlayerAdded,
    PlayerDropped,
    PlayerRenamed,
    PlayerUndropped,
    Record,
    ResultAgreed,
    ResultCorrected,
    ResultRecorded,
    ResultReported,
    RoundClosed,
    RoundPaired,
    Table,
    TableResult,
    TiebreaksChanged,
    TranscriptAttached,
    TokensIssued,
)
from .said import Said


@dataclass
class Player:
    id: str
    display: str
    #: the first round the player could be paired in (a late entry's is after round 1)
    entered: int
    dropped: bool = False
    #: the last round paired before the player dropped (None while playing)
    dropped_after: int | None = None


@dataclass
class Result:
    """A table's result in force, and where it came from (the record's number, the source)."""

    outcome: Outcome
    source: str  # "log", "arbiter", "correction" or "reported" (agreed by the seats)
    n: int
    match_id: str | None = None
    seq: int | None = None
    #: the results it replaced, oldest first (a correction keeps what it changed)
    replaced: tuple[tuple[Outcome, str, int], ...] = ()
    #: won (or lost by both) by forfeit: points, but no game played
    forfeit: bool = False


@dataclass
class Round:
    number: int
    tables: tuple[Table, ...]
    byes: tuple[str, ...]
    closed: bool = False
    half_byes: tuple[str, ...] = ()
    #: players entered as absent for the round (not paired, nothing scored)
    absent: tuple[str, ...] = ()
    #: the record that paired it, and the one that closed it
    paired_n: int = 0
    closed_n: int = 0


@dataclass
class Clock:
    """The round clock as its records set it (every time a value of a record, never a clock read)."""

    round: int
    minutes: int
    #: when it was started (the server's time recorded with ``clock_started``, ``2026-11-28T15:00:00Z``)
    started: str
    #: seconds it stood still before its last resume
    paused: int = 0
    #: when it was stopped (None while it runs)
    stopped: str | None = None


def seconds(at: str) -> int:
    """A recorded time (``2026-11-28T15:00:00Z``) as seconds since 1970 (a value: no clock is read)."""
    from datetime import datetime

    return int(datetime.fromisoformat(at.replace("Z", "+00:00")).timestamp())


@dataclass
class Tournament:
    id: str
    config: Created
    #: records folded so far
    n: int = 0
    players: dict[str, Player] = field(default_factory=dict)
    rounds: list[Round] = field(default_factory=list)
    results: dict[tuple[int, int], Result] = field(default_factory=dict)
    tiebreaks: tuple[str, ...] = ()
    #: withdrawn pairings: (round, table) -> the record that withdrew it (void for the standings)
    withdrawn: dict[tuple[int, int], int] = field(default_factory=dict)
    #: half-point byes granted: round -> players, in the order granted
    half_byes: dict[int, list[str]] = field(default_factory=dict)
    #: tables played on paper: (round, table) -> the record that attached its transcript's match
    attached: dict[tuple[int, int], int] = field(default_factory=dict)
    #: the matches a pairing made for tables whose transcript's match replaced them (never played)
    set_aside: list[str] = field(default_factory=list)
    #: tokens replaced by a later issue (their sha256 -> the record that revoked them): refused from then on
    revoked: dict[str, int] = field(default_factory=dict)
    #: the seats' reports of a table's result: (round, table) -> seat -> (its latest report, that record)
    reports: dict[tuple[int, int], dict[str, tuple[Outcome, int]]] = field(default_factory=dict)
    #: the round clock last started (None before the first ``clock_started``)
    clock: Clock | None = None

    def played(self, rnd: Round) -> list[Table]:
        """The round's tables that count (every table but the withdrawn)."""
        return [t for t in rnd.tables if (rnd.number, t.table) not in self.withdrawn]

    @property
    def current(self) -> int:
        """The last round paired (0 before the first)."""
        return len(self.rounds)

    def round(self, number: int) -> Round:
        return self.rounds[number - 1]

    def table(self, number: int, table: int) -> Table | None:
        if not 1 <= number <= len(self.rounds):
            return None
        return next((t for t in self.rounds[number - 1].tables if t.table == table), None)

    def active(self) -> list[str]:
        """Players who may be paired now, in the order they registered."""
        return [p.id for p in self.players.values() if not p.dropped]

    def name(self, player: str) -> str:
        p = self.players.get(player)
        return p.display or player if p else player


class CorruptTournament(Said):
    """The records cannot be a tournament (a first record that is not ``created``, an event about a
    player or round that does not exist): a store edited behind the referee's back."""


def fold(records: Iterable[Record]) -> Tournament:
    """The tournament after ``records`` (its first ``created`` and any prefix of the rest)."""
    state: Tournament | None = None
    for record in records:
        if state is None:
            if not isinstance(record.event, Created) or record.n != 1:
                raise CorruptTournament(N_("a tournament's first record must be 'created'"))
            state = Tournament(id=record.tournament, config=record.event, n=1, tiebreaks=record.event.tiebreaks)
            continue
        if record.n != state.n + 1:
            raise CorruptTournament(N_("record {n} follows record {previous}"), n=record.n, previous=state.n)
        evolve(state, record)
        state.n = record.n
    if state is None:
        raise CorruptTournament(N_("a tournament has at least its 'created' record"))
    return state


def evolve(state: Tournament, record: Record) -> None:
    """Apply one record to ``state`` (in place: the fold owns the state it builds)."""
    event = record.event
    match event:
        case PlayerAdded(player=player, display=display):
            state.players[player] = Player(id=player, display=display, entered=state.current + 1)
        case PlayerDropped(player=player):
            p = _player(state, player)
            p.dropped, p.dropped_after = True, state.current
        case PlayerUndropped(player=player):
            p = _player(state, player)
            p.dropped, p.dropped_after = False, None
        case PlayerRenamed(player=player, display=display):
            _player(state, player).display = display
        case RoundPaired(round=number, tables=tables, byes=byes, half_byes=half, absent=absent):
            if number != state.current + 1:
                raise CorruptTournament(N_("round {number} paired after round {current}"),
                                        number=number, current=state.current)
            state.rounds.append(Round(number=number, tables=tables, byes=byes, paired_n=record.n, half_byes=half,
                                      absent=absent))
        case RoundClosed(round=number, results=results):
            rnd = _round(state, number)
            rnd.closed, rnd.closed_n = True, record.n
            for res in results:
                _set(state, number, res.table, _from_table(res, record.n), correction=False)
        case ResultRecorded(round=number, table=table, outcome=outcome, forfeit=forfeit):
            _round(state, number)
            _set(state, number, table, Result(outcome=outcome, source="arbiter", n=record.n, forfeit=forfeit),
                 correction=False)
        case ResultCorrected(round=number, table=table, outcome=outcome, forfeit=forfeit):
            _round(state, number)
            _set(state, number, table, Result(outcome=outcome, source="correction", n=record.n, forfeit=forfeit),
                 correction=True)
        case TiebreaksChanged(tiebreaks=tiebreaks):
            state.tiebreaks = tiebreaks
        case PairingWithdrawn(round=number, table=table):
            if state.table(number, table) is None:
                raise CorruptTournament(N_("record {n} withdraws round {number} table {table}, which was not paired"),
                                        n=record.n, number=number, table=table)
            state.withdrawn[(number, table)] = record.n
        case HalfByeGranted(round=number, player=player):
            _player(state, player)
            state.half_byes.setdefault(number, []).append(player)
        case HalfByeCancelled(round=number, player=player):
            if player not in state.half_byes.get(number, []) or number <= state.current:
                raise CorruptTournament(N_("record {n} cancels a half-point bye of {player} in round {number} that was not granted, or whose round is paired"),
                                        n=record.n, player=player, number=number)
            state.half_byes[number].remove(player)
        case TranscriptAttached(round=number, table=table, match_id=match_id, replaces=replaces):
            rnd = _round(state, number)
            old = state.table(number, table)
            if old is None or old.match_id != replaces:
                raise CorruptTournament(N_("record {n} attaches a match to round {number} table {table}, which was not paired, or not with match {replaces}"),
                                        n=record.n, number=number, table=table, replaces=replaces)
            rnd.tables = tuple(Table(table=t.table, seats=t.seats, match_id=match_id) if t.table == table else t
                               for t in rnd.tables)
            state.attached[(number, table)] = record.n
            if replaces is not None:
                state.set_aside.append(replaces)
        case TokensIssued(issued=issued, revoked=revoked):
            for token in issued:
                if (token.role == "player") != (token.player is not None) or (
                        token.player is not None and token.player not in state.players):
                    raise CorruptTournament(N_("record {n} issues a token to no registered player"), n=record.n)
            for digest in revoked:
                state.revoked.setdefault(digest, record.n)
        case ResultReported(round=number, table=table, player=player, outcome=outcome):
            t = state.table(number, table)
            if t is None or player not in t.seats:
                raise CorruptTournament(N_("record {n} reports a result of round {number} table {table} for {player}, who is not seated there"),
                                        n=record.n, number=number, table=table, player=player)
            state.reports.setdefault((number, table), {})[player] = (outcome, record.n)
        case ResultAgreed(round=number, table=table, outcome=outcome):
            if state.table(number, table) is None:
                raise CorruptTournament(N_("record {n} agrees a result of round {number} table {table}, which was not paired"),
                                        n=record.n, number=number, table=table)
            _set(state, number, table, Result(outcome=outcome, source="reported", n=record.n), correction=False)
        case ClockStarted(round=number, minutes=minutes, at=at):
            if number != state.current or number < 1:
                raise CorruptTournament(N_("record {n} starts round {number}'s clock in round {current}"),
                                        n=record.n, number=number, current=state.current)
            _when(record.n, at)
            state.clock = Clock(round=number, minutes=minutes, started=at)
        case ClockStopped(at=at):
            if state.clock is None or state.clock.stopped is not None:
                raise CorruptTournament(N_("record {n} stops a round clock that is not running"), n=record.n)
            _when(record.n, at)
            state.clock.stopped = at
        case ClockResumed(at=at):
            if state.clock is None or state.clock.stopped is None:
                raise CorruptTournament(N_("record {n} resumes a round clock that is not stopped"), n=record.n)
            state.clock.paused += max(0, _when(record.n, at) - seconds(state.clock.stopped))
            state.clock.stopped = None
        case Created():
            raise CorruptTournament(N_("record {n} creates the tournament again"), n=record.n)
        case _:
            raise CorruptTournament(N_("record {n}: unknown event {event!r}"), n=record.n, event=event)


def _when(n: int, at: str) -> int:
    try:
        return seconds(at)
    except ValueError:
        raise CorruptTournament(N_("record {n}: {at!r} is not a recorded time"), n=n, at=at) from None


def _from_table(res: TableResult, n: int) -> Result:
    return Result(outcome=res.outcome, source=res.source, n=n, match_id=res.match_id, seq=res.seq)


def _set(state: Tournament, number: int, table: int, result: Result, *, correction: bool) -> None:
    key = (number, table)
    old = state.results.get(key)
    if old is not None:
        if not correction and old.source in ("arbiter", "correction", "reported"):
            return  # a closing round copies only what the arbiter did not settle
        result.replaced = (*old.replaced, (old.outcome, old.source, old.n))
    state.results[key] = result


def _player(state: Tournament, player: str) -> Player:
    p = state.players.get(player)
    if p is None:
        raise CorruptTournament(N_("no player {player!r}"), player=player)
    return p


def _round(state: Tournament, number: int) -> Round:
    if not 1 <= number <= state.current:
        raise CorruptTournament(N_("no round {number}"), number=number)
    return state.rounds[number - 1]
