"""What every game's decider shares: refusals as values, the state built by one decision, match
options and the bases of intents and events.

* :class:`Refusal` is raised by a failed check deep inside a decision; :meth:`Decision.run` turns it
  into the :class:`~referee.engine.protocol.Rejected` verdict (``decide`` never raises for a bad
  intent).
* :class:`Decision` is the state being built by one decision: events are applied as they are emitted,
  so later checks see their effect; ``check`` is a rule an arbiter's "stands as played" ruling may
  waive, ``require`` one without which the intent cannot be carried out at all.
* :func:`option` and :data:`FLAG` build a game's match options; :func:`by_name` indexes them.
* :class:`IntentBase` and :class:`EventBase` are the bases of a game's intents and events (tagged by
  ``type``, frozen, keyword-only), and :func:`named` gives a field its name as typed (``from``).

Pure: nothing here reads a file, the clock or a random generator.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any, NoReturn

import msgspec

from .protocol import Accepted, OptionSpec, Rejected


class Refusal(Exception):
    """A failed check: the intent is rejected with ``code`` (``<game>/<reason>``), a message naming the
    values, and the rule it cites."""

    def __init__(self, code: str, message: str, rule: str = "") -> None:
        super().__init__(message)
        self.code, self.message, self.rule = code, message, rule

    @property
    def verdict(self) -> Rejected:
        return Rejected(self.code, self.message, self.rule)


class Decision:
    """The state built by one decision. ``prefix`` is the game's code scope (``"war_of_shadows/"``);
    ``waive`` the codes an arbiter's ruling waives this once, of which only ``waivable`` may be (None:
    any the rules call a check)."""

    __slots__ = ("prefix", "state", "events", "waive", "waivable", "manual", "_evolve")

    def __init__(self, prefix: str, state: Any, evolve: Callable[[Any, Any], Any] | None = None, *,
                 waive: frozenset[str] = frozenset(), waivable: frozenset[str] | None = None) -> None:
        self.prefix = prefix
        self.state = state
        self.events: list[Any] = []
        self.waive = waive
        self.waivable = waivable
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
        raise Refusal(self.code(reason), message, rule)

    def waived(self, reason: str) -> bool:
        code = self.code(reason)
        return code in self.waive and (self.waivable is None or code in self.waivable)

    def check(self, ok: bool, reason: str, message: str, rule: str = "") -> None:
        """A rule check: an arbiter's "stands as played" ruling may waive it."""
        if not ok and not self.waived(reason):
            self.fail(reason, message, rule)

    def violated(self, reason: str, message: str, rule: str = "") -> None:
        """A rule check found false (for a caller that builds the message only when it fails)."""
        if not self.waived(reason):
            self.fail(reason, message, rule)

    def require(self, ok: bool, reason: str, message: str, rule: str = "") -> None:
        """A check without which the intent cannot be carried out at all (never waived)."""
        if not ok:
            self.fail(reason, message, rule)

    def accepted(self) -> Accepted[Any]:
        return Accepted(tuple(self.events), manual=self.manual)

    def run(self, steps: Callable[[], None]) -> Accepted[Any] | Rejected:
        """The verdict of running ``steps`` (which check and emit): accepted with the events emitted,
        or the first refusal."""
        try:
            steps()
        except Refusal as refusal:
            return refusal.verdict
        return self.accepted()


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
