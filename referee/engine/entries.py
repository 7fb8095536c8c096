"""Log entries as typed values: what each entry is (its *act*), where it came from, and the upcaster
from the first entry format.

Every entry body is a :class:`EntryBody`: the act (a seat's move, an undo, a redo, a ruling, a
confirmation, a line that could not be read), who acted, the line as typed, the intent as adjudicated,
the verdict, and its :class:`Source` (the transcript line, the number typed before a move, a trailing
comment, the arbiter acting for a seat, a seat typing for itself). Bodies carry their format
(``"format": 2``); an entry written in format 1 (a ``kind`` string and a free ``meta`` dict) is read
through :func:`upcast_v1` into the same shape, and its hash is still taken over its stored bytes, so
an old log audits clean with the same head.

Pure: values in, values out.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Generic, Literal, TypeVar

import msgspec

from schemas import ENTRY_FORMAT, Seat

from .protocol import Accepted, Game, Held, Rejected

I = TypeVar("I")  # noqa: E741 - intent
E = TypeVar("E")

class Source(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """Where an entry came from (none of it decides a verdict except ``blind``)."""

    #: the transcript line it was read from
    line: int | None = None
    #: the number typed before the move (``12. alice: …``)
    number: int | None = None
    #: a trailing ``# comment`` on the line
    comment: str = ""
    #: ``arbiter`` when the arbiter submitted it for a seat
    by: str = ""
    #: typed by the seat itself, seeing only its own view: adjudicated so (held for a confirmation
    #: where its verdict would depend on what it cannot see)
    blind: bool = False
    #: a correction (``referee amend``): the entry whose line this one replaces, why and who amended it
    amends: int | None = None
    reason: str = ""
    amended_by: str = ""


class Move(msgspec.Struct, frozen=True, tag="intent"):
    """A seat's (or another actor's) intent: the body's ``intent`` and ``verdict``."""


class Undo(msgspec.Struct, frozen=True, kw_only=True, tag="undo"):
    """Fold back to the state after entry ``to`` (``target``: the state it jumps to)."""

    to: int
    target: int
    reason: str = ""


class Reopening(Undo, frozen=True, kw_only=True, tag="reopen_undo"):
    """The arbiter's undo of a finished digital match back into play (an undo in every other respect:
    its entry's kind is ``undo``). Every role has read the seed by then, so every chance outcome after
    it is drawn from ``secret``, a fresh one drawn when it was written: the arbiter's alone until the
    match ends again; ``commitment`` (:func:`referee.engine.core.reseed_commitment`) is every role's."""

    secret: int
    commitment: str


class Reopen(msgspec.Struct, frozen=True, kw_only=True, tag="reopen"):
    """The first entry of a fork of a finished digital match (the arbiter's): changes nothing, but every
    chance outcome after it is drawn from ``secret``, fresh and committed like a :class:`Reopening`'s."""

    secret: int
    commitment: str
    reason: str = ""


#: the fields of an act that only the arbiter sees while the match is in play
SECRET_FIELDS = ("secret",)


class Redo(msgspec.Struct, frozen=True, kw_only=True, tag="redo"):
    """Reverse undo entry ``undo`` (``target``: the state just before it)."""

    undo: int
    target: int
    reason: str = ""


class Ruling(msgspec.Struct, frozen=True, kw_only=True, tag="ruling"):
    """The arbiter rules that rejected entry ``entry`` (``seat``'s) stands as played, with the checks
    in ``waive`` waived: the body's intent adjudicated again."""

    entry: int
    seat: Seat
    waive: tuple[str, ...] = ()
    reason: str = ""
    decision: Literal["stands"] = "stands"


class Confirmation(msgspec.Struct, frozen=True, kw_only=True, tag="confirm"):
    """The answer to entry ``entry``, held for a confirmation: confirmed (the body's intent, ``seat``'s,
    adjudicated now) or declined (no effect)."""

    entry: int
    seat: Seat
    decision: Literal["confirm", "decline"]
    reason: str = ""


class Unreadable(msgspec.Struct, frozen=True, kw_only=True, tag="unparsed"):
    """A transcript line that could not be read as an intent (the body's ``notation``); changes nothing."""

    code: str
    message: str


Act = Move | Undo | Reopening | Redo | Ruling | Confirmation | Unreadable | Reopen


def fresh_secret(act: Act) -> int | None:
    """The fresh secret an act draws every later chance outcome from (a reopening), else None."""
    return act.secret if isinstance(act, (Reopening, Reopen)) else None


class EntryBody(msgspec.Struct, Generic[I, E], frozen=True, kw_only=True, tag_field="format", tag=ENTRY_FORMAT):
    """The hashed part of a log entry. ``notation`` is the line as typed; ``intent`` what was
    adjudicated (in a digital match with the chance fields the referee filled in)."""

    seq: int
    act: Act = Move()
    actor: Seat | None = None
    notation: str = ""
    intent: I | None = None
    verdict: Accepted[E] | Rejected | Held | None = None
    source: Source = Source()

    @property
    def kind(self) -> str:
        """What the entry is: ``intent``, ``undo`` (a :class:`Reopening` too), ``redo``, ``ruling``,
        ``confirm``, ``unparsed`` or ``reopen``."""
        if isinstance(self.act, Undo):
            return "undo"
        return str(type(self.act).__struct_config__.tag)

    @property
    def meta(self) -> dict[str, Any]:
        """The act's fields and the source as one mapping: what front ends show of the entry (and what
        format 1 stored)."""
        out: dict[str, Any] = msgspec.to_builtins(self.source)
        act = self.act
        if isinstance(act, Unreadable):
            out["error"] = {"code": act.code, "message": act.message}
        elif not isinstance(act, Move):  # a fresh secret is not shown here: the view decides who sees it
            out.update({k: v for k, v in msgspec.to_builtins(act).items() if k != "type" and k not in SECRET_FIELDS})
        return out


class EntryBodyV1(msgspec.Struct, Generic[I, E], frozen=True, kw_only=True, tag_field="format", tag=1):
    """Format 1 (before 2026-11-25): a ``kind`` string and a free ``meta`` dict."""

    seq: int
    kind: str = "intent"
    actor: Seat | None = None
    notation: str = ""
    intent: I | None = None
    verdict: Accepted[E] | Rejected | Held | None = None
    meta: dict[str, Any] = {}


_SOURCE_KEYS = ("line", "number", "comment", "by", "blind")
#: what a front end may name of an entry's source: the keys above and a correction's
_FRONT_KEYS = (*_SOURCE_KEYS, "amends", "reason", "amended_by")


def upcast_v1(old: EntryBodyV1[Any, Any]) -> EntryBody[Any, Any]:
    """A format-1 body as a format-2 one (the same entry: its hash stays that of its stored bytes)."""
    meta = old.meta
    source = msgspec.convert({k: meta[k] for k in _SOURCE_KEYS if k in meta}, Source)
    act: Act
    if old.kind == "undo":
        act = Undo(to=int(meta["to"]), target=int(meta["target"]), reason=str(meta.get("reason", "")))
    elif old.kind == "redo":
        act = Redo(undo=int(meta["undo"]), target=int(meta["target"]), reason=str(meta.get("reason", "")))
    elif old.kind == "ruling":
        act = Ruling(entry=int(meta["entry"]), seat=str(meta["seat"]), waive=tuple(meta.get("waive", ())),
                     reason=str(meta.get("reason", "")))
    elif old.kind == "confirm":
        act = Confirmation(entry=int(meta["entry"]), seat=str(meta["seat"]), decision=meta.get("decision", "confirm"),
                           reason=str(meta.get("reason", "")))
    elif old.kind == "unparsed":
        error = meta.get("error") or {}
        act = Unreadable(code=str(error.get("code", "")), message=str(error.get("message", "")))
    else:
        act = Move()
    return EntryBody(seq=old.seq, act=act, actor=old.actor, notation=old.notation, intent=old.intent,
                     verdict=old.verdict, source=source)


class BodyDecoder:
    """Decodes a game's entry bodies of any format into :class:`EntryBody`; with ``upcast`` (a game's
    :meth:`~referee.engine.protocol.GameBase.upcast_events`, ``event_type`` then holding its retired event
    kinds too) an accepted verdict's events are read as the game's events of today."""

    def __init__(self, intent_type: Any, event_type: Any,
                 upcast: Callable[[tuple[Any, ...]], tuple[Any, ...]] | None = None) -> None:
        self._decoder = msgspec.json.Decoder(
            EntryBody[intent_type, event_type] | EntryBodyV1[intent_type, event_type]
        )
        self._upcast = upcast

    @classmethod
    def for_game(cls, game: Game) -> BodyDecoder:
        """The decoder of ``game``'s entry bodies (through its upcaster if it has retired event kinds)."""
        if game.retired_event_type is None:
            return cls(game.intent_type, game.event_type)
        return cls(game.intent_type, game.event_type | game.retired_event_type, game.upcast_events)

    def decode(self, data: bytes) -> EntryBody[Any, Any]:
        body = self._decoder.decode(data)
        body = upcast_v1(body) if isinstance(body, EntryBodyV1) else body
        verdict = body.verdict
        if self._upcast is not None and isinstance(verdict, Accepted) and verdict.events:
            events = self._upcast(verdict.events)
            if events is not verdict.events:
                body = msgspec.structs.replace(body, verdict=msgspec.structs.replace(verdict, events=events))
        return body


def source_of(meta: dict[str, Any] | None) -> Source:
    """The :class:`Source` named by a front end's meta (``line``, ``number``, ``comment``, ``by``, ``blind``)."""
    if not meta:
        return Source()
    unknown = sorted(set(meta) - set(_FRONT_KEYS))
    if unknown:
        raise ValueError(f"an entry's source has no {', '.join(unknown)}")
    return msgspec.convert(dict(meta), Source)
