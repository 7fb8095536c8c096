"""The empire phase's council intents (§4.0 A1–A6, §4.9–4.15): the activation prefix every action
intent shares (no card resolving, no combat pending, the active position, its controller, no action
taken yet, an action printed there), then the four actions — add banners, attack (resolved at once
or left pending for a card), take cards, move agent — and ``resolve_combat``, ``pass_position`` and
``end_position``, which closes the activation and walks on.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from .codes import Code
from .combat import ATTACK_CHECKS, BANNER_CHECKS, attack_check, attack_problem, fight, fort_strikes
from .data import ActionSpec, split
from .model import (
    ActionDone,
    AddBanners,
    AgentMoved,
    Attack,
    AttackLaunched,
    AuditFlagRaised,
    BannersAdded,
    CardResolved,
    CardsDrawn,
    CombatPending,
    EndPosition,
    FortTriggered,
    MoveAgent,
    PassPosition,
    PositionPassed,
    ResolveCombat,
    State,
    SubActivationOpened,
    TakeCards,
)
from .queries import Queries
from .rounds import close_activation
from .txn import (
    R_ACTIVATION,
    R_ADD,
    R_ATTACK,
    R_COMBAT,
    R_COMMON,
    R_END,
    R_MOVE,
    R_PASS,
    R_PLAY,
    R_TAKE,
    Tx,
)


def _in_empire_phase(tx: Tx, verb: str) -> None:
    s = tx.state
    if s.phase != "EMPIRE_PHASE" or s.cursor is None:
        tx.fail(Code.WRONG_PHASE, f"{verb} is an empire-phase intent; the game is in {s.phase} of round {s.round}",
                R_COMMON)


def _slot_prefix(tx: Tx, intent: Any, *, verb: str) -> tuple[str, str, str]:
    """A1–A6 for action intents (``action``) and pass_position; returns (slot, empire, position)."""
    rules = tx.rules
    _in_empire_phase(tx, verb)
    s = tx.state
    c = s.cursor
    assert c is not None
    slot = rules.current_slot(s)
    assert slot is not None
    pos = intent.position
    # A1
    if c.resolving_card is not None:
        expected = c.resolving_kind == "replacement" and pos == c.sub_position and c.stage != "combat_pending"
        if not expected:
            want = (f"manual_effect card={c.resolving_card}" if c.resolving_kind == "manual"
                    else f"the substituted action at {c.sub_position}")
            tx.fail(Code.CARD_RESOLVING, f"{c.resolving_card} is still being resolved: next comes {want}", R_PLAY)
    # A2
    if c.stage == "combat_pending":
        tx.fail(Code.COMBAT_PENDING, f"a combat in {c.combat.region if c.combat else '?'} is pending: "
                f"resolve_combat position={slot} first", R_COMBAT)
    _at_active_position(tx, pos, slot, c.acting_player)  # A3, A4
    # A5
    if c.stage == "done":
        tx.fail(Code.ACTION_ALREADY_TAKEN, f"{slot} has already performed its action", R_ACTIVATION)
    e, p = split(slot)
    return slot, e, p


def _at_active_position(tx: Tx, pos: str, slot: str | None, acting: str) -> None:
    """A3–A4: the intent names the active position (the action slot), and that slot's controller made it."""
    if pos != slot:
        tx.fail(Code.NOT_ACTIVE_POSITION, f"{pos} is not the active position; the action slot is {slot}", R_ACTIVATION)
    tx.check(tx.seat == acting, Code.NOT_CONTROLLER, f"{slot} is controlled by {acting}, not {tx.seat}", R_ACTIVATION)


def _offered(tx: Tx, slot: str, intent: Any) -> ActionSpec:
    """A6: the action (with its variant) must be printed at the slot's position."""
    rules = tx.rules
    c = tx.state.cursor
    assert c is not None
    if isinstance(intent, MoveAgent) and c.sub_position is not None and not rules.options["move_agent_chain"]:
        tx.fail(Code.CHAINED_MOVE, f"{slot} was reached by {c.sub_by}: its action cannot be move_agent "
                "(move_agent_chain=false)", R_MOVE)
    specs = rules.actions_at(slot)
    found: ActionSpec | None = None
    for spec in specs:
        if isinstance(intent, AddBanners) and spec.type == "add_banners" and spec.count == intent.count:
            found = spec
        elif isinstance(intent, Attack) and spec.type == "attack":
            found = spec
        elif isinstance(intent, MoveAgent) and spec.type == "move_agent":
            found = spec
        elif isinstance(intent, TakeCards) and spec.type == "take_cards":
            v = intent.variant
            if spec.mode == v.mode == "fixed" and (v.n is None or v.n == spec.n):
                found = spec
            elif spec.mode == v.mode == "per_symbol" and v.symbol == spec.symbol and v.divisor == spec.divisor:
                found = spec
        if found is not None:
            break
    if found is None:
        printed = ", ".join(s.describe() for s in specs)
        what = type(intent).__struct_config__.tag
        if isinstance(intent, AddBanners):
            what = f"add_banners(count {intent.count})"
        elif isinstance(intent, TakeCards):
            v = intent.variant
            what = f"take_cards(fixed {v.n or 1})" if v.mode == "fixed" else f"take_cards(per_symbol {v.symbol}/{v.divisor})"
        tx.check(False, Code.ACTION_NOT_OFFERED, f"{slot} offers {printed}, not {what}", R_ACTIVATION)
        return ActionSpec(type=type(intent).__struct_config__.tag, count=getattr(intent, "count", None))
    return found


def _action_done(tx: Tx, slot: str) -> None:
    c = tx.state.cursor
    assert c is not None
    if c.resolving_kind == "replacement" and c.sub_position == slot and c.resolving_card is not None:
        tx.emit(CardResolved(card=c.resolving_card))
    tx.emit(ActionDone(position=slot))


def add_banners(tx: Tx, intent: AddBanners) -> None:
    rules = tx.rules
    slot, e, _ = _slot_prefix(tx, intent, verb="add_banners")
    spec = _offered(tx, slot, intent)
    s = tx.state
    supply = s.banner_supply[e]
    tx.check(supply >= 1, Code.SUPPLY_EMPTY, f"the {e} supply is empty", R_ADD)
    total = sum(pl.n for pl in intent.placements)
    want = min(intent.count, supply)
    if rules.options["add_banners_exact"]:
        ok = total == want
        expect = f"exactly {want}"
    else:
        ok = 1 <= total <= want
        expect = f"1 to {want}"
    ok = ok and all(pl.n >= 1 for pl in intent.placements)
    tx.check(ok, Code.WRONG_BANNER_COUNT,
             f"place {expect} banner(s) (count {intent.count}, {e} supply {supply}), each placement at least 1; "
             f"got {total}", R_ADD)
    for pl in intent.placements:
        owner = rules.control(s, pl.region)
        tx.check(owner == e, Code.REGION_NOT_CONTROLLED, f"{pl.region} is controlled by {owner}, not the {e}", R_ADD)
    tx.emit(BannersAdded(empire=e, position=slot, placements=intent.placements))
    if spec.qualifier:
        tx.emit(AuditFlagRaised(kind="qualifier_unenforced", note=f"{slot}: {spec.qualifier}"))
    _action_done(tx, slot)


def attack(tx: Tx, intent: Attack) -> None:
    slot, e, _ = _slot_prefix(tx, intent, verb="attack")
    _offered(tx, slot, intent)
    for code in ATTACK_CHECKS:
        msg = attack_check(tx.rules, tx.state, e, intent.from_, intent.to, intent.count, code)
        if msg is None:
            continue
        if code in BANNER_CHECKS:  # without the banners it names, the attack cannot be carried out
            tx.fail(code, msg, R_ATTACK)
        tx.check(False, code, msg, R_ATTACK)
    _launch(tx, e, slot, intent.from_, intent.to, intent.count, intent.resolve)


def _launch(tx: Tx, e: str, slot: str, src: str, dst: str, count: int, resolve: bool) -> None:
    rules = tx.rules
    defender = rules.control(tx.state, dst)
    tx.emit(AttackLaunched(empire=e, position=slot, from_=src, to=dst, count=count, defender=defender))
    fort = False
    if fort_strikes(rules, dst, e) and tx.state.banners[dst][e] >= 1:
        tx.emit(FortTriggered(region=dst, empire=e))
        fort = True
    a_after = tx.state.banners[dst][e]
    d = tx.state.banners[dst][defender] if defender is not None else 0
    if resolve:
        fight(tx, dst, e, defender, count, a_after, fort, annihilation=False, pending=False)
        _action_done(tx, slot)
    else:
        tx.emit(CombatPending(region=dst, attacker=e, defender=defender, a_in=count, a_after_fort=a_after, d=d,
                              fort=fort))


def resolve_combat(tx: Tx, intent: ResolveCombat) -> None:
    rules = tx.rules
    _in_empire_phase(tx, "resolve_combat")
    s = tx.state
    c = s.cursor
    assert c is not None
    slot = rules.current_slot(s)
    if c.resolving_card is not None and not (c.resolving_kind == "replacement" and intent.position == c.sub_position):
        tx.fail(Code.CARD_RESOLVING, f"{c.resolving_card} is still being resolved", R_PLAY)
    _at_active_position(tx, intent.position, slot, c.acting_player)
    if c.stage != "combat_pending" or c.combat is None:
        tx.fail(Code.NO_PENDING_COMBAT, f"no combat is pending at {slot}", R_COMBAT)
    cb = c.combat
    fight(tx, cb.region, cb.attacker, cb.defender, cb.a_in, cb.a_after_fort, cb.fort, annihilation=cb.annihilation,
          pending=True)
    assert slot is not None
    _action_done(tx, slot)


def take_cards(tx: Tx, intent: TakeCards) -> None:
    rules = tx.rules
    slot, e, _ = _slot_prefix(tx, intent, verb="take_cards")
    spec = _offered(tx, slot, intent)
    s = tx.state
    owed = rules.entitlement(s, e, spec.mode or "fixed", spec.symbol, spec.divisor)
    deck = s.deck[e]
    if rules.options["short_deck_draw"] == "forbid_action" and len(deck) < owed:
        tx.check(False, Code.WRONG_DRAW_COUNT,
                 f"the {e} deck holds {len(deck)}, fewer than the {owed} owed (short_deck_draw=forbid_action)", R_TAKE)
    expected = min(owed, len(deck))
    if rules.counted:
        cards = intent.cards
        n = int(cards[0]) if len(cards) == 1 and cards[0].isdigit() else len(cards)
        tx.check(n == expected, Code.WRONG_DRAW_COUNT,
                 f"{slot} draws {expected} (entitled to {owed}, {e} deck {len(deck)}), not {n}", R_TAKE)
        drawn = tuple([e] * min(n, len(deck)))
    else:
        tx.check(len(intent.cards) == expected, Code.WRONG_DRAW_COUNT,
                 f"{slot} draws {expected} (entitled to {owed}, {e} deck {len(deck)}), not {len(intent.cards)}", R_TAKE)
        dup = sorted(c for c, k in Counter(intent.cards).items() if k > 1)
        tx.require(not dup, Code.DUPLICATE_CARD, f"{', '.join(dup)} is named twice", R_TAKE)
        for c in intent.cards:
            if c not in deck:
                tx.fail(Code.CARD_NOT_IN_DECK, f"{c} is not in the {e} deck", R_TAKE)
        drawn = tuple(intent.cards)
    tx.emit(CardsDrawn(player=tx.seat, empire=e, cards=drawn, position=slot))
    _action_done(tx, slot)


def move_agent(tx: Tx, intent: MoveAgent) -> None:
    rules = tx.rules
    slot, e, p = _slot_prefix(tx, intent, verb="move_agent")
    _offered(tx, slot, intent)
    s = tx.state
    owner, at = rules.active_agent(s, slot)
    if rules.options["move_agent_subject"] == "occupant_only":
        tx.require(s.council[e][p] is not None, Code.AGENT_NOT_FOUND,
                   f"{slot} is empty (move_agent_subject=occupant_only: only an agent on the slot moves)", R_MOVE)
    tx.require(owner == tx.seat and at is not None, Code.AGENT_NOT_FOUND,
               f"no agent of {tx.seat} gives control of {slot}", R_MOVE)
    dst = intent.destination
    ok = rules.is_position(dst) and split(dst)[0] == e
    tx.check(ok, Code.INVALID_DESTINATION, f"{dst} is not a council position of the {e}", R_MOVE)
    assert at is not None
    if dst == at:
        tx.fail(Code.SAME_POSITION, f"the active agent already stands on {dst}", R_MOVE)
    de, dp = split(dst)
    other = s.council[de][dp]
    tx.emit(AgentMoved(player=tx.seat, from_=at, to=dst, swapped_with=other),
            SubActivationOpened(position=dst, by="move_agent"))


def _action_available(rules: Queries, state: State, slot: str, spec: ActionSpec, in_sub: bool) -> bool:
    """§4.14: whether an offered action could be performed now."""
    e, p = split(slot)
    if spec.type == "add_banners":
        return state.banner_supply[e] >= 1 and bool(rules.controlled_regions(state, e))
    if spec.type == "take_cards":
        owed = rules.entitlement(state, e, spec.mode or "fixed", spec.symbol, spec.divisor)
        if rules.options["short_deck_draw"] == "forbid_action" and len(state.deck[e]) < owed:
            return False
        return min(owed, len(state.deck[e])) >= 1
    if spec.type == "move_agent":
        if in_sub and not rules.options["move_agent_chain"]:
            return False
        if rules.options["move_agent_subject"] == "occupant_only" and state.council[e][p] is None:
            return False
        return True
    if spec.type == "attack":
        for src in rules.board.region_ids:
            have = state.banners[src][e]
            if have < 1 or rules.control(state, src) != e:
                continue
            for dst in rules.board.neighbours[src]:
                if attack_problem(rules, state, e, src, dst, 1) is None:
                    return True
        return False
    return False


def pass_position(tx: Tx, intent: PassPosition) -> None:
    rules = tx.rules
    slot, e, p = _slot_prefix(tx, intent, verb="pass_position")
    s = tx.state
    in_sub = s.cursor is not None and s.cursor.sub_position is not None
    if not rules.options["allow_pass"]:
        available = [spec.describe() for spec in rules.actions_at(slot) if _action_available(rules, s, slot, spec, in_sub)]
        tx.check(not available, Code.ACTION_REQUIRED,
                 f"{slot} must act: {', '.join(available)} is available (allow_pass=false)", R_PASS)
    tx.emit(PositionPassed(position=slot, player=tx.seat))
    _action_done(tx, slot)


def end_position(tx: Tx, intent: EndPosition) -> None:
    rules = tx.rules
    _in_empire_phase(tx, "end_position")
    s = tx.state
    c = s.cursor
    assert c is not None
    slot = rules.current_slot(s)
    if c.resolving_card is not None:
        tx.fail(Code.CARD_RESOLVING, f"{c.resolving_card} is still being resolved", R_PLAY)
    if c.stage == "combat_pending":
        tx.fail(Code.COMBAT_PENDING, f"resolve the combat at {slot} first", R_COMBAT)
    _at_active_position(tx, intent.position, slot, c.acting_player)
    if c.stage != "done":
        tx.fail(Code.WRONG_PHASE, f"{slot} has not performed its action yet", R_END)
    close_activation(tx)
