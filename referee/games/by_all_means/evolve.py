"""``evolve``: apply one event to the state. No validation and no choices: events are facts.

Total over every event tag ever written (``case _`` raises). States are frozen Structs; every change
is a copy (``msgspec.structs.replace``), never a mutation, so old states stay valid for undo.
"""

from __future__ import annotations

from typing import Any

from msgspec.structs import replace

from .model import (
    ActionSpent,
    ActionsLost,
    Agent,
    AgentActed,
    AgentAction,
    AgentMoved,
    AgentTurned,
    Archive,
    ArchiveCardsMoved,
    ArchiveOrdered,
    ArchiveShuffled,
    ArchivesReformed,
    AttachedPlot,
    CardMoved,
    Cell,
    ComboPlayed,
    CounterChanged,
    DecisionClosed,
    DecisionOpened,
    GameOver,
    Graffiti,
    ImpactsBooked,
    InfluenceBooked,
    Lost,
    LotRecorded,
    LoyaltyChanged,
    ManualApplied,
    NeutralCard,
    OpponentActed,
    OrderChosen,
    OutcomeState,
    PhaseChanged,
    Planned,
    Player,
    ReactionUsed,
    SetupDone,
    State,
    StepChanged,
    SymbolsCleared,
    SymbolSpent,
    Territory,
    TokensChanged,
    Turn,
    TurnBegan,
)

FIELD_SLOTS = ("territory", "agent", "graffiti")


def split_ref(ref: str) -> tuple[str, str]:
    """``B2`` -> (B2, territory); ``B2/agent`` -> (B2, agent); ``alice.buf1`` -> (alice, buf1)."""
    if "/" in ref:
        cell, _, slot = ref.partition("/")
        return cell, slot
    if "." in ref:
        seat, _, slot = ref.rpartition(".")
        return seat, slot
    return ref, "territory"


def get_obj(state: State, ref: str) -> Any:
    """The object at a field or buffer reference, or None."""
    where, slot = split_ref(ref)
    if slot in FIELD_SLOTS:
        cell = state.field.get(where)
        return None if cell is None else getattr(cell, slot)
    player = state.players.get(where)
    if player is None:
        return None
    return player.buffer.get(slot)


def set_obj(state: State, ref: str, obj: Any) -> State:
    where, slot = split_ref(ref)
    if slot in FIELD_SLOTS:
        cell = state.field[where]
        return _with_cell(state, where, replace(cell, **{slot: obj}))
    player = state.players[where]
    return _with_player(state, where, replace(player, buffer={**player.buffer, slot: obj}))


def _with_cell(state: State, name: str, cell: Cell) -> State:
    return replace(state, field={**state.field, name: cell})


def _with_player(state: State, seat: str, player: Player) -> State:
    return replace(state, players={**state.players, seat: player})


def _remove_one(items: tuple[str, ...], card: str) -> tuple[str, ...]:
    out = list(items)
    if card in out:
        out.remove(card)
    return tuple(out)


def _add_sorted(items: tuple[str, ...], card: str) -> tuple[str, ...]:
    return tuple(sorted((*items, card)))


def _archive_attr(zone: str) -> str:
    return "main_archive" if zone == "main_archive" else "extra_archive"


def _take(state: State, ev: CardMoved) -> State:
    src = ev.src
    if "/" in src:
        cell_name, slot = src.split("/", 1)
        cell = state.field[cell_name]
        if slot in FIELD_SLOTS:
            return _with_cell(state, cell_name, replace(cell, **{slot: None}))
        if slot == "shadow":
            assert cell.agent is not None
            return _with_cell(state, cell_name, replace(cell, agent=replace(cell.agent, shadow=None, shadow_owner=None)))
        if slot == "attached":
            kept = list(cell.attached)
            for i, a in enumerate(kept):
                if a.oid == ev.oid or (not ev.oid and a.card == ev.card):
                    del kept[i]
                    break
            return _with_cell(state, cell_name, replace(cell, attached=tuple(kept)))
        raise ValueError(f"unknown source slot {src!r}")
    if src == "neutral":
        nz = state.neutral_zone
        kept = tuple(c for c in nz.cards if c.oid != ev.oid)
        return replace(state, neutral_zone=replace(nz, cards=kept))
    seat, _, zone = src.partition(".")
    p = state.players[seat]
    if zone == "hand":
        p = replace(p, hand=_remove_one(p.hand, ev.card))
    elif zone == "utility":
        p = replace(p, utility=_remove_one(p.utility, ev.card))
    elif zone in ("main_archive", "extra_archive"):
        arch: Archive = getattr(p, zone)
        cards = arch.cards
        if cards:
            cards = _remove_one(cards, ev.card)
        p = replace(p, **{zone: replace(arch, count=arch.count - 1, cards=cards)}, unseen=_remove_one(p.unseen, ev.card))
    elif zone.startswith("buf"):
        p = replace(p, buffer={**p.buffer, zone: None})
    else:
        raise ValueError(f"unknown source zone {src!r}")
    return _with_player(state, seat, p)


def _put(state: State, ev: CardMoved, exact: bool) -> State:
    dst = ev.dst
    if ev.oid >= state.next_oid:
        state = replace(state, next_oid=ev.oid + 1)
    controller = ev.controller or ev.owner
    if "/" in dst:
        cell_name, slot = dst.split("/", 1)
        cell = state.field[cell_name]
        if slot == "territory":
            obj: Any = Territory(oid=ev.oid, card=ev.card, owner=ev.owner, controller=controller,
                                 loyalty=ev.loyalty, active_symbols=ev.tokens)
            return replace(_with_cell(state, cell_name, replace(cell, territory=obj)), field_used=True)
        if slot == "agent":
            obj = Agent(oid=ev.oid, card=ev.card, owner=ev.owner, controller=controller, turned=False,
                        entered_turn=ev.entered_turn, active_symbols=ev.tokens)
            return _with_cell(state, cell_name, replace(cell, agent=obj))
        if slot == "graffiti":
            obj = Graffiti(oid=ev.oid, card=ev.card, owner=ev.owner, controller=controller,
                           face="down" if ev.face == "down" else "up", active_symbols=ev.tokens)
            return _with_cell(state, cell_name, replace(cell, graffiti=obj))
        if slot == "shadow":
            assert cell.agent is not None
            agent = replace(cell.agent, shadow=ev.card, shadow_owner=ev.owner,
                            active_symbols=tuple(sorted((*cell.agent.active_symbols, *ev.tokens))))
            return _with_cell(state, cell_name, replace(cell, agent=agent))
        if slot == "attached":
            return _with_cell(state, cell_name, replace(cell, attached=(*cell.attached, AttachedPlot(oid=ev.oid, card=ev.card, owner=ev.owner))))
        raise ValueError(f"unknown destination slot {dst!r}")
    if dst == "neutral":
        nz = state.neutral_zone
        card = NeutralCard(oid=ev.oid, card=ev.card, owner=ev.owner, origin=ev.origin)
        return replace(state, neutral_zone=replace(nz, cards=(*nz.cards, card)))
    seat, _, zone = dst.partition(".")
    p = state.players[seat]
    if zone == "hand":
        p = replace(p, hand=_add_sorted(p.hand, ev.card))
    elif zone == "utility":
        p = replace(p, utility=_add_sorted(p.utility, ev.card))
    elif zone in ("main_archive", "extra_archive"):
        arch = getattr(p, zone)
        cards = arch.cards
        if exact:
            cards = (ev.card, *cards) if ev.at == "top" else (*cards, ev.card)
        p = replace(p, **{zone: replace(arch, count=arch.count + 1, cards=cards)}, unseen=_add_sorted(p.unseen, ev.card))
    elif zone.startswith("buf"):
        p = replace(p, buffer={**p.buffer, zone: Planned(oid=ev.oid, card=ev.card, owner=ev.owner, active_symbols=ev.tokens)})
    else:
        raise ValueError(f"unknown destination zone {dst!r}")
    return _with_player(state, seat, p)


def evolve(state: State, event: Any, exact: bool) -> State:  # noqa: C901 - one case per event tag
    match event:
        case CardMoved():
            return _put(_take(state, event), event, exact)
        case CounterChanged(seat=seat, counter=counter, after=after):
            return _with_player(state, seat, replace(state.players[seat], **{counter: after}))
        case LoyaltyChanged(cell=cell, after=after):
            t = state.field[cell].territory
            assert t is not None
            return _with_cell(state, cell, replace(state.field[cell], territory=replace(t, loyalty=after)))
        case TokensChanged(ref=ref, after=after):
            return set_obj(state, ref, replace(get_obj(state, ref), active_symbols=after))
        case SymbolSpent(ref=ref, symbol=symbol):
            obj = get_obj(state, ref)
            state = set_obj(state, ref, replace(obj, active_symbols=_remove_one(obj.active_symbols, symbol)))
            nz = state.neutral_zone
            return replace(state, neutral_zone=replace(nz, symbols=(*nz.symbols, symbol)))
        case SymbolsCleared():
            return replace(state, neutral_zone=replace(state.neutral_zone, symbols=()))
        case AgentTurned(cell=cell, turned=turned):
            a = state.field[cell].agent
            assert a is not None
            return _with_cell(state, cell, replace(state.field[cell], agent=replace(a, turned=turned)))
        case AgentMoved(src=src, dst=dst):
            agent = state.field[src].agent
            state = _with_cell(state, src, replace(state.field[src], agent=None))
            return _with_cell(state, dst, replace(state.field[dst], agent=agent))
        case ActionSpent(slot=slot):
            t = state.turn
            if slot == "extra":
                t = replace(t, extra_left=t.extra_left - 1)
            elif slot == "draw_only":
                t = replace(t, main_left=t.main_left - 1, draw_only_slot=False)
            else:
                t = replace(t, main_left=t.main_left - 1)
            return replace(state, turn=t)
        case ComboPlayed(key=key):
            if key is None:
                return state
            return replace(state, turn=replace(state.turn, combos=(*state.turn.combos, key)))
        case AgentActed(oid=oid, kind=kind):
            acts = (*state.turn.agent_actions, AgentAction(oid=oid, kind=kind))
            return replace(state, turn=replace(state.turn, agent_actions=acts))
        case ReactionUsed():
            return replace(state, turn=replace(state.turn, reactions_used=state.turn.reactions_used + 1))
        case OpponentActed():
            return replace(state, turn=replace(state.turn, opponent_acted=True))
        case StepChanged(step=step):
            return replace(state, turn=replace(state.turn, step=step, opponent_acted=False))
        case DecisionOpened(pending=pending):
            return replace(state, pending=pending)
        case DecisionClosed():
            return replace(state, pending=None)
        case ManualApplied():
            return replace(state, manual_effects=state.manual_effects + 1)
        case InfluenceBooked(ref=ref, inf=inf, inf_taken=taken):
            return set_obj(state, ref, replace(get_obj(state, ref), inf=inf, inf_taken=taken))
        case ImpactsBooked(cell=cell, impacts=impacts):
            t = state.field[cell].territory
            assert t is not None
            return _with_cell(state, cell, replace(state.field[cell], territory=replace(t, impacts=impacts)))
        case ActionsLost(seat=seat, main=main, extra=extra):
            return _with_player(state, seat, replace(state.players[seat], actions_lost_next_turn=Lost(main=main, extra=extra)))
        case TurnBegan(number=number, active=active, main_left=main_left, extra_left=extra_left,
                       draw_only_slot=draw_only, untapped=untapped):
            for cell in untapped:
                a = state.field[cell].agent
                if a is not None:
                    state = _with_cell(state, cell, replace(state.field[cell], agent=replace(a, turned=False)))
            state = _with_player(state, active, replace(state.players[active], actions_lost_next_turn=Lost()))
            turn = Turn(number=number, active=active, step="start", main_left=main_left, extra_left=extra_left,
                        draw_only_slot=draw_only)
            return replace(state, turn=turn)
        case ArchiveCardsMoved(owner=owner, src=src, dst=dst, count=count, cards=cards, at=at):
            p = state.players[owner]
            a_src: Archive = getattr(p, src)
            a_dst: Archive = getattr(p, dst)
            src_cards = a_src.cards[count:] if exact else a_src.cards
            dst_cards = a_dst.cards
            if exact:
                dst_cards = (*cards, *dst_cards) if at == "top" else (*dst_cards, *cards)
            p = replace(p, **{src: Archive(count=a_src.count - count, cards=src_cards),
                              dst: Archive(count=a_dst.count + count, cards=dst_cards)})
            return _with_player(state, owner, p)
        case ArchiveOrdered(owner=owner, archive=archive, cards=cards) | ArchiveShuffled(owner=owner, archive=archive, order=cards):
            if not exact or not cards:
                return state
            zone = _archive_attr(archive if archive.endswith("_archive") else f"{archive}_archive")
            p = state.players[owner]
            return _with_player(state, owner, replace(p, **{zone: Archive(count=len(cards), cards=cards)}))
        case ArchivesReformed(owner=owner, main=main, extra=extra):
            if not exact or not (main or extra):
                return state
            p = state.players[owner]
            return _with_player(state, owner, replace(p, main_archive=Archive(count=len(main), cards=main),
                                                      extra_archive=Archive(count=len(extra), cards=extra)))
        case SetupDone(seat=seat, what=what):
            return _with_player(state, seat, replace(state.players[seat], **{what: True}))
        case LotRecorded(winner=winner):
            return replace(state, lot_winner=winner)
        case OrderChosen(first=first):
            return replace(state, first_player=first)
        case PhaseChanged(phase=phase):
            return replace(state, phase=phase)
        case GameOver(winners=winners, reason=reason):
            return replace(state, phase="over", outcome=OutcomeState(winners=winners, reason=reason), pending=None)
        case _:
            raise TypeError(f"by_all_means: unknown event {event!r}")

