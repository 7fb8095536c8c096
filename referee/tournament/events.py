"""A tournament's events: what happened, who said so and why, as frozen, tagged Structs.

A tournament is an append-only log of these (:class:`Record`: the event, its author and reason),
folded by :func:`referee.tournament.fold.fold` into the tournament's state. Nothing is edited: a drop
is undone by an ``undrop``, a result by a ``result_corrected``. Results of matches played on the system
are not typed at all: ``round_closed`` copies each finished match's outcome (with the log entry it
was read at) when the next round is paired, so standings "after round N" stay what they were even if
a log changes later, and ``tournament audit`` checks every copy against its log.

Each record is chained like a match's entries: its hash covers the hash before it and its canonical
body (:func:`chain_hash`), so an edit behind the store's back shows in ``tournament audit``.
"""

from __future__ import annotations

import hashlib
from fractions import Fraction
from typing import Literal

import msgspec

from schemas import Outcome

Format = Literal["swiss", "round-robin", "pods"]
UndoPolicy = Literal["any", "own_last", "arbiter"]
UNDO_POLICIES: tuple[UndoPolicy, ...] = ("any", "own_last", "arbiter")
FORMATS: tuple[Format, ...] = ("swiss", "round-robin", "pods")
#: how a round without a game counts in the tie-breaks built on opponents (see ``tournament new --unplayed``)
Unplayed = Literal["simple", "fide"]
UNPLAYED: tuple[Unplayed, ...] = ("simple", "fide")
#: what head-to-head does with players level who did not all meet (``--direct-encounter``)
Encounter = Literal["partial", "fide"]
ENCOUNTERS: tuple[Encounter, ...] = ("partial", "fide")
#: which rounds the progressive score adds the running score after: those the player had a game in (as
#: tournaments recorded before it was fixed compute it), or every round
Progressive = Literal["games", "rounds"]


class Points(msgspec.Struct, frozen=True, kw_only=True):
    """Match points for a result. ``places`` are the points of 1st, 2nd, ... at a pod table that ended
    in a ranking (tied seats share the points of the places they cover); empty: ``n - place`` at a
    table of ``n`` (3, 2, 1, 0 at four seats). ``half``: a half-point bye's (None: a draw's).

    Every number counts ``1/unit`` of a point, so fractional points stay whole numbers in the record:
    chess scoring (win 1, draw 1/2) is ``win=2, draw=1, loss=0, bye=2, unit=2``."""

    win: int = 3
    draw: int = 1
    loss: int = 0
    bye: int = 3
    places: tuple[int, ...] = ()
    half: int | None = None
    unit: int = 1

    @property
    def half_bye(self) -> int:
        return self.draw if self.half is None else self.half

    def of(self, n: int) -> Fraction:
        """``n`` (one of these fields) in points."""
        return Fraction(n, self.unit)


class Base(msgspec.Struct, frozen=True, kw_only=True, tag_field="type"):
    """The base of every tournament event: a tagged record (``type``) with the fields of its kind."""


class Created(Base, frozen=True, kw_only=True, tag="created"):
    name: str
    game: str
    format: Format
    rounds: int
    tiebreaks: tuple[str, ...]
    points: Points
    #: the drawing of lots: every pairing's random choices come from it (and the round), never the clock
    seed: int
    #: seats at a pod table (the game's largest table by default)
    table_size: int = 2
    #: how the matches of the tournament are created
    options: dict[str, str] = {}
    #: a bundled card set's name, or (with ``cards_text``) the name a card file's text goes by
    cards: str | None = None
    chance: Literal["physical", "digital"] = "physical"
    #: a card file's text, sent whole: every match gets it (a tournament never reads a file by its name)
    cards_text: str | None = None
    #: who may undo in the tournament's matches (their undo policy, chosen by the organiser: ``own_last``
    #: unless told; a tournament recorded before the choice existed made its matches with ``any``)
    undo: UndoPolicy = "any"
    #: tie-break settings (recorded, so standings read the same at any later time): ``simple`` (a round
    #: without a game gives its points and no opponent) unless chosen; ``partial`` head-to-head
    unplayed: Unplayed = "simple"
    direct_encounter: Encounter = "partial"
    #: a tournament recorded before the fix adds the running score after the rounds with a game only
    progressive: Progressive = "games"


class PlayerAdded(Base, frozen=True, kw_only=True, tag="player_added"):
    player: str
    #: the name shown (the id is the player's seat name in every match)
    display: str = ""


class PlayerDropped(Base, frozen=True, kw_only=True, tag="player_dropped"):
    player: str


class PlayerUndropped(Base, frozen=True, kw_only=True, tag="player_undropped"):
    player: str


class PlayerRenamed(Base, frozen=True, kw_only=True, tag="player_renamed"):
    player: str
    display: str


class Table(msgspec.Struct, frozen=True, kw_only=True):
    """One table of a round: its number, the players in seat order (the first seat plays first), and
    the match created for it."""

    table: int
    seats: tuple[str, ...]
    match_id: str | None = None


class RoundPaired(Base, frozen=True, kw_only=True, tag="round_paired"):
    round: int
    tables: tuple[Table, ...]
    byes: tuple[str, ...] = ()
    #: players on a half-point bye this round (granted before it was paired: :class:`HalfByeGranted`)
    half_byes: tuple[str, ...] = ()
    #: players who were not paired this round and get nothing for it (absent, entered by hand)
    absent: tuple[str, ...] = ()
    #: the pairing was typed in by the organiser (``tournament pair --manual``), not drawn
    manual: bool = False


class TableResult(msgspec.Struct, frozen=True, kw_only=True):
    """A table's result as it stood when its round closed: read from its match's log (``source`` =
    ``log``, with the entry it was read at) or recorded by the arbiter (``arbiter``)."""

    table: int
    outcome: Outcome
    source: Literal["log", "arbiter"] = "log"
    match_id: str | None = None
    seq: int | None = None


class RoundClosed(Base, frozen=True, kw_only=True, tag="round_closed"):
    round: int
    results: tuple[TableResult, ...]


class ResultRecorded(Base, frozen=True, kw_only=True, tag="result_recorded"):
    """An arbiter's result for a table played off the system. ``forfeit``: the game was not played (the
    winners won by forfeit; no winners: a double forfeit): it gives its points, but no game for the
    tie-breaks."""

    round: int
    table: int
    outcome: Outcome
    forfeit: bool = False


class ResultCorrected(Base, frozen=True, kw_only=True, tag="result_corrected"):
    """A correction: the table's result is ``outcome`` from now on, whatever it was (from a log or an
    arbiter); the result it replaces stays in the log."""

    round: int
    table: int
    outcome: Outcome
    forfeit: bool = False


class TiebreaksChanged(Base, frozen=True, kw_only=True, tag="tiebreaks_changed"):
    tiebreaks: tuple[str, ...]


class PairingWithdrawn(Base, frozen=True, kw_only=True, tag="pairing_withdrawn"):
    """An arbiter withdraws a table's pairing before it has a result (the record's ``by`` and ``why`` say
    who and why): its match is void for the standings (no points, no games, no opponents) and it does
    not hold up the next round; its players may be paired together again."""

    round: int
    table: int


class HalfByeGranted(Base, frozen=True, kw_only=True, tag="half_bye_granted"):
    """A player asked not to be paired in a round not yet paired and was granted a half-point bye for it
    (``Points.half_bye`` points, no opponent)."""

    round: int
    player: str


class HalfByeCancelled(Base, frozen=True, kw_only=True, tag="half_bye_cancelled"):
    """A half-point bye granted for a round not yet paired is taken back (the player will play it after
    all, or it was granted by mistake): the player is paired in that round again."""

    round: int
    player: str


class TranscriptAttached(Base, frozen=True, kw_only=True, tag="transcript_attached"):
    """A table played on paper: the match imported from its transcript (``match_id``, written with this
    record) is the table's match from then on, read for its result as a match played on the system is. The
    match the pairing made for the table (``replaces``, never played) stays in the store, read by nothing."""

    round: int
    table: int
    match_id: str
    replaces: str | None = None
    #: the transcript's digest (:func:`referee.transcript.digest`)
    digest: str = ""


class ResultReported(Base, frozen=True, kw_only=True, tag="result_reported"):
    """A seat's report of its table's result, for a game played on cardboard without move entry (``player``
    is the seat; the record's ``by`` who typed it). A seat may report again before the result counts: its
    latest report is the one that counts. Reports that differ are a dispute for the organiser."""

    round: int
    table: int
    player: str
    outcome: Outcome


class ResultAgreed(Base, frozen=True, kw_only=True, tag="result_agreed"):
    """Every seat of the table reported the same result (``reports``: the numbers of those records, one a
    seat, each its seat's latest): from this record the table's result is ``outcome``, reported by the
    seats. Written with the report that completed the agreement, in the same transaction."""

    round: int
    table: int
    outcome: Outcome
    reports: tuple[int, ...]


class IssuedToken(msgspec.Struct, frozen=True, kw_only=True):
    """A tournament token issued from the organiser's database: whose it is and its sha256 (never the
    token itself)."""

    role: Literal["organiser", "spectator", "player"]
    player: str | None = None
    hash: str


class TokensIssued(Base, frozen=True, kw_only=True, tag="tokens_issued"):
    """Tokens issued by ``referee tournament tokens`` (or ``slips``) in the organiser's own database, and
    the tokens they replace (``revoked``, by hash): a revoked token is refused from this record on. The
    token rows themselves (hashes) are written after the record; the tokens are shown once."""

    issued: tuple[IssuedToken, ...]
    revoked: tuple[str, ...] = ()


class ClockStarted(Base, frozen=True, kw_only=True, tag="clock_started"):
    """The organiser starts round ``round``'s clock: ``minutes`` to play from ``at``. ``at`` is the server's
    time when it was recorded (``2026-11-28T15:00:00Z``), kept as data: the fold reads it as a value and
    never looks at a clock itself."""

    round: int
    minutes: int
    at: str


class ClockStopped(Base, frozen=True, kw_only=True, tag="clock_stopped"):
    """The round's clock is stopped at ``at`` (the server's time, recorded as data): the time left is kept."""

    at: str


class ClockResumed(Base, frozen=True, kw_only=True, tag="clock_resumed"):
    """The round's clock runs again from ``at``: the time it stood still is added to the round's end."""

    at: str


Event = (
    Created | PlayerAdded | PlayerDropped | PlayerUndropped | PlayerRenamed | RoundPaired | RoundClosed
    | ResultRecorded | ResultCorrected | TiebreaksChanged | PairingWithdrawn | HalfByeGranted | HalfByeCancelled
    | TranscriptAttached
    | TokensIssued
    | ResultReported | ResultAgreed
    | ClockStarted | ClockStopped | ClockResumed
)


class Record(msgspec.Struct, frozen=True, kw_only=True):
    """The ``n``-th event of tournament ``tournament``, with who recorded it and why."""

    tournament: str
    n: int
    by: str
    why: str = ""
    event: Event


_encoder = msgspec.json.Encoder(order="sorted")
_decoder = msgspec.json.Decoder(Record)


def encode(record: Record) -> bytes:
    """The canonical body of a record (sorted keys): what its hash covers."""
    return _encoder.encode(record)


def decode(body: bytes) -> Record:
    return _decoder.decode(body)


def root_hash(tournament: str) -> str:
    """The hash the first record follows."""
    return hashlib.sha256(f"referee:tournament\n{tournament}".encode()).hexdigest()


def chain_hash(prev: str, body: bytes) -> str:
    return hashlib.sha256(prev.encode() + b"\n" + body).hexdigest()


def kind(event: Event) -> str:
    """The event's tag (``player_added``...)."""
    return str(type(event).__struct_config__.tag)
