"""The tournament commands, over the match service (:class:`referee.service.Referee`) and its store.

Every write appends records (:mod:`.events`) in one transaction that names the last record it read
(a stale writer gets a conflict, as with match entries). Every read folds the records
(:func:`.fold.fold`) and, for the round being played, reads each table's match: its outcome is the
table's result (nothing is typed twice), and a match that is not finished, waits for a confirmation,
carries an open dispute or fails its audit blocks the next round's pairing, naming the table.
Creating a tournament (:mod:`.creating`) and pairing a round (:mod:`.pairs`) are methods of
:class:`Tournaments` written in modules of their own.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

import msgspec

from schemas import NAME_MAX, TEXT_MAX, TITLE_MAX, Outcome

from ..config import utc_now
from ..engine.codes import StoreCode
from ..errors import BadInput, ConflictError, NotFound, StorageError
from ..engine.speech import Said
from ..i18n import N_
from ..inputs import check_text, same_head
from ..service import Referee
from ..store import (Conflict, MatchSummary, StoredAnnotation, StoredEntry, StoredMatch, StoredToken,
                     StoredTournament, StoredTournamentEvent, StoreError, TournamentRecords)
from . import events as ev
from . import pairing, tiebreaks
from .fold import CorruptTournament, Tournament, evolve, fold
from .said import corrupt
from .words import parse_forfeit, parse_result
from .lookup import paired_table
from .standings import Explanation, Standings, TableKey, explain, standings
from .codes import TournamentCode
from .creating import Creating, tiebreaks_checked
from .pairs import Pairs, late_refusal

#: the most records ``--as-of`` (``as_of`` over HTTP) may count
RECORDS_MAX = 10**9
#: the highest round a half-point bye may be asked for (as over HTTP)
ROUND_MAX = 100_000


def _check_upto(upto: int | None) -> None:
    """``--as-of`` is a count of records: from 1 up to a bound (the HTTP route's) no store reaches."""
    if upto is not None and not 1 <= upto <= RECORDS_MAX:
        raise BadInput.said(TournamentCode.BAD_RECORD, N_("--as-of counts records from 1 to {records_max:,}, not {upto}"),
                            records_max=RECORDS_MAX, upto=upto)


@dataclass
class Block:
    """Why a table of the round being played holds up the next pairing."""

    round: int
    table: int
    match_id: str | None
    why: str


class Tournaments(Creating, Pairs):
    """Tournament commands over a :class:`Referee` (whose store keeps the tournament's records)."""

    def __init__(self, referee: Referee, *, clock: Callable[[], str] = utc_now) -> None:
        self.referee = referee
        self.store: TournamentRecords = referee.store
        self.clock = clock

    # -- records -----------------------------------------------------------------------------

    def resolve(self, tournament_id: str) -> StoredTournament:
        check_text(tournament_id, "a tournament id", NAME_MAX)
        found = self.store.get_tournament(tournament_id)
        if found is not None:
            return found
        candidates = self.store.find_tournaments(tournament_id) if len(tournament_id) >= 4 else []
        if len(candidates) == 1:
            return candidates[0]
        if len(candidates) > 1:
            raise BadInput.said(TournamentCode.AMBIGUOUS_ID, N_("{tournament_id!r} starts {n} tournament ids ({items}); type more of it"),
                                tournament_id=tournament_id, n=len(candidates), items=', '.join(t.id for t in candidates[:5]))
        raise NotFound.said(TournamentCode.NOT_FOUND, N_("no tournament {tournament_id!r} (see `referee tournament list`)"),
                            tournament_id=tournament_id)

    def records(self, tournament_id: str, upto: int | None = None) -> list[ev.Record]:
        tid = self.resolve(tournament_id).id
        return self._decoded(tid, self.store.tournament_events(tid, upto))

    @staticmethod
    def _decoded(tid: str, rows: Sequence[StoredTournamentEvent]) -> list[ev.Record]:
        try:
            return [ev.decode(r.body) for r in rows]
        except msgspec.DecodeError as exc:
            raise StorageError.said(TournamentCode.CORRUPT, N_("tournament {tid}: a record cannot be read ({exc}); run `referee tournament audit`"),
                                    tid=tid, exc=exc) from None

    def load(self, tournament_id: str, upto: int | None = None) -> Tournament:
        """The tournament folded from its records (``upto``: the first that many only)."""
        _check_upto(upto)
        try:
            return fold(self.records(tournament_id, upto))
        except CorruptTournament as exc:
            raise corrupt(exc) from None

    def anchored(self, tournament_id: str, upto: int | None = None) -> tuple[Tournament, str]:
        """:meth:`load`, and the head of the whole record read (:func:`.audit.head_hash`: the same rows)."""
        from .audit import head_hash

        _check_upto(upto)
        tid = self.resolve(tournament_id).id
        rows = self.store.tournament_events(tid)
        head = head_hash(tid, rows, self.store.tournament_tokens(tid))
        try:
            return fold(self._decoded(tid, rows if upto is None else rows[:upto])), head
        except CorruptTournament as exc:
            raise corrupt(exc) from None

    def every(self) -> list[Tournament]:
        return [self.load(t.id) for t in self.store.list_tournaments()]

    def _append(self, state: Tournament, events: Sequence[ev.Event], by: str, why: str, *,
                matches: Sequence[StoredMatch] = (), tokens: Sequence[StoredToken] = (),
                summaries: Sequence[MatchSummary] = (), entries: Sequence[StoredEntry] = (),
                annotations: Sequence[StoredAnnotation] = (), transcripts: Sequence[tuple[str, str]] = ()) -> Tournament:
        check_text(by, "who records it (--by)", NAME_MAX)
        check_text(why, "the reason", TEXT_MAX)
        last = self.store.tournament_events(state.id)[-1:] if state.n else []
        prev = last[0].hash if last else ev.root_hash(state.id)
        rows, records = [], []
        for i, event in enumerate(events, start=state.n + 1):
            record = ev.Record(tournament=state.id, n=i, by=by, why=why, event=event)
            body = ev.encode(record)
            digest = ev.chain_hash(prev, body)
            rows.append(StoredTournamentEvent(tournament_id=state.id, n=i, kind=ev.kind(event), by=by, body=body,
                                              prev_hash=prev, hash=digest, recorded_at=self.clock()))
            records.append(record)
            prev = digest
        try:
            self.store.append_tournament_events(state.id, rows, expected_n=state.n, matches=matches, tokens=tokens,
                                                summaries=summaries, entries=entries, annotations=annotations,
                                                transcripts=transcripts)
        except Conflict as exc:
            raise ConflictError(TournamentCode.STALE, str(exc), {"head": exc.head}) from None
        except StoreError as exc:
            raise StorageError(StoreCode.FAILED, str(exc)) from None
        for record in records:
            evolve(state, record)
            state.n = record.n
        return state

    def append(self, state: Tournament, events: Sequence[ev.Event], by: str, why: str) -> Tournament:
        """Append ``events`` (checked by another module: :mod:`.reports`, :mod:`.clock`) to ``state``'s record
        in one transaction."""
        return self._append(state, events, by, why)

    def attach(self, state: Tournament, event: ev.TranscriptAttached, by: str, why: str, *, match: StoredMatch,
               entries: Sequence[StoredEntry], annotations: Sequence[StoredAnnotation], summary: MatchSummary | None,
               digest: str) -> Tournament:
        """Record a table's transcript (:mod:`.attach`): the imported match, its entries, annotations and
        transcript digest, and the record attaching it, in one transaction."""
        return self._append(state, [event], by, why, matches=[match], entries=entries, annotations=annotations,
                            summaries=[summary] if summary is not None else [], transcripts=[(digest, match.id)])

    def _check_player(self, state: Tournament, player: str, *, known: bool) -> str:
        player = check_text(player, "a player's name", NAME_MAX).strip()
        if known:
            if player not in state.players:
                raise NotFound.said(TournamentCode.UNKNOWN_PLAYER,
                                    N_("no player {player!r} in {name}; players: {players}") if state.players
                                    else N_("no player {player!r} in {name}; players: none yet"),
                                    player=player, name=state.config.name, players=", ".join(state.players))
            return player
        if not player or not all(c.isalnum() or c in "_-" for c in player) or player in ("arbiter", "spectator"):
            raise BadInput.said(TournamentCode.BAD_PLAYER, N_("player name {player!r} is not usable: letters, digits, '_' or '-' (it is the player's seat name in every match), and not arbiter or spectator"),
                                player=player)
        if player in state.players:
            raise BadInput.said(TournamentCode.DUPLICATE_PLAYER, N_("{player!r} is already registered"), player=player)
        return player

    def add_player(self, tournament_id: str, player: str, *, display: str = "", by: str = "organiser",
                   why: str = "") -> Tournament:
        """Register a player (after round 1 is paired: a late entry, who starts with no points)."""
        state = self.load(tournament_id)
        player = self._check_player(state, player, known=False)
        check_text(display, "the display name", TITLE_MAX)
        if state.config.format == "round-robin" and state.rounds and (refused := late_refusal(state, extra=1)):
            raise refused
        return self._append(state, [ev.PlayerAdded(player=player, display=display)], by, why)

    def drop(self, tournament_id: str, player: str, *, by: str = "organiser", why: str = "") -> Tournament:
        state = self.load(tournament_id)
        player = self._check_player(state, player, known=True)
        if state.players[player].dropped:
            raise BadInput.said(TournamentCode.ALREADY_DROPPED, N_("{player} has already dropped"), player=player)
        return self._append(state, [ev.PlayerDropped(player=player)], by, why)

    def undrop(self, tournament_id: str, player: str, *, by: str = "organiser", why: str = "") -> Tournament:
        state = self.load(tournament_id)
        player = self._check_player(state, player, known=True)
        if not state.players[player].dropped:
            raise BadInput.said(TournamentCode.NOT_DROPPED, N_("{player} has not dropped"), player=player)
        return self._append(state, [ev.PlayerUndropped(player=player)], by, why)

    def rename(self, tournament_id: str, player: str, display: str, *, by: str = "organiser", why: str = "") -> Tournament:
        state = self.load(tournament_id)
        player = self._check_player(state, player, known=True)
        check_text(display, "the display name", TITLE_MAX)
        return self._append(state, [ev.PlayerRenamed(player=player, display=display)], by, why)

    def set_tiebreaks(self, tournament_id: str, names: Sequence[str], *, by: str = "organiser",
                      why: str = "") -> Tournament:
        state = self.load(tournament_id)
        try:
            checked = tiebreaks_checked(names)
        except ValueError as exc:
            raise BadInput(TournamentCode.BAD_TIEBREAK, str(exc)) from None
        return self._append(state, [ev.TiebreaksChanged(tiebreaks=checked)], by, why)

    def withdraw(self, tournament_id: str, round_: int, table: int, *, by: str = "arbiter", why: str = "") -> Tournament:
        """Withdraw a table's pairing before it has a result: its match is void for the standings."""
        state = self.load(tournament_id)
        paired_table(state, round_, table)
        key = (round_, table)
        if key in state.withdrawn:
            raise BadInput.said(TournamentCode.WITHDRAWN, N_("round {round} table {table}'s pairing was withdrawn already (record {withdrawn})"),
                                round=round_, table=table, withdrawn=state.withdrawn[key])
        if round_ != state.current or state.rounds[-1].closed:
            raise BadInput.said(TournamentCode.ROUND_CLOSED, N_("round {round} is closed: its tables have their results; change one with `tournament result ... --correct`"),
                                round=round_)
        live = self.outcomes(state)[0]
        if key in state.results or key in live:
            from ..outcome import words

            now = state.results[key].outcome if key in state.results else live[key]
            raise BadInput.said(TournamentCode.HAS_RESULT, N_("round {round} table {table} has a result ({result}): a pairing is withdrawn before its result; correct the result instead (--correct)"),
                                round=round_, table=table, result=words(now))
        if not why.strip():
            raise BadInput.said(TournamentCode.REASON_NEEDED, N_('withdrawing a pairing needs a reason (--reason "...")'))
        return self._append(state, [ev.PairingWithdrawn(round=round_, table=table)], by, why)

    def grant_half_bye(self, tournament_id: str, player: str, round_: int, *, by: str = "organiser",
                       why: str = "") -> Tournament:
        """A half-point bye for ``player`` in a round not yet paired (asked for, and granted)."""
        state = self.load(tournament_id)
        player = self._check_player(state, player, known=True)
        cfg = state.config
        if cfg.format == "round-robin":
            raise BadInput.said(TournamentCode.NO_HALF_BYE, N_("a round-robin's schedule is fixed by its Berger tables: a player who cannot play a round is not paired around; record that table's result instead"))
        if round_ <= state.current:
            raise BadInput.said(TournamentCode.ROUND_PAIRED, N_("round {round} is paired already (rounds 1..{current} are): a half-point bye is granted before its round is paired"),
                                round=round_, current=state.current)
        if cfg.rounds and round_ > cfg.rounds:
            raise BadInput.said(TournamentCode.BAD_ROUND, N_("the tournament has {rounds} rounds, not {round}"),
                                rounds=cfg.rounds, round=round_)
        if round_ > ROUND_MAX:  # the HTTP route's bound; a tournament without planned rounds has no other
            raise BadInput.said(TournamentCode.BAD_ROUND, N_("a round is numbered from 1 to {round_max:,}, not {round}"),
                                round_max=ROUND_MAX, round=round_)
        if state.players[player].dropped:
            raise BadInput.said(TournamentCode.DROPPED, N_("{player} has dropped"), player=player)
        if player in state.half_byes.get(round_, []):
            raise BadInput.said(TournamentCode.HAS_HALF_BYE, N_("{player} has a half-point bye for round {round} already"),
                                player=player, round=round_)
        return self._append(state, [ev.HalfByeGranted(round=round_, player=player)], by, why)

    def cancel_half_bye(self, tournament_id: str, player: str, round_: int, *, by: str = "organiser",
                        why: str = "") -> Tournament:
        """Take back ``player``'s half-point bye in a round not yet paired: they are paired in it again."""
        state = self.load(tournament_id)
        player = self._check_player(state, player, known=True)
        if player not in state.half_byes.get(round_, []):
            raise BadInput.said(TournamentCode.NO_HALF_BYE, N_("{player} has no half-point bye for round {round} to cancel"),
                                player=player, round=round_)
        if round_ <= state.current:
            raise BadInput.said(TournamentCode.ROUND_PAIRED, N_("round {round} is paired already: its half-point byes stand (correct a result instead)"),
                                round=round_)
        return self._append(state, [ev.HalfByeCancelled(round=round_, player=player)], by, why)

    # -- the round being played --------------------------------------------------------------------

    def live(self, state: Tournament) -> tuple[dict[TableKey, Outcome], dict[TableKey, int], list[Block]]:
        """For the last round paired (if still open): each table's outcome from its match now (with the
        entry it was read at), and the tables that hold up the next pairing."""
        outcomes, seqs = self.outcomes(state)
        blocks: list[Block] = []
        if not state.rounds or state.rounds[-1].closed:
            return outcomes, seqs, blocks
        rnd = state.rounds[-1]
        for t in state.played(rnd):  # a withdrawn pairing is void: its match is not read
            key = (rnd.number, t.table)
            if key in state.results:
                continue  # the arbiter settled this table
            if t.match_id is None:
                blocks.append(Block(rnd.number, t.table, None, Said(N_("no result yet (record it with `tournament result`)"))))
                continue
            reported = [o for o, _ in state.reports.get(key, {}).values()]
            why = (Said(N_("the seats' reports of its result disagree: the organiser records it (`tournament result`)"))
                   if any(o != reported[0] for o in reported) and key not in outcomes
                   else self._blocking(t.match_id, key in outcomes))
            if why:
                blocks.append(Block(rnd.number, t.table, t.match_id, why))
        return outcomes, seqs, blocks

    def outcomes(self, state: Tournament) -> tuple[dict[TableKey, Outcome], dict[TableKey, int]]:
        """For the last round paired (if still open): each finished table's outcome and the entry it was
        read at, from its match's summary (:mod:`referee.summaries`; no match is bound or folded)."""
        from ..summaries import outcome, summary_for

        outcomes: dict[TableKey, Outcome] = {}
        seqs: dict[TableKey, int] = {}
        if not state.rounds or state.rounds[-1].closed:
            return outcomes, seqs
        rnd = state.rounds[-1]
        for t in state.played(rnd):  # a withdrawn pairing is void: its match is not read
            if t.match_id is not None:
                summary = summary_for(self.referee, t.match_id)
                found = outcome(summary)
                if found is not None:
                    outcomes[(rnd.number, t.table)] = found
                    seqs[(rnd.number, t.table)] = summary.head
        return outcomes, seqs

    def _blocking(self, match_id: str, finished: bool) -> str:
        """Why this match's result cannot be taken yet ('' if it can)."""
        loaded = self.referee.load(match_id)
        hold = self.referee.timeline(loaded).open_hold()
        if hold is not None:
            return Said(N_("entry {entry} waits for {seat} to confirm it"), entry=hold[0], seat=hold[1])
        disputed = open_disputes(self.store.annotations(loaded.match.id))
        if disputed:
            return Said(N_("an open dispute on entry {entry} (settle it with an annotation of kind ruling on that "
                           "entry, or record the table's result)"), entry=disputed[0])
        if not finished:
            return Said(N_("the match is not finished"))
        report = self.referee.audit(loaded.match.id)
        if not report.clean:
            f = report.findings[0]
            return Said(N_("its audit is not clean: entry {seq}: {what}"), seq=f.seq, what=f.what)
        return ""

    def blocks(self, tournament_id: str) -> list[Block]:
        return self.live(self.load(tournament_id))[2]

    def _close(self, state: Tournament) -> list[ev.Event]:
        """The record that closes the open round (its results copied from the logs), or nothing."""
        if not state.rounds or state.rounds[-1].closed:
            return []
        outcomes, seqs, blocks = self.live(state)
        if blocks:
            b = blocks[0]
            template = (N_("round {round} table {table} (match {match}) blocks the next round: {why} (and {n} more: {tables})")
                        if b.match_id and len(blocks) > 1 else
                        N_("round {round} table {table} (match {match}) blocks the next round: {why}") if b.match_id else
                        N_("round {round} table {table} blocks the next round: {why} (and {n} more: {tables})")
                        if len(blocks) > 1 else N_("round {round} table {table} blocks the next round: {why}"))
            err = BadInput.said(TournamentCode.ROUND_OPEN, template, round=b.round, table=b.table, match=b.match_id,
                                why=b.why, n=len(blocks) - 1, tables=", ".join(str(x.table) for x in blocks[1:]))
            err.detail = {"tables": [x.table for x in blocks]}
            raise err
        rnd = state.rounds[-1]
        results = []
        for t in state.played(rnd):
            key = (rnd.number, t.table)
            if key in state.results or key not in outcomes:
                continue
            results.append(ev.TableResult(table=t.table, outcome=outcomes[key], source="log", match_id=t.match_id,
                                          seq=seqs[key]))
        return [ev.RoundClosed(round=rnd.number, results=tuple(results))]

    def close_round(self, tournament_id: str, *, by: str = "organiser", why: str = "") -> Tournament:
        """Close the round being played: its results are copied from the logs into the tournament."""
        state = self.load(tournament_id)
        closing = self._close(state)
        if not closing:
            raise BadInput.said(TournamentCode.NOTHING_OPEN, N_("no round is open (pair one with `tournament pair`)"))
        return self._append(state, closing, by, why)

    # -- results -----------------------------------------------------------------------------------------

    def record_result(self, tournament_id: str, round_: int, table: int, result: str, *,
                      scores: Mapping[str, int] | None = None, correct: bool = False, by: str = "arbiter",
                      why: str = "", forfeit: bool = False) -> tuple[Tournament, Standings, Standings]:
        """An arbiter's result for a table (``parse_result``'s words). A table that has a result already (from
        its match's log or an earlier entry) takes only a correction (``correct``, with a reason), which
        replaces it from now on and keeps it in the record. Returns the tournament and the standings after
        that round before and after."""
        state = self.load(tournament_id)
        t = paired_table(state, round_, table)
        key = (round_, table)
        if key in state.withdrawn:
            raise BadInput.said(TournamentCode.WITHDRAWN, N_("round {round} table {table}'s pairing was withdrawn (record {withdrawn}): it has no result"),
                                round=round_, table=table, withdrawn=state.withdrawn[key])
        outcome = parse_forfeit(result, t.seats) if forfeit else parse_result(result, t.seats, scores)
        live = self.outcomes(state)[0]
        has = key in state.results or key in live
        if has and not correct:
            now = state.results[key].outcome if key in state.results else live[key]
            from ..outcome import words

            raise BadInput.said(TournamentCode.HAS_RESULT, N_('round {round} table {table} has a result already ({result}); to change it, record a correction: --correct --reason "..."'),
                                round=round_, table=table, result=words(now))
        if correct and not has:
            raise BadInput.said(TournamentCode.NOTHING_TO_CORRECT, N_("round {round} table {table} has no result to correct; record it without --correct"),
                                round=round_, table=table)
        if correct and not why.strip():
            raise BadInput.said(TournamentCode.REASON_NEEDED, N_('a correction needs a reason (--reason "...")'))
        before = standings(state, round_, live)
        event: ev.Event = (ev.ResultCorrected(round=round_, table=table, outcome=outcome, forfeit=forfeit) if correct
                           else ev.ResultRecorded(round=round_, table=table, outcome=outcome, forfeit=forfeit))
        state = self._append(state, [event], by, why)
        after = standings(state, round_, self.outcomes(state)[0])
        return state, before, after

    # -- reading -------------------------------------------------------------------------------------------

    def standings(self, tournament_id: str, *, after_round: int | None = None, as_of: int | None = None) -> Standings:
        """Standings after ``after_round`` (default: the last paired). ``as_of``: from the first that many
        records only, as they stood then (the logs of an open round are not read)."""
        state, head = self.anchored(tournament_id, as_of)
        live = self.outcomes(state)[0] if as_of is None else {}
        try:
            return replace(standings(state, after_round, live), head=head)
        except ValueError as exc:
            raise BadInput(TournamentCode.BAD_ROUND, str(exc)) from None

    def explain(self, tournament_id: str, player: str, *, after_round: int | None = None,
                as_of: int | None = None) -> Explanation:
        state = self.load(tournament_id, as_of)
        player = self._check_player(state, player, known=True)
        live = self.outcomes(state)[0] if as_of is None else {}
        try:
            return explain(state, player, after_round, live)
        except ValueError as exc:
            raise BadInput(TournamentCode.BAD_ROUND, str(exc)) from None

    def export(self, tournament_id: str, fmt: str, *, after_round: int | None = None, as_of: int | None = None,
               player: str | None = None, hall: str | None = None) -> str:
        """The standings and every round's tables in ``fmt`` (md, html, json or csv); ``player``: that
        player's own tables and byes only (what their token reads of the pairings); ``hall``: the serving
        hall's address (the HTML links each match to its live view there)."""
        from . import export

        if fmt not in export.FORMATS:
            raise BadInput.said(TournamentCode.BAD_FORMAT, N_("--format must be {items}, not {fmt!r}"),
                                items=', '.join(export.FORMATS), fmt=fmt)
        state, head = self.anchored(tournament_id, as_of)
        live = self.outcomes(state)[0] if as_of is None else {}
        try:
            table = replace(standings(state, after_round, live), head=head)
        except ValueError as exc:
            raise BadInput(TournamentCode.BAD_ROUND, str(exc)) from None
        return export.render(export.report(state, table, dict(live), player=player), fmt, hall=hall)

    def audit(self, tournament_id: str, *, expect_head: str | None = None) -> list[str]:
        """Everything wrong with the tournament's record (empty: clean): :func:`.audit.findings`, and
        with ``expect_head``, a head other than that one."""
        return self.audit_report(tournament_id, expect_head=expect_head)[0]

    def audit_report(self, tournament_id: str, *, expect_head: str | None = None) -> tuple[list[str], str, int]:
        """The audit's findings, the tournament's head (:func:`.audit.head_hash`) and its number of records."""
        from . import audit

        if expect_head is not None:
            check_text(expect_head, "the expected head (--expect-head)", NAME_MAX)
        found, head, n = audit.findings(self, tournament_id)
        if expect_head is not None and not same_head(expect_head, head):
            found.append(f"the head is {head}, not {expect_head.strip()} as expected: the record (its {n} records "
                         "or its tokens) changed since that head was printed")
        return found, head, n

    def head(self, tournament_id: str) -> str:
        """The tournament's head now (:func:`.audit.head_hash`: its records and its tokens)."""
        from .audit import head_hash

        tid = self.resolve(tournament_id).id
        return head_hash(tid, self.store.tournament_events(tid), self.store.tournament_tokens(tid))


def open_disputes(notes: Sequence[Any]) -> list[int]:
    """Entries with a ``disputed`` annotation not followed by a ``ruling`` annotation on the same entry
    (or on the match, entry 0)."""
    open_: dict[int, bool] = {}
    for note in notes:
        if note.kind == "disputed":
            open_[note.seq] = True
        elif note.kind == "ruling":
            if note.seq == 0:
                open_.clear()
            else:
                open_.pop(note.seq, None)
    return sorted(open_)


