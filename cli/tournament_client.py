"""``referee --server URL --token T tournament ...``: the tournament commands as a client of a referee
server. :class:`RemoteTournaments` implements :class:`referee.tournament.api.TournamentApi` over the
tournament routes (through :class:`cli.client.RemoteReferee`'s transport: the same errors, exit codes and
retries), decoding the answers into the Structs the local commands print, so both modes print alike.

The token is a tournament token: the organiser's writes and reads everything, a player's reads their
own tables and the standings, the spectators' the standings and every table (the server decides).
Writes are recorded by the server as the organiser's; ``by`` is not sent.
"""

from __future__ import annotations

import urllib.parse
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

from referee.i18n import N_
from cli.client import RemoteReferee, decode
from schemas.tournament import (
    AddPlayer,
    AuditResult,
    CreateTournament,
    Explained,
    HalfByeRequest,
    PairedRound,
    Pairings,
    PairRequest,
    PlayerAdded,
    PlayerChange,
    RatingsAnswer,
    RecordRow,
    Recorded,
    ReportAnswer,
    ReportRequest,
    ResultAnswer,
    ResultRequest,
    StandingsAnswer,
    TableImported,
    TiebreaksRequest,
    TournamentCreated,
    TournamentShown,
    TranscriptUpload,
    WithdrawRequest,
)
from cli.codes import ClientCode

T = TypeVar("T")


class RemoteTournaments:
    """The tournaments of a referee server, answering as :class:`referee.tournament.api.LocalTournaments`."""

    def __init__(self, server: str, token: str | None, *, need_token: bool = True) -> None:
        if not token and need_token:
            from referee.errors import BadInput

            raise BadInput.said(ClientCode.NO_TOKEN, N_(
                "client mode needs a tournament token: --token T or REFEREE_TOKEN (the organiser's, the spectators' "
                "or a player's, given when the tournament was created)"))
        self.http = RemoteReferee(server, token, need_token=False)

    def _path(self, tournament: str, rest: str = "") -> str:
        return "/tournaments/" + urllib.parse.quote(tournament, safe="") + rest

    def _post(self, path: str, body: Any, answer: type[T]) -> T:
        return decode(self.http.call("POST", path, body), answer)

    # -- client mode only --------------------------------------------------------------------------------

    def create(self, req: CreateTournament) -> TournamentCreated:
        """POST /tournaments: the new tournament and its tokens (shown once); sends the server's admin token
        (--token), which creating a tournament needs."""
        return self._post("/tournaments", req, TournamentCreated)

    def upload(self, tournament: str, round_: int, table: int, req: TranscriptUpload) -> TableImported:
        """POST /tournaments/{t}/rounds/{r}/tables/{n}/transcript: a table's transcript, attached (organiser)."""
        return self._post(self._path(tournament, f"/rounds/{round_}/tables/{table}/transcript"), req, TableImported)

    def ratings(self, *, game: str | None = None, model: str = "plackett-luce") -> RatingsAnswer:
        return self.http.get("/ratings", RatingsAnswer, {"game": game, "model": model})

    # -- referee.tournament.api.TournamentApi ------------------------------------------------------------

    def show(self, tournament: str) -> TournamentShown:
        return self.http.get(self._path(tournament), TournamentShown)

    def pairings(self, tournament: str, round_: int | None = None) -> Pairings:
        return self.http.get(self._path(tournament, "/pairings"), Pairings, {"round": round_})

    def standings(self, tournament: str, *, after_round: int | None = None, as_of: int | None = None,
                  ) -> StandingsAnswer:
        return self.http.get(self._path(tournament, "/standings"), StandingsAnswer,
                             {"after_round": after_round, "as_of": as_of})

    def explain(self, tournament: str, player: str, *, after_round: int | None = None,
                as_of: int | None = None) -> Explained:
        return self.http.get(self._path(tournament, "/standings"), Explained,
                             {"after_round": after_round, "as_of": as_of, "explain": player})

    def export(self, tournament: str, fmt: str, *, after_round: int | None = None) -> str:
        query: Mapping[str, Any] = {"format": fmt, "after_round": after_round}
        return self.http.call("GET", self._path(tournament, "/export"), query=query).decode("utf-8")

    def log(self, tournament: str) -> list[RecordRow]:
        return self.http.get(self._path(tournament, "/log"), list[RecordRow])

    def audit(self, tournament: str, *, expect_head: str | None = None) -> AuditResult:
        return self.http.get(self._path(tournament, "/audit"), AuditResult, {"expect_head": expect_head})

    def add_player(self, tournament: str, req: AddPlayer, *, by: str = "organiser") -> PlayerAdded:
        return self._post(self._path(tournament, "/players"), req, PlayerAdded)

    def change_player(self, tournament: str, player: str, req: PlayerChange, *, by: str = "organiser",
                      ) -> Recorded:
        path = self._path(tournament, "/players/" + urllib.parse.quote(player, safe=""))
        return self._post(path, req, Recorded)

    def pair(self, tournament: str, req: PairRequest, *, by: str = "organiser") -> PairedRound:
        return self._post(self._path(tournament, "/pair"), req, PairedRound)

    def close(self, tournament: str, reason: str, *, by: str = "organiser") -> Recorded:
        return self._post(self._path(tournament, "/close"), {"reason": reason}, Recorded)

    def result(self, tournament: str, req: ResultRequest, *, by: str = "arbiter") -> ResultAnswer:
        return self._post(self._path(tournament, "/results"), req, ResultAnswer)

    def report(self, tournament: str, round_: int, table: int, req: ReportRequest, *, by: str = "scorekeeper",
               ) -> ReportAnswer:
        """POST /tournaments/{t}/rounds/{r}/tables/{n}/report with a player's token (the server takes the seat
        from the token: another seat's is refused)."""
        return self._post(self._path(tournament, f"/rounds/{round_}/tables/{table}/report"), req, ReportAnswer)

    def tiebreaks(self, tournament: str, names: Sequence[str], reason: str, *, by: str = "organiser",
                  ) -> Recorded:
        body = TiebreaksRequest(tiebreaks=list(names), reason=reason)
        return self._post(self._path(tournament, "/tiebreaks"), body, Recorded)

    def withdraw(self, tournament: str, req: WithdrawRequest, *, by: str = "arbiter") -> Recorded:
        return self._post(self._path(tournament, "/withdrawals"), req, Recorded)

    def half_bye(self, tournament: str, req: HalfByeRequest, *, by: str = "organiser") -> Recorded:
        return self._post(self._path(tournament, "/byes"), req, Recorded)


if TYPE_CHECKING:  # mypy --strict checks that the client answers the protocol the local commands use
    from referee.tournament.api import TournamentApi

    _remote: TournamentApi = RemoteTournaments("http://127.0.0.1:9", "token")
