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
from typing import Any

import msgspec

from schemas.tournament import (
    AddPlayer,
    CreateTournament,
    PlayerAdded,
    PlayerChange,
    ResultRequest,
    TournamentCreated,
    TournamentTokens,
)

from ..access import Forbidden, Principal, Unauthorized, hash_token
from ..errors import StorageError
from ..service import Referee
from ..store import StoredTournamentToken, StoreError
from .service import Tournaments, parse_places, parse_points

ROLES = ("organiser", "spectator", "player")


@dataclass(frozen=True)
class Entrant:
    """The holder of a tournament token."""

    tournament: str
    role: str
    player: str | None = None


class TournamentAccess:
    def __init__(self, referee: Referee) -> None:
        self.service = Tournaments(referee)
        self.store = referee.store

    def _mint(self, tournament: str, roles: Sequence[tuple[str, str | None]]) -> list[str]:
        tokens = [secrets.token_urlsafe(24) for _ in roles]
        rows = [StoredTournamentToken(token_hash=hash_token(t), tournament_id=tournament, role=role, player=player)
                for t, (role, player) in zip(tokens, roles)]
        try:
            self.store.add_tournament_tokens(rows)
        except StoreError as exc:
            raise StorageError("store/failed", f"could not record the tournament's tokens: {exc}") from None
        return tokens

    def authenticate(self, authorization: str | None, tournament_id: str) -> Entrant:
        if not authorization:
            raise Unauthorized("auth/missing", "send the tournament's token as 'Authorization: Bearer <token>' "
                               "(tokens are given when the tournament is created and players are added)")
        scheme, _, token = authorization.strip().partition(" ")
        if scheme.lower() != "bearer" or not token.strip():
            raise Unauthorized("auth/malformed", "the Authorization header must be 'Bearer <token>'")
        row = self.store.find_tournament_token(hash_token(token.strip()))
        if row is None:
            raise Unauthorized("auth/unknown_token", "this token is not a token of any tournament on this server")
        if tournament_id != row.tournament_id and not (len(tournament_id) >= 4 and row.tournament_id.startswith(tournament_id)):
            raise Forbidden("auth/other_tournament", "this token belongs to another tournament")
        return Entrant(tournament=row.tournament_id, role=row.role, player=row.player)

    @staticmethod
    def organiser(who: Entrant, what: str) -> None:
        if who.role != "organiser":
            raise Forbidden("auth/forbidden", f"only the organiser may {what} (this token is a {who.role}'s)")

    # -- writes (the organiser) -----------------------------------------------------------------------

    def create(self, req: CreateTournament) -> TournamentCreated:
        points = parse_points(",".join(f"{k}={v}" for k, v in req.points.items()))
        if req.places:
            points = msgspec.structs.replace(points, places=parse_places(",".join(str(p) for p in req.places)))
        state = self.service.create(
            req.name, req.game, format=req.format, rounds=req.rounds, tiebreaks=req.tiebreaks, points=points,
            seed=req.seed, table_size=req.table_size, options=req.options, cards=req.cards, chance=req.chance,
            players=req.players, by="organiser")
        players = list(state.players)
        tokens = self._mint(state.id, [("organiser", None), ("spectator", None), *[("player", p) for p in players]])
        return TournamentCreated(tournament=state.id, name=state.config.name, tokens=TournamentTokens(
            organiser=tokens[0], spectator=tokens[1], players=dict(zip(players, tokens[2:]))))

    def add_player(self, who: Entrant, req: AddPlayer) -> PlayerAdded:
        self.organiser(who, "register players")
        state = self.service.add_player(who.tournament, req.player, display=req.name, by="organiser", why=req.reason)
        token = self._mint(state.id, [("player", req.player.strip())])[0]
        return PlayerAdded(player=req.player.strip(), token=token, entered=state.players[req.player.strip()].entered)

    def change_player(self, who: Entrant, player: str, req: PlayerChange) -> dict[str, Any]:
        self.organiser(who, "drop, reinstate or rename players")
        state = None
        if req.drop is True:
            state = self.service.drop(who.tournament, player, by="organiser", why=req.reason)
        elif req.drop is False:
            state = self.service.undrop(who.tournament, player, by="organiser", why=req.reason)
        if req.name is not None:
            state = self.service.rename(who.tournament, player, req.name, by="organiser", why=req.reason)
        if state is None:
            from ..errors import BadInput

            raise BadInput("tournament/nothing_to_change", "send drop (true or false) or name")
        p = state.players[player]
        return {"player": p.id, "name": p.display, "dropped": p.dropped, "records": state.n}

    def pair(self, who: Entrant, dry_run: bool, reason: str) -> dict[str, Any]:
        self.organiser(who, "pair a round")
        paired = self.service.pair(who.tournament, by="organiser", why=reason, dry_run=dry_run)
        return {"tournament": paired.tournament, "round": paired.round, "dry_run": paired.dry_run,
                "tables": [{"table": t.table, "seats": list(t.seats), "match_id": t.match_id, "tokens": t.tokens}
                           for t in paired.tables], "byes": paired.byes}

    def close(self, who: Entrant, reason: str) -> dict[str, Any]:
        self.organiser(who, "close a round")
        state = self.service.close_round(who.tournament, by="organiser", why=reason)
        return {"tournament": state.id, "round": state.current, "records": state.n}

    def result(self, who: Entrant, req: ResultRequest) -> dict[str, Any]:
        self.organiser(who, "record results")
        state, before, after = self.service.record_result(
            who.tournament, req.round, req.table, req.result, scores=req.scores, correct=req.correct,
            by="organiser", why=req.reason)
        was = {r.player: r.rank for r in before.rows}
        return {"tournament": state.id, "records": state.n,
                "changed": [{"player": r.player, "rank_before": was.get(r.player), "rank_after": r.rank}
                            for r in after.rows if was.get(r.player) != r.rank],
                "standings": standings_json(after)}

    def tiebreaks(self, who: Entrant, names: Sequence[str], reason: str) -> dict[str, Any]:
        self.organiser(who, "change the tie-breaks")
        state = self.service.set_tiebreaks(who.tournament, names, by="organiser", why=reason)
        return {"tournament": state.id, "tiebreaks": list(state.tiebreaks), "records": state.n}

    # -- reads ------------------------------------------------------------------------------------------

    def show(self, who: Entrant) -> dict[str, Any]:
        state = self.service.load(who.tournament)
        cfg = state.config
        return {"tournament": state.id, "name": cfg.name, "game": cfg.game, "format": cfg.format,
                "rounds": cfg.rounds, "round": state.current, "tiebreaks": list(state.tiebreaks), "records": state.n,
                "players": [{"player": p.id, "name": p.display, "dropped": p.dropped} for p in state.players.values()],
                "you": {"role": who.role, "player": who.player}}

    def pairings(self, who: Entrant, round_: int | None) -> dict[str, Any]:
        """Every round's tables (or one round's); a player's token sees the player's own tables and byes."""
        from ..outcome import words

        state = self.service.load(who.tournament)
        live, _, blocks = self.service.live(state)
        out = []
        for rnd in state.rounds:
            if round_ is not None and rnd.number != round_:
                continue
            tables = []
            for t in rnd.tables:
                if who.role == "player" and who.player not in t.seats:
                    continue
                res = state.results.get((rnd.number, t.table))
                outcome = res.outcome if res else live.get((rnd.number, t.table))
                tables.append({"table": t.table, "seats": list(t.seats), "match_id": t.match_id,
                               "result": words(outcome) if outcome is not None else None})
            byes = [b for b in rnd.byes if who.role != "player" or b == who.player]
            out.append({"round": rnd.number, "closed": rnd.closed, "tables": tables, "byes": byes})
        shown_blocks = [] if who.role == "player" else [
            {"round": b.round, "table": b.table, "match_id": b.match_id, "why": b.why} for b in blocks]
        return {"tournament": state.id, "rounds": out, "blocks": shown_blocks}

    def standings(self, who: Entrant, after_round: int | None, as_of: int | None, explain: str | None) -> dict[str, Any]:
        from .tiebreaks import fmt

        if explain is not None:
            e = self.service.explain(who.tournament, explain, after_round=after_round, as_of=as_of)
            return {"player": e.player, "name": e.name, "after_round": e.after_round, "rank": e.rank,
                    "values": [{"tiebreak": n, "value": fmt(v), "exact": f"{v.numerator}/{v.denominator}",
                                "workings": lines} for n, v, lines in e.values], "corrections": e.corrections}
        return standings_json(self.service.standings(who.tournament, after_round=after_round, as_of=as_of))

    def export(self, who: Entrant, fmt_: str) -> str:
        return self.service.export(who.tournament, fmt_)

    def table_principal(self, who: Entrant, match_id: str) -> Principal:
        """How the holder of a tournament token reads a table's match (the hall's live step-through view):
        the organiser as the match's arbiter (it was given the arbiter's tokens when the round was paired),
        a player at that table as their own seat, anyone else (the spectators' token, a player at another
        table) as a spectator, who sees the public view only. Read only: no write takes this principal."""
        state = self.service.load(who.tournament)
        found = [t for rnd in state.rounds for t in rnd.tables if t.match_id is not None
                 and (t.match_id == match_id or (len(match_id) >= 4 and t.match_id.startswith(match_id)))]
        if len(found) != 1:
            from ..errors import NotFound

            raise NotFound("tournament/no_such_table", f"no table of tournament {state.id} plays match {match_id!r}"
                           + (" (the id starts more than one: type more of it)" if found else ""))
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

    def audit(self, who: Entrant) -> dict[str, Any]:
        self.organiser(who, "audit the tournament")
        findings = self.service.audit(who.tournament)
        return {"clean": not findings, "findings": findings}


def standings_json(table: Any) -> dict[str, Any]:
    from .tiebreaks import fmt

    return {
        "tournament": table.tournament, "after_round": table.after_round, "tiebreaks": list(table.tiebreaks),
        "rows": [{"rank": r.rank, "player": r.player, "name": r.name, "played": r.played, "dropped": r.dropped,
                  "values": {n: fmt(v) for n, v in zip(table.tiebreaks, r.values)}} for r in table.rows],
        "pending": [{"round": a, "table": b} for a, b in table.pending],
    }



