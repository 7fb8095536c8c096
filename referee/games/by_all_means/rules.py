"""The decider: setup, who may act, the checks of every intent in the spec's order, and resolution.

Check order (rules spec 4.1): the framework's checks (match over, not your turn) come first; then
G1 ``wrong_phase``, G2 ``decision_pending``, G3 ``wrong_step``, G4 ``start_draw_required``; then the
intent's own numbered checks. The first failure is the verdict. Resolution runs on a :class:`Txn`,
so every state change is an event and ``decide`` sees exactly what the fold will.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from msgspec.structs import replace

from referee.engine.chance import Chance
from referee.engine.position import Placed
from referee.engine.protocol import Accepted, ConfigError, Rejected, RulesBase
from schemas import MatchConfig, Outcome

from . import agents, chance, deploy, legal, manual, refs, setup, turn, view, words
from .chance import fill
from .checkin import check_input
from .effects import answer, check_effect, resolve_effect
from .data import combination_table, parse_card_set, validate_deck
from .evolve import evolve, get_obj
from .geometry import field_for
from .view import POSITION_SHAPE
from .model import (
    ActivateAbility,
    AgentAttackAgent,
    AgentAttackPlayer,
    AgentDraw,
    ArchiveCardsMoved,
    Choose,
    ChooseOrder,
    CloseTurn,
    ComboKey,
    ComboPlayed,
    DecisionClosed,
    DeclareEffect,
    DeployAgent,
    DeployGraffiti,
    DeployTerritory,
    DiscardForEffect,
    DrawMain,
    DrawOpeningHand,
    DrawStartCards,
    EndTurn,
    Mulligan,
    OPENING_INTENTS,
    OpponentActed,
    Pending,
    PlayDigits,
    PlayNeutral,
    PlayPlot,
    PlaySymbols,
    ReactionUsed,
    RecordLot,
    ReformArchives,
    SETUP_INTENTS,
    ShuffleArchive,
    State,
    StepChanged,
    SymbolSpent,
    Utilize,
)
from .txn import Ctx, Refuse, Txn, face_up_agents

DIGIT_EFFECTS = {5: "machinations", 7: "unreliable_pr", 9: "pr_campaign", 11: "big_pr_campaign", 13: "charity"}
PENDING_EFFECTS = ("unreliable_pr", "slander", "blackmail", "sabotage")

# The routing below goes by an intent's exact class (``type(intent)``), looked up in a dict or set:
# intents are final Structs, and ``isinstance`` against Struct classes is slow.

#: the phase an intent belongs to (G1); any intent not named here belongs to phase play
PHASE_OF: dict[type, str] = {**{cls: "opening" for cls in OPENING_INTENTS}, ChooseOrder: "order", Mulligan: "mulligan"}
#: intents anyone may send whatever the turn (3.1)
ANYONE_INTENTS = frozenset((*SETUP_INTENTS, Choose, DeclareEffect))
#: intents the non-active player sends in steps end and reactions (3.1)
STEP_END_INTENTS = frozenset((CloseTurn, Utilize, DiscardForEffect))
#: reactions (4.14)
REACTIONS = frozenset((Utilize, DiscardForEffect))


class ByAllMeansRules(RulesBase):
    """By All Means bound to one match configuration."""

    def __init__(self, config: MatchConfig) -> None:
        from .options import resolve

        self._last: tuple[State, Any, State] | None = None
        #: the last transaction's field scan, handed to the next (see ``Txn``)
        self._scanned: Any = None
        self.config = config
        self.players = tuple(config.players)
        try:
            opts = resolve(config.options)
        except ValueError as exc:
            raise ConfigError("by_all_means/bad_option", str(exc)) from None
        digital = config.chance == "digital"
        if "archive_tracking" not in config.options:
            opts["archive_tracking"] = "exact" if digital else "pool"
        if opts["archive_tracking"] == "exact" and not digital:
            raise ConfigError("by_all_means/bad_option",
                              "archive_tracking=exact needs a digital match (give a seed): at a real table nobody "
                              "knows the order of the archives")
        if not config.cards_text:
            raise ConfigError("by_all_means/cards_invalid", "By All Means needs a card set (--cards spec, demo or a file)")
        cards = parse_card_set(config.cards_text)
        source = opts["combination_table"]
        if "combination_table" not in config.options and cards.combinations:
            source = "card_set"
        if source == "card_set" and not cards.combinations:
            raise ConfigError("by_all_means/cards_invalid",
                              "combination_table=card_set, but the card set has no [[combination]] table")
        opts["combination_table"] = source
        self.decks: dict[str, tuple[str, ...]] = {}
        for name in config.decks:  # every deck of By All Means is a seat's
            if name not in self.players:
                raise ConfigError("match/bad_deck", f"deck given for {name!r}, who is not a player ({', '.join(self.players)})")
        for seat in self.players:
            deck_id = config.decks.get(seat) or (cards.deck_order[0] if cards.deck_order else None)
            if deck_id is None:
                raise ConfigError("by_all_means/deck_invalid", f"the card set {cards.id} has no [[deck]]; name one per seat")
            self.decks[seat] = validate_deck(cards, seat, deck_id, opts["deck_size"], opts["max_copies"])
        self.ctx = Ctx(
            decks=self.decks,
            players=(self.players[0], self.players[1]),
            cards=cards,
            opts=opts,
            field=field_for(opts["field_orientation"]),
            table=combination_table(cards, source),
            exact=opts["archive_tracking"] == "exact",
            digital=digital,
            slots=tuple(f"buf{i}" for i in range(1, opts["buffer_slots"] + 1)),
        )
        #: the match options (``ctx.opts``)
        self.opts: dict[str, Any] = opts
        self._everyone = frozenset(self.players)
        self._only = {seat: frozenset([seat]) for seat in self.players}
        self._handlers: dict[type, Callable[[Txn, str, Any], None]] = {
            ShuffleArchive: setup.shuffle_archive, ReformArchives: setup.reform_archives,
            DrawOpeningHand: setup.draw_opening_hand, RecordLot: setup.record_lot, ChooseOrder: setup.choose_order,
            Mulligan: setup.mulligan, DrawStartCards: turn.draw_start_cards, EndTurn: turn.end_turn,
            CloseTurn: turn.close_turn, DrawMain: turn.draw_main, PlayDigits: self._play_digits,
            PlaySymbols: self._play_symbols, PlayNeutral: self._play_neutral, DeployAgent: deploy.deploy_agent,
            DeployTerritory: deploy.deploy_territory, DeployGraffiti: deploy.deploy_graffiti, PlayPlot: deploy.play_plot,
            AgentDraw: agents.agent_draw, AgentAttackPlayer: agents.agent_attack_player,
            AgentAttackAgent: agents.agent_attack_agent, ActivateAbility: agents.activate_ability,
            Utilize: self._utilize, DiscardForEffect: self._discard_for_effect, DeclareEffect: self._declare_effect,
            Choose: self._choose,
        }

    # -- setup (section 2) -------------------------------------------------------------------------

    def setup(self, chance: Chance | None) -> State:
        return setup.initial_state(self.ctx, chance)

    # -- who may act (3.1) --------------------------------------------------------------------------

    def actors(self, state: State, intent: Any) -> frozenset[str]:
        everyone = self._everyone
        phase = state.phase
        cls = type(intent)
        if state.pending is not None and phase == "play":
            return self._one(state.pending.decider)
        if phase == "order" and cls is ChooseOrder:
            return self._one(state.lot_winner) if state.lot_winner else everyone
        if phase != "play" or cls in ANYONE_INTENTS:
            return everyone
        turn = state.turn
        active = turn.active
        if active is None:
            return everyone
        if turn.step in ("end", "reactions") and cls in STEP_END_INTENTS:
            return self._one(self.ctx.opp(active))
        return self._one(active)

    def _one(self, seat: str) -> frozenset[str]:
        only = self._only.get(seat)
        return frozenset([seat]) if only is None else only

    # -- the verdict --------------------------------------------------------------------------------

    def decide(self, state: State, seat: str, intent: Any, chance: Chance | None,
               waive: frozenset[str] = frozenset()) -> Accepted[Any] | Rejected:
        txn = Txn(self.ctx, state, waive, chance, self._scanned)
        try:
            self._general(txn, seat, intent)
            self._handlers[type(intent)](txn, seat, intent)
            self._after(txn, seat, intent)
        except Refuse as r:
            return Rejected(r.code, r.message, r.rule)
        finally:
            self._scanned = txn._scanned
        verdict = Accepted(tuple(txn.events), manual=txn.manual)
        self._last = (state, verdict, txn.state)
        return verdict

    def applied(self, state: State, verdict: Any) -> State | None:
        """The state after the verdict ``decide`` just returned for this very state: it already
        folded those events (the fold would only repeat them)."""
        last = self._last
        if last is not None and last[0] is state and last[1] is verdict:
            return last[2]
        return None

    def _general(self, txn: Txn, seat: str, intent: Any) -> None:
        """G1-G4 (4.1), and the move from step start to actions."""
        s = txn.state
        cls = type(intent)
        want = PHASE_OF.get(cls, "play")
        if s.phase != want:
            txn.require(False, "wrong_phase", f"{_verb(intent)} belongs to phase {want}; the match is in phase {s.phase}",
                        "R-SETUP" if want != "play" else "R-EFFECT-ORDER")
        if want != "play":
            return
        p = s.pending
        if p is not None and cls is not Choose:
            on_leave = p.kind == "on_leave_window" and cls is DeclareEffect and intent.timing == "on_leave"
            txn.require(on_leave, "decision_pending", f"{p.decider} must first answer the pending {p.kind} decision (choose ...)",
                        "R-EFFECT-ORDER")
            return
        if cls is Choose:
            return
        active = s.turn.active
        step = s.turn.step
        is_active = seat == active
        # (each message is built only when its check fails)
        if step in ("start", "actions"):
            bad = cls is CloseTurn or (cls is DrawStartCards and step != "start")
            if bad:
                txn.violated("wrong_step", f"{_verb(intent)} does not belong to step {step} of the turn", "R-EFFECT-ORDER")
        elif is_active:
            ok = cls is DeclareEffect and not (intent.timing == "turn_end" and s.turn.opponent_acted)
            if not ok:
                txn.violated("wrong_step", f"{_verb(intent)} does not belong to step {step}"
                             + (" (the opponent has acted in step end: its turn_end window is over)" if cls is DeclareEffect else ""),
                             "R-EFFECT-ORDER")
        else:
            reacting = cls in REACTIONS
            after = self.opts["reaction_timing"] == "after_status_check"
            ok = cls is CloseTurn or cls is DeclareEffect or (reacting and (step == "reactions") == after)
            if not ok:
                txn.violated("wrong_step", f"{_verb(intent)} does not belong to step {step} of the turn"
                             + (" (reactions come after the status check in this match)" if reacting and after else ""),
                             "R-OPP-TURN")
        if step == "start" and is_active:
            starter = cls is DeclareEffect and intent.timing == "turn_start"
            if cls is not DrawStartCards and cls is not DeclareEffect and turn.start_draw_needed(txn, seat):
                txn.violated("start_draw_required", f"{seat}'s hand is empty: draw_start_cards first", "R-HAND")
            if not starter:
                txn.emit(StepChanged(step="actions"))

    def _after(self, txn: Txn, seat: str, intent: Any) -> None:
        s = txn.state
        if s.phase != "play" or s.turn.active is None:
            return
        cls = type(intent)
        if s.turn.step in ("end", "reactions", "start") and seat != s.turn.active and cls is not CloseTurn and cls is not Choose:
            if not s.turn.opponent_acted:
                txn.emit(OpponentActed(seat=seat))
        if self.opts["status_check"] == "immediate" and txn.state.pending is None and txn.state.phase == "play":
            txn.status_check()

    # -- action availability (3.4) ---------------------------------------------------------------------

    # -- setup intents ----------------------------------------------------------------------------------

    # -- turn flow --------------------------------------------------------------------------------------

    # -- main actions -----------------------------------------------------------------------------------

    # -- combinations -------------------------------------------------------------------------------

    def _combo_key(self, txn: Txn, effect: str, objects: list[tuple[str, int | None]]) -> ComboKey | None:
        """(effect, sorted sources): object ids, new ones for hand cards (A-31)."""
        rule = self.opts["repeat_rule"]
        if rule == "off":
            return None
        if rule == "effect_and_card_ids":
            return ComboKey(effect=effect, objects=tuple(sorted(c for c, _o in objects)))
        nxt = txn.state.next_oid
        ids = []
        for _c, oid in objects:
            if oid is None:
                ids.append(str(nxt))
                nxt += 1
            else:
                ids.append(str(oid))
        return ComboKey(effect=effect, objects=tuple(sorted(ids, key=lambda x: (len(x), x))))

    def _check_repeat(self, txn: Txn, key: ComboKey | None, what: str) -> None:
        if key is not None and key in txn.state.turn.combos:
            txn.violated("combo_repeated", f"{what} was already played with the same cards this turn", "R-BUFFER")

    def _buffer_checks(self, txn: Txn, seat: str, hand_cards: list[str], to_buffer: tuple[str, ...], lilac: tuple[str, ...],
                       placed_by_effect: int, free_before: int) -> None:
        """to_buffer lists hand sources only; capacity after the action (A-41); lilac choices."""
        if to_buffer:
            pool = Counter(hand_cards)
            for cid in to_buffer:
                if not pool[cid] > 0:
                    txn.violated("not_from_hand", f"to_buffer={cid}: only this action's hand cards can be buffered", "R-NEUTRAL-ZONE")
                pool[cid] -= 1
        if self.opts["buffer_capacity_check"] == "after_departures":
            free = len(txn.free_slots(seat))
        else:
            free = free_before - placed_by_effect
        if len(to_buffer) > free:
            txn.violated("buffer_full", f"{len(to_buffer)} card(s) to buffer but {seat} has {max(0, free)} free buffer slot(s)", "R-BUFFER")
        if not (to_buffer or lilac):
            return  # no card to buffer, no lilac choice: nothing more to check
        needed: Counter[str] = Counter()
        neutral = self.ctx.cards.neutral_symbol
        for cid in to_buffer:
            needed[cid] += self.ctx.card(cid).symbols.count(neutral)
        given = Counter(refs.lilac_choice(self.ctx, x)[0] for x in lilac)
        for cid in sorted(needed):
            txn.check(given[cid] >= needed[cid], "lilac_choice_required",
                      f"{cid} prints {needed[cid]} lilac symbol(s): name the active symbol for each with lilac_as={cid}:SYMBOL",
                      "R-SYMBOLS")
        for x in lilac:
            sym = refs.lilac_choice(self.ctx, x)[1]
            txn.check(sym in self.ctx.cards.active_symbols, "lilac_choice_required",
                      f"lilac_as {x}: {sym} is not an active symbol ({', '.join(self.ctx.cards.active_symbols)})", "R-SYMBOLS")

    def _finish_combo(self, txn: Txn, seat: str, to_buffer_cards: tuple[str, ...], lilac: tuple[str, ...],
                      spent: list[tuple[int, str]]) -> None:
        """After the effect: the cleanup now, or, when the effect awaits a decision, kept in it."""
        chosen: tuple[int, ...] = ()
        if to_buffer_cards:
            by_card: dict[str, list[int]] = {}
            for nc in txn.state.neutral_zone.cards:
                if nc.origin == "hand":
                    by_card.setdefault(nc.card, []).append(nc.oid)
            chosen = tuple(by_card[cid].pop(0) for cid in to_buffer_cards)
        if txn.deferred is not None:
            txn.open_decision(replace(txn.deferred, to_buffer=chosen, lilac_as=lilac, spent=tuple(spent)))
            return
        txn.cleanup(seat, chosen, lilac, tuple(spent))
        agents.limit_after(txn, seat)

    def _play_digits(self, txn: Txn, seat: str, i: PlayDigits) -> None:
        turn.spend_main(txn, "R-DIGITS")
        txn.require(len(i.hand) + len(i.buffer) > 0, "too_few_cards", "a digit combination needs at least one card", "R-DIGITS")
        txn.require_in_hand(seat, i.hand, "R-DIGITS")
        slots = []
        for slot in i.buffer:
            if not (slot in self.ctx.slots and txn.player(seat).buffer.get(slot) is not None):
                txn.fail("buffer_slot_empty", f"{seat}'s {slot} is empty", "R-BUFFER")
            if slot in slots:
                txn.fail("duplicate_source", f"{slot} is named twice", "R-DIGITS")
            slots.append(slot)
        buf = txn.player(seat).buffer
        cards = [*i.hand, *(buf[s].card for s in slots)]
        total = 0
        for cid in cards:
            digit = self.ctx.card(cid).digit
            if digit is None:
                txn.fail("no_digit", f"{cid} has no digit", "R-DIGITS")
            total += digit
        if total not in DIGIT_EFFECTS:
            txn.violated("digit_sum_invalid",
                         f"the digits add up to {total} ({' + '.join(f'{c}:{self.ctx.card(c).digit}' for c in cards)}); a digit combination makes 5, 7, 9, 11 or 13",
                         "R-DIGITS")
        need = 2 if total == 5 or not self.opts["single_card_digits"] else 1
        if len(cards) < need:
            txn.violated("too_few_cards", f"a digit combination of {total} needs at least {need} cards", "R-DIGITS")
        effect = DIGIT_EFFECTS.get(total, "")
        key = self._combo_key(txn, f"digits:{total}", [*((c, None) for c in i.hand), *((buf[s].card, buf[s].oid) for s in slots)])
        self._check_repeat(txn, key, f"the digit combination {total}")
        if effect == "machinations":
            self._machinations_params(txn, seat, i)
        free_before = len(txn.free_slots(seat))
        for cid in i.hand:
            txn.to_neutral(cid, seat, f"{seat}.hand", "hand")
        for s in slots:
            obj = buf[s]
            txn.to_neutral(obj.card, obj.owner, f"{seat}.{s}", "buffer", obj.oid)
        txn.emit(ComboPlayed(seat=seat, kind="digits", effect=effect, key=key))
        self._digit_effect(txn, seat, effect, i)
        self._buffer_checks(txn, seat, list(i.hand), i.to_buffer, i.lilac_as, 0, free_before)
        self._finish_combo(txn, seat, i.to_buffer, i.lilac_as, [])

    def _machinations_params(self, txn: Txn, seat: str, i: PlayDigits) -> None:
        txn.require(i.option is not None, "missing_effect_param", "machinations (5) needs option=steal or option=move_symbol", "R-DIGITS")
        if i.option != "move_symbol":
            return
        txn.require(i.move_from is not None and i.symbol is not None and i.move_to is not None, "missing_effect_param",
                    "move_symbol needs move_from=OBJECT symbol=SYMBOL move_to=OBJECT", "R-DIGITS")
        src = _field_ref(self.ctx, str(i.move_from))
        txn.require(src is not None and get_obj(txn.state, src) is not None, "bad_effect_target",
                    f"move_from={i.move_from} is not a field object", "R-DIGITS")
        obj = get_obj(txn.state, str(src))
        txn.require(i.symbol in obj.active_symbols, "no_active_symbol", f"{obj.card} at {i.move_from} carries no {i.symbol} token", "R-DIGITS")
        dst = _field_ref(self.ctx, str(i.move_to))
        txn.require(dst is not None and dst != src and get_obj(txn.state, dst) is not None, "bad_effect_target",
                    f"move_to={i.move_to} must be another field object", "R-DIGITS")
        if self.opts["machinations_move_scope"] == "own_objects":
            txn.require(obj.controller == seat and get_obj(txn.state, str(dst)).controller == seat, "bad_effect_target",
                        "option machinations_move_scope=own_objects: both objects must be yours", "R-DIGITS")

    def _digit_effect(self, txn: Txn, seat: str, effect: str, i: PlayDigits) -> None:
        other = self.ctx.opp(seat)
        if effect == "machinations":
            if i.option == "steal":
                txn.gain(seat, "reputation", 1, "machinations")
                txn.lose(other, "reputation", 1, "machinations")
            else:
                src, dst = _field_ref(self.ctx, str(i.move_from)), _field_ref(self.ctx, str(i.move_to))
                a, b = get_obj(txn.state, str(src)), get_obj(txn.state, str(dst))
                moved = list(a.active_symbols)
                moved.remove(str(i.symbol))
                txn.set_tokens(str(src), tuple(moved), "machinations")
                txn.set_tokens(str(dst), tuple(sorted((*b.active_symbols, str(i.symbol)))), "machinations")
        elif effect == "unreliable_pr":
            txn.deferred = Pending(kind="unreliable_pr", decider=other, actor=seat, effect=effect)
        elif effect == "pr_campaign":
            txn.gain(seat, "reputation", 5, "PR campaign")
        elif effect == "big_pr_campaign":
            txn.gain(seat, "reputation", 7, "big PR campaign")
        elif effect == "charity":
            txn.gain(seat, "reputation", 4, "charity")
            txn.gain(seat, "trust", 1, "charity")

    def _play_symbols(self, txn: Txn, seat: str, i: PlaySymbols) -> None:
        turn.spend_main(txn, "R-SYMBOLS")
        if len(i.use) != 2:
            txn.fail("need_two_symbols", f"a symbol combination uses exactly two symbols, not {len(i.use)}", "R-SYMBOLS")
        a, b = (refs.source(self.ctx, u, seat) for u in i.use)
        kinds = {a.kind, b.kind}
        allowed = len(kinds) == 1 or kinds == {"hand", "buffer"} or (self.opts["mixed_field_sources"] and "field" in kinds)
        if not allowed:
            txn.violated("mixed_sources_not_allowed",
                         f"{a.kind} + {b.kind}: the two symbols come from hand+hand, hand+buffer, buffer+buffer or field+field", "R-SYMBOLS")
        state = txn.state
        hand = txn.player(seat).hand
        # the object each non-hand source names (None: there is none)
        objs = {s.ref: get_obj(state, s.ref) for s in (a, b) if s.kind != "hand"}
        for s in (a, b):
            if s.kind == "hand":
                if s.ref not in hand:
                    txn.fail("card_not_in_hand", f"{s.ref} is not in {seat}'s hand", "R-HAND")
            elif s.kind == "buffer":
                if not s.ref.startswith(f"{seat}."):
                    txn.fail("not_your_object", f"{s.ref} is not {seat}'s buffer", "R-SYMBOLS")
                if objs[s.ref] is None:
                    txn.fail("buffer_slot_empty", f"{s.ref} is empty", "R-BUFFER")
            elif objs[s.ref] is None:
                txn.fail("no_such_object", f"there is no object at {_show_ref(s.ref)}", "R-OBJECTS")
        for s in (a, b):
            if s.kind == "field":
                obj = objs[s.ref]
                if not (obj.controller == seat or self._double_of_mine(state, seat, s.ref)):
                    txn.fail("not_your_object", f"{obj.card} at {_show_ref(s.ref)} is {obj.controller}'s", "R-SYMBOLS")
        same = a.kind == b.kind and a.ref == b.ref and (a.kind != "hand" or hand.count(a.ref) < 2)
        if not same and a.kind == b.kind == "field" and self.opts["double_agent_pair"] == "one_object":
            oa, ob = objs[a.ref], objs[b.ref]
            same = a.ref.endswith("/agent") and b.ref.endswith("/agent") and oa.card == ob.card and oa.controller != ob.controller
        if same:
            txn.fail("same_object_symbols", "the two symbols must come from two different cards or objects", "R-SYMBOLS")
        for s in (a, b):
            if s.kind == "hand" and s.symbol not in self.ctx.card(s.ref).symbols:
                txn.fail("symbol_not_on_card",
                         f"{s.ref} does not print {s.symbol} ({', '.join(self.ctx.card(s.ref).symbols) or 'no symbols'})", "R-SYMBOLS")
        for s in (a, b):
            if s.kind != "hand":
                obj = objs[s.ref]
                if s.symbol not in obj.active_symbols:
                    txn.fail("no_active_symbol",
                             f"{obj.card} at {_show_ref(s.ref)} carries no active {s.symbol} ({', '.join(obj.active_symbols) or 'no tokens'})",
                             "R-BUFFER")
        neutral = self.ctx.cards.neutral_symbol
        if neutral in (a.symbol, b.symbol):
            txn.violated("lilac_not_playable", f"{neutral} cannot produce an effect", "R-SYMBOLS")
        combo = self.ctx.table.get((min(a.symbol, b.symbol), max(a.symbol, b.symbol)))
        if combo is None:
            txn.fail("no_combination", f"{a.symbol} + {b.symbol} has no entry in the combination table", "R-COMBO-TABLE")
        assert combo is not None
        effect = combo.effect
        objects = [(s.ref, None) if s.kind == "hand" else (objs[s.ref].card, objs[s.ref].oid) for s in (a, b)]
        key = self._combo_key(txn, effect, objects)
        self._check_repeat(txn, key, effect)
        check_effect(self, txn, seat, effect, i)
        free_before = len(txn.free_slots(seat))
        spent: list[tuple[int, str]] = []
        for s in (a, b):
            if s.kind == "hand":
                oid = txn.to_neutral(s.ref, seat, f"{seat}.hand", "hand")
                spent.append((oid, s.symbol))
            else:
                txn.emit(SymbolSpent(ref=s.ref, symbol=s.symbol))
        txn.emit(ComboPlayed(seat=seat, kind="symbols", effect=effect, key=key))
        placed = resolve_effect(self, txn, seat, effect, i, combo)
        self._buffer_checks(txn, seat, [s.ref for s in (a, b) if s.kind == "hand"], i.to_buffer, i.lilac_as, placed, free_before)
        self._finish_combo(txn, seat, i.to_buffer, i.lilac_as, spent)

    def _double_of_mine(self, state: State, seat: str, ref: str) -> bool:
        if not ref.endswith("/agent"):
            return False
        obj = get_obj(state, ref)
        return any(a.card == obj.card for _c, a in face_up_agents(self.ctx, state, seat))

    def _play_neutral(self, txn: Txn, seat: str, i: PlayNeutral) -> None:
        turn.spend_main(txn, "R-NEUTRAL-COMBO")
        hand = Counter(txn.player(seat).hand)
        txn.require(hand[i.lilac] > 0, "card_not_in_hand", f"{i.lilac} is not in {seat}'s hand", "R-HAND")
        neutral = self.ctx.cards.neutral_symbol
        txn.require(neutral in self.ctx.card(i.lilac).symbols, "no_lilac_symbol", f"{i.lilac} prints no {neutral} symbol", "R-NEUTRAL-COMBO")
        w = refs.source(self.ctx, i.with_, seat)
        txn.check(w.kind in ("hand", "buffer"), "mixed_sources_not_allowed",
                  "the neutral combination's second symbol comes from your hand or your buffer", "R-NEUTRAL-COMBO")
        if w.kind == "hand":
            txn.require(hand[w.ref] > 0, "card_not_in_hand", f"{w.ref} is not in {seat}'s hand", "R-HAND")
            txn.require(w.ref != i.lilac or hand[w.ref] > 1, "same_object_symbols", "the second symbol must be on another card", "R-NEUTRAL-COMBO")
            txn.require(w.symbol in self.ctx.card(w.ref).symbols, "symbol_not_on_card", f"{w.ref} does not print {w.symbol}", "R-SYMBOLS")
        else:
            txn.require(w.ref.startswith(f"{seat}."), "mixed_sources_not_allowed", f"{w.ref} is not {seat}'s buffer", "R-NEUTRAL-COMBO")
            obj = get_obj(txn.state, w.ref)
            txn.require(obj is not None, "buffer_slot_empty", f"{w.ref} is empty", "R-BUFFER")
            txn.require(w.symbol in obj.active_symbols, "no_active_symbol", f"{obj.card} at {w.ref} carries no {w.symbol}", "R-BUFFER")
        if self.opts["neutral_lilac_pair"] == "forbidden":
            txn.check(w.symbol != neutral, "lilac_not_playable", "option neutral_lilac_pair=forbidden: the second symbol may not be lilac",
                      "R-NEUTRAL-COMBO")
        txn.check(all(c == i.lilac for c in i.to_buffer) and len(i.to_buffer) <= 1, "not_from_hand",
                  f"to_buffer may name only the lilac card {i.lilac}", "R-NEUTRAL-ZONE")
        free_before = len(txn.free_slots(seat))
        txn.to_neutral(i.lilac, seat, f"{seat}.hand", "hand")
        txn.emit(ComboPlayed(seat=seat, kind="neutral", effect="neutral", key=None))
        self._buffer_checks(txn, seat, [i.lilac], i.to_buffer, i.lilac_as, 0, free_before)
        self._finish_combo(txn, seat, i.to_buffer, i.lilac_as, [])

    # -- agent actions (4.7) -------------------------------------------------------------------------

    # -- free intents (4.14) ---------------------------------------------------------------------------

    def _reaction(self, txn: Txn, seat: str) -> bool:
        active = txn.state.turn.active
        if seat == active:
            return False
        used = txn.state.turn.reactions_used
        if not used < self.opts["reaction_limit"]:
            txn.violated("reaction_limit", f"{seat} has used {used} reaction(s) this opponent turn (limit {self.opts['reaction_limit']})",
                         "R-OPP-TURN")
        txn.emit(ReactionUsed(seat=seat))
        return True

    def _utilize(self, txn: Txn, seat: str, i: Utilize) -> None:
        txn.require(i.card in txn.player(seat).hand, "card_not_in_hand", f"{i.card} is not in {seat}'s hand", "R-HAND")
        txn.require("utilization" in self.ctx.card(i.card).keywords, "no_utilization_keyword",
                    f"{i.card} has no Utilization keyword", "R-UTILIZE")
        self._reaction(txn, seat)
        main = txn.player(seat).main_archive.count
        if main > 0:
            drawn = () if i.drawn is None else (i.drawn,)
            txn.require(len(drawn) == 1, "wrong_draw_count", f"utilize draws 1 card: name it with drawn=CARD", "R-UTILIZE")
            txn.check_draw(seat, "main_archive", drawn, 1, "R-UTILIZE")
        else:
            txn.check(self.opts["utilize_empty_main"] == "allow_no_draw", "archive_empty",
                      f"{seat}'s main archive is empty (option utilize_empty_main=reject)", "R-UTILIZE")
            txn.require(i.drawn is None, "wrong_draw_count", f"{seat}'s main archive is empty: omit drawn", "R-UTILIZE")
            drawn = ()
        txn.to_utility(i.card, seat, f"{seat}.hand", "utilization")
        txn.draw(seat, "main_archive", drawn, f"{seat}.hand", "utilization")

    def _discard_for_effect(self, txn: Txn, seat: str, i: DiscardForEffect) -> None:
        where = i.from_
        if where == "hand":
            txn.require(i.card in txn.player(seat).hand, "card_not_in_hand", f"{i.card} is not in {seat}'s hand", "R-DISCARD")
            ref, zone = f"{seat}.hand", "hand"
        elif where.startswith("buf"):
            ref = refs.buffer_object(self.ctx, where, seat)
            txn.require(ref.startswith(f"{seat}."), "not_your_object", f"{where} is not {seat}'s buffer", "R-DISCARD")
            obj = get_obj(txn.state, ref)
            txn.require(obj is not None, "buffer_slot_empty", f"{seat}'s {where} is empty", "R-BUFFER")
            txn.require(obj.card == i.card, "card_mismatch", f"{seat}'s {where} holds {obj.card}, not {i.card}", "R-BUFFER")
            zone = "buffer"
        else:
            ref = refs.field_object(self.ctx, where)
            obj = get_obj(txn.state, ref)
            txn.require(obj is not None and obj.card == i.card, "no_such_object", f"{i.card} is not at {where}", "R-OBJECTS")
            txn.require(obj.controller == seat, "not_your_object", f"{i.card} at {where} is {obj.controller}'s", "R-OBJECTS")
            zone = "field"
        card = self.ctx.card(i.card)
        txn.require("discard_this" in card.keywords, "no_discard_keyword", f"{i.card} has no 'Discard this card' keyword", "R-DISCARD")
        zones = card.discard_zones or (("hand", "buffer", "field") if self.opts["discard_zones_default"] == "anywhere" else ("hand",))
        txn.check(zone in zones, "discard_zone_forbidden", f"{i.card} can be discarded for its effect only from {', '.join(zones)}", "R-DISCARD")
        self._reaction(txn, seat)
        if zone == "hand" or zone == "buffer":
            txn.to_utility(i.card, seat if zone == "hand" else obj.owner, ref, "discarded for its effect")
        elif ref.endswith("/agent") and obj.shadow is not None:
            txn.move(obj.shadow, obj.shadow_owner or seat, f"{ref.split('/')[0]}/shadow", f"{obj.shadow_owner or seat}.utility",
                     cause="discarded for its effect (its shadow stays as the agent)")
        else:
            txn.destroy(ref, "discarded for its effect")
        manual.apply_changes(txn, seat, i.card, i.changes, i.note or card.name)

    def _declare_effect(self, txn: Txn, seat: str, i: DeclareEffect) -> None:
        s = txn.state
        step = s.turn.step
        active = s.turn.active
        ok = True
        why = ""
        if i.timing == "turn_start":
            ok = step == "start" and not (seat == active and s.turn.opponent_acted)
            why = "turn_start effects are declared in step start, the active player's first"
        elif i.timing == "turn_end":
            ok = step == "end"
            why = "turn_end effects are declared in step end"
        txn.check(ok, "bad_timing", f"timing={i.timing} does not fit now (step {step}): {why}", "R-EFFECT-ORDER")
        txn.require(self._declarable(s, seat, i.source), "not_your_object",
                    f"{i.source} is not a card or object {seat} controls (field, buffer, hand or utility)", "R-MANUAL")
        manual.apply_changes(txn, seat, i.source, i.changes, i.note or f"{i.timing} effect of {i.source}")

    def _declarable(self, s: State, seat: str, source: str) -> bool:
        if source in self.ctx.cards.cards:
            p = s.players[seat]
            if source in p.hand or source in p.utility:
                return True
            for c in self.ctx.field.cells:
                cell = s.field[c]
                for obj in (cell.territory, cell.agent, cell.graffiti):
                    if obj is not None and obj.card == source and obj.controller == seat:
                        return True
                if cell.agent is not None and cell.agent.shadow == source and cell.agent.controller == seat:
                    return True
                if any(a.card == source and a.owner == seat for a in cell.attached):
                    return True
            return any(b is not None and b.card == source for b in p.buffer.values())
        try:
            ref = refs.any_object(self.ctx, source, seat)
        except refs.RefError:
            return False
        obj = get_obj(s, ref)
        return obj is not None and getattr(obj, "controller", getattr(obj, "owner", None)) == seat

    # -- decisions (4.6, 4.14) ------------------------------------------------------------------------

    def _choose(self, txn: Txn, seat: str, i: Choose) -> None:
        p = txn.state.pending
        txn.require(p is not None, "no_decision_pending", "there is no decision to answer", "R-EFFECT-ORDER")
        assert p is not None
        answer(self, txn, seat, p, i)
        txn.emit(DecisionClosed(kind=p.kind, decider=p.decider, answer=_answer_text(i)))
        if p.kind == "on_leave_window" and p.seats:
            txn.open_decision(replace(p, decider=p.seats[0], seats=p.seats[1:]))
            return
        if p.resume == "cleanup":
            txn.cleanup(p.actor, p.to_buffer, p.lilac_as, p.spent)
            agents.limit_after(txn, p.actor)
        elif p.resume == "close_turn":
            if p.kind == "agent_limit" and self.opts["on_leave_before_status_check"]:
                if turn.open_on_leave(txn, str(txn.state.turn.active), list(p.culled)):
                    return
            turn.close(txn, "C4")
        else:
            agents.limit_after(txn, p.actor)

    # -- the rest of the protocol --------------------------------------------------------------------

    def filled_intent(self, state: State, seat: str, intent: Any, chance: Chance | None) -> Any:
        return fill(self, state, seat, intent, chance)

    def evolve(self, state: State, event: Any) -> State:
        return evolve(state, event, self.ctx.exact)

    def outcome(self, state: State) -> Outcome | None:
        if state.outcome is None:
            return None
        # the measure that decided it: loyalty totals for a full field, influence otherwise
        if state.outcome.reason in ("full_field", "draw_full_field"):
            scores = {s: sum(t.loyalty for t in (state.field[c].territory for c in self.ctx.field.cells)
                             if t is not None and t.controller == s)
                      for s in self.players}
        else:
            scores = {s: p.influence for s, p in state.players.items()}
        return Outcome(winners=state.outcome.winners, reason=state.outcome.reason, scores=scores)

    def view(self, state: State, seat: str | None) -> dict[str, Any]:
        return view.view(self.ctx, state, seat)

    def hidden_ids(self, state: State, seat: str | None) -> frozenset[str]:
        return view.hidden_ids(self.ctx, state, seat)

    position_shape = POSITION_SHAPE
    position_refusal = "by_all_means/position_invalid"

    def position_value(self, path: str, value: Any, data: dict[str, Any]) -> Any:
        return view.position_value(path, value, data)

    def complete_position(self, state: State, placed: Placed) -> State:
        return view.complete_position(self.ctx, state, placed)

    def legal_intents(self, state: State, seat: str) -> Sequence[Any]:
        return legal.legal_intents(self, state, seat)

    def random_intent(self, state: State, rng: Any) -> tuple[str, Any] | None:
        """One legal (seat, intent) at random, without listing them all (load tests, benchmarks)."""
        return legal.random_intent(self, state, self.players, rng)

    def describe_event(self, event: Any) -> str | None:
        return words.describe(self.ctx, event)

    def redact(self, item: Any, actor: str | None, seat: str | None) -> Any:
        return view.redact(self.ctx, item, actor, seat)

    def chance_fields(self, intent: Any) -> tuple[str, ...]:
        return chance.chance_fields(self, intent)

    def confirmer(self, state: State, seat: str, intent: Any) -> str | None:
        """A declared effect (``changes=``) that takes a card from where ``seat`` cannot see waits for
        that zone's owner, or the arbiter, to confirm it (see :func:`manual.confirmer`)."""
        changes = intent.changes if isinstance(intent, _DECLARES) else ()
        return manual.confirmer(self.ctx, state, seat, changes) if changes else None

    def check_input(self, intent: Any) -> str | None:
        return check_input(self.ctx, intent)


#: the intents that carry a declared effect (``changes=``)
_DECLARES = (DeployAgent, PlayPlot, ActivateAbility, DiscardForEffect, DeclareEffect)


def _verb(intent: Any) -> str:
    return str(type(intent).__struct_config__.tag)




def _show_ref(ref: str) -> str:
    return ref[: -len("/territory")] if ref.endswith("/territory") else ref


def _field_ref(ctx: Ctx, text: str) -> str | None:
    try:
        return refs.field_object(ctx, text)
    except refs.RefError:
        return None




def _answer_text(i: Choose) -> str:
    parts = []
    if i.option:
        parts.append(i.option)
    if i.target:
        parts.append(f"target {i.target}")
    if i.cards:
        parts.append("cards " + ",".join(i.cards))
    return " ".join(parts)

