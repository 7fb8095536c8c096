"""The decider: setup, who may act, the checks of every intent in the spec's order, and resolution.

Check order (rules spec 4.1): the framework's checks (match over, not your turn) come first; then
G1 ``wrong_phase``, G2 ``decision_pending``, G3 ``wrong_step``, G4 ``start_draw_required``; then the
intent's own numbered checks. The first failure is the verdict. Resolution runs on a :class:`Txn`,
so every state change is an event and ``decide`` sees exactly what the fold will.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from referee.engine.chance import Chance
from referee.engine.position import Placed
from referee.engine.protocol import Accepted, ConfigError, Rejected, RulesBase
from schemas import MatchConfig, Outcome

from . import agents, chance, combos, deploy, effects, legal, manual, reactions, setup, turn, view, words
from .chance import fill
from .checkin import check_input
from .data import combination_table, parse_card_set, validate_deck
from .evolve import evolve
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
            Utilize: reactions.utilize, DiscardForEffect: reactions.discard_for_effect, DeclareEffect: manual.declare_effect,
            Choose: effects.choose,
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

    # -- decisions (4.6, 4.14) ------------------------------------------------------------------------

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
