"""Reading Copycat logs stored before its counters and flags were facts of their own.

Until 2026-11-28 a counter or a flag changed by an ``adjusted`` event (a state path and a delta) or a
``flag_set`` event (a state path and a value). A stored log still holds them; :func:`upcast` turns each
into the domain events the referee emits today for the same move, so an old log folds to the same
states and audits clean (the derived verdict equals the stored one read this way). The stored bytes,
and so every entry hash, stay as they were.

:data:`RULES` is the whole map, keyed by tag and path pattern: a run of old events that one move emitted
together (a recruitment's three counters, say) becomes the one event it was. An old event no rule reads
is refused with its tag and path (:class:`msgspec.ValidationError`, raised where the log is read: the
log reads as corrupt and ``referee audit`` names it), never guessed at. A declared manual effect's paths
are its vocabulary's (``manual.VOCABULARY``), read here too: a version this referee does not know is
refused the same way.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

import msgspec

from referee.engine.decision import EventBase

from .manual import VOCABULARY
from .model import (
    Bought, CardPending, CardUsed, CardUsedAgain, CoinsGained, Doubled, ElbowPermitsGained, FinalRound,
    FreePlacementGained, FreePlacementUsed, HandLaidDown, KeptPermitsTaken, KeptPlacementsTaken, ManualApplied,
    OfficeUsed, Passed, PassLifted, PermitsKept, PlacementsGained, PlacementsKept, PurchaseDue, PurchaseForfeited,
    PurchasesGained, TurnActed, VpGained, WorkersRecruited,
)

# -- the retired events, as they were stored ---------------------------------------------------------------


class Adjusted(EventBase, frozen=True, kw_only=True, tag="adjusted"):
    """Retired: a counter at a state path changed by ``delta``."""

    delta: int
    path: str
    why: str = ""


class FlagSet(EventBase, frozen=True, kw_only=True, tag="flag_set"):
    """Retired: a flag or a use counter at a state path set to ``value``."""

    path: str
    value: int | bool


#: the retired kinds, decoded beside :data:`~.model.Event`
Retired = Adjusted | FlagSet

# -- the map ------------------------------------------------------------------------------------------------


class Old(NamedTuple):
    """One old event matched: its number (a delta, or a flag's value) and the path's named parts."""

    number: int | bool
    parts: dict[str, str]


class Step(NamedTuple):
    """An old event a rule reads: its tag, its path (a pattern naming ``seat``, ``card``, ``office``) and
    what its number may be."""

    tag: str
    path: re.Pattern[str]
    number: Callable[[int | bool], bool]
    why: str = ""


class Rule(NamedTuple):
    """A run of old events one move emitted together (``steps``) and what they are now (``build``: None if
    the run's numbers or seats do not agree). ``after``: the run must follow an event of that kind."""

    steps: tuple[Step, ...]
    build: Callable[[Sequence[Old]], tuple[Any, ...] | None]
    after: type | None = None


_HOLES = {"<seat>": r"(?P<seat>[^.]+)", "<card>": r"(?P<card>[^.]+)", "<office>": r"(?P<office>[^.]+)"}


def _step(tag: str, path: str, number: Callable[[int | bool], bool], why: str = "") -> Step:
    pattern = r"\.".join(_HOLES.get(part, re.escape(part)) for part in path.split("."))
    return Step(tag, re.compile(pattern + r"\Z"), number, why)


def _positive(n: int | bool) -> bool:
    return not isinstance(n, bool) and n > 0


def _negative(n: int | bool) -> bool:
    return not isinstance(n, bool) and n < 0


def _count(n: int | bool) -> bool:
    return not isinstance(n, bool) and n >= 0


def _one(n: int | bool) -> bool:
    return not isinstance(n, bool) and n == 1


def _zero(n: int | bool) -> bool:
    return not isinstance(n, bool) and n == 0


def _true(n: int | bool) -> bool:
    return n is True


def _false(n: int | bool) -> bool:
    return n is False


def _same_seat(run: Sequence[Old]) -> str | None:
    seats = {o.parts["seat"] for o in run if "seat" in o.parts}
    return seats.pop() if len(seats) == 1 else None


def _recruited(run: Sequence[Old]) -> tuple[Any, ...] | None:
    seat, n = _same_seat(run), int(run[0].number)
    if seat is None or int(run[1].number) != n or int(run[2].number) != -n:
        return None
    return (WorkersRecruited(seat=seat, count=n),)


def _seat(run: Sequence[Old]) -> str:
    return run[0].parts["seat"]


P = "players.<seat>"
RULES: tuple[Rule, ...] = (
    # runs first (several old events, one fact)
    Rule((_step("adjusted", f"{P}.workers_available", _positive), _step("adjusted", f"{P}.extra_workers", _positive),
          _step("adjusted", "worker_supply.<seat>", _negative)), _recruited),
    Rule((_step("adjusted", "turn.free_placements", lambda n: n == -1),
          _step("adjusted", f"{P}.workers_available", _one)),
         lambda run: (FreePlacementUsed(seat=run[1].parts["seat"]),)),
    Rule((_step("adjusted", "turn.placements_left", _one), _step("adjusted", "turn.free_placements", _one)),
         lambda run: (FreePlacementGained(),)),
    Rule((_step("adjusted", "turn.elbow_permits", _positive), _step("flag_set", f"{P}.kept_permits", _zero)),
         lambda run: (KeptPermitsTaken(seat=run[1].parts["seat"], count=int(run[0].number)),)),
    Rule((_step("adjusted", "turn.placements_left", _positive), _step("flag_set", f"{P}.kept_placements", _zero)),
         lambda run: (KeptPlacementsTaken(seat=run[1].parts["seat"], count=int(run[0].number)),)),
    Rule((_step("adjusted", f"{P}.buys_left", lambda n: n == -1), _step("flag_set", "turn.buy_now", _false)),
         lambda run: (PurchaseForfeited(seat=_seat(run)),)),
    # a purchase that was due, made: the Bought before it says so now
    Rule((_step("flag_set", "turn.buy_now", _false),), lambda run: (), after=Bought),
    # one old event, one fact
    Rule((_step("adjusted", f"{P}.coins.doublable", _count),),
         lambda run: (CoinsGained(seat=_seat(run), coins=int(run[0].number)),)),
    Rule((_step("adjusted", f"{P}.coins.plain", _count),),
         lambda run: (CoinsGained(seat=_seat(run), coins=int(run[0].number), doublable=False),)),
    Rule((_step("adjusted", f"{P}.vp_pending", _count),), lambda run: (VpGained(seat=_seat(run), vp=int(run[0].number)),)),
    Rule((_step("adjusted", f"{P}.buys_left", _count),),
         lambda run: (PurchasesGained(seat=_seat(run), count=int(run[0].number)),)),
    Rule((_step("flag_set", "turn.buy_now", _true),), lambda run: (PurchaseDue(),)),
    Rule((_step("flag_set", f"{P}.card_uses.<card>", _one),),
         lambda run: (CardUsed(seat=_seat(run), card=run[0].parts["card"]),)),
    Rule((_step("flag_set", f"{P}.card_uses.<card>", _zero),),
         lambda run: (CardPending(seat=_seat(run), card=run[0].parts["card"]),)),
    Rule((_step("adjusted", f"{P}.card_uses.<card>", _one),),
         lambda run: (CardUsedAgain(seat=_seat(run), card=run[0].parts["card"]),)),
    Rule((_step("flag_set", "offices.<office>.uses.<seat>", _positive),),
         lambda run: (OfficeUsed(seat=_seat(run), office=run[0].parts["office"], times=int(run[0].number)),)),
    Rule((_step("flag_set", "turn.acted", _true),), lambda run: (TurnActed(),)),
    Rule((_step("adjusted", "turn.placements_left", _positive),),
         lambda run: (PlacementsGained(count=int(run[0].number)),)),
    Rule((_step("adjusted", "turn.elbow_permits", _positive),),
         lambda run: (ElbowPermitsGained(count=int(run[0].number)),)),
    Rule((_step("flag_set", f"{P}.kept_permits", _positive),),
         lambda run: (PermitsKept(seat=_seat(run), count=int(run[0].number)),)),
    Rule((_step("flag_set", f"{P}.kept_placements", _positive),),
         lambda run: (PlacementsKept(seat=_seat(run), count=int(run[0].number)),)),
    Rule((_step("adjusted", f"{P}.coin_doublings", _one),), lambda run: (Doubled(seat=_seat(run), what="coins"),)),
    Rule((_step("adjusted", f"{P}.token_doublings", _one),), lambda run: (Doubled(seat=_seat(run), what="tokens"),)),
    Rule((_step("adjusted", f"{P}.coin_doublings", _zero, "doubling_capped"),),
         lambda run: (Doubled(seat=_seat(run), what="coins", capped=True),)),
    Rule((_step("adjusted", f"{P}.token_doublings", _zero, "doubling_capped"),),
         lambda run: (Doubled(seat=_seat(run), what="tokens", capped=True),)),
    Rule((_step("flag_set", f"{P}.passed", _true),), lambda run: (Passed(seat=_seat(run)),)),
    Rule((_step("flag_set", f"{P}.passed", _false),), lambda run: (PassLifted(seat=_seat(run)),)),
    Rule((_step("flag_set", f"{P}.laid_down", _true),), lambda run: (HandLaidDown(seat=_seat(run)),)),
    Rule((_step("flag_set", "round", _positive),), lambda run: (FinalRound(round=int(run[0].number)),)),
)


@functools.lru_cache(maxsize=4096)  # a log repeats its old events (the same path, the same number) often
def _matches(step: Step, event: Any) -> Old | None:
    if not isinstance(event, (Adjusted, FlagSet)) or event.__struct_config__.tag != step.tag:
        return None
    number = event.delta if isinstance(event, Adjusted) else event.value
    why = event.why if isinstance(event, Adjusted) else ""
    found = step.path.match(event.path)
    if found is None or why != step.why or not step.number(number):
        return None
    return Old(number, {k: v for k, v in found.groupdict().items() if v is not None})


def _run(rule: Rule, events: Sequence[Any], i: int) -> tuple[Any, ...] | None:
    if len(events) - i < len(rule.steps):
        return None
    if rule.after is not None and (i == 0 or not isinstance(events[i - 1], rule.after)):
        return None
    run = []
    for step, event in zip(rule.steps, events[i:i + len(rule.steps)]):
        old = _matches(step, event)
        if old is None:
            return None
        run.append(old)
    return rule.build(run)


def _describe(event: Any) -> str:
    if isinstance(event, Adjusted):
        return f"adjusted {event.path} by {event.delta}" + (f" ({event.why})" if event.why else "")
    return f"flag_set {event.path} = {str(event.value).lower()}"


def upcast(events: tuple[Any, ...]) -> tuple[Any, ...]:
    """``events`` as stored, with every retired event read as the domain events it was (the same tuple
    when there are none). Raises :class:`msgspec.ValidationError` naming an old event no rule reads."""
    if not any(isinstance(e, (Adjusted, FlagSet)) or (isinstance(e, ManualApplied) and e.vocabulary != VOCABULARY)
               for e in events):
        return events
    out: list[Any] = []
    i = 0
    while i < len(events):
        event = events[i]
        if isinstance(event, ManualApplied) and event.vocabulary != VOCABULARY:
            raise msgspec.ValidationError(
                f"copycat: a stored manual effect speaks declared-effect vocabulary {event.vocabulary}; this referee "
                f"reads vocabulary {VOCABULARY} only")
        if not isinstance(event, (Adjusted, FlagSet)):
            out.append(event)
            i += 1
            continue
        for rule in RULES:
            now = _run(rule, events, i)
            if now is not None:
                out.extend(now)
                i += len(rule.steps)
                break
        else:
            raise msgspec.ValidationError(
                f"copycat: a stored event `{_describe(event)}` names a state path the upcaster does not know "
                "(it reads the counters and flags the referee wrote before 2026-11-28)")
    return tuple(out)
