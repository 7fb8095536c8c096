"""What ``referee tournament ...`` asks of a tournament, wherever it is kept: :class:`TournamentApi`.

Two classes answer it, as two answer :class:`referee.api.RefereeApi` for matches: :class:`LocalTournaments`,
over a local database (whoever holds the database is the organiser), and the CLI's client of a referee
server (``cli.tournament_client.RemoteTournaments``), which calls the tournament routes with a
tournament token and decodes their answers into the same Structs (:mod:`schemas.tournament`). The
HTTP routes answer through :class:`LocalTournaments` too (:mod:`.access` checks the token first), so a
command prints the same thing in both modes; mypy checks that both classes implement the protocol.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Protocol

import msgspec

from schemas import Outcome
from schemas.tournament import (
    AddPlayer,
    AuditResult,
    BlockRow,
    CreateTournament,
    Explained,
    HalfByeRequest,
    PairedRound,
    PairedTable,
    Pairings,
    PairRequest,
    PlayerAdded,
    PlayerChange,
    PlayerRow,
    RankChange,
    RecordRow,
    Recorded,
    ReportAnswer,
    ReportRequest,
    ResultAnswer,
    ResultRequest,
    RoundRow,
    StandingRow,
    StandingsAnswer,
    TableRef,
    TableRow,
    TournamentShown,
    WithdrawRequest,
    You,
)

from ..errors import BadInput
from ..i18n import N_
from ..service import Referee
from .fold import Tournament
from .service import Tournaments
from .words import parse_places, parse_points
from .standings import Standings, TableKey
from .codes import TournamentCode


class TournamentApi(Protocol):
    """The tournament operations of the ``referee`` command, local or over HTTP. A tournament is named
    by its id or a unique prefix of 4+ characters. ``by`` is who records a write (over HTTP: the token's
    holder, the organiser)."""

    def show(self, tournament: str) -> TournamentShown: ...

    def pairings(self, tournament: str, round_: int | None = None) -> Pairings: ...

    def standings(self, tournament: str, *, after_round: int | None = None, as_of: int | None = None,
                  ) -> StandingsAnswer: ...

    def explain(self, tournament: str, player: str, *, after_round: int | None = None,
                as_of: int | None = None) -> Explained: ...

    def export(self, tournament: str, fmt: str, *, after_round: int | None = None) -> str: ...

    def log(self, tournament: str) -> list[RecordRow]: ...

    def audit(self, tournament: str, *, expect_head: str | None = None) -> AuditResult: ...

    def add_player(self, tournament: str, req: AddPlayer, *, by: str = "organiser") -> PlayerAdded: ...

    def change_player(self, tournament: str, player: str, req: PlayerChange, *, by: str = "organiser",
                      ) -> Recorded: ...

    def pair(self, tournament: str, req: PairRequest, *, by: str = "organiser") -> PairedRound: ...

    def close(self, tournament: str, reason: str, *, by: str = "organiser") -> Recorded: ...

    def result(self, tournament: str, req: ResultRequest, *, by: str = "arbiter") -> ResultAnswer: ...

    def report(self, tournament: str, round_: int, table: int, req: ReportRequest, *, by: str = "scorekeeper",
               ) -> ReportAnswer: ...

    def tiebreaks(self, tournament: str, names: Sequence[str], reason: str, *, by: str = "organiser",
                  ) -> Recorded: ...

    def withdraw(self, tournament: str, req: WithdrawRequest, *, by: str = "arbiter") -> Recorded: ...

    def half_bye(self, tournament: str, req: HalfByeRequest, *, by: str = "organiser") -> Recorded: ...


def standings_answer(table: Standings) -> StandingsAnswer:
    from .tiebreaks import fmt

    return StandingsAnswer(
        tournament=table.tournament, after_round=table.after_round, tiebreaks=list(table.tiebreaks),
        rows=[StandingRow(rank=r.rank, player=r.player, name=r.name, played=r.played, dropped=r.dropped,
                          values={n: fmt(v) for n, v in zip(table.tiebreaks, r.values)}) for r in table.rows],
        pending=[TableRef(round=a, table=b) for a, b in table.pending], head=table.head)


def pairings_answer(state: Tournament, live: Mapping[TableKey, Outcome], blocks: list[BlockRow],
                    round_: int | None = None, *, player: str | None = None, public: bool = False) -> Pairings:
    """Every round's tables (or one round's) with their results (the record's, else ``live``: what the
    open round's logs say now), the seats' reports and ``blocks``; ``player``: that player's own tables and
    byes only; ``public``: the reports as a spectator reads them (only that a seat reported)."""
    from ..outcome import words
    from .reports import disagree, report_rows

    out = []
    for rnd in state.rounds:
        if round_ is not None and rnd.number != round_:
            continue
        tables = []
        for t in rnd.tables:
            if player is not None and player not in t.seats:
                continue
            if (rnd.number, t.table) in state.withdrawn:
                tables.append(TableRow(table=t.table, seats=list(t.seats), match_id=t.match_id, result="withdrawn",
                                       source="withdrawn"))
                continue
            res = state.results.get((rnd.number, t.table))
            outcome = res.outcome if res else live.get((rnd.number, t.table))
            key = (rnd.number, t.table)
            tables.append(TableRow(table=t.table, seats=list(t.seats), match_id=t.match_id,
                                   result=words(outcome) if outcome is not None else None,
                                   source=res.source if res else "log",
                                   reports=report_rows(state, key, t.seats, public=public),
                                   disagree=not public and disagree(state, key, t.seats)))
        out.append(RoundRow(round=rnd.number, closed=rnd.closed, tables=tables,
                            byes=[b for b in rnd.byes if player is None or b == player],
                            half_byes=[b for b in rnd.half_byes if player is None or b == player],
                            absent=[b for b in rnd.absent if player is None or b == player]))
    return Pairings(tournament=state.id, rounds=out, blocks=[] if player is not None else blocks,
                    undo=state.config.undo)


class LocalTournaments:
    """:class:`TournamentApi` over a local database (:class:`.service.Tournaments`)."""

    def __init__(self, referee: Referee) -> None:
        self.service = Tournaments(referee)

    def create_state(self, req: CreateTournament, *, by: str = "organiser", why: str = "") -> Tournament:
        points = parse_points(",".join(f"{k}={Fraction(v, req.points_unit)}" for k, v in req.points.items()))
        if req.places:
            points = msgspec.structs.replace(points, places=tuple(
                p * points.unit for p in parse_places(",".join(str(p) for p in req.places))))
        return self.service.create(
            req.name, req.game, format=req.format, rounds=req.rounds, tiebreaks=req.tiebreaks, points=points,
            seed=req.seed, table_size=req.table_size, options=req.options, cards=req.cards, cards_text=req.cards_text,
            chance=req.chance,
            players=req.players, by=by, why=why, undo=req.undo, unplayed=req.unplayed,
            direct_encounter=req.direct_encounter)

    # -- reads ---------------------------------------------------------------------------------------------

    def show(self, tournament: str, *, you: You | None = None) -> TournamentShown:
        state = self.service.load(tournament)
        cfg = state.config
        you = you or You(role="organiser")
        return TournamentShown(
            tournament=state.id, name=cfg.name, game=cfg.game, format=cfg.format, rounds=cfg.rounds,
            round=state.current, tiebreaks=list(state.tiebreaks), records=state.n,
            players=[PlayerRow(player=p.id, name=p.display, dropped=p.dropped, entered=p.entered)
                     for p in state.players.values()],
            you=you, seed=cfg.seed if you.role == "organiser" else None, undo=cfg.undo, unplayed=cfg.unplayed,
            direct_encounter=cfg.direct_encounter, progressive=cfg.progressive)

    def pairings(self, tournament: str, round_: int | None = None, *, player: str | None = None,
                 public: bool = False) -> Pairings:
        """Every round's tables (or one round's); ``player``: that player's own tables and byes only (and
        no blocks); ``public``: the seats' reports as a spectator reads them."""
        state = self.service.load(tournament)
        # a player's own view shows no blocks: its results come from the summaries alone
        live, _, blocks = self.service.live(state) if player is None else (*self.service.outcomes(state), [])
        shown = [BlockRow(round=b.round, table=b.table, match_id=b.match_id, why=str(b.why)) for b in blocks]
        return pairings_answer(state, live, shown, round_, player=player, public=public)

    def standings(self, tournament: str, *, after_round: int | None = None, as_of: int | None = None,
                  ) -> StandingsAnswer:
        return standings_answer(self.service.standings(tournament, after_round=after_round, as_of=as_of))

    def explain(self, tournament: str, player: str, *, after_round: int | None = None,
                as_of: int | None = None) -> Explained:
        from schemas.tournament import Workings

        from .tiebreaks import fmt

        e = self.service.explain(tournament, player, after_round=after_round, as_of=as_of)
        return Explained(player=e.player, name=e.name, after_round=e.after_round, rank=e.rank,
                         values=[Workings(tiebreak=n, value=fmt(v), exact=f"{v.numerator}/{v.denominator}",
                                          workings=list(lines)) for n, v, lines in e.values],
                         corrections=list(e.corrections))

    def export(self, tournament: str, fmt: str, *, after_round: int | None = None, player: str | None = None,
               hall: str | None = None) -> str:
        """``player``: as that player's token reads it (their own tables and byes, as :meth:`pairings`);
        ``hall``: the serving hall's address, for the HTML's links to each match."""
        return self.service.export(tournament, fmt, after_round=after_round, player=player, hall=hall)

    def log(self, tournament: str) -> list[RecordRow]:
        out = []
        for r in self.service.records(tournament):
            event = msgspec.to_builtins(r.event)
            out.append(RecordRow(tournament=r.tournament, n=r.n, by=r.by, why=r.why, event=event))
        return out

    def audit(self, tournament: str, *, expect_head: str | None = None) -> AuditResult:
        findings, head, records = self.service.audit_report(tournament, expect_head=expect_head)
        return AuditResult(clean=not findings, findings=findings, head=head, records=records)

    # -- writes --------------------------------------------------------------------------------------------

    def add_player(self, tournament: str, req: AddPlayer, *, by: str = "organiser") -> PlayerAdded:
        state = self.service.add_player(tournament, req.player, display=req.name, by=by, why=req.reason)
        player = req.player.strip()
        return PlayerAdded(player=player, entered=state.players[player].entered, records=state.n)

    def change_player(self, tournament: str, player: str, req: PlayerChange, *, by: str = "organiser",
                      ) -> Recorded:
        state, done = None, []
        if req.drop is True:
            state = self.service.drop(tournament, player, by=by, why=req.reason)
            done.append(f"{player} dropped after round {state.current}")
        elif req.drop is False:
            state = self.service.undrop(tournament, player, by=by, why=req.reason)
            done.append(f"{player} is playing again")
        if req.name is not None:
            state = self.service.rename(tournament, player, req.name, by=by, why=req.reason)
            done.append(f"{player} is shown as {req.name}")
        if state is None:
            raise BadInput.said(TournamentCode.NOTHING_TO_CHANGE, N_("send drop (true or false) or name"))
        p = state.players[player]
        return Recorded(tournament=state.id, records=state.n, done="; ".join(done), player=p.id, name=p.display,
                        dropped=p.dropped)

    def pair(self, tournament: str, req: PairRequest, *, by: str = "organiser") -> PairedRound:
        paired = self.service.pair(tournament, by=by, why=req.reason, dry_run=req.dry_run, tokens=req.tokens,
                                   manual=req.manual)
        return PairedRound(tournament=paired.tournament, round=paired.round, dry_run=paired.dry_run,
                           tables=[PairedTable(table=t.table, seats=list(t.seats), match_id=t.match_id,
                                               tokens=dict(t.tokens)) for t in paired.tables],
                           byes=list(paired.byes), half_byes=list(paired.half_byes), undo=paired.undo)

    def close(self, tournament: str, reason: str, *, by: str = "organiser") -> Recorded:
        state = self.service.close_round(tournament, by=by, why=reason)
        return Recorded(tournament=state.id, records=state.n, done=f"round {state.current} closed", round=state.current)

    def result(self, tournament: str, req: ResultRequest, *, by: str = "arbiter") -> ResultAnswer:
        state, before, after = self.service.record_result(
            tournament, req.round, req.table, req.result, scores=req.scores, correct=req.correct, by=by,
            why=req.reason, forfeit=req.forfeit)
        was = {r.player: r.rank for r in before.rows}
        return ResultAnswer(tournament=state.id, records=state.n,
                            changed=[RankChange(player=r.player, rank_before=was.get(r.player), rank_after=r.rank)
                                     for r in after.rows if was.get(r.player) != r.rank],
                            standings=standings_answer(after), before=standings_answer(before))

    def report(self, tournament: str, round_: int, table: int, req: ReportRequest, *, by: str = "scorekeeper",
               ) -> ReportAnswer:
        """A seat's report of its table's result (:mod:`.reports`); locally, whoever holds the database types
        it for the seat ``req.seat`` names."""
        from ..outcome import words
        from .reports import disagree, report, report_rows

        done = report(self.service, tournament, round_, table, req.seat, req.result, scores=req.scores, by=by,
                      why=req.reason)
        state, key = done.state, (round_, table)
        t = state.table(round_, table)
        seats = t.seats if t is not None else ()
        res = state.results.get(key)
        changed: list[RankChange] = []
        if done.before is not None and done.after is not None:
            was = {r.player: r.rank for r in done.before.rows}
            changed = [RankChange(player=r.player, rank_before=was.get(r.player), rank_after=r.rank)
                       for r in done.after.rows if was.get(r.player) != r.rank]
        return ReportAnswer(
            tournament=state.id, records=state.n, round=round_, table=table, seat=done.seat, written=done.written,
            agreed=res is not None and res.source == "reported", disagree=disagree(state, key, seats),
            reports=report_rows(state, key, seats, public=False),
            waiting=[p for p in seats if p not in state.reports.get(key, {})],
            result=words(res.outcome) if res is not None else None, changed=changed,
            standings=standings_answer(done.after) if done.after is not None else None)

    def tiebreaks(self, tournament: str, names: Sequence[str], reason: str, *, by: str = "organiser",
                  ) -> Recorded:
        state = self.service.set_tiebreaks(tournament, names, by=by, why=reason)
        return Recorded(tournament=state.id, records=state.n, done="tie-breaks: " + ", ".join(state.tiebreaks),
                        tiebreaks=list(state.tiebreaks))


    def withdraw(self, tournament: str, req: WithdrawRequest, *, by: str = "arbiter") -> Recorded:
        state = self.service.withdraw(tournament, req.round, req.table, by=by, why=req.reason)
        return Recorded(tournament=state.id, records=state.n, round=req.round,
                        done=f"round {req.round} table {req.table}: pairing withdrawn (void for the standings)")

    def half_bye(self, tournament: str, req: HalfByeRequest, *, by: str = "organiser") -> Recorded:
        if req.cancel:
            state = self.service.cancel_half_bye(tournament, req.player, req.round, by=by, why=req.reason)
            return Recorded(tournament=state.id, records=state.n, round=req.round, player=req.player,
                            done=f"{req.player}: the half-point bye in round {req.round} is cancelled (paired again)")
        state = self.service.grant_half_bye(tournament, req.player, req.round, by=by, why=req.reason)
        pts = state.config.points.half_bye
        return Recorded(tournament=state.id, records=state.n, round=req.round, player=req.player,
                        done=f"{req.player}: a half-point bye in round {req.round} ({pts} points)")

if TYPE_CHECKING:  # mypy --strict checks that the local class answers the protocol (the client: in its module)
    _local: TournamentApi = LocalTournaments(Referee.__new__(Referee))
