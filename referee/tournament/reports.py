"""Results reported by the seats: a game played on cardboard without move entry, whose seats each report
the table's result (from their phones, or a scorekeeper typing their slips). Each report is a
``result_reported`` record; when every seat's latest report is the same result, a ``result_agreed``
record, written with the report that completed the agreement, makes it the table's result (its source
``reported``), counted by the standings, the exports and the audit as an arbiter's is. Reports that differ
are a dispute: the table waits, and the organiser settles it with an arbiter's result
(``tournament result``), which wins over every report. Once a table has a result, a report is refused
(``tournament/has_result``): the organiser corrects it.

:func:`.audit.report_findings` is the audit's part: every agreement re-derived from the reports before it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import msgspec

from schemas import NAME_MAX, Outcome
from schemas.tournament import SeatReport

from ..errors import BadInput
from ..i18n import N_
from ..inputs import check_text
from . import events as ev
from .codes import TournamentCode
from .fold import Tournament
from .service import Tournaments
from .lookup import paired_table
from .standings import Standings, standings
from .words import parse_result

#: the reason an agreed result carries (what ``words`` prints in brackets)
REPORTED = "reported by the seats"

Key = tuple[int, int]


@dataclass(frozen=True)
class Reported:
    """What a report did: the tournament after it, whether it was written (the seat's latest report said
    the same already: nothing is), whether it completed the agreement, and the standings after the round
    before and after (when it did)."""

    state: Tournament
    seat: str
    written: bool
    agreed: bool
    before: Standings | None = None
    after: Standings | None = None


def report(service: Tournaments, tournament_id: str, round_: int, table: int, seat: str, result: str, *,
           scores: Mapping[str, int] | None = None, by: str, why: str = "") -> Reported:
    """``seat``'s report of round ``round_`` table ``table``'s result (:func:`.words.parse_result`'s words),
    and the agreement when every seat has now reported the same."""
    state = service.load(tournament_id)
    t = paired_table(state, round_, table)
    key = (round_, table)
    if key in state.withdrawn:
        raise BadInput.said(TournamentCode.WITHDRAWN, N_("round {round} table {table}'s pairing was withdrawn (record {withdrawn}): it has no result to report"),
                            round=round_, table=table, withdrawn=state.withdrawn[key])
    seat = check_text(seat, "the seat (--seat)", NAME_MAX).strip()
    if seat not in t.seats:
        raise BadInput.said(TournamentCode.NOT_SEATED, N_("{seat!r} is not seated at round {round} table {table}; its seats: {items}"),
                            seat=seat, round=round_, table=table, items=', '.join(t.seats))
    outcome = msgspec.structs.replace(parse_result(result, t.seats, scores), reason=REPORTED)
    _refuse_settled(service, state, key)
    now = state.reports.get(key, {})
    if seat in now and now[seat][0] == outcome:
        return Reported(state=state, seat=seat, written=False, agreed=False)
    events: list[ev.Event] = [ev.ResultReported(round=round_, table=table, player=seat, outcome=outcome)]
    latest = {p: o for p, (o, _) in now.items()} | {seat: outcome}
    agreed = all(latest.get(p) == outcome for p in t.seats)
    before = None
    if agreed:
        numbers = tuple(state.n + 1 if p == seat else now[p][1] for p in t.seats)
        events.append(ev.ResultAgreed(round=round_, table=table, outcome=outcome, reports=numbers))
        before = standings(state, round_, service.outcomes(state)[0])
    state = service.append(state, events, by, why)
    after = standings(state, round_, service.outcomes(state)[0]) if agreed else None
    return Reported(state=state, seat=seat, written=True, agreed=agreed, before=before, after=after)


def _refuse_settled(service: Tournaments, state: Tournament, key: Key) -> None:
    """A table whose result counts (agreed, an arbiter's, copied from its log) or whose match's log gives
    one takes no report."""
    from ..outcome import words

    round_, table = key
    res = state.results.get(key)
    if res is not None:
        whose = {"reported": "agreed by the seats", "arbiter": "the arbiter's", "correction": "a correction",
                 "log": "from its match's log"}.get(res.source, res.source)
        raise BadInput.said(TournamentCode.HAS_RESULT, N_('round {round} table {table}\'s result counts already ({result}; {whose}, record {n}): reports are taken until a result counts; the organiser corrects it (`tournament result T {round} {table} RESULT --correct --reason "..."`)'),
                            round=round_, table=table, result=words(res.outcome), whose=whose, n=res.n)
    t = state.table(round_, table)
    live = None
    if t is not None and t.match_id is not None and round_ == state.current and not state.rounds[-1].closed:
        from ..summaries import outcome, summary_for

        live = outcome(summary_for(service.referee, t.match_id))  # this table's match alone
    if live is not None:
        raise BadInput.said(TournamentCode.HAS_RESULT, N_("round {round} table {table}'s match has a result in its log ({result}): a table played on the system is not reported"),
                            round=round_, table=table, result=words(live))


def sides(state: Tournament, key: Key, seats: Sequence[str]) -> list[tuple[Outcome, list[str]]]:
    """The different results the seats of the table reported, each with the seats that reported it (in
    seat order, the first reported first): one side while they agree, two or more in a dispute."""
    now = state.reports.get(key, {})
    out: list[tuple[Outcome, list[str]]] = []
    for p in seats:
        if p not in now:
            continue
        found = next((side for side in out if side[0] == now[p][0]), None)
        if found is None:
            out.append((now[p][0], [p]))
        else:
            found[1].append(p)
    return out


def disagree(state: Tournament, key: Key, seats: Sequence[str]) -> bool:
    """Whether the table's seats reported different results and nothing settled it."""
    return key not in state.results and len(sides(state, key, seats)) > 1


def report_rows(state: Tournament, key: Key, seats: Sequence[str], *, public: bool) -> list[SeatReport]:
    """The table's reports, in seat order, as a role reads them: the organiser and the table's players what
    each seat reported; everyone else (``public``) only that it did (``reported``, ``agreed`` once the
    result counts from them)."""
    from ..outcome import words
    from .words import typed

    now = state.reports.get(key, {})
    res = state.results.get(key)
    agreed = res is not None and res.source == "reported"
    rows = []
    for p in seats:
        if p not in now:
            continue
        outcome, n = now[p]
        if public:
            rows.append(SeatReport(player=p, result="agreed" if agreed else "reported"))
        else:
            rows.append(SeatReport(player=p, result=words(outcome), typed=typed(outcome), record=n))
    return rows
