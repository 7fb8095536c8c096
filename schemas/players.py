"""Wire contract of a player's history (``referee player NAME --json`` and the hall's player page):
the events they played in, their matches, their results per game and their rating over time."""

from __future__ import annotations

import msgspec


class PlayedMatch(msgspec.Struct, frozen=True, kw_only=True):
    """One match the player sat at: ``result`` is win, draw, loss or playing (not finished yet). At a
    co-operative table that ended (a team's win or loss against the game) the other seats are
    ``partners``, not ``opponents``."""

    match_id: str
    game: str
    opponents: list[str]
    partners: list[str]
    result: str
    #: the outcome's score for the player, where it carries one
    score: int | None
    event: str
    round: str
    table: str
    #: when its last entry was recorded (its creation before one)
    last_activity: str


class GameRecord(msgspec.Struct, frozen=True, kw_only=True):
    """The player's finished matches of one game: wins, draws, losses and the share won (0..1)."""

    game: str
    played: int
    wins: int
    draws: int
    losses: int
    win_rate: float


class RatingPoint(msgspec.Struct, frozen=True, kw_only=True):
    """The player's rating (openskill's ordinal, mu - 3 sigma) after one rated match."""

    match_id: str
    date: str
    ordinal: float
    mu: float
    sigma: float


class EventPlayed(msgspec.Struct, frozen=True, kw_only=True):
    name: str
    matches: int


class PlayerHistory(msgspec.Struct, frozen=True, kw_only=True):
    """A player's history over the matches read (every match of a database, or one tournament's)."""

    player: str
    game: str | None
    events: list[EventPlayed]
    matches: list[PlayedMatch]
    games: list[GameRecord]
    #: the rating after each rated match, oldest first; the last is the rating now
    rating: list[RatingPoint]
    model: str
