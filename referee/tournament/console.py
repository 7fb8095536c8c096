"""The state of each table of the last round paired, as the hall page shows it: ``playing``, ``waiting``
(an entry waits for a seat's confirmation), ``disputed`` (a ``disputed`` annotation without a ruling),
``finished`` (a result in: the tournament's own record, or the match's outcome in its log) or
``withdrawn`` (the pairing is void).

Read cheaply, for a hall of many tables refreshed every second: a table's result in the tournament's
record is taken as it is; otherwise its match's summary (:mod:`referee.summaries`: status, head,
outcome), its annotations and the head's index columns (:meth:`referee.service.Referee.open_hold`)
say the rest. No match is folded and none is audited here: an audit that is not clean still refuses the
next pairing (:meth:`.service.Tournaments.pair`), and the console shows that refusal as the server's
message.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from schemas import Outcome

from .events import Table
from .fold import Tournament
from .service import Tournaments, open_disputes

PLAYING, WAITING, DISPUTED, FINISHED, WITHDRAWN = "playing", "waiting", "disputed", "finished", "withdrawn"
#: the states in which a table holds up nothing (the round is complete when every table is in one)
SETTLED = (FINISHED, WITHDRAWN)


@dataclass(frozen=True)
class TableState:
    round: int
    table: int
    seats: tuple[str, ...]
    match_id: str | None
    state: str
    #: what holds the table up, in words ('' for a finished or withdrawn table)
    why: str = ""
    #: the result in force: the record's, else the match's outcome read from its log
    outcome: Outcome | None = None
    #: where the result comes from: ``log`` (the match's outcome), ``arbiter``, ``correction``, ``forfeit``
    #: or ``transcript`` (a score sheet attached to the table); '' without one
    source: str = ""
    #: whether the tournament's record holds the result (a result read from a log is recorded when the
    #: round closes: ``tournament close``, or pairing the next round)
    recorded: bool = False


def table_states(service: Tournaments, state: Tournament, *, public: bool) -> list[TableState]:
    """Each table of the last round paired (none before the first), in table order. ``public``: only
    the disputes annotated for everyone count (a spectator's or a player's reading); the organiser's
    counts every one, as the pairing does."""
    if not state.rounds:
        return []
    rnd = state.rounds[-1]
    return [_state_of(service, state, rnd.number, t, public) for t in sorted(rnd.tables, key=lambda t: t.table)]


def _state_of(service: Tournaments, state: Tournament, number: int, t: Table, public: bool) -> TableState:
    from ..summaries import OVER, outcome, summary_for

    key = (number, t.table)

    def said(what: str, why: str = "", found: Outcome | None = None, source: str = "",
             recorded: bool = False) -> TableState:
        return TableState(round=number, table=t.table, seats=t.seats, match_id=t.match_id, state=what, why=why,
                          outcome=found, source=source, recorded=recorded)

    if key in state.withdrawn:
        return said(WITHDRAWN)
    res = state.results.get(key)
    if res is not None:
        attached = res.source == "log" and key in state.attached
        return said(FINISHED, found=res.outcome, recorded=True,
                    source="forfeit" if res.forfeit else "transcript" if attached else res.source)
    if t.match_id is None:
        return said(PLAYING, "no match: the arbiter records its result (`tournament result`)")
    summary = summary_for(service.referee, t.match_id)
    found = outcome(summary) if summary.status == OVER else None
    source = ("transcript" if key in state.attached else "log") if found is not None else ""
    notes = service.store.annotations(summary.match_id)
    disputed = open_disputes([n for n in notes if not public or n.audience == "all"])
    if disputed:
        return said(DISPUTED, f"an open dispute on entry {disputed[0]} (a ruling annotation on it settles it)",
                    found, source)
    if found is not None:
        return said(FINISHED, found=found, source=source)
    referee = service.referee
    hold = referee.open_hold(referee.load(summary.match_id), summary.head)
    if hold is not None:
        return said(WAITING, f"entry {hold[0]} waits for {hold[1]} to confirm it")
    return said(PLAYING, "the match is not finished")


def complete(states: Sequence[TableState]) -> bool:
    """Whether every table of the round is settled (finished or withdrawn): what pairing the next needs."""
    return all(s.state in SETTLED for s in states)
