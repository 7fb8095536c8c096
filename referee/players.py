"""A player's history (issue 25, item 6): the events they played in, each match they sat at (its
opponents, result and last activity), their wins, draws and losses per game with the share won, and
their rating after each rated match. ``referee player NAME`` prints it; the hall's player page
(:mod:`referee.playerpage`) draws it.

Everything is read from the matches' summaries (:mod:`referee.summaries`): no match is bound or
folded. A player is a seat name, as for the ratings; forks are left out (a variation is not a game
that was played). A result is the player's place in the outcome: first (alone or shared with some, not
all) is a win, everyone level a draw, below first a loss; a co-operative table's win or loss is each
member's. The rating is :mod:`referee.ratings`' fold over the same summaries, so its last point is the
number ``referee ratings`` prints.
"""

from __future__ import annotations

from collections.abc import Sequence

from schemas import Outcome
from schemas.players import EventPlayed, GameRecord, PlayedMatch, PlayerHistory, RatingPoint

from .errors import NotFound
from .i18n import N_
from .service import Referee
from .store import MatchSummary

MODEL = "plackett-luce"


def result_of(outcome: Outcome | None, seats: Sequence[str], player: str) -> str:
    """win, draw, loss (or playing, without an outcome) for ``player`` at a table of ``seats``."""
    from .tournament.scoring import places

    if outcome is None:
        return "playing"
    if outcome.how == "team_win":
        return "win"
    if outcome.how == "team_loss":
        return "loss"
    place = places(outcome, tuple(seats))
    if len(set(place.values())) <= 1:
        return "draw"
    return "win" if place.get(player, 1) == 0 else "loss"


def _score(outcome: Outcome | None, player: str) -> int | None:
    if outcome is None:
        return None
    return outcome.scores.get(player) if outcome.scores else None


def history(summaries: Sequence[MatchSummary], player: str, *, game: str | None = None) -> PlayerHistory:
    """``player``'s history over ``summaries`` (in creation order; ``game``'s only, if given). An unknown
    player is :class:`~referee.errors.NotFound`, with the closest names seated in them."""
    from .engine.speech import Said
    from .engine.suggest import hint
    from .ratings import model_of, steps
    from .summaries import outcome as outcome_of

    kept = [s for s in summaries if s.parent is None and (game is None or s.game == game)]
    mine = [s for s in kept if player in s.seats]
    if not mine:
        known = sorted({seat for s in kept for seat in s.seats})
        said = N_("no player {player} sat in a match of {game}{hint}") if game else N_("no player {player} sat in "
                                                                                      "any match{hint}")
        raise NotFound.said("player/unknown", said, player=repr(player), game=game,
                            hint=hint(player, known) if known else Said(N_(" (there are no matches yet)")))
    matches: list[PlayedMatch] = []
    records: dict[str, list[int]] = {}
    events: dict[str, int] = {}
    for s in mine:
        outcome = outcome_of(s)
        result = result_of(outcome, s.seats, player)
        others = [o for o in s.seats if o != player]
        team = outcome is not None and outcome.how in ("team_win", "team_loss")
        matches.append(PlayedMatch(match_id=s.match_id, game=s.game, opponents=[] if team else others,
                                   partners=others if team else [], result=result, score=_score(outcome, player), event=s.event, round=s.round,
                                   table=s.table, last_activity=s.last_activity))
        if s.event:
            events[s.event] = events.get(s.event, 0) + 1
        if result != "playing":
            tally = records.setdefault(s.game, [0, 0, 0])
            tally[("win", "draw", "loss").index(result)] += 1
    games = [GameRecord(game=g, played=sum(t), wins=t[0], draws=t[1], losses=t[2], win_rate=round(t[0] / sum(t), 4))
             for g, t in sorted(records.items())]
    rating = [RatingPoint(match_id=s.match_id, date=s.last_activity, ordinal=round(after[player].ordinal(), 4),
                          mu=round(after[player].mu, 4), sigma=round(after[player].sigma, 4))
              for s, after in steps(kept, model_of(MODEL)) if player in after]
    return PlayerHistory(player=player, game=game, events=[EventPlayed(name=n, matches=c) for n, c in events.items()],
                         matches=matches, games=games, rating=rating, model=MODEL)


def of_database(referee: Referee, player: str, *, game: str | None = None) -> PlayerHistory:
    """``player``'s history over every match of the referee's database (``referee player``)."""
    from .summaries import listing

    if game is not None:
        game = referee.game(game).id
    return history(listing(referee, []), player, game=game)


def of_tournament(referee: Referee, tournament_id: str, player: str) -> PlayerHistory:
    """``player``'s history over one tournament's tables (the matches its hall shows; withdrawn pairings
    and matches set aside left out), rated over those matches alone: the hall's player page reads
    nothing of the server's other matches. A player not entered is :class:`~referee.errors.NotFound`."""
    from .engine.suggest import hint
    from .summaries import summary_for
    from .tournament.service import Tournaments

    state = Tournaments(referee).load(tournament_id)
    if player not in state.players:
        raise NotFound.said("player/unknown", N_("tournament {tournament} has no player {player}{hint}"),
                            tournament=state.id, player=repr(player), hint=hint(player, sorted(state.players)))
    ids = [t.match_id for rnd in state.rounds for t in rnd.tables
           if t.match_id is not None and (rnd.number, t.table) not in state.withdrawn]
    found = sorted((summary_for(referee, mid) for mid in ids), key=lambda s: (s.created_at, s.match_id))
    if not any(player in s.seats for s in found):
        return PlayerHistory(player=player, game=None, events=[], matches=[], games=[], rating=[], model=MODEL)
    return history(found, player)
