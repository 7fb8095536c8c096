"""Copycat's rules bound to one match: the configuration checked (players, starter sets, data set,
options) and the protocol's methods. ``decide`` never raises for a bad intent: a failed check is a
Rejected value with the spec's code (``copycat/<reason>``; ``turn/not_your_turn`` where the spec
says ``not_your_turn``), a message naming the values (never a hidden card) and the rule.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import msgspec

from referee.engine import speech
from referee.engine.chance import Chance
from referee.engine.codes import MatchCode
from referee.engine.position import Placed
from referee.engine.protocol import Accepted, ConfigError, Rejected, RulesBase
from referee.engine.speech import N_
from schemas import MatchConfig, Outcome
from schemas.board import Board
from schemas.listing import Listed

from . import legal as legal_mod
from . import present
from . import view as view_mod
from . import words
from .codes import Code
from .data import SETS, Card, parse_data
from .decide import DECIDERS, attempt
from .fold import TWO_PLAYER_REMOVED, evolve
from .model import (
    DRAWS_NOTHING, SLOTS, STAGES, ActivateCard, Band, Cleanup, Department, DrawHand, EffectArgs, Event, Intent, ManualEffect,
    OfficeDeck, Player, PlayCard, Setup, State, Supply, UseOffice,
)
from .options import resolved
from .txn import Chooser, Tx, rng_chooser

TABLE = "table"
TABLE_INTENTS = (Setup, Cleanup, ManualEffect)


class CopycatRules(RulesBase[State, Intent, Event]):
    deciders = DECIDERS

    def __init__(self, config: MatchConfig) -> None:
        self.config = config
        self.players = tuple(config.players)
        n = len(self.players)
        if not 2 <= n <= 4:
            raise ConfigError.said(MatchCode.BAD_PLAYERS, N_("Copycat takes 2 to 4 players, got {n}"), n=n)
        if len(set(self.players)) != n:
            raise ConfigError.said(MatchCode.BAD_PLAYERS, N_("seats must be distinct, got {seats}"),
                                   seats=", ".join(self.players))
        self.options = resolved(config.options)
        if not config.cards_text:
            raise ConfigError.said(Code.INVALID_CARD_DATA, N_("no card data: name a data set (spec_fixture or demo)"))
        data = parse_data(config.cards_text, config.cards or "")
        cards = dict(data.cards)
        if self.options["starter_layout"] == "vp_9_11":
            money = next(c for c in cards.values() if c.set is not None and c.kind == "gain_coins")
            vp = next(c for c in cards.values() if c.set is not None and c.kind == "gain_vp")
            for cid, c in list(cards.items()):
                if c.set is not None and c.number is not None:
                    like = vp if c.number <= 11 else money
                    cards[cid] = msgspec.structs.replace(c, key=like.key, name=like.name, name_ru=like.name_ru,
                                                         color=like.color,
                                                         kind=like.kind, n=like.n)
        self.cards: dict[str, Card] = cards
        self.catalogue = cards  # card names for the leak tests
        self.offices = data.offices
        self.office_order = tuple(data.offices)
        sizes = [sum(1 for o in data.offices.values() if o.department == d) for d in range(1, 6)]
        if sizes != [int(x) for x in self.options["office_departments"]]:
            raise ConfigError.said(Code.INVALID_CARD_DATA, N_(
                "the data set's departments 1-5 hold {sizes} office cards; option office_departments says {option}"),
                sizes=sizes, option=list(self.options["office_departments"]))
        self.data = data
        self.removed = TWO_PLAYER_REMOVED
        given = dict(config.decks)
        unknown = sorted(set(given) - set(self.players))
        if unknown:
            raise ConfigError.said(Code.INVALID_SET, N_("--deck names seats; {name!r} is not one"), name=unknown[0])
        letters = {}
        for i, seat in enumerate(self.players):
            letter = given.get(seat, SETS[i]).strip().upper()
            if letter not in SETS:
                raise ConfigError.said(Code.INVALID_SET, N_("starter set of {seat}: one of A, B, C, D, not {letter!r}"),
                                       seat=seat, letter=letter)
            letters[seat] = letter
        if len(set(letters.values())) != n:
            raise ConfigError.said(Code.INVALID_SET, N_("each seat takes its own starter set"))
        self.sets = letters

    # -- the protocol ------------------------------------------------------------------------------------------

    def setup(self, chance: Chance | None) -> State:
        """Phase ``setup``: nothing laid out until the ``setup`` intent types (or draws) the facts."""
        return State(
            players={s: Player() for s in self.players}, street={s: None for s in SLOTS},
            supply=Supply(bands=tuple(Band(stage=s) for s in STAGES)),
            office_deck=OfficeDeck(bands=tuple(Department(department=d) for d in range(1, 6))),
            worker_supply={s: 0 for s in self.players}, bus=self.players,
        )

    def actors(self, state: State, intent: Intent) -> frozenset[str]:
        # turn order is checked by the deciders, at the spec's place in each check order
        if isinstance(intent, TABLE_INTENTS):
            return frozenset((*self.players, TABLE))
        return frozenset(self.players)

    def decision(self, state: State, seat: str, chance: Chance | None, waive: frozenset[str]) -> Tx:
        return Tx(self, state, seat, waive, chance=chance)

    def filled_intent(self, state: State, seat: str, intent: Intent, chance: Chance | None) -> Intent | Rejected:
        if chance is None or isinstance(intent, DRAWS_NOTHING):
            return intent
        filled, tx = self._filling(state, seat, intent, rng_chooser(chance), chance)
        if tx is not None:  # accepted: decide on this very filled intent takes the filling's decision
            # (in a digital match every chance fact is the generator's in both runs)
            self.reached(state, seat, filled, chance, tx)
        result: Intent | Rejected = filled
        return result

    def fill(self, state: State, seat: str, intent: Any, chooser: Chooser, chance: Chance | None = None) -> Any:
        """``intent`` with every chance fact its resolution draws filled in by ``chooser`` (in a digital
        match, from the top of its ordered piles: ``chance``), or the Rejected chance_mismatch."""
        return self._filling(state, seat, intent, chooser, chance)[0]

    def _filling(self, state: State, seat: str, intent: Any, chooser: Chooser,
                 chance: Chance | None) -> tuple[Any, Tx | None]:
        """:meth:`fill`'s intent, and the decision that filled it if it was accepted (else None)."""
        tx, refusal = attempt(self, state, seat, intent, fill=chooser, chance=chance)
        if refusal is not None and refusal.code == Code.CHANCE_MISMATCH:
            return refusal.verdict, None
        for path, value in sorted(tx.fills.items(), key=lambda kv: kv[0].count(".")):
            if value == ():
                continue  # nothing drawn: written as left out (the notation's empty list)
            intent = set_path(intent, path.split("."), value)
        return intent, tx if refusal is None else None

    def chance_fields(self, intent: Intent) -> tuple[str, ...]:
        if isinstance(intent, DrawHand):
            return ("drawn",)
        if isinstance(intent, Cleanup):
            return ("office_drawn", "street_refill")
        if isinstance(intent, Setup):
            return ("street", "doctorates", "first_office", "bus")
        if isinstance(intent, (PlayCard, UseOffice, ActivateCard)):  # EffectArgs, to the depth it nests
            paths: list[str] = []
            args, prefix = intent.args, "args"
            while args is not None:
                paths += [f"{prefix}.drawn", f"{prefix}.refill"]
                args, prefix = args.then, f"{prefix}.then"
            return tuple(paths)
        return ()

    def evolve(self, state: State, event: Event) -> State:
        return evolve(self, state, event)

    def outcome(self, state: State) -> Outcome | None:
        result = state.outcome
        if result is None:
            return None
        scores = dict(result.scores)
        ranking: list[tuple[str, ...]] = [tuple(sorted(result.winners))]
        rest = sorted((s for s in self.players if s not in result.winners),
                      key=lambda s: (-scores[s], -state.players[s].round_vp, s))
        groups: dict[tuple[int, int], list[str]] = {}
        for s in rest:
            groups.setdefault((scores[s], state.players[s].round_vp), []).append(s)
        ranking += [tuple(g) for g in groups.values()]
        return Outcome(winners=result.winners, reason=result.reason, scores=scores, kind="ranking",
                       ranking=tuple(ranking))

    def view(self, state: State, seat: str | None) -> dict[str, Any]:
        return view_mod.view(self, state, seat)

    def boards(self, view: dict[str, Any]) -> tuple[Board, ...]:
        return present.boards(self, view)

    def sections(self, view: dict[str, Any], drawn: tuple[Board, ...] | None = None) -> tuple[Board, ...]:
        return present.sections(self.boards(view) if drawn is None else drawn, view)

    def name_of(self, id: str) -> str | None:
        found = self.cards.get(id) or self.offices.get(id)
        return None if found is None else speech.name(found)

    def headline(self, view: dict[str, Any]) -> str:
        return present.headline(view)

    def hidden_ids(self, state: State, seat: str | None) -> frozenset[str]:
        return view_mod.hidden_ids(state, seat)

    position_shape = view_mod.POSITION_SHAPE
    position_refusal = Code.INVALID_POSITION

    def position_base(self, state: State, overrides: Mapping[str, Any]) -> State:
        return view_mod.position_base(self, state, overrides)

    def complete_position(self, state: State, placed: Placed) -> State:
        return view_mod.complete_position(self, state, placed)

    def listing(self) -> tuple[Listed, ...]:
        from .listing import listing

        return listing(self.cards, self.offices)

    def in_opening(self, state: State) -> bool:
        # the table's set-up line, then the first round's planning (each hand drawn, each order card)
        return state.phase == "setup" or (state.phase == "planning" and state.round <= 1)

    def legal_intents(self, state: State, seat: str) -> Sequence[Intent]:
        return legal_mod.legal_intents(self, state, seat)

    def describe_event(self, event: Event) -> str | None:
        return words.describe(self, event)

    def check_input(self, intent: Intent) -> str | None:
        # unknown card and office ids are logged rejections (copycat/unknown_card, copycat/unknown_office)
        return None


def set_path(node: Any, parts: list[str], value: Any) -> Any:
    """``node`` (an intent or EffectArgs) with the field at ``parts`` set, creating empty args on the way."""
    head = parts[0]
    if len(parts) == 1:
        return msgspec.structs.replace(node, **{head: value})
    inner = getattr(node, head) or EffectArgs()
    return msgspec.structs.replace(node, **{head: set_path(inner, parts[1:], value)})
