"""Who may do what to a tournament over HTTP, and what each role reads.

Creating a tournament mints three kinds of secret (``secrets.token_urlsafe``; only their sha256 hashes
are stored): the organiser's (every write: players, pairing, results, tie-breaks; the pairing's match
tokens are answered to it), the spectators' (standings, every round's tables) and one per player
(the standings and the player's own tables). A token of another tournament is refused (403).
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

import msgspec

from schemas.tournament import (
    AddPlayer,
    AuditResult,
    ClockRequest,
    CreateTournament,
    Explained,
    HalfByeRequest,
    HallClock,
    PairedRound,
    Pairings,
    PairRequest,
    PlayerAdded,
    PlayerChange,
    RecordRow,
    Recorded,
    ReportAnswer,
    ReportRequest,
    ResultAnswer,
    ResultRequest,
    StandingsAnswer,
    TableImported,
    TournamentCreated,
    TournamentShown,
    TournamentTokens,
    TranscriptUpload,
    WithdrawRequest,
    You,
)

from ..auth import AuthCode, Forbidden, Principal, Unauthorized, bearer, hash_token
from ..errors import BadInput, StorageError
from ..engine.speech import Said
from ..i18n import N_
from ..service import Referee
from ..store import AccessTokens, Annotations, MatchLog, StoredTournamentToken, StoreError, TournamentLog
from .api import LocalTournaments
from .codes import TournamentCode
from ..engine.codes import StoreCode

ROLES = ("organiser", "spectator", "player")


@dataclass(frozen=True)
class Entrant:
    """The holder of a tournament token."""

    tournament: str
    role: str
    player: str | None = None


class TournamentAccessRecords(AccessTokens, Annotations, MatchLog, TournamentLog, Protocol):
    """What the tournament's access layer reads itself: its tokens (and the records revoking any), and a
    table's match head and notes."""


class TournamentAccess:
    def __init__(self, referee: Referee) -> None:
        self.local = LocalTournaments(referee)
        self.service = self.local.service
        self.store: TournamentAccessRecords = referee.store

    def _mint(self, tournament: str, roles: Sequence[tuple[str, str | None]]) -> list[str]:
        tokens = [secrets.token_urlsafe(24) for _ in roles]
        rows = [StoredTournamentToken(token_hash=hash_token(t), tournament_id=tournament, role=role, player=player)
                for t, (role, player) in zip(tokens, roles)]
        try:
            self.store.add_tournament_tokens(rows)
        except StoreError as exc:
            raise StorageError.said(StoreCode.FAILED, N_("could not record the tournament's tokens: {exc}"), exc=exc) from None
        return tokens

    def authenticate(self, authorization: str | None, tournament_id: str) -> Entrant:
        token = bearer(authorization, Said(N_("send the tournament's token as 'Authorization: Bearer <token>' (tokens "
                                              "are given when the tournament is created and players are added)")))
        row = self.store.find_tournament_token(hash_token(token))
        if row is None:
            raise Unauthorized.said(AuthCode.UNKNOWN_TOKEN, N_("this token is not a token of any tournament on this server"))
        if tournament_id != row.tournament_id and not (len(tournament_id) >= 4 and row.tournament_id.startswith(tournament_id)):
            raise Forbidden.said(AuthCode.OTHER_TOURNAMENT, N_("this token belongs to another tournament"))
        from .tokens import revoked

        if revoked(self.store.tournament_events(row.tournament_id), row.token_hash):
            raise Unauthorized.said(AuthCode.REVOKED, N_("this token was replaced by a newer one (`referee tournament tokens --rotate`): ask the organiser for the new one"))
        return Entrant(tournament=row.tournament_id, role=row.role, player=row.player)

    @staticmethod
    def organiser(who: Entrant, what: str) -> None:
        if who.role != "organiser":
            raise Forbidden.said(AuthCode.FORBIDDEN, N_("only the organiser may {what} (this token is a {role}'s)"),
                                 what=what, role=who.role)

    # -- writes (the organiser) -----------------------------------------------------------------------

    def create(self, req: CreateTournament) -> TournamentCreated:
        state = self.local.create_state(req, by="organiser")
        players = list(state.players)
        tokens = self._mint(state.id, [("organiser", None), ("spectator", None), *[("player", p) for p in players]])
        return TournamentCreated(tournament=state.id, name=state.config.name, tokens=TournamentTokens(
            organiser=tokens[0], spectator=tokens[1], players=dict(zip(players, tokens[2:]))))

    def add_player(self, who: Entrant, req: AddPlayer) -> PlayerAdded:
        self.organiser(who, "register players")
        added = self.local.add_player(who.tournament, req, by="organiser")
        token = self._mint(who.tournament, [("player", added.player)])[0]
        return msgspec.structs.replace(added, token=token)

    def change_player(self, who: Entrant, player: str, req: PlayerChange) -> Recorded:
        self.organiser(who, "drop, reinstate or rename players")
        return self.local.change_player(who.tournament, player, req, by="organiser")

    def pair(self, who: Entrant, req: PairRequest) -> PairedRound:
        self.organiser(who, "pair a round")
        return self.local.pair(who.tournament, req, by="organiser")

    def close(self, who: Entrant, reason: str) -> Recorded:
        self.organiser(who, "close a round")
        return self.local.close(who.tournament, reason, by="organiser")

    def result(self, who: Entrant, req: ResultRequest) -> ResultAnswer:
        self.organiser(who, "record results")
        return self.local.result(who.tournament, req, by="organiser")

    def report(self, who: Entrant, round_: int, table: int, req: ReportRequest) -> ReportAnswer:
        """A seat's report of its table's result: a player's token reports for that player's own seat only
        (the organiser's records the result instead: ``/results``, which wins over every report)."""
        if who.role != "player" or who.player is None:
            raise Forbidden.said(AuthCode.FORBIDDEN, N_("only a seat's own player token reports its result (this token "
                                                        "is the {role}'s; the organiser records a table's result with "
                                                        "/results, which settles the seats' reports)")
                                 if who.role == "organiser" else
                                 N_("only a seat's own player token reports its result (this token is the {role}'s)"),
                                 role=who.role)
        if req.seat.strip() and req.seat.strip() != who.player:
            raise Forbidden.said(AuthCode.FORBIDDEN, N_("this token is {player}'s: it reports for {player}'s seat, not {seat}'s"),
                                 player=who.player, seat=req.seat.strip())
        state = self.service.load(who.tournament)
        t = state.table(round_, table)
        if t is not None and who.player not in t.seats:
            raise Forbidden.said(AuthCode.FORBIDDEN, N_("{player} is not seated at round {round} table {table} ({items}): a player reports their own table's result only"),
                                 player=who.player, round=round_, table=table, items=', '.join(t.seats))
        return self.local.report(who.tournament, round_, table, msgspec.structs.replace(req, seat=who.player),
                                 by=who.player)

    def tiebreaks(self, who: Entrant, names: Sequence[str], reason: str) -> Recorded:
        self.organiser(who, "change the tie-breaks")
        return self.local.tiebreaks(who.tournament, names, reason, by="organiser")

    def withdraw(self, who: Entrant, req: WithdrawRequest) -> Recorded:
        self.organiser(who, "withdraw a pairing")
        return self.local.withdraw(who.tournament, req, by="organiser")

    def half_bye(self, who: Entrant, req: HalfByeRequest) -> Recorded:
        self.organiser(who, "grant a half-point bye")
        return self.local.half_bye(who.tournament, req, by="organiser")

    def upload(self, who: Entrant, round_: int, table: int, req: TranscriptUpload) -> TableImported:
        """A table's transcript, adjudicated and attached as its match (:mod:`.attach`); ``check``: nothing
        written. A card set is one bundled with the game: the server never reads a file a client names."""
        from .attach import Where, attach_text

        self.organiser(who, "upload a table's transcript")
        given = Where(who.tournament, round_, table, f"the upload's table (round {round_} table {table})")
        done = attach_text(self.service, req.text, table=given, source="transcript", check=req.check,
                           by="organiser", why=req.reason)
        assert done is not None  # (a table given is always attached to or refused)
        return done

    def clock(self, who: Entrant, req: ClockRequest) -> HallClock:
        """Start, stop or resume the round clock (:mod:`.clock`); answers it as the pages show it."""
        from . import clock

        self.organiser(who, "start, stop or resume the round clock")
        if req.action == "start":
            if req.minutes is None:
                raise BadInput.said(TournamentCode.BAD_CLOCK, N_('starting the clock needs the round\'s time: "minutes": 50'))
            state = clock.start(self.service, who.tournament, req.minutes, by="organiser", why=req.reason)
        elif req.minutes is not None:
            raise BadInput.said(TournamentCode.BAD_CLOCK, N_('"minutes" goes with "start" only, not "{action}"'),
                                action=req.action)
        elif req.action == "stop":
            state = clock.stop(self.service, who.tournament, by="organiser", why=req.reason)
        else:
            state = clock.resume(self.service, who.tournament, by="organiser", why=req.reason)
        shown = clock.shown(state, self.service.clock())
        assert shown is not None  # (a clock was just started, stopped or resumed)
        return shown

    def clock_shown(self, who: Entrant) -> HallClock | None:
        """The round clock, read with any of the tournament's tokens (every page shows it)."""
        from .clock import shown

        return shown(self.service.load(who.tournament), self.service.clock())

    # -- reads ------------------------------------------------------------------------------------------

    def show(self, who: Entrant) -> TournamentShown:
        return self.local.show(who.tournament, you=You(role=who.role, player=who.player))

    def pairings(self, who: Entrant, round_: int | None) -> Pairings:
        """Every round's tables (or one round's); a player's token sees the player's own tables and byes."""
        return self.local.pairings(who.tournament, round_, player=who.player if who.role == "player" else None,
                                   public=who.role == "spectator")

    def standings(self, who: Entrant, after_round: int | None, as_of: int | None,
                  explain: str | None) -> StandingsAnswer | Explained:
        if explain is not None:
            return self.local.explain(who.tournament, explain, after_round=after_round, as_of=as_of)
        return self.local.standings(who.tournament, after_round=after_round, as_of=as_of)

    def export(self, who: Entrant, fmt_: str, after_round: int | None = None, hall: str | None = None) -> str:
        """The standings and the tables; a player's token, like its :meth:`pairings`, the player's own
        tables and byes only; ``hall``: the address serving them (the HTML links each match there)."""
        return self.local.export(who.tournament, fmt_, after_round=after_round,
                                 player=who.player if who.role == "player" else None, hall=hall)

    def audit(self, who: Entrant, expect_head: str | None = None) -> AuditResult:
        self.organiser(who, "audit the tournament")
        return self.local.audit(who.tournament, expect_head=expect_head)

    def log(self, who: Entrant) -> list[RecordRow]:
        self.organiser(who, "read the tournament's records")
        return self.local.log(who.tournament)

    def table_principal(self, who: Entrant, match_id: str) -> Principal:
        """How the holder of a tournament token reads a table's match (the hall's live step-through view):
        the organiser as the match's arbiter (it was given the arbiter's tokens when the round was paired),
        a player at that table as their own seat, anyone else (the spectators' token, a player at another
        table) as a spectator, who sees the public view only. Read only here; a player's principal at their
        own table is also their seat on the match's routes (:func:`referee.seat.tournament_seat`), which
        write as that seat."""
        state = self.service.load(who.tournament)
        found = [t for rnd in state.rounds for t in rnd.tables if t.match_id is not None
                 and (t.match_id == match_id or (len(match_id) >= 4 and t.match_id.startswith(match_id)))]
        if len(found) != 1:
            from ..errors import NotFound

            raise NotFound.said(TournamentCode.NO_SUCH_TABLE,
                                N_("no table of tournament {id} plays match {match_id!r} (the id starts more than one: "
                                   "type more of it)") if found else
                                N_("no table of tournament {id} plays match {match_id!r}"), id=state.id, match_id=match_id)
        table = found[0]
        mid = table.match_id or ""
        if who.role == "organiser":
            return Principal(match_id=mid, role="arbiter")
        if who.role == "player" and who.player in table.seats:
            return Principal(match_id=mid, role="seat", seat=who.player)
        return Principal(match_id=mid, role="spectator")

    def table_head(self, p: Principal) -> tuple[int, int]:
        """What the live view follows: the match's last entry and how many annotations ``p`` may read."""
        from ..redaction import sees

        role = None if p.role == "arbiter" else p.name
        notes = sum(1 for a in self.store.annotations(p.match_id) if sees(a.audience, role))
        return int(self.store.head(p.match_id)), notes


def acting_arbiter(referee: Referee, authorization: str | None, match_id: str) -> Principal | None:
    """How the organiser's tournament token acts on a table's match through the matches' own routes
    (``/matches/{id}/rulings``, ``/annotations``, ``/undo``... : the arbiter's console): as that match's
    arbiter, as it reads it in the hall (:meth:`TournamentAccess.table_principal`). None if the token is no
    tournament's, or a player's (the caller's seat, or its refusal, stands); the spectators' token, a revoked
    one, or a match that is no table of the organiser's tournament is refused."""
    access = TournamentAccess(referee)
    token = bearer(authorization, Said(N_("send the match's token as 'Authorization: Bearer <token>'")))
    row = access.store.find_tournament_token(hash_token(token))
    if row is None:
        return None
    who = access.authenticate(authorization, row.tournament_id)
    if who.role == "player":
        return None  # a player's token plays its own seat (:func:`referee.seat.tournament_seat`), never as arbiter
    if who.role != "organiser":
        raise Forbidden.said(AuthCode.FORBIDDEN, N_("a tournament's {role} token does not act on its matches: only the organiser's, as the arbiter of the tournament's tables"),
                             role=who.role)
    from ..errors import NotFound

    try:
        return access.table_principal(who, match_id)
    except NotFound:
        raise Forbidden.said(AuthCode.OTHER_MATCH, N_("match {match_id!r} is no table of tournament {tournament}: the organiser's token acts as the arbiter of that tournament's tables only"),
                             match_id=match_id, tournament=who.tournament) from None
