"""The decision being built: a working copy of the state, changed in place by the procedures, and
the events that record each change (spec §4.28).

``Tx.d`` is the state as plain mappings (a fresh copy per decision). A procedure changes it and then
says what happened with :meth:`Tx.say`: a kind the fold has a handler for is a domain fact (its fields
say what happened; the fold computes the change, :mod:`.fold`); any other kind gets, in ``changes``,
every state path changed since the previous event (two levels deep: ``turn`` → ``turn.attack``), so
``evolve`` replays it by writing those values back. With :data:`CHECK` on (tests), every event is folded
as it is said and the result compared with the working copy: a fact that does not say all that changed
fails there. A failed check raises a refusal, which ``decide``
returns as a Rejected value; the working copy is then thrown away. A game rule is spelled ``check``
(an arbiter's ruling "stands as played" waives it: playing past a once-per-turn limit, fighting a
Stealth card in the Shadows, ...); what the intent cannot be carried out without (a card that is not
there, the phase, what is pending, paying) is ``require`` or ``fail``, never waived.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

import msgspec

from referee.engine.decision import Decision

from .fold import HANDLERS, evolve
from .model import VOCABULARY, Change, Fact, State

if TYPE_CHECKING:
    from .data import Card
    from .rules import XFilesRules

PREFIX = "xfiles_encounters/"

#: fold every event as it is said and compare with the working copy (the tests' cross-check, costly)
CHECK = False

_enc = msgspec.json.Encoder()
_dec = msgspec.json.Decoder()


def copy(value: Any) -> Any:
    """A deep copy of plain JSON data."""
    return _dec.decode(_enc.encode(value))


def to_dict(state: State) -> dict[str, Any]:
    out: dict[str, Any] = copy(msgspec.to_builtins(state))
    out.setdefault("x_leader", "")  # omitted from the encoding while empty (State.x_leader, climax_dealt)
    out.setdefault("climax_dealt", [])
    out.setdefault("draws", {})
    return out


def diff(old: dict[str, Any], new: dict[str, Any]) -> list[Change]:
    changes: list[Change] = []
    for key in sorted(new):
        a, b = old.get(key), new[key]
        if a == b:
            continue
        if isinstance(a, dict) and isinstance(b, dict) and set(a) == set(b):
            for sub in sorted(b):
                if a[sub] != b[sub]:
                    changes.append(Change(f"{key}.{sub}", copy(b[sub])))
        else:
            changes.append(Change(key, copy(b)))
    return changes


class Tx(Decision):
    """One decision on a working copy ``d`` of the state. ``state`` stays the state it began on: the
    events record their changes as paths (``Fact.changes``), which ``evolve`` writes back."""

    __slots__ = ("rules", "seat", "d", "_last", "source", "_folded")

    keeps_state = False

    def __init__(self, rules: XFilesRules, state: State, seat: str, waive: frozenset[str] = frozenset()) -> None:
        super().__init__(PREFIX, state, None, waive=waive)
        self.rules = rules
        self.seat = seat
        self.d: dict[str, Any] = to_dict(state)
        self._last: dict[str, Any] = copy(self.d)
        #: the card (or place) whose text the ops being applied declare (manual_effect, resolve_effect)
        self.source = ""
        #: the state the events said so far fold to (kept with CHECK on)
        self._folded = state

    # -- events ------------------------------------------------------------------------------------------------

    def say(self, kind: type[Fact], /, **public: Any) -> None:
        """Record an event: a domain fact with the fields given, or (a kind the fold has no handler
        for) the public facts given and every change made since the last event."""
        if HANDLERS.get(kind) is not None:
            step = self.d["turn"]["step"]
            moved = step != self._last["turn"]["step"]
            self.events.append(kind(vocabulary=VOCABULARY, step=step if moved else None, **public))
        else:
            self.events.append(kind(changes=tuple(diff(self._last, self.d)), **public))
        self._last = copy(self.d)
        if CHECK:
            self._check()

    def flush(self) -> None:
        """Attach changes made after the last event to it (every change is in some event)."""
        changes = diff(self._last, self.d)
        if not changes:
            return
        if self.events:
            last = self.events[-1]
            if last.vocabulary >= VOCABULARY and HANDLERS.get(type(last)) is not None:
                step = self.d["turn"]["step"]
                if step != self._last["turn"]["step"]:  # a fact's last word: where the procedure goes on
                    last = msgspec.structs.replace(last, step=step)
                    changes = [c for c in changes if c.path != "turn.step"]
            self.events[-1] = msgspec.structs.replace(last, changes=(*last.changes, *changes))
        else:
            from .model import ManualEffectApplied
            self.events.append(ManualEffectApplied(changes=tuple(changes)))
        self._last = copy(self.d)
        if CHECK:
            self._folded = self.state
            for event in self.events[:-1]:
                self._folded = evolve(self._folded, event)
            self._check()

    def _check(self) -> None:
        """The cross-check: the last event folded onto the events before it gives the working copy."""
        event = self.events[-1]
        assert event.vocabulary < VOCABULARY or not event.changes, \
            f"{type(event).__name__} is a domain fact but carries paths {[c.path for c in event.changes]}"
        self._folded = evolve(self._folded, event)
        got = to_dict(self._folded)
        if got != self.d:
            wrong = [c.path for c in diff(got, self.d)]
            raise AssertionError(f"{type(event).__name__} {event!r} folds to a state that differs at {wrong}")

    # -- reading the working state -----------------------------------------------------------------------------

    @property
    def turn(self) -> dict[str, Any]:
        t: dict[str, Any] = self.d["turn"]
        return t

    @property
    def opt(self) -> dict[str, Any]:
        o: dict[str, Any] = self.d["options"]
        return o

    @property
    def current(self) -> str:
        return str(self.turn["seat"])

    def player(self, seat: str) -> dict[str, Any]:
        p: dict[str, Any] = self.d["players"][seat]
        return p

    def card(self, card_id: str) -> Card:
        return self.rules.cards[card_id]

    def over(self) -> bool:
        return self.d["status"] in ("won", "lost")

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
        """Copies of each card known to be somewhere in the state (§2.4 rule 3)."""
        return known_cards(self.d)

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


def known_cards(d: dict[str, Any]) -> Counter[str]:
    found: Counter[str] = Counter()

    def add(cards: Any) -> None:
        for c in cards:
            if isinstance(c, str) and c:
                found[c] += 1

    for zone in ("shadows", "bureau"):
        for slot in d[zone].values():
            add([slot.get("card", "")])
            add(slot.get("attached", []))
            add(slot.get("beneath", []))
    add(d["sector"])
    add(d["defeated_conspiracy"])
    add(d["defeated_characters"])
    add(d["strike_discard"])
    add(d["strike_deck"]["cards"])
    add(d["special_agents"]["cards"])
    for ev in d["evidence"].values():
        add([ev.get("card", "")])
    add([e.get("card", "") for e in d["clone_evidence"]])
    for cards in d["end_game_strikes"].values():
        add(cards)
    for seg in d["conspiracy_deck"]["segments"]:
        add(seg.get("cards", []))
    for p in d["players"].values():
        add([p["avatar"]])
        for zone in ("hand", "deck", "discard", "vigilant", "wounds", "scars", "climax"):
            add(p[zone])
        add([x["card"] for x in p["play"] if not x.get("virtual_of")])
        add([p["coordinated_out"]])
    return found


def drew(d: dict[str, Any], pile: str, n: int = 1) -> None:
    """``n`` more cards drawn from ``pile`` (in the working copy ``d``): its next draw has a new key."""
    rec = d["draws"].setdefault(pile, {"drawn": 0, "shuffles": 0})
    rec["drawn"] = int(rec["drawn"]) + n


def reshuffled(d: dict[str, Any], pile: str) -> None:
    """``pile`` reshuffled: a new order, none drawn from it yet."""
    rec = d["draws"].setdefault(pile, {"drawn": 0, "shuffles": 0})
    rec["shuffles"], rec["drawn"] = int(rec["shuffles"]) + 1, 0
