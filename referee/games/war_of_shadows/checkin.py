"""G3 (§4.0): every id an intent names must exist — seats, societies, empires, council positions,
regions of this board, card ids, loyalty slots, board symbols, effect primitives, and the ids inside a
declared effect's deltas. A failure is adjudicated, not refused before adjudication (the rules'
``check_input`` lets everything through): the intent is logged as rejected with
``war_of_shadows/unknown_reference``, the message naming the first unknown id.
"""

from __future__ import annotations

from typing import Any

from referee.engine.suggest import did_you_mean

from .data import ALL_CARDS, EMPIRES, POSITIONS, PRIMITIVES, SLOTS, SOCIETIES, SYMBOLS
from .fold import RESERVE
from .model import (
    AddBanners,
    ArrangeLoyalty,
    Arrangement,
    Attack,
    BannersDelta,
    ChooseSociety,
    CiNameEmpire,
    CiReveal,
    CollectAgent,
    DealFanaticEmpire,
    DiscardCards,
    DiscardDelta,
    DrawDelta,
    Effect,
    FinalReveal,
    ManualEffect,
    MoveAgent,
    MoveAgentDelta,
    MoveBannersDelta,
    PlaceAgent,
    PlayCard,
    ScoreDelta,
    SwapLoyalty,
    TakeCards,
    TransferCardDelta,
)
from .queries import Queries


def _region(rules: Queries, rid: Any) -> str:
    return did_you_mean(str(rid), rules.board.by_id)


def _place(rules: Queries, pid: Any) -> str:
    return did_you_mean(str(pid), [*rules.board.by_id, *(f"{e}.{p}" for e in EMPIRES for p in POSITIONS)])


def _card_ok(card: str, allow_empire: bool = False) -> bool:
    return card in ALL_CARDS or (allow_empire and card in EMPIRES)


def _place_ok(rules: Queries, place: str, reserve: bool = False) -> bool:
    return rules.is_position(place) or rules.is_region(place) or (reserve and place == RESERVE)


def unknown(rules: Queries, intent: Any) -> str | None:  # noqa: C901 - one table of ids
    pos = getattr(intent, "position", None)
    if pos is not None and not rules.is_position(pos):
        return f"position {pos!r} is not a council position (write <empire>.<position>, e.g. bear.sheriff)"
    match intent:
        case ChooseSociety(player=player, society=society):
            if player is not None and player not in rules.players:
                return f"{player!r} is not a seated player{did_you_mean(player, rules.players)} ({', '.join(rules.players)})"
            if society not in SOCIETIES:
                return f"{society!r} is not a society ({', '.join(SOCIETIES)})"
        case DealFanaticEmpire(assignments=assignments):
            for p, e in assignments.items():
                if e not in EMPIRES:
                    return f"assignments.{p}: {e!r} is not an empire ({', '.join(EMPIRES)})"
        case ArrangeLoyalty(player=player, arrangement=arrangement):
            if player is not None and player not in rules.players:
                return f"{player!r} is not a seated player{did_you_mean(player, rules.players)} ({', '.join(rules.players)})"
            if isinstance(arrangement, Arrangement):
                for slot in SLOTS:
                    e = getattr(arrangement, slot)
                    if e is not None and e not in EMPIRES:
                        return f"arrangement.{slot}: {e!r} is not an empire ({', '.join(EMPIRES)})"
        case CollectAgent(from_=src):
            if not _place_ok(rules, src):
                return f"{src!r} is neither a council position nor a region of board {rules.board.board_id}{_place(rules, src)}"
        case PlaceAgent(to=dst):
            if not _place_ok(rules, dst):
                return f"{dst!r} is neither a council position nor a region of board {rules.board.board_id}{_place(rules, dst)}"
        case AddBanners(placements=placements):
            for pl in placements:
                if not rules.is_region(pl.region):
                    return f"{pl.region!r} is not a region of board {rules.board.board_id}{_region(rules, pl.region)}"
        case Attack(from_=src, to=dst):
            for r in (src, dst):
                if not rules.is_region(r):
                    return f"{r!r} is not a region of board {rules.board.board_id}{_region(rules, r)}"
        case TakeCards(variant=variant, cards=cards):
            if variant.mode == "per_symbol" and variant.symbol not in SYMBOLS:
                return f"variant.symbol {variant.symbol!r} is not a board symbol ({', '.join(SYMBOLS)})"
            if rules.counted:
                if not (len(cards) == 1 and cards[0].isdigit()) and any(not _card_ok(c, True) for c in cards):
                    return "counted mode: write cards=N (how many were drawn)"
            else:
                for c in cards:
                    if not _card_ok(c):
                        return f"{c!r} is not a card id{did_you_mean(str(c), ALL_CARDS)} (<empire>_c1 .. <empire>_c8)"
        case MoveAgent(destination=dst):
            if not _place_ok(rules, dst):
                return f"destination {dst!r} is neither a council position nor a region{_place(rules, dst)}"
        case PlayCard(card=card, ability=ability, extra_cost_cards=extra, effect=effect, declared_cost=cost):
            for c in (card, *extra):
                if not _card_ok(c):
                    return f"{c!r} is not a card id{did_you_mean(str(c), ALL_CARDS)} (<empire>_c1 .. <empire>_c8)"
            ab = rules.ability(card, ability)
            if ability < 1 or (rules.catalogue is not None and card in rules.catalogue and ab is None):
                have = sorted(rules.catalogue[card].abilities) if rules.catalogue and card in rules.catalogue else []
                return f"{card} has no ability {ability}" + (f" (abilities: {', '.join(map(str, have))})" if have else "")
            for e in cost:
                if e not in EMPIRES:
                    return f"declared_cost: {e!r} is not an empire symbol"
            if isinstance(effect, Effect):
                if effect.primitive not in PRIMITIVES:
                    return f"effect.primitive {effect.primitive!r} is not a known effect ({', '.join(PRIMITIVES)}); use effect=manual"
                for name in ("destination", "target"):
                    v = getattr(effect, name)
                    if v is not None and not _place_ok(rules, v):
                        return f"effect.{name} {v!r} is neither a council position nor a region{_place(rules, v)}"
                for name, v in (("from", effect.from_), ("to", effect.to), ("region", effect.region)):
                    if v is not None and not rules.is_region(v):
                        return f"effect.{name} {v!r} is not a region of board {rules.board.board_id}{_region(rules, v)}"
                if effect.empire is not None and effect.empire not in EMPIRES:
                    return f"effect.empire {effect.empire!r} is not an empire"
                for pl in effect.placements:
                    if not rules.is_region(pl.region):
                        return f"effect.placements: {pl.region!r} is not a region{_region(rules, pl.region)}"
        case ManualEffect(card=card, deltas=deltas):
            if not _card_ok(card):
                return f"{card!r} is not a card id{did_you_mean(str(card), ALL_CARDS)}"
            for d in deltas:
                why = _delta_refs(rules, d)
                if why:
                    return why
        case DiscardCards(cards=cards):
            for c in cards:
                if not _card_ok(c, rules.counted):
                    return f"{c!r} is not a card id{did_you_mean(str(c), ALL_CARDS)}"
        case SwapLoyalty(slot_a=a, slot_b=b, revealed=revealed):
            for s in (a, b):
                if s not in SLOTS:
                    return f"{s!r} is not a loyalty slot ({', '.join(SLOTS)})"
            if revealed is not None:
                for s in SLOTS:
                    e = getattr(revealed, s)
                    if e is not None and e not in EMPIRES:
                        return f"revealed.{s}: {e!r} is not an empire"
        case CiNameEmpire(empire=e):
            if e not in EMPIRES:
                return f"{e!r} is not an empire ({', '.join(EMPIRES)})"
        case CiReveal(empire=e, slot=s):
            if e not in EMPIRES:
                return f"{e!r} is not an empire ({', '.join(EMPIRES)})"
            if s not in SLOTS:
                return f"{s!r} is not a loyalty slot ({', '.join(SLOTS)})"
        case FinalReveal(arrangement=arrangement):
            if arrangement is not None:
                for slot in SLOTS:
                    e = getattr(arrangement, slot)
                    if e is not None and e not in EMPIRES:
                        return f"arrangement.{slot}: {e!r} is not an empire"
    return None


def _delta_refs(rules: Queries, d: Any) -> str | None:
    match d:
        case BannersDelta(region=r, empire=e):
            if not rules.is_region(r):
                return f"delta banners: {r!r} is not a region{_region(rules, r)}"
            if e not in EMPIRES:
                return f"delta banners: {e!r} is not an empire"
        case MoveBannersDelta(from_=a, to=b, empire=e):
            for r in (a, b):
                if not rules.is_region(r):
                    return f"delta move_banners: {r!r} is not a region{_region(rules, r)}"
            if e not in EMPIRES:
                return f"delta move_banners: {e!r} is not an empire"
        case DrawDelta(player=p, card=c) | DiscardDelta(player=p, card=c):
            if p not in rules.players:
                return f"delta {d.__struct_config__.tag}: {p!r} is not a player"
            if not _card_ok(c, allow_empire=True):
                return f"delta {d.__struct_config__.tag}: {c!r} is not a card id (or, for an unidentified card, an empire)"
        case TransferCardDelta(from_player=a, to_player=b, card=c):
            for p in (a, b):
                if p not in rules.players:
                    return f"delta transfer_card: {p!r} is not a player"
            if not _card_ok(c, allow_empire=rules.counted):
                return f"delta transfer_card: {c!r} is not a card id"
        case MoveAgentDelta(player=p, from_=a, to=b):
            if p not in rules.players:
                return f"delta move_agent: {p!r} is not a player"
            for x in (a, b):
                if not _place_ok(rules, x, reserve=True):
                    return f"delta move_agent: {x!r} is not a council position, region or 'reserve'"
        case ScoreDelta(player=p):
            if p not in rules.players:
                return f"delta score: {p!r} is not a player"
    return None
