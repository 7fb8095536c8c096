"""Wire contracts of the tournament routes (``/tournaments``): request bodies and token answers.

Answers that are read (a tournament shown, standings, pairings) are JSON objects documented with the
routes; what a client sends is checked here, field by field, before the service sees it.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

import msgspec

from . import CARDS_TEXT_MAX, NAME_MAX, SEED_MAX, TEXT_MAX, TITLE_MAX, TRANSCRIPT_MAX, ImportSummary, Outcome

Name = Annotated[str, msgspec.Meta(min_length=1, max_length=NAME_MAX)]
Title = Annotated[str, msgspec.Meta(max_length=TITLE_MAX)]
Reason = Annotated[str, msgspec.Meta(max_length=TEXT_MAX)]
Small = Annotated[int, msgspec.Meta(ge=0, le=1000)]
Number = Annotated[int, msgspec.Meta(ge=1, le=100_000)]


class CreateTournament(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A new tournament (``referee tournament new``'s options). ``points`` names any of win, draw,
    loss and bye; ``places`` the points of 1st, 2nd, ... at a pod table. ``cards`` names a card set
    bundled with the game; a card file is sent whole as ``cards_text`` (the server never reads files
    named by a client)."""

    name: Annotated[str, msgspec.Meta(min_length=1, max_length=TITLE_MAX)]
    game: Name
    format: Literal["swiss", "round-robin", "pods"] = "swiss"
    rounds: Annotated[int, msgspec.Meta(ge=1, le=100)] | None = None
    tiebreaks: Annotated[list[Name], msgspec.Meta(min_length=1, max_length=20)] | None = None
    #: whole numbers of ``1/points_unit`` of a point: chess scoring is ``{"win": 2, "draw": 1}`` with
    #: ``"points_unit": 2``
    points: dict[Literal["win", "draw", "loss", "bye", "half"], Small] = {}
    points_unit: Annotated[int, msgspec.Meta(ge=1, le=1000)] = 1
    places: Annotated[list[Small], msgspec.Meta(max_length=16)] = []
    table_size: Annotated[int, msgspec.Meta(ge=2, le=16)] | None = None
    seed: Annotated[int, msgspec.Meta(ge=0, le=SEED_MAX)] | None = None
    options: dict[Name, Annotated[str, msgspec.Meta(max_length=TEXT_MAX)]] = {}
    cards: Name | None = None
    cards_text: Annotated[str, msgspec.Meta(max_length=CARDS_TEXT_MAX)] | None = None
    chance: Literal["physical", "digital"] = "physical"
    players: Annotated[list[Name], msgspec.Meta(max_length=4096)] = []
    #: who may undo in the matches: ``own_last`` (a seat takes back only its own last action, before anyone
    #: else acts), ``any`` seat, or the ``arbiter`` only; a finished match only the arbiter reopens, whatever it says
    undo: Literal["any", "own_last", "arbiter"] = "own_last"
    #: how a round without a game counts in Buchholz and Sonneborn-Berger: ``simple`` (its points, no
    #: opponent) or ``fide`` (C.07: a dummy opponent with the player's own score)
    unplayed: Literal["simple", "fide"] = "simple"
    #: head-to-head among level players who did not all meet: ``partial`` (the games played count) or ``fide``
    #: (they stay level)
    direct_encounter: Literal["partial", "fide"] = "partial"


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
    """A registered player and their token (shown once; None when registered in a local database)."""

    player: str
    entered: int
    token: str | None = None
    records: int = 0


class PlayerChange(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A drop, a reinstatement (``drop``: false) or a new display name, with the reason."""

    drop: bool | None = None
    name: Title | None = None
    reason: Reason = ""


class PairRequest(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    dry_run: bool = False
    reason: Reason = ""
    #: mint the matches' tokens for the HTTP service (answered once)
    tokens: bool = True
    #: the organiser's pairing instead of the draw: ``alice-bob,carol-dave,eve-bye`` (``-half``, ``-absent``)
    manual: Annotated[str, msgspec.Meta(max_length=200_000)] | None = None


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
    #: a result by forfeit (``result``: ``win:PLAYER`` or ``none``, a double forfeit): points, no game played
    forfeit: bool = False


class ReportRequest(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A seat's report of its table's result, in the words of :class:`ResultRequest` (``win:PLAYER``,
    ``draw``, ``rank:A>B=C``, ``team-win``, ``team-loss``; ``scores`` if the game keeps any). ``seat``: whose
    report (over HTTP: the player's token's own seat, which it may be left to say)."""

    result: Title
    seat: Annotated[str, msgspec.Meta(max_length=NAME_MAX)] = ""
    scores: dict[Name, Annotated[int, msgspec.Meta(ge=-(10**12), le=10**12)]] | None = None
    reason: Reason = ""


class ReportAnswer(msgspec.Struct, frozen=True, kw_only=True):
    """A report taken: whether it was written (the seat's latest report said the same already: nothing
    was), the table's reports now, whether they agree (the result counts) or disagree (the organiser
    settles it), and who has yet to report; when it completed the agreement, the standings moves."""

    tournament: str
    records: int
    round: int
    table: int
    seat: str
    written: bool
    agreed: bool
    disagree: bool
    reports: list[SeatReport]
    waiting: list[str]
    #: the table's result when it counts (in words)
    result: str | None = None
    changed: list[RankChange] = []
    standings: StandingsAnswer | None = None


class TranscriptUpload(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A table's transcript, sent whole by the organiser (or as the request's plain-text body): adjudicated
    and attached to the table; with ``check``, adjudicated and reported, nothing written."""

    text: Annotated[str, msgspec.Meta(max_length=TRANSCRIPT_MAX)]
    check: bool = False
    reason: Reason = ""


class TiebreaksRequest(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    tiebreaks: Annotated[list[Name], msgspec.Meta(min_length=1, max_length=20)]
    reason: Reason = ""


class WithdrawRequest(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Withdraw a table's pairing before it has a result (its match is void for the standings); the
    reason is required."""

    round: Number
    table: Number
    reason: Reason = ""


class HalfByeRequest(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A player's half-point bye for a round not yet paired, as asked for and granted."""

    player: Name
    round: Number
    reason: Reason = ""
    #: take back a half-point bye granted for that round (still not paired) instead
    cancel: bool = False


# -- answers (what ``referee tournament ...`` prints, locally and in client mode: the same Structs) ----------


class You(msgspec.Struct, frozen=True, kw_only=True):
    """Who the caller is: the organiser (locally: whoever holds the database), a spectator or a player."""

    role: str
    player: str | None = None


class PlayerRow(msgspec.Struct, frozen=True, kw_only=True):
    player: str
    name: str
    dropped: bool
    #: the first round the player could be paired in (a late entry's is after round 1)
    entered: int = 1


class TournamentShown(msgspec.Struct, frozen=True, kw_only=True):
    """A tournament's settings and players (``GET /tournaments/{id}``)."""

    tournament: str
    name: str
    game: str
    format: str
    rounds: int
    #: the last round paired (0 before the first)
    round: int
    tiebreaks: list[str]
    records: int
    players: list[PlayerRow]
    you: You
    #: the seed of the drawing of lots (the organiser's answer only)
    seed: int | None = None
    #: the undo policy the tournament's matches are created with (``any``, ``own_last``, ``arbiter``)
    undo: str = "any"
    #: the tie-break settings the tournament was created with (see ``tournament new --help``)
    unplayed: str = "simple"
    direct_encounter: str = "partial"
    progressive: str = "games"


class SeatReport(msgspec.Struct, frozen=True, kw_only=True):
    """A seat's latest report of its table's result (``tournament report``): the result in words and as
    typed (``win:alice``...), or for a spectator only ``reported`` (and ``agreed`` once the seats agree)."""

    player: str
    result: str
    typed: str = ""
    #: the tournament record holding it
    record: int | None = None


class TableRow(msgspec.Struct, frozen=True, kw_only=True):
    table: int
    seats: list[str]
    match_id: str | None
    #: the result in words (None: none yet)
    result: str | None
    #: where it came from: log, arbiter, correction, reported (agreed by the seats), or withdrawn (the
    #: pairing was withdrawn: void)
    source: str = "log"
    #: the seats' reports of the result, in seat order (a table played on cardboard; none: empty)
    reports: list[SeatReport] = []
    #: the reports differ and nothing settled them: the organiser records the result
    disagree: bool = False


class RoundRow(msgspec.Struct, frozen=True, kw_only=True):
    round: int
    closed: bool
    tables: list[TableRow]
    #: full byes (the pairing's odd player out)
    byes: list[str]
    #: half-point byes granted for this round
    half_byes: list[str] = []
    #: players entered as absent by a manual pairing (nothing scored)
    absent: list[str] = []


class BlockRow(msgspec.Struct, frozen=True, kw_only=True):
    """A table of the round being played that holds up the next pairing, and why."""

    round: int
    table: int
    match_id: str | None
    why: str


class Pairings(msgspec.Struct, frozen=True, kw_only=True):
    """Every round's tables and results (a player's token: their own), and what blocks the next round."""

    tournament: str
    rounds: list[RoundRow]
    blocks: list[BlockRow]
    #: the undo policy the tournament's matches are created with
    undo: str = "any"


class StandingRow(msgspec.Struct, frozen=True, kw_only=True):
    rank: int
    player: str
    name: str
    played: int
    dropped: bool
    #: each tie-break's value as shown (exact fractions as "7/2"-free decimals or whole numbers)
    values: dict[str, str]


class TableRef(msgspec.Struct, frozen=True, kw_only=True):
    round: int
    table: int


class StandingsAnswer(msgspec.Struct, frozen=True, kw_only=True):
    tournament: str
    after_round: int
    tiebreaks: list[str]
    rows: list[StandingRow]
    #: tables of those rounds without a result yet
    pending: list[TableRef]
    #: the head of the tournament's whole record when it was read (``tournament audit`` prints the same
    #: while nothing changes): one hash over its records and its token rows
    head: str = ""


class Workings(msgspec.Struct, frozen=True, kw_only=True):
    tiebreak: str
    value: str
    exact: str
    workings: list[str]


class Explained(msgspec.Struct, frozen=True, kw_only=True):
    """One player's standing, every number with the matches it came from."""

    player: str
    name: str
    after_round: int
    rank: int
    values: list[Workings]
    corrections: list[str]


class PairedTable(msgspec.Struct, frozen=True, kw_only=True):
    table: int
    seats: list[str]
    match_id: str | None
    #: the match's tokens, shown once: seat -> token, arbiter, spectator
    tokens: dict[str, str]


class PairedRound(msgspec.Struct, frozen=True, kw_only=True):
    tournament: str
    round: int
    dry_run: bool
    tables: list[PairedTable]
    byes: list[str]
    half_byes: list[str] = []
    #: the undo policy the round's matches are created with
    undo: str = "any"


class Recorded(msgspec.Struct, frozen=True, kw_only=True):
    """A write's answer: the tournament, how many records it has now, and what was done in words."""

    tournament: str
    records: int
    done: str = ""
    #: a player's change: the player, the name shown, whether dropped
    player: str | None = None
    name: str | None = None
    dropped: bool | None = None
    #: a closed round's number
    round: int | None = None
    #: the tie-breaks in force
    tiebreaks: list[str] | None = None


class RankChange(msgspec.Struct, frozen=True, kw_only=True):
    player: str
    rank_before: int | None
    rank_after: int


class ResultAnswer(msgspec.Struct, frozen=True, kw_only=True):
    """A result or correction recorded: who moved in the standings after that round, and the standings
    before and after it."""

    tournament: str
    records: int
    changed: list[RankChange]
    standings: StandingsAnswer
    before: StandingsAnswer | None = None


class AuditResult(msgspec.Struct, frozen=True, kw_only=True):
    clean: bool
    findings: list[str]
    #: the head of the tournament's record (its records and token rows): keep it, and audit later with
    #: ``--expect-head`` (``expect_head``) to show that nothing of the record changed since
    head: str = ""
    #: how many records the tournament has
    records: int = 0


class RecordRow(msgspec.Struct, frozen=True, kw_only=True):
    """One record of the tournament's log: its number, what happened, who recorded it and why."""

    tournament: str
    n: int
    by: str
    why: str
    event: dict[str, Any]


class PlayerRating(msgspec.Struct, frozen=True, kw_only=True):
    player: str
    mu: float
    sigma: float
    ordinal: float
    matches: int


class RatingsAnswer(msgspec.Struct, frozen=True, kw_only=True):
    """``referee ratings`` / ``GET /ratings``: every player's rating after every finished match."""

    model: str
    rated: int
    skipped: dict[str, int]
    players: list[PlayerRating]


class TableImported(msgspec.Struct, frozen=True, kw_only=True):
    """A transcript imported to a tournament's table (or checked for it): the table, the match that is (or
    would be) its match, what the import found (its problems with their lines), and the table's result
    as the log gives it. ``attached``: a record attached the match now; false when checked, or when the
    table holds this very transcript already (nothing written). ``revised``: the table's match came from an
    earlier transcript and this one's changed lines were appended to it as corrections (a revision)."""

    tournament: str
    name: str
    round: int
    table: int
    seats: list[str]
    match_id: str
    #: the match the pairing made for the table, set aside (never played)
    replaces: str | None = None
    attached: bool = False
    checked: bool = False
    revised: bool = False
    summary: ImportSummary
    result: Outcome | None = None
    result_words: str = ""
    #: the tournament's records after it
    records: int = 0


# -- the round clock -------------------------------------------------------------------------------------------


class ClockRequest(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """The organiser starts the round's clock (``minutes`` to play; starting it again starts it over),
    stops it (the time left is kept) or resumes it."""

    action: Literal["start", "stop", "resume"]
    minutes: Annotated[int, msgspec.Meta(ge=1, le=1440)] | None = None
    reason: Reason = ""


class HallClock(msgspec.Struct, frozen=True, kw_only=True):
    """The round clock as every page shows it: the hall's snapshot (``/tournaments/{id}/events``, field
    ``clock``, null before it is started for the round being played), ``GET /tournaments/{id}/clock`` and
    ``referee tournament clock T show --json``. Times are the server's, in UTC (``2026-11-28T15:00:00Z``);
    a page counts down in the browser: while it runs, ``ends_at`` minus the time now; while it is stopped,
    ``remaining`` (seconds, standing still). ``over``: the time was up when it was read (the hall's tables
    not finished then are flagged ``past_time``). Nothing in it changes by itself but ``over``, once, so a
    snapshot holding it changes only when the clock is started, stopped or resumed, or runs out.
    ``referee tournament clock T show`` says the seconds left from its own reading of the time."""

    round: int
    minutes: int
    started_at: str
    #: seconds it stood still, before the last resume
    paused: int
    running: bool
    #: when the round's time runs out, pauses so far added (null while stopped)
    ends_at: str | None
    #: when it was stopped (null while it runs)
    stopped_at: str | None
    #: seconds left while stopped (negative: past time by that much); null while it runs
    remaining: int | None
    over: bool
