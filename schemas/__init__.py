"""Wire contracts shared by every game and front end.

Everything here is a msgspec Struct (or a plain type alias) and imports nothing of ours: the engine,
the CLI and the HTTP service all speak these shapes. Schema changes follow msgspec's evolution rules
(new fields only with defaults); anything else bumps ``ENTRY_FORMAT`` and adds an upcaster.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

import msgspec

Seat = str
Seq = int
MatchId = str

#: Version of the canonical entry body, carried by every body (``"format"``) and so part of every entry
#: hash. 2 since 2026-11-25 (typed acts; ``referee.engine.entries`` reads format 1 too).
ENTRY_FORMAT = 2

# -- limits: one set for every front end (HTTP validates requests with them; the CLI, transcripts and
# scenario files are checked against the same numbers by the service layer) ------------------------

#: a seat, option, deck or card-set name
NAME_MAX = 64
#: a match title and the metadata values (event, date, round, table), one line each
TITLE_MAX = 200
#: an intent in notation, a transcript line, an annotation, a reason
TEXT_MAX = 10_000
#: a card-definition (data set) file, given as a file or as text
CARDS_TEXT_MAX = 1_000_000
#: a transcript file
TRANSCRIPT_MAX = 16_000_000
#: a scenario file or a position file
SCENARIO_MAX = 4_000_000
#: seeds of digital matches: 0 .. 2**63 - 1
SEED_MAX = 2**63 - 1
#: how deeply a position, an option value or a JSON intent object may nest
DEPTH_MAX = 32

ChanceMode = Literal["physical", "digital"]
#: a match option's value: a word, a number or a flag; a list of them (``a,b,c``); or a map from a
#: name (a seat, say) to one (``alice:2,bob:0``)
OptionValue = str | int | bool | list[str | int] | dict[str, str | int]


class RuleSection(msgspec.Struct, frozen=True, kw_only=True):
    """One section of a game's rulebook that a refusal cites: its number (``§4.7``, ``R35``, ``R-AGENTS``),
    its heading in English, and as the rulebook prints it (Russian; empty for a section the printed
    rulebook has no heading for)."""

    section: str
    english: str
    russian: str = ""


class Rejection(msgspec.Struct, frozen=True, kw_only=True):
    """Why an intent was refused: a stable namespaced code, a message naming the values, a rule.

    ``rule`` is the citation as the game recorded it, the rulebook's headings as it prints them
    (``§4.7 «ФАЗА АГЕНТОВ», Этап 2``); ``rule_english`` the same citation as an English sentence shows it
    (``§4.7 Agent phase, step 2``), and ``sections`` each section it names with both headings."""

    code: str
    message: str
    rule: str = ""
    rule_english: str = ""
    sections: tuple[RuleSection, ...] = ()


OutcomeKind = Literal["win", "draw", "ranking", "team_win", "team_loss"]


class Outcome(msgspec.Struct, frozen=True, kw_only=True):
    """The end of a game as a value, of one of five kinds (``kind``; without it, ``win`` when there are
    winners and ``draw`` when there are none, as outcomes written before kinds existed read):

    * ``win``: ``winners`` (one or several) won against the others;
    * ``draw``: nobody won, and nobody lost either;
    * ``ranking``: every seat has a place (``ranking``: the seats by place, seats tied on a place
      together, e.g. ``[["alice"], ["bob", "carol"], ["dave"]]``), with ``scores``; ``winners`` are the
      first place;
    * ``team_win``: the seats, playing together, beat the game (``winners``: all of them);
    * ``team_loss``: the game beat the seats: everyone lost (``winners`` empty) — never a draw.

    ``scores`` is the measure that decided it, where there is one; ``reason`` the rule that ended it.
    """

    winners: tuple[Seat, ...]
    reason: str
    scores: dict[Seat, int] | None = None
    kind: OutcomeKind | None = None
    ranking: tuple[tuple[Seat, ...], ...] = ()

    @property
    def how(self) -> OutcomeKind:
        """The kind, also for an outcome recorded without one."""
        return self.kind or ("win" if self.winners else "draw")


class MatchConfig(msgspec.Struct, frozen=True, kw_only=True):
    """Everything a match is created from. Stored with the match; the fold reads nothing else.

    ``cards_text`` holds the whole card-definition file the match was created with, so that a
    later edit of that file (or of a bundled set) can never change how an old match replays.
    """

    game: str
    players: tuple[Seat, ...]
    options: dict[str, OptionValue] = {}
    cards: str | None = None
    cards_text: str | None = None
    decks: dict[Seat, str] = {}
    seed: int | None = None
    chance: ChanceMode = "physical"
    position: dict[str, Any] = {}
    meta: dict[str, str] = {}
    #: who may undo: "any" seat, a seat its "own_last" action only, or the "arbiter" only
    undo: Literal["any", "own_last", "arbiter"] = "any"


ARBITER = "arbiter"
"""The reserved seat name of the match's arbiter (undo, rulings, acting for a seat)."""

SPECTATOR = "spectator"
"""The reserved name of the public view: what every seat may see (a game's ``view`` and
``hidden_ids`` given a name that is not a seat hide every seat's secrets)."""


#: a clock reading kept for people (when a match was created, an entry or annotation recorded): no hash
#: covers it and no audit reads it, so it is not evidence of anything (the entries' order is)
Clock = Annotated[str, msgspec.Meta(description="a clock reading (UTC) kept for people: no hash covers it and "
                                                "no audit checks it; not evidence (the order of the entries is)")]


class MatchInfo(msgspec.Struct, frozen=True, kw_only=True):
    """One row of the match table, as front ends show it."""

    id: MatchId
    game: str
    rules_version: str
    players: tuple[Seat, ...]
    created_at: Clock
    head: Seq
    parent: MatchId | None = None
    fork_seq: Seq | None = None
    title: str = ""
    #: what the transcript's header (or ``referee new``) said of where it was played
    event: str = ""
    round: str = ""
    table: str = ""
    #: a digital match's commitment to its seed (``sha256("referee:seed\\n<match id>\\n<seed>")``),
    #: published to every role when the match is created; the seed itself is revealed when it ends
    seed_commitment: str = ""


class EntryView(msgspec.Struct, frozen=True, kw_only=True):
    """One log entry as a front end shows it (already redacted for the viewer)."""

    seq: Seq
    kind: str
    actor: Seat | None
    notation: str
    #: ``held``: the intent waits for a confirmation (``meta.confirmer`` names who gives it)
    verdict: Literal["accepted", "rejected", "held", "none"]
    rejection: Rejection | None = None
    events: list[Any] = []
    manual: bool = False
    hash: str = ""
    prev_hash: str = ""
    state_hash: str = ""
    recorded_at: Clock = ""
    annotations: list[Annotation] = []
    meta: dict[str, Any] = {}
    #: the undo entry that took this entry out of the line of play (None while it is in effect)
    undone_by: Seq | None = None


class Annotation(msgspec.Struct, frozen=True, kw_only=True):
    seq: Seq
    kind: str
    text: str
    by: str = ""
    recorded_at: Clock = ""


class ErrorSaid(msgspec.Struct, frozen=True, kw_only=True):
    """The catalog template an error's English ``message`` was said through, and the values that fill it: a
    value that is itself a phrase said through a template is ``{"template": ..., "values": {...}}`` (a page
    has the message said in its language by ``POST /pages/words``)."""

    template: str
    values: dict[str, Any] = {}


class ErrorBody(msgspec.Struct, frozen=True, kw_only=True):
    """The one error shape of every front end (CLI ``--json`` and HTTP). Over HTTP, an error whose message
    was said through the catalog also has ``said`` (:class:`ErrorSaid`); the key is absent otherwise."""

    code: str
    message: str
    detail: dict[str, Any] = {}
    said: ErrorSaid | msgspec.UnsetType = msgspec.UNSET


class ImportProblem(msgspec.Struct, frozen=True, kw_only=True):
    line: int
    text: str
    code: str
    message: str
    rule: str = ""
    #: ``rule`` as an English sentence cites it (each heading in English: :class:`Rejection`)
    rule_english: str = ""
    #: the earlier rejected line this one follows from (the same seat's, none of its lines accepted since)
    after: int | None = None
    #: the log entry the line became (a rejected move, a line that could not be read); None for a line
    #: that made no entry of its own (an annotation in the wrong place, a result that differs)
    entry: Seq | None = None


class EntryLine(msgspec.Struct, frozen=True, kw_only=True):
    """An entry of an imported match and the transcript line it was read from (``line:N`` names it)."""

    entry: Seq
    line: int


class ImportSummary(msgspec.Struct, frozen=True, kw_only=True):
    """What importing (or checking) a transcript found. ``stored``: a match was written (false for
    ``import --check`` and for a transcript the database holds already); ``already``: the matches
    imported before from the same transcript (its ``digest``), oldest first; ``match_id`` is then the
    newest of them unless this import wrote a match of its own."""

    match_id: MatchId
    game: str
    lines: int
    entries: int
    accepted: int
    rejected: int
    problems: list[ImportProblem] = []
    outcome: Outcome | None = None
    state_hash: str = ""
    stored: bool = True
    already: list[MatchId] = []
    digest: str = ""
    #: each entry read from a line of the transcript, with that line, in log order
    entry_lines: list[EntryLine] = []


EXPORT_FORMAT = "referee-match/1"


class ExportMatch(msgspec.Struct, frozen=True, kw_only=True):
    id: MatchId
    game: str
    game_name: str
    rules_version: str
    players: tuple[Seat, ...]
    title: str = ""
    meta: dict[str, str] = {}
    options: dict[str, OptionValue] = {}
    cards: str | None = None
    decks: dict[Seat, str] = {}
    chance: ChanceMode = "physical"
    #: a digital match's seed: in the arbiter's export, and in everyone's once the match is over
    seed: int | None = None
    #: sha256("referee:seed\n<match id>\n<seed>"), for every role from the start: check the seed with it
    seed_commitment: str = ""
    #: the fresh secrets of the match's reopenings, by entry: like the seed (each entry's meta.commitment
    #: is sha256("referee:reseed\n<match id>\n<entry>\n<secret>"))
    secrets: dict[int, int] = {}
    undo: str = "any"
    parent: MatchId | None = None
    fork_seq: Seq | None = None
    created_at: Clock = ""


class ExportStep(msgspec.Struct, frozen=True, kw_only=True):
    """One entry with its effect in words and the state after it (as the export's role sees it)."""

    entry: EntryView
    words: list[str] = []
    state: dict[str, Any] = {}
    group: str = ""


class ExportVariation(msgspec.Struct, frozen=True, kw_only=True):
    """A fork of the match: its own entries after the fork point."""

    match_id: MatchId
    fork_seq: Seq
    title: str = ""
    steps: list[ExportStep] = []


class MatchExport(msgspec.Struct, frozen=True, kw_only=True):
    """The whole match, machine-readable (``referee export --format json``). Its JSON Schema is
    ``schemas/match-export.schema.json``, regenerated by ``python -m schemas`` and checked by a test."""

    format: str = EXPORT_FORMAT
    role: str
    match: ExportMatch
    initial_state: dict[str, Any] = {}
    steps: list[ExportStep] = []
    annotations: list[Annotation] = []
    variations: list[ExportVariation] = []
    outcome: Outcome | None = None
