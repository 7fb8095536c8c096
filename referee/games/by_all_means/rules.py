"""The decider: setup, who may act, the checks of every intent in the spec's order, and resolution.

Check order (rules spec 4.1): the framework's checks (match over, not your turn) come first; then
G1 ``wrong_phase``, G2 ``decision_pending``, G3 ``wrong_step``, G4 ``start_draw_required``; then the
intent's own numbered checks. The first failure is the verdict. Resolution runs on a :class:`Txn`,
so every state change is an event and ``decide`` sees exactly what the fold will.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from msgspec.structs import replace

from referee.engine.chance import Chance
from referee.engine.position import Placed
from referee.engine.protocol import Accepted, ConfigError, Rejected, RulesBase
from schemas import MatchConfig, Outcome

from . import agents, chance, combos, deploy, legal, manual, refs, setup, turn, view, words
from .chance import fill
from .checkin import check_input
from .effects import answer
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
    Utilize,
)
from .txn import Ctx, Refuse, Txn

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
            CloseTurn: turn.close_turn, DrawMain: turn.draw_main, PlayDigits: combos.play_digits,
            PlaySymbols: combos.play_symbols, PlayNeutral: combos.play_neutral, DeployAgent: deploy.deploy_agent,
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
        answer(txn, seat, p, i)
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










def _answer_text(i: Choose) -> str:
    parts = []
    if i.option:
        parts.append(i.option)
    if i.target:
        parts.append(f"target {i.target}")
    if i.cards:
        parts.append("cards " + ",".join(i.cards))
    return " ".join(parts)

