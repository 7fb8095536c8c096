"""Digital chance (§1.11): in a digital match the referee fills an intent's chance outcomes from the
match's seeded generator — a random first player, the fanatic empires dealt, a loyalty arrangement,
the cards a council draws, the cards a declared draw names — and records the filled intent, so a
replay never re-rolls. A typed outcome that differs from the generator's is ``chance_mismatch``.
:func:`chance_fields` names those fields of an intent (a seat may not type them in a digital match).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import msgspec

from referee.engine.chance import Chance
from referee.engine.protocol import Rejected

from .data import EMPIRES, SLOTS, SYMBOLS
from .model import (
    ArrangeLoyalty,
    Arrangement,
    DealFanaticEmpire,
    Delta,
    DrawDelta,
    ManualEffect,
    SetFirstPlayer,
    State,
    TakeCards,
)
from .txn import R_CHANCE, split

if TYPE_CHECKING:
    from .rules import WarOfShadowsRules


def chance_fields(rules: WarOfShadowsRules, intent: Any) -> tuple[str, ...]:
    """A random first player, the fanatic empires dealt, a digital match's loyalty arrangement, the
    cards drawn (their ids: in counted mode only a number) and the cards a declared draw names."""
    if isinstance(intent, SetFirstPlayer):
        return ("player",) if intent.method == "random" or rules.config.chance == "digital" and intent.player is None else ()
    if isinstance(intent, DealFanaticEmpire):
        return ("assignments",)
    if isinstance(intent, ArrangeLoyalty):
        return ("arrangement",) if rules.config.chance == "digital" and not rules.unrecorded else ()
    if isinstance(intent, TakeCards):
        return () if rules.counted else ("cards",)
    if isinstance(intent, ManualEffect) and not rules.counted:
        drawn = [d for d in intent.deltas if isinstance(d, DrawDelta) and d.card not in EMPIRES]
        return ("deltas",) if drawn else ()
    return ()


def fill(rules: WarOfShadowsRules, state: State, seat: str, intent: Any, chance: Chance | None) -> Any:
    """Digital match: fill omitted chance outcomes from the seeded generator; a typed outcome must
    be the generator's (else ``chance_mismatch``). Physical match: the intent as typed."""
    if chance is None:
        return intent
    if isinstance(intent, SetFirstPlayer) and (intent.player is None or intent.method == "random"):
        pick = chance.choice(rules.players)
        if intent.player not in (None, pick):
            return _mismatch(f"player={intent.player}")
        return msgspec.structs.replace(intent, player=pick, method="random")
    if isinstance(intent, DealFanaticEmpire):
        empires = chance.shuffled(EMPIRES)
        dealt = {p: empires[i] for i, p in enumerate(rules.players)}
        if intent.assignments and intent.assignments != dealt:
            return _mismatch("the assignments")
        return DealFanaticEmpire(assignments=dealt)
    if isinstance(intent, ArrangeLoyalty):
        player = intent.player or seat
        if player not in state.players:
            return intent
        if rules.unrecorded:
            return msgspec.structs.replace(intent, arrangement=intent.arrangement or "unrecorded")
        fanatic = state.players[player].fanatic_dealt
        if rules.modules["to_each_their_own"] and fanatic is None:
            return intent  # decide says deal_required
        rest = [e for e in EMPIRES if e != fanatic] if fanatic else list(EMPIRES)
        shuffled = chance.shuffled(rest)
        empires = [fanatic, *shuffled] if fanatic else shuffled
        generated = Arrangement(**dict(zip(SLOTS, empires)))
        if intent.arrangement is not None and intent.arrangement != generated:
            return _mismatch("the arrangement")
        return msgspec.structs.replace(intent, arrangement=generated)
    if isinstance(intent, TakeCards):
        n = _digital_draw(rules, state, intent)
        if n is None:
            return intent
        empire, count = n
        if rules.counted:
            return intent if intent.cards else msgspec.structs.replace(intent, cards=(str(count),))
        drawn = tuple(sorted(chance.shuffled(state.deck[empire])[:count]))
        if intent.cards and tuple(sorted(intent.cards)) != drawn:
            return _mismatch(f"cards={','.join(intent.cards)}")
        return msgspec.structs.replace(intent, cards=drawn)
    if isinstance(intent, ManualEffect) and not rules.counted:
        deltas: list[Delta] = []
        deck = {e: sorted(v) for e, v in state.deck.items()}
        changed = False
        for d in intent.deltas:
            if isinstance(d, DrawDelta) and d.card in EMPIRES and deck[d.card]:
                pick = chance.choice(deck[d.card])
                deck[d.card].remove(pick)
                deltas.append(DrawDelta(player=d.player, card=pick))
                changed = True
            else:
                deltas.append(d)
        return msgspec.structs.replace(intent, deltas=tuple(deltas)) if changed else intent
    return intent


def _mismatch(what: str) -> Rejected:
    return Rejected("war_of_shadows/chance_mismatch",
                    f"{what} differs from the match's seeded generator: in a digital match leave chance outcomes out "
                    "and the referee fills them in", R_CHANCE)


def _digital_draw(rules: WarOfShadowsRules, state: State, intent: TakeCards) -> tuple[str, int] | None:
    if not rules.is_position(intent.position):
        return None
    empire = split(intent.position)[0]
    v = intent.variant
    if v.mode == "per_symbol" and (v.symbol not in SYMBOLS or not v.divisor):
        return None
    return empire, rules.expected_draw(state, empire, v.mode, v.symbol, v.divisor)
