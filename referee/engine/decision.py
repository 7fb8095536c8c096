"""What every game's decider shares: refusals as values, the state built by one decision, match
options and the bases of intents and events.

* :class:`Refusal` (defined beside the verdicts) is raised by a failed check deep inside a decision;
  ``RulesBase.decide`` turns it into the :class:`~referee.engine.protocol.Rejected` verdict
  (``decide`` never raises for a bad intent).
* :class:`Decision` is the state being built by one decision: events are applied as they are emitted,
  so later checks see their effect; ``check`` is a rule an arbiter's "stands as played" ruling may
  waive, ``require`` (and ``fail``) one without which the intent cannot be carried out at all.
* :func:`option` and :data:`FLAG` build a game's match options; :func:`by_name` indexes them.
* :class:`IntentBase` and :class:`EventBase` are the bases of a game's intents and events (tagged by
  ``type``, frozen, keyword-only), and :func:`named` gives a field its name as typed (``from``).

Pure: nothing here reads a file, the clock or a random generator.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any, NoReturn

import msgspec

from .protocol import Accepted, OptionSpec, Refusal

__all__ = ["FLAG", "Decision", "EventBase", "IntentBase", "Refusal", "by_name", "named", "option"]


class Decision:
    """The state built by one decision. ``prefix`` is the game's code scope (``"war_of_shadows/"``);
    ``waive`` the codes an arbiter's ruling waives this once.

    One vocabulary for every game's checks, in which the spelling declares whether a ruling may waive
    the check:

    * ``check(ok, reason, ...)``: a rule of the game. A ruling naming its code waives it (the decision
      goes on as if it held), so only what the referee can still resolve is written so;
    * ``require(ok, reason, ...)``: a check without which the intent cannot be carried out at all (an
      unknown id, a card that is not there, the phase, whose turn), never waived;
    * ``fail(reason, ...)``: ``require`` found false, for a caller that has branched already (it never
      returns, so the type checker knows what holds after it).

    A check whose message is worth building only when it fails is written ``if bad: check(False, ...)``.
    """

    __slots__ = ("prefix", "state", "events", "waive", "manual", "_evolve")

    #: whether ``state`` follows the events (False for a game that records its changes otherwise)
    keeps_state = True

    def __init__(self, prefix: str, state: Any, evolve: Callable[[Any, Any], Any] | None = None, *,
                 waive: frozenset[str] = frozenset()) -> None:
        self.prefix = prefix
        self.state = state
        self.events: list[Any] = []
        self.waive = waive
        #: the intent declared an effect the rules do not print (flagged for audit)
        self.manual = False
        self._evolve = evolve

    def apply(self, state: Any, event: Any) -> Any:
        """The state after one event: ``evolve`` as given, or a subclass's own. (Never hand a method of
        the decision itself to ``__init__``: the decision would hold itself, a reference cycle that
        only the cyclic collector frees, and an audit makes thousands of decisions.)"""
        assert self._evolve is not None, "a Decision needs evolve or an apply of its own"
        return self._evolve(state, event)

    def emit(self, *events: Any) -> None:
        """Record events and apply them at once."""
        for event in events:
            self.state = self.apply(self.state, event)
            self.events.append(event)

    def code(self, reason: str) -> str:
        return reason if "/" in reason else self.prefix + reason

    def fail(self, reason: str, message: str, rule: str = "") -> NoReturn:
        """Refuse the intent: a check without which it cannot be carried out, found false."""
        raise Refusal(self.code(reason), message, rule)

    def check(self, ok: bool, reason: str, message: str, rule: str = "") -> None:
        """A rule of the game: an arbiter's "stands as played" ruling may waive it."""
        if not ok and self.code(reason) not in self.waive:
            self.fail(reason, message, rule)

    def require(self, ok: bool, reason: str, message: str, rule: str = "") -> None:
        """A check without which the intent cannot be carried out at all (never waived)."""
        if not ok:
            self.fail(reason, message, rule)

    def accepted(self) -> Accepted[Any]:
        return Accepted(tuple(self.events), manual=self.manual)


#: the choices of a yes/no option
FLAG = (True, False)


def option(name: str, default: Any, choices: tuple[Any, ...] = (), help: str = "", rule: str = "",
           **more: Any) -> OptionSpec:
    """A match option: its default ruling first, then the other readings (``choices``)."""
    return OptionSpec(name=name, default=default, choices=choices, help=help, rule=rule, **more)


def by_name(options: Iterable[OptionSpec]) -> Mapping[str, OptionSpec]:
    return {o.name: o for o in options}


class IntentBase(msgspec.Struct, frozen=True, kw_only=True, tag_field="type"):
    """Base of a game's intents: tagged by ``type`` (the verb), frozen, keyword-only."""


class EventBase(msgspec.Struct, frozen=True, kw_only=True, tag_field="type"):
    """Base of a game's events: tagged by ``type``, frozen, keyword-only."""


def named(name: str, default: Any = msgspec.NODEFAULT) -> Any:
    """A field written ``name`` in the notation and the JSON (``from_`` is written ``from``)."""
    return msgspec.field(default=default, name=name)
