"""Digital chance (DESIGN.md): in a digital match the referee fills the chance fields of an intent
(marked [C] in the rules spec) from the match's generator before recording it, so a replay never
re-rolls. With exact archive tracking the generator decides an archive's order when it is dealt or
shuffled, so a draw is the top of the archive; with pool tracking the cards are picked from the unseen
pool. A typed value that differs from the generator's is ``chance_mismatch``.

Every outcome is derived from the seed and the history of the deck it comes from, never from the
entry it is played in: a shuffle from which archive it shuffles and how often that archive was
shuffled before (``State.shuffles``), a pool draw from the seat, how often cards went back into its
pool and how many are left in it, the lot from nothing else. So undo and the same move draw the same
card, a refused line or another harmless action first changes nothing, and a fork draws what the main
line drew."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from msgspec.structs import replace

from referee.engine.chance import Chance
from referee.engine.protocol import Rejected

from .codes import Code
from .fold import shuffles
from .model import (
    Intent,
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
from .txn import BoundRules


def _top(rules: BoundRules, state: State, seat: str, zone: str, n: int, chance: Chance) -> tuple[str, ...]:
    p = state.players[seat]
    arch = getattr(p, zone)
    n = max(0, min(n, arch.count))
    if rules.ctx.exact:
        return tuple(arch.cards[:n])
    return tuple(pool_chance(state, seat, chance).shuffled(p.unseen)[:n])


def pool_chance(state: State, seat: str, chance: Chance) -> Chance:
    """The generator of a draw from ``seat``'s unseen pool (pool tracking): the pool as shuffled after
    the last time cards went back into it, so many cards into it."""
    k = shuffles(state).get(f"{seat}.pool", 0)
    return chance.derive(f"pool:{seat}:shuffle{k}:left{len(state.players[seat].unseen)}")


def shuffle_chance(state: State, owner: str, zone: str, chance: Chance) -> Chance:
    """The generator of the next shuffle of ``owner``'s ``zone`` (``main_archive``, ``extra_archive``,
    or ``archives`` for both dealt again together): which archive, how often it was shuffled before."""
    counts = shuffles(state)
    if zone == "archives":
        k = f"{counts.get(f'{owner}.main_archive', 0)}.{counts.get(f'{owner}.extra_archive', 0)}"
    else:
        k = str(counts.get(f"{owner}.{zone}", 0))
    return chance.derive(f"shuffle:{owner}.{zone}:{k}")


def _mismatch(field: str, typed: Any, drawn: Any) -> Rejected:
    return Rejected(Code.CHANCE_MISMATCH,
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


def _opening_hand(rules: BoundRules, state: State, seat: str, intent: DrawOpeningHand, chance: Chance) -> Any:
    return _cards(intent, "cards", _top(rules, state, seat, "main_archive", rules.ctx.opts["opening_hand"], chance))


def _record_lot(rules: BoundRules, state: State, seat: str, intent: RecordLot, chance: Chance) -> Any:
    drawn = chance.derive("lot").choice(rules.ctx.players)
    if intent.winner is not None and intent.winner != drawn:
        return _mismatch("winner", intent.winner, drawn)
    return replace(intent, winner=drawn)


def _mulligan(rules: BoundRules, state: State, seat: str, intent: Mulligan, chance: Chance) -> Any:
    return _cards(intent, "drawn", _top(rules, state, seat, "main_archive", len(intent.return_), chance))


def _start_cards(rules: BoundRules, state: State, seat: str, intent: DrawStartCards, chance: Chance) -> Any:
    return _cards(intent, "cards", _top(rules, state, seat, "main_archive", rules.ctx.opts["empty_hand_draw"], chance))


def _draw_main(rules: BoundRules, state: State, seat: str, intent: DrawMain, chance: Chance) -> Any:
    return _card(intent, "card", _top(rules, state, seat, "main_archive", 1, chance))


def _agent_draw(rules: BoundRules, state: State, seat: str, intent: AgentDraw, chance: Chance) -> Any:
    return _card(intent, "card", _top(rules, state, seat, "extra_archive", 1, chance))


def _utilize(rules: BoundRules, state: State, seat: str, intent: Utilize, chance: Chance) -> Any:
    if state.players[seat].main_archive.count == 0:
        return intent
    return _card(intent, "drawn", _top(rules, state, seat, "main_archive", 1, chance))


def _play_symbols(rules: BoundRules, state: State, seat: str, intent: PlaySymbols, chance: Chance) -> Any:
    effect = _effect(rules, intent)
    if effect == "boost_potential":
        return _cards(intent, "cards", _top(rules, state, seat, "main_archive", 2, chance))
    if effect == "info_leak" and intent.archive is not None:
        owner, _, which = intent.archive.rpartition(".")
        if owner in state.players and which in ("main", "extra"):
            return _cards(intent, "cards", _top(rules, state, owner, f"{which}_archive", 2, chance))
    return intent


#: the intents with chance fields, and how each is filled
_FILL: dict[type, Callable[[BoundRules, State, str, Any, Chance], Any]] = {
    DrawOpeningHand: _opening_hand,
    RecordLot: _record_lot,
    Mulligan: _mulligan,
    DrawStartCards: _start_cards,
    DrawMain: _draw_main,
    AgentDraw: _agent_draw,
    Utilize: _utilize,
    PlaySymbols: _play_symbols,
}


def fill(rules: BoundRules, state: State, seat: str, intent: Intent, chance: Chance | None) -> Intent | Rejected:
    """The intent with its chance fields filled from the generator (or a ``chance_mismatch``)."""
    if chance is None:
        return intent
    filler = _FILL.get(type(intent))
    return intent if filler is None else filler(rules, state, seat, intent, chance)


def _effect(rules: BoundRules, intent: PlaySymbols) -> str | None:
    """The effect a symbol combination names (from its typed symbols), if it is well-formed."""
    if len(intent.use) != 2:
        return None
    symbols = [u.rsplit(":", 1)[-1] for u in intent.use]
    combo = rules.ctx.table.get((min(symbols), max(symbols)))
    return None if combo is None else combo.effect


#: the chance field of each intent that has one (``play_symbols`` only for a combination that draws)
_FIELDS: dict[type, str] = {
    DrawOpeningHand: "cards", RecordLot: "winner", Mulligan: "drawn", DrawStartCards: "cards", DrawMain: "card",
    AgentDraw: "card", Utilize: "drawn", PlaySymbols: "cards",
}


def chance_fields(rules: BoundRules, intent: Any) -> tuple[str, ...]:
    """The fields of ``intent`` that hold a chance outcome (the cards drawn, the lot's winner)."""
    field = _FIELDS.get(type(intent))
    if field is None:
        return ()
    if isinstance(intent, PlaySymbols) and _effect(rules, intent) not in ("boost_potential", "info_leak"):
        return ()
    return (field,)
