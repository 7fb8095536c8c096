"""The decision being built: a working copy of the state, changed in place by the procedures, and
the events that record each change (spec §4.28).

``Tx.d`` is the state as plain mappings (a copy of its own per decision, each field made plain when first
read, :class:`Working`). A procedure changes it and then
says what happened with :meth:`Tx.say`: every kind but one is a domain fact (its fields say what
happened; the fold computes the change, :mod:`.fold`); a declared effect gets, in ``changes``, every
state path changed since the previous event (two levels deep: ``turn`` → ``turn.attack``), so ``evolve``
replays it by writing those values back. Every event is folded as it is said (``Tx.state``) and
compared with the working copy: what a fact leaves unsaid is kept with it as paths, so the log always
folds to what decide did; with :data:`CHECK` on (the tests' cross-check) such a fact fails instead, and
the fold is compared with the working copy after every event. A failed check raises a refusal, which ``decide``
returns as a Rejected value; the working copy is then thrown away. A game rule is spelled ``check``
(an arbiter's ruling "stands as played" waives it: playing past a once-per-turn limit, fighting a
Stealth card in the Shadows, ...); what the intent cannot be carried out without (a card that is not
there, the phase, what is pending, paying) is ``require`` or ``fail``, never waived.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from itertools import compress
from operator import is_not
from typing import TYPE_CHECKING, Any, Protocol

import msgspec

from referee.engine.decision import Decision
from referee.engine.protocol import Rules
from schemas import MatchConfig

from .data import CardSet
from .fold import HANDLERS, apply_changes, evolve
from .manual import MANUAL_VOCABULARY
from .model import VOCABULARY, Change, Event, Fact, Intent, State

if TYPE_CHECKING:
    from .data import Card


class BoundRules(Rules[State, Intent, Event], Protocol):
    """The rules bound to one match as every module below :mod:`.rules` reads them (``XFilesRules`` is
    one): the engine's rules protocol (the seats, the fold, the verdict, the chance fields), and the
    configuration, its options resolved, and the card set."""

    config: MatchConfig
    players: tuple[str, ...]
    #: every option's value (given or default)
    options: dict[str, Any]
    cards: CardSet

PREFIX = "xfiles_encounters/"

#: a fact's fields for where the turn's procedure goes on, and the turn's fields they set
_PROCEDURE = {"step": "step", "fight": "fight_target"}

#: refuse a fact whose fold does not give the working copy, and compare after every event (the tests')
CHECK = False


def copy(value: Any) -> Any:
    """A deep copy of plain data (what decoding its JSON encoding gives, as the working copy and the
    state hold lists, never tuples): every dict and list built afresh, in C."""
    return msgspec.to_builtins(value, str_keys=True)


#: the state's fields, each as (attribute, encoded key), and their keys
_FIELDS = tuple((f.name, f.encode_name) for f in msgspec.structs.fields(State))
_KEYS = tuple(key for _, key in _FIELDS)
_INDEX = {key: i for i, key in enumerate(_KEYS)}


def plain(state: State) -> dict[str, Any]:
    """The state as plain data of its own, every field present: the fields left out of the encoding
    while they hold their defaults (``x_leader``, ``climax_dealt``, ``draws``) as well. ``to_builtins``
    builds every dict and list afresh (its strings are the state's own), and gives what decoding the
    state's JSON would, as every field is a Struct, list, dict with string keys, string, int or bool."""
    out: dict[str, Any] = msgspec.to_builtins(state)
    out.setdefault("x_leader", "")
    out.setdefault("climax_dealt", [])
    out.setdefault("draws", {})
    return out


#: each field's attribute by its key
_ATTR = {key: name for name, key in _FIELDS}
#: a field the working copy has not made plain yet
_UNREAD = object()
_dict_get = dict.get


class Working(dict[str, Any]):
    """A decision's working copy of ``start``, the state it began on, as plain data of its own: each
    field is made plain when first read, so a decision pays only for the fields it reads. Any way of
    reading it but by key (``d[key]``, ``get``, ``in``) first makes every field plain."""

    __slots__ = ("start",)

    def __init__(self, start: State) -> None:
        super().__init__()
        self.start = start

    def __missing__(self, key: str) -> Any:
        name = _ATTR.get(key)
        if name is None:
            raise KeyError(key)
        value = self[key] = msgspec.to_builtins(getattr(self.start, name))
        return value

    def get(self, key: str, default: Any = None) -> Any:
        return self[key] if key in _ATTR or dict.__contains__(self, key) else default

    def peek(self, key: str) -> Any:
        """The field ``key`` to read, never to change: the working copy's own once a decision made it plain,
        else the plain data of the start's value, shared (the memo :data:`_seen`, by identity), so that a
        field a decision only reads is neither copied nor compared with the fold after each event."""
        value = _dict_get(self, key, _UNREAD)
        if value is not _UNREAD:
            return value
        value = getattr(self.start, _ATTR[key])
        seen = _seen.get(key)
        if seen is None or seen[0] is not value:
            seen = _seen[key] = (value, msgspec.to_builtins(value))
        return seen[1]

    def __contains__(self, key: object) -> bool:
        return key in _ATTR or dict.__contains__(self, key)

    def whole(self) -> Working:
        """Every field made plain."""
        for key in _ATTR:
            if not dict.__contains__(self, key):
                self[key]
        return self

    def setdefault(self, key: str, default: Any = None) -> Any:
        return dict.setdefault(self.whole(), key, default)

    def pop(self, key: str, *default: Any) -> Any:
        return dict.pop(self.whole(), key, *default)

    def keys(self) -> Any:
        return dict.keys(self.whole())

    def values(self) -> Any:
        return dict.values(self.whole())

    def items(self) -> Any:
        return dict.items(self.whole())

    def __iter__(self) -> Any:
        return dict.__iter__(self.whole())

    def __len__(self) -> int:
        return dict.__len__(self.whole())

    def __eq__(self, other: object) -> bool:
        return dict.__eq__(self.whole(), other)

    def __ne__(self, other: object) -> bool:
        return dict.__ne__(self.whole(), other)

    def copy(self) -> dict[str, Any]:
        return dict(self.whole().items())


#: each field as a decision last made it plain, by key: the field's value (the very object) and its plain
#: data, which the next decision reuses while a state holds that object (decisions follow one another on
#: the states they fold): a memo by identity, sound as a state and what it holds never change
_seen: dict[str, tuple[Any, Any]] = {}


def diff(old: dict[str, Any], new: dict[str, Any]) -> list[Change]:
    """The paths at which ``new`` differs from ``old``, with copies of ``new``'s values there."""
    changes: list[Change] = []
    if old != new:  # one comparison, in C
        for key in sorted(new):
            _changed(key, old.get(key), new[key], changes)
    return changes


def _changed(key: str, a: Any, b: Any, changes: list[Change]) -> None:
    """The changes at ``key`` from ``a`` to ``b``: its entries that differ where both are dicts of the
    same keys, else the whole value (nothing if they are equal)."""
    if a == b:
        return
    if isinstance(a, dict) and isinstance(b, dict) and set(a) == set(b):
        for sub in sorted(b):
            if a[sub] != b[sub]:
                changes.append(Change(f"{key}.{sub}", copy(b[sub])))
    else:
        changes.append(Change(key, copy(b)))


def _declared_paths(event: Fact) -> None:
    """A declared effect changes only what its path vocabulary allows (the tests' cross-check)."""
    from .manual import MANUAL_PATHS
    from .model import ManualEffectApplied

    if isinstance(event, ManualEffectApplied):
        wrong = sorted({c.path for c in event.changes if c.path.partition(".")[0] not in MANUAL_PATHS})
        assert not wrong, f"a declared effect changed {wrong}, outside its path vocabulary"


class Tx(Decision):
    """One decision on a working copy ``d`` of the state. ``state`` follows the events: each event said
    is folded onto it (so the engine need not fold the verdict again), and whatever the fold of a fact
    leaves different from the working copy is recorded with it as paths, so the fold always gives
    exactly what decide did (:data:`CHECK` refuses such a fact instead)."""

    __slots__ = ("rules", "seat", "d", "source", "_start")

    def __init__(self, rules: BoundRules, state: State, seat: str, waive: frozenset[str] = frozenset()) -> None:
        super().__init__(PREFIX, state, None, waive=waive)
        self.rules = rules
        self.seat = seat
        self.d = Working(state)
        #: the card (or place) whose text the ops being applied declare (manual_effect, resolve_effect)
        self.source = ""
        #: the fields of the state the decision began on
        self._start = msgspec.structs.astuple(state)

    # -- events ------------------------------------------------------------------------------------------------

    def say(self, kind: type[Fact], /, **public: Any) -> None:
        """Record an event: a domain fact with the fields given, or (a kind the fold has no handler
        for) the public facts given and every change made since the last event."""
        if HANDLERS.get(kind) is not None:
            event = kind(vocabulary=VOCABULARY, **self._procedure(), **public)
            after = evolve(self.state, event)
            rest = self._diff(after)
            if rest:  # what the fact does not say: kept as paths, the fold must give the working copy
                if CHECK:
                    raise AssertionError(f"{type(event).__name__} {event!r} folds to a state that differs at "
                                         f"{[c.path for c in rest]}")
                event = msgspec.structs.replace(event, changes=tuple(rest))
                after = apply_changes(after, event.changes)
        else:  # a declared effect: its paths, in the declared-effect vocabulary (every other kind is a fact)
            from .model import ManualEffectApplied

            if CHECK:
                assert kind is ManualEffectApplied, f"{kind.__name__} has no fold handler: it would be said as paths"
            changes = tuple(self._diff(self.state))
            event = ManualEffectApplied(changes=changes, paths=MANUAL_VOCABULARY, **public) \
                if kind is ManualEffectApplied else kind(changes=changes, **public)
            after = evolve(self.state, event)
        if CHECK:
            _declared_paths(event)
        self.events.append(event)
        self.state = after
        if CHECK:
            self._check()

    def flush(self) -> None:
        """Attach changes made after the last event to it (every change is in some event); a fact takes
        where the turn's procedure goes on as its own words."""
        if not self.events:
            changes = self._diff(self.state)
            if changes:
                from .model import ManualEffectApplied
                self.events.append(ManualEffectApplied(changes=tuple(changes), paths=MANUAL_VOCABULARY))
                if CHECK:
                    _declared_paths(self.events[-1])
                self.state = apply_changes(self.state, tuple(changes))
            return
        last = self.events[-1]
        state = self.state
        if last.vocabulary >= VOCABULARY and HANDLERS.get(type(last)) is not None:
            moved = self._procedure()
            if moved:
                last = msgspec.structs.replace(last, **moved)
                state = msgspec.structs.replace(state, turn=msgspec.structs.replace(
                    state.turn, **{_PROCEDURE[k]: v for k, v in moved.items()}))
        changes = self._diff(state)
        if changes:
            if CHECK and last.vocabulary >= VOCABULARY:
                raise AssertionError(f"{type(last).__name__} is a domain fact but would carry paths "
                                     f"{[c.path for c in changes]}")
            last = msgspec.structs.replace(last, changes=(*last.changes, *changes))
            state = apply_changes(state, tuple(changes))
        self.events[-1], self.state = last, state
        if CHECK:
            self._check()

    def unsaid(self) -> bool:
        """Whether the working copy holds changes no event has said yet."""
        return bool(self._diff(self.state))

    def _diff(self, state: State) -> list[Change]:
        """:func:`diff` from ``state`` (folded by this decision) to the working copy, in the fields the
        decision read or the fold replaced: any other is the same in both, the start's own. (The same
        comparisons as :func:`diff` makes key by key, without building the state's plain data first.)"""
        d = self.d
        values = msgspec.structs.astuple(state)
        changes: list[Change] = []
        for key in sorted({*compress(_KEYS, map(is_not, values, self._start)), *dict.keys(d)}):
            at = _INDEX.get(key)
            a = None
            if at is not None:
                value = values[at]
                seen = _seen.get(key)
                if seen is None or seen[0] is not value:
                    seen = _seen[key] = (value, msgspec.to_builtins(value))
                a = seen[1]
            b = d[key]
            if a != b:
                _changed(key, a, b, changes)
        return changes

    def _procedure(self) -> dict[str, Any]:
        """The turn's procedure fields changed since the last event (a fact says them: step, fight)."""
        now, was = self.d.peek("turn"), self.state.turn
        return {k: now[f] for k, f in _PROCEDURE.items() if now[f] != getattr(was, f)}

    def _check(self) -> None:
        """The cross-check: the events folded from the state the decision began on give the working copy."""
        if plain(self.state) != self.d:
            wrong = [c.path for c in diff(plain(self.state), self.d)]
            raise AssertionError(f"{type(self.events[-1]).__name__}: the fold differs at {wrong}")

    # -- reading the working state -----------------------------------------------------------------------------

    @property
    def turn(self) -> dict[str, Any]:
        t: dict[str, Any] = self.d["turn"]
        return t

    @property
    def opt(self) -> dict[str, Any]:
        """The match's options, read only: the state's own, never a plain copy in the working state (no
        decision, event or declared effect changes them, so the working copy's would only be compared
        with the state's after every event)."""
        return self.d.start.options

    @property
    def current(self) -> str:
        return str(self.turn["seat"])

    def player(self, seat: str) -> dict[str, Any]:
        p: dict[str, Any] = self.d["players"][seat]
        return p

    def card(self, card_id: str) -> Card:
        return self.rules.cards[card_id]

    def over(self) -> bool:
        return self.d.peek("status") in ("won", "lost")

    def alive(self) -> list[str]:
        return [s for s in self.d["seats"] if not self.player(s)["defeated"]]

    def solo(self) -> bool:
        return len(self.alive()) == 1

    def pending(self) -> list[dict[str, Any]]:
        p: list[dict[str, Any]] = self.d["pending"]
        return p

    def push_front(self, *items: dict[str, Any]) -> None:
        """Items created while handling an answer go to the front, in their own order (§3.1)."""
        self.d["pending"] = [*(pending_item(**i) for i in items), *self.pending()]

    def push_back(self, *items: dict[str, Any]) -> None:
        self.d["pending"] = [*self.pending(), *(pending_item(**i) for i in items)]

    def known(self) -> Counter[str]:
        """Copies of each card known to be somewhere in the state (§2.4 rule 3), read without copying a
        field the decision has not changed."""
        return known_cards(Peeked(self.d))

    def copies_left(self, card_id: str) -> int:
        return self.rules.cards.copies.get(card_id, 0) - self.known()[card_id]

    def declared(self) -> None:
        """The entry rests on a declaration (§4.0.5): counted for audit and flagged."""
        self.d["audit"]["declared"] = int(self.d["audit"]["declared"]) + 1
        self.manual = True


def pending_item(kind: str, seat: str = "", source: str = "", location: str = "", origin: str = "", count: int = 0,
                 strike_no: int = 0, strikes: int = 0, reason: str = "", trigger: str = "", group: int = 0) -> dict[str, Any]:
    return {"kind": kind, "seat": seat, "source": source, "location": location, "origin": origin, "count": count,
            "strike_no": strike_no, "strikes": strikes, "reason": reason, "trigger": trigger, "group": group}


class Peeked:
    """The working copy ``d`` read only: each field as :meth:`Working.peek` gives it."""

    __slots__ = ("d",)

    def __init__(self, d: Working) -> None:
        self.d = d

    def __getitem__(self, key: str) -> Any:
        return self.d.peek(key)


def known_cards(d: Mapping[str, Any] | Peeked) -> Counter[str]:
    """Copies of each card named somewhere in the working copy ``d``, counted in one pass in C over the
    places gathered in order (every place holds card ids, "" where none is)."""
    cards: list[str] = []
    put, more = cards.append, cards.extend
    for zone in ("shadows", "bureau"):
        for slot in d[zone].values():
            put(slot.get("card", ""))
            more(slot.get("attached", []))
            more(slot.get("beneath", []))
    more(d["sector"])
    more(d["defeated_conspiracy"])
    more(d["defeated_characters"])
    more(d["strike_discard"])
    more(d["strike_deck"]["cards"])
    more(d["special_agents"]["cards"])
    for ev in d["evidence"].values():
        put(ev.get("card", ""))
    more([e.get("card", "") for e in d["clone_evidence"]])
    for held in d["end_game_strikes"].values():
        more(held)
    for seg in d["conspiracy_deck"]["segments"]:
        more(seg.get("cards", []))
    for p in d["players"].values():
        put(p["avatar"])
        for zone in ("hand", "deck", "discard", "vigilant", "wounds", "scars", "climax"):
            more(p[zone])
        more([x["card"] for x in p["play"] if not x.get("virtual_of")])
        put(p["coordinated_out"])
    return Counter(filter(None, cards))


def drew(d: dict[str, Any], pile: str, n: int = 1) -> None:
    """``n`` more cards drawn from ``pile`` (in the working copy ``d``): its next draw has a new key."""
    rec = d["draws"].setdefault(pile, {"drawn": 0, "shuffles": 0})
    rec["drawn"] = int(rec["drawn"]) + n


def reshuffled(d: dict[str, Any], pile: str) -> None:
    """``pile`` reshuffled: a new order, none drawn from it yet."""
    rec = d["draws"].setdefault(pile, {"drawn": 0, "shuffles": 0})
    rec["shuffles"], rec["drawn"] = int(rec["shuffles"]) + 1, 0
