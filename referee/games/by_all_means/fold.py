"""``evolve``: apply one event to the state. No validation and no choices: events are facts.

Total over every event tag ever written: one function per event class, looked up in ``APPLY`` (an
unknown class raises). States are frozen Structs; every change is a copy
(``msgspec.structs.replace``), never a mutation, so old states stay valid for undo.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec
from msgspec.structs import replace

from referee.engine.dispatch import Handlers

from .model import (
    Event,
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
        return _with_cell(state, where, _with_slot(cell, slot, obj))
    player = state.players[where]
    return _with_player(state, where, replace(player, buffer=_with_key(player.buffer, slot, obj)))


# A changed mapping is a copy with the key set (an existing key keeps its place): the same dict as
# ``{**mapping, key: value}``, which is about twice as slow.

def _with_key(mapping: dict[str, Any], key: str, value: Any) -> dict[str, Any]:
    out = mapping.copy()
    out[key] = value
    return out


def _with_cell(state: State, name: str, cell: Cell) -> State:
    field = state.field.copy()
    field[name] = cell
    return replace(state, field=field)


def _with_player(state: State, seat: str, player: Player) -> State:
    players = state.players.copy()
    players[seat] = player
    return replace(state, players=players)


# msgspec's ``replace`` is several times slower given ``**`` keywords than named ones: the helpers
# below name the field for the frequent cases.

def _with_slot(cell: Cell, slot: str, obj: Any) -> Cell:
    """The cell with ``obj`` (or None) in one of its slots."""
    if slot == "territory":
        return replace(cell, territory=obj)
    if slot == "agent":
        return replace(cell, agent=obj)
    if slot == "graffiti":
        return replace(cell, graffiti=obj)
    return replace(cell, **{slot: obj})


def _with_archive(p: Player, zone: str, archive: Archive, unseen: tuple[str, ...]) -> Player:
    """The player with a new ``main_archive`` or ``extra_archive`` and unseen cards."""
    if zone == "main_archive":
        return replace(p, main_archive=archive, unseen=unseen)
    if zone == "extra_archive":
        return replace(p, extra_archive=archive, unseen=unseen)
    return replace(p, **{zone: archive}, unseen=unseen)


def _with_counter(p: Player, counter: str, value: int) -> Player:
    if counter == "reputation":
        return replace(p, reputation=value)
    if counter == "influence":
        return replace(p, influence=value)
    if counter == "trust":
        return replace(p, trust=value)
    return replace(p, **{counter: value})


def _remove_one(items: tuple[str, ...], card: str) -> tuple[str, ...]:
    """``items`` without the first ``card`` (unchanged if there is none)."""
    items = tuple(items)
    try:
        i = items.index(card)
    except ValueError:
        return items
    return items[:i] + items[i + 1:]


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
            return _with_cell(state, cell_name, _with_slot(cell, slot, None))
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
        kept_cards = tuple([c for c in nz.cards if c.oid != ev.oid])
        return replace(state, neutral_zone=replace(nz, cards=kept_cards))
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
        p = _with_archive(p, zone, replace(arch, count=arch.count - 1, cards=cards), _remove_one(p.unseen, ev.card))
    elif zone.startswith("buf"):
        p = replace(p, buffer=_with_key(p.buffer, zone, None))
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
        p = _with_archive(p, zone, replace(arch, count=arch.count + 1, cards=cards), _add_sorted(p.unseen, ev.card))
    elif zone.startswith("buf"):
        p = replace(p, buffer=_with_key(p.buffer, zone, Planned(oid=ev.oid, card=ev.card, owner=ev.owner, active_symbols=ev.tokens)))
    else:
        raise ValueError(f"unknown destination zone {dst!r}")
    return _with_player(state, seat, p)


# -- one function per event tag ----------------------------------------------------------------------

Apply = Callable[[State, Any, bool], State]

#: event class -> the function that applies it (``evolve`` dispatches on the exact class; the
#: referee's ``Txn.emit`` looks its own events up here directly)
APPLY: Handlers[Apply] = Handlers("by_all_means fold")
_applies = APPLY.on


@_applies(CardMoved)
def _card_moved(state: State, ev: CardMoved, exact: bool) -> State:
    return _put(_take(state, ev), ev, exact)


@_applies(CounterChanged)
def _counter_changed(state: State, ev: CounterChanged, exact: bool) -> State:
    return _with_player(state, ev.seat, _with_counter(state.players[ev.seat], ev.counter, ev.after))


@_applies(LoyaltyChanged)
def _loyalty_changed(state: State, ev: LoyaltyChanged, exact: bool) -> State:
    cell = state.field[ev.cell]
    t = cell.territory
    assert t is not None
    return _with_cell(state, ev.cell, replace(cell, territory=replace(t, loyalty=ev.after)))


@_applies(TokensChanged)
def _tokens_changed(state: State, ev: TokensChanged, exact: bool) -> State:
    return set_obj(state, ev.ref, replace(get_obj(state, ev.ref), active_symbols=ev.after))


@_applies(SymbolSpent)
def _symbol_spent(state: State, ev: SymbolSpent, exact: bool) -> State:
    obj = get_obj(state, ev.ref)
    state = set_obj(state, ev.ref, replace(obj, active_symbols=_remove_one(obj.active_symbols, ev.symbol)))
    nz = state.neutral_zone
    return replace(state, neutral_zone=replace(nz, symbols=(*nz.symbols, ev.symbol)))


@_applies(SymbolsCleared)
def _symbols_cleared(state: State, ev: SymbolsCleared, exact: bool) -> State:
    return replace(state, neutral_zone=replace(state.neutral_zone, symbols=()))


@_applies(AgentTurned)
def _agent_turned(state: State, ev: AgentTurned, exact: bool) -> State:
    cell = state.field[ev.cell]
    a = cell.agent
    assert a is not None
    return _with_cell(state, ev.cell, replace(cell, agent=replace(a, turned=ev.turned)))


@_applies(AgentMoved)
def _agent_moved(state: State, ev: AgentMoved, exact: bool) -> State:
    agent = state.field[ev.src].agent
    state = _with_cell(state, ev.src, replace(state.field[ev.src], agent=None))
    return _with_cell(state, ev.dst, replace(state.field[ev.dst], agent=agent))


@_applies(ActionSpent)
def _action_spent(state: State, ev: ActionSpent, exact: bool) -> State:
    t = state.turn
    if ev.slot == "extra":
        t = replace(t, extra_left=t.extra_left - 1)
    elif ev.slot == "draw_only":
        t = replace(t, main_left=t.main_left - 1, draw_only_slot=False)
    else:
        t = replace(t, main_left=t.main_left - 1)
    return replace(state, turn=t)


@_applies(ComboPlayed)
def _combo_played(state: State, ev: ComboPlayed, exact: bool) -> State:
    if ev.key is None:
        return state
    return replace(state, turn=replace(state.turn, combos=(*state.turn.combos, ev.key)))


@_applies(AgentActed)
def _agent_acted(state: State, ev: AgentActed, exact: bool) -> State:
    acts = (*state.turn.agent_actions, AgentAction(oid=ev.oid, kind=ev.kind))
    return replace(state, turn=replace(state.turn, agent_actions=acts))


@_applies(ReactionUsed)
def _reaction_used(state: State, ev: ReactionUsed, exact: bool) -> State:
    return replace(state, turn=replace(state.turn, reactions_used=state.turn.reactions_used + 1))


@_applies(OpponentActed)
def _opponent_acted(state: State, ev: OpponentActed, exact: bool) -> State:
    return replace(state, turn=replace(state.turn, opponent_acted=True))


@_applies(StepChanged)
def _step_changed(state: State, ev: StepChanged, exact: bool) -> State:
    return replace(state, turn=replace(state.turn, step=ev.step, opponent_acted=False))


@_applies(DecisionOpened)
def _decision_opened(state: State, ev: DecisionOpened, exact: bool) -> State:
    return replace(state, pending=ev.pending)


@_applies(DecisionClosed)
def _decision_closed(state: State, ev: DecisionClosed, exact: bool) -> State:
    return replace(state, pending=None)


@_applies(ManualApplied)
def _manual_applied(state: State, ev: ManualApplied, exact: bool) -> State:
    return replace(state, manual_effects=state.manual_effects + 1)


@_applies(InfluenceBooked)
def _influence_booked(state: State, ev: InfluenceBooked, exact: bool) -> State:
    return set_obj(state, ev.ref, replace(get_obj(state, ev.ref), inf=ev.inf, inf_taken=ev.inf_taken))


@_applies(ImpactsBooked)
def _impacts_booked(state: State, ev: ImpactsBooked, exact: bool) -> State:
    cell = state.field[ev.cell]
    t = cell.territory
    assert t is not None
    return _with_cell(state, ev.cell, replace(cell, territory=replace(t, impacts=ev.impacts)))


@_applies(ActionsLost)
def _actions_lost(state: State, ev: ActionsLost, exact: bool) -> State:
    return _with_player(state, ev.seat, replace(state.players[ev.seat], actions_lost_next_turn=Lost(main=ev.main, extra=ev.extra)))


@_applies(TurnBegan)
def _turn_began(state: State, ev: TurnBegan, exact: bool) -> State:
    for cell in ev.untapped:
        a = state.field[cell].agent
        if a is not None:
            state = _with_cell(state, cell, replace(state.field[cell], agent=replace(a, turned=False)))
    player = state.players[ev.active]
    lost = player.actions_lost_next_turn
    if lost.main or lost.extra:  # (already nothing lost: the state stays as it is)
        state = _with_player(state, ev.active, replace(player, actions_lost_next_turn=Lost()))
    turn = Turn(number=ev.number, active=ev.active, step="start", main_left=ev.main_left, extra_left=ev.extra_left,
                draw_only_slot=ev.draw_only_slot)
    return replace(state, turn=turn)


@_applies(ArchiveCardsMoved)
def _archive_cards_moved(state: State, ev: ArchiveCardsMoved, exact: bool) -> State:
    src, dst, count = ev.src, ev.dst, ev.count
    p = state.players[ev.owner]
    a_src: Archive = getattr(p, src)
    a_dst: Archive = getattr(p, dst)
    src_cards = a_src.cards[count:] if exact else a_src.cards
    dst_cards = a_dst.cards
    if exact:
        dst_cards = (*ev.cards, *dst_cards) if ev.at == "top" else (*dst_cards, *ev.cards)
    p = replace(p, **{src: Archive(count=a_src.count - count, cards=src_cards),
                      dst: Archive(count=a_dst.count + count, cards=dst_cards)})
    return _with_player(state, ev.owner, p)


@_applies(ArchiveOrdered)
def _archive_ordered(state: State, ev: ArchiveOrdered, exact: bool) -> State:
    return _archive_set(state, ev.owner, ev.archive, ev.cards, exact)


@_applies(ArchiveShuffled)
def _archive_shuffled(state: State, ev: ArchiveShuffled, exact: bool) -> State:
    return _archive_set(state, ev.owner, ev.archive, ev.order, exact)


def _archive_set(state: State, owner: str, archive: str, cards: tuple[str, ...], exact: bool) -> State:
    if not exact or not cards:
        return state
    zone = _archive_attr(archive if archive.endswith("_archive") else f"{archive}_archive")
    p = state.players[owner]
    return _with_player(state, owner, replace(p, **{zone: Archive(count=len(cards), cards=cards)}))


@_applies(ArchivesReformed)
def _archives_reformed(state: State, ev: ArchivesReformed, exact: bool) -> State:
    main, extra = ev.main, ev.extra
    if not exact or not (main or extra):
        return state
    p = state.players[ev.owner]
    return _with_player(state, ev.owner, replace(p, main_archive=Archive(count=len(main), cards=main),
                                                 extra_archive=Archive(count=len(extra), cards=extra)))


@_applies(SetupDone)
def _setup_done(state: State, ev: SetupDone, exact: bool) -> State:
    return _with_player(state, ev.seat, replace(state.players[ev.seat], **{ev.what: True}))


@_applies(LotRecorded)
def _lot_recorded(state: State, ev: LotRecorded, exact: bool) -> State:
    return replace(state, lot_winner=ev.winner)


@_applies(OrderChosen)
def _order_chosen(state: State, ev: OrderChosen, exact: bool) -> State:
    return replace(state, first_player=ev.first)


@_applies(PhaseChanged)
def _phase_changed(state: State, ev: PhaseChanged, exact: bool) -> State:
    return replace(state, phase=ev.phase)


@_applies(GameOver)
def _game_over(state: State, ev: GameOver, exact: bool) -> State:
    return replace(state, phase="over", outcome=OutcomeState(winners=ev.winners, reason=ev.reason), pending=None)


def evolve(state: State, event: Event, exact: bool, digital: bool = False) -> State:
    """Apply one event (dispatched on its class through ``APPLY``); a digital match also counts its
    shuffles (``State.shuffles``)."""
    apply = APPLY.get(type(event))
    if apply is None:
        raise TypeError(f"by_all_means: unknown event {event!r}")
    after = apply(state, event, exact)
    return _count_shuffles(state, after, event, exact) if digital else after


def _count_shuffles(before: State, after: State, event: Any, exact: bool) -> State:
    """``after`` with the shuffles ``event`` made counted: an archive dealt in a new order (exact
    tracking), or cards gone back into a seat's unseen pool (pool tracking)."""
    zones: list[str] = []
    if exact:
        if isinstance(event, ArchiveShuffled) and event.order:
            zones.append(f"{event.owner}.{_archive_attr(event.archive.removesuffix('_archive') + '_archive')}")
        elif isinstance(event, ArchiveOrdered) and event.cards:
            zones.append(f"{event.owner}.{_archive_attr(event.archive.removesuffix('_archive') + '_archive')}")
        elif isinstance(event, ArchivesReformed) and (event.main or event.extra):
            zones += [f"{event.owner}.main_archive", f"{event.owner}.extra_archive"]
    elif after.players is not before.players:
        zones += [f"{s}.pool" for s, p in after.players.items() if len(p.unseen) > len(before.players[s].unseen)]
    if not zones:
        return after
    counts = dict(shuffles(after))
    for zone in zones:
        counts[zone] = counts.get(zone, 0) + 1
    return replace(after, shuffles=dict(sorted(counts.items())))


def shuffles(state: State) -> dict[str, int]:
    """``State.shuffles`` (empty while unset)."""
    return {} if isinstance(state.shuffles, msgspec.UnsetType) else state.shuffles
