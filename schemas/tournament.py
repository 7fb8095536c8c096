"""Wire contracts of the tournament routes (``/tournaments``): request bodies and token answers.

Answers that are read (a tournament shown, standings, pairings) are JSON objects documented with the
routes; what a client sends is checked here, field by field, before the service sees it.
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from . import NAME_MAX, SEED_MAX, TEXT_MAX, TITLE_MAX

Name = Annotated[str, msgspec.Meta(min_length=1, max_length=NAME_MAX)]
Title = Annotated[str, msgspec.Meta(max_length=TITLE_MAX)]
Reason = Annotated[str, msgspec.Meta(max_length=TEXT_MAX)]
Small = Annotated[int, msgspec.Meta(ge=0, le=1000)]
Number = Annotated[int, msgspec.Meta(ge=1, le=100_000)]


class CreateTournament(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A new tournament (``referee tournament new``'s options). ``points`` names any of win, draw,
    loss and bye; ``places`` the points of 1st, 2nd, ... at a pod table."""

    name: Annotated[str, msgspec.Meta(min_length=1, max_length=TITLE_MAX)]
    game: Name
    format: Literal["swiss", "round-robin", "pods"] = "swiss"
    rounds: Annotated[int, msgspec.Meta(ge=1, le=100)] | None = None
    tiebreaks: Annotated[list[Name], msgspec.Meta(min_length=1, max_length=20)] | None = None
    points: dict[Literal["win", "draw", "loss", "bye"], Small] = {}
    places: Annotated[list[Small], msgspec.Meta(max_length=16)] = []
    table_size: Annotated[int, msgspec.Meta(ge=2, le=16)] | None = None
    seed: Annotated[int, msgspec.Meta(ge=0, le=SEED_MAX)] | None = None
    options: dict[Name, Annotated[str, msgspec.Meta(max_length=TEXT_MAX)]] = {}
    cards: Name | None = None
    chance: Literal["physical", "digital"] = "physical"
    players: Annotated[list[Name], msgspec.Meta(max_length=4096)] = []


class TournamentTokens(msgspec.Struct, frozen=True, kw_only=True):
    """The tournament's secrets, shown once: the organiser's (every write), the spectators' (standings
    and pairings) and one per player (their own pairings and the standings). The server keeps only
    their sha256 hashes."""

    organiser: str
    spectator: str
    players: dict[str, str] = {}


class TournamentCreated(msgspec.Struct, frozen=True, kw_only=True):
    tournament: str
    name: str
    tokens: TournamentTokens


class AddPlayer(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    player: Name
    name: Title = ""
    reason: Reason = ""


class PlayerAdded(msgspec.Struct, frozen=True, kw_only=True):
    """A registered player and their token (shown once)."""

    player: str
    token: str
    entered: int


class PlayerChange(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A drop, a reinstatement (``drop``: false) or a new display name, with the reason."""

    drop: bool | None = None
    name: Title | None = None
    reason: Reason = ""


class PairRequest(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    dry_run: bool = False
    reason: Reason = ""


class CloseRequest(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    reason: Reason = ""


class ResultRequest(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """An arbiter's result (``win:PLAYER``, ``draw``, ``rank:A>B=C``, ``team-win``, ``team-loss``) or,
    with ``correct``, a correction (``reason`` required)."""

    round: Number
    table: Number
    result: Title
    scores: dict[Name, Annotated[int, msgspec.Meta(ge=-(10**12), le=10**12)]] | None = None
    correct: bool = False
    reason: Reason = ""


class TiebreaksRequest(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    tiebreaks: Annotated[list[Name], msgspec.Meta(min_length=1, max_length=20)]
    reason: Reason = ""
