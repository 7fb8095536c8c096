"""By All Means' rules bound to one match: the configuration checked, and the protocol's methods.

:class:`ByAllMeansRules` reads the match's players, card set, decks and options into a
:class:`~.txn.Ctx`, and answers the engine: ``setup`` (:mod:`.setup`), ``actors`` and ``decide``
(every intent of spec 4 with its checks in the spec's order and its rejection codes; see
:mod:`.decide`), ``evolve`` (:mod:`.evolve`), the outcome, ``view``, hidden ids, redaction and
positions (:mod:`.view`), legal intents (:mod:`.legal`), events in words (:mod:`.words`), digital
chance (:mod:`.chance`), confirmations of declared effects (:mod:`.manual`) and input checks
(:mod:`.checkin`). ``decide`` never raises for a bad intent: a failed check is a :class:`Rejected`
value with the spec's code, a message naming the actual values and the rule it comes from.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from referee.engine.chance import Chance
from referee.engine import speech
from referee.engine.codes import MatchCode
from referee.engine.position import Placed
from referee.engine.protocol import ConfigError, Rejected, RulesBase
from referee.engine.speech import N_
from schemas import MatchConfig, Outcome
from schemas.board import Board
from schemas.listing import Listed

from . import chance, legal, manual, present, setup, view, words
from .chance import fill
from .checkin import check_input
from .data import combination_table, parse_card_set, validate_deck
from .decide import DECIDERS, who_may_act
from .fold import evolve
from .geometry import field_for
from .model import ActivateAbility, DeclareEffect, DeployAgent, DiscardForEffect, Event, Intent, PlayPlot, State
from .txn import Ctx, Txn
from .view import POSITION_SHAPE
from .codes import Code


class ByAllMeansRules(RulesBase[State, Intent, Event]):
    """By All Means bound to one match configuration."""

    deciders = DECIDERS

    def __init__(self, config: MatchConfig) -> None:
        from .options import resolve

        #: the last decision's field scan, kept for the next (see ``Txn``)
        self._scans: list[Any] = [None]
        self.config = config
        self.players = tuple(config.players)
        try:
            opts = resolve(config.options)
        except ValueError as exc:
            raise ConfigError(Code.BAD_OPTION, str(exc)) from None
        digital = config.chance == "digital"
        if "archive_tracking" not in config.options:
            opts["archive_tracking"] = "exact" if digital else "pool"
        if opts["archive_tracking"] == "exact" and not digital:
            raise ConfigError.said(Code.BAD_OPTION, N_(
                "archive_tracking=exact needs a digital match (give a seed): at a real table nobody knows the order "
                "of the archives"))
        if not config.cards_text:
            raise ConfigError.said(Code.CARDS_INVALID, N_("By All Means needs a card set (--cards spec, demo or a file)"))
        cards = parse_card_set(config.cards_text)
        source = opts["combination_table"]
        if "combination_table" not in config.options and cards.combinations:
            source = "card_set"
        if source == "card_set" and not cards.combinations:
            raise ConfigError.said(Code.CARDS_INVALID,
                                   N_("combination_table=card_set, but the card set has no [[combination]] table"))
        opts["combination_table"] = source
        self.decks: dict[str, tuple[str, ...]] = {}
        for name in config.decks:  # every deck of By All Means is a seat's
            if name not in self.players:
                raise ConfigError.said(MatchCode.BAD_DECK, N_("deck given for {name!r}, who is not a player ({seats})"),
                                       name=name, seats=", ".join(self.players))
        for seat in self.players:
            deck_id = config.decks.get(seat) or (cards.deck_order[0] if cards.deck_order else None)
            if deck_id is None:
                raise ConfigError.said(Code.DECK_INVALID, N_("the card set {cards} has no [[deck]]; name one per seat"),
                                       cards=cards.id)
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

    # -- setup (section 2) -------------------------------------------------------------------------

    def setup(self, chance: Chance | None) -> State:
        return setup.initial_state(self.ctx, chance)

    # -- who may act (3.1) --------------------------------------------------------------------------

    def actors(self, state: State, intent: Intent) -> frozenset[str]:
        return who_may_act(self.ctx, state, intent)

    # -- the verdict --------------------------------------------------------------------------------

    def decision(self, state: State, seat: str, chance: Chance | None, waive: frozenset[str]) -> Txn:
        txn = Txn(self.ctx, state, waive, chance, self._scans)
        txn.seat = seat
        return txn

    # -- the rest of the protocol --------------------------------------------------------------------

    def filled_intent(self, state: State, seat: str, intent: Intent, chance: Chance | None) -> Intent | Rejected:
        return fill(self, state, seat, intent, chance)

    def evolve(self, state: State, event: Event) -> State:
        return evolve(state, event, self.ctx.exact, self.ctx.digital)

    def outcome(self, state: State) -> Outcome | None:
        if state.outcome is None:
            return None
        # the measure that decided it: loyalty totals for a full field, influence otherwise
        if state.outcome.reason in ("full_field", "draw_full_field"):
            scores = {s: sum(t.loyalty for t in (state.field[c].territory for c in self.ctx.field.cells)
                             if t is not None and t.controller == s)
                      for s in self.players}
        else:
            scores = {s: state.players[s].influence for s in self.players}  # seat order, however the state was reached
        return Outcome(winners=state.outcome.winners, reason=state.outcome.reason, scores=scores)

    def view(self, state: State, seat: str | None) -> dict[str, Any]:
        return view.view(self.ctx, state, seat)

    def listing(self) -> tuple[Listed, ...]:
        from .listing import listing

        return listing(self.ctx.cards)

    def in_opening(self, state: State) -> bool:
        return bool(state.phase in ("opening", "order", "mulligan"))

    def boards(self, view: dict[str, Any]) -> tuple[Board, ...]:
        return present.boards(view)

    def headline(self, view: dict[str, Any]) -> str:
        return present.headline(view)

    def sections(self, view: dict[str, Any], drawn: tuple[Board, ...] | None = None) -> tuple[Board, ...]:
        return present.sections(view)  # in words of its own: not from the boards

    def name_of(self, id: str) -> str | None:
        c = self.ctx.cards.cards.get(id)
        return None if c is None else speech.name(c)

    def hidden_ids(self, state: State, seat: str | None) -> frozenset[str]:
        return view.hidden_ids(self.ctx, state, seat)

    position_shape = POSITION_SHAPE
    position_refusal = Code.POSITION_INVALID

    def position_value(self, path: str, value: Any, data: dict[str, Any]) -> Any:
        return view.position_value(path, value, data)

    def complete_position(self, state: State, placed: Placed) -> State:
        return view.complete_position(self.ctx, state, placed)

    def legal_intents(self, state: State, seat: str) -> Sequence[Intent]:
        return legal.legal_intents(self, state, seat)

    def random_intent(self, state: State, rng: Any) -> tuple[str, Intent] | None:
        """One legal (seat, intent) at random, without listing them all (load tests, benchmarks)."""
        return legal.random_intent(self, state, self.players, rng)

    def describe_event(self, event: Event) -> str | None:
        return words.describe(self.ctx, event)

    def redact(self, item: Intent | Event, actor: str | None, seat: str | None) -> Intent | Event:
        return view.redact(self.ctx, item, actor, seat)

    def chance_fields(self, intent: Intent) -> tuple[str, ...]:
        return chance.chance_fields(self, intent)

    def confirmer(self, state: State, seat: str, intent: Intent) -> str | None:
        """A declared effect (``changes=``) that takes a card from where ``seat`` cannot see waits for
        that zone's owner, or the arbiter, to confirm it (see :func:`manual.confirmer`)."""
        changes = intent.changes if isinstance(intent, _DECLARES) else ()
        return manual.confirmer(self.ctx, state, seat, changes) if changes else None

    def check_input(self, intent: Intent) -> str | None:
        return check_input(self.ctx, intent)


#: the intents that carry a declared effect (``changes=``)
_DECLARES = (DeployAgent, PlayPlot, ActivateAbility, DiscardForEffect, DeclareEffect)
