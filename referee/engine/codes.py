"""The framework's rejection and error codes, a ``StrEnum`` per scope (a game's own codes are its
``codes.py``; the HTTP front ends' are :mod:`referee.httpcodes`, a token's :class:`referee.auth.AuthCode`, a
tournament's :mod:`referee.tournament.codes`): each value is the code as clients, logs and transcripts have
always read it (a code never changes), the member its reason in capitals. ``tests/test_decider_vocabulary.py``
holds that no module spells one of these scopes' codes as a string.
"""

from __future__ import annotations

from enum import StrEnum


class TurnCode(StrEnum):
    """Whose turn it is: the framework's gate before a game's rules are asked (``actors``), and a game's own
    check of the turn at its rulebook's place."""

    NOT_YOUR_TURN = "turn/not_your_turn"


class MatchCode(StrEnum):
    """The match as a whole: its configuration (players, options, chance, seed, decks), its log (a seq that is
    stale or out of range), a finished match, a continuation."""

    AMBIGUOUS = "match/ambiguous"
    AWAITING_CONFIRMATION = "match/awaiting_confirmation"
    BAD_CHANCE = "match/bad_chance"
    BAD_CONFIG = "match/bad_config"
    BAD_CONTINUATION = "match/bad_continuation"
    BAD_DECK = "match/bad_deck"
    BAD_OPTION = "match/bad_option"
    BAD_PLAYERS = "match/bad_players"
    BAD_SEED = "match/bad_seed"
    BAD_SEQ = "match/bad_seq"
    BAD_UNDO_POLICY = "match/bad_undo_policy"
    NO_CONTINUATION = "match/no_continuation"
    OVER = "match/over"
    STALE_SEQ = "match/stale_seq"
    UNKNOWN = "match/unknown"
    UNKNOWN_SEAT = "match/unknown_seat"


class InputCode(StrEnum):
    """What was typed or uploaded before it is adjudicated: a file, its text and encoding, a notation line, an
    entry reference, a page."""

    BAD_ARGUMENT = "input/bad_argument"
    BAD_ENCODING = "input/bad_encoding"
    BAD_ENTRY = "input/bad_entry"
    BAD_PAGE = "input/bad_page"
    BAD_SOURCE = "input/bad_source"
    BAD_TEXT = "input/bad_text"
    BAD_TOML = "input/bad_toml"
    CHANCE_TYPED = "input/chance_typed"
    DURABILITY = "input/durability"
    INVALID = "input/invalid"
    MISSING_ARGUMENT = "input/missing_argument"
    NO_SUCH_LINE = "input/no_such_line"
    NOT_A_FILE = "input/not_a_file"
    TOO_DEEP = "input/too_deep"
    TOO_LARGE = "input/too_large"
    TOO_LONG = "input/too_long"
    UNKNOWN_ARGUMENT = "input/unknown_argument"
    UNKNOWN_REFERENCE = "input/unknown_reference"
    UNKNOWN_VERB = "input/unknown_verb"
    UNREADABLE = "input/unreadable"


class CardsCode(StrEnum):
    """A match's card data: a bundled set, a file, its size."""

    NOT_BUNDLED = "cards/not_bundled"
    NOT_FOUND = "cards/not_found"
    TOO_LARGE = "cards/too_large"
    UNREADABLE = "cards/unreadable"


class GameCode(StrEnum):
    """The game a match is played under."""

    UNKNOWN = "game/unknown"


class SetupCode(StrEnum):
    """The position a scenario or a match starts from."""

    INVALID_POSITION = "setup/invalid_position"


class RulingCode(StrEnum):
    """An arbiter's ruling that a refused entry stands as played."""

    ALREADY_STANDS = "ruling/already_stands"
    CANNOT_REWIND = "ruling/cannot_rewind"
    CANNOT_WAIVE = "ruling/cannot_waive"
    NOT_LAST = "ruling/not_last"
    NOT_REJECTED = "ruling/not_rejected"
    STILL_ILLEGAL = "ruling/still_illegal"
    UNDONE = "ruling/undone"


class TranscriptCode(StrEnum):
    """A transcript being imported: its header, a line, its text, a result it states."""

    ANNOTATION_BEFORE_MOVES = "transcript/annotation_before_moves"
    BAD_HEADER = "transcript/bad_header"
    BAD_LINE = "transcript/bad_line"
    BAD_TEXT = "transcript/bad_text"
    LINE_TOO_LONG = "transcript/line_too_long"
    RESULT_DIFFERS = "transcript/result_differs"


class UndoCode(StrEnum):
    """An undo: who may undo under the match's policy, and what there is to undo."""

    NOT_ALLOWED = "undo/not_allowed"
    NOTHING_TO_UNDO = "undo/nothing_to_undo"
    TARGET_UNDONE = "undo/target_undone"


class RedoCode(StrEnum):
    """A redo of an undo: the undo named, and whether the line of play still lets it be redone."""

    ALREADY_REDONE = "redo/already_redone"
    LINE_MOVED_ON = "redo/line_moved_on"
    NOT_AN_UNDO = "redo/not_an_undo"
    NOTHING_TO_REDO = "redo/nothing_to_redo"
    UNDO_UNDONE = "redo/undo_undone"


class ConfirmCode(StrEnum):
    """A confirmation of a move held for another seat's consent."""

    NOT_WAITING = "confirm/not_waiting"
    NOT_YOURS = "confirm/not_yours"
    NOTHING_TO_CONFIRM = "confirm/nothing_to_confirm"


class AmendCode(StrEnum):
    """A correction of a recorded line (``referee amend``)."""

    CANNOT_REWIND = "amend/cannot_rewind"
    NOT_A_MOVE = "amend/not_a_move"
    REASON_READS_AS_LINE = "amend/reason_reads_as_line"
    SEAT_NEEDED = "amend/seat_needed"
    UNCHANGED = "amend/unchanged"
    UNDONE = "amend/undone"


class ReviseCode(StrEnum):
    """A transcript imported again as a revision of a match (``import --revise``)."""

    ACTING_ENTRY = "revise/acting_entry"
    ACTING_LINE = "revise/acting_line"
    OTHER_MATCH = "revise/other_match"


class AnnotationCode(StrEnum):
    """An annotation: its kind, its audience, a match busy with other writers."""

    BAD_AUDIENCE = "annotation/bad_audience"
    BAD_KIND = "annotation/bad_kind"
    BUSY = "annotation/busy"


class DiffCode(StrEnum):
    """Two matches compared."""

    DIFFERENT_GAMES = "diff/different_games"


class ExportCode(StrEnum):
    """An export's format."""

    BAD_FORMAT = "export/bad_format"


class IntentCode(StrEnum):
    """An intent sent over HTTP by the arbiter, who names the seat it acts for."""

    SEAT_REQUIRED = "intent/seat_required"


class LegalCode(StrEnum):
    """The legal intents asked of a game that cannot list them."""

    NOT_ENUMERABLE = "legal/not_enumerable"


class LogCode(StrEnum):
    """A match's log as stored: an entry missing or that cannot be decoded, a fork's parent missing."""

    CORRUPT = "log/corrupt"


class RatingsCode(StrEnum):
    """Ratings: the model asked for."""

    BAD_MODEL = "ratings/bad_model"


class ReopenCode(StrEnum):
    """A finished match reopened."""

    NOT_ARBITER = "reopen/not_arbiter"


class ReplayCode(StrEnum):
    """A replay asked over HTTP: how many entries a request answers."""

    TOO_MANY = "replay/too_many"


class StoreCode(StrEnum):
    """The store behind the service: a write that failed, a database that cannot be reached."""

    FAILED = "store/failed"
    UNAVAILABLE = "store/unavailable"


class SummaryCode(StrEnum):
    """A match's stored summary."""

    CORRUPT = "summary/corrupt"


#: every scope, by its prefix
SCOPES: dict[str, type[StrEnum]] = {
    "turn": TurnCode,
    "match": MatchCode,
    "input": InputCode,
    "cards": CardsCode,
    "game": GameCode,
    "setup": SetupCode,
    "ruling": RulingCode,
    "transcript": TranscriptCode,
    "undo": UndoCode,
    "redo": RedoCode,
    "confirm": ConfirmCode,
    "amend": AmendCode,
    "revise": ReviseCode,
    "annotation": AnnotationCode,
    "diff": DiffCode,
    "export": ExportCode,
    "intent": IntentCode,
    "legal": LegalCode,
    "log": LogCode,
    "ratings": RatingsCode,
    "reopen": ReopenCode,
    "replay": ReplayCode,
    "store": StoreCode,
    "summary": SummaryCode,
}
