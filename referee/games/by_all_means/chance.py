"""Digital chance (DESIGN.md): in a digital match the referee fills the chance fields of an intent
(marked [C] in the rules spec) from the match's generator before recording it, so a replay never
re-rolls. With exact archive tracking the generator already decided the order at setup, so a draw
is the top of the archive; with pool tracking the cards are picked from the unseen pool. A typed
value that differs from the generator's is ``chance_mismatch``."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from msgspec.structs import replace

from referee.engine.chance import Chance
from referee.engine.protocol import Rejected

from .model import (
    AgentDraw,
    DrawMain,
    DrawOpeningHand,
    DrawStartCards,
    Mulligan,
    PlaySymbols,
    RecordLot,
    State,
    Utilize,
)

if TYPE_CHECKING:
    from .rules import ByAllMeansRules


def _top(rules: ByAllMeansRules, state: State, seat: str, zone: str, n: int, chance: Chance) -> tuple[str, ...]:
    p = state.players[seat]
    arch = getattr(p, zone)
    n = max(0, min(n, arch.count))
    if rules.ctx.exact:
        return tuple(arch.cards[:n])
    return tuple(chance.shuffled(p.unseen)[:n])


def _mismatch(field: str, typed: Any, drawn: Any) -> Rejected:
    return Rejected("by_all_means/chance_mismatch",
                    f"{field}: typed {typed!r}, but this digital match's generator gives {drawn!r} (omit it to let the referee draw)",
                    "R-ARCHIVES")


def _cards(intent: Any, field: str, drawn: tuple[str, ...]) -> Any:
    typed = tuple(getattr(intent, field))
    if typed and typed != drawn:
        return _mismatch(field, ",".join(typed), ",".join(drawn))
    return replace(intent, **{field: drawn})


def _card(intent: Any, field: str, drawn: tuple[str, ...]) -> Any:
    typed = getattr(intent, field)
    value = drawn[0] if drawn else None
    if typed is not None and typed != value:
        return _mismatch(field, typed, value)
    return replace(intent, **{field: value})


def fill(rules: ByAllMeansRules, state: State, seat: str, intent: Any, chance: Chance | None) -> Any:
    if chance is None:
        return intent
    o = rules.opts
    match intent:
        case DrawOpeningHand():
            return _cards(intent, "cards", _top(rules, state, seat, "main_archive", o["opening_hand"], chance))
        case RecordLot(winner=winner):
            drawn = chance.choice(rules.players)
            if winner is not None and winner != drawn:
                return _mismatch("winner", winner, drawn)
            return replace(intent, winner=drawn)
        case Mulligan():
            return _cards(intent, "drawn", _top(rules, state, seat, "main_archive", len(intent.return_), chance))
        case DrawStartCards():
            return _cards(intent, "cards", _top(rules, state, seat, "main_archive", o["empty_hand_draw"], chance))
        case DrawMain():
            return _card(intent, "card", _top(rules, state, seat, "main_archive", 1, chance))
        case AgentDraw():
            return _card(intent, "card", _top(rules, state, seat, "extra_archive", 1, chance))
        case Utilize():
            if state.players[seat].main_archive.count == 0:
                return intent
            return _card(intent, "drawn", _top(rules, state, seat, "main_archive", 1, chance))
        case PlaySymbols():
            effect = _effect(rules, intent)
            if effect == "boost_potential":
                return _cards(intent, "cards", _top(rules, state, seat, "main_archive", 2, chance))
            if effect == "info_leak" and intent.archive is not None:
                owner, _, which = intent.archive.rpartition(".")
                if owner in state.players and which in ("main", "extra"):
                    return _cards(intent, "cards", _top(rules, state, owner, f"{which}_archive", 2, chance))
            return intent
    return intent


def _effect(rules: ByAllMeansRules, intent: PlaySymbols) -> str | None:
    """The effect a symbol combination names (from its typed symbols), if it is well-formed."""
    if len(intent.use) != 2:
        return None
    symbols = [u.rsplit(":", 1)[-1] for u in intent.use]
    combo = rules.ctx.table.get((min(symbols), max(symbols)))
    return None if combo is None else combo.effect
