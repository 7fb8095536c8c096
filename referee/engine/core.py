"""Canonical encoding, hashing, the framework checks and the fold.

* ``canonical(x)``: JSON with sorted keys and struct fields, no floats for game values: the bytes
  every hash is taken over. Same value, same bytes, in any process, any day.
* Entry hash chain: ``hash = sha256(prev_hash || "\\n" || canonical(body))``; the first entry's
  ``prev_hash`` is the match's genesis hash (over its id, game, rules version and configuration).
* ``adjudicate`` runs the framework checks (match over, not your turn) before the game's own rules,
  fills chance fields in digital matches, and returns the verdict as a value.
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import compress
from operator import is_not
from typing import Any, TypeVar, cast

import msgspec

from schemas import MatchConfig, Seat

from .chance import Chance
from .codes import MatchCode, TurnCode
from .hashing import annotation_hash as annotation_hash
from .hashing import annotations_root as annotations_root
from .hashing import canonical as canonical
from .hashing import entry_hash as entry_hash
from .hashing import sha256_hex as sha256_hex
from .protocol import Accepted, DecidingHooks, Held, Rejected, Rules, Verdict

I = TypeVar("I")  # noqa: E741
E = TypeVar("E")

_encoder = msgspec.json.Encoder(order="sorted")


def state_hash(state: Any) -> str:
    return sha256_hex(state_bytes(state))


# ``order="sorted"`` sorts every struct's fields on every encode, which is most of the cost of a
# state hash. A struct whose fields (after its tag field, if any) are *declared* in sorted order
# encodes to the same bytes with ``order="deterministic"`` (dicts and sets sorted, struct fields as
# declared), about twice as fast. ``state_bytes`` uses it for a state type only when every type
# that can occur in it is known and every struct in it is declared so (checked once per type); any
# other type gets the sorted encoder. The bytes are the same either way; tests compare them.
_declared_order_encoder = msgspec.json.Encoder(order="deterministic")
_state_encoders: dict[type, msgspec.json.Encoder] = {}


def state_bytes(state: Any) -> bytes:
    """``canonical(state)``: the bytes of a state hash and of a snapshot."""
    tp = type(state)
    encoder = _state_encoders.get(tp)
    if encoder is None:
        encoder = _state_encoders[tp] = _declared_order_encoder if declared_sorted(tp) else _encoder
    return encoder.encode(state)


def declared_sorted(tp: Any) -> bool:
    """Every struct that can occur in a value of type ``tp`` declares its fields in sorted order of
    their encoded names (a tag field, encoded first, sorting before them), and nothing in it is
    typed loosely (``Any``, custom types): then sorted and declared order give the same bytes."""
    import msgspec.inspect as mi

    leaves = (mi.NoneType, mi.BoolType, mi.IntType, mi.StrType, mi.LiteralType, mi.FloatType, mi.BytesType)
    seen: set[int] = set()

    def ok(t: Any) -> bool:
        if isinstance(t, leaves):
            return True
        if isinstance(t, mi.StructType):
            if id(t.cls) in seen:
                return True
            seen.add(id(t.cls))
            names = [f.encode_name for f in t.fields]
            if t.tag_field is not None:
                names.insert(0, t.tag_field)
            return t.array_like is False and names == sorted(names) and all(ok(f.type) for f in t.fields)
        if isinstance(t, (mi.ListType, mi.VarTupleType, mi.SetType, mi.FrozenSetType)):
            return ok(t.item_type)
        if isinstance(t, mi.TupleType):
            return all(ok(x) for x in t.item_types)
        if isinstance(t, mi.DictType):
            return ok(t.key_type) and ok(t.value_type)
        if isinstance(t, mi.UnionType):
            return all(ok(x) for x in t.types)
        return False

    try:
        return ok(mi.type_info(tp))
    except (TypeError, ValueError):
        return False


class StateEncoder:
    """``state_bytes`` of a run of states that follow one another (an audit's walk), reusing the bytes
    of each top-level field whose value is the very object it was in the state encoded before: a fold
    replaces what it changes and keeps the rest, and a state and what it holds never change, so the
    same object encodes to the same bytes. One slot a field (the last value seen), kept by the encoder
    that the walk owns. The bytes are ``state_bytes``'s, put together as msgspec would: ``{`` the present
    fields ``"name":value`` in sorted order ``}``, a field omitted as msgspec omits it (``UNSET``; under
    ``omit_defaults`` the default object itself, or an empty list, dict or set from its factory). A type
    this cannot spell exactly (tagged, array-like, not declared sorted, another factory) is encoded
    whole each time."""

    __slots__ = ("_type", "_keys", "_defaults", "_factories", "_range", "_last", "_bytes")

    def __init__(self, tp: type) -> None:
        layout = _layout(tp)
        self._type: type | None = tp if layout is not None else None
        self._keys, self._defaults, self._factories = layout or ((), (), ())
        self._range = range(len(self._keys))
        self._last: tuple[Any, ...] = (_ABSENT,) * len(self._keys)
        self._bytes: list[bytes] = [b""] * len(self._keys)

    def encode(self, state: Any) -> bytes:
        if type(state) is not self._type:
            return state_bytes(state)
        values = msgspec.structs.astuple(cast(msgspec.Struct, state))
        done = self._bytes
        # the fields whose value is another object than last time, found in C
        for i in compress(self._range, map(is_not, values, self._last)):
            value = values[i]
            if value is msgspec.UNSET or value is self._defaults[i] or (
                    type(value) is self._factories[i] and not value):
                done[i] = b""
            else:
                done[i] = self._keys[i] + _declared_order_encoder.encode(value)
        self._last = values
        return b"{" + b",".join(filter(None, done)) + b"}"


#: no value: a slot not filled yet, a field without a default
_ABSENT = object()


#: a state type's fields as :class:`StateEncoder` puts them together, in declared (= sorted) order: each
#: one's ``"name":`` bytes, the default object that leaves it out and the factory whose empty product does
_Layout = tuple[tuple[bytes, ...], tuple[Any, ...], tuple[Any, ...]]
_layouts: dict[type, _Layout | None] = {}


def _layout(tp: Any) -> _Layout | None:
    """The layout of a state type :class:`StateEncoder` puts together field by field (worked out once per
    type): a plain struct (no tag, not array-like) declared in sorted order, whose defaults' factories
    are list, dict or set; None for any other type."""
    if tp in _layouts:
        return _layouts[tp]
    import msgspec.inspect as mi

    layout: _Layout | None = None
    info = mi.type_info(tp) if isinstance(tp, type) and issubclass(tp, msgspec.Struct) else None
    if (isinstance(info, mi.StructType) and info.tag_field is None and not info.array_like and declared_sorted(tp)
            and all(f.default_factory in (msgspec.NODEFAULT, list, dict, set) for f in info.fields)):
        omit = info.cls.__struct_config__.omit_defaults
        layout = (tuple(_declared_order_encoder.encode(f.encode_name) + b":" for f in info.fields),
                  tuple(f.default if omit else _ABSENT for f in info.fields),
                  tuple(f.default_factory if omit else _ABSENT for f in info.fields))
    _layouts[tp] = layout
    return layout


#: the layout of the genesis record (unchanged since the first entry format: a match's genesis never
#: changes, whatever format its entries are written in)
GENESIS_FORMAT = 1


def genesis_hash(match_id: str, rules_version: str, config: MatchConfig) -> str:
    head = {"match": match_id, "rules_version": rules_version, "config": config, "format": GENESIS_FORMAT}
    return sha256_hex(b"referee:genesis\n" + canonical(head))


def seed_commitment(match_id: str, seed: int) -> str:
    """The commitment to a digital match's seed that every role gets when the match is created:
    ``sha256("referee:seed\\n<match id>\\n<seed>")`` (the id of the match it was created as; a fork
    keeps its root's). Once the seed is revealed, anyone can check it against this."""
    return sha256_hex(f"referee:seed\n{match_id}\n{seed}".encode())


def head_seal(*, entries_hash: str, annotations_hash: str, title: str, parent: str | None,
              fork_seq: int | None) -> str:
    """The head an audit prints: one hash over the last entry's hash (which fixes every entry and,
    through the genesis, the configuration), the last annotation's hash, and the match's title and
    place in the fork tree. Kept with a result, a later audit that prints another head shows that
    something of the record changed, even a cut at the end, which no chain notices by itself."""
    return sha256_hex(b"referee:head\n" + canonical({
        "entries": entries_hash, "annotations": annotations_hash, "title": title, "parent": parent,
        "fork_seq": fork_seq,
    }))


def chance_for(config: MatchConfig, salt: str) -> Chance | None:
    if config.chance != "digital":
        return None
    return Chance(config.seed or 0, salt)


#: the salt of the chance a move is adjudicated with. It names no entry: a game derives each outcome
#: from it and from its own history of draws (which deck, how many drawn since its last shuffle), so
#: undo and the same move draw the same card, a refused line changes nothing and a fork draws what the
#: main line drew (DESIGN.md, "Chance and hidden information").
PLAY_SALT = "play"


def play_chance(config: MatchConfig, seed: int | None = None) -> Chance | None:
    """The chance a move, a confirmation or a ruling is adjudicated with (None unless digital): from
    ``seed``, the seed in force at that point of the log (the fresh secret of the latest reopening of a
    finished match, :meth:`referee.history.History.seed_in_force`), else the match's own seed."""
    if config.chance != "digital":
        return None
    return Chance(seed if seed is not None else config.seed or 0, PLAY_SALT)


def reseed_commitment(match_id: str, seq: int, secret: int) -> str:
    """The commitment to the fresh secret that entry ``seq`` of match ``match_id`` (a reopening of a
    finished match) draws from: ``sha256("referee:reseed\n<match id>\n<seq>\n<secret>")``, shown to
    every role in that entry; the secret itself once the match is over again."""
    return sha256_hex(f"referee:reseed\n{match_id}\n{seq}\n{secret}".encode())


def adjudicate(
    rules: Rules[Any, Any, Any], state: Any, seat: Seat, intent: Any, chance: Chance | None,
    waive: frozenset[str] = frozenset(), *, awaiting: tuple[int, str] | None = None, confirmed: bool = False,
) -> tuple[Any, Verdict | Held]:
    """Framework checks, then the game's own. Returns (the intent as recorded, its verdict).

    ``waive`` (an arbiter's ruling "stands as played") names rejection codes of the game's own checks
    that are not applied this once; the framework's checks are never waived. ``awaiting`` is the entry
    that waits for a confirmation, and who gives it (nothing else is played meanwhile). An intent whose
    legality depends on what is hidden from its actor is :class:`Held` for its confirmer unless this is
    that confirmation (``confirmed``); only a game declaring ``Capabilities.confirmations`` is asked.
    """
    if rules.outcome(state) is not None:
        return intent, Rejected(MatchCode.OVER, "the match is over; no further intents are accepted", "")
    if awaiting is not None:
        held, who = awaiting
        return intent, Rejected(MatchCode.AWAITING_CONFIRMATION,
                                f"entry {held} waits for {who} to confirm it (or decline); nothing else is played meanwhile", "")
    actors = rules.actors(state, intent)
    if seat not in actors:
        who = ", ".join(sorted(actors)) or "nobody"
        return intent, Rejected(
            TurnCode.NOT_YOUR_TURN, f"{seat} may not {type(intent).__struct_config__.tag} now (may act: {who})", ""
        )
    if rules.confirmations and not confirmed:
        confirmer = rules.confirmer(state, seat, intent)
        if confirmer is not None and confirmer != seat:
            return intent, Held(confirmer=confirmer, reason=f"it reads what only {confirmer} can see")
    filled = rules.filled_intent(state, seat, intent, chance)
    if isinstance(filled, Rejected):
        return intent, filled
    if waive:
        return filled, rules.decide(state, seat, filled, chance, waive=waive)
    return filled, rules.decide(state, seat, filled, chance)


def apply(rules: DecidingHooks[Any, Any, Any], state: Any, verdict: Verdict | None) -> Any:
    """The state after a verdict: its events folded in order. A game whose ``decide`` already
    produced that state may hand it over (``applied(state, verdict)``, matched by identity)."""
    if isinstance(verdict, Accepted):
        known = rules.applied(state, verdict)
        if known is not None:
            return known
        for event in verdict.events:
            state = rules.evolve(state, event)
    return state


def fold(rules: DecidingHooks[Any, Any, Any], state: Any, verdicts: Iterable[Verdict | None]) -> Any:
    for verdict in verdicts:
        state = apply(rules, state, verdict)
    return state
