"""The state of each table of the last round paired, as the hall page shows it: ``playing``, ``waiting``
(an entry waits for a seat's confirmation), ``disputed`` (a ``disputed`` annotation without a ruling),
``finished`` (a result in: the tournament's own record, or the match's outcome in its log),
``withdrawn`` (the pairing is void) or, for the organiser, ``disagree`` (the seats reported different
results: :mod:`.reports`; the organiser's result settles it).

Read cheaply, for a hall of many tables refreshed every second: a table's result in the tournament's
record is taken as it is; otherwise its match's summary (:mod:`referee.summaries`: status, head,
outcome), its annotations and the head's index columns (:meth:`referee.service.Referee.open_hold`)
say the rest. No match is folded and none is audited here: an audit that is not clean still refuses the
next pairing (:meth:`.service.Tournaments.pair`), and the console shows that refusal as the server's
message.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from schemas import Outcome

from ..i18n import N_
from .events import Table
from .fold import Tournament
from .service import Tournaments, open_disputes
from .words import typed

PLAYING, WAITING, DISPUTED, FINISHED, WITHDRAWN = "playing", "waiting", "disputed", "finished", "withdrawn"
#: the seats reported different results (:mod:`.reports`): the organiser records the table's result
DISAGREE = "disagree"
#: the states in which a table holds up nothing (the round is complete when every table is in one)
SETTLED = (FINISHED, WITHDRAWN)
#: why a table holds up the round, by code (a table's ``why_code``; its ``why_values`` fill the sentence)
WHY = {
    "disagree": N_("results disagree: {sides}"),  # sides: [{players, result}] (result as typed: win:ann)
    "no_match": N_("no match: the arbiter records its result (`tournament result`)"),
    "dispute": N_("an open dispute on entry {entry} (a ruling annotation on it settles it)"),
    "held": N_("entry {entry} waits for {seat} to confirm it"),
    "reported": N_("{players} reported {result}; waiting for {waiting}"),
    "not_finished": N_("the match is not finished"),
}


@dataclass(frozen=True)
class TableState:
    round: int
    table: int
    seats: tuple[str, ...]
    match_id: str | None
    state: str
    #: what holds the table up, in words ('' for a finished or withdrawn table)
    why: str = ""
    #: the same as a code and its values, for a page to word in its reader's language (:data:`WHY`)
    why_code: str = ""
    why_values: Mapping[str, Any] = field(default_factory=dict)
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

    def said(what: str, code: str = "", found: Outcome | None = None, source: str = "",
             recorded: bool = False, **values: Any) -> TableState:
        shown = {k: "; ".join(f"{', '.join(s['players'])} reported {s['result']}" for s in v) if k == "sides"
                 else ", ".join(v) if isinstance(v, list) else v for k, v in values.items()}
        return TableState(round=number, table=t.table, seats=t.seats, match_id=t.match_id, state=what,
                          why=WHY[code].format(**shown) if code else "", why_code=code, why_values=values,
                          outcome=found, source=source, recorded=recorded)

    if key in state.withdrawn:
        return said(WITHDRAWN)
    res = state.results.get(key)
    if res is not None:
        attached = res.source == "log" and key in state.attached
        return said(FINISHED, found=res.outcome, recorded=True,
                    source="forfeit" if res.forfeit else "transcript" if attached else res.source)
    from .reports import sides

    reported = sides(state, key, t.seats)
    if len(reported) > 1 and not public:
        return said(DISAGREE, "disagree", sides=[{"players": list(who), "result": typed(o)} for o, who in reported])
    if t.match_id is None:
        return said(PLAYING, "no_match")
    summary = summary_for(service.referee, t.match_id)
    found = outcome(summary) if summary.status == OVER else None
    source = ("transcript" if key in state.attached else "log") if found is not None else ""
    notes = service.store.annotations(summary.match_id)
    disputed = open_disputes([n for n in notes if not public or n.audience == "all"])
    if disputed:
        return said(DISPUTED, "dispute", found, source, entry=disputed[0])
    if found is not None:
        return said(FINISHED, found=found, source=source)
    referee = service.referee
    hold = referee.open_hold(referee.load(summary.match_id), summary.head)
    if hold is not None:
        return said(WAITING, "held", entry=hold[0], seat=hold[1])
    if reported:
        have = [p for _, who in reported for p in who]
        return said(PLAYING, "reported", players=have, result=typed(reported[0][0]),
                    waiting=[p for p in t.seats if p not in have])
    return said(PLAYING, "not_finished")


def complete(states: Sequence[TableState]) -> bool:
    """Whether every table of the round is settled (finished or withdrawn): what pairing the next needs."""
    return all(s.state in SETTLED for s in states)
