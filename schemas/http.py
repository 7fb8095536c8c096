"""Wire contracts of the HTTP service (``referee serve``): request bodies and answers.

msgspec Structs like the rest of :mod:`schemas`; Litestar validates requests against them and the
OpenAPI document (``/schema/openapi.json``) is generated from them. Errors are always
:class:`schemas.ErrorBody`.

The answers are also what :class:`referee.service.Referee` returns (a game described, a state, a
replay, a diff, an audit): the CLI's ``--json`` and the HTTP answers are the same Structs, so they
cannot drift apart.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, Union

import msgspec

from . import (
    CARDS_TEXT_MAX,
    NAME_MAX,
    SEED_MAX,
    TEXT_MAX,
    TITLE_MAX,
    EntryView,
    MatchInfo,
    OptionValue,
    Outcome,
    Rejection,
    Seat,
    Seq,
)
from .board import Board

#: sequence numbers and counts on the wire: never negative, and small enough for any JSON reader
Count = Annotated[int, msgspec.Meta(ge=0, le=2**53)]
Name = Annotated[str, msgspec.Meta(min_length=1, max_length=NAME_MAX)]
Text = Annotated[str, msgspec.Meta(max_length=TEXT_MAX)]
Title = Annotated[str, msgspec.Meta(max_length=TITLE_MAX)]
#: an entry named by the line of the imported transcript it was read from (``line:23``), where a body takes
#: an entry number (issue 24): the server looks it up in the match's log, as ``referee undo line:23`` does
LINE_PATTERN = r"^line:[0-9]{1,9}$"
LineRef = Annotated[str, msgspec.Meta(pattern=LINE_PATTERN,
                                      description="the entry read from line N of the imported transcript")]
#: an entry: its number in the log, or ``line:N``
EntryRef = Union[Count, LineRef]

AnnotationKind = Literal["comment", "disputed", "ruling", "good", "mistake"]
#: ``actor``: one of the game's actors besides the seats and the arbiter (Copycat's ``table``), named in ``seat``
Role = Literal["seat", "arbiter", "spectator", "actor"]


class CreateMatch(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A new match. ``cards`` names a card set bundled with the game; a card-definition file is sent
    whole as ``cards_text`` (the server never reads files named by a client)."""

    game: Name
    players: Annotated[list[Name], msgspec.Meta(min_length=1, max_length=16)]
    options: dict[Name, OptionValue] = {}
    cards: Name | None = None
    cards_text: Annotated[str, msgspec.Meta(max_length=CARDS_TEXT_MAX)] | None = None
    decks: dict[Name, Name] = {}
    seed: Annotated[int, msgspec.Meta(ge=0, le=SEED_MAX)] | None = None
    chance: Literal["physical", "digital"] | None = None
    position: dict[str, Any] = {}
    title: Title = ""
    undo: Literal["any", "own_last", "arbiter"] = "any"
    meta: dict[Name, Title] = {}
    #: a finished match this one continues (a series' next game): send that match's arbiter token; the
    #: game carries what it needs from its final state into this match's options
    continue_from: Name | None = None


class Tokens(msgspec.Struct, frozen=True, kw_only=True):
    """The secrets of one match, shown once: one per seat, the arbiter's, the spectators' and one for each
    actor the game declares besides the seats and the arbiter (``actors``: Copycat's ``table``, which deals
    and cleans up; it acts as that actor only and sees the spectators' view). The server keeps only their
    sha256 hashes; send one as ``Authorization: Bearer <token>``."""

    seats: dict[Seat, str]
    arbiter: str
    spectator: str
    actors: dict[Seat, str] = {}


class MatchCreated(msgspec.Struct, frozen=True, kw_only=True):
    match: MatchInfo
    tokens: Tokens


class MatchAccess(msgspec.Struct, frozen=True, kw_only=True):
    """A match and who the caller is in it."""

    match: MatchInfo
    role: Role
    seat: Seat | None = None


class SubmitIntent(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """One intent: notation (``"take 2"``) or a JSON intent object (``{"type": "take", "count": 2}``).

    ``seat`` defaults to the caller's seat; only the arbiter may act for another seat (the entry
    records ``by: arbiter``). With ``expected_seq`` the intent is refused (409) unless the log is at
    that entry; without it, the intent is adjudicated against whatever the head is."""

    intent: Annotated[str, msgspec.Meta(max_length=TEXT_MAX)] | dict[str, Any]
    seat: Name | None = None
    expected_seq: Count | None = None


class UndoRequest(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    to: EntryRef | None = None
    reason: Text = ""
    expected_seq: Count | None = None


class RedoRequest(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    undo: EntryRef | None = None
    reason: Text = ""
    expected_seq: Count | None = None


class RulingRequest(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """The arbiter rules that rejected entry ``entry`` stands as played."""

    entry: EntryRef
    reason: Text = ""
    expected_seq: Count | None = None


class AmendRequest(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """The arbiter corrects a line after import (``referee amend``): ``line`` is the transcript line (``23``
    or ``line:23``) or an entry (``entry:8``, ``#8``); ``text`` the corrected line (``seat: intent``, or the
    intent alone for the same seat); ``reason`` and ``by`` are kept in the log."""

    line: Title
    text: Text
    reason: Text
    by: Name
    expected_seq: Count | None = None


class ConfirmRequest(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """The answer to entry ``entry``, held for a confirmation: ``accept`` it (it is adjudicated now, with
    what only the confirmer can see) or decline it (it has no effect). Its confirmer or the arbiter."""

    entry: EntryRef
    accept: bool = True
    reason: Text = ""
    expected_seq: Count | None = None


class ForkRequest(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    at: EntryRef
    name: Title = ""


class AnnotateRequest(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A note on entry ``seq``. ``audience`` is who may read it: ``all`` (the default), the arbiter, or
    one seat (a seat may write for all or for itself). It is shown as written to its audience and to
    no one else."""

    seq: EntryRef
    text: Annotated[str, msgspec.Meta(min_length=1, max_length=TEXT_MAX)]
    kind: AnnotationKind = "comment"
    audience: Name = "all"


class SubmitAnswer(msgspec.Struct, frozen=True, kw_only=True):
    """The entry a write appended: its verdict, the events (as the caller may see them), and the
    outcome if the match ended. ``state_hash`` is given to the arbiter only (it covers hidden cards)."""

    match_id: str
    seq: int
    kind: str
    actor: Seat | None
    by: str
    intent: str
    verdict: Literal["accepted", "rejected", "held", "none"]
    rejection: Rejection | None = None
    events: list[Any] = []
    state_hash: str = ""
    outcome: Outcome | None = None
    #: the events in words, for people (as the caller may see them)
    words: list[str] = []
    #: a held intent (``verdict`` is ``held``): who must confirm it before it is adjudicated
    confirmer: str = ""


class StateAnswer(msgspec.Struct, frozen=True, kw_only=True, rename={"as_": "as"}):
    """The state after entry ``seq`` as one role sees it (``referee show``, ``GET .../state``)."""

    match_id: str
    game: str
    seq: int
    #: whose view: a seat, ``spectator``, or ``referee`` (everything)
    as_: str
    #: sha256 of the canonical state: the referee's view only (it covers hidden cards), else empty
    state_hash: str
    outcome: Outcome | None
    #: the view as JSON builtins (dicts, lists, strings, numbers)
    state: dict[str, Any]
    #: the game's drawing of that view for people (a grid, a map, the seats' tableaux...)
    boards: tuple[Board, ...] = ()
    #: the same view in words for a reader (a player's labelled counters, the turn), internal fields in
    #: each area's ``details``: what ``referee show`` prints after the boards
    sections: tuple[Board, ...] = ()
    #: one line for people: where the match stands (whose turn, the phase, the score), the game's words
    headline: str = ""
    #: the printed names of the ids the boards, sections and headline show (cards, locations, offices),
    #: id -> name: ``referee show`` draws the name where they have the id (the game's ``name_of``)
    names: dict[str, str] = {}
    #: a digital match's commitment to its seed (every role), and the seed: the arbiter's alone until
    #: the match is over, then everyone's (check it: sha256 of "referee:seed\\n<match id>\\n<seed>")
    seed_commitment: str = ""
    seed: int | None = None
    #: the fresh secrets of the match's reopenings, by entry (the arbiter's; everyone's once the match is
    #: over again); each entry's ``meta.commitment`` is sha256 of "referee:reseed\\n<match id>\\n<entry>\\n<secret>"
    secrets: dict[int, int] = {}


class LogPage(msgspec.Struct, frozen=True, kw_only=True):
    match_id: str
    head: int
    total: int
    offset: int
    limit: int
    entries: list[EntryView]


class LegalAnswer(msgspec.Struct, frozen=True, kw_only=True):
    """Intents that would be accepted now, in notation, per seat (chance fields may be omitted in a
    digital match: the referee fills them)."""

    match_id: str
    seq: int
    legal: dict[Seat, list[str]]


class StateChange(msgspec.Struct, frozen=True, kw_only=True):
    """One leaf of a state that an entry changed, by dotted path (``players.alice.reputation``)."""

    path: str
    #: the value before the entry (null: the path was not there)
    before: Any = None
    #: the value after it (null: the path is gone)
    after: Any = None


class ReplayStep(msgspec.Struct, frozen=True, kw_only=True):
    """One entry of a replay and what it changed in the state, as the role asking sees both."""

    entry: EntryView
    changes: list[StateChange] = []
    #: what the entry did in words (the game's, from the events as the role sees them): the sentences
    #: the Markdown export prints
    words: list[str] = []


#: what a finding of the audit is about: the record before the first entry (``config``, ``genesis``,
#: ``fork``, ``game``, ``title``, ``rules_version``), an entry (``missing``, ``chain``, ``entry_hash``,
#: ``decode``, ``index_columns``, ``verdict``, ``state_hash``, ``reopening``: a fresh secret missing, out of
#: place or not matching its commitment), a ``snapshot`` or an ``annotation``
FindingKind = Literal[
    "config", "genesis", "fork", "game", "title", "rules_version", "missing", "chain", "entry_hash", "decode",
    "index_columns", "verdict", "state_hash", "snapshot", "annotation", "head", "reopening", "summary",
]


class Finding(msgspec.Struct, frozen=True, kw_only=True):
    """Where the record and what the referee derives now part: the first divergence of a match."""

    #: the entry (0: the record before the first entry)
    seq: Seq
    what: FindingKind
    #: what the record says, and what the referee derives; left out for seats and spectators over
    #: HTTP (hashes and verdicts that may cover hidden cards)
    recorded: str | msgspec.UnsetType = msgspec.UNSET
    derived: str | msgspec.UnsetType = msgspec.UNSET


class AuditAnswer(msgspec.Struct, frozen=True, kw_only=True):
    """``Referee.audit``'s report. Seats and spectators get the findings without the recorded and
    derived values (hashes and verdicts that may cover hidden cards)."""

    match_id: str
    clean: bool
    #: how many entries were checked (up to the first finding)
    entries: int
    head: int
    #: the first divergence, if any (an audit stops there)
    findings: list[Finding] = []
    #: what the arbiter should know that is not a divergence (a rules change accepted)
    notes: list[str] = []
    #: the rules the match was recorded under, and the referee's now (empty if it does not know the game)
    rules_version: str = ""
    current_rules_version: str = ""
    #: the head: one hash over the last entry's hash (which fixes the configuration and every entry),
    #: the last annotation's hash and the title (the arbiter's answer only); kept with a result
    #: elsewhere, it shows later whether anything of the record changed, a cut at the end included
    head_hash: str = ""
    #: the last entry's hash (the genesis hash for an empty log)
    entries_hash: str = ""
    #: how many annotations the match has, and the last one's hash
    annotations: int = 0
    annotations_hash: str = ""


class Health(msgspec.Struct, frozen=True, kw_only=True):
    #: the process answers and its store answers
    ok: bool
    #: ``ok``, or ``unavailable`` when the store did not answer a read in time (the answer is then a 503)
    store: str = "ok"
    #: live streams open at the process answering
    streams: int
    #: which process answered (random, drawn when it started): with ``referee serve --workers N`` the
    #: connections are shared out among N processes, and this tells them apart
    worker: str = ""


class ParamUsage(msgspec.Struct, frozen=True, kw_only=True):
    """One argument of an intent in notation."""

    key: str
    required: bool
    #: what the value looks like, in words (``a card id``, ``one of move_symbol|steal``)
    expected: str


class IntentUsage(msgspec.Struct, frozen=True, kw_only=True):
    """One verb of a game's notation."""

    verb: str
    #: the verb with its arguments, as typed (``draw_main card=CARD``; optional ones in brackets)
    usage: str
    doc: str
    params: list[ParamUsage] = []


class OptionInfo(msgspec.Struct, frozen=True, kw_only=True):
    """A match option (``--option name=value``)."""

    name: str
    default: OptionValue
    #: the values it may take (empty: any value of the default's type)
    choices: list[str | int | bool] = []
    help: str = ""


class GameInfo(msgspec.Struct, frozen=True, kw_only=True):
    """A game the referee knows: its notation and options (``referee games GAME``, ``GET /games/{game}``)."""

    id: str
    name: str
    aliases: list[str]
    rules_version: str
    #: the fewest and the most seats
    players: tuple[int, int]
    summary: str
    card_sets: list[str]
    default_card_set: str | None
    intents: list[IntentUsage]
    options: list[OptionInfo]


class DiffSide(msgspec.Struct, frozen=True, kw_only=True):
    """One of the two states a diff compares."""

    match_id: str
    seq: int
    state_hash: str


class PathDiff(msgspec.Struct, frozen=True, kw_only=True):
    """A leaf, by dotted path, where two states differ (null: the path is not in that state)."""

    path: str
    a: Any = None
    b: Any = None


class Divergence(msgspec.Struct, frozen=True, kw_only=True):
    """The first entry where two lines of play differ, as ``actor: notation`` (null: that line had ended)."""

    seq: int
    a: str | None
    b: str | None


class DiffAnswer(msgspec.Struct, frozen=True, kw_only=True):
    """How two states differ, and where two lines of play part (``referee diff``, ``GET .../diff``)."""

    a: DiffSide
    b: DiffSide
    same_state: bool
    changes: list[PathDiff] = []
    #: null: one line is the other's beginning (or they are the same)
    diverge: Divergence | None = None
