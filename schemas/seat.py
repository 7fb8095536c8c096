"""Wire contracts of a seat's page (``/play/MATCH``): what a seat sees and may do now, in one answer.
The same page serves an actor of the game that is no seat (Android's arbiter, Copycat's table), opened by
the arbiter's token or the actor's own: ``seat`` then names that actor, ``role`` says which token it is.

:class:`SeatAnswer` is ``GET /matches/{id}/seat``: the seat's view (the board as the viewer draws it),
its legal moves as structured choices grouped by intent, the confirmations asked of it, whether it may
take back its last move, and the head its next write names as ``expected_seq``. Everything in it is
drawn from the seat's own view and its own legal moves, so it holds nothing the seat may not see.
"""

from __future__ import annotations

import msgspec

from .http import StateAnswer


class ChoiceField(msgspec.Struct, frozen=True, kw_only=True):
    """One field of a choice, as the notation writes it (``key=value``)."""

    key: str
    #: the value the legal move has; ``?`` items are typed in by the seat (``fill``)
    value: str
    #: a chance fact the seat reads off the table and types in (a card drawn, a die): a physical match
    fill: bool = False
    #: what the field takes, in words ("a comma-separated list (strs)")
    expected: str = ""


class Choice(msgspec.Struct, frozen=True, kw_only=True):
    """One legal move to tap: the intent in notation (submitted as it is, once its ``?`` are filled)."""

    intent: str
    #: the intent with each id the game names given its printed name
    label: str
    fields: list[ChoiceField] = []


class MoveGroup(msgspec.Struct, frozen=True, kw_only=True):
    """The legal moves of one intent (verb), with each field's values across them (what a seat picks a
    field from: a card in its hand, a region, a number in range)."""

    verb: str
    doc: str = ""
    choices: list[Choice] = []
    #: each field's allowed values, in the order the legal moves give them
    values: dict[str, list[str]] = {}


class HeldMove(msgspec.Struct, frozen=True, kw_only=True):
    """An entry held for a confirmation: the move as the seat sees it and who confirms it."""

    seq: int
    actor: str
    intent: str
    confirmer: str
    words: list[str] = []


class SeatAnswer(msgspec.Struct, frozen=True, kw_only=True):
    """A seat's page in one answer."""

    match_id: str
    game: str
    game_name: str
    #: the actor this page speaks for: the seat, or an actor of the game that is no seat
    seat: str
    players: list[str]
    #: the head: a write from this page names it as ``expected_seq``
    seq: int
    chance: str
    #: who may undo: any, own_last, arbiter
    undo_policy: str
    #: the entry this seat's take-back would undo (its own last move, where the policy allows), or None
    take_back: int | None = None
    view: StateAnswer
    #: the result in words once the game is over ("alice won (influence)"), else ""
    result: str = ""
    #: "board|area" of each drawn area that differs from the spectators' drawing: private to the seat
    private_areas: list[str] = []
    #: titles of the sections in words that differ from the spectators' (private to the seat)
    private_sections: list[str] = []
    #: ids (and their printed names) the seat sees and the other roles do not: covered until revealed
    secret: list[str] = []
    moves: list[MoveGroup] = []
    #: the entry waiting for a confirmation (whoever gives it), None when none waits
    held: HeldMove | None = None
    #: the token's role: ``seat``; ``arbiter`` (its page acts for the game's arbiter or its one other actor,
    #: seeing everything); ``actor`` (an actor's own token, seeing the spectators' view)
    role: str = "seat"
