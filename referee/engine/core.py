"""Canonical encoding, hashing, the framework checks and the fold.

* ``canonical(x)``: JSON with sorted keys and struct fields, no floats for game values: the bytes
  every hash is taken over. Same value, same bytes, in any process, any day.
* Entry hash chain: ``hash = sha256(prev_hash || "\\n" || canonical(body))``; the first entry's
  ``prev_hash`` is the match's genesis hash (over its id, game, rules version and configuration).
* ``adjudicate`` runs the framework checks (match over, not your turn) before the game's own rules,
  fills chance fields in digital matches, and returns the verdict as a value.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from typing import Any, Generic, TypeVar

import msgspec

from schemas import ENTRY_FORMAT, MatchConfig, Seat

from .chance import Chance
from .protocol import Accepted, Rejected, Rules, Verdict

I = TypeVar("I")  # noqa: E741
E = TypeVar("E")

_encoder = msgspec.json.Encoder(order="sorted")


def canonical(value: Any) -> bytes:
    """Deterministic JSON bytes of any msgspec/builtin value (sorted keys and fields)."""
    return _encoder.encode(value)


def sha256_hex(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def state_hash(state: Any) -> str:
    return sha256_hex(canonical(state))


def genesis_hash(match_id: str, rules_version: str, config: MatchConfig) -> str:
    head = {"match": match_id, "rules_version": rules_version, "config": config, "format": ENTRY_FORMAT}
    return sha256_hex(b"referee:genesis\n" + canonical(head))


def entry_hash(prev_hash: str, body: bytes) -> str:
    return sha256_hex(prev_hash.encode("ascii") + b"\n" + body)


class EntryBody(msgspec.Struct, Generic[I, E], frozen=True, kw_only=True):
    """The hashed part of a log entry.

    ``kind`` is ``"intent"`` for a player's intent (accepted or rejected). Other kinds (undo,
    ruling, unparsed transcript line) carry no intent and are interpreted by the service layer.
    ``notation`` is the line as the person typed it; ``intent`` is what was adjudicated (in a digital
    match, with the chance fields the referee filled in).
    """

    format: int = ENTRY_FORMAT
    seq: int
    kind: str = "intent"
    actor: Seat | None = None
    notation: str = ""
    intent: I | None = None
    verdict: Accepted[E] | Rejected | None = None
    meta: dict[str, Any] = {}


def body_type(game: Any) -> Any:
    """The decode type of a game's entry bodies."""
    return EntryBody[game.intent_type, game.event_type]  # type: ignore[name-defined]


def chance_for(config: MatchConfig, salt: str) -> Chance | None:
    if config.chance != "digital":
        return None
    return Chance(config.seed or 0, salt)


def adjudicate(
    rules: Rules[Any, Any, Any], state: Any, seat: Seat, intent: Any, chance: Chance | None,
    waive: frozenset[str] = frozenset(),
) -> tuple[Any, Verdict]:
    """Framework checks, then the game's own. Returns (the intent as recorded, its verdict).

    ``waive`` (an arbiter's ruling "stands as played") names rejection codes of the game's own checks
    that are not applied this once; the framework's checks are never waived.
    """
    if rules.outcome(state) is not None:
        return intent, Rejected("match/over", "the match is over; no further intents are accepted", "")
    actors = rules.actors(state, intent)
    if seat not in actors:
        who = ", ".join(sorted(actors)) or "nobody"
        return intent, Rejected(
            "turn/not_your_turn", f"{seat} may not {type(intent).__struct_config__.tag} now (may act: {who})", ""
        )
    filled = rules.filled_intent(state, seat, intent, chance)
    if isinstance(filled, Rejected):
        return intent, filled
    if waive:
        return filled, rules.decide(state, seat, filled, chance, waive=waive)  # type: ignore[call-arg]
    return filled, rules.decide(state, seat, filled, chance)


def apply(rules: Rules[Any, Any, Any], state: Any, verdict: Verdict | None) -> Any:
    """The state after a verdict: its events folded in order. A game whose ``decide`` already
    produced that state may hand it over (``applied(state, verdict)``, matched by identity)."""
    if isinstance(verdict, Accepted):
        applied = getattr(rules, "applied", None)
        if applied is not None:
            known = applied(state, verdict)
            if known is not None:
                return known
        for event in verdict.events:
            state = rules.evolve(state, event)
    return state


def fold(rules: Rules[Any, Any, Any], state: Any, verdicts: Iterable[Verdict | None]) -> Any:
    for verdict in verdicts:
        state = apply(rules, state, verdict)
    return state
