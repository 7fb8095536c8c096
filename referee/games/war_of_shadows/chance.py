"""Digital chance (§1.11): in a digital match the referee fills an intent's chance outcomes from the
match's seeded generator — a random first player, the fanatic empires dealt, a loyalty arrangement,
the cards a council draws, the cards a declared draw names — and records the filled intent, so a
replay never re-rolls. A typed outcome that differs from the generator's is ``chance_mismatch``.
:func:`chance_fields` names those fields of an intent (a seat may not type them in a digital match).

Every outcome is derived from the seed and what it is for, never from the entry it is played in: the
first player, the fanatic deal and each player's arrangement from their name alone (each happens once),
a draw from the empire's deck, how often cards went back into it (``State.shuffles``) and how many are
left in it. So undo and the same move draw the same cards, a refused line or another harmless action
first changes nothing, and a fork draws what the main line drew.
"""

from __future__ import annotations

from typing import Any

import msgspec

from referee.engine.chance import Chance
from referee.engine.protocol import Rejected

from .codes import Code
from .data import EMPIRES, SLOTS, SYMBOLS, split
from .fold import shuffles
from .model import (
    Intent,
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
from .queries import Queries
from .txn import R_CHANCE


def chance_fields(rules: Queries, intent: Any) -> tuple[str, ...]:
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


def fill(rules: Queries, state: State, seat: str, intent: Intent, chance: Chance | None) -> Intent | Rejected:
    """Digital match: fill omitted chance outcomes from the seeded generator; a typed outcome must
    be the generator's (else ``chance_mismatch``). Physical match: the intent as typed."""
    if chance is None:
        return intent
    if isinstance(intent, SetFirstPlayer) and (intent.player is None or intent.method == "random"):
        pick = chance.derive("first_player").choice(rules.players)
        if intent.player not in (None, pick):
            return _mismatch(f"player={intent.player}")
        return msgspec.structs.replace(intent, player=pick, method="random")
    if isinstance(intent, DealFanaticEmpire):
        empires = chance.derive("fanatic_empires").shuffled(EMPIRES)
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
        shuffled = chance.derive(f"loyalty:{player}").shuffled(rest)
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
        drawn = tuple(sorted(deck_order(state, empire, chance)[:count]))
        if intent.cards and tuple(sorted(intent.cards)) != drawn:
            return _mismatch(f"cards={','.join(intent.cards)}")
        return msgspec.structs.replace(intent, cards=drawn)
    if isinstance(intent, ManualEffect) and not rules.counted:
        deltas: list[Delta] = []
        # the n-th card drawn from an empire's deck is the n-th of its order, as take_cards draws them
        orders: dict[str, list[str]] = {}
        changed = False
        for d in intent.deltas:
            if isinstance(d, DrawDelta) and d.card in EMPIRES:
                order = orders.setdefault(d.card, deck_order(state, d.card, chance))
                if order:
                    deltas.append(DrawDelta(player=d.player, card=order.pop(0)))
                    changed = True
                    continue
            deltas.append(d)
        return msgspec.structs.replace(intent, deltas=tuple(deltas)) if changed else intent
    return intent


def deck_order(state: State, empire: str, chance: Chance) -> list[str]:
    """The order ``empire``'s deck is drawn in, from the seed and the deck's own history: how often
    cards went back into it, how many are left."""
    deck = state.deck[empire]
    k = shuffles(state).get(empire, 0)
    return chance.derive(f"deck:{empire}:shuffle{k}:left{len(deck)}").shuffled(deck)


def _mismatch(what: str) -> Rejected:
    return Rejected(Code.CHANCE_MISMATCH,
                    f"{what} differs from the match's seeded generator: in a digital match leave chance outcomes out "
                    "and the referee fills them in", R_CHANCE)


def _digital_draw(rules: Queries, state: State, intent: TakeCards) -> tuple[str, int] | None:
    if not rules.is_position(intent.position):
        return None
    empire = split(intent.position)[0]
    v = intent.variant
    if v.mode == "per_symbol" and (v.symbol not in SYMBOLS or not v.divisor):
        return None
    return empire, rules.expected_draw(state, empire, v.mode, v.symbol, v.divisor)
