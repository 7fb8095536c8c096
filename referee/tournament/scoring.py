"""From a table's result to each player's game: match points, who they beat, their game points.

One rule for every kind of outcome (:class:`schemas.Outcome`): each seat gets a *place* at its table
(winners first; a draw, a shared place or a team's common fate puts seats level), and from the places

* ``share`` against each opponent: 1 placed above them, 1/2 level, 0 below (Sonneborn-Berger and
  head-to-head read these);
* ``game_points``: the mean of the shares (1, 1/2 or 0 in a two-seat game; 2/3 for 2nd of 4);
* a co-operative table (``team_win``, ``team_loss``: every seat on one team against the game) has no
  opponents: teammates are not opponents for any tie-break, and each member's game point is the team's
  (1 a win, 0 a loss);
* ``points``: the tournament's match points. Two seats, or a win, draw or team outcome at any table:
  ``win`` to the winners (the whole team on a team's win), ``loss`` to the others (everyone on a team's
  loss), ``draw`` to everyone on a draw. A ranking at a pod table: the points of the place
  (``Points.places``, or ``n - place`` at ``n`` seats), seats level sharing those of the places they
  cover;
* ``possible``: what the best result would have given (match-win percentages divide by it).

Exact fractions throughout: a tie-break never depends on rounding.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from schemas import Outcome

from .events import Points


@dataclass(frozen=True)
class Game:
    """One player's game in one round (or a bye: no table, no opponents)."""

    round: int
    player: str
    table: int | None
    match_id: str | None
    opponents: tuple[str, ...]
    points: Fraction
    possible: Fraction
    #: against each opponent: 1 placed above, 1/2 level, 0 below
    share: tuple[tuple[str, Fraction], ...]
    game_points: Fraction
    #: the outcome's score for the player (victory points...), where it carries one
    score: int | None
    #: 0 for the first seat
    seat: int
    #: where the result came from: log, arbiter, correction (or bye)
    source: str = "log"
    #: a result by forfeit: its points count, but the game was not played (no opponent for tie-breaks)
    forfeit: bool = False

    @property
    def bye(self) -> bool:
        return self.table is None

    @property
    def played(self) -> bool:
        """A game played at a table (not a bye, not a forfeit): the games tie-breaks read opponents from."""
        return self.table is not None and not self.forfeit

    def against(self, opponent: str) -> Fraction:
        return dict(self.share).get(opponent, Fraction(0))


def places(outcome: Outcome, seats: tuple[str, ...]) -> dict[str, int]:
    """Each seat's place (0 = first); seats level share a place. Seats the outcome does not name come
    last, level."""
    kind = outcome.how
    if kind in ("draw", "team_win", "team_loss"):
        return {s: 0 for s in seats}
    if kind == "ranking":
        out: dict[str, int] = {}
        place = 0
        for tied in outcome.ranking:
            for s in tied:
                if s in seats:
                    out[s] = place
            place += len(tied)
        return {s: out.get(s, place) for s in seats}
    winners = set(outcome.winners)
    return {s: 0 if s in winners else 1 for s in seats}


def table_games(round_: int, table: int, match_id: str | None, seats: tuple[str, ...], outcome: Outcome,
                points: Points, source: str = "log", *, forfeit: bool = False) -> list[Game]:
    """The games of every seat at a table with this outcome (``forfeit``: not played: the winners get a
    win's points and a won game, everyone else a loss's, and nobody an opponent or a share)."""
    if forfeit:
        winners = set(outcome.winners)
        return [Game(round=round_, player=seat, table=table, match_id=match_id, opponents=tuple(s for s in seats if s != seat),
                     points=points.of(points.win if seat in winners else points.loss), possible=points.of(points.win),
                     share=(), game_points=Fraction(1 if seat in winners else 0), score=(outcome.scores or {}).get(seat),
                     seat=i, source=source, forfeit=True)
                for i, seat in enumerate(seats)]
    place = places(outcome, seats)
    n = len(seats)
    kind = outcome.how
    everyone_level = len(set(place.values())) == 1
    ranked = kind == "ranking" and n > 2
    if ranked:
        table_points = _place_points(points, n)
        possible = points.of(table_points[0])
    else:
        possible = points.of(points.win)
    games = []
    together = kind in ("team_win", "team_loss")  # one team against the game: teammates, not opponents
    for i, seat in enumerate(seats):
        others = () if together else tuple(s for s in seats if s != seat)
        share = tuple((o, Fraction(1) if place[seat] < place[o] else Fraction(1, 2) if place[seat] == place[o]
                       else Fraction(0)) for o in others)
        if kind == "team_win":
            pts = points.of(points.win)
        elif kind == "team_loss":
            pts = points.of(points.loss)
        elif ranked:
            level = [p for p in seats if place[p] == place[seat]]
            covered = table_points[place[seat]:place[seat] + len(level)]
            pts = Fraction(sum(covered), len(covered) * points.unit)
        elif everyone_level:
            pts = points.of(points.draw)
        else:
            pts = points.of(points.win if place[seat] == 0 else points.loss)
        if together:
            gp = Fraction(1 if kind == "team_win" else 0)  # the team's game against the game itself
        else:
            gp = sum((v for _, v in share), Fraction(0)) / len(share) if share else Fraction(0)
        score = (outcome.scores or {}).get(seat)
        games.append(Game(round=round_, player=seat, table=table, match_id=match_id, opponents=others, points=pts,
                          possible=possible, share=share, game_points=gp, score=score, seat=i, source=source))
    return games


def bye_game(round_: int, player: str, points: Points) -> Game:
    """A bye: ``Points.bye`` match points, counted as a won game for the player's own percentages, and
    no opponent (it adds nothing to anyone's opponents' tie-breaks)."""
    return Game(round=round_, player=player, table=None, match_id=None, opponents=(), points=points.of(points.bye),
                possible=points.of(max(points.win, points.bye)), share=(), game_points=Fraction(1), score=None, seat=0,
                source="bye")


def half_bye_game(round_: int, player: str, points: Points) -> Game:
    """A half-point bye granted on request: ``Points.half_bye`` match points (a draw's by default), half a
    game point, and no opponent."""
    return Game(round=round_, player=player, table=None, match_id=None, opponents=(),
                points=points.of(points.half_bye), possible=points.of(max(points.win, points.half_bye)), share=(),
                game_points=Fraction(1, 2), score=None, seat=0, source="half-bye")


def _place_points(points: Points, n: int) -> list[int]:
    if points.places:
        given = list(points.places[:n])
        return given + [0] * (n - len(given))
    return [n - 1 - k for k in range(n)]
