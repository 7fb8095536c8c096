"""Player ratings across events, from every finished match in the database (issue 14, item 6).

Only finished matches count, rated or skipped (a fork that ended, a co-operative end, one seat, and
matches the referee cannot read): a match still being played is neither rated nor counted. Over HTTP
(``GET /ratings``) they are the server's admin token's to read, as the list of every match is: they
name the seats of every finished match on the server.

openskill's Weng-Lin model (Plackett-Luce by default) rates games of 2 to 5 seats and rankings with
ties: each finished match is one rating update, its seats ranked by their places in the outcome (a
win puts the winners first and the others level behind; a draw puts everyone level; a ranking is
its own order). Matches are taken in the order they were created (then by id) and forks are left out
(a variation is not a game that was played), so the ratings are reproducible from the logs: the same
database gives the same numbers. Co-operative outcomes (a team's win or loss against the game) rate
nobody against anybody and are counted as skipped. A player is a seat name: the same name in two
matches is the same player (as tournament players are).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Any

from .service import Referee
from .engine.codes import RatingsCode

if TYPE_CHECKING:
    from schemas.tournament import RatingsAnswer

    from .store import MatchSummary

MODELS = ("plackett-luce", "bradley-terry-full", "bradley-terry-part", "thurstone-mosteller-full",
          "thurstone-mosteller-part")


@dataclass
class PlayerRating:
    player: str
    mu: float
    sigma: float
    #: the conservative estimate mu - 3 sigma, by which players are ordered
    ordinal: float
    matches: int


@dataclass
class Ratings:
    model: str
    players: list[PlayerRating]
    rated: int
    skipped: dict[str, int] = field(default_factory=dict)


def model_of(name: str) -> Any:
    from openskill import models

    classes = {
        "plackett-luce": models.PlackettLuce, "bradley-terry-full": models.BradleyTerryFull,
        "bradley-terry-part": models.BradleyTerryPart, "thurstone-mosteller-full": models.ThurstoneMostellerFull,
        "thurstone-mosteller-part": models.ThurstoneMostellerPart,
    }
    return classes[name]()


def ratings(referee: Referee, *, game: str | None = None, model: str = "plackett-luce") -> Ratings:
    """Every player's rating after every finished match (of ``game``, if given)."""
    from .errors import BadInput
    from .i18n import N_

    if model not in MODELS:
        raise BadInput.said(RatingsCode.BAD_MODEL, N_("--model must be one of {models}, not {model}"),
                            models=", ".join(MODELS), model=repr(model))
    if game is not None:
        game = referee.game(game).id
    played: dict[str, int] = {}
    skipped: dict[str, int] = {}
    rated = 0
    current: dict[str, Any] = {}
    from .summaries import listing

    unreadable: list[str] = []
    listed = listing(referee, unreadable)  # each match's summary: no match is bound or folded
    if unreadable:
        skipped["unreadable"] = len(unreadable)
    for _, updated in steps(listed, model_of(model), game=game, skipped=skipped):
        for s, r in updated.items():
            current[s] = r
            played[s] = played.get(s, 0) + 1
        rated += 1
    rows = [PlayerRating(player=p, mu=r.mu, sigma=r.sigma, ordinal=r.ordinal(), matches=played[p])
            for p, r in current.items()]
    rows.sort(key=lambda r: (-r.ordinal, r.player))
    return Ratings(model=model, players=rows, rated=rated, skipped=skipped)


def steps(listed: Iterable[MatchSummary], rater: Any, *, game: str | None = None,
          skipped: dict[str, int] | None = None) -> Iterator[tuple[MatchSummary, dict[str, Any]]]:
    """Each rated match of ``listed`` (summaries in creation order; of ``game``, if given) with its seats'
    ratings after it: the one fold :func:`ratings` and a player's history (:mod:`referee.players`) read.
    Matches not rated are counted by why in ``skipped``."""
    from .summaries import outcome as outcome_of
    from .tournament.scoring import places

    skipped = {} if skipped is None else skipped
    current: dict[str, Any] = {}
    for summary in listed:
        if game is not None and summary.game != game:
            continue
        outcome = outcome_of(summary)
        if outcome is None:  # not a game played (yet): neither rated nor counted
            continue
        if summary.parent is not None:
            skipped["forks"] = skipped.get("forks", 0) + 1
            continue
        if outcome.how in ("team_win", "team_loss"):
            skipped["co-operative"] = skipped.get("co-operative", 0) + 1
            continue
        seats = summary.seats
        if len(seats) < 2:
            skipped["one seat"] = skipped.get("one seat", 0) + 1
            continue
        place = places(outcome, seats)
        teams = [[current.get(s) or rater.rating(name=s)] for s in seats]
        updated = rater.rate(teams, ranks=[place[s] + 1 for s in seats])
        after = {s: team[0] for s, team in zip(seats, updated)}
        current.update(after)
        yield summary, after


def answer(referee: Referee, *, game: str | None = None, model: str = "plackett-luce") -> RatingsAnswer:
    """:func:`ratings` as ``referee ratings --json`` and ``GET /ratings`` give it (4 decimals)."""
    from schemas.tournament import PlayerRating as Row
    from schemas.tournament import RatingsAnswer as Answer

    found = ratings(referee, game=game, model=model)
    return Answer(model=found.model, rated=found.rated, skipped=dict(found.skipped),
                  players=[Row(player=r.player, mu=round(r.mu, 4), sigma=round(r.sigma, 4),
                               ordinal=round(r.ordinal, 4), matches=r.matches) for r in found.players])
